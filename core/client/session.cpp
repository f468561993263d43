// SPDX-License-Identifier: GPL-3.0-or-later
#include "session.h"

#include "enginetext.h"

#include "artifactstore.h"
#include "readlimit.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QSet>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStorageInfo>

#include <cerrno>

namespace AotStudio::Client {

namespace {
QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}
} // namespace

QString SnapshotRecord::label() const
{
    return pass.isEmpty() ? stage : stage + QStringLiteral(" · ") + pass;
}

QString JobRecord::outputDirectory() const
{
    const QString out = str(result, "out");
    return out.isEmpty() ? str(request, "out") : out;
}

Session::Session(QObject *parent)
    : QObject(parent)
{
}

QJsonObject Session::header(const QString &root)
{
    return QJsonObject{{QLatin1String("type"), QLatin1String("session")},
                       {QLatin1String("format"), QLatin1String("aotstudio-session")},
                       {QLatin1String("version"), FormatVersion},
                       {QLatin1String("root"), root},
                       {QLatin1String("created"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
                       {QLatin1String("studio_version"), QCoreApplication::applicationVersion()}};
}

Session *Session::fromJobFolder(const QString &folder, QObject *parent)
{
    const QDir dir(folder);
    const auto fail = [&](const QString &why) {
        return SessionError(QCoreApplication::translate("AotStudio::Client::Session", "%1 cannot be opened: %2")
                                .arg(QDir::toNativeSeparators(folder), why));
    };
    // The results a folder of the command line may hold, with the request type each answers.
    const std::pair<QLatin1String, QLatin1String> kinds[] = {{QLatin1String("numerics.json"), QLatin1String("numerics")},
                                                             {QLatin1String("tune.json"), QLatin1String("tune")}};
    QString file, kind;
    for (const auto &[name, type] : kinds)
        if (dir.exists(name)) {
            file = dir.filePath(name);
            kind = type;
            break;
        }
    if (file.isEmpty())
        throw fail(QCoreApplication::translate("AotStudio::Client::Session",
                                               "it holds no numerics.json or tune.json (the folder of aotstudio-cli numerics or tune --out)."));
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly))
        throw fail(in.errorString());
    const QByteArray data = readAtMost(in, MaxFileBytes);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        throw fail(QCoreApplication::translate("AotStudio::Client::Session", "%1 is not a JSON object (%2).")
                       .arg(QFileInfo(file).fileName(), error.errorString()));
    return fromResult(folder, kind, doc.object(), parent);
}

Session *Session::fromResult(const QString &folder, const QString &kind, const QJsonObject &result, QObject *parent)
{
    const QDir dir(folder);
    const auto fail = [&](const QString &why) {
        return SessionError(QCoreApplication::translate("AotStudio::Client::Session", "%1 cannot be opened: %2")
                                .arg(QDir::toNativeSeparators(folder), why));
    };
    auto session = std::make_unique<Session>(parent);
    session->m_root = dir.absolutePath();
    constexpr qint64 id = 1;
    QJsonObject request{{QLatin1String("type"), kind}, {QLatin1String("id"), id},
                        {QLatin1String("out"), dir.absolutePath()}};
    for (const char *key : {"model", "device", "dtype"})
        if (result.contains(QLatin1String(key)))
            request.insert(QLatin1String(key), result.value(QLatin1String(key)));
    session->recordRequest(request);
    // The snapshots in file order (NNN_stage[_pass].json), each announced as the engine does.
    const QDir snapshots(dir.filePath(QStringLiteral("snapshots")));
    for (const QString &name : snapshots.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QFile snap(snapshots.filePath(name));
        if (!snap.open(QIODevice::ReadOnly))
            continue;
        const QJsonObject head = QJsonDocument::fromJson(readAtMost(snap, MaxFileBytes)).object();
        if (head.value(QLatin1String("schema")).toString() != QLatin1String("aotstudio.graph"))
            continue;
        session->apply(QJsonObject{{QLatin1String("type"), QLatin1String("snapshot")},
                                   {QLatin1String("id"), id},
                                   {QLatin1String("stage"), head.value(QLatin1String("stage"))},
                                   {QLatin1String("pass"), head.value(QLatin1String("pass"))},
                                   {QLatin1String("nodes"), head.value(QLatin1String("node_count"))},
                                   {QLatin1String("path"), snapshots.absoluteFilePath(name)}});
    }
    session->apply(QJsonObject{
        {QLatin1String("type"), QLatin1String("result")}, {QLatin1String("id"), id}, {QLatin1String("result"), result}});
    const JobRecord *job = session->job(id);
    if (job && !job->resultError.isEmpty())
        throw fail(job->resultError);
    return session.release();
}

