// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/quantizejob.h"
#include "pipeline/fanout.h"
#include "pipeline/jobutil.h"
#include "pipeline/measurement.h"
#include "pipeline/steps.h"
#include "pipeline/versions.h"

#include "profiler/trace.h"
#include "python/frontend.h"
#include "runtime/aotirunner.h"
#include "runtime/collector.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>

namespace AotStudio::Pipeline {

using Protocol::Json;
namespace fs = std::filesystem;

namespace {

/// Stages of one scheme with the share of that scheme's part of the progress bar.
constexpr StageSpan kSchemeStages[] = {
    {"load", 0.00, 0.10},    {"export", 0.10, 0.18},  {"compile", 0.18, 0.75}, {"load_package", 0.75, 0.78},
    {"verify", 0.78, 0.80},  {"measure", 0.80, 0.93}, {"memory", 0.93, 0.95},  {"evaluate", 0.95, 1.00},
};

/// The whole quantize request: one part of the bar per scheme, then the report.
constexpr StageSpan kQuantizeStages[] = {{"schemes", 0.00, 0.99}, {"report", 0.99, 1.00}};

/// Codes that fail the whole request rather than one scheme's row.
bool requestLevel(const std::string &code)
{
    return code == Protocol::Code::Cancelled || code == Protocol::Code::BadRequest || code == Protocol::Code::UnknownModel ||
           code == Protocol::Code::NoDevice || code == Protocol::Code::FrontendUnavailable;
}

/// One scheme, a sub-job of the request (job.h) filling [begin, begin + share) of its bar: every
/// event carries `scheme` (FORMAT.md; readers show it, the message does not repeat it);
/// everything runs in OUT/<scheme>.
class SchemeRun {
public:
    SchemeRun(const Job &parent, const std::string &scheme, double begin, double share)
        : m_job(parent.sub(begin, share, kSchemeStages, Json{{"scheme", scheme}}))
    {
    }

    void emit(Json event) const { m_job.sendEvent(std::move(event)); }

    /// `body()` as stage `name` of this scheme (Job::stage).
    template<typename F>
    auto operator()(const char *name, const std::string &message, F &&body)
    {
        return m_job.stage(name, message, [&](Json &) { return body(); });
    }

