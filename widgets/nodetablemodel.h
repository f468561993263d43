// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "graph/graph.h"

#include <QAbstractTableModel>
#include <QSet>

#include <memory>

namespace AotStudio::Widgets {

/**
 * The nodes of one graph snapshot as a table: name, op, target, output shapes and dtypes, module
 * path and source line. Nodes in highlighted() (e.g. those a selected kernel covers) are drawn
 * bold. FilterRole joins name, target, module and source line for a search box.
 */
class NodeTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, OpColumn, TargetColumn, OutputColumn, ModuleColumn, SourceColumn, ColumnCount };
    enum Role { FilterRole = Qt::UserRole + 1, NameRole, HighlightRole };

    explicit NodeTableModel(QObject *parent = nullptr);
    void setSnapshot(std::shared_ptr<const Graph::Snapshot> snapshot);
    std::shared_ptr<const Graph::Snapshot> snapshot() const { return m_snapshot; }
    void setHighlighted(const QStringList &nodes);
    const QSet<QString> &highlighted() const { return m_highlighted; }
    int rowOf(const QString &name) const;
    /// "float32[8,128]; int64[8]" (`separator` between the dimensions).
    static QString outputText(const Graph::Node &node, const QString &separator = QStringLiteral(","));

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Graph::Snapshot> m_snapshot;
    QSet<QString> m_highlighted;
};

} // namespace AotStudio::Widgets
