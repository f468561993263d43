// SPDX-License-Identifier: GPL-3.0-or-later
// `aotstudio-cli compare A B`: two finished jobs side by side (core/compare/compare.h). Reads files
// only: the engine, torch and Python are not started.
#include "comparecmd.h"
#include "command.h"

#include "protocol/envelope.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>

namespace AotStudio::Cli {

using namespace AotStudio::Compare;

void addCompareOptions(CLI::App &app, CompareCommandOptions &o)
{
    auto *cmd = &app;
    cmd->add_option("A", o.a, "The first job folder (the baseline)")->required();
    cmd->add_option("B", o.b, "The second job folder (compared against A: '+' and B - A mean what B adds)")->required();
    cmd->add_option("--stage", o.stage,
        "Only this stage's graph diff, node by node (capture, decompose, pre_grad, "
        "joint_graph, post_grad, ...)");
    cmd->add_flag("--json", o.json, "Print the JSON envelope, the comparison as its result (FORMAT.md \"compare\")");
    cmd->add_flag(
        "--full", o.full, "Text output: every line of each changed kernel's source diff (else 40 per kernel)");
    cmd->footer(
        "Two jobs of different models are refused. A job without a profile is compared on graphs and kernels; its "
        "time columns say \"not profiled\" (run aotstudio-cli profile on it). Separate jobs are measured in "
        "different runs: their latency ratio goes through each run's own eager, with both intervals.\n"
        "Example: aotstudio-cli compile -m sample:convnet -o a && aotstudio-cli compile -m sample:convnet --freezing "
        "-o b && aotstudio-cli compare a b\n"
        "Exit status: 0 compared, 1 refused (not a job folder, different models, a stage they do not share), 2 bad "
        "command line.");
}

namespace {

std::string ms(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, v >= 100 ? "%.1f" : v >= 1 ? "%.3f" : "%.4f", v);
    return buf;
}

std::string signedMs(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, std::abs(v) >= 1 ? "%+.3f" : "%+.4f", v);
    return buf;
}

std::string estimateText(const std::optional<Estimate> &e)
{
    if (!e)
        return "-";
    char buf[96];
    if (e->hasInterval())
        std::snprintf(buf, sizeof buf, "%.2f× (95%% CI %.2f–%.2f)", e->estimate, *e->low, *e->high);
    else
        std::snprintf(buf, sizeof buf, "%.2f× (no interval)", e->estimate);
    return buf;
}

std::string latencyText(const std::optional<Latency> &l)
{
    if (!l)
        return "-";
    return ms(l->medianMs) + " ms (p10–p90 " + ms(l->p10Ms) + "–" + ms(l->p90Ms) + ", " + std::to_string(l->runs)
        + " runs)";
}

std::string joined(const std::vector<std::string> &v, std::size_t most = 6)
{
    std::string s;
    for (std::size_t i = 0; i < v.size() && i < most; ++i)
        s += (i ? "," : "") + v[i];
    if (v.size() > most)
        s += ", +" + std::to_string(v.size() - most) + " more";
    return s;
}