    double secondsOf(const char *stage) const { return m_job.seconds(stage); }
    const std::stop_token &stop() const { return m_job.stopToken(); }

private:
    Job m_job;
};

/// Stage "measure" of a scheme: its eager and compiled model and the fp32 eager baseline, timed
/// together in alternating blocks (measurement.h), so every ratio of the row is paired and has
/// its interval. Fills the row's latencies, speedups, summaries, measurement and threads.
void timeScheme(Json &row, Python::CompileJob &job, Runtime::AotiRunner &runner,
                const Profiler::MeasureOptions &options, int threads, const std::stop_token &stop)
{
    Comparison c({{"eager", [&] { job.runEager(); }, {}, {}},
                  {"compiled", [&] { runner.run(); }, {}, {}},
                  {"fp32 eager", job.bind("quant.run_fp32_eager"), {}, {}}},
                 options, threads, stop);
    const Profiler::Summary eager = c.summary(0), aoti = c.summary(1);
    const Profiler::RatioInterval speedup = c.ratio(0, 1), vsFp32 = c.ratio(2, 1);
    row["fp32_eager_ms"] = c.summary(2).medianMs;
    row["measurement"] = c.measurement({speedup, vsFp32});
    row["eager_ms"] = eager.medianMs;
    row["compiled_ms"] = aoti.medianMs;
    row["speedup"] = speedup.estimate;
    row["speedup_interval"] = ratioJson(speedup);
    row["speedup_vs_fp32_eager"] = vsFp32.estimate;
    row["speedup_vs_fp32_eager_interval"] = ratioJson(vsFp32);
    row["eager"] = summaryJson(eager, options.warmup);
    row["compiled"] = summaryJson(aoti, options.warmup);
    row["threads"] = threads;
}

/// Stage "evaluate" of a scheme: every evaluation sample through the package, its outputs to the
/// frontend, then the frontend's report (accuracy against fp32 eager, quantized ops and layers,
/// the per-layer error table; `compiled`: the compile result, for its kernels.json). Throws
/// JobFailed (cancelled; load_failed for a sample the package cannot run).
Json evaluateScheme(Python::CompileJob &job, Runtime::AotiRunner &runner, const Json &compiled,
                    const std::string &scheme, const std::stop_token &stop)
{
    const int n = job.call("quant.eval_count").get<int>();
    for (int i = 0; i < n; ++i) {
        if (stop.stop_requested())
            throw JobFailed({"evaluate", Protocol::Code::Cancelled, "cancelled while evaluating " + scheme, ""});
        try {
            runner.setInputs(job.callTensors("quant.eval_capsules", Json::array({i})));
            runner.run();
        } catch (const Runtime::RuntimeError &e) {
            throw JobFailed({"evaluate", Protocol::Code::LoadFailed,
                             "evaluation sample " + std::to_string(i) + " failed in the package: " + e.what(),
                             "evaluation samples must have the example inputs' shapes and dtypes"});
        }
        const auto outputs = runner.outputs();
        job.call("quant.eval_outputs", Json::array({i}), &outputs);
    }
    const auto &k = compiled.value("kernels", Json::object());
    return job.call("quant.report", Json::array({k.value("path", Json())}));
}

Json runScheme(SchemeRun &run, const Json &request, const std::string &scheme, const std::string &dir,
               const Profiler::MeasureOptions &options, int threads)
{
    const std::string device = request.value("device", std::string("cpu"));
    Json sub = request;
    sub.erase("schemes");
    sub.erase("type");
    sub["out"] = dir;
    sub["scheme"] = scheme;
    sub["dtype"] = "fp32"; // the scheme decides precision; its eager model is the reference for verify
    // verify compares the package with the *quantized* eager model; accuracy against fp32 is
    // reported, not enforced, so only NaN fails here.
    sub["tolerance"] = 1e30;
    const auto log = [&](const std::string &level, const std::string &message, const Json &msg = nullptr) {
        run.emit(Protocol::makeLog(0, level, message, msg));
    };
    const auto forward = [&](const Json &event) { run.emit(event); };

    Python::CompileJob job(sub, log, forward);
    Json row{{"scheme", scheme}, {"status", "ok"}, {"reason", ""}, {"stage", ""}, {"code", ""}, {"out", dir}};
    struct Restore {
        Python::CompileJob &job;
        ~Restore()
        {
            try {
                job.call("quant.restore");
            } catch (...) {
            }
        }
    } restore{job};

    run("load", "quantizing the model (" + scheme + ")", [&] { return job.load(); });
    const Json exported = run("export", "capturing the quantized graph with torch.export", [&] { return job.exportGraph(); });
    const Json compiled = run("compile", "compiling with AOTInductor", [&] { return job.compile(); });
    const std::string package = compiled.at("package").get<std::string>();
    row["package"] = package;
    row["package_bytes"] = compiled.value("package_bytes", 0);
    row["options"] = compiled.value("options", Json::object());
    row["graph_nodes"] = exported.value("nodes", 0);

    const auto runner = run("load_package", "loading the package with LibTorch", [&] {
        return loadPackage(job, package, device,
                           "the package may be for another device or torch version; recompile it here");
    });
    const Json verified = run("verify", "comparing the package with the quantized eager model", [&] {
        // The compile pipeline's verify (steps.h), per output; this job's tolerance of 1e30
        // makes only NaN fail it: accuracy against fp32 is the row's own figure.
        return verifyPackage(job, *runner);
    });
    row["verify_max_abs_error"] = verified.value("max_abs_error", 0.0);
    row["verify"] = verified.value("verify", Json()); // per output against the scheme's own eager model

    run("measure", "timing fp32 eager, eager and compiled, alternating",
        [&] { timeScheme(row, job, *runner, options, threads, run.stop()); });
    if (run.stop().stop_requested())
        throw JobFailed(Protocol::error("measure", Protocol::Code::Cancelled,
                                        Protocol::text("cancel.measuring_scheme", {{"scheme", scheme}})));
    if (const std::string line = verdictLine(row["measurement"]); !line.empty())
        log(row["measurement"].value("verdict", "") == "unreliable" ? "warning" : "info", line);

    run("memory", "peak memory of one eager and one compiled forward", [&] {
        // The profiler's method (issue 4): c10's allocation reporter on CPU, the caching
        // allocator's peak on CUDA; the same for the eager Python call and the package.
        const auto eagerPeak = Runtime::measurePeakMemory([&] { job.runEager(); }, device);
        const auto compiledPeak = Runtime::measurePeakMemory([&] { runner->run(); }, device);
        const auto bytes = [](const Runtime::MemoryPeak &p) { return p.peakBytes ? Json(*p.peakBytes) : Json(); };
        row["peak_bytes"] = Json{{"eager", bytes(eagerPeak)}, {"compiled", bytes(compiledPeak)}};
        row["peak_method"] = compiledPeak.method;
    });

    const Json report = run("evaluate", "running the evaluation set through the package",
                            [&] { return evaluateScheme(job, *runner, compiled, scheme, run.stop()); });
    for (const char *key : {"accuracy", "quantized_ops", "quantized_layers", "layers", "layers_path"})
        row[key] = report.value(key, Json());
    // A weight scheme that found no layer to quantize measured fp32 again: not a result to pick.
    if (scheme != "fp32" && scheme != "bf16" && row.value("quantized_layers", Json(0)).is_number_integer() &&
        row.value("quantized_layers", 0) == 0) {
        row["status"] = "unsupported";
        row["reason"] = scheme + " quantized no layer of this model (no Linear or Conv layer it supports, e.g. "
                                 "output features not a multiple of the packing); the measurements are of the fp32 model";
    }
    row["calibration_samples"] = report.value("calibration", Json::object()).value("samples", 0);
    row["evaluation"] = report.value("evaluation", Json::object());
    row["compile_seconds"] = run.secondsOf("compile");
    row["export_seconds"] = run.secondsOf("export");
    return row;
}

/// A row's value as CSV text (Profiler::CsvTable quotes it): null empty, floats to 6 digits.
std::string csvText(const Json &v)
{
    if (v.is_null())
        return "";
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_number_float()) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.6g", v.get<double>());
        return buf;
    }
    return v.dump();
}

