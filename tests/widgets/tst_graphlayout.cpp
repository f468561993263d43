// SPDX-License-Identifier: GPL-3.0-or-later
// GraphLayout (widgets/graphview) and the layered layout of core/graph: no overlaps, every edge
// drawn, collapse/expand keeps the rest in place, positions stable across snapshots.

#include "syntheticgraph.h"

#include "graph/layered.h"
#include "graphview/graphlayout.h"

#include <QTest>

#include <cmath>

using namespace AotStudio;
using Widgets::GraphLayout;

namespace {

std::shared_ptr<const Graph::Snapshot> fixture(const char *name)
{
    return std::make_shared<const Graph::Snapshot>(
        Graph::loadSnapshot(std::string(AOTSTUDIO_FIXTURES_DIR "/graphs/") + name));
}

/// Every visible box (nodes and collapsed groups) and every expanded group frame against its
/// siblings: no two overlap.
void checkNoOverlap(const GraphLayout &layout)
{
    const auto &groups = layout.groups();
    for (const auto &g : groups) {
        if (!g.visible || !g.expanded)
            continue;
        std::vector<QRectF> rects;
        for (const auto &item : g.items) {
            const QRectF r = layout.itemRect(item);
            QVERIFY2(!r.isEmpty(), qPrintable(QStringLiteral("empty item in group '%1'").arg(g.path)));
            QVERIFY2(g.rect.contains(r), qPrintable(QStringLiteral("item outside its group '%1'").arg(g.path)));
            rects.push_back(r);
        }
        for (std::size_t i = 0; i < rects.size(); ++i) {
            for (std::size_t j = i + 1; j < rects.size(); ++j) {
                QVERIFY2(!rects[i].intersects(rects[j]),
                    qPrintable(QStringLiteral("overlap in group '%1': items %2 and %3").arg(g.path).arg(i).arg(j)));
            }
        }
    }
}

/// Every graph edge between two different visible things has a drawn edge whose route starts on
/// the source's side and ends on the target's side.
void checkEdgesDrawn(const GraphLayout &layout)
{
    const auto snapshot = layout.snapshot();
    const auto &groups = layout.groups();
    const auto containsEnd = [&](const GraphLayout::ItemRef &item, int routeGroup, QPointF p) {
        QRectF r = layout.itemRect(item).adjusted(-0.5, -0.5, 0.5, 0.5);
        if (r.contains(p))
            return true;
        int g = item.isGroup ? groups[item.index].parent : layout.groupOfNode(item.index);
        for (; g > 0 && g != routeGroup; g = groups[g].parent) {
            if (groups[g].rect.adjusted(-0.5, -0.5, 0.5, 0.5).contains(p))
                return true;
        }
        return false;
    };
    for (int v = 0; v < static_cast<int>(snapshot->nodes.size()); ++v) {
        for (const auto &in : snapshot->nodes[v].inputs) {
            const auto it = snapshot->byId.find(in);
            if (it == snapshot->byId.end())
                continue;
            const auto a = layout.visibleItem(int(it->second)), b = layout.visibleItem(v);
            if (a == b)
                continue;
            bool found = false;
            for (const auto &e : layout.edges()) {
                if (!(e.from == a && e.to == b))
                    continue;
                found = true;
                QVERIFY(e.route.size() >= 2);
                QVERIFY2(containsEnd(a, e.group, e.route.first()),
                    qPrintable(QStringLiteral("edge %1 -> %2 starts away from its source")
                                   .arg(QString::fromStdString(in))
                                   .arg(v)));
                QVERIFY2(containsEnd(b, e.group, e.route.last()),
                    qPrintable(QStringLiteral("edge %1 -> %2 ends away from its target")
                                   .arg(QString::fromStdString(in))
                                   .arg(v)));
            }
            QVERIFY2(found,
                qPrintable(QStringLiteral("no drawn edge for %1 -> %2")
                               .arg(QString::fromStdString(in), QString::fromStdString(snapshot->nodes[v].id))));
        }
    }
}

} // namespace

class TestGraphLayout : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void layeredPiece();
    void fixtures_data();
    void fixtures();
    void parametersSitWithTheirUsers();
    void collapseExpandKeepsTheRest();
    void stableAcrossSnapshots();
    void syntheticDefaultsCollapsed();
    void flatGraphIsChunked();
};

