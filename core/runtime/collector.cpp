// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/collector.h"
#include "runtime/libraries.h"

#include <ATen/record_function.h>
#include <c10/core/Allocator.h>
#include <c10/util/ThreadLocalDebugInfo.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/profiler/orchestration/observer.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <mutex>
#include <stdexcept>

namespace AotStudio::Runtime {

namespace {

/// Per-thread buffer; registered once per thread in g_buffers (never freed: threads of ATen's
/// pools live as long as the process, and a buffer must outlive its thread's last range).
/// A range as recorded on the hot path: the name copied into the record (no heap allocation per
/// range; names longer than the buffer are cut), turned into a Range at stop().
struct RawRange {
    char name[88];
    std::int64_t startNs;
    std::int64_t endNs;
    int depth;
};

struct ThreadBuffer {
    std::uint32_t thread = 0;
    int depth = 0;
    std::uint64_t generation = 0; ///< the collection this buffer's ranges belong to
    std::vector<RawRange> ranges;
};

std::mutex g_mutex;
std::vector<ThreadBuffer *> g_buffers;
std::atomic<bool> g_running{false};
std::atomic<std::uint64_t> g_generation{0};
std::atomic<std::uint32_t> g_threads{0};
at::CallbackHandle g_handle = 0;
std::atomic<bool> g_shimActive{false};        ///< the AOTI shim hook records (see aoti_record_function_start below)
std::atomic<std::uint64_t> g_shimCalls{0};    ///< calls that reached the hook, recording or not

std::int64_t &openStart()
{
    thread_local std::int64_t start = 0;
    return start;
}

ThreadBuffer &threadBuffer()
{
    thread_local ThreadBuffer *buffer = [] {
        auto *b = new ThreadBuffer;
        b->thread = ++g_threads;
        std::lock_guard lock(g_mutex);
        g_buffers.push_back(b);
        return b;
    }();
    return *buffer;
}

/// A new range in this thread's buffer for the current collection (the buffer is emptied first
/// when it still holds an earlier collection's), `name` copied in (cut to fit).
RawRange &appendRange(ThreadBuffer &b, const char *name)
{
    const auto gen = g_generation.load(std::memory_order_relaxed);
    if (b.generation != gen) {
        b.ranges.clear();
        b.generation = gen;
    }
    if (b.ranges.capacity() == 0)
        b.ranges.reserve(4096);
    auto &r = b.ranges.emplace_back();
    const std::size_t n = name ? ::strnlen(name, sizeof r.name - 1) : 0;
    std::memcpy(r.name, name ? name : "", n);
    r.name[n] = '\0';
    return r;
}

// Only outermost ranges (depth 0 on their thread) are recorded: the package's generated kernels and
// library calls (`aoti_torch_cpu_addmm_out`), eager's top-level ATen ops (`aten::linear`). The ops
// nested inside them (`aten::addmm` -> `aten::expand`, `aten::copy_`, ...; about 15 of the 20 ranges
// of one sample:mlp call) cost RecordFunction's bookkeeping anyway, but this collector's own work
// for them is one thread-local increment and decrement: no clock read, no copy. The start time of
// the open outermost range lives in a thread-local; no ObserverContext is allocated (the start
// callback returns null; RecordFunction still calls the end callback).

std::unique_ptr<at::ObserverContext> onStart(const at::RecordFunction &)
{
    auto &b = threadBuffer();
    if (b.depth++ == 0)
        openStart() = RangeCollector::nowNs();
    return nullptr;
}

void onEnd(const at::RecordFunction &fn, at::ObserverContext *)
{
    auto &b = threadBuffer();
    if (b.depth == 0)
        return; // started before the collector did
    if (--b.depth != 0 || !g_running.load(std::memory_order_relaxed))
        return;
    const std::int64_t end = RangeCollector::nowNs();
    auto &r = appendRange(b, fn.name());
    r.startNs = openStart();
    r.endNs = end;
    r.depth = 0;
}

/// The memory reporter. It derives from ProfilerStateBase (itself a MemoryReportingInfoBase) with
/// a *disabled* profiler config, because code that asks "is the profiler on?" casts whatever sits
/// in the PROFILER_STATE slot to ProfilerStateBase: a bare MemoryReportingInfoBase there would be
/// undefined behaviour, this one answers "disabled" while still receiving memory reports.
class MemoryReporter final : public torch::profiler::impl::ProfilerStateBase {
public:
    MemoryReporter()
        : ProfilerStateBase(torch::profiler::impl::ProfilerConfig(torch::profiler::impl::ProfilerState::Disabled,
                                                                  /*report_input_shapes=*/false, /*profile_memory=*/true))
    {
    }
    void reportMemoryUsage(void *, int64_t allocSize, size_t, size_t, c10::Device device) override
    {
        if (!device.is_cpu())
            return;
        std::lock_guard lock(m_mutex);
        m_current += allocSize;
        m_peak = std::max(m_peak, m_current);
    }
    bool memoryProfilingEnabled() const override { return true; }
    torch::profiler::impl::ActiveProfilerType profilerType() override { return torch::profiler::impl::ActiveProfilerType::NONE; }
    long long peak()
    {
        std::lock_guard lock(m_mutex);
        return m_peak;
    }

private:
    std::mutex m_mutex;
    long long m_current = 0;
    long long m_peak = 0;
};

long long rssHighWaterBytes()
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stoll(line.substr(6)) * 1024; // kB
    }
    return -1;
}

} // namespace

