// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/verifyresult.h"

#include <QAbstractTableModel>
#include <QList>

namespace AotStudio::Widgets {

/**
 * Verify's per-output table (FORMAT.md `verify.outputs`, or a failed verify's log lines): name,
 * passed, in reduced precision each side's error against the higher-precision reference (what
 * decides there), max abs and rel error, cosine, shape and dtype: what decides first, as the
 * table sits in a narrow dock. Rows stay in the forward's output order. The two reference columns
 * exist only when some output has them, so an fp32 table (and its CSV in a report) carries no
 * empty columns. SortRole gives raw numbers (invalid when missing).
 */
class VerifyOutputModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    /// What a column shows; columnOf() gives its position (the reference columns are optional).
    enum Column {
        NameColumn,
        PassedColumn,
        CompiledReferenceColumn, ///< only with reference figures
        EagerReferenceColumn,
        MaxAbsErrorColumn,
        MaxRelErrorColumn,
        CosineColumn,
        ShapeColumn,
        DtypeColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit VerifyOutputModel(QObject *parent = nullptr);

    /// Replaces the rows. @p tolerance and @p referenceDtype only feed the tooltips.
    void setOutputs(const QList<Client::VerifyOutput> &outputs, double tolerance = qQNaN(),
                    const QString &referenceDtype = {});
    void clear();
    const QList<Client::VerifyOutput> &outputs() const { return m_outputs; }
    bool hasReferenceColumns() const { return m_reference; }
    /// The position of @p column; -1 when it is not shown (reference columns without a reference).
    int columnOf(Column column) const { return int(m_columns.indexOf(column)); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<Client::VerifyOutput> m_outputs;
    double m_tolerance = qQNaN();
    QString m_referenceDtype;
    bool m_reference = false;
    QList<Column> m_columns;
};

} // namespace AotStudio::Widgets
