// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/measurement.h"

#include <QAbstractTableModel>
#include <QJsonArray>
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

    struct Row {
        int runners = 0;
        int intraOpThreads = 0; ///< torch threads of each runner; 0 when not stated
        double callsPerSecond = qQNaN(); ///< counted calls / counted seconds
        Client::RatioInterval rate; ///< median per-window rate (calls/s) with its interval; invalid in older results
        Client::RatioInterval scaling; ///< this rate over one runner's; invalid for one runner or older results
        double medianMs = qQNaN();
        double meanMs = qQNaN(); ///< of the counted calls; NaN in results before it
        double p10Ms = qQNaN();
        double p90Ms = qQNaN();
        double p99Ms = qQNaN();
        int consistent = -1; ///< 1 true, 0 false, -1 not stated (several runners, older results)
    };

    explicit ThroughputModel(QObject *parent = nullptr);

    void setRows(const QJsonArray &throughput);
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
