// SPDX-License-Identifier: GPL-3.0-or-later
#include "schemetablemodel.h"

#include "charthelpers.h"
#include "measurementtext.h"
#include "numberformat.h"

#include <QBrush>
#include <QFont>
#include <QPalette>
#include <QStringList>

#include <cmath>

namespace AotStudio::Widgets {

namespace {
QString dashOr(double value, const QString &text)
{
    return std::isnan(value) ? QStringLiteral("—") : text;
}

QVariant numberOrInvalid(double value)
{
    return std::isnan(value) ? QVariant() : QVariant(value);
}
} // namespace

SchemeTableModel::SchemeTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

SchemeRow SchemeTableModel::displayRow(const Client::QuantizeScheme &scheme)
{
    SchemeRow row = scheme;
    if (!row.isOk() && !row.stage.isEmpty() && row.status == QLatin1String("failed"))
        row.reason = tr("%1 (stage %2)").arg(row.reason, row.stage);
    if (!row.hint.isEmpty())
        row.reason += QStringLiteral(" — ") + row.hint;
    return row;
}

void SchemeTableModel::setResult(const std::shared_ptr<const Client::QuantizeResult> &result)
{
    if (!result) {
        clear();
        return;
    }
    beginResetModel();
    m_rows.clear();
    m_best = result->bestScheme;
    m_maxError = result->maxError;
    m_severalHosts = result->severalHosts;
    for (const Client::QuantizeScheme &scheme : result->schemes)
        m_rows << displayRow(scheme);
    endResetModel();
}

void SchemeTableModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_best.clear();
    m_maxError = qQNaN();
    m_severalHosts = false;
    endResetModel();
}

int SchemeTableModel::rowOf(const QString &scheme) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).scheme == scheme)
            return i;
    }
    return -1;
}

int SchemeTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SchemeTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SchemeTableModel::display(const SchemeRow &row, int column) const
{
    switch (column) {
    case SchemeColumn:
        return row.scheme;
    case StatusColumn:
        if (row.best)
            return tr("★ best");
        if (row.status == QLatin1String("ok"))
            return tr("ok");
        if (row.status == QLatin1String("unsupported"))
            return tr("unsupported");
        if (row.status == QLatin1String("failed"))
            return tr("failed");
        return row.status;
    case EagerMsColumn:
        return dashOr(row.eagerMs, formatNumber(row.eagerMs, 'g', 3));
    case CompiledMsColumn:
        return dashOr(row.compiledMs, formatNumber(row.compiledMs, 'g', 3));
    case SpeedupColumn:
        return MeasurementText::ratioWithInterval(row.speedupVsFp32EagerInterval, MeasurementText::Slower::ThanFp32Eager);
    case MeasurementColumn:
        return row.isOk() ? MeasurementText::verdictName(row.measurement) : QStringLiteral("—");
    case PeakMemoryColumn:
        return formatBytes(row.peakCompiledBytes);
    case PackageSizeColumn:
        return formatBytes(row.packageBytes);
    case MaxAbsErrorColumn:
        return dashOr(row.maxAbsError, formatNumber(row.maxAbsError, 'g', 3));
    case CosineColumn:
        return dashOr(row.cosine, formatNumber(row.cosine, 'f', 6));
    case Top1Column:
        return dashOr(row.top1Agreement, tr("%1%").arg(formatNumber(row.top1Agreement * 100, 'f', 1)));
    case HostColumn:
        return row.deviceName.isEmpty() || row.deviceName == row.host ? row.host
                                                                        : tr("%1 (%2)").arg(row.host, row.deviceName);
    case ReasonColumn:
        return row.reason;
    }
    return {};
}

QVariant SchemeTableModel::sortValue(const SchemeRow &row, int column) const
{
    switch (column) {
    case SchemeColumn:
        return row.scheme;
    case StatusColumn:
        return row.best ? 0 : row.isOk() ? 1 : row.status == QLatin1String("unsupported") ? 2 : 3;
    case EagerMsColumn:
        return numberOrInvalid(row.eagerMs);
    case CompiledMsColumn:
        return numberOrInvalid(row.compiledMs);
    case SpeedupColumn:
        return numberOrInvalid(row.speedupVsFp32EagerInterval.estimate);
    case MeasurementColumn:
        return int(row.measurement.verdict);
    case PeakMemoryColumn:
        return numberOrInvalid(row.peakCompiledBytes);
    case PackageSizeColumn:
        return numberOrInvalid(row.packageBytes);
    case MaxAbsErrorColumn:
        return numberOrInvalid(row.maxAbsError);
    case CosineColumn:
        return numberOrInvalid(row.cosine);
    case Top1Column:
        return numberOrInvalid(row.top1Agreement);
    case HostColumn:
        return display(row, column);
    case ReasonColumn:
        return row.reason;
    }
    return {};
}