RangeCollector::RangeCollector() = default;

RangeCollector::~RangeCollector()
{
    if (running())
        stop();
}

std::int64_t RangeCollector::nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool RangeCollector::running() const
{
    return g_running.load();
}

void RangeCollector::start(Threads threads, Source source)
{
    std::lock_guard lock(g_mutex);
    if (g_running.load())
        throw std::runtime_error("a RecordFunction collector is already running in this process");
    ++g_generation;
    for (auto *b : g_buffers) {
        b->ranges.clear();
        b->depth = 0;
    }
    if (source == Source::AotiShim) {
        g_shimActive = true;
    } else {
        const auto callback = at::RecordFunctionCallback(&onStart, &onEnd);
        g_handle = threads == Threads::ThisOnly ? at::addThreadLocalCallback(callback) : at::addGlobalCallback(callback);
    }
    g_running = true;
}

std::vector<Range> RangeCollector::stop()
{
    std::vector<Range> out;
    {
        std::lock_guard lock(g_mutex);
        if (!g_running.load())
            return out;
        if (g_handle)
            at::removeCallback(g_handle);
        g_handle = 0;
        g_shimActive = false;
        g_running = false;
        const auto gen = g_generation.load();
        // Callbacks already in flight on other threads finish on their own buffers; ranges of this
        // collection are those tagged with its generation.
        for (auto *b : g_buffers) {
            if (b->generation == gen)
                for (const auto &r : b->ranges)
                    if (r.endNs >= r.startNs) // a shim range still open has endNs -1
                        out.push_back(Range{r.name, r.startNs, r.endNs, b->thread, r.depth});
            b->ranges.clear();
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const Range &a, const Range &b) { return a.startNs < b.startNs; });
    return out;
}

MemoryPeak measurePeakMemory(const std::function<void()> &call, const std::string &device)
{
    MemoryPeak r;
    if (device.rfind("cuda", 0) == 0 && Libraries::cudaUsable()) {
        r.peakBytes = Libraries::cuda().peakAllocatedBytes([](void *c) { (*static_cast<const std::function<void()> *>(c))(); },
                                                           const_cast<std::function<void()> *>(&call));
        r.method = "cuda_caching_allocator";
        return r;
    }
    auto reporter = std::make_shared<MemoryReporter>();
    {
        c10::DebugInfoGuard guard(c10::DebugInfoKind::PROFILER_STATE, reporter);
        call();
    }
    const long long peak = reporter->peak();
    if (peak > 0) {
        r.peakBytes = peak;
        r.method = "cpu_allocator_reporter";
        return r;
    }
    // Nothing reported (an allocator that bypasses c10's reporting): the process high-water mark.
    const long long before = rssHighWaterBytes();
    call();
    const long long after = rssHighWaterBytes();
    if (before >= 0 && after >= 0) {
        r.peakBytes = after - before;
        r.method = "rss_high_water";
    }
    return r;
}

