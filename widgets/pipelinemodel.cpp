// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipelinemodel.h"

#include "numberformat.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include <algorithm>

namespace AotStudio::Widgets {

PipelineModel::PipelineModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void PipelineModel::setSnapshots(const QList<Client::SnapshotRecord> &snapshots)
{
    const qsizetype shown = m_rows.size();
    if (snapshots.size() > shown && std::equal(m_rows.cbegin(), m_rows.cend(), snapshots.cbegin())) {
        beginInsertRows({}, int(shown), int(snapshots.size()) - 1);
        m_rows = snapshots;
        endInsertRows();
        return;
    }
    if (snapshots == m_rows)
        return;
    beginResetModel();
    m_rows = snapshots;
    endResetModel();
}

void PipelineModel::setRunningStage(const QString &stage)
{
    if (stage == m_running)
        return;
    const int row = int(m_rows.size());
    if (m_running.isEmpty()) {
        beginInsertRows({}, row, row);
        m_running = stage;
        endInsertRows();
    } else if (stage.isEmpty()) {
        beginRemoveRows({}, row, row);
        m_running.clear();
        endRemoveRows();
    } else {
        m_running = stage;
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    }
}

int PipelineModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size()) + (m_running.isEmpty() ? 0 : 1);
}

int PipelineModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PipelineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StageColumn: return tr("Stage");
    case PassColumn: return tr("Pass");
    case NodesColumn: return tr("Nodes");
    case DeltaColumn: return tr("Δ nodes");
    case TimeColumn: return tr("Time (ms)");
    default: return {};
    }
}

QVariant PipelineModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (index.row() >= m_rows.size()) { // the running row
        switch (role) {
        case Qt::DisplayRole:
            return index.column() == StageColumn ? m_running : index.column() == PassColumn ? tr("running…") : QVariant();
        case Qt::FontRole: {
            QFont font;
            font.setItalic(true);
            return font;
        }
        case Qt::ToolTipRole: return tr("The stage the job is running now; its passes appear as they finish.");
        case ChangedRole: return true;
        case SnapshotIndexRole: return -1;
        case SortRole: return index.row();
        default: return {};
        }
    }
    const auto &s = m_rows[index.row()];
    const int delta = s.previousNodes >= 0 ? s.nodes - s.previousNodes : 0;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case StageColumn: return s.stage;
        case PassColumn: return s.pass;
        case NodesColumn: return s.nodes;
        case DeltaColumn:
            if (s.previousNodes < 0)
                return QString();
            return delta > 0 ? QStringLiteral("+%1").arg(delta) : QString::number(delta);
        case TimeColumn: return formatNumber(s.seconds * 1e3, 'f', s.seconds < 0.01 ? 3 : 1);
        }
        break;
    case SortRole:
        switch (index.column()) {
        case NodesColumn: return s.nodes;
        case DeltaColumn: return delta;
        case TimeColumn: return s.seconds;
        default: return index.row(); // pipeline order
        }
    case Qt::ForegroundRole:
        if (!s.changed || (!s.graph && index.column() != StageColumn))
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        if (index.column() == DeltaColumn && delta != 0)
            return QBrush(delta < 0 ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
        break;
    case Qt::TextAlignmentRole:
        if (index.column() >= NodesColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case Qt::ToolTipRole:
        if (!s.changed)
            return tr("This pass ran and left the graph unchanged.");
        if (s.stage == QLatin1String("fusion"))
            return tr("Scheduler fusion: %1 nodes before, %2 after.").arg(s.previousNodes).arg(s.nodes);
        if (s.stage == QLatin1String("codegen"))
            return tr("%n generated kernel(s) and library calls.", nullptr, s.nodes);
        return s.path.isEmpty() ? tr("No snapshot was written (snapshots were off).") : s.path;
    case ChangedRole: return s.changed;
    case SnapshotIndexRole: return index.row();
    case PathRole: return s.path;
    }
    return {};
}

PipelineFilterModel::PipelineFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(PipelineModel::SortRole);
}

void PipelineFilterModel::setShowUnchanged(bool show)
{
    if (show == m_showUnchanged)
        return;
    m_showUnchanged = show;
    invalidateFilter();
}

bool PipelineFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_showUnchanged)
        return true;
    return sourceModel()->index(sourceRow, 0, sourceParent).data(PipelineModel::ChangedRole).toBool();
}

} // namespace AotStudio::Widgets
