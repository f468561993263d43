// SPDX-License-Identifier: GPL-3.0-or-later
// `aotstudio-cli compile`: export, AOTInductor-compile, load from C++, verify against eager, time both.
#include "command.h"
#include "enginejob.h"
#include "options.h"

#include "pipeline/measurement.h"
#include "protocol/envelope.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>

namespace AotStudio::Cli {

using Protocol::Json;

namespace {

struct CompileOptions {
    std::string model, device = "cpu", out = "aotstudio-out", dtype = "fp32", submodule, recipe;
    std::string recipeName; ///< --recipe NAME (readRecipeArgument); empty: a file or none (the engine's auto)
    Json recipeOptions; ///< loadRecipe()'s, when --recipe named a file
    CLI::Option *dtypeOption = nullptr; ///< to tell a given --dtype from the default
    int runs = 200, warmup = 5, minRuns = 20, threads = 0, verifySamples = 2;
    double maxSeconds = 5;
    std::optional<double> tolerance;
    std::optional<int> verifyShapes, captureShapes;
    std::vector<std::string> dynamic, shapes;
    std::vector<std::string> archs; ///< --arch: GPU architectures the kernels are built for too
    std::string fromCapture; ///< a capture folder whose proposal gives --dynamic (issue 39)
    bool json = false, verbose = false, freezing = false, noFreezing = false, maxAutotune = false, allowCache = false,
         noCache = false, noSnapshots = false, regional = false, compareWhole = false;
};

/// The compile result's `verify` section (FORMAT.md): the verdict, one line per named output, and
/// the fp32 matmul precision both sides ran with.
void printVerify(std::FILE *out, const Json &v)
{
    if (!v.is_object())
        return;
    std::fprintf(out, "verified:       %s\n", v.value("verdict", "").c_str());
    for (const auto &o : v.value("outputs", Json::array())) {
        std::string line = "  output '" + o.value("name", "") + "' " + o.value("shape", Json::array()).dump() + " "
            + o.value("dtype", "");
        char buf[256];
        std::snprintf(buf, sizeof buf, ": max abs %.3g, max rel %.3g, cosine %.6f", o.value("max_abs_error", 0.0),
                      o.value("max_rel_error", 0.0), o.value("cosine", 0.0));
        line += buf;
        if (o.contains("compiled_reference_error")) {
            std::snprintf(buf, sizeof buf, "; against the %s reference: compiled %.3g, eager %.3g",
                          v.value("/reference/dtype"_json_pointer, std::string("higher-precision")).c_str(),
                          o.value("compiled_reference_error", 0.0), o.value("eager_reference_error", 0.0));
            line += buf;
        }
        std::fprintf(out, "%s\n", line.c_str());
    }
    const auto setting = [&](const char *side) {
        const Json p = v.value("/precision"_json_pointer, Json::object()).value(side, Json());
        if (!p.is_object())
            return std::string("?");
        const Json tf32 = p.value("cuda_matmul_allow_tf32", Json());
        return p.value("float32_matmul_precision", std::string("?")) + ", TF32 matmul "
            + (tf32.is_boolean() ? (tf32.get<bool>() ? "on" : "off") : "?");
    };
    std::fprintf(out, "fp32 matmul:    eager %s; compiled %s\n", setting("eager").c_str(), setting("compiled").c_str());
    // Shapes from real traffic (compile --from-capture): one line per recorded shape, by name.
    const Json rec = v.value("recorded", Json());
    if (!rec.is_object())
        return;
    std::fprintf(out, "recorded:       %s in %s\n", rec.value("chosen", "").c_str(), rec.value("folder", "").c_str());
    for (const auto &p : rec.value("points", Json::array())) {
        char err[48] = "";
        if (p.value("max_abs_error", Json()).is_number())
            std::snprintf(err, sizeof err, ", max abs %.3g", p["max_abs_error"].get<double>());
        const long long calls = p.value("calls", 0LL);
        std::fprintf(out, "  recorded %s (%lld call%s, %s): %s%s\n", p.value("label", "").c_str(), calls,
                     calls == 1 ? "" : "s", p.value("inputs", "") == "recorded" ? "its kept input" : "seeded inputs",
                     p.value("outcome", "").c_str(), err);
    }
}

/// A regional compile's result (compilejob.cpp, runRegional): the blocks, verify, the timing.
void printRegional(std::FILE *out, const Json &r)
{
    const Json g = r.value("regional", Json::object());
    for (const auto &b : g.value("blocks", Json::array()))
        std::fprintf(out, "block:          %s x%zu -> %s (%s bytes, no weights; export %.1f s, compile %.1f s)\n",
                     b.value("class", "").c_str(), b.value("instances", Json::array()).size(),
                     b.value("package", "").c_str(), b.value("package_bytes", Json(0)).dump().c_str(),
                     b.value("export_seconds", 0.0), b.value("compile_seconds", 0.0));
    std::fprintf(out, "blocks cover:   %.0f%% of the parameters; layout in %s\n",
                 100.0 * g.value("parameter_share", 0.0),
                 g.value("layout", Json("")).is_string() ? g.value("layout", "").c_str() : "-");
    std::fprintf(out, "max abs error:  %.3g (tolerance %.3g)\n", r.value("max_abs_error", 0.0),
                 r.value("tolerance", 0.0));
    std::fprintf(out, "eager median:   %.4f ms\n", r.value("eager_ms", 0.0));
    std::fprintf(out, "regional:       %.4f ms, %s\n", r.value("compiled_ms", 0.0),
                 Pipeline::ratioText(Pipeline::ratioFromJson(r.value("speedup_interval", Json())),
                                     "the regional model is slower than eager")
                     .c_str());
    const Json whole = r.value("whole", Json());
    if (whole.is_object()) {
        std::fprintf(out, "whole model:    %.4f ms; regional vs whole %s\n", whole.value("median_ms", 0.0),
                     Pipeline::ratioText(Pipeline::ratioFromJson(whole.value("regional_speedup_vs_whole", Json())),
                                         "the regional model is slower than the whole package")
                         .c_str());
        std::fprintf(
            out,
            "compile time:   regional %.1f s, whole %.1f s (regional %.0f%% of whole; one compile each, no spread)\n",
            g.value("compile_seconds", 0.0), whole.value("compile_seconds", 0.0),
            100.0 * g.value("compile_time_ratio", 0.0));
    } else {
        std::fprintf(out, "compile time:   regional %.1f s (--compare-whole also compiles the whole model)\n",
                     g.value("compile_seconds", 0.0));
    }
    const Json measurement = r.value("measurement", Json());
    if (measurement.is_object())
        if (const std::string line = Pipeline::verdictLine(measurement); !line.empty())
            std::fprintf(out, "%s\n", line.c_str());
    std::fprintf(out, "result:         %s/result.json\n", r.value("out", "").c_str());
}

void printHuman(std::FILE *out, const Json &r)
{
    if (r.value("mode", "") == "regional")
        return printRegional(out, r);
    std::fprintf(out, "package:        %s\n", r.value("package", "").c_str());
    std::fprintf(out, "device:         %s (torch %s)\n", r.value("device", "").c_str(),
                 r.value("torch_version", "").c_str());
    std::string inputs;
    for (const auto &in : r.value("inputs", Json::array()))
        inputs += (inputs.empty() ? "" : ", ") + in.value("name", std::string("?")) + " "
            + in.value("shape", Json::array()).dump() + " " + in.value("dtype", std::string());
    if (!inputs.empty())
        std::fprintf(out, "inputs:         %s\n", inputs.c_str());
    std::fprintf(out, "max abs error:  %.3g (tolerance %.3g)\n", r.value("max_abs_error", 0.0),
                 r.value("tolerance", 0.0));
    printVerify(out, r.value("verify", Json()));
    std::fprintf(out, "eager median:   %.4f ms\n", r.value("eager_ms", 0.0));
    std::fprintf(out, "AOTI median:    %.4f ms\n", r.value("compiled_ms", 0.0));
    const Json interval = r.value("speedup_interval", Json());
    if (interval.is_object())
        std::fprintf(out, "speedup:        %s\n", Pipeline::ratioText(Pipeline::ratioFromJson(interval)).c_str());
    if (const std::string line = recipeLine(r.value("recipe", Json())); !line.empty())
        std::fprintf(out, "recipe:         %s\n", line.c_str());
    const Json baseline = r.value("eager_baseline", Json());
    if (baseline.is_object() && baseline.value("kind", "") == "exported_program")
        std::fprintf(out, "eager baseline: %s\n", baseline.value("note", "").c_str());
    const Json measurement = r.value("measurement", Json());
    std::fprintf(out,
                 "runs:           eager %d, compiled %d (after %d warm-up each), %s threads, paired in %d rounds\n",
                 r.value("/eager/runs"_json_pointer, 0), r.value("/compiled/runs"_json_pointer, 0),
                 r.value("/eager/warmup"_json_pointer, 0), r.contains("threads") ? r["threads"].dump().c_str() : "?",
                 measurement.is_object() ? measurement.value("/pairing/rounds"_json_pointer, 0) : 0);
    if (measurement.is_object()) {
        const std::string line = Pipeline::verdictLine(measurement);
        std::fprintf(out, "%s\n",
                     line.empty() ? ("measurement:    " + measurement.value("verdict", std::string("?"))).c_str()
                                  : line.c_str());
    }
    const Json kernels = r.value("kernels", Json::object());
    // Stages list every pass, also those that changed nothing; only graph snapshots count here.
    std::size_t snapshots = 0, unchanged = 0;
    for (const auto &s : r.value("stages", Json::array())) {
        const auto path = s.value("snapshot", Json());
        if (!s.value("changed", true))
            ++unchanged;
        else if (path.is_string() && path.get<std::string>().ends_with(".json") && s.value("name", "") != "codegen")
            ++snapshots;
    }
    std::fprintf(
        out, "graph stages:   %zu snapshots in %s/snapshots (%zu passes left the graph unchanged), %d kernels in %s\n",
        snapshots, r.value("out", "").c_str(), unchanged, kernels.value("count", 0),
        kernels.value("path", Json("")).is_string() ? kernels.value("path", "").c_str() : "-");
    std::fprintf(out, "result:         %s/result.json\n", r.value("out", "").c_str());
    for (const auto &w : r.value("warnings", Json::array())) {
        const std::string text = w.is_string() ? w.get<std::string>() : w.dump();
        if (text.rfind("measurement: ", 0) != 0) // printed above, on its own line
            std::fprintf(out, "warning:        %s\n", text.c_str());
    }
}

void addCompileOptions(CLI::App &cmd, CompileOptions &o)
{
    cmd.add_option("-m,--model", o.model,
                   "Model: sample:NAME (mlp, convnet, resnet18, espcn, transformer, unet, "
                   "minilm), path/to/file.py:factory (returns (model, args), (model, args, "
                   "dynamic_shapes) or a dict {model, args, kwargs, dynamic_shapes}; args and "
                   "kwargs any nest of tensors, lists, dicts and dataclasses), or a "
                   "torch.export.save .pt2; SPEC#PATH takes the sub-module PATH")
        ->required()
        ->check([](const std::string &v) { return v.empty() ? std::string("must not be empty") : std::string(); });
    cmd.add_flag("-v,--verbose", o.verbose, "Also print debug logs (Python tracebacks) to stderr");
    cmd.add_option("-d,--device", o.device, "Device to compile for and run on: cpu or cuda")
        ->capture_default_str()
        ->check(deviceName());
    cmd.add_option("-o,--out", o.out, "Output directory (created; the package is OUT/model.pt2)")
        ->capture_default_str();
    cmd.add_option("--arch", o.archs,
                   "CUDA only: GPU architectures the kernels are built for besides the compile GPU's, e.g. "
                   "sm_90,sm_120: each kernel a fatbin with SASS for the listed ones torch can build from the "
                   "compile GPU's PTX (that GPU's and newer) plus the PTX itself, which newer GPUs JIT; what was "
                   "built is read back into the package's compatibility key (inspect shows it)")
        ->delimiter(',');
    cmd.add_option("--runs", o.runs, "Most timed runs per variant")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000000));
    cmd.add_option("--min-runs", o.minRuns, "Fewest timed runs per variant (taken even past --max-seconds)")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000000));
    cmd.add_option("--warmup", o.warmup, "Untimed warm-up runs per variant")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000));
    cmd.add_option("--max-seconds", o.maxSeconds,
                   "Stop timing a variant after this many seconds, once --min-runs "
                   "runs are done (warm-up is not capped)")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 86400.0));
    addThreadsOption(&cmd, o.threads);
    cmd.add_option("--tolerance", o.tolerance,
                   "Largest accepted max abs difference between compiled and eager "
                   "outputs; above it the command fails (default 1e-3 for fp32, 5e-2 bf16, 1e-2 fp16)")
        ->check([](const std::string &v) {
            try {
                const double t = std::stod(v);
                return std::isfinite(t) && t >= 0 ? std::string() : std::string("must be a finite number >= 0");
            } catch (const std::exception &) {
                return std::string("must be a number");
            }
        });
    cmd.add_flag("--json", o.json,
                 "Print the JSON envelope on stdout: {\"ok\": true, \"result\": {...}} or {\"ok\": false, "
                 "\"error\": {...}} (progress stays on stderr)");
    o.dtypeOption = cmd.add_option("--dtype", o.dtype, "Model and input dtype: fp32, bf16 or fp16")
                        ->capture_default_str()
                        ->check(dtypeName());
    auto *freezingFlag = cmd.add_flag("--freezing", o.freezing,
                                      "Inductor freezing: fold weights into the graph as "
                                      "constants (default: on for a graph with quantize/dequantize "
                                      "nodes, a PT2E-quantized model; off otherwise)");
    cmd.add_flag("--no-freezing", o.noFreezing, "Never freeze, also for a PT2E-quantized model")
        ->excludes(freezingFlag);
    auto *regionalFlag = cmd.add_flag("--regional", o.regional,
                                      "Regional compilation: compile each repeated block (a class with two or more "
                                      "identical instances, or the model's _repeated_blocks) once into a weightless "
                                      "package reused by every instance with its own weights bound at run time; "
                                      "writes OUT/blocks/CLASS/package.pt2 (the layout spaces.aoti_blocks_load reads)");
    cmd.add_flag("--compare-whole", o.compareWhole,
                 "With --regional: also compile the whole model, and report compile "
                 "time and latency of both")
        ->needs(regionalFlag);
    cmd.add_option("--submodule", o.submodule,
                   "Compile the sub-module PATH of the model (a name from "
                   "model.named_modules(), e.g. model.encoder) on the inputs it receives "
                   "when the whole model runs once; the same as --model SPEC#PATH");
    cmd.add_flag("--max-autotune", o.maxAutotune, "Inductor max-autotune (benchmarks kernel choices; slow to compile)");
    cmd.add_option("--recipe", o.recipe,
                   "auto (the default: chosen per model after export by a measured rule, PROFILE.md \"Recipe "
                   "choice\"; the result says which and why), defaults (AOTInductor's defaults and the flags given), "
                   "a tune option set (freezing, max_autotune, freezing+max_autotune, no_epilogue_fusion, ...), or a "
                   "recipe file (aotstudio-cli tune writes OUT/recipe.json): its freezing, max-autotune, dtype and "
                   "Inductor options");
    cmd.add_flag("--allow-cache", o.allowCache,
                 "Let Inductor reuse its compile cache (faster; a cache hit runs no "
                 "passes, so pass snapshots and the kernel list may be missing)");
    cmd.add_flag("--no-cache", o.noCache,
                 "Compile cold: do not reuse an earlier compile's package (same exported program, weights, inputs, "
                 "options, compiler and torch) and do not build the generated C++ through ccache");
    cmd.add_flag("--no-snapshots", o.noSnapshots, "Do not write graph snapshots (OUT/snapshots/*.json)");
    cmd.add_option("--verify-samples", o.verifySamples,
                   "Seeded inputs of the example's shapes checked against eager "
                   "besides the example itself")
        ->capture_default_str()
        ->check(CLI::Range(0, 64));
    cmd.add_option("--verify-shapes", o.verifyShapes,
                   "Sizes besides the example verified for a package with dynamic "
                   "dimensions (default: each one's range start and end; 0: the "
                   "example's shapes only; aotstudio-cli sweep checks the whole range)")
        ->check(CLI::Range(0, 64));
    cmd.add_option("--dynamic", o.dynamic,
                   "Dynamic dimension INPUT:DIM[:MIN:MAX][=NAME] (repeatable), INPUT an index or "
                   "an input's name, e.g. 0:0:1:64 for a batch of 1 to 64 on the first input, or "
                   "attention_mask:1; one NAME ties dimensions of several inputs (0:0=batch "
                   "1:0=batch). An example size of 0 or 1 is resized to 2 (said in the log); a "
                   "dimension that comes out static fails the compile with the guard")
        ->check(dynamicSpec());
    addShapeOption(&cmd, o.shapes);
    cmd.add_option("--from-capture", o.fromCapture,
                   "A folder written by aotstudio-cli capture: its proposal's dynamic dimensions (tied names, "
                   "ranges) are used unless --dynamic is given, and the package is verified on the recorded shapes "
                   "(each on its kept input, or on seeded inputs of that shape)")
        ->check(CLI::ExistingDirectory);
    cmd.add_option("--capture-shapes", o.captureShapes,
                   "With --from-capture: most distinct recorded shapes verified (default 32; past it a sample: each "
                   "dimension's smallest and largest size, then the most frequent)")
        ->check(CLI::Range(0, 100000));
    cmd.footer("Exit status: 0 success, 1 the job failed (export, compile, accuracy, device), 2 bad command line, 130\n"
               "cancelled with Ctrl-C. A compile writes OUT/model.pt2, OUT/result.json (or OUT/error.json),\n"
               "OUT/snapshots/*.json, OUT/kernels.json, OUT/trace/ and OUT/aotstudio.log. A failed compile moves\n"
               "the previous compile's files to OUT/previous-<time>/ and keeps its package as model.unverified.pt2.");
}

