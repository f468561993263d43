// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engineerror.h"
#include "engineinfo.h"
#include "numericsresult.h"
#include "profileresult.h"
#include "quantizeresult.h"
#include "sweepresult.h"
#include "tuneresult.h"

#include <QDateTime>
#include <QFile>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace AotStudio::Client {

/// A measured part of a stage (`stage_done`'s `parts`): e.g. `native_build` inside `compile`.
struct StagePart
{
    QString name;
    double seconds = 0; ///< wall time, s, within the stage's
    bool operator==(const StagePart &) const = default;
};

/// A stage of a job as the engine reported it in `stage_done` (FORMAT.md).
struct StageRecord
{
    QString name;
    double seconds = 0;     ///< wall time of the stage, s
    QJsonObject artifacts;  ///< artifact name -> path on the engine's disk
    QList<StagePart> parts; ///< measured parts of it, in the engine's order
};

/**
 * A graph snapshot of a job: a graph stage entry (pass empty) or a pass that changed the graph
 * (FORMAT.md `snapshot`), or, when the engine lists it in the result's `stages`, a pass that
 * changed nothing (changed false, no path).
 */
struct SnapshotRecord
{
    QString stage;          ///< graph stage: capture, decompose, pre_grad, joint_graph, post_grad, ...
    QString pass;           ///< the pass after which it was taken; empty for a stage entry
    int nodes = 0;          ///< node count of the graph after it
    int previousNodes = -1; ///< node count of the snapshot before it in the job; -1 for the first
    QString path;           ///< snapshot JSON (core/graph/SCHEMA.md); empty when snapshots were off
    double seconds = 0;     ///< seconds since the previous snapshot (the pass's own time, roughly)
    bool changed = true;    ///< false: the pass ran and left the graph as it was
    bool graph = true;      ///< false for the fusion and codegen stages (IR text, kernels.json)
    bool reused = false;    ///< restored from the compile cache: the pass did not run in this job

    /// "post_grad · pattern_matcher" or "post_grad" for a stage entry.
    QString label() const;
    bool operator==(const SnapshotRecord &) const = default;
};

/// One line of the engine log.
struct LogRecord
{
    qint64 job = 0;     ///< request id; 0 for engine-wide lines (stderr, start-up)
    QString level;      ///< debug, info, warning, error
    QString message;
};

/// Everything the engine said about one request: the request itself, stages, snapshots, the
/// result or the error.
struct JobRecord
{
    qint64 id = 0;
    QString kind;             ///< request type: compile, export, profile, quantize
    QJsonObject request;      ///< what the studio sent (empty in recordings without it)
    /// The engine the job was sent to, from its `hello`: its target environment (empty: the
    /// studio's own) and torch version. Set when the request is sent; a later engine does not change it.
    QString target;
    QString torchVersion;
    QList<StageRecord> stages;
    QList<SnapshotRecord> snapshots;
    QString currentStage;     ///< from the last `progress`
    double fraction = 0;      ///< 0..1 from the last `progress`
    /// The last `progress` message in the UI language, led by its nested job ("[int8] ", "b4: ").
    QString progressMessage;
    QJsonObject result;       ///< the `result` object; empty until it arrives
    std::optional<EngineError> error;
    /// The result parsed once when it arrived, shared by every view: a profile job's profile, a
    /// compile job's latency view (ProfileResult::Kind::Compile); null for other kinds or when
    /// the result was refused (resultError says why).
    std::shared_ptr<const ProfileResult> profile;
    /// A quantize job's result; null for other kinds or when refused.
    std::shared_ptr<const QuantizeResult> quantize;
    /// A sweep job's result; null for other kinds.
    std::shared_ptr<const SweepResult> sweep;
    /// A numerics job's result; null for other kinds or when refused.
    std::shared_ptr<const NumericsResult> numerics;
    /// A tune job's result; null for other kinds or when refused.
    std::shared_ptr<const TuneResult> tune;
    QString resultError; ///< why the result could not be read; empty when it could (or has none)
    /// The `result` event's `wall_seconds`: the engine's time from receiving the request to
    /// sending its result, s; -1 before the result or from an engine that does not send it.
    double wallSeconds = -1;

