// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Deployable bundles (core/runtime/BUNDLE.md, format version 1): manifest, integrity check,
// bucket choice, compatibility, zip. No torch, no Qt, no Python: aotstudio-run and the engine's
// export both link this. SHA-256 comes from OpenSSL (EVP), zips from libzip.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace AotStudio::Bundle {

class InputGuards; // bundle/guards.h

inline constexpr const char *kFormat = "aotstudio.bundle";
/// The newest format_version this code reads. 2 added `buckets[i].weights` (shared weights): an
/// export writes 2 only when it uses them, so bundles without stay readable by version-1 runtimes,
/// and a version-1 runtime refuses a bundle whose packages it would run without their weights.
/// 3 (this round's bundle changes, BUNDLE.md "Format versions"): bucket guards that record each
/// input's strides (guards version 2), so that a runtime that would not check the layout refuses
/// the bundle as newer instead of running another layout into its packages.
inline constexpr int kFormatVersion = 3;
// The bundle's layout (BUNDLE.md "Layout"): every writer and reader of a bundle uses these names.
inline constexpr const char *kManifestName = "manifest.json";
/// The index of an `export --layout blocks` folder (BUNDLE.md "Block layout"): not a runnable
/// bundle (its packages are weightless), told apart from one by this file in place of the manifest.
inline constexpr const char *kBlocksIndexName = "blocks.json";
/// A block layout's names as Hugging Face's `spaces.aoti_blocks_load(module, repo_id, variant)`
/// asks the Hub for them (spaces 0.51.3, spaces/zero/torch/aoti.py): each block class's package is
/// `withVariant(CLASS, variant)/kBlockPackageName`, the loader's config
/// `withVariant(kBlocksConfigStem, variant) + ".json"`.
inline constexpr const char *kBlockPackageName = "package.pt2";
inline constexpr const char *kBlocksConfigStem = "config";
/// `name` with a variant as spaces' `_variant(name, variant)` spells it: "Block" and "fp8" give
/// "Block.fp8"; an empty variant gives `name` unchanged.
inline std::string withVariant(const std::string &name, const std::string &variant)
{
    return variant.empty() ? name : name + "." + variant;
}
/// Why `variant` cannot name a block layout's variant, or "" when it can: 1 to 64 characters of
/// letters, digits, '_', '-' and '.', the first a letter or digit. The variant becomes part of a
/// folder name and a file name, on disk and in a Hub repository, so a path separator, a leading
/// dot ("..", hidden files), spaces and control characters are refused. Never throws.
inline std::string variantProblem(std::string_view variant)
{
    const auto alnum = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    };
    if (variant.empty() || variant.size() > 64)
        return "a variant has 1 to 64 characters";
    if (!alnum(variant.front()))
        return "a variant starts with a letter or a digit";
    for (const char c : variant)
        if (!alnum(c) && c != '_' && c != '-' && c != '.')
            return "a variant holds only letters, digits, '_', '-' and '.' (it names the folders "
                   "CLASS.VARIANT/ and the file config.VARIANT.json)";
    return {};
}
inline constexpr const char *kSignatureName = "manifest.sig"; ///< signed bundles (bundle/signing.h)
inline constexpr const char *kPackagesDir = "packages";       ///< packages/<bucket>.pt2
inline constexpr const char *kSharedWeightsDir = "weights";   ///< weights/<sha256>.bin (format 2)
inline constexpr const char *kReportDir = "report";           ///< report/<bucket>.json, report/cold_start.json
inline constexpr const char *kColdStartName = "cold_start.json"; ///< in kReportDir
inline constexpr const char *kGraphsDir = "graphs";           ///< the first bucket's snapshots and kernels.json
inline constexpr long long kBatchDim = -1;      ///< TensorSpec::shape value for the "batch" dimension
/// Largest manifest.json read (bytes). A real one is a few KiB (guards included); a larger file is
/// refused before it is parsed, so a hostile bundle cannot make the reader allocate at will.
inline constexpr std::uintmax_t kMaxManifestBytes = 16ull << 20;

