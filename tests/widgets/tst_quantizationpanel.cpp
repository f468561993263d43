// SPDX-License-Identifier: GPL-3.0-or-later
// QuantizationPanel, SchemeTableModel, LayerErrorModel and the row copy, fed from
// tests/fixtures/results/quantize_cpu.json (ok, unsupported and failed rows, per-layer tables).
#include "widgets/charthelpers.h"
#include "widgets/layererrormodel.h"
#include "widgets/quantizationpanel.h"
#include "widgets/schemetablemodel.h"
#include "widgets/tablecopy.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTranslator>
#include <qcustomplot.h>

using namespace AotStudio::Widgets;

namespace {
QJsonObject loadFixture(const QString &name)
{
    QFile file(QStringLiteral(AOTSTUDIO_RESULTS_DIR "/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open fixture %s", qPrintable(file.fileName()));
    return QJsonDocument::fromJson(file.readAll()).object();
}

/// The panel's input, parsed as the session parses it (a refused fixture fails the test).
std::shared_ptr<const AotStudio::Client::QuantizeResult> quantize(const QJsonObject &json)
{
    auto parsed = AotStudio::Client::parseQuantizeResult(json);
    if (!parsed.ok())
        qWarning("%s", qPrintable(parsed.error));
    return parsed.value;
}

int proxyRowOf(const QTableView *view, const QString &scheme)
{
    const QAbstractItemModel *model = view->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, 0).data(SchemeTableModel::SchemeNameRole).toString() == scheme)
            return row;
    }
    return -1;
}

QList<QCPBars *> barsOf(QCustomPlot *plot)
{
    QList<QCPBars *> result;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        if (auto *bars = qobject_cast<QCPBars *>(plot->plottable(i)))
            result << bars;
    }
    return result;
}
} // namespace

class TestQuantizationPanel : public QObject
{
    Q_OBJECT

    QTranslator m_english;

private Q_SLOTS:
    void initTestCase()
    {
        // English plural forms ("2 blocks"), as the studio loads them.
        QVERIFY(m_english.load(QStringLiteral(":/i18n/aotstudio_en.qm")));
        QCoreApplication::installTranslator(&m_english);
    }

    void pairedRowsShowIntervalsAndVerdicts()
    {
        SchemeTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setResult(quantize(loadFixture(QStringLiteral("quantize_paired_cpu.json"))));
        const auto cell = [&](const char *scheme, int column, int role = Qt::DisplayRole) {
            return model.index(model.rowOf(QLatin1String(scheme)), column).data(role);
        };
        QCOMPARE(cell("int8-weight-only", SchemeTableModel::SpeedupColumn).toString(),
            QStringLiteral("3.00× (95% CI 2.88–3.12)"));
        QCOMPARE(cell("int4-weight-only", SchemeTableModel::SpeedupColumn).toString(),
            QStringLiteral("0.810× (95% CI 0.780–0.840): slower than fp32 eager"));
        QCOMPARE(cell("bf16", SchemeTableModel::SpeedupColumn).toString(), QStringLiteral("2.79× (no interval: 2 blocks)"));
        QCOMPARE(cell("fp32", SchemeTableModel::MeasurementColumn).toString(), QStringLiteral("ok"));
        QCOMPARE(cell("fp8-dynamic", SchemeTableModel::MeasurementColumn).toString(), QStringLiteral("—"));
        // The unreliable row: its verdict named, its timings greyed, the reason in the tooltip.
        QCOMPARE(cell("int8-dynamic", SchemeTableModel::MeasurementColumn).toString(), QStringLiteral("unreliable"));
        QCOMPARE(cell("int8-dynamic", SchemeTableModel::SpeedupColumn, Qt::ForegroundRole).value<QBrush>().color(),
            QColor(0x9e, 0x9e, 0x9e));
        QVERIFY(!cell("fp32", SchemeTableModel::SpeedupColumn, Qt::ForegroundRole).isValid());
        const QString tip = cell("int8-dynamic", SchemeTableModel::MeasurementColumn, Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QLatin1String("unreliable: other runnable tasks averaged 2.6")), qPrintable(tip));
        QVERIFY2(tip.contains(QLatin1String("Threads: 2 (of 2 usable CPUs)")), qPrintable(tip));
        // Each output's own error, by the forward's output names, in the error column's tooltip.
        const QString errorTip
            = cell("int8-weight-only", SchemeTableModel::MaxAbsErrorColumn, Qt::ToolTipRole).toString();
        QVERIFY2(errorTip.contains(QLatin1String("logits: max abs 0.0095")), qPrintable(errorTip));
        QVERIFY2(errorTip.contains(QLatin1String("extra.mask: max abs 0")), qPrintable(errorTip));
        QVERIFY(cell("fp32", SchemeTableModel::MaxAbsErrorColumn, Qt::ToolTipRole).toString().isEmpty());
        // Sorting by the ratio uses the estimate.
        QCOMPARE(cell("int4-weight-only", SchemeTableModel::SpeedupColumn, SchemeTableModel::SortRole).toDouble(), 0.81);

