// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jobcontroller.h"
#include "jobview.h"
#include "sessioncontroller.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <optional>

class QAction;
class QComboBox;
class QDockWidget;
class QFrame;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QPushButton;
class QTimer;

namespace AotStudio::Client {
class Session;
}

namespace AotStudio::Widgets {

class CompareView;
class GraphPanel;
class InspectorPanel;
class JobsPanel;
class KernelsPanel;
class MemoryPanel;
class LogView;
class PipelinePanel;
class ProfilePanel;
class QuantizationPanel;
class ResultPanel;
class SweepPanel;
class TunePanel;
class SelectionHub;

/**
 * The studio's main window: a toolbar to pick model, device and output folder and to compile,
 * profile or quantize; the summary of the last result in the middle; docks for the Pipeline,
 * Graph, Inspector, Kernels, Profile, Quantization, Sweep, Tune and Log panels, all following one
 * SelectionHub; the engine's state in the status bar. After a successful compile, File → Export
 * Bundle… turns its output into a deployable bundle. File → Open Session shows a saved session
 * without an engine.
 *
 * The window builds menus, toolbars, docks and the status bar and wires them to two controllers:
 * JobController (the engine and its jobs) and SessionController (the sessions shown, recorded
 * and saved). Call startEngine() once the window is set up.
 */
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    /// Bumped whenever docks or toolbars change, so an old saved layout is not restored.
    static constexpr int LayoutVersion = 6;

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// The engine and its jobs.
    JobController *jobs() const { return m_jobs; }
    /// The sessions shown, recorded and saved.
    SessionController *sessions() const { return m_sessions; }
    Client::EngineClient *engineClient() const { return m_jobs->client(); }

    /// The language stored in the settings: "" (follow the system), "en" or "zh_CN".
    static QString languageSetting();
    /// View → Language: stores `code` ("" the system's, "en", "zh_CN") and switches to it at once
    /// (Language::install(), then rebuildWidgets()): the session, its jobs, the engine and the
    /// selection stay open.
    void setLanguage(const QString &code);

    /// The selection hub every panel follows.
    SelectionHub *selectionHub() const { return m_hub; }
    /// The session shown: the live one, or one opened with openSession().
    Client::Session *session() const { return m_sessions->session(); }
    /// The session recording the engine stream of this window.
    Client::Session *liveSession() const { return m_sessions->liveSession(); }
    /// SessionController::openSession().
    bool openSession(const QString &path) { return m_sessions->openSession(path); }
    /// SessionController::openJobFolder(): a numerics job folder of the command line.
    bool openJobFolder(const QString &folder) { return m_sessions->openJobFolder(folder); }
    /// SessionController::saveSessionAs().
    bool saveSessionAs(const QString &folder) { return m_sessions->saveSessionAs(folder); }
    /// Writes an HTML report with every chart as PNG and the tables as CSV into the new folder
    /// `folder` (ReportWriter). Returns false and says why on failure.
    bool exportReport(const QString &folder);
    /// Puts the docks back where a fresh install has them.
    void resetLayout();
    /**
     * Opens a compare window for the job folders `a` and `b` (File → Compare With…) and starts
     * the comparison (CompareView::compareFolders); the window deletes itself when closed.
     */
    CompareView *compareJobs(const QString &a, const QString &b);

