// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/compare.h"
#include "compare/compare_p.h"

#include "compare/textdiff.h"
#include "graph/graph.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <regex>
#include <set>
#include <unordered_map>

namespace AotStudio::Compare {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string text(const json &v)
{
    if (v.is_null())
        return {};
    if (v.is_string())
        return v.get<std::string>();
    return v.dump();
}

// --- side by side ----------------------------------------------------------------------------

std::string kindText(const JobFolder &j)
{
    std::string k = toString(j.kind);
    if (!j.scheme.empty())
        k += " (" + j.scheme + ")";
    if (!j.bucket.empty())
        k += " (bucket " + j.bucket + ")";
    return k;
}

std::vector<FieldRow> sideBySide(const JobFolder &a, const JobFolder &b)
{
    std::vector<FieldRow> rows {
        { "folder", a.dir.string(), b.dir.string() },
        { "kind", kindText(a), kindText(b) },
        { "model", a.model, b.model },
        { "device", a.device, b.device },
        { "dtype", a.dtype, b.dtype },
        { "torch", a.torchVersion, b.torchVersion },
        { "torchao", a.torchaoVersion, b.torchaoVersion },
        { "cuda", a.cudaVersion, b.cudaVersion },
        { "package bytes", a.packageBytes ? std::to_string(*a.packageBytes) : "",
            b.packageBytes ? std::to_string(*b.packageBytes) : "" },
    };
    // Every option either job recorded, in name order; device and dtype have their rows above.
    std::set<std::string> keys;
    for (const auto *o : { &a.options, &b.options })
        if (o->is_object())
            for (const auto &[k, v] : o->items())
                if (k != "device" && k != "dtype")
                    keys.insert(k);
    for (const auto &k : keys)
        rows.push_back({ "option " + k, text(a.options.value(k, json())), text(b.options.value(k, json())) });
    return rows;
}

// --- graphs ----------------------------------------------------------------------------------

StageDiff diffStage(const StageSnapshot &sa, const StageSnapshot &sb)
{
    StageDiff d;
    d.stage = sa.stage;
    d.a = sa;
    d.b = sb;
    Graph::Snapshot ga, gb;
    try {
        ga = Graph::loadSnapshot(sa.file.string());
        gb = Graph::loadSnapshot(sb.file.string());
    } catch (const Graph::GraphError &e) {
        d.error = e.what();
        return d;
    }
    d.nodesA = ga.nodes.size();
    d.nodesB = gb.nodes.size();
    d.diff = Graph::diffSnapshots(ga, gb);
    for (const auto &id : d.diff.added)
        if (const auto *n = gb.find(id))
            d.added.push_back({ n->id, n->target, n->module });
    for (const auto &id : d.diff.removed)
        if (const auto *n = ga.find(id))
            d.removed.push_back({ n->id, n->target, n->module });
    std::map<std::string, std::pair<int, int>> counts;
    for (const auto &n : ga.nodes)
        if (n.op == "call_function" || n.op == "call_module")
            ++counts[n.target].first;
    for (const auto &n : gb.nodes)
        if (n.op == "call_function" || n.op == "call_module")
            ++counts[n.target].second;
    for (const auto &[t, c] : counts)
        if (c.first != c.second)
            d.targets.push_back({ t, c.first, c.second });
    std::stable_sort(d.targets.begin(), d.targets.end(),
        [](const TargetCount &x, const TargetCount &y) { return std::abs(x.b - x.a) > std::abs(y.b - y.a); });
    return d;
}

// --- kernels ---------------------------------------------------------------------------------

/// Kernel source with what differs between two compiles of the same code taken out: the kernel's
/// own name (Inductor numbers kernels by position) and the graph id in the profiling range name
/// (record_graph_0_cpp_fused_relu_0_).
std::string normalizedSource(const std::string &source, const std::string &name)
{
    static const std::regex graphId("graph_[0-9]+_");
    std::string s = std::regex_replace(source, graphId, "graph_N_");
    if (!name.empty()) {
        for (std::size_t pos = s.find(name); pos != std::string::npos; pos = s.find(name, pos + 8))
            s.replace(pos, name.size(), "<kernel>");
    }
    return s;
}

std::map<std::string, KernelInfo> kernelsByName(const json &k)
{
    std::map<std::string, KernelInfo> out;
    for (const auto &e : k.value("kernels", json::array())) {
        const std::string name = str(e, "name");
        if (name.empty())
            continue;
        auto &info = out[name];
        info.name = name;
        if (info.kind.empty())
            info.kind = str(e, "kind");
        ++info.instances;
        for (const auto &n : e.value("post_grad_nodes", json::array()))
            if (n.is_string())
                info.nodes.push_back(n.get<std::string>());
        if (info.source.empty())
            info.source = str(e, "source");
    }
    for (auto &[name, info] : out) {
        std::sort(info.nodes.begin(), info.nodes.end());
        info.nodes.erase(std::unique(info.nodes.begin(), info.nodes.end()), info.nodes.end());
    }
    return out;
}

std::vector<std::string> minus(const std::vector<std::string> &x, const std::vector<std::string> &y)
{
    std::vector<std::string> out;
    std::set_difference(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(out));
    return out;
}

KernelChange change(const KernelInfo &a, const KernelInfo &b, const std::string &labelA, const std::string &labelB)
{
    KernelChange c;
    c.nameA = a.name;
    c.nameB = b.name;
    c.kind = b.kind.empty() ? a.kind : b.kind;
    c.instancesA = a.instances;
    c.instancesB = b.instances;
    c.nodesOnlyA = minus(a.nodes, b.nodes);
    c.nodesOnlyB = minus(b.nodes, a.nodes);
    c.sourceChanged = normalizedSource(a.source, a.name) != normalizedSource(b.source, b.name);
    if (c.sourceChanged)
        c.sourceDiff = unifiedDiff(a.source, b.source, labelA + "/" + a.name, labelB + "/" + b.name);
    return c;
}

bool differs(const KernelChange &c)
{
    return c.renamed() || c.sourceChanged || !c.nodesOnlyA.empty() || !c.nodesOnlyB.empty()
        || c.instancesA != c.instancesB;
}

} // namespace

