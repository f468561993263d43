// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/exportjob.h"
#include "pipeline/coldstart.h"
#include "pipeline/compilejob.h"
#include "pipeline/exportsteps.h"
#include "pipeline/fanout.h"
#include "pipeline/jobutil.h"

#include "bundle/bundle.h"
#include "bundle/compat.h"
#include "bundle/guards.h"
#include "bundle/preflight.h"
#include "bundle/signing.h"
#include "bundle/weights.h"
#include "profiler/statistics.h"
#include "protocol/messages.h"
#include "python/frontend.h"
#include "runtime/aotirunner.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <unistd.h>

namespace AotStudio::Pipeline {

using Protocol::Json;
namespace fs = std::filesystem;
using namespace ExportSteps;

namespace {

/// Export's stages: one compile per bucket fills "buckets" (each a sub-job carrying `bucket`).
constexpr StageSpan kExportStages[] = {{"buckets", 0.05, 0.85}, {"cold_start", 0.85, 0.95}, {"package", 0.95, 1.00}};

/// `layout: "blocks"` (BUNDLE.md "Block layout"): a regional compile of `base` (one weightless
/// package per repeated block class, verified against eager with every instance on its package,
/// not timed), laid out as `spaces.aoti_blocks_load(module, repo_id, variant)` reads it:
/// `OUT/<BlockClass>[.<variant>]/package.pt2` and `block.json`, `OUT/config[.<variant>].json`
/// (the loader's config: `{}`, no custom kernels to load), plus `OUT/blocks.json` (the variant, the
/// SHA-256 and size of every file, the model, torch and the verify verdict) and
/// `OUT/report/regional.json` (the compile's result). Written under OUT.partial-PID and renamed
/// into place; zipped unless `zip` is false. Buckets, a dynamic batch, shared weights, a
/// signature, Ray and a bad `variant` (Bundle::variantProblem) are refused (bad_request) before
/// any compile. Throws JobFailed.
Json exportBlockLayout(const Job &ctx, const Json &base, const fs::path &out, const Json &request)
{
    const Json variantJson = request.value("variant", Json());
    if (!variantJson.is_null() && !variantJson.is_string())
        throw JobFailed({"export", Protocol::Code::BadRequest, "'variant' must be a string",
                         "e.g. --variant fp16 (folders CLASS.fp16/, config.fp16.json)"});
    const std::string variant = variantJson.is_string() ? variantJson.get<std::string>() : std::string();
    if (!variantJson.is_null()) {
        if (const std::string why = Bundle::variantProblem(variant); !why.empty())
            throw JobFailed({"export", Protocol::Code::BadRequest, "bad variant '" + variant + "': " + why,
                             "choose a name such as fp16, bf16-sm120 or v2"});
    }
    for (const char *k : {"buckets", "dynamic_batch", "sign_key", "ray", "shared_weights"}) {
        const Json v = request.value(k, Json());
        if (!v.is_null() && !(v.is_array() && v.empty()))
            throw JobFailed({"export", Protocol::Code::BadRequest,
                             std::string("'") + k
                                 + "' does not apply to the block layout: its packages are compiled "
                                   "once per block class at the example's shapes, without weights",
                             "export without --layout blocks for a bundle of buckets that aotstudio-run loads"});
    }
    const fs::path staging = prepareStaging(out);
    StagingCleanup cleanup{staging};
    Json r = base;
    r["out"] = (staging / "work").string();
    r["regional"] = true;
    r["measure"] = false;
    r["snapshots"] = false;
    if (const Json d = r.value("dynamic", Json()); d.is_array() && !d.empty())
        ctx.log("warning",
                "the block layout is compiled at the example's shapes (one package per block class): the "
                "dynamic dimensions "
                    + d.dump() + " are not kept");
    r.erase("dynamic");
    const Json result = runCompile(ctx.sub(0.05, 0.85, kCompileStages, Json{{"bucket", "blocks"}}), r);
    const Json regional = result.value("regional", Json::object());
    const fs::path layout = staging / "work" / "blocks";
    std::error_code ec;
    Json blocks = Json::array();
    for (const auto &b : regional.value("blocks", Json::array())) {
        const std::string cls = b.value("class", std::string());
        if (cls.empty() || cls.find('/') != std::string::npos || cls == Bundle::kReportDir
            || !fs::is_directory(layout / cls))
            throw JobFailed(
                {"export", Protocol::Code::Internal,
                 "the regional compile names a block '" + cls + "' without its folder under " + layout.string(), ""});
        // The folder spaces.aoti_blocks_load asks for: CLASS, or CLASS.VARIANT with a variant.
        const std::string folder = Bundle::withVariant(cls, variant);
        fs::copy(layout / cls, staging / folder, fs::copy_options::recursive, ec);
        if (ec)
            throw JobFailed({"export", Protocol::Code::Internal,
                             "cannot copy block " + cls + " into '" + staging.string() + "': " + ec.message(),
                             "free some space there or choose another --out"});
        Json files = Json::object();
        for (const char *name : {Bundle::kBlockPackageName, "block.json"}) {
            const fs::path f = staging / folder / name;
            try {
                files[folder + "/" + name] = {{"sha256", Bundle::sha256File(f)}, {"bytes", fs::file_size(f)}};
            } catch (const std::exception &e) {
                throw JobFailed({"export", Protocol::Code::Internal,
                                 std::string("cannot hash ") + f.string() + ": " + e.what(), ""});
            }
        }
        blocks.push_back({{"class", cls},
                          {"folder", folder},
                          {"instances", b.value("instances", Json::array())},
                          {"package", folder + "/" + Bundle::kBlockPackageName},
                          {"package_bytes", b.value("package_bytes", Json())},
                          {"constants", b.value("constants", Json::array()).size()},
                          {"files", files}});
    }
    if (blocks.empty())
        throw JobFailed({"export", Protocol::Code::BadRequest, "the regional compile produced no block package",
                         "export without --layout blocks"});
    // The loader's config (spaces reads config[.VARIANT].json before the packages and, when it has a
    // `kernels` list, calls kernels.get_kernel(**entry) for each to register custom ops). The block
    // packages are AOTInductor's own code calling ATen through the AOTI shim, and which Hub repository
    // would provide an op from outside torch is not known here: `{}` (BUNDLE.md "Block layout").
    // Written anyway so that the loader finds the variant's config instead of a 404.
    const std::string configName = Bundle::withVariant(Bundle::kBlocksConfigStem, variant) + ".json";
    writeJsonAtomic(staging / configName, Json::object());
    Json config{{"path", configName}, {"kernels", Json::array()}};
    try {
        config["sha256"] = Bundle::sha256File(staging / configName);
        config["bytes"] = fs::file_size(staging / configName);
    } catch (const std::exception &e) {
        throw JobFailed(
            {"export", Protocol::Code::Internal, std::string("cannot hash ") + configName + ": " + e.what(), ""});
    }
    const Json variantOrNull = variant.empty() ? Json() : Json(variant);
    const Json verify = result.value("verify", Json::object());
    const Json index{{"format", "aotstudio.blocks"},
                     {"format_version", 1},
                     {"created", isoNow()},
                     {"producer", std::string("aotstudio ") + std::string(Protocol::kEngineVersion)},
                     {"model", base.value("model", "")},
                     {"device", result.value("device", "cpu")},
                     {"dtype", result.value("dtype", "fp32")},
                     {"torch_version", result.value("torch_version", "")},
                     {"variant", variantOrNull},
                     {"config", config},
                     {"loader",
                      std::string("spaces.aoti_blocks_load(module, repo_id")
                          + (variant.empty() ? std::string() : ", variant=\"" + variant + "\"")
                          + "): a folder per block class, weights from each instance's state_dict() bound with "
                            "load_constants(user_managed=True)"},
                     {"verify",
                      {{"verdict", verify.value("verdict", Json())},
                       {"max_abs_error", result.value("max_abs_error", Json())},
                       {"tolerance", result.value("tolerance", Json())}}},
                     {"parameter_share", regional.value("parameter_share", Json())},
                     {"compile_seconds", regional.value("compile_seconds", Json())},
                     {"blocks", blocks}};
    writeJsonAtomic(staging / Bundle::kBlocksIndexName, index);
    writeJsonAtomic(staging / Bundle::kReportDir / "regional.json", result);
    fs::remove_all(staging / "work", ec);
    if (ctx.stopRequested())
        throw JobFailed(
            {"export", Protocol::Code::Cancelled, "cancelled before the block layout was put in place", ""});
    const std::string zipPath = putInPlace(ctx, staging, out, cleanup, request.value("zip", true), "block layout");
    return Json{{"bundle", out.string()},
                {"zip", zipPath},
                {"layout", "blocks"},
                {"variant", variantOrNull},
                {"config", config},
                {"blocks", blocks},
                {"blocks_json", (out / Bundle::kBlocksIndexName).string()},
                {"buckets", Json::array()},
                {"cold_start", Json::object()},
                {"model", base.value("model", "")},
                {"device", result.value("device", "cpu")},
                {"verify", index["verify"]},
                {"manifest", nullptr},
                {"signer", nullptr}};
}

/// What an export compiles: the compile request every bucket starts from.
struct ExportSource {
    Json base = Json::object(); ///< model, device, dtype and compile options
    std::optional<Bundle::BatchRule> rule; ///< dimension 0 as the --from compile accepted it
};

/// The request's compile fields over those of the compile folder it names (`from`: a successful
/// compile's result.json). Throws JobFailed(bad_request) for a folder that holds no verified
/// compile, and when there is no model at all.
ExportSource readSource(const Json &request)
{
    ExportSource src;
    Json &base = src.base;
    if (request.contains("from")) {
        const fs::path from = request.value("from", std::string());
        std::error_code unverifiedEc;
        // A failed compile leaves its package under this name (FORMAT.md, "Output folder").
        if (const fs::path unverified = from / "model.unverified.pt2"; fs::exists(unverified, unverifiedEc))
            throw JobFailed({"export", Protocol::Code::BadRequest,
                             "'" + unverified.string() + "' did not pass verification against eager (see "
                                 + (from / "error.json").string() + "); the folder holds no verified compile",
                             "fix the model or the --tolerance and compile it again into that folder, or export with "
                             "--model SPEC"});
        const Json source = readJsonFile(from / "result.json");
        if (!source.is_object())
            throw JobFailed({"export", Protocol::Code::BadRequest,
                             "'" + from.string() + "' has no readable result.json",
                             "pass --from the output directory of a successful compile"});
        base["model"] = source.value("model", "");
        base["device"] = source.value("device", "cpu");
        base["dtype"] = source.value("dtype", "fp32");
        for (const char *k : {"freezing", "max_autotune", "inductor", "cuda_archs"})
            if (source.contains("options") && source["options"].contains(k) && !source["options"][k].is_null())
                base[k] = source["options"][k];
        if (source.contains("options") && source["options"].value("dynamic", Json::array()).is_array())
            base["dynamic"] = source["options"]["dynamic"];
        if (source.contains("options") && source["options"].value("shapes", Json()).is_object())
            base["shapes"] = source["options"]["shapes"];
        src.rule = Bundle::batchRule(source.value("guards", Json()));
    }
    for (const char *k : {"model", "device", "dtype", "freezing", "max_autotune", "inductor", "tolerance", "dynamic",
                          "shapes", "cuda_archs", "recipe"}) {
        if (request.contains(k))
            base[k] = request[k];
    }
    if (base.value("model", std::string()).empty())
        throw JobFailed({"export", Protocol::Code::BadRequest, "export needs a model or --from DIR",
                         "pass --from DIR or --model SPEC"});
    return src;
}

/// The bundle's bucket policy (FORMAT.md "export"): exact batch sizes and a dynamic batch range.
struct BucketPolicy {
    std::vector<long> exact; ///< `buckets`
    Json dynamicBatch; ///< `dynamic_batch`: [min, max], or null
};

/// The request's buckets and dynamic batch, checked against the source compile's rule for
/// dimension 0. The compile's own rule for dimension 0 is kept unless buckets decide the batch:
/// without --buckets and --dynamic-batch the bundle is one bucket built as the compile was (a
/// dynamic dimension 0 with its range and relation, e.g. 2*b, stays so). --dynamic-batch makes
/// dimension 0 of every input one plain batch, so it cannot stand for a derived one (2*b, 3*b+1).
/// Dynamic dimensions besides the batch stay dynamic in every bucket (`src.base`'s `dynamic`
/// loses dimension 0 when buckets decide it). Warns of sizes the compile accepted that no bucket
/// answers. Throws JobFailed(bad_request).
BucketPolicy readBucketPolicy(const Job &ctx, const Json &request, ExportSource &src)
{
    BucketPolicy policy;
    for (const auto &b : request.value("buckets", Json::array())) {
        if (!b.is_number_integer() || b.get<long>() < 1)
            throw JobFailed({"export", Protocol::Code::BadRequest, "buckets must be positive batch sizes",
                             "e.g. --buckets batch=1,4,16"});
        policy.exact.push_back(b.get<long>());
    }
    const Json dynamicBatch = request.value("dynamic_batch", Json());
    if (!dynamicBatch.is_null()
        && !(dynamicBatch.is_array() && dynamicBatch.size() == 2 && dynamicBatch[0].is_number_integer()
             && dynamicBatch[1].is_number_integer() && dynamicBatch[0].get<long>() >= 1
             && dynamicBatch[0].get<long>() <= dynamicBatch[1].get<long>()))
        throw JobFailed({"export", Protocol::Code::BadRequest, "dynamic_batch must be [min, max] with 1 <= min <= max",
                         "e.g. --dynamic-batch 1:64"});
    policy.dynamicBatch = dynamicBatch;
    const bool bucketsDecide = !policy.exact.empty() || !dynamicBatch.is_null();
    const auto &rule = src.rule;
    if (rule && rule->dynamic && !rule->plain && !dynamicBatch.is_null())
        throw JobFailed(
            {"export", Protocol::Code::BadRequest,
             "the compile's dimension 0 is not a plain batch (" + rule->text
                 + "): --dynamic-batch would make it one and drop that rule, so the bundle would take sizes the "
                   "compile refused",
             "export without --dynamic-batch (one bucket with the compile's rule), with exact --buckets of "
             "sizes the rule allows, or both"});
    if (Json &base = src.base; base.contains("dynamic")) {
        if (!base["dynamic"].is_array())
            throw JobFailed({"export", Protocol::Code::BadRequest,
                             "'dynamic' must be a list of \"INPUT:DIM[:MIN:MAX][=NAME]\" strings",
                             "e.g. --dynamic 0:1:1:512=seq"});
        Json kept = Json::array();
        for (const auto &d : base["dynamic"]) {
            const std::string spec = d.is_string() ? d.get<std::string>() : std::string();
            const auto colon = spec.find(':');
            if (!bucketsDecide
                || (colon != std::string::npos && spec.compare(colon + 1, 2, "0:") != 0 && spec.substr(colon + 1) != "0"
                    && spec.compare(colon + 1, 2, "0=") != 0))
                kept.push_back(d);
        }
        base["dynamic"] = kept;
    }
    // A bucket policy that leaves sizes the compile accepted without a bucket: said, with the sizes.
    if (rule && rule->dynamic && bucketsDecide) {
        std::vector<long long> exact(policy.exact.begin(), policy.exact.end());
        std::optional<std::pair<long long, long long>> range;
        if (dynamicBatch.is_array())
            range = {dynamicBatch[0].get<long long>(), dynamicBatch[1].get<long long>()};
        const std::string gaps = Bundle::uncoveredBatchSizes(*rule, exact, range, request.value("pad_safe", false));
        if (!gaps.empty())
            ctx.log("warning",
                    "the compile accepted dimension 0 sizes " + std::to_string(rule->lo()) + ".."
                        + (rule->hi() ? std::to_string(*rule->hi()) : std::string("inf"))
                        + (rule->plain ? "" : " (" + rule->text + ")") + "; these have no bucket in the bundle: " + gaps
                        + " (aotstudio-run refuses them; add buckets or --dynamic-batch to cover them)");
    }
    return policy;
}

/// The signing key (BUNDLE.md "Signature"), read before any compile so a bad one fails at once;
/// none without `sign_key`. Throws JobFailed(bad_request).
std::optional<Bundle::SigningKey> readSigningKey(const Json &request)
{
    const Json k = request.value("sign_key", Json());
    if (k.is_null())
        return std::nullopt;
    if (!k.is_string() || k.get<std::string>().empty())
        throw JobFailed({"export", Protocol::Code::BadRequest, "sign_key must be the path of a private key file",
                         "make one with aotstudio-cli keygen KEYFILE"});
    try {
        return Bundle::SigningKey::load(k.get<std::string>());
    } catch (const Bundle::BundleError &e) {
        throw JobFailed(
            {"export", Protocol::Code::BadRequest, e.what(), "make a key with aotstudio-cli keygen KEYFILE"});
    }
}

/// One compile per bucket of `policy` (an exact bucket a static build; the dynamic one traced at
/// a batch of 2 where allowed, since torch.export specialises a size-1 dimension), or one
/// "default" bucket built as `base` says.
std::vector<PlannedBucket> planBuckets(const Json &base, const BucketPolicy &policy)
{
    std::vector<PlannedBucket> plan;
    for (long b : policy.exact) {
        Json r = base;
        r["batch"] = b;
        r["static_batch"] = true; // an exact bucket is a static build, whatever the factory's dynamic_shapes say
        plan.push_back({"batch" + std::to_string(b), r, {{"batch", b}}});
    }
    if (!policy.dynamicBatch.is_null()) {
        const long lo = policy.dynamicBatch[0].get<long>(), hi = policy.dynamicBatch[1].get<long>();
        Json r = base;
        r["batch"] = std::clamp<long>(2, lo, hi);
        // Dimension 0 of every input is the batch; the count comes from a cheap load-free
        // guess: the frontend checks indices and reports a clear error if one is wrong.
        r["dynamic_batch"] = Json::array({lo, hi});
        plan.push_back({"dynamic", r, {{"batch_min", lo}, {"batch_max", hi}}});
    }
    if (plan.empty())
        plan.push_back({"default", base, Json::object()});
    return plan;
}

/// How every bucket's package is built.
struct BuildOptions {
    bool sharedWeights = false; ///< weights once per bundle (BUNDLE.md "Shared weights")
    std::string runtime = "libtorch"; ///< "libtorch" or "lite"
    fs::path liteRuntime; ///< aotstudio-run-lite beside the engine
};

/// The request's `shared_weights` (default: with several buckets each package is compiled with its
/// weights outside the .so, and each distinct weight file is stored once) and `runtime` (BUNDLE.md
/// "The libtorch-free runtime": "lite" compiles with link_libtorch=False, checked and verified by
/// aotstudio-run-lite (lite.py); a bucket whose package needs a function it lacks is compiled for
/// libtorch instead and says which; "auto": lite on the CPU, libtorch elsewhere; default
/// libtorch). Throws JobFailed(bad_request).
BuildOptions readBuildOptions(const Json &request, const Json &base, std::size_t buckets)
{
    BuildOptions o;
    const Json sharedRequest = request.value("shared_weights", Json());
    if (!sharedRequest.is_null() && !sharedRequest.is_boolean())
        throw JobFailed({"export", Protocol::Code::BadRequest, "shared_weights must be true or false", ""});
    o.sharedWeights = sharedRequest.is_boolean() ? sharedRequest.get<bool>() : buckets > 1;
    o.runtime = request.value("runtime", std::string("libtorch"));
    if (o.runtime != "libtorch" && o.runtime != "lite" && o.runtime != "auto")
        throw JobFailed({"export", Protocol::Code::BadRequest, "runtime must be 'libtorch', 'lite' or 'auto'", ""});
    if (o.runtime == "auto")
        o.runtime = base.value("device", std::string("cpu")) == "cpu" ? "lite" : "libtorch";
    o.liteRuntime = selfDir() / "aotstudio-run-lite";
    std::error_code ec;
    if (o.runtime == "lite" && !fs::exists(o.liteRuntime, ec))
        throw JobFailed({"export", Protocol::Code::BadRequest,
                         "--runtime lite needs aotstudio-run-lite next to the engine (" + o.liteRuntime.string() + ")",
                         "build or install the aotstudio-run-lite target"});
    return o;
}

/// Each bucket's request made its compile request: into staging/work/<name>, measure false,
/// graphs of the first bucket only, weights and runtime as `build` says.
void setCompileRequests(std::vector<PlannedBucket> &plan, const fs::path &staging, const BuildOptions &build)
{
    for (std::size_t i = 0; i < plan.size(); ++i) {
        Json &r = plan[i].request;
        r["out"] = (staging / "work" / plan[i].name).string();
        r["measure"] = false;
        r["snapshots"] = i == 0; // graphs of the first bucket only
        r["external_weights"] = build.sharedWeights;
        if (build.runtime == "lite") {
            r["runtime"] = "lite";
            r["lite_runtime"] = build.liteRuntime.string();
        }
    }
}

/// Every bucket a `compile` of its own on a Ray node, all at once (fanout.h); each comes back
/// into staging/work/<bucket> and goes into `layout` here, in plan order. A bucket that fails
/// fails the export, naming it and its host.
void compileOnRay(const Job &ctx, const std::string &ray, const std::string &device,
                  const std::vector<PlannedBucket> &plan, const fs::path &staging, BundleLayout &layout)
{
    std::vector<SubRequest> subs;
    for (const auto &p : plan) {
        Json r = p.request;
        r["type"] = "compile";
        r["id"] = 1;
        r["model"] = absoluteModelSpec(r.value("model", std::string()));
        subs.push_back({Json{{"bucket", p.name}}, r, "", staging / "work" / p.name, {}});
    }
    const auto outcomes = runOnRay(ctx, 0.05, 0.8, ray, subs, device);
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        const auto &o = outcomes[i];
        if (o.error) { // as a bucket that fails here: the export fails, naming it and its host
            Protocol::Error e = *o.error;
            const std::string host = o.origin.value("host", std::string());
            e.message = "bucket " + plan[i].name + (host.empty() ? " (on Ray)" : " (on Ray host " + host + ")") + ": "
                + e.message;
            throw JobFailed(e);
        }
    }
    for (std::size_t i = 0; i < outcomes.size(); ++i)
        layout.addBucket(plan[i], outcomes[i].result, outcomes[i].origin);
}

/// Every bucket compiled here, one after another, each a sub-job filling its part of "buckets"
/// (its events carry `bucket`, FORMAT.md), into `layout`. Throws JobFailed (the compile's, or
/// cancelled between buckets).
void compileHere(const Job &ctx, const std::string &device, const std::vector<PlannedBucket> &plan,
                 BundleLayout &layout)
{
    const Json here = localOrigin(device);
    const double share = 0.8 / static_cast<double>(plan.size()); // of "buckets", in the job's fractions
    for (std::size_t i = 0; i < plan.size(); ++i) {
        if (ctx.stopRequested())
            throw JobFailed({"export", Protocol::Code::Cancelled, "cancelled before bucket " + plan[i].name, ""});
        const Json result = runCompile(
            ctx.sub(0.05 + share * static_cast<double>(i), share, kCompileStages, Json{{"bucket", plan[i].name}}),
            plan[i].request);
        layout.addBucket(plan[i], result, here);
    }
}

/// Cold start (coldstart.h): fresh aotstudio-run processes on the staged bundle against eager
/// Python, `cold_start_runs` of each (default 3; 0: none). Written to report/cold_start.json, and
/// the manifest written again (with `key`'s signature) to cover it. FORMAT.md's "cold start"
/// object, empty when not measured.
Json bundleColdStart(const Job &ctx, const Json &request, const Json &base, const BundleLayout &layout,
                     const fs::path &staging, const Json &manifest, const Bundle::SigningKey *key)
{
    Json cold = Json::object();
    const Json &buckets = layout.buckets();
    const int coldRuns = std::max(0, request.value("cold_start_runs", 3));
    const long coldBatch = buckets.empty() ? 1 : buckets[0].value("batch", buckets[0].value("batch_min", 1L));
    if (coldRuns > 0 && !ctx.stopRequested()) {
        ctx.progress("cold_start", 0, "timing cold start (fresh processes)");
        cold = measureColdStart({staging, coldBatch, base.value("model", ""), layout.first().value("device", "cpu"),
                                 coldRuns,
                                 base.value("shapes", Json()).is_object() ? base["shapes"].dump() : std::string()},
                                ctx.stopToken(), [&](const std::string &m) { ctx.log("warning", m); });
        if (!cold.empty()) {
            writeJsonAtomic(staging / Bundle::kReportDir / Bundle::kColdStartName, cold);
            writeBundleManifest(staging, manifest, key);
        }
    }
    return cold;
}

/// Will the bundle at `bundle` run where such bundles are deployed (BUNDLE.md "Preflight"): the
/// default profile, ZeroGPU's RTX Pro 6000 half card; `aotstudio-cli preflight --gpu` checks
/// others. Null (and a warning) when it cannot be checked.
Json bundlePreflight(const Job &ctx, const fs::path &bundle)
{
    try {
        return Bundle::preflight(bundle, Bundle::gpuProfile(Bundle::kDefaultGpuProfile));
    } catch (const Bundle::BundleError &e) {
        ctx.log("warning", std::string("no preflight: ") + e.what());
    }
    return Json();
}

} // namespace

