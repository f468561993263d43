// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/layered.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

namespace AotStudio::Graph::Layout {

namespace {

/// Crossings between two consecutive layers: inversions of the lower end points when the edges
/// are sorted by their upper end points (Fenwick tree, O(E log V)).
std::size_t crossingsBetween(const std::vector<int> &upper, const std::vector<int> &position,
    const std::vector<std::vector<int>> &down, std::size_t lowerSize)
{
    std::vector<std::pair<int, int>> ends;
    for (int u : upper) {
        for (int v : down[u])
            ends.emplace_back(position[u], position[v]);
    }
    if (ends.size() < 2)
        return 0;
    std::sort(ends.begin(), ends.end());
    std::vector<int> tree(lowerSize + 1, 0);
    std::size_t crossings = 0;
    std::size_t seen = 0;
    for (const auto &[a, b] : ends) {
        // count earlier edges whose lower end is strictly right of b
        int le = 0;
        for (int i = b + 1; i > 0; i -= i & -i)
            le += tree[i];
        crossings += seen - static_cast<std::size_t>(le);
        for (int i = b + 1; i <= static_cast<int>(lowerSize); i += i & -i)
            ++tree[i];
        ++seen;
    }
    return crossings;
}

/// Minimize sum w_i (c_i - d_i)^2 subject to c_{i+1} - c_i >= sep_i: with o_i the cumulative
/// separation, z_i = c_i - o_i must be non-decreasing, an isotonic regression (pool adjacent
/// violators), exact and linear.
void placeLayer(const std::vector<double> &desired, const std::vector<double> &weight,
    const std::vector<double> &separation, std::vector<double> &out)
{
    const std::size_t n = desired.size();
    std::vector<double> offset(n, 0.0);
    for (std::size_t i = 1; i < n; ++i)
        offset[i] = offset[i - 1] + separation[i - 1];
    struct Block {
        double sum;
        double w;
        std::size_t count;
    };
    std::vector<Block> blocks;
    blocks.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        blocks.push_back({ weight[i] * (desired[i] - offset[i]), weight[i], 1 });
        while (blocks.size() > 1) {
            const Block &b = blocks.back();
            const Block &a = blocks[blocks.size() - 2];
            if (a.sum / a.w <= b.sum / b.w)
                break;
            Block merged { a.sum + b.sum, a.w + b.w, a.count + b.count };
            blocks.pop_back();
            blocks.back() = merged;
        }
    }
    out.resize(n);
    std::size_t i = 0;
    for (const Block &b : blocks) {
        const double z = b.sum / b.w;
        for (std::size_t k = 0; k < b.count; ++k, ++i)
            out[i] = z + offset[i];
    }
}

double orient(const Point &a, const Point &b, const Point &c)
{
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

bool properlyIntersect(const Point &a, const Point &b, const Point &c, const Point &d)
{
    constexpr double eps = 1e-9;
    const double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
    return ((o1 > eps && o2 < -eps) || (o1 < -eps && o2 > eps)) && ((o3 > eps && o4 < -eps) || (o3 < -eps && o4 > eps));
}

/// Topological rank: Kahn's algorithm taking the smallest order key first; when only cycles are
/// left, the remaining item with the smallest key goes next.
std::vector<int> topologicalRank(const Piece &piece, const std::vector<std::pair<int, int>> &edges, int n)
{
    std::vector<int> rank(n, -1);
    const auto key = [&piece, n](int i) {
        return piece.orderKey.size() == static_cast<std::size_t>(n) ? piece.orderKey[i] : static_cast<double>(i);
    };
    std::vector<std::vector<int>> out(n);
    std::vector<int> indegree(n, 0);
    for (const auto &[u, v] : edges) {
        out[u].push_back(v);
        ++indegree[v];
    }
    std::set<std::pair<double, int>> ready, remaining;
    for (int i = 0; i < n; ++i) {
        remaining.insert({key(i), i});
        if (indegree[i] == 0)
            ready.insert({key(i), i});
    }
    for (int next = 0; next < n; ++next) {
        const auto pick = ready.empty() ? *remaining.begin() : *ready.begin();
        ready.erase(pick);
        remaining.erase(pick);
        const int u = pick.second;
        rank[u] = next;
        for (int v : out[u]) {
            if (rank[v] < 0 && --indegree[v] == 0)
                ready.insert({key(v), v});
        }
    }
    return rank;
}

/// Longest-path layering in rank order, then sources (parameters, inputs) pulled down to sit just
/// above their first user instead of all in the top row. `preds`, `succs`: of the directed edges.
std::vector<int> longestPathLayers(const std::vector<int> &rank, const std::vector<std::vector<int>> &preds,
                                   const std::vector<std::vector<int>> &succs)
{
    const int n = static_cast<int>(rank.size());
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i)
        order[rank[i]] = i;
    std::vector<int> layer(n, 0);
    for (int v : order) {
        for (int u : preds[v])
            layer[v] = std::max(layer[v], layer[u] + 1);
    }
    for (int v : order) {
        if (preds[v].empty() && !succs[v].empty()) {
            int m = layer[succs[v].front()];
            for (int w : succs[v])
                m = std::min(m, layer[w]);
            layer[v] = std::max(layer[v], m - 1);
        }
    }
    return layer;
}

/// The vertices of `s` (its items, layered by `layer`, then one dummy per layer each `directed`
/// edge passes through), the edges' chains and the up/down neighbours. `seed`: an x per item on
/// entry (for the initial order), one per dummy appended, interpolated along its edge.
void addVertices(Structure &s, const std::vector<std::pair<int, int>> &directed, const std::vector<int> &layer,
                 std::vector<double> &seed)
{
    s.layerOf = layer;
    s.chains.resize(s.edges.size());
    for (std::size_t e = 0; e < directed.size(); ++e) {
        const auto [u, v] = directed[e];
        auto &chain = s.chains[e];
        chain.push_back(u);
        for (int l = layer[u] + 1; l < layer[v]; ++l) {
            const int d = static_cast<int>(s.layerOf.size());
            s.layerOf.push_back(l);
            const double t = double(l - layer[u]) / double(layer[v] - layer[u]);
            seed.push_back(seed[u] + t * (seed[v] - seed[u]));
            chain.push_back(d);
        }
        chain.push_back(v);
    }
    const int vertexCount = static_cast<int>(s.layerOf.size());
    s.up.assign(vertexCount, {});
    s.down.assign(vertexCount, {});
    for (const auto &chain : s.chains) {
        for (std::size_t i = 0; i + 1 < chain.size(); ++i) {
            s.down[chain[i]].push_back(chain[i + 1]);
            s.up[chain[i + 1]].push_back(chain[i]);
        }
    }
}

/// The crossing reduction over the layers of a structure: barycentre (weighted median) sweeps
/// and adjacent exchanges, with every vertex's position in its layer kept current.
class OrderSearch
{
public:
    explicit OrderSearch(Structure &s)
        : m_s(s)
        , m_layerCount(static_cast<int>(s.layers.size()))
        , m_position(s.layerOf.size(), 0)
    { }

