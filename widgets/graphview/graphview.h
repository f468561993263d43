// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "graph/graph.h"
#include "graphview/graphcanvas.h"
#include "graphview/graphlayout.h"
#include "graphview/jobtracker.h"

#include <QHash>
#include <QImage>
#include <QList>
#include <QStringList>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QTextBrowser;

namespace AotStudio::Widgets {

/**
 * The graph of one snapshot, drawn top to bottom and grouped by module path (see GraphLayout):
 * a search box, the colour mode, fit/expand/collapse and export buttons above the drawing, a
 * minimap in its corner and the selected node's details (kernels with time, passes) below.
 *
 * Feeding it:
 * @code
 *   view->setSnapshot(std::make_shared<const Graph::Snapshot>(Graph::loadSnapshot(path)));
 *   view->setKernelCoverage({{"cpp_fused_gelu_1", {"mul", "erf", "add"}}}); // from kernels.json
 *   view->setKernelTimes({{"cpp_fused_gelu_1", 0.012}});                    // ms, from a profile
 *   view->setColourMode(ColourMode::FusedKernel);
 *   view->highlightNodes(coverage.value(selectedKernel));                   // provenance overlay
 *   connect(view, &GraphView::nodeSelected, ...);
 * @endcode
 * For two snapshots with the diff highlighted, use GraphDiffView.
 *
 * Mouse: drag pans, the wheel zooms at the cursor, a click selects a node, a click on a group's
 * title (or a collapsed box) expands or collapses it. Keys: +/- zoom, arrows pan, 0 fits.
 */
class GraphView : public QWidget
{
    Q_OBJECT
public:
    /// A kernel covering a node, with its measured time in ms (NaN when not measured).
    struct KernelUse {
        QString kernel;
        double ms;
    };

    explicit GraphView(QWidget *parent = nullptr);
    ~GraphView() override;

    /// Shows a snapshot (nullptr clears). Groups keep their expanded state by module path and
    /// pieces that did not change keep their drawing, so a pass-to-pass step does not reshuffle.
    /// The selection, highlight and search are kept for nodes that still exist.
    void setSnapshot(std::shared_ptr<const Graph::Snapshot> snapshot);
    /// As setSnapshot(), with the layout computed on a worker thread (a copy of this view's
    /// layout, its cache and expansion states): the view shows the previous drawing until the
    /// new one is delivered; a later call, or setSnapshot(), drops a layout still in flight.
    void setSnapshotInBackground(std::shared_ptr<const Graph::Snapshot> snapshot);
    /// The background layouts (isRunning(), waitForIdle() for tests).
    JobTracker *layoutJob() const { return m_layoutJob; }
    std::shared_ptr<const Graph::Snapshot> snapshot() const;

    void setColourMode(ColourMode mode);
    ColourMode colourMode() const;
    /// Kernel name -> the (post-grad) node names it covers, e.g. from kernels.json. Used by the
    /// FusedKernel colour mode and by kernelsOfNode().
    void setKernelCoverage(const QHash<QString, QStringList> &coverage);
    /// Kernel name -> measured time in ms. When no node times were given, nodes get their
    /// kernels' times (see nodeTimesFromKernels) for the MeasuredTime mode.
    void setKernelTimes(const QHash<QString, double> &ms);
    /// Node name -> measured time in ms, for the MeasuredTime heat map.
    void setNodeTimes(const QHash<QString, double> &ms);
    /// Every kernel's time split evenly over the nodes it covers, summed per node.
    static QHash<QString, double> nodeTimesFromKernels(
        const QHash<QString, QStringList> &coverage, const QHash<QString, double> &kernelMs);

    /// Node name -> norm_error for the NumericError colour mode (numerics), on ErrorScale at
    /// `tolerance`; nodes without an entry are grey. An empty map clears it.
    void setNodeErrors(const QHash<QString, double> &errors, double tolerance);