Session *Session::load(const QString &path, QObject *parent, qint64 maxBytes)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw SessionError(QCoreApplication::translate("AotStudio::Client::Session",
                                                       "Cannot open the session file %1: %2.")
                               .arg(QDir::toNativeSeparators(path), file.errorString()));
    // At most maxBytes + 1 bytes are read, whatever size the file claims.
    const QByteArray data = readAtMost(file, maxBytes);
    if (data.size() > maxBytes)
        throw SessionError(QCoreApplication::translate("AotStudio::Client::Session",
                                                       "%1 is larger than %2 MiB, the limit for a session file; "
                                                       "it was not read. Is it a session saved by the studio?")
                               .arg(QDir::toNativeSeparators(path))
                               .arg(double(maxBytes) / double(1 << 20), 0, 'g', 4));
    const QList<QByteArray> lines = data.split('\n');
    auto session = std::make_unique<Session>();
    session->m_filePath = QFileInfo(path).absoluteFilePath();
    bool headerSeen = false;
    int lineNo = 0;
    const bool endsWithNewline = data.endsWith('\n');
    for (const QByteArray &raw : lines) {
        ++lineNo;
        const QByteArray line = raw.trimmed();
        if (line.isEmpty())
            continue;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            if (!headerSeen)
                throw SessionError(QCoreApplication::translate("AotStudio::Client::Session",
                                                               "%1 is not an AOT Studio session: its first line is "
                                                               "not a session header. Open a .aotsession file "
                                                               "saved by the studio.")
                                       .arg(QDir::toNativeSeparators(path)));
            const bool last = lineNo == lines.size() || (lineNo == lines.size() - 1 && endsWithNewline);
            session->m_warnings.append(
                last ? QCoreApplication::translate("AotStudio::Client::Session",
                                                   "The session file ends in a truncated line (line %1); "
                                                   "everything before it was loaded.")
                           .arg(lineNo)
                     : QCoreApplication::translate("AotStudio::Client::Session",
                                                   "Line %1 of the session file is not JSON and was skipped.")
                           .arg(lineNo));
            continue;
        }
        const QJsonObject o = doc.object();
        if (!headerSeen) {
            if (str(o, "type") != QLatin1String("session") || str(o, "format") != QLatin1String("aotstudio-session"))
                throw SessionError(QCoreApplication::translate("AotStudio::Client::Session",
                                                               "%1 is not an AOT Studio session: its first line is "
                                                               "not a session header. Open a .aotsession file "
                                                               "saved by the studio.")
                                       .arg(QDir::toNativeSeparators(path)));
            const int version = o.value(QLatin1String("version")).toInt(0);
            if (version > FormatVersion || version < 1)
                throw SessionError(QCoreApplication::translate("AotStudio::Client::Session",
                                                               "%1 was saved in session format version %2; this "
                                                               "studio reads versions up to %3. Open it with a "
                                                               "newer AOT Studio.")
                                       .arg(QDir::toNativeSeparators(path))
                                       .arg(version)
                                       .arg(FormatVersion));
            session->m_root = str(o, "root");
            headerSeen = true;
            continue;
        }
        session->m_lines.append(line);
        session->applyEvent(o);
    }
    if (!headerSeen)
        throw SessionError(QCoreApplication::translate("AotStudio::Client::Session",
                                                       "%1 is empty: it holds no session header.")
                               .arg(QDir::toNativeSeparators(path)));
    Session *result = session.release();
    result->setParent(parent);
    return result;
}

