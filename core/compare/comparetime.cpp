// SPDX-License-Identifier: GPL-3.0-or-later
// The time part of a comparison (compare_p.h diffTime): each side's latency, the ratio through
// each run's eager, time per kernel and per module group from the profiles.
#include "compare/compare.h"
#include "compare/compare_p.h"

#include "graph/graph.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <regex>
#include <set>
#include <unordered_map>

namespace AotStudio::Compare {

using nlohmann::json;

namespace {

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
    return Estimate{*e, num(r, "low"), num(r, "high")};
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
std::map<std::string, double> groupTimes(const std::map<std::string, ProfiledKernel> &kernels,
                                         const std::unordered_map<std::string, std::string> &groups)
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

/// The latency part of `t` (its sides read): compiled B against compiled A through each run's
/// eager when both carry a speedup interval, else the medians or why there is nothing; whether
/// eager itself moved between the runs; notes on a side measured noisy or unreliable.
void compareLatency(TimeDiff &t)
{
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
                            + (t.a.compiled       ? "B"
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
    for (const auto *side : {&t.a, &t.b})
        if (side->verdict == "unreliable" || side->verdict == "noisy")
            t.notes.push_back(std::string(side == &t.a ? "A" : "B") + "'s measurement was " + side->verdict
                              + (side->verdict == "noisy"
                                     ? ": its figures are usable with care"
                                     : ": the machine did not allow a fair measurement (its result's "
                                       "measurement.reasons say why); rerun it on a quiet machine"));
}

/// How to profile a job in place: its own package, the profile written beside it.
std::string howToProfile(const JobFolder &j)
{
    if (j.package.empty() || j.kind == JobKind::Bundle)
        return std::string("aotstudio-cli profile --model ") + j.model + " --out DIR";
    return "aotstudio-cli profile --model " + j.model + " --package " + j.package.string() + " --out " + j.dir.string();
}

/// Sort key of a kernel or group row: |B - A| with both sides profiled, else the one side's time.
double rowWeight(bool both, std::optional<double> x, std::optional<double> y)
{
    return both ? std::abs(y.value_or(0) - x.value_or(0)) : x.value_or(0) + y.value_or(0);
}

/// A row per kernel of either side (`ka`, `kb`; a profiled side without the kernel has 0 ms),
/// largest first by rowWeight().
std::vector<KernelTime> kernelRows(const std::map<std::string, ProfiledKernel> &ka,
                                   const std::map<std::string, ProfiledKernel> &kb, bool profiledA, bool profiledB)
{
    std::vector<KernelTime> rows;
    std::set<std::string> names;
    for (const auto *m : {&ka, &kb})
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
        if (profiledA && !kt.msA)
            kt.msA = 0.0; // profiled, and this kernel is not in A: it takes no time there
        if (profiledB && !kt.msB)
            kt.msB = 0.0;
        rows.push_back(kt);
    }
    const bool both = profiledA && profiledB;
    std::stable_sort(rows.begin(), rows.end(), [&](const KernelTime &x, const KernelTime &y) {
        return rowWeight(both, x.msA, x.msB) > rowWeight(both, y.msA, y.msB);
    });
    return rows;
}

/// A row per module group of either side (`ga`, `gb`: ms per group; a profiled side without the
/// group has 0 ms), largest first by rowWeight().
std::vector<GroupTime> groupRows(const std::map<std::string, double> &ga, const std::map<std::string, double> &gb,
                                 bool profiledA, bool profiledB)
{
    std::vector<GroupTime> rows;
    std::set<std::string> groupNames;
    for (const auto *m : {&ga, &gb})
        for (const auto &[g, ms] : *m)
            groupNames.insert(g);
    for (const auto &g : groupNames) {
        GroupTime gt;
        gt.group = g;
        if (profiledA)
            gt.msA = ga.count(g) ? ga.at(g) : 0.0;
        if (profiledB)
            gt.msB = gb.count(g) ? gb.at(g) : 0.0;
        rows.push_back(gt);
    }
    const bool both = profiledA && profiledB;
    std::stable_sort(rows.begin(), rows.end(), [&](const GroupTime &x, const GroupTime &y) {
        return rowWeight(both, x.msA, x.msB) > rowWeight(both, y.msA, y.msB);
    });
    return rows;
}

/// With both sides profiled: the verdict's largest contributors (the first three kernels and
/// module groups by B − A) and the kernels' total per forward call against the compiled medians.
void addContributors(TimeDiff &t, const std::map<std::string, ProfiledKernel> &ka,
                     const std::map<std::string, ProfiledKernel> &kb)
{
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
            + (!ka.count(k.name)       ? " (only in B)"
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
                        + (t.a.compiled && t.b.compiled
                               ? ", against " + signedMs(t.b.compiled->medianMs - t.a.compiled->medianMs)
                                   + " between the compiled medians"
                               : std::string()));
}

} // namespace

TimeDiff diffTime(const JobFolder &a, const JobFolder &b)
{
    TimeDiff t;
    t.a = sideTime(a);
    t.b = sideTime(b);
    t.notes.push_back("A and B were measured in different runs (each job against its own eager, in its own session); "
                      "no paired session covers both");
    compareLatency(t);
    if (!t.a.profiled && !t.b.profiled) {
        t.verdict.push_back("time per kernel and per module group: not profiled (neither job has a profile.json with "
                            "kernel times; profile each in place: "
                            + howToProfile(a) + ", and the same for B)");
        return t;
    }
    const bool both = t.a.profiled && t.b.profiled;
    if (!both)
        t.verdict.push_back(std::string("time per kernel and per module group: ") + (t.a.profiled ? "B" : "A")
                            + " not profiled (no profile.json with kernel times; " + howToProfile(t.a.profiled ? b : a)
                            + "); " + (t.a.profiled ? "A" : "B") + "'s times listed alone");
    std::map<std::string, ProfiledKernel> ka, kb;
    if (t.a.profiled)
        ka = profiledKernels(a.profile);
    if (t.b.profiled)
        kb = profiledKernels(b.profile);
    t.kernels = kernelRows(ka, kb, t.a.profiled, t.b.profiled);
    std::map<std::string, double> ga, gb;
    if (t.a.profiled)
        ga = groupTimes(ka, moduleGroups(a));
    if (t.b.profiled)
        gb = groupTimes(kb, moduleGroups(b));
    t.groups = groupRows(ga, gb, t.a.profiled, t.b.profiled);
    t.notes.push_back(
        "kernel and module-group times are sums over each profile's sampled calls divided by their count "
        "(PROFILE.md): one figure per run, no interval; a kernel's time is split over the top-level modules "
        "of the post-grad nodes it covers");
    if (both)
        addContributors(t, ka, kb);
    return t;
}

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

} // namespace AotStudio::Compare
