// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobspanel.h"

#include "jobheading.h"
#include "selectionhub.h"

#include "client/session.h"

#include <QHeaderView>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace AotStudio::Widgets {

namespace {
constexpr int JobIdRole = Qt::UserRole + 1;
}

JobsPanel::JobsPanel(SelectionHub *hub, QWidget *parent)
    : QWidget(parent)
    , m_hub(hub)
    , m_view(new QTreeWidget(this))
{
    m_view->setObjectName(QStringLiteral("jobsView"));
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setHeaderLabels({tr("Job"), tr("State")});
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_view->setToolTip(tr("The session's jobs, newest first: pick one to show it in every dock"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_view);
    connect(m_view, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *current) {
        if (!m_following && current)
            m_hub->selectJob(current->data(0, JobIdRole).toLongLong());
    });
    hub->addViewer(this, this);
    onSessionChanged(hub->session());
}

void JobsPanel::onSessionChanged(Client::Session *session)
{
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    m_session = session;
    // Every job of the session, not only the shown one: a job sent while another is shown.
    if (session)
        connect(session, &Client::Session::jobChanged, this, [this](qint64 id) {
            if (id > 0)
                reload();
        });
    reload();
}

void JobsPanel::reload()
{
    m_following = true;
    m_view->clear();
    if (m_session) {
        const auto &jobs = m_session->jobs();
        for (auto it = jobs.crbegin(); it != jobs.crend(); ++it) {
            if (it->kind.isEmpty() && it->request.isEmpty() && !it->finished())
                continue; // events of a job whose request was never seen (a partial recording)
            auto *item = new QTreeWidgetItem(m_view, {JobHeading::heading(*it), JobHeading::state(*it)});
            item->setData(0, JobIdRole, it->id);
            item->setToolTip(0, JobHeading::heading(*it));
            item->setToolTip(1, JobHeading::state(*it));
        }
    }
    if (m_view->topLevelItemCount() == 0) {
        auto *none = new QTreeWidgetItem(m_view, {tr("No jobs yet: Compile, Profile or open a session"), QString()});
        none->setFlags(Qt::NoItemFlags);
    }
    m_view->resizeColumnToContents(0);
    m_following = false;
    followJob(m_hub->currentJob());
}

void JobsPanel::followJob(qint64 id)
{
    m_following = true;
    for (int i = 0; i < m_view->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_view->topLevelItem(i);
        if (item->data(0, JobIdRole).toLongLong() == id && id > 0) {
            m_view->setCurrentItem(item);
            break;
        }
    }
    m_following = false;
}

} // namespace AotStudio::Widgets