KernelDiff diffKernels(const json &kernelsA, const json &kernelsB, const std::string &labelA, const std::string &labelB)
{
    KernelDiff d;
    d.compared = true;
    const auto a = kernelsByName(kernelsA), b = kernelsByName(kernelsB);
    d.countA = a.size();
    d.countB = b.size();
    for (const auto &[name, ka] : a) {
        const auto it = b.find(name);
        if (it == b.end()) {
            d.onlyA.push_back(ka);
            continue;
        }
        KernelChange c = change(ka, it->second, labelA, labelB);
        if (differs(c))
            d.changed.push_back(std::move(c));
        else
            d.unchanged.push_back(name);
    }
    for (const auto &[name, kb] : b)
        if (!a.count(name))
            d.onlyB.push_back(kb);
    // Renamed: a kernel only in A whose source, names taken out, is a kernel only in B's.
    std::multimap<std::pair<std::string, std::string>, std::size_t> byCode; // (kind, normalized source) -> onlyB index
    for (std::size_t i = 0; i < d.onlyB.size(); ++i)
        if (!d.onlyB[i].source.empty())
            byCode.emplace(std::pair { d.onlyB[i].kind, normalizedSource(d.onlyB[i].source, d.onlyB[i].name) }, i);
    std::vector<bool> takenB(d.onlyB.size(), false);
    std::vector<KernelInfo> keptA;
    for (const auto &ka : d.onlyA) {
        bool paired = false;
        if (!ka.source.empty()) {
            auto [lo, hi] = byCode.equal_range({ ka.kind, normalizedSource(ka.source, ka.name) });
            for (auto it = lo; it != hi && !paired; ++it) {
                if (takenB[it->second])
                    continue;
                takenB[it->second] = true;
                d.changed.push_back(change(ka, d.onlyB[it->second], labelA, labelB));
                paired = true;
            }
        }
        if (!paired)
            keptA.push_back(ka);
    }
    d.onlyA = std::move(keptA);
    std::vector<KernelInfo> keptB;
    for (std::size_t i = 0; i < d.onlyB.size(); ++i)
        if (!takenB[i])
            keptB.push_back(std::move(d.onlyB[i]));
    d.onlyB = std::move(keptB);
    return d;
}

