// SPDX-License-Identifier: GPL-3.0-or-later
#include "profiler/statistics.h"

#include <QtTest/QtTest>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

using namespace AotStudio::Profiler;

Q_DECLARE_METATYPE(std::vector<double>)

namespace {

/// Relative/absolute closeness; the expectations come from numpy, so allow a few ulps of rounding.
bool close(double actual, double expected)
{
    return std::abs(actual - expected) <= 1e-12 * std::max(1.0, std::abs(expected));
}

#define COMPARE_CLOSE(actual, expected)                                                                      \
    do {                                                                                                     \
        const double a_ = (actual);                                                                          \
        const double e_ = (expected);                                                                        \
        QVERIFY2(close(a_, e_), qPrintable(QStringLiteral("%1 = %2, expected %3")                            \
                                               .arg(QStringLiteral(#actual))                                 \
                                               .arg(a_, 0, 'g', 17)                                          \
                                               .arg(e_, 0, 'g', 17)));                                       \
    } while (false)

} // namespace

class TestStatistics : public QObject {
    Q_OBJECT

private slots:
    void percentile_matchesNumpy_data();
    void percentile_matchesNumpy();
    void percentile_throws_data();
    void percentile_throws();

    void summarize_matchesNumpy();
    void summarize_unsortedEqualsSorted();
    void summarize_singleSample();
    void summarize_twoSamples();
    void summarize_identicalSamples();
    void summarize_empty();

    void paretoFront_dominance();
    void paretoFront_nanAndTies();
};

void TestStatistics::percentile_matchesNumpy_data()
{
    QTest::addColumn<std::vector<double>>("sorted");
    QTest::addColumn<double>("q");
    QTest::addColumn<double>("expected");

    // Expected values come from numpy 2.4.6: np.percentile(data, q, method='linear') (the default).
    const std::vector<double> ten{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    QTest::newRow("ten q0") << ten << 0.0 << 1.0;
    QTest::newRow("ten q10") << ten << 10.0 << 1.9;
    QTest::newRow("ten q25") << ten << 25.0 << 3.25;
    QTest::newRow("ten q50") << ten << 50.0 << 5.5;
    QTest::newRow("ten q90") << ten << 90.0 << 9.1;
    QTest::newRow("ten q99") << ten << 99.0 << 9.91;
    QTest::newRow("ten q100") << ten << 100.0 << 10.0;

    const std::vector<double> odd{0.5, 1.25, 2.0, 3.75, 10.0};
    QTest::newRow("odd q0") << odd << 0.0 << 0.5;
    QTest::newRow("odd q10") << odd << 10.0 << 0.8;
    QTest::newRow("odd q25") << odd << 25.0 << 1.25;
    QTest::newRow("odd q50") << odd << 50.0 << 2.0;
    QTest::newRow("odd q90") << odd << 90.0 << 7.5;
    QTest::newRow("odd q99") << odd << 99.0 << 9.75;
    QTest::newRow("odd q100") << odd << 100.0 << 10.0;

    // A skewed latency-like sample (a long tail).
    const std::vector<double> skew{0.11, 0.12, 0.13, 0.15, 0.2, 0.9, 1.7};
    QTest::newRow("skew q0") << skew << 0.0 << 0.11;
    QTest::newRow("skew q10") << skew << 10.0 << 0.11599999999999999;
    QTest::newRow("skew q25") << skew << 25.0 << 0.125;
    QTest::newRow("skew q50") << skew << 50.0 << 0.15;
    QTest::newRow("skew q90") << skew << 90.0 << 1.2200000000000002;
    QTest::newRow("skew q99") << skew << 99.0 << 1.6519999999999995;
    QTest::newRow("skew q100") << skew << 100.0 << 1.7;

    const std::vector<double> two{2.0, 5.0};
    QTest::newRow("two q0") << two << 0.0 << 2.0;
    QTest::newRow("two q10") << two << 10.0 << 2.3;
    QTest::newRow("two q25") << two << 25.0 << 2.75;
    QTest::newRow("two q50") << two << 50.0 << 3.5;
    QTest::newRow("two q90") << two << 90.0 << 4.7;
    QTest::newRow("two q99") << two << 99.0 << 4.97;
    QTest::newRow("two q100") << two << 100.0 << 5.0;

    const std::vector<double> one{4.25};
    QTest::newRow("one q0") << one << 0.0 << 4.25;
    QTest::newRow("one q10") << one << 10.0 << 4.25;
    QTest::newRow("one q50") << one << 50.0 << 4.25;
    QTest::newRow("one q99") << one << 99.0 << 4.25;
    QTest::newRow("one q100") << one << 100.0 << 4.25;
}

void TestStatistics::percentile_matchesNumpy()
{
    QFETCH(std::vector<double>, sorted);
    QFETCH(double, q);
    QFETCH(double, expected);
    COMPARE_CLOSE(percentile(sorted, q), expected);
}

void TestStatistics::percentile_throws_data()
{
    QTest::addColumn<std::vector<double>>("sorted");
    QTest::addColumn<double>("q");

    const std::vector<double> some{1.0, 2.0, 3.0};
    QTest::newRow("empty q50") << std::vector<double>{} << 50.0;
    QTest::newRow("empty q0") << std::vector<double>{} << 0.0;
    QTest::newRow("q below 0") << some << -0.001;
    QTest::newRow("q -100") << some << -100.0;
    QTest::newRow("q above 100") << some << 100.001;
    QTest::newRow("q fraction-style 150") << some << 150.0;
    QTest::newRow("q NaN") << some << std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("q +inf") << some << std::numeric_limits<double>::infinity();
    QTest::newRow("q -inf") << some << -std::numeric_limits<double>::infinity();
}

void TestStatistics::percentile_throws()
{
    QFETCH(std::vector<double>, sorted);
    QFETCH(double, q);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, percentile(sorted, q));
}

void TestStatistics::summarize_matchesNumpy()
{
    // Unsorted on purpose. Expected values from numpy 2.4.6 with s = this list:
    // np.median(s), np.percentile(s, 10/90/99) (method='linear'), np.mean(s), np.std(s, ddof=1).
    const Summary s = summarize({3.5, 1.25, 9.0, 2.0, 7.75, 0.5, 4.0, 6.25});
    QCOMPARE(s.runs, std::size_t(8));
    COMPARE_CLOSE(s.medianMs, 3.75);
    COMPARE_CLOSE(s.p10Ms, 1.0250000000000001);
    COMPARE_CLOSE(s.p90Ms, 8.125);
    COMPARE_CLOSE(s.p99Ms, 8.9125);
    COMPARE_CLOSE(s.meanMs, 4.28125);
    COMPARE_CLOSE(s.stddevMs, 3.1065526943635033); // sample std (ddof=1), not population
    COMPARE_CLOSE(s.minMs, 0.5);
    COMPARE_CLOSE(s.maxMs, 9.0);
}

void TestStatistics::summarize_unsortedEqualsSorted()
{
    const std::vector<double> sorted{0.11, 0.12, 0.13, 0.15, 0.2, 0.9, 1.7};
    const std::vector<double> shuffled{0.9, 0.13, 1.7, 0.11, 0.2, 0.15, 0.12};
    const std::vector<double> reversed(sorted.rbegin(), sorted.rend());
    const Summary a = summarize(sorted);
    for (const auto &input : {shuffled, reversed}) {
        const Summary b = summarize(input);
        QCOMPARE(b.runs, a.runs);
        COMPARE_CLOSE(b.medianMs, a.medianMs);
        COMPARE_CLOSE(b.p10Ms, a.p10Ms);
        COMPARE_CLOSE(b.p90Ms, a.p90Ms);
        COMPARE_CLOSE(b.p99Ms, a.p99Ms);
        COMPARE_CLOSE(b.meanMs, a.meanMs);
        COMPARE_CLOSE(b.stddevMs, a.stddevMs);
        COMPARE_CLOSE(b.minMs, 0.11);
        COMPARE_CLOSE(b.maxMs, 1.7);
    }
    // Same percentiles as the numpy-checked rows above (numpy.percentile, method='linear').
    COMPARE_CLOSE(a.medianMs, 0.15);
    COMPARE_CLOSE(a.p10Ms, 0.11599999999999999);
    COMPARE_CLOSE(a.p90Ms, 1.2200000000000002);
    COMPARE_CLOSE(a.p99Ms, 1.6519999999999995);
}

void TestStatistics::summarize_singleSample()
{
    const Summary s = summarize({4.25});
    QCOMPARE(s.runs, std::size_t(1));
    QCOMPARE(s.medianMs, 4.25);
    QCOMPARE(s.p10Ms, 4.25);
    QCOMPARE(s.p90Ms, 4.25);
    QCOMPARE(s.p99Ms, 4.25);
    QCOMPARE(s.meanMs, 4.25);
    QCOMPARE(s.stddevMs, 0.0); // documented: 0 for one run (numpy's ddof=1 would give NaN)
    QCOMPARE(s.minMs, 4.25);
    QCOMPARE(s.maxMs, 4.25);
}

void TestStatistics::summarize_twoSamples()
{
    // numpy: percentile([2, 5], 10/50/90/99) = 2.3 / 3.5 / 4.7 / 4.97; std(ddof=1) = 2.1213203435596424
    const Summary s = summarize({5.0, 2.0});
    QCOMPARE(s.runs, std::size_t(2));
    COMPARE_CLOSE(s.medianMs, 3.5);
    COMPARE_CLOSE(s.p10Ms, 2.3);
    COMPARE_CLOSE(s.p90Ms, 4.7);
    COMPARE_CLOSE(s.p99Ms, 4.97);
    COMPARE_CLOSE(s.meanMs, 3.5);
    COMPARE_CLOSE(s.stddevMs, 2.1213203435596424);
    COMPARE_CLOSE(s.minMs, 2.0);
    COMPARE_CLOSE(s.maxMs, 5.0);
}

void TestStatistics::summarize_identicalSamples()
{
    const Summary s = summarize(std::vector<double>(30, 0.5));
    QCOMPARE(s.runs, std::size_t(30));
    COMPARE_CLOSE(s.medianMs, 0.5);
    COMPARE_CLOSE(s.p99Ms, 0.5);
    COMPARE_CLOSE(s.meanMs, 0.5);
    COMPARE_CLOSE(s.stddevMs, 0.0);
    COMPARE_CLOSE(s.minMs, 0.5);
    COMPARE_CLOSE(s.maxMs, 0.5);
}

void TestStatistics::summarize_empty()
{
    Summary s;
    QVERIFY_THROWS_NO_EXCEPTION(s = summarize({}));
    QCOMPARE(s.runs, std::size_t(0));
    QCOMPARE(s.medianMs, 0.0);
    QCOMPARE(s.p10Ms, 0.0);
    QCOMPARE(s.p90Ms, 0.0);
    QCOMPARE(s.p99Ms, 0.0);
    QCOMPARE(s.meanMs, 0.0);
    QCOMPARE(s.stddevMs, 0.0);
    QCOMPARE(s.minMs, 0.0);
    QCOMPARE(s.maxMs, 0.0);
}

void TestStatistics::paretoFront_dominance()
{
    // (latency ms, error): a is fastest, c most accurate, b between them on both, d worse than b
    // on both, e equals a's latency with a larger error.
    const std::vector<std::vector<double>> points{{1.0, 0.5}, {2.0, 0.2}, {3.0, 0.0}, {2.5, 0.3}, {1.0, 0.6}};
    QCOMPARE(paretoFront(points), (std::vector<std::size_t>{0, 1, 2}));
    QVERIFY(paretoFront({}).empty());
    QCOMPARE(paretoFront({{4.0, 4.0}}), (std::vector<std::size_t>{0}));
    // Four coordinates, as tune uses: each row best on one of them stays.
    const std::vector<std::vector<double>> four{{1, 9, 9, 9}, {9, 1, 9, 9}, {9, 9, 1, 9}, {9, 9, 9, 1}, {9, 9, 9, 9}};
    QCOMPARE(paretoFront(four), (std::vector<std::size_t>{0, 1, 2, 3}));
}

void TestStatistics::paretoFront_nanAndTies()
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // An unknown error is worse than any known one: the row with NaN is dominated by a row as
    // fast with a known error, and kept when it is strictly faster.
    QCOMPARE(paretoFront({{1.0, nan}, {1.0, 0.1}}), (std::vector<std::size_t>{1}));
    QCOMPARE(paretoFront({{0.5, nan}, {1.0, 0.1}}), (std::vector<std::size_t>{0, 1}));
    // Identical rows do not dominate each other: both stay.
    QCOMPARE(paretoFront({{1.0, 0.1}, {1.0, 0.1}}), (std::vector<std::size_t>{0, 1}));
    // Both NaN on a coordinate: decided by the others.
    QCOMPARE(paretoFront({{1.0, nan}, {2.0, nan}}), (std::vector<std::size_t>{0}));
}

QTEST_GUILESS_MAIN(TestStatistics)
#include "tst_statistics.moc"
