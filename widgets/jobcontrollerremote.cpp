// SPDX-License-Identifier: GPL-3.0-or-later
// JobController's part for a remote engine's link (FORMAT.md "Detached engines"): the banner and
// status line while the client reconnects, which jobs went on after the reattach, and the job log
// line for events a replay no longer had. Apart from jobcontroller.cpp (over the size budget,
// tools/check-size.py).
#include "jobcontroller.h"

#include "client/engineclient.h"
#include "client/session.h"

#include <QLocale>

namespace AotStudio::Widgets {

void JobController::connectRemoteLink(Client::Session *live)
{
    using Client::EngineClient;
    // A dropped remote link costs a retry, not the job (FORMAT.md "Detached engines"): say so while the
    // client reconnects, then which jobs went on.
    connect(m_client, &EngineClient::reconnecting, this, [this](int attempt, int attempts, const QString &reason) {
        Q_EMIT engineProblem(tr("<b>Connection to %1 lost — reconnecting (attempt %2 of %3)…</b> Running jobs go on "
                                "on the host.")
                                 .arg(m_client->remote().displayName().toHtmlEscaped())
                                 .arg(attempt)
                                 .arg(attempts),
                             false);
        Q_EMIT statusMessage(tr("Connection to %1 lost — reconnecting (attempt %2 of %3)…")
                                 .arg(m_client->remote().displayName())
                                 .arg(attempt)
                                 .arg(attempts),
                             0);
        Q_EMIT logMessage(0, QStringLiteral("debug"), reason);
        Q_EMIT engineStateChanged();
    });
    connect(m_client, &EngineClient::reattached, this,
            [this](const QList<qint64> &continued, const QList<qint64> &lost, qint64 milliseconds) {
                QStringList ids;
                for (qint64 id : continued)
                    ids << QString::number(id);
                const QString host = m_client->remote().displayName();
                QString text = continued.isEmpty()     ? tr("Reattached to %1.").arg(host)
                               : continued.size() == 1 ? tr("Reattached to %1; job %2 continued.").arg(host, ids.first())
                                                       : tr("Reattached to %1; jobs %2 continued.")
                                                             .arg(host, ids.join(QStringLiteral(", ")));
                QStringList lostIds;
                for (qint64 id : lost)
                    lostIds << QString::number(id);
                if (!lost.isEmpty())
                    text += QLatin1Char(' ')
                            + tr("Lost (the log says why): %1.").arg(lostIds.join(QStringLiteral(", ")));
                Q_EMIT engineProblem(text.toHtmlEscaped(), false);
                Q_EMIT logMessage(0, QStringLiteral("info"),
                                  tr("%1 (%2 s after the link dropped)").arg(text, QLocale().toString(milliseconds / 1000.0, 'f', 1)));
                Q_EMIT engineStateChanged();
            });

    // Events a reattach could no longer replay: the job's log says so (the session shows a gap).
    connect(m_client, &EngineClient::eventsLost, live,
            [live](qint64 id, qint64, qint64, const QString &message) { live->recordLog(id, QStringLiteral("warning"), message); });
}

} // namespace AotStudio::Widgets
