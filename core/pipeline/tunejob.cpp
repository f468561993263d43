// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/tunejob.h"
#include "pipeline/compilejob.h"
#include "pipeline/fanout.h"
#include "pipeline/jobutil.h"
#include "pipeline/measurement.h"
#include "pipeline/steps.h"
#include "pipeline/versions.h"

#include "bundle/guards.h"
#include "bundle/sweepplan.h"
#include "profiler/statistics.h"
#include "profiler/trace.h"
#include "python/frontend.h"
#include "runtime/aotirunner.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <sstream>

namespace AotStudio::Pipeline {

using Protocol::Json;
namespace fs = std::filesystem;

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

std::string num(const Json &v)
{
    if (v.is_null())
        return {};
    if (v.is_string())
        return v.get<std::string>();
    std::ostringstream s;
    s.precision(6);
    s << v.get<double>();
    return s.str();
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

} // namespace

Json runTune(std::int64_t id, const Json &request, const EventFn &emit, std::stop_token stop)
{
    const Job ctx(id, emit, stop, kTuneStages);
    const auto log = [&](const std::string &level, const std::string &message, const Json &msg = nullptr) {
        ctx.log(level, message, msg);
    };
    const auto options = measureOptionsFrom(request); // validates the common fields too
    const int threads = applyThreads(request);
    const std::string model = request.value("model", std::string());
    const std::string device = request.value("device", std::string("cpu"));
    const std::string dtype = request.value("dtype", std::string("fp32"));
    const std::string outString = request.value("out", std::string());
    if (model.empty())
        throw JobFailed(
            {"plan", Protocol::Code::BadRequest, "tune needs a model", "pass --model SPEC (e.g. sample:mlp)"});
    if (outString.empty())
        throw JobFailed({"plan", Protocol::Code::BadRequest, "tune needs an output directory", "pass --out DIR"});
    if (device != "cpu" && device != "cuda")
        throw JobFailed({"plan", Protocol::Code::BadRequest, "unknown device '" + device + "'", "use cpu or cuda"});
    if (request.contains("budget_seconds")
        && (!request["budget_seconds"].is_number() || request["budget_seconds"].get<double>() <= 0))
        throw JobFailed(
            {"plan", Protocol::Code::BadRequest, "'budget_seconds' must be a number > 0", "e.g. 1800 for 30 minutes"});
    if (request.contains("max_error") && (!request["max_error"].is_number() || request["max_error"].get<double>() < 0))
        throw JobFailed({"plan", Protocol::Code::BadRequest, "'max_error' must be a number >= 0", "e.g. 1e-3"});
    if (request.contains("trials") && !request["trials"].is_array())
        throw JobFailed({"plan", Protocol::Code::BadRequest, "'trials' must be a list of trial names",
                         "e.g. [\"defaults\",\"freezing\"]"});
    if (device == "cuda" && !Runtime::cudaAvailable())
        throw JobFailed({"plan", Protocol::Code::NoDevice,
                         "no CUDA device: LibTorch sees no usable GPU or driver on this machine",
                         "tune with --device cpu, or run the engine on a machine with an NVIDIA GPU"});
    const double budget = request.value("budget_seconds", 1800.0);
    const std::string ray = rayAddress(request);
    const Json maxError = request.value("max_error", Json());
    const fs::path out = fs::absolute(outString).lexically_normal();
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec)
        throw JobFailed({"plan", Protocol::Code::BadRequest, "cannot create '" + out.string() + "': " + ec.message(),
                         "choose a writable --out"});
    const auto t0 = Clock::now();

    Json warnings = Json::array();
    const auto warn = [&](const std::string &m) {
        warnings.push_back(m);
        log("warning", m);
    };
    // 1. The option sets.
    const Json plan = ctx.stage("plan", "choosing the option sets; one small warm-up compile", [&](Json &a) {
        Json p = Python::callFunction("tune", "candidates",
                                      Json::array({device, dtype, request.value("trials", Json())}), "plan");
        // The first compile of a process pays one-time costs; paid here, so that no trial's
        // compile_seconds carries them (tune.py warm_up). Not with `ray`: no trial compiles here.
        if (ray.empty())
            a["warm_up"]
                = Python::callFunction("tune", "warm_up", Json::array({device, (out / ".warmup").string()}), "plan");
        return p;
    });