    bool finished() const { return !result.isEmpty() || error.has_value(); }
    bool succeeded() const { return !result.isEmpty(); }
    /// The job's output folder: the result's or request's "out".
    QString outputDirectory() const;
    /// wallSeconds (kept for readers written against it).
    double engineWallSeconds() const { return wallSeconds; }
};

/// Why a session file could not be opened (missing, not a session, from a newer version).
class SessionError
{
public:
    explicit SessionError(QString message) : m_message(std::move(message)) {}
    const QString &message() const { return m_message; }

private:
    QString m_message;
};

/**
 * A session: the engine stream of one studio run (hello, progress, log, stage_done, snapshot,
 * result, error, plus the requests the studio sent) and the job folders it refers to
 * (core/client/SESSION.md). The same class is fed live, one event at a time, by the main window,
 * and by load() from a recording, so a saved session reopens without an engine exactly as it
 * was shown.
 *
 * Paths in events are paths on the engine's disk at recording time. When a session folder has
 * been moved or copied, resolvePath() maps paths under the recorded root() to the folder the
 * session file now lives in.
 */
class Session : public QObject
{
    Q_OBJECT
public:
    /// Format version written in the header line; files with a larger version are refused.
    static constexpr int FormatVersion = 1;
    /// File name suffix (with the dot) of session files, as in the MIME type's glob.
    static QString fileSuffix() { return QStringLiteral(".aotsession"); }

    explicit Session(QObject *parent = nullptr);

    /**
     * Reads a session file. A truncated last line (a crash while recording) is skipped with a
     * warning in warnings(); a file whose header names a newer format version, a file that is
     * not a session, a missing file, or a file larger than `maxBytes` (counted on the bytes read;
     * the message names the limit) throw SessionError naming the file and what to do.
     * O(lines); 10,000 events load in well under a second.
     */
    static Session *load(const QString &path, QObject *parent = nullptr, qint64 maxBytes = MaxFileBytes);
    /// Largest session file load() reads (bytes): 512 MiB. A day of compiles, profiles and
    /// quantizations records a few MiB (large data lives in the job folders); SESSION.md "Limits".
    static constexpr qint64 MaxFileBytes = qint64(512) << 20;

    /// Feeds one engine event (a JSON object of FORMAT.md) or a studio line ("sent",
    /// "studio_error"), and appends it to the recording if one is open. Unknown types are
    /// ignored, as the protocol requires.
    void apply(const QJsonObject &event);
    /// Records a request the studio sent (type compile/export/profile/quantize with its id).
    void recordRequest(const QJsonObject &request);
    /// Records a client-side failure of a job (engine died, killed after a cancel); ignored when
    /// the job has already ended (e.g. the engine's own error arrived first).
    void recordError(qint64 id, const EngineError &error);
    /// Appends a log line that is not an engine event (engine stderr, studio messages).
    void recordLog(qint64 job, const QString &level, const QString &message);

    /**
     * Starts writing this session to `path`: the header line (recorded under `root`) and then
     * every line apply() and record*() receive, flushed line by line so a crash loses at most
     * the line being written. Returns false (and records nothing) when the file cannot be
     * created; `error` then says why.
     */
    bool startRecording(const QString &path, const QString &root, QString *error = nullptr);
    /// Closes the recording (the session file stays complete and reopenable).
    void stopRecording();

