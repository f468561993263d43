// SPDX-License-Identifier: GPL-3.0-or-later
#include "layererrormodel.h"

#include "charthelpers.h"
#include "numberformat.h"

#include <cmath>

namespace AotStudio::Widgets {

LayerErrorModel::LayerErrorModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void LayerErrorModel::setLayers(const QList<Client::QuantizeLayer> &layers)
{
    beginResetModel();
    m_layers = layers;
    endResetModel();
}

void LayerErrorModel::clear()
{
    beginResetModel();
    m_layers.clear();
    endResetModel();
}

int LayerErrorModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_layers.size());
}

int LayerErrorModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LayerErrorModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Layer &layer = m_layers.at(index.row());
    const auto number = [](double value, char format, int precision) -> QVariant {
        return std::isnan(value) ? QStringLiteral("—") : formatNumber(value, format, precision);
    };
    const auto raw = [](double value) { return std::isnan(value) ? QVariant() : QVariant(value); };
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case NameColumn:
            return layer.name;
        case TypeColumn:
            return layer.type;
        case MaxAbsErrorColumn:
            return number(layer.maxAbsError, 'g', 3);
        case MeanAbsErrorColumn:
            return number(layer.meanAbsError, 'g', 3);
        case CosineColumn:
            return number(layer.cosine, 'f', 6);
        }
        return {};
    case SortRole:
        switch (index.column()) {
        case NameColumn:
            return layer.name;
        case TypeColumn:
            return layer.type;
        case MaxAbsErrorColumn:
            return raw(layer.maxAbsError);
        case MeanAbsErrorColumn:
            return raw(layer.meanAbsError);
        case CosineColumn:
            return raw(layer.cosine);
        }
        return {};
    case Qt::TextAlignmentRole:
        return index.column() >= MaxAbsErrorColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    }
    return {};
}

QVariant LayerErrorModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Layer");
    case TypeColumn:
        return tr("Type");
    case MaxAbsErrorColumn:
        return tr("Max abs error");
    case MeanAbsErrorColumn:
        return tr("Mean abs error");
    case CosineColumn:
        return tr("Cosine");
    }
    return {};
}

} // namespace AotStudio::Widgets
