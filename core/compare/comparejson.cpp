// SPDX-License-Identifier: GPL-3.0-or-later
// A comparison as JSON (compare.h toJson; FORMAT.md "compare").
#include "compare/compare.h"

#include "graph/graphdiff.h"

namespace AotStudio::Compare {

using nlohmann::json;

namespace {

json fusionJson(const FusionDiff &f)
{
    auto rows = [](const std::vector<FusionDiff::Count> &counts) {
        json out = json::array();
        for (const auto &c : counts)
            out.push_back({{"name", c.name}, {"a", c.a}, {"b", c.b}});
        return out;
    };
    return {{"compared", f.compared},
            {"why", f.why.empty() ? json() : json(f.why)},
            {"refused_a", f.refusedA},
            {"refused_b", f.refusedB},
            {"fused_kernels_a", f.fusedKernelsA},
            {"fused_kernels_b", f.fusedKernelsB},
            {"complete_a", f.completeA},
            {"complete_b", f.completeB},
            {"by_category", rows(f.categories)},
            {"status_counts", rows(f.statuses)}};
}

json estimateJson(const std::optional<Estimate> &e)
{
    if (!e)
        return nullptr;
    return {{"estimate", e->estimate},
            {"low", e->low ? json(*e->low) : json()},
            {"high", e->high ? json(*e->high) : json()},
            {"level", 0.95}};
}

json latencyJson(const std::optional<Latency> &l)
{
    if (!l)
        return nullptr;
    return {{"median_ms", l->medianMs}, {"p10_ms", l->p10Ms}, {"p90_ms", l->p90Ms}, {"runs", l->runs}};
}

json sideJson(const SideTime &s)
{
    return {{"source", s.source.empty() ? json() : json(s.source)},
            {"profiled", s.profiled},
            {"compiled", latencyJson(s.compiled)},
            {"eager", latencyJson(s.eager)},
            {"speedup", estimateJson(s.speedup)},
            {"verdict", s.verdict.empty() ? json() : json(s.verdict)},
            {"threads", s.threads ? json(*s.threads) : json()},
            {"created", s.created.empty() ? json() : json(s.created)}};
}

json jobJson(const JobFolder &j)
{
    json stages = json::array();
    for (const auto &s : j.stages)
        stages.push_back({{"stage", s.stage}, {"pass", s.pass}, {"snapshot", s.file.string()}});
    return {{"dir", j.dir.string()},
            {"kind", toString(j.kind)},
            {"model", j.model},
            {"device", j.device},
            {"dtype", j.dtype},
            {"scheme", j.scheme.empty() ? json() : json(j.scheme)},
            {"bucket", j.bucket.empty() ? json() : json(j.bucket)},
            {"options", j.options},
            {"torch_version", j.torchVersion.empty() ? json() : json(j.torchVersion)},
            {"torchao_version", j.torchaoVersion.empty() ? json() : json(j.torchaoVersion)},
            {"cuda_version", j.cudaVersion.empty() ? json() : json(j.cudaVersion)},
            {"package", j.package.empty() ? json() : json(j.package.string())},
            {"package_bytes", j.packageBytes ? json(*j.packageBytes) : json()},
            {"kernels_json", j.kernelsFile.empty() ? json() : json(j.kernelsFile.string())},
            {"profile", !j.profile.is_null()},
            {"stages", stages},
            {"notes", j.notes}};
}

json nodesJson(const std::vector<NodeRef> &nodes)
{
    json out = json::array();
    for (const auto &n : nodes)
        out.push_back({{"id", n.id}, {"target", n.target}, {"module", n.module}});
    return out;
}

json kernelInfoJson(const KernelInfo &k)
{
    return {{"name", k.name}, {"kind", k.kind}, {"instances", k.instances}, {"covered_nodes", k.nodes}};
}

} // namespace

json toJson(const Comparison &c)
{
    json fields = json::array();
    for (const auto &f : c.fields)
        fields.push_back({{"field", f.field}, {"a", f.a}, {"b", f.b}, {"differs", f.differs()}});
    json stages = json::array();
    for (const auto &s : c.stages) {
        json targets = json::array();
        for (const auto &t : s.targets)
            targets.push_back({{"target", t.target}, {"a", t.a}, {"b", t.b}});
        json changed = json::array();
        for (const auto &ch : s.diff.changed)
            changed.push_back(
                {{"a", ch.before}, {"b", ch.after}, {"via", Graph::toString(ch.via)}, {"fields", ch.fields}});
        stages.push_back({{"stage", s.stage},
                          {"a", {{"pass", s.a.pass}, {"snapshot", s.a.file.string()}, {"nodes", s.nodesA}}},
                          {"b", {{"pass", s.b.pass}, {"snapshot", s.b.file.string()}, {"nodes", s.nodesB}}},
                          {"error", s.error.empty() ? json() : json(s.error)},
                          {"empty", s.error.empty() && s.diff.empty()},
                          {"only_a", nodesJson(s.removed)},
                          {"only_b", nodesJson(s.added)},
                          {"changed", changed},
                          {"unchanged", s.diff.unchanged},
                          {"targets", targets}});
    }
    json kernels = {{"compared", c.kernels.compared},
                    {"why", c.kernels.why.empty() ? json() : json(c.kernels.why)},
                    {"count_a", c.kernels.countA},
                    {"count_b", c.kernels.countB},
                    {"unchanged", c.kernels.unchanged}};
    kernels["only_a"] = json::array();
    for (const auto &k : c.kernels.onlyA)
        kernels["only_a"].push_back(kernelInfoJson(k));
    kernels["only_b"] = json::array();
    for (const auto &k : c.kernels.onlyB)
        kernels["only_b"].push_back(kernelInfoJson(k));
    kernels["changed"] = json::array();
    for (const auto &k : c.kernels.changed)
        kernels["changed"].push_back({{"name_a", k.nameA},
                                      {"name_b", k.nameB},
                                      {"kind", k.kind},
                                      {"renamed", k.renamed()},
                                      {"source_changed", k.sourceChanged},
                                      {"source_diff", k.sourceDiff.empty() ? json() : json(k.sourceDiff)},
                                      {"nodes_only_a", k.nodesOnlyA},
                                      {"nodes_only_b", k.nodesOnlyB},
                                      {"instances_a", k.instancesA},
                                      {"instances_b", k.instancesB}});
    json kernelTimes = json::array();
    for (const auto &k : c.time.kernels)
        kernelTimes.push_back({{"name", k.name},
                               {"kind", k.kind},
                               {"ms_a", k.msA ? json(*k.msA) : json()},
                               {"ms_b", k.msB ? json(*k.msB) : json()},
                               {"delta_ms", k.msA && k.msB ? json(k.delta()) : json()}});
    json groups = json::array();
    for (const auto &g : c.time.groups)
        groups.push_back({{"group", g.group},
                          {"ms_a", g.msA ? json(*g.msA) : json()},
                          {"ms_b", g.msB ? json(*g.msB) : json()},
                          {"delta_ms", g.msA && g.msB ? json(g.delta()) : json()}});
    const json time
        = {{"pairing", c.time.paired ? "paired" : "different_runs"},
           {"a", sideJson(c.time.a)},
           {"b", sideJson(c.time.b)},
           {"latency_ratio", estimateJson(c.time.latencyRatio)},
           {"latency_ratio_method",
            "compiled B / compiled A = speedup A / speedup B (each eager / compiled, paired within its own run); "
            "95% intervals combined in log space as independent"},
           {"eager_moved", c.time.eagerMoved},
           {"kernels", kernelTimes},
           {"groups", groups},
           {"verdict", c.time.verdict},
           {"notes", c.time.notes}};
    return {{"format", "aotstudio.compare"},
            {"format_version", 1},
            {"a", jobJson(c.a)},
            {"b", jobJson(c.b)},
            {"fields", fields},
            {"stages", stages},
            {"stages_only_a", c.stagesOnlyA},
            {"stages_only_b", c.stagesOnlyB},
            {"kernels", kernels},
            {"time", time},
            {"memory",
             {{"compared", c.memory.compared},
              {"why", c.memory.why.empty() ? json() : json(c.memory.why)},
              {"a", c.memory.a},
              {"b", c.memory.b},
              {"paired", c.memory.paired},
              {"only_a", c.memory.onlyA},
              {"only_b", c.memory.onlyB}}},
            {"fusion", fusionJson(c.fusion)}};
}

} // namespace AotStudio::Compare
