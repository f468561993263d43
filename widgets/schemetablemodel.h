// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/measurement.h"

#include <QAbstractTableModel>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>

namespace AotStudio::Widgets {

/**
 * The rows of a `quantize` result (core/protocol/FORMAT.md, "quantize result"): one per scheme.
 * Missing or null numbers are NaN.
 */
struct SchemeRow {
    QString scheme;
    QString status; ///< `ok`, `unsupported` or `failed`
    QString reason; ///< why a row is not `ok` (with the failing stage and hint, when given)
    double eagerMs = qQNaN(); ///< median of the quantized eager model, ms
    double compiledMs = qQNaN(); ///< median of the scheme's package, ms
    double speedupVsFp32Eager = qQNaN(); ///< fp32 eager median / compiledMs
    Client::RatioInterval speedupVsFp32EagerInterval; ///< with its interval (bare in older results)
    Client::RatioInterval speedupInterval; ///< eagerMs / compiledMs of this scheme, with its interval
    double fp32EagerMs = qQNaN(); ///< fp32 eager median timed in the same rounds, ms
    Client::Measurement measurement; ///< this row's verdict (Missing in older results)
    double peakEagerBytes = qQNaN(); ///< peak memory of one eager forward, bytes
    double peakCompiledBytes = qQNaN(); ///< peak memory of one package forward, bytes
    double packageBytes = qQNaN(); ///< the package's size on disk, bytes
    double maxAbsError = qQNaN(); ///< against fp32 eager
    double meanAbsError = qQNaN();
    double cosine = qQNaN();
    double top1Agreement = qQNaN(); ///< fraction 0..1, classifiers only
    double embeddingCosine = qQNaN();
    int quantizedLayers = 0;
    QStringList quantizedOps;
    QJsonArray layers; ///< the per-layer error table (LayerErrorModel's input)
    bool best = false; ///< the fastest `ok` scheme within the result's `best.max_error`

    bool isOk() const { return status == QLatin1String("ok"); }
};

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
        ReasonColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, ///< raw value for sorting: double, or the text
        IsBestRole, ///< bool: the best-within-max-error scheme
        SchemeNameRole, ///< QString: the scheme of the row, in every column
    };

    explicit SchemeTableModel(QObject *parent = nullptr);

    /// Replaces the rows with the `schemes` of @p quantizeResult, marking `best.scheme`.
    void setResult(const QJsonObject &quantizeResult);
    void clear();

    const QList<SchemeRow> &rows() const { return m_rows; }
    /// The row of @p scheme, or -1.
    int rowOf(const QString &scheme) const;
    /// The best scheme's name, empty when the result has none.
    QString bestScheme() const { return m_best; }
    /// `best.max_error` of the result, NaN when absent.
    double maxError() const { return m_maxError; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Parses one row (public for tests and other views of the same result).
    static SchemeRow parseRow(const QJsonObject &row);

private:
    QVariant display(const SchemeRow &row, int column) const;
    QVariant sortValue(const SchemeRow &row, int column) const;

    QList<SchemeRow> m_rows;
    QString m_best;
    double m_maxError = qQNaN();
};

} // namespace AotStudio::Widgets
