// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/sweepjob.h"
#include "pipeline/compilejob.h"
#include "pipeline/fanout.h"
#include "pipeline/jobutil.h"
#include "pipeline/measurement.h"
#include "pipeline/sweepsteps.h"

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
using namespace SweepSteps;

namespace {

constexpr const char *kFormat = "aotstudio.sweep";
constexpr int kVersion = 1;
/// Shards of a sweep with `ray` and no `ray_shards`: each is a whole engine (its start and the
/// model's load cost seconds, a point milliseconds), so a few, not one per point.
constexpr std::size_t kDefaultShards = 2;

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

/// A sweep's stages: a package or a bundle is swept from the start; a model is compiled first.
constexpr StageSpan kSweepStages[] = {{"sweep", 0.0, 1.0}};
constexpr StageSpan kSweepModelStages[] = {{"compile", 0.0, 0.5}, {"sweep", 0.5, 1.0}};

/// A JobFailed of a bad request (stage "load", code bad_request).
JobFailed badRequest(const std::string &message, const std::string &hint)
{
    return JobFailed({"load", Protocol::Code::BadRequest, message, hint});
}

/// What a sweep request asks for, checked (FORMAT.md "sweep"). Its out folder is created and a
/// previous sweep's sweep.json / sweep.csv moved aside (*.previous.*), so they never stay beside
/// this one's failure. Throws JobFailed(bad_request) naming the field.
struct SweepSettings {
    fs::path out; ///< absolute
    int threads = 0; ///< applyThreads()
    std::optional<std::pair<std::size_t, std::size_t>> shard; ///< (index, count) of a Ray task
    std::string ray; ///< the Ray address, "" to run here
    std::size_t shards = kDefaultShards; ///< tasks of a sweep on Ray
    Bundle::SweepBudget budget;
    PointOptions pointOptions;
};

SweepSettings readSweepRequest(const Json &request)
{
    for (const char *field : {"package", "bundle", "model", "out", "device"})
        if (request.contains(field) && !request[field].is_string())
            throw badRequest(std::string("'") + field + "' must be a string", "send a JSON string");
    for (const char *field : {"budget", "seed", "random_points"})
        if (request.contains(field) && !request[field].is_number_integer())
            throw badRequest(std::string("'") + field + "' must be an integer", "send a JSON integer");
    for (const char *field : {"pairwise", "outside", "isolate"})
        if (request.contains(field) && !request[field].is_boolean())
            throw badRequest(std::string("'") + field + "' must be true or false", "send a JSON boolean");
    if (request.contains("timeout") && !(request["timeout"].is_number() && request["timeout"].get<double>() > 0))
        throw badRequest("'timeout' must be a number of seconds above 0", "e.g. 60");
    const std::string outString = request.value("out", std::string());
    if (outString.empty())
        throw badRequest("sweep needs an output directory", "pass --out DIR");
    const int given = request.contains("package") + request.contains("bundle");
    if (given > 1)
        throw badRequest("sweep takes a package or a bundle, not both", "pass one of --package, --bundle");
    if (given == 0 && !request.contains("model"))
        throw badRequest("sweep needs a model, a package or a bundle",
                         "pass --model SPEC, --package PATH or --bundle PATH");
    SweepSettings s;
    s.threads = applyThreads(request);
    s.shard = shardOf(request);
    s.ray = rayAddress(request);
    if (!s.ray.empty() && s.shard)
        throw badRequest("'shard' and 'ray' together: a sweep with `ray` shards itself", "send one of them");
    if (request.contains("ray_shards")
        && !(request["ray_shards"].is_number_integer() && request["ray_shards"].get<long long>() >= 1
             && request["ray_shards"].get<long long>() <= 1024))
        throw badRequest("'ray_shards' must be an integer from 1 to 1024", "e.g. 4: one Ray task per cluster node");
    s.shards = request.value("ray_shards", std::size_t{kDefaultShards});

    s.budget.maxPoints = static_cast<std::size_t>(std::clamp(request.value("budget", 64), 1, 100000));
    s.budget.pairwise = request.value("pairwise", true);
    s.budget.outside = request.value("outside", true);
    s.budget.randomPerSymbol = static_cast<std::size_t>(std::clamp(request.value("random_points", 2), 0, 1000));
    s.budget.seed = request.value("seed", std::uint64_t{0x5eed});
    s.pointOptions.isolate = request.value("isolate", false);
    s.pointOptions.timeoutSeconds = request.value("timeout", 60.0);

    s.out = fs::absolute(outString).lexically_normal();
    std::error_code ec;
    fs::create_directories(s.out, ec);
    if (ec)
        throw badRequest("cannot create '" + s.out.string() + "': " + ec.message(), "choose a writable --out");
    for (const char *name : {"sweep.json", "sweep.csv"}) {
        const fs::path file = s.out / name;
        if (fs::exists(file, ec)) {
            fs::rename(
                file, s.out / (fs::path(name).stem().string() + ".previous" + fs::path(name).extension().string()), ec);
            if (ec)
                throw badRequest("cannot move the previous " + file.string() + " aside: " + ec.message(),
                                 "choose another --out");
        }
    }
    return s;
}

/// What a sweep runs (its targets) and the model they must agree with (`compileRequest`: the
/// fields the packages were compiled with: model, device, dtype, dynamic, …).
struct SweepSubject {
    std::string kind; ///< "bundle", "package" or "model"
    Json compileRequest = Json::object();
    bool recorded = false; ///< compileRequest came from the package's result.json or the manifest
    std::vector<Target> targets;
    Bundle::OpenedBundle bundle; ///< kind "bundle" only
    std::string device; ///< compileRequest's device, "cpu" when none
};

/// A bundle's buckets, after its signature (BUNDLE.md "Who may load a bundle") and compatibility
/// key ("Compatibility key") are checked as aotstudio-run would, before any native code is loaded.
/// Throws JobFailed: load_failed, untrusted (allow_unsigned lifts it), incompatible.
SweepSubject openBundleSubject(const Json &request)
{
    SweepSubject s;
    s.kind = "bundle";
    const std::string name = request["bundle"].get<std::string>();
    std::optional<std::string> refusal;
    bool trustRefusal = false; // unsigned or foreign: lifted by allow_unsigned (else a broken signature)
    try {
        s.bundle = Bundle::openBundle(name);
        // The engine's $AOTSTUDIO_TRUST is the trust store.
        const auto trust = Bundle::TrustStore::load(Bundle::TrustStore::sourcesFromEnvironment());
        const auto check = Bundle::checkSignature(s.bundle, trust);
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
    const bool cuda = Runtime::cudaAvailable();
    const auto why = Bundle::checkCompatible(
        s.bundle.manifest,
        Bundle::Host::current(Runtime::libtorchVersion(), cuda, cuda ? Runtime::cudaComputeCapability(0) : ""));
    if (!why.empty())
        throw JobFailed({"load", Protocol::Code::Incompatible, "bundle '" + name + "': " + why.front(),
                         "export it again for this engine's torch and machine"});
    s.compileRequest = {{"model", s.bundle.manifest.model}, {"device", s.bundle.manifest.device}};
    s.recorded = true;
    if (const Json opt = s.bundle.manifest.raw.value("options", Json()); opt.is_object())
        for (const char *k : {"dtype", "freezing"})
            if (opt.contains(k))
                s.compileRequest[k] = opt[k];
    for (std::size_t i = 0; i < s.bundle.manifest.buckets.size(); ++i) {
        const auto &b = s.bundle.manifest.buckets[i];
        s.targets.push_back({b.name, (s.bundle.root / b.package).string(), b.guards, b.batch,
                             "manifest.json buckets[" + std::to_string(i) + "].guards", b.weightsUnder(s.bundle.root)});
    }
    return s;
}

/// A package (.pt2) with what its result.json beside it recorded (model, options, tolerance,
/// batch) and its guards (model.guards.json sidecar, else result.json's). Throws JobFailed
/// load_failed for a missing package or a broken guards record.
SweepSubject openPackageSubject(const Json &request)
{
    SweepSubject s;
    s.kind = "package";
    std::error_code ec;
    const fs::path package = fs::absolute(request["package"].get<std::string>()).lexically_normal();
    if (!fs::is_regular_file(package, ec))
        throw JobFailed({"load", Protocol::Code::LoadFailed, "package '" + package.string() + "' does not exist",
                         "pass --package the .pt2 written by compile or export"});
    const Json compiled = readJsonFile(package.parent_path() / "result.json");
    if (compiled.is_object()) {
        s.recorded = true;
        s.compileRequest = {{"model", compiled.value("model", std::string())},
                            {"device", compiled.value("device", std::string("cpu"))}};
        if (const Json opt = compiled.value("options", Json()); opt.is_object())
            for (const char *k : {"dtype", "freezing", "dynamic", "shapes", "batch", "dynamic_batch"})
                if (opt.contains(k) && !opt[k].is_null())
                    s.compileRequest[k] = opt[k];
        if (compiled.contains("tolerance") && compiled["tolerance"].is_number())
            s.compileRequest["tolerance"] = compiled["tolerance"];
    }
    Target t{"package", package.string(), nullptr, std::nullopt, ""};
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
        throw JobFailed(
            {"load", Protocol::Code::LoadFailed, e.what(), "recompile the package, or remove the broken guards file"});
    }
    s.targets.push_back(std::move(t));
    return s;
}

/// The request's model compiled first (the job's "compile" stage, into OUT/compile), then swept.
SweepSubject compileModelSubject(const Job &ctx, const Json &request, const fs::path &out)
{
    SweepSubject s;
    s.kind = "model";
    Json r = request;
    for (const char *k :
         {"budget", "pairwise", "outside", "isolate", "timeout", "seed", "random_points", "ray", "ray_shards", "shard"})
        r.erase(k);
    r["out"] = (out / "compile").string();
    r["measure"] = false;
    const Json compiled = runCompileAsPart(ctx, r, 0.5);
    writeJsonAtomic(out / "compile" / "result.json", compiled);
    s.compileRequest = r;
    Target t{"package", compiled.value("package", ""), nullptr, std::nullopt, "the compile's guards"};
    if (compiled.value("guards", Json()).is_object())
        t.guards = std::make_shared<Bundle::InputGuards>(
            Bundle::InputGuards::parse(compiled["guards"], "the compile's guards"));
    s.targets.push_back(std::move(t));
    return s;
}

/// The subject the request names, its compile fields completed from the request where the
/// package did not record them, and checked: a model to compare with, a recorded factory that
/// exists from here, a usable device, aotstudio-run beside the engine for `isolate`.
SweepSubject openSubject(const Job &ctx, const Json &request, const SweepSettings &settings)
{
    SweepSubject s = request.contains("bundle") ? openBundleSubject(request)
        : request.contains("package")           ? openPackageSubject(request)
                                                : compileModelSubject(ctx, request, settings.out);
    if (request.contains("model"))
        s.compileRequest["model"] = request["model"];
    // What the package was compiled with, when its result.json is not there to say (a package
    // that failed verification, one from elsewhere): the request's own compile fields.
    for (const char *k : {"dtype", "dynamic", "freezing"}) {
        if (s.kind == "model" || !request.contains(k))
            continue;
        if (s.recorded)
            ctx.log("warning",
                    std::string("sweep: '") + k + "' is ignored: the package's "
                        + (s.kind == "bundle" ? "manifest" : "result.json") + " says what it was compiled with");
        else
            s.compileRequest[k] = request[k];
    }
    for (const char *k : {"device", "tolerance"})
        if (request.contains(k))
            s.compileRequest[k] = request[k];
    const std::string spec = s.compileRequest.value("model", std::string());
    if (spec.empty())
        throw badRequest("no model to compare the package with: there is no result.json beside it",
                         "pass --model SPEC too");
    // A factory recorded by a compile run elsewhere (a relative path from another folder).
    std::error_code ec;
    if (!request.contains("model") && s.kind != "model") {
        const auto colon = spec.rfind(':');
        const std::string file = colon == std::string::npos ? std::string() : spec.substr(0, colon);
        if (file.size() > 3 && file.compare(file.size() - 3, 3, ".py") == 0 && !fs::exists(file, ec))
            throw JobFailed({"load", Protocol::Code::UnknownModel,
                             "the " + std::string(s.kind == "bundle" ? "bundle's manifest" : "package's result.json")
                                 + " names the model '" + spec + "', and '" + file + "' is not found from "
                                 + fs::current_path(ec).string(),
                             "a relative path is relative to where the compile ran: pass --model with the factory's "
                             "path from here"});
    }
    s.device = s.compileRequest.value("device", std::string("cpu"));
    if (s.device == "cuda" && !Runtime::cudaAvailable())
        throw JobFailed({"load", Protocol::Code::NoDevice,
                         "the package is for CUDA and LibTorch sees no usable GPU here",
                         "sweep it on a machine with an NVIDIA GPU"});
    if (settings.pointOptions.isolate && !fs::exists(selfDir() / "aotstudio-run", ec))
        throw JobFailed({"load", Protocol::Code::BadRequest,
                         "--isolate needs aotstudio-run next to " + selfDir().string(),
                         "install aotstudio-run beside the engine, or sweep without --isolate"});
    return s;
}

/// The result from the rows (each target's points, a bundle's policy rows), written as
/// sweep.json and sweep.csv: the same for a sweep run here and for the shards of one on Ray.
Json finishSweep(const Job &ctx, const SweepSettings &settings, const SweepSubject &subject, Json targetsJson,
                 Json policy, const Json &threadsUsed, const Json &extra)
{
    const Json summary = summarizeSweep(targetsJson, policy, subject.kind == "bundle");
    ctx.log(summary["failures"].get<int>() ? "warning" : "info", "sweep " + summary["verdict"].get<std::string>());
    const auto &budget = settings.budget;
    Json result{{"format", kFormat},
                {"version", kVersion},
                {"kind", subject.kind},
                {"model", subject.compileRequest.value("model", std::string())},
                {"device", subject.device},
                {"out", settings.out.string()},
                {"threads", threadsUsed},
                {"isolate", settings.pointOptions.isolate},
                {"budget",
                 {{"points", budget.maxPoints},
                  {"pairwise", budget.pairwise},
                  {"outside", budget.outside},
                  {"random_points", budget.randomPerSymbol},
                  {"seed", budget.seed}}},
                {"tolerance", subject.compileRequest.value("tolerance", Json())},
                {"targets", targetsJson},
                {"policy", policy},
                {"sweep_json", (settings.out / "sweep.json").string()},
                {"sweep_csv", (settings.out / "sweep.csv").string()}};
    result.update(summary);
    result.update(extra);
    writeJsonAtomic(settings.out / "sweep.json", result);
    writeSweepCsv(settings.out / "sweep.csv", result["targets"]);
    return result;
}

/// The request for one Ray shard's engine: the same sweep of the same bytes (sent with the task:
/// the workers need not see this disk), without `ray`; `send` gets the files to ship.
Json shardRequest(const Json &request, const SweepSubject &subject, std::vector<fs::path> &send)
{
    Json sub = Json::object();
    // from_capture: the folder must be on the workers' shared file system (not shipped).
    for (const char *k : {"budget", "pairwise", "outside", "isolate", "timeout", "seed", "random_points", "threads",
                          "tolerance", "device", "from_capture", "capture_shapes"})
        if (request.contains(k))
            sub[k] = request[k];
    if (subject.kind != "model" && !subject.recorded)
        for (const char *k : {"dtype", "dynamic", "freezing"})
            if (request.contains(k))
                sub[k] = request[k];
    sub["model"] = absoluteModelSpec(subject.compileRequest.value("model", std::string()));
    sub["type"] = "sweep";
    sub["id"] = 1;
    std::error_code ec;
    if (subject.kind == "bundle") {
        const fs::path path = fs::absolute(request["bundle"].get<std::string>()).lexically_normal();
        sub["bundle"] = path.string();
        sub["allow_unsigned"]
            = true; // checked here against this engine's trust store; the workers sweep the same bytes
        send.push_back(path);
    } else {
        const fs::path package = subject.targets.front().package;
        sub["package"] = package.string();
        send.push_back(package);
        for (const fs::path &beside :
             {package.parent_path() / "result.json", Bundle::InputGuards::sidecarPath(package)})
            if (fs::exists(beside, ec))
                send.push_back(beside);
    }
    return sub;
}

/// The sweep in `settings.shards` Ray tasks, each a whole engine running the points whose global
/// index is its own (`shard`); their rows merged here in plan order. A failed shard fails the
/// sweep (its points are missing: no verdict can be given).
Json sweepOnRay(const Job &ctx, const Json &request, const SweepSettings &settings, const SweepSubject &subject,
                double begin)
{
    std::vector<fs::path> send;
    const Json sub = shardRequest(request, subject, send);
    const std::size_t shards = settings.shards;
    std::vector<SubRequest> subs;
    for (std::size_t k = 0; k < shards; ++k) {
        Json r = sub;
        r["shard"] = {{"index", k}, {"count", shards}};
        const std::string name = "shard" + std::to_string(k);
        subs.push_back({Json{{"shard", name}}, r, "", settings.out / "shards" / name, send});
    }
    const auto outcomes = runOnRay(ctx, begin, 1.0 - begin, settings.ray, subs, subject.device);
    const auto &targets = subject.targets;
    Json targetsJson, policy = Json::array(), threadsUsed;
    for (std::size_t k = 0; k < outcomes.size(); ++k) {
        const auto &o = outcomes[k];
        const std::string host = o.origin.value("host", std::string());
        const std::string where = "shard " + std::to_string(k) + " of " + std::to_string(shards)
            + (host.empty() ? std::string(" (on Ray)") : " (on Ray host " + host + ")");
        if (o.error) {
            Protocol::Error e = *o.error;
            e.message = where + ": " + e.message;
            throw JobFailed(e);
        }
        Json shardTargets = o.result.value("targets", Json::array());
        if (shardTargets.size() != targets.size())
            throw JobFailed({"sweep", Protocol::Code::Internal,
                             where + " swept " + std::to_string(shardTargets.size()) + " packages, this engine planned "
                                 + std::to_string(targets.size()),
                             "the workers must run the same studio as this engine"});
        if (targetsJson.is_null())
            targetsJson = shardTargets; // names, guards and plans: the same in every shard
        for (std::size_t t = 0; t < targets.size(); ++t) {
            if (k == 0)
                targetsJson[t]["points"] = Json::array();
            for (auto p : shardTargets[t].value("points", Json::array())) {
                labelOrigin(p, o.origin);
                targetsJson[t]["points"].push_back(std::move(p));
            }
        }
        for (auto row : o.result.value("policy", Json::array())) {
            labelOrigin(row, o.origin);
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
    return finishSweep(
        ctx, settings, subject, std::move(targetsJson), std::move(policy),
        threadsUsed.is_string() ? Json() : threadsUsed,
        {{"ray", {{"address", settings.ray}, {"shards", shards}, {"several_hosts", severalHosts(labels)}}},
         {"shard", nullptr}});
}

/// Where a local sweep stands: the points of this shard (a shard runs the points whose global
/// index g, over every target's plan in order then a bundle's policy rows, has g % count ==
/// index), how many ran, the next global index, and the origin label of rows run here.
struct SweepProgress {
    std::optional<std::pair<std::size_t, std::size_t>> shard;
    std::size_t mine = 0; ///< points of this shard in all
    std::size_t done = 0;
    std::size_t next = 0; ///< the next global index
    Json here;
    /// True when the next global index is this shard's; advances it either way.
    bool take()
    {
        const std::size_t g = next++;
        return !shard || g % shard->second == shard->first;
    }
    double fraction() const { return static_cast<double>(done) / static_cast<double>(std::max<std::size_t>(mine, 1)); }
};

/// Every target's plan (Bundle::planSweep: the guards, the example's shapes at the target's
/// batch, the budget, the recorded shapes it accepts). A target without guards is checked as
/// static at the example's shapes, with a warning.
std::vector<Bundle::SweepPlan> planTargets(const Job &ctx, SweepSubject &subject, const SweepSettings &settings,
                                           const std::vector<std::vector<std::int64_t>> &exampleShapes,
                                           const std::vector<Bundle::RecordedShape> &recorded)
{
    std::vector<Bundle::SweepPlan> plans;
    for (auto &t : subject.targets) {
        auto example = exampleShapes;
        if (t.batch)
            for (auto &s : example)
                if (!s.empty())
                    s[0] = *t.batch;
        if (!t.guards) {
            t.guards = staticGuards(example);
            t.guardsOrigin = "none recorded: the example's shapes are taken as the only ones";
            ctx.log("warning",
                    "sweep: " + t.package + " has no guards record (model.guards.json): it is checked as static at "
                        + shapesText(example));
        }
        auto targetBudget = settings.budget;
        for (const auto &r : recorded)
            if (subject.kind != "bundle" || !t.guards->check(r.shapes))
                targetBudget.recorded.push_back(r);
        try {
            plans.push_back(Bundle::planSweep(*t.guards, example, targetBudget));
        } catch (const Bundle::BundleError &e) {
            throw JobFailed({"load", Protocol::Code::LoadFailed, std::string(e.what()) + " (" + t.guardsOrigin + ")",
                             "the package was compiled from another model; pass the right --model"});
        }
    }
    return plans;
}

/// Log a point's row: a failure as a warning, the model's own failure at that shape as info.
void logPoint(const Job &ctx, const Target &t, const Bundle::SweepPoint &p, const Json &r)
{
    const std::string outcome = r["outcome"].get<std::string>();
    const std::string message = r["message"].get<std::string>();
    if (!r["ok"].get<bool>())
        ctx.log("warning",
                "sweep " + t.name + " " + shapesText(p.shapes) + " (" + valuesText(r["values"]) + "): " + outcome
                    + (message.empty() ? "" : ": " + message));
    else if (outcome == "eager_error")
        ctx.log("info", "sweep " + t.name + " " + shapesText(p.shapes) + ": the model itself fails here: " + message);
}

/// One target swept: its package loaded as deployed (a bundle's manifest guards, else its own
/// sidecar), this shard's points run against eager, then the example in other layouts (refused
/// or copied, never a silent wrong result; only where the runner checks guards, in shard 0).
/// Returns the target's row of sweep.json's `targets`.
Json sweepTarget(const Job &ctx, Python::CompileJob &job, const Json &request, const SweepSettings &settings,
                 const SweepSubject &subject, const Target &t, const Bundle::SweepPlan &plan, SweepProgress &at)
{
    std::unique_ptr<Runtime::AotiRunner> runner;
    try {
        runner = loadTarget(t.package, subject.device, t.weights);
        if (subject.kind == "bundle")
            runner->setGuards(t.guards);
    } catch (const Runtime::RuntimeError &e) {
        throw JobFailed({"load_package", Protocol::Code::LoadFailed, e.what(),
                         "the package may be for another device or torch version; recompile it here"});
    }
    ctx.log("info",
            "sweep " + t.name + ": " + t.guards->describe() + "; " + std::to_string(plan.points.size()) + " shapes ("
                + std::to_string(plan.single) + " varying one dimension, " + std::to_string(plan.pairs) + " pairwise, "
                + std::to_string(plan.leftOut) + " left out)");
    for (const auto &note : plan.notes)
        ctx.log("info", "sweep " + t.name + ": " + note);
    PointOptions options = settings.pointOptions;
    if (subject.kind == "bundle") { // isolated calls run the bucket from the bundle, as deployed
        options.bundle = subject.bundle.root;
        options.bucket = t.name;
        options.allowUnsigned = request.value("allow_unsigned", false);
    }
    Json points = Json::array();
    for (std::size_t i = 0; i < plan.points.size(); ++i) {
        if (!at.take())
            continue;
        ctx.checkStop("sweep");
        const auto &p = plan.points[i];
        ctx.progress("sweep", at.fraction(), t.name + ": " + shapesText(p.shapes));
        Json r = runPoint(job, *runner, static_cast<int>(i), p, plan, *t.guards, options);
        labelOrigin(r, at.here);
        ++at.done;
        logPoint(ctx, t, p, r);
        points.push_back(std::move(r));
    }
    Json layout = Json::array();
    if (runner->guards() && !plan.points.empty() && (!at.shard || at.shard->first == 0)) {
        ctx.checkStop("sweep");
        ctx.progress("sweep", at.fraction(), t.name + ": layouts");
        layout = layoutRows(job, *runner, plan.points.front().shapes, 1 << 21);
        for (auto &row : layout) {
            labelOrigin(row, at.here);
            if (!row["ok"].get<bool>())
                ctx.log("warning",
                        "sweep " + t.name + " layout: input " + row["input"].dump() + " "
                            + row["variant"].get<std::string>() + ": " + row.value("default", "") + " / converted "
                            + row.value("converted", "") + ": " + row["message"].get<std::string>());
        }
    }
    Json symbols = Json::array();
    const auto syms = t.guards->symbols();
    for (std::size_t s = 0; s < syms.size(); ++s)
        symbols.push_back({{"symbol", syms[s].id},
                           {"label", syms[s].label},
                           {"min", syms[s].min ? Json(*syms[s].min) : Json()},
                           {"max", syms[s].max ? Json(*syms[s].max) : Json()},
                           {"example", plan.example[s]},
                           {"upper_tried", plan.upper[s]}});
    return {{"name", t.name},
            {"package", t.package},
            {"guards", t.guards->describe()},
            {"guards_origin", t.guardsOrigin},
            {"dynamic", t.guards->isDynamic()},
            {"unchecked_guards", t.guards->uncheckedCount()},
            {"symbols", symbols},
            {"plan",
             {{"points", plan.points.size()},
              {"single", plan.single},
              {"pairs", plan.pairs},
              {"recorded", plan.recorded},
              {"left_out", plan.leftOut},
              {"notes", plan.notes}}},
            {"points", std::move(points)},
            {"layout", std::move(layout)}};
}

/// A bundle's bucket policy (BUNDLE.md "Choosing a bucket") across batch sizes: policyRow() at
/// each of policyBatches() this shard owns.
Json sweepPolicy(const Job &ctx, Python::CompileJob &job, const SweepSubject &subject,
                 const std::vector<std::vector<std::int64_t>> &exampleShapes, SweepProgress &at)
{
    Json policy = Json::array();
    std::map<std::string, std::unique_ptr<Runtime::AotiRunner>> runners;
    int index = 1 << 20; // apart from the targets' points
    for (const long long batch : policyBatches(subject.bundle.manifest)) {
        if (!at.take())
            continue;
        ctx.checkStop("sweep");
        ctx.progress("sweep", 1.0, "bucket policy: batch " + std::to_string(batch));
        Json row = policyRow(job, subject.bundle, subject.device, batch, ++index, exampleShapes, runners);
        labelOrigin(row, at.here);
        if (!row["ok"].get<bool>())
            ctx.log("warning",
                    "sweep bucket policy, batch " + std::to_string(batch) + " in " + row["bucket"].get<std::string>()
                        + ": " + row["outcome"].get<std::string>() + ": " + row["message"].get<std::string>());
        policy.push_back(std::move(row));
    }
    return policy;
}

/// The sweep run in this engine: the eager model and its example inputs (as compiled: the same
/// resizing of 0/1 sizes), every target planned and swept, a bundle's bucket policy.
Json sweepHere(const Job &ctx, const Json &request, SweepSettings &settings, SweepSubject &subject)
{
    Json jobRequest = subject.compileRequest;
    jobRequest["out"] = settings.out.string();
    jobRequest.erase("batch"); // each target sets its own example batch
    Python::CompileJob job(
        jobRequest,
        [&](const std::string &level, const std::string &message, const Json &msg) { ctx.log(level, message, msg); },
        [&](const Json &e) { ctx.sendEvent(e); });
    ctx.progress("sweep", 0.0, "building the model and example inputs");
    job.load();
    const auto exampleShapes = job.call("sweep_begin").get<std::vector<std::vector<std::int64_t>>>();
    // Shapes from real traffic join every target's plan (a bundle bucket: those it accepts).
    Json captureSummary;
    const auto recorded = recordedShapes(job, request, captureSummary);
    if (captureSummary.is_object()) // null without from_capture: value() would throw on it
        for (const auto &n : captureSummary.value("notes", Json::array()))
            ctx.log("warning", "sweep: " + n.get<std::string>());

    std::error_code ec;
    if (settings.pointOptions.isolate)
        fs::create_directories(settings.pointOptions.scratch, ec);
    const auto plans = planTargets(ctx, subject, settings, exampleShapes, recorded);
    SweepProgress at{settings.shard, 0, 0, 0, localOrigin(subject.device)};
    std::size_t allPoints = 0;
    for (const auto &plan : plans)
        allPoints += plan.points.size();
    for (std::size_t g = 0; g < allPoints; ++g)
        at.mine += !at.shard || g % at.shard->second == at.shard->first ? 1 : 0;
    Json targetsJson = Json::array();
    for (std::size_t i = 0; i < plans.size(); ++i)
        targetsJson.push_back(sweepTarget(ctx, job, request, settings, subject, subject.targets[i], plans[i], at));
    fs::remove_all(settings.pointOptions.scratch, ec);
    Json policy = subject.kind == "bundle" ? sweepPolicy(ctx, job, subject, exampleShapes, at) : Json::array();
    const auto &shard = settings.shard;
    return finishSweep(ctx, settings, subject, std::move(targetsJson), std::move(policy), settings.threads,
                       {{"shard", shard ? Json{{"index", shard->first}, {"count", shard->second}} : Json()},
                        {"ray", nullptr},
                        {"capture", captureSummary}});
}

} // namespace

Json runSweep(std::int64_t id, const Json &request, const EventFn &emit, std::stop_token stop)
{
    const bool compiles = !request.contains("package") && !request.contains("bundle");
    const Job ctx(id, emit, std::move(stop),
                  compiles ? std::span<const StageSpan>(kSweepModelStages) : std::span<const StageSpan>(kSweepStages));
    SweepSettings settings = readSweepRequest(request);
    SweepSubject subject = openSubject(ctx, request, settings);
    settings.pointOptions.device = subject.device;
    if (!settings.ray.empty())
        return sweepOnRay(ctx, request, settings, subject, compiles ? 0.5 : 0.0);
    settings.pointOptions.scratch = settings.out / (".sweep-" + std::to_string(::getpid()));
    std::error_code ec;
    try {
        return sweepHere(ctx, request, settings, subject);
    } catch (const Python::FrontendException &e) {
        fs::remove_all(settings.pointOptions.scratch, ec);
        Protocol::Error error = e.error();
        if (error.stage == "measure") // CompileJob::call's stage for failures that are not the frontend's own
            error.stage = "sweep";
        throw JobFailed(error, e.details());
    } catch (const JobFailed &) {
        fs::remove_all(settings.pointOptions.scratch, ec);
        throw;
    }
}

} // namespace AotStudio::Pipeline
