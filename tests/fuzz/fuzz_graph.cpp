// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a graph snapshot file (core/graph/SCHEMA.md) from outside (a session, a remote
// engine), as `aotstudio-cli diff` and the graph dock read it: parse, diff against itself and
// against a small fixed snapshot. Oracles: only GraphError is
// thrown, a snapshot diffed with itself changes nothing, the diff's JSON dumps.
#include "fuzzutil.h"
#include "graph/graph.h"
#include "graph/graphdiff.h"

#include <cstddef>
#include <cstdint>

using namespace AotStudio;
using nlohmann::json;

namespace {

const Graph::Snapshot &reference()
{
    static const Graph::Snapshot s = Graph::parseSnapshot(json::parse(R"({"schema": "aotstudio.graph", "version": 1,
        "stage": "capture", "nodes": [
          {"id": "x", "op": "placeholder", "target": "x", "outputs": [{"shape": [2, 3], "dtype": "float32"}]},
          {"id": "relu", "op": "call_function", "target": "aten.relu.default", "inputs": ["x"],
           "provenance": [{"pass": "p", "action": ["replace"], "node": "gelu"}]},
          {"id": "output", "op": "output", "target": "output", "inputs": ["relu"]}]})"));
    return s;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const json j = json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded())
        return 0; // loadSnapshot's "not valid JSON" (no exception inside nlohmann either)
    Graph::Snapshot s;
    try {
        s = Graph::parseSnapshot(j, "fuzz.json");
    } catch (const Graph::GraphError &) {
        return 0;
    }
    for (const auto &n : s.nodes) {
        (void)n.provenanceNodes();
        (void)n.provenancePasses();
        (void)n.dtype();
    }
    const Graph::GraphDiff self = Graph::diffSnapshots(s, s);
    if (!self.added.empty() || !self.removed.empty() || !self.changed.empty() || self.unchanged != s.nodes.size())
        FuzzUtil::fail("a snapshot diffed with itself has changes");
    FuzzUtil::requireStrictJson(Graph::toJson(Graph::diffSnapshots(reference(), s)), "diff(reference, input)");
    FuzzUtil::requireStrictJson(Graph::toJson(Graph::diffSnapshots(s, reference())), "diff(input, reference)");
    return 0;
}
