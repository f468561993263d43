// SPDX-License-Identifier: GPL-3.0-or-later
// GraphView and GraphDiffView: diff highlighting, pass navigation, colour modes, provenance
// overlay, search, export. Screenshots of real snapshots for review: tests/widgets/review_screenshots.cpp.

#include "syntheticgraph.h"

#include "graph/graphdiff.h"
#include "graphview/graphdiffview.h"
#include "graphview/graphview.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

using namespace AotStudio;
using Widgets::ColourMode;
using Widgets::GraphDiffView;
using Widgets::GraphView;
using Widgets::NodeDiffState;

namespace {

QString fixturePath(const QString &name)
{
    return QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/graphs/") + name;
}

std::shared_ptr<const Graph::Snapshot> fixture(const QString &name)
{
    return std::make_shared<const Graph::Snapshot>(Graph::loadSnapshot(fixturePath(name).toStdString()));
}

QString screenshotPath(const QString &name)
{
    QDir().mkpath(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR));
    return QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/") + name;
}

/// kernels.json -> kernel name -> covered post-grad nodes.
QHash<QString, QStringList> coverageFrom(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QHash<QString, QStringList> out;
    const auto kernels = QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("kernels")).toArray();
    for (const auto &k : kernels) {
        const auto o = k.toObject();
        QStringList nodes;
        for (const auto &n : o.value(QStringLiteral("post_grad_nodes")).toArray())
            nodes << n.toString();
        out[o.value(QStringLiteral("id")).toString()] += nodes;
    }
    return out;
}

int indexOf(const GraphView &view, const char *id)
{
    return view.graphLayout().nodeIndex(QString::fromLatin1(id));
}

} // namespace

class TestGraphView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void diffHighlighting();
    void passNavigation();
    void colourModes();
    void fusionStatusColours();
    void provenanceOverlay();
    void searchAndSelect();
    void collapseByClick();
    void exportFiles();
};

void TestGraphView::diffHighlighting()
{
    GraphDiffView view;
    view.resize(1400, 700);
    view.show();
    view.setSnapshots(fixture(QStringLiteral("diff_before.json")), fixture(QStringLiteral("diff_after.json")));
    const auto &diff = view.diff();
    QCOMPARE(diff.added, std::vector<std::string> { "mul" });
    QCOMPARE(diff.removed, std::vector<std::string> { "div" });
    GraphView *before = view.beforeView(), *after = view.afterView();
    const auto state = [](GraphView *v, const char *id) { return v->canvas()->diffState(indexOf(*v, id)); };
    QCOMPARE(state(after, "mul"), NodeDiffState::Added);
    QCOMPARE(state(before, "div"), NodeDiffState::Removed);
    QCOMPARE(state(after, "softmax"), NodeDiffState::Changed); // its input changed (div -> mul)
    QCOMPARE(state(before, "softmax"), NodeDiffState::Changed);
    QCOMPARE(state(after, "mm_o"), NodeDiffState::Changed); // dtype changed
    QCOMPARE(state(after, "mm_q"), NodeDiffState::Unchanged);
    QCOMPARE(state(before, "mm_q"), NodeDiffState::Unchanged);
    QVERIFY(view.summary().contains(QStringLiteral("+1")));
    // Collapsing a group on one side collapses it on the other.
    before->setGroupExpanded(QStringLiteral("attn.q_proj"), false);
    QVERIFY(!after->graphLayout().groups()[after->graphLayout().groupByPath(QStringLiteral("attn.q_proj"))].expanded);
    after->setGroupExpanded(QStringLiteral("attn.q_proj"), true);
    QVERIFY(before->graphLayout().groups()[before->graphLayout().groupByPath(QStringLiteral("attn.q_proj"))].expanded);
    // Selection follows across the sides.
    before->selectNode(QStringLiteral("mm_v"));
    QCOMPARE(after->selectedNode(), QStringLiteral("mm_v"));
    after->expandAll();
    before->expandAll();
    after->fitToView(); // the other side follows
    view.grab().save(screenshotPath(QStringLiteral("graph_diff_fixture.png")));
}