void writeCsv(const std::string &path, const Json &rows)
{
    Profiler::CsvTable csv({"scheme", "status", "eager_ms", "compiled_ms", "speedup", "speedup_vs_fp32_eager",
                            "package_bytes", "peak_eager_bytes", "peak_compiled_bytes", "max_abs_error",
                            "mean_abs_error", "cosine", "top1_agreement", "embedding_cosine", "quantized_layers",
                            "reason"});
    for (const auto &r : rows) {
        const Json acc = r.value("accuracy", Json::object());
        const Json peak = r.value("peak_bytes", Json::object());
        const auto a = [&](const char *k) { return acc.is_object() ? acc.value(k, Json()) : Json(); };
        const auto p = [&](const char *k) { return peak.is_object() ? peak.value(k, Json()) : Json(); };
        const Json fields[] = {r.value("scheme", Json()),        r.value("status", Json()),
                               r.value("eager_ms", Json()),      r.value("compiled_ms", Json()),
                               r.value("speedup", Json()),       r.value("speedup_vs_fp32_eager", Json()),
                               r.value("package_bytes", Json()), p("eager"),
                               p("compiled"),                    a("max_abs_error"),
                               a("mean_abs_error"),              a("cosine"),
                               a("top1_agreement"),              a("embedding_cosine"),
                               r.value("quantized_layers", Json()), r.value("reason", Json())};
        std::vector<std::string> row;
        for (const auto &v : fields)
            row.push_back(csvText(v));
        csv.addRow(row);
    }
    writeFileAtomic(path, csv.text());
}

/// A quantize request, validated (FORMAT.md "quantize").
struct QuantizeRequest {
    Profiler::MeasureOptions options;
    int threads = 1; ///< intra-op threads in effect (applyThreads)
    std::optional<double> maxError; ///< max_error: pick the fastest scheme within it
    std::string model;
    std::string device = "cpu";
    Json schemes; ///< the scheme names (quant.scheme_list: the request's, checked, or the defaults)
    fs::path out; ///< absolute, created; OUT/<scheme> per scheme
    std::string ray; ///< each scheme on this Ray cluster, or empty (here)
};