    int layerCount() const { return m_layerCount; }

    /// Positions of layer `l` from its order.
    void renumber(int l)
    {
        for (std::size_t i = 0; i < m_s.layers[l].size(); ++i)
            m_position[m_s.layers[l][i]] = static_cast<int>(i);
    }

    /// Crossings between all consecutive layers.
    std::size_t totalCrossings() const
    {
        std::size_t c = 0;
        for (int l = 0; l + 1 < m_layerCount; ++l)
            c += crossingsBetween(m_s.layers[l], m_position, m_s.down, m_s.layers[l + 1].size());
        return c;
    }

    /// Layer `l` ordered by the weighted median of each vertex's neighbours in `adjacent` (s.up or
    /// s.down).
    void sweep(int l, const std::vector<std::vector<int>> &adjacent)
    {
        auto &lay = m_s.layers[l];
        const auto &other = &adjacent == &m_s.up ? m_s.down : m_s.up;
        std::vector<double> bary(lay.size());
        for (std::size_t i = 0; i < lay.size(); ++i) {
            // A vertex with no neighbour on the sweep's side (a parameter pulled down next to its
            // user) follows its neighbours on the other side instead of staying where it was.
            const auto &nb = adjacent[lay[i]].empty() ? other[lay[i]] : adjacent[lay[i]];
            bary[i] = nb.empty() ? static_cast<double>(i) : weightedMedian(nb);
        }
        std::vector<int> idx(lay.size());
        std::iota(idx.begin(), idx.end(), 0);
        std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return bary[a] < bary[b]; });
        std::vector<int> sorted(lay.size());
        for (std::size_t i = 0; i < idx.size(); ++i)
            sorted[i] = lay[idx[i]];
        lay = std::move(sorted);
        renumber(l);
    }

    /// Adjacent exchanges (the "transpose" step of Gansner et al.): swap two neighbours in a layer
    /// when that lowers their crossings with both adjacent layers. Returns whether anything moved.
    bool transpose()
    {
        bool moved = false;
        for (int l = 0; l < m_layerCount; ++l) {
            auto &lay = m_s.layers[l];
            for (std::size_t i = 0; i + 1 < lay.size(); ++i) {
                const int u = lay[i], v = lay[i + 1];
                if (pairCrossings(v, u) < pairCrossings(u, v)) {
                    std::swap(lay[i], lay[i + 1]);
                    m_position[v] = static_cast<int>(i);
                    m_position[u] = static_cast<int>(i + 1);
                    moved = true;
                }
            }
        }
        return moved;
    }

