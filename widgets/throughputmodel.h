// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/measurement.h"
#include "client/profileresult.h"

#include <QAbstractTableModel>
#include <QList>

namespace AotStudio::Widgets {

/**
 * The throughput rows of a profile (PROFILE.md, "Throughput"): runners, torch threads each,
 * calls/s with the 95% interval of the per-window rate, the scaling over one runner with its
 * interval (runner counts paired by round), the counted calls' latency, and for one runner whether the rate agrees with its
 * latency (`consistent`): a warning mark, with the reason in the tooltip, when it does not.
 * SortRole gives raw numbers (invalid when missing).
 */
class ThroughputModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        RunnersColumn,
        ThreadsColumn,
        ThroughputColumn,
        ScalingColumn,
        MedianColumn,
        P99Column,
        ConsistentColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1 };

    using Row = Client::ThroughputRow;

    explicit ThroughputModel(QObject *parent = nullptr);

    void setRows(const QList<Client::ThroughputRow> &throughput);
    void clear();
    const QList<Row> &rows() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Why a row is marked inconsistent (the tooltip of its mark).
    static QString inconsistentReason(const Row &row);

private:
    QList<Row> m_rows;
};

} // namespace AotStudio::Widgets
