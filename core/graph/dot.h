// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "graph/graph.h"

#include <string>

namespace AotStudio::Graph {

/// The snapshot as a Graphviz DOT digraph: one box per node (FX name and operator), edges from
/// `inputs`, and one `subgraph cluster_*` per module path (nested like nn_module_stack), so
/// `dot -Tsvg` draws the same grouping as the studio. Names and labels are quoted and escaped.
std::string toDot(const Snapshot &snapshot);

/// `text` as a DOT double-quoted string, quotes included.
std::string dotQuote(const std::string &text);

} // namespace AotStudio::Graph