/// Validate `request` (every field before any work), apply its thread count, resolve the schemes
/// and create OUT. Throws JobFailed(bad_request) naming the field (an unknown scheme: the message
/// lists the valid names), or when OUT or a scheme's folder cannot be made.
QuantizeRequest readQuantizeRequest(const Json &request)
{
    QuantizeRequest q;
    q.options = measureOptionsFrom(request);
    q.threads = applyThreads(request);
    for (const char *field : {"calibration_samples", "eval_samples"}) {
        if (request.contains(field) && (!request[field].is_number_integer() || request[field].get<long>() < 1))
            throw JobFailed({"load", Protocol::Code::BadRequest, std::string("'") + field + "' must be a positive integer",
                             "e.g. 16"});
    }
    for (const char *field : {"calibration", "eval"}) {
        if (request.contains(field) && !request[field].is_string())
            throw JobFailed({"load", Protocol::Code::BadRequest, std::string("'") + field + "' must be a file path",
                             "give a file written by torch.save([(input, ...), ...])"});
    }
    if (request.contains("max_error")) {
        if (!request["max_error"].is_number() || !(request["max_error"].get<double>() >= 0))
            throw JobFailed({"load", Protocol::Code::BadRequest, "'max_error' must be a number >= 0",
                             "e.g. 0.05 (max abs error against fp32 eager)"});
        q.maxError = request["max_error"].get<double>();
    }
    q.model = request.value("model", std::string());
    if (q.model.empty())
        throw JobFailed({"load", Protocol::Code::BadRequest, "no model given", "pass a model spec such as sample:mlp"});
    if (request.value("out", std::string()).empty())
        throw JobFailed({"load", Protocol::Code::BadRequest, "no output directory given", "pass --out DIR"});
    q.device = request.value("device", std::string("cpu"));
    if (q.device != "cpu" && q.device != "cuda")
        throw JobFailed({"load", Protocol::Code::BadRequest, "unknown device '" + q.device + "'",
                         "use --device cpu or --device cuda"});
    q.schemes = Python::callFunction("quant", "scheme_list", Json::array({request.value("schemes", Json())}), "load");
    std::error_code ec;
    q.out = fs::absolute(request.value("out", std::string())).lexically_normal();
    fs::create_directories(q.out, ec);
    if (ec || !fs::is_directory(q.out))
        throw JobFailed({"load", Protocol::Code::BadRequest, "cannot create output directory '" + q.out.string() + "'",
                         "choose a writable directory for --out"});
    for (const auto &s : q.schemes) {
        // A file in the way of a scheme's directory is the user's, not ours to delete.
        if (fs::exists(q.out / s.get<std::string>(), ec) && !fs::is_directory(q.out / s.get<std::string>(), ec))
            throw JobFailed({"load", Protocol::Code::BadRequest,
                             "'" + (q.out / s.get<std::string>()).string() + "' exists and is not a directory",
                             "choose another --out"});
    }
    q.ray = rayAddress(request);
    return q;
}

/// The row of a scheme that failed or that the device cannot run; `out` where its files are.
Json failedRow(const fs::path &out, const std::string &scheme, const Protocol::Error &err)
{
    const bool unsupported = err.code == "unsupported";
    return Json{{"scheme", scheme},
                {"status", unsupported ? "unsupported" : "failed"},
                {"reason", err.message},
                {"hint", err.hint},
                {"stage", err.stage},
                {"code", err.code},
                {"out", (out / scheme).string()},
                {"eager_ms", nullptr},
                {"compiled_ms", nullptr},
                {"accuracy", nullptr},
                {"quantized_ops", Json::array()},
                {"quantized_layers", 0},
                {"layers", Json::array()}};
}

