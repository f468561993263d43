// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/numericsjob.h"
#include "pipeline/jobutil.h"
#include "pipeline/versions.h"

#include "python/frontend.h"
#include "runtime/aotirunner.h"

#include <filesystem>

namespace AotStudio::Pipeline {

using Protocol::Json;
namespace fs = std::filesystem;

namespace {

/// The numerics job's stages and their share of the bar: the exposed compile dominates.
constexpr StageSpan kNumericsStages[] = {
    {"load", 0.00, 0.05},    {"export", 0.05, 0.10},   {"reference", 0.10, 0.20}, {"eager", 0.20, 0.30},
    {"compile", 0.30, 0.90}, {"compiled", 0.90, 0.96}, {"write", 0.96, 1.00},
};

} // namespace

Json runNumerics(std::int64_t id, const Json &request, const EventFn &emit, std::stop_token stop)
{
    const Job ctx(id, emit, stop, kNumericsStages);
    const std::string model = request.value("model", std::string());
    const std::string device = request.value("device", std::string("cpu"));
    const std::string outString = request.value("out", std::string());
    if (model.empty())
        throw JobFailed(
            {"load", Protocol::Code::BadRequest, "numerics needs a model", "pass --model SPEC (e.g. sample:mlp)"});
    if (outString.empty())
        throw JobFailed({"load", Protocol::Code::BadRequest, "numerics needs an output directory", "pass --out DIR"});
    if (request.contains("tolerance") && (!request["tolerance"].is_number() || request["tolerance"].get<double>() <= 0))
        throw JobFailed({"load", Protocol::Code::BadRequest, "'tolerance' must be a number > 0",
                         "pass a normalized error such as 1e-4 (max |x - reference| / max |reference|)"});
    if (device == "cuda" && !Runtime::cudaAvailable())
        throw JobFailed({"load", Protocol::Code::NoDevice,
                         "no CUDA device: LibTorch sees no usable GPU or driver on this machine",
                         "run numerics with --device cpu, or on a machine with an NVIDIA GPU"});
    const fs::path out = fs::absolute(outString).lexically_normal();
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec)
        throw JobFailed({"load", Protocol::Code::BadRequest, "cannot create '" + out.string() + "': " + ec.message(),
                         "choose a writable --out"});

    Json jobRequest = request;
    jobRequest["out"] = out.string();
    jobRequest.erase("tolerance"); // numerics' own (normalized error), not compile's max abs difference
    Python::CompileJob job(
        jobRequest,
        [&](const std::string &level, const std::string &message, const Json &msg = nullptr) {
            ctx.log(level, message, msg);
        },
        ctx.sink(), ctx.stopToken());
    const Json loaded = ctx.stage("load", "building the model and example inputs", [&](Json &) { return job.load(); });
    ctx.stage("export", "capturing the graph with torch.export", [&](Json &) { return job.exportGraph(); });
    const Json begun = job.call("numerics.begin", Json::array({request.value("tolerance", Json())}));
    ctx.stage("reference", "the graph op by op at " + begun.value("reference_dtype", std::string("float64")),
              [&](Json &) { return job.call("numerics.run_reference"); });
    ctx.stage("eager", "the graph op by op in " + request.value("dtype", std::string("fp32")),
              [&](Json &) { return job.call("numerics.run_eager"); });
    ctx.stage("compile", "compiling with every intermediate as an output (AOTInductor)", [&](Json &a) {
        Json r = job.call("numerics.compile");
        a["package"] = r.value("package", Json());
        return r;
    });
    ctx.stage("compiled", "running the exposed package", [&](Json &) { return job.call("numerics.run_compiled"); });
    return ctx.stage("write", "writing numerics.json", [&](Json &a) {
        Json result = job.call("numerics.report");
        result["format"] = "aotstudio.numerics";
        result["format_version"] = 1;
        result["created"] = isoNow();
        result["model"] = model;
        result["device"] = device;
        result["out"] = out.string();
        result["torch_version"] = loaded.value("torch_version", std::string());
        result["torchao_version"] = torchaoVersion();
        result["inputs"] = loaded.value("inputs", Json::array());
        // The request as it came, so that `repro` can export the same program again.
        result["request"] = request;
        const fs::path path = out / "numerics.json";
        result["files"] = {{"numerics_json", path.string()}};
        writeJsonAtomic(path, result);
        a["numerics"] = path.string();
        return result;
    });
}

} // namespace AotStudio::Pipeline
