// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/coldstart.h"
#include "pipeline/jobutil.h"
#include "pipeline/measurement.h"

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
            const auto p = runProcess(runArgv);
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
            const auto p = runProcess(eagerArgv, eagerEnv);
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

} // namespace AotStudio::Pipeline
