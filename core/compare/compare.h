// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Compile-to-compile comparison (issue 16, item 1): two job folders side by side, their graphs
// stage by stage (Graph::diffSnapshots), their kernels (only in A, only in B, changed source with a
// unified diff, other covered nodes) and, when both were profiled, time per kernel and per module
// group with a verdict naming what moved the latency most. Computed here; the CLI and the studio
// only print or draw it (FORMAT.md "compare").

#include "compare/jobfolder.h"
#include "graph/graphdiff.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace AotStudio::Compare {

/// An estimate with its 95% interval; `low`/`high` empty when there is none (then never show the
/// estimate as if it were certain).
struct Estimate {
    double estimate = 0;
    std::optional<double> low, high;
    bool hasInterval() const { return low.has_value() && high.has_value(); }
};

/// One line of the side-by-side table: a recorded fact of each job ("" when not recorded).
struct FieldRow {
    std::string field; ///< "model", "device", "torch", "torchao", "package bytes", "option freezing", ...
    std::string a, b;
    bool differs() const { return a != b; }
};

/// A node named in a stage diff, with what it computes.
struct NodeRef {
    std::string id; ///< FX node name in its own job's snapshot
    std::string target; ///< e.g. "aten.convolution.default"
    std::string module; ///< innermost module path ("" = top level)
};

/// How often one op target occurs at a stage in A and in B (only targets whose counts differ).
struct TargetCount {
    std::string target;
    int a = 0, b = 0;
};

/// The graph diff of one stage present in both jobs: A's last snapshot of the stage against B's.
struct StageDiff {
    std::string stage;
    StageSnapshot a, b;
    std::size_t nodesA = 0, nodesB = 0;
    Graph::GraphDiff diff; ///< Graph::diffSnapshots(A, B): "added" = only in B
    std::vector<NodeRef> added; ///< diff.added with their targets (B's nodes)
    std::vector<NodeRef> removed; ///< diff.removed with their targets (A's nodes)
    std::vector<TargetCount> targets; ///< op targets whose count differs, most changed first
    std::string error; ///< a snapshot that could not be read (then no diff)
};

/// A kernel of one job: the kernels.json entries of one name merged (a library call such as
/// aoti_torch_cpu_convolution_out appears once per call site).
struct KernelInfo {
    std::string name; ///< as in kernels.json (cpp_fused_relu_0, aoti_torch_cpu_addmm_out)
    std::string kind; ///< cpp, triton, library, ...
    int instances = 0; ///< kernels.json entries of this name (call sites)
    std::vector<std::string> nodes; ///< post-grad nodes covered, sorted, without repeats
    std::string source; ///< generated source ("" for library calls)
};

/// A kernel present in both jobs that differs, or a kernel of A renamed in B (identical source
/// once each side's own kernel name is replaced: Inductor numbers its kernels by position).
struct KernelChange {
    std::string nameA, nameB; ///< equal unless renamed
    std::string kind;
    bool renamed() const { return nameA != nameB; }
    bool sourceChanged = false;
    std::string sourceDiff; ///< unified diff of the source (empty when it did not change)
    std::vector<std::string> nodesOnlyA, nodesOnlyB; ///< covered post-grad nodes that differ
    int instancesA = 0, instancesB = 0;
};

/// The kernel diff of two kernels.json files.
struct KernelDiff {
    bool compared = false; ///< false when a side has no kernels.json (`why` says which)
    std::string why;
    std::size_t countA = 0, countB = 0; ///< distinct kernel names
    std::vector<KernelInfo> onlyA, onlyB;
    std::vector<KernelChange> changed;
    std::vector<std::string> unchanged; ///< names of kernels equal in source, nodes and call sites
};

/// A latency distribution as a job recorded it (ms).
struct Latency {
    double medianMs = 0, p10Ms = 0, p90Ms = 0;
    int runs = 0;
};

/// What one job measured: from its profile.json when it has one, else from its compile's measure
/// stage (result.json: no kernels, no groups).
struct SideTime {
    std::string source; ///< "profile", "compile" (measure stage) or "" (not measured)
    bool profiled = false; ///< a profile.json with kernel times
    std::optional<Latency> compiled, eager;
    std::optional<Estimate> speedup; ///< eager / compiled, paired within the job's own run
    std::string verdict; ///< the machine verdict of that run: ok, noisy, unreliable, unknown
    std::string created; ///< when the profile was written (ISO 8601), if recorded
    std::optional<int> threads;
};

/// One kernel's time per forward call (ms) in each profile: 0 when that profile lacks the kernel,
/// empty when that job was not profiled.
struct KernelTime {
    std::string name; ///< kernels.json name (the profile's "graph_N_" prefix dropped)
    std::string kind;
    std::optional<double> msA, msB;
    double delta() const { return msB.value_or(0) - msA.value_or(0); } ///< B - A, ms per forward call (both profiled)
};

/// Time per forward call (ms) of the kernels attributed to one module group; empty when that job
/// was not profiled.
struct GroupTime {
    std::string
        group; ///< top-level module (first component of the nodes' module path), "(top level)" or "(not attributed)"
    std::optional<double> msA, msB;
    double delta() const { return msB.value_or(0) - msA.value_or(0); } ///< B - A (both profiled)
};

