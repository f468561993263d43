// SPDX-License-Identifier: GPL-3.0-or-later
// The dock panels fed from a recorded session (no engine, no torch): item models under
// QAbstractItemModelTester, the selection hub's fan-out, the HTML report, the main window's
// session commands, and a screenshot of each panel for review.
#include "graphpanel.h"
#include "graphview/graphview.h"
#include "inspectorpanel.h"
#include "jobview.h"
#include "kernelspanel.h"
#include "kerneltablemodel.h"
#include "logview.h"
#include "mainwindow.h"
#include "nodetablemodel.h"
#include "pipelinemodel.h"
#include "pipelinepanel.h"
#include "profilepanel.h"
#include "quantizationpanel.h"
#include "reportwriter.h"
#include "resultpanel.h"
#include "selectionhub.h"

#include "client/session.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QLabel>
#include <QMessageBox>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <sys/stat.h>
#include <unistd.h>

using namespace AotStudio;
using namespace AotStudio::Widgets;

class TestPanels : public QObject
{
    Q_OBJECT

    static QString fixture() { return QFINDTESTDATA("../fixtures/sessions/mlp/session.aotsession"); }

    static void shoot(QWidget *w, const QString &name)
    {
        QDir().mkpath(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR));
        w->resize(std::max(w->width(), 700), std::max(w->height(), 450));
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w));
        QVERIFY(w->grab().save(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/panel_%1.png").arg(name)));
    }

    /// A session with a pass that changed nothing (the fixture's mlp has none).
    static Client::Session *sessionWithUnchangedPass(QObject *parent)
    {
        auto *s = new Client::Session(parent);
        s->recordRequest(QJsonObject{{"type", "compile"}, {"id", 1}, {"model", "m"}, {"out", "/nowhere"}});
        QJsonArray stages{QJsonObject{{"name", "post_grad"}, {"pass", ""}, {"nodes", 10}, {"snapshot", "/nowhere/a.json"}},
                          QJsonObject{{"name", "post_grad"}, {"pass", "remove_noop_ops"}, {"nodes", 10}, {"changed", false}},
                          QJsonObject{{"name", "post_grad"}, {"pass", "pattern_matcher"}, {"nodes", 7}, {"snapshot", "/nowhere/b.json"}},
                          QJsonObject{{"name", "fusion"}, {"pass", ""}, {"nodes", 3}, {"nodes_before", 5}}};
        s->apply(QJsonObject{{"type", "result"}, {"id", 1}, {"result", QJsonObject{{"stages", stages}}}});
        return s;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AOTStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_panels"));
        QVERIFY(!fixture().isEmpty());
    }

    void pipelineHidesUnchangedPasses()
    {
        SelectionHub hub;
        auto *session = sessionWithUnchangedPass(&hub);
        PipelinePanel panel(&hub);
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester proxyTester(panel.view()->model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        hub.setSession(session);
        hub.selectJob(1);
        QCOMPARE(panel.model()->rowCount(), 4);
        QCOMPARE(panel.view()->model()->rowCount(), 3); // remove_noop_ops hidden
        panel.setShowUnchanged(true);
        QCOMPARE(panel.view()->model()->rowCount(), 4);
        const auto *model = panel.model();
        QCOMPARE(model->index(2, PipelineModel::DeltaColumn).data().toString(), QStringLiteral("-3"));
        QCOMPARE(model->index(3, PipelineModel::DeltaColumn).data().toString(), QStringLiteral("-2")); // fusion 5 -> 3
        QCOMPARE(model->index(1, 0).data(PipelineModel::ChangedRole).toBool(), false);
        // Picking a row selects that snapshot for every panel.
        QCOMPARE(hub.currentSnapshot(), 2); // the job starts on its last graph snapshot
        QCOMPARE(panel.view()->currentIndex().row(), 2);
        QSignalSpy picked(&hub, &SelectionHub::snapshotChanged);
        panel.view()->setCurrentIndex(panel.view()->model()->index(0, 0));
        QCOMPARE(hub.currentSnapshot(), 0);
        QTRY_COMPARE(picked.size(), 1); // once the snapshot is read (off the UI thread)
    }

    void pipelineAccountsForTheWallTime()
    {
        // Issue 35 item 2: every second of the engine's wall time belongs to a row: the passes,
        // each stage's measured parts (the C++ build), the rest of each stage, the stages without
        // passes, and an "unattributed" row; rows extend in place as stages end.
        SelectionHub hub;
        Client::Session session;
        PipelinePanel panel(&hub);
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        hub.setSession(&session);
        QAbstractItemModel *model = panel.model();
        QSignalSpy resets(model, &QAbstractItemModel::modelReset);
        session.recordRequest(QJsonObject{{"type", "compile"}, {"id", 1}, {"model", "sample:mlp"}, {"device", "cpu"}});
        const auto stageDone = [&](const char *stage, double seconds, QJsonArray parts = {}) {
            QJsonObject e{{"type", "stage_done"},
                          {"id", 1},
                          {"stage", stage},
                          {"seconds", seconds},
                          {"artifacts", QJsonObject()}};
            if (!parts.isEmpty())
                e.insert(QStringLiteral("parts"), parts);
            session.apply(e);
        };
        const auto snapshot = [&](const char *stage, const char *pass, int nodes, double seconds) {
            session.apply({{"type", "snapshot"},
                           {"id", 1},
                           {"stage", stage},
                           {"pass", pass},
                           {"nodes", nodes},
                           {"path", QStringLiteral("/o/%1.json").arg(QLatin1String(pass))},
                           {"seconds", seconds}});
        };
        stageDone("load", 1.5);
        snapshot("capture", "", 10, 0.01);
        stageDone("export", 0.75);
        snapshot("post_grad", "", 12, 0.5);
        snapshot("post_grad", "fuse", 11, 0.25);
        stageDone("compile", 10.0, QJsonArray{QJsonObject{{"name", "native_build"}, {"seconds", 8.0}}});
        stageDone("verify", 0.125);
        const int beforeResult = model->rowCount();
        session.apply(
            {{"type", "result"}, {"id", 1}, {"result", QJsonObject{{"out", "/o"}}}, {"wall_seconds", 12.625}});
        QCOMPARE(resets.size(), 0); // rows were inserted as stages ended, never reset
        QCOMPARE(model->rowCount(), beforeResult); // the running row went, the unattributed row came

        QStringList rows;
        double total = 0;
        for (int r = 0; r < model->rowCount(); ++r) {
            rows << model->index(r, PipelineModel::StageColumn).data().toString() + QLatin1Char('|')
                    + model->index(r, PipelineModel::PassColumn).data().toString();
            total += model->index(r, 0).data(PipelineModel::SecondsRole).toDouble();
        }
        const QStringList expected{QStringLiteral("load|"),
                                   QStringLiteral("capture|"),
                                   QStringLiteral("export|rest of the stage"),
                                   QStringLiteral("post_grad|"),
                                   QStringLiteral("post_grad|fuse"),
                                   QStringLiteral("compile|C++ build (compiler, linker)"),
                                   QStringLiteral("compile|lowering, codegen, packaging"),
                                   QStringLiteral("verify|"),
                                   QStringLiteral("unattributed|")};
        QCOMPARE(rows, expected);
        QCOMPARE(total, 12.625); // the Time column adds up to the engine's wall time
        const int rest = int(rows.indexOf(QStringLiteral("compile|lowering, codegen, packaging")));
        QCOMPARE(model->index(rest, 0).data(PipelineModel::SecondsRole).toDouble(), 10.0 - 8.0 - 0.5 - 0.25);
        QCOMPARE(model->index(model->rowCount() - 1, 0).data(PipelineModel::SecondsRole).toDouble(),
                 12.625 - (1.5 + 0.75 + 10.0 + 0.125));
        const QString summary = panel.findChild<QLabel *>(QStringLiteral("pipelineSummary"))->text();
        QVERIFY2(summary.contains(QStringLiteral("98.0% of the engine's 12.6 s")), qPrintable(summary));

        // A pass restored from the compile cache says so instead of a time it did not take here.
        session.recordRequest(QJsonObject{{"type", "compile"}, {"id", 2}, {"model", "sample:mlp"}, {"device", "cpu"}});
        session.apply({{"type", "snapshot"},
                       {"id", 2},
                       {"stage", "post_grad"},
                       {"pass", "fuse"},
                       {"nodes", 11},
                       {"path", "/o2/fuse.json"},
                       {"seconds", 0.0},
                       {"reused", true}});
        QCOMPARE(model->index(0, PipelineModel::PassColumn).data().toString(), QStringLiteral("fuse"));
        QCOMPARE(model->index(0, PipelineModel::TimeColumn).data().toString(), QStringLiteral("reused"));
        QCOMPARE(model->index(0, 0).data(PipelineModel::SecondsRole).toDouble(), 0.0);
        QVERIFY(model->index(0, 0)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QLatin1String("Reused from the compile cache")));
    }

    void pipelineIsLiveAndNamesItsJob()
    {
        // Rows appear as the engine's snapshot events arrive, before the result; a newer compile
        // takes the dock at its first event (never the previous job's rows shown as current); a
        // job that fails before any snapshot stays shown and says why it stopped.
        SelectionHub hub;
        Client::Session session;
        // Headed as every dock is (JobView, MainWindow::addJobDock).
        auto *pipeline = new PipelinePanel(&hub);
        JobView view(&hub, pipeline);
        PipelinePanel &panel = *pipeline;
        GraphPanel graph(&hub);
        const auto graphTitle = [&graph] { return graph.findChild<QLabel *>(QStringLiteral("graphTitle"))->text(); };
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        hub.setSession(&session);
        const auto heading = [&view] { return view.headingText(); };
        const auto state = [&view] { return view.stateText(); };
        const auto summary = [&panel] { return panel.findChild<QLabel *>(QStringLiteral("pipelineSummary"))->text(); };

        session.recordRequest(
            QJsonObject{{"type", "compile"}, {"id", 1}, {"model", "sample:mlp"}, {"device", "cpu"}, {"out", "/o1"}});
        QCOMPARE(hub.currentJob(), qint64(1));
        QCOMPARE(heading(), QStringLiteral("job 1 · compile · sample:mlp · cpu"));
        QCOMPARE(panel.model()->rowCount(), 1); // the running row alone
        QCOMPARE(panel.model()->index(0, PipelineModel::PassColumn).data().toString(), QStringLiteral("running…"));
        session.apply(
            {{"type", "progress"}, {"id", 1}, {"stage", "compile"}, {"fraction", 0.4}, {"message", "Compiling"}});
        session.apply({{"type", "snapshot"},
                       {"id", 1},
                       {"stage", "post_grad"},
                       {"pass", ""},
                       {"nodes", 10},
                       {"path", "/o1/a.json"}});
        QCOMPARE(panel.model()->rowCount(), 2);
        QVERIFY2(state().contains(QLatin1String("running")), qPrintable(state()));
        panel.view()->setCurrentIndex(panel.view()->model()->index(0, 0));
        session.apply({{"type", "snapshot"},
                       {"id", 1},
                       {"stage", "post_grad"},
                       {"pass", "p"},
                       {"nodes", 8},
                       {"path", "/o1/b.json"}});
        QCOMPARE(panel.model()->rowCount(), 3);
        QCOMPARE(panel.view()->currentIndex().row(), 0); // rows were inserted, not reset: the selection stays
        QCOMPARE(panel.model()->index(1, PipelineModel::DeltaColumn).data().toString(), QStringLiteral("-2"));
        session.apply({{"type", "result"}, {"id", 1}, {"result", QJsonObject{{"out", "/o1"}}}});
        QCOMPARE(panel.model()->rowCount(), 2); // the running row is gone
        QVERIFY2(state().startsWith(QLatin1String("done")), qPrintable(state()));
        // In a narrow dock the header wraps between its parts, never inside "job 1" or the short
        // state (Chinese breaks between any two characters: "完成，用" | "时 0.1 秒").
        const QString html = view.findChild<QLabel *>(QStringLiteral("jobViewHeading"))->text();
        QVERIFY2(html.contains(QStringLiteral("job") + QChar(QChar::Nbsp) + QStringLiteral("1")), qPrintable(html));
        QVERIFY2(html.contains(QStringLiteral("<span style=\"white-space:nowrap\">done")), qPrintable(html));

        // A second compile fails at load: the dock shows it (no rows) and the reason.
        session.recordRequest(
            QJsonObject{{"type", "compile"}, {"id", 2}, {"model", "/m/missing.py:make"}, {"device", "cpu"}});
        QCOMPARE(hub.currentJob(), qint64(2));
        QCOMPARE(panel.model()->snapshots().size(), 0);
        QVERIFY2(graphTitle().startsWith(QLatin1String("No graph yet")), qPrintable(graphTitle()));
        session.apply({{"type", "error"},
                       {"id", 2},
                       {"stage", "load"},
                       {"code", "unknown_model"},
                       {"message", "model file '/m/missing.py' does not exist"},
                       {"hint", ""}});
        QCOMPARE(hub.currentJob(), qint64(2));
        QCOMPARE(panel.model()->rowCount(), 0);
        QVERIFY2(summary().contains(QLatin1String("failed at")) && summary().contains(QLatin1String("/m/missing.py")),
                 qPrintable(summary()));
        QVERIFY2(state().startsWith(QLatin1String("failed at")) && !state().contains(QLatin1String("/m/missing.py")),
                 qPrintable(state())); // the header in a few words
        // The Graph dock says there is no graph for this job, not "pick a stage".
        QVERIFY2(graphTitle().startsWith(QLatin1String("No graph:")), qPrintable(graphTitle()));

        // A quantize job never takes the dock.
        session.recordRequest(QJsonObject{{"type", "quantize"}, {"id", 3}, {"model", "sample:mlp"}});
        session.apply(
            {{"type", "snapshot"}, {"id", 3}, {"stage", "capture"}, {"pass", ""}, {"nodes", 4}, {"path", "/q/a.json"}});
        QCOMPARE(hub.currentJob(), qint64(2));
    }

    void panelsFollowOneSelection()
    {
        std::unique_ptr<Client::Session> session(Client::Session::load(fixture()));
        SelectionHub hub;
        PipelinePanel pipeline(&hub);
        GraphPanel graph(&hub);
        KernelsPanel kernels(&hub);
        InspectorPanel inspector(&hub);
        QAbstractItemModelTester t1(pipeline.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester t2(graph.nodeModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester t3(kernels.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester t4(kernels.proxy(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        hub.setSession(session.get());

        // The hub picks the compile job and its last graph snapshot (post-grad).
        QCOMPARE(hub.currentJob(), 1);
        QVERIFY(hub.currentSnapshotRecord());
        QCOMPARE(hub.currentSnapshotRecord()->stage, QStringLiteral("post_grad"));
        QVERIFY(hub.waitForIdle()); // snapshot and kernels are read off the UI thread
        QVERIFY2(hub.snapshot(), qPrintable(hub.snapshotError()));
        QCOMPARE(graph.nodeModel()->rowCount(), 20);
        QCOMPARE(kernels.model()->rowCount(), 5);
        QCOMPARE(inspector.value(QStringLiteral("Stage")), QStringLiteral("post_grad"));

        // A kernel picked in the Kernels panel: source shown, covered nodes bold in the graph,
        // details in the inspector.
        const int row = kernels.model()->rowOf(QStringLiteral("cpp_fused_relu_0"));
        QVERIFY(row >= 0);
        kernels.view()->setCurrentIndex(kernels.proxy()->mapFromSource(kernels.model()->index(row, 0)));
        QCOMPARE(hub.currentKernel(), QStringLiteral("cpp_fused_relu_0:2"));
        QVERIFY(kernels.sourceText().contains(QLatin1String("cpp_fused_relu_0")));
        QVERIFY(graph.nodeModel()->highlighted().contains(QStringLiteral("relu")));
        QCOMPARE(graph.nodeModel()->index(graph.nodeModel()->rowOf(QStringLiteral("relu")), 0)
                     .data(NodeTableModel::HighlightRole).toBool(), true);
        QCOMPARE(inspector.value(QStringLiteral("Kind")), QStringLiteral("cpp"));

        // A node picked in the Graph panel: inspector shows it, Kernels follows to its kernel.
        graph.nodeView()->setCurrentIndex(graph.nodeView()->model()->index(graph.nodeModel()->rowOf(QStringLiteral("addmm")), 0));
        QCOMPARE(hub.currentNode(), QStringLiteral("addmm"));
        QCOMPARE(inspector.value(QStringLiteral("Target")), QStringLiteral("aten.addmm.default"));
        QCOMPARE(inspector.value(QStringLiteral("Module")), QStringLiteral("fc1"));
        QVERIFY(inspector.value(QStringLiteral("Source")).contains(QLatin1String("samples.py:")));
        QCOMPARE(kernels.view()->currentIndex().data().toString(), QStringLiteral("aoti_torch_cpu_addmm_out"));

        // Filters.
        kernels.setFilterText(QStringLiteral("library"));
        QCOMPARE(kernels.proxy()->rowCount(), 3);
        graph.setSearchText(QStringLiteral("fc2"));
        QVERIFY(graph.nodeView()->model()->rowCount() >= 3);
        QVERIFY(graph.nodeView()->model()->rowCount() < 20);
        kernels.setFilterText(QString());
        graph.setSearchText(QString());

        // Ctrl+C copies the selected rows as TSV with a header.
        kernels.view()->selectRow(0);
        QApplication::clipboard()->clear();
        kernels.view()->setFocus();
        for (QAction *a : kernels.view()->actions()) {
            if (a->shortcut() == QKeySequence::Copy)
                a->trigger();
        }
        QVERIFY(QApplication::clipboard()->text().contains(QLatin1Char('\t')));

        QVERIFY(graph.graphView()->layoutJob()->waitForIdle()); // laid out off the UI thread
        shoot(&pipeline, QStringLiteral("pipeline"));
        shoot(&graph, QStringLiteral("graph"));
        shoot(&kernels, QStringLiteral("kernels"));
        shoot(&inspector, QStringLiteral("inspector"));
    }

    void reportWritesHtmlAndCsvAtomically()
    {
        QStandardItemModel model(2, 2);
        model.setHorizontalHeaderLabels({QStringLiteral("name"), QStringLiteral("value")});
        model.setItem(0, 0, new QStandardItem(QStringLiteral("a,b")));
        model.setItem(0, 1, new QStandardItem(QStringLiteral("say \"hi\"")));
        model.setItem(1, 0, new QStandardItem(QStringLiteral("c")));
        model.setItem(1, 1, new QStandardItem(QStringLiteral("1.5")));
        QCOMPARE(ReportWriter::toCsv(&model), QStringLiteral("name,value\n\"a,b\",\"say \"\"hi\"\"\"\nc,1.5\n"));

        QTemporaryDir dir;
        ReportWriter report(QStringLiteral("Test <report>"));
        report.addSummary(QStringLiteral("Model"), QStringLiteral("sample:mlp"));
        report.addTable(QStringLiteral("table"), QStringLiteral("Table"), &model);
        QString error;
        const QString target = dir.filePath(QStringLiteral("report"));
        QVERIFY2(report.write(target, &error), qPrintable(error));
        QFile html(target + QStringLiteral("/index.html"));
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QByteArray text = html.readAll();
        QVERIFY(text.contains("Test &lt;report&gt;"));
        QVERIFY(text.contains("sample:mlp"));
        QVERIFY(QFileInfo::exists(target + QStringLiteral("/table.csv")));
        // Never over an existing folder.
        QVERIFY(!report.write(target, &error));
        QVERIFY(error.contains(QLatin1String("already exists")));
        // A folder that cannot be made (its parent is a file; as root, permissions would not
        // stop us): a clear error and nothing half-written.
        const QString blocker = dir.filePath(QStringLiteral("a-file"));
        QFile file(blocker);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        QVERIFY(!report.write(blocker + QStringLiteral("/r"), &error));
        QVERIFY2(error.contains(QLatin1String("Cannot create")), qPrintable(error));
        if (::geteuid() != 0) { // and a read-only folder, where permissions apply
            const QString ro = dir.filePath(QStringLiteral("ro"));
            QVERIFY(QDir().mkpath(ro));
            ::chmod(QFile::encodeName(ro).constData(), 0555);
            QVERIFY(!report.write(ro + QStringLiteral("/r"), &error));
            QVERIFY(QDir(ro).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).isEmpty());
            ::chmod(QFile::encodeName(ro).constData(), 0755);
        }
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
                 (QStringList{QStringLiteral("a-file"), QStringLiteral("report")}) + (::geteuid() != 0 ? QStringList{QStringLiteral("ro")} : QStringList{}));
    }

    void mainWindowOpensSavesAndReportsSessions()
    {
        MainWindow w; // no engine started: a session opens without one
        QSignalSpy changed(w.selectionHub(), &SelectionHub::sessionChanged);
        w.setModel(QStringLiteral("sample:convnet")); // the session ran sample:mlp
        QVERIFY(w.openSession(fixture()));
        QCOMPARE(changed.size(), 1);
        QCOMPARE(w.session()->jobs().size(), 1);
        QVERIFY(w.findChild<LogView *>()->visibleText().contains(QLatin1String("loaded sample:mlp")));
        QCOMPARE(w.findChild<QComboBox *>(QStringLiteral("modelCombo"))->currentText(), QStringLiteral("sample:mlp"));
        QVERIFY(
            AotStudio::Widgets::SessionController::recentSessions().contains(QFileInfo(fixture()).absoluteFilePath()));
        for (const char *dock : {"pipelineDock", "graphDock", "inspectorDock", "kernelsDock", "profileDock",
                                 "quantizationDock", "logDock"})
            QVERIFY2(w.findChild<QDockWidget *>(QLatin1String(dock)), dock);

        // A broken session: an error box, and what was shown stays.
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.aotsession"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"type":"session","format":"aotstudio-session","version":7})" "\n");
        f.close();
        QVERIFY(!w.openSession(bad));
        QTRY_VERIFY(w.findChild<QMessageBox *>(QStringLiteral("sessionErrorBox")));
        w.findChild<QMessageBox *>(QStringLiteral("sessionErrorBox"))->close();
        QCOMPARE(w.session()->jobs().size(), 1);
        QCOMPARE(w.selectionHub()->currentJob(), 1);

        QVERIFY(w.saveSessionAs(dir.filePath(QStringLiteral("saved"))));
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("saved/session.aotsession"))));
        QVERIFY(w.exportReport(dir.filePath(QStringLiteral("report"))));
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("report/index.html"))));
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("report/kernels.csv"))));
        QVERIFY(QDir(dir.filePath(QStringLiteral("report/charts"))).entryList(QDir::Files).size() >= 1);
        QVERIFY(!w.exportReport(dir.filePath(QStringLiteral("report")))); // exists
        // A session with a compile only: its quick measurement, said to be one, without an interval
        // (recorded before paired timing), in the panel and the report alike.
        auto *result = w.findChild<ResultPanel *>();
        QCOMPARE(int(result->figure().source), int(Client::SpeedupFigure::Source::Compile));
        QCOMPARE(result->findChild<QLabel *>(QStringLiteral("resultSource"))->text(),
                 QStringLiteral("Compile (its quick measurement)"));
        const QString speedup = result->findChild<QLabel *>(QStringLiteral("resultSpeedup"))->text();
        QVERIFY2(speedup.endsWith(QStringLiteral("× (no interval)")), qPrintable(speedup));
        QFile index(dir.filePath(QStringLiteral("report/index.html")));
        QVERIFY(index.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(index.readAll());
        QVERIFY2(html.contains(QStringLiteral("<td>%1</td>").arg(speedup)), qPrintable(html));
        QVERIFY(html.contains(QLatin1String("Compile (its quick measurement)")));
        QVERIFY(html.contains(QLatin1String("not assessed: the result predates machine verdicts")));

        w.resize(1400, 900);
        shoot(&w, QStringLiteral("mainwindow_session"));
    }

    void refusedResultsAreNamedNotDrawn()
    {
        // A result whose fields have the wrong types is refused once, by the session's reader;
        // the panels following the hub say why instead of drawing (or crashing on) it.
        Client::Session session;
        session.apply({{"type", "sent"}, {"request", QJsonObject{{"type", "profile"}, {"id", 1}, {"model", "m"}}}});
        session.apply(
            {{"type", "result"}, {"id", 1}, {"result", QJsonObject{{"format", "aotstudio.profile"}, {"variants", 3}}}});
        session.apply({{"type", "sent"}, {"request", QJsonObject{{"type", "quantize"}, {"id", 2}, {"model", "m"}}}});
        const QJsonArray schemes{QJsonObject{{"layers", "x"}}};
        session.apply({{"type", "result"}, {"id", 2}, {"result", QJsonObject{{"schemes", schemes}}}});
        QVERIFY(session.job(1)->succeeded() && !session.job(1)->profile);
        QVERIFY2(session.job(1)->resultError.contains(QStringLiteral("variants")),
                 qPrintable(session.job(1)->resultError));
        QVERIFY2(session.job(2)->resultError.contains(QStringLiteral("schemes[0].layers")),
                 qPrintable(session.job(2)->resultError));
        SelectionHub hub;
        ProfilePanel profile;
        QuantizationPanel quant;
        profile.follow(&hub);
        quant.follow(&hub);
        hub.setSession(&session);
        hub.selectJob(1); // each panel says why for the job selected
        QVERIFY(!profile.profile());
        QVERIFY(
            profile.findChild<QLabel *>(QStringLiteral("profileSummary"))->text().contains(QStringLiteral("variants")));
        hub.selectJob(2);
        QVERIFY(quant.findChild<QLabel *>(QStringLiteral("quantizationSummary"))
                    ->text()
                    .contains(QStringLiteral("layers")));
    }

    /// A real recording (tools: the engine driven through compile, profile and quantize of
    /// sample:mlp): every dock has data, and the kernels carry the profile's measured times.
    void fullSessionFillsEveryDock()
    {
        const QString full = QFINDTESTDATA("../fixtures/sessions/full/session.aotsession");
        QVERIFY(!full.isEmpty());
        MainWindow w;
        QVERIFY(w.openSession(full));
        auto *hub = w.selectionHub();
        QCOMPARE(hub->currentJobRecord()->kind, QStringLiteral("profile")); // not the quantize job
        QVERIFY(hub->waitForIdle());
        QVERIFY(hub->kernels());
        QVERIFY(hub->kernels()->hasMeasurements());
        QVERIFY(hub->profile() && hub->profile()->isProfile());
        QVERIFY(!hub->quantize()); // one job per view: the profile job's, not the session's quantize
        // Parsed once by the session: the panels show the very objects the session holds.
        QCOMPARE(w.findChild<ProfilePanel *>()->profile(), hub->profile());
        const qint64 profileJob = hub->currentJob();
        hub->selectJob(w.session()->latestSucceeded(QStringLiteral("quantize"))->id);
        QVERIFY(hub->quantize());
        QCOMPARE(w.findChild<QuantizationPanel *>()->quantization(), hub->quantize());
        QVERIFY(!w.findChild<QuantizationPanel *>()->charts().isEmpty());
        hub->selectJob(profileJob);
        auto *profile = w.findChild<ProfilePanel *>();
        auto *quant = w.findChild<QuantizationPanel *>();
        QVERIFY(profile && quant);
        QVERIFY(profile->waitForTrace());
        QVERIFY(profile->charts().size() >= 4); // latency, distribution, timeline, kernels at least
        auto *pipeline = w.findChild<PipelinePanel *>();
        const int shown = pipeline->view()->model()->rowCount();
        pipeline->setShowUnchanged(true);
        QVERIFY2(pipeline->view()->model()->rowCount() > shown, "the recording lists unchanged passes");
        pipeline->setShowUnchanged(false);

        // One truth per screen: the profile after the compile supersedes its quick measurement in
        // the result panel, which says so, and the Profile dock and the report show the same figure.
        auto *result = w.findChild<ResultPanel *>();
        QCOMPARE(int(result->figure().source), int(Client::SpeedupFigure::Source::Profile));
        QCOMPARE(result->figure().job, 2);
        const QString speedup = result->findChild<QLabel *>(QStringLiteral("resultSpeedup"))->text();
        QVERIFY2(speedup.startsWith(QStringLiteral("2.84×")), qPrintable(speedup)); // the compile said 1.96×
        const QString source = result->findChild<QLabel *>(QStringLiteral("resultSource"))->text();
        QVERIFY2(source.startsWith(QLatin1String("Profile at ")), qPrintable(source));
        const QString profileSummary = profile->findChild<QLabel *>(QStringLiteral("profileSummary"))->text();
        QVERIFY2(profileSummary.contains(QStringLiteral("AOTInductor: %1").arg(speedup)), qPrintable(profileSummary));
        QTemporaryDir dir;
        QVERIFY(w.exportReport(dir.filePath(QStringLiteral("report"))));
        QFile index(dir.filePath(QStringLiteral("report/index.html")));
        QVERIFY(index.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(index.readAll());
        QVERIFY2(html.contains(QStringLiteral("<th>Speed-up</th><td>%1</td>").arg(speedup)), qPrintable(html));
        QVERIFY(html.contains(QLatin1String("<th>Measured by</th><td>Profile at ")));
        w.resize(1400, 900);
        shoot(&w, QStringLiteral("mainwindow_full_superseded"));
        for (const char *dock : {"profileDock", "quantizationDock", "kernelsDock"}) {
            w.findChild<QDockWidget *>(QLatin1String(dock))->raise();
            QTest::qWait(50);
            shoot(&w, QStringLiteral("mainwindow_full_%1").arg(QLatin1String(dock)));
        }
    }
};

QTEST_MAIN(TestPanels)
#include "tst_panels.moc"
