// SPDX-License-Identifier: GPL-3.0-or-later
// The Sweep dock on recorded sweep results (tests/fixtures/results/sweep_*.json, written by
// `aotstudio-cli sweep` on tests/fixtures/dynamic_factory.py, see tests/fixtures/README.md):
// the typed result (Client::SweepResult), the point table under QAbstractItemModelTester, the
// strips and the grid (a cell per point, hit-testing, tooltips with the guard), the verdict line
// when a shape broke the guards' promise, and screenshots.
#include "client/sweepresult.h"
#include "sweeppanel.h"
#include "sweeppointmodel.h"
#include "sweepview.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QTableView>
#include <QtTest/QtTest>

using namespace AotStudio;
using namespace AotStudio::Widgets;
using Client::SweepPoint;
using Client::SweepResult;

namespace {

QJsonObject fixture(const QString &name)
{
    QFile f(QFINDTESTDATA(QStringLiteral("../fixtures/results/") + name));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

void saveShot(QWidget &w, const QString &name)
{
    QDir().mkpath(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR));
    const QString path = QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/") + name;
    QVERIFY2(w.grab().save(path), qPrintable(path));
}

} // namespace

class TestSweepPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parsesResult();
    void tableModel();
    void stripsAndGrid();
    void failedSweep();
    void emptyPanel();
};

void TestSweepPanel::parsesResult()
{
    const QJsonObject json = fixture(QStringLiteral("sweep_derived_cpu.json"));
    QVERIFY(!json.isEmpty());
    const SweepResult r = SweepResult::fromJson(json);
    QVERIFY(r.passed);
    QCOMPARE(r.targets.size(), 1);
    const auto &t = r.targets.first();
    QCOMPARE(t.symbols.size(), 1);
    QCOMPARE(t.symbols.first().label, QStringLiteral("n"));
    QCOMPARE(t.symbols.first().rangeText(), QStringLiteral("2..32"));
    QCOMPARE(t.points.size(), json.value(QLatin1String("points")).toInt());
    // The strip is in size order and holds no relation point.
    const auto strip = t.strip(QStringLiteral("n"));
    QVERIFY(strip.size() >= 8);
    for (qsizetype i = 1; i < strip.size(); ++i)
        QVERIFY(strip.at(i - 1).values.value(QStringLiteral("n")) < strip.at(i).values.value(QStringLiteral("n")));
    for (const auto &p : strip)
        QVERIFY(!p.relation);
    bool refusedOutside = false;
    for (const auto &p : t.points)
        refusedOutside |= !p.expectedMatch && p.outcome == SweepPoint::Outcome::Refused && p.ok;
    QVERIFY(refusedOutside);
}

void TestSweepPanel::tableModel()
{
    SweepPanel panel;
    new QAbstractItemModelTester(panel.pointModel(), QAbstractItemModelTester::FailureReportingMode::QtTest, &panel);
    panel.setResult(SweepResult::fromJson(fixture(QStringLiteral("sweep_derived_cpu.json"))));
    auto *model = panel.pointModel();
    QCOMPARE(model->rowCount(), int(panel.result().targets.first().points.size()));
    QCOMPARE(model->columnCount(), int(SweepPointModel::ColumnCount));
    // Row 0 is the example, matched.
    QVERIFY(model->data(model->index(0, SweepPointModel::ReasonsColumn)).toString().contains(QLatin1String("example")));
    QCOMPARE(model->data(model->index(0, SweepPointModel::OkColumn)).toString(), QStringLiteral("ok"));
    // A refused row explains itself in its tooltip: what the guards say.
    int refused = -1;
    for (int row = 0; row < model->rowCount(); ++row)
        if (!model->points().at(row).expectedMatch) {
            refused = row;
            break;
        }
    QVERIFY(refused >= 0);
    const QString tip = model->data(model->index(refused, 0), Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QLatin1String("the guards refuse it")), qPrintable(tip));
    QVERIFY2(tip.contains(QLatin1String("outside")) || tip.contains(QLatin1String("not 2*n")), qPrintable(tip));
    QCOMPARE(model->data(model->index(refused, SweepPointModel::ExpectedColumn)).toString(), QStringLiteral("refused"));
}