    void setModel(const QString &model);
    /**
     * Selects "cpu" or "cuda" as an explicit request (the command line's --device). If the engine
     * then reports no such device, the window says so in the log and the status bar and a
     * pending compileWhenReady() does not start: it never falls back to another device silently.
     */
    void setDevice(const QString &device);
    /// Runs jobs in the engine of target environment `name` (empty: the studio's own) and shows it
    /// in the toolbar's Target selector (JobController::setTarget(); refused while a job runs).
    void setTarget(const QString &name);
    /// Output folder for the next jobs; empty = a new folder per job under the app data dir.
    void setOutputDirectory(const QString &path);
    /// JobController::compileWhenReady().
    void compileWhenReady() { m_jobs->compileWhenReady(); }
    /// JobController::lastResult().
    std::optional<Client::CompileResult> lastResult() const { return m_jobs->lastResult(); }
    /// JobController::lastExport().
    std::optional<Client::ExportResult> lastExport() const { return m_jobs->lastExport(); }
    /// JobController::lastCompileDirectory().
    QString lastCompileDirectory() const { return m_jobs->lastCompileDirectory(); }

public Q_SLOTS:
    void startEngine() { m_jobs->startEngine(); }
    /// JobController::connectRemote().
    void connectRemote(const AotStudio::Client::RemoteEngine &remote) { m_jobs->connectRemote(remote); }
    /// JobController::compile(): with the toolbar's model, device and output folder.
    bool compile() { return m_jobs->compile(); }
    /// JobController::profile().
    bool profile() { return m_jobs->profile(); }
    /// JobController::sweep().
    bool sweep() { return m_jobs->sweep(); }
    /// JobController::startBundleSweep().
    bool startBundleSweep(const QString &bundle, bool allowUnsigned = false)
    {
        return m_jobs->startBundleSweep(bundle, allowUnsigned);
    }
    /// JobController::exportBundle().
    bool exportBundle(const AotStudio::Client::ExportRequest &request) { return m_jobs->exportBundle(request); }
    void saveSettings() const;

Q_SIGNALS:
    /// A job ended with a result (ok) or an error, cancellation included.
    void jobFinished(bool ok);
    /// A requested compile did not start (e.g. the requested device is missing); reason says why.
    void compileBlocked(const QString &reason);

protected:
    void closeEvent(QCloseEvent *event) override;
    /// LanguageChange: rebuildWidgets() once the new translator is in.
    void changeEvent(QEvent *event) override;

private:
    /// Actions, toolbars, the central result panel, docks, menus and the status bar, wired to
    /// the controllers and the hub.
    void createWidgets();
    /**
     * A live language switch (issue 35): every widget of the window made again in the language
     * now installed, from the same controllers and hub, so the session, the engine, its jobs and
     * the selection stay as they are, and so do the layout, the toolbar's inputs and the log.
     * One mechanism for every string: no widget needs a retranslate function of its own.
     */
    void rebuildWidgets();
    void createActions();
    void createToolBar();
    void createCentral();
    void createDocks();
    void connectControllers();
    /// A dock of the session (Jobs, Log): `panel` as it is.
    QDockWidget *addPanelDock(QWidget *panel, const QString &title, const QString &name, Qt::DockWidgetArea area);
    /// A dock of one job: `panel` headed by the hub's selected job (JobView; `accepts` and
    /// `shows` as there), every such dock through this one mechanism.
    QDockWidget *addJobDock(QWidget *panel, const QString &title, const QString &name, Qt::DockWidgetArea area,
                            JobView::Accepts accepts = {}, const char *shows = nullptr);
    /// The result panel follows the selected job: a compile's result, an export's bundle, a
    /// failure's error box.
    void showSelectedJob();
    void showSessionResults();
    /// What an opened session ran: the toolbar and the summary follow it.
    void showOpenedSession(Client::Session *session);
    void updateRecentMenu();
    void exportReportDialog();
    /// File → Compare With…: the current job (or a folder) against another job of the session or a folder.
    void compareWithDialog();
    void createMenus();
    void restoreSettings();
    /// "WIDTHxHEIGHT" of the window's screen: the settings key the geometry and dock layout are
    /// saved under (one layout per screen size).
    QString screenSizeKey() const;
    void updateActions();
    /// A repro job's record (JobController::reproMade): where the folder is, whether it
    /// reproduced, with "Open Folder" for a local engine.
    void showRepro(const QJsonObject &record, const QString &host);
    /// The running (else last) job's wall time in the progress row.
    void showElapsed();
    void updateEngineStatus();
    void showBanner(const QString &text);
    void setCudaAvailable(bool available, const QString &why);
    void openFactory();
    void openHfFolder();
    void chooseOutputDirectory();
    void selectDevice(const QString &device);
    /// View → Next/Previous Pass: the snapshot `step` after (before) the shown one in the shown job.
    void stepPass(int step);
    /// Reads the targets again (EngineClient::availableTargets()) into the Target selector.
    void populateTargets();
    void selectTarget(const QString &name);
    /// Shows `message` in the status bar until the next action.
    void showFailure(const QString &message);

