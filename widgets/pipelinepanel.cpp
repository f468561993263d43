// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipelinepanel.h"

#include "jobheading.h"
#include "numberformat.h"

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
    m_summary->setObjectName(QStringLiteral("pipelineSummary"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_showUnchanged);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_summary);

    connect(m_showUnchanged, &QCheckBox::toggled, this, &PipelinePanel::setShowUnchanged);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        const int snapshot = current.isValid() ? current.data(PipelineModel::SnapshotIndexRole).toInt() : -1;
        if (snapshot >= 0) // not the running row
            m_hub->selectSnapshot(snapshot);
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
    m_model->setSnapshots(snapshots);
    m_model->setStages(job ? job->stages : QList<Client::StageRecord>(), job ? job->engineWallSeconds() : -1);
    m_model->setRunningStage(job && !job->finished()
                                 ? (job->currentStage.isEmpty() ? QStringLiteral("load") : job->currentStage)
                                 : QString());
    int passes = 0, unchanged = 0, files = 0;
    for (const auto &s : snapshots) {
        if (!s.pass.isEmpty())
            ++(s.changed ? passes : unchanged);
        if (s.graph && !s.path.isEmpty())
            ++files;
    }
    const QString counts = tr("%1 snapshots; %2 passes changed the graph, %3 left it unchanged.")
                               .arg(files)
                               .arg(passes)
                               .arg(unchanged);
    QString accounted;
    if (const double wall = m_model->wallSeconds(); job && wall > 0) {
        // The stages' share of the engine's wall time (the rest is the "unattributed" row).
        accounted = QLatin1Char('\n')
                    + tr("The stages account for %1 of the engine's %2 s.")
                          .arg(formatPercent(m_model->accountedSeconds() / wall), formatNumber(wall, 'f', 1));
    }
    // The job and where it stands head the dock (JobView): the summary counts its passes and,
    // for a failure, says why it stopped (the header has it in a few words).
    const QString why = job && job->error && !job->error->isCancellation() ? JobHeading::state(*job) + QLatin1Char('\n')
                                                                            : QString();
    m_summary->setText(job ? why + counts + accounted
                           : tr("No compile yet: open a model and press Compile."));
    followSnapshot(m_hub->currentSnapshot());
}

void PipelinePanel::followSnapshot(int index)
{
    if (index < 0) { // none selected (never the running row, whose index is -1 too)
        m_view->selectionModel()->clearCurrentIndex();
        m_view->clearSelection();
        return;
    }
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
