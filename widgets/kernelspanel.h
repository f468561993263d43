// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "hubviewer.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSortFilterProxyModel;
class QTableView;

namespace AotStudio::Widgets {

class KernelTableModel;
class SelectionHub;
class SourceHighlighter;

/**
 * The Kernels dock: a sortable, filterable table of the current package's kernels (name, kind,
 * calls, total and mean time, share, covered nodes) above the generated source of the selected
 * kernel with syntax highlighting. Selecting a kernel selects it in the hub (the Graph dock
 * highlights the nodes it covers); a node selected elsewhere filters nothing but selects the
 * first kernel covering it.
 */
class KernelsPanel : public QWidget, public HubViewer
{
    Q_OBJECT
public:
    // HubViewer: what the hub changed
    void onJobChanged(qint64) override { reload(); }
    void onNodeChanged(const QString &node) override { followNode(node); }
    void onKernelChanged(const QString &nameOrId) override { showKernel(nameOrId); }
    void onResultsChanged() override { reload(); }

    explicit KernelsPanel(SelectionHub *hub, QWidget *parent = nullptr);
    KernelTableModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *view() const { return m_view; }
    /// The text shown in the source pane.
    QString sourceText() const;
    void setFilterText(const QString &text);

private:
    void reload();
    void showKernel(const QString &nameOrId);
    void followNode(const QString &node);

    SelectionHub *m_hub;
    KernelTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QLineEdit *m_filter;
    QTableView *m_view;
    QLabel *m_sourceTitle;
    QPlainTextEdit *m_source;
    SourceHighlighter *m_highlighter;
};

} // namespace AotStudio::Widgets