    // 2. One compile per option set (compile's verify included), within the budget. With
    // `ray` each is a `compile` on a Ray node, all started at once (so the budget, checked at
    // each trial's start, never stops one); the measuring below stays here, in one process.
    Json rows = Json::array();
    bool cancelled = false;
    const double span = 1.0 / std::max<std::size_t>(1, plan.size());
    ctx.progress("trials", 0, "compiling " + std::to_string(plan.size()) + " option sets");
    const Json here = localOrigin(device);
    // Where a row's package was compiled (fanout.h): {host, device_name, node}.
    const auto label = [](Json &row, const Json &origin) {
        for (const char *key : {"host", "device_name", "node"})
            row[key] = origin.value(key, Json());
    };
    // A compiled trial's figures into its row (`r`: the trial's compile request).
    const auto fillRow = [](Json &row, const Json &compiled, const Json &r) {
        row["package"] = compiled.value("package", "");
        row["package_bytes"] = compiled.value("package_bytes", Json());
        // The error axis compares like with like: an fp32 trial against fp32 eager, a
        // bf16/fp16 trial against verify's high-precision reference (not against eager in
        // its own dtype, which would hide the precision it gave up).
        row["max_abs_error"] = compiled.value("max_abs_error", Json());
        row["error_against"] = "eager " + r["dtype"].get<std::string>();
        const Json v = compiled.value("verify", Json());
        if (v.is_object() && v.value("mode", "") == "reduced_precision") {
            double worst = 0;
            bool any = false;
            for (const auto &o : v.value("outputs", Json::array()))
                if (o.value("compiled_reference_error", Json()).is_number()) {
                    worst = std::max(worst, o["compiled_reference_error"].get<double>());
                    any = true;
                }
            if (any) {
                row["max_abs_error"] = worst;
                row["error_against"]
                    = v.value("reference", Json::object()).value("dtype", std::string("float64")) + " reference";
            }
        }
        row["verify"] = v.is_object() ? v.value("verdict", Json()) : Json();
        row["dtype"] = r["dtype"];
        row["options_recorded"] = compiled.value("options", Json());
    };
    const auto logRow = [&](const Json &row) {
        log("info",
            "trial " + row.value("name", "") + ": " + row["status"].get<std::string>()
                + (row.value("reason", "").empty() ? "" : " (" + row["reason"].get<std::string>() + ")"));
    };
    std::vector<std::size_t> onRay; // rows whose compile runs as a Ray task
    std::vector<SubRequest> subs;
    for (std::size_t i = 0; i < plan.size(); ++i) {
        const Json &c = plan[i];
        const std::string name = c.value("name", "");
        const Json opts = c.value("options", Json::object());
        Json row{{"name", name},   {"kind", "aoti"}, {"options", opts}, {"note", c.value("note", "")},
                 {"status", "ok"}, {"reason", ""}};
        label(row, Json::object());
        if (c.contains("skip")) {
            row["status"] = "skipped";
            row["reason"] = c["skip"];
            rows.push_back(row);
            continue;
        }
        if (cancelled || ctx.stopRequested()) {
            cancelled = true;
            row["status"] = "cancelled";
            rows.push_back(row);
            continue;
        }
        if (secondsSince(t0) > budget) {
            row["status"] = "skipped";
            row["reason"] = "budget spent (" + std::to_string(static_cast<long>(budget)) + " s)";
            rows.push_back(row);
            continue;
        }
        Json r{{"model", model},
               {"device", device},
               {"dtype", opts.value("dtype", dtype)},
               {"out", (out / "trials" / name).string()},
               {"freezing", opts.value("freezing", false)},
               {"max_autotune", opts.value("max_autotune", false)},
               {"threads", threads}};
        for (const char *k : {"tolerance", "verify_samples", "dynamic", "shapes"})
            if (request.contains(k))
                r[k] = request[k];
        if (opts.contains("inductor"))
            r["inductor"] = opts["inductor"];
        // Each trial's compile time is a figure of the table: cold unless the request asks
        // for reuse (a package-cache or ccache hit would make it look cheap).
        r["cache"] = request.value("cache", false);
        log("info", "trial " + name + ": " + opts.dump());
        if (!ray.empty()) {
            Json sub = r;
            sub["type"] = "compile";
            sub["id"] = 1;
            sub["model"] = absoluteModelSpec(model);
            sub["measure"] = false;
            onRay.push_back(rows.size());
            subs.push_back({Json{{"trial", name}}, sub, "", out / "trials" / name, {}});
            rows.push_back(row);
            continue;
        }
        const auto tc = Clock::now();
        label(row, here);
        try {
            // Trial i fills its share of the "trials" part of the bar; its events carry `trial`.
            const Job part = ctx.sub(0.02 + 0.78 * span * static_cast<double>(i), 0.78 * span, kCompileStages,
                                     Json{{"trial", name}});
            fillRow(row, runCompileAsPart(part, r, 1.0), r);
            row["compile_seconds"] = secondsSince(tc);
        } catch (const JobFailed &e) {
            if (e.error().code == Protocol::Code::Cancelled) {
                cancelled = true;
                row["status"] = "cancelled";
            } else {
                row["status"] = "failed";
                row["reason"] = e.error().code + ": " + e.error().message;
                row["compile_seconds"] = secondsSince(tc);
            }
        }
        logRow(row);
        rows.push_back(row);
    }
    if (!subs.empty()) {
        bool stopped = false;
        const auto outcomes = runOnRay(ctx, 0.02, 0.78, ray, subs, device, &stopped);
        cancelled = cancelled || stopped;
        for (std::size_t k = 0; k < outcomes.size(); ++k) {
            const auto &o = outcomes[k];
            Json &row = rows[onRay[k]];
            label(row, o.origin);
            if (o.error && o.error->code == Protocol::Code::Cancelled) {
                row["status"] = "cancelled";
            } else if (o.error) {
                const std::string host = o.origin.value("host", std::string());
                row["status"] = "failed";
                row["reason"] = o.error->code + ": " + o.error->message
                    + (host.empty() ? std::string(" (on Ray)") : " (on Ray host " + host + ")");
                row["compile_seconds"] = o.seconds;
            } else {
                fillRow(row, o.result, subs[k].request);
                // The compile's own time on the worker (the task's wall time when the result
                // has none): a fresh engine per task, so one-time costs are in it.
                const Json cs = o.result.value("compile_seconds", Json());
                row["compile_seconds"] = cs.is_number() ? cs.get<double>() : o.seconds;
            }
            logRow(row);
        }
    }
    const auto writeRows = [&](const Json &result) {
        writeJsonAtomic(out / "tune.json", result);
        Profiler::CsvTable csv({"name", "kind", "status", "median_ms", "speedup_vs_defaults", "speedup_vs_defaults_low",
                                "speedup_vs_defaults_high", "speedup_vs_torch_compile", "max_abs_error",
                                "compile_seconds", "package_bytes", "pareto", "reason"});
        for (const auto &row : result.value("rows", Json::array())) {
            const Json vd = row.value("speedup_vs_defaults_interval", Json());
            csv.addRow({row.value("name", ""), row.value("kind", ""), row.value("status", ""),
                        num(row.value("median_ms", Json())), num(row.value("speedup_vs_defaults", Json())),
                        vd.is_object() ? num(vd.value("low", Json())) : "",
                        vd.is_object() ? num(vd.value("high", Json())) : "",
                        num(row.value("speedup_vs_torch_compile", Json())), num(row.value("max_abs_error", Json())),
                        num(row.value("compile_seconds", Json())), num(row.value("package_bytes", Json())),
                        row.value("pareto", false) ? "true" : "false", row.value("reason", "")});
        }
        writeFileAtomic(out / "tune.csv", csv.text());
    };
    Json result{{"format", "aotstudio.tune"},
                {"format_version", 1},
                {"created", isoNow()},
                {"model", model},
                {"device", device},
                {"dtype", dtype},
                {"out", out.string()},
                {"budget_seconds", budget},
                {"max_error", maxError},
                {"torch_version", Python::engineInfo().value("torch_version", Json())},
                {"torchao_version", torchaoVersion()},
                {"threads", threads},
                {"rows", rows},
                {"warnings", warnings}};
    if (cancelled) {
        result["cancelled"] = true;
        writeRows(result);
        throw JobFailed({"trials", Protocol::Code::Cancelled,
                         "cancelled; the finished trials are in " + (out / "tune.json").string() + " (not measured)",
                         ""});
    }