/// Each scheme a quantize of its own on a Ray worker node, all at once (fanout.h); their rows,
/// each labelled with where it ran. A request-level failure of one fails the job.
Json schemesOnRay(const Job &ctx, const QuantizeRequest &q, const Json &request)
{
    std::vector<SubRequest> subs;
    for (const auto &s : q.schemes) {
        Json sub = request;
        for (const char *key : {"ray", "max_error"})
            sub.erase(key);
        sub["type"] = "quantize";
        sub["id"] = 1;
        sub["model"] = absoluteModelSpec(q.model);
        sub["schemes"] = Json::array({s});
        subs.push_back({Json{{"scheme", s}}, sub, s.get<std::string>(), q.out / s.get<std::string>()});
    }
    Json rows = Json::array();
    const auto outcomes = runOnRay(ctx, 0.0, 0.99, q.ray, subs, q.device);
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        const std::string scheme = q.schemes[i].get<std::string>();
        const auto &o = outcomes[i];
        Json row;
        if (o.error) {
            if (requestLevel(o.error->code))
                throw JobFailed(*o.error);
            row = failedRow(q.out, scheme, *o.error);
            ctx.log("warning", "[" + scheme + "] failed on Ray: " + o.error->message);
        } else {
            const Json list = o.result.value("schemes", Json::array());
            row = list.empty()
                ? failedRow(q.out, scheme, {"remote", Protocol::Code::RemoteFailed, "the Ray task returned no row", ""})
                : list[0];
        }
        labelOrigin(row, o.origin);
        rows.push_back(row);
    }
    return rows;
}

/// Each scheme here, one after another, each a sub-job with its share of "schemes" (runScheme);
/// a scheme that fails becomes its row (failedRow) unless the failure is the request's.
Json schemesHere(const Job &ctx, const QuantizeRequest &q, const Json &request)
{
    Json rows = Json::array();
    const Json here = localOrigin(q.device);
    const double share = q.schemes.empty() ? 1.0 : 1.0 / static_cast<double>(q.schemes.size());
    for (std::size_t i = 0; i < q.schemes.size(); ++i) {
        const std::string scheme = q.schemes[i].get<std::string>();
        if (ctx.stopRequested())
            throw JobFailed({"load", Protocol::Code::Cancelled, "cancelled before scheme " + scheme, ""});
        SchemeRun run(ctx, scheme, share * static_cast<double>(i) * 0.99, share * 0.99);
        Json row;
        try {
            row = runScheme(run, request, scheme, (q.out / scheme).string(), q.options, q.threads);
        } catch (const JobFailed &e) {
            const auto &err = e.error();
            if (requestLevel(err.code))
                throw;
            if (!e.details().empty()) // the scheme's failure becomes its row: its traceback here
                run.emit(Protocol::makeLog(ctx.id(), "debug", e.details()));
            const bool unsupported = err.code == "unsupported";
            row = failedRow(q.out, scheme, err);
            run.emit(Protocol::makeLog(ctx.id(), unsupported ? "info" : "warning",
                                       std::string(unsupported ? "unsupported: " : "failed: ")
                                           + err.message)); // `scheme` leads it
        }
        labelOrigin(row, here);
        rows.push_back(row);
    }
    return rows;
}

/// FORMAT.md "quantize result" `best`: the fastest ok scheme whose max abs error against fp32
/// eager is within `maxError`. Times from two hosts are never compared: with rows from several
/// hosts the fastest is the one with the highest speedup over fp32 eager, a ratio each row took
/// in its own process.
Json bestScheme(const Json &rows, double maxError)
{
    const bool mixed = severalHosts(rows);
    const char *by = mixed ? "speedup_vs_fp32_eager" : "compiled_ms";
    Json best{{"max_error", maxError}, {"scheme", nullptr}, {"compiled_ms", nullptr}, {"by", by}};
    for (const auto &r : rows) {
        if (r.value("status", "") != "ok" || !r["accuracy"].is_object())
            continue;
        const Json &err = r["accuracy"]["max_abs_error"];
        if (!err.is_number() || err.get<double>() > maxError)
            continue;
        if (mixed && !r.value("speedup_vs_fp32_eager", Json()).is_number())
            continue;
        const bool better = best["scheme"].is_null()
            || (mixed ? r.value("speedup_vs_fp32_eager", 0.0) > best.value("speedup_vs_fp32_eager", 0.0)
                      : r.value("compiled_ms", 0.0) < best.value("compiled_ms", 0.0));
        if (better) {
            best["scheme"] = r["scheme"];
            best["compiled_ms"] = r["compiled_ms"];
            best["speedup_vs_fp32_eager"] = r.value("speedup_vs_fp32_eager", Json());
            best["host"] = r.value("host", Json());
        }
    }
    return best;
}

