// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphview/graphlayout.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <unordered_map>

namespace AotStudio::Widgets {

namespace Layout = Graph::Layout;

namespace {

quint64 fnv(quint64 h, const QString &s)
{
    for (QChar c : s) {
        h ^= c.unicode();
        h *= 1099511628211ull;
    }
    h ^= 0xff;
    h *= 1099511628211ull;
    return h;
}

quint64 fnv(quint64 h, quint64 v)
{
    for (int i = 0; i < 8; ++i) {
        h ^= (v >> (i * 8)) & 0xff;
        h *= 1099511628211ull;
    }
    return h;
}

quint64 pairKey(int a, int b)
{
    return (quint64(quint32(a)) << 32) | quint32(b);
}

quint64 refKey(const GraphLayout::ItemRef &r)
{
    return (r.isGroup ? (1ull << 62) : 0ull) | quint64(quint32(r.index));
}

/// The last component of a module path relative to its parent's ("layer.0" under "encoder").
QString shortPath(const QString &path, const QString &parentPath)
{
    if (!parentPath.isEmpty() && path.startsWith(parentPath + QLatin1Char('.')))
        return path.mid(parentPath.size() + 1);
    return path;
}

} // namespace

GraphLayout::GraphLayout() = default;

int GraphLayout::nodeIndex(const QString &id) const
{
    return m_nodeByName.value(id, -1);
}

QString GraphLayout::itemKey(const ItemRef &item) const
{
    if (item.isGroup)
        return QLatin1String("g:") + m_groups[item.index].path;
    return QString::fromStdString(m_snapshot->nodes[item.index].id);
}

void GraphLayout::setSnapshot(std::shared_ptr<const Graph::Snapshot> snapshot)
{
    // Carry the expansion state of groups over by path, so a pass step keeps what the user opened.
    for (const Group &g : m_groups) {
        if (!m_expandedByPath.contains(g.path))
            m_expandedByPath.insert(g.path, g.expanded);
    }
    m_snapshot = std::move(snapshot);
    buildHierarchy();
    applyDefaultExpansion();
    relayout();
}

void GraphLayout::buildHierarchy()
{
    m_groups.clear();
    m_groupByPath.clear();
    m_nodeByName.clear();
    m_graphEdges.clear();
    m_edges.clear();
    const int n = m_snapshot ? static_cast<int>(m_snapshot->nodes.size()) : 0;
    m_nodeGroup.assign(n, 0);
    m_nodeRects.assign(n, QRectF());

    Group root;
    root.expanded = true;
    m_groups.push_back(root);
    m_groupByPath.insert(QString(), 0);
    m_signature.assign(1, 0); // an empty root piece: never equal to a real one's signature
    if (!m_snapshot)
        return;

    const auto groupFor = [this](const QString &path, const QString &type, int parent) {
        const auto it = m_groupByPath.constFind(path);
        if (it != m_groupByPath.constEnd()) {
            if (m_groups[*it].type.isEmpty())
                m_groups[*it].type = type;
            return *it;
        }
        Group g;
        g.path = path;
        g.type = type;
        g.parent = parent;
        g.depth = m_groups[parent].depth + 1;
        const int index = static_cast<int>(m_groups.size());
        m_groups.push_back(g);
        m_groups[parent].childGroups.push_back(index);
        m_groupByPath.insert(path, index);
        return index;
    };

    for (int i = 0; i < n; ++i) {
        const Graph::Node &node = m_snapshot->nodes[i];
        m_nodeByName.insert(QString::fromStdString(node.id), i);
        int g = 0;
        if (!node.moduleStack.empty()) {
            for (const Graph::ModuleFrame &f : node.moduleStack) {
                if (!f.path.empty())
                    g = groupFor(QString::fromStdString(f.path), QString::fromStdString(f.type), g);
            }
        } else if (!node.module.empty()) {
            // No stack: nest by the dotted path ("a.b.c" inside "a.b" inside "a").
            const QString module = QString::fromStdString(node.module);
            qsizetype from = 0;
            while (true) {
                const qsizetype dot = module.indexOf(QLatin1Char('.'), from);
                const QString prefix = dot < 0 ? module : module.left(dot);
                g = groupFor(prefix, QString(), g);
                if (dot < 0)
                    break;
                from = dot + 1;
            }
        }
        m_nodeGroup[i] = g;
    }

    const auto lca = [this](int a, int b) {
        while (m_groups[a].depth > m_groups[b].depth)
            a = m_groups[a].parent;
        while (m_groups[b].depth > m_groups[a].depth)
            b = m_groups[b].parent;
        while (a != b) {
            a = m_groups[a].parent;
            b = m_groups[b].parent;
        }
        return a;
    };
    const auto isAncestor = [this](int ancestor, int g) {
        while (g >= 0 && m_groups[g].depth > m_groups[ancestor].depth)
            g = m_groups[g].parent;
        return g == ancestor;
    };

    // Parameters go to the innermost group holding all their users.
    std::vector<std::vector<int>> users(n);
    for (int i = 0; i < n; ++i) {
        for (const std::string &in : m_snapshot->nodes[i].inputs) {
            const auto it = m_snapshot->byId.find(in);
            if (it != m_snapshot->byId.end())
                users[it->second].push_back(i);
        }
    }
    for (int i = 0; i < n; ++i) {
        const Graph::Node &node = m_snapshot->nodes[i];
        // torch.export names lifted parameters, buffers and constants p_*, b_* and c_*.
        const bool lifted = node.op == "placeholder"
            && (node.id.rfind("p_", 0) == 0 || node.id.rfind("b_", 0) == 0 || node.id.rfind("c_", 0) == 0);
        if (!node.inputs.empty() || (node.category != "param" && node.op != "get_attr" && !lifted))
            continue;
        if (users[i].empty()) {
            // Unused (num_batches_tracked, ...): next to its module, named by its target.
            QString target = QString::fromStdString(node.target);
            for (qsizetype dot = target.lastIndexOf(QLatin1Char('.')); dot > 0;
                 dot = target.lastIndexOf(QLatin1Char('.'))) {
                target.truncate(dot);
                const int g = m_groupByPath.value(target, -1);
                if (g > 0) {
                    m_nodeGroup[i] = g;
                    break;
                }
            }
            continue;
        }
        int g = m_nodeGroup[users[i].front()];
        for (int u : users[i])
            g = lca(g, m_nodeGroup[u]);
        if (isAncestor(m_nodeGroup[i], g))
            m_nodeGroup[i] = g;
    }

    // A group with very many direct nodes (a graph without module information, or modules whose
    // stacks a pass dropped) is cut into chunks of consecutive nodes, so that no piece gets big:
    // layout time grows faster than linearly with a piece's size.
    {
        std::vector<std::vector<int>> direct(m_groups.size());
        for (int i = 0; i < n; ++i)
            direct[m_nodeGroup[i]].push_back(i);
        // Inputs and parameters go with their first user, not all into the first chunks.
        std::vector<double> position(n);
        for (int i = 0; i < n; ++i) {
            position[i] = m_snapshot->nodes[i].index;
            if (m_snapshot->nodes[i].inputs.empty() && !users[i].empty()) {
                double first = std::numeric_limits<double>::max();
                for (int u : users[i])
                    first = std::min(first, double(m_snapshot->nodes[u].index));
                position[i] = first - 0.5;
            }
        }
        const int originalGroups = static_cast<int>(m_groups.size());
        for (int g = 0; g < originalGroups; ++g) {
            std::vector<int> &list = direct[g];
            if (static_cast<int>(list.size()) <= MaxDirectNodes)
                continue;
            std::stable_sort(list.begin(), list.end(), [&position](int a, int b) { return position[a] < position[b]; });
            const QString parentPath = m_groups[g].path;
            for (std::size_t start = 0; start < list.size(); start += ChunkNodes) {
                const std::size_t end = std::min(list.size(), start + ChunkNodes);
                const QString type = QCoreApplication::translate("AotStudio::Widgets::GraphLayout", "part %1 of %2")
                                         .arg(start / ChunkNodes + 1)
                                         .arg((list.size() + ChunkNodes - 1) / ChunkNodes);
                const int chunk = groupFor(parentPath + QStringLiteral("#%1").arg(start / ChunkNodes), type, g);
                for (std::size_t k = start; k < end; ++k)
                    m_nodeGroup[list[k]] = chunk;
            }
        }
    }

    for (int i = 0; i < n; ++i)
        m_groups[m_nodeGroup[i]].nodes.push_back(i);
    const int groupCount = static_cast<int>(m_groups.size());
    for (Group &g : m_groups) {
        g.minIndex = std::numeric_limits<int>::max();
        g.totalNodes = static_cast<int>(g.nodes.size());
        for (int i : g.nodes)
            g.minIndex = std::min(g.minIndex, m_snapshot->nodes[i].index);
    }
    // Children were created after their parents: a reverse sweep accumulates bottom-up.
    for (int g = groupCount - 1; g > 0; --g) {
        Group &p = m_groups[m_groups[g].parent];
        p.totalNodes += m_groups[g].totalNodes;
        p.minIndex = std::min(p.minIndex, m_groups[g].minIndex);
    }
    std::vector<int> itemIndexOfNode(n, -1), itemIndexOfGroup(groupCount, -1);
    for (int g = 0; g < groupCount; ++g) {
        Group &group = m_groups[g];
        std::sort(group.childGroups.begin(), group.childGroups.end(),
            [this](int a, int b) { return m_groups[a].minIndex < m_groups[b].minIndex; });
        for (int i : group.nodes) {
            itemIndexOfNode[i] = static_cast<int>(group.items.size());
            group.items.push_back({ false, i });
        }
        for (int c : group.childGroups) {
            itemIndexOfGroup[c] = static_cast<int>(group.items.size());
            group.items.push_back({ true, c });
        }
    }

    // Every graph edge is routed in the piece of its lowest common group.
    const auto itemIn = [&](int node, int group) {
        int g = m_nodeGroup[node];
        if (g == group)
            return itemIndexOfNode[node];
        while (m_groups[g].parent != group)
            g = m_groups[g].parent;
        return itemIndexOfGroup[g];
    };
    for (int v = 0; v < n; ++v) {
        for (const std::string &in : m_snapshot->nodes[v].inputs) {
            const auto it = m_snapshot->byId.find(in);
            if (it == m_snapshot->byId.end())
                continue;
            const int u = static_cast<int>(it->second);
            if (u == v)
                continue;
            const int l = lca(m_nodeGroup[u], m_nodeGroup[v]);
            const int a = itemIn(u, l), b = itemIn(v, l);
            if (a != b)
                m_graphEdges.push_back({ u, v, l, a, b });
        }
    }

    // Piece signatures: the item keys in order and the edges.
    m_signature.assign(groupCount, 1469598103934665603ull);
    for (int g = 0; g < groupCount; ++g) {
        for (const ItemRef &item : m_groups[g].items)
            m_signature[g] = fnv(m_signature[g], itemKey(item));
    }
    for (const GraphEdge &e : m_graphEdges)
        m_signature[e.group] = fnv(m_signature[e.group], pairKey(e.fromItem, e.toItem));
}

void GraphLayout::applyDefaultExpansion()
{
    for (Group &g : m_groups)
        g.expanded = false;
    if (m_groups.empty())
        return;
    m_groups[0].expanded = true;
    // Breadth first, all children of a group together: either all of them open (when the items
    // that brings into view fit the budget) or none, so sibling blocks look alike.
    int visible = static_cast<int>(m_groups[0].items.size());
    std::deque<int> parents { 0 };
    while (!parents.empty()) {
        const int parent = parents.front();
        parents.pop_front();
        int cost = 0;
        for (int c : m_groups[parent].childGroups) {
            if (!m_expandedByPath.contains(m_groups[c].path))
                cost += static_cast<int>(m_groups[c].items.size()) - 1;
        }
        const bool open = visible + cost <= m_budget;
        for (int c : m_groups[parent].childGroups) {
            Group &group = m_groups[c];
            const auto chosen = m_expandedByPath.constFind(group.path);
            group.expanded = chosen != m_expandedByPath.constEnd() ? *chosen : open;
            if (group.expanded) {
                visible += static_cast<int>(group.items.size()) - 1;
                parents.push_back(c);
            }
        }
    }
}

bool GraphLayout::setExpanded(int group, bool expanded)
{
    if (group <= 0 || group >= static_cast<int>(m_groups.size()))
        return false;
    m_groups[group].expanded = expanded;
    m_expandedByPath.insert(m_groups[group].path, expanded);
    relayout();
    return true;
}

void GraphLayout::revealNode(int node)
{
    if (node < 0 || node >= static_cast<int>(m_nodeGroup.size()))
        return;
    bool changed = false;
    for (int g = m_nodeGroup[node]; g > 0; g = m_groups[g].parent) {
        if (!m_groups[g].expanded) {
            m_groups[g].expanded = true;
            m_expandedByPath.insert(m_groups[g].path, true);
            changed = true;
        }
    }
    if (changed)
        relayout();
}

void GraphLayout::expandAll()
{
    for (std::size_t g = 1; g < m_groups.size(); ++g) {
        m_groups[g].expanded = true;
        m_expandedByPath.insert(m_groups[g].path, true);
    }
    relayout();
}

void GraphLayout::collapseAll()
{
    for (std::size_t g = 1; g < m_groups.size(); ++g) {
        m_groups[g].expanded = false;
        m_expandedByPath.insert(m_groups[g].path, false);
    }
    relayout();
}

QHash<QString, bool> GraphLayout::expansionStates() const
{
    QHash<QString, bool> out;
    for (std::size_t g = 1; g < m_groups.size(); ++g)
        out.insert(m_groups[g].path, m_groups[g].expanded);
    return out;
}

void GraphLayout::setExpansionStates(const QHash<QString, bool> &states)
{
    bool changed = false;
    for (auto it = states.constBegin(); it != states.constEnd(); ++it) {
        m_expandedByPath.insert(it.key(), it.value());
        const int g = groupByPath(it.key());
        if (g > 0 && m_groups[g].expanded != it.value()) {
            m_groups[g].expanded = it.value();
            changed = true;
        }
    }
    if (changed)
        relayout();
}

Layout::Size GraphLayout::itemSize(const ItemRef &item) const
{
    if (!item.isGroup)
        return { m_metrics.nodeWidth, m_metrics.nodeHeight };
    const Group &g = m_groups[item.index];
    if (g.expanded)
        return { g.rect.width(), g.rect.height() };
    const QString label = shortPath(g.path, m_groups[g.parent].path);
    const double w = std::clamp(36.0 + 6.5 * std::max(label.size(), g.type.size() + 10), 140.0, 260.0);
    return { w, m_metrics.groupBoxHeight };
}

void GraphLayout::relayout()
{
    m_structureMs = 0;
    m_coordinateMs = 0;
    if (m_groups.empty())
        return;
    const int groupCount = static_cast<int>(m_groups.size());
    m_collapsedAt.assign(groupCount, -1);
    for (int g = 1; g < groupCount; ++g) { // parents come before children
        const int p = m_collapsedAt[m_groups[g].parent];
        m_collapsedAt[g] = p >= 0 ? p : (m_groups[g].expanded ? -1 : g);
    }
    for (Group &g : m_groups) {
        g.visible = false;
        g.edges.clear();
    }
    std::fill(m_nodeRects.begin(), m_nodeRects.end(), QRectF());
    layoutGroup(0);
    place(0, QPointF(0, 0));
    buildEdges();
}

void GraphLayout::layoutGroup(int g)
{
    Group &group = m_groups[g];
    for (int c : group.childGroups) {
        if (m_groups[c].expanded)
            layoutGroup(c);
    }
    std::vector<Layout::Size> sizes;
    sizes.reserve(group.items.size());
    for (const ItemRef &item : group.items)
        sizes.push_back(itemSize(item));

    CachedPiece &cache = m_cache[group.path];
    QElapsedTimer timer;
    timer.start();
    if (!cache.valid || cache.signature != m_signature[g]) {
        Layout::Piece piece;
        piece.sizes = sizes;
        std::vector<QString> keys;
        keys.reserve(group.items.size());
        for (const ItemRef &item : group.items) {
            keys.push_back(itemKey(item));
            piece.orderKey.push_back(
                item.isGroup ? m_groups[item.index].minIndex : m_snapshot->nodes[item.index].index);
        }
        if (cache.valid) {
            // Seed the order from the old drawing, matched by item key.
            QHash<QString, double> oldX;
            for (std::size_t i = 0; i < cache.itemKeys.size(); ++i)
                oldX.insert(cache.itemKeys[i], cache.result.pos[i].x + cache.sizes[i].w / 2);
            piece.hintX.assign(keys.size(), std::nan(""));
            for (std::size_t i = 0; i < keys.size(); ++i) {
                const auto it = oldX.constFind(keys[i]);
                if (it != oldX.constEnd())
                    piece.hintX[i] = *it;
            }
        }
        for (const GraphEdge &e : m_graphEdges) {
            if (e.group == g)
                piece.edges.emplace_back(e.fromItem, e.toItem);
        }
        cache.structure = Layout::buildStructure(piece, m_options);
        cache.signature = m_signature[g];
        cache.itemKeys = std::move(keys);
        cache.valid = true;
        cache.sizes.clear(); // force coordinates
        m_structureMs += timer.nsecsElapsed() / 1e6;
        timer.restart();
    }
    bool sameSizes = cache.sizes.size() == sizes.size();
    for (std::size_t i = 0; sameSizes && i < sizes.size(); ++i)
        sameSizes = cache.sizes[i].w == sizes[i].w && cache.sizes[i].h == sizes[i].h;
    if (!sameSizes) {
        cache.result = Layout::assignCoordinates(cache.structure, sizes, m_options);
        cache.sizes = sizes;
        m_coordinateMs += timer.nsecsElapsed() / 1e6;
    }
    const QString title = shortPath(group.path, g > 0 ? m_groups[group.parent].path : QString());
    const double titleWidth = 40 + 6.5 * (title.size() + group.type.size() + 3);
    const double w = std::max(cache.result.width, g > 0 ? titleWidth : 0.0) + 2 * m_metrics.groupPadding;
    const double h = cache.result.height + m_metrics.groupTitle + m_metrics.groupPadding;
    group.rect = QRectF(0, 0, w, h);
}

void GraphLayout::place(int g, QPointF origin)
{
    Group &group = m_groups[g];
    group.rect.moveTopLeft(origin);
    group.visible = true;
    const CachedPiece &cache = m_cache.at(group.path);
    const double inset = (group.rect.width() - cache.result.width) / 2;
    const QPointF content = origin + QPointF(inset, m_metrics.groupTitle);
    for (std::size_t i = 0; i < group.items.size(); ++i) {
        const ItemRef &item = group.items[i];
        const QPointF p = content + QPointF(cache.result.pos[i].x, cache.result.pos[i].y);
        if (!item.isGroup) {
            m_nodeRects[item.index] = QRectF(p, QSizeF(cache.sizes[i].w, cache.sizes[i].h));
        } else if (m_groups[item.index].expanded) {
            place(item.index, p);
        } else {
            Group &child = m_groups[item.index];
            child.rect = QRectF(p, QSizeF(cache.sizes[i].w, cache.sizes[i].h));
            child.visible = true;
        }
    }
}

GraphLayout::ItemRef GraphLayout::visibleItem(int node) const
{
    const int c = m_collapsedAt.empty() ? -1 : m_collapsedAt[m_nodeGroup[node]];
    return c >= 0 ? ItemRef { true, c } : ItemRef { false, node };
}

QRectF GraphLayout::itemRect(const ItemRef &item) const
{
    if (!item.valid())
        return {};
    return item.isGroup ? m_groups[item.index].rect : m_nodeRects[item.index];
}

void GraphLayout::buildEdges()
{
    m_edges.clear();
    std::unordered_map<quint64, int> byEnds;
    std::unordered_map<int, std::unordered_map<quint64, int>> pathIndex; // group -> item pair -> path
    for (const GraphEdge &e : m_graphEdges) {
        const ItemRef a = visibleItem(e.from), b = visibleItem(e.to);
        if (a == b)
            continue;
        const quint64 key = fnv(fnv(1469598103934665603ull, refKey(a)), refKey(b));
        const auto found = byEnds.find(key);
        if (found != byEnds.end()) {
            ++m_edges[found->second].count;
            continue;
        }
        auto &paths = pathIndex[e.group];
        const CachedPiece &cache = m_cache.at(m_groups[e.group].path);
        if (paths.empty()) {
            for (std::size_t i = 0; i < cache.structure.edges.size(); ++i)
                paths.emplace(pairKey(cache.structure.edges[i].first, cache.structure.edges[i].second), int(i));
        }
        const auto p = paths.find(pairKey(e.fromItem, e.toItem));
        if (p == paths.end())
            continue;
        const Group &group = m_groups[e.group];
        const double inset = (group.rect.width() - cache.result.width) / 2;
        const QPointF content = group.rect.topLeft() + QPointF(inset, m_metrics.groupTitle);
        Edge edge;
        edge.from = a;
        edge.to = b;
        edge.group = e.group;
        edge.count = 1;
        for (const Layout::Point &pt : cache.result.paths[p->second])
            edge.route << content + QPointF(pt.x, pt.y);
        byEnds.emplace(key, static_cast<int>(m_edges.size()));
        m_groups[e.group].edges.push_back(static_cast<int>(m_edges.size()));
        m_edges.push_back(std::move(edge));
    }
}

std::vector<int> GraphLayout::nodesUnder(int group) const
{
    std::vector<int> out;
    for (int i = 0; i < static_cast<int>(m_nodeGroup.size()); ++i) {
        int g = m_nodeGroup[i];
        while (g > 0 && g != group)
            g = m_groups[g].parent;
        if (g == group)
            out.push_back(i);
    }
    return out;
}

std::vector<GraphLayout::PieceRecord> GraphLayout::pieces() const
{
    std::vector<PieceRecord> out;
    for (int g = 0; g < static_cast<int>(m_groups.size()); ++g) {
        const Group &group = m_groups[g];
        if (!group.visible || !group.expanded)
            continue;
        const auto it = m_cache.find(group.path);
        if (it == m_cache.end())
            continue;
        PieceRecord r;
        r.group = g;
        r.piece.sizes = it->second.sizes;
        r.piece.edges = it->second.structure.edges;
        for (const ItemRef &item : group.items)
            r.piece.orderKey.push_back(
                item.isGroup ? m_groups[item.index].minIndex : m_snapshot->nodes[item.index].index);
        r.result = it->second.result;
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace AotStudio::Widgets
