// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphpanel.h"

#include "graphview/errorscale.h"
#include "graphview/graphdiffview.h"
#include "graphview/graphview.h"
#include "graph/graph.h"

#include "client/memoryplan.h"
#include "inspectorpanel.h"

#include "nodetablemodel.h"
#include "selectionhub.h"
#include "tableutil.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace AotStudio::Widgets {

GraphPanel::GraphPanel(SelectionHub *hub, QWidget *parent)
    : QWidget(parent)
    , m_hub(hub)
    , m_model(new NodeTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_tabs(new QTabWidget(this))
    , m_title(new QLabel(this))
    , m_search(new QLineEdit(this))
    , m_view(new QTableView(this))
    , m_graphView(new GraphView(this))
    , m_diffView(new GraphDiffView(this))
    , m_numericsBar(new QWidget(this))
    , m_errorSide(new QComboBox(this))
    , m_firstDivergent(new QPushButton(this))
    , m_legend(new ErrorScaleLegend(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterRole(NodeTableModel::FilterRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    setUpTableView(m_view, m_proxy);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // graph order until the user sorts
    m_view->horizontalHeader()->resizeSection(NodeTableModel::NameColumn, 160);
    m_view->horizontalHeader()->resizeSection(NodeTableModel::TargetColumn, 200);
    m_search->setPlaceholderText(tr("Search by name, op, module or source line…"));
    m_search->setClearButtonEnabled(true);
    m_title->setWordWrap(true);
    m_title->setObjectName(QStringLiteral("graphTitle"));

    auto *nodes = new QWidget(this);
    auto *nodesLayout = new QVBoxLayout(nodes);
    nodesLayout->setContentsMargins(0, 0, 0, 0);
    nodesLayout->addWidget(m_search);
    nodesLayout->addWidget(m_view, 1);
    m_tabs->addTab(m_graphView, tr("Graph"));
    m_tabs->addTab(m_diffView, tr("Diff"));
    m_tabs->addTab(nodes, tr("Nodes"));
    m_tabs->setTabToolTip(1, tr("The selected snapshot against the one before it: added, removed and changed nodes"));

    m_numericsBar->setObjectName(QStringLiteral("numericsBar"));
    m_errorSide->setObjectName(QStringLiteral("numericsSide"));
    m_errorSide->addItem(tr("Eager"), QStringLiteral("eager"));
    m_errorSide->addItem(tr("Compiled"), QStringLiteral("compiled"));
    m_errorSide->setToolTip(tr("Whose error colours the nodes: eager (op by op in the run's dtype) or compiled "
                               "(AOTInductor, every intermediate exposed), each against the float64 reference"));
    m_firstDivergent->setObjectName(QStringLiteral("firstDivergentButton"));
    m_firstDivergent->setToolTip(tr("Select the first node past the tolerance whose inputs are all within it: "
                                    "where the error starts"));
    auto *barLayout = new QHBoxLayout(m_numericsBar);
    barLayout->setContentsMargins(0, 0, 0, 0);
    barLayout->addWidget(new QLabel(tr("Error of:"), m_numericsBar));
    barLayout->addWidget(m_errorSide);
    barLayout->addWidget(m_firstDivergent);
    barLayout->addWidget(m_legend, 1);
    m_numericsBar->hide();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_title);
    layout->addWidget(m_numericsBar);
    layout->addWidget(m_tabs, 1);

    connect(m_errorSide, &QComboBox::currentIndexChanged, this, [this] {
        m_numericsShown = nullptr; // recolour for the other side
        updateNumerics();
    });
    connect(m_firstDivergent, &QPushButton::clicked, this, [this] {
        const QString node = m_firstDivergent->property("node").toString();
        if (node.isEmpty())
            return;
        m_tabs->setCurrentWidget(m_graphView);
        m_hub->selectNode(node);
        // Close enough to read the node's label and its neighbours', centred on it: the view stays
        // there when the details below it grow (a view that was moved is not fitted again).
        GraphCanvas *canvas = m_graphView->canvas();
        canvas->setView(std::max(canvas->scale(), GraphCanvas::LabelScale * 1.6), canvas->sceneCentre());
        m_graphView->centerOnNode(node);
    });

    connect(m_search, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        if (current.isValid())
            m_hub->selectNode(current.data(NodeTableModel::NameRole).toString());
    });
    connect(m_graphView, &GraphView::nodeSelected, hub, &SelectionHub::selectNode);
    connect(m_diffView, &GraphDiffView::nodeSelected, hub, &SelectionHub::selectNode);
    connect(m_diffView, &GraphDiffView::passChanged, this, [this](int index) {
        if (index >= 0 && index < m_diffSnapshots.size())
            m_hub->selectSnapshot(m_diffSnapshots[index]);
    });
    m_diffView->setDeferred(hub->snapshots());
    hub->addViewer(this, this);
    reload();
}

void GraphPanel::setSearchText(const QString &text)
{
    m_search->setText(text);
}

void GraphPanel::reload()
{
    // One parse of the snapshot (the hub's, read off the UI thread) feeds the table, the
    // inspector and the drawing; the drawing's layout is computed off the UI thread too.
    const auto snapshot = m_hub->snapshot();
    if (snapshot != m_model->snapshot())
        m_model->setSnapshot(snapshot);
    updateTitle();
    if (snapshot != m_graphView->snapshot())
        m_graphView->setSnapshotInBackground(snapshot);
    syncDiff();
    highlightKernel(m_hub->currentKernel());
    updateNumerics();
}

void GraphPanel::updateTitle()
{
    const auto snapshot = m_hub->snapshot();
    const auto *record = m_hub->currentSnapshotRecord();
    if (snapshot && record)
        m_title->setText(tr("%1 — %n node(s)", nullptr, int(snapshot->nodes.size())).arg(record->label()));
    else if (!m_hub->snapshotError().isEmpty())
        m_title->setText(m_hub->snapshotError());
    else if (const auto *job = m_hub->currentJobRecord(); job && job->snapshots.isEmpty() && job->error)
        // A job that stopped before its first snapshot (a model that does not load, an export
        // that fails): there is no graph to pick, and the header above says where it stopped.
        m_title->setText(tr("No graph: this job stopped before its first snapshot."));
    else if (job && job->snapshots.isEmpty() && !job->finished())
        m_title->setText(tr("No graph yet: the first snapshot appears when export finishes."));
    else if (job && job->snapshots.isEmpty()) // a job of another kind (a bundle's profile, a tune)
        m_title->setText(tr("No graph: this job records no graph snapshots; pick a compile in the Jobs dock."));
    else
        m_title->setText(tr("No snapshot selected: pick a stage or pass in the Pipeline panel."));
}

void GraphPanel::updateNumerics()
{
    using Side = Client::NumericsResult::Side;
    const auto numerics = m_hub->numerics();
    if (!numerics) {
        if (m_numericsShown) {
            m_graphView->setNodeErrors({}, 0);
            if (m_graphView->colourMode() == ColourMode::NumericError)
                m_graphView->setColourMode(ColourMode::OpCategory);
        }
        m_numericsShown = nullptr;
        m_numericsBar->hide();
        return;
    }
    if (m_numericsShown == numerics.get())
        return;
    const bool first = m_numericsShown == nullptr && m_graphView->colourMode() != ColourMode::NumericError;
    m_numericsShown = numerics.get();
    const Side side = m_errorSide->currentData().toString() == QLatin1String("compiled") ? Side::Compiled : Side::Eager;
    m_graphView->setNodeErrors(numerics->normErrors(side), numerics->tolerance);
    if (first)
        m_graphView->setColourMode(ColourMode::NumericError);
    m_legend->setTolerance(numerics->tolerance);
    const auto &divergent = numerics->firstDivergent(side);
    m_firstDivergent->setProperty("node", divergent ? divergent->node : QString());
    m_firstDivergent->setEnabled(divergent.has_value());
    m_firstDivergent->setText(divergent ? tr("First divergent: %1").arg(divergent->node)
                                        : tr("No node past the tolerance"));
    m_numericsBar->setToolTip(numerics->verdict);
    m_numericsBar->show();
}

void GraphPanel::syncDiff()
{
    const auto *job = m_hub->currentJobRecord();
    QStringList paths;
    QList<int> indices;
    if (job) {
        for (int i = 0; i < job->snapshots.size(); ++i) {
            const auto &s = job->snapshots[i];
            if (s.graph && !s.path.isEmpty()) {
                paths.append(m_hub->resolve(s.path));
                indices.append(i);
            }
        }
    }
    if (paths != m_diffView->snapshotPaths()) {
        m_diffSnapshots = indices;
        QSignalBlocker block(m_diffView); // showing the first step is not a user's pick
        m_diffView->setSnapshotPaths(paths);
    }
    const int position = indices.indexOf(m_hub->currentSnapshot());
    if (position >= 1 && position != m_diffView->passIndex()) {
        QSignalBlocker block(m_diffView);
        m_diffView->setPassIndex(position);
    }
}

void GraphPanel::loadKernelData()
{
    QHash<QString, QStringList> coverage;
    QHash<QString, double> times;
    if (const auto kernels = m_hub->kernels()) {
        for (const auto &k : kernels->kernels()) {
            coverage[k.name] += k.postGradNodes;
            if (!qIsNaN(k.totalMs))
                times[k.name] += k.totalMs; // total over the profiled runs: where the time goes
        }
    }
    m_graphView->setKernelCoverage(coverage);
    m_graphView->setKernelTimes(times);
    m_diffView->setKernelCoverage(coverage);
    m_diffView->setKernelTimes(times);
    loadFusion();
}

void GraphPanel::loadFusion()
{
    // fusion.json names post-grad FX nodes: the colours apply to the post-grad snapshots and to
    // the nodes an earlier stage shares with them; every other node is "no decision".
    QHash<QString, QString> status;
    QHash<QString, QString> tips;
    QString note;
    const auto fusion = m_hub->fusionDecisions();
    const auto *job = m_hub->currentJobRecord();
    if (fusion && fusion->available) {
        for (auto it = fusion->nodes.constBegin(); it != fusion->nodes.constEnd(); ++it) {
            status.insert(it.key(), it->status);
            QStringList lines{QStringLiteral("<b>%1</b>: %2").arg(it.key().toHtmlEscaped(),
                                                                  InspectorPanel::fusionStatusText(it->status))};
            const auto refusals = InspectorPanel::fusionRefusals(*fusion, it.key());
            for (int i = 0; i < refusals.size() && i < 6; ++i)
                lines << QStringLiteral("%1 — %2").arg(refusals[i].first.toHtmlEscaped(),
                                                       refusals[i].second.toHtmlEscaped());
            if (refusals.size() > 6)
                lines << tr("%n more refused pair(s) in the Inspector", nullptr, int(refusals.size() - 6));
            tips.insert(it.key(), lines.join(QStringLiteral("<br>")));
        }
        note = tr("Fusion decisions of job %1: %n refused pair(s).", nullptr, int(fusion->refused.size()))
                   .arg(job ? job->id : 0);
    } else if (fusion) {
        note = tr("No fusion decisions: %1").arg(fusion->reason);
    } else if (job) {
        note = tr("This job has no fusion decisions (fusion.json): only a compile made by this version records "
                  "them.");
    }
    m_graphView->setNodeFusion(status, tips, note);
}

void GraphPanel::followNode(const QString &name)
{
    if (!name.isEmpty() && m_graphView->selectedNode() != name) {
        QSignalBlocker block(m_graphView);
        m_graphView->selectNode(name);
    }
    const int row = m_model->rowOf(name);
    if (row < 0)
        return;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    if (index.isValid() && m_view->currentIndex().row() != index.row()) {
        QSignalBlocker block(m_view->selectionModel());
        m_view->setCurrentIndex(index);
        m_view->selectRow(index.row());
        m_view->scrollTo(index);
    }
}

void GraphPanel::highlightKernel(const QString &nameOrId)
{
    const auto kernels = m_hub->kernels();
    const auto *k = kernels && !nameOrId.isEmpty() ? kernels->find(nameOrId) : nullptr;
    const QStringList nodes = k ? k->postGradNodes + k->preGradNodes : QStringList();
    m_model->setHighlighted(nodes);
    m_graphView->highlightNodes(nodes);
    m_diffView->highlightNodes(nodes);
}

} // namespace AotStudio::Widgets
