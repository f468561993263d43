// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/sweepjob.h"
#include "pipeline/fanout.h"
#include "pipeline/jobutil.h"
#include "pipeline/measurement.h"

#include "bundle/bundle.h"
#include "bundle/compat.h"
#include "bundle/signing.h"
#include "profiler/trace.h"
#include "python/frontend.h"
#include "runtime/aotirunner.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include <unistd.h>

namespace AotStudio::Pipeline {

using Protocol::Json;
namespace fs = std::filesystem;

namespace {

constexpr const char *kFormat = "aotstudio.sweep";
constexpr int kVersion = 1;
/// Shards of a sweep with `ray` and no `ray_shards`: each is a whole engine (its start and the
/// model's load cost seconds, a point milliseconds), so a few, not one per point.
constexpr std::size_t kDefaultShards = 2;

double msSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

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

/// The package call of an isolated point in a child process: `aotstudio-run --package`, or for a
/// bundle's bucket `aotstudio-run BUNDLE --bucket NAME` (its shared weights bound as deployed).
Json runIsolated(Python::CompileJob &job, int index, const PointOptions &options, const Runtime::AotiRunner &runner, Json &r)
{
    const std::string package = runner.packagePath();
    const fs::path in = options.scratch / ("point" + std::to_string(index) + ".in.pt");
    const fs::path out = options.scratch / ("point" + std::to_string(index) + ".out.pt");
    std::error_code ec;
    fs::remove(out, ec);
    job.call("sweep.save_inputs", Json::array({ index, in.string() }));
    const fs::path runtime = selfDir() / "aotstudio-run";
    ProcessOptions po;
    po.timeoutSeconds = options.timeoutSeconds;
    std::vector<std::string> argv{runtime.string(), "--package", package, "--device", options.device, "--input",
                                  in.string(), "--save-outputs", out.string(), "--iters", "0", "--json"};
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
    const ProcessResult p = runProcess(argv, {}, po);
    fs::remove(in, ec);
    r["package_ms"] = p.wallMs;
    if (p.timedOut) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%g", options.timeoutSeconds);
        r["outcome"] = "hung";
        r["message"] = std::string("the isolated call (aotstudio-run, its start of about half a second included) did not end within ") +
                       seconds + " s; killed";
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
        compared = job.call("sweep.compare_file", Json::array({ index, out.string() }));
    } catch (const Python::FrontendException &e) { // an output file the frontend cannot read
        r["outcome"] = "error";
        r["message"] = std::string("cannot read the outputs aotstudio-run saved: ") + e.what();
    }
    fs::remove(out, ec);
    return compared;
}

} // namespace

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
    Json found;
    try {
        found = job.call("sweep.recorded", Json::array({folder, bound}));
    } catch (const Python::FrontendException &e) {
        throw JobFailed(e.error());
    }
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
    for (const int v : { point.varied, point.varied2 })
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
        job.call("sweep.drop", Json::array({ index }));
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
                runner.setInputs(job.callTensors("sweep.inputs", Json::array({ index })));
                const auto t0 = std::chrono::steady_clock::now();
                runner.run();
                r["package_ms"] = msSince(t0);
                if (point.inside) {
                    const auto outputs = runner.outputs();
                    compared = job.call("sweep.compare", Json::array({ index }), &outputs);
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
            r["message"] = std::string(options.isolate || runner.guards() ? "the package ran a shape outside what it accepts ("
                                                                           : "nothing refuses a shape outside what the package accepts (")
                + point.refusal + "): without a check its kernels read inputs of sizes they were not compiled for"
                + (options.isolate || runner.guards() ? "" : " (not run in the engine; --isolate runs it in a child process)");
        job.call("sweep.drop", Json::array({ index }));
    }
    const std::string outcome = r["outcome"].get<std::string>();
    r["ok"] = point.inside ? (outcome == "match" || outcome == "eager_error") : outcome == "refused";
    return r;
}

