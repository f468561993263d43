// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/tuneresult.h"

#include <QAbstractTableModel>

#include <memory>

namespace AotStudio::Widgets {

/**
 * The rows of a tune (FORMAT.md "tune result"): every trial, then the baselines (eager,
 * torch.compile), with median latency, the speedup over the `defaults` trial with its 95%
 * interval, max abs error against eager, compile time, package size and whether it is on the
 * Pareto front. A failed or skipped trial says why. SortRole gives numbers as numbers.
 */
class TuneTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        StatusColumn,
        MedianColumn,
        SpeedupColumn,
        ErrorColumn,
        CompileColumn,
        PackageColumn,
        FrontColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1,
        NameRole, ///< QString: the trial's name
        UsableRole, ///< bool: a trial whose options can be used as a recipe (compiled and verified)
    };

    explicit TuneTableModel(QObject *parent = nullptr);
    void setResult(std::shared_ptr<const Client::TuneResult> result);
    std::shared_ptr<const Client::TuneResult> result() const { return m_result; }
    /// The trial or baseline of row `row`.
    const Client::TuneRow &row(int row) const { return *m_rows.at(row); }
    /// Row of the trial named `name`; -1 when absent.
    int rowOf(const QString &name) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Client::TuneResult> m_result;
    QList<const Client::TuneRow *> m_rows;
};

} // namespace AotStudio::Widgets
