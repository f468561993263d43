// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/tunejob.h"
#include "pipeline/compilejob.h"
#include "pipeline/fanout.h"
#include "pipeline/jobutil.h"
#include "pipeline/measurement.h"
#include "pipeline/steps.h"
#include "pipeline/tunesteps.h"
#include "pipeline/versions.h"

#include "bundle/guards.h"
#include "bundle/sweepplan.h"
#include "python/frontend.h"
#include "runtime/aotirunner.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>

namespace AotStudio::Pipeline {

using Protocol::Json;
namespace fs = std::filesystem;
using namespace TuneSteps;

namespace {

/// Tune's stages: the trials' compiles dominate.
constexpr StageSpan kTuneStages[] = {
    {"plan", 0.00, 0.02},    {"trials", 0.02, 0.80},   {"baseline", 0.80, 0.84},
    {"measure", 0.84, 0.94}, {"workload", 0.94, 0.98}, {"write", 0.98, 1.00},
};

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// One model loaded in one dtype for measuring (eager, torch.compile, and the inputs of every
/// package of that dtype), in its own folder under OUT/.measure (a CompileJob locks its folder).
struct Loaded {
    std::unique_ptr<Python::CompileJob> job;
    Json info;
};

/// The shape workload of a tune with dynamic dimensions (FORMAT.md "tune result" `workload`): up
/// to kWorkloadShapes shapes the package's guards accept (core/bundle/sweepplan.h: the example,
/// each dynamic dimension's range ends and interior points), met in that order by the `chosen`
/// trial's package (`runner`) and by a fresh torch.compile(model) (tune.py JitBaseline workload_*):
/// per shape torch.compile's first call (its cold latency: a recompile when its guards reject the
/// shape) and whether it recompiled, the package's first call, then both timed warm in one paired
/// measurement (ratio package vs torch.compile with its interval). Inputs per shape from the job's
/// ShapeSweep (seeded, drawn like the example). Throws FrontendException from the Python side.
Json runWorkload(const Job &ctx, Python::CompileJob &job, Runtime::AotiRunner &runner, const Json &chosen,
                 const Profiler::MeasureOptions &options, int threads)
{
    constexpr std::size_t kWorkloadShapes = 6;
    const std::string package = chosen.value("package", "");
    const auto guards = Bundle::InputGuards::loadSidecar(package);
    if (!guards)
        return Json{{"error",
                     "the chosen package has no guards record (" + Bundle::InputGuards::sidecarPath(package).string()
                         + "): no shape workload"}};
    const Json begun = job.call("tune_jit.workload_begin");
    const auto example = begun.at("example_shapes").get<std::vector<std::vector<std::int64_t>>>();
    Bundle::SweepBudget budget;
    budget.maxPoints = 16;
    budget.randomPerSymbol = 1;
    budget.pairwise = false;
    budget.outside = false;
    const Bundle::SweepPlan plan = Bundle::planSweep(*guards, example, budget);
    std::vector<const Bundle::SweepPoint *> points;
    for (const auto &p : plan.points)
        if (p.inside && points.size() < kWorkloadShapes)
            points.push_back(&p);
    Profiler::MeasureOptions warm = options;
    warm.maxSeconds = std::min(options.maxSeconds, 1.0);
    Json rows = Json::array();
    int recompiles = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        ctx.checkStop("workload");
        ctx.progress("workload", static_cast<double>(i) / static_cast<double>(points.size()),
                     "shape " + std::to_string(i + 1) + " of " + std::to_string(points.size()));
        const auto index = static_cast<int>(i);
        const Bundle::SweepPoint &p = *points[i];
        Json row{{"shapes", p.shapes}, {"values", p.values}, {"reasons", p.reasons}};
        job.call("sweep.prepare", Json::array({index, p.shapes, false}));
        const Json jit = job.call("tune_jit.workload_point", Json::array({index}));
        runner.setInputs(job.callTensors("sweep.inputs", Json::array({index})));
        const auto t0 = Clock::now();
        runner.run();
        const double firstMs = secondsSince(t0) * 1e3;
        // A new graph at the first shape is torch.compile's first compile; at a later one, a recompile.
        const bool compiled = jit.value("recompiled", false);
        Json tc{{"cold_ms", jit.value("cold_ms", Json())},
                {"compiled", compiled},
                {"recompile", i > 0 && compiled},
                {"graphs", jit.value("graphs", Json())}};
        recompiles += (i > 0 && compiled) ? 1 : 0;
        Json aoti{{"first_ms", firstMs}};
        if (!jit.value("error", Json()).is_null()) {
            tc["error"] = jit["error"];
        } else {
            Runtime::AotiRunner *raw = &runner;
            Comparison cmp({{"torch.compile", job.bind("tune_jit.workload_run"), {}, {}, {}, {}},
                            {"aoti", [raw] { raw->run(); }, {}, {}, {}, {}}},
                           warm, threads, ctx.stopToken());
            tc["median_ms"] = cmp.summary(0).medianMs;
            aoti["median_ms"] = cmp.summary(1).medianMs;
            const auto ratio = cmp.ratio(0, 1); // torch.compile's median / the package's: > 1 the package is faster
            row["speedup_vs_torch_compile"] = ratio.estimate;
            row["speedup_vs_torch_compile_interval"] = ratioJson(ratio);
            row["measurement"] = cmp.measurement({ratio}).value("verdict", Json());
        }
        row["torch_compile"] = tc;
        row["aoti"] = aoti;
        rows.push_back(row);
        job.call("sweep.drop", Json::array({index}));
    }
    return Json{{"package", package},
                {"trial", chosen.value("name", "")},
                {"shapes", rows},
                {"torch_compile_recompiles", recompiles},
                {"notes", plan.notes},
                {"method",
                 "shapes the package's guards accept (sweep plan: example, range ends, interior), in that order; "
                 "torch.compile(model) fresh, dynamic=None; warm latencies paired per shape"}};
}

/// A tune request, validated (FORMAT.md "tune").
struct TuneRequest {
    Profiler::MeasureOptions options;
    int threads = 1; ///< intra-op threads in effect (applyThreads)
    std::string model;
    std::string device = "cpu";
    std::string dtype = "fp32";
    double budget = 1800.0; ///< budget_seconds: no trial starts after this many seconds
    std::string ray; ///< the trials' compiles on this Ray cluster, or empty (here)
    Json maxError; ///< max_error: a number, or null (any error)
    fs::path out; ///< absolute, created
};

/// Validate `request` (every field before any work), apply its thread count and create OUT.
/// Throws JobFailed: bad_request naming the field, no_device for cuda without a usable GPU.
TuneRequest readTuneRequest(const Json &request)
{
    TuneRequest r;
    r.options = measureOptionsFrom(request); // validates the common fields too
    r.threads = applyThreads(request);
    r.model = request.value("model", std::string());
    r.device = request.value("device", std::string("cpu"));
    r.dtype = request.value("dtype", std::string("fp32"));
    const std::string outString = request.value("out", std::string());
    if (r.model.empty())
        throw JobFailed(
            {"plan", Protocol::Code::BadRequest, "tune needs a model", "pass --model SPEC (e.g. sample:mlp)"});
    if (outString.empty())
        throw JobFailed({"plan", Protocol::Code::BadRequest, "tune needs an output directory", "pass --out DIR"});
    if (r.device != "cpu" && r.device != "cuda")
        throw JobFailed({"plan", Protocol::Code::BadRequest, "unknown device '" + r.device + "'", "use cpu or cuda"});
    if (request.contains("budget_seconds")
        && (!request["budget_seconds"].is_number() || request["budget_seconds"].get<double>() <= 0))
        throw JobFailed(
            {"plan", Protocol::Code::BadRequest, "'budget_seconds' must be a number > 0", "e.g. 1800 for 30 minutes"});
    if (request.contains("max_error") && (!request["max_error"].is_number() || request["max_error"].get<double>() < 0))
        throw JobFailed({"plan", Protocol::Code::BadRequest, "'max_error' must be a number >= 0", "e.g. 1e-3"});
    if (request.contains("trials") && !request["trials"].is_array())
        throw JobFailed({"plan", Protocol::Code::BadRequest, "'trials' must be a list of trial names",
                         "e.g. [\"defaults\",\"freezing\"]"});
    if (r.device == "cuda" && !Runtime::cudaAvailable())
        throw JobFailed({"plan", Protocol::Code::NoDevice,
                         "no CUDA device: LibTorch sees no usable GPU or driver on this machine",
                         "tune with --device cpu, or run the engine on a machine with an NVIDIA GPU"});
    r.budget = request.value("budget_seconds", 1800.0);
    r.ray = rayAddress(request);
    r.maxError = request.value("max_error", Json());
    r.out = makeOutputFolder("plan", outString);
    return r;
}

/// The compile request of one trial (FORMAT.md "compile"): the model with the trial's options
/// `opts` into OUT/trials/NAME, with the request's tolerance, verify samples, dynamic dimensions
/// and shapes; cold unless the request asks for reuse (a package-cache or ccache hit would make
/// its compile time look cheap).
Json trialRequest(const TuneRequest &req, const Json &request, const std::string &name, const Json &opts)
{
    Json r{{"model", req.model},
           {"device", req.device},
           {"dtype", opts.value("dtype", req.dtype)},
           {"out", (req.out / "trials" / name).string()},
           {"freezing", opts.value("freezing", false)},
           {"max_autotune", opts.value("max_autotune", false)},
           {"threads", req.threads}};
    for (const char *k : {"tolerance", "verify_samples", "dynamic", "shapes"})
        if (request.contains(k))
            r[k] = request[k];
    if (opts.contains("inductor"))
        r["inductor"] = opts["inductor"];
    r["cache"] = request.value("cache", false);
    return r;
}

/// "trial NAME: STATUS (REASON)" in the log.
void logTrial(const Job &ctx, const Json &row)
{
    ctx.log("info",
            "trial " + row.value("name", "") + ": " + row["status"].get<std::string>()
                + (row.value("reason", "").empty() ? "" : " (" + row["reason"].get<std::string>() + ")"));
}

/// Trial `i` compiled here as a sub-job filling its `span` of the "trials" part of the bar (its
/// events carry `trial`), with compile's own verify: its figures into `row`, or its failure
/// (failed: code and message; cancelled). Returns false when a cancel ended it.
bool compileTrialHere(const Job &ctx, Json &row, const Json &r, std::size_t i, double span)
{
    const auto tc = Clock::now();
    try {
        const Job part = ctx.sub(0.02 + 0.78 * span * static_cast<double>(i), 0.78 * span, kCompileStages,
                                 Json{{"trial", row["name"]}});
        fillTrialRow(row, runCompileAsPart(part, r, 1.0), r);
        row["compile_seconds"] = secondsSince(tc);
    } catch (const JobFailed &e) {
        if (e.error().code == Protocol::Code::Cancelled) {
            row["status"] = "cancelled";
            return false;
        }
        row["status"] = "failed";
        row["reason"] = e.error().code + ": " + e.error().message;
        row["compile_seconds"] = secondsSince(tc);
    }
    return true;
}

/// The trials compiled on Ray (`subs`, whose rows are `rows[onRay[k]]`; fanout.h), all at once:
/// each row gets its origin and its figures or failure. Returns false when a cancel stopped them.
bool compileTrialsOnRay(const Job &ctx, const TuneRequest &req, const std::vector<SubRequest> &subs,
                        const std::vector<std::size_t> &onRay, Json &rows)
{
    bool stopped = false;
    const auto outcomes = runOnRay(ctx, 0.02, 0.78, req.ray, subs, req.device, &stopped);
    for (std::size_t k = 0; k < outcomes.size(); ++k) {
        const auto &o = outcomes[k];
        Json &row = rows[onRay[k]];
        labelOrigin(row, o.origin);
        if (o.error && o.error->code == Protocol::Code::Cancelled) {
            row["status"] = "cancelled";
        } else if (o.error) {
            const std::string host = o.origin.value("host", std::string());
            row["status"] = "failed";
            row["reason"] = o.error->code + ": " + o.error->message
                + (host.empty() ? std::string(" (on Ray)") : " (on Ray host " + host + ")");
            row["compile_seconds"] = o.seconds;
        } else {
            fillTrialRow(row, o.result, subs[k].request);
            // The compile's own time on the worker (the task's wall time when the result
            // has none): a fresh engine per task, so one-time costs are in it.
            const Json cs = o.result.value("compile_seconds", Json());
            row["compile_seconds"] = cs.is_number() ? cs.get<double>() : o.seconds;
        }
        logTrial(ctx, row);
    }
    return !stopped;
}

/// Stage "trials": one compile per option set of `plan` (compile's verify included), a row each
/// into `rows`, within the budget (checked at each trial's start, from `t0`). With `ray` each is a
/// `compile` on a Ray node, all started at once (so the budget never stops one); the measuring
/// stays here, in one process. Returns true when a cancel stopped the trials.
bool runTrials(const Job &ctx, const TuneRequest &req, const Json &request, const Json &plan, Clock::time_point t0,
               Json &rows)
{
    bool cancelled = false;
    const double span = 1.0 / std::max<std::size_t>(1, plan.size());
    ctx.progress("trials", 0, "compiling " + std::to_string(plan.size()) + " option sets");
    const Json here = localOrigin(req.device);
    std::vector<std::size_t> onRay; // rows whose compile runs as a Ray task
    std::vector<SubRequest> subs;
    for (std::size_t i = 0; i < plan.size(); ++i) {
        const Json &c = plan[i];
        const std::string name = c.value("name", "");
        const Json opts = c.value("options", Json::object());
        Json row{{"name", name},   {"kind", "aoti"}, {"options", opts}, {"note", c.value("note", "")},
                 {"status", "ok"}, {"reason", ""}};
        labelOrigin(row, Json::object());
        if (c.contains("skip")) {
            row["status"] = "skipped";
            row["reason"] = c["skip"];
        } else if (cancelled || ctx.stopRequested()) {
            cancelled = true;
            row["status"] = "cancelled";
        } else if (secondsSince(t0) > req.budget) {
            row["status"] = "skipped";
            row["reason"] = "budget spent (" + std::to_string(static_cast<long>(req.budget)) + " s)";
        } else {
            const Json r = trialRequest(req, request, name, opts);
            ctx.log("info", "trial " + name + ": " + opts.dump());
            if (!req.ray.empty()) {
                Json sub = r;
                sub["type"] = "compile";
                sub["id"] = 1;
                sub["model"] = absoluteModelSpec(req.model);
                sub["measure"] = false;
                onRay.push_back(rows.size());
                subs.push_back({Json{{"trial", name}}, sub, "", req.out / "trials" / name, {}});
            } else {
                labelOrigin(row, here);
                cancelled = !compileTrialHere(ctx, row, r, i, span);
                logTrial(ctx, row);
            }
        }
        rows.push_back(row);
    }
    if (!subs.empty())
        cancelled = !compileTrialsOnRay(ctx, req, subs, onRay, rows) || cancelled;
    return cancelled;
}

/// The tune result's fields known before measuring (FORMAT.md "tune result").
Json tuneResult(const TuneRequest &req, const Json &rows, const Json &warnings)
{
    return Json{{"format", "aotstudio.tune"},
                {"format_version", 1},
                {"created", isoNow()},
                {"model", req.model},
                {"device", req.device},
                {"dtype", req.dtype},
                {"out", req.out.string()},
                {"budget_seconds", req.budget},
                {"max_error", req.maxError},
                {"torch_version", Python::engineInfo().value("torch_version", Json())},
                {"torchao_version", torchaoVersion()},
                {"threads", req.threads},
                {"rows", rows},
                {"warnings", warnings}};
}

/// Eager, torch.compile and every trial's package, set up to be timed together (step 3).
class Bench
{
public:
    Bench(const Job &ctx, const TuneRequest &req)
        : m_ctx(ctx)
        , m_req(req)
    { }

