// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/compileresult.h"
#include "client/engineclient.h"
#include "client/exportresult.h"
#include "runsettings.h"

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

namespace AotStudio::Client {
class Session;
}

namespace AotStudio::Widgets {

class GraphPanel;
class InspectorPanel;
class KernelsPanel;
class LogView;
class PipelinePanel;
class ProfilePanel;
class QuantizationPanel;
class ResultPanel;
class SweepPanel;
class SelectionHub;

/**
 * The studio's main window: a toolbar to pick model, device and output folder and to compile,
 * profile or quantize; the summary of the last result in the middle; docks for the Pipeline,
 * Graph, Inspector, Kernels, Profile, Quantization and Log panels, all following one
 * SelectionHub; the engine's state in the status bar. After a successful compile, File → Export
 * Bundle… turns its output into a deployable bundle. Everything the engine says is recorded into
 * a live Client::Session (a `.aotsession` under sessionsDirectory()); File → Open Session shows a
 * saved one without an engine. It owns one Client::EngineClient; call startEngine() once the
 * window is set up.
 */
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    /// Bumped whenever docks or toolbars change, so an old saved layout is not restored.
    static constexpr int LayoutVersion = 3;

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    Client::EngineClient *engineClient() const { return m_client; }

    /// The language stored in the settings: "" (follow the system), "en" or "zh_CN".
    static QString languageSetting();

    /// Where jobs without a chosen output folder go, one timestamped folder each:
    /// <generic data dir>/aotstudio/jobs (e.g. ~/.local/share/aotstudio/jobs).
    static QString jobsDirectory();
    /// Where live sessions are recorded: <generic data dir>/aotstudio/sessions.
    static QString sessionsDirectory();

    /// The selection hub every panel follows.
    SelectionHub *selectionHub() const { return m_hub; }
    /// The session shown: the live one, or one opened with openSession().
    Client::Session *session() const;
    /// The session recording the engine stream of this window.
    Client::Session *liveSession() const { return m_liveSession; }
    /**
     * Shows a saved session without an engine (it may be running; new jobs go back to the live
     * session). Returns false and shows why when the file is missing, truncated beyond repair
     * or from a newer format; what was shown before stays.
     */
    bool openSession(const QString &path);
    /**
     * Copies the shown session (stream and job folders) into the new folder `folder`
     * (Session::saveAs). Returns false and says why on failure; nothing half-written is left.
     */
    bool saveSessionAs(const QString &folder);
    /// Writes an HTML report with every chart as PNG and the tables as CSV into the new folder
    /// `folder` (ReportWriter). Returns false and says why on failure.
    bool exportReport(const QString &folder);
    /// The recently opened or saved session files, newest first (at most 8).
    static QStringList recentSessions();
    /// Puts the docks back where a fresh install has them.
    void resetLayout();

    void setModel(const QString &model);
    /**
     * Selects "cpu" or "cuda" as an explicit request (the command line's --device). If the engine
     * then reports no such device, the window says so in the log and the status bar and a
     * pending compileWhenReady() does not start: it never falls back to another device silently.
     */
    void setDevice(const QString &device);
    /// Output folder for the next jobs; empty = a new folder per job under the app data dir.
    void setOutputDirectory(const QString &path);
    /// Compile as soon as the engine is ready (now if it already is).
    void compileWhenReady();
    /// The last result shown, if any.
    std::optional<Client::CompileResult> lastResult() const { return m_lastResult; }
    /// The last bundle exported from lastResult(), if any.
    std::optional<Client::ExportResult> lastExport() const { return m_lastExport; }
    /// The output folder of the last successful compile (what an export starts from); empty
    /// before one.
    QString lastCompileDirectory() const { return m_lastCompileDirectory; }

public Q_SLOTS:
    void startEngine();
    void restartEngine();
    /// Engine → Connect…: asks for a remote engine (ConnectDialog) and starts it over ssh.
    void connectRemoteDialog();
    /// Runs the engine at `remote` over ssh from now on (the running engine is stopped; results
    /// received so far stay). An invalid RemoteEngine goes back to the local engine.
    void connectRemote(const AotStudio::Client::RemoteEngine &remote);
    /// Engine → Use Local Engine.
    void useLocalEngine();
    /// Starts a compile job with the toolbar's settings; false if the engine is not ready or busy.
    bool compile();
    /// Starts a profile job (eager vs compiled, kernels, memory, cold start, throughput) with the
    /// toolbar's model, device and output and the run settings; false if not ready or busy.
    bool profile();
    /// Starts a quantize job comparing the run settings' schemes; false if not ready or busy.
    bool quantize();
    /// Starts a sweep of the last compiled package across its shapes (into its folder's sweep/);
    /// false if not ready, busy, or nothing was compiled yet.
    bool sweep();
    /// Engine → Sweep a Bundle…: asks for a bundle (a folder with manifest.json, or a .zip) and
    /// sweeps it (startBundleSweep).
    void chooseBundleToSweep();
    /// Sweeps every bucket of `bundle` (a path the engine can read) across its shapes. A bundle
    /// the engine's trust policy refuses (code `untrusted`) brings up TrustDialog; "Load Anyway"
    /// calls this again with `allowUnsigned`. Returns false when no job started.
    bool startBundleSweep(const QString &bundle, bool allowUnsigned = false);
    /// Opens the run settings dialog (dtype, Inductor options, measuring, schemes).
    void showRunSettings();
    /// Opens the export dialog for the last successful compile; it starts the export on OK.
    void showExportDialog();
    /// Starts an export job; false if the engine is not ready or busy.
    bool exportBundle(const Client::ExportRequest &request);
    void cancel();
    void saveSettings() const;

Q_SIGNALS:
    /// A job ended with a result (ok) or an error, cancellation included.
    void jobFinished(bool ok);
    /// A requested compile did not start (e.g. the requested device is missing); reason says why.
    void compileBlocked(const QString &reason);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createToolBar();
    void createCentral();
    void createDocks();
    QDockWidget *addPanelDock(QWidget *panel, const QString &title, const QString &name, Qt::DockWidgetArea area);
    void connectSession();
    void showSessionResults();
    void addRecentSession(const QString &path);
    void updateRecentMenu();
    void ensureRecording();
    void openSessionDialog();
    void saveSessionDialog();
    void exportReportDialog();
    void createMenus();
    void restoreSettings();
    void updateActions();
    void updateEngineStatus();
    void showBanner(const QString &text);
    void setCudaAvailable(bool available, const QString &why);
    void openFactory();
    void openHfFolder();
    void chooseOutputDirectory();
    QString newJobDirectory() const;
    void selectDevice(const QString &device);
    /// Why `device` cannot be used with the connected engine; empty when it can.
    QString deviceUnavailableReason(const QString &device) const;
    void showFailure(const QString &message);
    /// Says in the log, the stage label and the status bar that a compile does not start because
    /// the requested device is missing (reason: the details);
    /// emits compileBlocked() when a compile was asked for.
    void refuseCompile(const QString &reason, bool compileWasRequested = true);
    void removeJobDirectoryIfEmpty();
    /// Starts the sweep `body` (package or bundle, out): back to the live session, the run
    /// settings' threads, the job's bookkeeping, `status` on the status bar and `logLine` in the log.
    bool submitSweep(QJsonObject body, const QString &model, const QString &status, const QString &logLine);
    void finishJob(bool ok);

