// SPDX-License-Identifier: GPL-3.0-or-later
#include "artifactstore.h"

#include "engineclient.h"
#include "session.h"

#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTimer>
#include <QtEndian>

#include <functional>
#include <utility>

namespace AotStudio::Client {

namespace {

/// Bytes asked for per `read`: the engine's most (FORMAT.md: 4 MiB per `data` event).
constexpr qint64 ChunkBytes = qint64(4) << 20;

const QRegularExpression &stagingComponent()
{
    static const QRegularExpression re(QStringLiteral("/\\.partial-\\d+-staging(?=/)"));
    return re;
}

/// The engine path a file keeps after its job: clean, staging folder name dropped.
QString finalPath(const QString &enginePath)
{
    QString p = QDir::cleanPath(enginePath);
    p.remove(stagingComponent());
    return p;
}

} // namespace

struct ArtifactStore::Transfer
{
    QString asked;          ///< the engine path as first asked for (what fetched() names)
    QString enginePath;     ///< what is read (the staging path while a job runs, then the final one)
    QString cachePath;
    std::unique_ptr<QSaveFile> file;
    QCryptographicHash hash{QCryptographicHash::Sha256};
    QByteArray expectedSha; ///< hex, from the first `data`
    qint64 size = -1;       ///< the file's size (bytes) from the first `data`; -1 before
    qint64 nextOffset = 0;  ///< next byte to ask for
    qint64 written = 0;     ///< bytes written to the temporary file
    bool started = false;
    bool quiet = false;     ///< a guessed name: not_found is no failure
    int suspensions = 0;    ///< times cut off by a lost engine (the resume window's timer checks it)
};

ArtifactStore::ArtifactStore(QObject *parent)
    : QObject(parent)
{
}

ArtifactStore::~ArtifactStore() = default; // QSaveFile's destructor drops unfinished files

void ArtifactStore::setClient(EngineClient *client)
{
    if (m_client)
        m_client->disconnect(this);
    m_client = client;
    if (!client)
        return;
    connect(client, &EngineClient::dataReceived, this, &ArtifactStore::onData);
    connect(client, &EngineClient::readFailed, this, &ArtifactStore::onReadFailed);
    connect(client, &EngineClient::handshakeCompleted, this, &ArtifactStore::resumeSuspended);
}

void ArtifactStore::setSession(const Session *session)
{
    m_session = session;
}

void ArtifactStore::setCacheFolder(const QString &folder)
{
    m_cacheFolder = folder.isEmpty() ? QString() : QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
}

QString ArtifactStore::cacheFolderFor(const QString &sessionFile)
{
    // One cache per session: session files of one folder (the studio's sessions/) do not share.
    const QFileInfo info(sessionFile);
    return info.absoluteDir().filePath(info.completeBaseName() + QStringLiteral(".remote-cache"));
}

void ArtifactStore::addNoDirectReadFolder(const QString &folder)
{
    m_noDirect.append(QDir::cleanPath(QFileInfo(folder).absoluteFilePath()));
}

QString ArtifactStore::cacheFolder() const
{
    if (!m_cacheFolder.isEmpty())
        return m_cacheFolder;
    return m_session && !m_session->filePath().isEmpty() ? cacheFolderFor(m_session->filePath()) : QString();
}

QString ArtifactStore::cachePath(const QString &enginePath) const
{
    const QString folder = cacheFolder();
    if (folder.isEmpty() || enginePath.isEmpty())
        return {};
    // The engine's absolute path under the cache folder (a relative one stays inside it too).
    const QString p = finalPath(enginePath);
    return QDir::cleanPath(folder + QLatin1Char('/') + (p.startsWith(QLatin1Char('/')) ? p.mid(1) : p));
}

QString ArtifactStore::localPath(const QString &enginePath) const
{
    if (enginePath.isEmpty())
        return {};
    // A cached copy was checked against the engine's hash: it wins (a session recorded against a
    // remote engine names paths that may mean something else on this machine).
    if (const QString cached = cachePath(enginePath); !cached.isEmpty() && QFileInfo(cached).isFile())
        return cached;
    if (!readsDirectly(enginePath))
        return {};
    const QString local = m_session ? m_session->resolvePath(enginePath) : enginePath;
    if (QFileInfo(local).isFile())
        return local;
    if (enginePath.contains(stagingComponent()) && QFileInfo(finalPath(enginePath)).isFile())
        return finalPath(enginePath);
    return {};
}

bool ArtifactStore::readsDirectly(const QString &enginePath) const
{
    // A remote engine's paths name files on another machine: never open them here.
    bool direct = m_directReads && !(m_client && m_client->isRemote());
    const QString clean = QDir::cleanPath(enginePath);
    for (const QString &folder : m_noDirect)
        direct = direct && clean != folder && !clean.startsWith(folder + QLatin1Char('/'));
    return direct;
}

bool ArtifactStore::isFetching(const QString &enginePath) const
{
    return m_transfers.contains(cachePath(enginePath));
}

QString ArtifactStore::hostName() const
{
    if (m_client && m_client->isRemote())
        return m_client->remote().displayName();
    return tr("the engine");
}

void ArtifactStore::fetch(const QString &enginePath)
{
    if (enginePath.isEmpty())
        return;
    if (const QString local = localPath(enginePath); !local.isEmpty()) {
        QTimer::singleShot(0, this, [this, enginePath, local] { Q_EMIT fetched(enginePath, local); });
        return;
    }
    const QString key = cachePath(enginePath);
    QString why;
    if (readsDirectly(enginePath)) // the engine shares this disk: nothing to fetch
        why = tr("%1 does not exist.").arg(enginePath);
    else if (key.isEmpty())
        why = tr("%1 cannot be read here and this session has no cache folder.").arg(enginePath);
    else if (!m_client || !m_client->isReady())
        why = tr("%1 is not in this session's cache and no engine is connected: connect to %2 to fetch it.")
                  .arg(enginePath, hostName());
    if (!why.isEmpty()) {
        QTimer::singleShot(0, this, [this, enginePath, why] { Q_EMIT fetchFailed(enginePath, why); });
        return;
    }
    if (auto it = m_transfers.find(key); it != m_transfers.end()) {
        (*it)->quiet = false; // someone waits for it now
        if (!(*it)->started && m_queue.removeOne(key))
            m_queue.prepend(key);
        return;
    }
    auto t = std::make_shared<Transfer>();
    t->asked = enginePath;
    t->enginePath = enginePath;
    t->cachePath = key;
    m_transfers.insert(key, t);
    m_queue.prepend(key);
    startNext();
}

void ArtifactStore::prefetch(const QStringList &enginePaths)
{
    if (cacheFolder().isEmpty() || !m_client || !m_client->isReady())
        return;
    for (const QString &path : enginePaths) {
        const QString key = cachePath(path);
        if (key.isEmpty() || readsDirectly(path) || m_transfers.contains(key) || !localPath(path).isEmpty())
            continue;
        auto t = std::make_shared<Transfer>();
        t->asked = path;
        t->enginePath = path;
        t->cachePath = key;
        t->quiet = true;
        m_transfers.insert(key, t);
        m_queue.append(key);
    }
    startNext();
}

QString ArtifactStore::fetchAndWait(const QString &enginePath, QString *error, int timeoutMs)
{
    if (const QString local = localPath(enginePath); !local.isEmpty())
        return local;
    const QString key = cachePath(enginePath);
    QEventLoop loop;
    QString result, failure = tr("%1: fetching %2 timed out after %3 s.").arg(hostName(), enginePath).arg(timeoutMs / 1000.0);
    const auto same = [this, key, enginePath](const QString &path) {
        return key.isEmpty() ? path == enginePath : cachePath(path) == key;
    };
    const auto ok = connect(this, &ArtifactStore::fetched, &loop, [&](const QString &path, const QString &local) {
        if (same(path)) {
            result = local;
            failure.clear();
            loop.quit();
        }
    });
    const auto bad = connect(this, &ArtifactStore::fetchFailed, &loop, [&](const QString &path, const QString &message) {
        if (same(path)) {
            failure = message;
            loop.quit();
        }
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    fetch(enginePath);
    loop.exec();
    disconnect(ok);
    disconnect(bad);
    if (error)
        *error = failure;
    return result;
}

void ArtifactStore::startNext()
{
    while (m_inFlight < m_window && !m_queue.isEmpty()) {
        const QString key = m_queue.takeFirst();
        const auto t = m_transfers.value(key);
        if (!t || t->started)
            continue;
        t->started = true;
        request(*t);
    }
}

void ArtifactStore::request(Transfer &t)
{
    // Before the size is known only the first slice (it brings size and hash); then a window.
    while (m_inFlight < m_window && (t.size < 0 ? t.nextOffset == 0 : t.nextOffset < t.size)) {
        const qint64 id = m_client ? m_client->readFile(t.enginePath, t.nextOffset, ChunkBytes) : 0;
        if (id == 0) {
            finish(t.cachePath, tr("%1: fetching %2 failed: the engine is not connected.").arg(hostName(), t.asked));
            return;
        }
        m_readIds.insert(id, t.cachePath);
        ++m_inFlight;
        t.nextOffset += ChunkBytes;
        if (t.size < 0)
            break;
    }
}

void ArtifactStore::onData(qint64 id, const QJsonObject &data)
{
    const auto keyIt = m_readIds.constFind(id);
    if (keyIt == m_readIds.constEnd())
        return; // another store's read
    const QString key = *keyIt;
    m_readIds.erase(keyIt);
    --m_inFlight;
    const auto t = m_transfers.value(key);
    if (!t) { // ended (failed) while this slice travelled
        startNext();
        return;
    }
    const qint64 offset = data.value(QLatin1String("offset")).toInteger(-1);
    const qint64 size = data.value(QLatin1String("size")).toInteger(-1);
    const qint64 length = data.value(QLatin1String("length")).toInteger(-1);
    auto decoded = QByteArray::fromBase64Encoding(data.value(QLatin1String("data")).toString().toLatin1(),
                                                  QByteArray::AbortOnBase64DecodingErrors);
    if (decoded && data.value(QLatin1String("encoding")).toString() == QLatin1String("zlib")) {
        // qUncompress() takes zlib data behind the uncompressed size (4 bytes, big-endian).
        QByteArray packed(4, '\0');
        qToBigEndian(quint32(qMax<qint64>(length, 0)), packed.data());
        decoded.decoded = qUncompress(packed + decoded.decoded);
    } else if (decoded && data.contains(QLatin1String("encoding"))) {
        decoded.decodingStatus = QByteArray::Base64DecodingStatus::IllegalInputLength; // an encoding we do not know
    }
    const QString failed = tr("%1: fetching %2 failed: %3").arg(hostName(), t->asked);
    if (!decoded || decoded.decoded.size() != length || offset != t->written) {
        finish(key, failed.arg(tr("a slice arrived damaged or out of order.")));
        return;
    }
    if (t->size < 0) {
        t->size = size;
        t->expectedSha = data.value(QLatin1String("sha256")).toString().toLatin1();
        if (!QDir().mkpath(QFileInfo(t->cachePath).absolutePath())) {
            finish(key, failed.arg(tr("cannot create the cache folder %1.").arg(QFileInfo(t->cachePath).absolutePath())));
            return;
        }
        t->file = std::make_unique<QSaveFile>(t->cachePath);
        if (!t->file->open(QIODevice::WriteOnly)) {
            finish(key, failed.arg(tr("cannot write %1: %2").arg(t->cachePath, t->file->errorString())));
            return;
        }
    } else if (size != t->size) {
        finish(key, failed.arg(tr("the file changed on the engine's machine while it was read.")));
        return;
    }
    if (t->file->write(decoded.decoded) != decoded.decoded.size()) {
        finish(key, failed.arg(tr("cannot write %1: %2").arg(t->cachePath, t->file->errorString())));
        return;
    }
    t->hash.addData(decoded.decoded);
    t->written += decoded.decoded.size();
    if (t->written >= t->size) {
        if (t->hash.result().toHex() != t->expectedSha) {
            finish(key, failed.arg(tr("its SHA-256 does not match the engine's (the file changed or was damaged on the way); "
                                      "nothing was kept.")));
            return;
        }
        if (!t->file->commit()) {
            finish(key, failed.arg(tr("cannot write %1: %2").arg(t->cachePath, t->file->errorString())));
            return;
        }
        m_bytesFetched += t->size;
        ++m_filesFetched;
        finish(key, QString());
        return;
    }
    request(*t);
    startNext();
}

void ArtifactStore::onReadFailed(qint64 id, const EngineError &error)
{
    const auto keyIt = m_readIds.constFind(id);
    if (keyIt == m_readIds.constEnd())
        return;
    const QString key = *keyIt;
    m_readIds.erase(keyIt);
    --m_inFlight;
    const auto t = m_transfers.value(key);
    if (!t) {
        startNext();
        return;
    }
    // A live job's staging folder is gone once the job ended: the file is at its final place.
    if (error.code == QLatin1String("not_found") && t->written == 0 && t->enginePath.contains(stagingComponent())) {
        t->enginePath = finalPath(t->enginePath);
        t->nextOffset = 0;
        request(*t);
        return;
    }
    // A transfer cut off by a lost engine (a dropped link) waits for the reconnect with what it
    // has, then asks again from there. Slices already asked for beyond `written` are asked again.
    if (error.code == QLatin1String("engine_crashed") && m_resumeWindowMs > 0 && t->started) {
        t->nextOffset = t->written;
        if (!m_suspended.contains(key)) {
            m_suspended.append(key);
            const int suspension = ++t->suspensions;
            const QString why = tr("%1: fetching %2 failed: %3 The transfer stopped at byte %4 of %5 and the engine did not "
                                   "come back within %6 s; nothing was kept.")
                                    .arg(hostName(), t->asked, error.message)
                                    .arg(t->written)
                                    .arg(t->size < 0 ? tr("an unknown size") : QString::number(t->size))
                                    .arg(m_resumeWindowMs / 1000);
            QTimer::singleShot(m_resumeWindowMs, this, [this, key, why, suspension] {
                const auto still = m_transfers.value(key);
                if (still && still->suspensions == suspension)
                    expireSuspended(key, why);
            });
        }
        startNext();
        return;
    }
    // A prefetch cut off by a lost engine is no news of its own: the client reports the loss.
    finish(key, tr("%1: fetching %2 failed: %3").arg(hostName(), t->asked, error.message),
           t->quiet && (error.code == QLatin1String("not_found") || error.code == QLatin1String("engine_crashed")));
}

void ArtifactStore::resumeSuspended()
{
    const QStringList keys = std::exchange(m_suspended, {});
    for (const QString &key : keys) {
        const auto t = m_transfers.value(key);
        if (!t)
            continue;
        // Only slices of this transfer still travelling on the new connection would be in the
        // way; on a new engine there are none.
        ++m_resumed;
        request(*t);
    }
}

void ArtifactStore::expireSuspended(const QString &key, const QString &reason)
{
    if (m_suspended.removeOne(key))
        finish(key, reason);
}

void ArtifactStore::finish(const QString &key, const QString &error, bool quiet)
{
    const auto t = m_transfers.take(key);
    m_queue.removeOne(key);
    m_suspended.removeOne(key);
    if (t) {
        if (!error.isEmpty() && t->file)
            t->file->cancelWriting(); // the temporary file goes; nothing half-written stays
        t->file.reset();
        if (error.isEmpty())
            Q_EMIT fetched(t->asked, t->cachePath);
        else if (!quiet)
            Q_EMIT fetchFailed(t->asked, error);
    }
    startNext();
}

QStringList ArtifactStore::artifactsOf(const JobRecord &job)
{
    static const QStringList textSuffixes{QStringLiteral("json"), QStringLiteral("csv"), QStringLiteral("txt"),
                                          QStringLiteral("py"),   QStringLiteral("cpp"), QStringLiteral("md"),
                                          QStringLiteral("html"), QStringLiteral("log")};
    QStringList paths;
    const auto add = [&paths](const QString &p) {
        if (!p.isEmpty() && !paths.contains(p))
            paths << p;
    };
    for (const auto &s : job.snapshots)
        add(s.path);
    const QString out = QDir::cleanPath(job.outputDirectory());
    const auto underOut = [&out](const QString &p) {
        return !out.isEmpty() && finalPath(p).startsWith(out + QLatin1Char('/'));
    };
    for (const auto &stage : job.stages) {
        for (const QJsonValue &v : stage.artifacts) {
            if (v.isString() && underOut(v.toString()) && textSuffixes.contains(QFileInfo(v.toString()).suffix()))
                add(v.toString());
        }
    }
    // Every file the result names under the job's out folder (kernels, profile, trace, quantize
    // results and their schemes' files).
    const std::function<void(const QJsonValue &)> walk = [&](const QJsonValue &v) {
        if (v.isString()) {
            const QString s = v.toString();
            if (s.startsWith(QLatin1Char('/')) && underOut(s) && textSuffixes.contains(QFileInfo(s).suffix()))
                add(s);
        } else if (v.isArray()) {
            for (const QJsonValue &e : v.toArray())
                walk(e);
        } else if (v.isObject()) {
            for (const QJsonValue &e : v.toObject())
                walk(e);
        }
    };
    walk(job.result);
    if (!out.isEmpty())
        add(out + QStringLiteral("/kernels.json"));
    return paths;
}

} // namespace AotStudio::Client
