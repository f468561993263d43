// SPDX-License-Identifier: GPL-3.0-or-later
// The shared steps of steps.h: the measuring options, a package loaded and verified against
// eager, one planned point checked (a sweep's, or compile's verify beyond the example).
#include "pipeline/steps.h"
#include "pipeline/jobutil.h"

#include "bundle/guards.h"
#include "python/frontend.h"
#include "runtime/aotirunner.h"

#include <algorithm>
#include <chrono>

namespace AotStudio::Pipeline {

using Protocol::Json;
namespace fs = std::filesystem;

namespace {

double msSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// The package call of an isolated point in a child process: `aotstudio-run --package`, or for a
/// bundle's bucket `aotstudio-run BUNDLE --bucket NAME` (its shared weights bound as deployed).
Json runIsolated(Python::CompileJob &job, int index, const PointOptions &options, const Runtime::AotiRunner &runner,
                 Json &r)
{
    const std::string package = runner.packagePath();
    const fs::path in = options.scratch / ("point" + std::to_string(index) + ".in.pt");
    const fs::path out = options.scratch / ("point" + std::to_string(index) + ".out.pt");
    std::error_code ec;
    fs::remove(out, ec);
    job.call("sweep.save_inputs", Json::array({index, in.string()}));
    const fs::path runtime = selfDir() / "aotstudio-run";
    Process::ProcessOptions po;
    po.timeoutSeconds = options.timeoutSeconds;
    std::vector<std::string> argv{runtime.string(), "--package", package,     "--device",
                                  options.device,   "--input",   in.string(), "--save-outputs",
                                  out.string(),     "--iters",   "0",         "--json"};
    if (!options.bucket.empty()) {
        // The bundle as deployed: verified, the bucket's package with its shared weights and the
        // manifest's guards (the child applies the engine's $AOTSTUDIO_TRUST as the sweep did).
        argv = {runtime.string(), options.bundle.string(), "--bucket",   options.bucket, "--input",
                in.string(),      "--save-outputs",        out.string(), "--json"};
        if (options.allowUnsigned)
            argv.push_back("--allow-unsigned");
    } else if (runner.guards()) {
        // The child checks what the runner here checks: guards not beside the package travel in a file.
        const fs::path guardsFile = options.scratch / "target.guards.json";
        if (!fs::exists(guardsFile, ec))
            writeJsonAtomic(guardsFile, runner.guards()->raw());
        argv.insert(argv.end(), {"--guards", guardsFile.string()});
    }
    const Process::ProcessResult p = Process::runProcess(argv, {}, po);
    fs::remove(in, ec);
    r["package_ms"] = p.wallMs;
    if (p.timedOut) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%g", options.timeoutSeconds);
        r["outcome"] = "hung";
        r["message"]
            = std::string(
                  "the isolated call (aotstudio-run, its start of about half a second included) did not end within ")
            + seconds + " s; killed";
        return Json();
    }
    if (!p.error.empty() || p.signal != 0) {
        r["outcome"] = "crashed";
        r["message"] = "aotstudio-run " + p.describe() + (p.err.empty() ? "" : ": " + p.err);
        return Json();
    }
    // aotstudio-run --json answers in the envelope (FORMAT.md "Command-line tools").
    const Json reply = Json::parse(p.out, nullptr, false);
    if (p.exitCode != 0) {
        const Json error = reply.is_object() ? reply.value("error", Json()) : Json();
        const bool refused = error.is_object() && error.value("code", "") == Protocol::Code::Refused;
        r["outcome"] = refused ? "refused" : "error";
        r["message"] = error.is_object() ? error.value("message", p.describe())
                                         : p.describe() + (p.err.empty() ? "" : ": " + p.err);
        return Json();
    }
    Json compared;
    try {
        compared = job.call("sweep.compare_file", Json::array({index, out.string()}));
    } catch (const Python::FrontendException &e) { // an output file the frontend cannot read
        r["outcome"] = "error";
        r["message"] = std::string("cannot read the outputs aotstudio-run saved: ") + e.what();
    }
    fs::remove(out, ec);
    return compared;
}

} // namespace

