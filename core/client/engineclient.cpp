// SPDX-License-Identifier: GPL-3.0-or-later
#include "engineclient.h"

#include "bundle/targets.h"

#include "enginetext.h"

#include <QCoreApplication>
#include <QUuid>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QPointer>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>

#include <algorithm>
#include <cctype>

namespace AotStudio::Client {

namespace {

constexpr auto EngineBinaryName = "aotstudio-engine";

QString engineNextToApplication()
{
    return QDir(QCoreApplication::applicationDirPath()).filePath(QLatin1String(EngineBinaryName));
}
} // namespace

EngineClient::EngineClient(QObject *parent)
    : QObject(parent)
{
}

EngineClient::~EngineClient()
{
    if (!m_process)
        return;
    // No signals during destruction: receivers may already be half gone.
    m_process->disconnect(this);
    if (m_process->state() != QProcess::NotRunning) {
        // A detached engine outlives its link: ask it to end (after its running stage).
        if (!m_sessionId.isEmpty() && m_state == State::Ready)
            send(QJsonObject{{QLatin1String("type"), QLatin1String("shutdown")}, {QLatin1String("id"), m_nextId++}});
        m_process->closeWriteChannel(); // EOF on stdin lets the engine exit by itself
        if (!m_process->waitForFinished(1000)) {
            m_process->kill();
            m_process->waitForFinished(1000);
        }
    }
}

void EngineClient::setEnginePath(const QString &path)
{
    m_enginePath = path;
}

void EngineClient::setExtraArguments(const QStringList &arguments)
{
    m_extraArguments = arguments;
}

void EngineClient::setRemote(const RemoteEngine &remote)
{
    m_remote = remote.isValid() ? remote : RemoteEngine{};
}

void EngineClient::setCancelGracePeriod(int milliseconds)
{
    m_graceMs = qMax(0, milliseconds);
}

bool EngineClient::setRecordingPath(const QString &path)
{
    m_recording.close();
    if (path.isEmpty())
        return true;
    m_recording.setFileName(path);
    return m_recording.open(QIODevice::WriteOnly | QIODevice::Append);
}

QString EngineClient::engineVenvKey()
{
    return QStringLiteral("engine/venv");
}

QString EngineClient::defaultEngineVenv()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QLatin1String("/aotstudio/engine-venv");
}

QString EngineClient::engineInVenv(const QString &venv)
{
    return QDir(venv).filePath(QLatin1String("bin/") + QLatin1String(EngineBinaryName));
}

QString EngineClient::pipInstallCommand(const QString &venv)
{
    // The studio's own version: the engine that speaks its protocol. The wheel pins torch.
    return QStringLiteral("%1/bin/pip install aotstudio-engine==%2").arg(venv, QLatin1String(AOTSTUDIO_VERSION));
}

QString EngineClient::installCommand()
{
    // The wheel's executables embed Python 3.11 (pyproject.toml: requires-python).
    const QString venv = defaultEngineVenv();
    return QStringLiteral("python3.11 -m venv %1 && %2").arg(venv, pipInstallCommand(venv));
}

QString EngineClient::resolveEnginePath() const
{
    if (isRemote()) // OpenSSH's client does the transport
        return QStandardPaths::findExecutable(QStringLiteral("ssh"));
    if (!m_enginePath.isEmpty())
        return m_enginePath;
    const QString fromEnv = qEnvironmentVariable("AOTSTUDIO_ENGINE");
    if (!fromEnv.isEmpty())
        return fromEnv;
    // A chosen venv is used even when its engine is gone: start() then names the missing file.
    const QString venv = QSettings().value(engineVenvKey()).toString();
    if (!venv.isEmpty())
        return engineInVenv(venv);
    const QString nextToApp = engineNextToApplication();
    if (QFileInfo(nextToApp).isExecutable())
        return nextToApp;
    const QString onPath = QStandardPaths::findExecutable(QLatin1String(EngineBinaryName));
    if (!onPath.isEmpty())
        return onPath;
    const QString inDefaultVenv = engineInVenv(defaultEngineVenv());
    return QFileInfo(inDefaultVenv).isExecutable() ? inDefaultVenv : QString();
}