QVariant SchemeTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SchemeRow &row = m_rows.at(index.row());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(row, column);
    case SortRole:
        return sortValue(row, column);
    case IsBestRole:
        return row.best;
    case SchemeNameRole:
        return row.scheme;
    case Qt::TextAlignmentRole:
        if (column >= EagerMsColumn && column <= Top1Column && column != MeasurementColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (!row.isOk())
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        if (column == MeasurementColumn && row.measurement.isPresent())
            return QBrush(MeasurementText::verdictColor(row.measurement));
        // Timings of an unreliable measurement stay readable, greyed; the Measurement column says why.
        if (row.measurement.isUnreliable() && column >= EagerMsColumn && column <= SpeedupColumn)
            return QBrush(MeasurementText::greyedText());
        return {};
    case Qt::BackgroundRole:
        if (row.isOk() && column == MeasurementColumn && MeasurementText::verdictBackground(row.measurement).isValid())
            return QBrush(MeasurementText::verdictBackground(row.measurement));
        return {};
    case Qt::FontRole:
        if (row.best) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::ToolTipRole:
        if (!row.isOk())
            return tr("%1 %2: %3").arg(row.scheme, display(row, StatusColumn).toString(), row.reason);
        if ((column == MaxAbsErrorColumn || column == CosineColumn) && row.outputs.size() > 1) {
            QStringList lines{tr("Each output against fp32 eager:")};
            for (const auto &o : row.outputs)
                lines << tr("%1: max abs %2, cosine %3")
                             .arg(o.name, formatNumber(o.maxAbsError, 'g', 3), formatNumber(o.cosine, 'f', 6));
            return lines.join(QLatin1Char('\n'));
        }
        if (row.best)
            return m_severalHosts
                ? tr("%1: the highest speedup over fp32 eager (each on its own host) with a max abs error within %2")
                      .arg(row.scheme, formatNumber(m_maxError, 'g', 3))
                : tr("%1: the fastest scheme with a max abs error within %2")
                      .arg(row.scheme, formatNumber(m_maxError, 'g', 3));
        if (column == MeasurementColumn || (row.measurement.isUnreliable() && column >= EagerMsColumn
                                                && column <= SpeedupColumn)) {
            QString tip = MeasurementText::verdictLine(row.measurement);
            tip += QLatin1Char('\n') + tr("Threads: %1").arg(MeasurementText::threads(row.measurement.threads, row.measurement.usableCpus));
            if (!row.measurement.notes.isEmpty())
                tip += QLatin1Char('\n') + tr("Notes: %1").arg(row.measurement.notes.join(QStringLiteral("; ")));
            return tip;
        }
        if (column == SpeedupColumn)
            return tr("fp32 eager %1 ms over this scheme's compiled %2 ms\nthis scheme's own eager / compiled: %3")
                .arg(formatNumber(row.fp32EagerMs, 'g', 3), formatNumber(row.compiledMs, 'g', 3),
                    MeasurementText::ratioWithInterval(row.speedupInterval));
        if (column == PeakMemoryColumn)
            return tr("Package %1, eager %2").arg(formatBytes(row.peakCompiledBytes), formatBytes(row.peakEagerBytes));
        if (column == CosineColumn && !std::isnan(row.embeddingCosine))
            return tr("Embedding cosine %1").arg(formatNumber(row.embeddingCosine, 'f', 6));
        if (column == HostColumn && !row.node.isEmpty())
            return tr("Ray node %1").arg(row.node);
        if (column == SchemeColumn && !row.quantizedOps.isEmpty())
            return tr("Quantized ops: %1").arg(row.quantizedOps.join(QStringLiteral(", ")));
        return {};
    }
    return {};
}

QVariant SchemeTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case SpeedupColumn:
            return tr("fp32 eager median over this scheme's compiled median, with its 95% confidence interval "
                      "over the paired blocks");
        case MeasurementColumn:
            return tr("Whether the machine allowed a fair measurement of this row (ok, noisy, unreliable, unknown)");
        case PeakMemoryColumn:
            return tr("Peak memory of one forward of the package above what was resident before it");
        case MaxAbsErrorColumn:
        case CosineColumn:
        case Top1Column:
            return tr("The package's outputs against fp32 eager on the evaluation set");
        case HostColumn:
            return tr("The host and device this row was measured on; rows of different hosts are compared by their "
                      "own speedup over fp32 eager, never by their medians");
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SchemeColumn:
        return tr("Scheme");
    case StatusColumn:
        return tr("Status");
    case EagerMsColumn:
        return tr("Eager (ms)");
    case CompiledMsColumn:
        return tr("Compiled (ms)");
    case SpeedupColumn:
        return tr("vs fp32 eager");
    case MeasurementColumn:
        return tr("Measurement");
    case PeakMemoryColumn:
        return tr("Peak memory");
    case PackageSizeColumn:
        return tr("Package");
    case MaxAbsErrorColumn:
        return tr("Max abs error");
    case CosineColumn:
        return tr("Cosine");
    case Top1Column:
        return tr("Top-1");
    case HostColumn:
        return tr("Host");
    case ReasonColumn:
        return tr("Reason");
    }
    return {};
}

} // namespace AotStudio::Widgets
