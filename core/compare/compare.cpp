// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/compare.h"

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

std::string str(const json &j, const char *key)
{
    return stringField(j, key);
}

std::optional<double> num(const json &j, const char *key)
{
    if (!j.is_object())
        return std::nullopt;
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? std::optional<double>(it->get<double>()) : std::nullopt;
}

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

// --- time ------------------------------------------------------------------------------------

std::optional<Latency> latency(const json &stats)
{
    const auto median = num(stats, "median_ms");
    if (!median || *median <= 0)
        return std::nullopt;
    Latency l;
    l.medianMs = *median;
    l.p10Ms = num(stats, "p10_ms").value_or(*median);
    l.p90Ms = num(stats, "p90_ms").value_or(*median);
    l.runs = static_cast<int>(num(stats, "runs").value_or(0));
    return l;
}

std::optional<Estimate> estimate(const json &r)
{
    const auto e = num(r, "estimate");
    if (!e || *e <= 0)
        return std::nullopt;
    return Estimate { *e, num(r, "low"), num(r, "high") };
}

SideTime sideTime(const JobFolder &j)
{
    SideTime s;
    if (j.profile.is_object()) {
        const json &p = j.profile;
        for (const auto &v : p.value("variants", json::array())) {
            if (!v.value("available", false))
                continue;
            if (str(v, "name") == "eager")
                s.eager = latency(v.value("statistics", json()));
            else if (str(v, "name") == "aoti")
                s.compiled = latency(v.value("statistics", json()));
        }
        s.speedup = estimate(p.value("speedup_interval", json::object()).value("aoti", json()));
        s.verdict = str(p.value("measurement", json()), "verdict");
        s.created = str(p, "created");
        if (const auto t = num(p, "threads"))
            s.threads = static_cast<int>(*t);
        s.source = "profile";
        s.profiled = p.value("collector", json::object()).value("available", false);
        return s;
    }
    const json &r = j.result;
    if (!r.is_object())
        return s;
    s.compiled = latency(r.value("compiled", json()));
    s.eager = latency(r.value("eager", json()));
    if (!s.compiled)
        return s;
    s.source = "compile";
    s.speedup = estimate(r.value("speedup_interval", json()));
    s.verdict = str(r.value("measurement", json()), "verdict");
    if (const auto t = num(r, "threads"))
        s.threads = static_cast<int>(*t);
    return s;
}

std::string profileName(const std::string &name)
{
    static const std::regex prefix("^graph_[0-9]+_");
    return std::regex_replace(name, prefix, "");
}

/// Per forward call (ms) of every compiled kernel of a profile, and the nodes each covers.
struct ProfiledKernel {
    std::string kind;
    double ms = 0;
    std::vector<std::string> nodes;
};

std::map<std::string, ProfiledKernel> profiledKernels(const json &p)
{
    // Sampled forward calls of the package: the kernel totals are sums over them.
    double calls = 0;
    const json sampled
        = p.value("collector", json::object()).value("sampled_calls", json::object()).value("aoti", json());
    if (sampled.is_object())
        calls = sampled.value("sampled", 0.0) - sampled.value("dropped", 0.0);
    double callMs = 0; // without the count (older files): share × the traced median
    for (const auto &v : p.value("variants", json::array()))
        if (str(v, "name") == "aoti")
            callMs = num(v.value("traced", json()), "median_ms")
                         .value_or(num(v.value("statistics", json()), "median_ms").value_or(0));
    std::map<std::string, ProfiledKernel> out;
    for (const auto &k : p.value("kernels", json::array())) {
        if (str(k, "variant") != "aoti")
            continue;
        auto &e = out[profileName(str(k, "name"))];
        e.kind = str(k, "kind");
        e.ms += calls > 0 ? num(k, "total_ms").value_or(0) / calls : num(k, "share").value_or(0) * callMs;
        for (const auto &n : k.value("covered_nodes", json::array()))
            if (n.is_string())
                e.nodes.push_back(n.get<std::string>());
    }
    return out;
}