/// A bundle that cannot be read, written or used. The message is one line that names the file (or
/// zip, or bundle) and the problem, e.g. "bundle 'b' failed verification: packages/batch4.pt2:
/// SHA-256 differs (tampered or corrupt)". problems() lists each problem separately when there are
/// several (verification), else it is empty.
class BundleError : public std::runtime_error {
public:
    explicit BundleError(const std::string &message, std::vector<std::string> problems = {})
        : std::runtime_error(message)
        , m_problems(std::move(problems))
    {
    }
    const std::vector<std::string> &problems() const { return m_problems; }

private:
    std::vector<std::string> m_problems;
};

/// One input or output: shape with kBatchDim where the manifest says "batch", and a dtype name as
/// torch prints it without the "torch." prefix ("float32", "int64", "bfloat16", "bool").
struct TensorSpec {
    std::vector<long long> shape;
    std::string dtype;
    /// The input's or output's name (forward's parameter, the output's pytree path: "logits",
    /// "cfg.scale"); empty in bundles made before names were recorded.
    std::string name;
    /// The shape with the batch dimension replaced by `batch`.
    std::vector<long long> withBatch(long long batch) const;
};

/// A bucket: exact (`batch` set) or dynamic (`batchMin`..`batchMax`, inclusive).
/// One weight file a bucket shares (BUNDLE.md "Shared weights"): the raw bytes of a tensor's
/// storage, `numel` elements of `dtype` in native byte order, in `file` (relative to the bundle root).
struct BucketWeight {
    std::string file;  ///< "weights/<sha256>.bin"
    std::string dtype; ///< "float32", "int8", ... (as in the manifest's inputs)
    long long numel = 0;
    bool operator==(const BucketWeight &) const = default;
};

struct Bucket {
    std::string name;
    std::optional<long long> batch; ///< exact buckets
    long long batchMin = 0;         ///< dynamic bucket only
    long long batchMax = 0;         ///< dynamic bucket only
    std::string package;            ///< path relative to the bundle root ("packages/batch4.pt2")
    /// The package's input guards (manifest `buckets[i].guards`); null when the manifest has none.
    std::shared_ptr<const InputGuards> guards;
    /// The package's external weight files (manifest `buckets[i].weights`, BUNDLE.md "Shared
    /// weights"): file name in its weights_config.json -> where the bundle stores it. Empty: the
    /// weights are inside the package.
    std::map<std::string, BucketWeight> weights;
    bool isDynamic() const { return !batch.has_value(); }
    /// "batch4 (batch 4)" or "dynamic (batch 1..64)", for messages.
    std::string describe() const;
    /// `weights` with each file as a path under `root` (the bundle's folder), as the runtime binds
    /// them (Runtime::AotiRunner::LoadOptions::weightFiles).
    std::map<std::string, BucketWeight> weightsUnder(const std::filesystem::path &root) const;
};

/// Size (bytes) and SHA-256 (64 lowercase hex digits) of one listed file.
struct FileEntry {
    std::string sha256;
    std::uintmax_t bytes = 0;
};

/// manifest.json, parsed. `raw` keeps the whole JSON (fields this version does not model).
struct Manifest {
    std::string format;
    int formatVersion = 0;
    std::string created;
    std::string producer;
    std::string model;
    std::string torchVersion;
    std::string cudaVersion;       ///< empty when null or absent
    std::string device;            ///< "cpu" or "cuda" (possibly "cuda:N")
    std::string computeCapability; ///< "9.0"; empty when null (CPU bundles)
    std::string quantization;
    std::vector<TensorSpec> inputs;
    std::vector<TensorSpec> outputs;
    bool padSafe = false;
    std::vector<Bucket> buckets;
    std::map<std::string, FileEntry> files; ///< path relative to the bundle root, '/' separators
    /// `signer.key_id`: the key that signed manifest.json (bundle/signing.h); empty when unsigned.
    std::string signerKeyId;
    std::string signerAlgorithm; ///< `signer.algorithm` ("ed25519"); empty when unsigned
    nlohmann::json raw;
};

/// Parse a manifest. `origin` names where it came from (a path) for messages. Throws BundleError
/// ("<origin>: <field>: <problem>") on a missing or mistyped field, an unknown `format`, a bucket
/// that is neither exact nor dynamic, two dynamic buckets, a `files` path that is absolute or
/// contains ".." or names manifest.json or manifest.sig, or a `signer` that is not {"key_id":
/// 16 hex digits, "algorithm": string}. A newer format_version parses if its fields still read as version 1, else the
/// error says that the version is newer; checkCompatible() refuses it either way.
Manifest parseManifest(const nlohmann::json &json, const std::string &origin);

