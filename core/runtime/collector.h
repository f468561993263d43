// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace AotStudio::Runtime {

/// One RecordFunction range: an ATen op (dispatcher), a generated kernel (Inductor's
/// `cpp.enable_kernel_profile` wraps each C++ kernel in a named range) or a user scope.
struct Range {
    std::string name;
    std::int64_t startNs = 0; ///< steady_clock, ns (same clock as Range::nowNs())
    std::int64_t endNs = 0;
    std::uint32_t thread = 0; ///< small per-process thread number (1 = first thread seen)
    int depth = 0;            ///< always 0: only outermost ranges are recorded (see RangeCollector)
};

/// Collects RecordFunction ranges from every thread (at::addGlobalCallback) between start() and
/// stop(). While it is stopped no callback is registered, so untraced runs pay nothing. Each
/// thread appends to its own buffer (no lock on the hot path). Only the outermost range of each
/// thread is recorded (a package's kernels and library calls, eager's top-level ATen ops); ranges
/// nested in them cost a thread-local counter, no clock read, so that the collector's overhead
/// stays near RecordFunction's own. Only one collector may run at a
/// time in a process, and never together with torch.profiler (they share RecordFunction and, on
/// CUDA, CUPTI's single subscriber).
class RangeCollector {
public:
    RangeCollector();
    ~RangeCollector(); ///< stops collecting if still running
    RangeCollector(const RangeCollector &) = delete;
    RangeCollector &operator=(const RangeCollector &) = delete;

    /// Which threads a collection observes.
    enum class Threads {
        All,      ///< at::addGlobalCallback: every thread (ops started on any thread are seen)
        ThisOnly, ///< at::addThreadLocalCallback: the calling thread, and the intra-op workers that
                  ///< inherit its RecordFunction state through ATen's ThreadLocalState. Registering
                  ///< and removing rebuilds only this thread's callback cache, at once (a global
                  ///< callback makes every thread rebuild lazily, inside its next op), so
                  ///< switching it on and off around single calls costs nothing inside them.
    };

    /// Where ranges come from.
    enum class Source {
        RecordFunction, ///< ATen's RecordFunction callbacks: eager's ops, any package
        AotiShim,       ///< a CPU package's own kernel ranges, taken at AOTInductor's C ABI
                        ///< (aoti_record_function_start/end, interposed by this library): two clock
                        ///< reads per range and no RecordFunction at all, for the kernel and for
                        ///< the ATen ops nested in a library call. Only when aotiShimHookReached().
    };

    /// Clear the ranges and start collecting (register the callback, or switch the shim hook on).
    /// Throws std::runtime_error if another RangeCollector is running.
    void start(Threads threads = Threads::All, Source source = Source::RecordFunction);
    /// Unregister the callback and return the ranges, sorted by start time. Ranges still open
    /// (started but not ended) are dropped. A Threads::ThisOnly collection must be stopped on the
    /// thread that started it.
    std::vector<Range> stop();
    bool running() const;

    /// The clock of Range::startNs / endNs: std::chrono::steady_clock in ns.
    static std::int64_t nowNs();
};

/// Whether a package's calls reach this library's definitions of AOTInductor's
/// `aoti_record_function_start`/`_end` (true once any call did, recording or not): then
/// RangeCollector::Source::AotiShim works. False when the executable does not export them (see
/// core/runtime/CMakeLists.txt) or no package compiled with `cpp.enable_kernel_profile` has run.
bool aotiShimHookReached();

/// Peak memory of one call, in bytes above the level when the call began.
struct MemoryPeak {
    std::optional<long long> peakBytes; ///< empty when no method worked
    std::string method; ///< "cpu_allocator_reporter", "cuda_caching_allocator" or "rss_high_water"
};

/// Run `call` once and report its peak memory. On "cpu": c10's memory-reporting hook (every CPU
/// allocation and free reported to a MemoryReportingInfoBase installed with a DebugInfoGuard,
/// inherited by ATen's intra-op threads); the peak is the highest running sum of reported sizes.
/// On "cuda": CUDACachingAllocator's peak allocated_bytes after resetPeakStats (current device).
/// Exceptions from `call` propagate.
MemoryPeak measurePeakMemory(const std::function<void()> &call, const std::string &device);

/// Whether this process's LibTorch exports NativeRT's `torch::nativert::ModelRunnerHandle`
/// (the header ships in every wheel; the implementation is not built into all of them). When it
/// does not, `reason` says so.
bool nativeRtAvailable(std::string &reason);

/// CUDA-event end-to-end latency of `call` on the current stream, in ms (CUDA only); empty without
/// a CUDA device.
std::optional<double> cudaEventMs(const std::function<void()> &call);

} // namespace AotStudio::Runtime
