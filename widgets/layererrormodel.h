// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/quantizeresult.h"

#include <QAbstractTableModel>
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

    using Layer = Client::QuantizeLayer;

    explicit LayerErrorModel(QObject *parent = nullptr);

    /// Replaces the rows with @p layers.
    void setLayers(const QList<Client::QuantizeLayer> &layers);
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