bool nativeRtAvailable(std::string &reason)
{
    // torch::nativert::ModelRunnerHandle::ModelRunnerHandle(std::string const&, std::string const&)
    static const char *kSymbol = "_ZN5torch8nativert17ModelRunnerHandleC1ERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEES9_";
    if (dlsym(RTLD_DEFAULT, kSymbol))
        return true;
    reason = "this torch build ships torch/nativert/ModelRunnerHandle.h but its libtorch exports no "
             "torch::nativert::ModelRunnerHandle (NativeRT is not compiled into the wheel)";
    return false;
}

std::optional<double> cudaEventMs(const std::function<void()> &call)
{
    if (!Libraries::cudaUsable())
        return std::nullopt;
    return Libraries::cuda().eventElapsedMs([](void *c) { (*static_cast<const std::function<void()> *>(c))(); },
                                           const_cast<std::function<void()> *>(&call));
}

bool aotiShimHookReached()
{
    return g_shimCalls.load(std::memory_order_relaxed) > 0;
}

} // namespace AotStudio::Runtime

// The AOTI shim's range functions, interposed. A CPU package compiled with
// `cpp.enable_kernel_profile` wraps every generated kernel and library call in
// RAIIAtenRecordFunctionHandle, which calls these two functions of AOTInductor's stable C ABI
// (torch/csrc/inductor/aoti_torch/c/shim.h). The executables export them
// (--export-dynamic-symbol, core/runtime/CMakeLists.txt), so a package's .so, loaded later,
// binds to these definitions before libtorch's. While a collection with
// RangeCollector::Source::AotiShim runs, a range costs two clock reads and a buffer entry: no
// RecordFunction is built for the kernel, and none for the ATen ops nested in a library call
// (no callback is registered). Otherwise both forward to libtorch's own (dlsym RTLD_NEXT).
// Our handles are tagged with the low bit (a real RecordFunction* is aligned), so a range
// started before a collection and ended during it still reaches libtorch.
namespace {
using StartFn = AOTITorchError (*)(const char *, IValueMapHandle, const C10IValueHandle *, const uint64_t, AtenRecordFunctionHandle *);
using EndFn = AOTITorchError (*)(AtenRecordFunctionHandle);

StartFn realStart()
{
    static const auto fn = reinterpret_cast<StartFn>(dlsym(RTLD_NEXT, "aoti_record_function_start"));
    return fn;
}
EndFn realEnd()
{
    static const auto fn = reinterpret_cast<EndFn>(dlsym(RTLD_NEXT, "aoti_record_function_end"));
    return fn;
}
} // namespace

extern "C" AOTITorchError aoti_record_function_start(const char *name, IValueMapHandle kwargs, const C10IValueHandle *inputs,
                                                      const uint64_t n_inputs, AtenRecordFunctionHandle *guard)
{
    using namespace AotStudio::Runtime;
    g_shimCalls.fetch_add(1, std::memory_order_relaxed);
    if (!g_shimActive.load(std::memory_order_relaxed)) {
        if (const auto fn = realStart())
            return fn(name, kwargs, inputs, n_inputs, guard);
        *guard = nullptr; // no libtorch definition: nothing to record
        return AOTI_TORCH_SUCCESS;
    }
    auto &b = threadBuffer();
    const std::size_t index = b.ranges.size();
    auto &r = appendRange(b, name);
    r.depth = b.depth++;
    r.endNs = -1; // open
    r.startNs = RangeCollector::nowNs();
    *guard = reinterpret_cast<AtenRecordFunctionHandle>((index << 1) | 1u);
    return AOTI_TORCH_SUCCESS;
}

extern "C" AOTITorchError aoti_record_function_end(AtenRecordFunctionHandle guard)
{
    using namespace AotStudio::Runtime;
    const auto bits = reinterpret_cast<std::uintptr_t>(guard);
    if (!(bits & 1u)) {
        if (const auto fn = realEnd())
            return fn(guard);
        return AOTI_TORCH_SUCCESS;
    }
    const std::int64_t end = RangeCollector::nowNs();
    auto &b = threadBuffer();
    const std::size_t index = bits >> 1;
    if (b.depth > 0)
        --b.depth;
    if (index < b.ranges.size() && b.ranges[index].endNs < 0)
        b.ranges[index].endNs = end;
    return AOTI_TORCH_SUCCESS;
}

