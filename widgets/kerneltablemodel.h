// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/kernelcatalog.h"

#include <QAbstractTableModel>

#include <memory>

namespace AotStudio::Widgets {

/**
 * The kernels of one package: name, kind (cpp, triton, library), calls, total and mean time (ms),
 * share of all kernel time, and the graph nodes each covers (Inductor provenance). Times are
 * empty ("—") until a profile measured them. SortRole gives numbers as numbers.
 */
class KernelTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, KindColumn, CallsColumn, TotalColumn, MeanColumn, ShareColumn, NodesColumn, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1,
        IdRole,     ///< QString: KernelInfo::id
        FilterRole, ///< QString: name, kind and covered nodes, for a text filter
    };

    explicit KernelTableModel(QObject *parent = nullptr);
    void setCatalog(std::shared_ptr<const Client::KernelCatalog> catalog);
    std::shared_ptr<const Client::KernelCatalog> catalog() const { return m_catalog; }
    /// Row of the kernel with this id or name; -1 when absent.
    int rowOf(const QString &nameOrId) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Client::KernelCatalog> m_catalog;
};

} // namespace AotStudio::Widgets
