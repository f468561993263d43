// SPDX-License-Identifier: GPL-3.0-or-later
// bench_graphlayout: the graph view at scale (issue 8). Synthetic transformer-shaped graphs of
// 1k, 5k, 20k and 50k nodes: time to first paint (collapsed), time to expand everything, RSS,
// frame times of a pan and zoom sequence; our layered layout against Graphviz `dot` on the same
// pieces (time and edge crossings) and `dot` on the whole graph where it finishes in time.
//
// Usage: bench_graphlayout [--sizes 1000,5000,20000,50000] [--dot-whole-max 5000]
//                          [--dot-timeout 120] [--no-dot] [--snapshot FILE]...
// Prints "name: value unit" lines. Runs offscreen unless QT_QPA_PLATFORM says otherwise.

#include "syntheticgraph.h"

#include "graph/dot.h"
#include "graph/layered.h"
#include "graphview/graphview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

using namespace AotStudio;
namespace Layout = Graph::Layout;

namespace {

double rssMiB()
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stod(line.substr(6)) / 1024.0;
    }
    return 0;
}

void print(const std::string &name, double value, const char *unit)
{
    std::printf("%s: %.3f %s\n", name.c_str(), value, unit);
    std::fflush(stdout);
}

bool runDot(const QString &dot, const std::string &input, int timeoutS, QByteArray &output, double &ms);
std::string pieceToDot(const Layout::Piece &piece, const std::vector<std::pair<int, int>> &edges);
std::vector<Layout::Result> parsePlain(
    const QByteArray &plain, const std::vector<std::vector<std::pair<int, int>>> &edgesOf);

/// The snapshot as schema-1 JSON, to time parsing the way the studio reads a file.
std::string toJson(const Graph::Snapshot &snapshot)
{
    nlohmann::json nodes = nlohmann::json::array();
    for (const auto &n : snapshot.nodes) {
        nlohmann::json stack = nlohmann::json::array();
        for (const auto &f : n.moduleStack)
            stack.push_back({ { "path", f.path }, { "type", f.type } });
        nodes.push_back({ { "id", n.id }, { "index", n.index }, { "op", n.op }, { "target", n.target },
            { "category", n.category }, { "inputs", n.inputs }, { "outputs", n.outputs }, { "module", n.module },
            { "module_stack", stack },
            { "source",
                { { "file", "/models/synthetic.py" }, { "line", 10 + n.index % 200 }, { "function", "forward" } } } });
    }
    return nlohmann::json {
        { "schema", "aotstudio.graph" }, { "version", 1 }, { "stage", snapshot.stage }, { "pass", snapshot.pass },
        { "nodes", nodes }
    }.dump();
}

/// Our layout and dot on the same pieces: time and crossings.
void comparePieces(const std::string &tag, const std::vector<Widgets::GraphLayout::PieceRecord> &pieces, bool useDot,
    const QString &dot, int dotTimeout)
{
    std::size_t largest = 0;
    for (const auto &p : pieces)
        largest = std::max(largest, p.piece.sizes.size());
    print(tag + "_pieces", double(pieces.size()), "pieces");
    print(tag + "_largest_piece", double(largest), "items");
    QElapsedTimer t;
    t.start();
    std::vector<Layout::Result> own;
    own.reserve(pieces.size());
    for (const auto &p : pieces)
        own.push_back(Layout::layeredLayout(p.piece));
    print(tag + "_own_pieces_layout", t.nsecsElapsed() / 1e6, "ms");
    std::size_t ownCrossings = 0;
    for (const auto &r : own)
        ownCrossings += Layout::countCrossings(r);
    print(tag + "_own_pieces_crossings", double(ownCrossings), "crossings");
    if (!useDot)
        return;
    std::string input;
    std::vector<std::vector<std::pair<int, int>>> edgesOf;
    for (const auto &p : pieces) {
        edgesOf.push_back(Layout::normalizedEdges(p.piece));
        input += pieceToDot(p.piece, edgesOf.back());
    }
    QByteArray plain;
    double ms = 0;
    if (runDot(dot, input, dotTimeout, plain, ms)) {
        print(tag + "_dot_pieces_layout", ms, "ms");
        std::size_t dotCrossings = 0;
        for (const auto &r : parsePlain(plain, edgesOf))
            dotCrossings += Layout::countCrossings(r);
        print(tag + "_dot_pieces_crossings", double(dotCrossings), "crossings");
    } else {
        std::printf("%s_dot_pieces_layout: timeout after %d s\n", tag.c_str(), dotTimeout);
    }
}

