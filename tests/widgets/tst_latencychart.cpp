// SPDX-License-Identifier: GPL-3.0-or-later
// LatencyChart: the value axis follows the medians, so one noisy whisker cannot hide the bars.
#include "widgets/latencychart.h"

#include <QTest>

using AotStudio::Client::CompileResult;
using AotStudio::Widgets::LatencyChart;

namespace {
CompileResult result(double eagerMedian, double eagerP90, double compiledMedian, double compiledP90)
{
    CompileResult r;
    r.eagerMs = r.eager.medianMs = eagerMedian;
    r.eager.p10Ms = eagerMedian * 0.9;
    r.eager.p90Ms = eagerP90;
    r.compiledMs = r.compiled.medianMs = compiledMedian;
    r.compiled.p10Ms = compiledMedian * 0.9;
    r.compiled.p90Ms = compiledP90;
    return r;
}
} // namespace

class TestLatencyChart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void axisFollowsMedians_data()
    {
        QTest::addColumn<double>("eagerMedian");
        QTest::addColumn<double>("eagerP90");
        QTest::addColumn<double>("compiledMedian");
        QTest::addColumn<double>("compiledP90");
        QTest::addColumn<int>("clipped");
        // Whiskers close to the medians widen the axis and are drawn whole.
        QTest::newRow("quiet") << 0.081 << 0.09 << 0.034 << 0.041 << 0;
        QTest::newRow("p90 just under 3x") << 0.05 << 0.149 << 0.034 << 0.041 << 0;
        // The trial's case: eager median 0.05 ms with a p90 of 32 ms.
        QTest::newRow("eager outlier") << 0.05 << 32.0 << 0.034 << 0.041 << 1;
        QTest::newRow("compiled outlier") << 0.081 << 0.09 << 0.034 << 5.0 << 1;
        QTest::newRow("both outliers") << 0.05 << 32.0 << 0.034 << 8.0 << 2;
    }

    void axisFollowsMedians()
    {
        QFETCH(double, eagerMedian);
        QFETCH(double, eagerP90);
        QFETCH(double, compiledMedian);
        QFETCH(double, compiledP90);
        QFETCH(int, clipped);
        LatencyChart chart;
        chart.resize(600, 200);
        chart.setResult(result(eagerMedian, eagerP90, compiledMedian, compiledP90));
        const auto [lower, upper] = chart.valueRange();
        const double maxMedian = qMax(eagerMedian, compiledMedian);
        QCOMPARE(lower, 0.0);
        // Both bars stay readable: the longer fills at least a fifth of the axis…
        QVERIFY2(maxMedian / upper > 0.2, qPrintable(QString::number(upper)));
        // …and the axis is bounded by the medians, never by an outlier whisker.
        QVERIFY2(upper <= LatencyChart::MaxWhiskerRatio * maxMedian * 1.15,
                 qPrintable(QString::number(upper)));
        // Whatever does not fit is labelled with its p90 instead of silently cut.
        QCOMPARE(chart.clippedLabels().size(), clipped);
        if (clipped == 0)
            QVERIFY(upper >= qMax(eagerP90, compiledP90));
    }

    void clippedWhiskerNamesItsP90()
    {
        LatencyChart chart;
        chart.setResult(result(0.05, 32.0, 0.034, 0.041));
        const auto [lower, upper] = chart.valueRange();
        QCOMPARE(upper, 0.05 * LatencyChart::ClippedAxisRatio);
        QCOMPARE(chart.clippedLabels().size(), 1);
        QVERIFY2(chart.clippedLabels().first().contains(QLatin1String("p90 32 ms")),
                 qPrintable(chart.clippedLabels().first()));
    }

    void emptyResultAndClear()
    {
        LatencyChart chart;
        chart.setResult(CompileResult{});
        QCOMPARE(chart.valueRange().second, 1.0);
        chart.setResult(result(0.05, 32.0, 0.034, 0.041));
        QCOMPARE(chart.clippedLabels().size(), 1);
        chart.clear();
        QVERIFY(chart.clippedLabels().isEmpty());
    }
};

QTEST_MAIN(TestLatencyChart)
#include "tst_latencychart.moc"