    /// Node name -> fusion status (fused, refused, not_chosen, never_candidate; FORMAT.md "Fusion
    /// decisions") for the FusionStatus colour mode, and node name -> its tooltip in that mode (the
    /// refused pairs with Inductor's reason). `note` says where the statuses come from, or why
    /// there are none (e.g. "this compile has no fusion decisions"); it heads the legend. Empty
    /// maps and note clear it.
    void setNodeFusion(const QHash<QString, QString> &status, const QHash<QString, QString> &tips,
                       const QString &note = QString());
    /// The legend row under the tool bar (shown for the FusionStatus mode): swatches with counts.
    QLabel *legend() const { return m_legend; }

    /// Diff state per node name (GraphDiffView fills it from core's diffSnapshots); empty clears.
    void setDiffStates(const QHash<QString, NodeDiffState> &states);

    /// Provenance overlay: these nodes (e.g. the ones a selected kernel covers) are outlined and
    /// the rest dimmed; groups holding any of them are outlined too. An empty list clears it.
    void highlightNodes(const QStringList &nodes);
    QStringList highlightedNodes() const { return m_highlighted; }

    /// Selects a node: expands the groups around it, centres it and shows its details. Emits
    /// nodeSelected. An unknown or empty name clears the selection.
    void selectNode(const QString &name);
    QString selectedNode() const;
    /// The kernels covering a node, with their times, slowest first.
    QList<KernelUse> kernelsOfNode(const QString &name) const;
    /// The passes that created or replaced a node (its provenance chain), outermost first.
    QStringList passesOfNode(const QString &name) const;

    /// Finds nodes whose name, operator, module path or source location ("file.py:42" or the
    /// code) contains `text` (case-insensitive), marks them and goes to the first. Returns the
    /// number of matches.
    int search(const QString &text);
    /// Goes to the next (previous) search match.
    void findNext();
    void findPrevious();
    QStringList searchMatches() const;

    void fitToView();
    void zoomBy(double factor);
    void centerOnNode(const QString &name);
    void setGroupExpanded(const QString &modulePath, bool expanded);
    void expandAll();
    void collapseAll();
    /// Which module groups are expanded, by path (GraphDiffView keeps both sides alike with it).
    QHash<QString, bool> expansionStates() const { return m_layout.expansionStates(); }
    void setExpansionStates(const QHash<QString, bool> &states);

    /// The current view (what the widget shows) as SVG or PNG, the snapshot as Graphviz DOT.
    bool exportSvg(const QString &path);
    bool exportPng(const QString &path);
    bool exportDot(const QString &path);
    /// Renders the current view, or the whole graph fitted, into an image of `size`.
    QImage renderImage(const QSize &size, bool wholeGraph = false) const;

    GraphLayout &graphLayout() { return m_layout; }
    const GraphLayout &graphLayout() const { return m_layout; }
    GraphCanvas *canvas() const { return m_canvas; }

Q_SIGNALS:
    /// The user (or selectNode) selected a node; empty when the selection was cleared.
    void nodeSelected(const QString &nodeName);
    /// The view moved or zoomed.
    void viewChanged();
    /// Groups were expanded or collapsed (by the user, expandAll/collapseAll or selectNode).
    void expansionChanged();

private:
    struct Anchor {
        QString node; ///< empty: no anchor, fit or keep the view
        QPointF offset;
    };
    Anchor anchorFor(const std::shared_ptr<const Graph::Snapshot> &next) const;
    void finishSnapshot(const Anchor &anchor);
    void afterLayout();
    void updateDetails();
    void goToMatch(int index);
    void updateMatches();
    void refreshNodeTimes();
    void updateLegend();

    GraphLayout m_layout;
    GraphCanvas *m_canvas;
    JobTracker *m_layoutJob;
    QLineEdit *m_search;
    QLabel *m_matchLabel;
    QComboBox *m_mode;
    QLabel *m_legend;
    QTextBrowser *m_details;
    QHash<QString, QString> m_fusion;
    QString m_fusionNote;
    QHash<QString, QStringList> m_coverage;
    QHash<QString, QStringList> m_kernelsOfNode;
    QHash<QString, double> m_kernelTimes;
    QHash<QString, double> m_nodeTimes;
    QStringList m_highlighted;
    std::vector<int> m_matches;
    int m_currentMatch = -1;
    QString m_selected;
};

} // namespace AotStudio::Widgets