private:
    /// Weighted median of the neighbours' positions (Gansner et al.): robust against one far
    /// neighbour.
    double weightedMedian(const std::vector<int> &nb) const
    {
        std::vector<int> p;
        p.reserve(nb.size());
        for (int w : nb)
            p.push_back(m_position[w]);
        std::sort(p.begin(), p.end());
        const std::size_t m = p.size() / 2;
        if (p.size() % 2 == 1)
            return p[m];
        if (p.size() == 2)
            return (p[0] + p[1]) / 2.0;
        const double left = p[m - 1] - p.front(), right = p.back() - p[m];
        return left + right > 0 ? (p[m - 1] * right + p[m] * left) / (left + right) : (p[m - 1] + p[m]) / 2.0;
    }

    /// Crossings of the edges of `left` and `right` (neighbours in a layer, in that order) with
    /// both adjacent layers.
    std::size_t pairCrossings(int left, int right) const
    {
        std::size_t c = 0;
        for (const auto *adjacent : {&m_s.up, &m_s.down}) {
            for (int a : (*adjacent)[left]) {
                for (int b : (*adjacent)[right])
                    c += m_position[a] > m_position[b] ? 1 : 0;
            }
        }
        return c;
    }

    Structure &m_s;
    int m_layerCount;
    std::vector<int> m_position;
};

/// The order inside each layer of `s` (its vertices layered): by `seed` (the hints when there are
/// any, else the rank), refined by one downward barycentre pass without hints (a DFS-like start
/// that already follows the flow); then options.sweeps alternating sweeps with exchanges, the
/// order with the fewest crossings kept, and exchanges until nothing moves (at most 8 rounds).
void orderLayers(Structure &s, int layerCount, const std::vector<double> &seed, bool useHints, const Options &options)
{
    const int vertexCount = static_cast<int>(s.layerOf.size());
    s.layers.assign(layerCount, {});
    for (int v = 0; v < vertexCount; ++v)
        s.layers[s.layerOf[v]].push_back(v);
    OrderSearch search(s);
    for (int l = 0; l < layerCount; ++l) {
        std::stable_sort(s.layers[l].begin(), s.layers[l].end(), [&](int a, int b) { return seed[a] < seed[b]; });
        search.renumber(l);
    }
    if (!useHints) {
        for (int l = 1; l < layerCount; ++l)
            search.sweep(l, s.up);
    }
    std::size_t best = search.totalCrossings();
    auto bestLayers = s.layers;
    for (int it = 0; it < options.sweeps && best > 0; ++it) {
        if (it % 2 == 0) {
            for (int l = 1; l < layerCount; ++l)
                search.sweep(l, s.up);
        } else {
            for (int l = layerCount - 2; l >= 0; --l)
                search.sweep(l, s.down);
        }
        search.transpose();
        const std::size_t c = search.totalCrossings();
        if (c < best) {
            best = c;
            bestLayers = s.layers;
        }
    }
    s.layers = std::move(bestLayers);
    for (int l = 0; l < layerCount; ++l)
        search.renumber(l);
    for (int round = 0; round < 8 && best > 0 && search.transpose(); ++round) { }
}

} // namespace

std::vector<std::pair<int, int>> normalizedEdges(const Piece &piece)
{
    const int n = static_cast<int>(piece.sizes.size());
    std::vector<std::pair<int, int>> out;
    std::set<std::pair<int, int>> seen;
    for (const auto &[u, v] : piece.edges) {
        if (u == v || u < 0 || v < 0 || u >= n || v >= n)
            continue;
        if (seen.insert({u, v}).second)
            out.emplace_back(u, v);
    }
    return out;
}