namespace {

/// The layout rows of one target (issue 34; FORMAT.md "sweep result", `layout`): at the example's
/// shapes, each tensor input in each other layout the front end can make of it (contiguous,
/// channels-last, a transpose, a slice of a wider tensor, a misaligned view: sweep.py
/// layout_variants()), the same values. The runner must refuse each by default, or run it when
/// its strides happen to be the package's and then match eager; with convert_layout it must copy
/// it and match eager. A silent run that differs from eager is the failure this guards against.
/// Rows: {input, variant, strides, refused (outcome by default: "refused" | "match" |
/// "mismatch" | "error"), converted ("match" | "mismatch" | "error"), message, ok}.
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

/// One package swept: its guards, plan and points.
struct Target {
    std::string name; ///< "package", or the bucket's name
    std::string package; ///< absolute path
    std::shared_ptr<const Bundle::InputGuards> guards;
    std::optional<long long> batch; ///< an exact bucket's batch: the example's first dimension
    std::string guardsOrigin; ///< where the guards came from, for the report
    /// A bundle bucket's shared weights (BUNDLE.md "Shared weights"), files as absolute paths.
    std::map<std::string, Bundle::BucketWeight> weights;
};

/// Load a target's package as the runtime would: with its bucket's shared weights.
std::unique_ptr<Runtime::AotiRunner> loadTarget(const std::string &package, const std::string &device,
                                                const std::map<std::string, Bundle::BucketWeight> &weights)
{
    Runtime::AotiRunner::LoadOptions options;
    options.weightFiles = weights;
    return Runtime::AotiRunner::load(package, device, options);
}

/// Guards that say "exactly these shapes" (a package without a guards record).
std::shared_ptr<const Bundle::InputGuards> staticGuards(const std::vector<std::vector<std::int64_t>> &shapes)
{
    Json inputs = Json::array();
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        Json dims = Json::array();
        for (std::size_t d = 0; d < shapes[i].size(); ++d)
            dims.push_back({ { "dim", d }, { "size", shapes[i][d] }, { "text", std::to_string(shapes[i][d]) } });
        inputs.push_back({ { "index", i }, { "name", "input" + std::to_string(i) }, { "rank", shapes[i].size() },
            { "dims", dims } });
    }
    return std::make_shared<Bundle::InputGuards>(Bundle::InputGuards::parse(
        Json { { "format", Bundle::kGuardsFormat }, { "version", 1 }, { "inputs", inputs } }, "the example's shapes"));
}

Json readJsonFile(const fs::path &path)
{
    std::ifstream in(path);
    return in ? Json::parse(in, nullptr, false) : Json();
}

