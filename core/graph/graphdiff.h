// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "graph/graph.h"

#include <string>
#include <vector>

namespace AotStudio::Graph {

/// How a node of the "after" snapshot was paired with one of the "before" snapshot.
enum class MatchKind {
    Provenance, ///< the after-node's provenance names the before-node (a pass replaced it)
    Name,       ///< same FX node name in both
    Structure,  ///< same target and the same (already matched) inputs
};

const char *toString(MatchKind kind);

struct NodeChange {
    std::string before;              ///< node id in the "before" snapshot
    std::string after;               ///< node id in the "after" snapshot
    MatchKind via = MatchKind::Name;
    std::vector<std::string> fields; ///< what differs: target, inputs, outputs, module, name
};

/// The difference between two snapshots. Ids refer to the snapshot they come from.
struct GraphDiff {
    std::vector<std::string> added;   ///< after-nodes with no partner
    std::vector<std::string> removed; ///< before-nodes with no partner
    std::vector<NodeChange> changed;  ///< paired nodes that differ in at least one field
    std::size_t unchanged = 0;        ///< paired nodes equal in every compared field

    bool empty() const { return added.empty() && removed.empty() && changed.empty(); }
};

/// Structural diff of `before` -> `after`, the way DESIGN.md §4 asks: nodes are paired by
/// provenance first (an after-node whose provenance chain names a before-node that no longer
/// exists by name took its place), then by FX name, then by structure (same target, same matched
/// inputs, in topological order). Inputs are compared through the pairing, so a renamed producer
/// does not mark its consumers changed. O(N log N) in the node count.
GraphDiff diffSnapshots(const Snapshot &before, const Snapshot &after);

/// {"added": [...], "removed": [...], "changed": [{before, after, via, fields}], "unchanged": N}
nlohmann::json toJson(const GraphDiff &diff);

} // namespace AotStudio::Graph
