// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "compilerequest.h"
#include "engineerror.h"
#include "engineinfo.h"
#include "exportrequest.h"
#include "remoteengine.h"

#include "protocol/version.h"

#include <QByteArray>
#include <QFile>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QProcess>
#include <QSet>
#include <QStringList>

namespace AotStudio::Client {

/**
 * Owns the `aotstudio-engine --serve` process and speaks protocol version 1 with it
 * (core/protocol/FORMAT.md).
 *
 * The engine is looked up, in order: setEnginePath(), the environment variable
 * `AOTSTUDIO_ENGINE`, the venv chosen in Engine → Choose Local Engine… (QSettings
 * engineVenvKey(): VENV/bin/aotstudio-engine), `aotstudio-engine` next to the application binary,
 * PATH, then defaultEngineVenv(), where installCommand() puts it. The engine is the
 * aotstudio-engine wheel (pyproject.toml), which the studio's package does not carry.
 * Every engine event becomes a typed signal. When the engine dies the client reports it with
 * engineFailed() and keeps every result it has already received (results()); restart() brings a
 * fresh engine up. Cancelling is cooperative first (a `cancel` request), then, after
 * cancelGracePeriod(), the engine is killed and restarted and the job reported as cancelled.
 */
class EngineClient : public QObject
{
    Q_OBJECT
public:
    enum class State {
        NotRunning, ///< no process (never started, stopped, or died)
        Starting,   ///< process started, waiting for `hello`
        Ready,      ///< handshake done, requests are accepted
        Failed,     ///< protocol mismatch: the process is left alone and nothing is sent
    };
    Q_ENUM(State)

    /// The protocol version this client speaks (core/protocol/version.h, shared with the engine).
    static constexpr int ProtocolVersion = Protocol::kProtocolVersion;

    explicit EngineClient(QObject *parent = nullptr);
    ~EngineClient() override;

    /// Overrides the engine lookup; an empty path restores it.
    void setEnginePath(const QString &path);
    /// Arguments appended after `--serve` (e.g. for a remote or test engine).
    void setExtraArguments(const QStringList &arguments);
    /// Runs the engine on another machine through ssh (RemoteEngine::sshArguments()); an invalid
    /// RemoteEngine (no host) goes back to a local engine. Takes effect at the next start().
    void setRemote(const RemoteEngine &remote);
    const RemoteEngine &remote() const { return m_remote; }
    bool isRemote() const { return m_remote.isValid(); }
    /**
     * Runs the engine of the target environment `name` (another torch, made by `aotstudio-cli
     * target add`; core/bundle/targets.h) instead of the studio's own; empty: the studio's own.
     * Locally the target's aotstudio-engine is started in Bundle::targetEnvironment(); over ssh the
     * remote engine gets `--target NAME` and finds the target on its machine. The engine's `hello`
     * then names the target (EngineInfo::target). Takes effect at the next start(); a target that
     * cannot be found or read is reported by engineFailed() naming it and what to do.
     */
    void setTarget(const QString &name);
    QString target() const { return m_target; }

    /// A target environment as the studio lists it (from its target.json).
    struct TargetInfo {
        QString name;
        QString torch; ///< "2.11.0+cu130"
        QString python; ///< "3.12"
        QString cuda; ///< "cu130" or "cpu"
        QString error; ///< why its target.json cannot be used; empty when it can
    };
    /// Every target in targetsDirectory(), by name (Bundle::listTargets()); reads the disk.
    static QList<TargetInfo> availableTargets();
    /// Where targets live: $AOTSTUDIO_TARGETS_DIR, else $XDG_DATA_HOME/aotstudio/targets.
    static QString targetsDirectory();
    /// How long cancel() waits for the engine to end the job before killing it; milliseconds.
    void setCancelGracePeriod(int milliseconds);
    int cancelGracePeriod() const { return m_graceMs; }
    /// Appends every line the engine writes to this `.jsonl` file (a session recording);
    /// an empty path stops recording. Returns false if the file cannot be opened.
    bool setRecordingPath(const QString &path);

