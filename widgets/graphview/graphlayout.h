// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "graph/graph.h"
#include "graph/layered.h"

#include <QHash>
#include <QPolygonF>
#include <QRectF>
#include <QSet>
#include <QString>

#include <memory>
#include <unordered_map>
#include <vector>

namespace AotStudio::Widgets {

/**
 * The hierarchical layout of a snapshot: module groups (from `nn_module_stack`) that can be
 * collapsed into one box or expanded into their own layered drawing, composed bottom-up.
 *
 * Every group is one small piece laid out on its own by Graph::Layout (its direct nodes and its
 * child groups, with the edges whose lowest common group it is), so expanding a group lays out
 * that group and recomputes only the coordinates of its ancestors (their layers and order are
 * kept). Pieces are cached by module path across snapshots: a group whose items and edges did not
 * change keeps its drawing exactly, and a changed one is seeded with the old x positions, so
 * stepping through passes does not reshuffle the picture.
 *
 * Parameters (`get_attr`, category "param", or torch.export's lifted `p_*`/`b_*`/`c_*`
 * placeholders) are drawn inside the innermost group holding all
 * of their users instead of in the top-level group, next to the operator that reads them.
 */
class GraphLayout
{
public:
    /// An item of a piece or a visible thing: a node (index into the snapshot's nodes) or a group.
    struct ItemRef {
        bool isGroup = false;
        int index = -1;
        bool operator==(const ItemRef &o) const { return isGroup == o.isGroup && index == o.index; }
        bool valid() const { return index >= 0; }
    };

    struct Group {
        QString path; ///< module path; "" for the root
        QString type; ///< module class name, when the snapshot has it
        int parent = -1;
        int depth = 0;
        std::vector<int> childGroups; ///< in topological order
        std::vector<int> nodes; ///< nodes drawn directly in this group
        int totalNodes = 0; ///< nodes in the whole subtree
        int minIndex = 0; ///< first topological index in the subtree
        bool expanded = false;
        bool visible = false; ///< drawn (as a box or a frame) in the current state
        QRectF rect; ///< absolute, valid when visible
        std::vector<ItemRef> items; ///< piece items: direct nodes then child groups
        std::vector<int> edges; ///< drawn edges routed in this group's piece
    };

    /// An edge between two visible items (graph edges with the same visible ends are merged).
    struct Edge {
        ItemRef from;
        ItemRef to;
        int group = 0; ///< the piece that routes it (lowest common group)
        int count = 0; ///< graph edges it stands for
        QPolygonF route; ///< absolute, between the boxes of the piece's items
    };

    /// Sizes and spacing, in scene units (about pixels at zoom 1).
    struct Metrics {
        double nodeWidth = 150;
        double nodeHeight = 40;
        double groupBoxHeight = 46;
        double groupPadding = 12;
        double groupTitle = 22;
    };

    /// A group with more direct nodes than this is cut into chunks of ChunkNodes consecutive
    /// nodes (module path "<group>#k"), so that a graph without module information still lays
    /// out piece by piece.
    static constexpr int MaxDirectNodes = 300;
    static constexpr int ChunkNodes = 150;

    GraphLayout();

    /// Builds the module hierarchy of `snapshot` and lays it out. Groups keep their expanded or
    /// collapsed state by path from the previous snapshot; new groups get the default state.
    void setSnapshot(std::shared_ptr<const Graph::Snapshot> snapshot);
    std::shared_ptr<const Graph::Snapshot> snapshot() const { return m_snapshot; }

    /// Default expansion: groups are expanded breadth-first while the number of visible items
    /// stays within this budget; larger groups stay collapsed. Applies to groups not toggled yet.
    void setVisibleBudget(int items) { m_budget = items; }
    int visibleBudget() const { return m_budget; }

    /// Expands or collapses a group (by index) and lays out again; false for an unknown group.
    bool setExpanded(int group, bool expanded);
    /// Expands every group on the way from the root to `node`.
    void revealNode(int node);
    void expandAll();
    void collapseAll();
    /// Module path -> expanded, for every group of the current snapshot.
    QHash<QString, bool> expansionStates() const;
    /// Applies these states (by module path; unknown paths are remembered for later snapshots)
    /// and lays out again if anything changed.
    void setExpansionStates(const QHash<QString, bool> &states);

    const std::vector<Group> &groups() const { return m_groups; }
    const std::vector<Edge> &edges() const { return m_edges; }
    int groupByPath(const QString &path) const { return m_groupByPath.value(path, -1); }
    /// The group a node is drawn in (after parameters moved next to their users).
    int groupOfNode(int node) const { return m_nodeGroup[node]; }
    /// The visible thing standing for a node: itself, or the outermost collapsed group around it.
    ItemRef visibleItem(int node) const;
    /// Absolute rectangle of a node; empty when the node is inside a collapsed group.
    QRectF nodeRect(int node) const { return m_nodeRects[node]; }
    QRectF itemRect(const ItemRef &item) const;
    QRectF bounds() const { return m_groups.empty() ? QRectF() : m_groups[0].rect; }
    int nodeIndex(const QString &id) const;
    /// Nodes in a group's subtree (all of them, collapsed or not).
    std::vector<int> nodesUnder(int group) const;

    /// The pieces laid out last, with their results (for the benchmark and tests).
    struct PieceRecord {
        int group;
        Graph::Layout::Piece piece;
        Graph::Layout::Result result;
    };
    std::vector<PieceRecord> pieces() const;

    /// Time spent in the last layout, split in structure (layering, ordering) and coordinates.
    double lastStructureMs() const { return m_structureMs; }
    double lastCoordinateMs() const { return m_coordinateMs; }

    const Metrics &metrics() const { return m_metrics; }

private:
    struct CachedPiece {
        quint64 signature = 0;
        Graph::Layout::Structure structure;
        std::vector<Graph::Layout::Size> sizes;
        Graph::Layout::Result result;
        std::vector<QString> itemKeys;
        bool valid = false;
    };
    struct GraphEdge {
        int from, to; ///< node indices
        int group; ///< lowest common group
        int fromItem, toItem; ///< indices into that group's items
    };

    void buildHierarchy();
    void applyDefaultExpansion();
    void relayout();
    void layoutGroup(int g);
    void place(int g, QPointF origin);
    void buildEdges();
    QString itemKey(const ItemRef &item) const;
    Graph::Layout::Size itemSize(const ItemRef &item) const;

    std::shared_ptr<const Graph::Snapshot> m_snapshot;
    Metrics m_metrics;
    Graph::Layout::Options m_options;
    int m_budget = 160;
    std::vector<Group> m_groups;
    QHash<QString, int> m_groupByPath;
    std::vector<int> m_nodeGroup;
    std::vector<QRectF> m_nodeRects;
    std::vector<GraphEdge> m_graphEdges;
    std::vector<Edge> m_edges;
    std::vector<int> m_collapsedAt; ///< per group: outermost collapsed ancestor-or-self, -1
    std::vector<quint64> m_signature; ///< per group: items and edges of its piece
    std::unordered_map<QString, CachedPiece> m_cache; ///< by group path, kept across snapshots
    QHash<QString, bool> m_expandedByPath; ///< states chosen by the user or carried over
    QHash<QString, int> m_nodeByName;
    double m_structureMs = 0;
    double m_coordinateMs = 0;
};

} // namespace AotStudio::Widgets