    /// The model loaded in `dtype` for measuring (eager, torch.compile, and the inputs of every
    /// package of that dtype), on first use.
    Loaded &loadedFor(const std::string &dtype)
    {
        auto &l = m_loaded[dtype];
        if (!l.job) {
            Json jr{{"model", m_req.model},
                    {"device", m_req.device},
                    {"dtype", dtype},
                    {"out", (m_req.out / ".measure" / dtype).string()},
                    {"snapshots", false}};
            const Job &ctx = m_ctx;
            l.job = std::make_unique<Python::CompileJob>(
                jr,
                [&ctx](const std::string &level, const std::string &message, const Json &msg) {
                    ctx.log(level, message, msg);
                },
                ctx.sink(), ctx.stopToken());
            l.info = l.job->load();
        }
        return l;
    }

    /// Stage "baseline": eager in the tune's dtype, then torch.compile(model) with its defaults on
    /// the same inputs (tune.py JitBaseline); one that fails is the `jit` row's reason and a warning.
    void addBaselines(const WarnFn &warn)
    {
        m_ctx.stage("baseline", "torch.compile with its defaults on the same inputs", [&](Json &) {
            Python::CompileJob *job = loadedFor(m_req.dtype).job.get();
            timed.push_back({"eager", [job] { job->runEager(); }, {}, {}, {}, {}});
            try {
                const Json prepared = job->call("tune_jit.prepare");
                jit["compile_seconds"] = prepared.value("compile_seconds", Json());
                jit["graphs"] = prepared.value("graphs", Json());
                timed.push_back({"torch.compile", job->bind("tune_jit.run"), {}, {}, {}, {}});
            } catch (const Python::FrontendException &e) {
                jit["status"] = "failed";
                jit["reason"] = e.error().message;
                warn("torch.compile baseline not measured: " + e.error().message);
            }
            return Json();
        });
        slot["eager"] = 0;
        if (jit["status"] == "ok")
            slot["torch.compile"] = 1;
    }