/// Read and parse `bundleDir/manifest.json`. Throws BundleError when it is missing, unreadable,
/// larger than `maxBytes` (the message names the limit), not JSON, or not a valid manifest (see
/// parseManifest). With `bytes`, the exact bytes that were parsed are stored there (what a
/// signature is checked against).
Manifest loadManifest(const std::filesystem::path &bundleDir, std::string *bytes = nullptr,
                      std::uintmax_t maxBytes = kMaxManifestBytes);

/// SHA-256 of a file as 64 lowercase hex digits, read in 1 MiB chunks (OpenSSL EVP). Throws
/// BundleError naming the file when it cannot be opened or read.
std::string sha256File(const std::filesystem::path &path);

/// One integrity problem: `path` relative to the bundle root, `message` the whole sentence
/// ("packages/batch4.pt2: SHA-256 differs (tampered or corrupt)").
struct Problem {
    std::string path;
    std::string message;
};

/// Check `bundleDir` against `manifest`: every listed file exists as a regular file with the listed
/// size and SHA-256, no other file is present (manifest.json and manifest.sig aside; empty
/// directories are ignored),
/// no symbolic links, and every bucket's package is listed. Returns the problems in path order
/// (empty: the bundle is intact). Hashes only files whose size matches; with `hashCache`, a file
/// unchanged since it was last hashed is not read again (HashCache, packagecache.h). Does not throw
/// for problems in the bundle; throws BundleError only when `bundleDir` cannot be listed.
std::vector<Problem> verify(const std::filesystem::path &bundleDir, const Manifest &manifest, bool hashCache = true);

/// The bucket to run a request of `batch` rows in, and the batch to run it at.
struct BucketChoice {
    Bucket bucket;
    long long padTo = 0;  ///< rows to run: bucket.batch (exact) or `batch` (dynamic)
    bool padded = false;  ///< padTo > batch: inputs padded with zero rows, outputs sliced back
};

/// BUNDLE.md "Choosing a bucket": an exact bucket with batch == B; else, if pad_safe, the smallest
/// exact bucket with batch > B; else the dynamic bucket if batch_min <= B <= batch_max. Throws
/// BundleError naming B and the available buckets otherwise (or when B < 1).
BucketChoice chooseBucket(const Manifest &manifest, long long batch);

/// Recorded traffic through a bundle's bucket policy (issue 39: export --from-capture, the
/// studio's capture histograms): each recorded batch size run where chooseBucket() would run it.
struct BucketTraffic {
    struct Row {
        std::string name;            ///< the bucket's name
        long long calls = 0;         ///< recorded calls it serves
        double share = 0;            ///< calls / all recorded calls (0..1)
        double waste = 0;            ///< mean over its calls of (padTo - b) / padTo: the share of padding rows
        std::vector<long long> sizes; ///< the recorded batch sizes it serves, ascending
    };
    std::vector<Row> buckets;             ///< in the manifest's order
    long long unservedCalls = 0;          ///< calls of a size no bucket takes (aotstudio-run refuses them)
    std::vector<long long> unservedSizes; ///< ascending
    long long calls = 0;                  ///< all recorded calls
    double waste = 0;                     ///< mean padding waste over the served calls
};

/// `histogram` (recorded batch size -> calls) through chooseBucket(manifest, b) for every size.
/// The waste of a call of b rows run at padTo rows is (padTo - b) / padTo, the definition the
/// capture's bucket proposal uses (core/python/aotstudio_frontend/capture_propose.py
/// choose_buckets). Sizes below 1 count as unserved. Never throws.
BucketTraffic bucketTraffic(const Manifest &manifest, const std::map<long long, long long> &histogram);

/// A dynamic bucket's batch_max when the compile's range has no upper end (torch's int_oo): the
/// bucket's guards still check every call; the manifest needs a number.
inline constexpr long long kUnboundedBatch = 2147483647;