namespace {

/// A buffer's pairing key: the post-grad nodes it holds, its dtype and shape.
std::string memoryKey(const json &buffer)
{
    return buffer.value("nodes", json::array()).dump() + "|" + stringField(buffer, "dtype") + "|"
        + buffer.value("shape", json()).dump();
}

json memorySide(const json &memory, std::optional<double> measured)
{
    const json peak = memory.value("peak", json::object());
    return {{"predicted_bytes", peak.value("predicted_bytes", json())},
            {"planned_bytes", peak.value("planned_bytes", json())},
            {"measured_bytes", measured ? json(*measured) : json()},
            {"constants_bytes", memory.value("constants_bytes", json())},
            {"buffers", memory.value("buffers", json::array()).size()},
            {"complete", memory.value("complete", false)}};
}

/// The `aoti` variant's measured peak of a profile.json (core/profiler/PROFILE.md), if any.
std::optional<double> measuredPeak(const json &profile)
{
    if (!profile.is_object())
        return std::nullopt;
    for (const auto &v : profile.value("variants", json::array()))
        if (stringField(v, "name") == "aoti" && v.contains("memory") && v["memory"].is_object()
            && v["memory"].value("peak_bytes", json()).is_number())
            return v["memory"]["peak_bytes"].get<double>();
    return std::nullopt;
}

} // namespace

MemoryDiff diffMemory(const json &memoryA, const json &memoryB, std::optional<double> measuredA,
                      std::optional<double> measuredB)
{
    MemoryDiff d;
    const bool okA = memoryA.is_object() && memoryA.value("available", false);
    const bool okB = memoryB.is_object() && memoryB.value("available", false);
    if (!okA || !okB) {
        d.why = std::string(!okA && !okB ? "A and B have" : !okA ? "A has" : "B has") + " no memory plan";
        return d;
    }
    d.compared = true;
    d.a = memorySide(memoryA, measuredA);
    d.b = memorySide(memoryB, measuredB);
    std::map<std::string, std::vector<json>> byKeyB;
    for (const auto &buffer : memoryB.value("buffers", json::array()))
        byKeyB[memoryKey(buffer)].push_back(buffer);
    auto brief = [](const json &b) {
        return json{{"name", stringField(b, "name")},
                    {"bytes", b.value("bytes", json())},
                    {"dtype", b.value("dtype", json())},
                    {"shape", b.value("shape", json())},
                    {"nodes", b.value("nodes", json::array())}};
    };
    for (const auto &buffer : memoryA.value("buffers", json::array())) {
        auto it = byKeyB.find(memoryKey(buffer));
        if (it != byKeyB.end() && !it->second.empty()) {
            it->second.pop_back();
            ++d.paired;
        } else {
            d.onlyA.push_back(brief(buffer));
        }
    }
    for (const auto &[key, rest] : byKeyB)
        for (const auto &buffer : rest)
            d.onlyB.push_back(brief(buffer));
    auto largestFirst = [](const json &x, const json &y) { return x.value("bytes", 0.0) > y.value("bytes", 0.0); };
    std::stable_sort(d.onlyA.begin(), d.onlyA.end(), largestFirst);
    std::stable_sort(d.onlyB.begin(), d.onlyB.end(), largestFirst);
    return d;
}

FusionDiff diffFusion(const json &fusionA, const json &fusionB)
{
    FusionDiff d;
    const bool okA = fusionA.is_object() && fusionA.value("available", false);
    const bool okB = fusionB.is_object() && fusionB.value("available", false);
    if (!okA || !okB) {
        d.why = std::string(!okA && !okB ? "A and B have" : !okA ? "A has" : "B has") + " no fusion decisions";
        return d;
    }
    d.compared = true;
    // Counts as the files have them; a count that is not a number reads as 0 (never thrown on).
    auto counts = [](const json &f, const char *field) {
        std::map<std::string, long long> out;
        const json o = f.value(field, json::object());
        if (o.is_object())
            for (const auto &[k, v] : o.items())
                out[k] = v.is_number() ? v.get<long long>() : 0;
        return out;
    };
    auto rows = [](const std::map<std::string, long long> &a, const std::map<std::string, long long> &b,
                   std::vector<std::string> order) {
        std::vector<FusionDiff::Count> out;
        for (const auto &m : {a, b})
            for (const auto &[k, v] : m)
                if (std::find(order.begin(), order.end(), k) == order.end())
                    order.push_back(k);
        for (const auto &k : order) {
            const auto ia = a.find(k), ib = b.find(k);
            out.push_back({k, ia == a.end() ? 0 : ia->second, ib == b.end() ? 0 : ib->second});
        }
        return out;
    };
    d.categories = rows(counts(fusionA, "by_category"), counts(fusionB, "by_category"), {});
    std::stable_sort(d.categories.begin(), d.categories.end(),
                     [](const FusionDiff::Count &x, const FusionDiff::Count &y) { return x.a + x.b > y.a + y.b; });
    d.statuses = rows(counts(fusionA, "status_counts"), counts(fusionB, "status_counts"),
                      {"fused", "refused", "not_chosen", "never_candidate"});
    auto size = [](const json &f, const char *field) {
        const json v = f.value(field, json::array());
        return v.is_array() ? static_cast<long long>(v.size()) : 0LL;
    };
    d.refusedA = size(fusionA, "refused");
    d.refusedB = size(fusionB, "refused");
    auto number = [](const json &f, const char *field) {
        const json v = f.value(field, json());
        return v.is_number() ? v.get<long long>() : 0LL;
    };
    d.fusedKernelsA = number(fusionA, "fused_kernels");
    d.fusedKernelsB = number(fusionB, "fused_kernels");
    d.completeA = fusionA.value("complete", true) == true;
    d.completeB = fusionB.value("complete", true) == true;
    return d;
}

