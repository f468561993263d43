// SPDX-License-Identifier: GPL-3.0-or-later
// `aotstudio-cli tune`: search Inductor option sets for the fastest verified compile, against AOTI's
// defaults and torch.compile's, on the same inputs in one process (FORMAT.md "tune result").
#include "command.h"
#include "enginejob.h"
#include "options.h"

#include "pipeline/measurement.h"

#include <cmath>
#include <filesystem>
#include <memory>
#include <regex>

namespace AotStudio::Cli {

using nlohmann::json;

namespace {

struct TuneOptions {
    std::string model, device = "cpu", out = "aotstudio-tune", dtype = "fp32", budget = "30m", ray;
    std::vector<std::string> trials, dynamic, shapes;
    std::optional<double> maxError;
    int runs = 200, minRuns = 20, warmup = 5, threads = 0;
    double maxSeconds = 2;
    bool json = false, verbose = false;
};

/// "30m", "90s", "1.5h", "120" (seconds) in seconds; nullopt when unreadable or not > 0.
std::optional<double> parseDuration(const std::string &text)
{
    static const std::regex form(R"(^\s*([0-9]*\.?[0-9]+)\s*([smh]?)\s*$)");
    std::smatch m;
    if (!std::regex_match(text, m, form))
        return std::nullopt;
    const double v = std::stod(m[1].str());
    const double seconds = v * (m[2] == "h" ? 3600.0 : m[2] == "m" ? 60.0 : 1.0);
    return seconds > 0 ? std::optional<double>(seconds) : std::nullopt;
}

json tuneRequest(const TuneOptions &o)
{
    json r{{"type", "tune"},
           {"id", 1},
           {"model", o.model},
           {"device", o.device},
           {"dtype", o.dtype},
           {"out", std::filesystem::absolute(o.out).lexically_normal().string()},
           {"budget_seconds", *parseDuration(o.budget)}, // checked in check()
           {"runs", o.runs},
           {"min_runs", std::min(o.minRuns, o.runs)},
           {"warmup", o.warmup},
           {"max_seconds", o.maxSeconds}};
    if (!o.trials.empty())
        r["trials"] = o.trials;
    if (!o.dynamic.empty())
        r["dynamic"] = o.dynamic;
    setShapes(r, o.shapes);
    if (o.maxError)
        r["max_error"] = *o.maxError;
    setThreads(r, o.threads);
    setRay(r, o.ray);
    return r;
}

/// A ratio as FORMAT.md writes it ({estimate, low, high}) as "1.62× [1.59, 1.64]"; "-" for none.
std::string intervalText(const json &iv)
{
    if (!iv.is_object())
        return "-";
    const auto ratio = Pipeline::ratioFromJson(iv);
    char buf[64];
    if (ratio.low && ratio.high)
        std::snprintf(buf, sizeof buf, "%.3g× [%.3g, %.3g]", ratio.estimate, *ratio.low, *ratio.high);
    else
        std::snprintf(buf, sizeof buf, "%.3g× [no interval]", ratio.estimate);
    return buf;
}

void printTune(std::FILE *out, const json &r)
{
    std::fprintf(out, "tune of %s on %s (%s), %.0f s; ratios are paired, same inputs, one process; measurement: %s\n",
                 r.value("model", "").c_str(), r.value("device", "").c_str(), r.value("dtype", "").c_str(),
                 r.value("seconds", 0.0), r.value("/measurement/verdict"_json_pointer, std::string("?")).c_str());
    std::fprintf(out, "%-32s %-9s %10s %28s %28s %10s %9s %10s  %s\n", "trial", "status", "median ms",
                 "vs defaults [95% CI]", "vs torch.compile [95% CI]", "max err", "compile s", "package", "front");
    const auto line = [&](const json &row) {
        const json iv = row.value("speedup_vs_defaults_interval", json());
        const std::string vs = intervalText(iv);
        const std::string vsJit = intervalText(row.value("speedup_vs_torch_compile_interval", json()));
        std::fprintf(out, "%-32s %-9s %10s %28s %28s %10s %9s %10s  %s\n", row.value("name", "").c_str(),
                     row.value("status", "").c_str(), formatNumber(row.value("median_ms", json()), "%.4g").c_str(),
                     vs.c_str(), vsJit.c_str(), formatNumber(row.value("max_abs_error", json()), "%.2g").c_str(),
                     formatNumber(row.value("compile_seconds", json()), "%.1f").c_str(),
                     formatNumber(row.value("package_bytes", json()), "%.0f").c_str(),
                     row.value("pareto", false) ? "*" : "");
        if (!row.value("reason", std::string()).empty())
            std::fprintf(out, "%-32s   %s\n", "", row["reason"].get<std::string>().c_str());
    };
    for (const auto &row : r.value("baselines", json::array()))
        line(row);
    for (const auto &row : r.value("rows", json::array()))
        line(row);
    const json workload = r.value("workload", json());
    if (workload.is_object() && workload.contains("shapes")) {
        std::fprintf(out, "shape workload (%s against a fresh torch.compile, in this order; %d recompiles):\n",
                     workload.value("trial", "").c_str(), workload.value("torch_compile_recompiles", 0));
        std::fprintf(out, "  %-28s %16s %12s %14s %12s %24s\n", "input shapes", "t.comp first ms", "t.comp ms",
                     "package first ms", "package ms", "package vs t.comp [95% CI]");
        for (const auto &row : workload["shapes"]) {
            std::string shapes;
            for (const auto &shape : row.value("shapes", json::array())) {
                std::string dims;
                for (const auto &d : shape)
                    dims += (dims.empty() ? "" : "x") + std::to_string(d.get<long long>());
                shapes += (shapes.empty() ? "" : " ") + dims;
            }
            const json tc = row.value("torch_compile", json::object()), aoti = row.value("aoti", json::object());
            const json iv = row.value("speedup_vs_torch_compile_interval", json());
            const std::string vs = intervalText(iv);
            std::fprintf(out, "  %-28s %16s %12s %14s %12s %24s %s\n", shapes.substr(0, 28).c_str(),
                         (formatNumber(tc.value("cold_ms", json()), "%.2f")
                          + (tc.value("recompile", false) ? " (recompile)" : ""))
                             .c_str(),
                         formatNumber(tc.value("median_ms", json()), "%.4g").c_str(),
                         formatNumber(aoti.value("first_ms", json()), "%.2f").c_str(),
                         formatNumber(aoti.value("median_ms", json()), "%.4g").c_str(), vs.c_str(),
                         row.value("measurement", "ok") == "ok" ? "" : row.value("measurement", "").c_str());
        }
    } else if (workload.is_object() && workload.contains("error")) {
        std::fprintf(out, "shape workload: %s\n", workload.value("error", "").c_str());
    }
    std::string front;
    for (const auto &n : r.value("front", json::array()))
        front += (front.empty() ? "" : ", ") + n.get<std::string>();
    const json ray = r.value("ray", json());
    const bool withCompileTime = !(ray.is_object() && ray.value("several_hosts", false));
    std::fprintf(out, "front (latency, error, %ssize; with both baselines): %s\n",
                 withCompileTime ? "compile time, " : "", front.c_str());
    if (ray.is_object())
        std::fprintf(out, "compiled on the Ray cluster at %s (each trial's host in tune.json); measured here\n",
                     ray.value("address", "").c_str());
    // The measurement's verdict line, when not fair, is among the warnings below.
    const json recipe = r.value("recipe", json());
    if (recipe.is_object())
        std::fprintf(out, "chosen: %s -> %s (use: aotstudio-cli compile --recipe %s ...)\n",
                     recipe.value("name", "").c_str(), r.value("recipe_path", "").c_str(),
                     r.value("recipe_path", "").c_str());
    for (const auto &w : r.value("warnings", json::array()))
        if (w.is_string())
            std::fprintf(out, "warning: %s\n", w.get<std::string>().c_str());
    std::fprintf(out, "table: %s/tune.csv\nresult: %s/tune.json\n", r.value("out", "").c_str(),
                 r.value("out", "").c_str());
}

} // namespace

Command tuneCommand()
{
    auto o = std::make_shared<TuneOptions>();
    return {
        "tune",
        "Search compile recipes: compile the model with each Inductor option set (defaults, freezing, max-autotune, "
        "epilogue fusion off, bf16, ...) within a time budget, verify each against eager, time them all with eager "
        "and torch.compile in one paired measurement, and report the Pareto front of latency, error, compile time "
        "and package size. Writes OUT/tune.json, OUT/tune.csv and OUT/recipe.json (compile/export/quantize --recipe)",
        [o](CLI::App &cmd) {
            cmd.add_option("-m,--model", o->model,
                           "Model: sample:NAME, path/to/file.py:factory or a torch.export.save .pt2")
                ->required();
            cmd.add_option("-d,--device", o->device, "cpu or cuda")->capture_default_str()->check(deviceName());
            cmd.add_option("--dtype", o->dtype,
                           "The base dtype (bf16/fp16 trials are added where the device runs them)")
                ->capture_default_str()
                ->check(dtypeName());
            cmd.add_option("-o,--out", o->out, "Output directory (created; one folder per trial under trials/)")
                ->capture_default_str();
            cmd.add_option("--budget", o->budget,
                           "Time for the trials' compiles: 90s, 30m, 1.5h; no trial starts after it")
                ->capture_default_str();
            cmd.add_option("--max-error", o->maxError,
                           "Largest max abs difference from eager the chosen recipe may have")
                ->check(CLI::NonNegativeNumber);
            cmd.add_option(
                   "--trials", o->trials,
                   "Only these option sets, e.g. defaults,freezing,no_epilogue_fusion (the engine lists the known "
                   "ones when one is not)")
                ->delimiter(',');
            cmd.add_option(
                   "--dynamic", o->dynamic,
                   "Dynamic dimension INPUT:DIM[:MIN:MAX][=NAME] for every trial (repeatable; as compile's). Adds "
                   "a shape workload: the chosen package and torch.compile on shapes across the range, with "
                   "torch.compile's recompiles and cold/warm latency per shape")
                ->check(dynamicSpec());
            cmd.add_option("--runs", o->runs, "Most timed runs per variant")
                ->capture_default_str()
                ->check(CLI::Range(1, 1000000));
            cmd.add_option("--min-runs", o->minRuns, "Fewest timed runs per variant")
                ->capture_default_str()
                ->check(CLI::Range(1, 1000000));
            cmd.add_option("--warmup", o->warmup, "Untimed warm-up runs per variant")
                ->capture_default_str()
                ->check(CLI::Range(0, 100000));
            cmd.add_option("--max-seconds", o->maxSeconds, "Time cap per variant, in seconds")
                ->capture_default_str()
                ->check(CLI::Range(0.0, 1e6));
            addThreadsOption(&cmd, o->threads);
            addRayOption(&cmd, o->ray);
            addShapeOption(&cmd, o->shapes);
            cmd.add_flag("--json", o->json, "Print the JSON envelope on stdout, tune.json as its result");
            cmd.add_flag("-v,--verbose", o->verbose, "Also print debug logs to stderr");
            cmd.footer("Exit status: 0 done (a recipe is written when a trial verified within --max-error), 1 the tune "
                       "failed (model, device) or no trial compiled and verified within --max-error (no recipe), 2 bad "
                       "command line, 130 cancelled (the finished "
                       "trials stay in OUT/tune.json).");
        },
        [o] {
            if (!parseDuration(o->budget))
                return "--budget: cannot read '" + o->budget
                    + "': write seconds (90, 90s), minutes (30m) or hours (1.5h)";
            json shapes;
            return parseShapes(o->shapes, shapes);
        },
        [o](const Globals &g) -> int {
            const json request = tuneRequest(*o);
            runEngineJob({request, o->json, g.verbose || o->verbose,
                          request.value("out", std::string()) + "/aotstudio.log", printTune, [](const json &r) {
                              return r.value("recipe", json()).is_object()
                                  ? std::string()
                                  : std::string("no trial compiled and verified within the limits: no recipe");
                          }});
        },
        [o] { return o->json; }};
}

} // namespace AotStudio::Cli