/// Dimension 0 of the first input as a compile accepted it (its guards, FORMAT.md "Guards"): the
/// dimension a bundle's buckets are chosen by. Its sizes are coeff * s + offset for the symbol s
/// in [symbolMin, symbolMax] (symbolMax absent: unbounded); static when !dynamic.
struct BatchRule {
    bool dynamic = false;
    bool plain = true; ///< the symbol itself (coeff 1, offset 0): what a plain --dynamic-batch can stand for
    long long coeff = 1, offset = 0;
    long long symbolMin = 0;
    std::optional<long long> symbolMax;
    std::string text; ///< "x.shape[0] == 2 * b" for a derived dimension, else the symbol's label
    long long lo() const { return coeff * symbolMin + offset; }
    std::optional<long long> hi() const;
};

/// The rule of a compile's `guards` object; nullopt when absent or unreadable (then nothing is
/// known about dimension 0).
std::optional<BatchRule> batchRule(const nlohmann::json &guards);

/// The sizes `rule` accepts that no bucket answers: an exact bucket its size (and, with `padSafe`,
/// every size below the largest, padded into it), the dynamic bucket its range. "" when every
/// accepted size is answered; else up to four ranges of accepted sizes ("5..64", "66..inf"), then
/// "...". For a derived rule only sizes of its form count (2*b: the even ones).
std::string uncoveredBatchSizes(const BatchRule &rule, const std::vector<long long> &exact,
                                const std::optional<std::pair<long long, long long>> &dynamicRange, bool padSafe);

/// Why `manifest` cannot run here (empty: it can). Checks an unknown `format`, a format_version
/// newer than kFormatVersion, a torch_version whose major.minor differs from `runtimeTorchVersion`
/// ("2.14.1+cu130" and "2.14.1" match), device cuda without `cudaAvailable`, and a
/// compute_capability newer than `deviceCapability` ("9.0"; empty when unknown or no CUDA).
std::vector<std::string> checkCompatible(const Manifest &manifest, const std::string &runtimeTorchVersion, bool cudaAvailable,
                                         const std::string &deviceCapability);
struct Host; // bundle/compat.h
/// The same against a described host (bundle/compat.h Host: CPU flags, machine, runtime). A
/// manifest with a `compat` object (format 3, BUNDLE.md "Compatibility key") is checked through
/// checkCompat(), whose reasons name what the bundle was built for, this runtime, and what to
/// rebuild; one without falls back to the checks above. With `host.runtime` "lite"
/// (aotstudio-run-lite) a bundle none of whose buckets is lite is refused, naming them; of a
/// bundle with lite and libtorch buckets ("mixed") the bucket choice decides, so the runtime
/// refuses a libtorch bucket after choosing it (BUNDLE.md "The libtorch-free runtime").
std::vector<std::string> checkCompatible(const Manifest &manifest, const Host &host);

/// The runtime `bucket`'s package was exported for: the manifest's `buckets[i].runtime` ("lite"),
/// "libtorch" when absent (bundles from before the lite runtime) or the bucket is unknown.
std::string bucketRuntime(const Manifest &manifest, const std::string &bucket);

/// The names of the buckets whose packages need libtorch (bucketRuntime() other than "lite"),
/// comma separated ("batch1, batch4"); empty when every bucket is lite.
std::string libtorchBuckets(const Manifest &manifest);

/// What a new bundle's manifest says before its files are hashed: the one place both writers of
/// bundles (export, and profile's one-package cold-start bundle) build the manifest from, so they
/// carry the same keys (BUNDLE.md "manifest.json").
struct ManifestDraft {
    std::string created;  ///< ISO 8601 UTC time of writing
    std::string producer; ///< "aotstudio 0.x" and the job that wrote it
    std::string model;    ///< model spec the packages were compiled from
    std::string torchVersion;
    std::string cudaVersion;                  ///< empty on CPU-only torch
    std::string device = "cpu";               ///< "cpu" or "cuda"
    nlohmann::json computeCapability;         ///< "9.0"; null for CPU bundles
    std::string quantization = "none";        ///< scheme name (quantize's), "none" for fp32
    nlohmann::json inputs = nlohmann::json::array();  ///< the compile result's inputs (shape, dtype, batched, name)
    nlohmann::json outputs = nlohmann::json::array(); ///< the compile result's outputs (same keys)
    bool padSafe = false;                      ///< batch.pad_safe: padding rows never change other rows
    nlohmann::json buckets = nlohmann::json::array(); ///< buckets[] as BUNDLE.md defines them
    nlohmann::json signer;                     ///< signing key's signerJson(); null when unsigned
    nlohmann::json compat;                     ///< makeCompat() (bundle/compat.h); null: none written
};

