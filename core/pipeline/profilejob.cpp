// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/profilejob.h"
#include "pipeline/compilejob.h"
#include "pipeline/jobutil.h"
#include "pipeline/profilesteps.h"
#include "pipeline/steps.h"
#include "pipeline/throughput.h"
#include "pipeline/versions.h"

#include "bundle/bundle.h"
#include "bundle/guards.h"
#include "python/frontend.h"
#include "runtime/aotirunner.h"

#include <algorithm>
#include <filesystem>

namespace AotStudio::Pipeline {

using Protocol::Json;
namespace fs = std::filesystem;
using namespace ProfileSteps;

namespace {

/// Profile's stages and their share of the bar; a compile for the profile fills "compile".
constexpr StageSpan kProfileStages[] = {
    {"compile", 0.00, 0.50},    {"load", 0.50, 0.52},   {"load_package", 0.52, 0.55},
    {"measure", 0.55, 0.75},    {"memory", 0.75, 0.78}, {"throughput", 0.78, 0.87},
    {"cold_start", 0.87, 0.92}, {"replay", 0.92, 0.97}, {"write", 0.97, 1.00},
};

/// The request's `replay` (FORMAT.md "profile"): absent, null or false: none; true: the defaults
/// (rates 5, 20, 50 requests/s, 3 s each, 1 worker, worker and request isolation); an object: those
/// fields overridden. Throws JobFailed(bad_request) naming the field.
std::optional<ReplaySpec> parseReplay(const Json &request)
{
    const Json &j = request.contains("replay") ? request["replay"] : Json();
    const auto bad = [](const std::string &message, const std::string &hint) {
        return JobFailed({"load", Protocol::Code::BadRequest, message, hint});
    };
    if (j.is_null() || (j.is_boolean() && !j.get<bool>()))
        return std::nullopt;
    ReplaySpec spec;
    spec.rates = {5, 20, 50};
    if (j.is_boolean())
        return spec;
    if (!j.is_object())
        throw bad("'replay' must be an object, true or false", "e.g. {\"rates\": [5, 20, 50], \"seconds\": 3}");
    for (const auto &[key, value] : j.items())
        if (key != "rates" && key != "seconds" && key != "workers" && key != "modes" && key != "seed" && key != "eager")
            throw bad("'replay." + key + "' is not a field of replay",
                      "replay has rates, seconds, workers, modes, seed and eager");
    if (j.contains("rates")) {
        if (!j["rates"].is_array() || j["rates"].empty())
            throw bad("'replay.rates' must be a non-empty list of arrival rates (requests/s)", "e.g. [5, 20, 50]");
        spec.rates.clear();
        for (const auto &r : j["rates"]) {
            if (!r.is_number() || !(r.get<double>() > 0) || r.get<double>() > 10000)
                throw bad("'replay.rates' holds " + r.dump()
                              + ": each rate must be a number of requests/s in (0, 10000]",
                          "e.g. [5, 20, 50]");
            spec.rates.push_back(r.get<double>());
        }
    }
    if (j.contains("seconds")) {
        if (!j["seconds"].is_number() || !(j["seconds"].get<double>() > 0) || j["seconds"].get<double>() > 600)
            throw bad("'replay.seconds' must be a number of seconds in (0, 600]", "e.g. 3");
        spec.seconds = j["seconds"].get<double>();
    }
    if (j.contains("workers")) {
        if (!j["workers"].is_number_integer() || j["workers"].get<int>() < 1 || j["workers"].get<int>() > 256)
            throw bad("'replay.workers' must be an integer in 1..256", "e.g. 1");
        spec.workers = j["workers"].get<int>();
    }
    if (j.contains("seed")) {
        if (!j["seed"].is_number_unsigned())
            throw bad("'replay.seed' must be a non-negative integer", "e.g. 0");
        spec.seed = j["seed"].get<std::uint64_t>();
    }
    if (j.contains("eager")) {
        if (!j["eager"].is_boolean())
            throw bad("'replay.eager' must be true or false", "false leaves out the Python eager server baseline");
        spec.eager = j["eager"].get<bool>();
    }
    if (j.contains("modes")) {
        if (!j["modes"].is_array() || j["modes"].empty())
            throw bad("'replay.modes' must be a non-empty list of isolation modes", "e.g. [\"worker\", \"request\"]");
        spec.modes.clear();
        for (const auto &m : j["modes"]) {
            if (!m.is_string() || (m != "worker" && m != "request"))
                throw bad("'replay.modes' holds " + m.dump()
                              + ": the modes are worker and request (the spawn "
                                "baseline is always run)",
                          "e.g. [\"worker\", \"request\"]");
            if (std::find(spec.modes.begin(), spec.modes.end(), m.get<std::string>()) == spec.modes.end())
                spec.modes.push_back(m.get<std::string>());
        }
    }
    return spec;
}

/// Validate `request` (every field before any work), apply its thread count and create `out`.
/// Throws JobFailed: bad_request naming the field, no_device for cuda without a usable GPU (an
/// absent device is an error, not a silent move to the CPU: the figures would answer another
/// question than the one asked).
ProfileRequest parseRequest(const Json &request)
{
    ProfileRequest r;
    r.options = measureOptionsFrom(request); // validates the common fields too
    r.threads = applyThreads(request);
    if (request.contains("package") && !request["package"].is_string())
        throw JobFailed({"load", Protocol::Code::BadRequest, "'package' must be a string", "send a JSON string"});
    r.model = request.value("model", std::string());
    r.device = request.value("device", std::string("cpu"));
    if (request.contains("shapes") && request["shapes"].is_object())
        r.shapes = request["shapes"].dump();
    const std::string outString = request.value("out", std::string());
    if (r.model.empty())
        throw JobFailed({"load", Protocol::Code::BadRequest, "profile needs a model", "pass --model SPEC (e.g. sample:mlp)"});
    if (outString.empty())
        throw JobFailed({"load", Protocol::Code::BadRequest, "profile needs an output directory", "pass --out DIR"});
    if (r.device != "cpu" && r.device != "cuda")
        throw JobFailed({"load", Protocol::Code::BadRequest, "unknown device '" + r.device + "'", "use cpu or cuda"});
    if (request.contains("throughput")) {
        if (!request["throughput"].is_array())
            throw JobFailed({"load", Protocol::Code::BadRequest, "'throughput' must be a list of runner counts", "e.g. [1,2,4]"});
        r.runnerCounts.clear();
        for (const auto &n : request["throughput"]) {
            if (!n.is_number_integer() || n.get<int>() < 1 || n.get<int>() > 256)
                throw JobFailed({"load", Protocol::Code::BadRequest, "runner counts must be integers in 1..256", "e.g. [1,2,4]"});
            r.runnerCounts.push_back(n.get<int>());
        }
    }
    if (request.contains("variants")) {
        if (!request["variants"].is_array())
            throw JobFailed({"load", Protocol::Code::BadRequest, "'variants' must be a list", "e.g. [\"eager\",\"aoti\"]"});
        r.wanted.clear();
        for (const auto &v : request["variants"]) {
            if (!v.is_string() || (v != "eager" && v != "aoti" && v != "nativert"))
                throw JobFailed({"load", Protocol::Code::BadRequest, "unknown variant " + v.dump(), "use eager, aoti, nativert"});
            r.wanted.insert(v.get<std::string>());
        }
    }
    r.trace = request.value("trace", true);
    r.throughputSeconds = std::max(0.05, request.value("throughput_seconds", 1.0));
    r.coldRuns = std::max(0, request.value("cold_start_runs", 3));
    r.replay = parseReplay(request);
    if (request.contains("package"))
        r.package = fs::absolute(request["package"].get<std::string>()).lexically_normal().string();
    if (request.contains("convert_layout") && !request["convert_layout"].is_boolean())
        throw JobFailed(
            {"load", Protocol::Code::BadRequest, "'convert_layout' must be true or false", "send a JSON boolean"});
    r.convertLayout = request.value("convert_layout", false);

    if (r.device == "cuda" && !Runtime::cudaAvailable())
        throw JobFailed({"load", Protocol::Code::NoDevice, "no CUDA device: LibTorch sees no usable GPU or driver on this machine",
                         "profile with --device cpu, or run the engine on a machine with an NVIDIA GPU"});
    r.out = makeOutputFolder("load", outString);
    return r;
}

/// The package profiled: compiled by this job (stage "compile", half the bar), or given.
struct PackageSource {
    std::string package; ///< absolute path of the .pt2
    fs::path kernelsJson; ///< kernels.json next to it; empty when there is none
    std::string source = "compiled"; ///< "compiled" or "given"
    Json stages = Json::array(); ///< the compile's stages and passes (FORMAT.md compile result)
    Json options; ///< and its options (null for a given package)
};

/// Compile the request's model into `req.out` (a sub-job of `ctx`), or check the given package
/// exists. Throws JobFailed (load_failed for a missing package; the compile's own failures).
PackageSource obtainPackage(const Job &ctx, const Json &request, const ProfileRequest &req)
{
    PackageSource p;
    std::error_code ec;
    if (req.package) {
        p.source = "given";
        p.package = *req.package;
        if (!fs::is_regular_file(p.package, ec))
            throw JobFailed({"load_package", Protocol::Code::LoadFailed, "package '" + p.package + "' does not exist",
                             "pass --package the .pt2 written by compile or export"});
        p.kernelsJson = fs::path(p.package).parent_path() / "kernels.json";
    } else {
        Json r = request;
        for (const char *k :
             {"variants", "trace", "throughput", "throughput_seconds", "cold_start_runs", "replay", "package"})
            r.erase(k);
        r["out"] = req.out.string();
        r["measure"] = false;
        const Json compiled = runCompileAsPart(ctx, r, 0.5);
        p.package = compiled.value("package", "");
        p.stages = compiled.value("stages", Json::array());
        p.options = compiled.value("options", Json());
        p.kernelsJson = req.out / "kernels.json";
    }
    if (!fs::exists(p.kernelsJson, ec))
        p.kernelsJson.clear();
    return p;
}

/// Load the package with LibTorch on the model's inputs and run it once. A given package reads
/// its inputs by the sizes it was compiled for: when its result.json (written by our compile next
/// to it) names other input shapes than the model's (`loaded.inputs`), running it would read past
/// them; with a guards sidecar the runner checks the inputs itself, range by range. Throws
/// JobFailed(load_failed) naming the package and what to do.
std::unique_ptr<Runtime::AotiRunner> loadProfiledPackage(const ProfileRequest &req, const PackageSource &src,
                                                         Python::CompileJob &job, const Json &loaded)
{
    std::error_code ec;
    if (src.source == "given" && !fs::exists(Bundle::InputGuards::sidecarPath(src.package), ec)) {
        const Json compiledFor = readJsonFile(fs::path(src.package).parent_path() / "result.json");
        const Json want = compiledFor.is_object() ? compiledFor.value("inputs", Json()) : Json();
        const Json have = loaded.value("inputs", Json());
        if (want.is_array() && have.is_array() && want != have)
            throw JobFailed({"load_package", Protocol::Code::LoadFailed,
                             "package '" + src.package + "' was compiled for inputs " + want.dump()
                                 + " (its result.json); " + req.model + " gives " + have.dump(),
                             "profile the package with the model it was compiled from, or compile this model "
                             "(omit --package)"});
    }
    try {
        auto runner = Runtime::AotiRunner::load(src.package, req.device);
        runner->setConvertLayout(req.convertLayout);
        runner->setInputs(job.inputs());
        runner->run();
        return runner;
    } catch (const Runtime::InputRefused &e) {
        throw JobFailed(
            {"load_package", Protocol::Code::LoadFailed, e.what(),
             e.violation().layout
                 ? "the model's example inputs have another memory layout than the package was compiled for; "
                   "give inputs in that layout, or profile with --convert-layout (a copy before every call)"
                 : "the model's inputs are outside what the package was compiled for (its model.guards.json); "
                   "give inputs it accepts, or compile the model with the range you need (--dynamic)"});
    } catch (const Runtime::RuntimeError &e) {
        const bool program
            = src.source == "given" && Bundle::pt2Kind(fs::path(src.package)) == Bundle::Pt2Kind::ExportedProgram;
        throw JobFailed({"load_package", Protocol::Code::LoadFailed, e.what(),
                         program ? "profile the model itself (omit --package: it is compiled first), or compile the "
                                   "program and profile its model.pt2"
                             : src.source == "given"
                             ? "the package may be built for another device, another torch or another "
                               "model; compile it here with aotstudio-cli compile"
                             : "see the engine log"});
    }
}

/// Stage "throughput": N runners of the package on N threads (throughput.h: runner counts take
/// turns in rounds, each rate with its interval, scaling against one runner), when aoti is asked
/// for and the request names runner counts. PROFILE.md's "throughput" rows; empty otherwise.
Json measureProfileThroughput(const Job &ctx, const ProfileRequest &req, const std::string &package,
                              Python::CompileJob &job, const WarnFn &warn)
{
    if (!req.wanted.count("aoti") || req.runnerCounts.empty())
        return Json::array();
    ctx.progress("throughput", 0,
                 "throughput with " + std::to_string(req.runnerCounts.size())
                     + " runner count(s), in alternating windows");
    ThroughputOptions topt;
    topt.runnerCounts = req.runnerCounts;
    topt.seconds = req.throughputSeconds;
    topt.warmup = std::max(3, req.options.warmup);
    topt.threads = req.threads;
    topt.convertLayout = req.convertLayout;
    const Json throughput = measureThroughput(
        package, req.device, [&] { return job.inputs(); }, topt, ctx.stopToken(), warn,
        [&](double f) { ctx.progress("throughput", f, "throughput windows"); });
    ctx.checkStop("throughput");
    return throughput;
}

} // namespace

Json runProfile(std::int64_t id, const Json &request, const EventFn &emit, std::stop_token stop)
{
    const Job ctx(id, emit, stop, kProfileStages);
    const ProfileRequest req = parseRequest(request);
    Json warnings = Json::array();
    const WarnFn warn = [&](const std::string &message) {
        warnings.push_back(message);
        ctx.log("warning", message);
    };

    // 1. The package: compiled here, or given.
    const PackageSource src = obtainPackage(ctx, request, req);
    const Provenance provenance = Provenance::load(src.kernelsJson);

    Json jobRequest = request;
    jobRequest["out"] = req.out.string();
    Python::CompileJob job(
        jobRequest,
        [&](const std::string &level, const std::string &message, const Json &msg = nullptr) {
            ctx.log(level, message, msg);
        },
        ctx.sink(), ctx.stopToken());
    ctx.progress("load", 0, "building the model and example inputs");
    const Json loaded = job.load();
    ctx.checkStop("load");

    // 2. Load the package and check it computes what eager computes on these inputs.
    ctx.progress("load_package", 0, "loading the package with LibTorch");
    const auto runner = loadProfiledPackage(req, src, job, loaded);
    for (const auto &c : runner->layoutConversions())
        ctx.log("warning",
                "layout: " + c.message + " (convert_layout; the copy is made once, outside the timed calls)");
    const Json verified = verifyPackage(job, *runner); // per output, on the example and seeded inputs (steps.h)
    ctx.checkStop("load_package");

    // 3.-7. Variants timed together, memory, throughput, cold start.
    std::vector<Variant> variants = makeVariants(req, job, *runner, warn);
    Measured measured = measureVariants(ctx, req, variants, warn);
    measureMemory(ctx, variants, req.device);
    const Json throughput = measureProfileThroughput(ctx, req, src.package, job, warn);
    std::optional<ProfileBundle> bundle;
    if (req.coldRuns > 0 || req.replay)
        bundle = writeProfileBundle(req, src.package, loaded, verified, warn);
    const Json cold = measureProfileColdStart(ctx, req, bundle, warn);
    ctx.checkStop("cold_start");
    const Json replay = measureProfileReplay(ctx, req, bundle, warn);
    ctx.checkStop("replay");

    // 8. Report.
    ctx.progress("write", 0, "writing profile.json, CSV and trace.json");
    const VariantReport vr = reportVariants(ctx, variants, measured, req.options, warn);
    const Json memory
        = memoryVsEager(variants, src.package, src.options.is_object() && src.options.value("freezing", false), warn);
    const KernelReport kr = reportKernels(measured, variants, provenance, req.device);
    const ProfileFiles files(req.out);
    Json result{
        {"format", "aotstudio.profile"},
        {"format_version", 1},
        {"created", isoNow()},
        {"model", req.model},
        {"device", req.device},
        {"dtype", request.value("dtype", std::string("fp32"))},
        {"package", src.package},
        {"package_source", src.source},
        {"kernels_json", src.kernelsJson.empty() ? Json() : Json(src.kernelsJson.string())},
        {"stages", src.stages},
        {"options", src.options},
        {"out", req.out.string()},
        {"torch_version", loaded.value("torch_version", Runtime::libtorchVersion())},
        {"torchao_version", torchaoVersion()},
        {"cuda_version", loaded.value("cuda_version", std::string())},
        {"device_info", deviceInfo(req.device, req.threads, measured.cupti.get())},
        {"inputs", loaded.value("inputs", Json::array())},
        {"outputs", loaded.value("outputs", Json::array())},
        {"max_abs_error", verified.value("max_abs_error", Json())},
        {"verify", verified.value("verify", Json())},
        {"method",
         {{"timer", "std::chrono::steady_clock around each call, in the engine process"},
          {"warmup", req.options.warmup},
          {"min_runs", req.options.minRuns},
          {"max_runs", req.options.maxRuns},
          {"max_seconds", req.options.maxSeconds},
          {"stable_rel", req.options.stableRel},
          {"percentiles", "linear interpolation between order statistics (numpy default)"},
          {"pairing", measured.comparison->pairing()},
          {"traced_runs",
           "untraced and traced runs of every variant timed together in alternating blocks, "
           "the collector on for a sample of each traced block's calls (collector.sample_every)"}}},
        {"threads", req.threads},
        {"measurement", vr.measurement},
        {"eager_baseline", loaded.value("eager_baseline", Json())},
        {"speedup_interval", vr.speedupIntervals},
        {"collector", measured.collector},
        {"variants", vr.variants},
        {"speedup", vr.speedup},
        {"memory_vs_eager", memory},
        {"kernels", kr.kernels},
        {"ops", kr.ops},
        {"gpu", kr.gpu},
        {"cold_start", cold},
        {"replay", replay},
        {"throughput", throughput},
        {"files",
         {{"profile_json", files.json.string()},
          {"csv", files.csv.string()},
          {"kernels_csv", files.kernelsCsv.string()},
          {"trace", req.trace ? Json(files.trace.string()) : Json()}}},
        {"warnings", warnings},
    };
    writeProfileFiles(files, result, kr, measured.origin, req.trace);
    ctx.sendEvent(Protocol::makeStageDone(id, "write", 0,
                                          Json{{"profile", files.json.string()},
                                               {"csv", files.csv.string()},
                                               {"trace", req.trace ? Json(files.trace.string()) : Json()}}));
    ctx.progress("write", 1, "profile done");
    return result;
}

} // namespace AotStudio::Pipeline
