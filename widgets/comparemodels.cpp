// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparemodels.h"

#include "numberformat.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <cmath>
#include <limits>
#include <map>

namespace AotStudio::Widgets {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

QStringList qsList(const std::vector<std::string> &v)
{
    QStringList out;
    out.reserve(qsizetype(v.size()));
    for (const auto &s : v)
        out << qs(s);
    return out;
}

} // namespace

CompareFieldModel::CompareFieldModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void CompareFieldModel::setComparison(std::shared_ptr<const Compare::Comparison> comparison)
{
    beginResetModel();
    m_comparison = std::move(comparison);
    m_rows.clear();
    if (m_comparison)
        for (const auto &f : m_comparison->fields)
            if (f.field != "folder")
                m_rows.push_back(&f);
    endResetModel();
}

int CompareFieldModel::rowOf(const QString &field) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (qs(m_rows[i]->field) == field)
            return int(i);
    return -1;
}

int CompareFieldModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int CompareFieldModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CompareFieldModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const Compare::FieldRow &f = *m_rows[std::size_t(index.row())];
    if (role == DiffersRole)
        return f.differs();
    if (role == Qt::FontRole && f.differs()) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::BackgroundRole && f.differs() && index.column() != FieldColumn)
        return QBrush(QColor(255, 236, 179)); // amber 100: differs, readable in both themes' text
    if (role == Qt::ForegroundRole && f.differs() && index.column() != FieldColumn)
        return QBrush(QColor(33, 33, 33));
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case FieldColumn:
        return qs(f.field);
    case AColumn:
        return f.a.empty() ? tr("(not recorded)") : qs(f.a);
    case BColumn:
        return f.b.empty() ? tr("(not recorded)") : qs(f.b);
    }
    return {};
}

QVariant CompareFieldModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case FieldColumn:
        return tr("Field");
    case AColumn:
        return tr("A");
    case BColumn:
        return tr("B");
    }
    return {};
}

CompareKernelModel::CompareKernelModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

QString CompareKernelModel::statusText(Status status)
{
    switch (status) {
    case Status::OnlyA:
        return tr("only in A");
    case Status::OnlyB:
        return tr("only in B");
    case Status::Changed:
        return tr("changed");
    case Status::Renamed:
        return tr("renamed");
    case Status::Unchanged:
        return tr("unchanged");
    case Status::TimedOnly:
        return tr("timed only");
    }
    return {};
}

void CompareKernelModel::setComparison(std::shared_ptr<const Compare::Comparison> comparison)
{
    beginResetModel();
    m_rows.clear();
    m_profiledA = comparison && comparison->time.a.profiled;
    m_profiledB = comparison && comparison->time.b.profiled;
    if (comparison) {
        const Compare::KernelDiff &k = comparison->kernels;
        std::map<std::string, const Compare::KernelTime *> times;
        for (const auto &t : comparison->time.kernels)
            times[t.name] = &t;
        std::map<std::string, bool> listed;
        // A kernel's time in one job: 0 when that profile lacks it, empty when not profiled.
        const auto timeOf = [&](const std::string &name, bool sideA) -> std::optional<double> {
            if (name.empty() || !(sideA ? m_profiledA : m_profiledB))
                return std::nullopt;
            const auto it = times.find(name);
            if (it == times.end())
                return 0.0;
            return (sideA ? it->second->msA : it->second->msB).value_or(0.0);
        };
        const auto add = [&](Row row, const std::string &a, const std::string &b) {
            row.msA = timeOf(a, true);
            row.msB = timeOf(b, false);
            listed[a] = listed[b] = true;
            m_rows.push_back(std::move(row));
        };
        for (const auto &c : k.changed) {
            Row row;
            row.nameA = qs(c.nameA);
            row.nameB = qs(c.nameB);
            row.kind = qs(c.kind);
            row.status = c.renamed() && !c.sourceChanged ? Status::Renamed : Status::Changed;
            row.sourceDiff = qs(c.sourceDiff);
            row.nodesOnlyA = qsList(c.nodesOnlyA);
            row.nodesOnlyB = qsList(c.nodesOnlyB);
            add(std::move(row), c.nameA, c.nameB);
        }
        for (const auto &info : k.onlyA) {
            Row row;
            row.nameA = qs(info.name);
            row.kind = qs(info.kind);
            row.status = Status::OnlyA;
            add(std::move(row), info.name, {});
        }
        for (const auto &info : k.onlyB) {
            Row row;
            row.nameB = qs(info.name);
            row.kind = qs(info.kind);
            row.status = Status::OnlyB;
            add(std::move(row), {}, info.name);
        }
        for (const auto &name : k.unchanged) {
            Row row;
            row.nameA = row.nameB = qs(name);
            row.kind = times.count(name) ? qs(times[name]->kind) : QString();
            add(std::move(row), name, name);
        }
        // Profiled kernels that kernels.json does not list (e.g. one side has no kernels.json).
        for (const auto &t : comparison->time.kernels) {
            if (listed.count(t.name))
                continue;
            Row row;
            row.nameA = t.msA ? qs(t.name) : QString();
            row.nameB = t.msB ? qs(t.name) : QString();
            row.kind = qs(t.kind);
            row.status = Status::TimedOnly;
            row.msA = t.msA;
            row.msB = t.msB;
            m_rows.push_back(std::move(row));
        }
    }
    endResetModel();
}

