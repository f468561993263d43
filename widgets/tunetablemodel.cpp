// SPDX-License-Identifier: GPL-3.0-or-later
#include "tunetablemodel.h"

#include "charthelpers.h"
#include "numberformat.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace AotStudio::Widgets {

TuneTableModel::TuneTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void TuneTableModel::setResult(std::shared_ptr<const Client::TuneResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    m_rows.clear();
    if (m_result) {
        for (const auto &r : m_result->rows)
            m_rows << &r;
        for (const auto &r : m_result->baselines)
            m_rows << &r;
    }
    endResetModel();
}

int TuneTableModel::rowOf(const QString &name) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows[i]->name == name)
            return i;
    return -1;
}

int TuneTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int TuneTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TuneTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Client::TuneRow &r = *m_rows[index.row()];
    const bool onFront = m_result && m_result->front.contains(r.name);
    const bool chosen = m_result && !r.baseline && r.name == m_result->recipeName;
    switch (role) {
    case NameRole:
        return r.name;
    case UsableRole:
        return !r.baseline && r.ok() && r.kind != QLatin1String("eager");
    case SortRole:
        switch (index.column()) {
        case NameColumn:
            return r.name;
        case StatusColumn:
            return r.status;
        case MedianColumn:
            return r.medianMs;
        case SpeedupColumn:
            return r.speedupVsDefaults.estimate;
        case ErrorColumn:
            return r.maxAbsError;
        case CompileColumn:
            return r.compileSeconds;
        case PackageColumn:
            return r.packageBytes;
        case FrontColumn:
            return onFront;
        }
        return {};
    case Qt::FontRole:
        if (chosen) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ForegroundRole:
        if (!r.ok())
            return QBrush(QColor(0x8a, 0x8a, 0x8a));
        if (r.baseline)
            return QBrush(QColor(0x45, 0x5a, 0x64));
        return {};
    case Qt::TextAlignmentRole:
        return index.column() >= MedianColumn && index.column() <= PackageColumn
            ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
            : QVariant();
    case Qt::ToolTipRole:
        if (index.column() == StatusColumn && !r.reason.isEmpty())
            return r.reason;
        if (index.column() == NameColumn)
            return r.note.isEmpty() ? r.name : r.note;
        if (index.column() == SpeedupColumn)
            return tr("The defaults trial's median over this one's (> 1: faster), with the 95% interval of the paired "
                      "measurement");
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    const QString dash = QStringLiteral("—");
    switch (index.column()) {
    case NameColumn:
        if (r.baseline)
            return tr("%1 (baseline)").arg(r.name);
        return chosen ? tr("%1 (recipe)").arg(r.name) : r.name;
    case StatusColumn:
        if (r.status.isEmpty() || r.status == QLatin1String("ok"))
            return tr("ok");
        if (r.status == QLatin1String("failed"))
            return tr("failed");
        if (r.status == QLatin1String("skipped"))
            return tr("skipped");
        if (r.status == QLatin1String("cancelled"))
            return tr("cancelled");
        return r.status;
    case MedianColumn:
        return qIsNaN(r.medianMs) ? dash : formatNumber(r.medianMs, 'f', 4);
    case SpeedupColumn: {
        const Client::RatioInterval &s = r.speedupVsDefaults;
        if (r.name == QLatin1String("defaults"))
            return tr("1× (reference)");
        if (!s.isValid())
            return dash;
        if (!s.hasBounds())
            return tr("%1×").arg(formatNumber(s.estimate, 'f', 2));
        return tr("%1× (%2–%3)")
            .arg(formatNumber(s.estimate, 'f', 2), formatNumber(s.low, 'f', 2), formatNumber(s.high, 'f', 2));
    }
    case ErrorColumn:
        return qIsNaN(r.maxAbsError) ? dash : formatNumber(r.maxAbsError, 'g', 3);
    case CompileColumn:
        return qIsNaN(r.compileSeconds) ? dash : tr("%1 s").arg(formatNumber(r.compileSeconds, 'f', 1));
    case PackageColumn:
        return formatBytes(r.packageBytes);
    case FrontColumn:
        return onFront ? tr("yes") : QString();
    }
    return {};
}

QVariant TuneTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Trial");
    case StatusColumn:
        return tr("Status");
    case MedianColumn:
        return tr("Median (ms)");
    case SpeedupColumn:
        return tr("vs defaults");
    case ErrorColumn:
        return tr("Max abs error");
    case CompileColumn:
        return tr("Compile");
    case PackageColumn:
        return tr("Package");
    case FrontColumn:
        return tr("Pareto");
    }
    return {};
}

} // namespace AotStudio::Widgets
