// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A finished job's folder as `aotstudio-cli compare` reads it: a compile (result.json), a profile
// (profile.json), one scheme of a quantize (a subfolder beside quantize.json) or a bundle
// (manifest.json, report/, graphs/). Files only: no torch, no Python, no Qt.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace AotStudio::Compare {

/// A comparison that cannot be made: a folder that is not a job, two jobs of different models, an
/// unreadable file. The message names the folder or file, what is wrong, and what to pass instead.
class CompareError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// What wrote the folder.
enum class JobKind {
    Compile, ///< `aotstudio-cli compile --out DIR`: result.json
    Profile, ///< `aotstudio-cli profile --out DIR` (profile.json) without a result.json
    QuantizeScheme, ///< `aotstudio-cli quantize --out Q`: the scheme folder Q/<scheme>
    Bundle, ///< `aotstudio-cli export --out B`: manifest.json (its first bucket is compared)
};

/// "compile", "profile", "quantize scheme", "bundle".
const char *toString(JobKind kind);

/// The graph snapshot a stage left: its last snapshot file (the graph as the stage handed it on).
struct StageSnapshot {
    std::string stage; ///< capture, decompose, pre_grad, joint_graph, post_grad, ...
    std::string pass; ///< the pass after which it was taken ("" for the stage's entry)
    std::filesystem::path file; ///< the snapshot JSON (core/graph/SCHEMA.md) inside the job folder
};

/// One job folder, read. Figures that the folder does not record are empty (std::nullopt, "" or
/// null JSON); `notes` says what is missing and why that matters for the comparison.
struct JobFolder {
    std::filesystem::path dir; ///< absolute, normalized
    JobKind kind = JobKind::Compile;
    std::string model; ///< model spec as the job was given it (sample:convnet, path/file.py:factory)
    std::string device; ///< cpu or cuda
    std::string dtype; ///< fp32, bf16, fp16
    std::string scheme; ///< a quantize scheme's name; a bundle's `quantization`; else ""
    std::string bucket; ///< a bundle: the bucket whose package, graphs and kernels are compared
    nlohmann::json options = nlohmann::json::object(); ///< the compile's `options` (freezing, max_autotune, ...)
    std::string torchVersion; ///< "" when not recorded
    std::string torchaoVersion; ///< "" when not recorded (results before it was recorded)
    std::string cudaVersion; ///< "" for a CPU-only torch or when not recorded
    std::filesystem::path package; ///< the compiled .pt2 (may not exist)
    std::optional<std::uintmax_t> packageBytes; ///< its size in bytes, on disk or as recorded
    std::vector<StageSnapshot> stages; ///< one per stage with a snapshot, in pipeline order
    std::filesystem::path kernelsFile; ///< kernels.json; empty when the folder has none
    std::filesystem::path memoryFile; ///< memory.json (FORMAT.md "Memory plan"); empty when the folder has none
    std::filesystem::path fusionFile; ///< fusion.json (FORMAT.md "Fusion decisions"); empty when the folder has none
    nlohmann::json result; ///< the compile result (result.json, report/<bucket>.json) or the quantize row; null if none
    nlohmann::json profile; ///< profile.json, or null when the job was not profiled
    std::vector<std::string> notes; ///< what is missing ("no kernels.json: ..."), for the report
};

/// Largest result, profile, manifest or quantize JSON file read (bytes): 64 MiB. kernels.json
/// holds generated source and may take up to Graph::kMaxSnapshotBytes.
inline constexpr std::uintmax_t kMaxJobFileBytes = 64ull << 20;

/// Read the job folder `dir`. Recognized by its files, in this order: manifest.json with format
/// `aotstudio.bundle` (a bundle), result.json (a compile; a profile.json beside it is its profile),
/// profile.json (a profile), a quantize.json in the parent folder with a scheme row whose `out`
/// is this folder (a quantize scheme). Snapshot and kernel paths recorded in the results are
/// looked up by file name inside the folder (snapshots/ or a bundle's graphs/), so a folder that was
/// moved or copied still reads. Throws CompareError naming `dir` and what is missing when it is not
/// a job folder (a quantize output's top folder: naming its scheme folders; a failed compile:
/// quoting its error.json), or when a JSON file cannot be read or parsed.
JobFolder loadJobFolder(const std::filesystem::path &dir);

/// Read a JSON file of at most `maxBytes`; CompareError naming the path on I/O errors, a larger
/// file or invalid JSON.
nlohmann::json readJson(const std::filesystem::path &path, std::uintmax_t maxBytes = kMaxJobFileBytes);

/// `j[key]` when `j` is an object holding a string there, else "" (results written by older
/// versions lack keys; a reader never throws on a missing or mistyped one).
std::string stringField(const nlohmann::json &j, const char *key);

} // namespace AotStudio::Compare
