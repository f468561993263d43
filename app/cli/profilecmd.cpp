// SPDX-License-Identifier: GPL-3.0-or-later
// `aotstudio-cli profile`: eager against the compiled package in one process (core/profiler/PROFILE.md).
#include "profilecmd.h"
#include "command.h"
#include "enginejob.h"
#include "options.h"

#include "pipeline/measurement.h"

#include <algorithm>
#include <filesystem>
#include <memory>

namespace AotStudio::Cli {

using nlohmann::json;

void addProfileOptions(CLI::App &app, ProfileOptions &o)
{
    auto *cmd = &app;
    cmd->add_option("-m,--model", o.model, "Model: sample:NAME, path/to/file.py:factory or a torch.export.save .pt2")->required();
    cmd->add_option("--package", o.package,
                    "Profile this .pt2 instead of compiling one (checked against the model's inputs first)")
        ->check(CLI::ExistingFile);
    cmd->add_option("-d,--device", o.device, "cpu or cuda (cuda on a machine without a GPU is an error, exit 1)")
        ->capture_default_str()
        ->check(CLI::IsMember({"cpu", "cuda"}));
    cmd->add_option("-o,--out", o.out, "Output directory (created)")->capture_default_str();
    cmd->add_option("--dtype", o.dtype, "fp32, bf16 or fp16")->capture_default_str()->check(CLI::IsMember({"fp32", "bf16", "fp16"}));
    cmd->add_option("--runs", o.runs, "Most timed runs per variant")->capture_default_str()->check(CLI::Range(1, 1000000));
    cmd->add_option("--min-runs", o.minRuns, "Fewest timed runs per variant")->capture_default_str()->check(CLI::Range(1, 1000000));
    cmd->add_option("--warmup", o.warmup, "Untimed warm-up runs per variant")->capture_default_str()->check(CLI::Range(0, 100000));
    cmd->add_option("--max-seconds", o.maxSeconds, "Time cap per variant and pass, in seconds")->capture_default_str()->check(CLI::Range(0.0, 1e6));
    cmd->add_option("--runners", o.runners, "Runner counts for the throughput table, e.g. 1,2,4 (0 alone to skip)")
        ->capture_default_str()
        ->delimiter(',')
        ->check(CLI::Range(0, 256));
    cmd->add_option("--throughput-seconds", o.throughputSeconds, "Seconds per runner count")->capture_default_str()->check(CLI::Range(0.05, 1e4));
    cmd->add_option("--cold-start-runs", o.coldStartRuns, "Fresh processes timed for cold start (each side); 0 to skip")
        ->capture_default_str()
        ->check(CLI::Range(0, 100));
    cmd->add_option("--replay-rates", o.replayRates,
                    "Burst replay after cold start: aotstudio-run --poisson at these arrival rates (requests/s), "
                    "e.g. 5,20,50, each served by worker and request isolation and by the baselines: a fresh "
                    "process per request and a Python eager server")
        ->delimiter(',')
        ->check(CLI::Range(1e-3, 1e4));
    cmd->add_option("--replay-seconds", o.replaySeconds, "Seconds of arrivals per replay rate")
        ->capture_default_str()
        ->check(CLI::Range(0.1, 600.0));
    cmd->add_option("--replay-workers", o.replayWorkers, "Workers of the replayed server (and spawn processes at once)")
        ->capture_default_str()
        ->check(CLI::Range(1, 256));
    cmd->add_option("--replay-modes", o.replayModes,
                    "Isolation modes replayed, of worker,request (default both; the spawn "
                    "baseline always runs)")
        ->delimiter(',')
        ->check(CLI::IsMember({"worker", "request"}));
    cmd->add_flag("--no-replay-eager", o.noReplayEager,
                  "Leave the Python eager server baseline out of the burst replay (its processes import torch and "
                  "build the model once per rate)");
    addThreadsOption(cmd, o.threads);
    addShapeOption(cmd, o.shapes);
    cmd->add_option("--variants", o.variants, "Subset of eager,aoti,nativert")->delimiter(',')->check(CLI::IsMember({"eager", "aoti", "nativert"}));
    cmd->add_flag(
        "--convert-layout", o.convertLayout,
        "With --package: copy the model's inputs into the package's memory layout (strides) when they differ, "
        "instead of refusing them (once per input set, outside the timed calls)");
    cmd->add_flag("--no-trace", o.noTrace, "Skip the traced pass (no kernels, no trace.json, no overhead)");
    cmd->add_flag("--json", o.json, "Print the JSON envelope on stdout, the profile as its result");
    cmd->add_flag("-v,--verbose", o.verbose, "Also print debug logs to stderr");
    cmd->footer("Exit status: 0 success, 1 the profile failed (no such device, package does not load, model raised), "
                "2 bad command line.");
}

json profileRequest(const ProfileOptions &o)
{
    json runners = json::array();
    for (int n : o.runners) // validated in validateProfileOptions(): 0 alone, or counts >= 1
        if (n > 0 && std::find(runners.begin(), runners.end(), n) == runners.end())
            runners.push_back(n);
    json r{{"type", "profile"},       {"id", 1},
           {"model", o.model},        {"device", o.device},
           {"out", std::filesystem::absolute(o.out).lexically_normal().string()},
           {"dtype", o.dtype},        {"runs", o.runs},
           {"min_runs", std::min(o.minRuns, o.runs)}, {"warmup", o.warmup},
           {"max_seconds", o.maxSeconds}, {"throughput", runners},
           {"throughput_seconds", o.throughputSeconds}, {"cold_start_runs", o.coldStartRuns},
           {"trace", !o.noTrace}};
    setThreads(r, o.threads);
    setShapes(r, o.shapes);
    if (!o.package.empty())
        r["package"] = std::filesystem::absolute(o.package).lexically_normal().string();
    if (o.convertLayout)
        r["convert_layout"] = true;
    if (!o.variants.empty())
        r["variants"] = o.variants;
    if (!o.replayRates.empty()) {
        r["replay"] = {{"rates", o.replayRates}, {"seconds", o.replaySeconds}, {"workers", o.replayWorkers}};
        if (!o.replayModes.empty())
            r["replay"]["modes"] = o.replayModes;
        if (o.noReplayEager)
            r["replay"]["eager"] = false;
    }
    return r;
}

std::string profileCommandLineProblem(const ProfileOptions &o)
{
    if (o.replayRates.empty() && !o.replayModes.empty())
        return "--replay-modes goes with --replay-rates (the arrival rates to replay, e.g. 5,20,50)";
    if (o.replayRates.empty() && o.noReplayEager)
        return "--no-replay-eager goes with --replay-rates (the arrival rates to replay, e.g. 5,20,50)";
    if (o.runners.size() > 1 && std::find(o.runners.begin(), o.runners.end(), 0) != o.runners.end())
        return "--runners: 0 skips the throughput table and stands alone; give counts of 1 or more otherwise (e.g. 1,2,4)";
    if (o.minRuns > o.runs && o.minRuns != ProfileOptions{}.minRuns) // the default follows --runs down
        return "--min-runs " + std::to_string(o.minRuns) + " is above --runs " + std::to_string(o.runs) +
               " (the most timed runs per variant); raise --runs or lower --min-runs";
    if (!o.variants.empty() && std::find(o.variants.begin(), o.variants.end(), "eager") == o.variants.end() &&
        std::find(o.variants.begin(), o.variants.end(), "aoti") == o.variants.end())
        return "--variants: nothing to time (nativert is listed with the reason it is not measured); add eager or aoti";
    json shapes;
    return parseShapes(o.shapes, shapes);
}

void printColdStart(std::FILE *out, const json &cold)
{
    if (!cold.is_object() || !cold.value("ratio", json()).is_number())
        return;
    const double bundle = cold.value("bundle_ms", cold.value("aoti_run_ms", json())).is_number()
                              ? cold.value("bundle_ms", cold.value("aoti_run_ms", json())).get<double>()
                              : 0.0;
    const json interval = cold.value("ratio_interval", json());
    std::fprintf(out, "cold start:     aotstudio-run %.0f ms, python eager %.0f ms: %s (median of %d)\n", bundle,
                 cold.value("eager_ms", 0.0),
                 interval.is_object() ? Pipeline::ratioText(Pipeline::ratioFromJson(interval), "the bundle starts slower").c_str()
                                      : (std::to_string(cold.value("ratio", 0.0)) + "x (no interval)").c_str(),
                 cold.value("runs", 0));
    const json phases = cold.value("phases", json());
    if (!phases.is_object())
        return;
    std::string line;
    for (const auto &[key, label] : {std::pair{"to_main_ms", "to main"}, {"verify_ms", "verify"}, {"load_ms", "load"}, {"first_run_ms", "first run"}}) {
        const json p = phases.value(key, json());
        if (!p.is_object())
            continue;
        char buf[96];
        if (p.value("low_ms", json()).is_number())
            std::snprintf(buf, sizeof buf, "%s %.1f ms (%.1f–%.1f)", label, p.value("median_ms", 0.0), p["low_ms"].get<double>(),
                          p["high_ms"].get<double>());
        else
            std::snprintf(buf, sizeof buf, "%s %.1f ms", label, p.value("median_ms", 0.0));
        line += (line.empty() ? "" : ", ") + std::string(buf);
    }
    if (!line.empty())
        std::fprintf(out, "  phases:       %s\n", line.c_str());
}

void printProfile(std::FILE *out, const json &r)
{
    std::fprintf(out, "profile:        %s\n", r.value("/files/profile_json"_json_pointer, std::string()).c_str());
    std::fprintf(out, "model:          %s on %s (torch %s), package %s\n", r.value("model", "").c_str(), r.value("device", "").c_str(),
                 r.value("torch_version", "").c_str(), r.value("package", "").c_str());
    std::fprintf(out, "collector:      %s%s\n", r.value("/collector/name"_json_pointer, std::string()).c_str(),
                 r.value("/collector/available"_json_pointer, false) ? "" : " (off)");
    for (const auto &v : r.value("variants", json::array())) {
        if (!v.value("available", false)) {
            std::fprintf(out, "%-15s unavailable: %s\n", (v.value("name", "") + ":").c_str(), v.value("reason", "").c_str());
            continue;
        }
        const json s = v["statistics"];
        std::fprintf(out, "%-15s median %.4g ms  p10 %.4g  p90 %.4g  p99 %.4g  (%d runs)", (v.value("name", "") + ":").c_str(),
                     s.value("median_ms", 0.0), s.value("p10_ms", 0.0), s.value("p90_ms", 0.0), s.value("p99_ms", 0.0), s.value("runs", 0));
        if (v.value("overhead", json()).is_object()) {
            const auto o = Pipeline::ratioFromJson(v["overhead"]);
            if (o.low && o.high)
                std::fprintf(out, "  collector overhead %+.2f%% (95%% CI %+.2f%% to %+.2f%%)", (o.estimate - 1) * 100, (*o.low - 1) * 100,
                             (*o.high - 1) * 100);
            else
                std::fprintf(out, "  collector overhead %+.2f%% (no interval)", (o.estimate - 1) * 100);
        } else if (v["overhead_pct"].is_number()) {
            std::fprintf(out, "  collector overhead %+.2f%%", v["overhead_pct"].get<double>());
        }
        // What each sampled call (and so the kernel breakdown) carried.
        if (v.value("sampled_call_overhead", json()).is_object()) {
            const auto o = Pipeline::ratioFromJson(v["sampled_call_overhead"]);
            if (o.low && o.high)
                std::fprintf(out, ", sampled calls %+.1f%% (95%% CI %+.1f%% to %+.1f%%)", (o.estimate - 1) * 100, (*o.low - 1) * 100,
                             (*o.high - 1) * 100);
            else
                std::fprintf(out, ", sampled calls %+.1f%% (no interval)", (o.estimate - 1) * 100);
        }
        if (v["memory"].is_object() && v["memory"]["peak_bytes"].is_number())
            std::fprintf(out, "  peak %lld B", v["memory"]["peak_bytes"].get<long long>());
        std::fprintf(out, "\n");
    }
    const json speedup = r.value("speedup", json::object()); // items() must not outlive it
    const json intervals = r.value("speedup_interval", json::object());
    for (const auto &[name, x] : speedup.items()) {
        if (intervals.contains(name))
            std::fprintf(out, "speedup:        %s over eager %s\n", name.c_str(),
                         Pipeline::ratioText(Pipeline::ratioFromJson(intervals[name])).c_str());
        else
            std::fprintf(out, "speedup:        %s %.2fx over eager (no interval)\n", name.c_str(), x.get<double>());
    }
    // Peak memory against eager (issue 38 item 4): the ratio with its interval over the paired
    // rounds, whether it is within the target, and why (the compile's memory plan).
    const json memory = r.value("memory_vs_eager", json());
    if (memory.is_object()) {
        for (const auto &[name, m] : memory.items()) {
            std::fprintf(out, "memory:         %s peak %s vs eager %s: %s, %s target %.1fx; %s\n", name.c_str(),
                         humanBytes(m.value("peak_bytes", 0.0)).c_str(),
                         humanBytes(m.value("eager_peak_bytes", 0.0)).c_str(),
                         Pipeline::ratioText(Pipeline::ratioFromJson(m.value("ratio", json())), "").c_str(),
                         m.value("within_target", false) ? "within" : "over", m.value("target", 1.1),
                         m.value("cause", std::string()).c_str());
        }
    }
    if (r.contains("threads"))
        std::fprintf(out, "threads:        %s intra-op, eager and compiled alike\n", r["threads"].dump().c_str());
    const json baseline = r.value("eager_baseline", json());
    if (baseline.is_object() && baseline.value("kind", "") == "exported_program")
        std::fprintf(out, "eager baseline: %s\n", baseline.value("note", "").c_str());
    const json measurement = r.value("measurement", json());
    if (measurement.is_object()) {
        const std::string line = Pipeline::verdictLine(measurement);
        std::fprintf(out, "%s\n", line.empty() ? ("measurement:    " + measurement.value("verdict", std::string("?"))).c_str() : line.c_str());
    }
    int shown = 0;
    for (const auto &k : r.value("kernels", json::array())) {
        if (shown++ == 8)
            break;
        std::string nodes;
        const json covered = k.value("covered_nodes", json::array());
        for (std::size_t i = 0; i < covered.size() && i < 6; ++i)
            nodes += (nodes.empty() ? "" : ",") + covered[i].get<std::string>();
        if (covered.size() > 6)
            nodes += ", +" + std::to_string(covered.size() - 6) + " more";
        std::fprintf(out, "kernel:         %-40s %6.1f%%  %lld calls  %.4g ms each  [%s]\n", k.value("name", "").c_str(),
                     100.0 * k.value("share", 0.0), k.value("calls", 0LL), k.value("mean_ms", 0.0), nodes.c_str());
    }
    for (const auto &t : r.value("throughput", json::array())) {
        // The median per-window rate with its interval; results before windows had the rate alone.
        // Whole calls/s from 100 up; slow models keep a decimal or two (6.93, not 6).
        const auto figure = [](double v) {
            char b[32];
            std::snprintf(b, sizeof b, "%.*f", v >= 100 ? 0 : v >= 10 ? 1 : 2, v);
            return std::string(b);
        };
        std::string rate = figure(t.value("throughput_per_s", 0.0)) + " calls/s";
        if (t.contains("throughput_interval")) {
            const auto i = Pipeline::ratioFromJson(t["throughput_interval"]);
            if (i.low && i.high)
                rate = figure(i.estimate) + " calls/s (95% CI " + figure(*i.low) + "-" + figure(*i.high) + ", " +
                       std::to_string(i.blocks) + " windows)";
            else
                rate = figure(i.estimate) + " calls/s (no interval: " + std::to_string(i.blocks) + " windows)";
        }
        if (t.contains("scaling"))
            rate += ", against 1 runner " + Pipeline::ratioText(Pipeline::ratioFromJson(t["scaling"]), "fewer calls/s than one runner");
        std::fprintf(out, "throughput:     %d runner(s): %s, median %.4g ms, p99 %.4g ms%s\n", t.value("runners", 0), rate.c_str(),
                     t.value("median_ms", 0.0), t.value("p99_ms", 0.0),
                     t.value("consistent", true) ? "" : "  (disagrees with its mean latency: see warnings)");
    }
    printColdStart(out, r.value("cold_start", json::object()));
    printReplay(out, r.value("replay", json()));
    for (const auto &w : r.value("warnings", json::array())) {
        const std::string text = w.is_string() ? w.get<std::string>() : w.dump();
        if (text.rfind("measurement: ", 0) != 0)
            std::fprintf(out, "warning:        %s\n", text.c_str());
    }
}

void printReplay(std::FILE *out, const json &replay)
{
    if (!replay.is_object())
        return;
    const auto interval = [](const json &i) {
        char b[96];
        if (!i.is_object() || !i.value("estimate", json()).is_number())
            return std::string("-");
        if (i.value("low", json()).is_number() && i.value("high", json()).is_number())
            std::snprintf(b, sizeof b, "%.3g [%.3g, %.3g]", i["estimate"].get<double>(), i["low"].get<double>(),
                          i["high"].get<double>());
        else
            std::snprintf(b, sizeof b, "%.3g (no interval)", i["estimate"].get<double>());
        return std::string(b);
    };
    std::fprintf(
        out,
        "burst replay:   Poisson arrivals for %g s per rate, %d worker(s), batch %lld; latency arrival to answer, "
        "ms, 95%% CI\n",
        replay.value("seconds", 0.0), replay.value("workers", 1), replay.value("batch", 1LL));
    for (const auto &row : replay.value("rows", json::array())) {
        std::fprintf(out, "  %5g/s %-8s p50 %-26s p99 %-26s %6.1f answers/s, CPU busy %3.0f%%, %d/%d ok%s\n",
                     row.value("rate", 0.0), row.value("mode", "").c_str(),
                     interval(row.value("median_ms", json())).c_str(), interval(row.value("p99_ms", json())).c_str(),
                     row.value("throughput_per_s", 0.0), 100.0 * row.value("cpu_busy_share", 0.0), row.value("ok", 0),
                     row.value("requests", 0),
                     row.value("saturated", false) ? "  SATURATED (queue grew for the whole run)" : "");
    }
    for (const auto &r : replay.value("ratios", json::array())) {
        const std::string slower = "the " + r.value("baseline", std::string("spawn")) + " baseline was faster";
        std::string text = Pipeline::ratioText(Pipeline::ratioFromJson(r), slower.c_str());
        if (!r.value("comparable", true))
            text += "; not comparable: " + r.value("why_not", std::string());
        std::fprintf(out, "  %5g/s %s: %s\n", r.value("rate", 0.0), r.value("name", "").c_str(), text.c_str());
    }
}

Command profileCommand()
{
    auto o = std::make_shared<ProfileOptions>();
    return {"profile",
            "Profile a model: eager against its AOTInductor package (and NativeRT where "
            "available) in one process with one collector: latency distribution, "
            "collector overhead, per-kernel time tied to graph nodes, peak memory, "
            "throughput against runners, cold start. Writes OUT/profile.json, "
            "OUT/profile.csv, OUT/profile_kernels.csv and OUT/trace.json (Perfetto)",
            [o](CLI::App &cmd) { addProfileOptions(cmd, *o); },
            [o] { return profileCommandLineProblem(*o); },
            [o](const Globals &g) -> int {
                runEngineJob({profileRequest(*o), o->json, g.verbose || o->verbose, {}, printProfile, {}});
            },
            [o] { return o->json; }};
}

} // namespace AotStudio::Cli