void EngineClient::setTarget(const QString &name)
{
    m_target = name;
}

QList<EngineClient::TargetInfo> EngineClient::availableTargets()
{
    QList<TargetInfo> out;
    for (const Bundle::Target &t : Bundle::listTargets(Bundle::targetsDir())) {
        TargetInfo info;
        info.name = QString::fromStdString(t.name);
        info.torch = QString::fromStdString(t.torch);
        info.python = QString::fromStdString(t.python);
        info.cuda = QString::fromStdString(t.cuda);
        if (t.raw.is_object() && t.raw.contains("error") && t.raw["error"].is_string())
            info.error = QString::fromStdString(t.raw["error"].get<std::string>());
        out.append(info);
    }
    return out;
}

QString EngineClient::targetsDirectory()
{
    return QString::fromStdString(Bundle::targetsDir());
}

void EngineClient::start()
{
    if (m_process)
        return;
    if (m_state == State::Reconnecting) { // an attempt now instead of after the backoff
        launch();
        return;
    }
    m_sessionId = isRemote() && m_maxReconnectAttempts > 0
                      ? QUuid::createUuid().toString(QUuid::Id128)
                      : QString();
    m_instance.clear();
    m_lastSeq = 0;
    m_reconnectAttempt = 0;
    launch();
}

void EngineClient::launch()
{
    QString path = resolveEnginePath();
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    if (!m_target.isEmpty() && !isRemote()) {
        Bundle::Target target;
        if (const std::string why = Bundle::findTarget(m_target.toStdString(), target); !why.empty()) {
            fail(tr("The target environment %1 cannot be started: %2. Choose another target beside Device, or "
                    "make it with aotstudio-cli target add.")
                     .arg(m_target, QString::fromStdString(why)));
            return;
        }
        path = QString::fromStdString(target.engine);
        std::vector<std::string> base;
        for (const QString &kv : environment.toStringList())
            base.push_back(kv.toStdString());
        environment = QProcessEnvironment();
        for (const std::string &kv : Bundle::targetEnvironment(target, base)) {
            const auto eq = kv.find('=');
            environment.insert(QString::fromStdString(kv.substr(0, eq)),
                               eq == std::string::npos ? QString() : QString::fromStdString(kv.substr(eq + 1)));
        }
    }
    if (path.isEmpty() && isRemote()) {
        giveUpReconnecting(tr("%1: connecting failed: the ssh program was not found on PATH. Install OpenSSH's client.")
                               .arg(m_remote.displayName()));
        return;
    }
    if (path.isEmpty()) {
        fail(tr("The engine was not found: looked for %1, for %2 on PATH and for %3. "
                "Install it with: %4 "
                "(or choose its venv with Engine → Choose Local Engine…, or set AOTSTUDIO_ENGINE to its path).")
                 .arg(engineNextToApplication(), QLatin1String(EngineBinaryName),
                      engineInVenv(defaultEngineVenv()), installCommand()));
        return;
    }
    // A bare name (e.g. "ssh") is searched on PATH by QProcess; a path must exist.
    if (path.contains(QLatin1Char('/')) && !QFileInfo::exists(path)) {
        fail(tr("The engine was not found at %1.").arg(path));
        return;
    }

    m_stdoutBuffer.clear();
    m_stderrBuffer.clear();
    m_discardingStdout = m_discardingStderr = false;
    m_stdoutPending = m_stderrPending = 0;
    m_lastStderrLine.clear();
    m_stderrTail.clear();
    m_expectingExit = false;
    m_wasReady = false;
    m_attachId = 0;
    m_takenOver.clear();
    m_info = {};

    m_process = new QProcess(this);
    m_process->setProgram(path);
    m_process->setProcessEnvironment(environment);
    QStringList targetArguments
        = m_target.isEmpty() ? QStringList() : QStringList{QStringLiteral("--target"), m_target};
    if (isRemote() && !m_sessionId.isEmpty())
        targetArguments << QStringLiteral("--session") << m_sessionId;
    if (isRemote() && !m_sessionId.isEmpty()) {
        // A link that goes silent (no reset) is given up by ssh after 4 unanswered keepalives 15 s
        // apart, so the client reconnects within about a minute; options the profile gives win
        // (ssh takes the first value of an option).
        RemoteEngine remote = m_remote;
        remote.sshOptions << QStringLiteral("-o") << QStringLiteral("ServerAliveInterval=15") << QStringLiteral("-o")
                          << QStringLiteral("ServerAliveCountMax=4");
        m_process->setArguments(remote.sshArguments(targetArguments + m_extraArguments));
    } else if (isRemote()) {
        m_process->setArguments(m_remote.sshArguments(targetArguments + m_extraArguments));
    } else {
        m_process->setArguments(QStringList{QStringLiteral("--serve")} + m_extraArguments);
    }
    connect(m_process, &QProcess::readyReadStandardOutput, this, &EngineClient::readStdout);
    connect(m_process, &QProcess::readyReadStandardError, this, &EngineClient::readStderr);
    connect(m_process, &QProcess::finished, this, &EngineClient::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, &EngineClient::onProcessError);
    if (m_state != State::Reconnecting)
        setState(State::Starting);
    m_process->start();
}