    /// Every trial of `rows` that compiled: its package loaded on its dtype's inputs and run once;
    /// one that does not load becomes a failed row (load_failed).
    void addPackages(Json &rows)
    {
        for (auto &row : rows) {
            if (row["status"] != "ok")
                continue;
            try {
                Loaded &l = loadedFor(row.value("dtype", m_req.dtype));
                auto runner = Runtime::AotiRunner::load(row["package"].get<std::string>(), m_req.device);
                runner->setInputs(l.job->inputs());
                runner->run();
                Runtime::AotiRunner *raw = runner.get();
                slot[row["name"].get<std::string>()] = timed.size();
                timed.push_back({row["name"].get<std::string>(), [raw] { raw->run(); }, {}, {}, {}, {}});
                runnerOf[row["name"].get<std::string>()] = raw;
                m_runners.push_back(std::move(runner));
            } catch (const std::exception &e) {
                row["status"] = "failed";
                row["reason"] = std::string("load_failed: ") + e.what();
            }
        }
    }

    /// The torch.compile baseline's row (FORMAT.md "tune result" `baselines`).
    Json jit{{"name", "torch.compile"},
             {"kind", "torch.compile"},
             {"options", {{"note", "torch.compile(model) with its defaults (JIT)"}}},
             {"status", "ok"},
             {"reason", ""},
             {"package_bytes", nullptr},
             {"max_abs_error", nullptr}};
    std::vector<Profiler::PairedVariant> timed; ///< what Comparison times, in slot order
    std::map<std::string, std::size_t> slot; ///< row name -> index in `timed`
    std::map<std::string, Runtime::AotiRunner *> runnerOf; ///< trial name -> its loaded package

private:
    const Job &m_ctx;
    const TuneRequest &m_req;
    std::map<std::string, Loaded> m_loaded; ///< by dtype
    std::vector<std::unique_ptr<Runtime::AotiRunner>> m_runners;
};

/// `row`'s figures from the paired timing (its median, statistics, and its speedups over
/// defaults, torch.compile and eager with their intervals). Ratios over defaults go into `shown`,
/// whose interval widths the verdict weighs.
void measureRow(Json &row, const Comparison &comparison, const std::map<std::string, std::size_t> &slot, int warmup,
                std::vector<Profiler::RatioInterval> &shown)
{
    const auto it = slot.find(row.value("name", ""));
    if (it == slot.end())
        return;
    const auto s = comparison.summary(it->second);
    row["median_ms"] = s.medianMs;
    row["statistics"] = summaryJson(s, warmup);
    const auto vs = [&](const char *base, const char *key) {
        const auto b = slot.find(base);
        if (b == slot.end() || b->second == it->second)
            return;
        const auto r = comparison.ratio(b->second, it->second); // base median / this median: > 1 is faster
        row[key] = r.estimate;
        row[std::string(key) + "_interval"] = ratioJson(r);
        if (std::string(base) == "defaults")
            shown.push_back(r);
    };
    vs("defaults", "speedup_vs_defaults");
    vs("torch.compile", "speedup_vs_torch_compile");
    vs("eager", "speedup_vs_eager");
}

/// Stage "write": OUT/recipe.json for the `chosen` row (or a warning that there is none), then
/// tune.json and tune.csv. Returns the final result.
Json writeTune(const Job &ctx, const TuneRequest &req, Json &result, const Json &chosen, const Json &measurement,
               Json &artifacts, const WarnFn &warn, const Json &warnings)
{
    if (!chosen.is_null()) {
        const Json recipe = recipeJson(chosen, result, measurement.value("verdict", Json()));
        writeJsonAtomic(req.out / "recipe.json", recipe);
        result["recipe"] = recipe;
        result["recipe_path"] = (req.out / "recipe.json").string();
        artifacts["recipe"] = (req.out / "recipe.json").string();
        ctx.log("info",
                "chosen: " + chosen["name"].get<std::string>() + " (" + (req.out / "recipe.json").string() + ")");
    } else {
        result["recipe"] = nullptr;
        warn(req.maxError.is_number() ? "no trial is within max_error " + req.maxError.dump() + ": no recipe written"
                                      : "no trial compiled and verified: no recipe written");
        result["warnings"] = warnings;
    }
    writeTuneFiles(req.out, result);
    artifacts["tune"] = (req.out / "tune.json").string();
    return result;
}

} // namespace

