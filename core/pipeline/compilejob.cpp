// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/compilejob.h"
#include "pipeline/jobutil.h"
#include "pipeline/measurement.h"
#include "pipeline/steps.h"
#include "pipeline/versions.h"

#include "bundle/bundle.h"
#include "bundle/sweepplan.h"
#include "python/frontend.h"
#include "runtime/aotirunner.h"

#include <chrono>
#include <cmath>
#include <functional>
#include <optional>

namespace AotStudio::Pipeline {

using Protocol::Json;

namespace {

constexpr StageSpan kStages[] = {
    {"load", 0.00, 0.06},         {"export", 0.06, 0.14}, {"decompose", 0.14, 0.20}, {"compile", 0.20, 0.80},
    {"load_package", 0.80, 0.85}, {"verify", 0.85, 0.88}, {"measure", 0.88, 1.00},
};

/// A staged compile's output folder (FORMAT.md, "Output folder"): commit() moves the staged files
/// into OUT once every stage succeeded; a job that ends any other way abandons them (the previous
/// compile's files go to OUT/previous-<time>/, an unverified package becomes model.unverified.pt2).
class StagedOutput
{
public:
    StagedOutput(Python::CompileJob &job, const Job &stages)
        : m_job(job)
        , m_stages(stages)
    { }
    StagedOutput(const StagedOutput &) = delete;
    StagedOutput &operator=(const StagedOutput &) = delete;
    ~StagedOutput()
    {
        if (m_done)
            return;
        try {
            m_job.call("abandon", Json::array({m_stages.failedCode()}));
        } catch (const std::exception &e) { // unwinding already: report, never throw
            m_stages.log("warning", std::string("could not tidy the output folder: ") + e.what());
        }
    }
    /// `compiled` (the compile stage's result) with its paths moved into OUT.
    Json commit(const Json &compiled)
    {
        Json moved = m_job.call("commit", Json::array({compiled}));
        m_done = true;
        return moved;
    }

private:
    Python::CompileJob &m_job;
    const Job &m_stages;
    bool m_done = false;
};

/// Verify's quick look beyond the example (FORMAT.md, "verify", `shapes` and `recorded`): each
/// dynamic dimension's range start and end (Bundle::SweepBudget::edgesOnly; at most `budget`
/// shapes), and the shapes a capture recorded (the request's `from_capture`, at most
/// `capture_shapes`; sweepjob.h recordedShapes()), on the recorded call's own inputs where the
/// capture kept one; checked like a sweep's points (sweepjob.h). A package that matches at the
/// example but not at a range end or a recorded shape fails the compile here, not in production.
/// `budget` < 0: every dimension's two ends (at most 64). Returns {"shapes", "recorded"}: `shapes`
/// null when the package has no dynamic dimension or `budget` is 0; `recorded` null without
/// `from_capture`. Ends left out by a smaller budget are counted (`left_out`); points where eager
/// itself raised are `notes`; recorded shapes the package refuses (outside its ranges) are
/// `outside`. Leaves the example inputs set for measuring.
Json verifyShapes(Python::CompileJob &job, Runtime::AotiRunner &runner, const Json &guardsJson, int budget,
                  const Json &request, const std::function<void(const std::string &, const std::string &)> &log)
{
    const bool fromCapture = request.contains("from_capture");
    if ((budget == 0 && !fromCapture) || !guardsJson.is_object())
        return {{"shapes", nullptr}, {"recorded", nullptr}};
    std::optional<Bundle::InputGuards> guards;
    try {
        guards = Bundle::InputGuards::parse(guardsJson, "the compile's guards");
    } catch (const Bundle::BundleError &e) {
        throw JobFailed({"verify", Protocol::Code::Internal, e.what(),
                         "this is a bug in AOT Studio; please report it with the model"});
    }
    if (!guards->isDynamic() && !fromCapture)
        return {{"shapes", nullptr}, {"recorded", nullptr}};
    if (!guards->isDynamic())
        budget = 0;
    if (budget < 0)
        budget = static_cast<int>(std::min<std::size_t>(64, 2 * guards->symbols().size()));
    const auto example = job.call("sweep_begin").get<std::vector<std::vector<std::int64_t>>>();
    Bundle::SweepBudget b;
    b.edgesOnly = true;
    b.outside = false;
    b.pairwise = false;
    b.maxPoints = static_cast<std::size_t>(budget) + 1; // the example is point 0
    Json captureSummary;
    b.recorded = recordedShapes(job, request, captureSummary);
    Bundle::SweepPlan plan;
    try {
        plan = Bundle::planSweep(*guards, example, b);
    } catch (const Bundle::BundleError &e) {
        throw JobFailed({"verify", Protocol::Code::Internal, e.what(),
                         "this is a bug in AOT Studio; please report it with the model"});
    }
    const auto valuesText = [](const Json &values) {
        std::string where;
        for (const auto &[k, v] : values.items())
            where += (where.empty() ? "" : ", ") + k + " = " + v.dump();
        return where;
    };
    Json points = Json::array(), recordedPoints = Json::array(), outside = Json::array();
    for (std::size_t i = 0; i < plan.points.size(); ++i) {
        const auto &p = plan.points[i];
        if (i == 0 && !p.recorded) // the example: verifyPackage() checked it
            continue;
        if (!p.inside && !p.recorded) // a guard narrower than the range (even sizes only): not a size the package takes
            continue;
        Json r;
        try {
            r = runPoint(job, runner, static_cast<int>(i), p, plan, *guards, {});
        } catch (const Python::FrontendException &e) {
            Protocol::Error error = e.error();
            if (error.stage == "measure") // CompileJob::call's stage for failures that are not the frontend's own
                error.stage = "verify";
            throw Python::FrontendException(error, e.details()); // runCompile logs the details
        }
        Json row{{"values", r["values"]},
                 {"shapes", r["shapes"]},
                 {"reasons", r["reasons"]},
                 {"outcome", r["outcome"]},
                 {"max_abs_error", r["max_abs_error"]}};
        if (p.recorded) {
            row["label"] = p.label;
            row["calls"] = p.calls;
            row["inputs"] = r["recorded"].value("ran_on", "seeded");
            row["expected"] = p.inside ? "match" : "refused";
            if (!p.inside)
                row["refusal"] = p.refusal;
            const std::string outcome = r["outcome"].get<std::string>();
            char err[32] = "";
            if (r["max_abs_error"].is_number())
                std::snprintf(err, sizeof err, ", max abs %.3g", r["max_abs_error"].get<double>());
            // One line per recorded shape, naming it (FORMAT.md "verify" `recorded`).
            log(r["ok"].get<bool>() && p.inside ? "info" : "warning",
                "verify: recorded shape " + p.label + " (" + std::to_string(p.calls) + " call"
                    + (p.calls == 1 ? "" : "s") + ", "
                    + (row["inputs"] == "recorded" ? "its kept input" : "seeded inputs") + "): " + outcome + err
                    + (p.inside ? "" : " (outside what the package accepts: " + p.refusal + ")"));
            if (const Json note = r["recorded"].value("note", Json()); note.is_string())
                log("warning", "verify: " + note.get<std::string>());
            if (!p.inside)
                outside.push_back(p.label + " (" + std::to_string(p.calls) + " calls): " + p.refusal);
            recordedPoints.push_back(row);
        } else {
            points.push_back(row);
        }
        if (p.inside && !r["ok"].get<bool>()) {
            job.call("verify_revoke");
            std::string why;
            for (const auto &x : r["reasons"])
                why += (why.empty() ? "" : ", ") + x.get<std::string>();
            const std::string where = p.recorded ? "the recorded shape " + p.label : valuesText(r["values"]);
            throw JobFailed(
                {"verify", Protocol::Code::Mismatch,
                 "the package matches eager on the example but not at " + where + " (" + why + ", input shapes "
                     + r["shapes"].dump() + "): " + r["outcome"].get<std::string>()
                     + (r["message"].get<std::string>().empty() ? "" : ": " + r["message"].get<std::string>()),
                 "the compiled code is wrong at sizes other than the example; narrow the range (--dynamic "
                 "INPUT:DIM:MIN:MAX), or sweep the package to see which sizes fail "
                 "(aotstudio-cli sweep --package OUT/model.unverified.pt2 --model SPEC with this compile's --dtype and "
                 "--dynamic)"});
        }
    }
    runner.setInputs(job.inputs());
    const auto eagerNotes = [&](const Json &rows) {
        Json notes = Json::array();
        for (const auto &p : rows)
            if (p.value("outcome", "") == "eager_error")
                notes.push_back("eager itself raised at "
                                + (p.contains("label") ? p["label"].get<std::string>() : valuesText(p["values"])) + " ("
                                + p["shapes"].dump() + "): the package was not checked there");
        return notes;
    };
    Json shapes;
    if (budget != 0 && guards->isDynamic())
        shapes = {{"budget", budget}, {"points", points}, {"left_out", plan.leftOut}, {"notes", eagerNotes(points)}};
    Json recorded;
    if (fromCapture) {
        std::size_t matched = 0;
        for (const auto &p : recordedPoints)
            matched += p.value("outcome", "") == "match";
        recorded = captureSummary;
        recorded["points"] = recordedPoints;
        recorded["matched"] = matched;
        recorded["outside"] = outside;
        Json notes = recorded.value("notes", Json::array());
        for (const auto &n : eagerNotes(recordedPoints))
            notes.push_back(n);
        recorded["notes"] = notes;
    }
    return {{"shapes", shapes}, {"recorded", recorded}};
}

} // namespace

const std::span<const StageSpan> kCompileStages(kStages);

Json runCompileAsPart(const Job &parent, Json request, double share, double begin)
{
    request["measure"] = false;
    return runCompile(parent.sub(begin, share, kCompileStages), request);
}

Json runCompile(std::int64_t id, const Json &request, const EventFn &emit, std::stop_token stop)
{
    return runCompile(Job(id, emit, std::move(stop), kCompileStages), request);
}

namespace {

/// A regional compile (request "regional": true): one weightless package per repeated block class
/// (core/python/aotstudio_frontend/regional.py), the model run with every block instance on its
/// package and its weights bound at run time, verified against eager and timed against it (and
/// against the whole model compiled, with "compare_whole"), all paired as a normal compile's
/// measure stage. Stages: compile (the blocks), verify, [export + compile + load_package of the
/// whole model], measure.
template<typename Stage>
Json runRegional(const Job &ctx, const Json &request, Python::CompileJob &job, StagedOutput &output, const Json &loaded,
                 const Stage &stage)
{
    const auto options = measureOptionsFrom(request);
    const int threads = applyThreads(request);
    const std::string device = request.value("device", std::string("cpu"));
    // The whole model first when asked (stage order export, compile, load_package keeps the bar
    // monotonic), then the blocks in the compile span's remainder.
    Json whole;
    std::unique_ptr<Runtime::AotiRunner> runner;
    if (request.value("compare_whole", false)) {
        const auto t0 = std::chrono::steady_clock::now();
        stage("export", "capturing the whole graph for comparison", [&](Json &) { return job.exportGraph(); });
        const Json compiled
            = stage("compile", "compiling the whole model for comparison", [&](Json &) { return job.compile(); });
        const double wholeSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        runner = stage("load_package", "loading the whole package", [&](Json &) {
            return loadPackage(job, compiled.at("package").get<std::string>(), device, "recompile it here");
        });
        whole = {{"package", compiled.at("package")},
                 {"package_bytes", compiled.value("package_bytes", 0)},
                 {"compile_seconds", wholeSeconds}};
    }
    Json blocks = stage("compile", "compiling each repeated block once (regional)",
                        [&](Json &) { return job.call("regional_compile"); });
    const Json verified = stage("verify", "comparing the model with compiled blocks to eager",
                                [&](Json &) { return job.call("regional_verify"); });
    std::vector<Profiler::Summary> summaries(3);
    std::vector<Profiler::RatioInterval> ratios(2);
    Json measurement;
    // An export of the block layout compiles and verifies without timing (as export's buckets).
    const bool measure = request.value("measure", true);
    if (measure)
        stage("measure", "timing eager and the compiled blocks, alternating", [&](Json &) {
            summaries.clear();
            ratios.clear();
            const auto regional = job.bind("run_regional");
            std::vector<Profiler::PairedVariant> variants{{"eager", [&] { job.runEager(); }, {}, {}},
                                                          {"regional", [&] { regional(); }, {}, {}}};
            if (runner)
                variants.push_back({"whole", [&] { runner->run(); }, {}, {}});
            Comparison c(variants, options, threads, ctx.stopToken());
            for (std::size_t i = 0; i < variants.size(); ++i)
                summaries.push_back(c.summary(i));
            ratios.push_back(c.ratio(0, 1));
            if (runner)
                ratios.push_back(c.ratio(2, 1));
            measurement = c.measurement(ratios);
        });
    if (ctx.stopToken().stop_requested())
        throw JobFailed(Protocol::error("measure", Protocol::Code::Cancelled, Protocol::text("cancel.measuring")));
    // A median that was not taken is null, never 0 ms.
    const auto medianOf = [&](std::size_t i) { return measure ? Json(summaries[i].medianMs) : Json(); };
    const double regionalSeconds = blocks.value("seconds", 0.0);
    Json regional{{"blocks", blocks.value("blocks", Json::array())},
                  {"groups", blocks.value("groups", Json::array())},
                  {"layout", blocks.value("layout", Json())},
                  {"parameter_share", blocks.value("parameter_share", 0.0)},
                  {"compile_seconds", regionalSeconds},
                  {"package_bytes", blocks.value("package_bytes", 0)},
                  {"median_ms", medianOf(1)},
                  {"speedup_vs_eager", measure ? ratioJson(ratios[0]) : Json()}};
    if (!whole.is_null() && measure) {
        whole["median_ms"] = medianOf(2);
        const double wholeSeconds = whole.value("compile_seconds", 0.0);
        // Whole over regional median: > 1 means the regional model is faster.
        whole["regional_speedup_vs_whole"] = ratioJson(ratios[1]);
        regional["compile_time_ratio"] = wholeSeconds > 0 ? Json(regionalSeconds / wholeSeconds) : Json();
    }
    Json result{{"model", request.value("model", std::string())},
                {"device", device},
                {"dtype", request.value("dtype", std::string("fp32"))},
                {"out", request.value("out", std::string())},
                {"mode", "regional"},
                {"torch_version", loaded.value("torch_version", Runtime::libtorchVersion())},
                {"inputs", loaded.value("inputs", Json::array())},
                {"outputs", verified.value("outputs", Json::array())},
                {"parameters", loaded.value("parameters", 0)},
                {"max_abs_error", verified.value("max_abs_error", Json())},
                {"tolerance", verified.value("tolerance", Json())},
                {"verify", verified},
                {"eager_ms", medianOf(0)},
                {"compiled_ms", medianOf(1)},
                {"speedup", measure ? Json(ratios[0].estimate) : Json()},
                {"speedup_interval", measure ? ratioJson(ratios[0]) : Json()},
                {"measurement", measurement},
                {"threads", threads},
                {"eager", summaryJson(summaries[0], options.warmup)},
                {"compiled", summaryJson(summaries[1], options.warmup)},
                {"regional", regional},
                {"whole", whole},
                {"warnings", Json::array()}};
    if (const std::string line = verdictLine(measurement); !line.empty())
        result["warnings"].push_back(line);
    return output.commit(result);
}

/// The compile stage's body: the frontend's compile, with the native C++ build's share of the
/// stage as a `part` and the stage's artifacts (the package, kernels.json, memory.json and
/// fusion.json beside it: FORMAT.md "Memory plan") in `artifacts`. Returns the frontend's result.
Json compileStep(const Job &ctx, Python::CompileJob &job, Json &artifacts)
{
    Json r = job.compile();
    // The native C++ build's share of the stage (the frontend times Inductor's builds).
    if (const auto b = r.find("native_build"); b != r.end() && b->is_object())
        ctx.part("native_build", b->value("seconds", 0.0));
    artifacts["package"] = r.at("package");
    if (const auto k = r.find("kernels");
        k != r.end() && k->is_object() && k->contains("path") && !(*k)["path"].is_null())
        artifacts["kernels"] = (*k)["path"];
    for (const char *name : {"memory", "fusion"})
        if (const auto m = r.find(name); m != r.end() && m->is_object() && m->value("available", false))
            artifacts[name] = (*m)["path"];
    return r;
}

/// verifyShapes()'s range ends into `v` (the verify result): `verify.shapes`, and the verdict
/// saying what beyond the example was checked and what was not. Appends the warnings (eager
/// failing at a range end, ends left out) to `warnings`.
void addRangeEnds(Json &v, const Json &checked, std::vector<std::string> &warnings)
{
    const Json &shapes = checked["shapes"];
    v["verify"]["shapes"] = shapes;
    if (!shapes.is_object())
        return;
    // A range end that was also recorded is checked once, as a recorded shape.
    std::size_t recordedEnds = 0;
    for (const auto &p : checked["recorded"].is_object() ? checked["recorded"]["points"] : Json::array())
        for (const auto &reason : p.value("reasons", Json::array()))
            if (reason.get<std::string>().rfind("range ", 0) == 0) {
                ++recordedEnds;
                break;
            }
    const std::size_t ends = shapes["points"].size() + recordedEnds;
    std::string more = "; " + std::to_string(ends) + " range-end shape" + (ends == 1 ? "" : "s") + " matched"
        + (recordedEnds ? " (" + std::to_string(recordedEnds) + " of them recorded shapes)" : std::string());
    if (shapes.value("left_out", 0) > 0)
        more += ", " + std::to_string(shapes.value("left_out", 0)) + " left out by --verify-shapes";
    v["verify"]["verdict"] = v["verify"].value("verdict", "") + more;
    for (const auto &n : shapes.value("notes", Json::array()))
        warnings.push_back("verify: " + n.get<std::string>());
    if (shapes.value("left_out", 0) > 0)
        warnings.push_back("verify: " + std::to_string(shapes.value("left_out", 0))
                           + " range ends were not checked (--verify-shapes "
                           + std::to_string(shapes.value("budget", 0)) + "); aotstudio-cli sweep checks them all");
}

/// verifyShapes()'s recorded shapes (`rec`, a capture's) into `v`: `verify.recorded`, and the
/// verdict saying how many matched of how many distinct ones. Appends the warnings (shapes
/// outside the package's ranges, the capture's notes, shapes left out) to `warnings`.
void addRecorded(Json &v, const Json &rec, std::vector<std::string> &warnings)
{
    v["verify"]["recorded"] = rec;
    const std::size_t matched = rec.value("matched", std::size_t{0}), distinct = rec.value("distinct", std::size_t{0});
    const std::size_t refused = rec["outside"].size();
    std::string more = "; " + std::to_string(matched) + " recorded shape" + (matched == 1 ? "" : "s") + " matched ("
        + rec.value("chosen", std::string()) + ")";
    if (refused)
        more += ", " + std::to_string(refused) + " outside the package's ranges";
    if (distinct == 0)
        more = "; the capture recorded no call with this model's inputs";
    v["verify"]["verdict"] = v["verify"].value("verdict", "") + more;
    for (const auto &o : rec.value("outside", Json::array()))
        warnings.push_back("verify: a recorded shape is outside what the package accepts: " + o.get<std::string>());
    for (const auto &n2 : rec.value("notes", Json::array()))
        warnings.push_back("verify: " + n2.get<std::string>());
    if (rec.value("left_out", 0) > 0)
        warnings.push_back("verify: " + std::to_string(rec.value("left_out", 0))
                           + " distinct recorded shapes were not checked (capture_shapes); aotstudio-cli sweep "
                             "--from-capture with a larger --capture-shapes checks them");
}

/// The verify stage's body: the package against eager on the example (verifyPackage()), then at
/// the dynamic dimensions' range ends and a capture's recorded shapes (verifyShapes()), merged
/// into the verify result and its verdict. The warnings of the shapes step are logged and
/// appended to `warnings`. Returns the verify result.
Json verifyStep(Python::CompileJob &job, Runtime::AotiRunner &runner, const Json &request, const Json &exported,
                const std::function<void(const std::string &, const std::string &)> &log,
                std::vector<std::string> &warnings)
{
    Json v = verifyPackage(job, runner);
    const Json checked = verifyShapes(job, runner, exported.value("guards", Json()),
                                      std::clamp(request.value("verify_shapes", -1), -1, 64), request, log);
    const bool hasVerify = v.contains("verify") && v["verify"].is_object();
    if (hasVerify)
        addRangeEnds(v, checked, warnings);
    if (const Json &rec = checked["recorded"]; rec.is_object() && hasVerify)
        addRecorded(v, rec, warnings);
    for (const auto &w : warnings)
        log("warning", w);
    return v;
}

/// The measure stage's figures: eager and the package timed in alternating blocks.
struct CompileTiming {
    Profiler::Summary eager, aoti;
    Profiler::RatioInterval speedup;
    Json measurement; ///< FORMAT.md "measurement"; null when not measured
};

/// Eager and compiled timed in alternating blocks (measurement.h), so a change of machine load
/// hits both; the speedup carries its interval and the machine's verdict.
CompileTiming timeEagerAndCompiled(Python::CompileJob &job, Runtime::AotiRunner &runner,
                                   const Profiler::MeasureOptions &options, int threads, const std::stop_token &stop)
{
    Comparison c({{"eager", [&] { job.runEager(); }, {}, {}}, {"compiled", [&] { runner.run(); }, {}, {}}}, options,
                 threads, stop);
    CompileTiming t;
    t.eager = c.summary(0);
    t.aoti = c.summary(1);
    t.speedup = c.ratio(0, 1);
    t.measurement = c.measurement({t.speedup});
    return t;
}

/// The compile result's warnings (FORMAT.md "compile result" `warnings`): verify's shape
/// warnings, a skipped decomposition, the front end's findings about the compiled code (e.g.
/// quantized weights computed in fp32) and the measurement's verdict line (also logged).
Json compileWarnings(const Job &ctx, const std::vector<std::string> &shapeWarnings, const Json &decomposed,
                     const Json &compiled, const Json &measurement)
{
    Json warnings = Json::array();
    for (const auto &w : shapeWarnings)
        warnings.push_back(w);
    if (const Json skipped = decomposed.value("skipped", Json()); skipped.is_string())
        warnings.push_back(skipped.get<std::string>()
                           + "; the core ATen snapshot is left out (Inductor "
                             "decomposes the exported program itself)");
    for (const auto &w : compiled.value("warnings", Json::array()))
        if (w.is_object())
            warnings.push_back(w.value("message", std::string())
                               + (w.value("hint", std::string()).empty() ? "" : "; " + w.value("hint", std::string())));
    if (const std::string line = verdictLine(measurement); !line.empty()) {
        warnings.push_back(line);
        ctx.log(measurement.value("verdict", "") == "unreliable" ? "warning" : "info", line);
    }
    return warnings;
}

/// What the stages of one compile returned, for its result.
struct CompileStages {
    Json loaded, exported, decomposed, compiled, verified;
};

/// FORMAT.md "compile result" from the stages' outputs (`s.compiled` committed into OUT), the
/// timing and the warnings.
Json compileResult(const Job &ctx, const Json &request, const CompileStages &s, const CompileTiming &t, int threads,
                   int warmup, Json warnings)
{
    const Json &loaded = s.loaded, &exported = s.exported, &decomposed = s.decomposed, &compiled = s.compiled,
               &verified = s.verified;
    return Json{
        {"model", request.value("model", std::string())},
        {"device", request.value("device", std::string("cpu"))},
        {"dtype", request.value("dtype", std::string("fp32"))},
        {"package", compiled.at("package").get<std::string>()},
        {"package_bytes", compiled.value("package_bytes", 0)},
        {"out", request.value("out", std::string())},
        {"torch_version", loaded.value("torch_version", Runtime::libtorchVersion())},
        {"torchao_version", torchaoVersion()},
        {"cuda_version", loaded.value("cuda_version", std::string())},
        {"compute_capability", loaded.value("compute_capability", Json())},
        {"batch", request.value("batch", Json())},
        {"inputs", loaded.value("inputs", Json::array())},
        {"outputs", verified.value("outputs", Json::array())},
        {"parameters", loaded.value("parameters", 0)},
        {"graph_nodes", exported.value("nodes", 0)},
        {"max_abs_error", verified.at("max_abs_error")},
        {"max_rel_error", verified.at("max_rel_error")},
        {"cosine", verified.value("cosine", 1.0)},
        {"tolerance", verified.at("tolerance")},
        {"verify", verified.value("verify", Json())},
        {"guards", exported.value("guards", Json())},
        {"eager_ms", t.eager.medianMs},
        {"compiled_ms", t.aoti.medianMs},
        {"speedup", t.speedup.estimate},
        {"speedup_interval", t.measurement.is_null() ? Json() : ratioJson(t.speedup)},
        {"measurement", t.measurement},
        {"eager_baseline", loaded.value("eager_baseline", Json())},
        {"threads", threads},
        {"runs", std::min(t.eager.runs, t.aoti.runs)},
        {"eager_runs", t.eager.runs},
        {"compiled_runs", t.aoti.runs},
        {"warnings", std::move(warnings)},
        {"eager", summaryJson(t.eager, warmup)},
        {"compiled", summaryJson(t.aoti, warmup)},
        {"timer", "std::chrono::steady_clock around each call, in the engine process"},
        {"export_seconds", ctx.seconds("export")},
        {"compile_seconds", ctx.seconds("compile")},
        {"decomposed_nodes", decomposed.value("nodes", 0)},
        {"non_core_ops", decomposed.value("non_core_ops", Json::array())},
        {"decompose_skipped", decomposed.value("skipped", Json())},
        {"stages", compiled.value("stages", Json::array())},
        {"kernels", compiled.value("kernels", Json::object())},
        {"inductor_cache", compiled.value("inductor_cache", "disabled")},
        {"reuse", compiled.value("reuse", Json())},
        // What the compile contributes to the compatibility key (versions, precision, model and
        // options hashes; BUNDLE.md "Compatibility key"; the export adds what the package's files say).
        {"compat", compiled.value("compat", Json())},
        // What the package is built for (lite.py: "lite" = link_libtorch=False, for aotstudio-run-lite) and,
        // when a lite compile fell back to libtorch, the functions the lite runtime lacked.
        {"runtime", compiled.value("runtime", "libtorch")},
        {"lite_missing", compiled.value("lite_missing", Json::array())},
        {"native_build", compiled.value("native_build", Json())},
        {"memory", compiled.value("memory", Json())},
        {"fusion", compiled.value("fusion", Json())},
        {"options", compiled.value("options", Json::object())},
        {"recipe", compiled.value("recipe", Json())}, // which recipe and why (recipe.py)
    };
}

} // namespace

Json runCompile(const Job &ctx, const Json &request)
{
    const auto log = [&](const std::string &level, const std::string &message, const Json &msg = nullptr) {
        ctx.log(level, message, msg);
    };
    // A stage of this job; the frontend's errors are JobFailed (Python::FrontendException), their
    // code the stage's failedCode(): the output folder keeps an unverified package on a mismatch.
    const auto stage = [&](std::string_view name, const std::string &message, auto &&body) {
        return ctx.stage(name, message, body);
    };
    const auto options = measureOptionsFrom(request);
    if (request.contains("verify_shapes") && !request["verify_shapes"].is_number_integer())
        throw JobFailed(
            {"load", Protocol::Code::BadRequest, "'verify_shapes' must be an integer", "send a JSON integer"});
    const int threads = applyThreads(request);
    const std::string device = request.value("device", std::string("cpu"));

    Json staged = request;
    staged["staging"] = true; // files reach OUT only when the job succeeds
    Python::CompileJob job(staged, log, ctx.sink(), ctx.stopToken());
    StagedOutput output(job, ctx);
    CompileStages s;
    s.loaded = stage("load", "building the model and example inputs", [&](Json &) { return job.load(); });
    if (request.value("regional", false))
        return runRegional(ctx, request, job, output, s.loaded, stage);
    s.exported = stage("export", "capturing the graph with torch.export", [&](Json &) { return job.exportGraph(); });
    s.decomposed = stage("decompose", "decomposing to core ATen", [&](Json &) { return job.decompose(); });
    s.compiled = stage("compile", "compiling with AOTInductor (passes, fusion, codegen, C++ build)",
                       [&](Json &a) { return compileStep(ctx, job, a); });
    const auto runner = stage("load_package", "loading the package with LibTorch", [&](Json &) {
        return loadPackage(job, s.compiled.at("package").get<std::string>(), device,
                           "the package may be for another device or torch version; recompile it here");
    });
    std::vector<std::string> shapeWarnings; // range ends eager itself failed at, or left out
    s.verified = stage("verify", "comparing the compiled outputs with eager",
                       [&](Json &) { return verifyStep(job, *runner, request, s.exported, log, shapeWarnings); });
    CompileTiming timing;
    if (request.value("measure", true)) // export compiles buckets without timing them
        stage("measure", "timing eager and compiled, alternating",
              [&](Json &) { timing = timeEagerAndCompiled(job, *runner, options, threads, ctx.stopToken()); });
    if (ctx.stopRequested())
        throw JobFailed(Protocol::error("measure", Protocol::Code::Cancelled, Protocol::text("cancel.measuring")));
    s.compiled = output.commit(s.compiled); // every stage succeeded: the staged files into OUT
    Json warnings = compileWarnings(ctx, shapeWarnings, s.decomposed, s.compiled, timing.measurement);
    if (timing.speedup.estimate > 0)
        log("info", "speedup " + ratioText(timing.speedup));
    return compileResult(ctx, request, s, timing, threads, options.warmup, std::move(warnings));
}

} // namespace AotStudio::Pipeline
