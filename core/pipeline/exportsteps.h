// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The steps of an export below runExport (exportjob.cpp) that build the bundle (BUNDLE.md): the
// staging folder and its move into place, each bucket's compile laid out in it, the manifest,
// and what a capture's proposal adds. Engine-internal, not part of the job API.

#include "pipeline/job.h"
#include "protocol/messages.h"

#include <cstddef>
#include <filesystem>
#include <string>

namespace AotStudio::Bundle {
class SigningKey;
struct ManifestDraft;
} // namespace AotStudio::Bundle

namespace AotStudio::Pipeline::ExportSteps {

/// The staging folder of an export to `out`, `OUT.partial-<pid>` beside it, created with its
/// report/ folder; stale ones of killed exports go first, with the half-written zips
/// (OUT.zip.partial-PID) of exports killed while zipping. Throws JobFailed (bad_request) when it
/// cannot be made.
std::filesystem::path prepareStaging(const std::filesystem::path &out);

/// Removes the staging folder when the export does not get to rename it into place.
struct StagingCleanup {
    std::filesystem::path dir;
    ~StagingCleanup();
};

/// The last step of both layouts: `staging` renamed to `out` in one step (a reader never sees a
/// half-written bundle; `cleanup` then lets it be), then `OUT.zip` when `zip` (through a temporary
/// name: Bundle::zipDirectory). `what` names it in messages ("bundle", "block layout"). Returns the
/// zip's path, "" when not asked for or not written (a warning says why). Throws JobFailed
/// (internal) when the rename fails; `cleanup` then removes the staging folder.
std::string putInPlace(const Job &ctx, const std::filesystem::path &staging, const std::filesystem::path &out,
                       StagingCleanup &cleanup, bool zip, const std::string &what);

/// The export request with a capture's proposed buckets (issue 39; FORMAT.md "export"
/// `from_capture`): the proposal's `export` object (capture_propose.py) fills `buckets`,
/// `pad_safe` and, without `from`, `dynamic` where the request leaves them out. `proposal` gets
/// proposal.json. Throws JobFailed (bad_request) for a folder without a proposal or a proposal
/// without buckets.
Protocol::Json withCapture(const Protocol::Json &request, Protocol::Json &proposal);

/// What share of the recorded calls each bucket of the bundle at `bundle` serves, and its padding
/// waste (Bundle::bucketTraffic over the proposal's batch histogram); null when the proposal has
/// no batch dimension. Logs one line per bucket.
Protocol::Json captureTraffic(const Job &ctx, const std::filesystem::path &bundle, const Protocol::Json &proposal,
                              const Protocol::Json &folder);

/// The export result's `recipe` (FORMAT.md "export result"): the first bucket's compile's (every
/// bucket's compile decides on the same graph features; the batch changes no share), its freezing
/// cost counted over the bundle's `buckets` (each package keeps its own copy of the weights) and
/// logged when there are several.
Protocol::Json bundleRecipe(const Job &ctx, Protocol::Json recipe, std::size_t buckets);

/// One bucket of the bundle: its name, its compile request, and its manifest entry so far
/// (`batch`, or `batch_min`/`batch_max`; empty for the default bucket).
struct PlannedBucket {
    std::string name;
    Protocol::Json request;
    Protocol::Json bucket;
};

/// The bundle being laid out in a staging folder, one bucket at a time (BUNDLE.md "Layout").
class BundleLayout
{
public:
    /// `sharedWeights`: each package's weights moved out into shared files (BUNDLE.md "Shared
    /// weights").
    BundleLayout(const Job &ctx, std::filesystem::path staging, bool sharedWeights);

    /// What bucket `p`'s compile left in staging/work/<name> (`result`, its compile result) into
    /// the bundle: the package under packages/, its report under report/, the graphs and
    /// kernels.json of the first bucket, its manifest entry (the default bucket's batch rule from
    /// the compile's guards, the runtime, shared weights, guards). `origin`: where it compiled
    /// (fanout.h), the same whether here or on a Ray node. Throws JobFailed (internal) when a
    /// file cannot be copied or a weight not shared, naming the bucket and why.
    void addBucket(const PlannedBucket &p, const Protocol::Json &result, const Protocol::Json &origin);

    const Protocol::Json &first() const { return m_first; } ///< the first bucket's compile result
    const Protocol::Json &buckets() const { return m_buckets; } ///< the manifest's buckets
    const Protocol::Json &origins() const { return m_origins; } ///< where each bucket compiled

private:
    const Job &m_ctx;
    std::filesystem::path m_staging;
    bool m_sharedWeights = false;
    Protocol::Json m_first;
    Protocol::Json m_buckets = Protocol::Json::array();
    Protocol::Json m_origins = Protocol::Json::array();
};

/// The manifest draft of the bundle in `staging` (BUNDLE.md "Manifest"): `layout`'s buckets and
/// the first compile's versions, device, inputs and outputs; the request's quantization and
/// pad_safe; the signer of `key` (null: unsigned); and the compatibility key from the compile and
/// what each package was built for, read from its files (logged). Throws JobFailed (internal)
/// when a package's target cannot be read.
Bundle::ManifestDraft bundleDraft(const Job &ctx, const std::filesystem::path &staging, const BundleLayout &layout,
                                  const Protocol::Json &request, const std::string &model,
                                  const Bundle::SigningKey *key);

/// `manifest` written into `staging` (hashes of every file), signed at once with `key` when given
/// (writeManifest removes the previous signature, so every manifest written is signed), then
/// verified as the runtime will. Throws JobFailed (internal) when it does not verify.
void writeBundleManifest(const std::filesystem::path &staging, const Protocol::Json &manifest,
                         const Bundle::SigningKey *key);

} // namespace AotStudio::Pipeline::ExportSteps
