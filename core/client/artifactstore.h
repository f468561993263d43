// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engineerror.h"

#include <QCryptographicHash>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>
#include <QStringList>

#include <memory>

class QSaveFile;

namespace AotStudio::Client {

class EngineClient;
class Session;
struct JobRecord;

/**
 * The one way the studio opens a job's files (graph snapshots, kernels.json and kernel sources,
 * trace.json, profile.json, quantize.json, reports): engine paths in, readable local paths out.
 *
 * When the engine shares the disk (a local engine: the normal case) a path is used as it is,
 * through the session's resolvePath() (a moved session folder), at no cost. When it does not
 * (an engine over ssh, or a folder the store is told not to read directly) the file is fetched
 * with the protocol's `read` request (FORMAT.md "Reading files") into a per-session cache folder
 * that mirrors the engine's paths (`<cache>/<engine path>`; a staging folder's name is dropped, so
 * a file fetched during a job and after it is one file). A cache file is written under a
 * temporary name (QSaveFile) and renamed into place only after its SHA-256 matches the engine's,
 * so a dropped connection or a file that changed leaves nothing half-written. A session recorded
 * against a remote engine reopens later from its cache without the engine.
 */
class ArtifactStore : public QObject
{
    Q_OBJECT
public:
    explicit ArtifactStore(QObject *parent = nullptr);
    ~ArtifactStore() override;

    /// Fetches go through this client's readFile(); nullptr: the cache and local files only.
    void setClient(EngineClient *client);
    /// Local paths are resolved through this session (relocated session folders); may be null.
    void setSession(const Session *session);
    /// Folder of the fetched files; empty (the default): cacheFolderFor() the session's file, and
    /// nothing is fetched while the session has no file.
    void setCacheFolder(const QString &folder);
    QString cacheFolder() const;
    /// The cache folder of a session file: `<name>.remote-cache/` next to `<name>.aotsession`.
    static QString cacheFolderFor(const QString &sessionFile);
    /// false: engine paths are never opened on this machine; true by default (a client that is
    /// remote, EngineClient::isRemote(), turns direct reads off whatever this says).
    void setDirectReads(bool allowed) { m_directReads = allowed; }
    bool directReads() const { return m_directReads; }
    /// Never open paths under `folder` directly, even when direct reads are on (tests: a local
    /// engine whose job folder the studio must not see).
    void addNoDirectReadFolder(const QString &folder);
    /// Most reads in flight at once (each at most 4 MiB); default 4.
    void setWindow(int reads) { m_window = qMax(1, reads); }
    /**
     * How long a transfer cut off by a lost engine (a dropped ssh link: `read` failed with
     * engine_crashed) waits for the client to connect again, ms; default 120000. Meanwhile it keeps
     * its temporary file and running SHA-256; when the client completes a new handshake it asks
     * again from the byte it had reached (the `read` request's offset), so a 24 MiB file cut off at
     * 20 MiB costs 4 MiB more, not 24. The file's size and its SHA-256 from the engine are checked
     * as for any transfer, so a file that changed meanwhile is refused, not spliced. Past the window
     * fetchFailed() says where it stopped ("byte N of M"); nothing half-written stays. 0: fail at
     * once, as before.
     */
    void setResumeWindow(int ms) { m_resumeWindowMs = qMax(0, ms); }
    /// Transfers waiting for the engine to come back (see setResumeWindow()).
    int suspendedCount() const { return int(m_suspended.size()); }
    /// Transfers resumed from their offset after a reconnect so far.
    int resumedCount() const { return m_resumed; }

    /// `enginePath` as a readable local file now (the file itself or its cache copy), or an empty
    /// string when it has to be fetched first (or cannot be had).
    QString localPath(const QString &enginePath) const;
    /// Where fetch() puts `enginePath` (whether or not it is there yet); "" without a cache folder.
    QString cachePath(const QString &enginePath) const;
    /// Whether `enginePath` is opened on this machine as it is (the engine shares the disk) rather
    /// than fetched: direct reads on, the client not remote, not under a no-direct-read folder.
    bool readsDirectly(const QString &enginePath) const;
    /// Whether fetch() of `enginePath` is under way.
    bool isFetching(const QString &enginePath) const;
    /// Files being fetched or waiting to be (fetch() and prefetch()).
    int pendingCount() const { return int(m_transfers.size()); }

    /// Makes `enginePath` available: fetched() (at once, queued, when it already is) or
    /// fetchFailed(). Repeated calls for one path share one transfer.
    void fetch(const QString &enginePath);
    /// fetch() for each path in `enginePaths`, after the fetches already asked for; paths that
    /// end in not_found are dropped without fetchFailed() (guessed names such as OUT/kernels.json).
    void prefetch(const QStringList &enginePaths);
    /**
     * fetch() and wait (a local event loop) until it lands: returns the local path, or "" with
     * `error` set (host, file and why) on failure or after `timeoutMs`. For tests, benchmarks
     * and command-line tools; widgets use fetch() and fetched().
     */
    QString fetchAndWait(const QString &enginePath, QString *error = nullptr, int timeoutMs = 120000);

    /// The files a job refers to that the studio reads (snapshots, stage artifacts and the
    /// result's files under its out folder with a text extension: .json, .csv, .txt, .py, .cpp,
    /// .md, .html, .log), plus `OUT/kernels.json`.
    static QStringList artifactsOf(const JobRecord &job);

    /// Bytes and files fetched so far (statistics for the status bar and benchmarks).
    qint64 bytesFetched() const { return m_bytesFetched; }
    int filesFetched() const { return m_filesFetched; }

Q_SIGNALS:
    /// `enginePath` is now readable at `localPath`.
    void fetched(const QString &enginePath, const QString &localPath);
    /// `enginePath` could not be fetched; `message` names the file, the host and why.
    void fetchFailed(const QString &enginePath, const QString &message);

private:
    struct Transfer;
    void startNext();
    void request(Transfer &t);
    void onData(qint64 id, const QJsonObject &data);
    void onReadFailed(qint64 id, const EngineError &error);
    /// The client completed a handshake: suspended transfers ask again from their offset.
    void resumeSuspended();
    /// The resume window of the transfer under `key` ran out: it fails with `reason`.
    void expireSuspended(const QString &key, const QString &reason);
    void finish(const QString &key, const QString &error, bool quiet = false);
    QString hostName() const;

    QPointer<EngineClient> m_client;
    QPointer<const Session> m_session;
    QString m_cacheFolder;
    bool m_directReads = true;
    int m_window = 4;
    QStringList m_noDirect;
    QHash<QString, std::shared_ptr<Transfer>> m_transfers; ///< by cache key
    QStringList m_queue;                                   ///< cache keys waiting to start
    QHash<qint64, QString> m_readIds;                      ///< read id -> cache key
    QStringList m_suspended;                               ///< cache keys cut off by a lost engine
    int m_resumeWindowMs = 120000;
    int m_resumed = 0;
    int m_inFlight = 0;
    qint64 m_bytesFetched = 0;
    int m_filesFetched = 0;
};

} // namespace AotStudio::Client
