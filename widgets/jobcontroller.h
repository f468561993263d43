// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/compileresult.h"
#include "client/engineclient.h"
#include "client/exportresult.h"
#include "client/verifyresult.h"
#include "runsettings.h"

#include <QJsonObject>
#include <QObject>
#include <functional>
#include <optional>

class QWidget;
namespace AotStudio::Client {
class Session;
}

namespace AotStudio::Widgets {

class SessionController;

/**
 * Runs the jobs of a main window on its engine (STYLE.md "one controller owns the engine
 * process"): it owns the Client::EngineClient, starts, restarts and reconnects it, submits
 * compile, export, profile, quantize, sweep, numerics and tune jobs, follows the one running job (progress,
 * cancel, result or error) and records everything the engine says into the live session of
 * `sessions`. A bundle refused by the engine's trust policy brings up TrustDialog; the run
 * settings (RunSettingsDialog) shape every request.
 *
 * It has no widgets of its own: the window shows what it emits (progress, stage, status bar
 * messages, failures, log lines, results) and asks it what may start (canStart(), isBusy()).
 * Dialogs and error boxes open on `dialogParent`.
 */
class JobController : public QObject
{
    Q_OBJECT
public:
    enum class JobKind { Compile, Export, Profile, Quantize, Sweep, Numerics, Tune, Repro };
    Q_ENUM(JobKind)

    /// What the window's toolbar says the next job is about.
    struct Inputs {
        QString model;  ///< empty: nothing picked
        QString device; ///< "cpu" or "cuda"
        QString output; ///< the chosen output folder; empty: a new folder per job
    };

    JobController(SessionController *sessions, QWidget *dialogParent, QObject *parent = nullptr);
    ~JobController() override;

    /// Where jobs without a chosen output folder go, one timestamped folder each:
    /// <generic data dir>/aotstudio/jobs (e.g. ~/.local/share/aotstudio/jobs).
    static QString jobsDirectory();

    Client::EngineClient *client() const { return m_client; }
    /// Asked for model, device and output folder whenever a job starts.
    void setInputs(std::function<Inputs()> inputs) { m_inputs = std::move(inputs); }

    /// The engine is ready and no job is running.
    bool canStart() const { return m_client->isReady() && m_currentJob == 0; }
    /// A job is running (and can be cancelled).
    bool isBusy() const { return m_currentJob != 0; }
    /// The running job's id; 0 when none.
    qint64 currentJob() const { return m_currentJob; }
    JobKind currentKind() const { return m_currentKind; }

    /// The last compile result, if any.
    std::optional<Client::CompileResult> lastResult() const { return m_lastResult; }
    /// The last bundle exported from lastResult(), if any.
    std::optional<Client::ExportResult> lastExport() const { return m_lastExport; }
    /// The output folder of the last successful compile (what an export starts from); empty
    /// before one.
    QString lastCompileDirectory() const { return m_lastCompileDirectory; }
    const RunSettings &runSettings() const { return m_runSettings; }
    /// The folder Make Repro would reproduce (FORMAT.md "Repro"): the last compile that failed to
    /// compile or verify (compile_failed, mismatch), or the last numerics job with a divergent
    /// node; empty when none. reproCandidateText() says which, for the action's tooltip.
    QString reproCandidate() const { return m_reproCandidate; }
    QString reproCandidateText() const { return m_reproCandidateText; }
    /// Makes `folder` (a failed compile's or a numerics job's --out) the one Make Repro uses.
    void setReproCandidate(const QString &folder, const QString &text);

