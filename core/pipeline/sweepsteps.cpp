// SPDX-License-Identifier: GPL-3.0-or-later
// The steps a sweep is made of (sweepjob.h declares the ones compile's verify shares): one point
// run against eager, the layout rows, a bucket-policy row, the rows summed into a verdict and
// written as CSV. runSweep (sweepjob.cpp) is the table that orders them.
#include "pipeline/sweepsteps.h"
#include "pipeline/jobutil.h"
#include "pipeline/measurement.h"

#include "bundle/bundle.h"
#include "profiler/trace.h"
#include "python/frontend.h"
#include "runtime/aotirunner.h"

#include <algorithm>
#include <chrono>
#include <set>

namespace AotStudio::Pipeline {

using Protocol::Json;
namespace fs = std::filesystem;
using SweepSteps::shapesText;
using SweepSteps::valuesText;

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

namespace SweepSteps {

std::string shapesText(const std::vector<std::vector<std::int64_t>> &shapes)
{
    std::string s;
    for (const auto &shape : shapes) {
        s += s.empty() ? "[" : " [";
        for (std::size_t d = 0; d < shape.size(); ++d)
            s += (d ? "," : "") + std::to_string(shape[d]);
        s += "]";
    }
    return s;
}

std::string valuesText(const Json &values)
{
    std::string s;
    for (const auto &[k, v] : values.items())
        s += (s.empty() ? "" : " ") + k + "=" + v.dump();
    return s;
}

Json layoutRows(Python::CompileJob &job, Runtime::AotiRunner &runner,
                const std::vector<std::vector<std::int64_t>> &shapes, int index)
{
    Json rows = Json::array();
    job.call("sweep.prepare", Json::array({index, shapes, true}));
    const Json variants = job.call("sweep.layout_variants", Json::array({index}));
    job.call("sweep.drop", Json::array({index}));
    const bool converting = runner.convertLayout();
    for (const auto &v : variants) {
        Json row{{"input", v["input"]},
                 {"variant", v["variant"]},
                 {"strides", v["strides"]},
                 {"storage_offset", v.value("storage_offset", 0)},
                 {"message", ""}};
        const Json args = Json::array({index, v["input"], v["variant"]});
        // 1. As a deployed runner would (no conversion): refused, or accepted and equal to eager.
        // 2. With conversion: copied into the package's layout, equal to eager.
        for (const bool convert : {false, true}) {
            const char *key = convert ? "converted" : "default";
            const Json prepared = job.call("sweep.prepare", Json::array({index, shapes, true}));
            if (prepared.value("eager_error", Json()).is_string()) {
                row[key] = "eager_error";
                job.call("sweep.drop", Json::array({index}));
                continue;
            }
            runner.setConvertLayout(convert);
            try {
                runner.setInputs(job.callTensors("sweep.layout_inputs", args));
                runner.run();
                const auto outputs = runner.outputs();
                const Json compared = job.call("sweep.compare", Json::array({index}), &outputs);
                row[key] = compared.value("outcome", "error");
                if (row[key] != "match")
                    row["message"] = compared.value("message", "");
            } catch (const Runtime::InputRefused &e) {
                row[key] = e.violation().layout ? "refused" : "error";
                if (!convert)
                    row["message"] = e.what();
                job.call("sweep.drop", Json::array({index}));
            } catch (const Runtime::RuntimeError &e) {
                row[key] = "error";
                row["message"] = e.what();
                job.call("sweep.drop", Json::array({index}));
            }
        }
        const std::string plain = row.value("default", ""), copied = row.value("converted", "");
        row["ok"] = (plain == "refused" || plain == "match" || plain == "eager_error")
            && (copied == "match" || copied == "eager_error");
        rows.push_back(std::move(row));
    }
    runner.setConvertLayout(converting);
    return rows;
}

std::unique_ptr<Runtime::AotiRunner> loadTarget(const std::string &package, const std::string &device,
                                                const std::map<std::string, Bundle::BucketWeight> &weights)
{
    Runtime::AotiRunner::LoadOptions options;
    options.weightFiles = weights;
    return Runtime::AotiRunner::load(package, device, options);
}

void writeSweepCsv(const fs::path &path, const Json &targets)
{
    Profiler::CsvTable csv({"target", "index", "values", "shapes", "expected", "outcome", "ok", "max_abs_error",
                            "eager_ms", "package_ms", "reasons", "message"});
    for (const auto &t : targets) {
        for (const auto &p : t.value("points", Json::array())) {
            std::string reasons;
            for (const auto &x : p.value("reasons", Json::array()))
                reasons += (reasons.empty() ? "" : "; ") + x.get<std::string>();
            std::vector<std::vector<std::int64_t>> shapes = p.value("shapes", std::vector<std::vector<std::int64_t>>{});
            const auto num
                = [&](const char *k) { return p.contains(k) && p[k].is_number() ? p[k].dump() : std::string(); };
            csv.addRow({t.value("name", ""), std::to_string(p.value("index", 0)),
                        valuesText(p.value("values", Json::object())), shapesText(shapes), p.value("expected", ""),
                        p.value("outcome", ""), p.value("ok", false) ? "true" : "false", num("max_abs_error"),
                        num("eager_ms"), num("package_ms"), reasons, p.value("message", "")});
        }
    }
    writeFileAtomic(path, csv.text());
}

Json summarizeSweep(Json &targets, const Json &policy, bool bundle)
{
    std::map<std::string, int> counts;
    int failures = 0, total = 0, policyFailures = 0, padded = 0;
    Json firstFailure;
    int layoutRowsSeen = 0, layoutFailures = 0;
    for (auto &t : targets) {
        for (const auto &r : t.value("layout", Json::array())) {
            ++layoutRowsSeen;
            layoutFailures += r.value("ok", false) ? 0 : 1;
        }
        Json tcounts = Json::object();
        for (const auto &r : t.value("points", Json::array())) {
            ++total;
            const std::string outcome = r.value("outcome", "error");
            ++counts[outcome];
            tcounts[outcome] = tcounts.value(outcome, 0) + 1;
            if (!r.value("ok", false)) {
                ++failures;
                if (firstFailure.is_null())
                    firstFailure = {{"target", t.value("name", "")}, {"point", r}};
            }
        }
        t["counts"] = tcounts;
    }
    for (const auto &row : policy) {
        padded += row.value("padded", false) ? 1 : 0;
        policyFailures += row.value("ok", false) ? 0 : 1;
    }
    failures += policyFailures + layoutFailures;
    std::string verdict;
    if (failures == policyFailures + layoutFailures) { // every shape of every package did what its guards promise
        verdict = "passed: " + std::to_string(total) + " shapes: " + std::to_string(counts["match"])
            + " inside the range matched eager, " + std::to_string(counts["refused"]) + " outside refused";
        if (counts["eager_error"])
            verdict += ", " + std::to_string(counts["eager_error"]) + " where eager itself fails (the model's own)";
        if (policyFailures)
            verdict = "FAILED (bucket policy); shapes " + verdict;
        else if (layoutFailures)
            verdict = "FAILED (layouts: " + std::to_string(layoutFailures) + " of " + std::to_string(layoutRowsSeen)
                + " ran another layout without a refusal or a copy, or differ from eager); shapes " + verdict;
    } else {
        const Json &p = firstFailure["point"];
        verdict = "FAILED: " + std::to_string(failures) + " of " + std::to_string(total)
            + " shapes; first: " + firstFailure["target"].get<std::string>() + " "
            + (p["values"].empty() ? std::string() : valuesText(p["values"]) + " ")
            + shapesText(p["shapes"].get<std::vector<std::vector<std::int64_t>>>()) + ": "
            + p["outcome"].get<std::string>()
            + (p["message"].get<std::string>().empty() ? "" : " (" + p["message"].get<std::string>() + ")");
    }
    if (bundle)
        verdict += "; bucket policy: " + std::to_string(policy.size()) + " batch sizes (" + std::to_string(padded)
            + " padded), "
            + (policyFailures ? std::to_string(policyFailures) + " not matching eager"
                              : std::string("every one as eager"));
    if (layoutRowsSeen)
        verdict += "; layouts: " + std::to_string(layoutRowsSeen) + " (input, layout) pairs, "
            + (layoutFailures ? std::to_string(layoutFailures) + " failed" : std::string("each refused or copied"));
    return {
        {"passed", failures == 0}, {"failures", failures}, {"points", total}, {"counts", counts}, {"verdict", verdict}};
}

std::set<long long> policyBatches(const Bundle::Manifest &m)
{
    std::set<long long> batches{1};
    for (const auto &b : m.buckets)
        for (const long long v : b.batch
                 ? std::vector<long long>{*b.batch - 1, *b.batch, *b.batch + 1}
                 : std::vector<long long>{b.batchMin - 1, b.batchMin, b.batchMax, b.batchMax + 1})
            if (v >= 1)
                batches.insert(v);
    return batches;
}

Json policyRow(Python::CompileJob &job, const Bundle::OpenedBundle &bundle, const std::string &device, long long batch,
               int index, const std::vector<std::vector<std::int64_t>> &exampleShapes,
               std::map<std::string, std::unique_ptr<Runtime::AotiRunner>> &runners)
{
    const auto &m = bundle.manifest;
    Json row{{"batch", batch}, {"bucket", nullptr}, {"padded", false}, {"pad_to", nullptr}, {"message", ""}};
    Bundle::BucketChoice choice;
    try {
        choice = Bundle::chooseBucket(m, batch);
    } catch (const Bundle::BundleError &e) {
        row["outcome"] = "refused";
        row["message"] = e.what();
        row["ok"] = true; // no bucket answers it, and aotstudio-run says so
        return row;
    }
    row["bucket"] = choice.bucket.name;
    row["padded"] = choice.padded;
    row["pad_to"] = choice.padTo;
    auto shapes = exampleShapes;
    for (auto &sh : shapes)
        if (!sh.empty())
            sh[0] = batch;
    const Json prepared = job.call("sweep.prepare", Json::array({index, shapes, true}));
    if (prepared.value("eager_error", Json()).is_string()) {
        row["outcome"] = "eager_error";
        row["message"] = "eager raised " + prepared["eager_error"].get<std::string>();
    } else {
        auto &runner = runners[choice.bucket.name];
        try {
            if (!runner) {
                runner = loadTarget((bundle.root / choice.bucket.package).string(), device,
                                    choice.bucket.weightsUnder(bundle.root));
                runner->setGuards(choice.bucket.guards);
            }
            runner->setInputs(job.callTensors("sweep.inputs", Json::array({index, choice.padded ? choice.padTo : -1})));
            runner->run();
            const auto outputs = runner->outputs();
            const Json compared = job.call("sweep.compare", Json::array({index}), &outputs);
            row["outcome"] = compared.value("outcome", "error");
            row["message"] = compared.value("message", "");
            row["max_abs_error"] = compared.value("max_abs_error", Json());
            if (choice.padded && row["outcome"] == "mismatch")
                row["message"] = "padded to " + std::to_string(choice.padTo)
                    + " rows, the real rows' outputs differ from eager: " + row["message"].get<std::string>()
                    + " (the bundle says pad_safe; export it without --pad-safe)";
        } catch (const Runtime::InputRefused &e) {
            row["outcome"] = "refused";
            row["message"] = std::string("the policy picks bucket ") + choice.bucket.name
                + " but its guards refuse the call: " + e.what();
        } catch (const Runtime::RuntimeError &e) {
            row["outcome"] = "error";
            row["message"] = e.what();
        }
    }
    job.call("sweep.drop", Json::array({index}));
    const std::string outcome = row["outcome"].get<std::string>();
    row["ok"] = outcome == "match" || outcome == "eager_error";
    return row;
}

} // namespace SweepSteps

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
