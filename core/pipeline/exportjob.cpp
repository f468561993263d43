// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/exportjob.h"
#include "pipeline/coldstart.h"
#include "pipeline/compilejob.h"
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

namespace {

/// Export's stages: one compile per bucket fills "buckets" (each a sub-job carrying `bucket`).
constexpr StageSpan kExportStages[] = {{"buckets", 0.05, 0.85}, {"cold_start", 0.85, 0.95}, {"package", 0.95, 1.00}};

/// The staging folder of an export to `out`, `OUT.partial-<pid>` beside it, created with its
/// report/ folder; stale ones of killed exports go first, with the half-written zips
/// (OUT.zip.partial-PID) of exports killed while zipping. Throws JobFailed (bad_request) when it
/// cannot be made.
fs::path prepareStaging(const fs::path &out)
{
    std::error_code ec;
    const fs::path staging = out.parent_path() / (out.filename().string() + ".partial-" + std::to_string(::getpid()));
    for (const auto &e : fs::directory_iterator(out.parent_path().empty() ? "." : out.parent_path(), ec)) {
        const std::string name = e.path().filename().string(), stem = out.filename().string();
        if (name.rfind(stem + ".partial-", 0) == 0 || name.rfind(stem + ".zip.partial-", 0) == 0)
            fs::remove_all(e.path(), ec);
    }
    fs::create_directories(staging / Bundle::kReportDir, ec);
    if (ec)
        throw JobFailed({"export", Protocol::Code::BadRequest,
                         "cannot create '" + staging.string() + "': " + ec.message(),
                         "choose a writable location for --out"});
    return staging;
}

/// Removes the staging folder when the export does not get to rename it into place.
struct StagingCleanup {
    fs::path dir;
    ~StagingCleanup()
    {
        std::error_code e;
        if (!dir.empty())
            fs::remove_all(dir, e);
    }
};

/// The last step of both layouts: `staging` renamed to `out` in one step (a reader never sees a
/// half-written bundle; `cleanup` then lets it be), then `OUT.zip` when `zip` (through a temporary
/// name: Bundle::zipDirectory). `what` names it in messages ("bundle", "block layout"). Returns the
/// zip's path, "" when not asked for or not written (a warning says why). Throws JobFailed
/// (internal) when the rename fails; `cleanup` then removes the staging folder.
std::string putInPlace(const Job &ctx, const fs::path &staging, const fs::path &out, StagingCleanup &cleanup, bool zip,
                       const std::string &what)
{
    ctx.progress("package", 0, "writing the " + what + " and its zip");
    std::error_code ec;
    fs::rename(staging, out, ec);
    if (ec)
        throw JobFailed({"export", Protocol::Code::Internal,
                         "cannot move the " + what + " into '" + out.string() + "': " + ec.message(), ""});
    cleanup.dir.clear();
    std::string zipPath;
    if (zip) {
        try {
            Bundle::zipDirectory(out, out.string() + ".zip");
            zipPath = out.string() + ".zip";
        } catch (const Bundle::BundleError &e) {
            ctx.log("warning", std::string("zip not written: ") + e.what());
        }
    }
    ctx.progress("package", 1, what + " written");
    return zipPath;
}

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

/// The export request with a capture's proposed buckets (issue 39; FORMAT.md "export"
/// `from_capture`): the proposal's `export` object (capture_propose.py) fills `buckets`,
/// `pad_safe` and, without `from`, `dynamic` where the request leaves them out. `proposal` gets
/// proposal.json. Throws JobFailed (bad_request) for a folder without a proposal or a proposal
/// without buckets.
Json withCapture(const Json &request, Json &proposal)
{
    if (!request.contains("from_capture"))
        return request;
    const Json folder = request["from_capture"];
    const fs::path path = fs::path(folder.is_string() ? folder.get<std::string>() : std::string()) / "proposal.json";
    proposal = folder.is_string() ? readJsonFile(path) : Json();
    if (!proposal.is_object())
        throw JobFailed({"export", Protocol::Code::BadRequest, "no capture proposal at '" + path.string() + "'",
                         "pass the --out folder of aotstudio-cli capture (it writes proposal.json)"});
    const Json proposed = proposal.value("export", Json());
    if (!proposed.is_object()) {
        std::string why;
        for (const auto &n : proposal.value("notes", Json::array()))
            if (n.is_string() && n.get<std::string>().find("batch") != std::string::npos)
                why = n.get<std::string>();
        throw JobFailed({"export", Protocol::Code::BadRequest,
                         "the capture's proposal has no buckets" + (why.empty() ? std::string() : ": " + why),
                         "export with --buckets or --dynamic-batch of your own"});
    }
    Json r = request;
    if (!r.contains("buckets") && !r.contains("dynamic_batch") && proposed.value("buckets", Json::array()).is_array()
        && !proposed["buckets"].empty())
        r["buckets"] = proposed["buckets"];
    if (!request.contains("pad_safe") || (!request.contains("buckets") && !request.value("pad_safe", false)))
        r["pad_safe"] = proposed.value("pad_safe", false);
    if (!r.contains("dynamic") && !r.contains("from") && proposed.value("dynamic", Json()).is_array())
        r["dynamic"] = proposed["dynamic"];
    return r;
}

/// What share of the recorded calls each bucket of the bundle at `bundle` serves, and its padding
/// waste (Bundle::bucketTraffic over the proposal's batch histogram); null when the proposal has
/// no batch dimension. Logs one line per bucket.
Json captureTraffic(const Job &ctx, const fs::path &bundle, const Json &proposal, const Json &folder)
{
    const Json buckets = proposal.value("buckets", Json());
    if (!buckets.is_object())
        return Json();
    const std::string dimension = buckets.value("dimension", "");
    std::map<long long, long long> histogram;
    for (const auto &d : proposal.value("dims", Json::array()))
        if (d.value("name", "") == dimension) {
            const Json sizes = d.value("histogram", Json::object()); // items() must not outlive it
            for (const auto &[size, calls] : sizes.items())
                if (calls.is_number_integer())
                    histogram[std::atoll(size.c_str())] += calls.get<long long>();
        }
    Bundle::BucketTraffic t;
    try {
        t = Bundle::bucketTraffic(Bundle::loadManifest(bundle), histogram);
    } catch (const Bundle::BundleError &e) {
        ctx.log("warning", std::string("no share of recorded calls per bucket: ") + e.what());
        return Json();
    }
    const auto sizesText = [](const std::vector<long long> &sizes) {
        std::string s;
        for (const auto v : sizes)
            s += (s.empty() ? "" : ",") + std::to_string(v);
        return s;
    };
    const auto pct = [](double x) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * x);
        return std::string(buf);
    };
    Json rows = Json::array();
    for (const auto &row : t.buckets) {
        rows.push_back({{"name", row.name},
                        {"calls", row.calls},
                        {"share", row.share},
                        {"waste", row.waste},
                        {"sizes", row.sizes}});
        ctx.log("info",
                "bucket " + row.name + " serves " + pct(row.share) + " of the recorded calls ("
                    + std::to_string(row.calls) + ", " + dimension + " "
                    + (row.sizes.empty() ? std::string("none") : sizesText(row.sizes)) + "), padding waste "
                    + pct(row.waste));
    }
    if (t.unservedCalls)
        ctx.log("warning",
                std::to_string(t.unservedCalls) + " recorded calls (" + dimension + " " + sizesText(t.unservedSizes)
                    + ") have no bucket in the bundle: aotstudio-run refuses them");
    return {{"folder", folder},
            {"dimension", dimension},
            {"calls", t.calls},
            {"buckets", rows},
            {"unserved", {{"calls", t.unservedCalls}, {"sizes", t.unservedSizes}}},
            {"waste", t.waste},
            {"bound", buckets.value("bound", Json())},
            {"definition",
             "a call of b rows runs in the bucket aotstudio-run picks (BUNDLE.md \"Choosing a bucket\"), "
             "padded to its batch B; its waste is (B - b) / B, averaged over the calls"}};
}

