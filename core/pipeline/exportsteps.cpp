// SPDX-License-Identifier: GPL-3.0-or-later
// The bundle-building steps of an export (exportsteps.h): staging and its move into place, the
// buckets laid out, the manifest, a capture's proposal and traffic. runExport (exportjob.cpp) is
// the table that orders them.
#include "pipeline/exportsteps.h"
#include "pipeline/fanout.h"
#include "pipeline/jobutil.h"

#include "bundle/bundle.h"
#include "bundle/compat.h"
#include "bundle/signing.h"
#include "bundle/weights.h"
#include "runtime/aotirunner.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <unistd.h>

namespace AotStudio::Pipeline::ExportSteps {

using Protocol::Json;
namespace fs = std::filesystem;

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

StagingCleanup::~StagingCleanup()
{
    std::error_code e;
    if (!dir.empty())
        fs::remove_all(dir, e);
}

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

BundleLayout::BundleLayout(const Job &ctx, fs::path staging, bool sharedWeights)
    : m_ctx(ctx)
    , m_staging(std::move(staging))
    , m_sharedWeights(sharedWeights)
{ }

void BundleLayout::addBucket(const PlannedBucket &p, const Json &result, const Json &origin)
{
    std::error_code ec;
    const fs::path work = m_staging / "work" / p.name;
    const std::string rel = std::string(Bundle::kPackagesDir) + "/" + p.name + ".pt2";
    fs::copy_file(result.value("package", ""), m_staging / rel, fs::copy_options::overwrite_existing, ec);
    if (ec) {
        // libstdc++ reports a copy cut short by a full disk as an I/O error: say which it was.
        std::string why = ec.message();
        std::error_code sizeEc, spaceEc;
        const auto size = fs::file_size(result.value("package", ""), sizeEc);
        const auto space = fs::space(m_staging, spaceEc);
        if (!sizeEc && !spaceEc && space.available < size)
            why = "no space left on the device (" + std::to_string(space.available) + " bytes free, the package is "
                + std::to_string(size) + " bytes)";
        throw JobFailed({"export", Protocol::Code::Internal,
                         "cannot copy the package of bucket " + p.name + " into '" + m_staging.string() + "': " + why,
                         "free some space there or choose another --out"});
    }
    Json report = result;
    labelOrigin(report, origin);
    writeJsonAtomic(m_staging / Bundle::kReportDir / (p.name + ".json"), report);
    if (m_first.is_null()) {
        m_first = result;
        if (fs::is_directory(work / "snapshots"))
            fs::copy(work / "snapshots", m_staging / Bundle::kGraphsDir, fs::copy_options::recursive, ec);
        if (fs::exists(work / "kernels.json"))
            fs::copy_file(work / "kernels.json", m_staging / Bundle::kGraphsDir / "kernels.json", ec);
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
        m_ctx.log("warning", "bucket " + p.name + " is built for libtorch: aotstudio-run-lite lacks " + missing.dump());
    if (m_sharedWeights) {
        try {
            const auto moved = Bundle::shareWeights(m_staging / rel, m_staging, &Runtime::writeRawWeight);
            for (const auto &[file, w] : moved)
                bucket["weights"][file] = {{"file", w.file}, {"dtype", w.dtype}, {"numel", w.numel}};
        } catch (const Bundle::BundleError &e) {
            throw JobFailed(
                {"export", Protocol::Code::Internal, e.what(), "free some space there or choose another --out"});
        }
    }
    // What this bucket's package accepts (FORMAT.md "guards"): aotstudio-run checks each call
    // against it; it carries the dynamic dimensions other than the batch and their ranges.
    if (const Json g = result.value("guards", Json()); g.is_object())
        bucket["guards"] = g;
    m_buckets.push_back(bucket);
    m_origins.push_back(origin);
}

Bundle::ManifestDraft bundleDraft(const Job &ctx, const fs::path &staging, const BundleLayout &layout,
                                  const Json &request, const std::string &model, const Bundle::SigningKey *key)
{
    const Json &first = layout.first();
    Bundle::ManifestDraft draft;
    draft.created = isoNow();
    draft.producer = std::string("aotstudio ") + std::string(Protocol::kEngineVersion);
    draft.model = model;
    draft.torchVersion = first.value("torch_version", "");
    draft.cudaVersion = first.value("cuda_version", "");
    draft.device = first.value("device", "cpu");
    draft.computeCapability = first.value("compute_capability", Json());
    draft.quantization = request.value("quantization", "none");
    draft.inputs = first.value("inputs", Json::array());
    draft.outputs = first.value("outputs", Json::array());
    draft.padSafe = request.value("pad_safe", false);
    draft.buckets = layout.buckets();
    if (key)
        draft.signer = key->signerJson();
    // The compatibility key (BUNDLE.md): the compile's versions and hashes, and what each bucket's
    // package was built for, read from its files (CPU ISA and -march, GPU architectures).
    try {
        std::vector<Bundle::PackageTarget> targets;
        for (const auto &b : layout.buckets())
            targets.push_back(Bundle::readPackageTarget(staging / b.value("package", std::string())));
        draft.compat = Bundle::makeCompat(first.value("compat", Json()), targets, layout.buckets(), draft.device,
                                          draft.quantization);
        ctx.log("info", "compatibility key: " + draft.compat.value("key", std::string()));
    } catch (const Bundle::BundleError &e) {
        throw JobFailed({"export", Protocol::Code::Internal,
                         std::string("cannot read what the packages were built for: ") + e.what(), ""});
    }
    return draft;
}

void writeBundleManifest(const fs::path &staging, const Json &manifest, const Bundle::SigningKey *key)
{
    try {
        Bundle::writeManifest(staging, manifest);
        if (key)
            Bundle::signBundle(staging, *key);
        // No hash cache: the staging folder is renamed next, so its entries would name a dead path.
        const auto problems = Bundle::verify(staging, Bundle::loadManifest(staging), /*hashCache=*/false);
        if (!problems.empty())
            throw JobFailed({"export", Protocol::Code::Internal,
                             "the new bundle does not verify: " + problems.front().message, ""});
    } catch (const Bundle::BundleError &e) {
        throw JobFailed({"export", Protocol::Code::Internal, e.what(), ""});
    }
}

} // namespace AotStudio::Pipeline::ExportSteps
