// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/graphdiff.h"

#include <deque>
#include <unordered_map>
#include <unordered_set>

namespace AotStudio::Graph {

const char *toString(MatchKind kind)
{
    switch (kind) {
    case MatchKind::Provenance:
        return "provenance";
    case MatchKind::Name:
        return "name";
    case MatchKind::Structure:
        return "structure";
    }
    return "?";
}

GraphDiff diffSnapshots(const Snapshot &before, const Snapshot &after)
{
    std::unordered_map<std::string, std::string> afterToBefore; // after id -> before id
    std::unordered_map<std::string, MatchKind> via;
    std::unordered_set<std::string> beforeTaken;

    const auto pair = [&](const std::string &a, const std::string &b, MatchKind kind) {
        afterToBefore[a] = b;
        via[a] = kind;
        beforeTaken.insert(b);
    };

    // 1. Provenance: an after-node created from a before-node that is gone by name.
    for (const Node &n : after.nodes) {
        if (before.find(n.id))
            continue; // it still exists by name: the name match below is the right one
        for (const std::string &origin : n.provenanceNodes()) {
            if (origin != n.id && before.find(origin) && !after.find(origin) && !beforeTaken.count(origin)) {
                pair(n.id, origin, MatchKind::Provenance);
                break;
            }
        }
    }
    // 2. Name.
    for (const Node &n : after.nodes) {
        if (!afterToBefore.count(n.id) && before.find(n.id) && !beforeTaken.count(n.id))
            pair(n.id, n.id, MatchKind::Name);
    }
    // 3. Structure: same target and the same matched inputs, first unmatched candidate in order.
    // An input that names no node of `after` (a snapshot from outside may hold one) stays as it
    // is, so that it compares equal to the same dangling name in `before`.
    const auto mappedInputs = [&](const Node &n) {
        std::vector<std::string> out;
        for (const auto &in : n.inputs) {
            const auto it = afterToBefore.find(in);
            out.push_back(it != afterToBefore.end() ? it->second : after.find(in) ? "?" + in : in);
        }
        return out;
    };
    // Keyed by target and inputs together, so each lookup is one map probe (no scan over every
    // node with the same target: that was quadratic on graphs with many unpaired relus).
    const auto key = [](const std::string &target, const std::vector<std::string> &inputs) {
        std::string k = target;
        for (const auto &in : inputs) {
            k += '\0';
            k += in;
        }
        return k;
    };
    std::unordered_map<std::string, std::deque<const Node *>> candidates; // unmatched before-nodes
    for (const Node &n : before.nodes) {
        if (!beforeTaken.count(n.id))
            candidates[key(n.target, n.inputs)].push_back(&n);
    }
    for (const Node &n : after.nodes) { // topological order: inputs are paired before users
        if (afterToBefore.count(n.id))
            continue;
        const auto it = candidates.find(key(n.target, mappedInputs(n)));
        if (it != candidates.end() && !it->second.empty()) {
            pair(n.id, it->second.front()->id, MatchKind::Structure);
            it->second.pop_front();
        }
    }

    GraphDiff diff;
    for (const Node &n : after.nodes) {
        const auto it = afterToBefore.find(n.id);
        if (it == afterToBefore.end()) {
            diff.added.push_back(n.id);
            continue;
        }
        const Node &b = *before.find(it->second);
        NodeChange change{b.id, n.id, via[n.id], {}};
        if (b.id != n.id)
            change.fields.push_back("name");
        if (b.target != n.target)
            change.fields.push_back("target");
        if (b.inputs != mappedInputs(n))
            change.fields.push_back("inputs");
        if (b.outputs != n.outputs)
            change.fields.push_back("outputs");
        if (b.module != n.module)
            change.fields.push_back("module");
        if (change.fields.empty())
            ++diff.unchanged;
        else
            diff.changed.push_back(std::move(change));
    }
    for (const Node &n : before.nodes) {
        if (!beforeTaken.count(n.id))
            diff.removed.push_back(n.id);
    }
    return diff;
}

nlohmann::json toJson(const GraphDiff &diff)
{
    nlohmann::json changed = nlohmann::json::array();
    for (const auto &c : diff.changed)
        changed.push_back({{"before", c.before}, {"after", c.after}, {"via", toString(c.via)}, {"fields", c.fields}});
    return {{"added", diff.added}, {"removed", diff.removed}, {"changed", changed}, {"unchanged", diff.unchanged}};
}

} // namespace AotStudio::Graph