/// The export result's `recipe` (FORMAT.md "export result"): the first bucket's compile's (every
/// bucket's compile decides on the same graph features; the batch changes no share), its freezing
/// cost counted over the bundle's `buckets` (each package keeps its own copy of the weights) and
/// logged when there are several.
Json bundleRecipe(const Job &ctx, Json recipe, std::size_t buckets)
{
    if (!recipe.is_object())
        return Json();
    if (Json &cost = recipe["cost"]; cost.is_object()) {
        const double weights = cost.value("weight_bytes", 0.0);
        const double extra = weights * static_cast<double>(buckets > 0 ? buckets - 1 : 0);
        const Protocol::Text reason = Protocol::text(
            "recipe.freezing_cost",
            Json{{"mb", weights / 1e6}, {"buckets", static_cast<long>(buckets)}, {"extra_mb", extra / 1e6}});
        cost["buckets"] = buckets;
        cost["extra_bytes"] = static_cast<long long>(extra);
        cost["reason"] = reason.english;
        cost["reason_msg"] = reason.msg();
        if (buckets > 1)
            ctx.log("info", reason);
    } else {
        recipe.erase("cost");
    }
    return recipe;
}

} // namespace

Json runExport(std::int64_t id, const Json &given, const EventFn &emit, std::stop_token stop)
{
    const Job ctx(id, emit, stop, kExportStages);
    const auto fail = [](const std::string &stage, const char *code, const std::string &message, const std::string &hint) {
        return JobFailed({stage, code, message, hint});
    };
    Json proposal; // a capture's proposal.json (from_capture)
    const Json request = withCapture(given, proposal);
    // 1. What to compile: the request, or the compile job directory it names.
    Json base = Json::object();
    std::optional<Bundle::BatchRule> sourceRule; ///< dimension 0 as the --from compile accepted it
    if (request.contains("from")) {
        const fs::path from = request.value("from", std::string());
        std::error_code unverifiedEc;
        // A failed compile leaves its package under this name (FORMAT.md, "Output folder").
        if (const fs::path unverified = from / "model.unverified.pt2"; fs::exists(unverified, unverifiedEc))
            throw fail("export", Protocol::Code::BadRequest,
                       "'" + unverified.string() + "' did not pass verification against eager (see " +
                           (from / "error.json").string() + "); the folder holds no verified compile",
                       "fix the model or the --tolerance and compile it again into that folder, or export with "
                       "--model SPEC");
        const Json source = readJsonFile(from / "result.json");
        if (!source.is_object())
            throw fail("export", Protocol::Code::BadRequest, "'" + from.string() + "' has no readable result.json",
                       "pass --from the output directory of a successful compile");
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
        sourceRule = Bundle::batchRule(source.value("guards", Json()));
    }
    for (const char *k : {"model", "device", "dtype", "freezing", "max_autotune", "inductor", "tolerance", "dynamic",
                          "shapes", "cuda_archs", "recipe"}) {
        if (request.contains(k))
            base[k] = request[k];
    }
    if (base.value("model", std::string()).empty())
        throw fail("export", Protocol::Code::BadRequest, "export needs a model or --from DIR", "pass --from DIR or --model SPEC");
    const std::string outString = request.value("out", std::string());
    if (outString.empty())
        throw fail("export", Protocol::Code::BadRequest, "no bundle path given", "pass --out BUNDLE");
    const fs::path out = fs::absolute(outString).lexically_normal();
    std::error_code ec;
    if (fs::exists(out, ec))
        throw fail("export", Protocol::Code::BadRequest, "'" + out.string() + "' already exists",
                   "remove it or choose another --out (an export never overwrites a bundle)");
    const std::string layout = request.value("layout", std::string("buckets"));
    if (layout != "buckets" && layout != "blocks")
        throw fail("export", Protocol::Code::BadRequest, "unknown layout '" + layout + "'",
                   "use buckets (a bundle aotstudio-run loads) or blocks (one weightless package per repeated block)");
    if (layout != "blocks" && request.contains("variant"))
        throw fail("export", Protocol::Code::BadRequest, "'variant' applies to the block layout only",
                   "export with --layout blocks, or drop --variant");
    if (layout == "blocks")
        return exportBlockLayout(ctx, base, out, request);
    std::vector<long> buckets;
    for (const auto &b : request.value("buckets", Json::array())) {
        if (!b.is_number_integer() || b.get<long>() < 1)
            throw fail("export", Protocol::Code::BadRequest, "buckets must be positive batch sizes",
                       "e.g. --buckets batch=1,4,16");
        buckets.push_back(b.get<long>());
    }
    const Json dynamicBatch = request.value("dynamic_batch", Json());
    if (!dynamicBatch.is_null()
        && !(dynamicBatch.is_array() && dynamicBatch.size() == 2 && dynamicBatch[0].is_number_integer()
             && dynamicBatch[1].is_number_integer() && dynamicBatch[0].get<long>() >= 1
             && dynamicBatch[0].get<long>() <= dynamicBatch[1].get<long>()))
        throw fail("export", Protocol::Code::BadRequest, "dynamic_batch must be [min, max] with 1 <= min <= max",
                   "e.g. --dynamic-batch 1:64");
    // The compile's own rule for dimension 0 is kept unless buckets decide the batch: without
    // --buckets and --dynamic-batch the bundle is one bucket built as the compile was (a dynamic
    // dimension 0 with its range and relation, e.g. 2*b, stays so). --dynamic-batch makes dimension
    // 0 of every input one plain batch, so it cannot stand for a derived one (2*b, 3*b+1).
    const bool bucketsDecide = !buckets.empty() || !dynamicBatch.is_null();
    if (sourceRule && sourceRule->dynamic && !sourceRule->plain && !dynamicBatch.is_null())
        throw fail("export", Protocol::Code::BadRequest,
                   "the compile's dimension 0 is not a plain batch (" + sourceRule->text
                       + "): --dynamic-batch would make it one and drop that rule, so the bundle would take sizes the "
                         "compile refused",
                   "export without --dynamic-batch (one bucket with the compile's rule), with exact --buckets of "
                   "sizes the rule allows, or both");
    // Dynamic dimensions besides the batch (a sequence length, an image size) stay dynamic in every
    // bucket; when buckets decide the batch, dimension 0 is theirs.
    if (base.contains("dynamic")) {
        if (!base["dynamic"].is_array())
            throw fail("export", Protocol::Code::BadRequest, "'dynamic' must be a list of \"INPUT:DIM[:MIN:MAX][=NAME]\" strings",
                       "e.g. --dynamic 0:1:1:512=seq");
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
    if (sourceRule && sourceRule->dynamic && bucketsDecide) {
        std::vector<long long> exact(buckets.begin(), buckets.end());
        std::optional<std::pair<long long, long long>> range;
        if (dynamicBatch.is_array())
            range = {dynamicBatch[0].get<long long>(), dynamicBatch[1].get<long long>()};
        const std::string gaps
            = Bundle::uncoveredBatchSizes(*sourceRule, exact, range, request.value("pad_safe", false));
        if (!gaps.empty())
            ctx.log("warning",
                    "the compile accepted dimension 0 sizes " + std::to_string(sourceRule->lo()) + ".."
                        + (sourceRule->hi() ? std::to_string(*sourceRule->hi()) : std::string("inf"))
                        + (sourceRule->plain ? "" : " (" + sourceRule->text + ")")
                        + "; these have no bucket in the bundle: " + gaps
                        + " (aotstudio-run refuses them; add buckets or --dynamic-batch to cover them)");
    }
    // The signing key (BUNDLE.md "Signature"), read before any compile so a bad one fails at once.
    std::optional<Bundle::SigningKey> signingKey;
    if (const Json k = request.value("sign_key", Json()); !k.is_null()) {
        if (!k.is_string() || k.get<std::string>().empty())
            throw fail("export", Protocol::Code::BadRequest, "sign_key must be the path of a private key file",
                       "make one with aotstudio-cli keygen KEYFILE");
        try {
            signingKey = Bundle::SigningKey::load(k.get<std::string>());
        } catch (const Bundle::BundleError &e) {
            throw fail("export", Protocol::Code::BadRequest, e.what(), "make a key with aotstudio-cli keygen KEYFILE");
        }
    }
    // 2. Staging directory next to the destination (removed unless it is renamed into place).
    const fs::path staging = prepareStaging(out);
    fs::create_directories(staging / Bundle::kPackagesDir, ec);
    if (ec)
        throw fail("export", Protocol::Code::BadRequest, "cannot create '" + staging.string() + "': " + ec.message(),
                   "choose a writable location for --out");
    StagingCleanup cleanup{staging};

    // 3. One compile per bucket (plus the dynamic one), each verified against eager.
    struct Planned {
        std::string name;
        Json request;
        Json bucket;
    };
    std::vector<Planned> plan;
    for (long b : buckets) {
        Json r = base;
        r["batch"] = b;
        r["static_batch"] = true; // an exact bucket is a static build, whatever the factory's dynamic_shapes say
        plan.push_back({"batch" + std::to_string(b), r, {{"batch", b}}});
    }
    if (!dynamicBatch.is_null()) {
        const long lo = dynamicBatch[0].get<long>(), hi = dynamicBatch[1].get<long>();
        Json r = base;
        // torch.export specialises a size-1 example dimension; trace the dynamic one with 2 rows when allowed.
        r["batch"] = std::clamp<long>(2, lo, hi);
        r["dynamic_batch_all_inputs"] = Json::array({lo, hi});
        plan.push_back({"dynamic", r, {{"batch_min", lo}, {"batch_max", hi}}});
    }
    if (plan.empty()) {
        Json r = base;
        plan.push_back({"default", r, Json::object()});
    }

    // Weights once per bundle (BUNDLE.md "Shared weights"): with several buckets each package is
    // compiled with its weights outside the .so, and each distinct weight file is stored once.
    const Json sharedRequest = request.value("shared_weights", Json());
    if (!sharedRequest.is_null() && !sharedRequest.is_boolean())
        throw fail("export", Protocol::Code::BadRequest, "shared_weights must be true or false", "");
    const bool sharedWeights = sharedRequest.is_boolean() ? sharedRequest.get<bool>() : plan.size() > 1;
    // The runtime the packages are built for (BUNDLE.md "The libtorch-free runtime"): "lite" compiles
    // with link_libtorch=False, checked and verified by aotstudio-run-lite (lite.py); a bucket whose
    // package needs a function it lacks is compiled for libtorch instead and says which. "auto": lite
    // on the CPU, libtorch elsewhere. Default libtorch.
    std::string runtime = request.value("runtime", std::string("libtorch"));
    if (runtime != "libtorch" && runtime != "lite" && runtime != "auto")
        throw fail("export", Protocol::Code::BadRequest, "runtime must be 'libtorch', 'lite' or 'auto'", "");
    if (runtime == "auto")
        runtime = base.value("device", std::string("cpu")) == "cpu" ? "lite" : "libtorch";
    const fs::path liteRuntime = selfDir() / "aotstudio-run-lite";
    if (runtime == "lite" && !fs::exists(liteRuntime, ec))
        throw fail("export", Protocol::Code::BadRequest,
                   "--runtime lite needs aotstudio-run-lite next to the engine (" + liteRuntime.string() + ")",
                   "build or install the aotstudio-run-lite target");
    // Each bucket's compile request: measure false, graphs of the first bucket only.
    std::vector<Json> compiles;
    for (std::size_t i = 0; i < plan.size(); ++i) {
        Json r = plan[i].request;
        r["out"] = (staging / "work" / plan[i].name).string();
        r["measure"] = false;
        r["snapshots"] = i == 0; // graphs of the first bucket only
        r["external_weights"] = sharedWeights;
        if (runtime == "lite") {
            r["runtime"] = "lite";
            r["lite_runtime"] = liteRuntime.string();
        }
        if (r.contains("dynamic_batch_all_inputs")) {
            // Dimension 0 of every input is the batch; the count comes from a cheap load-free
            // guess: the frontend checks indices and reports a clear error if one is wrong.
            r["dynamic_batch"] = r["dynamic_batch_all_inputs"];
            r.erase("dynamic_batch_all_inputs");
        }
        compiles.push_back(std::move(r));
    }
    Json first;
    Json bucketsJson = Json::array(); // the manifest's
    Json origins = Json::array(); // where each bucket compiled: in the result, not the manifest
    // What one bucket's compile left in staging/work/<name> goes into the bundle (the same
    // whether it compiled here or on a Ray node); `origin` is where it compiled (fanout.h).
    const auto addBucket = [&](std::size_t i, const Json &result, const Json &origin) {
        const auto &p = plan[i];
        const fs::path work = staging / "work" / p.name;
        const std::string rel = std::string(Bundle::kPackagesDir) + "/" + p.name + ".pt2";
        fs::copy_file(result.value("package", ""), staging / rel, fs::copy_options::overwrite_existing, ec);
        if (ec) {
            // libstdc++ reports a copy cut short by a full disk as an I/O error: say which it was.
            std::string why = ec.message();
            std::error_code sizeEc, spaceEc;
            const auto size = fs::file_size(result.value("package", ""), sizeEc);
            const auto space = fs::space(staging, spaceEc);
            if (!sizeEc && !spaceEc && space.available < size)
                why = "no space left on the device (" + std::to_string(space.available) + " bytes free, the package is " +
                      std::to_string(size) + " bytes)";
            throw fail("export", Protocol::Code::Internal, "cannot copy the package of bucket " + p.name + " into '" +
                           staging.string() + "': " + why, "free some space there or choose another --out");
        }
        Json report = result;
        for (const char *key : {"host", "device_name", "node"})
            report[key] = origin.value(key, Json());
        writeJsonAtomic(staging / Bundle::kReportDir / (p.name + ".json"), report);
        if (i == 0) {
            first = result;
            if (fs::is_directory(work / "snapshots"))
                fs::copy(work / "snapshots", staging / Bundle::kGraphsDir, fs::copy_options::recursive, ec);
            if (fs::exists(work / "kernels.json"))
                fs::copy_file(work / "kernels.json", staging / Bundle::kGraphsDir / "kernels.json", ec);
        }
        Json bucket = p.bucket;
        if (p.name == "default") {
            // The compile's own dimension 0: dynamic (its range; the guards keep the relation) or
            // the example's size.
            const auto rule = Bundle::batchRule(result.value("guards", Json()));
            const Json in0 = result.value("inputs", Json::array());
            if (rule && rule->dynamic) {
                bucket["batch_min"] = std::max<long long>(1, rule->lo());
                bucket["batch_max"] = rule->hi().value_or(Bundle::kUnboundedBatch);
            } else if (!in0.empty() && !in0[0].value("shape", Json::array()).empty()) {
                bucket["batch"] = in0[0]["shape"][0];
            }
        }
        bucket["name"] = p.name;
        bucket["package"] = rel;
        if (result.value("runtime", std::string()) == "lite")
            bucket["runtime"] = "lite"; // absent: libtorch (aotstudio-run-lite refuses such a bucket)
        else if (const Json missing = result.value("lite_missing", Json::array()); !missing.empty())
            ctx.log("warning",
                    "bucket " + p.name + " is built for libtorch: aotstudio-run-lite lacks " + missing.dump());
        if (sharedWeights) {
            try {
                const auto moved = Bundle::shareWeights(staging / rel, staging, &Runtime::writeRawWeight);
                for (const auto &[file, w] : moved)
                    bucket["weights"][file] = {{"file", w.file}, {"dtype", w.dtype}, {"numel", w.numel}};
            } catch (const Bundle::BundleError &e) {
                throw fail("export", Protocol::Code::Internal, e.what(), "free some space there or choose another --out");
            }
        }
        // What this bucket's package accepts (FORMAT.md "guards"): aotstudio-run checks each call
        // against it; it carries the dynamic dimensions other than the batch and their ranges.
        if (const Json g = result.value("guards", Json()); g.is_object())
            bucket["guards"] = g;
        bucketsJson.push_back(bucket);
        origins.push_back(origin);
    };
    const std::string device = base.value("device", std::string("cpu"));
    const std::string ray = rayAddress(request);
    if (!ray.empty()) {
        // Every bucket a `compile` of its own on a Ray node, all at once (fanout.h); each comes
        // back into staging/work/<bucket> and goes into the bundle here, in plan order.
        std::vector<SubRequest> subs;
        for (std::size_t i = 0; i < plan.size(); ++i) {
            Json r = compiles[i];
            r["type"] = "compile";
            r["id"] = 1;
            r["model"] = absoluteModelSpec(r.value("model", std::string()));
            subs.push_back({Json{{"bucket", plan[i].name}}, r, "", staging / "work" / plan[i].name, {}});
        }
        const auto outcomes = runOnRay(ctx, 0.05, 0.8, ray, subs, device);
        for (std::size_t i = 0; i < outcomes.size(); ++i) {
            const auto &o = outcomes[i];
            if (o.error) { // as a bucket that fails here: the export fails, naming it and its host
                Protocol::Error e = *o.error;
                const std::string host = o.origin.value("host", std::string());
                e.message = "bucket " + plan[i].name + (host.empty() ? " (on Ray)" : " (on Ray host " + host + ")")
                    + ": " + e.message;
                throw JobFailed(e);
            }
        }
        for (std::size_t i = 0; i < outcomes.size(); ++i)
            addBucket(i, outcomes[i].result, outcomes[i].origin);
    } else {
        const Json here = localOrigin(device);
        const double share = 0.8 / static_cast<double>(plan.size()); // of "buckets", in the job's fractions
        for (std::size_t i = 0; i < plan.size(); ++i) {
            if (stop.stop_requested())
                throw fail("export", Protocol::Code::Cancelled, "cancelled before bucket " + plan[i].name, "");
            // The bucket's compile fills its part of "buckets"; its events carry `bucket` (FORMAT.md).
            const Json result = runCompile(
                ctx.sub(0.05 + share * static_cast<double>(i), share, kCompileStages, Json{{"bucket", plan[i].name}}),
                compiles[i]);
            addBucket(i, result, here);
        }
    }
    fs::remove_all(staging / "work", ec);

    // 4. Manifest (hashes of every file), verified as the runtime will.
    Bundle::ManifestDraft draft;
    draft.created = isoNow();
    draft.producer = std::string("aotstudio ") + std::string(Protocol::kEngineVersion);
    draft.model = base.value("model", "");
    draft.torchVersion = first.value("torch_version", "");
    draft.cudaVersion = first.value("cuda_version", "");
    draft.device = first.value("device", "cpu");
    draft.computeCapability = first.value("compute_capability", Json());
    draft.quantization = request.value("quantization", "none");
    draft.inputs = first.value("inputs", Json::array());
    draft.outputs = first.value("outputs", Json::array());
    draft.padSafe = request.value("pad_safe", false);
    draft.buckets = bucketsJson;
    if (signingKey)
        draft.signer = signingKey->signerJson();
    // The compatibility key (BUNDLE.md): the compile's versions and hashes, and what each bucket's
    // package was built for, read from its files (CPU ISA and -march, GPU architectures).
    try {
        std::vector<Bundle::PackageTarget> targets;
        for (const auto &b : bucketsJson)
            targets.push_back(Bundle::readPackageTarget(staging / b.value("package", std::string())));
        draft.compat
            = Bundle::makeCompat(first.value("compat", Json()), targets, bucketsJson, draft.device, draft.quantization);
        ctx.log("info", "compatibility key: " + draft.compat.value("key", std::string()));
    } catch (const Bundle::BundleError &e) {
        throw fail("export", Protocol::Code::Internal,
                   std::string("cannot read what the packages were built for: ") + e.what(), "");
    }
    const Json manifest = Bundle::newManifest(draft);
    // Every manifest written is signed at once (writeManifest removes the previous signature), so
    // the cold-start runs below load the bundle exactly as it will ship.
    const auto finishManifest = [&] {
        try {
            Bundle::writeManifest(staging, manifest);
            if (signingKey)
                Bundle::signBundle(staging, *signingKey);
            // No hash cache: the staging folder is renamed next, so its entries would name a dead path.
            const auto problems = Bundle::verify(staging, Bundle::loadManifest(staging), /*hashCache=*/false);
            if (!problems.empty())
                throw fail("export", Protocol::Code::Internal, "the new bundle does not verify: " + problems.front().message, "");
        } catch (const Bundle::BundleError &e) {
            throw fail("export", Protocol::Code::Internal, e.what(), "");
        }
    };
    finishManifest();

    // 5. Cold start (coldstart.h): fresh processes, aotstudio-run on the staged bundle against eager Python.
    Json cold = Json::object();
    const int coldRuns = std::max(0, request.value("cold_start_runs", 3));
    const long coldBatch = bucketsJson.empty() ? 1 : bucketsJson[0].value("batch", bucketsJson[0].value("batch_min", 1L));
    if (coldRuns > 0 && !stop.stop_requested()) {
        ctx.progress("cold_start", 0, "timing cold start (fresh processes)");
        cold = measureColdStart({staging, coldBatch, base.value("model", ""), first.value("device", "cpu"), coldRuns,
                                 base.value("shapes", Json()).is_object() ? base["shapes"].dump() : std::string()},
                                stop, [&](const std::string &m) { ctx.log("warning", m); });
        if (!cold.empty()) {
            writeJsonAtomic(staging / Bundle::kReportDir / Bundle::kColdStartName, cold);
            finishManifest();
        }
    }
    if (stop.stop_requested())
        throw fail("export", Protocol::Code::Cancelled, "cancelled before the bundle was put in place", "");

    // 6. Into place, then the zip (both through temporary names).
    const std::string zipPath = putInPlace(ctx, staging, out, cleanup, request.value("zip", true), "bundle");
    Json labelled = bucketsJson;
    for (std::size_t i = 0; i < labelled.size(); ++i)
        for (const char *key : {"host", "device_name", "node"})
            labelled[i][key] = origins[i].value(key, Json());
    // Will it run where such bundles are deployed (BUNDLE.md "Preflight"): the default profile,
    // ZeroGPU's RTX Pro 6000 half card; `aotstudio-cli preflight --gpu` checks others.
    Json preflight;
    try {
        preflight = Bundle::preflight(out, Bundle::gpuProfile(Bundle::kDefaultGpuProfile));
    } catch (const Bundle::BundleError &e) {
        ctx.log("warning", std::string("no preflight: ") + e.what());
    }
    const Json capture = proposal.is_object() ? captureTraffic(ctx, out, proposal, request["from_capture"]) : Json();
    return Json{{"bundle", out.string()},
                {"recipe", bundleRecipe(ctx, first.value("recipe", Json()), bucketsJson.size())},
                {"zip", zipPath},
                {"capture", capture},
                {"compat", draft.compat},
                {"preflight", preflight},
                {"buckets", labelled},
                {"ray", ray.empty() ? Json() : Json{{"address", ray}, {"several_hosts", severalHosts(labelled)}}},
                {"cold_start", cold},
                {"model", base.value("model", "")},
                {"device", first.value("device", "cpu")},
                {"manifest", (out / Bundle::kManifestName).string()},
                {"signer", signingKey ? Json(signingKey->keyId()) : Json()}};
}

} // namespace AotStudio::Pipeline