/// A compile result's tensor list (FORMAT.md: shape, dtype, optional batched and name) as a
/// manifest's inputs/outputs: dimension 0 becomes "batch" unless the tensor says `batched: false`;
/// the name is kept.
nlohmann::json batchShapes(const nlohmann::json &tensors);

/// The manifest of `draft` without "files" (writeManifest() adds them): format, format_version (2
/// when any bucket carries shared "weights", BUNDLE.md "Shared weights": a version-1 runtime must
/// refuse such a bundle, not run it weightless; otherwise 1), and every field of the draft.
nlohmann::json newManifest(const ManifestDraft &draft);

/// Export side: hash every regular file under `bundleDir` except manifest.json and manifest.sig and
/// write `bundleDir/manifest.json` = `manifestWithoutFiles` + "files" (format and format_version
/// are filled in when absent). A manifest.sig already there is removed: it signed the previous
/// manifest (sign again with signBundle(), bundle/signing.h). Written to a temporary file in the same directory and renamed, so a
/// reader never sees half a manifest. The result is checked with parseManifest(). Throws
/// BundleError on a symbolic link or special file in the tree, an I/O error, or an invalid manifest.
void writeManifest(const std::filesystem::path &bundleDir, nlohmann::json manifestWithoutFiles);

/// How writeFileAtomic() publishes a file.
struct WriteOptions {
    unsigned permissions = 0644; ///< mode of the new file (a private key: 0600)
    bool neverReplace = false;   ///< an existing `path` is an error, never overwritten (keygen)
};

/// The one atomic file write of the engine side (bundles, results, reports, keys): `content` goes
/// to `<dir>/.<name>.partial-<pid>` (created with `options.permissions`), is fsync'ed, then
/// renamed over `path` (or, with `neverReplace`, hard-linked to `path`, which fails when it
/// exists, and the temporary name removed), so a reader sees the old file or the whole new one,
/// never a part. Throws BundleError naming the file and errno's text (the temporary file removed).
void writeFileAtomic(const std::filesystem::path &path, const std::string &content, const WriteOptions &options = {});

/// Zip the tree under `dir` (paths relative to `dir`, manifest.json at the zip's root; .pt2 stored,
/// other files deflated) into `zipPath`, through `zipPath.partial-<pid>` renamed into place. Throws
/// BundleError naming the zip on any libzip or I/O error (the partial file is removed).
void zipDirectory(const std::filesystem::path &dir, const std::filesystem::path &zipPath);

/// What extractZip() accepts before writing anything. The sizes are the uncompressed sizes the zip
/// declares, and no entry may write more than it declares, so a zip bomb is refused up front.
struct ExtractLimits {
    std::uint64_t maxEntries = 65536;             ///< entries (files and folders)
    std::uint64_t maxEntryBytes = 64ull << 30;    ///< one entry, uncompressed: 64 GiB
    std::uint64_t maxTotalBytes = 256ull << 30;   ///< all entries together, uncompressed: 256 GiB
};

/// The checks extractZip() makes before writing anything, on a zip in memory that someone else
/// reads next (a torch.save archive before LibTorch's reader sees the same bytes: its miniz trusts
/// the central directory, and fuzz_input crashed it): libzip's consistency check, entry names (no
/// absolute path, "..", backslash, NUL or duplicate) and declared sizes against `limits`. Returns
/// the entry names in the zip's order (folders end in '/'). Throws BundleError with "zip `name`".
std::vector<std::string> checkZip(std::string_view bytes, const std::string &name, const ExtractLimits &limits = {});
/// The entry `entry` of the zip in `bytes`, whole; BundleError when it is missing, declares more
/// than `maxBytes`, or does not read back at its declared size and CRC.
std::string readZipEntry(std::string_view bytes, const std::string &entry, std::uint64_t maxBytes, const std::string &name);

/// Each file entry of the zip at `zipPath` for which `want(name, declared size)` is true, read
/// whole (size and CRC checked) and handed to `take(name, bytes)`, in the zip's order; the names
/// and sizes are first checked against `limits` as extractZip() does. Throws BundleError naming the
/// zip when it cannot be read or an entry does not read back.
void readZipEntries(const std::filesystem::path &zipPath, const std::function<bool(const std::string &, std::uint64_t)> &want,
                    const std::function<void(const std::string &, std::string)> &take, const ExtractLimits &limits = {});