    /// The engine binary that start() would run, or an empty string when none is found.
    QString resolveEnginePath() const;
    /// The QSettings key of the venv the engine is installed in (Engine → Choose Local Engine…).
    static QString engineVenvKey();
    /// The venv looked in last, and the one installCommand() makes:
    /// `$XDG_DATA_HOME/aotstudio/engine-venv` (~/.local/share/aotstudio/engine-venv).
    static QString defaultEngineVenv();
    /// `VENV/bin/aotstudio-engine`.
    static QString engineInVenv(const QString &venv);
    /// `VENV/bin/pip install aotstudio-engine==VERSION`: this version's engine into an existing venv.
    static QString pipInstallCommand(const QString &venv);
    /// The shell command that makes defaultEngineVenv() and installs this version's engine in it.
    static QString installCommand();

    State state() const { return m_state; }
    bool isReady() const { return m_state == State::Ready; }
    /// Valid after handshakeCompleted().
    const EngineInfo &engineInfo() const { return m_info; }
    /// Every `result` received since construction, by request id, across engine restarts.
    const QHash<qint64, QJsonObject> &results() const { return m_results; }
    /// Ids of requests that have not ended yet.
    QList<qint64> activeJobs() const { return m_jobs.keys(); }
    /// Lines skipped because their type is unknown, they are not JSON objects, or they are longer
    /// than maxLineBytes().
    int skippedLineCount() const { return m_skippedLines; }

    /// The longest line read from the engine's stdout or stderr (bytes): 16 MiB, the protocol's
    /// limit (FORMAT.md "Limits", Protocol::kMaxLineBytes). A longer line is dropped as it arrives,
    /// never buffered whole, and reported as a warning logMessage().
    static constexpr qsizetype DefaultMaxLineBytes = qsizetype(16) << 20;
    qsizetype maxLineBytes() const { return m_maxLineBytes; }
    /// For tests: a smaller limit (at least 1).
    void setMaxLineBytes(qsizetype bytes) { m_maxLineBytes = qMax<qsizetype>(1, bytes); }

public Q_SLOTS:
    /// Starts the engine unless it is running; failures are reported by engineFailed().
    void start();
    /// Stops the engine (if any) and starts a new one.
    void restart();
    /// Asks the engine to shut down, kills it after a short wait; does not emit engineFailed().
    void stop();

public:
    /**
     * Sends a `compile` request (queued until the handshake when the engine is starting).
     * Returns the request id (> 0), or 0 when no engine is running or the protocol mismatched.
     */
    qint64 compile(const CompileRequest &request);
    /**
     * Sends an `export` request: a bundle of packages, one per batch bucket (BUNDLE.md).
     * Like compile(): progress, then resultReceived() with the export result (see ExportResult)
     * or errorReceived(); cancel() works the same. Returns the request id, or 0.
     */
    qint64 exportBundle(const ExportRequest &request);
    /**
     * Sends any job request (`profile`, `quantize`, ... as in FORMAT.md): `body` holds the
     * request's fields; type and id are set here. Progress, result and error arrive like a
     * compile's. Returns the request id, or 0 when no engine is running.
     */
    qint64 submitJob(const QString &type, QJsonObject body);
    /// Cancels a job: `cancel` request first, kill + restart after the grace period.
    void cancel(qint64 id);
    /**
     * Sends a `read` request (FORMAT.md "read"): `length` bytes (at most 4 MiB are served) of the
     * engine-side file `path` from `offset`. The answer arrives as dataReceived() or
     * readFailed(); a read is not a job (no progress, not recorded in sessions). The engine is
     * asked to compress the slice (it may not: see `encoding`). Returns the request id, or 0
     * when the engine is not ready.
     */
    qint64 readFile(const QString &path, qint64 offset, qint64 length);

Q_SIGNALS:
    void stateChanged(AotStudio::Client::EngineClient::State state);
    void handshakeCompleted(const AotStudio::Client::EngineInfo &info);
    /// fraction: 0..1 over the whole job.
    void progress(qint64 id, const QString &stage, double fraction, const QString &message);
    /// level: debug, info, warning, error; engine stderr arrives as "debug" with id 0.
    void logMessage(qint64 id, const QString &level, const QString &message);
    /// seconds: wall time of the stage; artifacts: name -> path inside the job directory.
    void stageDone(qint64 id, const QString &stage, double seconds, const QJsonObject &artifacts);
    /// A graph snapshot inside a stage (FORMAT.md `snapshot`): graph stage (e.g. "post_grad"),
    /// the pass that changed the graph (empty for a stage entry), its node count, the snapshot
    /// JSON's path (empty when snapshots are off) and the seconds since the previous snapshot.
    void snapshotTaken(qint64 id, const QString &stage, const QString &pass, int nodes,
                       const QString &path, double seconds);
    void resultReceived(qint64 id, const QJsonObject &result);
    /// Every engine line that parsed as a JSON object, in order, before its typed signal (the
    /// raw stream a Session records and replays).
    void eventReceived(const QJsonObject &event);
    /// A job request as it was written to the engine (or queued until the handshake).
    void requestSent(const QJsonObject &request);
    /// One line the engine wrote to stderr (also reported as a debug logMessage() with id 0).
    void stderrLine(const QString &line);
    /// A problem the client itself found in the stream (a line over the protocol's limit), not
    /// an engine event; also reported as a logMessage() with id 0. The studio records it in its
    /// session.
    void clientMessage(const QString &level, const QString &message);
    void errorReceived(qint64 id, const AotStudio::Client::EngineError &error);
    /// The engine is missing, crashed, exited unexpectedly or speaks another protocol version.
    /// For a remote engine the reason names the host and the step that failed.
    void engineFailed(const QString &reason);
    /// A `data` event answering readFile() `id` (fields as in FORMAT.md; `data` still base64).
    void dataReceived(qint64 id, const QJsonObject &data);
    /// readFile() `id` failed: the engine refused it or lacks the file, or the engine went away.
    void readFailed(qint64 id, const AotStudio::Client::EngineError &error);

private:
    struct Job
    {
        QString stage;
        bool cancelRequested = false;
    };

