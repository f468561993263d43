// SPDX-License-Identifier: GPL-3.0-or-later
// Screenshots for a person to look at, not tests: nothing here checks a result, so it is no CTest
// test (issue 20, item 7). tools/review-screenshots.sh builds and runs it; each function writes
// PNGs under AOTSTUDIO_SCREENSHOT_DIR (or $AOTSTUDIO_REVIEW_OUT) and is skipped when its input is
// not given:
//   graphSnapshots     real snapshots (tests/fixtures/graphs): overview, expanded, close-up
//   graphPassSequence  AOTSTUDIO_GRAPH_SNAPSHOTS=DIR (a compile's snapshots/): every pass-to-pass diff
//   profile            AOTSTUDIO_REVIEW_PROFILE=FILE (a profile.json): every tab of the profile panel
//   quantize           AOTSTUDIO_REVIEW_QUANTIZE=FILE (a quantize.json): every tab of the quantization panel
//   compare            AOTSTUDIO_REVIEW_COMPARE_A=DIR, AOTSTUDIO_REVIEW_COMPARE_B=DIR (two job folders; default
//                      the recorded compile and profile of tests/fixtures/sessions/full): every tab
//   numerics           AOTSTUDIO_REVIEW_NUMERICS=DIR (a numerics --out folder; default tests/fixtures/numerics):
//                      the main window with the graph coloured by error and the first divergent node selected
//   tune               AOTSTUDIO_REVIEW_TUNE=DIR (a tune --out folder; default tests/fixtures/tune): the Tune dock
// The behaviour these views must have is tested in tst_graphview, tst_graphlayout, tst_profilepanel
// and tst_quantizationpanel.

#include "client/kernelcatalog.h"
#include "graph/graph.h"
#include "graphview/graphdiffview.h"
#include "graphview/graphview.h"
#include "widgets/comparemodels.h"
#include "widgets/compareview.h"
#include "widgets/graphpanel.h"
#include "widgets/graphview/jobtracker.h"
#include "widgets/mainwindow.h"
#include "widgets/profilepanel.h"
#include "widgets/quantizationpanel.h"
#include "widgets/selectionhub.h"
#include "widgets/tunepanel.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QTabWidget>
#include <QTest>

using namespace AotStudio;
using Widgets::ColourMode;
using Widgets::GraphDiffView;
using Widgets::GraphView;

namespace {

QString outPath(const QString &name)
{
    const QString env = qEnvironmentVariable("AOTSTUDIO_REVIEW_OUT");
    const QString dir = env.isEmpty() ? QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR) : env;
    QDir().mkpath(dir);
    return dir + QLatin1Char('/') + name;
}

QString graphFixture(const QString &name)
{
    return QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/graphs/") + name;
}

QJsonObject loadJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(path));
    return QJsonDocument::fromJson(file.readAll()).object();
}

/// kernels.json -> kernel name -> covered post-grad nodes, as the studio's graph panel builds it.
QHash<QString, QStringList> coverageFrom(const QString &path)
{
    QHash<QString, QStringList> out;
    if (const auto catalog = Client::KernelCatalog::load(path))
        for (const auto &k : catalog->kernels())
            out[k.name] += k.postGradNodes;
    return out;
}

/// One PNG per tab of `panel`'s QTabWidget `tabsName`: PREFIX_<index>.png.
void saveTabs(QWidget &panel, const QString &tabsName, const QString &prefix)
{
    auto *tabs = panel.findChild<QTabWidget *>(tabsName);
    QVERIFY2(tabs, qPrintable(tabsName));
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        QTest::qWait(20);
        const QString path = outPath(QStringLiteral("%1_%2.png").arg(prefix).arg(i));
        QVERIFY2(panel.grab().save(path), qPrintable(path));
        qInfo("screenshot: %s", qPrintable(path));
    }
}

} // namespace

