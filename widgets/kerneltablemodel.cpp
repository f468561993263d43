// SPDX-License-Identifier: GPL-3.0-or-later
#include "kerneltablemodel.h"

#include "numberformat.h"

namespace AotStudio::Widgets {

namespace {
QString dash(double v, int precision = 3)
{
    return qIsNaN(v) ? QStringLiteral("—") : formatNumber(v, 'g', precision);
}
} // namespace

KernelTableModel::KernelTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void KernelTableModel::setCatalog(std::shared_ptr<const Client::KernelCatalog> catalog)
{
    beginResetModel();
    m_catalog = std::move(catalog);
    endResetModel();
}

int KernelTableModel::rowOf(const QString &nameOrId) const
{
    if (!m_catalog)
        return -1;
    const auto *k = m_catalog->find(nameOrId);
    return k ? int(k - m_catalog->kernels().data()) : -1;
}

int KernelTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_catalog ? 0 : int(m_catalog->kernels().size());
}

int KernelTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case NameColumn: return tr("Kernel");
        case KindColumn: return tr("Kind");
        case CallsColumn: return tr("Calls");
        case TotalColumn: return tr("Total (ms)");
        case MeanColumn: return tr("Mean (ms)");
        case ShareColumn: return tr("Share");
        case NodesColumn: return tr("Covered nodes");
        }
    } else if (role == Qt::ToolTipRole) {
        switch (section) {
        case KindColumn: return tr("cpp: generated C++; triton: generated Triton; library: a call into ATen, oneDNN or cuBLAS");
        case ShareColumn: return tr("This kernel's share of the summed time of all kernels in the profile");
        case NodesColumn: return tr("Post-grad graph nodes this kernel computes (Inductor provenance)");
        }
    }
    return {};
}

QVariant KernelTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto &k = m_catalog->kernels()[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn: return k.name;
        case KindColumn: return k.kind;
        case CallsColumn: return k.calls > 0 ? QString::number(k.calls) : QStringLiteral("—");
        case TotalColumn: return dash(k.totalMs);
        case MeanColumn: return dash(k.meanMs);
        case ShareColumn: return qIsNaN(k.share) ? QStringLiteral("—") : formatNumber(k.share * 100, 'f', 1) + QLatin1Char('%');
        case NodesColumn: return k.postGradNodes.join(QStringLiteral(", "));
        }
        break;
    case SortRole:
        switch (index.column()) {
        case CallsColumn: return k.calls;
        case TotalColumn: return qIsNaN(k.totalMs) ? -1.0 : k.totalMs;
        case MeanColumn: return qIsNaN(k.meanMs) ? -1.0 : k.meanMs;
        case ShareColumn: return qIsNaN(k.share) ? -1.0 : k.share;
        case NodesColumn: return int(k.postGradNodes.size());
        case KindColumn: return k.kind;
        default: return k.name;
        }
    case Qt::ToolTipRole:
        if (index.column() == NodesColumn || index.column() == NameColumn) {
            QString tip = tr("Post-grad nodes: %1").arg(k.postGradNodes.join(QStringLiteral(", ")));
            if (!k.preGradNodes.isEmpty())
                tip += QLatin1Char('\n') + tr("From pre-grad nodes: %1").arg(k.preGradNodes.join(QStringLiteral(", ")));
            if (!k.libraryOp.isEmpty())
                tip += QLatin1Char('\n') + tr("Library op: %1").arg(k.libraryOp);
            return tip;
        }
        break;
    case Qt::TextAlignmentRole:
        if (index.column() >= CallsColumn && index.column() <= ShareColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case IdRole: return k.id;
    case FilterRole:
        return k.name + QLatin1Char(' ') + k.kind + QLatin1Char(' ') + k.libraryOp + QLatin1Char(' ')
             + k.postGradNodes.join(QLatin1Char(' ')) + QLatin1Char(' ') + k.preGradNodes.join(QLatin1Char(' '));
    }
    return {};
}

} // namespace AotStudio::Widgets