Json runTune(std::int64_t id, const Json &request, const EventFn &emit, std::stop_token stop)
{
    const Job ctx(id, emit, stop, kTuneStages);
    const TuneRequest req = readTuneRequest(request);
    const auto t0 = Clock::now();
    Json warnings = Json::array();
    const WarnFn warn = [&](const std::string &m) {
        warnings.push_back(m);
        ctx.log("warning", m);
    };
    // 1. The option sets.
    const Json plan = ctx.stage("plan", "choosing the option sets; one small warm-up compile", [&](Json &a) {
        Json p = Python::callFunction("tune", "candidates",
                                      Json::array({req.device, req.dtype, request.value("trials", Json())}), "plan");
        // The first compile of a process pays one-time costs; paid here, so that no trial's
        // compile_seconds carries them (tune.py warm_up). Not with `ray`: no trial compiles here.
        if (req.ray.empty())
            a["warm_up"] = Python::callFunction("tune", "warm_up",
                                                Json::array({req.device, (req.out / ".warmup").string()}), "plan");
        return p;
    });
    // 2. One compile per option set, within the budget; a cancel writes the finished rows.
    Json rows = Json::array();
    const bool cancelled = runTrials(ctx, req, request, plan, t0, rows);
    Json result = tuneResult(req, rows, warnings);
    if (cancelled) {
        result["cancelled"] = true;
        writeTuneFiles(req.out, result);
        throw JobFailed(
            {"trials", Protocol::Code::Cancelled,
             "cancelled; the finished trials are in " + (req.out / "tune.json").string() + " (not measured)", ""});
    }
    // 3. Eager and torch.compile in each dtype the trials used, then every package, timed together.
    Bench bench(ctx, req);
    bench.addBaselines(warn);
    bench.addPackages(rows);
    ctx.progress("measure", 0, "timing " + std::to_string(bench.timed.size()) + " variants in alternating blocks");
    Comparison comparison(std::move(bench.timed), req.options, req.threads, ctx.stopToken());
    ctx.checkStop("measure");
    std::vector<Profiler::RatioInterval> shown;
    for (auto &row : rows)
        measureRow(row, comparison, bench.slot, req.options.warmup, shown);
    measureRow(bench.jit, comparison, bench.slot, req.options.warmup, shown);
    Json eagerRow{{"name", "eager"}, {"kind", "eager"}, {"status", "ok"}, {"reason", ""}, {"options", Json::object()}};
    measureRow(eagerRow, comparison, bench.slot, req.options.warmup, shown);
    // 4. The Pareto front over the measured trials, with both baselines; 5. the recipe.
    const Front front = paretoFront(rows, bench.slot.count("defaults") > 0, bench.jit.contains("median_ms"), warn);
    const Json chosen = chooseRecipe(rows, front.measured, req.maxError, warn);
    // 6. A model with dynamic dimensions: a workload of shapes in the package's range, the
    // chosen package against a fresh torch.compile that meets them in the same order.
    if (const Json dynamic = request.value("dynamic", Json::array());
        dynamic.is_array() && !dynamic.empty() && !chosen.is_null()) {
        if (const auto r = bench.runnerOf.find(chosen["name"].get<std::string>()); r != bench.runnerOf.end())
            result["workload"] = ctx.stage(
                "workload", "the shape workload: the chosen package and torch.compile per shape", [&](Json &) {
                    return runWorkload(ctx, *bench.loadedFor(chosen.value("dtype", req.dtype)).job, *r->second, chosen,
                                       req.options, req.threads);
                });
    }
    Json measurement = comparison.measurement(shown);
    if (const std::string line = verdictLine(measurement); !line.empty())
        warn(line);
    result["rows"] = rows;
    result["baselines"] = Json::array({eagerRow, bench.jit});
    result["front"] = front.names;
    result["measurement"] = measurement;
    result["pairing"] = comparison.pairing();
    result["ray"] = req.ray.empty()
        ? Json()
        : Json{{"address", req.ray},
               {"several_hosts", front.severalHosts},
               {"pareto_axes",
                front.severalHosts ? Json::array({"median_ms", "max_abs_error", "package_bytes"})
                                   : Json::array({"median_ms", "max_abs_error", "package_bytes", "compile_seconds"})}};
    result["seconds"] = secondsSince(t0);
    result["warnings"] = warnings;
    return ctx.stage("write", "writing tune.json, tune.csv and recipe.json",
                     [&](Json &a) { return writeTune(ctx, req, result, chosen, measurement, a, warn, warnings); });
}

} // namespace AotStudio::Pipeline
