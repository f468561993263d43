// SPDX-License-Identifier: GPL-3.0-or-later
// The steps a sweep is made of beside the shared ones (steps.h: one point run against eager): the
// layout rows, a bucket-policy row, the rows summed into a verdict and written as CSV. runSweep
// (sweepjob.cpp) is the table that orders them.
#include "pipeline/sweepsteps.h"
#include "pipeline/jobutil.h"
#include "pipeline/measurement.h"

#include "bundle/bundle.h"
#include "profiler/trace.h"
#include "python/frontend.h"
#include "runtime/aotirunner.h"

#include <algorithm>
#include <set>

namespace AotStudio::Pipeline {

using Protocol::Json;
namespace fs = std::filesystem;

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

} // namespace AotStudio::Pipeline