/// Rows of `cells` with every column as wide as its widest cell (the last one not padded).
void table(std::FILE *out, const std::vector<std::vector<std::string>> &rows, const std::string &indent = "  ")
{
    std::vector<std::size_t> width;
    // Width in characters, not bytes: the dash, the minus and the times sign are one column each.
    const auto columns = [](const std::string &s) {
        return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
    };
    for (const auto &r : rows)
        for (std::size_t i = 0; i < r.size(); ++i) {
            if (width.size() <= i)
                width.push_back(0);
            width[i] = std::max(width[i], columns(r[i]));
        }
    for (const auto &r : rows) {
        std::string line = indent;
        for (std::size_t i = 0; i < r.size(); ++i) {
            line += r[i];
            if (i + 1 < r.size())
                line += std::string(width[i] - columns(r[i]) + 2, ' ');
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        std::fprintf(out, "%s\n", line.c_str());
    }
}

void printFields(std::FILE *out, const Comparison &c)
{
    std::fprintf(out, "A: %s (%s)\n", c.a.dir.c_str(), toString(c.a.kind));
    std::fprintf(out, "B: %s (%s)\n", c.b.dir.c_str(), toString(c.b.kind));
    std::vector<std::vector<std::string>> rows { { "", "A", "B", "" } };
    for (const auto &f : c.fields) {
        if (f.field == "folder")
            continue;
        rows.push_back({ f.field, f.a.empty() ? "(not recorded)" : f.a, f.b.empty() ? "(not recorded)" : f.b,
            f.differs() ? "<- differs" : "" });
    }
    table(out, rows);
    for (const auto *j : { &c.a, &c.b })
        for (const auto &n : j->notes)
            std::fprintf(out, "note (%s): %s\n", j == &c.a ? "A" : "B", n.c_str());
}

void printStages(std::FILE *out, const Comparison &c, bool full, const std::string &stage)
{
    std::fprintf(
        out, "\ngraphs (each stage's last snapshot, A -> B; nodes matched by provenance, name, then structure):\n");
    if (c.stages.empty())
        std::fprintf(out, "  no stage with snapshots in both jobs\n");
    for (const auto &s : c.stages) {
        if (!s.error.empty()) {
            std::fprintf(out, "  %-12s not compared: %s\n", s.stage.c_str(), s.error.c_str());
            continue;
        }
        if (s.diff.empty()) {
            std::fprintf(out, "  %-12s %zu -> %zu nodes: same graph\n", s.stage.c_str(), s.nodesA, s.nodesB);
            continue;
        }
        std::fprintf(out, "  %-12s %zu -> %zu nodes: %zu only in A, %zu only in B, %zu changed, %zu unchanged\n",
            s.stage.c_str(), s.nodesA, s.nodesB, s.removed.size(), s.added.size(), s.diff.changed.size(),
            s.diff.unchanged);
        std::string ops;
        for (std::size_t i = 0; i < s.targets.size() && (full || i < 6); ++i)
            ops += (i ? ", " : "") + s.targets[i].target + " " + std::to_string(s.targets[i].a) + "->"
                + std::to_string(s.targets[i].b);
        if (!full && s.targets.size() > 6)
            ops += ", +" + std::to_string(s.targets.size() - 6) + " more";
        if (!ops.empty())
            std::fprintf(out, "  %-12s ops: %s\n", "", ops.c_str());
        if (s.stage != stage)
            continue;
        // Node by node for the stage asked for (the lines of `aotstudio-cli diff`).
        for (const auto &n : s.removed)
            std::fprintf(out, "    - %-28s %s%s\n", n.id.c_str(), n.target.c_str(),
                n.module.empty() ? "" : ("  [" + n.module + "]").c_str());
        for (const auto &n : s.added)
            std::fprintf(out, "    + %-28s %s%s\n", n.id.c_str(), n.target.c_str(),
                n.module.empty() ? "" : ("  [" + n.module + "]").c_str());
        for (const auto &ch : s.diff.changed)
            std::fprintf(out, "    ~ %-28s -> %s  [%s; matched by %s]\n", ch.before.c_str(), ch.after.c_str(),
                joined(ch.fields, 8).c_str(), Graph::toString(ch.via));
    }
    if (stage.empty() && !c.stages.empty())
        std::fprintf(out, "  node by node: --stage %s\n", c.stages.back().stage.c_str());
    if (!c.stagesOnlyA.empty())
        std::fprintf(out, "  only A has snapshots of: %s\n", joined(c.stagesOnlyA, 99).c_str());
    if (!c.stagesOnlyB.empty())
        std::fprintf(out, "  only B has snapshots of: %s\n", joined(c.stagesOnlyB, 99).c_str());
}

void printKernels(std::FILE *out, const Comparison &c, bool full)
{
    const auto &k = c.kernels;
    if (!k.compared) {
        std::fprintf(out, "\nkernels: not compared (%s)\n", k.why.c_str());
        return;
    }
    std::fprintf(out, "\nkernels: %zu in A, %zu in B: %zu only in A, %zu only in B, %zu changed, %zu unchanged\n",
        k.countA, k.countB, k.onlyA.size(), k.onlyB.size(), k.changed.size(), k.unchanged.size());
    // One name column as wide as the longest name (Inductor's fused names run to 70 characters).
    int width = 8;
    for (const auto *list : { &k.onlyA, &k.onlyB })
        for (const auto &x : *list)
            width = std::max(width, static_cast<int>(x.name.size()));
    for (const auto &x : k.changed)
        width = std::max(width, static_cast<int>(x.nameA.size()));
    for (const auto &x : k.onlyA)
        std::fprintf(out, "  - %-*s %-8s only in A, covers %s\n", width, x.name.c_str(), x.kind.c_str(),
            joined(x.nodes).c_str());
    for (const auto &x : k.onlyB)
        std::fprintf(out, "  + %-*s %-8s only in B, covers %s\n", width, x.name.c_str(), x.kind.c_str(),
            joined(x.nodes).c_str());
    for (const auto &x : k.changed) {
        std::string what;
        if (x.renamed())
            what += "renamed to " + x.nameB + (x.sourceChanged ? "" : " (same source)");
        if (x.sourceChanged)
            what += std::string(what.empty() ? "" : "; ") + "source changed";
        if (!x.nodesOnlyA.empty() || !x.nodesOnlyB.empty()) {
            what += std::string(what.empty() ? "" : "; ") + "covers";
            if (!x.nodesOnlyA.empty())
                what += " -" + joined(x.nodesOnlyA);
            if (!x.nodesOnlyB.empty())
                what += " +" + joined(x.nodesOnlyB);
        }
        if (x.instancesA != x.instancesB)
            what += std::string(what.empty() ? "" : "; ") + "call sites " + std::to_string(x.instancesA) + " -> "
                + std::to_string(x.instancesB);
        std::fprintf(out, "  ~ %-*s %-8s %s\n", width, x.nameA.c_str(), x.kind.c_str(), what.c_str());
        if (x.sourceDiff.empty())
            continue;
        std::istringstream lines(x.sourceDiff);
        std::string line;
        int n = 0, total = static_cast<int>(std::count(x.sourceDiff.begin(), x.sourceDiff.end(), '\n'));
        while (std::getline(lines, line)) {
            if (!full && n == 40) {
                std::fprintf(out, "      ... %d more lines of the diff (--full, or --json)\n", total - n);
                break;
            }
            std::fprintf(out, "      %s\n", line.c_str());
            ++n;
        }
    }
}

void printTime(std::FILE *out, const Comparison &c)
{
    const auto &t = c.time;
    std::fprintf(out, "\ntime (%s):\n",
        t.paired ? "paired in one session" : "from different runs: each job against its own eager");
    const auto side = [](const SideTime &s) {
        return s.source.empty()     ? std::string("not measured")
            : s.source == "profile" ? "profile.json"
                                    : "compile's measure stage";
    };
    table(out,
        { { "", "A", "B" }, { "measured by", side(t.a), side(t.b) },
            { "compiled", latencyText(t.a.compiled), latencyText(t.b.compiled) },
            { "eager", latencyText(t.a.eager), latencyText(t.b.eager) },
            { "speedup", estimateText(t.a.speedup), estimateText(t.b.speedup) },
            { "machine", t.a.verdict.empty() ? "-" : t.a.verdict, t.b.verdict.empty() ? "-" : t.b.verdict },
            { "threads", t.a.threads ? std::to_string(*t.a.threads) : "-",
                t.b.threads ? std::to_string(*t.b.threads) : "-" } });
    const auto cell = [](const std::optional<double> &v) { return v ? ms(*v) : std::string("not profiled"); };
    const bool both = t.a.profiled && t.b.profiled;
    if (!t.kernels.empty()) {
        std::fprintf(out, "  per kernel (ms per forward call, sampled calls, no interval):\n");
        std::vector<std::vector<std::string>> rows { { "kernel", "kind", "A", "B", "B − A" } };
        for (std::size_t i = 0; i < t.kernels.size() && i < 15; ++i) {
            const auto &k = t.kernels[i];
            rows.push_back({ k.name, k.kind, cell(k.msA), cell(k.msB), both ? signedMs(k.delta()) : "-" });
        }
        if (t.kernels.size() > 15)
            rows.push_back({ "(" + std::to_string(t.kernels.size() - 15) + " more: --json)", "", "", "", "" });
        table(out, rows, "    ");
    } else {
        std::fprintf(out, "  per kernel: not profiled\n");
    }
    if (!t.groups.empty()) {
        std::fprintf(out, "  per module group (ms per forward call):\n");
        std::vector<std::vector<std::string>> rows { { "group", "A", "B", "B − A" } };
        for (const auto &g : t.groups)
            rows.push_back({ g.group, cell(g.msA), cell(g.msB), both ? signedMs(g.delta()) : "-" });
        table(out, rows, "    ");
    } else {
        std::fprintf(out, "  per module group: not profiled\n");
    }
    std::fprintf(out, "\nverdict:\n");
    for (const auto &v : t.verdict)
        std::fprintf(out, "  - %s\n", v.c_str());
    for (const auto &n : t.notes)
        std::fprintf(out, "note: %s\n", n.c_str());
}

/// The memory plans side by side (FORMAT.md compare `memory`): peaks, then buffers of one side only.
void printMemory(std::FILE *out, const Comparison &c)
{
    const MemoryDiff &m = c.memory;
    if (!m.compared) {
        std::fprintf(out, "\nmemory: not compared (%s)\n", m.why.c_str());
        return;
    }
    auto bytes = [](const nlohmann::json &v) { return v.is_number() ? std::to_string(v.get<long long>()) : "-"; };
    std::fprintf(out, "\nmemory (bytes; memory.json, measured from profile.json):\n");
    std::vector<std::vector<std::string>> rows{{"peak", "A", "B"}};
    for (const char *k : {"predicted_bytes", "planned_bytes", "measured_bytes", "constants_bytes"})
        rows.push_back({k, bytes(m.a.value(k, nlohmann::json())), bytes(m.b.value(k, nlohmann::json()))});
    table(out, rows, "  ");
    std::fprintf(out, "  buffers: %zu paired by their nodes, %zu only in A, %zu only in B\n", m.paired, m.onlyA.size(),
                 m.onlyB.size());
    auto list = [&](const char *side, const std::vector<nlohmann::json> &only) {
        for (std::size_t i = 0; i < only.size() && i < 5; ++i) {
            std::string nodes;
            for (const auto &n : only[i].value("nodes", nlohmann::json::array()))
                nodes += (nodes.empty() ? "" : ", ") + n.get<std::string>();
            std::fprintf(out, "  %s %-8s %10s  %s\n", side, only[i].value("name", "").c_str(),
                         bytes(only[i].value("bytes", nlohmann::json())).c_str(), nodes.c_str());
        }
    };
    list("A only", m.onlyA);
    list("B only", m.onlyB);
}

/// The fusion decisions side by side (FORMAT.md compare `fusion`): refused pairs per reason
/// category, then post-grad nodes per status.
void printFusion(std::FILE *out, const Comparison &c)
{
    const FusionDiff &f = c.fusion;
    if (!f.compared) {
        std::fprintf(out, "\nfusion: not compared (%s)\n", f.why.c_str());
        return;
    }
    std::fprintf(out,
                 "\nfusion (fusion.json): %lld refused pairs in A, %lld in B; %lld fused kernels in A, %lld in B%s\n",
                 f.refusedA, f.refusedB, f.fusedKernelsA, f.fusedKernelsB,
                 f.completeA && f.completeB ? "" : " (partial: a side's decision log is incomplete)");
    std::vector<std::vector<std::string>> rows{{"refused because", "A", "B"}};
    for (const auto &r : f.categories)
        rows.push_back({r.name, std::to_string(r.a), std::to_string(r.b)});
    if (rows.size() > 1)
        table(out, rows, "  ");
    rows = {{"nodes", "A", "B"}};
    for (const auto &r : f.statuses)
        rows.push_back({r.name, std::to_string(r.a), std::to_string(r.b)});
    table(out, rows, "  ");
}

} // namespace