    SelectionHub *m_hub = nullptr;
    SessionController *m_sessions = nullptr;
    JobController *m_jobs = nullptr;
    QAction *m_compileAction = nullptr;
    QAction *m_exportAction = nullptr;
    QAction *m_cancelAction = nullptr;
    QAction *m_openFactoryAction = nullptr;
    QAction *m_openHfAction = nullptr;
    QAction *m_restartAction = nullptr;
    QAction *m_connectAction = nullptr;
    QAction *m_localEngineAction = nullptr;
    QAction *m_forgetEngineAction = nullptr;
    QAction *m_chooseEngineAction = nullptr;
    QAction *m_profileAction = nullptr;
    QAction *m_quantizeAction = nullptr;
    QAction *m_sweepAction = nullptr;
    QString m_sweepToolTip;  ///< the sweep's own tooltip (a regional compile replaces it with why it is off)
    QString m_exportToolTip; ///< the same for Export Bundle
    QAction *m_sweepBundleAction = nullptr;
    QAction *m_numericsAction = nullptr;
    QAction *m_reproAction = nullptr; ///< Engine → Make Repro (JobController::makeRepro)
    QAction *m_tuneAction = nullptr;
    QAction *m_settingsAction = nullptr;
    QAction *m_inputsAction = nullptr;
    QAction *m_openSessionAction = nullptr;
    QAction *m_saveSessionAction = nullptr;
    QAction *m_reportAction = nullptr;
    QAction *m_compareAction = nullptr;
    QAction *m_openJobFolderAction = nullptr;
    QAction *m_resetLayoutAction = nullptr;
    QMenu *m_recentMenu = nullptr;
    PipelinePanel *m_pipelinePanel = nullptr;
    GraphPanel *m_graphPanel = nullptr;
    JobsPanel *m_jobsPanel = nullptr;
    InspectorPanel *m_inspectorPanel = nullptr;
    KernelsPanel *m_kernelsPanel = nullptr;
    MemoryPanel *m_memoryPanel = nullptr;
    ProfilePanel *m_profilePanel = nullptr;
    QuantizationPanel *m_quantPanel = nullptr;
    SweepPanel *m_sweepPanel = nullptr;
    TunePanel *m_tunePanel = nullptr;
    QList<QDockWidget *> m_docks; ///< every panel's dock, in creation order
    QDockWidget *m_graphDock = nullptr;
    QDockWidget *m_profileDock = nullptr;
    QDockWidget *m_quantDock = nullptr;
    QDockWidget *m_sweepDock = nullptr;
    QDockWidget *m_tuneDock = nullptr;
    QPushButton *m_restartButton = nullptr;
    QByteArray m_defaultLayout;
    QComboBox *m_modelCombo = nullptr;
    QComboBox *m_deviceCombo = nullptr;
    QComboBox *m_targetCombo = nullptr;
    QLineEdit *m_outputEdit = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_stageLabel = nullptr;
    QLabel *m_elapsedLabel = nullptr; ///< the running job's wall time
    QTimer *m_elapsedTick = nullptr;
    QElapsedTimer m_elapsed;
    QFrame *m_banner = nullptr;
    QLabel *m_bannerText = nullptr;
    ResultPanel *m_resultPanel = nullptr;
    JobView *m_resultView = nullptr; ///< the result panel headed by the selected job
    LogView *m_log = nullptr;
    QLabel *m_engineStatus = nullptr;
    bool m_failureShown = false;
    bool m_rebuildPending = false; ///< a LanguageChange's rebuildWidgets() is queued ///< the status bar names a failed job until the next action
};

} // namespace AotStudio::Widgets
