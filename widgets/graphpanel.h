// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace AotStudio::Widgets {

class NodeTableModel;
class SelectionHub;

/**
 * The Graph dock: the snapshot selected in the hub, as a searchable node table (name, op, target,
 * module, source line) with the nodes of the selected kernel in bold. Picking a node selects it
 * in the hub; a node picked elsewhere is scrolled to.
 */
class GraphPanel : public QWidget
{
    Q_OBJECT
public:
    explicit GraphPanel(SelectionHub *hub, QWidget *parent = nullptr);
    NodeTableModel *nodeModel() const { return m_model; }
    QTableView *nodeView() const { return m_view; }
    QTabWidget *tabs() const { return m_tabs; }
    void setSearchText(const QString &text);

private:
    void reload();
    void followNode(const QString &name);
    void highlightKernel(const QString &nameOrId);

    SelectionHub *m_hub;
    NodeTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTabWidget *m_tabs;
    QLabel *m_title;
    QLineEdit *m_search;
    QTableView *m_view;
};

} // namespace AotStudio::Widgets
