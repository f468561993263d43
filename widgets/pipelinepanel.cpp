// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipelinepanel.h"

#include "pipelinemodel.h"
#include "selectionhub.h"
#include "tableutil.h"

#include <QCheckBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace AotStudio::Widgets {

PipelinePanel::PipelinePanel(SelectionHub *hub, QWidget *parent)
    : QWidget(parent)
    , m_hub(hub)
    , m_model(new PipelineModel(this))
    , m_proxy(new PipelineFilterModel(this))
    , m_view(new QTableView(this))
    , m_showUnchanged(new QCheckBox(tr("Show unchanged passes"), this))
    , m_summary(new QLabel(this))
{
    m_proxy->setSourceModel(m_model);
    setUpTableView(m_view, m_proxy);
    auto *header = m_view->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(PipelineModel::PassColumn, QHeaderView::Stretch);
    m_view->setSortingEnabled(false); // pipeline order is the point
    m_proxy->sort(-1);
    m_view->horizontalHeader()->setSortIndicatorShown(false);
    m_showUnchanged->setToolTip(tr("Also list the passes that ran and left the graph as it was"));
    m_summary->setWordWrap(true);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_showUnchanged);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_summary);

    connect(m_showUnchanged, &QCheckBox::toggled, this, &PipelinePanel::setShowUnchanged);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        if (current.isValid())
            m_hub->selectSnapshot(current.data(PipelineModel::SnapshotIndexRole).toInt());
    });
    hub->addViewer(this, this);
    reload();
}

void PipelinePanel::setShowUnchanged(bool show)
{
    m_showUnchanged->setChecked(show);
    m_proxy->setShowUnchanged(show);
    followSnapshot(m_hub->currentSnapshot());
}

void PipelinePanel::reload()
{
    const auto *job = m_hub->currentJobRecord();
    const auto snapshots = job ? job->snapshots : QList<Client::SnapshotRecord>();
    if (snapshots != m_model->snapshots())
        m_model->setSnapshots(snapshots);
    int passes = 0, unchanged = 0, files = 0;
    for (const auto &s : snapshots) {
        if (!s.pass.isEmpty())
            ++(s.changed ? passes : unchanged);
        if (s.graph && !s.path.isEmpty())
            ++files;
    }
    m_summary->setText(job ? tr("%1 snapshots; %2 passes changed the graph, %3 left it unchanged.")
                                 .arg(files)
                                 .arg(passes)
                                 .arg(unchanged)
                           : tr("No compile yet: open a model and press Compile."));
    followSnapshot(m_hub->currentSnapshot());
}

void PipelinePanel::followSnapshot(int index)
{
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        const QModelIndex i = m_proxy->index(row, 0);
        if (i.data(PipelineModel::SnapshotIndexRole).toInt() == index) {
            if (m_view->currentIndex().row() != row)
                m_view->setCurrentIndex(i);
            return;
        }
    }
}

} // namespace AotStudio::Widgets