/// What a `.pt2` file (or an extracted one's folder) holds: an AOTInductor package
/// (`<name>/data/aotinductor/...`, aoti_compile_and_package), a torch.export.save program
/// (`<name>/models/<model>.json` and weights, no compiled code), something else, or not a zip at
/// all. Both kinds share the `.pt2` suffix and the PT2 archive layout; only the entries tell them apart.
enum class Pt2Kind { AotiPackage, ExportedProgram, Unknown, NotAZip };
Pt2Kind pt2Kind(const std::filesystem::path &path);
/// The same from an archive's entry names (folders may end in '/').
Pt2Kind pt2Kind(const std::vector<std::string> &entries);
/// The one-line refusal for a torch.export.save program given where a compiled package or a
/// bundle was expected: names the file and the commands that compile it and run the result.
std::string exportedProgramMessage(const std::filesystem::path &path);

/// Extract `zipPath` into `destDir` (created if needed). Refuses, with BundleError naming the zip, a
/// truncated or corrupt archive (libzip's consistency check, CRC and size of every entry), any
/// entry that is absolute, contains "..", a backslash or a NUL, and a zip over `limits` (the
/// message names the limit and the figure; nothing is written then). Returns the bundle root:
/// `destDir` when manifest.json is at the zip's root, else the single top-level directory that
/// holds it (`zip -r B.zip B` layout), else `destDir`.
std::filesystem::path extractZip(const std::filesystem::path &zipPath, const std::filesystem::path &destDir,
                                 const ExtractLimits &limits = {});

/// A private temporary directory under $TMPDIR (or /tmp), removed with its contents on destruction.
/// Named `<prefix><pid>-XXXXXX` and flock()ed while it lives, so that a process killed before its
/// destructor ran (SIGKILL during a zip's extraction) leaves a folder the next one recognises:
/// creating a TempDir first removes every `<prefix><pid>-*` folder in the same place whose process
/// is gone and whose lock nobody holds (removeStaleTempDirs()).
class TempDir {
public:
    /// Under `base` when given (it must exist), else $TMPDIR or /tmp. Throws BundleError when the
    /// directory cannot be created.
    explicit TempDir(const std::string &prefix = "aotstudio-bundle-", const std::filesystem::path &base = {});
    ~TempDir();
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    const std::filesystem::path &path() const { return m_path; }

private:
    std::filesystem::path m_path;
    int m_lock = -1; ///< open on m_path with an exclusive flock() until destruction
};

/// Remove the `<prefix><pid>-*` folders under `base` left by processes that are gone (no process
/// `pid` and no flock() held on the folder). Returns how many were removed. Never throws.
int removeStaleTempDirs(const std::filesystem::path &base, const std::string &prefix);

/// A verified bundle. For a zip, `root` lies in `extracted`, which is removed when the last copy of
/// this struct goes away: keep it alive while packages are loaded from `root`.
struct OpenedBundle {
    std::filesystem::path source; ///< what was opened (directory or zip), absolute
    std::filesystem::path root;   ///< the bundle directory (manifest.json inside)
    Manifest manifest;
    std::string manifestBytes; ///< the exact bytes `manifest` was parsed from (signatures are checked on them)
    std::shared_ptr<TempDir> extracted; ///< null for a directory
};

/// Open a bundle directory or `.zip` (a regular file is taken as a zip), load its manifest, refuse
/// a format_version newer than kFormatVersion and verify every file. Throws BundleError whose
/// message lists every problem on one line ("bundle 'X' failed verification: a: ...; b: ...") and
/// whose problems() lists them one by one.
OpenedBundle openBundle(const std::filesystem::path &path);

/// Like openBundle() but verification problems are returned instead of thrown (for `inspect`).
/// Still throws BundleError when there is no readable manifest or the zip cannot be extracted.
OpenedBundle openBundleUnverified(const std::filesystem::path &path, std::vector<Problem> &problems);

/// Dtype name as the manifest writes it: "torch.float32" -> "float32"; others unchanged.
std::string normalizeDtype(const std::string &dtype);

} // namespace AotStudio::Bundle