/// Paints the canvas as a window system would (children included) and returns milliseconds.
double paintOnce(Widgets::GraphView &view, QImage &target)
{
    QElapsedTimer t;
    t.start();
    QPainter p(&target);
    view.canvas()->render(&p);
    p.end();
    return t.nsecsElapsed() / 1e6;
}

struct FrameStats {
    double mean = 0, p95 = 0, max = 0;
};

FrameStats panZoom(Widgets::GraphView &view, QImage &target)
{
    auto *canvas = view.canvas();
    canvas->fitToView();
    std::vector<double> ms;
    const QPointF centre(canvas->width() / 2.0, canvas->height() / 2.0);
    // Zoom in from the whole graph to node level, pan across, zoom back out.
    for (int i = 0; i < 20; ++i) {
        canvas->zoomBy(1.35, centre);
        ms.push_back(paintOnce(view, target));
    }
    for (int i = 0; i < 30; ++i) {
        canvas->centerOn(canvas->sceneCentre() + QPointF(40 / canvas->scale(), 25 / canvas->scale()));
        ms.push_back(paintOnce(view, target));
    }
    for (int i = 0; i < 20; ++i) {
        canvas->zoomBy(1 / 1.35, centre);
        ms.push_back(paintOnce(view, target));
    }
    for (int i = 0; i < 10; ++i) {
        canvas->centerOn(canvas->sceneCentre() - QPointF(0, 300 / canvas->scale()));
        ms.push_back(paintOnce(view, target));
    }
    FrameStats s;
    for (double m : ms)
        s.mean += m / ms.size();
    std::sort(ms.begin(), ms.end());
    s.p95 = ms[std::size_t(ms.size() * 0.95)];
    s.max = ms.back();
    return s;
}

/// Runs `dot -Tplain` on `input`; false on timeout or failure.
bool runDot(const QString &dot, const std::string &input, int timeoutS, QByteArray &output, double &ms)
{
    QProcess p;
    QElapsedTimer t;
    t.start();
    p.start(dot, { QStringLiteral("-Tplain") });
    if (!p.waitForStarted(10000))
        return false;
    p.write(input.data(), qint64(input.size()));
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutS * 1000)) {
        p.kill();
        p.waitForFinished(5000);
        return false;
    }
    ms = t.nsecsElapsed() / 1e6;
    output = p.readAllStandardOutput();
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

std::string pieceToDot(const Layout::Piece &piece, const std::vector<std::pair<int, int>> &edges)
{
    std::ostringstream out;
    out << "digraph piece {\n nodesep=0.28; ranksep=0.47;\n node [shape=box, fixedsize=true, label=\"\"];\n";
    for (std::size_t i = 0; i < piece.sizes.size(); ++i)
        out << " n" << i << " [width=" << piece.sizes[i].w / 72.0 << ", height=" << piece.sizes[i].h / 72.0 << "];\n";
    for (const auto &[u, v] : edges)
        out << " n" << u << " -> n" << v << ";\n";
    out << "}\n";
    return out.str();
}