/// FORMAT.md "quantize result" from the rows: the calibration and evaluation sets as used, the
/// peak-memory method, `best` with max_error, the threads (on Ray: the rows' own when they all
/// agree, else null) and where the rows ran.
Json quantizeResult(const QuantizeRequest &q, const Json &request, const Json &rows)
{
    Json calibration{{"source", request.contains("calibration") ? "file" : "generator"},
                     {"path", request.value("calibration", Json())},
                     {"samples", 0}};
    Json evaluation{{"source", request.contains("eval") ? "file" : "generator"}, {"path", request.value("eval", Json())},
                    {"samples", 0}};
    for (const auto &r : rows) {
        if (r.value("status", "") != "ok")
            continue;
        calibration["samples"] = std::max(calibration.value("samples", 0), r.value("calibration_samples", 0));
        if (r.contains("evaluation") && r["evaluation"].is_object())
            evaluation["samples"] = r["evaluation"].value("samples", 0);
    }
    if (calibration.value("samples", 0) == 0) // no int8-static row ran: report what was asked for
        calibration["samples"] = request.value("calibration_samples", 32);
    std::string peakMethod = q.device == "cuda" ? "cuda_caching_allocator" : "cpu_allocator_reporter";
    for (const auto &r : rows) {
        if (r.contains("peak_method"))
            peakMethod = r.value("peak_method", peakMethod);
    }
    Json result{{"model", q.model},
                {"device", q.device},
                {"torch_version", Runtime::libtorchVersion()},
                {"torchao_version", torchaoVersion()},
                {"out", q.out.string()},
                {"baseline", "fp32"},
                {"calibration", calibration},
                {"evaluation", evaluation},
                {"peak_method", peakMethod},
                {"schemes", rows},
                {"csv", (q.out / "quantize.csv").string()},
                {"json", (q.out / "quantize.json").string()}};
    if (q.maxError)
        result["best"] = bestScheme(rows, *q.maxError);
    result["threads"] = q.threads;
    if (!q.ray.empty()) {
        // Each row ran with its worker's threads (rows' `threads`); one figure only when they agree.
        Json common;
        for (const auto &r : rows) {
            if (!r.contains("threads"))
                continue;
            common = common.is_null() || common == r["threads"] ? r["threads"] : Json("mixed");
        }
        result["threads"] = common.is_string() ? Json() : common;
    }
    result["ray"] = q.ray.empty() ? Json() : Json{{"address", q.ray}, {"several_hosts", severalHosts(rows)}};
    return result;
}

} // namespace

Json runQuantize(std::int64_t id, const Json &request, const EventFn &emit, std::stop_token stop)
{
    const Job ctx(id, emit, stop, kQuantizeStages);
    const QuantizeRequest q = readQuantizeRequest(request);
    Json rows = q.ray.empty() ? schemesHere(ctx, q, request) : schemesOnRay(ctx, q, request);
    // speedup_vs_fp32_eager is measured in each row (the fp32 model timed in the scheme's rounds);
    // a failed row has none.
    for (auto &r : rows) {
        if (r.value("status", "") != "ok" || !r.contains("speedup_vs_fp32_eager")) {
            r["speedup_vs_fp32_eager"] = nullptr;
            r["speedup_vs_fp32_eager_interval"] = nullptr;
        }
    }
    const Json result = quantizeResult(q, request, rows);
    writeCsv((q.out / "quantize.csv").string(), rows);
    writeJsonAtomic(q.out / "quantize.json", result);
    ctx.progress("report", 1.0, "quantize done: " + std::to_string(rows.size()) + " schemes");
    return result;
}

} // namespace AotStudio::Pipeline
