// SPDX-License-Identifier: GPL-3.0-or-later
#include "profiler/cupti.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <link.h>
#include <map>
#include <mutex>
#include <tuple>

#ifndef AOTSTUDIO_NO_CUPTI
#include <cupti_activity.h>
#endif

namespace AotStudio::Profiler {

using nlohmann::json;

const char *kindName(CuptiRecord::Kind kind)
{
    switch (kind) {
    case CuptiRecord::Kind::Kernel:
        return "kernel";
    case CuptiRecord::Kind::Memcpy:
        return "memcpy";
    case CuptiRecord::Kind::Memset:
        return "memset";
    case CuptiRecord::Kind::Memory:
        return "memory";
    }
    return "other";
}

namespace {

/// A record's duration in ms; 0 when its end precedes its start (CUPTI leaves end 0 on a record it
/// could not complete). Subtracted as unsigned: any two timestamps, also corrupt ones, are defined
/// (tests/fuzz/fuzz_cupti found the signed overflow of end - start).
double durationMs(const CuptiRecord &r)
{
    if (r.endNs <= r.startNs)
        return 0.0;
    return static_cast<double>(static_cast<std::uint64_t>(r.endNs) - static_cast<std::uint64_t>(r.startNs)) / 1e6;
}

} // namespace

json gpuSummary(const std::vector<CuptiRecord> &records)
{
    std::map<std::tuple<std::string, std::string>, std::tuple<long long, std::uint64_t, double>> memcpy, memset;
    std::map<std::string, std::tuple<long long, long long, std::uint64_t>> memory;
    for (const auto &r : records) {
        const double ms = durationMs(r);
        if (r.kind == CuptiRecord::Kind::Memcpy || r.kind == CuptiRecord::Kind::Memset) {
            auto &t = (r.kind == CuptiRecord::Kind::Memcpy ? memcpy : memset)[{r.variant, r.copyKind}];
            ++std::get<0>(t);
            std::get<1>(t) += r.bytes;
            std::get<2>(t) += ms;
        } else if (r.kind == CuptiRecord::Kind::Memory) {
            auto &t = memory[r.variant];
            ++(r.allocation ? std::get<0>(t) : std::get<1>(t));
            if (r.allocation)
                std::get<2>(t) += r.bytes;
        }
    }
    json out{{"memcpy", json::array()}, {"memset", json::array()}, {"memory", json::array()}};
    for (const auto &[k, t] : memcpy)
        out["memcpy"].push_back({{"variant", std::get<0>(k)}, {"kind", std::get<1>(k)}, {"count", std::get<0>(t)}, {"bytes", std::get<1>(t)},
                                 {"total_ms", std::get<2>(t)}});
    for (const auto &[k, t] : memset)
        out["memset"].push_back({{"variant", std::get<0>(k)}, {"count", std::get<0>(t)}, {"bytes", std::get<1>(t)}, {"total_ms", std::get<2>(t)}});
    for (const auto &[v, t] : memory)
        out["memory"].push_back({{"variant", v}, {"allocations", std::get<0>(t)}, {"frees", std::get<1>(t)}, {"bytes", std::get<2>(t)}});
    return out;
}

#ifdef AOTSTUDIO_NO_CUPTI

std::size_t activityRecordSize(int) { return 0; }
int walkActivityBuffer(std::uint8_t *, std::size_t, void **) { return 1; }
std::vector<CuptiRecord> parseActivityBuffer(std::uint8_t *, std::size_t, NextRecordFn) { return {}; }
struct CuptiCollector::Private {
    std::string path;
};
std::unique_ptr<CuptiCollector> CuptiCollector::create(std::string &why)
{
    why = "built without CUPTI headers";
    return nullptr;
}
CuptiCollector::~CuptiCollector() = default;
void CuptiCollector::start() {}
std::vector<CuptiRecord> CuptiCollector::stop() { return {}; }
std::size_t CuptiCollector::droppedRecords() const { return 0; }
const std::string &CuptiCollector::libraryPath() const { return d->path; }

#else

std::size_t activityRecordSize(int kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        return sizeof(CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        return sizeof(CUpti_ActivityMemcpy6);
    case CUPTI_ACTIVITY_KIND_MEMSET:
        return sizeof(CUpti_ActivityMemset4);
    case CUPTI_ACTIVITY_KIND_MEMORY2:
        return sizeof(CUpti_ActivityMemory4);
    default:
        return 0;
    }
}

namespace {

/// The value of an enum field of a record as the integer CUPTI stores. Loading a value outside
/// the enum's range through the enum type is undefined behaviour (UBSan: tests/fuzz/fuzz_cupti
/// found it with a record kind of 2560099328), and the walker must survive any bytes.
template<typename E>
int rawEnum(const E &field)
{
    static_assert(sizeof(E) == sizeof(std::int32_t), "CUPTI stores its enums as 32-bit integers");
    std::int32_t value = 0;
    std::memcpy(&value, &field, sizeof value);
    return value;
}

} // namespace

int walkActivityBuffer(std::uint8_t *buffer, std::size_t validBytes, void **record)
{
    // *record null: the first record; else step over the current one (8-byte aligned).
    std::size_t offset = 0;
    if (*record) {
        const auto *cur = static_cast<const CUpti_Activity *>(*record);
        const std::size_t size = activityRecordSize(rawEnum(cur->kind));
        if (size == 0)
            return 1;
        offset = static_cast<std::size_t>(static_cast<const std::uint8_t *>(*record) - buffer) + ((size + 7) & ~std::size_t(7));
    }
    if (offset + sizeof(CUpti_Activity) > validBytes)
        return 1;
    const auto *next = reinterpret_cast<const CUpti_Activity *>(buffer + offset);
    const std::size_t size = activityRecordSize(rawEnum(next->kind));
    if (size == 0 || offset + size > validBytes)
        return 1;
    *record = buffer + offset;
    return 0;
}

namespace {

const char *copyKindName(std::uint8_t k)
{
    switch (k) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
        return "HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
        return "DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
        return "DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
        return "HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
        return "PtoP";
    default:
        return "other";
    }
}

} // namespace