Profiler::MeasureOptions measureOptionsFrom(const Json &request)
{
    // Wrong types are a bad request naming the field, not an internal error.
    for (const char *field : {"warmup", "runs", "min_runs"}) {
        if (request.contains(field) && !request[field].is_number_integer())
            throw JobFailed({"load", Protocol::Code::BadRequest, std::string("'") + field + "' must be an integer",
                             "send a JSON integer"});
    }
    if (request.contains("measure") && !request["measure"].is_boolean())
        throw JobFailed({"load", Protocol::Code::BadRequest, "'measure' must be true or false", "send a JSON boolean"});
    if (request.contains("max_seconds") && !request["max_seconds"].is_number())
        throw JobFailed({"load", Protocol::Code::BadRequest, "'max_seconds' must be a number", "send a JSON number"});
    for (const char *field : {"model", "device", "out", "dtype"}) {
        if (request.contains(field) && !request[field].is_string())
            throw JobFailed({"load", Protocol::Code::BadRequest, std::string("'") + field + "' must be a string",
                             "send a JSON string"});
    }
    Profiler::MeasureOptions o;
    o.warmup = std::max(0, request.value("warmup", o.warmup));
    o.maxRuns = std::max(1, request.value("runs", o.maxRuns));
    o.minRuns = std::clamp(request.value("min_runs", std::min(o.minRuns, o.maxRuns)), 1, o.maxRuns);
    o.maxSeconds = std::max(0.0, request.value("max_seconds", o.maxSeconds));
    return o;
}

fs::path makeOutputFolder(std::string_view stage, const std::string &out)
{
    const fs::path path = fs::absolute(out).lexically_normal();
    std::error_code ec;
    fs::create_directories(path, ec);
    if (ec)
        throw JobFailed({std::string(stage), Protocol::Code::BadRequest,
                         "cannot create '" + path.string() + "': " + ec.message(), "choose a writable --out"});
    return path;
}

std::unique_ptr<Runtime::AotiRunner> loadPackage(Python::CompileJob &job, const std::string &package,
                                                 const std::string &device, const std::string &hint)
{
    try {
        auto runner = Runtime::AotiRunner::load(package, device);
        runner->setInputs(job.inputs());
        return runner;
    } catch (const Runtime::RuntimeError &e) {
        throw JobFailed({"load_package", Protocol::Code::LoadFailed, e.what(), hint});
    }
}

Json verifyPackage(Python::CompileJob &job, Runtime::AotiRunner &runner)
{
    try {
        const int calls = job.call("verify_begin").get<int>();
        for (int i = 0; i < calls; ++i) {
            runner.setInputs(job.callTensors("verify_inputs", Json::array({i})));
            runner.run();
            const auto outputs = runner.outputs();
            job.call("verify_outputs", Json::array({i}), &outputs);
        }
        runner.setInputs(job.inputs());
        return job.call("verify_end");
    } catch (const Runtime::RuntimeError &e) {
        throw JobFailed({"verify", Protocol::Code::LoadFailed, e.what(), "see the engine log"});
    } catch (const Python::FrontendException &e) {
        Protocol::Error error = e.error();
        if (error.stage == "measure") // CompileJob::call's stage for errors that are not the frontend's own
            error.stage = "verify";
        throw Python::FrontendException(error, e.details());
    }
}

std::vector<Bundle::RecordedShape> recordedShapes(Python::CompileJob &job, const Json &request, Json &summary)
{
    summary = Json();
    if (!request.contains("from_capture"))
        return {};
    const Json folder = request["from_capture"];
    if (!folder.is_string() || folder.get<std::string>().empty())
        throw JobFailed({"load", Protocol::Code::BadRequest, "'from_capture' must be the path of a capture folder",
                         "pass the --out folder of aotstudio-cli capture"});
    const Json bound = request.value("capture_shapes", Json(32));
    if (!bound.is_number_integer() || bound.get<long long>() < 0)
        throw JobFailed({"load", Protocol::Code::BadRequest, "'capture_shapes' must be an integer >= 0",
                         "e.g. 32: the most distinct recorded shapes verified"});
    const Json found = job.call("sweep.recorded", Json::array({folder, bound}));
    std::vector<Bundle::RecordedShape> out;
    for (const auto &p : found.value("points", Json::array()))
        out.push_back({p.at("shapes").get<std::vector<std::vector<std::int64_t>>>(), p.value("reason", ""),
                       p.value("label", ""), p.value("inputs", ""), p.value("calls", std::int64_t{0})});
    summary = {{"folder", folder},
               {"distinct", found.value("distinct", 0)},
               {"calls", found.value("calls", 0)},
               {"left_out", found.value("left_out", 0)},
               {"chosen", found.value("chosen", "")},
               {"notes", found.value("notes", Json::array())}};
    return out;
}