Structure buildStructure(const Piece &piece, const Options &options)
{
    Structure s;
    const int n = static_cast<int>(piece.sizes.size());
    s.itemCount = n;
    s.edges = normalizedEdges(piece);
    if (n == 0)
        return s;

    // Edges against the topological rank are reversed, which breaks exactly the cycles (a DAG
    // keeps all its edges pointing down).
    const std::vector<int> rank = topologicalRank(piece, s.edges, n);
    std::vector<std::pair<int, int>> directed; // top -> bottom
    s.reversed.resize(s.edges.size());
    for (std::size_t e = 0; e < s.edges.size(); ++e) {
        auto [u, v] = s.edges[e];
        s.reversed[e] = rank[u] > rank[v];
        directed.emplace_back(s.reversed[e] ? v : u, s.reversed[e] ? u : v);
    }
    std::vector<std::vector<int>> preds(n), succs(n);
    for (const auto &[u, v] : directed) {
        preds[v].push_back(u);
        succs[u].push_back(v);
    }
    const std::vector<int> layer = longestPathLayers(rank, preds, succs);
    int layerCount = 0;
    for (int v = 0; v < n; ++v)
        layerCount = std::max(layerCount, layer[v] + 1);

    // Vertices: items, then one dummy per layer an edge passes through; then their order.
    std::vector<double> seed(n);
    for (int v = 0; v < n; ++v) {
        const bool hinted = piece.hintX.size() == static_cast<std::size_t>(n) && !std::isnan(piece.hintX[v]);
        seed[v] = hinted ? piece.hintX[v] : static_cast<double>(rank[v]);
    }
    const bool useHints = piece.hintX.size() == static_cast<std::size_t>(n)
        && std::any_of(piece.hintX.begin(), piece.hintX.end(), [](double x) { return !std::isnan(x); });
    addVertices(s, directed, layer, seed);
    orderLayers(s, layerCount, seed, useHints, options);
    return s;
}