void printCompare(std::FILE *out, const Comparison &c, bool full, const std::string &stage)
{
    printFields(out, c);
    printStages(out, c, full, stage);
    printKernels(out, c, full);
    printTime(out, c);
    printMemory(out, c);
    printFusion(out, c);
}

int runCompare(const CompareCommandOptions &o)
{
    try {
        const Comparison c = compareFolders(o.a, o.b, { o.stage });
        if (o.json)
            Protocol::printEnvelope(stdout, Protocol::okEnvelope(toJson(c)));
        else
            printCompare(stdout, c, o.full, o.stage);
        return 0;
    } catch (const CompareError &e) {
        std::fprintf(stderr, "aotstudio-cli: compare: %s\n", e.what());
        if (o.json)
            Protocol::printEnvelope(
                stdout, Protocol::errorEnvelope(Protocol::Error{"compare", Protocol::Code::Refused, e.what(), ""}));
        return Protocol::kExitFailed;
    }
}

Command compareCommand()
{
    auto o = std::make_shared<CompareCommandOptions>();
    return {"compare",
            "Compare two finished jobs of one model (compile --out folders, profile --out folders, quantize scheme "
            "folders such as Q/int8-dynamic, or bundles): options, torch/torchao versions and package size side by "
            "side; the graph diff of every stage both have; the kernel diff (only in A, only in B, changed source "
            "with a unified diff, other covered nodes); time per kernel and per module group when both were "
            "profiled; a verdict naming the largest contributors to the latency difference. Reads files only",
            [o](CLI::App &cmd) { addCompareOptions(cmd, *o); },
            [] { return std::string(); },
            [o](const Globals &) { return runCompare(*o); },
            [o] { return o->json; }};
}

} // namespace AotStudio::Cli