void Session::parseResult(JobRecord &job)
{
    // Parsed once here; panels, models and reports share the value.
    if (job.kind == QLatin1String("profile") || job.kind == QLatin1String("compile")) {
        if (job.kind == QLatin1String("compile") && !job.result.contains(QLatin1String("eager")))
            return; // a compile without timings (measure off): nothing to show as latency
        auto parsed = parseProfileResult(job.result);
        job.profile = std::move(parsed.value);
        job.resultError = parsed.error;
    } else if (job.kind == QLatin1String("quantize")) {
        auto parsed = parseQuantizeResult(job.result);
        job.quantize = std::move(parsed.value);
        job.resultError = parsed.error;
    } else if (job.kind == QLatin1String("sweep")) {
        job.sweep = std::make_shared<const SweepResult>(SweepResult::fromJson(job.result));
    } else if (job.kind == QLatin1String("numerics")) {
        auto parsed = parseNumericsResult(job.result);
        job.numerics = std::move(parsed.value);
        job.resultError = parsed.error;
    } else if (job.kind == QLatin1String("tune")) {
        auto parsed = parseTuneResult(job.result);
        job.tune = std::move(parsed.value);
        job.resultError = parsed.error;
    }
    if (!job.resultError.isEmpty())
        m_warnings << tr("Job %1: %2").arg(job.id).arg(job.resultError);
}

JobRecord &Session::jobFor(qint64 id)
{
    for (auto &job : m_jobs) {
        if (job.id == id)
            return job;
    }
    JobRecord job;
    job.id = id;
    m_jobs.append(job);
    return m_jobs.last();
}

const JobRecord *Session::job(qint64 id) const
{
    for (const auto &job : m_jobs) {
        if (job.id == id)
            return &job;
    }
    return nullptr;
}

const JobRecord *Session::latestSucceeded(const QString &kind) const
{
    for (auto it = m_jobs.crbegin(); it != m_jobs.crend(); ++it) {
        if (it->succeeded() && (kind.isEmpty() || it->kind == kind))
            return &*it;
    }
    return nullptr;
}

const JobRecord *Session::latestWithSnapshots() const
{
    // Quantize, export and tune jobs compile several graphs (one per scheme, bucket or trial): their
    // snapshots would mix in one list, so the graph docks show the other jobs only.
    for (auto it = m_jobs.crbegin(); it != m_jobs.crend(); ++it) {
        if (it->kind == QLatin1String("quantize") || it->kind == QLatin1String("export")
            || it->kind == QLatin1String("tune"))
            continue;
        if (!it->snapshots.isEmpty() || it->result.contains(QLatin1String("kernels")))
            return &*it;
    }
    return nullptr;
}

void Session::recordRequest(const QJsonObject &request)
{
    apply(QJsonObject{{QLatin1String("type"), QLatin1String("sent")}, {QLatin1String("request"), request}});
}

void Session::recordError(qint64 id, const EngineError &error)
{
    apply(QJsonObject{{QLatin1String("type"), QLatin1String("studio_error")},
                      {QLatin1String("id"), id},
                      {QLatin1String("stage"), error.stage},
                      {QLatin1String("code"), error.code},
                      {QLatin1String("message"), error.message},
                      {QLatin1String("hint"), error.hint}});
}

void Session::recordLog(qint64 jobId, const QString &level, const QString &message)
{
    apply(QJsonObject{{QLatin1String("type"), QLatin1String("log")},
                      {QLatin1String("id"), jobId},
                      {QLatin1String("level"), level},
                      {QLatin1String("message"), message}});
}

bool Session::startRecording(const QString &path, const QString &root, QString *error)
{
    stopRecording();
    auto file = std::make_unique<QFile>(path);
    if (!file->open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        if (error)
            *error = file->errorString();
        return false;
    }
    m_root = QDir::cleanPath(root);
    m_filePath = QFileInfo(path).absoluteFilePath();
    file->write(QJsonDocument(header(m_root)).toJson(QJsonDocument::Compact) + '\n');
    file->flush();
    m_recording = std::move(file);
    return true;
}

void Session::stopRecording()
{
    if (m_recording)
        m_recording->close();
    m_recording.reset();
}

void Session::apply(const QJsonObject &o)
{
    const QByteArray line = QJsonDocument(o).toJson(QJsonDocument::Compact);
    if (m_recording) {
        m_recording->write(line + '\n');
        m_recording->flush();
    }
    m_lines.append(line);
    applyEvent(o);
}

