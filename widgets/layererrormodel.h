// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractTableModel>
#include <QJsonArray>
#include <QList>

namespace AotStudio::Widgets {

/**
 * The per-layer error table of one quantization scheme (the `layers` of a scheme row in a
 * `quantize` result): the error each quantized layer alone adds against its fp32 layer on the
 * same input. SortRole gives raw numbers (invalid when missing).
 */
class LayerErrorModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, TypeColumn, MaxAbsErrorColumn, MeanAbsErrorColumn, CosineColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1 };

    struct Layer {
        QString name; ///< module path, e.g. `encoder.layers.0.linear1`
        QString type; ///< module class, e.g. `Linear`
        double maxAbsError = qQNaN();
        double meanAbsError = qQNaN();
        double cosine = qQNaN();
    };

    explicit LayerErrorModel(QObject *parent = nullptr);

    /// Replaces the rows with @p layers (objects with name, type, max_abs_error, mean_abs_error, cosine).
    void setLayers(const QJsonArray &layers);
    void clear();
    const QList<Layer> &layers() const { return m_layers; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<Layer> m_layers;
};

} // namespace AotStudio::Widgets