    /// Reserves the next request id; 0 when no request can be sent now.
    qint64 nextRequestId();
    /// Sends a job request now, or queues it until the handshake.
    void submit(qint64 id, const QJsonObject &message);
    void setState(State state);
    void fail(const QString &reason);
    void send(const QJsonObject &message);
    void readStdout();
    void readStderr();
    void handleLine(const QByteArray &line);
    void handleHello(const QJsonObject &hello);
    void endJob(qint64 id);
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onProcessError(QProcess::ProcessError error);
    void escalateCancel(qint64 id);

    QProcess *m_process = nullptr;
    QString m_enginePath;
    QStringList m_extraArguments;
    RemoteEngine m_remote;
    QString m_target;
    QStringList m_stderrTail; ///< the last lines of stderr (ssh's diagnostics for a remote engine)
    QSet<qint64> m_reads;     ///< readFile() ids not answered yet
    bool m_wasReady = false;  ///< the current process completed its handshake
    State m_state = State::NotRunning;
    EngineInfo m_info;
    QByteArray m_stdoutBuffer;
    QByteArray m_stderrBuffer;
    QString m_lastStderrLine;
    QList<QJsonObject> m_pending; ///< requests written once the handshake succeeds
    QHash<qint64, Job> m_jobs;
    QHash<qint64, QJsonObject> m_results;
    qint64 m_nextId = 1;
    int m_graceMs = 5000;
    int m_skippedLines = 0;
    qsizetype m_maxLineBytes = DefaultMaxLineBytes;
    bool m_discardingStdout = false; ///< inside a line over the limit: drop bytes up to its '\n'
    bool m_discardingStderr = false;
    qsizetype m_stdoutPending = 0;   ///< bytes of the unfinished line at the end of m_stdoutBuffer
    qsizetype m_stderrPending = 0;
    bool m_expectingExit = false;
    QFile m_recording;
};

} // namespace AotStudio::Client