namespace {
/// Copies the folder `from` into `to` (created), recursively; false on the first failure, with
/// `why` naming the file that failed and the cause (a full disk as such).
bool copyTree(const QString &from, const QString &to, QString &why)
{
    if (!QDir().mkpath(to))
        return false;
    QDirIterator it(from, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System,
                    QDirIterator::Subdirectories);
    const QDir source(from);
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo info = it.fileInfo();
        const QString target = to + QLatin1Char('/') + source.relativeFilePath(path);
        if (info.isSymLink())
            continue; // lock files and links into caches are not part of a job's output
        if (info.isDir()) {
            if (!QDir().mkpath(target))
                return false;
        } else if (QFile file(path); info.fileName() != QLatin1String(".aotstudio.lock") && !file.copy(target)) {
            // QFile::copy says "Failure to write block" when the disk is full: name that case.
            const QStorageInfo storage(QFileInfo(target).absolutePath());
            const bool full = storage.isValid() && storage.bytesAvailable() < info.size();
            why = QDir::toNativeSeparators(path) + QStringLiteral(": ") + (full ? qt_error_string(ENOSPC) : file.errorString());
            return false;
        }
    }
    return true;
}

/// `s` as it appears inside a compact JSON string (quotes and backslashes escaped).
QByteArray jsonEscaped(const QString &s)
{
    const QByteArray quoted = QJsonDocument(QJsonArray{s}).toJson(QJsonDocument::Compact);
    return quoted.mid(2, quoted.size() - 4); // strip ["  "]
}
} // namespace

QString Session::saveAs(const QString &folder, QString *error) const
{
    const auto fail = [&](const QString &why) {
        if (error)
            *error = why;
        return QString();
    };
    const QString target = QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
    if (QFileInfo::exists(target) && !QDir(target).isEmpty())
        return fail(QCoreApplication::translate("AotStudio::Client::Session",
                                                "%1 exists and is not empty; choose a new folder for the session.")
                        .arg(QDir::toNativeSeparators(target)));
    const QString staging = target + QStringLiteral(".partial-%1").arg(QCoreApplication::applicationPid());
    QDir(staging).removeRecursively();
    if (!QDir().mkpath(staging))
        return fail(QCoreApplication::translate("AotStudio::Client::Session",
                                                "Cannot create %1: check that the folder is writable.")
                        .arg(QDir::toNativeSeparators(staging)));
    const auto abandon = [&](const QString &why) {
        QDir(staging).removeRecursively();
        return fail(why);
    };
    QList<QPair<QByteArray, QByteArray>> replacements;
    QSet<QString> names;
    for (const auto &job : m_jobs) {
        const QString out = QDir::cleanPath(job.outputDirectory());
        if (out.isEmpty() || out == QLatin1String("."))
            continue;
        const QString local = resolvePath(out);
        if (!QFileInfo(local).isDir())
            continue;
        QString name = QFileInfo(out).fileName();
        for (int n = 2; names.contains(name); ++n)
            name = QFileInfo(out).fileName() + QStringLiteral("-%1").arg(n);
        names.insert(name);
        if (QString why; !copyTree(local, staging + QLatin1Char('/') + name, why))
            return abandon(QCoreApplication::translate("AotStudio::Client::Session",
                                                       "Cannot copy the job folder %1 into %2.")
                               .arg(QDir::toNativeSeparators(local), QDir::toNativeSeparators(staging)) +
                           (why.isEmpty() ? QString() : QLatin1Char(' ') + why));
        replacements.append({jsonEscaped(out), jsonEscaped(target + QLatin1Char('/') + name)});
    }
    // A remote engine's files are in this session's cache (ArtifactStore), not in job folders
    // here: the cache goes along, named after the new session file, so the copy opens without the
    // engine as well.
    if (const QString cache = ArtifactStore::cacheFolderFor(m_filePath); !m_filePath.isEmpty() && QFileInfo(cache).isDir()) {
        if (QString why; !copyTree(cache, ArtifactStore::cacheFolderFor(staging + QStringLiteral("/session") + fileSuffix()), why))
            return abandon(QCoreApplication::translate("AotStudio::Client::Session", "Cannot copy the job folder %1 into %2.")
                               .arg(QDir::toNativeSeparators(cache), QDir::toNativeSeparators(staging)) +
                           (why.isEmpty() ? QString() : QLatin1Char(' ') + why));
    }
    // Longest first, so /a/b-2 is rewritten before its prefix /a/b could be.
    std::sort(replacements.begin(), replacements.end(),
              [](const auto &a, const auto &b) { return a.first.size() > b.first.size(); });
    QFile file(staging + QStringLiteral("/session") + fileSuffix());
    if (!file.open(QIODevice::WriteOnly))
        return abandon(file.errorString());
    file.write(QJsonDocument(header(target)).toJson(QJsonDocument::Compact) + '\n');
    for (QByteArray line : m_lines) {
        for (const auto &[from, to] : replacements)
            line.replace(from, to);
        file.write(line + '\n');
    }
    if (!file.flush() || file.error() != QFileDevice::NoError) {
        const QString why = file.errorString();
        file.close();
        return abandon(why);
    }
    file.close();
    if (QFileInfo::exists(target) && !QDir().rmdir(target))
        return abandon(QCoreApplication::translate("AotStudio::Client::Session", "Cannot replace the empty folder %1.")
                           .arg(QDir::toNativeSeparators(target)));
    if (!QDir().rename(staging, target))
        return abandon(QCoreApplication::translate("AotStudio::Client::Session", "Cannot move the session into place at %1.")
                           .arg(QDir::toNativeSeparators(target)));
    return target + QStringLiteral("/session") + fileSuffix();
}