std::vector<CuptiRecord> parseActivityBuffer(std::uint8_t *buffer, std::size_t validBytes, NextRecordFn next)
{
    if (!next)
        next = &walkActivityBuffer;
    std::vector<CuptiRecord> out;
    void *raw = nullptr;
    while (buffer && next(buffer, validBytes, &raw) == 0 && raw) {
        const auto *base = static_cast<const CUpti_Activity *>(raw);
        CuptiRecord r;
        switch (rawEnum(base->kind)) {
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
            const auto *k = static_cast<const CUpti_ActivityKernel10 *>(raw);
            r.kind = CuptiRecord::Kind::Kernel;
            r.name = k->name ? k->name : "<unnamed kernel>";
            r.startNs = static_cast<std::int64_t>(k->start);
            r.endNs = static_cast<std::int64_t>(k->end);
            r.device = k->deviceId;
            r.stream = k->streamId;
            r.correlation = k->correlationId;
            r.grid = {k->gridX, k->gridY, k->gridZ};
            r.block = {k->blockX, k->blockY, k->blockZ};
            r.registers = k->registersPerThread;
            r.staticShared = k->staticSharedMemory;
            r.dynamicShared = k->dynamicSharedMemory;
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
            const auto *m = static_cast<const CUpti_ActivityMemcpy6 *>(raw);
            r.kind = CuptiRecord::Kind::Memcpy;
            r.copyKind = copyKindName(m->copyKind);
            r.name = "memcpy " + r.copyKind;
            r.startNs = static_cast<std::int64_t>(m->start);
            r.endNs = static_cast<std::int64_t>(m->end);
            r.device = m->deviceId;
            r.stream = m->streamId;
            r.correlation = m->correlationId;
            r.bytes = m->bytes;
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMSET: {
            const auto *m = static_cast<const CUpti_ActivityMemset4 *>(raw);
            r.kind = CuptiRecord::Kind::Memset;
            r.name = "memset";
            r.startNs = static_cast<std::int64_t>(m->start);
            r.endNs = static_cast<std::int64_t>(m->end);
            r.device = m->deviceId;
            r.stream = m->streamId;
            r.correlation = m->correlationId;
            r.bytes = m->bytes;
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMORY2: {
            const auto *m = static_cast<const CUpti_ActivityMemory4 *>(raw);
            r.kind = CuptiRecord::Kind::Memory;
            r.allocation = rawEnum(m->memoryOperationType) == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
            r.name = r.allocation ? "malloc" : "free";
            r.startNs = r.endNs = static_cast<std::int64_t>(m->timestamp);
            r.device = m->deviceId;
            r.stream = m->streamId;
            r.correlation = m->correlationId;
            r.bytes = m->bytes;
            break;
        }
        default:
            continue;
        }
        out.push_back(std::move(r));
    }
    return out;
}

namespace {

using GetNextRecordFn = CUptiResult (*)(uint8_t *, size_t, CUpti_Activity **);
using RegisterCallbacksFn = CUptiResult (*)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
using KindFn = CUptiResult (*)(CUpti_ActivityKind);
using FlushAllFn = CUptiResult (*)(uint32_t);
using TimestampFn = CUptiResult (*)(uint64_t *);
using DroppedFn = CUptiResult (*)(CUcontext, uint32_t, size_t *);

struct Api {
    void *lib = nullptr;
    std::string path;
    GetNextRecordFn getNext = nullptr;
    RegisterCallbacksFn registerCallbacks = nullptr;
    KindFn enable = nullptr, disable = nullptr;
    FlushAllFn flushAll = nullptr;
    TimestampFn timestamp = nullptr;
    DroppedFn dropped = nullptr;
};

Api g_api;
std::mutex g_mutex;
std::vector<CuptiRecord> g_records;
std::size_t g_dropped = 0;
constexpr std::size_t kBufferBytes = 8 << 20;

int nextRecord(std::uint8_t *buffer, std::size_t validBytes, void **record)
{
    return g_api.getNext(buffer, validBytes, reinterpret_cast<CUpti_Activity **>(record));
}

void CUPTIAPI bufferRequested(uint8_t **buffer, size_t *size, size_t *maxNumRecords)
{
    *buffer = static_cast<uint8_t *>(std::aligned_alloc(8, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0;
    *maxNumRecords = 0; // as many as fit
}

void CUPTIAPI bufferCompleted(CUcontext context, uint32_t streamId, uint8_t *buffer, size_t, size_t validSize)
{
    auto records = parseActivityBuffer(buffer, validSize, &nextRecord);
    std::size_t dropped = 0;
    if (g_api.dropped)
        g_api.dropped(context, streamId, &dropped);
    std::free(buffer);
    std::lock_guard lock(g_mutex);
    g_records.insert(g_records.end(), std::make_move_iterator(records.begin()), std::make_move_iterator(records.end()));
    g_dropped += dropped;
}

std::string loadedPath(void *handle)
{
    link_map *map = nullptr;
    if (handle && dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name)
        return map->l_name;
    return {};
}

bool openApi(std::string &why)
{
    if (g_api.lib)
        return true;
    // The copy torch already loaded (kineto links it), then the wheel's, then the system's.
    void *lib = dlopen("libcupti.so.13", RTLD_NOW | RTLD_NOLOAD);
#ifdef AOTSTUDIO_WHEEL_CUPTI
    if (!lib)
        lib = dlopen(AOTSTUDIO_WHEEL_CUPTI, RTLD_NOW);
#endif
    if (!lib)
        lib = dlopen("libcupti.so.13", RTLD_NOW);
    if (!lib) {
        why = std::string("libcupti.so.13 not found: ") + dlerror();
        return false;
    }
    Api api;
    api.lib = lib;
    api.path = loadedPath(lib);
    api.getNext = reinterpret_cast<GetNextRecordFn>(dlsym(lib, "cuptiActivityGetNextRecord"));
    api.registerCallbacks = reinterpret_cast<RegisterCallbacksFn>(dlsym(lib, "cuptiActivityRegisterCallbacks"));
    api.enable = reinterpret_cast<KindFn>(dlsym(lib, "cuptiActivityEnable"));
    api.disable = reinterpret_cast<KindFn>(dlsym(lib, "cuptiActivityDisable"));
    api.flushAll = reinterpret_cast<FlushAllFn>(dlsym(lib, "cuptiActivityFlushAll"));
    api.timestamp = reinterpret_cast<TimestampFn>(dlsym(lib, "cuptiGetTimestamp"));
    api.dropped = reinterpret_cast<DroppedFn>(dlsym(lib, "cuptiActivityGetNumDroppedRecords"));
    if (!api.getNext || !api.registerCallbacks || !api.enable || !api.disable || !api.flushAll || !api.timestamp) {
        why = "libcupti at '" + api.path + "' lacks the activity API";
        return false;
    }
    g_api = api;
    return true;
}

constexpr CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET,
                                         CUPTI_ACTIVITY_KIND_MEMORY2};

std::int64_t steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace

struct CuptiCollector::Private {
    std::string path;
    std::int64_t offsetNs = 0; ///< steady_clock minus CUPTI clock
};

std::unique_ptr<CuptiCollector> CuptiCollector::create(std::string &why)
{
    if (!openApi(why))
        return nullptr;
    if (const CUptiResult rc = g_api.registerCallbacks(&bufferRequested, &bufferCompleted); rc != CUPTI_SUCCESS) {
        why = "no CUDA device: cuptiActivityRegisterCallbacks failed with CUPTI error " + std::to_string(rc) +
              " (another CUPTI subscriber such as torch.profiler, or no driver)";
        return nullptr;
    }
    // Probe: without a driver or device this fails (CUPTI_ERROR_UNKNOWN, 999, and friends).
    if (const CUptiResult rc = g_api.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); rc != CUPTI_SUCCESS) {
        why = "no CUDA device: cuptiActivityEnable failed with CUPTI error " + std::to_string(rc);
        return nullptr;
    }
    g_api.disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    std::unique_ptr<CuptiCollector> c(new CuptiCollector);
    c->d = std::make_unique<Private>();
    c->d->path = g_api.path;
    return c;
}

CuptiCollector::~CuptiCollector() = default;

void CuptiCollector::start()
{
    {
        std::lock_guard lock(g_mutex);
        g_records.clear();
    }
    uint64_t t = 0;
    const auto before = steadyNs();
    g_api.timestamp(&t);
    const auto after = steadyNs();
    d->offsetNs = (before + after) / 2 - static_cast<std::int64_t>(t);
    for (auto k : kKinds)
        g_api.enable(k);
}

std::vector<CuptiRecord> CuptiCollector::stop()
{
    g_api.flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    for (auto k : kKinds)
        g_api.disable(k);
    g_api.flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    std::vector<CuptiRecord> out;
    {
        std::lock_guard lock(g_mutex);
        out.swap(g_records);
    }
    for (auto &r : out) {
        r.startNs += d->offsetNs;
        r.endNs += d->offsetNs;
    }
    std::sort(out.begin(), out.end(), [](const CuptiRecord &a, const CuptiRecord &b) { return a.startNs < b.startNs; });
    return out;
}

std::size_t CuptiCollector::droppedRecords() const
{
    std::lock_guard lock(g_mutex);
    return g_dropped;
}

const std::string &CuptiCollector::libraryPath() const
{
    return d->path;
}

#endif

} // namespace AotStudio::Profiler
