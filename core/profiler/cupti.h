// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace AotStudio::Profiler {

/// One CUPTI activity record, as we keep it. Times are ns on CUPTI's clock (cuptiGetTimestamp)
/// until CuptiCollector::stop() moves them onto the collector clock (steady_clock, ns).
struct CuptiRecord {
    enum class Kind { Kernel, Memcpy, Memset, Memory };
    Kind kind = Kind::Kernel;
    std::string name;    ///< kernel name (mangled as CUPTI gives it); "memcpy HtoD", "memset", "malloc"/"free"
    std::string variant; ///< filled by the caller (eager, aoti, ...)
    std::int64_t startNs = 0;
    std::int64_t endNs = 0; ///< == startNs for memory records (an instant)
    std::uint32_t device = 0;
    std::uint32_t stream = 0;
    std::uint32_t correlation = 0;
    std::array<int, 3> grid{0, 0, 0};
    std::array<int, 3> block{0, 0, 0};
    int registers = 0;       ///< registers per thread
    int staticShared = 0;    ///< bytes of static shared memory per block
    int dynamicShared = 0;   ///< bytes of dynamic shared memory per block
    std::uint64_t bytes = 0; ///< memcpy/memset/memory size in bytes
    std::string copyKind;    ///< memcpy: "HtoD", "DtoH", "DtoD", "HtoH", "PtoP", "other"
    bool allocation = false; ///< memory: true for an allocation, false for a release
};

/// "kernel", "memcpy", "memset", "memory".
const char *kindName(CuptiRecord::Kind kind);

/// CUPTI's record iterator signature (cuptiActivityGetNextRecord): returns 0 (CUPTI_SUCCESS) and
/// sets *record to the next record, or non-zero at the end of the buffer.
using NextRecordFn = int (*)(std::uint8_t *buffer, std::size_t validBytes, void **record);

/// An iterator over buffers of records laid out as CUPTI lays them out (each record the struct of
/// its kind from the cupti_activity.h compiled against: CUpti_ActivityKernel10, Memcpy6, Memset4,
/// Memory4, one after another at 8-byte alignment). For unit tests and for when libcupti's own
/// iterator is unavailable; stops at a kind it does not know.
int walkActivityBuffer(std::uint8_t *buffer, std::size_t validBytes, void **record);

/// Size in bytes of the record struct for a CUPTI activity kind we parse (0 for others); what a
/// test needs to lay out a buffer.
std::size_t activityRecordSize(int cuptiActivityKind);

/// Parse a completed activity buffer (`validBytes` of it) into records: CONCURRENT_KERNEL/KERNEL,
/// MEMCPY, MEMSET, MEMORY2; other kinds are skipped. `next` is the iterator (libcupti's
/// cuptiActivityGetNextRecord in production; walkActivityBuffer when null). Pure: no CUDA calls.
std::vector<CuptiRecord> parseActivityBuffer(std::uint8_t *buffer, std::size_t validBytes, NextRecordFn next = nullptr);

/// Totals for profile.json's `gpu` object (PROFILE.md): memcpy by variant and kind, memset and
/// memory by variant (count, bytes, total_ms).
nlohmann::json gpuSummary(const std::vector<CuptiRecord> &records);

/// CUPTI activity collection (kernels, memcpy, memset, memory) for the whole process. libcupti is
/// opened with dlopen: the copy torch already loaded if any (CUPTI 13 allows one subscriber per
/// process, so never run torch.profiler at the same time), else the wheel's nvidia/cu13/lib copy,
/// else the system's. Without a driver or device CUPTI's enable calls fail (e.g. error 999,
/// CUPTI_ERROR_UNKNOWN): create() then returns null and says why, it never crashes.
class CuptiCollector {
public:
    /// Null with `why` set when libcupti is missing or CUPTI cannot enable activity collection.
    static std::unique_ptr<CuptiCollector> create(std::string &why);
    ~CuptiCollector();
    /// Enable the activity kinds (and note the CUPTI-to-steady_clock offset).
    void start();
    /// Flush, disable, and return the records since start(), on the steady_clock (ns).
    std::vector<CuptiRecord> stop();
    std::size_t droppedRecords() const;
    const std::string &libraryPath() const;

private:
    CuptiCollector() = default;
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace AotStudio::Profiler