void writeCsv(const fs::path &path, const Json &targets)
{
    Profiler::CsvTable csv({"target", "index", "values", "shapes", "expected", "outcome", "ok", "max_abs_error",
                            "eager_ms", "package_ms", "reasons", "message"});
    for (const auto &t : targets) {
        for (const auto &p : t.value("points", Json::array())) {
            std::string reasons;
            for (const auto &x : p.value("reasons", Json::array()))
                reasons += (reasons.empty() ? "" : "; ") + x.get<std::string>();
            std::vector<std::vector<std::int64_t>> shapes
                = p.value("shapes", std::vector<std::vector<std::int64_t>> {});
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

/// A sweep's counts and verdict from its rows: every target's `points` (each target's `counts`
/// is filled here) and a bundle's bucket-policy rows. The one way they are made, for a sweep run
/// here and for the shards of one run on Ray, merged. Returns {passed, failures, points, counts,
/// verdict}.
Json summarize(Json &targets, const Json &policy, bool bundle)
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

/// The `shard` of a sweep request ({"index": k, "count": n}, 0 <= k < n), or nullopt.
std::optional<std::pair<std::size_t, std::size_t>> shardOf(const Json &request)
{
    if (!request.contains("shard"))
        return std::nullopt;
    const Json &s = request["shard"];
    const bool ok = s.is_object() && s.value("index", Json()).is_number_integer()
        && s.value("count", Json()).is_number_integer() && s["count"].get<long long>() >= 1
        && s["index"].get<long long>() >= 0 && s["index"].get<long long>() < s["count"].get<long long>();
    if (!ok)
        throw JobFailed({"load", Protocol::Code::BadRequest,
                         "'shard' must be {\"index\": k, \"count\": n} with integers 0 <= k < n",
                         "e.g. {\"index\": 0, \"count\": 2}; a sweep with `ray` sets it for its own tasks"});
    return std::pair{static_cast<std::size_t>(s["index"].get<long long>()),
                     static_cast<std::size_t>(s["count"].get<long long>())};
}

/// Where a row was run (fanout.h): {host, device_name, node} onto it.
void label(Json &row, const Json &origin)
{
    for (const char *key : {"host", "device_name", "node"})
        row[key] = origin.value(key, Json());
}

} // namespace

/// A sweep's stages: a package or a bundle is swept from the start; a model is compiled first.
constexpr StageSpan kSweepStages[] = {{"sweep", 0.0, 1.0}};
constexpr StageSpan kSweepModelStages[] = {{"compile", 0.0, 0.5}, {"sweep", 0.5, 1.0}};

Json runSweep(std::int64_t id, const Json &request, const EventFn &emit, std::stop_token stop)
{
    const bool compiles = !request.contains("package") && !request.contains("bundle");
    const Job ctx(id, emit, std::move(stop),
                  compiles ? std::span<const StageSpan>(kSweepModelStages) : std::span<const StageSpan>(kSweepStages));
    const auto log = [&](const std::string &level, const std::string &message, const Json &msg = nullptr) {
        ctx.log(level, message, msg);
    };
    /// `within` (0..1) of the sweep stage.
    const auto progress = [&](double within, const std::string &message) { ctx.progress("sweep", within, message); };
    const auto bad = [](const std::string &message, const std::string &hint) {
        return JobFailed({ "load", Protocol::Code::BadRequest, message, hint });
    };
    for (const char *field : { "package", "bundle", "model", "out", "device" })
        if (request.contains(field) && !request[field].is_string())
            throw bad(std::string("'") + field + "' must be a string", "send a JSON string");
    for (const char *field : { "budget", "seed", "random_points" })
        if (request.contains(field) && !request[field].is_number_integer())
            throw bad(std::string("'") + field + "' must be an integer", "send a JSON integer");
    for (const char *field : { "pairwise", "outside", "isolate" })
        if (request.contains(field) && !request[field].is_boolean())
            throw bad(std::string("'") + field + "' must be true or false", "send a JSON boolean");
    if (request.contains("timeout") && !(request["timeout"].is_number() && request["timeout"].get<double>() > 0))
        throw bad("'timeout' must be a number of seconds above 0", "e.g. 60");
    const std::string outString = request.value("out", std::string());
    if (outString.empty())
        throw bad("sweep needs an output directory", "pass --out DIR");
    const int given = request.contains("package") + request.contains("bundle");
    if (given > 1)
        throw bad("sweep takes a package or a bundle, not both", "pass one of --package, --bundle");
    if (given == 0 && !request.contains("model"))
        throw bad("sweep needs a model, a package or a bundle", "pass --model SPEC, --package PATH or --bundle PATH");
    const int threads = applyThreads(request);
    const auto shard = shardOf(request);
    const std::string ray = rayAddress(request);
    if (!ray.empty() && shard)
        throw bad("'shard' and 'ray' together: a sweep with `ray` shards itself", "send one of them");
    if (request.contains("ray_shards")
        && !(request["ray_shards"].is_number_integer() && request["ray_shards"].get<long long>() >= 1
             && request["ray_shards"].get<long long>() <= 1024))
        throw bad("'ray_shards' must be an integer from 1 to 1024", "e.g. 4: one Ray task per cluster node");
    const std::size_t shards = request.value("ray_shards", std::size_t{kDefaultShards});

    Bundle::SweepBudget budget;
    budget.maxPoints = static_cast<std::size_t>(std::clamp(request.value("budget", 64), 1, 100000));
    budget.pairwise = request.value("pairwise", true);
    budget.outside = request.value("outside", true);
    budget.randomPerSymbol = static_cast<std::size_t>(std::clamp(request.value("random_points", 2), 0, 1000));
    budget.seed = request.value("seed", std::uint64_t { 0x5eed });
    PointOptions pointOptions;
    pointOptions.isolate = request.value("isolate", false);
    pointOptions.timeoutSeconds = request.value("timeout", 60.0);

    const fs::path out = fs::absolute(outString).lexically_normal();
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec)
        throw bad("cannot create '" + out.string() + "': " + ec.message(), "choose a writable --out");

    // A previous sweep's results never stay beside this one's failure: they are renamed first.
    for (const char *name : {"sweep.json", "sweep.csv"}) {
        const fs::path file = out / name;
        if (fs::exists(file, ec)) {
            fs::rename(file, out / (fs::path(name).stem().string() + ".previous" + fs::path(name).extension().string()), ec);
            if (ec)
                throw JobFailed({"load", Protocol::Code::BadRequest, "cannot move the previous " + file.string() + " aside: " + ec.message(),
                                 "choose another --out"});
        }
    }

    // 1. What to sweep, and the model it must agree with.
    Json compileRequest = Json::object(); // the fields the package was compiled with (model, dtype, dynamic, ...)
    bool recorded = false;                // they came from the package's result.json or the manifest
    std::vector<Target> targets;
    Bundle::OpenedBundle bundle;
    std::string kind;
    if (request.contains("bundle")) {
        kind = "bundle";
        const std::string name = request["bundle"].get<std::string>();
        std::optional<std::string> refusal;
        bool trustRefusal = false; // unsigned or foreign: lifted by allow_unsigned (else a broken signature)
        try {
            bundle = Bundle::openBundle(name);
            // Its packages are loaded here as aotstudio-run would: the same signature policy, with
            // the engine's $AOTSTUDIO_TRUST as the trust store (BUNDLE.md "Who may load a bundle").
            const auto trust = Bundle::TrustStore::load(Bundle::TrustStore::sourcesFromEnvironment());
            const auto check = Bundle::checkSignature(bundle, trust);
            refusal = Bundle::signatureRefusal(check, trust, request.value("allow_unsigned", false), name);
            trustRefusal = Bundle::refusalIsTrust(check);
        } catch (const Bundle::BundleError &e) {
            throw JobFailed(
                {"load", Protocol::Code::LoadFailed, e.what(), "pass a bundle written by aotstudio-cli export"});
        }
        if (refusal && !trustRefusal)
            throw JobFailed({"load", Protocol::Code::LoadFailed, *refusal,
                             "the manifest changed after it was signed: export the bundle again"});
        if (refusal) // the client may ask its user and send the request again with allow_unsigned
            throw JobFailed({"load", Protocol::Code::Untrusted, *refusal,
                             "load it only if you know who made it: allow_unsigned (CLI --allow-unsigned; the studio "
                             "asks), or add the signer's public key to the engine's $AOTSTUDIO_TRUST"});
        // What the bundle was built for against this engine's torch, CPU and GPU (BUNDLE.md
        // "Compatibility key"), before any of its native code is loaded.
        {
            const bool cuda = Runtime::cudaAvailable();
            const auto why = Bundle::checkCompatible(
                bundle.manifest,
                Bundle::Host::current(Runtime::libtorchVersion(), cuda, cuda ? Runtime::cudaComputeCapability(0) : ""));
            if (!why.empty())
                throw JobFailed({"load", Protocol::Code::Incompatible, "bundle '" + name + "': " + why.front(),
                                 "export it again for this engine's torch and machine"});
        }
        compileRequest = {{"model", bundle.manifest.model}, {"device", bundle.manifest.device}};
        recorded = true;
        if (const Json opt = bundle.manifest.raw.value("options", Json()); opt.is_object())
            for (const char *k : { "dtype", "freezing" })
                if (opt.contains(k))
                    compileRequest[k] = opt[k];
        for (std::size_t i = 0; i < bundle.manifest.buckets.size(); ++i) {
            const auto &b = bundle.manifest.buckets[i];
            targets.push_back({b.name, (bundle.root / b.package).string(), b.guards, b.batch,
                               "manifest.json buckets[" + std::to_string(i) + "].guards", b.weightsUnder(bundle.root)});
        }
    } else if (request.contains("package")) {
        kind = "package";
        const fs::path package = fs::absolute(request["package"].get<std::string>()).lexically_normal();
        if (!fs::is_regular_file(package, ec))
            throw JobFailed({ "load", Protocol::Code::LoadFailed, "package '" + package.string() + "' does not exist",
                "pass --package the .pt2 written by compile or export" });
        const Json compiled = readJsonFile(package.parent_path() / "result.json");
        if (compiled.is_object()) {
            recorded = true;
            compileRequest = { { "model", compiled.value("model", std::string()) },
                { "device", compiled.value("device", std::string("cpu")) } };
            if (const Json opt = compiled.value("options", Json()); opt.is_object())
                for (const char *k : {"dtype", "freezing", "dynamic", "shapes", "batch", "dynamic_batch"})
                    if (opt.contains(k) && !opt[k].is_null())
                        compileRequest[k] = opt[k];
            if (compiled.contains("tolerance") && compiled["tolerance"].is_number())
                compileRequest["tolerance"] = compiled["tolerance"];
        }
        Target t { "package", package.string(), nullptr, std::nullopt, "" };
        if (compiled.is_object() && compiled.value("batch", Json()).is_number_integer())
            t.batch = compiled["batch"].get<long long>(); // an export bucket's package: compiled at that batch
        try {
            if (auto g = Bundle::InputGuards::loadSidecar(package)) {
                t.guards = std::make_shared<Bundle::InputGuards>(std::move(*g));
                t.guardsOrigin = Bundle::InputGuards::sidecarPath(package).string();
            } else if (compiled.is_object() && compiled.value("guards", Json()).is_object()) {
                t.guards = std::make_shared<Bundle::InputGuards>(
                    Bundle::InputGuards::parse(compiled["guards"], "result.json guards"));
                t.guardsOrigin = (package.parent_path() / "result.json").string();
            }
        } catch (const Bundle::BundleError &e) {
            throw JobFailed({ "load", Protocol::Code::LoadFailed, e.what(),
                "recompile the package, or remove the broken guards file" });
        }
        targets.push_back(std::move(t));
    } else {
        kind = "model";
        Json r = request;
        for (const char *k : {"budget", "pairwise", "outside", "isolate", "timeout", "seed", "random_points", "ray",
                              "ray_shards", "shard"})
            r.erase(k);
        r["out"] = (out / "compile").string();
        r["measure"] = false;
        const Json compiled = runCompileAsPart(ctx, r, 0.5);
        writeJsonAtomic(out / "compile" / "result.json", compiled);
        compileRequest = r;
        Target t { "package", compiled.value("package", ""), nullptr, std::nullopt, "the compile's guards" };
        if (compiled.value("guards", Json()).is_object())
            t.guards = std::make_shared<Bundle::InputGuards>(
                Bundle::InputGuards::parse(compiled["guards"], "the compile's guards"));
        targets.push_back(std::move(t));
    }
    if (request.contains("model"))
        compileRequest["model"] = request["model"];
    // What the package was compiled with, when its result.json is not there to say (a package
    // that failed verification, one from elsewhere): the request's own compile fields.
    for (const char *k : {"dtype", "dynamic", "freezing"}) {
        if (kind == "model" || !request.contains(k))
            continue;
        if (recorded)
            log("warning",
                std::string("sweep: '") + k + "' is ignored: the package's "
                    + (kind == "bundle" ? "manifest" : "result.json") + " says what it was compiled with");
        else
            compileRequest[k] = request[k];
    }
    if (request.contains("device"))
        compileRequest["device"] = request["device"];
    if (request.contains("tolerance"))
        compileRequest["tolerance"] = request["tolerance"];
    if (compileRequest.value("model", std::string()).empty())
        throw bad("no model to compare the package with: there is no result.json beside it", "pass --model SPEC too");
    // A factory recorded by a compile run elsewhere (a relative path from another folder).
    if (const std::string spec = compileRequest.value("model", std::string()); !request.contains("model") && kind != "model") {
        const auto colon = spec.rfind(':');
        const std::string file = colon == std::string::npos ? std::string() : spec.substr(0, colon);
        if (file.size() > 3 && file.compare(file.size() - 3, 3, ".py") == 0 && !fs::exists(file, ec))
            throw JobFailed({"load", Protocol::Code::UnknownModel,
                             "the " + std::string(kind == "bundle" ? "bundle's manifest" : "package's result.json") + " names the model '" +
                                 spec + "', and '" + file + "' is not found from " + fs::current_path(ec).string(),
                             "a relative path is relative to where the compile ran: pass --model with the factory's path from here"});
    }
    const std::string device = compileRequest.value("device", std::string("cpu"));
    pointOptions.device = device;
    if (device == "cuda" && !Runtime::cudaAvailable())
        throw JobFailed(
            { "load", Protocol::Code::NoDevice, "the package is for CUDA and LibTorch sees no usable GPU here",
                "sweep it on a machine with an NVIDIA GPU" });
    if (pointOptions.isolate && !fs::exists(selfDir() / "aotstudio-run", ec))
        throw JobFailed(
            { "load", Protocol::Code::BadRequest, "--isolate needs aotstudio-run next to " + selfDir().string(),
                "install aotstudio-run beside the engine, or sweep without --isolate" });

    // The result from the rows (each target's points, a bundle's policy rows), written as
    // sweep.json and sweep.csv: the same for a sweep run here and for the shards of one on Ray.
    const auto finish = [&](Json targetsJson, Json policy, const Json &threadsUsed, Json extra) {
        const Json summary = summarize(targetsJson, policy, kind == "bundle");
        const std::string verdict = summary["verdict"].get<std::string>();
        log(summary["failures"].get<int>() ? "warning" : "info", "sweep " + verdict);
        Json result{{"format", kFormat},
                    {"version", kVersion},
                    {"kind", kind},
                    {"model", compileRequest.value("model", std::string())},
                    {"device", device},
                    {"out", out.string()},
                    {"threads", threadsUsed},
                    {"isolate", pointOptions.isolate},
                    {"budget",
                     {{"points", budget.maxPoints},
                      {"pairwise", budget.pairwise},
                      {"outside", budget.outside},
                      {"random_points", budget.randomPerSymbol},
                      {"seed", budget.seed}}},
                    {"tolerance", compileRequest.value("tolerance", Json())},
                    {"targets", targetsJson},
                    {"policy", policy},
                    {"sweep_json", (out / "sweep.json").string()},
                    {"sweep_csv", (out / "sweep.csv").string()}};
        result.update(summary);
        result.update(extra);
        writeJsonAtomic(out / "sweep.json", result);
        writeCsv(out / "sweep.csv", result["targets"]);
        return result;
    };

    if (!ray.empty()) {
        // 2'. On Ray: the same sweep in `shards` tasks, each a whole engine running the points
        // whose index is its own (`shard`), on the package this engine has (sent with the tasks:
        // the workers need not see this disk); their rows merged here in plan order.
        Json sub = Json::object();
        // from_capture: the folder must be on the workers' shared file system (not shipped).
        for (const char *k : {"budget", "pairwise", "outside", "isolate", "timeout", "seed", "random_points", "threads",
                              "tolerance", "device", "from_capture", "capture_shapes"})
            if (request.contains(k))
                sub[k] = request[k];
        if (kind != "model" && !recorded)
            for (const char *k : {"dtype", "dynamic", "freezing"})
                if (request.contains(k))
                    sub[k] = request[k];
        sub["model"] = absoluteModelSpec(compileRequest.value("model", std::string()));
        sub["type"] = "sweep";
        sub["id"] = 1;
        std::vector<fs::path> send;
        if (kind == "bundle") {
            const fs::path path = fs::absolute(request["bundle"].get<std::string>()).lexically_normal();
            sub["bundle"] = path.string();
            // Checked here against this engine's trust store; the workers sweep the same bytes.
            sub["allow_unsigned"] = true;
            send.push_back(path);
        } else {
            const fs::path package = targets.front().package;
            sub["package"] = package.string();
            send.push_back(package);
            for (const fs::path &beside :
                 {package.parent_path() / "result.json", Bundle::InputGuards::sidecarPath(package)})
                if (fs::exists(beside, ec))
                    send.push_back(beside);
        }
        std::vector<SubRequest> subs;
        for (std::size_t k = 0; k < shards; ++k) {
            Json r = sub;
            r["shard"] = {{"index", k}, {"count", shards}};
            const std::string name = "shard" + std::to_string(k);
            subs.push_back({Json{{"shard", name}}, r, "", out / "shards" / name, send});
        }
        const double begin = compiles ? 0.5 : 0.0;
        const auto outcomes = runOnRay(ctx, begin, 1.0 - begin, ray, subs, device);
        Json targetsJson, policy = Json::array(), threadsUsed;
        for (std::size_t k = 0; k < outcomes.size(); ++k) {
            const auto &o = outcomes[k];
            const std::string host = o.origin.value("host", std::string());
            const std::string where = "shard " + std::to_string(k) + " of " + std::to_string(shards)
                + (host.empty() ? std::string(" (on Ray)") : " (on Ray host " + host + ")");
            if (o.error) { // its points are missing: no verdict can be given
                Protocol::Error e = *o.error;
                e.message = where + ": " + e.message;
                throw JobFailed(e);
            }
            Json shardTargets = o.result.value("targets", Json::array());
            if (shardTargets.size() != targets.size())
                throw JobFailed({"sweep", Protocol::Code::Internal,
                                 where + " swept " + std::to_string(shardTargets.size())
                                     + " packages, this engine planned " + std::to_string(targets.size()),
                                 "the workers must run the same studio as this engine"});
            if (targetsJson.is_null())
                targetsJson = shardTargets; // names, guards and plans: the same in every shard
            for (std::size_t t = 0; t < targets.size(); ++t) {
                if (k == 0)
                    targetsJson[t]["points"] = Json::array();
                for (auto p : shardTargets[t].value("points", Json::array())) {
                    label(p, o.origin);
                    targetsJson[t]["points"].push_back(std::move(p));
                }
            }
            for (auto row : o.result.value("policy", Json::array())) {
                label(row, o.origin);
                policy.push_back(std::move(row));
            }
            const Json th = o.result.value("threads", Json());
            threadsUsed = k == 0 || threadsUsed == th ? th : Json("mixed");
        }
        for (std::size_t t = 0; t < targets.size(); ++t) {
            auto &points = targetsJson[t]["points"];
            std::stable_sort(points.begin(), points.end(),
                             [](const Json &a, const Json &b) { return a.value("index", 0) < b.value("index", 0); });
            targetsJson[t]["package"] = targets[t].package; // this engine's path, not a worker's
        }
        std::stable_sort(policy.begin(), policy.end(),
                         [](const Json &a, const Json &b) { return a.value("batch", 0LL) < b.value("batch", 0LL); });
        Json labels = Json::array();
        for (const auto &o : outcomes)
            labels.push_back(o.origin);
        return finish(std::move(targetsJson), std::move(policy), threadsUsed.is_string() ? Json() : threadsUsed,
                      {{"ray", {{"address", ray}, {"shards", shards}, {"several_hosts", severalHosts(labels)}}},
                       {"shard", nullptr}});
    }

    try {
        // 2. The eager model and its example inputs (as compiled: the same resizing of 0/1 sizes).
        Json jobRequest = compileRequest;
        jobRequest["out"] = out.string();
        jobRequest.erase("batch"); // each target sets its own example batch below
        Python::CompileJob job(jobRequest, log, [&](const Json &e) { ctx.sendEvent(e); });
        progress(0.0, "building the model and example inputs");
        job.load();
        const auto exampleShapes = job.call("sweep_begin").get<std::vector<std::vector<std::int64_t>>>();
        // Shapes from real traffic join every target's plan (a bundle bucket: those it accepts).
        Json captureSummary;
        const auto recorded = recordedShapes(job, request, captureSummary);
        if (captureSummary.is_object()) // null without from_capture: value() would throw on it
            for (const auto &n : captureSummary.value("notes", Json::array()))
                log("warning", "sweep: " + n.get<std::string>());

        pointOptions.scratch = out / (".sweep-" + std::to_string(::getpid()));
        if (pointOptions.isolate)
            fs::create_directories(pointOptions.scratch, ec);

        // 3. Every target: plan, then each point. A shard runs the points whose global index g
        // (over every target's plan in order, then a bundle's policy rows) has g % count == index.
        const auto mine = [&](std::size_t g) { return !shard || g % shard->second == shard->first; };
        const Json here = localOrigin(device);
        Json targetsJson = Json::array();
        std::vector<std::pair<Target *, Bundle::SweepPlan>> plans;
        std::size_t allPoints = 0;
        for (auto &t : targets) {
            auto example = exampleShapes;
            if (t.batch)
                for (auto &s : example)
                    if (!s.empty())
                        s[0] = *t.batch;
            if (!t.guards) {
                t.guards = staticGuards(example);
                t.guardsOrigin = "none recorded: the example's shapes are taken as the only ones";
                log("warning",
                    "sweep: " + t.package + " has no guards record (model.guards.json): it is checked as static at "
                        + shapesText(example));
            }
            Bundle::SweepPlan plan;
            auto targetBudget = budget;
            for (const auto &r : recorded)
                if (kind != "bundle" || !t.guards->check(r.shapes))
                    targetBudget.recorded.push_back(r);
            try {
                plan = Bundle::planSweep(*t.guards, example, targetBudget);
            } catch (const Bundle::BundleError &e) {
                throw JobFailed(
                    { "load", Protocol::Code::LoadFailed, std::string(e.what()) + " (" + t.guardsOrigin + ")",
                        "the package was compiled from another model; pass the right --model" });
            }
            allPoints += plan.points.size();
            plans.emplace_back(&t, std::move(plan));
        }
        std::size_t done = 0, g = 0, myPoints = 0;
        for (std::size_t i = 0; i < allPoints; ++i)
            myPoints += mine(i) ? 1 : 0;
        for (auto &[t, plan] : plans) {
            std::unique_ptr<Runtime::AotiRunner> runner;
            try {
                // The runner checks what a deployed one would: a bundle's manifest guards, or the
                // package's own sidecar (AotiRunner::load); a package without one checks nothing.
                runner = loadTarget(t->package, device, t->weights);
                if (kind == "bundle")
                    runner->setGuards(t->guards);
            } catch (const Runtime::RuntimeError &e) {
                throw JobFailed({ "load_package", Protocol::Code::LoadFailed, e.what(),
                    "the package may be for another device or torch version; recompile it here" });
            }
            log("info",
                "sweep " + t->name + ": " + t->guards->describe() + "; " + std::to_string(plan.points.size())
                    + " shapes (" + std::to_string(plan.single) + " varying one dimension, "
                    + std::to_string(plan.pairs) + " pairwise, " + std::to_string(plan.leftOut) + " left out)");
            for (const auto &note : plan.notes)
                log("info", "sweep " + t->name + ": " + note);
            PointOptions targetOptions = pointOptions;
            if (kind == "bundle") { // isolated calls run the bucket from the bundle, as deployed
                targetOptions.bundle = bundle.root;
                targetOptions.bucket = t->name;
                targetOptions.allowUnsigned = request.value("allow_unsigned", false);
            }
            Json points = Json::array();
            for (std::size_t i = 0; i < plan.points.size(); ++i) {
                if (!mine(g++))
                    continue;
                ctx.checkStop("sweep");
                const auto &p = plan.points[i];
                progress(static_cast<double>(done) / static_cast<double>(std::max<std::size_t>(myPoints, 1)),
                         t->name + ": " + shapesText(p.shapes));
                Json r = runPoint(job, *runner, static_cast<int>(i), p, plan, *t->guards, targetOptions);
                label(r, here);
                ++done;
                const std::string outcome = r["outcome"].get<std::string>();
                if (!r["ok"].get<bool>()) {
                    log("warning",
                        "sweep " + t->name + " " + shapesText(p.shapes) + " (" + valuesText(r["values"])
                            + "): " + outcome
                            + (r["message"].get<std::string>().empty() ? "" : ": " + r["message"].get<std::string>()));
                } else if (outcome == "eager_error") {
                    log("info",
                        "sweep " + t->name + " " + shapesText(p.shapes)
                            + ": the model itself fails here: " + r["message"].get<std::string>());
                }
                points.push_back(std::move(r));
            }
            // The example's shapes in other layouts: refused or copied, never a silent wrong result.
            // Only where the runner has guards to check (a package without a record checks nothing)
            // and in the shard that has the example.
            Json layout = Json::array();
            if (runner->guards() && !plan.points.empty() && (!shard || shard->first == 0)) {
                ctx.checkStop("sweep");
                progress(static_cast<double>(done) / static_cast<double>(std::max<std::size_t>(myPoints, 1)),
                         t->name + ": layouts");
                layout = layoutRows(job, *runner, plan.points.front().shapes, 1 << 21);
                for (auto &row : layout) {
                    label(row, here);
                    if (!row["ok"].get<bool>())
                        log("warning",
                            "sweep " + t->name + " layout: input " + row["input"].dump() + " "
                                + row["variant"].get<std::string>() + ": " + row.value("default", "") + " / converted "
                                + row.value("converted", "") + ": " + row["message"].get<std::string>());
                }
            }
            Json symbols = Json::array();
            const auto syms = t->guards->symbols();
            for (std::size_t s = 0; s < syms.size(); ++s)
                symbols.push_back({ { "symbol", syms[s].id }, { "label", syms[s].label },
                    { "min", syms[s].min ? Json(*syms[s].min) : Json() },
                    { "max", syms[s].max ? Json(*syms[s].max) : Json() }, { "example", plan.example[s] },
                    { "upper_tried", plan.upper[s] } });
            targetsJson.push_back({{"name", t->name},
                                   {"package", t->package},
                                   {"guards", t->guards->describe()},
                                   {"guards_origin", t->guardsOrigin},
                                   {"dynamic", t->guards->isDynamic()},
                                   {"unchecked_guards", t->guards->uncheckedCount()},
                                   {"symbols", symbols},
                                   {"plan",
                                    {{"points", plan.points.size()},
                                     {"single", plan.single},
                                     {"pairs", plan.pairs},
                                     {"recorded", plan.recorded},
                                     {"left_out", plan.leftOut},
                                     {"notes", plan.notes}}},
                                   {"points", std::move(points)},
                                   {"layout", std::move(layout)}});
        }
        fs::remove_all(pointOptions.scratch, ec);

        // 4. A bundle's bucket policy (BUNDLE.md "Choosing a bucket") across batch sizes: each
        // batch in the bucket aotstudio-run would pick, padded as it would pad, against eager at
        // the real batch (padding must not change the real rows' outputs).
        Json policy = Json::array();
        if (kind == "bundle") {
            const auto &m = bundle.manifest;
            std::set<long long> batches { 1 };
            for (const auto &b : m.buckets) {
                for (const long long v : b.batch
                        ? std::vector<long long> { *b.batch - 1, *b.batch, *b.batch + 1 }
                        : std::vector<long long> { b.batchMin - 1, b.batchMin, b.batchMax, b.batchMax + 1 })
                    if (v >= 1)
                        batches.insert(v);
            }
            std::map<std::string, std::unique_ptr<Runtime::AotiRunner>> runners;
            int index = 1 << 20; // apart from the targets' points
            for (const long long batch : batches) {
                if (!mine(g++))
                    continue;
                ctx.checkStop("sweep");
                progress(1.0, "bucket policy: batch " + std::to_string(batch));
                Json row { { "batch", batch }, { "bucket", nullptr }, { "padded", false }, { "pad_to", nullptr },
                    { "message", "" } };
                Bundle::BucketChoice choice;
                try {
                    choice = Bundle::chooseBucket(m, batch);
                } catch (const Bundle::BundleError &e) {
                    row["outcome"] = "refused";
                    row["message"] = e.what();
                    row["ok"] = true; // no bucket answers it, and aotstudio-run says so
                    label(row, here);
                    policy.push_back(std::move(row));
                    continue;
                }
                row["bucket"] = choice.bucket.name;
                row["padded"] = choice.padded;
                row["pad_to"] = choice.padTo;
                auto shapes = exampleShapes;
                for (auto &sh : shapes)
                    if (!sh.empty())
                        sh[0] = batch;
                ++index;
                const Json prepared = job.call("sweep.prepare", Json::array({ index, shapes, true }));
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
                        runner->setInputs(
                            job.callTensors("sweep.inputs", Json::array({ index, choice.padded ? choice.padTo : -1 })));
                        runner->run();
                        const auto outputs = runner->outputs();
                        const Json compared = job.call("sweep.compare", Json::array({ index }), &outputs);
                        row["outcome"] = compared.value("outcome", "error");
                        row["message"] = compared.value("message", "");
                        row["max_abs_error"] = compared.value("max_abs_error", Json());
                        if (choice.padded && row["outcome"] == "mismatch")
                            row["message"] = "padded to " + std::to_string(choice.padTo)
                                + " rows, the real rows' outputs differ from eager: "
                                + row["message"].get<std::string>()
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
                job.call("sweep.drop", Json::array({ index }));
                const std::string outcome = row["outcome"].get<std::string>();
                row["ok"] = outcome == "match" || outcome == "eager_error";
                label(row, here);
                if (!row["ok"].get<bool>()) {
                    log("warning",
                        "sweep bucket policy, batch " + std::to_string(batch) + " in " + choice.bucket.name + ": "
                            + outcome + ": " + row["message"].get<std::string>());
                }
                policy.push_back(std::move(row));
            }
        }
        return finish(std::move(targetsJson), std::move(policy), threads,
                      {{"shard", shard ? Json{{"index", shard->first}, {"count", shard->second}} : Json()},
                       {"ray", nullptr},
                       {"capture", captureSummary}});
    } catch (const Python::FrontendException &e) {
        fs::remove_all(pointOptions.scratch, ec);
        if (!e.details().empty())
            log("debug", e.details());
        Protocol::Error error = e.error();
        if (error.stage == "measure") // CompileJob::call's stage for failures that are not the frontend's own
            error.stage = "sweep";
        throw JobFailed(error);
    } catch (const JobFailed &) {
        fs::remove_all(pointOptions.scratch, ec);
        throw;
    }
}

} // namespace AotStudio::Pipeline
