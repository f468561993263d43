// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "hubviewer.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace AotStudio::Widgets {

class ErrorScaleLegend;
class GraphDiffView;
class GraphView;
class NodeTableModel;
class SelectionHub;

/**
 * The Graph dock: the snapshot selected in the hub three ways: the drawing (GraphView: grouped
 * by module, colour modes, search, export), the diff against the snapshot before it (GraphDiffView
 * with previous/next pass), and a searchable node table (name, op, target, module, source line).
 * The nodes of the selected kernel are highlighted in all three (provenance overlay); picking a
 * node in any selects it in the hub, and a node picked elsewhere is shown.
 *
 * For a numerics job (SelectionHub::numerics()) a bar above the tabs colours the capture graph by
 * each node's error (ColourMode::NumericError, eager or compiled, with the scale's legend) and
 * offers the first divergent node.
 */
class GraphPanel : public QWidget, public HubViewer
{
    Q_OBJECT
public:
    // HubViewer: what the hub changed
    void onSessionChanged(Client::Session *) override { reload(); }
    void onJobChanged(qint64) override
    {
        updateTitle();
        loadKernelData();
        updateNumerics();
    }
    void onJobUpdated(qint64) override { updateTitle(); }
    void onSnapshotChanged(int) override { reload(); }
    void onNodeChanged(const QString &name) override { followNode(name); }
    void onKernelChanged(const QString &nameOrId) override { highlightKernel(nameOrId); }
    void onResultsChanged() override
    {
        updateTitle(); // a job that ended (it may have ended without a snapshot)
        loadKernelData();
        updateNumerics();
    }

    explicit GraphPanel(SelectionHub *hub, QWidget *parent = nullptr);
    NodeTableModel *nodeModel() const { return m_model; }
    QTableView *nodeView() const { return m_view; }
    QTabWidget *tabs() const { return m_tabs; }
    GraphView *graphView() const { return m_graphView; }
    GraphDiffView *diffView() const { return m_diffView; }
    void setSearchText(const QString &text);
    /// The numerics bar (shown for a numerics job), its side choice ("eager"/"compiled" data),
    /// the first-divergent button and the legend.
    QWidget *numericsBar() const { return m_numericsBar; }
    QComboBox *errorSideCombo() const { return m_errorSide; }
    QPushButton *firstDivergentButton() const { return m_firstDivergent; }
    ErrorScaleLegend *errorLegend() const { return m_legend; }

private:
    void reload();
    /// The line above the graph: the snapshot shown, why none can be, or what to pick.
    void updateTitle();
    void followNode(const QString &name);
    void highlightKernel(const QString &nameOrId);
    void loadKernelData();
    /// The current job's fusion.json (SelectionHub::fusionDecisions()) into the graph view's
    /// FusionStatus colouring: status per post-grad node, the refused pairs as tooltips.
    void loadFusion();
    void syncDiff();
    void updateNumerics();

    SelectionHub *m_hub;
    NodeTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTabWidget *m_tabs;
    QLabel *m_title;
    QLineEdit *m_search;
    QTableView *m_view;
    GraphView *m_graphView;
    GraphDiffView *m_diffView;
    QWidget *m_numericsBar;
    QComboBox *m_errorSide;
    QPushButton *m_firstDivergent;
    ErrorScaleLegend *m_legend;
    const void *m_numericsShown = nullptr; ///< the numerics result the colours come from
    QList<int> m_diffSnapshots; ///< hub snapshot index of each path given to the diff view
};

} // namespace AotStudio::Widgets
