// SPDX-License-Identifier: GPL-3.0-or-later
// ProfilePanel and TimelineChart fed from tests/fixtures/results: a CPU profile (no NativeRT, no
// cold start), a CUDA profile (three variants, kernels on two streams, memcpy, GPU busy share,
// throughput), a profile with a burst replay, a plain compile result, and profiles with sections
// missing.
#include "widgets/charthelpers.h"
#include "widgets/profilepanel.h"
#include "widgets/throughputmodel.h"
#include "widgets/timelinechart.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QAbstractItemModelTester>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QLocale>
#include <QTest>
#include <QTranslator>
#include <qcustomplot.h>

#include <memory>

using namespace AotStudio::Widgets;

namespace {
const QString ResultsDir = QStringLiteral(AOTSTUDIO_RESULTS_DIR);

QJsonObject loadJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(path));
    return QJsonDocument::fromJson(file.readAll()).object();
}

QJsonObject fixture(const QString &name)
{
    return loadJson(ResultsDir + QLatin1Char('/') + name);
}

/// The panel's input, parsed as the session parses it (a refused fixture fails the test).
std::shared_ptr<const AotStudio::Client::ProfileResult> profile(const QJsonObject &json)
{
    auto parsed = AotStudio::Client::parseProfileResult(json);
    if (!parsed.ok())
        qWarning("%s", qPrintable(parsed.error));
    return parsed.value;
}

/// The fixtures reference their files under /OUT, as an engine elsewhere would.
QString resolve(const QString &enginePath)
{
    QString path = enginePath;
    return path.replace(QLatin1String("/OUT"), ResultsDir);
}

template<typename T> QList<T *> plottables(QCustomPlot *plot)
{
    QList<T *> result;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        if (auto *p = qobject_cast<T *>(plot->plottable(i)); p && p->objectName() != QLatin1String("highlight"))
            result << p;
    }
    return result;
}

QCustomPlot *chart(const ProfilePanel &panel, const char *name)
{
    auto *plot = panel.findChild<QCustomPlot *>(QLatin1String(name));
    if (!plot)
        qFatal("no chart %s", name);
    return plot;
}

QString noteOf(const ProfilePanel &panel, const char *chartName)
{
    auto *note = panel.findChild<QLabel *>(QLatin1String(chartName) + QLatin1String("Note"));
    return note ? note->text() : QStringLiteral("<no note label>");
}

QStringList chartNames(const QList<QCustomPlot *> &charts)
{
    QStringList names;
    for (const QCustomPlot *plot : charts)
        names << plot->objectName();
    return names;
}

int traceRangeCount(const QString &path, QSet<QPair<int, int>> *tracks)
{
    int count = 0;
    for (const QJsonValue &v : loadJson(path).value(QLatin1String("traceEvents")).toArray()) {
        const QJsonObject e = v.toObject();
        if (e.value(QLatin1String("ph")).toString() != QLatin1String("X"))
            continue;
        ++count;
        tracks->insert({ e.value(QLatin1String("pid")).toInt(), e.value(QLatin1String("tid")).toInt() });
    }
    return count;
}

QPointF barCentre(QCustomPlot *plot, QCPBars *bars, int index)
{
    const auto it = bars->data()->at(index);
    return { plot->xAxis->coordToPixel(it->value / 2), plot->yAxis->coordToPixel(it->key) };
}

void saveTabs(ProfilePanel &panel, const QString &prefix)
{
    QDir().mkpath(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR));
    auto *tabs = panel.findChild<QTabWidget *>(QStringLiteral("profileTabs"));
    const char *names[] = { "latency", "memory", "timeline", "kernels", "start" };
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        QTest::qWait(20);
        const QString path = QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/%1_%2.png").arg(prefix, QLatin1String(names[i]));
        QVERIFY2(panel.grab().save(path), qPrintable(path));
    }
    tabs->setCurrentIndex(0);
}
} // namespace

class TestProfilePanel : public QObject
{
    Q_OBJECT

    QTranslator m_english;

private Q_SLOTS:
    void initTestCase()
    {
        // English plural forms ("2 usable CPUs"), as the studio loads them.
        QVERIFY(m_english.load(QStringLiteral(":/i18n/aotstudio_en.qm")));
        QCoreApplication::installTranslator(&m_english);
    }

