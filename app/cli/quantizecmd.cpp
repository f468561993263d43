// SPDX-License-Identifier: GPL-3.0-or-later
// `aotstudio-cli quantize`: quantization schemes side by side (FORMAT.md, "quantize result").
#include "quantizecmd.h"
#include "command.h"
#include "enginejob.h"
#include "options.h"

#include "pipeline/measurement.h"

#include <algorithm>
#include <filesystem>
#include <memory>

namespace AotStudio::Cli {

using nlohmann::json;

namespace {

std::string absolutePath(const std::string &p)
{
    return std::filesystem::absolute(p).lexically_normal().string();
}

std::string bytes(const json &v)
{
    if (!v.is_number())
        return "-";
    const double b = v.get<double>();
    char buf[32];
    if (b >= 1024.0 * 1024.0)
        std::snprintf(buf, sizeof buf, "%.1f MiB", b / (1024.0 * 1024.0));
    else if (b >= 1024.0)
        std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024.0);
    else
        std::snprintf(buf, sizeof buf, "%.0f B", b);
    return buf;
}

} // namespace

void addQuantizeOptions(CLI::App &app, QuantizeOptions &o)
{
    auto *cmd = &app;
    cmd->add_option("-m,--model", o.model, "Model: sample:NAME or path/to/file.py:factory")->required();
    cmd->add_option(
           "-s,--schemes", o.schemes,
           "Comma-separated schemes (default all): fp32, bf16, int8-weight-only, int8-dynamic, int4-weight-only, "
           "fp8-dynamic, int8-static")
        ->delimiter(',')
        ->check(CLI::Validator(
            [](std::string &v) -> std::string {
                // The front end's list (quant/schemes.py SCHEMES), checked here too: a typo never imports torch.
                static const std::vector<std::string> known{
                    "fp32",        "bf16",       "int8-weight-only", "int8-dynamic", "int4-weight-only",
                    "fp8-dynamic", "int8-static"};
                if (std::find(known.begin(), known.end(), v) != known.end())
                    return {};
                std::string list;
                for (const auto &k : known)
                    list += (list.empty() ? "" : ", ") + k;
                return "unknown quantization scheme '" + v + "': choose from " + list;
            },
            "SCHEME"));
    cmd->add_option("-d,--device", o.device, "cpu or cuda")->capture_default_str()->check(CLI::IsMember({"cpu", "cuda"}));
    cmd->add_option(
           "--recipe", o.recipe,
           "A recipe file (aotstudio-cli tune writes OUT/recipe.json): its freezing, max-autotune and Inductor "
           "options for every scheme's compile (its dtype is ignored: each scheme decides)")
        ->check(CLI::ExistingFile);
    cmd->add_option("-o,--out", o.out, "Output directory (created; one subdirectory per scheme)")->capture_default_str();
    cmd->add_option("--calibration", o.calibration,
                    "torch.save file of calibration samples (a list of input tuples or tensors)")
        ->check(CLI::ExistingFile);
    cmd->add_option("--calibration-samples", o.calibrationSamples, "Calibration samples from the model's own generator (int8-static)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    cmd->add_option("--eval", o.eval, "torch.save file of evaluation samples (shapes of the example inputs)")
        ->check(CLI::ExistingFile);
    cmd->add_option("--eval-samples", o.evalSamples, "Evaluation samples from the model's own generator")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    cmd->add_option("--max-error", o.maxError, "Name the fastest scheme (compiled median) whose max abs error against fp32 "
                                               "eager is within this")
        ->check(CLI::Range(0.0, 1e30));
    addShapeOption(cmd, o.shapes);
    cmd->add_option("--runs", o.runs, "Most timed runs per scheme and variant")->capture_default_str()->check(CLI::Range(1, 1000000));
    cmd->add_option("--min-runs", o.minRuns, "Fewest timed runs per scheme and variant")->capture_default_str()->check(CLI::Range(1, 1000000));
    cmd->add_option("--warmup", o.warmup, "Untimed warm-up runs")->capture_default_str()->check(CLI::Range(0, 100000));
    cmd->add_option("--max-seconds", o.maxSeconds, "Time cap per scheme and variant, in seconds")->capture_default_str()->check(CLI::Range(0.0, 1e6));
    addThreadsOption(cmd, o.threads);
    addRayOption(cmd, o.ray);
    cmd->add_flag("--no-snapshots", o.noSnapshots, "Write no graph snapshots (faster; quantized ops still listed)");
    cmd->add_flag("--json", o.json,
                  "Print the JSON envelope on stdout, the comparison as its result (also beside the error when it "
                  "compared nothing)");
    cmd->add_flag("-v,--verbose", o.verbose, "Also print debug logs to stderr");
    cmd->footer(
        "A scheme the device cannot run (fp8-dynamic without a CUDA GPU of compute capability 8.9+) or that fails "
        "to quantize, export or compile is a row with its reason; the others still run.\n"
        "Exit status: 0 the comparison ran (other rows may have failed), 1 the request failed (unknown model, no "
        "device) or compared nothing (the fp32 baseline failed, or every scheme did), 2 bad command "
        "line (an unknown scheme among them), 130 cancelled.\n"
        "With --ray each scheme is a Ray task of its own (in parallel on the cluster's nodes); every row says the "
        "host and device it was measured on, and with rows from several hosts --max-error picks by the speedup over "
        "fp32 eager each row measured in its own process, never by comparing times of two hosts.\n"
        "Example: aotstudio-cli quantize --model sample:convnet --schemes fp32,int8-dynamic,int8-static "
        "--out /tmp/q --max-error 0.05");
}

std::string quantizeFailure(const json &result)
{
    const json rows = result.value("schemes", json::array());
    if (!rows.is_array() || rows.empty())
        return "no scheme ran";
    bool anyOk = false;
    for (const auto &r : rows) {
        const bool ok = r.value("status", "") == "ok";
        anyOk = anyOk || ok;
        if (r.value("scheme", "") == "fp32" && !ok)
            return "the fp32 baseline failed (" + r.value("reason", std::string("no reason given")) +
                   "): no scheme can be compared with it";
    }
    return anyOk ? std::string() : "every scheme failed; see the rows above for each reason";
}

json quantizeRequest(const QuantizeOptions &o)
{
    json r{{"type", "quantize"},   {"id", 1},
           {"model", o.model},     {"device", o.device},
           {"out", absolutePath(o.out)},
           {"runs", o.runs},       {"min_runs", std::min(o.minRuns, o.runs)},
           {"warmup", o.warmup},   {"max_seconds", o.maxSeconds},
           {"calibration_samples", o.calibrationSamples}, {"eval_samples", o.evalSamples},
           {"snapshots", !o.noSnapshots}};
    setThreads(r, o.threads);
    setRay(r, o.ray);
    setShapes(r, o.shapes);
    if (!o.schemes.empty())
        r["schemes"] = o.schemes;
    if (!o.calibration.empty())
        r["calibration"] = absolutePath(o.calibration);
    if (!o.eval.empty())
        r["eval"] = absolutePath(o.eval);
    if (o.maxError)
        r["max_error"] = *o.maxError;
    applyRecipe(r, o.recipeOptions, false);
    r.erase("dtype"); // each scheme decides its precision
    return r;
}

void printQuantize(std::FILE *out, const json &r)
{
    std::fprintf(out, "model %s on %s; accuracy against fp32 eager on %d evaluation samples (%s); peak memory: %s\n",
                 r.value("model", "").c_str(), r.value("device", "").c_str(),
                 r.value("/evaluation/samples"_json_pointer, 0), r.value("/evaluation/source"_json_pointer, std::string()).c_str(),
                 r.value("peak_method", "").c_str());
    if (r.value("ray", json()).is_object())
        std::fprintf(out, "on the Ray cluster at %s%s\n", r["ray"].value("address", "").c_str(),
                     r["ray"].value("several_hosts", false)
                         ? " (several hosts: compare each row's own ratios, not times across rows)"
                         : "");
    std::fprintf(out, "%-17s %-11s %10s %11s %8s %8s %10s %10s %10s %9s %6s %6s\n", "scheme", "status", "eager ms", "compiled ms",
                 "speedup", "vs fp32", "size", "peak", "max err", "cosine", "top1", "layers");
    for (const auto &row : r.value("schemes", json::array())) {
        const std::string status = row.value("status", "");
        if (status != "ok") {
            std::fprintf(out, "%-17s %-11s %s\n", row.value("scheme", "").c_str(), status.c_str(), row.value("reason", "").c_str());
            continue;
        }
        const json acc = row.value("accuracy", json::object());
        const json top1 = acc.is_object() ? acc.value("top1_agreement", json()) : json();
        const json emb = acc.is_object() ? acc.value("embedding_cosine", json()) : json();
        std::fprintf(out, "%-17s %-11s %10s %11s %8s %8s %10s %10s %10s %9s %6s %6d\n", row.value("scheme", "").c_str(),
                     status.c_str(), formatNumber(row.value("eager_ms", json()), "%.4f").c_str(),
                     formatNumber(row.value("compiled_ms", json()), "%.4f").c_str(),
                     formatNumber(row.value("speedup", json()), "%.2fx").c_str(),
                     formatNumber(row.value("speedup_vs_fp32_eager", json()), "%.2fx").c_str(),
                     bytes(row.value("package_bytes", json())).c_str(),
                     bytes(row.value("/peak_bytes/compiled"_json_pointer, json())).c_str(),
                     formatNumber(acc.is_object() ? acc.value("max_abs_error", json()) : json(), "%.3g").c_str(),
                     formatNumber(acc.is_object() ? acc.value("cosine", json()) : json(), "%.6f").c_str(),
                     formatNumber(top1.is_number() ? top1 : emb, "%.3f").c_str(), row.value("quantized_layers", 0));
    }
    // Every ratio with its interval, and each row's verdict on the machine (FORMAT.md).
    for (const auto &row : r.value("schemes", json::array())) {
        if (row.value("status", "") != "ok")
            continue;
        const json a = row.value("speedup_interval", json()), b = row.value("speedup_vs_fp32_eager_interval", json());
        std::fprintf(out, "%-17s compiled vs its eager %s; vs fp32 eager %s\n", row.value("scheme", "").c_str(),
                     a.is_object() ? Pipeline::ratioText(Pipeline::ratioFromJson(a)).c_str() : "(no interval)",
                     b.is_object() ? Pipeline::ratioText(Pipeline::ratioFromJson(b), "slower than fp32 eager").c_str() : "(no interval)");
        if (const std::string line = Pipeline::verdictLine(row.value("measurement", json())); !line.empty())
            std::fprintf(out, "%-17s %s\n", "", line.c_str());
        if (r.value("ray", json()).is_object())
            std::fprintf(out, "%-17s measured on %s (%s)\n", "", row.value("host", "?").c_str(),
                         row.value("device_name", "?").c_str());
    }
    if (r.contains("threads"))
        std::fprintf(out, "threads: %s intra-op, every scheme and variant alike\n", r["threads"].dump().c_str());
    if (r.contains("best")) {
        const json &b = r["best"];
        if (b.value("scheme", json()).is_string() && b.value("by", "") == "speedup_vs_fp32_eager")
            std::fprintf(out,
                         "best within max error %g: %s (%.2fx fp32 eager on %s; rows from several hosts are ranked by "
                         "their own ratios)\n",
                         b.value("max_error", 0.0), b["scheme"].get<std::string>().c_str(),
                         b.value("speedup_vs_fp32_eager", 0.0), b.value("host", "?").c_str());
        else if (b.value("scheme", json()).is_string())
            std::fprintf(out, "best within max error %g: %s (compiled %.4f ms)\n", b.value("max_error", 0.0),
                         b["scheme"].get<std::string>().c_str(), b.value("compiled_ms", 0.0));
        else
            std::fprintf(out, "best within max error %g: none of the schemes is that accurate\n", b.value("max_error", 0.0));
    }
    std::fprintf(out, "table: %s\nresult: %s\n", r.value("csv", "").c_str(), r.value("json", "").c_str());
}

Command quantizeCommand()
{
    auto o = std::make_shared<QuantizeOptions>();
    return {"quantize",
            "Compare quantization schemes side by side: each is quantized (torchao), "
            "compiled with AOTInductor into OUT/<scheme>/model.pt2 and measured against "
            "fp32 eager (latency eager and compiled, peak memory, package size, accuracy, "
            "per-layer error). Writes OUT/quantize.json and OUT/quantize.csv",
            [o](CLI::App &cmd) { addQuantizeOptions(cmd, *o); },
            [o] {
                json shapes;
                const std::string problem = loadRecipe(o->recipe, o->recipeOptions);
                return problem.empty() ? parseShapes(o->shapes, shapes) : problem;
            },
            [o](const Globals &g) -> int {
                runEngineJob({quantizeRequest(*o), o->json, g.verbose || o->verbose,
                              quantizeRequest(*o).value("out", std::string()) + "/aotstudio.log", printQuantize,
                              quantizeFailure});
            },
            [o] { return o->json; }};
}

} // namespace AotStudio::Cli