void TestGraphLayout::layeredPiece()
{
    // A diamond with a long edge: a -> b -> c -> d, a -> d. Layers top to bottom, no crossings.
    Graph::Layout::Piece piece;
    piece.sizes.assign(4, { 100, 30 });
    piece.edges = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 0, 3 }, { 0, 3 }, { 2, 2 } };
    const auto s = Graph::Layout::buildStructure(piece);
    QCOMPARE(s.edges.size(), std::size_t(4)); // the repeat and the self loop are dropped
    QCOMPARE(s.layerOf[0], 0);
    QCOMPARE(s.layerOf[3], 3);
    const auto r = Graph::Layout::assignCoordinates(s, piece.sizes);
    for (int i = 0; i + 1 < 4; ++i)
        QVERIFY(r.pos[i].y + 30 <= r.pos[i + 1].y);
    QCOMPARE(Graph::Layout::countCrossings(r), std::size_t(0));
    // A cycle is drawn with one edge upwards, not rejected.
    piece.edges = { { 0, 1 }, { 1, 2 }, { 2, 0 } };
    const auto cyc = Graph::Layout::layeredLayout(piece);
    QCOMPARE(cyc.paths.size(), std::size_t(3));
    QVERIFY(cyc.paths[2].front().y > cyc.paths[2].back().y);
}

void TestGraphLayout::fixtures_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("expandAll");
    for (const char *f : { "chain.json", "residual.json", "attention.json", "diff_after.json",
             "resnet18_post_grad.json", "minilm_capture.json" }) {
        QTest::newRow(qPrintable(QStringLiteral("%1 default").arg(QLatin1String(f))))
            << QString::fromLatin1(f) << false;
        QTest::newRow(qPrintable(QStringLiteral("%1 expanded").arg(QLatin1String(f))))
            << QString::fromLatin1(f) << true;
    }
}

void TestGraphLayout::fixtures()
{
    QFETCH(QString, file);
    QFETCH(bool, expandAll);
    GraphLayout layout;
    layout.setSnapshot(fixture(qPrintable(file)));
    if (expandAll)
        layout.expandAll();
    QVERIFY(!layout.bounds().isEmpty());
    checkNoOverlap(layout);
    if (QTest::currentTestFailed())
        return;
    checkEdgesDrawn(layout);
    if (expandAll) {
        for (int i = 0; i < static_cast<int>(layout.snapshot()->nodes.size()); ++i)
            QVERIFY(!layout.nodeRect(i).isEmpty());
    }
}

void TestGraphLayout::parametersSitWithTheirUsers()
{
    GraphLayout layout;
    layout.setSnapshot(fixture("chain.json"));
    const auto node = [&](const char *id) { return layout.nodeIndex(QString::fromLatin1(id)); };
    QCOMPARE(layout.groups()[layout.groupOfNode(node("fc1_weight"))].path, QStringLiteral("fc1"));
    QCOMPARE(layout.groups()[layout.groupOfNode(node("fc2_bias"))].path, QStringLiteral("fc2"));
    QCOMPARE(layout.groupOfNode(node("x")), 0); // inputs stay where they are
}