    /**
     * Makes `device` ("cpu", "cuda") an explicit request (the command line's --device); empty
     * drops it. If the engine then reports no such device, failed() says so and a pending
     * compileWhenReady() does not start: it never falls back to another device silently.
     */
    void setRequestedDevice(const QString &device);
    /**
     * Runs the jobs from now on in the engine of target environment `name` (empty: the studio's
     * own; EngineClient::setTarget()): a running engine is restarted into it, a remote one over
     * ssh gets `--target NAME`. Refused (false, failed() says why) while a job runs; earlier jobs
     * and their results stay, each naming the target it ran in.
     */
    bool setTarget(const QString &name);
    /// Why `device` cannot be used with the connected engine; empty when it can.
    QString deviceUnavailableReason(const QString &device) const;

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
    /// Engine → Choose Local Engine…: asks for the venv the engine wheel is installed in.
    void chooseEngineVenvDialog();
    /// Runs the local engine of `venv` (VENV/bin/aotstudio-engine) from now on, remembered in
    /// QSettings; false (and nothing changed) when that venv has no engine.
    bool useEngineVenv(const QString &venv);
    /// Engine → Forget Chosen Engine: the venv chosen with chooseEngineVenvDialog() is no longer
    /// used (removed from QSettings) and the local engine restarts from the next place
    /// EngineClient::resolveEnginePath looks. False when no venv was chosen (nothing changes).
    bool forgetEngineVenv();
    /// Compile as soon as the engine is ready (now if it already is).
    void compileWhenReady();
    /// Starts a compile job with the window's inputs; false if the engine is not ready or busy.
    bool compile();
    /// Starts a profile job (eager vs compiled, kernels, memory, cold start, throughput) with the
    /// window's inputs and the run settings; false if not ready or busy.
    bool profile();
    /// Starts a quantize job comparing the run settings' schemes; false if not ready or busy.
    bool quantize();
    /// Engine → Find Numerical Divergence: a `numerics` job of the window's model (the run settings'
    /// dtype, freezing, max-autotune and Inductor options): every node of the captured graph
    /// against a float64 reference, eager and compiled. False if not ready or busy.
    bool numerics();
    /// Engine → Tune Compile Recipe…: asks for the time budget (minutes, remembered; 10 at first)
    /// and starts tune() on OK.
    void showTuneDialog();
    /// Starts a `tune` job of the window's model: compiles under several option sets within
    /// `budgetSeconds` (no trial starts after it), the run settings' dtype, dynamic dimensions
    /// and measuring. False if not ready or busy.
    bool tune(double budgetSeconds);
    /// The tune budget the dialog offers, minutes.
    static int tuneBudgetMinutes();
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
    /// Model → Inputs…: opens InputsDialog on the window's model and device (the engine's `inputs`
    /// request); on OK its shapes (for that model) and dynamic dimensions become the run settings,
    /// saved. Says on the status bar why it does not open (no model, engine not ready).
    void showInputsDialog();
    /// Model → Capture From Script…: opens CaptureDialog (the engine's `capture` request on the
    /// user's script, the proposal's histograms); its "Compile from Capture" and "Export from
    /// Capture" start compileFromCapture() and exportFromCapture() on the window's model. Says on
    /// the status bar why it does not open (engine not ready).
    void showCaptureDialog();
    /// A compile of the window's model with `dynamic` (the capture's proposal as edited), verified
    /// on the shapes recorded in `folder` (the request's `from_capture`); false if not ready or busy.
    bool compileFromCapture(const QString &folder, const QStringList &dynamic);
    /// An export of the window's model with `buckets` (`pad_safe`, `dynamic` besides the batch) into
    /// a new job folder; the result says what share of `folder`'s recorded calls each bucket serves.
    bool exportFromCapture(const QString &folder, const QList<int> &buckets, bool padSafe, const QStringList &dynamic);
    /// Sets the shapes of `model`'s example inputs and the dynamic dimensions (the Inputs dialog's
    /// OK), saved.
    void setInputShapes(const QString &model, const QJsonObject &shapes, const QStringList &dynamic);
    /// A tune's "Use this recipe": the recipe's options (freezing, max_autotune, dtype, inductor)
    /// become the run settings of the next compile (RunSettings::applyRecipeOptions), saved.
    void applyRecipeOptions(const QJsonObject &options, const QString &name);
    /// Opens the export dialog for the last successful compile; it starts the export on OK.
    void showExportDialog();
    /// Starts an export job; false if the engine is not ready or busy.
    bool exportBundle(const AotStudio::Client::ExportRequest &request);
    /// Engine → Make Repro: a `repro` job of reproCandidate() (a standalone folder that reproduces
    /// the failure with plain torch, run once in a fresh process to confirm; progress and Cancel as
    /// every job). reproMade() follows with the record. False if not ready, busy or no candidate.
    bool makeRepro();
    /// Asks the engine to cancel the running job.
    void cancel();

Q_SIGNALS:
    /// The engine's state or where it runs changed (status bar, actions).
    void engineStateChanged();
    /// The engine answered the handshake (before a compile waiting for it starts).
    void engineConnected(const AotStudio::Client::EngineInfo &info);
    /// The engine is ready for the requested device.
    void engineReady();
    /// A restart or another engine was asked for: earlier failures and banners no longer apply.
    void engineRestarting();
    /// Something engine-wide went wrong (rich text for a banner); `stopped`: it is not running.
    void engineProblem(const QString &text, bool stopped);
    void busyChanged(bool busy);
    /// A job was submitted (the result of an earlier one no longer shows an error).
    void jobStarted(qint64 id, AotStudio::Widgets::JobController::JobKind kind);
    /// The running job's progress, 0..1.
    void progressChanged(double fraction);
    /// What the running job does now ("Starting…", a stage's name, "Done", "Cancelled", …).
    void stageChanged(const QString &text);
    /// More about the stage (a tooltip).
    void stageDetailsChanged(const QString &details);
    void statusMessage(const QString &text, int timeoutMs);
    /// Something asked for did not happen: shown until the next action.
    void failed(const QString &message);
    /// A line for the log (job 0: not about one job).
    void logMessage(qint64 job, const QString &level, const QString &message);
    void compiled(const AotStudio::Client::CompileResult &result);
    void exported(const AotStudio::Client::ExportResult &result);
    /// A profile, quantize, sweep, numerics or tune result is in the session (the panels show it
    /// through the hub).
    void resultsReady(AotStudio::Widgets::JobController::JobKind kind);
    /// A compile, profile, quantize, sweep, numerics or tune job of `model` failed or was cancelled.
    void jobFailed(const QString &model, const AotStudio::Client::EngineError &error,
                   const AotStudio::Client::VerifyFailure &failure);
    /// A repro job ended with its record (FORMAT.md "Repro": folder, reproduced true/false/null,
    /// run.line, kind; `host` the remote engine's host, empty for a local engine).
    void reproMade(const QJsonObject &record, const QString &host);
    /// What Make Repro would reproduce changed (reproCandidate()).
    void reproCandidateChanged();
    /// An export into `bundle` failed or was cancelled.
    void exportFailed(const QString &bundle, const AotStudio::Client::EngineError &error);
    /// A job ended with a result (ok) or an error, cancellation included.
    void jobFinished(bool ok);
    /// A requested compile did not start (e.g. the requested device is missing); reason says why.
    void compileBlocked(const QString &reason);

private:
    /// Starts a job of the window's model, device and output folder; `extra`: request fields
    /// beyond the run settings' (a tune's budget_seconds).
    bool startJob(JobKind kind, const QJsonObject &extra = {});
    /// A numerics or tune result arrived: the session parsed it, the panels show it.
    void finishAnalysis(qint64 id);
    /// Starts the sweep `body` (package or bundle, out): back to the live session, the run
    /// settings' threads, the job's bookkeeping, `status` on the status bar and `logLine` in the log.
    bool submitSweep(QJsonObject body, const QString &model, const QString &status, const QString &logLine);
    /// The bookkeeping and messages of a job that was just submitted.
    void jobSubmitted(JobKind kind, const QString &model, const QString &out, const QString &status,
                      const QString &logLine);
    QString newJobDirectory() const;
    /// Says in the log, the stage and the status bar that a compile does not start because the
    /// requested device is missing (reason: the details); emits compileBlocked() when a compile
    /// was asked for.
    void refuseCompile(const QString &reason, bool compileWasRequested = true);
    void removeJobDirectoryIfEmpty();
    void finishJob(bool ok);