/// Node id -> module group (the first component of its module path) in a job's post-grad graph.
std::unordered_map<std::string, std::string> moduleGroups(const JobFolder &j)
{
    std::unordered_map<std::string, std::string> out;
    const auto it
        = std::find_if(j.stages.begin(), j.stages.end(), [](const StageSnapshot &s) { return s.stage == "post_grad"; });
    if (it == j.stages.end())
        return out;
    try {
        const auto g = Graph::loadSnapshot(it->file.string());
        for (const auto &n : g.nodes)
            out[n.id] = n.module.empty() ? "(top level)" : n.module.substr(0, n.module.find('.'));
    } catch (const Graph::GraphError &) {
        // the stage diff reports the unreadable snapshot
    }
    return out;
}

/// Kernel time split over module groups in proportion to the covered nodes of each group.
std::map<std::string, double> groupTimes(
    const std::map<std::string, ProfiledKernel> &kernels, const std::unordered_map<std::string, std::string> &groups)
{
    std::map<std::string, double> out;
    for (const auto &[name, k] : kernels) {
        std::map<std::string, int> counts;
        for (const auto &n : k.nodes) {
            const auto g = groups.find(n);
            ++counts[g != groups.end() ? g->second : "(not attributed)"];
        }
        if (counts.empty())
            counts["(not attributed)"] = 1;
        int total = 0;
        for (const auto &[g, c] : counts)
            total += c;
        for (const auto &[g, c] : counts)
            out[g] += k.ms * c / total;
    }
    return out;
}