    /**
     * Saves a self-contained copy into the new folder `folder`: every job's output folder copied
     * in (packages, snapshots, kernels, reports; a remote engine's files: the session's cache,
     * ArtifactStore::cacheFolderFor()) and `session.aotsession` with their paths
     * rewritten to the copies, the header's root set to `folder`. Built under a staging name
     * and renamed into place: on failure (folder exists, read-only, disk full) nothing is left
     * and `error` says what failed. Returns the new session file's path, or "" on failure.
     */
    QString saveAs(const QString &folder, QString *error = nullptr) const;
    /**
     * A session of one finished job folder written by the command line (`aotstudio-cli numerics
     * --out DIR`: numerics.json and snapshots/; `aotstudio-cli tune --out DIR`: tune.json), as if the studio had run it: the request, the
     * folder's snapshots in order and the result, so the panels show it like any job. Throws
     * SessionError naming the folder when it holds no such result or the result cannot be read.
     */
    static Session *fromJobFolder(const QString &folder, QObject *parent = nullptr);
    /**
     * A session of one `kind` job whose `result` was read from `folder` by the caller (e.g. a
     * bundle folder as an export result: ExportResult::readBundleFolder(), read off the UI
     * thread), built as fromJobFolder() builds one. Throws SessionError when the result is refused.
     */
    static Session *fromResult(const QString &folder, const QString &kind, const QJsonObject &result,
                               QObject *parent = nullptr);

    /// Number of events applied so far (loaded or live).
    int eventCount() const { return int(m_lines.size()); }

    const EngineInfo &engineInfo() const { return m_info; }
    bool hasEngineInfo() const { return m_hasInfo; }
    const QList<JobRecord> &jobs() const { return m_jobs; }
    const JobRecord *job(qint64 id) const;
    /// The most recent job of `kind` that succeeded (nullptr if none); kind empty: any kind.
    const JobRecord *latestSucceeded(const QString &kind = {}) const;
    /// The most recent compile or profile job that produced graph snapshots or kernels (quantize
    /// and export jobs hold several graphs and are skipped).
    const JobRecord *latestWithSnapshots() const;
    const QList<LogRecord> &logs() const { return m_logs; }
    /// Problems met while loading (truncated lines, unreadable lines); empty for live sessions.
    const QStringList &warnings() const { return m_warnings; }

    /// The folder the session's job folders were under when recorded ("" when unknown).
    QString root() const { return m_root; }
    void setRoot(const QString &root) { m_root = root; }
    /// The session file this session was loaded from or is recorded to ("" for none).
    QString filePath() const { return m_filePath; }
    void setFilePath(const QString &path) { m_filePath = path; }
    /// `path` as it can be opened here: under root() re-rooted to the session file's folder when
    /// the recorded one no longer exists; any other path unchanged.
    QString resolvePath(const QString &path) const;

    /// The header line of a new session file recorded under `root` (FORMAT version, time, app).
    static QJsonObject header(const QString &root);

Q_SIGNALS:
    // The studio's one consumer of engine events is the live Session (JobController, the panels
    // and the log observe it, never the EngineClient's events): each signal below comes after
    // the record it names was updated.

    /// Emitted after apply()/record*() changed job `id` (0: engine-wide, e.g. hello).
    void jobChanged(qint64 id);
    /// A job got its result or error.
    void jobFinished(qint64 id);
    void logAppended(const AotStudio::Client::LogRecord &record);
    /// A `progress` event of job `id` (JobRecord::currentStage, fraction, progressMessage).
    void progressed(qint64 id);
    /// A `stage_done` event: the stage was appended to JobRecord::stages.
    void stageFinished(qint64 id, const AotStudio::Client::StageRecord &stage);
    /// A `snapshot` event: JobRecord::snapshots[index] was appended.
    void snapshotAdded(qint64 id, int index);
    /// An `error` about no job (id 0): the engine cannot run any (its Python front end did not
    /// start). Also logged (logAppended).
    void engineError(const AotStudio::Client::EngineError &error);

private:
    void applyEvent(const QJsonObject &event);
    JobRecord &jobFor(qint64 id);
    void parseResult(JobRecord &job);
    void finishSnapshots(JobRecord &job);

    EngineInfo m_info;
    bool m_hasInfo = false;
    QList<JobRecord> m_jobs;
    QList<LogRecord> m_logs;
    QStringList m_warnings;
    QString m_root;
    QString m_filePath;
    std::unique_ptr<QFile> m_recording;
    QList<QByteArray> m_lines; ///< every applied line, compact JSON, for saveAs()
};

} // namespace AotStudio::Client