    void onHandshake(const Client::EngineInfo &info);
    /// Session events of the running job (the live session is the one consumer of engine events).
    void onProgress(qint64 id);
    void onResult(qint64 id, const QJsonObject &result);
    void onError(qint64 id, const Client::EngineError &error);
    /// The dialog saying a job failed (not for a cancel or a dead engine, which the banner says):
    /// titled `title`; Make Repro when `reproducible` (jobfailuredialog.cpp).
    void showFailureDialog(const Client::EngineError &error, const QString &title, bool exporting, bool reproducible);
    void onEngineFailed(const QString &reason);
    /// The remote link's signals (jobcontrollerremote.cpp): reconnecting, reattached, events lost.
    void connectRemoteLink(Client::Session *live);

    SessionController *m_sessions;
    QWidget *m_dialogParent;
    Client::EngineClient *m_client;
    std::function<Inputs()> m_inputs;
    RunSettings m_runSettings;
    qint64 m_currentJob = 0;
    qint64 m_cancelledJob = 0; ///< the job the user last cancelled (its end is logged as info)
    JobKind m_currentKind = JobKind::Compile;
    QString m_currentModel;
    QString m_currentOut;      ///< the running job's output folder (or bundle folder)
    QString m_sweptBundle;     ///< the bundle of the running sweep ("" for a package sweep)
    QString m_lastCompileDirectory;
    QString m_jobDirectory;    ///< a folder made here for the current job, else empty
    QString m_requestedDevice; ///< set by setRequestedDevice(): checked against the engine's devices
    bool m_compileWhenReady = false;
    QString m_reproCandidate;
    QString m_reproCandidateText;
    std::optional<Client::CompileResult> m_lastResult;
    std::optional<Client::ExportResult> m_lastExport;
};

} // namespace AotStudio::Widgets