std::string fmt(const char *format, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string signedMs(double ms)
{
    return fmt(std::abs(ms) >= 1 ? "%+.2f ms" : "%+.3f ms", ms);
}

std::string ratioText(const Estimate &e)
{
    std::string s = fmt("%.2f×", e.estimate);
    if (e.hasInterval())
        s += " (95% CI " + fmt("%.2f", *e.low) + "–" + fmt("%.2f", *e.high) + ")";
    else
        s += " (no interval)";
    return s;
}

TimeDiff diffTime(const JobFolder &a, const JobFolder &b)
{
    TimeDiff t;
    t.a = sideTime(a);
    t.b = sideTime(b);
    t.notes.push_back("A and B were measured in different runs (each job against its own eager, in its own session); "
                      "no paired session covers both");
    if (t.a.speedup && t.b.speedup) {
        const Estimate r = ratioThroughEager(*t.a.speedup, *t.b.speedup);
        if (r.hasInterval()) // a ratio is never shown without its uncertainty
            t.latencyRatio = r;
    }
    if (t.a.eager && t.b.eager)
        t.eagerMoved = t.a.eager->p90Ms < t.b.eager->p10Ms || t.b.eager->p90Ms < t.a.eager->p10Ms;

    if (t.latencyRatio) {
        const auto &r = *t.latencyRatio;
        std::string line = "compiled B takes " + ratioText(r) + " the time of compiled A, through each run's eager";
        if (r.hasInterval() && *r.high < 1)
            line += ": B is faster";
        else if (r.hasInterval() && *r.low > 1)
            line += ": B is slower";
        else if (r.hasInterval())
            line += ": no difference shown at this precision";
        t.verdict.push_back(line + " (from different runs)");
    } else if (t.a.compiled && t.b.compiled) {
        t.verdict.push_back("compiled medians " + fmt("%.4g", t.a.compiled->medianMs) + " ms (A) and "
            + fmt("%.4g", t.b.compiled->medianMs)
            + " ms (B), from different runs; no ratio: a run has no "
              "speedup interval to carry its uncertainty");
    } else {
        t.verdict.push_back(std::string("latency not compared: ")
            + (t.a.compiled        ? "B"
                    : t.b.compiled ? "A"
                                   : "neither job")
            + " recorded a timed measurement");
    }
    if (t.eagerMoved)
        t.verdict.push_back("eager itself differs between the runs (A " + fmt("%.4g", t.a.eager->p10Ms) + "–"
            + fmt("%.4g", t.a.eager->p90Ms) + " ms, B " + fmt("%.4g", t.b.eager->p10Ms) + "–"
            + fmt("%.4g", t.b.eager->p90Ms)
            + " ms p10–p90): another machine, torch or load; the ratio compares "
              "speedups over eager, not absolute latency");
    for (const auto *side : { &t.a, &t.b })
        if (side->verdict == "unreliable" || side->verdict == "noisy")
            t.notes.push_back(std::string(side == &t.a ? "A" : "B") + "'s measurement was " + side->verdict
                + (side->verdict == "noisy" ? ": its figures are usable with care"
                                            : ": the machine did not allow a fair measurement (its result's "
                                              "measurement.reasons say why); rerun it on a quiet machine"));

    // How to profile a job in place: its own package, the profile written beside it.
    const auto howTo = [](const JobFolder &j) {
        if (j.package.empty() || j.kind == JobKind::Bundle)
            return std::string("aotstudio-cli profile --model ") + j.model + " --out DIR";
        return "aotstudio-cli profile --model " + j.model + " --package " + j.package.string() + " --out "
            + j.dir.string();
    };
    if (!t.a.profiled && !t.b.profiled) {
        t.verdict.push_back("time per kernel and per module group: not profiled (neither job has a profile.json with "
                            "kernel times; profile each in place: "
            + howTo(a) + ", and the same for B)");
        return t;
    }
    const bool both = t.a.profiled && t.b.profiled;
    if (!both)
        t.verdict.push_back(std::string("time per kernel and per module group: ") + (t.a.profiled ? "B" : "A")
            + " not profiled (no profile.json with kernel times; " + howTo(t.a.profiled ? b : a) + "); "
            + (t.a.profiled ? "A" : "B") + "'s times listed alone");
    std::map<std::string, ProfiledKernel> ka, kb;
    if (t.a.profiled)
        ka = profiledKernels(a.profile);
    if (t.b.profiled)
        kb = profiledKernels(b.profile);
    std::set<std::string> names;
    for (const auto *m : { &ka, &kb })
        for (const auto &[n, k] : *m)
            names.insert(n);
    for (const auto &n : names) {
        KernelTime kt;
        kt.name = n;
        if (const auto it = ka.find(n); it != ka.end()) {
            kt.msA = it->second.ms;
            kt.kind = it->second.kind;
        }
        if (const auto it = kb.find(n); it != kb.end()) {
            kt.msB = it->second.ms;
            kt.kind = it->second.kind;
        }
        if (t.a.profiled && !kt.msA)
            kt.msA = 0.0; // profiled, and this kernel is not in A: it takes no time there
        if (t.b.profiled && !kt.msB)
            kt.msB = 0.0;
        t.kernels.push_back(kt);
    }
    // Largest |B - A| first; with one side profiled, its largest times first.
    const auto weight = [&](std::optional<double> x, std::optional<double> y) {
        return both ? std::abs(y.value_or(0) - x.value_or(0)) : x.value_or(0) + y.value_or(0);
    };
    std::stable_sort(t.kernels.begin(), t.kernels.end(),
        [&](const KernelTime &x, const KernelTime &y) { return weight(x.msA, x.msB) > weight(y.msA, y.msB); });
    std::map<std::string, double> ga, gb;
    if (t.a.profiled)
        ga = groupTimes(ka, moduleGroups(a));
    if (t.b.profiled)
        gb = groupTimes(kb, moduleGroups(b));
    std::set<std::string> groupNames;
    for (const auto *m : { &ga, &gb })
        for (const auto &[g, ms] : *m)
            groupNames.insert(g);
    for (const auto &g : groupNames) {
        GroupTime gt;
        gt.group = g;
        if (t.a.profiled)
            gt.msA = ga.count(g) ? ga.at(g) : 0.0;
        if (t.b.profiled)
            gt.msB = gb.count(g) ? gb.at(g) : 0.0;
        t.groups.push_back(gt);
    }
    std::stable_sort(t.groups.begin(), t.groups.end(),
        [&](const GroupTime &x, const GroupTime &y) { return weight(x.msA, x.msB) > weight(y.msA, y.msB); });
    t.notes.push_back(
        "kernel and module-group times are sums over each profile's sampled calls divided by their count "
        "(PROFILE.md): one figure per run, no interval; a kernel's time is split over the top-level modules "
        "of the post-grad nodes it covers");
    if (!both)
        return t;

    double sumA = 0, sumB = 0;
    for (const auto &k : t.kernels) {
        sumA += k.msA.value_or(0);
        sumB += k.msB.value_or(0);
    }
    std::string top;
    int shown = 0;
    for (const auto &k : t.kernels) {
        if (shown == 3 || k.delta() == 0)
            break;
        top += std::string(shown++ ? "; " : "") + k.name + " " + signedMs(k.delta())
            + (!ka.count(k.name)        ? " (only in B)"
                    : !kb.count(k.name) ? " (only in A)"
                                        : "");
    }
    if (!top.empty())
        t.verdict.push_back("largest contributors (kernel time per forward call, B − A): " + top);
    std::string topGroups;
    shown = 0;
    for (const auto &g : t.groups) {
        if (shown == 3 || g.delta() == 0)
            break;
        topGroups += std::string(shown++ ? "; " : "") + g.group + " " + signedMs(g.delta());
    }
    if (!topGroups.empty())
        t.verdict.push_back("by module group: " + topGroups);
    t.verdict.push_back("kernels take " + fmt("%.4g", sumA) + " ms (A) and " + fmt("%.4g", sumB)
        + " ms (B) per forward call: " + signedMs(sumB - sumA)
        + (t.a.compiled && t.b.compiled ? ", against " + signedMs(t.b.compiled->medianMs - t.a.compiled->medianMs)
                    + " between the compiled medians"
                                        : std::string()));
    return t;
}

} // namespace