void EngineClient::restart()
{
    stop();
    start();
}

void EngineClient::stop()
{
    if (!m_process) {
        if (m_state == State::Reconnecting) {
            m_reconnectAttempt = 0;
            m_expectingExit = true;
            giveUpReconnecting(tr("The engine was stopped before this job ended."));
            m_expectingExit = false;
        }
        m_sessionId.clear();
        if (m_state != State::NotRunning)
            setState(State::NotRunning);
        return;
    }
    m_expectingExit = true;
    if (m_process->state() != QProcess::NotRunning) {
        if (m_state == State::Ready)
            send(QJsonObject{{QLatin1String("type"), QLatin1String("shutdown")},
                             {QLatin1String("id"), m_nextId++}});
        m_process->closeWriteChannel();
        // shutdown waits for the running stage, which may be a long native compile: do not.
        if (!m_process->waitForFinished(2000)) {
            m_process->kill();
            m_process->waitForFinished(2000);
        }
    }
    if (m_process) // finished() normally tore it down already
        onFinished(0, QProcess::NormalExit);
    m_sessionId.clear();
}

qint64 EngineClient::nextRequestId()
{
    if (m_state != State::Ready && m_state != State::Starting && m_state != State::Reconnecting)
        return 0;
    return m_nextId++;
}

void EngineClient::submit(qint64 id, const QJsonObject &message)
{
    m_jobs.insert(id, Job{});
    Q_EMIT requestSent(message);
    if (m_state == State::Ready)
        send(message);
    else
        m_pending.append(message);
}

qint64 EngineClient::compile(const CompileRequest &request)
{
    const qint64 id = nextRequestId();
    if (id != 0)
        submit(id, request.toJson(id));
    return id;
}

qint64 EngineClient::exportBundle(const ExportRequest &request)
{
    const qint64 id = nextRequestId();
    if (id != 0)
        submit(id, request.toJson(id));
    return id;
}

qint64 EngineClient::submitJob(const QString &type, QJsonObject body)
{
    const qint64 id = nextRequestId();
    if (id == 0)
        return 0;
    body.insert(QLatin1String("type"), type);
    body.insert(QLatin1String("id"), id);
    submit(id, body);
    return id;
}

qint64 EngineClient::readFile(const QString &path, qint64 offset, qint64 length)
{
    if (m_state != State::Ready)
        return 0;
    const qint64 id = m_nextId++;
    m_reads.insert(id);
    send(QJsonObject{{QLatin1String("type"), QLatin1String("read")},
                     {QLatin1String("id"), id},
                     {QLatin1String("path"), path},
                     {QLatin1String("offset"), offset},
                     {QLatin1String("length"), length},
                     {QLatin1String("compress"), true}});
    return id;
}

