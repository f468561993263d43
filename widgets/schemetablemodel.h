// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/measurement.h"
#include "client/quantizeresult.h"

#include <QAbstractTableModel>
#include <QList>

namespace AotStudio::Widgets {

/// One scheme row as the table shows it: the result's row with `reason` completed by the
/// failing stage and the hint.
using SchemeRow = Client::QuantizeScheme;

/**
 * The scheme comparison table of a quantization result. Display text is formatted with units;
 * SortRole gives raw numbers (invalid for missing ones, which QSortFilterProxyModel sorts last),
 * rows that are not `ok` are greyed and carry their reason as tooltip, the best scheme is bold
 * and marked in the Status column.
 */
class SchemeTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        SchemeColumn,
        StatusColumn,
        EagerMsColumn,
        CompiledMsColumn,
        SpeedupColumn,
        MeasurementColumn,
        PeakMemoryColumn,
        PackageSizeColumn,
        MaxAbsErrorColumn,
        CosineColumn,
        Top1Column,
        HostColumn, ///< where the row was measured; the panel shows it only for rows of several hosts
        ReasonColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, ///< raw value for sorting: double, or the text
        IsBestRole, ///< bool: the best-within-max-error scheme
        SchemeNameRole, ///< QString: the scheme of the row, in every column
    };

    explicit SchemeTableModel(QObject *parent = nullptr);

    /// Replaces the rows with the schemes of @p result (null: clear()), marking the best one.
    void setResult(const std::shared_ptr<const Client::QuantizeResult> &result);
    void clear();

    const QList<SchemeRow> &rows() const { return m_rows; }
    /// The row of @p scheme, or -1.
    int rowOf(const QString &scheme) const;
    /// The best scheme's name, empty when the result has none.
    QString bestScheme() const { return m_best; }
    /// `best.max_error` of the result, NaN when absent.
    double maxError() const { return m_maxError; }
    /// The rows were measured on more than one host (a quantize fanned out over a Ray cluster):
    /// compare them by their own speedup over fp32 eager, never by their medians.
    bool severalHosts() const { return m_severalHosts; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The row as shown: `reason` with the failing stage and the hint (public for tests).
    static SchemeRow displayRow(const Client::QuantizeScheme &row);

private:
    QVariant display(const SchemeRow &row, int column) const;
    QVariant sortValue(const SchemeRow &row, int column) const;

    QList<SchemeRow> m_rows;
    QString m_best;
    double m_maxError = qQNaN();
    bool m_severalHosts = false;
};

} // namespace AotStudio::Widgets
