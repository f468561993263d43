// SPDX-License-Identifier: GPL-3.0-or-later
// EngineClient's detached-engine sessions (FORMAT.md "Detached engines"): the events of the
// session's transport, the link's end that is reconnected from, attach and reattach, and giving
// up. Apart from engineclient.cpp to keep both within the size budget (tools/check-size.py).
#include "engineclient.h"

#include <QDateTime>
#include <QJsonArray>
#include <QTimer>

#include <algorithm>

namespace AotStudio::Client {

void EngineClient::setReconnectAttempts(int attempts)
{
    m_maxReconnectAttempts = qMax(0, attempts);
}

int EngineClient::reconnectDelayMs(int attempt)
{
    return attempt <= 1 ? 500 : qMin(8000, 500 << qMin(attempt - 1, 4));
}

bool EngineClient::handleSessionEvent(const QJsonObject &o)
{
    // A detached engine's answer to `attach` is transport: neither recorded nor replayed.
    if (o.value(QLatin1String("type")).toString() == QLatin1String("attached")) {
        if (m_attachId != 0 && o.value(QLatin1String("id")).toInteger() == m_attachId)
            handleAttached(o);
        return true;
    }
    // Another client attached to this session and the engine let this link go: not a drop to
    // reconnect from (two clients would take the engine from each other in turn).
    if (o.value(QLatin1String("type")).toString() == QLatin1String("detached")) {
        if (!m_sessionId.isEmpty()
            && o.value(QLatin1String("reason")).toString() == QLatin1String("replaced")) {
            m_takenOver = tr("%1: another client attached to this studio's engine session %2, so the engine "
                             "let this connection go. Its jobs go on there for that client; this studio does "
                             "not reconnect, so as not to take the session back.")
                              .arg(m_remote.displayName(), m_sessionId);
            m_sessionId.clear();
        }
        return true;
    }
    // Events a reattach replays that arrived before the drop: dropped, once each (FORMAT.md
    // "Detached engines": `seq` rises by one per numbered event of an engine instance).
    if (const QJsonValue seq = o.value(QLatin1String("seq")); seq.isDouble()) {
        if (seq.toInteger() <= m_lastSeq) {
            ++m_duplicateEvents;
            return true;
        }
        m_lastSeq = seq.toInteger();
    }
    return false;
}

bool EngineClient::handleSessionEnd(int exitCode, QProcess::ExitStatus status)
{
    if (!m_sessionId.isEmpty() && (m_wasReady || m_state == State::Reconnecting)) {
        // A detached engine outlives its link: reconnect, and the jobs wait (FORMAT.md "Detached engines").
        const QString reason
            = m_remote.describeExit(status == QProcess::CrashExit ? -1 : exitCode, m_stderrTail, m_wasReady);
        const QList<qint64> reads = m_reads.values();
        m_reads.clear();
        for (qint64 id : reads) // the ArtifactStore resumes them at the next handshake
            Q_EMIT readFailed(id, EngineError{QStringLiteral("read"), QStringLiteral("engine_crashed"), reason,
                                              tr("Reconnect and open the file again.")});
        m_attachId = 0;
        if (m_state != State::Reconnecting) {
            m_droppedAtMs = QDateTime::currentMSecsSinceEpoch();
            m_dropReason = reason;
            setState(State::Reconnecting);
        }
        if (m_reconnectAttempt >= m_maxReconnectAttempts)
            giveUpReconnecting(tr("%1 Reconnecting failed %2 times; the last attempt: %3")
                                   .arg(m_dropReason)
                                   .arg(m_reconnectAttempt)
                                   .arg(reason));
        else
            scheduleReconnect();
        return true;
    }
    if (!m_sessionId.isEmpty() && m_state == State::Starting && !m_wasReady
        && m_stderrTail.join(QLatin1Char('\n')).contains(QLatin1String("unknown option '--session'"))) {
        // An engine from before sessions on the host: start it the old way, and say what that costs.
        warnNoSession(tr("%1: the engine on the host is older than this studio and has no --session, so it was "
                         "started without one: a dropped connection will end its jobs. Update the engine on "
                         "the host to keep jobs running across drops.")
                          .arg(m_remote.displayName()));
        launch();
        return true;
    }
    return false;
}

void EngineClient::warnNoSession(const QString &message)
{
    m_sessionId.clear();
    Q_EMIT clientMessage(QStringLiteral("warning"), message);
    Q_EMIT logMessage(0, QStringLiteral("warning"), message);
}

bool EngineClient::isPending(qint64 id) const
{
    return std::any_of(m_pending.cbegin(), m_pending.cend(), [id](const QJsonObject &request) {
        return request.value(QLatin1String("id")).toInteger() == id;
    });
}

void EngineClient::handleAttached(const QJsonObject &attached)
{
    m_attachId = 0;
    QHash<qint64, QJsonObject> onEngine; // job id -> {state: queued, running or finished; first_seq, last_seq}
    for (const QJsonValue &job : attached.value(QLatin1String("jobs")).toArray())
        onEngine.insert(job.toObject().value(QLatin1String("id")).toInteger(), job.toObject());
    const bool reattaching = m_state == State::Reconnecting;
    const bool replaced = std::exchange(m_instanceChanged, false);
    // Events after..first_seq-1 were dropped from the engine's buffer before this client got them.
    const bool gap = attached.value(QLatin1String("gap")).toBool();
    const qint64 lostFrom = attached.value(QLatin1String("after")).toInteger() + 1;
    const qint64 lostTo = attached.value(QLatin1String("first_seq")).toInteger() - 1;
    QList<qint64> continued, lost;
    const QList<qint64> active = m_jobs.keys();
    for (qint64 id : active) {
        if (isPending(id))
            continue; // never reached an engine: sent now
        const QJsonObject job = onEngine.value(id);
        // An engine before per-job ranges: a job's events may be anywhere.
        const bool ranged = job.contains(QLatin1String("last_seq"));
        const qint64 jobFirst = job.value(QLatin1String("first_seq")).toInteger();
        const qint64 jobLast = job.value(QLatin1String("last_seq")).toInteger();
        if (!replaced && onEngine.contains(id) && gap && job.value(QLatin1String("state")).toString() == QLatin1String("finished")
            && (!ranged || jobLast <= lostTo)) {
            // Its end (the result or error) went with the gap: nothing more of it will come.
            lost << id;
            reportLost(id, tr("%1: job %2 ended on the host while the connection was down, but its last events "
                              "(%3 to %4 of the engine's) were no longer in the engine's replay buffer, so its "
                              "result did not arrive. Its folder on the host holds what it wrote.")
                               .arg(m_remote.displayName())
                               .arg(id)
                               .arg(lostFrom)
                               .arg(lostTo));
            continue;
        }
        if (!replaced && onEngine.contains(id)) {
            continued << id; // a finished one's end is in the replay
            if (gap && (!ranged || (jobFirst != 0 && jobFirst <= lostTo && jobLast >= lostFrom))) {
                const QString message
                    = tr("%1: job %2 goes on, but some of its events (among the engine's %3 to %4) were no longer in "
                         "the engine's replay buffer when the studio reattached: progress, snapshots or log lines "
                         "from that time are missing from this session.")
                          .arg(m_remote.displayName())
                          .arg(id)
                          .arg(lostFrom)
                          .arg(lostTo);
                Q_EMIT eventsLost(id, lostFrom, lostTo, message);
                Q_EMIT logMessage(id, QStringLiteral("warning"), message);
            }
            continue;
        }
        lost << id;
        reportLost(id, tr("%1: the connection was lost and the engine was gone when the studio reconnected, so job "
                          "%2 is lost. The events and files received before the drop are kept; the job's folder "
                          "on the host holds no half-written result (jobs write it atomically).")
                           .arg(m_remote.displayName())
                           .arg(id));
    }
    if (gap) {
        const QString warning = tr("%1: events %2 to %3 were no longer in the engine's replay buffer; the jobs they "
                                   "belonged to may show gaps.")
                                    .arg(m_remote.displayName())
                                    .arg(attached.value(QLatin1String("after")).toInteger() + 1)
                                    .arg(attached.value(QLatin1String("first_seq")).toInteger() - 1);
        Q_EMIT clientMessage(QStringLiteral("warning"), warning);
        Q_EMIT logMessage(0, QStringLiteral("warning"), warning);
    }
    const qint64 milliseconds = reattaching ? QDateTime::currentMSecsSinceEpoch() - m_droppedAtMs : 0;
    m_reconnectAttempt = 0;
    becomeReady();
    if (reattaching)
        Q_EMIT reattached(continued, lost, milliseconds);
}

void EngineClient::reportLost(qint64 id, const QString &why)
{
    const QString stage = m_jobs.value(id).stage;
    endJob(id);
    Q_EMIT errorReceived(id, EngineError{stage, QStringLiteral("engine_crashed"), why, tr("Run the job again.")});
}

void EngineClient::scheduleReconnect()
{
    const int attempt = ++m_reconnectAttempt;
    const int delay = reconnectDelayMs(attempt);
    Q_EMIT reconnecting(attempt, m_maxReconnectAttempts, m_dropReason);
    const QString message = tr("%1: the connection was lost; reconnecting in %2 s (attempt %3 of %4).")
                                .arg(m_remote.displayName())
                                .arg(delay / 1000.0)
                                .arg(attempt)
                                .arg(m_maxReconnectAttempts);
    Q_EMIT clientMessage(QStringLiteral("warning"), message);
    Q_EMIT logMessage(0, QStringLiteral("warning"), message);
    QTimer::singleShot(delay, this, [this, attempt] {
        if (m_state == State::Reconnecting && !m_process && m_reconnectAttempt == attempt)
            launch();
    });
}

void EngineClient::giveUpReconnecting(const QString &reason)
{
    const bool wasReconnecting = m_state == State::Reconnecting;
    m_reconnectAttempt = 0;
    m_attachId = 0;
    m_sessionId.clear();
    const QList<QJsonObject> pending = std::exchange(m_pending, {});
    for (const QJsonObject &request : pending) {
        const qint64 id = request.value(QLatin1String("id")).toInteger();
        endJob(id);
        Q_EMIT errorReceived(id, EngineError{QString(), QStringLiteral("engine_crashed"), reason, QString()});
    }
    if (wasReconnecting) {
        const QList<qint64> lost = m_jobs.keys();
        m_jobs.clear();
        for (qint64 id : lost)
            Q_EMIT errorReceived(id, EngineError{QString(), QStringLiteral("engine_crashed"), reason,
                                                 tr("Reconnect; if the engine on the host is still running, run the "
                                                    "job again (its folder is written atomically).")});
    }
    if (m_expectingExit)
        setState(State::NotRunning);
    else
        fail(reason);
}

} // namespace AotStudio::Client
