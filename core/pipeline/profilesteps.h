// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The steps of a profile below runProfile (profilejob.cpp): the variants timed together, memory,
// the profile's bundle for cold start and replay (profilemeasure.cpp), and the report: variants,
// kernels with their provenance, memory against eager, the files (profilereport.cpp).
// Engine-internal, not part of the job API. The shared steps (verify, ...) are in steps.h.

#include "pipeline/coldstart.h"
#include "pipeline/job.h"
#include "pipeline/measurement.h"
#include "profiler/cupti.h"
#include "profiler/measure.h"
#include "profiler/trace.h"
#include "protocol/messages.h"
#include "runtime/collector.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace AotStudio::Python {
class CompileJob;
}
namespace AotStudio::Runtime {
class AotiRunner;
}

namespace AotStudio::Pipeline::ProfileSteps {

/// Adds a warning to the profile and logs it.
using WarnFn = std::function<void(const std::string &)>;

/// Memory rounds: each round measures one call of every variant in turn, so that compiled/eager is
/// a ratio over paired rounds (Profiler::ratioInterval) like the latency ratios.
inline constexpr int kMemoryRounds = 5;

/// A profile request, validated (FORMAT.md "profile").
struct ProfileRequest {
    Profiler::MeasureOptions options;
    int threads = 1; ///< intra-op threads in effect (applyThreads)
    std::string model;
    std::string device = "cpu";
    std::string shapes; ///< the request's `shapes` as JSON text, "" when none (the cold start's eager side)
    std::filesystem::path out; ///< absolute, created
    std::vector<int> runnerCounts{1, 2, 4};
    std::set<std::string> wanted{"eager", "aoti", "nativert"};
    bool trace = true;
    double throughputSeconds = 1.0; ///< s per runner count
    int coldRuns = 3;
    std::optional<ReplaySpec> replay; ///< the burst replay; absent: none (the default)
    std::optional<std::string> package; ///< a given package (absolute); absent: compile here
    bool convertLayout = false; ///< `convert_layout`: inputs copied into the package's layout, not refused
};

/// One variant of the profile (eager, aoti, nativert): how it is called and what was measured.
struct Variant {
    std::string name;
    bool available = false;
    std::string reason;
    std::function<void()> call;
    Profiler::Summary plain, traced;
    bool hasTraced = false;
    double tracedWallMs = 0;
    Runtime::MemoryPeak memory; ///< peakBytes: the median of memorySamples
    std::vector<double> memorySamples; ///< one call's peak bytes per memory round
    std::optional<double> cudaEventMs;
    std::optional<double> busyShare;
};

/// Provenance of kernels.json by the names ranges carry: generated kernels by name, library calls
/// by their ATen op ("aten::addmm" for `aoti_torch_cpu_addmm_out`; several calls of one op merge).
struct Provenance {
    struct Entry {
        std::string kind;
        std::set<std::string> post, pre;
    };
    std::map<std::string, Entry> byName;

