// SPDX-License-Identifier: GPL-3.0-or-later
// Profiler::GpuBusyMeter (core/profiler/gpubusy.h) against a stand-in libnvidia-ml.so.1
// (tests/core/fake_nvml.cpp, found through LD_LIBRARY_PATH): the share averaged over the span's
// samples, a span too short for two samples, NVML that will not start, and CUDA's device mapped
// to NVML's through CUDA_VISIBLE_DEVICES. A real GPU's figure is checked by tools/gpu-check.sh.
#include <QTest>

#include "profiler/gpubusy.h"

#include <dlfcn.h>
#include <thread>

using AotStudio::Profiler::GpuBusyMeter;

namespace {

/// The device the stand-in was last asked for ("index 2", "uuid GPU-..."): it is the library the
/// meter opened (same soname, so dlopen hands back the same object).
QString lastLookup()
{
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!lib)
        return QString();
    auto fn = reinterpret_cast<const char *(*)()>(dlsym(lib, "fake_nvml_last_lookup"));
    const QString s = fn ? QString::fromUtf8(fn()) : QString();
    dlclose(lib);
    return s;
}

GpuBusyMeter::Result measure(int ms, int cudaIndex = 0, QString *lookup = nullptr)
{
    GpuBusyMeter meter(cudaIndex);
    meter.begin();
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    GpuBusyMeter::Result r = meter.end();
    if (lookup)
        *lookup = lastLookup();
    return r;
}

} // namespace

class TestGpuBusy : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        qunsetenv("CUDA_VISIBLE_DEVICES");
        qunsetenv("FAKE_NVML_INIT_FAIL");
        qputenv("FAKE_NVML_UTIL", "40");
    }

    void shareIsTheMeanOfTheSpansSamples()
    {
        const auto r = measure(700);
        QVERIFY2(r.share.has_value(), r.why.c_str());
        QCOMPARE(*r.share, 0.4);
        QVERIFY(r.samples >= 3 && r.samples <= 6); // 1/6 s apart over 0.7 s
        QCOMPARE(QString::fromStdString(r.device), QStringLiteral("NVML index 0"));
        QVERIFY(r.spanS >= 0.7 && r.spanS < 5);
        const auto j = r.toJson();
        QCOMPARE(j["share"].get<double>(), 0.4);
        QCOMPARE(j["source"].get<std::string>(), std::string("nvml"));

        qputenv("FAKE_NVML_UTIL", "100");
        QCOMPARE(*measure(500).share, 1.0);
    }

    void aSpanTooShortHasNoFigure()
    {
        const auto r = measure(0);
        QVERIFY(!r.share);
        QVERIFY2(QString::fromStdString(r.why).contains(QLatin1String("shorter than two")), r.why.c_str());
        QVERIFY(r.toJson()["share"].is_null());
    }

    void nvmlThatDoesNotStartIsSaid()
    {
        qputenv("FAKE_NVML_INIT_FAIL", "1");
        const auto r = measure(10);
        QVERIFY(!r.share);
        QVERIFY2(QString::fromStdString(r.why).contains(QLatin1String("nvmlInit_v2 failed: Driver Not Loaded")),
                 r.why.c_str());
    }

    void cudaDeviceIsMappedThroughCudaVisibleDevices()
    {
        QString lookup;
        qputenv("CUDA_VISIBLE_DEVICES", "2,0");
        QVERIFY(measure(400, 0, &lookup).share);
        QCOMPARE(lookup, QStringLiteral("index 2"));
        QVERIFY(measure(400, 1, &lookup).share);
        QCOMPARE(lookup, QStringLiteral("index 0"));

        qputenv("CUDA_VISIBLE_DEVICES", "GPU-8f2c1b3a-0000-1111-2222-333344445555");
        const auto byUuid = measure(400, 0, &lookup);
        QVERIFY(byUuid.share);
        QCOMPARE(lookup, QStringLiteral("uuid GPU-8f2c1b3a-0000-1111-2222-333344445555"));

        qputenv("CUDA_VISIBLE_DEVICES", "MIG-1234");
        const auto mig = measure(10);
        QVERIFY(!mig.share);
        QVERIFY2(QString::fromStdString(mig.why).contains(QLatin1String("MIG")), mig.why.c_str());

        qputenv("CUDA_VISIBLE_DEVICES", "0");
        const auto absent = measure(10, 1);
        QVERIFY(!absent.share);
        QVERIFY2(QString::fromStdString(absent.why).contains(QLatin1String("not in CUDA_VISIBLE_DEVICES")),
                 absent.why.c_str());
    }
};

QTEST_GUILESS_MAIN(TestGpuBusy)
#include "tst_gpubusy.moc"
