// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/sweepresult.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QList>

namespace AotStudio::Widgets {

/**
 * One package's swept shapes as a table (FORMAT.md "sweep result" `points`): sizes by dimension
 * name, input shapes, expected, outcome, max abs error, why chosen, message. Failures first is a
 * sort away (SortRole of the OK column: 0 for a failure). Rows keep the sweep's order.
 */
class SweepPointModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        SizesColumn,
        ShapesColumn,
        ExpectedColumn,
        OutcomeColumn,
        OkColumn,
        MaxAbsErrorColumn,
        ReasonsColumn,
        MessageColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit SweepPointModel(QObject *parent = nullptr);

    /// The colour of an outcome, shared by the table and the strips: matched green, refused as
    /// promised grey-blue, eager's own failure amber, anything that breaks the guards' promise red.
    static QColor outcomeColor(const Client::SweepPoint &point);
    /// The outcome in words ("matched eager", "refused (outside the range)", …), translated.
    static QString outcomeText(const Client::SweepPoint &point);
    /// A point's tooltip: sizes, shapes, why it was chosen, what the guards promise, what happened.
    static QString toolTip(const Client::SweepPoint &point);
    /// "batch=8 seq=32".
    static QString sizesText(const Client::SweepPoint &point);

    void setPoints(const QList<Client::SweepPoint> &points);
    void clear() { setPoints({}); }
    const QList<Client::SweepPoint> &points() const { return m_points; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<Client::SweepPoint> m_points;
};

} // namespace AotStudio::Widgets