class ReviewScreenshots : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void graphSnapshots_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kernels");
        QTest::newRow("minilm capture") << QStringLiteral("minilm_capture.json") << QString();
        QTest::newRow("resnet18 post_grad")
            << QStringLiteral("resnet18_post_grad.json") << QStringLiteral("resnet18_kernels.json");
    }

    void graphSnapshots()
    {
        QFETCH(QString, file);
        QFETCH(QString, kernels);
        const QString base = QFileInfo(file).completeBaseName();
        GraphView view;
        view.resize(1400, 900);
        view.show();
        view.setSnapshot(
            std::make_shared<const Graph::Snapshot>(Graph::loadSnapshot(graphFixture(file).toStdString())));
        if (!kernels.isEmpty()) {
            view.setKernelCoverage(coverageFrom(graphFixture(kernels)));
            view.setColourMode(ColourMode::FusedKernel);
        }
        view.fitToView();
        QVERIFY(view.grab().save(outPath(QStringLiteral("graph_%1_default.png").arg(base))));
        view.expandAll();
        view.fitToView();
        QVERIFY(
            view.renderImage(QSize(1600, 2400), true).save(outPath(QStringLiteral("graph_%1_expanded.png").arg(base))));
        // A close-up at reading zoom around the first matmul/conv.
        const auto snapshot = view.snapshot();
        for (const auto &n : snapshot->nodes) {
            if (n.category == "matmul" || n.category == "conv") {
                view.selectNode(QString::fromStdString(n.id));
                view.canvas()->setView(
                    1.0,
                    view.graphLayout().nodeRect(view.graphLayout().nodeIndex(QString::fromStdString(n.id))).center());
                break;
            }
        }
        QVERIFY(view.grab().save(outPath(QStringLiteral("graph_%1_closeup.png").arg(base))));
    }

    void graphPassSequence()
    {
        // A whole compile's snapshots, stepped through pass by pass (aotstudio-cli compile --out DIR
        // writes DIR/snapshots/*.json).
        const QString dir = qEnvironmentVariable("AOTSTUDIO_GRAPH_SNAPSHOTS");
        if (dir.isEmpty())
            QSKIP("AOTSTUDIO_GRAPH_SNAPSHOTS (a compile's snapshots/ directory) is not set");
        QStringList paths;
        for (const QString &f : QDir(dir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            paths << QDir(dir).filePath(f);
        QVERIFY(paths.size() >= 2);
        GraphDiffView view;
        view.resize(1800, 900);
        view.show();
        view.setSnapshotPaths(paths);
        int step = 1;
        do {
            QVERIFY(view.beforeView()->snapshot() && view.afterView()->snapshot());
            for (GraphView *side : {view.beforeView(), view.afterView()}) {
                // A view that misses its graph makes a blank picture: say so rather than save it.
                const QRectF shown = side->canvas()->visibleSceneRect(), bounds = side->graphLayout().bounds();
                QVERIFY2(shown.intersects(bounds),
                         qPrintable(QStringLiteral("step %1: the view misses the graph").arg(step)));
            }
            QVERIFY(view.grab().save(outPath(QStringLiteral("graph_passes_step%1.png").arg(step++))));
        } while (view.showNextPass());
    }

    void profile()
    {
        const QString path = qEnvironmentVariable("AOTSTUDIO_REVIEW_PROFILE");
        if (path.isEmpty())
            QSKIP("AOTSTUDIO_REVIEW_PROFILE (a profile.json) is not set");
        Widgets::ProfilePanel panel;
        panel.resize(1280, 800);
        const auto parsed = Client::parseProfileResult(loadJson(path));
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        panel.setProfile(parsed.value);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        saveTabs(panel, QStringLiteral("profileTabs"), QStringLiteral("profile_review"));
    }

    void quantize()
    {
        const QString path = qEnvironmentVariable("AOTSTUDIO_REVIEW_QUANTIZE");
        if (path.isEmpty())
            QSKIP("AOTSTUDIO_REVIEW_QUANTIZE (a quantize.json) is not set");
        Widgets::QuantizationPanel panel;
        panel.resize(1280, 800);
        const auto parsed = Client::parseQuantizeResult(loadJson(path));
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        panel.setQuantization(parsed.value);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        saveTabs(panel, QStringLiteral("quantizationTabs"), QStringLiteral("quantization_review"));
    }

    void compare()
    {
        const QString fixtures = QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/sessions/full");
        QString a = qEnvironmentVariable("AOTSTUDIO_REVIEW_COMPARE_A");
        QString b = qEnvironmentVariable("AOTSTUDIO_REVIEW_COMPARE_B");
        if (a.isEmpty() || b.isEmpty()) {
            a = fixtures + QStringLiteral("/compile-1");
            b = fixtures + QStringLiteral("/profile-2");
        }
        Widgets::CompareView view;
        view.resize(1280, 820);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.compareFolders(a, b);
        QVERIFY(view.compareJob()->waitForIdle());
        QVERIFY2(view.comparison(), qPrintable(view.refusal()));
        // The kernel tab with the first changed kernel's diff, the graph tab at the last stage.
        for (int r = 0; r < view.kernelModel()->rowCount(); ++r)
            if (!view.kernelModel()->row(r).sourceDiff.isEmpty()) {
                view.selectKernel(
                    view.kernelModel()->index(r, 0).data(Widgets::CompareKernelModel::NameRole).toString());
                break;
            }
        if (!view.comparison()->stages.empty())
            view.selectStage(QString::fromStdString(view.comparison()->stages.back().stage));
        auto *tabs = view.findChild<QTabWidget *>(QStringLiteral("compareTabs"));
        tabs->setCurrentIndex(Widgets::CompareView::GraphTab);
        QVERIFY(view.stageJob()->waitForIdle());
        QTest::qWait(50);
        saveTabs(view, QStringLiteral("compareTabs"), QStringLiteral("compare_review"));
        // A refusal, as the user sees it.
        Widgets::CompareView refused;
        refused.resize(900, 300);
        refused.show();
        refused.showRefusal(
            QStringLiteral("A is a job of sample:mlp and B of sample:convnet: compare two jobs of one model"));
        QTest::qWait(20);
        QVERIFY(refused.grab().save(outPath(QStringLiteral("compare_review_refused.png"))));
    }

    void numerics()
    {
        QString folder = qEnvironmentVariable("AOTSTUDIO_REVIEW_NUMERICS");
        if (folder.isEmpty())
            folder = QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/numerics");
        Widgets::MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openJobFolder(folder));
        QVERIFY(window.selectionHub()->waitForIdle());
        auto *panel = window.findChild<Widgets::GraphPanel *>();
        QVERIFY(panel);
        QVERIFY(panel->graphView()->layoutJob()->waitForIdle());
        panel->graphView()->fitToView();
        QTest::qWait(50);
        QVERIFY(window.grab().save(outPath(QStringLiteral("numerics_review_0.png"))));
        if (panel->firstDivergentButton()->isEnabled())
            panel->firstDivergentButton()->click();
        QTest::qWait(50);
        QVERIFY(window.grab().save(outPath(QStringLiteral("numerics_review_1.png"))));
    }

    void tune()
    {
        QString folder = qEnvironmentVariable("AOTSTUDIO_REVIEW_TUNE");
        if (folder.isEmpty())
            folder = QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/tune");
        Widgets::MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openJobFolder(folder));
        QTest::qWait(50);
        QVERIFY(window.grab().save(outPath(QStringLiteral("tune_review_0.png"))));
        auto *panel = window.findChild<Widgets::TunePanel *>();
        QVERIFY(panel);
        panel->resize(1100, 600);
        QVERIFY(panel->grab().save(outPath(QStringLiteral("tune_review_1.png"))));
    }
};

QTEST_MAIN(ReviewScreenshots)
#include "review_screenshots.moc"
