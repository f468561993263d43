// SPDX-License-Identifier: GPL-3.0-or-later
#include "profiler/measure.h"

#include <QtTest/QtTest>

#include <chrono>
#include <stdexcept>
#include <stop_token>
#include <thread>

using namespace AotStudio::Profiler;

// These tests count calls; they never assert on absolute timings (the machine is shared and noisy).

namespace {

/// Options that can only stop on maxRuns (or minRuns, or the stop token): no time cap, and a
/// negative stability threshold that |median change| <= stableRel * median can never satisfy.
MeasureOptions countOnly(int warmup, int minRuns, int maxRuns)
{
    MeasureOptions o;
    o.warmup = warmup;
    o.minRuns = minRuns;
    o.maxRuns = maxRuns;
    o.maxSeconds = 1e9;
    o.stableRel = -1.0;
    return o;
}

/// A fixed, tiny, strictly positive amount of work per call.
void tinyWork()
{
    std::this_thread::sleep_for(std::chrono::microseconds(20));
}

void checkSummaryShape(const Summary &s)
{
    QVERIFY(s.runs > 0);
    QVERIFY(s.minMs >= 0.0);
    QVERIFY(s.minMs <= s.p10Ms);
    QVERIFY(s.p10Ms <= s.medianMs);
    QVERIFY(s.medianMs <= s.p90Ms);
    QVERIFY(s.p90Ms <= s.p99Ms);
    QVERIFY(s.p99Ms <= s.maxMs);
    QVERIFY(s.minMs <= s.meanMs && s.meanMs <= s.maxMs);
    QVERIFY(s.stddevMs >= 0.0);
}

} // namespace

class TestMeasure : public QObject {
    Q_OBJECT

private slots:
    void warmupCallsAreNotTimed_data();
    void warmupCallsAreNotTimed();
    void respectsMaxRuns();
    void minRunsWinsOverSmallerMaxRuns();
    void respectsMinRunsWithZeroTimeCap();
    void nonPositiveMinRunsMeansOne();
    void stopsEarlyWhenStable();
    void defaultOptionsStayInBounds();
    void stopRequestedBeforeStartRunsNothing();
    void stopRequestedDuringTimedRuns();
    void stopRequestedDuringWarmup();
    void exceptionPropagates_data();
    void exceptionPropagates();
};

void TestMeasure::warmupCallsAreNotTimed_data()
{
    QTest::addColumn<int>("warmup");
    QTest::addColumn<int>("runs");
    QTest::newRow("no warm-up") << 0 << 6;
    QTest::newRow("one") << 1 << 6;
    QTest::newRow("five") << 5 << 3;
    QTest::newRow("many") << 25 << 4;
}

void TestMeasure::warmupCallsAreNotTimed()
{
    QFETCH(int, warmup);
    QFETCH(int, runs);
    int calls = 0;
    const Summary s = measure([&] { ++calls; }, countOnly(warmup, runs, runs));
    QCOMPARE(s.runs, std::size_t(runs));
    QCOMPARE(calls, warmup + runs);
    QCOMPARE(int(s.runs), calls - warmup);
}

void TestMeasure::respectsMaxRuns()
{
    int calls = 0;
    const Summary s = measure([&] { ++calls; }, countOnly(2, 3, 17));
    QCOMPARE(s.runs, std::size_t(17));
    QCOMPARE(calls, 2 + 17);
    checkSummaryShape(s);
}

void TestMeasure::minRunsWinsOverSmallerMaxRuns()
{
    // "at least minRuns" beats "at most maxRuns" when they disagree.
    int calls = 0;
    const Summary s = measure([&] { ++calls; }, countOnly(0, 8, 3));
    QCOMPARE(s.runs, std::size_t(8));
    QCOMPARE(calls, 8);
}

void TestMeasure::respectsMinRunsWithZeroTimeCap()
{
    MeasureOptions o = countOnly(1, 7, 30);
    o.maxSeconds = 0;
    int calls = 0;
    const Summary s = measure(
        [&] {
            ++calls;
            tinyWork();
        },
        o);
    // The cap is checked only once minRuns is reached, and then it has always expired.
    QCOMPARE(s.runs, std::size_t(7));
    QCOMPARE(calls, 1 + 7);
    checkSummaryShape(s);

    o.maxSeconds = -5; // a nonsensical cap behaves the same
    calls = 0;
    QCOMPARE(measure([&] { ++calls; }, o).runs, std::size_t(7));
    QCOMPARE(calls, 1 + 7);
}