void TestGraphView::passNavigation()
{
    GraphDiffView view;
    view.resize(1200, 600);
    QSignalSpy passes(&view, &GraphDiffView::passChanged);
    view.setSnapshotPaths({ fixturePath(QStringLiteral("diff_before.json")),
        fixturePath(QStringLiteral("diff_after.json")), fixturePath(QStringLiteral("diff_after2.json")) });
    QCOMPARE(view.passIndex(), 1);
    QCOMPARE(view.diff().added.size(), std::size_t(1));
    QVERIFY(view.showNextPass());
    QCOMPARE(view.passIndex(), 2);
    QCOMPARE(view.diff().added, std::vector<std::string> { "clone" });
    QCOMPARE(view.afterView()->canvas()->diffState(indexOf(*view.afterView(), "clone")), NodeDiffState::Added);
    QVERIFY(!view.showNextPass());
    QVERIFY(view.showPreviousPass());
    QCOMPARE(view.passIndex(), 1);
    QCOMPARE(passes.size(), 3);
    QVERIFY(!view.showPreviousPass());
    // An unreadable file is reported, not fatal.
    view.setSnapshotPaths(
        { fixturePath(QStringLiteral("diff_before.json")), fixturePath(QStringLiteral("missing.json")) });
    QCOMPARE(view.passIndex(), -1);
}

void TestGraphView::colourModes()
{
    GraphView view;
    view.resize(800, 600);
    view.setSnapshot(fixture(QStringLiteral("attention.json")));
    auto *canvas = view.canvas();
    const auto colour = [&](const char *id) { return canvas->nodeColour(indexOf(view, id)); };
    QCOMPARE(colour("mm_q"), colour("mm_k")); // both matmul
    QVERIFY(colour("mm_q") != colour("softmax"));

    view.setKernelCoverage(
        { { QStringLiteral("cpp_fused_softmax_0"), { QStringLiteral("div"), QStringLiteral("softmax") } },
            { QStringLiteral("extern_mm_1"), { QStringLiteral("mm_q") } } });
    view.setColourMode(ColourMode::FusedKernel);
    QCOMPARE(colour("div"), colour("softmax"));
    QVERIFY(colour("div") != colour("mm_q"));
    QVERIFY(colour("bmm") != colour("div")); // not covered: neutral

    view.setKernelTimes({ { QStringLiteral("cpp_fused_softmax_0"), 0.02 }, { QStringLiteral("extern_mm_1"), 2.0 } });
    view.setColourMode(ColourMode::MeasuredTime);
    QCOMPARE(GraphView::nodeTimesFromKernels({ { QStringLiteral("k"), { QStringLiteral("a"), QStringLiteral("b") } } },
                 { { QStringLiteral("k"), 1.0 } })
                 .value(QStringLiteral("a")),
        0.5);
    // Hotter = more saturated and darker.
    QVERIFY(colour("mm_q").hsvSaturationF() > colour("div").hsvSaturationF());
    QCOMPARE(colour("bmm"), QColor(0xee, 0xee, 0xee)); // not measured

    auto quantized = std::make_shared<Graph::Snapshot>(*fixture(QStringLiteral("attention.json")));
    quantized->nodes[quantized->byId.at("mm_q")].outputs[0]["dtype"] = "int8";
    view.setSnapshot(quantized);
    view.setColourMode(ColourMode::Dtype);
    QVERIFY(colour("mm_q") != colour("mm_k"));
    QCOMPARE(colour("mm_k"), colour("softmax"));
    QCOMPARE(view.colourMode(), ColourMode::Dtype);
    view.setSnapshot(nullptr); // clears, draws a hint
    QVERIFY(!view.renderImage(QSize(200, 100)).isNull());
    QCOMPARE(view.search(QStringLiteral("mm")), 0);
}