int CompareKernelModel::rowOf(const QString &name) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].nameA == name || m_rows[i].nameB == name)
            return int(i);
    return -1;
}

int CompareKernelModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int CompareKernelModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CompareKernelModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const Row &r = m_rows[std::size_t(index.row())];
    const bool both = r.msA && r.msB && !r.nameA.isEmpty() && !r.nameB.isEmpty();
    // B − A over a kernel only one job has counts its time as what was added or saved.
    const bool delta = m_profiledA && m_profiledB;
    const double deltaMs = r.msB.value_or(0) - r.msA.value_or(0);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double ratio = both && *r.msA > 0 ? *r.msB / *r.msA : nan;
    switch (role) {
    case StatusRole:
        return int(r.status);
    case SourceDiffRole:
        return r.sourceDiff;
    case NameRole:
        return r.nameA.isEmpty() ? r.nameB : r.nameA;
    case SortRole:
        switch (index.column()) {
        case NameColumn:
            return r.nameA.isEmpty() ? r.nameB : r.nameA;
        case StatusColumn:
            return int(r.status);
        case KindColumn:
            return r.kind;
        case TimeAColumn:
            return r.msA && !r.nameA.isEmpty() ? *r.msA : -1.0;
        case TimeBColumn:
            return r.msB && !r.nameB.isEmpty() ? *r.msB : -1.0;
        case DeltaColumn:
            // Largest change first when sorted descending, whichever its sign.
            return delta ? std::abs(deltaMs) : -1.0;
        case RatioColumn:
            return std::isfinite(ratio) ? ratio : -1.0;
        }
        return {};
    case Qt::ForegroundRole:
        if (index.column() != StatusColumn)
            return {};
        switch (r.status) {
        case Status::OnlyA:
            return QBrush(QColor(183, 28, 28)); // red 900
        case Status::OnlyB:
            return QBrush(QColor(27, 94, 32)); // green 900
        case Status::Changed:
            return QBrush(QColor(191, 54, 12)); // deep orange 900
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        return index.column() >= TimeAColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::ToolTipRole:
        if (index.column() == NameColumn && r.status == Status::Renamed)
            return tr("%1 in A, %2 in B: the same source once each job's own kernel name is replaced")
                .arg(r.nameA, r.nameB);
        if (index.column() == RatioColumn || index.column() == DeltaColumn)
            return tr("One figure per run, without an interval: where the time went. The latency ratio with its "
                      "interval is in the summary.");
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    const auto time = [&](const std::optional<double> &ms, const QString &name, bool profiled) -> QVariant {
        if (!profiled)
            return tr("not profiled");
        if (name.isEmpty() || !ms)
            return QStringLiteral("—");
        return formatNumber(*ms, 'f', 4);
    };
    switch (index.column()) {
    case NameColumn:
        if (r.status == Status::Renamed || (r.status == Status::Changed && r.nameA != r.nameB))
            return tr("%1 → %2").arg(r.nameA, r.nameB);
        return r.nameA.isEmpty() ? r.nameB : r.nameA;
    case StatusColumn:
        return statusText(r.status);
    case KindColumn:
        return r.kind;
    case TimeAColumn:
        return time(r.msA, r.nameA, m_profiledA);
    case TimeBColumn:
        return time(r.msB, r.nameB, m_profiledB);
    case DeltaColumn:
        if (!m_profiledA || !m_profiledB)
            return tr("not profiled");
        return QString(formatNumber(deltaMs, 'f', 4)).prepend(deltaMs >= 0 ? QStringLiteral("+") : QString());
    case RatioColumn:
        if (!m_profiledA || !m_profiledB)
            return tr("not profiled");
        return std::isfinite(ratio) ? tr("%1×").arg(formatNumber(ratio, 'f', 2)) : QStringLiteral("—");
    }
    return {};
}

QVariant CompareKernelModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Kernel");
    case StatusColumn:
        return tr("Status");
    case KindColumn:
        return tr("Kind");
    case TimeAColumn:
        return tr("A (ms/call)");
    case TimeBColumn:
        return tr("B (ms/call)");
    case DeltaColumn:
        return tr("B − A (ms)");
    case RatioColumn:
        return tr("B / A");
    }
    return {};
}

} // namespace AotStudio::Widgets
