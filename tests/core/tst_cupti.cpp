// SPDX-License-Identifier: GPL-3.0-or-later
// CUPTI activity-record parsing (core/profiler/cupti.h) on buffers built in memory: no GPU, no
// driver. The same buffers go through libcupti's own iterator when the library loads here.
#include "profiler/cupti.h"

#include <QtTest/QtTest>

#include <limits>

#include <cupti_activity.h>

#include <cstring>
#include <dlfcn.h>
#include <vector>

using namespace AotStudio::Profiler;

namespace {

/// A buffer laid out as CUPTI lays it out: records one after another, 8-byte aligned.
struct Buffer {
    std::vector<std::uint8_t> bytes = std::vector<std::uint8_t>(1 << 16, 0);
    std::size_t used = 0;
    template<typename T>
    T &add()
    {
        const std::size_t at = (used + 7) & ~std::size_t(7);
        used = at + sizeof(T);
        return *reinterpret_cast<T *>(bytes.data() + at);
    }
};

const char *const kKernelName = "cpp_fused_relu_0_kernel";

Buffer sampleBuffer()
{
    Buffer b;
    auto &k = b.add<CUpti_ActivityKernel10>();
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.start = 1000;
    k.end = 3500;
    k.deviceId = 0;
    k.streamId = 7;
    k.gridX = 128;
    k.gridY = 2;
    k.gridZ = 1;
    k.blockX = 256;
    k.blockY = 1;
    k.blockZ = 1;
    k.registersPerThread = 32;
    k.staticSharedMemory = 1024;
    k.dynamicSharedMemory = 4096;
    k.correlationId = 42;
    k.name = kKernelName;
    auto &c = b.add<CUpti_ActivityMemcpy6>();
    c.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    c.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    c.bytes = 2048;
    c.start = 500;
    c.end = 900;
    c.streamId = 7;
    auto &s = b.add<CUpti_ActivityMemset4>();
    s.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    s.bytes = 64;
    s.start = 950;
    s.end = 960;
    auto &m = b.add<CUpti_ActivityMemory4>();
    m.kind = CUPTI_ACTIVITY_KIND_MEMORY2;
    m.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
    m.bytes = 1 << 20;
    m.timestamp = 400;
    return b;
}

void checkRecords(const std::vector<CuptiRecord> &r)
{
    QCOMPARE(r.size(), std::size_t(4));
    QCOMPARE(r[0].kind, CuptiRecord::Kind::Kernel);
    QCOMPARE(r[0].name, std::string(kKernelName));
    QCOMPARE(r[0].startNs, std::int64_t(1000));
    QCOMPARE(r[0].endNs, std::int64_t(3500));
    QCOMPARE(r[0].stream, 7u);
    QCOMPARE(r[0].grid, (std::array<int, 3>{128, 2, 1}));
    QCOMPARE(r[0].block, (std::array<int, 3>{256, 1, 1}));
    QCOMPARE(r[0].registers, 32);
    QCOMPARE(r[0].staticShared, 1024);
    QCOMPARE(r[0].dynamicShared, 4096);
    QCOMPARE(r[0].correlation, 42u);
    QCOMPARE(r[1].kind, CuptiRecord::Kind::Memcpy);
    QCOMPARE(r[1].copyKind, std::string("HtoD"));
    QCOMPARE(r[1].bytes, std::uint64_t(2048));
    QCOMPARE(r[2].kind, CuptiRecord::Kind::Memset);
    QCOMPARE(r[2].bytes, std::uint64_t(64));
    QCOMPARE(r[3].kind, CuptiRecord::Kind::Memory);
    QVERIFY(r[3].allocation);
    QCOMPARE(r[3].startNs, r[3].endNs);
}

} // namespace

class TstCupti : public QObject {
    Q_OBJECT

private slots:
    void parsesHandBuiltBuffer()
    {
        auto b = sampleBuffer();
        checkRecords(parseActivityBuffer(b.bytes.data(), b.used));
    }

    void skipsTruncatedAndEmpty()
    {
        auto b = sampleBuffer();
        // A valid size that cuts the second record: only the first comes back.
        const std::size_t cut = activityRecordSize(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) + 8;
        QCOMPARE(parseActivityBuffer(b.bytes.data(), cut).size(), std::size_t(1));
        QVERIFY(parseActivityBuffer(b.bytes.data(), 0).empty());
        QVERIFY(parseActivityBuffer(nullptr, 100).empty());
    }

    void libcuptiIteratorAgrees()
    {
        // libcupti's own iterator on the same buffer (it walks memory; no driver needed). The
        // wheel's copy first, as the engine does, else the toolkit's.
        void *lib = dlopen("libcupti.so.13", RTLD_NOW);
        if (!lib)
            QSKIP("libcupti.so.13 not loadable here");
        auto next = reinterpret_cast<NextRecordFn>(dlsym(lib, "cuptiActivityGetNextRecord"));
        QVERIFY(next);
        auto b = sampleBuffer();
        checkRecords(parseActivityBuffer(b.bytes.data(), b.used, next));
    }

    void collectorDegradesWithoutDevice()
    {
        // On a machine with no driver CUPTI cannot enable collection: create() returns null and
        // says why; it never crashes. With a GPU it works and stop() returns records.
        std::string why;
        auto c = CuptiCollector::create(why);
        if (!c) {
            QVERIFY(!why.empty());
            return;
        }
        c->start();
        (void)c->stop();
    }

    void gpuSummaryTotals()
    {
        auto b = sampleBuffer();
        auto r = parseActivityBuffer(b.bytes.data(), b.used);
        for (auto &x : r)
            x.variant = "aoti";
        const auto s = gpuSummary(r);
        QCOMPARE(s["memcpy"].size(), std::size_t(1));
        QCOMPARE(s["memcpy"][0]["kind"].get<std::string>(), std::string("HtoD"));
        QCOMPARE(s["memcpy"][0]["bytes"].get<std::uint64_t>(), std::uint64_t(2048));
        QCOMPARE(s["memory"][0]["allocations"].get<int>(), 1);
        QCOMPARE(std::string(kindName(CuptiRecord::Kind::Memset)), std::string("memset"));
    }

    void gpuSummaryOddTimestamps()
    {
        // From tests/fuzz/fuzz_cupti (corpus/cupti/regress_duration_overflow.bin): end - start
        // overflowed int64 (undefined behaviour), and an end before the start gave a negative time.
        CuptiRecord backwards;
        backwards.kind = CuptiRecord::Kind::Memset;
        backwards.startNs = 5'000'000;
        backwards.endNs = 0; // CUPTI's incomplete record
        CuptiRecord huge;
        huge.kind = CuptiRecord::Kind::Memcpy;
        huge.copyKind = "DtoH";
        huge.startNs = std::numeric_limits<std::int64_t>::min() + 1;
        huge.endNs = std::numeric_limits<std::int64_t>::max();
        const auto s = gpuSummary({backwards, huge});
        QCOMPARE(s["memset"][0]["total_ms"].get<double>(), 0.0);
        const double ms = s["memcpy"][0]["total_ms"].get<double>();
        QVERIFY2(ms > 1.8e13 && ms < 1.9e13, qPrintable(QString::number(ms))); // (2^64 - 2) ns
    }
};

QTEST_GUILESS_MAIN(TstCupti)
#include "tst_cupti.moc"