    void onHandshake(const Client::EngineInfo &info);
    void onProgress(qint64 id, const QString &stage, double fraction, const QString &message);
    void onStageDone(qint64 id, const QString &stage, double seconds);
    void onSnapshot(qint64 id, const QString &stage, const QString &pass, int nodes);
    void onResult(qint64 id, const QJsonObject &result);
    void onError(qint64 id, const Client::EngineError &error);
    void onEngineFailed(const QString &reason);

    enum class JobKind { Compile, Export, Profile, Quantize, Sweep };
    bool startJob(JobKind kind);

    Client::EngineClient *m_client;
    QAction *m_compileAction = nullptr;
    QAction *m_exportAction = nullptr;
    QAction *m_cancelAction = nullptr;
    QAction *m_openFactoryAction = nullptr;
    QAction *m_openHfAction = nullptr;
    QAction *m_restartAction = nullptr;
    QAction *m_connectAction = nullptr;
    QAction *m_localEngineAction = nullptr;
    QAction *m_profileAction = nullptr;
    QAction *m_quantizeAction = nullptr;
    QAction *m_sweepAction = nullptr;
    QAction *m_sweepBundleAction = nullptr;
    QString m_sweptBundle; ///< the bundle of the running sweep ("" for a package sweep)
    QAction *m_settingsAction = nullptr;
    QAction *m_openSessionAction = nullptr;
    QAction *m_saveSessionAction = nullptr;
    QAction *m_reportAction = nullptr;
    QAction *m_resetLayoutAction = nullptr;
    QMenu *m_recentMenu = nullptr;
    SelectionHub *m_hub = nullptr;
    Client::Session *m_liveSession = nullptr;
    Client::Session *m_openedSession = nullptr; ///< a saved session being shown, or nullptr
    PipelinePanel *m_pipelinePanel = nullptr;
    GraphPanel *m_graphPanel = nullptr;
    InspectorPanel *m_inspectorPanel = nullptr;
    KernelsPanel *m_kernelsPanel = nullptr;
    ProfilePanel *m_profilePanel = nullptr;
    QuantizationPanel *m_quantPanel = nullptr;
    SweepPanel *m_sweepPanel = nullptr;
    QList<QDockWidget *> m_docks; ///< every panel's dock, in creation order
    QDockWidget *m_graphDock = nullptr;
    QDockWidget *m_profileDock = nullptr;
    QDockWidget *m_quantDock = nullptr;
    QDockWidget *m_sweepDock = nullptr;
    QPushButton *m_restartButton = nullptr;
    QByteArray m_defaultLayout;
    RunSettings m_runSettings;
    QComboBox *m_modelCombo = nullptr;
    QComboBox *m_deviceCombo = nullptr;
    QLineEdit *m_outputEdit = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_stageLabel = nullptr;
    QFrame *m_banner = nullptr;
    QLabel *m_bannerText = nullptr;
    ResultPanel *m_resultPanel = nullptr;
    LogView *m_log = nullptr;
    QLabel *m_engineStatus = nullptr;
    qint64 m_currentJob = 0;
    JobKind m_currentKind = JobKind::Compile;
    QString m_currentModel;
    QString m_currentOut;          ///< the running job's output folder (or bundle folder)
    QString m_lastCompileDirectory;
    QString m_jobDirectory;        ///< a folder this window made for the current job, else empty
    QString m_requestedDevice;     ///< set by setDevice(): checked against the engine's devices
    bool m_compileWhenReady = false;
    bool m_failureShown = false;   ///< the status bar names a failed job until the next action
    std::optional<Client::CompileResult> m_lastResult;
    std::optional<Client::ExportResult> m_lastExport;
};

} // namespace AotStudio::Widgets