Json pointJson(const Bundle::SweepPoint &point, const Bundle::SweepPlan &plan, const Bundle::InputGuards &guards)
{
    (void)plan;
    const auto symbols = guards.symbols();
    Json values = Json::object();
    for (std::size_t s = 0; s < symbols.size() && s < point.values.size(); ++s)
        values[symbols[s].label] = point.values[s];
    Json varied = Json::array();
    for (const int v : {point.varied, point.varied2})
        if (v >= 0 && static_cast<std::size_t>(v) < symbols.size())
            varied.push_back(symbols[static_cast<std::size_t>(v)].label);
    Json j{{"values", values},
           {"varied", varied},
           {"shapes", point.shapes},
           {"reasons", point.reasons},
           {"relation", point.relation},
           {"expected", point.inside ? "match" : "refused"},
           {"refusal", point.inside ? Json() : Json(point.refusal)}};
    if (point.recorded) // FORMAT.md "sweep point": a shape from a capture (issue 39)
        j["recorded"] = {{"label", point.label},
                         {"calls", point.calls},
                         {"inputs", point.inputs.empty() ? Json() : Json(point.inputs)}};
    return j;
}

Json runPoint(Python::CompileJob &job, Runtime::AotiRunner &runner, int index, const Bundle::SweepPoint &point,
              const Bundle::SweepPlan &plan, const Bundle::InputGuards &guards, const PointOptions &options)
{
    Json r = pointJson(point, plan, guards);
    r["index"] = index;
    r["outcome"] = "error";
    r["message"] = "";
    r["max_abs_error"] = nullptr;
    r["outputs"] = Json::array();
    r["eager_ms"] = nullptr;
    r["package_ms"] = nullptr;
    const Json prepared = job.call("sweep.prepare", Json::array({index, point.shapes, point.inside, point.inputs}));
    if (point.recorded) {
        // What the package ran on: the recorded call's own values, or seeded ones of its shapes.
        r["recorded"]["ran_on"] = prepared.value("inputs", "seeded");
        if (const Json note = prepared.value("note", Json()); note.is_string())
            r["recorded"]["note"] = note;
    }
    if (point.inside && prepared.value("eager_error", Json()).is_string()) {
        r["outcome"] = "eager_error";
        r["message"] = "eager raised " + prepared["eager_error"].get<std::string>();
        job.call("sweep.drop", Json::array({index}));
    } else {
        r["eager_ms"] = prepared.value("eager_ms", Json());
        Json compared;
        if (options.isolate) {
            compared = runIsolated(job, index, options, runner, r);
        } else if (!point.inside && !runner.guards()) {
            // Nothing would refuse it, and running it here could read past the inputs inside the
            // engine: record what a deployed runner would do without running it.
            r["outcome"] = "not_refused";
        } else {
            try {
                runner.setInputs(job.callTensors("sweep.inputs", Json::array({index})));
                const auto t0 = std::chrono::steady_clock::now();
                runner.run();
                r["package_ms"] = msSince(t0);
                if (point.inside) {
                    const auto outputs = runner.outputs();
                    compared = job.call("sweep.compare", Json::array({index}), &outputs);
                } else {
                    r["outcome"] = "not_refused";
                }
            } catch (const Runtime::InputRefused &e) {
                r["outcome"] = "refused";
                r["message"] = e.what();
            } catch (const Runtime::RuntimeError &e) {
                r["outcome"] = "error";
                r["message"] = e.what();
            }
        }
        if (compared.is_object()) {
            if (point.inside) {
                r["outcome"] = compared.value("outcome", "error");
                r["message"] = compared.value("message", "");
                r["max_abs_error"] = compared.value("max_abs_error", Json());
                r["outputs"] = compared.value("outputs", Json::array());
            } else {
                r["outcome"] = "not_refused";
            }
        }
        if (r["outcome"] == "not_refused")
            r["message"] = std::string(options.isolate || runner.guards()
                                           ? "the package ran a shape outside what it accepts ("
                                           : "nothing refuses a shape outside what the package accepts (")
                + point.refusal + "): without a check its kernels read inputs of sizes they were not compiled for"
                + (options.isolate || runner.guards()
                       ? ""
                       : " (not run in the engine; --isolate runs it in a child process)");
        job.call("sweep.drop", Json::array({index}));
    }
    const std::string outcome = r["outcome"].get<std::string>();
    r["ok"] = point.inside ? (outcome == "match" || outcome == "eager_error") : outcome == "refused";
    return r;
}

} // namespace AotStudio::Pipeline