    // 3. Eager and torch.compile in each dtype the trials used, then every package, timed together.
    std::map<std::string, Loaded> loaded;
    const auto loadedFor = [&](const std::string &dt) -> Loaded & {
        auto &l = loaded[dt];
        if (!l.job) {
            Json jr{{"model", model},
                    {"device", device},
                    {"dtype", dt},
                    {"out", (out / ".measure" / dt).string()},
                    {"snapshots", false}};
            l.job = std::make_unique<Python::CompileJob>(jr, log, ctx.sink(), ctx.stopToken());
            l.info = l.job->load();
        }
        return l;
    };
    Json jit{{"name", "torch.compile"},
             {"kind", "torch.compile"},
             {"options", {{"note", "torch.compile(model) with its defaults (JIT)"}}},
             {"status", "ok"},
             {"reason", ""},
             {"package_bytes", nullptr},
             {"max_abs_error", nullptr}};
    std::vector<Profiler::PairedVariant> timed;
    std::vector<std::unique_ptr<Runtime::AotiRunner>> runners;
    std::map<std::string, Runtime::AotiRunner *> runnerOf; // trial name -> its loaded package
    ctx.stage("baseline", "torch.compile with its defaults on the same inputs", [&](Json &) {
        Loaded &base = loadedFor(dtype);
        Python::CompileJob *job = base.job.get();
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
    std::map<std::string, std::size_t> slot; // row name -> index in `timed`
    slot["eager"] = 0;
    if (jit["status"] == "ok")
        slot["torch.compile"] = 1;
    for (auto &row : rows) {
        if (row["status"] != "ok")
            continue;
        try {
            Loaded &l = loadedFor(row.value("dtype", dtype));
            auto runner = Runtime::AotiRunner::load(row["package"].get<std::string>(), device);
            runner->setInputs(l.job->inputs());
            runner->run();
            Runtime::AotiRunner *raw = runner.get();
            slot[row["name"].get<std::string>()] = timed.size();
            timed.push_back({row["name"].get<std::string>(), [raw] { raw->run(); }, {}, {}, {}, {}});
            runnerOf[row["name"].get<std::string>()] = raw;
            runners.push_back(std::move(runner));
        } catch (const std::exception &e) {
            row["status"] = "failed";
            row["reason"] = std::string("load_failed: ") + e.what();
        }
    }
    ctx.progress("measure", 0, "timing " + std::to_string(timed.size()) + " variants in alternating blocks");
    Comparison comparison(std::move(timed), options, threads, ctx.stopToken());
    ctx.checkStop("measure");
    std::vector<Profiler::RatioInterval> shown;
    const auto measureRow = [&](Json &row) {
        const auto it = slot.find(row.value("name", ""));
        if (it == slot.end())
            return;
        const auto s = comparison.summary(it->second);
        row["median_ms"] = s.medianMs;
        row["statistics"] = summaryJson(s, options.warmup);
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
    };
    for (auto &row : rows)
        measureRow(row);
    measureRow(jit);
    Json eagerRow{{"name", "eager"}, {"kind", "eager"}, {"status", "ok"}, {"reason", ""}, {"options", Json::object()}};
    measureRow(eagerRow);

    // 4. The Pareto front (latency, error, compile time, package size; all minimised) over
    // the trials that were measured; the two baselines are always listed with it.
    std::vector<std::vector<double>> points;
    std::vector<std::size_t> measured;
    const auto value = [](const Json &row, const char *k) {
        const Json v = row.value(k, Json());
        return v.is_number() ? v.get<double>() : std::numeric_limits<double>::quiet_NaN();
    };
    // A trial whose speedup over defaults has an interval holding 1 is as fast as defaults:
    // it takes defaults' median, so that noise does not decide who dominates whom.
    const auto tiedWithDefaults = [](const Json &row) {
        const Json iv = row.value("speedup_vs_defaults_interval", Json());
        return iv.is_object() && iv.value("low", Json()).is_number() && iv.value("high", Json()).is_number()
            && iv["low"].get<double>() <= 1.0 && 1.0 <= iv["high"].get<double>();
    };
    double defaultsMs = std::numeric_limits<double>::quiet_NaN();
    for (const auto &row : rows)
        if (row.value("name", "") == "defaults")
            defaultsMs = value(row, "median_ms");
    // Compile times of two machines do not compare: with trials compiled on several hosts the
    // front leaves compile time out (latencies and errors were all taken here).
    Json compiledRows = Json::array();
    for (const auto &row : rows)
        if (row.contains("median_ms"))
            compiledRows.push_back(row);
    const bool compiledOnSeveralHosts = severalHosts(compiledRows);
    if (compiledOnSeveralHosts)
        warn("the trials compiled on several hosts: compile time is left out of the Pareto front (compile "
             "times of two machines do not compare); latency and error were measured here for all of them");
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].contains("median_ms")) {
            measured.push_back(i);
            const double latency
                = tiedWithDefaults(rows[i]) && !std::isnan(defaultsMs) ? defaultsMs : value(rows[i], "median_ms");
            std::vector<double> point{latency, value(rows[i], "max_abs_error"), value(rows[i], "package_bytes")};
            if (!compiledOnSeveralHosts)
                point.push_back(value(rows[i], "compile_seconds"));
            points.push_back(std::move(point));
        }
    Json front = Json::array();
    for (const auto k : Profiler::paretoFront(points)) {
        rows[measured[k]]["pareto"] = true;
        front.push_back(rows[measured[k]]["name"]);
    }
    for (const char *b : {"defaults"})
        if (std::find(front.begin(), front.end(), b) == front.end() && slot.count(b))
            front.push_back(b);
    if (jit.contains("median_ms"))
        front.push_back("torch.compile");