/// Time side by side. Two separate jobs were never measured in one paired session, so `paired` is
/// false today and every figure is marked as from different runs.
struct TimeDiff {
    SideTime a, b;
    bool paired = false;
    /// compiled B / compiled A through each run's own eager (speedup A / speedup B), with the two
    /// runs' 95% intervals combined in log space as independent; empty unless both runs recorded
    /// a speedup with its interval (a ratio is never given without its uncertainty).
    std::optional<Estimate> latencyRatio;
    bool eagerMoved = false; ///< eager's p10..p90 of A and B do not overlap (machine or torch differed)
    std::vector<KernelTime>
        kernels; ///< every profiled kernel, largest |B - A| first (one side profiled: largest first)
    std::vector<GroupTime> groups; ///< every module group, in the same order
    std::vector<std::string> verdict; ///< a few sentences: the ratio, the largest contributors
    std::vector<std::string> notes; ///< method and caveats
};

/// Everything compare shows.
/// The memory plans of two compiles side by side (memory.json of each, FORMAT.md "Memory plan").
/// Inductor names buffers per compile (`buf12`), so buffers are paired by the post-grad nodes they
/// hold (with dtype and shape); a buffer of A whose nodes no buffer of B holds is `onlyA`.
struct MemoryDiff {
    bool compared = false;
    std::string why; ///< why not compared ("A has no memory.json ..."), else ""
    nlohmann::json a,
        b; ///< each side's peaks: predicted_bytes, planned_bytes, measured_bytes, constants_bytes, buffers
    std::vector<nlohmann::json> onlyA, onlyB; ///< {name, bytes, dtype, shape, nodes}, largest first
    std::size_t paired = 0; ///< buffers found on both sides
};

/// The fusion decisions of two compiles side by side (fusion.json of each, FORMAT.md "Fusion
/// decisions"): the refused pairs counted per reason category and the post-grad nodes per status,
/// each side's counts as its file has them (`by_category`, `status_counts`).
struct FusionDiff {
    bool compared = false;
    std::string why; ///< why not compared ("B has no fusion.json ..."), else ""
    /// One row per category either side refused with, most refusals (A + B) first.
    struct Count {
        std::string name;
        long long a = 0, b = 0;
    };
    std::vector<Count> categories; ///< refused pairs per reason category
    std::vector<Count> statuses; ///< post-grad nodes per status: fused, refused, not_chosen, never_candidate
    long long refusedA = 0, refusedB = 0; ///< refused pairs in all
    long long fusedKernelsA = 0, fusedKernelsB = 0; ///< kernels fusing several operations
    bool completeA = true, completeB = true; ///< false: that side's log is partial
};

struct Comparison {
    JobFolder a, b;
    std::vector<FieldRow> fields; ///< side by side: model, kind, device, dtype, versions, package size, options
    std::vector<StageDiff> stages; ///< stages present in both, in pipeline order
    std::vector<std::string> stagesOnlyA, stagesOnlyB;
    KernelDiff kernels;
    TimeDiff time;
    MemoryDiff memory;
    FusionDiff fusion;
};

/// What to compare.
struct CompareOptions {
    std::string stage; ///< only this stage's graph diff ("" = every stage present in both)
};

/// Compare two loaded jobs. Throws CompareError when they are jobs of different models (the
/// message names both), or when `options.stage` is not a stage both jobs have (naming the stages
/// they share). A side without a profile is compared on graphs and kernels; its time figures are
/// empty ("not profiled").
Comparison compareJobs(const JobFolder &a, const JobFolder &b, const CompareOptions &options = {});

/// loadJobFolder() on both, then compareJobs().
Comparison compareFolders(
    const std::filesystem::path &a, const std::filesystem::path &b, const CompareOptions &options = {});

/// The kernel diff of two kernels.json objects (schema aotstudio.kernels); `labelA`/`labelB`
/// head the unified diffs. Exposed for tests and for the studio's kernel table.
KernelDiff diffKernels(const nlohmann::json &kernelsA, const nlohmann::json &kernelsB, const std::string &labelA = "A",
    const std::string &labelB = "B");

/// The memory diff of two memory.json objects (format aotstudio.memory), with each side's measured
/// peak in bytes when its profile has one (profile.json `aoti` variant's `memory.peak_bytes`).
/// Exposed for tests and for the studio's Compare window. A plan with `available` false is not
/// compared (`why` says which side).
MemoryDiff diffMemory(const nlohmann::json &memoryA, const nlohmann::json &memoryB,
                      std::optional<double> measuredA = std::nullopt, std::optional<double> measuredB = std::nullopt);

/// The fusion diff of two fusion.json objects (format aotstudio.fusion). A file with `available`
/// false is not compared (`why` says which side). Exposed for tests and the studio.
FusionDiff diffFusion(const nlohmann::json &fusionA, const nlohmann::json &fusionB);

/// Speedup A / speedup B with the intervals combined in log space (half-widths added in
/// quadrature on each side, as for independent estimates): an estimate of compiled B / compiled A
/// when eager ran alike in both runs. No interval when either side has none.
Estimate ratioThroughEager(const Estimate &speedupA, const Estimate &speedupB);

/// The comparison as FORMAT.md "compare" describes it (format aotstudio.compare, version 1).
nlohmann::json toJson(const Comparison &c);

} // namespace AotStudio::Compare