    void pairedProfileShowsIntervalsAndVerdict()
    {
        ProfilePanel panel;
        panel.resize(1280, 800);
        QJsonObject result = fixture(QStringLiteral("profile_paired_cpu.json"));
        panel.setProfile(profile(result), resolve);
        QVERIFY(panel.waitForTrace()); // read off the UI thread
        const QString summary = panel.findChild<QLabel *>(QStringLiteral("profileSummary"))->text();
        QVERIFY2(summary.contains(QStringLiteral("AOTInductor: 2.38× (95% CI 2.31–2.44) the speed of eager")),
            qPrintable(summary));
        QVERIFY2(summary.contains(QLatin1String("<b>noisy</b>: the compiled blocks spread over 14%")), qPrintable(summary));
        QVERIFY2(summary.contains(QLatin1String("Threads: 2 (of 2 usable CPUs)")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("Eager (Python) 1.17× (95% CI 1.15–1.20)")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("AOTInductor 1.01× (95% CI 0.998–1.02)")), qPrintable(summary));
        QVERIFY2(!summary.contains(QLatin1String("⚠ measurement:")), "the verdict is not repeated as a warning");
        QVERIFY(summary.contains(QLatin1String("profiled at")));
        QVERIFY(!panel.figuresGreyed());
        QCOMPARE(int(panel.measurement().verdict), int(AotStudio::Client::Measurement::Verdict::Noisy));

        // The latency axis labels carry the interval next to the ratio.
        QCustomPlot *latency = chart(panel, "profileLatencyChart");
        const auto ticks = qSharedPointerDynamicCast<QCPAxisTickerText>(latency->yAxis->ticker())->ticks();
        QVERIFY2(ticks.values().join(QLatin1Char('|')).contains(QStringLiteral("2.38×\n(95% CI 2.31–2.44)")),
            qPrintable(ticks.values().join(QLatin1Char('|'))));

        // Cold start: the bundle stacked from its phases (each with its interval), then the rest
        // of its median, beside eager.
        QCustomPlot *cold = chart(panel, "profileColdStartChart");
        const auto bars = plottables<QCPBars>(cold);
        QStringList names;
        for (QCPBars *b : bars)
            names << b->name();
        QCOMPARE(names, (QStringList { QStringLiteral("spawn to main"), QStringLiteral("verify"), QStringLiteral("load"),
                            QStringLiteral("first run"), QStringLiteral("other"), QStringLiteral("eager") }));
        QCOMPARE(bars.at(0)->data()->at(0)->value, 120.0);
        QCOMPARE(bars.at(2)->data()->at(0)->value, 140.0);
        QCOMPARE(bars.at(2)->barBelow(), bars.at(1)); // stacked
        QCOMPARE(bars.at(4)->data()->at(0)->value, 10.0); // 310 − (120 + 18 + 140 + 22)
        QCOMPARE(bars.at(5)->data()->at(0)->value, 2900.0);
        const auto whiskers = plottables<QCPErrorBars>(cold);
        QCOMPARE(whiskers.size(), 4);
        QCOMPARE(whiskers.at(0)->data()->at(0).errorPlus, 11.0); // 131 − 120
        auto *title = dynamic_cast<QCPTextElement *>(cold->plotLayout()->element(0, 0));
        QVERIFY(title);
        QCOMPARE(title->text(), QStringLiteral("Cold start: eager / bundle 9.35× (95% CI 8.90–9.80)"));
        QVERIFY(panel.charts().contains(cold));

        // Throughput: the one-runner rate disagrees with its latency; the table marks it, with
        // the reason in the tooltip, and so does the chart at its point.
        ThroughputModel *throughput = panel.throughputModel();
        QAbstractItemModelTester tester(throughput, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QCOMPARE(throughput->rowCount(), 3);
        const QModelIndex flag = throughput->index(0, ThroughputModel::ConsistentColumn);
        QCOMPARE(flag.data().toString(), QStringLiteral("⚠ no"));
        QVERIFY2(flag.data(Qt::ToolTipRole).toString().contains(QLatin1String("time went somewhere between calls")),
            qPrintable(flag.data(Qt::ToolTipRole).toString()));
        QVERIFY(flag.data(Qt::BackgroundRole).isValid());
        QCOMPARE(throughput->index(1, ThroughputModel::ConsistentColumn).data().toString(), QStringLiteral("—"));
        QCOMPARE(throughput->index(0, ThroughputModel::ThreadsColumn).data().toInt(), 2);
        // Windowed rows: the median per-window rate with its interval, and the scaling over one
        // runner with its own; a row from before windows says it has no interval.
        const QLocale locale;
        QCOMPARE(throughput->index(1, ThroughputModel::ThroughputColumn).data().toString(),
                 QStringLiteral("%1 (95% CI %2–%3)").arg(locale.toString(41150.0, 'f', 0), locale.toString(40000.0, 'f', 0),
                                                       locale.toString(41700.0, 'f', 0)));
        QCOMPARE(throughput->index(1, ThroughputModel::ScalingColumn).data().toString(), QStringLiteral("2.28× (95% CI 2.20–2.35)"));
        QVERIFY(throughput->index(0, ThroughputModel::ThroughputColumn).data().toString().endsWith(QLatin1String("(no interval)")));
        QCOMPARE(throughput->index(0, ThroughputModel::ScalingColumn).data().toString(), QStringLiteral("1× (baseline)"));
        QCOMPARE(throughput->index(2, ThroughputModel::ScalingColumn).data().toString(), QStringLiteral("—"));
        QVERIFY(panel.findChild<QWidget *>(QStringLiteral("throughputTable")));
        int marks = 0;
        QCustomPlot *throughputChart = chart(panel, "profileThroughputChart");
        for (int i = 0; i < throughputChart->itemCount(); ++i)
            marks += throughputChart->item(i)->objectName() == QLatin1String("inconsistentMark");
        QCOMPARE(marks, 1);
        // Noisy is not unreliable: the distribution keeps its colours and plain title.
        QCustomPlot *distribution = chart(panel, "profileDistributionChart");
        auto *distributionTitle = dynamic_cast<QCPTextElement *>(distribution->plotLayout()->element(0, 0));
        QVERIFY(!distributionTitle->text().contains(QLatin1String("unreliable")));
        QVERIFY(plottables<QCPStatisticalBox>(distribution).last()->brush().color().saturation() > 0);
        saveTabs(panel, QStringLiteral("profile_paired"));

        // An unreliable verdict greys the figures and the bars, and names its reasons.
        QJsonObject measurement = result.value(QLatin1String("measurement")).toObject();
        measurement.insert(QStringLiteral("verdict"), QStringLiteral("unreliable"));
        measurement.insert(QStringLiteral("reasons"), QJsonArray { QStringLiteral("other runnable tasks averaged 3.1") });
        result.insert(QStringLiteral("measurement"), measurement);
        panel.setProfile(profile(result), resolve);
        QVERIFY(panel.waitForTrace()); // read off the UI thread
        QVERIFY(panel.figuresGreyed());
        const QString greyed = panel.findChild<QLabel *>(QStringLiteral("profileSummary"))->text();
        QVERIFY2(greyed.contains(QStringLiteral("<span style=\"color:#9e9e9e\">AOTInductor: 2.38×")), qPrintable(greyed));
        QVERIFY2(greyed.contains(QLatin1String("<b>unreliable</b>: other runnable tasks averaged 3.1")), qPrintable(greyed));
        for (QCPBars *b : plottables<QCPBars>(chart(panel, "profileLatencyChart")))
            QCOMPARE(b->brush().color(), QColor(0x9e, 0x9e, 0x9e));
        // The distribution beside them: boxes grey, the title says why; the latency title too.
        for (QCPStatisticalBox *box : plottables<QCPStatisticalBox>(distribution))
            QCOMPARE(box->brush().color().saturation(), 0);
        QVERIFY2(distributionTitle->text().endsWith(QStringLiteral(" (greyed: unreliable)")),
                 qPrintable(distributionTitle->text()));
        auto *latencyTitle = dynamic_cast<QCPTextElement *>(latency->plotLayout()->element(0, 0));
        QCOMPARE(latencyTitle->text(), QStringLiteral("Median latency per call (greyed: unreliable)"));
        saveTabs(panel, QStringLiteral("profile_unreliable"));
    }

    void cpuProfile()
    {
        ProfilePanel panel;
        panel.resize(1280, 800);
        panel.setProfile(profile(fixture(QStringLiteral("profile_cpu.json"))), resolve);
        QVERIFY(panel.waitForTrace()); // read off the UI thread

        // Latency: one bar per available variant (NativeRT is listed, not drawn), p99 markers.
        QCustomPlot *latency = chart(panel, "profileLatencyChart");
        const auto bars = plottables<QCPBars>(latency);
        QCOMPARE(bars.size(), 2);
        QCOMPARE(bars.at(0)->data()->at(0)->value, 0.081);
        QCOMPARE(bars.at(1)->data()->at(0)->value, 0.034);
        QCOMPARE(plottables<QCPErrorBars>(latency).size(), 2);
        QCOMPARE(plottables<QCPGraph>(latency).first()->dataCount(), 2);
        const auto ticks = qSharedPointerDynamicCast<QCPAxisTickerText>(latency->yAxis->ticker())->ticks();
        QCOMPARE(ticks.size(), 3);
        QVERIFY2(ticks.first().contains(QLatin1String("not available")), qPrintable(ticks.first()));

        // Distribution: a box per variant, collector off and on; its category labels stacked before
        // their parenthesis so that neighbours in the narrow chart do not run together.
        QCustomPlot *distribution = chart(panel, "profileDistributionChart");
        QCOMPARE(plottables<QCPStatisticalBox>(distribution).size(), 4);
        const auto categories = qSharedPointerDynamicCast<QCPAxisTickerText>(distribution->xAxis->ticker())->ticks();
        QCOMPARE(categories.value(1), QStringLiteral("Eager\n(Python)"));
        QCOMPARE(stackedTickLabel(QStringLiteral("即时执行（Python）")), QStringLiteral("即时执行\n（Python）"));
        QCOMPARE(stackedTickLabel(QStringLiteral("AOTInductor")), QStringLiteral("AOTInductor"));
        QCOMPARE(stackedTickLabel(QStringLiteral("(x)")), QStringLiteral("(x)")); // nothing to stack above it

        // Memory: 64 KiB and 40 KiB.
        const auto memory = plottables<QCPBars>(chart(panel, "profileMemoryChart"));
        QCOMPARE(memory.size(), 1);
        QCOMPARE(memory.first()->dataCount(), 2);
        QCOMPARE(memory.first()->data()->at(1)->value, 64.0); // eager is the top row: the higher key
        QVERIFY(
            panel.findChild<QLabel *>(QStringLiteral("gpuSummary"))->text().contains(QLatin1String("not measured")));

        // Timeline: one track per thread of the trace, every range loaded.
        QSet<QPair<int, int>> tracks;
        const int ranges = traceRangeCount(ResultsDir + QStringLiteral("/trace_cpu.json"), &tracks);
        QCOMPARE(panel.timeline()->trackCount(), int(tracks.size()));
        QCOMPARE(panel.timeline()->trackCount(), 2);
        QCOMPARE(panel.timeline()->data().rangeCount, ranges);

        // Top kernels: the compiled variant's first, then eager's ops.
        QCOMPARE(panel.kernelSources(), (QStringList { QStringLiteral("aoti"), QStringLiteral("ops:eager") }));
        QCOMPARE(panel.kernelBarNames().size(), 4);
        QCOMPARE(panel.kernelBarNames().first(), QStringLiteral("aoti_torch_cpu_addmm_out"));
        QCOMPARE(plottables<QCPBars>(chart(panel, "profileKernelsChart")).first()->dataCount(), 4);
        panel.setKernelSource(QStringLiteral("ops:eager"));
        QCOMPARE(panel.kernelBarNames().first(), QStringLiteral("aten::linear"));

        // Throughput: calls/s and p99 against 1, 2, 4 runners.
        QCustomPlot *throughput = chart(panel, "profileThroughputChart");
        QCOMPARE(throughput->graphCount(), 2);
        QCOMPARE(throughput->graph(0)->dataCount(), 3);
        QCOMPARE(throughput->graph(0)->data()->at(2)->value, 43000.0);
        QCOMPARE(throughput->graph(1)->data()->at(2)->value, 0.31);

        // Cold start was skipped: a note, and no chart for the report.
        QVERIFY2(noteOf(panel, "profileColdStartChart").contains(QLatin1String("not measured")),
            qPrintable(noteOf(panel, "profileColdStartChart")));
        QCOMPARE(chartNames(panel.charts()),
            (QStringList { QStringLiteral("profileLatencyChart"), QStringLiteral("profileDistributionChart"),
                QStringLiteral("profileMemoryChart"), QStringLiteral("profileTimelineChart"),
                QStringLiteral("profileKernelsChart"), QStringLiteral("profileThroughputChart") }));
        QVERIFY(panel.findChild<QLabel *>(QStringLiteral("profileSummary"))->text().contains(QLatin1String("2.38")));

        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        latency->replot();
        const QString tip = pointToolTipAt(latency, barCentre(latency, bars.at(1), 0));
        QVERIFY2(tip.contains(QLatin1String("AOTInductor: median 0.034 ms")), qPrintable(tip));
        saveTabs(panel, QStringLiteral("profile_cpu"));
    }

    void cudaProfile()
    {
        ProfilePanel panel;
        panel.resize(1280, 800);
        panel.setProfile(profile(fixture(QStringLiteral("profile_cuda.json"))), resolve);
        QVERIFY(panel.waitForTrace()); // read off the UI thread
        QCOMPARE(plottables<QCPBars>(chart(panel, "profileLatencyChart")).size(), 3);
        QCOMPARE(plottables<QCPBars>(chart(panel, "profileMemoryChart")).first()->dataCount(), 3);

        // Two CUDA streams plus the CPU's call and launch threads.
        QCOMPARE(panel.timeline()->trackCount(), 4);
        QCOMPARE(panel.timeline()->data().trackLabels.filter(QLatin1String("stream")).size(), 2);

        QCOMPARE(panel.kernelSources(),
            (QStringList { QStringLiteral("aoti"), QStringLiteral("nativert"), QStringLiteral("eager"),
                QStringLiteral("ops:eager") }));
        QCOMPARE(
            panel.kernelBarNames().first(), QStringLiteral("sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize64x64x32"));

        const QString gpu = panel.findChild<QLabel *>(QStringLiteral("gpuSummary"))->text();
        QVERIFY2(gpu.contains(QLatin1String("83.0%")) && gpu.contains(QLatin1String("HtoD")), qPrintable(gpu));

        QCustomPlot *cold = chart(panel, "profileColdStartChart");
        const auto coldBars = plottables<QCPBars>(cold);
        QCOMPARE(coldBars.first()->dataCount(), 2);
        QCOMPARE(coldBars.first()->data()->at(1)->value, 310.0);
        QCOMPARE(panel.charts().size(), 7);

        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        saveTabs(panel, QStringLiteral("profile_cuda"));
    }

    // The burst replay beside cold start: one line per mode (worker and request isolation, the
    // baselines: spawn dashed, the Python eager server dash-dotted) over the rates asked, p99 as
    // whiskers, a saturated point hollow and labelled.
    void burstReplayChart()
    {
        ProfilePanel panel;
        panel.resize(1280, 800);
        const auto result = profile(fixture(QStringLiteral("profile_replay_cpu.json")));
        QVERIFY(result && result->replay.present);
        panel.setProfile(result, resolve);
        QVERIFY(panel.waitForTrace()); // read off the UI thread
        QCustomPlot *plot = chart(panel, "profileReplayChart");
        QVERIFY(chartNames(panel.charts()).contains(QStringLiteral("profileReplayChart")));
        const QStringList modes = result->replay.modes();
        QCOMPARE(plot->graphCount(), modes.size());
        QCOMPARE(modes.size(), 4);
        QVERIFY(modes.contains(QStringLiteral("eager")));
        int saturatedRows = 0;
        for (int g = 0; g < plot->graphCount(); ++g) {
            QCPGraph *graph = plot->graph(g);
            const QString mode = graph->property("mode").toString();
            QCOMPARE(mode, modes.at(g));
            const Qt::PenStyle pen = mode == QLatin1String("spawn") ? Qt::DashLine
                : mode == QLatin1String("eager")                    ? Qt::DashDotLine
                                                                    : Qt::SolidLine;
            QCOMPARE(graph->pen().style(), pen);
            QList<double> keys;
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
                keys << it->key;
            QCOMPARE(keys, (QList<double>{5, 20, 50})); // x: the offered rates
            for (const auto &row : result->replay.rowsOf(mode))
                saturatedRows += row.saturated;
        }
        QVERIFY(saturatedRows > 0);
        // p99 whiskers on each line's points.
        QCOMPARE(plottables<QCPErrorBars>(plot).size(), modes.size());
        // Every point drawn; the saturated ones hollow (white inside) and labelled.
        int points = 0, hollow = 0, marks = 0;
        for (int i = 0; i < plot->itemCount(); ++i) {
            QCPAbstractItem *item = plot->item(i);
            if (item->objectName() == QLatin1String("replayPoint")) {
                ++points;
                auto *tracer = static_cast<QCPItemTracer *>(item);
                const bool saturated = tracer->property("saturated").toBool();
                QCOMPARE(tracer->brush().color() == Qt::white, saturated);
                hollow += saturated;
            } else if (item->objectName() == QLatin1String("saturatedMark")) {
                ++marks;
                QCOMPARE(static_cast<QCPItemText *>(item)->text(), QStringLiteral("saturated"));
            }
        }
        QCOMPARE(points, 12);
        QCOMPARE(hollow, saturatedRows);
        QCOMPARE(marks, saturatedRows);

        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto *tabs = panel.findChild<QTabWidget *>(QStringLiteral("profileTabs"));
        tabs->setCurrentIndex(tabs->count() - 1);
        plot->replot();
        QCPGraph *worker = plot->graph(modes.indexOf(QStringLiteral("worker")));
        const auto first = worker->data()->constBegin();
        const QString tip = pointToolTipAt(
            plot, QPointF(plot->xAxis->coordToPixel(first->key), plot->yAxis->coordToPixel(first->value)));
        // The recorded ratios' intervals (225× with 37.4–431) are wider than the ratios themselves:
        // shown as no reliable ratio, with the interval as the reason (MeasurementText's rule).
        QVERIFY2(tip.contains(QLatin1String("worker isolation")) && tip.contains(QLatin1String("answers/s"))
                     && tip.contains(QStringLiteral("no reliable ratio: its 95% interval 37.4–431")),
                 qPrintable(tip));
        // Both baselines' ratios over this mode, each named by its baseline.
        QVERIFY2(tip.contains(QLatin1String("spawn baseline / this mode"))
                     && tip.contains(QLatin1String("Python eager server / this mode")),
                 qPrintable(tip));
        QCPGraph *eager = plot->graph(modes.indexOf(QStringLiteral("eager")));
        QCOMPARE(eager->name(), QStringLiteral("Python eager server"));
        saveTabs(panel, QStringLiteral("profile_replay"));

        // Not asked: a note says how to ask.
        panel.setProfile(profile(fixture(QStringLiteral("profile_paired_cpu.json"))), resolve);
        QVERIFY(panel.waitForTrace());
        QVERIFY2(noteOf(panel, "profileReplayChart").contains(QLatin1String("Burst replay rates")),
                 qPrintable(noteOf(panel, "profileReplayChart")));
    }

    void missingSectionsShowNotes()
    {
        QJsonObject result = fixture(QStringLiteral("profile_cpu.json"));
        result[QStringLiteral("collector")] = QJsonObject { { QStringLiteral("name"),
                                                                QStringLiteral("record_function") },
            { QStringLiteral("available"), false }, { QStringLiteral("reason"), QStringLiteral("no callbacks") } };
        result[QStringLiteral("kernels")] = QJsonArray();
        result[QStringLiteral("ops")] = QJsonArray();
        result[QStringLiteral("throughput")] = QJsonArray();
        result.remove(QStringLiteral("cold_start"));
        QJsonArray variants = result.value(QLatin1String("variants")).toArray();
        for (int i = 0; i < variants.size(); ++i) {
            QJsonObject v = variants.at(i).toObject();
            v[QStringLiteral("memory")] = QJsonObject { { QStringLiteral("peak_bytes"), QJsonValue::Null } };
            variants[i] = v;
        }
        result[QStringLiteral("variants")] = variants;
        ProfilePanel panel;
        panel.setProfile(profile(result));
        QVERIFY(panel.waitForTrace()); // read off the UI thread
        QCOMPARE(chartNames(panel.charts()),
            (QStringList { QStringLiteral("profileLatencyChart"), QStringLiteral("profileDistributionChart") }));
        for (const char *name : { "profileMemoryChart", "profileTimelineChart", "profileKernelsChart",
                 "profileColdStartChart", "profileThroughputChart" }) {
            const QString note = noteOf(panel, name);
            QVERIFY2(note.contains(QLatin1String("ot measured")), qPrintable(QLatin1String(name) + u' ' + note));
        }
        QVERIFY(noteOf(panel, "profileTimelineChart").contains(QLatin1String("no callbacks")));

        // A trace file that is not there: said so, with the path.
        result = fixture(QStringLiteral("profile_cpu.json"));
        panel.setProfile(profile(result)); // no resolver: /OUT/trace_cpu.json does not exist here
        QVERIFY(panel.waitForTrace()); // read off the UI thread
        QVERIFY2(noteOf(panel, "profileTimelineChart").contains(QLatin1String("/OUT/trace_cpu.json")),
            qPrintable(noteOf(panel, "profileTimelineChart")));

        panel.clear();
        QVERIFY(panel.charts().isEmpty());
        QVERIFY(panel.kernelBarNames().isEmpty());
    }

    void compileResult()
    {
        ProfilePanel panel;
        panel.resize(1280, 800);
        panel.setProfile(profile(fixture(QStringLiteral("compile_cpu.json"))));
        QVERIFY(panel.waitForTrace()); // read off the UI thread
        QCOMPARE(chartNames(panel.charts()),
            (QStringList { QStringLiteral("profileLatencyChart"), QStringLiteral("profileDistributionChart") }));
        const auto bars = plottables<QCPBars>(chart(panel, "profileLatencyChart"));
        QCOMPARE(bars.size(), 2);
        QCOMPARE(bars.at(1)->data()->at(0)->value, 0.016605);
        QVERIFY(noteOf(panel, "profileKernelsChart").contains(QLatin1String("compile result")));
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QDir().mkpath(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR));
        QVERIFY(panel.grab().save(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/profile_compile_result.png")));
    }

    void chartTitleWrapsInANarrowChart()
    {
        // A title wider than its chart wraps onto more lines instead of being cut at both edges
        // (the distribution's title in a 370 px chart at 1366×768), and is one line again with room.
        const QString title
            = QStringLiteral("Latency distribution: box p10–p90, whiskers min–p99, ○ max; pale: collector on");
        std::unique_ptr<QCustomPlot> plot(createChart(QStringLiteral("narrowChart"), title));
        auto *element = dynamic_cast<QCPTextElement *>(plot->plotLayout()->element(0, 0));
        QVERIFY(element);
        const QFontMetrics metrics(element->font());
        QVERIFY(metrics.horizontalAdvance(title) > 300);
        const auto layOut = [&plot](int width) {
            plot->resize(width, 240);
            plot->setViewport(plot->rect());
            plot->replot();
        };
        layOut(300);
        QVERIFY2(element->outerRect().height() >= 2 * metrics.height(),
                 qPrintable(QString::number(element->outerRect().height())));
        QVERIFY(element->outerRect().width() <= 300);
        QVERIFY(plot->axisRect()->outerRect().width() <= 300);
        layOut(1600);
        QVERIFY2(element->outerRect().height() < 2 * metrics.height(),
                 qPrintable(QString::number(element->outerRect().height())));
    }

    void kernelClicksAndHighlight()
    {
        ProfilePanel panel;
        panel.resize(1280, 800);
        panel.setProfile(profile(fixture(QStringLiteral("profile_cpu.json"))), resolve);
        QVERIFY(panel.waitForTrace()); // read off the UI thread
        QSignalSpy activated(&panel, &ProfilePanel::kernelActivated);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto *tabs = panel.findChild<QTabWidget *>(QStringLiteral("profileTabs"));

        tabs->setCurrentIndex(3);
        QCustomPlot *kernels = chart(panel, "profileKernelsChart");
        kernels->replot();
        QCPBars *bars = plottables<QCPBars>(kernels).first();
        QTest::mouseClick(kernels, Qt::LeftButton, {}, barCentre(kernels, bars, bars->dataCount() - 1).toPoint());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.last().first().toString(), QStringLiteral("aoti_torch_cpu_addmm_out"));

        tabs->setCurrentIndex(2);
        TimelineChart *timeline = panel.timeline();
        QCustomPlot *plot = timeline->plot();
        plot->replot();
        // The first fused kernel of the first AOTI call, found in the data and clicked on screen.
        const TimelineData &data = timeline->data();
        const int name = int(data.names.indexOf(QStringLiteral("graph_0_cpp_fused_addmm_relu_0")));
        QVERIFY(name >= 0);
        QPointF pixel;
        for (size_t lane = 0; lane < data.lanes.size() && pixel.isNull(); ++lane) {
            for (const auto &range : data.lanes[lane].ranges) {
                if (range.name == name) {
                    pixel = { plot->xAxis->coordToPixel((range.startMs + range.endMs) / 2),
                        plot->yAxis->coordToPixel(lane + 0.5) };
                    break;
                }
            }
        }
        QCOMPARE(timeline->rangeNameAt(pixel), QStringLiteral("graph_0_cpp_fused_addmm_relu_0"));
        QTest::mouseClick(plot, Qt::LeftButton, {}, pixel.toPoint());
        QCOMPARE(activated.count(), 2);
        QCOMPARE(activated.last().first().toString(), QStringLiteral("graph_0_cpp_fused_addmm_relu_0"));

        // Highlight: three calls in the trace, and the bar marked.
        QCOMPARE(timeline->highlight(QStringLiteral("graph_0_cpp_fused_relu_1")), 3);
        panel.highlightKernel(QStringLiteral("graph_0_cpp_fused_relu_1"));
        QCOMPARE(kernels->plottableCount() - plottables<QCPBars>(kernels).size(), 1);
        // A name only eager's ops have switches the kernel chart to them.
        panel.highlightKernel(QStringLiteral("aten::relu"));
        QCOMPARE(panel.findChild<QComboBox *>(QStringLiteral("kernelSource"))->currentData().toString(),
            QStringLiteral("ops:eager"));
        tabs->setCurrentIndex(2);
        QTest::qWait(20);
        QVERIFY(panel.grab().save(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/profile_timeline_highlight.png")));
        panel.highlightKernel(QString());
        QCOMPARE(kernels->plottableCount(), plottables<QCPBars>(kernels).size());
    }

    void timelineDrawsOnlyWhatIsVisible()
    {
        // 200,000 back-to-back ranges on one stream: whole view merges sub-pixel ranges; a zoom
        // draws only the handful in view.
        QJsonArray events;
        for (int i = 0; i < 200000; ++i) {
            events.append(QJsonObject { { QStringLiteral("ph"), QStringLiteral("X") },
                { QStringLiteral("name"), QStringLiteral("k%1").arg(i % 7) },
                { QStringLiteral("cat"), QStringLiteral("aoti") }, { QStringLiteral("ts"), i * 2.0 },
                { QStringLiteral("dur"), 1.5 }, { QStringLiteral("pid"), 2 }, { QStringLiteral("tid"), 7 } });
        }
        TimelineChart timeline;
        timeline.resize(1000, 300);
        timeline.setData(TimelineData::fromJson(QJsonObject { { QStringLiteral("traceEvents"), events } }));
        QCOMPARE(timeline.trackCount(), 1);
        QCOMPARE(timeline.data().rangeCount, 200000);
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        timeline.plot()->replot();
        QVERIFY2(timeline.drawnCount() <= timeline.plot()->width(), qPrintable(QString::number(timeline.drawnCount())));
        timeline.zoomTo(100.0, 100.02); // 20 µs: about ten ranges
        QVERIFY2(timeline.drawnCount() > 0 && timeline.drawnCount() <= 12,
            qPrintable(QString::number(timeline.drawnCount())));
    }
};

QTEST_MAIN(TestProfilePanel)
#include "tst_profilepanel.moc"