    // 5. The chosen recipe: the fastest verified trial within max_error.
    Json chosen;
    for (const auto i : measured) {
        const Json &row = rows[i];
        const double err = value(row, "max_abs_error");
        if (maxError.is_number() && !(err <= maxError.get<double>()))
            continue;
        if (chosen.is_null() || value(row, "median_ms") < value(chosen, "median_ms"))
            chosen = row;
    }
    // Defaults stay the recipe unless the fastest trial is faster beyond the interval.
    if (chosen.is_object() && chosen.value("name", "") != "defaults") {
        const Json iv = chosen.value("speedup_vs_defaults_interval", Json());
        const bool beyond = iv.is_object() && iv.value("low", Json()).is_number() && iv["low"].get<double>() > 1.0;
        for (const auto i : measured) {
            const Json &row = rows[i];
            const bool withinError = !maxError.is_number() || value(row, "max_abs_error") <= maxError.get<double>();
            if (!beyond && row.value("name", "") == "defaults" && withinError) {
                warn("the fastest trial, " + chosen["name"].get<std::string>()
                     + ", is not faster than AOTInductor's defaults beyond the 95% interval: the recipe keeps the "
                       "defaults");
                chosen = row;
            }
        }
    }
    // 6. A model with dynamic dimensions: a workload of shapes in the package's range, the
    // chosen package against a fresh torch.compile that meets them in the same order.
    const Json dynamic = request.value("dynamic", Json::array());
    if (dynamic.is_array() && !dynamic.empty() && !chosen.is_null()) {
        const auto r = runnerOf.find(chosen["name"].get<std::string>());
        if (r != runnerOf.end())
            result["workload"] = ctx.stage(
                "workload", "the shape workload: the chosen package and torch.compile per shape", [&](Json &) {
                    return runWorkload(ctx, *loadedFor(chosen.value("dtype", dtype)).job, *r->second, chosen, options,
                                       threads);
                });
    }
    Json measurement = comparison.measurement(shown);
    if (const std::string line = verdictLine(measurement); !line.empty())
        warn(line);
    result["rows"] = rows;
    result["baselines"] = Json::array({eagerRow, jit});
    result["front"] = front;
    result["measurement"] = measurement;
    result["pairing"] = comparison.pairing();
    result["ray"] = ray.empty()
        ? Json()
        : Json{{"address", ray},
               {"several_hosts", compiledOnSeveralHosts},
               {"pareto_axes",
                compiledOnSeveralHosts
                    ? Json::array({"median_ms", "max_abs_error", "package_bytes"})
                    : Json::array({"median_ms", "max_abs_error", "package_bytes", "compile_seconds"})}};
    result["seconds"] = secondsSince(t0);
    result["warnings"] = warnings;
    return ctx.stage("write", "writing tune.json, tune.csv and recipe.json", [&](Json &a) {
        if (!chosen.is_null()) {
            Json recipeOptions = chosen.value("options", Json::object());
            if (!recipeOptions.contains("dtype"))
                recipeOptions["dtype"] = dtype;
            const Json recipe{{"format", "aotstudio.recipe"},
                              {"format_version", 1},
                              {"name", chosen["name"]},
                              {"model", model},
                              {"device", device},
                              {"torch_version", result["torch_version"]},
                              {"created", isoNow()},
                              {"options", recipeOptions},
                              {"measured",
                               {{"median_ms", chosen.value("median_ms", Json())},
                                {"speedup_vs_defaults", chosen.value("speedup_vs_defaults_interval", Json())},
                                {"speedup_vs_torch_compile", chosen.value("speedup_vs_torch_compile_interval", Json())},
                                {"max_abs_error", chosen.value("max_abs_error", Json())},
                                {"measurement", measurement.value("verdict", Json())}}}};
            writeJsonAtomic(out / "recipe.json", recipe);
            result["recipe"] = recipe;
            result["recipe_path"] = (out / "recipe.json").string();
            a["recipe"] = (out / "recipe.json").string();
            log("info", "chosen: " + chosen["name"].get<std::string>() + " (" + (out / "recipe.json").string() + ")");
        } else {
            result["recipe"] = nullptr;
            warn(maxError.is_number() ? "no trial is within max_error " + maxError.dump() + ": no recipe written"
                                      : "no trial compiled and verified: no recipe written");
            result["warnings"] = warnings;
        }
        writeRows(result);
        a["tune"] = (out / "tune.json").string();
        return result;
    });
}

} // namespace AotStudio::Pipeline