void EngineClient::cancel(qint64 id)
{
    if (!m_jobs.contains(id))
        return;
    for (qsizetype i = 0; i < m_pending.size(); ++i) {
        if (m_pending.at(i).value(QLatin1String("id")).toInteger() == id) {
            m_pending.removeAt(i);
            endJob(id);
            Q_EMIT errorReceived(id, EngineError{QString(), QStringLiteral("cancelled"),
                                                 tr("Cancelled before it started."), QString()});
            return;
        }
    }
    Job &job = m_jobs[id];
    if (job.cancelRequested)
        return;
    job.cancelRequested = true;
    send(QJsonObject{{QLatin1String("type"), QLatin1String("cancel")},
                     {QLatin1String("id"), m_nextId++},
                     {QLatin1String("target"), id}});
    QTimer::singleShot(m_graceMs, this, [this, id] { escalateCancel(id); });
}

void EngineClient::escalateCancel(qint64 id)
{
    if (!m_jobs.contains(id) || !m_process)
        return;
    const QString stage = m_jobs.value(id).stage;
    endJob(id);
    Q_EMIT errorReceived(
        id, EngineError{stage, QStringLiteral("cancelled"),
                        tr("Cancelled. The engine did not stop within %1 s, so it was restarted.")
                            .arg(m_graceMs / 1000.0),
                        tr("Results received earlier are kept.")});
    m_expectingExit = true;
    if (!m_sessionId.isEmpty() && m_state == State::Ready) {
        // Killing ssh does not end a detached engine: ask it to end after the running stage, and
        // start a fresh session.
        send(QJsonObject{{QLatin1String("type"), QLatin1String("shutdown")}, {QLatin1String("id"), m_nextId++}});
        m_process->waitForBytesWritten(1000);
    }
    m_sessionId.clear();
    m_process->kill();
    if (m_process && !m_process->waitForFinished(3000))
        onFinished(-1, QProcess::CrashExit);
    start();
}

void EngineClient::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void EngineClient::fail(const QString &reason)
{
    setState(State::NotRunning);
    Q_EMIT engineFailed(reason);
}

