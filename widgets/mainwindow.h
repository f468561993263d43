// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/compileresult.h"
#include "client/engineclient.h"
#include "client/exportresult.h"

#include <QMainWindow>
#include <optional>

class QAction;
class QComboBox;
class QFrame;
class QLabel;
class QLineEdit;
class QProgressBar;

namespace AotStudio::Widgets {

class LogView;
class ResultPanel;

/**
 * The studio's main window: a toolbar to pick model, device and output folder and to compile,
 * a result panel, the engine log in a dock, and the engine's state in the status bar.
 * After a successful compile, File → Export Bundle… turns its output into a deployable bundle.
 * It owns one Client::EngineClient; call startEngine() once the window is set up.
 */
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    /// Bumped whenever docks or toolbars change, so an old saved layout is not restored.
    static constexpr int LayoutVersion = 1;

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    Client::EngineClient *engineClient() const { return m_client; }

    /// The language stored in the settings: "" (follow the system), "en" or "zh_CN".
    static QString languageSetting();

    /// Where jobs without a chosen output folder go, one timestamped folder each:
    /// <generic data dir>/aotstudio/jobs (e.g. ~/.local/share/aotstudio/jobs).
    static QString jobsDirectory();

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
    /// Starts a compile job with the toolbar's settings; false if the engine is not ready or busy.
    bool compile();
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
    void createMenus();
    void restoreSettings();
    void updateActions();
    void updateEngineStatus();
    void showBanner(const QString &text);
    void setCudaAvailable(bool available, const QString &why);
    void openFactory();
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
    void finishJob(bool ok);

    void onHandshake(const Client::EngineInfo &info);
    void onProgress(qint64 id, const QString &stage, double fraction, const QString &message);
    void onStageDone(qint64 id, const QString &stage, double seconds);
    void onSnapshot(qint64 id, const QString &stage, const QString &pass, int nodes);
    void onResult(qint64 id, const QJsonObject &result);
    void onError(qint64 id, const Client::EngineError &error);
    void onEngineFailed(const QString &reason);

    enum class JobKind { Compile, Export };

    Client::EngineClient *m_client;
    QAction *m_compileAction = nullptr;
    QAction *m_exportAction = nullptr;
    QAction *m_cancelAction = nullptr;
    QAction *m_openFactoryAction = nullptr;
    QAction *m_restartAction = nullptr;
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