// Issue 40: nodes coloured by fusion.json's status, the refused pair's reason as the tooltip, and
// the legend counting this snapshot's nodes per status. Cost: well under a second.
void TestGraphView::fusionStatusColours()
{
    GraphView view;
    view.resize(800, 600);
    view.setSnapshot(fixture(QStringLiteral("attention.json")));
    auto *canvas = view.canvas();
    const auto colour = [&](const char *id) { return canvas->nodeColour(indexOf(view, id)); };
    const QHash<QString, QString> status{{QStringLiteral("div"), QStringLiteral("fused")},
                                         {QStringLiteral("softmax"), QStringLiteral("fused")},
                                         {QStringLiteral("add"), QStringLiteral("refused")},
                                         {QStringLiteral("bmm"), QStringLiteral("never_candidate")},
                                         {QStringLiteral("mm_o"), QStringLiteral("not_chosen")}};
    const QString why = QStringLiteral("not fused with mm_o — memory_deps: memory deps did not match");
    view.setNodeFusion(status, {{QStringLiteral("add"), why}}, QStringLiteral("job 1"));
    QVERIFY(view.legend()->isHidden()); // only in its own mode
    QVERIFY(canvas->nodeToolTip(indexOf(view, "add")).isEmpty());
    view.setColourMode(ColourMode::FusionStatus);
    QCOMPARE(colour("div"), colour("softmax"));
    QCOMPARE(colour("div"), Widgets::fusionStatusColour(QStringLiteral("fused")));
    QCOMPARE(colour("add"), Widgets::fusionStatusColour(QStringLiteral("refused")));
    QVERIFY(colour("add") != colour("div"));
    QVERIFY(colour("bmm") != colour("add") && colour("bmm") != colour("div"));
    QVERIFY(colour("mm_o") != colour("add") && colour("mm_o") != colour("bmm"));
    QCOMPARE(colour("x"), Widgets::fusionStatusColour(QString())); // no decision: not scheduled
    QCOMPARE(canvas->nodeToolTip(indexOf(view, "add")), why);
    QVERIFY(canvas->nodeToolTip(indexOf(view, "div")).isEmpty());
    QVERIFY(!view.legend()->isHidden());
    const QString legend = view.legend()->text();
    QVERIFY2(legend.contains(QLatin1String("fused (2)")) && legend.contains(QLatin1String("refused (1)"))
                 && legend.contains(QLatin1String("never a candidate (1)"))
                 && legend.contains(QLatin1String("no decision (15)")) && legend.contains(QLatin1String("job 1")),
             qPrintable(legend));
    // Cleared: every node is "no decision", the legend says only the note.
    view.setNodeFusion({}, {}, QStringLiteral("none here"));
    QCOMPARE(colour("add"), Widgets::fusionStatusColour(QString()));
    QCOMPARE(view.legend()->text(), QStringLiteral("none here"));
    view.setColourMode(ColourMode::OpCategory);
    QVERIFY(view.legend()->isHidden());
}

void TestGraphView::provenanceOverlay()
{
    GraphView view;
    view.resize(800, 600);
    view.show();
    view.setSnapshot(fixture(QStringLiteral("resnet18_post_grad.json")));
    const auto coverage = coverageFrom(fixturePath(QStringLiteral("resnet18_kernels.json")));
    QVERIFY(!coverage.isEmpty());
    view.setKernelCoverage(coverage);
    QHash<QString, double> times;
    double t = 0.01;
    for (auto it = coverage.constBegin(); it != coverage.constEnd(); ++it, t *= 1.3)
        times.insert(it.key(), t);
    view.setKernelTimes(times);
    // A selected kernel's nodes are highlighted; the node lists that kernel with its time.
    const QString kernel = coverage.keys().first();
    view.highlightNodes(coverage.value(kernel));
    const QString node = coverage.value(kernel).first();
    QVERIFY(view.canvas()->isHighlighted(view.graphLayout().nodeIndex(node)));
    const auto kernels = view.kernelsOfNode(node);
    QVERIFY(!kernels.isEmpty());
    bool listed = false;
    for (const auto &k : kernels)
        listed = listed || (k.kernel == kernel && k.ms == times.value(kernel));
    QVERIFY(listed);
    view.selectNode(node);
    auto *details = view.findChild<QTextBrowser *>(QStringLiteral("graphNodeDetails"));
    QVERIFY(details->toPlainText().contains(kernel));
    QVERIFY(!view.passesOfNode(node).isEmpty() || view.snapshot()->find(node.toStdString())->provenance.empty());
    view.setColourMode(ColourMode::MeasuredTime);
    view.fitToView();
    QVERIFY(view.renderImage(QSize(1600, 1200), true)
                .save(screenshotPath(QStringLiteral("graph_resnet18_kernel_overlay.png"))));
    view.highlightNodes({});
    QVERIFY(!view.canvas()->isHighlighted(view.graphLayout().nodeIndex(node)));
}