Result assignCoordinates(const Structure &s, const std::vector<Size> &sizes, const Options &options)
{
    Result r;
    const int n = s.itemCount;
    const int vertexCount = static_cast<int>(s.layerOf.size());
    r.pos.resize(n);
    if (n == 0)
        return r;
    const auto width = [&](int v) { return v < n ? sizes[v].w : options.dummyWidth; };
    const auto height = [&](int v) { return v < n ? sizes[v].h : 0.0; };

    const int layerCount = static_cast<int>(s.layers.size());
    std::vector<double> layerTop(layerCount, 0.0), layerHeight(layerCount, 0.0);
    double y = 0;
    for (int l = 0; l < layerCount; ++l) {
        double h = 0;
        for (int v : s.layers[l])
            h = std::max(h, height(v));
        layerTop[l] = y;
        layerHeight[l] = h;
        y += h + options.layerGap;
    }
    r.height = layerCount > 0 ? y - options.layerGap : 0;

    // x centres: packed and centred on 0, then alternating passes towards the neighbours' mean.
    std::vector<double> cx(vertexCount, 0.0);
    std::vector<std::vector<double>> separation(layerCount);
    for (int l = 0; l < layerCount; ++l) {
        const auto &lay = s.layers[l];
        separation[l].resize(lay.size() > 0 ? lay.size() - 1 : 0);
        double x = 0;
        for (std::size_t i = 0; i < lay.size(); ++i) {
            if (i > 0) {
                const double gap = (lay[i - 1] >= n && lay[i] >= n) ? options.dummyWidth : options.nodeGap;
                separation[l][i - 1] = (width(lay[i - 1]) + width(lay[i])) / 2 + gap;
                x += separation[l][i - 1];
            }
            cx[lay[i]] = x;
        }
        for (int v : lay)
            cx[v] -= x / 2;
    }
    std::vector<double> desired, weight, placed;
    const auto pass = [&](int l, bool useUp, bool useDown) {
        const auto &lay = s.layers[l];
        desired.assign(lay.size(), 0.0);
        weight.assign(lay.size(), 1.0);
        for (std::size_t i = 0; i < lay.size(); ++i) {
            const int v = lay[i];
            double sum = 0;
            int count = 0;
            if (useUp) {
                for (int w : s.up[v]) {
                    sum += cx[w];
                    ++count;
                }
            }
            if (useDown) {
                for (int w : s.down[v]) {
                    sum += cx[w];
                    ++count;
                }
            }
            desired[i] = count ? sum / count : cx[v];
            // Dummies pull harder: long edges should run straight.
            weight[i] = count ? (v >= n ? 4.0 : 1.0) : 0.05;
        }
        placeLayer(desired, weight, separation[l], placed);
        for (std::size_t i = 0; i < lay.size(); ++i)
            cx[lay[i]] = placed[i];
    };
    for (int it = 0; it < options.coordinatePasses; ++it) {
        if (it % 2 == 0) {
            for (int l = 1; l < layerCount; ++l)
                pass(l, true, false);
        } else {
            for (int l = layerCount - 2; l >= 0; --l)
                pass(l, false, true);
        }
    }
    for (int l = 0; l < layerCount; ++l)
        pass(l, true, true);

    double minX = 0, maxX = 0;
    bool first = true;
    for (int v = 0; v < vertexCount; ++v) {
        const double a = cx[v] - width(v) / 2, b = cx[v] + width(v) / 2;
        minX = first ? a : std::min(minX, a);
        maxX = first ? b : std::max(maxX, b);
        first = false;
    }
    for (int v = 0; v < vertexCount; ++v)
        cx[v] -= minX;
    r.width = maxX - minX;

    for (int v = 0; v < n; ++v) {
        const int l = s.layerOf[v];
        r.pos[v] = { cx[v] - sizes[v].w / 2, layerTop[l] + (layerHeight[l] - sizes[v].h) / 2 };
    }
    r.paths.resize(s.chains.size());
    for (std::size_t e = 0; e < s.chains.size(); ++e) {
        const auto &chain = s.chains[e];
        auto &path = r.paths[e];
        const int u = chain.front(), v = chain.back();
        path.push_back({ cx[u], r.pos[u].y + sizes[u].h });
        for (std::size_t i = 1; i + 1 < chain.size(); ++i) {
            const int d = chain[i];
            const int l = s.layerOf[d];
            path.push_back({ cx[d], layerTop[l] });
            if (layerHeight[l] > 0)
                path.push_back({ cx[d], layerTop[l] + layerHeight[l] });
        }
        path.push_back({ cx[v], r.pos[v].y });
        if (s.reversed[e])
            std::reverse(path.begin(), path.end());
    }
    return r;
}

Result layeredLayout(const Piece &piece, const Options &options)
{
    return assignCoordinates(buildStructure(piece, options), piece.sizes, options);
}

std::size_t countCrossings(const Result &result)
{
    struct Segment {
        Point a, b;
        std::size_t path;
        double minX, maxX, minY, maxY;
    };
    std::vector<Segment> segments;
    for (std::size_t p = 0; p < result.paths.size(); ++p) {
        const auto &path = result.paths[p];
        for (std::size_t i = 0; i + 1 < path.size(); ++i) {
            const Point a = path[i], b = path[i + 1];
            segments.push_back(
                { a, b, p, std::min(a.x, b.x), std::max(a.x, b.x), std::min(a.y, b.y), std::max(a.y, b.y) });
        }
    }
    std::sort(segments.begin(), segments.end(), [](const Segment &a, const Segment &b) { return a.minY < b.minY; });
    std::size_t crossings = 0;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const Segment &s = segments[i];
        for (std::size_t j = i + 1; j < segments.size() && segments[j].minY <= s.maxY; ++j) {
            const Segment &t = segments[j];
            if (t.path == s.path || t.minX > s.maxX || t.maxX < s.minX)
                continue;
            if (properlyIntersect(s.a, s.b, t.a, t.b))
                ++crossings;
        }
    }
    return crossings;
}

std::size_t countLayerCrossings(const Structure &s)
{
    std::vector<int> position(s.layerOf.size(), 0);
    for (const auto &lay : s.layers) {
        for (std::size_t i = 0; i < lay.size(); ++i)
            position[lay[i]] = static_cast<int>(i);
    }
    std::size_t c = 0;
    for (std::size_t l = 0; l + 1 < s.layers.size(); ++l)
        c += crossingsBetween(s.layers[l], position, s.down, s.layers[l + 1].size());
    return c;
}

} // namespace AotStudio::Graph::Layout