void EngineClient::send(const QJsonObject &message)
{
    if (!m_process)
        return;
    m_process->write(QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n');
}

namespace {

/// Append `chunk` to `buffer` without keeping more than `maxBytes` of an unfinished line: bytes of
/// a line over the limit are dropped until its '\n' (`discarding` carries that across chunks).
/// `pending` is the length of the unfinished line at the end of `buffer`, kept up to date here so
/// that a long line arriving in many chunks (a `data` event: megabytes) is never rescanned.
/// Returns true when a line went over the limit in this chunk.
bool appendBounded(QByteArray &buffer, const QByteArray &chunk, qsizetype maxBytes, bool &discarding, qsizetype &pending)
{
    bool dropped = false;
    qsizetype from = 0;
    while (from < chunk.size()) {
        const qsizetype newline = chunk.indexOf('\n', from);
        const qsizetype end = newline < 0 ? chunk.size() : newline + 1;
        if (discarding) {
            if (newline >= 0)
                discarding = false; // the long line ends here; its '\n' is dropped with it
        } else {
            const qsizetype lineBytes = pending + (newline < 0 ? end - from : newline - from);
            if (lineBytes > maxBytes) {
                buffer.chop(pending); // the unfinished line so far
                pending = 0;
                dropped = true;
                discarding = newline < 0;
            } else {
                buffer.append(chunk.constData() + from, end - from);
                pending = newline < 0 ? lineBytes : 0;
            }
        }
        from = end;
    }
    return dropped;
}

} // namespace

void EngineClient::readStdout()
{
    if (!m_process)
        return;
    if (appendBounded(m_stdoutBuffer, m_process->readAllStandardOutput(), m_maxLineBytes, m_discardingStdout,
                      m_stdoutPending)) {
        ++m_skippedLines;
        const QString warning = tr("The engine sent a line longer than %1 MiB, the protocol's limit; it was skipped.")
                                    .arg(double(m_maxLineBytes) / double(1 << 20), 0, 'g', 3);
        Q_EMIT clientMessage(QStringLiteral("warning"), warning);
        Q_EMIT logMessage(0, QStringLiteral("warning"), warning);
    }
    if (m_stdoutPending == m_stdoutBuffer.size())
        return; // the middle of a line: nothing to hand on yet
    const QPointer<QProcess> process = m_process;
    qsizetype newline;
    // A receiver may restart the engine from a signal; stop when the process changed under us.
    while (process == m_process && (newline = m_stdoutBuffer.indexOf('\n')) >= 0) {
        QByteArray line = m_stdoutBuffer.left(newline);
        m_stdoutBuffer.remove(0, newline + 1);
        if (line.endsWith('\r'))
            line.chop(1);
        if (std::any_of(line.cbegin(), line.cend(), [](char c) { return !std::isspace(static_cast<unsigned char>(c)); }))
            handleLine(line);
    }
}

void EngineClient::readStderr()
{
    if (!m_process)
        return;
    if (appendBounded(m_stderrBuffer, m_process->readAllStandardError(), m_maxLineBytes, m_discardingStderr,
                      m_stderrPending))
    {
        const QString warning = tr("The engine wrote a line longer than %1 MiB to its error output; it was skipped.")
                                    .arg(double(m_maxLineBytes) / double(1 << 20), 0, 'g', 3);
        Q_EMIT clientMessage(QStringLiteral("warning"), warning);
        Q_EMIT logMessage(0, QStringLiteral("warning"), warning);
    }
    qsizetype newline;
    while ((newline = m_stderrBuffer.indexOf('\n')) >= 0) {
        const QString line = QString::fromUtf8(m_stderrBuffer.left(newline)).trimmed();
        m_stderrBuffer.remove(0, newline + 1);
        if (line.isEmpty())
            continue;
        m_lastStderrLine = line;
        m_stderrTail.append(line);
        if (m_stderrTail.size() > 8)
            m_stderrTail.removeFirst();
        Q_EMIT stderrLine(line);
        Q_EMIT logMessage(0, QStringLiteral("debug"), line);
    }
}

void EngineClient::handleLine(const QByteArray &line)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(line, &parseError);
    // Answers to readFile() are transport, not history: neither recorded nor replayed
    // (FORMAT.md "read").
    if (document.isObject() && !m_reads.isEmpty()) {
        const QJsonObject o = document.object();
        const qint64 id = o.value(QLatin1String("id")).toInteger();
        const QString type = o.value(QLatin1String("type")).toString();
        if (m_reads.contains(id) && (type == QLatin1String("data") || type == QLatin1String("error"))) {
            m_reads.remove(id);
            if (type == QLatin1String("data"))
                Q_EMIT dataReceived(id, o);
            else
                Q_EMIT readFailed(id, EngineError::fromJson(o));
            return;
        }
        // Anything else with a read's id (the engine's log line of a refusal) goes on as usual.
    }
    if (document.isObject() && handleSessionEvent(document.object()))
        return; // transport of a detached engine, or a replayed event already seen
    if (m_recording.isOpen()) {
        m_recording.write(line + '\n');
        m_recording.flush();
    }
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        ++m_skippedLines;
        return;
    }
    const QJsonObject o = document.object();
    const QString type = o.value(QLatin1String("type")).toString();
    const qint64 id = o.value(QLatin1String("id")).toInteger();

    if (m_state == State::Starting || m_state == State::Ready || m_state == State::Reconnecting)
        Q_EMIT eventReceived(o);
    if ((m_state == State::Starting || m_state == State::Reconnecting) && m_attachId == 0) {
        if (type == QLatin1String("hello"))
            handleHello(o);
        else
            ++m_skippedLines; // nothing is meaningful before the handshake
        return;
    }
    if (m_state != State::Ready && m_attachId == 0)
        return;

    if (type == QLatin1String("progress")) {
        const QString stage = o.value(QLatin1String("stage")).toString();
        if (m_jobs.contains(id))
            m_jobs[id].stage = stage;
        Q_EMIT progress(id, stage, o.value(QLatin1String("fraction")).toDouble(), EngineText::eventMessage(o));
    } else if (type == QLatin1String("log")) {
        Q_EMIT logMessage(id, o.value(QLatin1String("level")).toString(), EngineText::eventMessage(o));
    } else if (type == QLatin1String("stage_done")) {
        Q_EMIT stageDone(id, o.value(QLatin1String("stage")).toString(),
                         o.value(QLatin1String("seconds")).toDouble(),
                         o.value(QLatin1String("artifacts")).toObject());
    } else if (type == QLatin1String("snapshot")) {
        Q_EMIT snapshotTaken(id, o.value(QLatin1String("stage")).toString(),
                             o.value(QLatin1String("pass")).toString(),
                             o.value(QLatin1String("nodes")).toInt(),
                             o.value(QLatin1String("path")).toString(), // null -> ""
                             o.value(QLatin1String("seconds")).toDouble());
    } else if (type == QLatin1String("result")) {
        if (!m_jobs.contains(id))
            return; // already reported (e.g. cancelled by kill): the job has ended once
        const QJsonObject result = o.value(QLatin1String("result")).toObject();
        m_results.insert(id, result);
        endJob(id);
        Q_EMIT resultReceived(id, result);
    } else if (type == QLatin1String("error")) {
        if (id != 0 && !m_jobs.contains(id))
            return;
        endJob(id);
        Q_EMIT errorReceived(id, EngineError::fromJson(o));
    } else if (type == QLatin1String("data")) {
        // an answer to a read nobody waits for any more
    } else if (type == QLatin1String("pong") || type == QLatin1String("hello")) {
        // pong needs no action; a repeated hello is ignored
    } else {
        ++m_skippedLines; // unknown types are skipped, never fatal (FORMAT.md)
    }
}