/// Fail on an unusable output directory now, not after minutes of compiling; `out` made absolute.
std::string prepareOut(std::string &out)
{
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    if (ec || !std::filesystem::is_directory(out))
        return "cannot create output directory '" + out
            + "': " + (ec ? ec.message() : std::string("a file of that name exists"))
            + ". Hint: choose a writable directory for --out";
    out = std::filesystem::absolute(out).lexically_normal().string();
    return {};
}

Json compileRequest(const CompileOptions &o)
{
    Json request{{"type", "compile"},
                 {"id", 1},
                 {"model", o.model},
                 {"device", o.device},
                 {"out", o.out},
                 {"runs", o.runs},
                 {"min_runs", std::min(o.minRuns, o.runs)},
                 {"warmup", o.warmup},
                 {"max_seconds", o.maxSeconds},
                 {"dtype", o.dtype},
                 {"max_autotune", o.maxAutotune},
                 {"allow_cache", o.allowCache},
                 {"cache", !o.noCache},
                 {"snapshots", !o.noSnapshots},
                 {"dynamic", o.dynamic}};
    if (o.freezing || o.noFreezing)
        request["freezing"] = o.freezing; // else the front end decides (on for quantize/dequantize graphs)
    if (!o.archs.empty())
        request["cuda_archs"] = o.archs; // checked by the front end (options.parse_cuda_archs)
    if (!o.submodule.empty())
        request["model"] = o.model + "#" + o.submodule;
    if (o.regional) {
        request["regional"] = true;
        request["compare_whole"] = o.compareWhole;
    }
    if (o.tolerance)
        request["tolerance"] = *o.tolerance; // else the frontend's default for the dtype
    request["verify_samples"] = o.verifySamples;
    if (o.verifyShapes)
        request["verify_shapes"] = *o.verifyShapes;
    if (!o.fromCapture.empty())
        request["from_capture"] = std::filesystem::absolute(o.fromCapture).lexically_normal().string();
    if (o.captureShapes)
        request["capture_shapes"] = *o.captureShapes;
    setThreads(request, o.threads);
    setShapes(request, o.shapes);
    applyRecipe(request, o.recipeOptions,
                o.dtypeOption && o.dtypeOption->count() > 0); // contradictions refused in check
    if (!o.recipeName.empty())
        request["recipe"] = o.recipeName; // checked by the engine (recipe.py), which lists the known names
    return request;
}