void TestGraphLayout::collapseExpandKeepsTheRest()
{
    GraphLayout layout;
    layout.setSnapshot(std::make_shared<const Graph::Snapshot>(Bench::syntheticTransformer(1500)));
    layout.expandAll();
    const int target = layout.groupByPath(QStringLiteral("layers.3.attn"));
    QVERIFY(target > 0);
    const auto &groups = layout.groups();
    const auto isAncestorOrSelf = [&](int g) {
        for (int x = target; x >= 0; x = groups[x].parent) {
            if (x == g)
                return true;
        }
        return false;
    };
    const auto inside = [&](int node) {
        for (int g = layout.groupOfNode(node); g >= 0; g = groups[g].parent) {
            if (g == target)
                return true;
        }
        return false;
    };
    const int n = static_cast<int>(layout.snapshot()->nodes.size());
    std::vector<QRectF> before(n);
    for (int i = 0; i < n; ++i)
        before[i] = layout.nodeRect(i);
    std::vector<QRectF> groupsBefore;
    for (const auto &g : groups)
        groupsBefore.push_back(g.rect);
    const QRectF targetBefore = groups[target].rect;

    QVERIFY(layout.setExpanded(target, false));
    checkNoOverlap(layout);
    checkEdgesDrawn(layout);
    for (int i = 0; i < n; ++i) {
        if (inside(i)) {
            QVERIFY(layout.nodeRect(i).isEmpty());
            continue;
        }
        const int g = layout.groupOfNode(i);
        // Inside every other group the drawing is the same, relative to the group.
        if (!isAncestorOrSelf(g)) {
            QCOMPARE(layout.nodeRect(i).topLeft() - groups[g].rect.topLeft(),
                before[i].topLeft() - groupsBefore[g].topLeft());
        }
        // Everything above the collapsed group stays exactly where it was.
        if (before[i].bottom() < targetBefore.top())
            QCOMPARE(layout.nodeRect(i).top(), before[i].top());
    }
    // And back: every position exactly as before.
    QVERIFY(layout.setExpanded(target, true));
    for (int i = 0; i < n; ++i)
        QCOMPARE(layout.nodeRect(i), before[i]);
}

void TestGraphLayout::stableAcrossSnapshots()
{
    // diff_before -> diff_after changes only the attention core: the projections keep their
    // drawing, and stepping back restores the first picture exactly.
    GraphLayout layout;
    layout.setSnapshot(fixture("diff_before.json"));
    layout.expandAll();
    const auto rectOf = [&](const char *id) {
        const int i = layout.nodeIndex(QString::fromLatin1(id));
        const int g = layout.groupOfNode(i);
        return layout.nodeRect(i).translated(-layout.groups()[g].rect.topLeft());
    };
    const QRectF q = rectOf("mm_q"), o = rectOf("mm_o"), bmm = layout.nodeRect(layout.nodeIndex(QStringLiteral("bmm")));
    layout.setSnapshot(fixture("diff_after.json"));
    QCOMPARE(rectOf("mm_q"), q);
    QCOMPARE(rectOf("mm_o"), o);
    QVERIFY(layout.groups()[layout.groupByPath(QStringLiteral("attn.q_proj"))].expanded); // state carried over
    layout.setSnapshot(fixture("diff_before.json"));
    QCOMPARE(layout.nodeRect(layout.nodeIndex(QStringLiteral("bmm"))), bmm);
}

void TestGraphLayout::syntheticDefaultsCollapsed()
{
    GraphLayout layout;
    layout.setSnapshot(std::make_shared<const Graph::Snapshot>(Bench::syntheticTransformer(5000)));
    int visibleNodes = 0;
    for (int i = 0; i < static_cast<int>(layout.snapshot()->nodes.size()); ++i)
        visibleNodes += layout.nodeRect(i).isEmpty() ? 0 : 1;
    QVERIFY2(visibleNodes < 400, qPrintable(QString::number(visibleNodes)));
    QVERIFY(!layout.groups()[layout.groupByPath(QStringLiteral("layers.10"))].expanded);
    checkNoOverlap(layout);
    checkEdgesDrawn(layout);
}

void TestGraphLayout::flatGraphIsChunked()
{
    // No module information at all: the top level is cut into chunks of consecutive nodes.
    auto flat = std::make_shared<Graph::Snapshot>(Bench::syntheticTransformer(3000));
    for (auto &n : flat->nodes) {
        n.moduleStack.clear();
        n.module.clear();
    }
    GraphLayout layout;
    layout.setSnapshot(flat);
    const auto &root = layout.groups()[0];
    QVERIFY(root.nodes.empty());
    QCOMPARE(int(root.childGroups.size()),
        (int(flat->nodes.size()) + GraphLayout::ChunkNodes - 1) / GraphLayout::ChunkNodes);
    for (int c : root.childGroups)
        QVERIFY(int(layout.groups()[c].nodes.size()) <= GraphLayout::ChunkNodes);
    checkNoOverlap(layout);
    checkEdgesDrawn(layout);
    layout.expandAll();
    checkNoOverlap(layout);
    checkEdgesDrawn(layout);
}

QTEST_GUILESS_MAIN(TestGraphLayout)
#include "tst_graphlayout.moc"
