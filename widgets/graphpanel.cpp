// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphpanel.h"

#include "nodetablemodel.h"
#include "selectionhub.h"
#include "tableutil.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

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

    auto *nodes = new QWidget(this);
    auto *nodesLayout = new QVBoxLayout(nodes);
    nodesLayout->setContentsMargins(0, 0, 0, 0);
    nodesLayout->addWidget(m_search);
    nodesLayout->addWidget(m_view, 1);
    m_tabs->addTab(nodes, tr("Nodes"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_title);
    layout->addWidget(m_tabs, 1);

    connect(m_search, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        if (current.isValid())
            m_hub->selectNode(current.data(NodeTableModel::NameRole).toString());
    });
    connect(hub, &SelectionHub::snapshotChanged, this, &GraphPanel::reload);
    connect(hub, &SelectionHub::sessionChanged, this, &GraphPanel::reload);
    connect(hub, &SelectionHub::nodeChanged, this, &GraphPanel::followNode);
    connect(hub, &SelectionHub::kernelChanged, this, &GraphPanel::highlightKernel);
    reload();
}

void GraphPanel::setSearchText(const QString &text)
{
    m_search->setText(text);
}

void GraphPanel::reload()
{
    const auto snapshot = m_hub->snapshotFile();
    if (snapshot != m_model->snapshot())
        m_model->setSnapshot(snapshot);
    const auto *record = m_hub->currentSnapshotRecord();
    if (snapshot && record)
        m_title->setText(tr("%1 — %n node(s)", nullptr, int(snapshot->nodes().size())).arg(record->label()));
    else if (!m_hub->snapshotError().isEmpty())
        m_title->setText(m_hub->snapshotError());
    else
        m_title->setText(tr("No snapshot selected: pick a stage or pass in the Pipeline panel."));
    highlightKernel(m_hub->currentKernel());
}

void GraphPanel::followNode(const QString &name)
{
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
    m_model->setHighlighted(k ? k->postGradNodes + k->preGradNodes : QStringList());
}

} // namespace AotStudio::Widgets