void TestMeasure::nonPositiveMinRunsMeansOne()
{
    for (int minRuns : {0, -3}) {
        MeasureOptions o = countOnly(0, minRuns, 30);
        o.maxSeconds = 0;
        int calls = 0;
        const Summary s = measure([&] { ++calls; }, o);
        QCOMPARE(s.runs, std::size_t(1));
        QCOMPARE(calls, 1);
    }
}

void TestMeasure::stopsEarlyWhenStable()
{
    // First checkpoint after minRuns calls records the median; the next checkpoint (2 * minRuns)
    // compares against it. With stableRel = 10 the median would have to grow elevenfold in between
    // for the run to continue, so it stops exactly at 2 * minRuns, well short of maxRuns.
    MeasureOptions o;
    o.warmup = 2;
    o.minRuns = 5;
    o.maxRuns = 200;
    o.maxSeconds = 1e9;
    o.stableRel = 10.0;
    int calls = 0;
    const Summary s = measure(
        [&] {
            ++calls;
            tinyWork();
        },
        o);
    QCOMPARE(s.runs, std::size_t(2 * o.minRuns));
    QCOMPARE(calls, o.warmup + 2 * o.minRuns);
    QVERIFY(int(s.runs) < o.maxRuns);
    checkSummaryShape(s);
}

void TestMeasure::defaultOptionsStayInBounds()
{
    const MeasureOptions o; // the FORMAT.md defaults
    int calls = 0;
    const Summary s = measure(
        [&] {
            ++calls;
            tinyWork();
        },
        o);
    QVERIFY(int(s.runs) >= o.minRuns);
    QVERIFY(int(s.runs) <= o.maxRuns);
    QCOMPARE(int(s.runs), calls - o.warmup);
    checkSummaryShape(s);
}

void TestMeasure::stopRequestedBeforeStartRunsNothing()
{
    std::stop_source source;
    source.request_stop();
    int calls = 0;
    const Summary s = measure([&] { ++calls; }, countOnly(5, 10, 30), source.get_token());
    QCOMPARE(calls, 0); // no warm-up calls either
    QCOMPARE(s.runs, std::size_t(0));
    QCOMPARE(s.medianMs, 0.0);
    QCOMPARE(s.maxMs, 0.0);
}

void TestMeasure::stopRequestedDuringTimedRuns()
{
    // Stop before minRuns is reached: it still returns what it has.
    std::stop_source source;
    int calls = 0;
    const Summary s = measure(
        [&] {
            if (++calls == 3 + 4)
                source.request_stop();
        },
        countOnly(3, 10, 30), source.get_token());
    QCOMPARE(calls, 3 + 4);
    QCOMPARE(s.runs, std::size_t(4)); // the call that requested the stop is still recorded
}

void TestMeasure::stopRequestedDuringWarmup()
{
    std::stop_source source;
    int calls = 0;
    const Summary s = measure(
        [&] {
            if (++calls == 2)
                source.request_stop();
        },
        countOnly(5, 10, 30), source.get_token());
    QCOMPARE(calls, 2);
    QCOMPARE(s.runs, std::size_t(0));
}

void TestMeasure::exceptionPropagates_data()
{
    QTest::addColumn<int>("throwOnCall"); // 1-based
    QTest::newRow("first warm-up call") << 1;
    QTest::newRow("later warm-up call") << 3;
    QTest::newRow("first timed call") << 5;
    QTest::newRow("later timed call") << 9;
}

void TestMeasure::exceptionPropagates()
{
    QFETCH(int, throwOnCall);
    int calls = 0;
    const auto call = [&] {
        if (++calls == throwOnCall)
            throw std::runtime_error("kernel launch failed");
    };
    bool caught = false;
    try {
        measure(call, countOnly(4, 10, 30));
    } catch (const std::runtime_error &e) {
        caught = true;
        QCOMPARE(QString::fromUtf8(e.what()), QStringLiteral("kernel launch failed"));
    }
    QVERIFY(caught);
    QCOMPARE(calls, throwOnCall); // nothing is called after the throw
}

QTEST_GUILESS_MAIN(TestMeasure)
#include "tst_measure.moc"