Estimate ratioThroughEager(const Estimate &sa, const Estimate &sb)
{
    Estimate r;
    if (sa.estimate <= 0 || sb.estimate <= 0)
        return r;
    r.estimate = sa.estimate / sb.estimate;
    if (!sa.hasInterval() || !sb.hasInterval() || *sa.low <= 0 || *sb.low <= 0)
        return r;
    // ln r = ln sA - ln sB: r is low when sA is low and sB is high.
    const double la = std::log(sa.estimate), lb = std::log(sb.estimate);
    const double down = std::hypot(la - std::log(*sa.low), std::log(*sb.high) - lb);
    const double up = std::hypot(std::log(*sa.high) - la, lb - std::log(*sb.low));
    r.low = r.estimate * std::exp(-down);
    r.high = r.estimate * std::exp(up);
    return r;
}

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

// --- JSON ------------------------------------------------------------------------------------

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
    return { { "estimate", e->estimate }, { "low", e->low ? json(*e->low) : json() },
        { "high", e->high ? json(*e->high) : json() }, { "level", 0.95 } };
}

json latencyJson(const std::optional<Latency> &l)
{
    if (!l)
        return nullptr;
    return { { "median_ms", l->medianMs }, { "p10_ms", l->p10Ms }, { "p90_ms", l->p90Ms }, { "runs", l->runs } };
}

json sideJson(const SideTime &s)
{
    return { { "source", s.source.empty() ? json() : json(s.source) }, { "profiled", s.profiled },
        { "compiled", latencyJson(s.compiled) }, { "eager", latencyJson(s.eager) },
        { "speedup", estimateJson(s.speedup) }, { "verdict", s.verdict.empty() ? json() : json(s.verdict) },
        { "threads", s.threads ? json(*s.threads) : json() },
        { "created", s.created.empty() ? json() : json(s.created) } };
}

json jobJson(const JobFolder &j)
{
    json stages = json::array();
    for (const auto &s : j.stages)
        stages.push_back({ { "stage", s.stage }, { "pass", s.pass }, { "snapshot", s.file.string() } });
    return { { "dir", j.dir.string() }, { "kind", toString(j.kind) }, { "model", j.model }, { "device", j.device },
        { "dtype", j.dtype }, { "scheme", j.scheme.empty() ? json() : json(j.scheme) },
        { "bucket", j.bucket.empty() ? json() : json(j.bucket) }, { "options", j.options },
        { "torch_version", j.torchVersion.empty() ? json() : json(j.torchVersion) },
        { "torchao_version", j.torchaoVersion.empty() ? json() : json(j.torchaoVersion) },
        { "cuda_version", j.cudaVersion.empty() ? json() : json(j.cudaVersion) },
        { "package", j.package.empty() ? json() : json(j.package.string()) },
        { "package_bytes", j.packageBytes ? json(*j.packageBytes) : json() },
        { "kernels_json", j.kernelsFile.empty() ? json() : json(j.kernelsFile.string()) },
        { "profile", !j.profile.is_null() }, { "stages", stages }, { "notes", j.notes } };
}