void Session::applyEvent(const QJsonObject &o)
{
    const QString type = str(o, "type");
    const qint64 id = o.value(QLatin1String("id")).toInteger();
    if (type == QLatin1String("hello")) {
        m_info = EngineInfo::fromJson(o);
        m_hasInfo = true;
        // Jobs queued while this engine was starting (e.g. after a target change) run on it.
        for (auto &job : m_jobs) {
            if (!job.finished() && job.stages.isEmpty() && job.currentStage.isEmpty()) {
                job.target = m_info.target;
                job.torchVersion = m_info.torchVersion;
            }
        }
        Q_EMIT jobChanged(0);
    } else if (type == QLatin1String("sent")) {
        const QJsonObject request = o.value(QLatin1String("request")).toObject();
        const qint64 requestId = request.value(QLatin1String("id")).toInteger();
        if (requestId <= 0)
            return;
        JobRecord &job = jobFor(requestId);
        job.kind = str(request, "type");
        job.request = request;
        if (m_hasInfo) {
            job.target = m_info.target;
            job.torchVersion = m_info.torchVersion;
        }
        Q_EMIT jobChanged(requestId);
    } else if (type == QLatin1String("log")) {
        LogRecord record{id, str(o, "level"), EngineText::eventMessage(o)};
        m_logs.append(record);
        Q_EMIT logAppended(record);
    } else if (id > 0 && type == QLatin1String("progress")) {
        JobRecord &job = jobFor(id);
        job.currentStage = str(o, "stage");
        job.fraction = o.value(QLatin1String("fraction")).toDouble();
        job.progressMessage = EngineText::eventMessage(o);
        Q_EMIT progressed(id);
        Q_EMIT jobChanged(id);
    } else if (id > 0 && type == QLatin1String("stage_done")) {
        JobRecord &job = jobFor(id);
        StageRecord stage{str(o, "stage"), o.value(QLatin1String("seconds")).toDouble(),
                          o.value(QLatin1String("artifacts")).toObject(), {}};
        for (const QJsonValue &p : o.value(QLatin1String("parts")).toArray())
            stage.parts.append(StagePart{p.toObject().value(QLatin1String("name")).toString(),
                                         p.toObject().value(QLatin1String("seconds")).toDouble()});
        job.stages.append(stage);
        Q_EMIT stageFinished(id, job.stages.last());
        Q_EMIT jobChanged(id);
    } else if (id > 0 && type == QLatin1String("snapshot")) {
        JobRecord &job = jobFor(id);
        SnapshotRecord s;
        s.stage = str(o, "stage");
        s.pass = str(o, "pass");
        s.nodes = o.value(QLatin1String("nodes")).toInt();
        s.path = str(o, "path");
        s.seconds = o.value(QLatin1String("seconds")).toDouble();
        s.reused = o.value(QLatin1String("reused")).toBool();
        s.previousNodes = job.snapshots.isEmpty() ? -1 : job.snapshots.last().nodes;
        job.snapshots.append(s);
        Q_EMIT snapshotAdded(id, int(job.snapshots.size()) - 1);
        Q_EMIT jobChanged(id);
    } else if (id > 0 && type == QLatin1String("result")) {
        JobRecord &job = jobFor(id);
        if (job.finished())
            return;
        job.result = o.value(QLatin1String("result")).toObject();
        if (const QJsonValue wall = o.value(QLatin1String("wall_seconds")); wall.isDouble())
            job.wallSeconds = wall.toDouble();
        if (job.kind.isEmpty()) // recordings without the request: guess from the result's shape
            job.kind = job.result.contains(QLatin1String("bundle")) ? QStringLiteral("export")
                : job.result.value(QLatin1String("format")).toString() == QLatin1String("aotstudio.profile")
                ? QStringLiteral("profile")
                : QStringLiteral("compile");
        parseResult(job);
        finishSnapshots(job);
        Q_EMIT jobChanged(id);
        Q_EMIT jobFinished(id);
    } else if (type == QLatin1String("error") || type == QLatin1String("studio_error")) {
        if (id <= 0) {
            const EngineError error = EngineError::fromJson(o);
            LogRecord record{0, QStringLiteral("error"),
                             error.hint.isEmpty() ? error.message
                                                  : QCoreApplication::translate("AotStudio::Client::Session", "%1 Hint: %2")
                                                        .arg(error.message, error.hint)};
            m_logs.append(record);
            Q_EMIT logAppended(record);
            Q_EMIT engineError(error);
            return;
        }
        JobRecord &job = jobFor(id);
        if (job.finished())
            return;
        job.error = EngineError::fromJson(o);
        Q_EMIT jobChanged(id);
        Q_EMIT jobFinished(id);
    }
}