        QuantizationPanel panel;
        panel.resize(1280, 800);
        panel.setQuantization(quantize(loadFixture(QStringLiteral("quantize_paired_cpu.json"))));
        const QString summary = panel.findChild<QLabel *>(QStringLiteral("quantizationSummary"))->text();
        QVERIFY2(summary.contains(QLatin1String("Threads: 2 (of 2 usable CPUs)")), qPrintable(summary));
        QVERIFY2(summary.contains(QLatin1String("ok in 4 rows")), qPrintable(summary));
        QVERIFY2(summary.contains(QLatin1String("unreliable in 1 row")), qPrintable(summary));
        // Its bars in the latency chart greyed (extra bars at its row only), its row marked; the
        // scatter point greyed and labelled.
        QCustomPlot *latency = panel.findChild<QCustomPlot *>(QStringLiteral("quantLatencyChart"));
        QList<QCPBars *> greyBars;
        for (int i = 0; i < latency->plottableCount(); ++i) {
            auto *bars = qobject_cast<QCPBars *>(latency->plottable(i));
            if (bars && bars->property("greyed").toBool())
                greyBars << bars;
        }
        QCOMPARE(greyBars.size(), 2); // eager and compiled
        const int rowCount = int(panel.schemeModel()->rows().size());
        const int unreliableRow = panel.schemeModel()->rowOf(QStringLiteral("int8-dynamic"));
        for (QCPBars *bars : greyBars) {
            QCOMPARE(bars->dataCount(), 1);
            QCOMPARE(barRow(rowCount, bars->data()->at(0)->key), unreliableRow);
            QCOMPARE(bars->brush().color().saturation(), 0);
        }
        const auto labels = qSharedPointerDynamicCast<QCPAxisTickerText>(latency->yAxis->ticker())->ticks();
        QVERIFY2(labels.value(rowCount - unreliableRow).endsWith(QLatin1String("(unreliable)")),
            qPrintable(labels.value(rowCount - unreliableRow)));
        QVERIFY(latency->xAxis->label().contains(QLatin1String("grey: unreliable")));
        QCustomPlot *scatter = panel.findChild<QCustomPlot *>(QStringLiteral("quantAccuracyChart"));
        bool greyPoint = false;
        for (int i = 0; i < scatter->graphCount(); ++i) {
            if (scatter->graph(i)->name() == QLatin1String("int8-dynamic") && scatter->graph(i)->property("greyed").toBool())
                greyPoint = true;
            else
                QVERIFY(!scatter->graph(i)->property("greyed").toBool());
        }
        QVERIFY(greyPoint);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QDir().mkpath(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR));
        QVERIFY(panel.grab().save(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/quantization_paired.png")));
    }

    void rowsOfSeveralHosts()
    {
        // The paired fixture as one host measured it: no Host column, latency on the scatter's y.
        QJsonObject json = loadFixture(QStringLiteral("quantize_paired_cpu.json"));
        QuantizationPanel panel;
        panel.resize(1280, 800);
        panel.setQuantization(quantize(json));
        QCustomPlot *scatter = panel.findChild<QCustomPlot *>(QStringLiteral("quantAccuracyChart"));
        QVERIFY(panel.schemeView()->isColumnHidden(SchemeTableModel::HostColumn));
        QVERIFY2(scatter->yAxis->label().startsWith(QLatin1String("Compiled median latency")),
                 qPrintable(scatter->yAxis->label()));

        // The same rows spread over two Ray nodes (FORMAT.md "Fan-out on a Ray cluster").
        QJsonArray schemes = json.value(QLatin1String("schemes")).toArray();
        for (qsizetype i = 0; i < schemes.size(); ++i) {
            QJsonObject row = schemes.at(i).toObject();
            row.insert(QLatin1String("host"), i % 2 ? QStringLiteral("node-b") : QStringLiteral("node-a"));
            row.insert(QLatin1String("device_name"), QStringLiteral("cpu"));
            row.insert(QLatin1String("node"), QStringLiteral("n%1").arg(i % 2));
            schemes[i] = row;
        }
        json.insert(QLatin1String("schemes"), schemes);
        json.insert(QLatin1String("ray"),
                    QJsonObject{{QLatin1String("address"), QStringLiteral("10.0.0.5:6379")},
                                {QLatin1String("several_hosts"), true}});
        const auto result = quantize(json);
        QVERIFY(result && result->severalHosts);
        QCOMPARE(result->rayAddress, QStringLiteral("10.0.0.5:6379"));
        panel.setQuantization(result);
        QVERIFY(!panel.schemeView()->isColumnHidden(SchemeTableModel::HostColumn));
        const SchemeTableModel *model = panel.schemeModel();
        const int fp32 = model->rowOf(QStringLiteral("fp32"));
        QCOMPARE(model->index(fp32, SchemeTableModel::HostColumn).data().toString(), QStringLiteral("node-a (cpu)"));
        QCOMPARE(model->index(fp32, SchemeTableModel::HostColumn).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("Ray node n0"));
        const QString summary = panel.findChild<QLabel *>(QStringLiteral("quantizationSummary"))->text();
        QVERIFY2(summary.contains(QLatin1String("several hosts of the Ray cluster 10.0.0.5:6379")),
                 qPrintable(summary));
        // Medians of two hosts never share an axis: each point sits at its own speedup over fp32 eager.
        QVERIFY2(scatter->yAxis->label().startsWith(QLatin1String("Speedup over fp32 eager")),
                 qPrintable(scatter->yAxis->label()));
        const auto *row = result->find(QStringLiteral("int8-weight-only"));
        QVERIFY(row && !std::isnan(row->speedupVsFp32Eager));
        bool found = false;
        for (int i = 0; i < scatter->graphCount(); ++i) {
            if (scatter->graph(i)->name() == QLatin1String("int8-weight-only") && scatter->graph(i)->dataCount() == 1) {
                QCOMPARE(scatter->graph(i)->data()->at(0)->value, row->speedupVsFp32Eager);
                found = true;
            }
        }
        QVERIFY(found);
    }

    void schemeModelUnderTester()
    {
        SchemeTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setResult(quantize(loadFixture(QStringLiteral("quantize_cpu.json"))));
        QCOMPARE(model.rowCount(), 7);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(SchemeTableModel::SortRole);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
        proxy.sort(SchemeTableModel::CompiledMsColumn);
        // Fastest first, rows without a latency (unsupported, failed) last.
        QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("int8-weight-only"));
        QCOMPARE(proxy.index(6, SchemeTableModel::CompiledMsColumn).data().toString(), QStringLiteral("—"));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void layerModelUnderTester()
    {
        LayerErrorModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        const auto result = quantize(loadFixture(QStringLiteral("quantize_cpu.json")));
        QVERIFY(result);
        model.setLayers(result->schemes.at(3).layers);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(1, LayerErrorModel::NameColumn).data().toString(), QStringLiteral("fc2"));
        QCOMPARE(model.index(1, LayerErrorModel::TypeColumn).data().toString(), QStringLiteral("Linear"));
        QCOMPARE(model.index(1, LayerErrorModel::MaxAbsErrorColumn).data(LayerErrorModel::SortRole).toDouble(), 0.011);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(LayerErrorModel::SortRole);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
        proxy.sort(LayerErrorModel::MaxAbsErrorColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("fc2"));
        model.setLayers({});
        QCOMPARE(model.rowCount(), 0);
    }

    void rowsShowStatusReasonAndBest()
    {
        SchemeTableModel model;
        model.setResult(quantize(loadFixture(QStringLiteral("quantize_cpu.json"))));
        const int unsupported = model.rowOf(QStringLiteral("fp8-dynamic"));
        QVERIFY(unsupported >= 0);
        const QString reason = model.index(unsupported, SchemeTableModel::ReasonColumn).data().toString();
        QVERIFY2(reason.contains(QLatin1String("compute capability 8.9")), qPrintable(reason));
        QVERIFY(model.index(unsupported, SchemeTableModel::SchemeColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("compute capability 8.9")));
        QCOMPARE(
            model.index(unsupported, SchemeTableModel::StatusColumn).data().toString(), QStringLiteral("unsupported"));
        QCOMPARE(model.index(unsupported, SchemeTableModel::CompiledMsColumn).data().toString(), QStringLiteral("—"));
        QVERIFY(model.index(unsupported, 0).data(Qt::ForegroundRole).isValid()); // greyed
        const int failed = model.rowOf(QStringLiteral("int8-static"));
        const QString failedReason = model.index(failed, SchemeTableModel::ReasonColumn).data().toString();
        QVERIFY2(failedReason.contains(QLatin1String("convert_pt2e")) && failedReason.contains(QLatin1String("export")),
            qPrintable(failedReason));

        QCOMPARE(model.bestScheme(), QStringLiteral("int8-weight-only"));
        for (int row = 0; row < model.rowCount(); ++row) {
            const bool best = model.index(row, 0).data(SchemeTableModel::IsBestRole).toBool();
            QCOMPARE(best, row == model.rowOf(QStringLiteral("int8-weight-only")));
            QCOMPARE(model.index(row, SchemeTableModel::StatusColumn).data().toString().contains(QChar(0x2605)), best);
        }
        const int fp32 = model.rowOf(QStringLiteral("fp32"));
        QCOMPARE(model.index(fp32, SchemeTableModel::Top1Column).data().toString(), QStringLiteral("100.0%"));
        QCOMPARE(model.index(model.rowOf(QStringLiteral("bf16")), SchemeTableModel::SpeedupColumn).data().toString(),
            QStringLiteral("2.79× (no interval)")); // a result from before paired timing
    }

    void panelFromFixture()
    {
        QuantizationPanel panel;
        QSignalSpy selected(&panel, &QuantizationPanel::schemeSelected);
        panel.resize(1280, 800);
        panel.setQuantization(quantize(loadFixture(QStringLiteral("quantize_cpu.json"))));
        // The best scheme is selected first, with its per-layer table.
        QCOMPARE(panel.selectedScheme(), QStringLiteral("int8-weight-only"));
        QCOMPARE(selected.count(), 1);
        QCOMPARE(panel.layerModel()->rowCount(), 3);
        QCOMPARE(panel.layerView()->model()->rowCount(), 3);

        QVERIFY(panel.selectScheme(QStringLiteral("fp32")));
        QCOMPARE(selected.last().first().toString(), QStringLiteral("fp32"));
        QCOMPARE(panel.layerModel()->rowCount(), 0);
        QVERIFY(
            panel.findChild<QLabel *>(QStringLiteral("layerTitle"))->text().contains(QLatin1String("no quantized")));
        QVERIFY(panel.selectScheme(QStringLiteral("int4-weight-only")));
        QCOMPARE(panel.layerModel()->rowCount(), 3);
        QVERIFY(!panel.selectScheme(QStringLiteral("nonexistent")));

        // Charts: all four measured; bars for the five schemes that ran, a note for the two that did not.
        const QList<QCustomPlot *> charts = panel.charts();
        QCOMPARE(charts.size(), 4);
        auto *latency = panel.findChild<QCustomPlot *>(QStringLiteral("quantLatencyChart"));
        const QList<QCPBars *> bars = barsOf(latency);
        QCOMPARE(bars.size(), 2);
        QCOMPARE(bars.at(0)->dataCount(), 5);
        QCOMPARE(bars.at(1)->dataCount(), 5);
        QStringList notes;
        for (int i = 0; i < latency->itemCount(); ++i) {
            if (auto *text = qobject_cast<QCPItemText *>(latency->item(i)))
                notes << text->text();
        }
        QVERIFY2(notes.contains(QStringLiteral("unsupported")) && notes.contains(QStringLiteral("failed")),
            qPrintable(notes.join(u',')));
        auto *scatter = panel.findChild<QCustomPlot *>(QStringLiteral("quantAccuracyChart"));
        // One point per scheme that ran (plus a ring around the selected one).
        const auto pointNames = [scatter] {
            QSet<QString> names;
            for (int i = 0; i < scatter->graphCount(); ++i)
                names.insert(scatter->graph(i)->name());
            return names;
        };
        QCOMPARE(pointNames().size(), 5);
        QCOMPARE(scatter->graphCount(), 6);
        QCOMPARE(scatter->xAxis->scaleType(), QCPAxis::stLogarithmic);
        panel.setAccuracyMetric(QuantizationPanel::AccuracyMetric::OneMinusCosine);
        QCOMPARE(pointNames().size(), 5);

        // A tooltip at the best point names it.
        panel.setAccuracyMetric(QuantizationPanel::AccuracyMetric::MaxAbsError);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto *tabs = panel.findChild<QTabWidget *>(QStringLiteral("quantizationTabs"));
        tabs->setCurrentIndex(0);
        scatter->replot();
        QCPGraph *best = nullptr;
        for (int i = 0; i < scatter->graphCount(); ++i) {
            if (scatter->graph(i)->name() == QLatin1String("int8-weight-only"))
                best = scatter->graph(i);
        }
        QVERIFY(best);
        const auto point = best->data()->at(0);
        const QPointF pixel(scatter->xAxis->coordToPixel(point->key), scatter->yAxis->coordToPixel(point->value));
        const QString tip = pointToolTipAt(scatter, pixel);
        QVERIFY2(tip.startsWith(QLatin1String("int8-weight-only")), qPrintable(tip));

        // Screenshots of every tab, for review.
        QDir().mkpath(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR));
        const char *names[]
            = { "quantization_scatter", "quantization_latency", "quantization_memory", "quantization_size" };
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QTest::qWait(20);
            const QString path = QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/%1.png").arg(QLatin1String(names[i]));
            QVERIFY2(panel.grab().save(path), qPrintable(path));
        }
    }

    void nothingRanShowsNotes()
    {
        QJsonObject result = loadFixture(QStringLiteral("quantize_cpu.json"));
        QJsonArray schemes;
        for (const QJsonValue &row : result.value(QLatin1String("schemes")).toArray()) {
            if (row.toObject().value(QLatin1String("status")).toString() != QLatin1String("ok"))
                schemes << row;
        }
        result[QStringLiteral("schemes")] = schemes;
        result.remove(QStringLiteral("best"));
        QuantizationPanel panel;
        panel.setQuantization(quantize(result));
        QVERIFY(panel.charts().isEmpty());
        auto *note = panel.findChild<QLabel *>(QStringLiteral("quantLatencyChartNote"));
        QVERIFY(note);
        QVERIFY2(note->text().startsWith(QLatin1String("Not measured")), qPrintable(note->text()));
        QCOMPARE(panel.schemeModel()->rowCount(), 2);

        panel.clear();
        QVERIFY(panel.charts().isEmpty());
        QCOMPARE(panel.schemeModel()->rowCount(), 0);
        QVERIFY(panel.selectedScheme().isEmpty());
    }

    void copyRowsAsTsv()
    {
        QuantizationPanel panel;
        panel.setQuantization(quantize(loadFixture(QStringLiteral("quantize_cpu.json"))));
        QTableView *view = panel.schemeView();
        view->sortByColumn(SchemeTableModel::SchemeColumn, Qt::AscendingOrder);
        view->clearSelection();
        const int fp32 = proxyRowOf(view, QStringLiteral("fp32"));
        const int fp8 = proxyRowOf(view, QStringLiteral("fp8-dynamic"));
        QVERIFY(fp32 >= 0 && fp8 >= 0);
        view->selectionModel()->select(
            view->model()->index(fp32, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        view->selectionModel()->select(view->model()->index(fp8, 3), QItemSelectionModel::Select);
        auto *action = view->findChild<QAction *>(QStringLiteral("copyRowsAction"));
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(QKeySequence::Copy));
        QApplication::clipboard()->clear();
        action->trigger();
        const QString text = QApplication::clipboard()->text();
        // Rows in view order (sorted by scheme: fp32 before fp8-dynamic), every column, one line each.
        const QString expected
            = QStringLiteral("fp32\tok\t0.081\t0.034\t2.38× (no interval)\tnot assessed\t64.0 KiB\t1.6 MiB\t6e-08\t"
                             "1.000000\t100.0%\t\n"
                             "fp8-dynamic\tunsupported\t—\t—\t—\t—\t—\t—\t—\t—\t—\t"
                             "fp8 needs a CUDA device with compute capability 8.9 or newer; this run is on cpu\n");
        QCOMPARE(text, expected);
        QCOMPARE(selectedRowsAsTsv(view), expected);
    }
};

QTEST_MAIN(TestQuantizationPanel)
#include "tst_quantizationpanel.moc"