    /// kernels.json at `path`; empty when it is missing or unreadable.
    static Provenance load(const std::filesystem::path &path);
    /// The entry of the range named `rangeName` (a `graph_<id>_` prefix ignored), or null.
    const Entry *find(const std::string &rangeName) const;
};

/// Step 4's timing of every variant, untraced and traced.
struct Measured {
    std::optional<Comparison> comparison;
    std::vector<std::pair<std::size_t, std::size_t>>
        slots; ///< per variant: its plain and traced index in the comparison (SIZE_MAX: none)
    std::int64_t origin = 0; ///< trace time zero (RangeCollector::nowNs)
    std::vector<Profiler::TimedRange> ranges; ///< CPU ranges of the sampled calls, and their call frames (depth -1)
    std::map<std::string, double> wallMs; ///< per variant, wall time of the kept sampled calls (ms)
    std::map<std::string, Protocol::Json> overheadIntervals, sampledOverhead;
    Protocol::Json collector; ///< PROFILE.md "collector"
    std::unique_ptr<Profiler::CuptiCollector> cupti; ///< null on CPU or when CUPTI could not start
    std::vector<Profiler::CuptiRecord> gpuRecords;
};

/// The one-bucket bundle that cold start and the burst replay run: the package hard-linked into
/// `out/coldstart`, the manifest built as export builds it (Bundle::newManifest).
struct ProfileBundle {
    std::filesystem::path dir;
    long long batch = 1; ///< the example inputs' batch: the bucket's
};

/// Step 8a: the variants as PROFILE.md's "variants" rows, the speedups against eager with their
/// intervals, and the measurement verdict (a line in `warn` when it is not ok).
struct VariantReport {
    Protocol::Json variants = Protocol::Json::array();
    Protocol::Json speedup = Protocol::Json::object();
    Protocol::Json speedupIntervals = Protocol::Json::object();
    Protocol::Json measurement;
};

/// Step 8b: kernels (compiled variants) and ops (eager) from the sampled calls, CUDA kernels from
/// CUPTI, each row joined to kernels.json's provenance; the GPU summary; the trace's ranges with
/// kind and covered nodes, and its thread names.
struct KernelReport {
    Protocol::Json kernels = Protocol::Json::array();
    Protocol::Json ops = Protocol::Json::array();
    Protocol::Json gpu; ///< null on CPU
    std::vector<Profiler::TimedRange> trace;
    std::map<std::pair<int, std::uint64_t>, std::string> threadNames;
    bool hasGpuRanges = false;
};

/// Where a profile's files go in `out` (FORMAT.md "profile" files).
struct ProfileFiles {
    std::filesystem::path json, csv, kernelsCsv, trace;
    explicit ProfileFiles(const std::filesystem::path &out)
        : json(out / "profile.json")
        , csv(out / "profile.csv")
        , kernelsCsv(out / "profile_kernels.csv")
        , trace(out / "trace.json")
    { }
};

/// The variants asked for, in the order eager, aoti, nativert; nativert is listed unavailable
/// with its reason (AOT Studio does not drive NativeRT yet). The calls hold `job` and `runner`
/// by reference.
std::vector<Variant> makeVariants(const ProfileRequest &req, Python::CompileJob &job, Runtime::AotiRunner &runner,
                                  const WarnFn &warn);

/// Time every available variant untraced and traced, all together in alternating blocks
/// (measurement.h): a drift of machine load hits every variant and both passes alike; the speedups
/// and the collector's overhead are ratios of paired medians with intervals. The collector is on
/// for a sample of the traced calls only: the first of every block and every kTraceEvery-th after
/// it, switched on and off outside the timer (PairedVariant::beforeCall/afterCall) and on this
/// thread only, so the other calls of a traced block run as untraced ones do. The sampled calls
/// fill kernels, ops and the trace; sampled_call_overhead says how much each of them was slowed.
/// Fills each variant's plain/traced summaries and GPU busy share. Throws JobFailed(cancelled).
Measured measureVariants(const Job &ctx, const ProfileRequest &req, std::vector<Variant> &variants, const WarnFn &warn);

/// Step 5: peak memory per variant over kMemoryRounds rounds of one untimed call each, the
/// variants in turn within a round (the median is `memory.peakBytes`), and, on CUDA, the median
/// CUDA-event latency of 5..50 calls. Throws JobFailed(cancelled) between calls.
void measureMemory(const Job &ctx, std::vector<Variant> &variants, const std::string &device);

/// Step 7a: write `out/coldstart` for the package. Empty when it cannot be written (`warn` says why).
std::optional<ProfileBundle> writeProfileBundle(const ProfileRequest &req, const std::string &package,
                                                const Protocol::Json &loaded, const Protocol::Json &verified,
                                                const WarnFn &warn);

/// Step 7b: cold start (coldstart.h) of aotstudio-run on the profile's bundle against Python
/// eager. Returns FORMAT.md's "cold start" object, empty when not measured (`warn` says why).
Protocol::Json measureProfileColdStart(const Job &ctx, const ProfileRequest &req,
                                       const std::optional<ProfileBundle> &bundle, const WarnFn &warn);

/// Step 7c: the burst replay (coldstart.h) on the same bundle, when the request asks for it.
/// Returns PROFILE.md's "replay" object, null when not asked; its failures are warnings.
Protocol::Json measureProfileReplay(const Job &ctx, const ProfileRequest &req,
                                    const std::optional<ProfileBundle> &bundle, const WarnFn &warn);

/// Step 8a: the VariantReport of `variants` timed in `m`: a row per variant, each compiled
/// variant's speedup against eager (logged), the verdict.
VariantReport reportVariants(const Job &ctx, const std::vector<Variant> &variants, Measured &m,
                             const Profiler::MeasureOptions &options, const WarnFn &warn);

/// Step 8c: each compiled variant's peak memory against eager's (PROFILE.md "memory_vs_eager"):
/// the ratio of the medians over the paired rounds with its interval, whether it is within
/// kMemoryTarget, and why, from the compile's memory plan (`memory.json` beside the package,
/// FORMAT.md "Memory plan": Inductor's planned peak, the buffers live there, the buffers extern
/// calls allocate themselves, the constants the package holds). Null without an eager peak.
Protocol::Json memoryVsEager(const std::vector<Variant> &variants, const std::string &package, bool freezing,
                             const WarnFn &warn);

/// Step 8b: the KernelReport of `m`'s sampled calls and CUPTI records, joined to `provenance`;
/// names `m`'s trace ranges (kind, covered nodes) on the way.
KernelReport reportKernels(Measured &m, const std::vector<Variant> &variants, const Provenance &provenance,
                           const std::string &device);

/// FORMAT.md "device_info": the engine's description of `device` and the threads in effect.
Protocol::Json deviceInfo(const std::string &device, int threads, const Profiler::CuptiCollector *cupti);

/// Step 8c: profile.csv (a row per variant), profile_kernels.csv (a row per kernel and op),
/// trace.json (Chrome trace format, when traced), then profile.json last, each written atomically.
void writeProfileFiles(const ProfileFiles &files, const Protocol::Json &result, const KernelReport &k,
                       std::int64_t origin, bool trace);

} // namespace AotStudio::Pipeline::ProfileSteps