/// Parses the concatenated plain outputs of several graphs into drawings (edge control points as
/// polylines, y flipped to point down).
std::vector<Layout::Result> parsePlain(
    const QByteArray &plain, const std::vector<std::vector<std::pair<int, int>>> &edgesOf)
{
    std::vector<Layout::Result> out;
    QTextStream in(plain);
    Layout::Result cur;
    double height = 0;
    std::map<std::pair<int, int>, int> edgeIndex;
    std::size_t graph = 0;
    while (!in.atEnd()) {
        const QStringList f = in.readLine().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (f.isEmpty())
            continue;
        if (f[0] == QLatin1String("graph")) {
            cur = {};
            cur.width = f[2].toDouble() * 72;
            height = f[3].toDouble();
            cur.height = height * 72;
            edgeIndex.clear();
            const auto &edges = edgesOf[graph];
            for (std::size_t i = 0; i < edges.size(); ++i)
                edgeIndex[edges[i]] = int(i);
            cur.paths.assign(edges.size(), {});
        } else if (f[0] == QLatin1String("node")) {
            const int id = f[1].mid(1).toInt();
            if (int(cur.pos.size()) <= id)
                cur.pos.resize(id + 1);
            cur.pos[id] = { (f[2].toDouble() - f[4].toDouble() / 2) * 72,
                (height - f[3].toDouble() - f[5].toDouble() / 2) * 72 };
        } else if (f[0] == QLatin1String("edge")) {
            const int u = f[1].mid(1).toInt(), v = f[2].mid(1).toInt();
            const int n = f[3].toInt();
            const auto it = edgeIndex.find({ u, v });
            if (it == edgeIndex.end())
                continue;
            auto &path = cur.paths[it->second];
            for (int i = 0; i < n; ++i)
                path.push_back({ f[4 + 2 * i].toDouble() * 72, (height - f[5 + 2 * i].toDouble()) * 72 });
        } else if (f[0] == QLatin1String("stop")) {
            out.push_back(std::move(cur));
            ++graph;
        }
    }
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::vector<int> sizes { 1000, 5000, 20000, 50000 };
    int dotWholeMax = 5000;
    int dotTimeout = 120;
    bool useDot = true;
    QStringList snapshotFiles;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--sizes") && i + 1 < args.size()) {
            sizes.clear();
            for (const QString &s : args[++i].split(QLatin1Char(',')))
                sizes.push_back(s.toInt());
        } else if (args[i] == QLatin1String("--dot-whole-max") && i + 1 < args.size()) {
            dotWholeMax = args[++i].toInt();
        } else if (args[i] == QLatin1String("--dot-timeout") && i + 1 < args.size()) {
            dotTimeout = args[++i].toInt();
        } else if (args[i] == QLatin1String("--snapshot") && i + 1 < args.size()) {
            snapshotFiles << args[++i];
        } else if (args[i] == QLatin1String("--no-dot")) {
            useDot = false;
        }
    }
    const QString dot = QStandardPaths::findExecutable(QStringLiteral("dot"));
    if (dot.isEmpty())
        useDot = false;
    print("rss_start", rssMiB(), "MiB");

    for (const int n : sizes) {
        const std::string tag = "n" + std::to_string(n);
        std::shared_ptr<const Graph::Snapshot> snapshot;
        {
            const std::string json = toJson(Bench::syntheticTransformer(n));
            QElapsedTimer parse;
            parse.start();
            snapshot = std::make_shared<const Graph::Snapshot>(Graph::parseSnapshot(nlohmann::json::parse(json)));
            print(tag + "_json_bytes", double(json.size()) / (1024.0 * 1024.0), "MiB");
            print(tag + "_parse_json", parse.nsecsElapsed() / 1e6, "ms");
        }
        print(tag + "_nodes", double(snapshot->nodes.size()), "nodes");
        const double rss0 = rssMiB();

        Widgets::GraphView view;
        view.resize(1280, 800);
        view.show();
        QImage target(view.canvas()->size(), QImage::Format_ARGB32_Premultiplied);
        QElapsedTimer t;
        t.start();
        view.setSnapshot(snapshot);
        view.fitToView();
        paintOnce(view, target);
        print(tag + "_first_paint_collapsed", t.nsecsElapsed() / 1e6, "ms");
        int visibleGroups = 0;
        for (const auto &g : view.graphLayout().groups())
            visibleGroups += g.visible ? 1 : 0;
        print(tag + "_visible_groups_collapsed", visibleGroups, "groups");
        const FrameStats collapsed = panZoom(view, target);
        print(tag + "_frame_collapsed_mean", collapsed.mean, "ms");
        print(tag + "_frame_collapsed_p95", collapsed.p95, "ms");

        t.restart();
        view.expandAll();
        view.fitToView();
        paintOnce(view, target);
        print(tag + "_expand_all", t.nsecsElapsed() / 1e6, "ms");
        print(tag + "_expand_all_structure", view.graphLayout().lastStructureMs(), "ms");
        print(tag + "_expand_all_coordinates", view.graphLayout().lastCoordinateMs(), "ms");
        print(tag + "_rss_expanded", rssMiB(), "MiB");
        print(tag + "_rss_expanded_delta", rssMiB() - rss0, "MiB");
        const FrameStats expanded = panZoom(view, target);
        print(tag + "_frame_expanded_mean", expanded.mean, "ms");
        print(tag + "_frame_expanded_p95", expanded.p95, "ms");
        print(tag + "_frame_expanded_max", expanded.max, "ms");

        // Toggle one group in the middle (incremental re-layout).
        const auto &groups = view.graphLayout().groups();
        const int mid = view.graphLayout().groupByPath(QStringLiteral("layers.%1").arg(int(groups.size()) / 40));
        if (mid > 0) {
            t.restart();
            view.graphLayout().setExpanded(mid, false);
            view.canvas()->layoutChanged();
            paintOnce(view, target);
            print(tag + "_collapse_one_group", t.nsecsElapsed() / 1e6, "ms");
            view.graphLayout().setExpanded(mid, true);
            view.canvas()->layoutChanged();
        }

        // The same pieces, laid out from scratch by us and by dot.
        comparePieces(tag, view.graphLayout().pieces(), useDot, dot, dotTimeout);
        if (useDot) {
            QByteArray plain;
            double ms = 0;
            if (n <= dotWholeMax) {
                Layout::Piece whole;
                whole.sizes.assign(snapshot->nodes.size(), { 150, 40 });
                for (std::size_t v = 0; v < snapshot->nodes.size(); ++v) {
                    for (const auto &in : snapshot->nodes[v].inputs) {
                        if (const auto it = snapshot->byId.find(in); it != snapshot->byId.end())
                            whole.edges.emplace_back(int(it->second), int(v));
                    }
                }
                const auto edges = Layout::normalizedEdges(whole);
                if (runDot(dot, pieceToDot(whole, edges), dotTimeout, plain, ms)) {
                    print(tag + "_dot_whole_layout", ms, "ms");
                    const auto r = parsePlain(plain, { edges });
                    if (!r.empty())
                        print(tag + "_dot_whole_crossings", double(Layout::countCrossings(r.front())), "crossings");
                } else {
                    std::printf("%s_dot_whole_layout: timeout after %d s\n", tag.c_str(), dotTimeout);
                }
                t.restart();
                const auto mine = Layout::layeredLayout(whole);
                print(tag + "_own_whole_layout", t.nsecsElapsed() / 1e6, "ms");
                print(tag + "_own_whole_crossings", double(Layout::countCrossings(mine)), "crossings");
            } else {
                std::printf("%s_dot_whole_layout: skipped (over --dot-whole-max %d)\n", tag.c_str(), dotWholeMax);
            }
        }
        std::fflush(stdout);
    }
    // The same graphs without module information (chunked top level): first paint and expand.
    for (const int n : sizes) {
        const std::string tag = "flat" + std::to_string(n);
        auto flat = std::make_shared<Graph::Snapshot>(Bench::syntheticTransformer(n));
        for (auto &node : flat->nodes) {
            node.moduleStack.clear();
            node.module.clear();
        }
        Widgets::GraphView view;
        view.resize(1280, 800);
        view.show();
        QImage target(view.canvas()->size(), QImage::Format_ARGB32_Premultiplied);
        QElapsedTimer t;
        t.start();
        view.setSnapshot(flat);
        paintOnce(view, target);
        print(tag + "_first_paint_collapsed", t.nsecsElapsed() / 1e6, "ms");
        t.restart();
        view.expandAll();
        view.fitToView();
        paintOnce(view, target);
        print(tag + "_expand_all", t.nsecsElapsed() / 1e6, "ms");
        const FrameStats expanded = panZoom(view, target);
        print(tag + "_frame_expanded_p95", expanded.p95, "ms");
        if (n <= 5000)
            comparePieces(tag, view.graphLayout().pieces(), useDot, dot, dotTimeout);
    }

    // Real snapshots (e.g. --snapshot OUT/snapshots/006_post_grad.json): all groups expanded, the
    // same piece comparison.
    for (const QString &file : snapshotFiles) {
        // "g8-minilm_006_post_grad" for OUT/snapshots/006_post_grad.json
        const QFileInfo info(file);
        const std::string tag
            = (QFileInfo(info.absolutePath()).dir().dirName() + QLatin1Char('_') + info.completeBaseName())
                  .toStdString();
        Widgets::GraphLayout layout;
        QElapsedTimer t;
        t.start();
        layout.setSnapshot(std::make_shared<const Graph::Snapshot>(Graph::loadSnapshot(file.toStdString())));
        layout.expandAll();
        print(tag + "_load_and_expand_all", t.nsecsElapsed() / 1e6, "ms");
        comparePieces(tag, layout.pieces(), useDot, dot, dotTimeout);
    }
    print("rss_end", rssMiB(), "MiB");
    return 0;
}