Json runExport(std::int64_t id, const Json &given, const EventFn &emit, std::stop_token stop)
{
    const Job ctx(id, emit, stop, kExportStages);
    Json proposal; // a capture's proposal.json (from_capture)
    const Json request = withCapture(given, proposal);
    // 1. What to compile: the request, or the compile job directory it names; where it goes.
    ExportSource src = readSource(request);
    const Json &base = src.base;
    const std::string outString = request.value("out", std::string());
    if (outString.empty())
        throw JobFailed({"export", Protocol::Code::BadRequest, "no bundle path given", "pass --out BUNDLE"});
    const fs::path out = fs::absolute(outString).lexically_normal();
    std::error_code ec;
    if (fs::exists(out, ec))
        throw JobFailed({"export", Protocol::Code::BadRequest, "'" + out.string() + "' already exists",
                         "remove it or choose another --out (an export never overwrites a bundle)"});
    const std::string layoutName = request.value("layout", std::string("buckets"));
    if (layoutName != "buckets" && layoutName != "blocks")
        throw JobFailed(
            {"export", Protocol::Code::BadRequest, "unknown layout '" + layoutName + "'",
             "use buckets (a bundle aotstudio-run loads) or blocks (one weightless package per repeated block)"});
    if (layoutName != "blocks" && request.contains("variant"))
        throw JobFailed({"export", Protocol::Code::BadRequest, "'variant' applies to the block layout only",
                         "export with --layout blocks, or drop --variant"});
    if (layoutName == "blocks")
        return exportBlockLayout(ctx, base, out, request);
    const BucketPolicy policy = readBucketPolicy(ctx, request, src);
    const std::optional<Bundle::SigningKey> signingKey = readSigningKey(request);
    const Bundle::SigningKey *key = signingKey ? &*signingKey : nullptr;
    // 2. Staging directory next to the destination (removed unless it is renamed into place).
    const fs::path staging = prepareStaging(out);
    fs::create_directories(staging / Bundle::kPackagesDir, ec);
    if (ec)
        throw JobFailed({"export", Protocol::Code::BadRequest,
                         "cannot create '" + staging.string() + "': " + ec.message(),
                         "choose a writable location for --out"});
    StagingCleanup cleanup{staging};
    // 3. One compile per bucket (plus the dynamic one), each verified against eager.
    std::vector<PlannedBucket> plan = planBuckets(base, policy);
    const BuildOptions build = readBuildOptions(request, base, plan.size());
    setCompileRequests(plan, staging, build);
    BundleLayout layout(ctx, staging, build.sharedWeights);
    const std::string device = base.value("device", std::string("cpu"));
    const std::string ray = rayAddress(request);
    if (!ray.empty())
        compileOnRay(ctx, ray, device, plan, staging, layout);
    else
        compileHere(ctx, device, plan, layout);
    fs::remove_all(staging / "work", ec);
    // 4. Manifest (hashes of every file), signed and verified as the runtime will.
    const Bundle::ManifestDraft draft = bundleDraft(ctx, staging, layout, request, base.value("model", ""), key);
    const Json manifest = Bundle::newManifest(draft);
    writeBundleManifest(staging, manifest, key);
    // 5. Cold start: fresh processes, aotstudio-run on the staged bundle against eager Python.
    const Json cold = bundleColdStart(ctx, request, base, layout, staging, manifest, key);
    if (stop.stop_requested())
        throw JobFailed({"export", Protocol::Code::Cancelled, "cancelled before the bundle was put in place", ""});
    // 6. Into place, then the zip (both through temporary names).
    const std::string zipPath = putInPlace(ctx, staging, out, cleanup, request.value("zip", true), "bundle");
    Json labelled = layout.buckets();
    for (std::size_t i = 0; i < labelled.size(); ++i)
        labelOrigin(labelled[i], layout.origins()[i]);
    const Json preflight = bundlePreflight(ctx, out);
    const Json capture = proposal.is_object() ? captureTraffic(ctx, out, proposal, request["from_capture"]) : Json();
    return Json{{"bundle", out.string()},
                {"recipe", bundleRecipe(ctx, layout.first().value("recipe", Json()), layout.buckets().size())},
                {"zip", zipPath},
                {"capture", capture},
                {"compat", draft.compat},
                {"preflight", preflight},
                {"buckets", labelled},
                {"ray", ray.empty() ? Json() : Json{{"address", ray}, {"several_hosts", severalHosts(labelled)}}},
                {"cold_start", cold},
                {"model", base.value("model", "")},
                {"device", layout.first().value("device", "cpu")},
                {"manifest", (out / Bundle::kManifestName).string()},
                {"signer", signingKey ? Json(signingKey->keyId()) : Json()}};
}

} // namespace AotStudio::Pipeline