void EngineClient::handleHello(const QJsonObject &hello)
{
    m_info = EngineInfo::fromJson(hello);
    if (m_info.protocol != ProtocolVersion) {
        // The handshake is frozen so both versions can always be named; after a mismatch
        // nothing else is sent. Closing stdin lets the engine exit on its own.
        setState(State::Failed);
        const QList<QJsonObject> pending = std::exchange(m_pending, {});
        m_process->closeWriteChannel();
        m_expectingExit = true;
        QString reason =
            tr("Protocol mismatch: the engine speaks protocol version %1, this studio speaks "
               "version %2. Install matching versions of the studio and the engine.")
                .arg(m_info.protocol)
                .arg(ProtocolVersion);
        if (isRemote())
            reason = tr("%1: the handshake failed: %2").arg(m_remote.displayName(), reason);
        for (const QJsonObject &request : pending) {
            const qint64 id = request.value(QLatin1String("id")).toInteger();
            endJob(id);
            Q_EMIT errorReceived(id, EngineError{QString(), QStringLiteral("protocol_mismatch"),
                                                 reason, QString()});
        }
        Q_EMIT engineFailed(reason);
        return;
    }
    const QJsonObject session = hello.value(QLatin1String("session")).toObject();
    if (!m_sessionId.isEmpty() && session.value(QLatin1String("id")).toString() == m_sessionId) {
        // A detached engine: attach, asking for the events after the last one seen from this
        // instance (all of them from a new instance: the one before is gone with its jobs).
        const QString instance = session.value(QLatin1String("instance")).toString();
        if (instance != m_instance) {
            m_instanceChanged = !m_instance.isEmpty();
            m_instance = instance;
            m_lastSeq = 0;
        }
        m_attachId = m_nextId++;
        send(QJsonObject{{QLatin1String("type"), QLatin1String("attach")},
                         {QLatin1String("id"), m_attachId},
                         {QLatin1String("after"), m_lastSeq}});
        return;
    }
    if (!m_sessionId.isEmpty() && m_state == State::Starting) {
        // The command named a session but what answered serves none (a wrapper that drops
        // arguments): the engine dies with its link, so a drop must end the jobs, not reconnect.
        warnNoSession(tr("%1: the engine that answered keeps no session (its hello has none), so a dropped "
                         "connection will end its jobs.")
                          .arg(m_remote.displayName()));
    }
    if (m_state == State::Reconnecting) { // an engine without sessions: nothing of ours survived
        const QList<qint64> active = m_jobs.keys();
        for (qint64 id : active) {
            if (!isPending(id))
                reportLost(id, tr("%1: the connection was lost and the engine that came back does not know job %2 "
                                  "(it keeps no session), so the job is lost. What it sent before the drop is kept.")
                                   .arg(m_remote.displayName())
                                   .arg(id));
        }
        m_reconnectAttempt = 0;
    }
    becomeReady();
}

