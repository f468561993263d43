// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/session.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

namespace AotStudio::Widgets {

/**
 * Where a job's time went, in pipeline order: one row per snapshot record (a graph stage or a
 * pass: stage, pass, node count after it, change in node count, its time) and, as each engine
 * stage ends (`stage_done`), rows for the rest of that stage: its measured parts (the C++ build
 * inside compile) and what its passes and parts leave ("lowering, codegen and packaging"), or one
 * row for a stage without passes (load, verify, measure). Once the result names the engine's wall
 * time, an "unattributed" row holds what no stage claims (queueing, writing files), so the Time
 * column adds up to the engine's wall time. While the job runs, a last row names the stage in
 * progress (italic). Rows of passes that changed nothing carry ChangedRole false so a proxy can
 * hide them; rows that are not snapshots have SnapshotIndexRole -1.
 */
class PipelineModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { StageColumn, PassColumn, NodesColumn, DeltaColumn, TimeColumn, ColumnCount };
    enum Role {
        ChangedRole = Qt::UserRole + 1, ///< bool: false for a pass that left the graph unchanged
        SortRole,                       ///< numbers as numbers for sorting
        SnapshotIndexRole,              ///< int: index into JobRecord::snapshots; -1 for other rows
        PathRole,                       ///< QString: snapshot file on the engine's disk
        SecondsRole,                    ///< double: the row's time, s (none for the running row)
    };

    explicit PipelineModel(QObject *parent = nullptr);

    /// Shows `snapshots` (copied); an empty list clears the model. A list that extends the shown
    /// one (a running job's new snapshots) inserts the new rows only, so the selection and the
    /// scroll position stay.
    void setSnapshots(const QList<Client::SnapshotRecord> &snapshots);
    const QList<Client::SnapshotRecord> &snapshots() const { return m_snapshots; }
    /// The engine stages that ended (stage_done) and the engine's wall time (s, < 0: not known
    /// yet): the time rows. Rows extend in place as above.
    void setStages(const QList<Client::StageRecord> &stages, double wallSeconds);
    /// The engine stage in progress (`load`, `compile`, ...; shown by its short name, as the time
    /// rows are); empty: no running row.
    void setRunningStage(const QString &stage);
    QString runningStage() const { return m_running; }
    /// Seconds the stages account for and the engine's wall time (< 0: not known): the share the
    /// rows explain.
    double accountedSeconds() const;
    double wallSeconds() const { return m_wall; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        enum Kind { Snapshot, Stage, Part, Rest, Unattributed, Running } kind = Snapshot;
        int snapshot = -1; ///< Snapshot rows: index into m_snapshots
        QString stage;     ///< the engine stage (Stage, Part, Rest rows)
        QString part;      ///< Part rows: the part's name (native_build)
        double seconds = 0;
        bool operator==(const Row &) const = default;
    };
    /// The rows for the current snapshots, stages, wall time and running stage.
    QList<Row> accountRows() const;
    /// Shows accountRows(): inserts rows where the new list extends the shown one (the running
    /// row aside), resets otherwise.
    void rebuild();
    QVariant snapshotData(const Row &row, int column, int role) const;
    QVariant timeRowData(const Row &row, int column, int role) const;

    QList<Client::SnapshotRecord> m_snapshots;
    QList<Client::StageRecord> m_stages;
    double m_wall = -1;
    QString m_running;
    QList<Row> m_rows;
};

/// Hides PipelineModel rows whose ChangedRole is false unless showUnchanged is set.
class PipelineFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit PipelineFilterModel(QObject *parent = nullptr);
    void setShowUnchanged(bool show);
    bool showUnchanged() const { return m_showUnchanged; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    bool m_showUnchanged = false;
};

} // namespace AotStudio::Widgets
