// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/session.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

namespace AotStudio::Widgets {

/**
 * The stages and passes of one job in pipeline order (capture → decompose → pre-grad → joint
 * graph → post-grad passes → fusion → codegen), one row per snapshot record: stage, pass, node
 * count after it, change in node count, time in ms. Rows of passes that changed nothing carry
 * ChangedRole false so a proxy can hide them. While the job runs, a last row names the stage in
 * progress (setRunningStage(); SnapshotIndexRole -1, italic).
 */
class PipelineModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { StageColumn, PassColumn, NodesColumn, DeltaColumn, TimeColumn, ColumnCount };
    enum Role {
        ChangedRole = Qt::UserRole + 1, ///< bool: false for a pass that left the graph unchanged
        SortRole,                       ///< numbers as numbers for sorting
        SnapshotIndexRole,              ///< int: index into JobRecord::snapshots
        PathRole,                       ///< QString: snapshot file on the engine's disk
    };

    explicit PipelineModel(QObject *parent = nullptr);

    /// Shows `snapshots` (copied); an empty list clears the model. A list that extends the shown
    /// one (a running job's new snapshots) inserts the new rows only, so the selection and the
    /// scroll position stay.
    void setSnapshots(const QList<Client::SnapshotRecord> &snapshots);
    const QList<Client::SnapshotRecord> &snapshots() const { return m_rows; }
    /// The running row's text (the stage in progress, in the UI language); empty: no such row.
    void setRunningStage(const QString &stage);
    QString runningStage() const { return m_running; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<Client::SnapshotRecord> m_rows;
    QString m_running;
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
