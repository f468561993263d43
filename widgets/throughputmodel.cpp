// SPDX-License-Identifier: GPL-3.0-or-later
#include "throughputmodel.h"

#include "charthelpers.h"
#include "measurementtext.h"
#include "numberformat.h"

#include <QBrush>
#include <QColor>

#include <cmath>

namespace AotStudio::Widgets {

ThroughputModel::ThroughputModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void ThroughputModel::setRows(const QList<Client::ThroughputRow> &throughput)
{
    beginResetModel();
    m_rows.clear();
    for (const Row &row : throughput) {
        if (row.runners > 0)
            m_rows << row;
    }
    endResetModel();
}

void ThroughputModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

int ThroughputModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ThroughputModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ThroughputModel::inconsistentReason(const Row &row)
{
    QString text = tr("Calls per second do not agree with this runner's own latency: its calls run back to back, "
                      "so the rate should be 1000 / mean latency (within 10%); time went somewhere between calls.");
    if (!std::isnan(row.meanMs) && row.meanMs > 0)
        text += QLatin1Char(' ')
                + tr("Expected %1 calls/s, measured %2.")
                      .arg(formatNumber(1000 / row.meanMs, 'f', 0), formatNumber(row.callsPerSecond, 'f', 0));
    return text;
}

QVariant ThroughputModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    const auto raw = [](double value) { return std::isnan(value) ? QVariant() : QVariant(value); };
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case RunnersColumn:
            return row.runners;
        case ThreadsColumn:
            return row.intraOpThreads > 0 ? QVariant(row.intraOpThreads) : QVariant(QStringLiteral("—"));
        case ThroughputColumn:
            if (std::isnan(row.callsPerSecond))
                return QStringLiteral("—");
            // The median per-window rate with its interval; older results have the counted rate alone.
            if (!row.rate.isValid())
                return formatNumber(row.callsPerSecond, 'f', 0) + QLatin1Char(' ') + MeasurementText::interval(row.rate);
            return MeasurementText::valueWithInterval(row.rate, 0);
        case ScalingColumn:
            if (row.runners == 1)
                return tr("1× (baseline)");
            return row.scaling.isValid() ? MeasurementText::ratioWithInterval(row.scaling, MeasurementText::Slower::None)
                                         : QStringLiteral("—");
        case MedianColumn:
            return formatMs(row.medianMs);
        case P99Column:
            return formatMs(row.p99Ms);
        case ConsistentColumn:
            return row.consistent == 1 ? tr("yes") : row.consistent == 0 ? tr("⚠ no") : QStringLiteral("—");
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == ConsistentColumn) {
            if (row.consistent == 0)
                return inconsistentReason(row);
            if (row.consistent == 1)
                return tr("Calls per second agree with this runner's own latency.");
            return tr("Checked for one runner only (several runners share the CPUs).");
        }
        return data(index, Qt::DisplayRole);
    case Qt::ForegroundRole:
        if (row.consistent == 0 && (index.column() == ConsistentColumn || index.column() == ThroughputColumn))
            return QBrush(QColor(0x8a, 0x5a, 0x00));
        return {};
    case Qt::BackgroundRole:
        if (row.consistent == 0 && index.column() == ConsistentColumn)
            return QBrush(QColor(0xff, 0xf8, 0xd6));
        return {};
    case SortRole:
        switch (index.column()) {
        case RunnersColumn:
            return row.runners;
        case ThreadsColumn:
            return row.intraOpThreads;
        case ThroughputColumn:
            return raw(row.callsPerSecond);
        case ScalingColumn:
            return row.runners == 1 ? QVariant(1.0) : raw(row.scaling.estimate);
        case MedianColumn:
            return raw(row.medianMs);
        case P99Column:
            return raw(row.p99Ms);
        case ConsistentColumn:
            return row.consistent;
        }
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == ConsistentColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                  : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant ThroughputModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ThreadsColumn:
            return tr("Torch intra-op threads of each runner");
        case ThroughputColumn:
            return tr("Calls ending inside the counted windows per second, with the 95% interval of the per-window rate");
        case ScalingColumn:
            return tr("Calls/s over one runner's, windows paired by round, with its 95% interval");
        case ConsistentColumn:
            return tr("Whether calls per second agree with the runner's own latency (one runner only)");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RunnersColumn:
        return tr("Runners");
    case ThreadsColumn:
        return tr("Threads each");
    case ThroughputColumn:
        return tr("Calls/s");
    case ScalingColumn:
        return tr("vs 1 runner");
    case MedianColumn:
        return tr("Median");
    case P99Column:
        return tr("p99");
    case ConsistentColumn:
        return tr("Consistent");
    }
    return {};
}

} // namespace AotStudio::Widgets
