// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow against the fake engine (tests/fixtures/fake_engine.py), offscreen.
#include "bundle/bundle.h"
#include "bundle/compat.h"
#include "client/session.h"
#include "widgets/exportdialog.h"
#include "widgets/graphpanel.h"
#include "widgets/graphview/graphview.h"
#include "widgets/helpwindows.h"
#include "widgets/jobheading.h"
#include "widgets/jobview.h"
#include "widgets/logview.h"
#include "widgets/mainwindow.h"
#include "widgets/memorypanel.h"
#include "widgets/profilepanel.h"
#include "widgets/resultpanel.h"
#include "widgets/runsettings.h"
#include "widgets/selectionhub.h"
#include "widgets/sweeppanel.h"
#include "widgets/sweeppointmodel.h"
#include "widgets/trustdialog.h"
#include "widgets/tunepanel.h"
#include "widgets/tunetablemodel.h"
#include "widgets/verifyoutputmodel.h"

#include <QAbstractButton>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QFile>
#include <QFrame>
#include <QInputDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScopeGuard>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTextDocumentFragment>
#include <QTranslator>
#include <QTreeWidget>

#include <algorithm>
#include <filesystem>
#include <fstream>

using AotStudio::Widgets::ExportDialog;
using AotStudio::Widgets::MainWindow;
using AotStudio::Widgets::ResultPanel;
using AotStudio::Widgets::RunSettings;
using AotStudio::Widgets::VerifyOutputModel;

class TestMainWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_out;
    QTranslator m_english;

    static QString text(const MainWindow &w, const char *name)
    {
        auto *label = w.findChild<QLabel *>(QLatin1String(name));
        return label ? label->text() : QStringLiteral("<missing %1>").arg(QLatin1String(name));
    }

    static void screenshot(MainWindow &w, const QString &name)
    {
        QDir().mkpath(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR));
        QTest::qWait(50); // let the last layout change paint
        const QString path = QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/%1.png").arg(name);
        QVERIFY2(w.grab().save(path), qPrintable(path));
        qInfo("screenshot: %s", qPrintable(path));
    }

    static void screenshot(QWidget &widget, const QString &name)
    {
        QDir().mkpath(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR));
        QTest::qWait(50);
        const QString path = QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/%1.png").arg(name);
        QVERIFY2(widget.grab().save(path), qPrintable(path));
        qInfo("screenshot: %s", qPrintable(path));
    }

    static QPushButton *okButton(const ExportDialog &dialog)
    {
        return dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    }

    /// A window that compiled sample:mlp into `out`, so that Export Bundle… is enabled.
    static std::unique_ptr<MainWindow> compiledWindow(const QString &out)
    {
        auto w = std::make_unique<MainWindow>();
        w->show();
        w->startEngine();
        w->setModel(QStringLiteral("sample:mlp"));
        w->setOutputDirectory(out);
        if (!QTest::qWaitFor([&] { return w->engineClient()->isReady(); }, 10000))
            return nullptr;
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        if (!w->compile() || !finished.wait(10000) || !finished.first().at(0).toBool())
            return nullptr;
        return w;
    }

    static std::unique_ptr<MainWindow> startedWindow()
    {
        auto w = std::make_unique<MainWindow>();
        w->show();
        w->startEngine();
        return w;
    }

    /// The header of dock `dock` (its JobView: one mechanism for every dock); null when it has none.
    static AotStudio::Widgets::JobView *jobView(const MainWindow &w, const QString &dock)
    {
        auto *d = w.findChild<QDockWidget *>(dock);
        return d ? qobject_cast<AotStudio::Widgets::JobView *>(d->widget()) : nullptr;
    }

    static QString pipelineHeading(const MainWindow &w)
    {
        auto *view = jobView(w, QStringLiteral("pipelineDock"));
        return view ? view->headingText() : QStringLiteral("<no pipeline header>");
    }

    static QFrame *banner(const MainWindow &w)
    {
        return w.findChild<QFrame *>(QStringLiteral("engineBanner"));
    }

    static QString log(const MainWindow &w)
    {
        auto *view = w.findChild<AotStudio::Widgets::LogView *>();
        return view ? view->visibleText() : QStringLiteral("<no log>");
    }

    /// `panel` is on screen: its dock is the current tab (a dock behind another tab stays isVisible()).
    static bool onTop(const QWidget *panel) { return !panel->visibleRegion().isEmpty(); }

    /// The requests of `type` the fake engine received (FAKE_REQUEST_LOG).
    static QList<QJsonObject> sentRequests(const QString &log, const QString &type)
    {
        QFile f(log);
        QList<QJsonObject> sent;
        if (!f.open(QIODevice::ReadOnly))
            return sent;
        for (const QByteArray &line : f.readAll().split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.value(QLatin1String("type")).toString() == type)
                sent << o;
        }
        return sent;
    }

    static QStringList jobFolders()
    {
        return QDir(AotStudio::Widgets::JobController::jobsDirectory()).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // settings and job folders in a test location
        QCoreApplication::setOrganizationName(QStringLiteral("AOTStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
        QSettings().clear();
        qputenv("AOTSTUDIO_ENGINE", AOTSTUDIO_FAKE_ENGINE);
        QVERIFY(m_out.isValid());
        // English plural forms ("2 outputs", "1 output"), as the studio loads them.
        QVERIFY(m_english.load(QStringLiteral(":/i18n/aotstudio_en.qm")));
        QCoreApplication::installTranslator(&m_english);
    }

    void emptyStateBeforeHandshake()
    {
        MainWindow w;
        w.show();
        QCOMPARE(text(w, "engineStatus"), QStringLiteral("Engine not running"));
        auto *empty = w.findChild<QLabel *>(QStringLiteral("emptyState"));
        QVERIFY(empty && empty->isVisible());
        QVERIFY(!w.findChild<QAction *>(QStringLiteral("compileAction"))->isEnabled());
    }

    void handshakeShowsEngineInStatusBar()
    {
        auto w = startedWindow();
        QTRY_VERIFY_WITH_TIMEOUT(text(*w, "engineStatus").contains(QLatin1String("2.14.1+fake")),
                                 10000);
        const QString status = text(*w, "engineStatus");
        QVERIFY2(status.contains(QLatin1String("Engine 0.1.0")), qPrintable(status));
        QVERIFY2(status.contains(QLatin1String("CUDA 13.0")), qPrintable(status));
        QVERIFY(w->findChild<QAction *>(QStringLiteral("compileAction"))->isEnabled());
        // The fake reports no CUDA device: the choice is there but disabled, with a reason.
        auto *devices = w->findChild<QComboBox *>(QStringLiteral("deviceCombo"));
        auto *model = qobject_cast<QStandardItemModel *>(devices->model());
        const int cuda = devices->findData(QStringLiteral("cuda"));
        QVERIFY(!model->item(cuda)->isEnabled());
        QVERIFY(!devices->itemData(cuda, Qt::ToolTipRole).toString().isEmpty());
        QCOMPARE(devices->currentData().toString(), QStringLiteral("cpu"));
    }

    // Profile reuses the last compile's package when model, device and options match (the studio
    // compiled sample:mlp again for Profile right after Compile); Sweep Shapes sends that package.
    void profileReusesTheCompiledPackage()
    {
        QTemporaryDir dir;
        const QString requests = dir.filePath(QStringLiteral("requests.jsonl"));
        qputenv("FAKE_REQUEST_LOG", requests.toLocal8Bit());
        const auto unset = qScopeGuard([] { qunsetenv("FAKE_REQUEST_LOG"); }); // the next tests' engines log nothing
        auto w = startedWindow();
        w->setModel(QStringLiteral("sample:mlp"));
        w->setOutputDirectory(dir.filePath(QStringLiteral("out")));
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QVERIFY(!w->findChild<QAction *>(QStringLiteral("sweepAction"))->isEnabled()); // nothing compiled yet
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        QFile package(w->lastResult()->package); // the fake engine writes no package: put one where it says
        QVERIFY(package.open(QIODevice::WriteOnly));
        package.close();
        QVERIFY(w->findChild<QAction *>(QStringLiteral("sweepAction"))->isEnabled());
        QVERIFY(w->profile());
        QVERIFY(finished.wait(10000));
        QVERIFY2(log(*w).contains(QLatin1String("Profiling the package of the last compile")), qPrintable(log(*w)));
        QVERIFY(w->sweep());
        QVERIFY(finished.wait(10000));
        // The recorded sweep reaches the Sweep dock.
        auto *sweepPanel = w->findChild<AotStudio::Widgets::SweepPanel *>();
        QVERIFY(sweepPanel);
        QVERIFY2(sweepPanel->verdictText().contains(QLatin1String("passed")), qPrintable(sweepPanel->verdictText()));
        QVERIFY(sweepPanel->pointModel()->rowCount() > 5);
        w->setModel(QStringLiteral("sample:convnet")); // another model: compiled for the profile
        QVERIFY(w->profile());
        QVERIFY(finished.wait(10000));
        qunsetenv("FAKE_REQUEST_LOG");
        QFile f(requests);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QList<QJsonObject> sent;
        for (const QByteArray &line : f.readAll().split('\n'))
            if (!line.trimmed().isEmpty())
                sent << QJsonDocument::fromJson(line).object();
        QStringList types;
        for (const auto &r : sent)
            types << r.value(QLatin1String("type")).toString();
        QCOMPARE(types, (QStringList{QStringLiteral("compile"), QStringLiteral("profile"), QStringLiteral("sweep"),
                                     QStringLiteral("profile")}));
        QCOMPARE(sent[1].value(QLatin1String("package")).toString(), w->lastResult()->package);
        QCOMPARE(sent[2].value(QLatin1String("package")).toString(), w->lastResult()->package);
        QCOMPARE(sent[2].value(QLatin1String("out")).toString(), QDir(dir.filePath(QStringLiteral("out"))).filePath(QStringLiteral("sweep")));
        QVERIFY(!sent[3].contains(QLatin1String("package")));
    }

    // One job per view (issue 35): whatever job the hub selects, every dock and the result panel
    // are headed by it through the one header (JobView), and a dock with nothing for it says so
    // rather than showing another job's rows (the Profile dock shows the selected profile, not
    // the session's latest one).
    void everyDockNamesTheSelectedJob()
    {
        using AotStudio::Widgets::JobHeading;
        using AotStudio::Widgets::JobView;
        QTemporaryDir dir;
        auto w = startedWindow();
        w->setModel(QStringLiteral("sample:mlp"));
        w->setOutputDirectory(dir.filePath(QStringLiteral("out")));
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        QFile package(w->lastResult()->package);
        QVERIFY(package.open(QIODevice::WriteOnly));
        package.close();
        QVERIFY(w->profile());
        QVERIFY(finished.wait(10000));
        QVERIFY(w->sweep());
        QVERIFY(finished.wait(10000));
        w->findChild<QAction *>(QStringLiteral("numericsAction"))->trigger();
        QVERIFY(finished.wait(10000));
        w->setModel(QStringLiteral("sample:convnet"));
        QVERIFY(w->profile());
        QVERIFY(finished.wait(10000));

        const auto &jobs = w->session()->jobs();
        QHash<QString, QList<qint64>> byKind;
        for (const auto &job : jobs)
            byKind[job.kind] << job.id;
        QCOMPARE(byKind.value(QStringLiteral("profile")).size(), 2);
        QCOMPARE(byKind.value(QStringLiteral("sweep")).size(), 1);
        QCOMPARE(byKind.value(QStringLiteral("numerics")).size(), 1);
        const QStringList docks{"pipelineDock", "inspectorDock",    "graphDock", "kernelsDock", "memoryDock",
                                "profileDock",  "quantizationDock", "sweepDock", "tuneDock"};
        const auto *hub = w->selectionHub();
        auto *profilePanel = w->findChild<AotStudio::Widgets::ProfilePanel *>();
        auto *sweepPanel = w->findChild<AotStudio::Widgets::SweepPanel *>();
        auto *resultView = w->findChild<JobView *>(QStringLiteral("summaryScrollJobView"));
        QVERIFY(resultView);
        // What each dock must show (panel) or say it has nothing for, per kind.
        const QHash<QString, QStringList> shownBy{
            {QStringLiteral("compile"),
             {"pipelineDock", "inspectorDock", "graphDock", "kernelsDock", "memoryDock", "profileDock"}},
            {QStringLiteral("profile"), {"pipelineDock", "inspectorDock", "graphDock", "kernelsDock", "profileDock"}},
            {QStringLiteral("sweep"), {"pipelineDock", "sweepDock"}},
            {QStringLiteral("numerics"), {"pipelineDock", "inspectorDock", "graphDock"}},
        };
        for (const auto &job : jobs) {
            w->selectionHub()->selectJob(job.id);
            QTRY_COMPARE(hub->currentJob(), job.id);
            const QString heading = JobHeading::heading(job);
            for (const QString &name : docks) {
                const QString where = QStringLiteral("%1, job %2 (%3)").arg(name).arg(job.id).arg(job.kind);
                auto *view = jobView(*w, name);
                QVERIFY2(view, qPrintable(where));
                QCOMPARE(view->job(), job.id);
                QCOMPARE(view->headingText(), heading);
                auto *label = view->findChild<QLabel *>(QStringLiteral("jobViewHeading"));
                QVERIFY2(label, qPrintable(where));
                // As shown: the label's HTML keeps short parts together (no-break spaces, nowrap).
                const QString shown = QTextDocumentFragment::fromHtml(label->text())
                                          .toPlainText()
                                          .replace(QChar::Nbsp, QLatin1Char(' '));
                QVERIFY2(shown.contains(heading), qPrintable(where + QStringLiteral(": ") + shown));
                const bool shows = shownBy.value(job.kind).contains(name);
                QVERIFY2(view->showsPanel() == shows, qPrintable(where));
                if (!shows) {
                    QVERIFY2(view->noteText().startsWith(
                                 QStringLiteral("Nothing for job %1 (%2): this dock shows ").arg(job.id).arg(job.kind)),
                             qPrintable(where + QStringLiteral(": ") + view->noteText()));
                    QVERIFY(!view->panel()->isVisibleTo(view));
                }
            }
            QCOMPARE(resultView->headingText(), heading);
            QCOMPARE(resultView->showsPanel(), job.kind == QLatin1String("compile"));
            // The selected job's own results, never the session's latest of the kind.
            if (job.kind == QLatin1String("profile") || job.kind == QLatin1String("compile")) {
                QVERIFY(job.profile);
                QTRY_COMPARE(profilePanel->profile(), job.profile);
            }
            if (job.kind == QLatin1String("sweep"))
                QVERIFY2(sweepPanel->verdictText().contains(QLatin1String("passed")),
                         qPrintable(sweepPanel->verdictText()));
        }
        // The older profile is shown as itself, though a newer one exists.
        const auto *first = w->session()->job(byKind.value(QStringLiteral("profile")).first());
        const auto *second = w->session()->job(byKind.value(QStringLiteral("profile")).last());
        QVERIFY(first->profile != second->profile);
        w->findChild<QDockWidget *>(QStringLiteral("profileDock"))->raise(); // a hidden panel redraws when shown
        w->selectionHub()->selectJob(first->id);
        QTRY_COMPARE(profilePanel->profile(), first->profile);
        w->findChild<QDockWidget *>(QStringLiteral("memoryDock"))->raise();
        screenshot(*w, QStringLiteral("one_job_per_view_memory_of_a_profile"));
    }

    // Regional compile (issue 14 item 6): Run Settings' choice goes on the compile request only,
    // the result panel shows the blocks, and Sweep Shapes and Export Bundle, which need a package
    // of the whole model, are off with a tooltip that says why.
    void regionalCompileInTheStudio()
    {
        QTemporaryDir dir;
        const QString requests = dir.filePath(QStringLiteral("requests.jsonl"));
        qputenv("FAKE_REQUEST_LOG", requests.toLocal8Bit());
        RunSettings settings = RunSettings::load();
        settings.regional = true;
        settings.compareWhole = true;
        settings.save();
        const auto restore = qScopeGuard([] {
            qunsetenv("FAKE_REQUEST_LOG");
            RunSettings s = RunSettings::load();
            s.regional = s.compareWhole = false;
            s.save();
        });
        auto w = startedWindow();
        w->setModel(QStringLiteral("sample:mlp"));
        w->setOutputDirectory(dir.filePath(QStringLiteral("out")));
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        const QList<QJsonObject> compiles = sentRequests(requests, QStringLiteral("compile"));
        QCOMPARE(compiles.size(), 1);
        QCOMPARE(compiles.first().value(QLatin1String("regional")), QJsonValue(true));
        QCOMPARE(compiles.first().value(QLatin1String("compare_whole")), QJsonValue(true));
        QVERIFY(w->lastResult() && w->lastResult()->isRegional());
        auto *panel = w->findChild<ResultPanel *>();
        QVERIFY(panel->showsRegional());
        QCOMPARE(panel->regionalBlocksModel()->rowCount(), 1);
        auto *sweep = w->findChild<QAction *>(QStringLiteral("sweepAction"));
        auto *exportBundle = w->findChild<QAction *>(QStringLiteral("exportAction"));
        QVERIFY(!sweep->isEnabled());
        QVERIFY(!exportBundle->isEnabled());
        QVERIFY2(sweep->toolTip().contains(QLatin1String("regional")), qPrintable(sweep->toolTip()));
        QVERIFY2(exportBundle->toolTip().contains(QLatin1String("regional")), qPrintable(exportBundle->toolTip()));
        QVERIFY(!w->sweep()); // refused with a message, nothing sent
        QVERIFY(sentRequests(requests, QStringLiteral("sweep")).isEmpty());

        // A profile compiles the whole model: it never carries regional.
        QVERIFY(w->profile());
        QVERIFY(finished.wait(10000));
        const QList<QJsonObject> profiles = sentRequests(requests, QStringLiteral("profile"));
        QCOMPARE(profiles.size(), 1);
        QVERIFY(!profiles.first().contains(QLatin1String("regional")));
        QVERIFY(!profiles.first().contains(QLatin1String("compare_whole")));
        QVERIFY(!profiles.first().contains(QLatin1String("package"))); // no whole package to reuse
    }

    // Who may load a bundle (issue 19): the engine refuses an unsigned bundle with `untrusted`; the
    // studio names the bundle and the signer in a dialog, sends nothing more on Cancel, and sends the
    // request again with allow_unsigned on "Load Anyway".
    void bundleSweepAsksBeforeLoadingUnsigned()
    {
        QTemporaryDir dir;
        const QString requests = dir.filePath(QStringLiteral("requests.jsonl"));
        qputenv("FAKE_REQUEST_LOG", requests.toLocal8Bit());
        const auto unset = qScopeGuard([] { qunsetenv("FAKE_REQUEST_LOG"); });
        auto w = startedWindow();
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QVERIFY(w->findChild<QAction *>(QStringLiteral("sweepBundleAction"))->isEnabled());
        const QString bundle = dir.filePath(QStringLiteral("mlp-bundle"));
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        for (const bool load : {false, true}) {
            QVERIFY(w->startBundleSweep(bundle));
            QVERIFY(finished.wait(10000));
            QCOMPARE(finished.takeFirst().at(0).toBool(), false);
            AotStudio::Widgets::TrustDialog *dialog = nullptr;
            QTRY_VERIFY((dialog = w->findChild<AotStudio::Widgets::TrustDialog *>()) && dialog->isVisible());
            QVERIFY2(dialog->text().contains(QDir::toNativeSeparators(bundle))
                         && dialog->text().contains(QLatin1String("is unsigned")),
                     qPrintable(dialog->text()));
            QVERIFY(!w->findChild<QMessageBox *>(QStringLiteral("compileErrorBox"))); // a question, not a failure
            if (load) {
                screenshot(*dialog, QStringLiteral("trust_dialog"));
                dialog->findChild<QAbstractButton *>(QStringLiteral("loadAnywayButton"))->click();
                QVERIFY(finished.wait(10000));
                QCOMPARE(finished.takeFirst().at(0).toBool(), true);
            } else {
                dialog->reject();
            }
            QTRY_VERIFY(!w->findChild<AotStudio::Widgets::TrustDialog *>());
        }
        auto *sweepPanel = w->findChild<AotStudio::Widgets::SweepPanel *>();
        QVERIFY(sweepPanel->pointModel()->rowCount() > 5); // the sweep after "Load Anyway" is shown
        qunsetenv("FAKE_REQUEST_LOG");
        QFile f(requests);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QList<bool> allowed;
        for (const QByteArray &line : f.readAll().split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.value(QLatin1String("type")).toString() == QLatin1String("sweep")) {
                QCOMPARE(o.value(QLatin1String("bundle")).toString(), bundle);
                allowed << o.value(QLatin1String("allow_unsigned")).toBool(false);
            }
        }
        // Cancel sent nothing more; Load Anyway sent the same sweep once with allow_unsigned.
        QCOMPARE(allowed, (QList<bool>{false, false, true}));
    }

    // Engine → Find Numerical Divergence: a `numerics` request of the toolbar's model, device and
    // folder with the run settings' dtype and options, nothing a compile measures; its result (the
    // recorded tests/fixtures/numerics) colours the capture graph by error and brings the Graph
    // dock to the front.
    void numericsJobShowsTheHeatMap()
    {
        using AotStudio::Widgets::GraphPanel;
        QTemporaryDir dir;
        const QString requests = dir.filePath(QStringLiteral("requests.jsonl"));
        qputenv("FAKE_REQUEST_LOG", requests.toLocal8Bit());
        const auto unset = qScopeGuard([] { qunsetenv("FAKE_REQUEST_LOG"); });
        auto w = startedWindow();
        w->setModel(QStringLiteral("sample:mlp"));
        const QString out = dir.filePath(QStringLiteral("num"));
        w->setOutputDirectory(out);
        auto *action = w->findChild<QAction *>(QStringLiteral("numericsAction"));
        QVERIFY(action);
        QVERIFY(!action->isEnabled()); // no engine yet
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QVERIFY(action->isEnabled());
        // In the Engine menu after Quantize, with Tune Compile Recipe….
        QMenu *engine = nullptr;
        for (QAction *top : w->menuBar()->actions())
            if (top->objectName().isEmpty() && top->menu() && top->menu()->actions().contains(action))
                engine = top->menu();
        QVERIFY(engine);
        const auto items = engine->actions();
        const auto *tuneAction = w->findChild<QAction *>(QStringLiteral("tuneAction"));
        QCOMPARE(items.indexOf(action), items.indexOf(w->findChild<QAction *>(QStringLiteral("quantizeAction"))) + 1);
        QCOMPARE(items.indexOf(tuneAction), items.indexOf(action) + 1);
        QVERIFY(tuneAction->isEnabled());
        engine->popup(w->mapToGlobal(QPoint(60, 20)));
        screenshot(*engine, QStringLiteral("engine_menu"));
        engine->hide();
        auto *graph = w->findChild<GraphPanel *>();
        w->findChild<QDockWidget *>(QStringLiteral("tuneDock"))->raise(); // the graph hidden behind another tab
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QTRY_VERIFY(!onTop(graph));

        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        action->trigger();
        QVERIFY(!action->isEnabled()); // one job at a time
        QVERIFY(w->findChild<QAction *>(QStringLiteral("cancelAction"))->isEnabled());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(0).toBool(), true);

        const auto sent = sentRequests(requests, QStringLiteral("numerics"));
        QCOMPARE(sent.size(), 1);
        QCOMPARE(sent[0].value(QLatin1String("model")).toString(), QStringLiteral("sample:mlp"));
        QCOMPARE(sent[0].value(QLatin1String("device")).toString(), QStringLiteral("cpu"));
        QCOMPARE(sent[0].value(QLatin1String("out")).toString(), out);
        QCOMPARE(sent[0].value(QLatin1String("dtype")).toString(), w->jobs()->runSettings().dtype);
        QVERIFY(sent[0].contains(QLatin1String("freezing")));
        QVERIFY(!sent[0].contains(QLatin1String("runs"))); // it measures nothing
        QVERIFY(!sent[0].contains(QLatin1String("tolerance"))); // the engine's default for the dtype

        // The hub follows the new job on its capture snapshot; the graph is coloured by error.
        auto *hub = w->selectionHub();
        QVERIFY(hub->numerics());
        QCOMPARE(hub->currentJobRecord()->kind, QStringLiteral("numerics"));
        QVERIFY(hub->currentSnapshotRecord());
        QCOMPARE(hub->currentSnapshotRecord()->stage, QStringLiteral("capture"));
        QVERIFY(hub->waitForIdle());
        QVERIFY(graph->graphView()->layoutJob()->waitForIdle());
        QTRY_VERIFY(onTop(graph)); // the Graph dock was raised
        QVERIFY(graph->numericsBar()->isVisible());
        QCOMPARE(graph->graphView()->colourMode(), AotStudio::Widgets::ColourMode::NumericError);
        QVERIFY2(graph->firstDivergentButton()->text().contains(QLatin1String("softmax")),
                 qPrintable(graph->firstDivergentButton()->text()));
        QVERIFY2(w->statusBar()->currentMessage().startsWith(QLatin1String("Numerics of sample:mlp: ")),
                 qPrintable(w->statusBar()->currentMessage()));
        QVERIFY2(log(*w).contains(QLatin1String("Finding the numerical divergence of sample:mlp on cpu")),
                 qPrintable(log(*w)));
        QCOMPARE(w->findChild<QProgressBar *>()->value(), w->findChild<QProgressBar *>()->maximum());
        screenshot(*w, QStringLiteral("numerics_job"));
    }

    // Engine → Tune Compile Recipe…: asks for a budget (10 minutes at first, then the last one),
    // sends a `tune` request with budget_seconds, shows each trial's compile in the stage label and
    // raises the Tune dock with the result (the recorded tests/fixtures/tune). The trials' snapshots
    // do not become the graph shown.
    void tuneJobShowsTheTuneDock()
    {
        using AotStudio::Widgets::TunePanel;
        QTemporaryDir dir;
        const QString requests = dir.filePath(QStringLiteral("requests.jsonl"));
        qputenv("FAKE_REQUEST_LOG", requests.toLocal8Bit());
        const auto unset = qScopeGuard([] { qunsetenv("FAKE_REQUEST_LOG"); });
        QSettings().remove(QStringLiteral("run/tuneBudgetMinutes"));
        auto w = startedWindow();
        w->setModel(QStringLiteral("sample:mlp"));
        const QString out = dir.filePath(QStringLiteral("tune"));
        w->setOutputDirectory(out);
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        auto *panel = w->findChild<TunePanel *>();
        w->findChild<QDockWidget *>(QStringLiteral("graphDock"))->raise(); // the Tune dock behind another tab
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QTRY_VERIFY(!onTop(panel));
        QVERIFY(!panel->result());

        auto *action = w->findChild<QAction *>(QStringLiteral("tuneAction"));
        QVERIFY(action && action->isEnabled());
        action->trigger();
        QInputDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = w->findChild<QInputDialog *>(QStringLiteral("tuneBudgetDialog"))) && dialog->isVisible());
        QCOMPARE(dialog->intValue(), 10);
        screenshot(*dialog, QStringLiteral("tune_budget_dialog"));
        dialog->setIntValue(2);
        QSignalSpy stage(w->jobs(), &AotStudio::Widgets::JobController::stageChanged);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        dialog->accept();
        QVERIFY(w->jobs()->isBusy());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(0).toBool(), true);

        const auto sent = sentRequests(requests, QStringLiteral("tune"));
        QCOMPARE(sent.size(), 1);
        QCOMPARE(sent[0].value(QLatin1String("model")).toString(), QStringLiteral("sample:mlp"));
        QCOMPARE(sent[0].value(QLatin1String("device")).toString(), QStringLiteral("cpu"));
        QCOMPARE(sent[0].value(QLatin1String("out")).toString(), out);
        QCOMPARE(sent[0].value(QLatin1String("budget_seconds")).toDouble(), 120.0);
        QVERIFY(!sent[0].contains(QLatin1String("freezing"))); // the trials' own option sets
        QCOMPARE(AotStudio::Widgets::JobController::tuneBudgetMinutes(), 2); // offered next time

        // Each trial's compile events say which trial they are about.
        QStringList labels;
        for (const auto &args : std::as_const(stage))
            labels << args.at(0).toString();
        QVERIFY2(labels.contains(QStringLiteral("Tune · defaults: Compiling with AOTInductor")),
                 qPrintable(labels.join(u'|')));
        QVERIFY2(labels.contains(QStringLiteral("Tune · freezing: Verifying outputs")), qPrintable(labels.join(u'|')));
        QVERIFY2(labels.contains(QStringLiteral("Tune · Compiling the torch.compile baseline")),
                 qPrintable(labels.join(u'|')));
        QCOMPARE(labels.last(), QStringLiteral("Done"));

        QTRY_VERIFY(onTop(panel)); // the Tune dock was raised
        QVERIFY(panel->result());
        QCOMPARE(panel->result()->model, QStringLiteral("sample:mlp"));
        QCOMPARE(panel->result()->budgetSeconds, 120.0);
        QCOMPARE(panel->model()->rowCount(), 4); // two trials, two baselines
        QVERIFY2(panel->summaryText().contains(QLatin1String("recipe: defaults")), qPrintable(panel->summaryText()));
        // The Tune dock shows the tune job, headed by it; its trials' snapshots are no one graph:
        // the Graph dock says it has nothing for it.
        const auto *current = w->selectionHub()->currentJobRecord();
        QVERIFY(current && current->kind == QLatin1String("tune"));
        QVERIFY(jobView(*w, QStringLiteral("tuneDock"))->showsPanel());
        QVERIFY(!jobView(*w, QStringLiteral("graphDock"))->showsPanel());
        QVERIFY2(jobView(*w, QStringLiteral("graphDock"))
                     ->noteText()
                     .startsWith(QStringLiteral("Nothing for job %1 (tune)").arg(current->id)),
                 qPrintable(jobView(*w, QStringLiteral("graphDock"))->noteText()));
        QVERIFY2(log(*w).contains(QLatin1String("Tuning the compile recipe of sample:mlp on cpu into")),
                 qPrintable(log(*w)));
        QVERIFY2(w->statusBar()->currentMessage().contains(QLatin1String("recipe: defaults")),
                 qPrintable(w->statusBar()->currentMessage()));
        screenshot(*w, QStringLiteral("tune_job"));
    }

    void compileShowsResult()
    {
        auto w = startedWindow();
        w->setModel(QStringLiteral("sample:mlp"));
        w->setOutputDirectory(m_out.path());
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        w->findChild<QAction *>(QStringLiteral("compileAction"))->trigger();
        QVERIFY(!w->findChild<QAction *>(QStringLiteral("compileAction"))->isEnabled());
        QVERIFY(w->findChild<QAction *>(QStringLiteral("cancelAction"))->isEnabled());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(0).toBool(), true);

        QCOMPARE(text(*w, "resultPackage"), m_out.filePath(QStringLiteral("model.pt2")));
        QCOMPARE(text(*w, "resultDevice"), QStringLiteral("cpu"));
        QCOMPARE(text(*w, "resultTorch"), QStringLiteral("2.14.1+fake"));
        QVERIFY2(text(*w, "resultMaxAbsError").startsWith(QLatin1String("1.2e-07")),
                 qPrintable(text(*w, "resultMaxAbsError")));
        QVERIFY2(text(*w, "resultEager").startsWith(QLatin1String("0.081 ms")),
                 qPrintable(text(*w, "resultEager")));
        QVERIFY(text(*w, "resultCompiled").startsWith(QLatin1String("0.034 ms")));
        QCOMPARE(text(*w, "resultSpeedup"), QStringLiteral("2.38× (95% CI 2.31–2.45)"));
        // Verification per output: the verdict, what was compared, and one row per named output.
        QVERIFY2(text(*w, "resultVerify").contains(QLatin1String("passed: 2 outputs within 0.001 of eager")),
                 qPrintable(text(*w, "resultVerify")));
        QCOMPARE(text(*w, "resultVerifyMode"), QStringLiteral("compiled against eager"));
        QCOMPARE(text(*w, "resultVerifyInputs"), QStringLiteral("the example input and 2 seeded inputs (3 calls)"));
        QCOMPARE(text(*w, "resultVerifyStateful"), QStringLiteral("no"));
        auto *panel = w->findChild<ResultPanel *>();
        QVERIFY(panel->showsVerification());
        QCOMPARE(panel->verifyModel()->rowCount(), 2);
        QCOMPARE(panel->verifyModel()->index(1, panel->verifyModel()->columnOf(VerifyOutputModel::NameColumn)).data().toString(),
                 QStringLiteral("hidden.0"));
        QCOMPARE(text(*w, "resultRuns"), QStringLiteral("eager 80, compiled 40"));
        // Stages by their display names, and the engine's graph snapshots, in the log.
        const QString lines = log(*w);
        QVERIFY2(lines.contains(QLatin1String("Decomposing to core ATen: done in")), qPrintable(lines));
        QVERIFY2(lines.contains(QLatin1String("Snapshot post_grad / remove_noop_ops: 53 nodes")),
                 qPrintable(lines));
        QVERIFY2(!lines.contains(QLatin1String("Stage load")), qPrintable(lines));
        QVERIFY(!w->findChild<QLabel *>(QStringLiteral("emptyState"))->isVisible());
        QVERIFY(!banner(*w)->isVisible());
        QCOMPARE(w->lastResult()->speedup, 2.38);
        screenshot(*w, QStringLiteral("mainwindow_result"));

        // The report carries the same verdict and the per-output table.
        QTemporaryDir dir;
        QVERIFY(w->exportReport(dir.filePath(QStringLiteral("report"))));
        QFile html(dir.filePath(QStringLiteral("report/index.html")));
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QString page = QString::fromUtf8(html.readAll());
        QVERIFY2(page.contains(QLatin1String("<th>Verification</th><td class=\"verify-passed\">passed: 2 outputs")),
                 qPrintable(page));
        QVERIFY(page.contains(QLatin1String("<th>Verified on</th><td>the example input and 2 seeded inputs")));
        QFile csv(dir.filePath(QStringLiteral("report/verify.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QByteArray table = csv.readAll();
        QVERIFY2(table.startsWith("Output,Result,Max abs error,Max rel error,Cosine,Shape,Dtype\n"), table.constData());
        QVERIFY2(table.contains("hidden.0,passed,6e-08,1.1e-06,1.000000,\"[8, 64]\",float32"), table.constData());
    }

    void errorShowsMessageAndPanel()
    {
        auto w = startedWindow();
        w->setModel(QStringLiteral("fake:error"));
        w->setOutputDirectory(m_out.path());
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(0).toBool(), false);

        auto *box = w->findChild<QMessageBox *>(QStringLiteral("compileErrorBox"));
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());
        QVERIFY(box->text().contains(QLatin1String("torch.export failed")));
        QVERIFY(box->informativeText().contains(QLatin1String("torch.cond")));
        const QString panel = text(*w, "resultErrorText");
        QVERIFY2(panel.contains(QLatin1String("export_failed")), qPrintable(panel));
        QVERIFY(panel.contains(QLatin1String("torch.cond")));
        QVERIFY(w->findChild<QFrame *>(QStringLiteral("resultError"))->isVisible());
        QVERIFY2(panel.contains(QLatin1String("Exporting the graph")), qPrintable(panel));
        // The status bar says so too, not the "Engine ready." still showing from the handshake.
        const QString status = w->statusBar()->currentMessage();
        QVERIFY2(status == QLatin1String("Compiling fake:error failed: export_failed"),
                 qPrintable(status));
        // The engine itself is fine: no banner.
        QVERIFY(!banner(*w)->isVisible());
        screenshot(*w, QStringLiteral("mainwindow_error"));
        box->close();
    }

    // Issue 35 item 3: a factory that raises (the engine's `where`, fake:usererror as
    // models.py sends it): the result panel and the dialog's details show the user's frames and
    // the lines around the failing one, not a traceback through torch and the studio.
    void userCodeErrorShowsItsLines()
    {
        auto w = startedWindow();
        w->setModel(QStringLiteral("fake:usererror"));
        w->setOutputDirectory(m_out.filePath(QStringLiteral("usererror")));
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(0).toBool(), false);
        const QString panel = text(*w, "resultErrorText");
        QVERIFY2(panel.contains(QLatin1String("In your code")), qPrintable(panel));
        QVERIFY2(panel.contains(QLatin1String("net.py:10, in factory: <code>helper(3)</code>")), qPrintable(panel));
        QVERIFY2(panel.contains(QStringLiteral("→ 6     raise ValueError")), qPrintable(panel));
        auto *box = w->findChild<QMessageBox *>(QStringLiteral("compileErrorBox"));
        QVERIFY(box);
        QVERIFY2(box->detailedText().contains(QLatin1String("net.py:6, in helper")), qPrintable(box->detailedText()));
        QVERIFY2(box->detailedText().contains(QStringLiteral("→ 6     raise ValueError")),
                 qPrintable(box->detailedText()));
        // The hint by its id: the studio's own words.
        QVERIFY2(box->informativeText().startsWith(QLatin1String("fix the factory")),
                 qPrintable(box->informativeText()));
        // The job is the one every view shows: the result panel is headed by it.
        auto *view = w->findChild<AotStudio::Widgets::JobView *>(QStringLiteral("summaryScrollJobView"));
        QVERIFY(view && view->showsPanel());
        QVERIFY2(view->headingText().contains(QLatin1String("fake:usererror")), qPrintable(view->headingText()));
        // The header says where it failed in a few words; the box under it has the message.
        QCOMPARE(view->stateText(), QStringLiteral("failed at Loading the model (model_error)"));
        screenshot(*w, QStringLiteral("mainwindow_user_error"));
        box->close();
    }

    void olderEngineResultStillShows()
    {
        // An engine before paired timing and per-output verify: no interval, no verify rows.
        auto w = startedWindow();
        w->setModel(QStringLiteral("fake:old"));
        w->setOutputDirectory(m_out.path());
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(0).toBool(), true);
        QCOMPARE(text(*w, "resultSpeedup"), QStringLiteral("2.38× (no interval)"));
        QVERIFY(text(*w, "resultMaxAbsError").startsWith(QLatin1String("1.2e-07")));
        auto *panel = w->findChild<ResultPanel *>();
        QVERIFY(!panel->showsVerification());
        QVERIFY(!w->findChild<QLabel *>(QStringLiteral("resultVerify"))->isVisible());
        QVERIFY(!panel->summaryText().contains(QLatin1String("Verification:")));
    }

    void mismatchNamesTheFailedOutput()
    {
        auto w = startedWindow();
        w->setModel(QStringLiteral("fake:mismatch"));
        w->setOutputDirectory(m_out.path());
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(0).toBool(), false);
        const QString shown = text(*w, "resultErrorText");
        QVERIFY2(shown.contains(QLatin1String("1 output failed verification: logits")), qPrintable(shown));
        // Every output's figures from the job's log, the failed one marked.
        auto *panel = w->findChild<ResultPanel *>();
        VerifyOutputModel *failed = panel->failedVerifyModel();
        QCOMPARE(failed->rowCount(), 2);
        QCOMPARE(failed->index(0, failed->columnOf(VerifyOutputModel::NameColumn)).data().toString(), QStringLiteral("logits"));
        QCOMPARE(failed->index(0, failed->columnOf(VerifyOutputModel::PassedColumn)).data().toString(), QStringLiteral("FAILED"));
        QCOMPARE(failed->index(1, failed->columnOf(VerifyOutputModel::PassedColumn)).data().toString(), QStringLiteral("passed"));
        QVERIFY(w->findChild<QWidget *>(QStringLiteral("resultErrorVerifyTable"))->isVisible());
        if (auto *box = w->findChild<QMessageBox *>(QStringLiteral("compileErrorBox")))
            box->close();
        screenshot(*w, QStringLiteral("mainwindow_mismatch"));

        // The report says what failed, by output, with the table as CSV.
        QTemporaryDir dir;
        QVERIFY(w->exportReport(dir.filePath(QStringLiteral("report"))));
        QFile html(dir.filePath(QStringLiteral("report/index.html")));
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QString page = QString::fromUtf8(html.readAll());
        QVERIFY2(page.contains(QLatin1String("fake:mismatch failed verification: 1 output failed verification: logits")),
                 qPrintable(page));
        QVERIFY(page.contains(QLatin1String("class=\"verify-failed\"")));
        QFile csv(dir.filePath(QStringLiteral("report/verify-failed.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QVERIFY(csv.readAll().contains("logits,FAILED,0.031,0.0042,0.999812,\"[8, 10]\",float32"));
    }

    // Issue 40: Make Repro on a verify mismatch runs a `repro` job (progress, Cancel) on the failed
    // compile's folder and says where the folder is and whether it reproduced. Cost: ~1 s (fake engine).
    void makeReproOfMismatch()
    {
        auto w = startedWindow();
        auto *repro = w->findChild<QAction *>(QStringLiteral("reproAction"));
        QVERIFY(repro);
        QVERIFY(!repro->isEnabled()); // nothing failed yet
        w->setModel(QStringLiteral("fake:mismatch"));
        w->setOutputDirectory(m_out.path());
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        auto *box = w->findChild<QMessageBox *>(QStringLiteral("compileErrorBox"));
        QVERIFY(box);
        QVERIFY(box->findChild<QPushButton *>(QStringLiteral("makeReproButton")));
        box->close();
        QTRY_VERIFY(repro->isEnabled());
        QVERIFY2(repro->toolTip().contains(QLatin1String("verify mismatch of fake:mismatch")),
                 qPrintable(repro->toolTip()));
        finished.clear();
        repro->trigger();
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(0).toBool(), true);
        QMessageBox *shown = nullptr;
        QTRY_VERIFY((shown = w->findChild<QMessageBox *>(QStringLiteral("reproBox"))) && shown->isVisible());
        QVERIFY2(shown->text().contains(QLatin1String("reproduces the failure")), qPrintable(shown->text()));
        QVERIFY2(shown->informativeText().contains(m_out.path() + QStringLiteral("/repro")),
                 qPrintable(shown->informativeText()));
        QVERIFY(shown->findChild<QPushButton *>(QStringLiteral("openReproFolderButton")));
        QVERIFY(w->statusBar()->currentMessage().contains(QLatin1String("reproduces the failure")));
        shown->close();
    }

    void crashShowsBannerAndRestartWorks()
    {
        auto w = startedWindow();
        w->setOutputDirectory(m_out.path());
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        w->setModel(QStringLiteral("sample:mlp"));
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        w->setModel(QStringLiteral("fake:crash"));
        QVERIFY(w->compile());
        QTRY_VERIFY_WITH_TIMEOUT(banner(*w)->isVisible(), 10000);
        QVERIFY(text(*w, "engineBannerText").contains(QLatin1String("code 1")));
        QCOMPARE(text(*w, "engineStatus"), QStringLiteral("Engine not running"));
        QVERIFY(w->statusBar()->currentMessage().contains(QLatin1String("code 1")));
        // A dead engine is not a compile error: no dialog, and the earlier result stays.
        QVERIFY(!w->findChild<QMessageBox *>(QStringLiteral("compileErrorBox")));
        QCOMPARE(text(*w, "resultTorch"), QStringLiteral("2.14.1+fake"));
        QVERIFY(!w->findChild<QAction *>(QStringLiteral("compileAction"))->isEnabled());
        screenshot(*w, QStringLiteral("mainwindow_engine_died"));

        auto *restart = w->findChild<QPushButton *>(QStringLiteral("restartEngineButton"));
        QVERIFY(restart && restart->isVisible());
        QTest::mouseClick(restart, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QVERIFY(!banner(*w)->isVisible());
        QVERIFY(text(*w, "engineStatus").contains(QLatin1String("2.14.1+fake")));
    }

    void requestedCudaMissingDoesNotCompile()
    {
        MainWindow w;
        w.setModel(QStringLiteral("sample:mlp"));
        w.setOutputDirectory(m_out.path());
        w.setDevice(QStringLiteral("cuda")); // as `aotstudio --device cuda --compile`
        w.compileWhenReady();
        QSignalSpy blocked(&w, &MainWindow::compileBlocked);
        QSignalSpy finished(&w, &MainWindow::jobFinished);
        w.show();
        w.startEngine();
        QVERIFY(blocked.wait(10000)); // the fake engine reports no CUDA device
        QVERIFY2(blocked.first().at(0).toString().contains(QLatin1String("CUDA")),
                 qPrintable(blocked.first().at(0).toString()));
        const QString status = w.statusBar()->currentMessage();
        QVERIFY2(status.contains(QLatin1String("no CUDA device")), qPrintable(status));
        QVERIFY2(text(w, "stageLabel").contains(QLatin1String("no CUDA device")),
                 qPrintable(text(w, "stageLabel")));
        QVERIFY2(log(w).contains(QLatin1String("warning")) && log(w).contains(QLatin1String("no CUDA device")),
                 qPrintable(log(w)));
        // Nothing ran, on any device.
        QTest::qWait(200);
        QCOMPARE(finished.count(), 0);
        QVERIFY(!w.findChild<QAction *>(QStringLiteral("cancelAction"))->isEnabled());
        QVERIFY(!w.lastResult());
        screenshot(w, QStringLiteral("mainwindow_cuda_missing"));
        // Pressing Compile again does not quietly go to the CPU either…
        QVERIFY(!w.compile());
        QCOMPARE(blocked.count(), 2);
        // …until the user picks the CPU.
        auto *devices = w.findChild<QComboBox *>(QStringLiteral("deviceCombo"));
        const int cpu = devices->findData(QStringLiteral("cpu"));
        devices->setCurrentIndex(cpu);
        Q_EMIT devices->activated(cpu);
        QVERIFY(w.compile());
        QVERIFY(finished.wait(10000));
        QCOMPARE(w.lastResult()->device, QStringLiteral("cpu"));
    }

    void requestedCudaPresentCompilesOnCuda()
    {
        qputenv("FAKE_CUDA", "1");
        MainWindow w;
        w.setModel(QStringLiteral("sample:mlp"));
        w.setOutputDirectory(m_out.path());
        w.setDevice(QStringLiteral("cuda"));
        w.compileWhenReady();
        QSignalSpy finished(&w, &MainWindow::jobFinished);
        w.startEngine();
        const bool done = finished.wait(10000);
        qunsetenv("FAKE_CUDA");
        QVERIFY(done);
        QCOMPARE(finished.first().at(0).toBool(), true);
        QCOMPARE(w.lastResult()->device, QStringLiteral("cuda"));
    }

    void defaultJobFolder()
    {
        const QString jobs = AotStudio::Widgets::JobController::jobsDirectory();
        QVERIFY2(jobs.endsWith(QLatin1String("/aotstudio/jobs")), qPrintable(jobs));
        QVERIFY2(!jobs.contains(QLatin1String("AOTStudio/AOTStudio")), qPrintable(jobs));
        QDir(jobs).removeRecursively();

        auto w = startedWindow();
        w->setOutputDirectory(QString()); // a new folder per job
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        // A job that failed before writing anything leaves no empty folder behind…
        w->setModel(QStringLiteral("fake:error"));
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        QVERIFY2(jobFolders().isEmpty(), qPrintable(jobFolders().join(u' ')));
        if (auto *box = w->findChild<QMessageBox *>(QStringLiteral("compileErrorBox")))
            box->close();
        // …a successful one keeps its folder.
        w->setModel(QStringLiteral("sample:mlp"));
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.last().at(0).toBool(), true);
        QCOMPARE(jobFolders().size(), 1);
        QVERIFY(w->lastResult()->package.startsWith(jobs + QLatin1Char('/')));
    }

    void noisyResultShowsWarningAndReadableChart()
    {
        auto w = startedWindow();
        w->setModel(QStringLiteral("fake:noisy"));
        w->setOutputDirectory(m_out.path());
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        QVERIFY(w->findChild<QFrame *>(QStringLiteral("resultWarnings"))->isVisible());
        QVERIFY(text(*w, "resultWarningsText").contains(QLatin1String("noisy")));
        screenshot(*w, QStringLiteral("mainwindow_noisy"));
    }

    // Issue 37: the Target selector lists the target environments (a broken one disabled with its
    // reason), starts the chosen target's engine in its environment (AOTSTUDIO_TARGET, which the
    // engine names in hello), jobs name the target they ran in, and a target that went missing
    // is a banner naming it, not a crash.
    void targetSelectorRunsTheTargetsEngine()
    {
        QTemporaryDir targets;
        QVERIFY(QDir(targets.path()).mkpath(QStringLiteral("t211")));
        QVERIFY(QDir(targets.path()).mkpath(QStringLiteral("broken")));
        const auto write = [](const QString &path, const QByteArray &bytes) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        write(targets.filePath(QStringLiteral("t211/target.json")),
              QJsonDocument(QJsonObject{{QStringLiteral("format"), 1},
                                        {QStringLiteral("python"), QStringLiteral("3.12")},
                                        {QStringLiteral("torch"), QStringLiteral("2.11.0+fake")},
                                        {QStringLiteral("cuda"), QStringLiteral("cpu")},
                                        {QStringLiteral("cli"), QStringLiteral("/bin/false")},
                                        {QStringLiteral("engine"), QStringLiteral(AOTSTUDIO_FAKE_ENGINE)},
                                        {QStringLiteral("venv_python"), QStringLiteral("/usr/bin/python3")}})
                  .toJson());
        write(targets.filePath(QStringLiteral("broken/target.json")), "{");
        qputenv("AOTSTUDIO_TARGETS_DIR", targets.path().toLocal8Bit());
        const auto unset = qScopeGuard([] { qunsetenv("AOTSTUDIO_TARGETS_DIR"); });

        auto w = startedWindow();
        w->setModel(QStringLiteral("sample:mlp"));
        w->setOutputDirectory(m_out.path());
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QVERIFY(w->engineClient()->engineInfo().target.isEmpty());
        auto *combo = w->findChild<QComboBox *>(QStringLiteral("targetCombo"));
        QVERIFY(combo);
        QCOMPARE(combo->count(), 3); // the studio's own, broken, t211 (by name)
        QCOMPARE(combo->currentData().toString(), QString());
        const int broken = combo->findData(QStringLiteral("broken"));
        const int t211 = combo->findData(QStringLiteral("t211"));
        QVERIFY(broken > 0 && t211 > 0);
        QVERIFY(!qobject_cast<QStandardItemModel *>(combo->model())->item(broken)->isEnabled());
        QVERIFY2(combo->itemData(broken, Qt::ToolTipRole).toString().contains(QLatin1String("JSON")),
                 qPrintable(combo->itemData(broken, Qt::ToolTipRole).toString()));
        QVERIFY2(combo->itemText(t211).contains(QLatin1String("2.11.0+fake")), qPrintable(combo->itemText(t211)));

        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        QVERIFY(w->compile()); // in the studio's own engine
        QVERIFY(finished.wait(10000));
        combo->setCurrentIndex(t211);
        Q_EMIT combo->activated(t211); // as a user's pick
        QTRY_COMPARE_WITH_TIMEOUT(w->engineClient()->engineInfo().target, QStringLiteral("t211"), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QVERIFY2(text(*w, "engineStatus").contains(QLatin1String("target t211")), qPrintable(text(*w, "engineStatus")));
        QVERIFY(w->compile()); // in the target's engine
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.last().at(0).toBool(), true);
        const auto &jobs = w->session()->jobs();
        QVERIFY(jobs.size() >= 2);
        QCOMPARE(jobs.first().target, QString()); // the first job keeps the engine it ran in
        QCOMPARE(jobs.last().target, QStringLiteral("t211"));
        QCOMPARE(jobs.last().torchVersion, QStringLiteral("2.11.0+fake"));
        const QString heading = AotStudio::Widgets::JobHeading::heading(jobs.last());
        QVERIFY2(heading.contains(QLatin1String("t211 (torch 2.11.0+fake)")), qPrintable(heading));
        QVERIFY(!AotStudio::Widgets::JobHeading::heading(jobs.first()).contains(QLatin1String("t211")));
        QTRY_VERIFY_WITH_TIMEOUT(pipelineHeading(*w).contains(QLatin1String("t211")), 5000);
        // The Jobs dock lists both, newest first; picking the older one shows it in every dock.
        auto *jobsView = w->findChild<QTreeWidget *>(QStringLiteral("jobsView"));
        QVERIFY(jobsView);
        QVERIFY(jobsView->topLevelItemCount() >= 2);
        QVERIFY2(jobsView->topLevelItem(0)->text(0).contains(QLatin1String("t211")),
                 qPrintable(jobsView->topLevelItem(0)->text(0)));
        QVERIFY2(jobsView->topLevelItem(0)->text(1).startsWith(QLatin1String("done")),
                 qPrintable(jobsView->topLevelItem(0)->text(1)));
        jobsView->setCurrentItem(jobsView->topLevelItem(jobsView->topLevelItemCount() - 1));
        QTRY_VERIFY_WITH_TIMEOUT(!pipelineHeading(*w).contains(QLatin1String("t211")), 5000);
        QVERIFY2(pipelineHeading(*w).startsWith(AotStudio::Widgets::JobHeading::heading(jobs.first())),
                 qPrintable(pipelineHeading(*w)));

        // Removed behind the studio's back: the next start says which target and what to do.
        QVERIFY(QDir(targets.filePath(QStringLiteral("t211"))).removeRecursively());
        w->engineClient()->restart();
        QTRY_VERIFY_WITH_TIMEOUT(banner(*w)->isVisible(), 5000);
        QVERIFY2(text(*w, "engineBannerText").contains(QLatin1String("t211")),
                 qPrintable(text(*w, "engineBannerText")));
        // Back to the studio's own.
        w->setTarget(QString());
        w->engineClient()->restart();
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QVERIFY(w->engineClient()->engineInfo().target.isEmpty());
        QCOMPARE(combo->currentData().toString(), QString());
    }

    // Issue 35 item 9 / 37 item 4: a bundle folder opened shows the same Bundle view as an export
    // (buckets, key, cold start, preflight), off the UI thread; another GPU profile re-checks it.
    void openBundleFolderShowsTheBundleView()
    {
        namespace fs = std::filesystem;
        QTemporaryDir dir;
        const fs::path root = fs::path(dir.path().toStdString()) / "mlp-bundle";
        const fs::path tree = fs::path(dir.path().toStdString()) / "tree";
        const fs::path model = tree / "model" / "data" / "aotinductor" / "model";
        fs::create_directories(model);
        fs::create_directories(root / "packages");
        fs::create_directories(root / "report");
        std::ofstream(model / "cabc.wrapper_metadata.json")
            << R"({"AOTI_DEVICE_KEY": "cpu", "AOTI_PLATFORM": "linux", "AOTI_MACHINE": "x86_64", "AOTI_CPU_ISA": "AVX2"})";
        AotStudio::Bundle::zipDirectory(tree, root / "packages" / "batch4.pt2");
        std::ofstream(root / "report" / "cold_start.json") << R"({"bundle_ms": 190.0, "eager_ms": 2100.0, "runs": 3,
                  "phases": {"load_ms": {"median_ms": 150.0}, "first_run_ms": {"median_ms": 2.0}}})";
        AotStudio::Bundle::ManifestDraft d;
        d.model = "sample:mlp";
        d.torchVersion = "2.14.1+cu130";
        d.device = "cpu";
        d.inputs = nlohmann::json::array({nlohmann::json{{"shape", {4, 64}}, {"dtype", "float32"}}});
        d.outputs = d.inputs;
        d.buckets = nlohmann::json::array(
            {nlohmann::json{{"name", "batch4"}, {"batch", 4}, {"package", "packages/batch4.pt2"}}});
        d.compat = AotStudio::Bundle::makeCompat(
            {{"torch", "2.14.1+cu130"}, {"precision", "fp32"}},
            {AotStudio::Bundle::readPackageTarget(root / "packages" / "batch4.pt2")}, d.buckets, "cpu", "none");
        AotStudio::Bundle::writeManifest(root, AotStudio::Bundle::newManifest(d));

        MainWindow w;
        w.resize(1366, 728);
        w.show();
        const QString folder = QString::fromStdString(root.string());
        QVERIFY(w.openJobFolder(folder));
        QTRY_VERIFY_WITH_TIMEOUT(w.findChild<QFrame *>(QStringLiteral("resultBundle"))->isVisible(), 10000);
        QCOMPARE(text(w, "resultBundlePath"), folder);
        QCOMPARE(text(w, "resultBundleBuckets"), QStringLiteral("batch 4"));
        QVERIFY2(text(w, "resultBundleBuiltFor").contains(QLatin1String("torch 2.14")),
                 qPrintable(text(w, "resultBundleBuiltFor")));
        QVERIFY2(text(w, "resultBundleColdStart").contains(QLatin1String("190")),
                 qPrintable(text(w, "resultBundleColdStart")));
        QVERIFY2(text(w, "resultBundlePreflight").contains(QLatin1String("rtx-pro-6000-half")),
                 qPrintable(text(w, "resultBundlePreflight")));
        QVERIFY(w.findChild<QPushButton *>(QStringLiteral("resultBundleOpenFolder"))->isEnabled());
        auto *profile = w.findChild<QComboBox *>(QStringLiteral("resultBundleProfile"));
        QVERIFY(profile && profile->isEnabled());
        const int h200 = profile->findText(QStringLiteral("h200"));
        QVERIFY(h200 > 0);
        profile->setCurrentIndex(h200);
        Q_EMIT profile->activated(h200);
        QTRY_VERIFY_WITH_TIMEOUT(text(w, "resultBundlePreflight").contains(QLatin1String("h200")), 10000);
        screenshot(w, QStringLiteral("mainwindow_bundle_opened"));

        // A folder that is neither a job nor a bundle: refused by name, the view stays.
        QTemporaryDir empty;
        QVERIFY(!w.openJobFolder(empty.path()));
        if (auto *box = w.findChild<QMessageBox *>(QStringLiteral("sessionErrorBox")))
            box->close();
        QCOMPARE(text(w, "resultBundlePath"), folder);
    }

    // Issue 35 item 10: the shortcut list is read from the live actions (so it cannot drift), the
    // shipped documentation renders, Esc and Ctrl+W close secondary windows, and Alt+Down/Up step
    // through the shown job's passes.
    void helpShortcutsDocumentationAndPassStepping()
    {
        auto w = startedWindow();
        const auto list = AotStudio::Widgets::HelpWindows::shortcuts(w.get());
        const auto has = [&](const QString &what) {
            return std::any_of(list.begin(), list.end(), [&](const auto &p) { return p.second == what; });
        };
        QVERIFY(has(QStringLiteral("Next Pass")));
        QVERIFY(has(QStringLiteral("Keyboard Shortcuts")));
        QVERIFY(std::any_of(list.begin(), list.end(),
                            [](const auto &p) { return p.second.startsWith(QLatin1String("Graph: ")); }));
        for (const auto &p : list)
            QVERIFY2(!p.first.isEmpty() && !p.second.contains(QLatin1Char('&')), qPrintable(p.second));

        w->findChild<QAction *>(QStringLiteral("shortcutsAction"))->trigger();
        auto *keys = w->findChild<QWidget *>(QStringLiteral("shortcutsWindow"));
        QVERIFY(keys && keys->isVisible());
        QCOMPARE(keys->findChild<QTableView *>(QStringLiteral("shortcutsTable"))->model()->rowCount(),
                 int(list.size()));
        QVERIFY(QTest::qWaitForWindowActive(keys));
        QTest::keyClick(keys, Qt::Key_Escape);
        QTRY_VERIFY(!w->findChild<QWidget *>(QStringLiteral("shortcutsWindow")));

        // A developer build finds the checkout's Markdown.
        QVERIFY(!AotStudio::Widgets::HelpWindows::documentationFolder().isEmpty());
        w->findChild<QAction *>(QStringLiteral("documentationAction"))->trigger();
        auto *docs = w->findChild<QWidget *>(QStringLiteral("documentationWindow"));
        QVERIFY(docs);
        auto *docList = docs->findChild<QListWidget *>(QStringLiteral("documentationList"));
        QVERIFY(docList && docList->count() >= 3);
        auto *browser = docs->findChild<QTextBrowser *>(QStringLiteral("documentationBrowser"));
        QVERIFY2(browser->toPlainText().contains(QLatin1String("AOT Studio")),
                 qPrintable(browser->toPlainText().left(200)));
        docList->setCurrentRow(1);
        QVERIFY2(browser->toPlainText().contains(QLatin1String("hello")), "FORMAT.md shows the handshake");
        QVERIFY(QTest::qWaitForWindowActive(docs));
        QTest::keyClick(docs, Qt::Key_W, Qt::ControlModifier);
        QTRY_VERIFY(!w->findChild<QWidget *>(QStringLiteral("documentationWindow")));

        // Pass stepping on a compiled job.
        w->setModel(QStringLiteral("sample:mlp"));
        w->setOutputDirectory(m_out.path());
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        auto *hub = w->findChild<AotStudio::Widgets::SelectionHub *>();
        QVERIFY(hub && hub->currentJobRecord() && hub->currentJobRecord()->snapshots.size() >= 2);
        const int before = hub->currentSnapshot();
        auto *next = w->findChild<QAction *>(QStringLiteral("nextPassAction"));
        auto *previous = w->findChild<QAction *>(QStringLiteral("previousPassAction"));
        previous->trigger();
        const int stepped = hub->currentSnapshot();
        QVERIFY2(stepped >= 0 && (before < 0 || stepped == std::max(before - 1, 0)),
                 qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(stepped)));
        next->trigger();
        QCOMPARE(hub->currentSnapshot(), std::min(stepped + 1, int(hub->currentJobRecord()->snapshots.size()) - 1));
    }

    void missingEngineShowsBanner()
    {
        qputenv("AOTSTUDIO_ENGINE", "/nonexistent/aotstudio-engine");
        auto w = startedWindow();
        qputenv("AOTSTUDIO_ENGINE", AOTSTUDIO_FAKE_ENGINE);
        QTRY_VERIFY_WITH_TIMEOUT(banner(*w)->isVisible(), 5000);
        QVERIFY(text(*w, "engineBannerText").contains(QLatin1String("/nonexistent/aotstudio-engine")));
        QCOMPARE(text(*w, "engineStatus"), QStringLiteral("Engine not running"));
        screenshot(*w, QStringLiteral("mainwindow_no_engine"));
    }

    void cancelFromToolbar()
    {
        auto w = startedWindow();
        w->setModel(QStringLiteral("fake:slow"));
        w->setOutputDirectory(m_out.path());
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        QVERIFY(w->compile());
        QTRY_VERIFY_WITH_TIMEOUT(text(*w, "stageLabel").contains(QLatin1String("AOTInductor")),
                                 10000);
        screenshot(*w, QStringLiteral("mainwindow_running"));
        w->findChild<QAction *>(QStringLiteral("cancelAction"))->trigger();
        QVERIFY(finished.wait(5000));
        QCOMPARE(text(*w, "stageLabel"), QStringLiteral("Cancelled"));
        QVERIFY(!w->findChild<QMessageBox *>(QStringLiteral("compileErrorBox")));
        QVERIFY(text(*w, "resultErrorText").contains(QLatin1String("cancelled")));
        // The user's cancel is news, not an error: an info line, the box not drawn as a failure.
        const QStringList lines = log(*w).split(QLatin1Char('\n'));
        const auto cancelLine = std::find_if(lines.crbegin(), lines.crend(),
                                             [](const QString &l) { return l.contains(QLatin1String("cancel")); });
        QVERIFY(cancelLine != lines.crend());
        QVERIFY2(cancelLine->contains(QLatin1String("  info  ")) && !cancelLine->contains(QLatin1String("error")),
                 qPrintable(*cancelLine));
        QVERIFY(w->findChild<QFrame *>(QStringLiteral("resultError"))->property("cancelled").toBool());
    }

    void exportActionNeedsACompile()
    {
        auto w = startedWindow();
        auto *action = w->findChild<QAction *>(QStringLiteral("exportAction"));
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QVERIFY(!action->isEnabled()); // ready, but nothing compiled yet
        action->trigger();
        QVERIFY(!w->findChild<ExportDialog *>());

        // A failed compile does not enable it either…
        w->setModel(QStringLiteral("fake:error"));
        w->setOutputDirectory(m_out.filePath(QStringLiteral("failed")));
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        if (auto *box = w->findChild<QMessageBox *>(QStringLiteral("compileErrorBox")))
            box->close();
        QVERIFY(!action->isEnabled());
        // …a successful one does, and it exports from that compile's folder.
        const QString job = m_out.filePath(QStringLiteral("exportable"));
        w->setModel(QStringLiteral("sample:mlp"));
        w->setOutputDirectory(job);
        QVERIFY(w->compile());
        QVERIFY(!action->isEnabled()); // not while a job runs
        QVERIFY(finished.wait(10000));
        QVERIFY(action->isEnabled());
        QCOMPARE(w->lastCompileDirectory(), job);
    }

    void exportDialogValidates()
    {
        const QString job = m_out.filePath(QStringLiteral("dialogjob"));
        QVERIFY(QDir().mkpath(job));
        ExportDialog dialog(job);
        dialog.show();
        auto *out = dialog.findChild<QLineEdit *>(QStringLiteral("exportOutEdit"));
        auto *buckets = dialog.findChild<QLineEdit *>(QStringLiteral("exportBucketsEdit"));
        auto *problem = dialog.findChild<QLabel *>(QStringLiteral("exportProblem"));
        QVERIFY(out && buckets && problem);
        // Defaults.
        QCOMPARE(QDir::fromNativeSeparators(out->text()), job + QStringLiteral("-bundle"));
        QCOMPARE(buckets->text(), QStringLiteral("1,4,16"));
        QVERIFY(dialog.findChild<QCheckBox *>(QStringLiteral("exportZipCheck"))->isChecked());
        QVERIFY(!dialog.findChild<QCheckBox *>(QStringLiteral("exportPadSafeCheck"))->isChecked());
        QVERIFY(!dialog.findChild<QCheckBox *>(QStringLiteral("exportDynamicCheck"))->isChecked());
        QCOMPARE(dialog.findChild<QSpinBox *>(QStringLiteral("exportColdStartRuns"))->value(), 3);
        QVERIFY(!problem->isVisible());
        QVERIFY(okButton(dialog)->isEnabled());
        auto r = dialog.request();
        QCOMPARE(r.from, job);
        QCOMPARE(r.buckets, (QList<int>{1, 4, 16}));
        QVERIFY(!r.hasDynamicBatch());

        // Bad bucket text.
        buckets->setText(QStringLiteral("1, four, 16"));
        QVERIFY(problem->isVisible());
        QVERIFY2(problem->text().contains(QLatin1String("Batch buckets")), qPrintable(problem->text()));
        QVERIFY(!okButton(dialog)->isEnabled());
        dialog.accept(); // refused even when called directly
        QVERIFY(dialog.isVisible());
        buckets->setText(QStringLiteral("0"));
        QVERIFY(!okButton(dialog)->isEnabled());
        buckets->setText(QStringLiteral("16 4, 4,1"));
        QVERIFY(okButton(dialog)->isEnabled());
        QCOMPARE(dialog.request().buckets, (QList<int>{1, 4, 16}));

        // An existing folder is refused inline: the engine never overwrites a bundle.
        out->setText(QDir::toNativeSeparators(job));
        QVERIFY(problem->isVisible());
        QVERIFY2(problem->text().contains(QLatin1String("already exists")), qPrintable(problem->text()));
        QVERIFY(!okButton(dialog)->isEnabled());

        // The dynamic range must be ordered.
        out->setText(QDir::toNativeSeparators(job + QStringLiteral("-other")));
        QVERIFY(okButton(dialog)->isEnabled());
        dialog.findChild<QCheckBox *>(QStringLiteral("exportDynamicCheck"))->setChecked(true);
        dialog.findChild<QSpinBox *>(QStringLiteral("exportDynamicMin"))->setValue(80);
        QVERIFY(!okButton(dialog)->isEnabled());
        dialog.findChild<QSpinBox *>(QStringLiteral("exportDynamicMin"))->setValue(2);
        QVERIFY(okButton(dialog)->isEnabled());
        r = dialog.request();
        QCOMPARE(r.dynamicBatchMin, 2);
        QCOMPARE(r.dynamicBatchMax, 64);

        // The screenshot shows the problem message.
        buckets->setText(QStringLiteral("1,4,x"));
        screenshot(dialog, QStringLiteral("export_dialog"));
    }

    void exportShowsBundle()
    {
        const QString job = m_out.filePath(QStringLiteral("bundlejob"));
        auto w = compiledWindow(job);
        QVERIFY(w);
        w->findChild<QAction *>(QStringLiteral("exportAction"))->trigger();
        auto *dialog = w->findChild<ExportDialog *>();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        dialog->findChild<QCheckBox *>(QStringLiteral("exportDynamicCheck"))->setChecked(true);
        dialog->findChild<QCheckBox *>(QStringLiteral("exportPadSafeCheck"))->setChecked(true);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        QTest::mouseClick(okButton(*dialog), Qt::LeftButton);
        QVERIFY(w->findChild<QAction *>(QStringLiteral("cancelAction"))->isEnabled());
        QVERIFY(!w->findChild<QAction *>(QStringLiteral("exportAction"))->isEnabled());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(0).toBool(), true);

        const QString bundle = job + QStringLiteral("-bundle");
        QVERIFY(w->lastExport());
        QCOMPARE(w->lastExport()->bundle, bundle);
        QVERIFY(w->findChild<QFrame *>(QStringLiteral("resultBundle"))->isVisible());
        QCOMPARE(text(*w, "resultBundlePath"), bundle);
        QCOMPARE(text(*w, "resultBundleZip"), bundle + QStringLiteral(".zip"));
        QCOMPARE(text(*w, "resultBundleBuckets"),
                 QStringLiteral("batch 1, batch 4, batch 16, dynamic 1–64"));
        QCOMPARE(text(*w, "resultBundleColdStart"),
                 QStringLiteral("bundle 182 ms vs eager 2,431 ms: eager / bundle 13.3× (no interval)"));
        // The compile result stays above it.
        QCOMPARE(text(*w, "resultSpeedup"), QStringLiteral("2.38× (95% CI 2.31–2.45)"));
        QCOMPARE(text(*w, "stageLabel"), QStringLiteral("Done"));
        QVERIFY(log(*w).contains(QLatin1String("Bundle written to")));
        screenshot(*w, QStringLiteral("mainwindow_export"));

        // A second export proposes a new folder, since the first one now exists.
        w->findChild<QAction *>(QStringLiteral("exportAction"))->trigger();
        QTRY_VERIFY((dialog = w->findChild<ExportDialog *>()) && dialog->isVisible());
        QCOMPARE(QDir::fromNativeSeparators(
                     dialog->findChild<QLineEdit *>(QStringLiteral("exportOutEdit"))->text()),
                 job + QStringLiteral("-bundle-2"));
        dialog->reject();

        // A new compile replaces the result, and the bundle section with it.
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        QVERIFY(!w->findChild<QFrame *>(QStringLiteral("resultBundle"))->isVisible());
    }

    void exportErrorAndCancel()
    {
        auto w = compiledWindow(m_out.filePath(QStringLiteral("errjob")));
        QVERIFY(w);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        AotStudio::Client::ExportRequest r;
        r.from = w->lastCompileDirectory();
        r.out = m_out.filePath(QStringLiteral("fail-bundle"));
        QVERIFY(w->exportBundle(r));
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(0).toBool(), false);
        auto *box = w->findChild<QMessageBox *>(QStringLiteral("exportErrorBox"));
        QVERIFY(box);
        QCOMPARE(box->windowTitle(), QStringLiteral("Export failed"));
        const QString panel = text(*w, "resultErrorText");
        QVERIFY2(panel.contains(QLatin1String("Exporting")) && panel.contains(QLatin1String("export_failed")),
                 qPrintable(panel));
        QVERIFY2(panel.contains(QLatin1String("Writing the bundle")), qPrintable(panel));
        QVERIFY(w->statusBar()->currentMessage().contains(QLatin1String("export_failed")));
        box->close();

        r.out = m_out.filePath(QStringLiteral("slow-bundle"));
        QVERIFY(w->exportBundle(r));
        QTRY_VERIFY_WITH_TIMEOUT(text(*w, "stageLabel").contains(QLatin1String("AOTInductor")), 10000);
        QVERIFY2(text(*w, "stageLabel").contains(QLatin1String("batch1")), qPrintable(text(*w, "stageLabel")));
        w->findChild<QAction *>(QStringLiteral("cancelAction"))->trigger();
        QVERIFY(finished.wait(5000));
        QCOMPARE(text(*w, "stageLabel"), QStringLiteral("Cancelled"));
        QVERIFY(text(*w, "resultErrorText").contains(QLatin1String("cancelled")));
        // Still exportable afterwards.
        QVERIFY(w->findChild<QAction *>(QStringLiteral("exportAction"))->isEnabled());
    }

    void settingsPersist()
    {
        {
            MainWindow w;
            w.setModel(QStringLiteral("/tmp/my_model.py:factory"));
            w.saveSettings();
        }
        MainWindow w;
        QCOMPARE(w.findChild<QComboBox *>(QStringLiteral("modelCombo"))->currentText(),
                 QStringLiteral("/tmp/my_model.py:factory"));
        // The layout is kept per screen size ("window/WxH/state").
        const QSize screen = w.screen()->size();
        QVERIFY(QSettings().contains(QStringLiteral("window/%1x%2/state").arg(screen.width()).arg(screen.height())));
        QCOMPARE(MainWindow::languageSetting(), QString());
    }

    // Issue 35 item 4: View → Language applies at once: the window is made again in Chinese from
    // the same session, engine and selection (no restart), and back.
    void liveLanguageSwitch()
    {
        const auto restore = qScopeGuard([] {
            QSettings().remove(QStringLiteral("ui/language"));
            QLocale::setDefault(QLocale::c());
        });
        auto w = startedWindow();
        w->setModel(QStringLiteral("sample:mlp"));
        w->setOutputDirectory(m_out.filePath(QStringLiteral("lang")));
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        QFile package(w->lastResult()->package);
        QVERIFY(package.open(QIODevice::WriteOnly));
        package.close();
        QVERIFY(w->profile());
        QVERIFY(finished.wait(10000));
        auto *hub = w->selectionHub();
        const qint64 compileJob = w->session()->jobs().first().id;
        hub->selectJob(compileJob);
        AotStudio::Client::Session *session = w->session();
        AotStudio::Client::EngineClient *client = w->engineClient();
        const qsizetype jobCount = session->jobs().size();
        w->findChild<AotStudio::Widgets::LogView *>()->append(0, QStringLiteral("info"),
                                                              QStringLiteral("a line before the switch"));
        QCOMPARE(w->findChild<QDockWidget *>(QStringLiteral("pipelineDock"))->windowTitle(),
                 QStringLiteral("Pipeline"));
        w->findChild<QDockWidget *>(QStringLiteral("memoryDock"))->raise();

        auto *zh = w->findChild<QAction *>(QStringLiteral("languageAction_zh_CN"));
        QVERIFY(zh);
        zh->trigger();
        QTRY_COMPARE(w->findChild<QDockWidget *>(QStringLiteral("pipelineDock"))->windowTitle(),
                     QStringLiteral("流水线"));
        QCOMPARE(MainWindow::languageSetting(), QStringLiteral("zh_CN"));
        QCOMPARE(w->findChildren<QDockWidget *>().size(), 11); // made again, not added to
        QCOMPARE(w->findChild<QDockWidget *>(QStringLiteral("profileDock"))->windowTitle(), QStringLiteral("性能分析"));
        QStringList menus;
        for (QAction *top : w->menuBar()->actions())
            menus << top->text();
        QVERIFY2(menus.contains(QStringLiteral("视图(&V)")), qPrintable(menus.join(QLatin1Char('|'))));
        QCOMPARE(w->findChild<QAction *>(QStringLiteral("compileAction"))->text(), QStringLiteral("编译(&C)"));
        // The same session, engine and selection; every header in Chinese.
        QCOMPARE(w->session(), session);
        QCOMPARE(w->engineClient(), client);
        QVERIFY(client->isReady());
        QCOMPARE(session->jobs().size(), jobCount);
        QCOMPARE(hub->currentJob(), compileJob);
        const QString heading = jobView(*w, QStringLiteral("memoryDock"))->headingText();
        QVERIFY2(heading.startsWith(QStringLiteral("任务 %1 · 编译 · sample:mlp").arg(compileJob)),
                 qPrintable(heading));
        auto *jobsView = w->findChild<QTreeWidget *>(QStringLiteral("jobsView"));
        QCOMPARE(jobsView->topLevelItemCount(), int(jobCount));
        QVERIFY2(jobsView->topLevelItem(0)->text(0).startsWith(QStringLiteral("任务 ")),
                 qPrintable(jobsView->topLevelItem(0)->text(0)));
        QVERIFY2(log(*w).contains(QLatin1String("a line before the switch")), qPrintable(log(*w))); // the log kept
        QVERIFY(w->findChild<AotStudio::Widgets::ResultPanel *>()->hasResult());
        QCOMPARE(w->findChild<QComboBox *>(QStringLiteral("modelCombo"))->currentText(), QStringLiteral("sample:mlp"));
        QTRY_VERIFY(onTop(w->findChild<AotStudio::Widgets::MemoryPanel *>())); // the layout kept
        screenshot(*w, QStringLiteral("language_switched_zh_CN"));
        // The engine still takes jobs, and the new widgets follow them.
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        QCOMPARE(session->jobs().size(), jobCount + 1);
        QTRY_VERIFY(jobView(*w, QStringLiteral("pipelineDock"))
                        ->headingText()
                        .startsWith(QStringLiteral("任务 %1 ").arg(session->jobs().last().id)));

        w->setLanguage(QStringLiteral("en"));
        QTRY_COMPARE(w->findChild<QDockWidget *>(QStringLiteral("pipelineDock"))->windowTitle(),
                     QStringLiteral("Pipeline"));
        QVERIFY(jobView(*w, QStringLiteral("pipelineDock"))->headingText().startsWith(QStringLiteral("job ")));
    }

    void chineseTranslation()
    {
        QTranslator translator;
        QVERIFY(translator.load(QStringLiteral(":/i18n/aotstudio_zh_CN.qm")));
        QCoreApplication::installTranslator(&translator);
        QLocale::setDefault(QLocale(QStringLiteral("zh_CN"))); // as `aotstudio --lang zh_CN`
        {
            auto w = startedWindow();
            w->setModel(QStringLiteral("sample:mlp"));
            w->setOutputDirectory(m_out.path());
            QCOMPARE(w->findChild<QAction *>(QStringLiteral("compileAction"))->text(), QStringLiteral("编译(&C)"));
            QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
            QVERIFY(text(*w, "engineStatus").contains(QStringLiteral("引擎")));
            QSignalSpy finished(w.get(), &MainWindow::jobFinished);
            QVERIFY(w->compile());
            QVERIFY(finished.wait(10000));
            // Same number format as in English: a lowercase exponent.
            QVERIFY2(text(*w, "resultMaxAbsError").startsWith(QLatin1String("1.2e-07")),
                     qPrintable(text(*w, "resultMaxAbsError")));
            // Stage names are translated, not the engine's raw words.
            const QString lines = log(*w);
            QVERIFY2(lines.contains(QStringLiteral("使用 AOTInductor 编译")), qPrintable(lines));
            QVERIFY2(!lines.contains(QStringLiteral("阶段 load")), qPrintable(lines));
            QVERIFY2(!lines.contains(QStringLiteral("load_package")), qPrintable(lines));
            // The verification in Chinese too (its verdict composed here, not the engine's English).
            QVERIFY2(text(*w, "resultVerify").contains(QStringLiteral("通过：2 个输出与 eager 的差异在 0.001 以内")),
                     qPrintable(text(*w, "resultVerify")));
            screenshot(*w, QStringLiteral("mainwindow_result_zh_CN"));
        }
        QLocale::setDefault(QLocale::c());
        QCoreApplication::removeTranslator(&translator);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
