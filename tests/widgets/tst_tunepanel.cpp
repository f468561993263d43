// SPDX-License-Identifier: GPL-3.0-or-later
// The Tune dock (issue 16 item 4c): a folder of `aotstudio-cli tune` (tests/fixtures/tune:
// sample:mlp, trials defaults and freezing) as a table and a Pareto scatter; "Use This Recipe"
// sets the next compile's options, "Save Recipe…" writes recipe.json. Also the typed reader.
#include "client/tuneresult.h"
#include "widgets/jobcontroller.h"
#include "widgets/mainwindow.h"
#include "widgets/runsettings.h"
#include "widgets/selectionhub.h"
#include "widgets/tunepanel.h"
#include "widgets/tunetablemodel.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

using namespace AotStudio;
using namespace AotStudio::Widgets;

namespace {
const QString kFolder = QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/tune");

std::shared_ptr<const Client::TuneResult> fixture()
{
    QFile file(kFolder + QStringLiteral("/tune.json"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(file.fileName()));
    auto parsed = Client::parseTuneResult(file.readAll());
    if (!parsed.ok())
        qFatal("%s", qPrintable(parsed.error));
    return parsed.value;
}
} // namespace

class TestTunePanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // settings and job folders in a test location
        QCoreApplication::setOrganizationName(QStringLiteral("AOTStudioTest"));
        QSettings().clear();
    }
    void readerReadsTheFixture();
    void readerRefusesBadFields();
    void tableAndScatter();
    void useAndSaveRecipe();
    void recipeOptionsIntoRunSettings();
    void mainWindowUsesRecipe();
};

void TestTunePanel::readerReadsTheFixture()
{
    const auto t = fixture();
    QCOMPARE(t->model, QStringLiteral("sample:mlp"));
    QCOMPARE(t->rows.size(), 2);
    QCOMPARE(t->baselines.size(), 2);
    QCOMPARE(t->recipeName, QStringLiteral("defaults"));
    QVERIFY(t->front.contains(QStringLiteral("freezing")));
    const Client::TuneRow *freezing = t->find(QStringLiteral("freezing"));
    QVERIFY(freezing && freezing->measured());
    QCOMPARE(freezing->options.value(QStringLiteral("freezing")).toBool(), true);
    QVERIFY(freezing->speedupVsDefaults.hasBounds());
    QVERIFY(t->find(QStringLiteral("torch.compile"))->baseline);
    QVERIFY(t->measurement.isUnreliable());
    // The recipe of a trial: the four option keys of FORMAT.md "Recipe", what was measured.
    const QJsonObject recipe = t->recipeFor(*freezing, QStringLiteral("2026-12-03T00:00:00Z"));
    QCOMPARE(recipe.value(QStringLiteral("format")).toString(), QStringLiteral("aotstudio.recipe"));
    const QJsonObject options = recipe.value(QStringLiteral("options")).toObject();
    QCOMPARE(options.value(QStringLiteral("freezing")).toBool(), true);
    QCOMPARE(options.value(QStringLiteral("dtype")).toString(), QStringLiteral("fp32"));
    QVERIFY(!options.contains(QStringLiteral("max_autotune")));
    for (const QString &key : options.keys())
        QVERIFY2(QStringList({QStringLiteral("freezing"), QStringLiteral("max_autotune"), QStringLiteral("dtype"),
                              QStringLiteral("inductor")})
                     .contains(key),
                 qPrintable(key));
}

void TestTunePanel::readerRefusesBadFields()
{
    QVERIFY(
        !Client::parseTuneResult(QJsonObject{{QStringLiteral("format"), QStringLiteral("aotstudio.numerics")}}).ok());
    const auto bad = Client::parseTuneResult(
        QJsonObject{{QStringLiteral("rows"),
                     QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("x")},
                                            {QStringLiteral("median_ms"), QStringLiteral("fast")}}}}});
    QVERIFY(!bad.ok());
    QVERIFY2(bad.error.contains(QStringLiteral("rows[0].median_ms")), qPrintable(bad.error));
    QVERIFY(!Client::parseTuneResult(QJsonObject{{QStringLiteral("rows"), QJsonArray{QJsonObject{}}}}).ok());
}