json nodesJson(const std::vector<NodeRef> &nodes)
{
    json out = json::array();
    for (const auto &n : nodes)
        out.push_back({ { "id", n.id }, { "target", n.target }, { "module", n.module } });
    return out;
}

json kernelInfoJson(const KernelInfo &k)
{
    return { { "name", k.name }, { "kind", k.kind }, { "instances", k.instances }, { "covered_nodes", k.nodes } };
}

} // namespace

json toJson(const Comparison &c)
{
    json fields = json::array();
    for (const auto &f : c.fields)
        fields.push_back({ { "field", f.field }, { "a", f.a }, { "b", f.b }, { "differs", f.differs() } });
    json stages = json::array();
    for (const auto &s : c.stages) {
        json targets = json::array();
        for (const auto &t : s.targets)
            targets.push_back({ { "target", t.target }, { "a", t.a }, { "b", t.b } });
        json changed = json::array();
        for (const auto &ch : s.diff.changed)
            changed.push_back(
                { { "a", ch.before }, { "b", ch.after }, { "via", Graph::toString(ch.via) }, { "fields", ch.fields } });
        stages.push_back({ { "stage", s.stage },
            { "a", { { "pass", s.a.pass }, { "snapshot", s.a.file.string() }, { "nodes", s.nodesA } } },
            { "b", { { "pass", s.b.pass }, { "snapshot", s.b.file.string() }, { "nodes", s.nodesB } } },
            { "error", s.error.empty() ? json() : json(s.error) }, { "empty", s.error.empty() && s.diff.empty() },
            { "only_a", nodesJson(s.removed) }, { "only_b", nodesJson(s.added) }, { "changed", changed },
            { "unchanged", s.diff.unchanged }, { "targets", targets } });
    }
    json kernels
        = { { "compared", c.kernels.compared }, { "why", c.kernels.why.empty() ? json() : json(c.kernels.why) },
              { "count_a", c.kernels.countA }, { "count_b", c.kernels.countB }, { "unchanged", c.kernels.unchanged } };
    kernels["only_a"] = json::array();
    for (const auto &k : c.kernels.onlyA)
        kernels["only_a"].push_back(kernelInfoJson(k));
    kernels["only_b"] = json::array();
    for (const auto &k : c.kernels.onlyB)
        kernels["only_b"].push_back(kernelInfoJson(k));
    kernels["changed"] = json::array();
    for (const auto &k : c.kernels.changed)
        kernels["changed"].push_back({ { "name_a", k.nameA }, { "name_b", k.nameB }, { "kind", k.kind },
            { "renamed", k.renamed() }, { "source_changed", k.sourceChanged },
            { "source_diff", k.sourceDiff.empty() ? json() : json(k.sourceDiff) }, { "nodes_only_a", k.nodesOnlyA },
            { "nodes_only_b", k.nodesOnlyB }, { "instances_a", k.instancesA }, { "instances_b", k.instancesB } });
    json kernelTimes = json::array();
    for (const auto &k : c.time.kernels)
        kernelTimes.push_back({ { "name", k.name }, { "kind", k.kind }, { "ms_a", k.msA ? json(*k.msA) : json() },
            { "ms_b", k.msB ? json(*k.msB) : json() }, { "delta_ms", k.msA && k.msB ? json(k.delta()) : json() } });
    json groups = json::array();
    for (const auto &g : c.time.groups)
        groups.push_back({ { "group", g.group }, { "ms_a", g.msA ? json(*g.msA) : json() },
            { "ms_b", g.msB ? json(*g.msB) : json() }, { "delta_ms", g.msA && g.msB ? json(g.delta()) : json() } });
    const json time = { { "pairing", c.time.paired ? "paired" : "different_runs" }, { "a", sideJson(c.time.a) },
        { "b", sideJson(c.time.b) }, { "latency_ratio", estimateJson(c.time.latencyRatio) },
        { "latency_ratio_method",
            "compiled B / compiled A = speedup A / speedup B (each eager / compiled, paired within its own run); "
            "95% intervals combined in log space as independent" },
        { "eager_moved", c.time.eagerMoved }, { "kernels", kernelTimes }, { "groups", groups },
        { "verdict", c.time.verdict }, { "notes", c.time.notes } };
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
