// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "graphview/graphlayout.h"

#include <QColor>
#include <QHash>
#include <QImage>
#include <QList>
#include <QPair>
#include <QWidget>

#include <vector>

namespace AotStudio::Widgets {

/// What the fill colour of a node says.
enum class ColourMode {
    OpCategory, ///< matmul, conv, pointwise, reduction, view, ... (the snapshot's category)
    FusedKernel, ///< nodes covered by the same generated kernel share a colour
    MeasuredTime, ///< heat map of measured time per node (log scale), grey when not measured
    Dtype, ///< dtype of the first output (to see what quantization changed)
    NumericError, ///< numerics: each node's norm_error against the reference (ErrorScale), grey without one
    FusionStatus, ///< a compile's fusion.json: fused, considered and refused, another pair won, never a candidate
};

/// The fill of a node by its fusion status (FORMAT.md "Fusion decisions" `nodes[].status`: fused,
/// refused, not_chosen, never_candidate; anything else, or a node fusion.json does not list, is the
/// "no decision" grey). The Graph view's legend shows the same colours.
QColor fusionStatusColour(const QString &status);

/// A node's state in a diff, drawn as a tinted fill and a coloured border.
enum class NodeDiffState : quint8 { None, Unchanged, Added, Removed, Changed };

class GraphMinimap;

/**
 * Draws a GraphLayout with its own transform (no QGraphicsScene: at 50k nodes one item per node
 * is too slow to build), culled and with level of detail: below a zoom level labels go, edges
 * lose their arrows, and expanded groups smaller than a few pixels on screen are drawn as one
 * box, so the work per frame follows what is on screen, not the graph size.
 */
class GraphCanvas : public QWidget
{
    Q_OBJECT
public:
    /// The keys keyPressEvent() handles while the canvas has focus, as (key, what it does) in the
    /// UI language, for Help → Keyboard Shortcuts; kept beside keyPressEvent().
    static QList<QPair<QString, QString>> keyBindings();
    /// Zoom levels (scene-to-screen scale) where the drawing gets simpler.
    static constexpr double LabelScale = 0.45;
    static constexpr double ArrowScale = 0.3;
    /// An expanded group shorter than this on screen is drawn as one box.
    static constexpr double SummaryPixels = 28;

    explicit GraphCanvas(GraphLayout *layout, QWidget *parent = nullptr);

    /// Call after the layout changed (snapshot, expand, collapse): refreshes caches and repaints.
    void layoutChanged();

    void setColourMode(ColourMode mode);
    ColourMode colourMode() const { return m_mode; }
    void setKernelOfNode(QHash<QString, QString> kernelOfNode);
    void setNodeTimes(QHash<QString, double> times);
    /// Node name -> norm_error (NaN allowed) for the NumericError mode, on ErrorScale at `tolerance`.
    void setNodeErrors(QHash<QString, double> errors, double tolerance);
    void setDiffStates(QHash<QString, NodeDiffState> states);
    /// Node name -> fusion status (fusionStatusColour) for the FusionStatus mode, and node name ->
    /// the text shown as the node's tooltip in that mode (the refused pairs with Inductor's reason).
    void setNodeFusion(QHash<QString, QString> status, QHash<QString, QString> tips);
    /// The tooltip a node gets in the current colour mode (empty: none).
    QString nodeToolTip(int node) const;
    void setHighlighted(const QStringList &nodes);
    void setSearchMatches(const std::vector<int> &nodes);
    void setSelectedNode(int node);
    int selectedNode() const { return m_selected; }
    /// The fill a node gets in the current colour mode.
    QColor nodeColour(int node) const;
    NodeDiffState diffState(int node) const;
    bool isHighlighted(int node) const;

    double scale() const { return m_scale; }
    /// The scene rectangle the widget shows.
    QRectF visibleSceneRect() const;
    void setView(double scale, QPointF sceneCentre);
    QPointF sceneCentre() const;
    /// Fits the whole graph; until the view is moved otherwise, resizes fit again.
    void fitToView();
    /// Whether the view was moved or zoomed since the last fitToView().
    bool viewMoved() const { return m_viewMoved; }
    void zoomBy(double factor, QPointF widgetAnchor);
    void centerOn(QPointF scenePoint);
    QPointF mapToScene(QPointF widgetPoint) const;
    QPointF mapFromScene(QPointF scenePoint) const;

    /// Paints `sceneRect` of the graph at `scale` with `painter` already set up so that scene
    /// coordinates map to the device (used by the widget, export and the minimap).
    void paintScene(QPainter &painter, const QRectF &sceneRect, double scale) const;
    /// The graph item under a scene point, following what the last frame drew.
    GraphLayout::ItemRef itemAt(QPointF scenePoint) const;
    /// Number of things the last frame drew (nodes, boxes, edges): for the benchmark.
    int lastFrameItems() const { return m_lastFrameItems; }

Q_SIGNALS:
    void nodeClicked(int node);
    void groupToggled(int group);
    void viewChanged();

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    friend class GraphMinimap;
    struct GroupMarks {
        bool highlighted = false;
        bool searched = false;
        bool added = false, removed = false, changed = false;
        double time = 0;
    };
    void recomputeColours();
    void recomputeMarks();
    void markFrame(int group, const QRectF &sceneRect, double scale) const;
    void paintGroup(QPainter &p, int group, const QRectF &sceneRect, double scale) const;
    void paintNode(QPainter &p, int node, double scale) const;
    void paintCollapsed(QPainter &p, int group, double scale, bool summary) const;
    void paintEdge(QPainter &p, const GraphLayout::Edge &edge, double scale) const;
    QRectF endRect(const GraphLayout::ItemRef &item, int routeGroup) const;
    GraphLayout::ItemRef itemAtIn(int group, QPointF scenePoint) const;
    void clampView();

    GraphLayout *m_layout;
    GraphMinimap *m_minimap;
    ColourMode m_mode = ColourMode::OpCategory;
    QHash<QString, QString> m_kernelOfNode;
    QHash<QString, double> m_times;
    QHash<QString, double> m_errors;
    double m_tolerance = 1e-4;
    QHash<QString, QString> m_fusion;
    QHash<QString, QString> m_fusionTips;
    QHash<QString, NodeDiffState> m_diffByName;
    QSet<QString> m_highlightNames;
    std::vector<QColor> m_colours;
    std::vector<NodeDiffState> m_diff;
    std::vector<bool> m_highlight;
    std::vector<bool> m_searchHit;
    std::vector<GroupMarks> m_marks;
    std::vector<QRectF> m_edgeBounds;
    double m_minTime = 0, m_maxTime = 0;
    bool m_anyHighlight = false;
    bool m_anyDiff = false;
    int m_selected = -1;
    double m_scale = 1;
    QPointF m_origin; ///< scene point at the widget's top-left corner
    QPoint m_pressPos;
    QPointF m_pressOrigin;
    bool m_dragging = false;
    bool m_viewMoved = false;
    mutable std::vector<quint8> m_frameState; ///< per group: 0 not reached, 1 box, 2 detailed
    mutable int m_lastFrameItems = 0;
};

/// A small overview of the whole graph with the visible area, in a corner of the canvas; a click
/// or a drag moves the view there.
class GraphMinimap : public QWidget
{
    Q_OBJECT
public:
    explicit GraphMinimap(GraphCanvas *canvas);
    /// Renders the overview again (after a layout or colour change).
    void invalidate();

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    QTransform sceneToMap() const;
    GraphCanvas *m_canvas;
    QImage m_image;
    bool m_dirty = true;
};

} // namespace AotStudio::Widgets
