// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "hubviewer.h"

#include <QPointer>
#include <QWidget>

class QTreeWidget;

namespace AotStudio::Client {
class Session;
}

namespace AotStudio::Widgets {

class SelectionHub;

/**
 * The Jobs dock (issue 35 item 3, after RenderDoc's capture list): the shown session's jobs,
 * newest first, each as its heading ("job 3 · compile · sample:mlp · cpu", JobHeading) and where
 * it stands (running with its stage, done in N s, failed at a stage, cancelled). Picking one
 * selects it in the hub, so every dock shows that job; the dock follows a pick made elsewhere and
 * a newer running job. Live: rows appear when a job is sent and their state follows its events.
 */
class JobsPanel : public QWidget, public HubViewer
{
    Q_OBJECT
public:
    explicit JobsPanel(SelectionHub *hub, QWidget *parent = nullptr);

    void onSessionChanged(Client::Session *session) override;
    void onJobChanged(qint64 id) override { followJob(id); }
    void onJobUpdated(qint64) override { reload(); }
    void onResultsChanged() override { reload(); }

    QTreeWidget *view() const { return m_view; }

private:
    /// Rebuilds the rows from the session (tens of jobs: cheap), keeping the selection.
    void reload();
    void followJob(qint64 id);

    SelectionHub *m_hub;
    QTreeWidget *m_view;
    QPointer<Client::Session> m_session;
    bool m_following = false; ///< selection set from the hub: do not send it back
};

} // namespace AotStudio::Widgets
