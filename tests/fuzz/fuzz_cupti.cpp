// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: the CUPTI activity buffer walker and record parser (core/profiler/cupti.*) on
// arbitrary bytes. A real buffer comes from libcupti, but the walker must stay inside
// `validBytes` whatever the kinds and sizes say. The input is copied into an 8-byte aligned buffer
// (CUPTI's buffers are), and each kernel record's `name` pointer, which CUPTI points into its own
// memory, is set to a fixed string or null first: pointers are not what this target checks.
#include "fuzzutil.h"
#include "profiler/cupti.h"

#include <cupti_activity.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace AotStudio;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    std::vector<std::uint64_t> storage((size + 7) / 8 + 1);
    auto *buffer = reinterpret_cast<std::uint8_t *>(storage.data());
    if (size)
        std::memcpy(buffer, data, size);

    static const char kName[] = "fuzz_kernel";
    std::size_t records = 0;
    void *raw = nullptr;
    while (Profiler::walkActivityBuffer(buffer, size, &raw) == 0 && raw) {
        const auto *at = static_cast<std::uint8_t *>(raw);
        const std::size_t offset = static_cast<std::size_t>(at - buffer);
        std::int32_t kind = 0; // read as CUPTI stores it: not every value is a CUpti_ActivityKind
        std::memcpy(&kind, at + offsetof(CUpti_Activity, kind), sizeof kind);
        if (offset % 8 != 0 || offset + Profiler::activityRecordSize(kind) > size)
            FuzzUtil::fail("walkActivityBuffer() stepped outside the buffer or off 8-byte alignment");
        if (kind == CUPTI_ACTIVITY_KIND_KERNEL || kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
            auto *k = static_cast<CUpti_ActivityKernel10 *>(raw);
            k->name = (offset / 8) % 2 ? kName : nullptr;
        }
        ++records;
    }
    const auto parsed = Profiler::parseActivityBuffer(buffer, size);
    if (parsed.size() != records)
        FuzzUtil::fail("parseActivityBuffer() found another number of records than the walker");
    for (auto &r : parsed)
        (void)Profiler::kindName(r.kind);
    FuzzUtil::requireStrictJson(Profiler::gpuSummary(parsed), "gpuSummary");
    return 0;
}