void TestSweepPanel::stripsAndGrid()
{
    SweepPanel panel;
    panel.resize(900, 640);
    panel.setResult(SweepResult::fromJson(fixture(QStringLiteral("sweep_grouped_cpu.json"))));
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const auto &t = panel.result().targets.first();
    QCOMPARE(t.symbols.size(), 2);
    QVERIFY(!t.grid(t.symbols.at(0).label, t.symbols.at(1).label).isEmpty());
    SweepView *view = panel.view();
    // Every point of a strip or the grid has a cell, and the cell maps back to it.
    int drawn = 0;
    for (int i = 0; i < t.points.size(); ++i) {
        const QRectF cell = view->cellRect(i);
        if (cell.isEmpty())
            continue;
        ++drawn;
        QCOMPARE(view->pointAt(cell.center()), i);
    }
    QCOMPARE(drawn, int(t.points.size()) - 1); // all but the example (drawn on no strip: it varies nothing)
    // Clicking a cell selects its row in the table.
    const QRectF cell = view->cellRect(1);
    QTest::mouseClick(view, Qt::LeftButton, {}, cell.center().toPoint());
    const auto rows = panel.table()->selectionModel()->selectedRows();
    QCOMPARE(rows.size(), 1);
    QVERIFY(panel.verdictText().contains(QLatin1String("passed")));
    saveShot(panel, QStringLiteral("sweep_panel_grouped.png"));

    panel.setResult(SweepResult::fromJson(fixture(QStringLiteral("sweep_derived_cpu.json"))));
    saveShot(panel, QStringLiteral("sweep_panel_derived.png"));
}

// A package without its guards record ran a size it must refuse: the verdict says FAILED and the
// red cell's tooltip names what ran.
void TestSweepPanel::failedSweep()
{
    SweepPanel panel;
    panel.resize(900, 560);
    const SweepResult r = SweepResult::fromJson(fixture(QStringLiteral("sweep_noguards_cpu.json")));
    QVERIFY(!r.passed);
    panel.setResult(r);
    QVERIFY2(panel.verdictText().contains(QLatin1String("FAILED")), qPrintable(panel.verdictText()));
    const auto &points = r.targets.first().points;
    int bad = -1;
    for (int i = 0; i < points.size(); ++i)
        if (!points.at(i).ok)
            bad = i;
    QVERIFY(bad >= 0);
    QCOMPARE(points.at(bad).outcome, SweepPoint::Outcome::NotRefused);
    QCOMPARE(SweepPointModel::outcomeColor(points.at(bad)), QColor(0xc6, 0x28, 0x28));
    QVERIFY(SweepPointModel::toolTip(points.at(bad)).contains(QLatin1String("ran although outside the range")));
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    saveShot(panel, QStringLiteral("sweep_panel_failed.png"));
}

void TestSweepPanel::emptyPanel()
{
    SweepPanel panel;
    QCOMPARE(panel.pointModel()->rowCount(), 0);
    QVERIFY(panel.verdictText().contains(QLatin1String("No sweep")));
    // A result with no targets (a malformed file) shows as empty, without a crash.
    panel.setResult(SweepResult::fromJson(QJsonObject { { QLatin1String("targets"), QJsonArray { QJsonObject {} } } }));
    QCOMPARE(panel.pointModel()->rowCount(), 0);
    panel.setResult(SweepResult::fromJson(QJsonObject { { QLatin1String("targets"), 3 } }));
    QCOMPARE(panel.pointModel()->rowCount(), 0);
}

QTEST_MAIN(TestSweepPanel)
#include "tst_sweeppanel.moc"