void EngineClient::becomeReady()
{
    m_wasReady = true;
    setState(State::Ready);
    Q_EMIT handshakeCompleted(m_info);
    const QList<QJsonObject> pending = std::exchange(m_pending, {});
    for (const QJsonObject &request : pending)
        send(request);
}

void EngineClient::endJob(qint64 id)
{
    m_jobs.remove(id);
}

void EngineClient::onFinished(int exitCode, QProcess::ExitStatus status)
{
    if (!m_process)
        return;
    // Drain what the engine wrote just before it exited: a result may be in there.
    readStdout();
    readStderr();
    if (!m_process)
        return;
    const bool expected = m_expectingExit;
    const bool mismatched = m_state == State::Failed;
    m_process->disconnect(this);
    m_process->deleteLater();
    m_process = nullptr;
    if (!expected && !mismatched && handleSessionEnd(exitCode, status))
        return;
    m_pending.clear();
    m_expectingExit = false;

    QString reason;
    if (!expected && !m_takenOver.isEmpty()) {
        reason = m_takenOver;
    } else if (!expected && isRemote()) {
        reason = m_remote.describeExit(status == QProcess::CrashExit ? -1 : exitCode, m_stderrTail, m_wasReady);
    } else if (!expected) {
        reason = status == QProcess::CrashExit
                     ? tr("The engine crashed.")
                     : tr("The engine exited unexpectedly with code %1.").arg(exitCode);
        if (!m_lastStderrLine.isEmpty())
            reason += QLatin1Char(' ') + tr("Its last message: %1").arg(m_lastStderrLine);
    }
    // Reads in flight end too (a transfer cut off: the store drops what it had).
    const QList<qint64> reads = m_reads.values();
    m_reads.clear();
    for (qint64 id : reads)
        Q_EMIT readFailed(id, EngineError{QStringLiteral("read"), QStringLiteral("engine_crashed"),
                                          expected ? tr("The engine was stopped during a transfer.")
                                                   : reason,
                                          tr("Reconnect and open the file again.")});
    // Every job ends with exactly one result or error, even when its engine is gone.
    const QList<qint64> lost = m_jobs.keys();
    m_jobs.clear();
    for (qint64 id : lost) {
        Q_EMIT errorReceived(
            id, expected ? EngineError{QString(), QStringLiteral("engine_restarted"),
                                       tr("The engine was stopped before this job ended."),
                                       tr("Run the job again.")}
                         : EngineError{QString(), QStringLiteral("engine_crashed"), reason,
                                       m_takenOver.isEmpty()
                                           ? tr("Restart the engine and run the job again.")
                                           : tr("Its result is in its folder on the host when it finishes.")});
    }
    if (mismatched)
        return; // stay Failed: the mismatch is the news, not the exit
    if (expected)
        setState(State::NotRunning);
    else
        fail(reason);
}

void EngineClient::onProcessError(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart || !m_process)
        return;
    QString reason = tr("Cannot start the engine %1: %2").arg(m_process->program(), m_process->errorString());
    if (isRemote())
        reason = tr("%1: connecting failed: cannot start ssh: %2").arg(m_remote.displayName(), m_process->errorString());
    m_process->disconnect(this);
    m_process->deleteLater();
    m_process = nullptr;
    if (m_state == State::Reconnecting) {
        if (m_reconnectAttempt >= m_maxReconnectAttempts)
            giveUpReconnecting(tr("%1 Reconnecting failed: %2").arg(m_dropReason, reason));
        else
            scheduleReconnect();
        return;
    }
    const QList<QJsonObject> pending = std::exchange(m_pending, {});
    for (const QJsonObject &request : pending) {
        const qint64 id = request.value(QLatin1String("id")).toInteger();
        endJob(id);
        Q_EMIT errorReceived(id, EngineError{QString(), QStringLiteral("engine_crashed"), reason,
                                             QString()});
    }
    fail(reason);
}

} // namespace AotStudio::Client