void TestTunePanel::tableAndScatter()
{
    TunePanel panel;
    new QAbstractItemModelTester(panel.model(), &panel);
    panel.resize(1100, 500);
    panel.setResult(fixture());
    panel.show();
    const TuneTableModel *m = panel.model();
    QCOMPARE(m->rowCount(), 4);
    const int defaults = m->rowOf(QStringLiteral("defaults"));
    const int eager = m->rowOf(QStringLiteral("eager"));
    QVERIFY(defaults >= 0 && eager >= 0);
    QCOMPARE(m->index(defaults, TuneTableModel::NameColumn).data().toString(), QStringLiteral("defaults (recipe)"));
    QCOMPARE(m->index(defaults, TuneTableModel::FrontColumn).data().toString(), QStringLiteral("yes"));
    QCOMPARE(m->index(eager, TuneTableModel::NameColumn).data().toString(), QStringLiteral("eager (baseline)"));
    QVERIFY(!m->index(eager, 0).data(TuneTableModel::UsableRole).toBool());
    QCOMPARE(m->index(eager, TuneTableModel::ErrorColumn).data().toString(), QStringLiteral("—"));
    const QString speedup
        = m->index(m->rowOf(QStringLiteral("freezing")), TuneTableModel::SpeedupColumn).data().toString();
    QVERIFY2(speedup.startsWith(QStringLiteral("0.29× (0.28–")), qPrintable(speedup));
    QVERIFY(panel.summaryText().contains(QStringLiteral("recipe: defaults")));

    // The recipe is selected first; the scatter has a point per measured trial, the front joined,
    // a line per baseline.
    QCOMPARE(panel.selectedTrial(), QStringLiteral("defaults"));
    QCustomPlot *plot = panel.scatter();
    QStringList named;
    for (int i = 0; i < plot->graphCount(); ++i)
        named << plot->graph(i)->name();
    QVERIFY2(named.contains(QStringLiteral("defaults")) && named.contains(QStringLiteral("freezing")),
             qPrintable(named.join(QLatin1Char(','))));
    QVERIFY(named.contains(QString())); // the front's line
    QStringList baselines;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (const QVariant b = plot->item(i)->property("baseline"); b.isValid())
            baselines << b.toString();
    baselines.sort();
    QCOMPARE(baselines, QStringList({QStringLiteral("eager"), QStringLiteral("torch.compile")}));
    // freezing's error is 0: drawn on the floor and labelled so.
    bool zeroLabel = false;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
            zeroLabel = zeroLabel || text->text() == QStringLiteral("freezing (error 0)");
    QVERIFY(zeroLabel);
}

void TestTunePanel::useAndSaveRecipe()
{
    TunePanel panel;
    panel.setResult(fixture());
    QSignalSpy chosen(&panel, &TunePanel::recipeChosen);
    QVERIFY(panel.selectTrial(QStringLiteral("freezing")));
    QVERIFY(panel.useButton()->isEnabled());
    panel.useButton()->click();
    QCOMPARE(chosen.size(), 1);
    QCOMPARE(chosen.first().at(0).toJsonObject().value(QStringLiteral("freezing")).toBool(), true);
    QCOMPARE(chosen.first().at(1).toString(), QStringLiteral("freezing"));

    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("recipe.json"));
    QString error;
    QVERIFY2(panel.saveRecipe(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject saved = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(saved.value(QStringLiteral("format")).toString(), QStringLiteral("aotstudio.recipe"));
    QCOMPARE(saved.value(QStringLiteral("name")).toString(), QStringLiteral("freezing"));
    QCOMPARE(saved.value(QStringLiteral("model")).toString(), QStringLiteral("sample:mlp"));

    // A baseline is no recipe: both buttons off, saving refused.
    QVERIFY(panel.selectTrial(QStringLiteral("torch.compile")));
    QVERIFY(!panel.useButton()->isEnabled());
    QVERIFY(!panel.saveButton()->isEnabled());
    QVERIFY(!panel.saveRecipe(tmp.filePath(QStringLiteral("other.json")), &error));
    QVERIFY(!error.isEmpty());
}

void TestTunePanel::recipeOptionsIntoRunSettings()
{
    RunSettings s;
    s.dtype = QStringLiteral("bf16");
    s.freezing = true;
    s.applyRecipeOptions(
        QJsonObject{{QStringLiteral("max_autotune"), true},
                    {QStringLiteral("inductor"), QJsonObject{{QStringLiteral("epilogue_fusion"), false}}}});
    QVERIFY(!s.freezing); // not in the recipe: off
    QVERIFY(s.maxAutotune);
    QCOMPARE(s.dtype, QStringLiteral("bf16")); // the recipe gives none: kept
    const QJsonObject compile = s.requestFields(QStringLiteral("compile"));
    QCOMPARE(compile.value(QStringLiteral("inductor")).toObject().value(QStringLiteral("epilogue_fusion")).toBool(true),
             false);
    QVERIFY(!s.requestFields(QStringLiteral("sweep")).contains(QStringLiteral("inductor")));
    // Saved and loaded with the other settings.
    s.save();
    QCOMPARE(RunSettings::load().inductor, s.inductor);
}

void TestTunePanel::mainWindowUsesRecipe()
{
    MainWindow window;
    QVERIFY(window.openJobFolder(kFolder));
    QVERIFY(window.selectionHub()->tune());
    auto *panel = window.findChild<TunePanel *>();
    QVERIFY(panel);
    QCOMPARE(panel->model()->rowCount(), 4);
    QVERIFY(panel->selectTrial(QStringLiteral("freezing")));
    panel->useButton()->click();
    QVERIFY(window.jobs()->runSettings().freezing);
    QCOMPARE(window.jobs()->runSettings().dtype, QStringLiteral("fp32"));
}

QTEST_MAIN(TestTunePanel)
#include "tst_tunepanel.moc"