/// The command line's problems that need more than one option: the output folder, the recipe.
std::string checkCompile(CompileOptions &o)
{
    if (std::string problem = prepareOut(o.out); !problem.empty())
        return problem;
    if (std::string problem = readRecipeArgument(o.recipe, o.recipeName, o.recipeOptions); !problem.empty())
        return problem;
    if (Json parsed; !parseShapes(o.shapes, parsed).empty())
        return parseShapes(o.shapes, parsed);
    if (!o.fromCapture.empty() && o.dynamic.empty()) {
        const std::string path = o.fromCapture + "/proposal.json";
        std::ifstream in(path);
        const Json proposal = in ? Json::parse(in, nullptr, false) : Json();
        const Json dynamic
            = proposal.is_object() ? proposal.value("compile", Json::object()).value("dynamic", Json()) : Json();
        if (!dynamic.is_array())
            return "no proposal with dynamic dimensions at '" + path + "'. Hint: run aotstudio-cli capture --out "
                + o.fromCapture + " first";
        for (const Json &d : dynamic)
            if (d.is_string())
                o.dynamic.push_back(d.get<std::string>());
    }
    Json probe{{"dtype", o.dtype}};
    return applyRecipe(probe, o.recipeOptions, o.dtypeOption && o.dtypeOption->count() > 0);
}

} // namespace

Command compileCommand()
{
    auto o = std::make_shared<CompileOptions>();
    return {"compile",
            "Export a model, compile it with AOTInductor into a .pt2, load it from C++ with LibTorch, check it against "
            "eager and time both",
            [o](CLI::App &cmd) { addCompileOptions(cmd, *o); },
            [o] { return checkCompile(*o); },
            [o](const Globals &g) -> int {
                runEngineJob(
                    {compileRequest(*o), o->json, g.verbose || o->verbose, o->out + "/aotstudio.log", printHuman, {}});
            },
            [o] { return o->json; }};
}

} // namespace AotStudio::Cli