Comparison compareJobs(const JobFolder &a, const JobFolder &b, const CompareOptions &options)
{
    if (a.model != b.model)
        throw CompareError("A and B are jobs of different models: A ('" + a.dir.string() + "') compiled '" + a.model
            + "', B ('" + b.dir.string() + "') compiled '" + b.model + "'; compare two jobs of one model");
    Comparison c;
    c.a = a;
    c.b = b;
    c.fields = sideBySide(a, b);

    // Stages in A's order that B has too.
    std::vector<std::string> shared;
    for (const auto &s : a.stages) {
        if (std::any_of(b.stages.begin(), b.stages.end(), [&](const StageSnapshot &x) { return x.stage == s.stage; }))
            shared.push_back(s.stage);
        else
            c.stagesOnlyA.push_back(s.stage);
    }
    for (const auto &s : b.stages)
        if (std::find(shared.begin(), shared.end(), s.stage) == shared.end())
            c.stagesOnlyB.push_back(s.stage);
    if (!options.stage.empty() && std::find(shared.begin(), shared.end(), options.stage) == shared.end()) {
        std::string list;
        for (const auto &s : shared)
            list += (list.empty() ? "" : ", ") + s;
        throw CompareError("stage '" + options.stage + "' is not a stage both jobs have snapshots of; "
            + (list.empty() ? std::string("they share none") : "they share: " + list));
    }
    for (const auto &s : shared) {
        if (!options.stage.empty() && s != options.stage)
            continue;
        const auto &sa
            = *std::find_if(a.stages.begin(), a.stages.end(), [&](const StageSnapshot &x) { return x.stage == s; });
        const auto &sb
            = *std::find_if(b.stages.begin(), b.stages.end(), [&](const StageSnapshot &x) { return x.stage == s; });
        c.stages.push_back(diffStage(sa, sb));
    }

    if (a.kernelsFile.empty() || b.kernelsFile.empty()) {
        c.kernels.why = std::string(a.kernelsFile.empty() && b.kernelsFile.empty() ? "A and B have"
                                : a.kernelsFile.empty()                            ? "A has"
                                                                                   : "B has")
            + " no kernels.json";
    } else {
        c.kernels = diffKernels(
            readJson(a.kernelsFile, Graph::kMaxSnapshotBytes), readJson(b.kernelsFile, Graph::kMaxSnapshotBytes));
    }
    c.time = diffTime(a, b);
    if (a.memoryFile.empty() || b.memoryFile.empty())
        c.memory.why = std::string(a.memoryFile.empty() && b.memoryFile.empty() ? "A and B have"
                                       : a.memoryFile.empty()                   ? "A has"
                                                                                : "B has")
            + " no memory.json (compiled before memory plans were recorded)";
    else
        c.memory = diffMemory(readJson(a.memoryFile), readJson(b.memoryFile), measuredPeak(a.profile),
                              measuredPeak(b.profile));
    if (a.fusionFile.empty() || b.fusionFile.empty())
        c.fusion.why = std::string(a.fusionFile.empty() && b.fusionFile.empty() ? "A and B have"
                                       : a.fusionFile.empty()                   ? "A has"
                                                                                : "B has")
            + " no fusion.json (compiled before fusion decisions were recorded)";
    else
        c.fusion = diffFusion(readJson(a.fusionFile), readJson(b.fusionFile));
    return c;
}

Comparison compareFolders(const fs::path &a, const fs::path &b, const CompareOptions &options)
{
    const JobFolder ja = loadJobFolder(a), jb = loadJobFolder(b);
    try {
        return compareJobs(ja, jb, options);
    } catch (const json::exception &e) {
        throw CompareError("a file of '" + ja.dir.string() + "' or '" + jb.dir.string()
            + "' does not have the shape AOT Studio writes (" + e.what() + ")");
    }
}

} // namespace AotStudio::Compare
