// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/coldstart.h"
#include "pipeline/jobutil.h"
#include "pipeline/measurement.h"

#include <cstdio>
#include <map>

#include "profiler/paired.h"
#include "profiler/statistics.h"
#include "python/frontend.h"

namespace AotStudio::Pipeline {

using Protocol::Json;
namespace fs = std::filesystem;

namespace {

/// Median and interval of one phase over the runs (the interval of a median: percentile bootstrap
/// of the ratio against a constant 1 ms, i.e. of the median itself).
Json phaseJson(const std::vector<double> &ms)
{
    if (ms.empty())
        return Json();
    const std::vector<double> one(ms.size(), 1.0);
    const auto r = Profiler::ratioInterval(ms, one);
    return {{"median_ms", r.estimate}, {"low_ms", r.low ? Json(*r.low) : Json()}, {"high_ms", r.high ? Json(*r.high) : Json()},
            {"runs", ms.size()}};
}

} // namespace

Json measureColdStart(const ColdStartSpec &spec, std::stop_token stop, const std::function<void(const std::string &)> &warn)
{
    const fs::path runExe = selfDir() / "aotstudio-run";
    std::error_code ec;
    if (!fs::exists(runExe, ec)) {
        warn("aotstudio-run not found next to the engine (" + runExe.string() + "): cold start not measured");
        return Json::object();
    }
    // --allow-unsigned: the bundle is our own, just written; an $AOTSTUDIO_TRUST in the engine's
    // environment must not stop its cold start (a signature that does not verify still would).
    const std::vector<std::string> runArgv{runExe.string(), spec.bundle.string(), "--batch", std::to_string(spec.batch),
                                           "--iters", "0", "--warmup", "0", "--json", "--allow-unsigned"};
    std::vector<std::string> eagerArgv{
        Python::interpreterPath(), "-m", "aotstudio_frontend.coldstart", spec.model, spec.device,
        std::to_string(spec.batch)};
    if (!spec.shapes.empty())
        eagerArgv.push_back(spec.shapes);
    const std::vector<std::string> eagerEnv{"PYTHONPATH=" + Python::frontendDirectory()};

    std::vector<double> bundleMs, eagerMs, pairedBundle, pairedEager;
    std::map<std::string, std::vector<double>> phases;
    Json samples = Json::array();
    bool warnedRun = false, warnedEager = false;
    for (int i = 0; i < spec.runs && !stop.stop_requested(); ++i) {
        double b = -1, e = -1;
        const auto runBundle = [&] {
            const auto p = Process::runProcess(runArgv);
            if (!p.ok()) {
                if (!warnedRun)
                    warn("aotstudio-run failed on the cold-start bundle (" + p.describe() + (p.err.empty() ? "" : ": " + p.err) + "): " + commandLine(runArgv));
                warnedRun = true;
                return;
            }
            b = p.wallMs;
            const Json out = Json::parse(p.out, nullptr, false); // the envelope: {"ok": true, "result": {...}}
            const Json result = out.is_object() ? out.value("result", Json()) : Json();
            const Json cold = result.is_object() ? result.value("cold_start", Json()) : Json();
            if (cold.is_object())
                for (const char *k : {"to_main_ms", "verify_ms", "load_ms", "first_run_ms"})
                    if (cold.contains(k) && cold[k].is_number())
                        phases[k].push_back(cold[k].get<double>());
        };
        const auto runEager = [&] {
            const auto p = Process::runProcess(eagerArgv, eagerEnv);
            if (!p.ok()) {
                if (!warnedEager)
                    warn("the eager cold-start process failed (" + p.describe() + (p.err.empty() ? "" : ": " + p.err) + "): " + commandLine(eagerArgv));
                warnedEager = true;
                return;
            }
            e = p.wallMs;
        };
        if (i % 2 == 0) {
            runBundle();
            if (!stop.stop_requested())
                runEager();
        } else {
            runEager();
            if (!stop.stop_requested())
                runBundle();
        }
        if (b > 0)
            bundleMs.push_back(b);
        if (e > 0)
            eagerMs.push_back(e);
        if (b > 0 && e > 0) {
            pairedBundle.push_back(b);
            pairedEager.push_back(e);
        }
        samples.push_back({{"bundle_ms", b > 0 ? Json(b) : Json()}, {"eager_ms", e > 0 ? Json(e) : Json()}});
    }
    const auto bundle = Profiler::summarize(bundleMs);
    const auto eager = Profiler::summarize(eagerMs);
    const auto ratio = Profiler::ratioInterval(pairedEager, pairedBundle);
    Json phaseJsonAll = Json::object();
    for (const char *k : {"to_main_ms", "verify_ms", "load_ms", "first_run_ms"})
        phaseJsonAll[k] = phaseJson(phases[k]);
    return {{"method", "fresh processes from spawn to exit after the first output (std::chrono::steady_clock), "
                       "aotstudio-run on the bundle and python eager alternating, order swapped each round"},
            {"batch", spec.batch},
            {"runs", spec.runs},
            {"bundle_ms", bundle.runs ? Json(bundle.medianMs) : Json()},
            {"eager_ms", eager.runs ? Json(eager.medianMs) : Json()},
            {"bundle_runs_ok", bundle.runs},
            {"eager_runs_ok", eager.runs},
            {"ratio", ratio.estimate > 0 ? Json(ratio.estimate) : Json()},
            {"ratio_interval", ratio.estimate > 0 ? ratioJson(ratio) : Json()},
            {"phases", phaseJsonAll},
            {"samples", samples}};
}

Json measureBurstReplay(const ReplaySpec &spec, const fs::path &bundle, long long batch, std::stop_token stop,
                        const std::function<void(const std::string &)> &warn,
                        const std::function<void(double, const std::string &)> &progress)
{
    const auto number = [](double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", v);
        return std::string(buf);
    };
    std::vector<std::string> modesRun = spec.modes;
    modesRun.push_back("spawn"); // aotstudio-run's baseline, always run beside the modes
    std::vector<std::string> eagerArgv;
    if (spec.eager && !spec.model.empty()) {
        eagerArgv = {Python::interpreterPath(), "-m", "aotstudio_frontend.eager_serve", spec.model, spec.device};
        if (!spec.shapes.empty())
            eagerArgv.push_back(spec.shapes);
        modesRun.push_back("eager");
    }
    Json result{{"method",
                 std::string("aotstudio-run BUNDLE --poisson RATE --seconds S --workers N --json per rate, on the "
                             "profile's one-bucket bundle (coldstart/): each isolation mode serves the same seeded "
                             "Poisson trace from a resident parent, then the spawn baseline serves it with a fresh "
                             "aotstudio-run per request")
                     + (eagerArgv.empty() ? ""
                                          : " and the eager baseline with N resident Python processes running "
                                            "the eager model")
                     + " (app/run/SERVING.md \"The burst replay\"); latency from the scheduled arrival to the answer"},
                {"bundle", bundle.string()},
                {"batch", batch},
                {"seconds", spec.seconds},
                {"workers", spec.workers},
                {"seed", spec.seed},
                {"rates", spec.rates},
                {"modes", modesRun},
                {"saturation", Json()},
                {"rows", Json::array()},
                {"ratios", Json::array()},
                {"runs", Json::array()}};
    const fs::path runExe = selfDir() / "aotstudio-run";
    std::error_code ec;
    if (!fs::exists(runExe, ec)) {
        warn("aotstudio-run not found next to the engine (" + runExe.string() + "): burst replay not measured");
        return result;
    }
    const bool allModes = spec.modes.size() != 1;
    for (std::size_t i = 0; i < spec.rates.size() && !stop.stop_requested(); ++i) {
        const double rate = spec.rates[i];
        progress(static_cast<double>(i) / static_cast<double>(spec.rates.size()),
                 "burst replay: " + number(rate) + " requests/s for " + number(spec.seconds) + " s");
        std::vector<std::string> argv{runExe.string(), bundle.string(),       "--poisson", number(rate),
                                      "--seconds",     number(spec.seconds),  "--workers", std::to_string(spec.workers),
                                      "--batch",       std::to_string(batch), "--seed",    std::to_string(spec.seed),
                                      "--json",        "--allow-unsigned"}; // our own bundle, as for the cold start
        if (!allModes)
            argv.insert(argv.end(), {"--isolation", spec.modes.front()});
        if (!eagerArgv.empty())
            argv.insert(argv.end(), {"--eager-server", commandLine(eagerArgv)});
        // Every request is answered before aotstudio-run exits, however long a saturated mode's
        // queue is: allow two seconds per request and mode beyond the trace itself.
        Process::ProcessOptions po;
        po.timeoutSeconds = 120 + 2.0 * rate * spec.seconds * static_cast<double>(modesRun.size())
            + (eagerArgv.empty() ? 0.0 : 300.0); // the eager servers' start: import torch, build the model
        po.stop = stop;
        // The eager server finds the frontend package as the engine's own Python does.
        const Process::ProcessResult p = Process::runProcess(argv, {"PYTHONPATH=" + Python::frontendDirectory()}, po);
        if (p.stopped)
            break;
        const Json envelope = Json::parse(p.out, nullptr, false);
        const Json out = envelope.is_object() ? envelope.value("result", Json()) : Json();
        Json run{{"rate", rate}, {"exit", p.timedOut ? Json("timed out") : Json(p.describe())}};
        if (!p.ok()) {
            const Json error = envelope.is_object() ? envelope.value("error", Json()) : Json();
            const std::string why = p.timedOut ? "killed after " + number(po.timeoutSeconds) + " s"
                : error.is_object()            ? error.value("message", p.describe())
                                               : p.describe() + (p.err.empty() ? "" : ": " + p.err);
            warn("burst replay at " + number(rate) + " requests/s: " + why + " (" + commandLine(argv) + ")");
            run["error"] = why;
        }
        if (!out.is_object()) {
            result["runs"].push_back(run);
            continue;
        }
        const Json trace = out.value("trace", Json::object());
        run["trace"] = trace;
        run["usable_cpus"] = out.value("usable_cpus", Json());
        run["measurement"] = out.value("measurement", Json());
        if (result["saturation"].is_null())
            result["saturation"] = out.value("saturation", Json());
        for (const auto &m : out.value("modes", Json::array())) {
            if (!m.is_object())
                continue;
            const std::string mode = m.value("mode", std::string());
            Json row{{"rate", rate},
                     {"mode", mode},
                     {"baseline", m.value("baseline", mode == "spawn")},
                     {"offered_rate_per_s", trace.value("offered_rate_per_s", Json())}};
            for (const char *k : {"workers", "requests", "ok", "errors", "first_error", "median_ms", "p99_ms",
                                  "service_median_ms", "throughput_per_s", "achieved_rate_per_s", "wall_s", "cpu_s",
                                  "cpu_busy_share", "gpu_busy_share", "gpu_busy", "saturated"})
                row[k] = m.value(k, Json());
            result["rows"].push_back(std::move(row));
        }
        for (auto r : out.value("ratios", Json::array())) {
            if (!r.is_object())
                continue;
            r["rate"] = rate;
            result["ratios"].push_back(std::move(r));
        }
        result["runs"].push_back(std::move(run));
    }
    return result;
}

} // namespace AotStudio::Pipeline