void TestGraphView::searchAndSelect()
{
    GraphView view;
    view.resize(800, 600);
    view.show();
    view.setSnapshot(std::make_shared<const Graph::Snapshot>(Bench::syntheticTransformer(3000)));
    QSignalSpy selected(&view, &GraphView::nodeSelected);
    QVERIFY(view.search(QStringLiteral("softmax")) == 0); // decomposed: no node of that name
    const int hits = view.search(QStringLiteral("layers.7.attn.q_proj"));
    QVERIFY(hits >= 4);
    // Going to a match reveals it: its groups are expanded.
    const int first = view.graphLayout().nodeIndex(view.searchMatches().first());
    QVERIFY(!view.graphLayout().nodeRect(first).isEmpty());
    QVERIFY(view.canvas()->visibleSceneRect().contains(view.graphLayout().nodeRect(first).center()));
    view.findNext();
    QCOMPARE(view.selectedNode(), view.searchMatches().at(1));
    QVERIFY(selected.size() >= 2);
    view.selectNode(QStringLiteral("no such node"));
    QCOMPARE(view.selectedNode(), QString());
    QCOMPARE(selected.last().first().toString(), QString());
    // A new snapshot recomputes the matches without moving the view.
    view.setSnapshot(fixture(QStringLiteral("chain.json")));
    QVERIFY(view.searchMatches().isEmpty());
    // Search by source line.
    QCOMPARE(view.search(QStringLiteral("fixture.py:14")), 1);
}

void TestGraphView::collapseByClick()
{
    GraphView view;
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setSnapshot(fixture(QStringLiteral("attention.json")));
    view.fitToView();
    const auto &layout = view.graphLayout();
    const int g = layout.groupByPath(QStringLiteral("attn"));
    QVERIFY(layout.groups()[g].expanded);
    auto *canvas = view.canvas();
    const QPointF title = layout.groups()[g].rect.topLeft() + QPointF(30, 8);
    QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->mapFromScene(title).toPoint());
    QVERIFY(!layout.groups()[g].expanded);
    const QPointF box = layout.groups()[g].rect.center();
    QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->mapFromScene(box).toPoint());
    QVERIFY(layout.groups()[g].expanded);
    // A click on a node selects it.
    const int node = layout.nodeIndex(QStringLiteral("softmax"));
    QSignalSpy selected(&view, &GraphView::nodeSelected);
    QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->mapFromScene(layout.nodeRect(node).center()).toPoint());
    QCOMPARE(selected.size(), 1);
    QCOMPARE(selected.first().first().toString(), QStringLiteral("softmax"));
}

void TestGraphView::exportFiles()
{
    QTemporaryDir dir;
    GraphView view;
    view.resize(800, 600);
    view.show();
    view.setSnapshot(fixture(QStringLiteral("residual.json")));
    view.fitToView();
    const QString svg = dir.filePath(QStringLiteral("g.svg")), png = dir.filePath(QStringLiteral("g.png")),
                  dot = dir.filePath(QStringLiteral("g.dot"));
    QVERIFY(view.exportSvg(svg));
    QVERIFY(view.exportPng(png));
    QVERIFY(view.exportDot(dot));
    QFile s(svg);
    QVERIFY(s.open(QIODevice::ReadOnly));
    const QByteArray svgText = s.readAll();
    QVERIFY(svgText.contains("<svg"));
    QVERIFY(svgText.contains("convolution"));
    QImage image(png);
    QCOMPARE(image.size(), view.canvas()->size());
    QFile d(dot);
    QVERIFY(d.open(QIODevice::ReadOnly));
    const QByteArray dotText = d.readAll();
    QVERIFY(dotText.startsWith("digraph"));
    QVERIFY(dotText.contains("subgraph cluster_"));
    QVERIFY(dotText.contains("\"getitem_1\" -> \"add\""));
}

QTEST_MAIN(TestGraphView)
#include "tst_graphview.moc"
