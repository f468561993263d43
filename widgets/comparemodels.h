// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "compare/compare.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace AotStudio::Widgets {

/**
 * The side-by-side fields of a Compare::Comparison (model, device, dtype, torch and torchao
 * versions, package size, options): one row per field, A and B in two columns, rows that differ
 * marked (DiffersRole, bold). The folder row is left out: the compare view's header names both.
 */
class CompareFieldModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { FieldColumn, AColumn, BColumn, ColumnCount };
    enum Role { DiffersRole = Qt::UserRole + 1 }; ///< bool: A and B differ

    explicit CompareFieldModel(QObject *parent = nullptr);
    void setComparison(std::shared_ptr<const Compare::Comparison> comparison);
    /// Row of `field` (e.g. "option freezing"); -1 when absent.
    int rowOf(const QString &field) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Compare::Comparison> m_comparison;
    std::vector<const Compare::FieldRow *> m_rows;
};

/**
 * The kernel table of a comparison: every kernel of A and B once (only in A, only in B, changed,
 * renamed or unchanged, from Compare::KernelDiff) with its time per forward call in each job
 * (Compare::TimeDiff::kernels), the difference B − A and the ratio B / A when both were profiled,
 * "not profiled" for a side that was not. Per-kernel times are one figure per run, without an
 * interval (FORMAT.md "compare"); the latency ratio with its interval is in the view's summary.
 * SortRole gives numbers as numbers; changed kernels carry their source diff (SourceDiffRole).
 */
class CompareKernelModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, StatusColumn, KindColumn, TimeAColumn, TimeBColumn, DeltaColumn, RatioColumn, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1,
        StatusRole, ///< Status (int)
        SourceDiffRole, ///< QString: the unified source diff ("" when the source did not change)
        NameRole, ///< QString: the kernel's name in A, else in B
    };
    enum class Status { OnlyA, OnlyB, Changed, Renamed, Unchanged, TimedOnly };

    /// One kernel of the table.
    struct Row {
        QString nameA, nameB; ///< "" on the side that lacks it
        QString kind;
        Status status = Status::Unchanged;
        QString sourceDiff;
        QStringList nodesOnlyA, nodesOnlyB;
        std::optional<double> msA, msB; ///< empty: that job was not profiled
    };

    explicit CompareKernelModel(QObject *parent = nullptr);
    void setComparison(std::shared_ptr<const Compare::Comparison> comparison);
    /// "only in A", "only in B", "changed", "renamed", "unchanged", "timed only" (translated).
    static QString statusText(Status status);
    const Row &row(int r) const { return m_rows.at(std::size_t(r)); }
    /// Row of the kernel named `name` in A or B; -1 when absent.
    int rowOf(const QString &name) const;
    /// Whether each job was profiled (else its time column says "not profiled").
    bool profiledA() const { return m_profiledA; }
    bool profiledB() const { return m_profiledB; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Row> m_rows;
    bool m_profiledA = false, m_profiledB = false;
};

} // namespace AotStudio::Widgets