void Session::finishSnapshots(JobRecord &job)
{
    // The result's `stages` list is the complete, ordered record of the compile: it adds the
    // passes that changed nothing (changed: false) and the fusion and codegen stages, which have
    // no snapshot event. It replaces the events' list when present.
    const QJsonArray stages = job.result.value(QLatin1String("stages")).toArray();
    if (stages.isEmpty())
        return;
    QList<SnapshotRecord> list;
    int previous = -1;
    for (const auto &v : stages) {
        const QJsonObject e = v.toObject();
        SnapshotRecord s;
        s.stage = str(e, "name");
        s.pass = str(e, "pass");
        s.nodes = e.value(QLatin1String("nodes")).toInt();
        const bool graph = s.stage != QLatin1String("fusion") && s.stage != QLatin1String("codegen");
        // Fusion counts scheduler nodes and codegen kernels: only their own "before" compares.
        s.previousNodes = e.contains(QLatin1String("nodes_before")) ? e.value(QLatin1String("nodes_before")).toInt()
                          : graph                                   ? previous
                                                                    : -1;
        s.path = str(e, "snapshot");
        s.seconds = e.value(QLatin1String("seconds")).toDouble();
        s.changed = e.value(QLatin1String("changed")).toBool(true);
        s.graph = graph;
        if (s.graph)
            previous = s.nodes;
        list.append(s);
    }
    job.snapshots = list;
}

QString Session::resolvePath(const QString &path) const
{
    // A staged compile's live events name files in OUT/.partial-<pid>-staging/; once the job is
    // over each is at the same place directly under OUT (core/protocol/FORMAT.md, "Output folder").
    static const QRegularExpression staging(QStringLiteral("/\\.partial-\\d+-staging(?=/)"));
    if (path.contains(staging) && !QFileInfo::exists(path)) {
        QString moved = path;
        moved.remove(staging);
        return resolvePath(moved);
    }
    if (path.isEmpty() || m_root.isEmpty() || m_filePath.isEmpty())
        return path;
    const QString root = QDir::cleanPath(m_root);
    const QString clean = QDir::cleanPath(path);
    if (!clean.startsWith(root + QLatin1Char('/')))
        return path;
    // The copy next to the session file wins: it is what the user opened.
    const QString here = QDir::cleanPath(QFileInfo(m_filePath).absolutePath());
    const QString relocated = here + clean.mid(root.size());
    return here != root && QFileInfo::exists(relocated) ? relocated : path;
}

} // namespace AotStudio::Client
