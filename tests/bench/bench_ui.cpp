// SPDX-License-Identifier: GPL-3.0-or-later
// bench_ui (issue 7): how responsive the studio stays. Prints "name: value unit" lines.
//  1. The longest UI event-loop stall while the real engine compiles sample:resnet18 (a 2 ms
//     timer records the gaps between its ticks; target: no stall over 50 ms).
//  2. The time to open a session with 50 snapshots and 10,000 kernel launches in the trace
//     (session read, hub, every panel filled, events processed; target: under 1 s).
// Usage: bench_ui [--skip-compile] [--model SPEC] [--slow-events MS]
//  --slow-events MS: also lists every event (outermost delivery) during the compile that took
//  MS or longer, with its receiver and type: where a stall comes from.
#include "mainwindow.h"
#include "selectionhub.h"

#include "client/session.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEvent>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <optional>

using AotStudio::Widgets::MainWindow;

namespace {

/// Times each outermost event delivery (a stall of the event loop is one of them, or the gap
/// between two), and keeps those over a threshold.
class TimedApplication : public QApplication
{
public:
    using QApplication::QApplication;
    struct Slow {
        double ms;
        QString receiver;
        int type;
    };
    double thresholdMs = -1; ///< < 0: off
    QList<Slow> slow;

    bool notify(QObject *receiver, QEvent *event) override
    {
        if (thresholdMs < 0 || m_depth > 0)
            return QApplication::notify(receiver, event);
        ++m_depth;
        QElapsedTimer t;
        t.start();
        const int type = event->type();
        const QString name
            = QString::fromLatin1(receiver->metaObject()->className()) + QLatin1Char(' ') + receiver->objectName();
        const bool done = QApplication::notify(receiver, event);
        --m_depth;
        const double ms = t.nsecsElapsed() / 1e6;
        if (ms >= thresholdMs)
            slow.append({ms, name, type});
        return done;
    }

private:
    int m_depth = 0;
};

void writeJson(const QString &path, const QJsonObject &o)
{
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

/// A session folder: one profile job with `snapshots` snapshot files of `nodes` nodes each, a
/// kernels.json of `kernels` kernels and a Chrome trace with `launches` kernel ranges.
QString makeSession(const QString &dir, int snapshots, int nodes, int kernels, int launches)
{
    const QString out = dir + QStringLiteral("/job");
    QDir().mkpath(out + QStringLiteral("/snapshots"));
    QStringList lines;
    const auto line = [&](const QJsonObject &o) { lines.append(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact))); };
    line(AotStudio::Client::Session::header(dir));
    line({{"type", "hello"}, {"id", 0}, {"protocol", 1}, {"torch_version", "2.14.1"}});
    line({{"type", "sent"}, {"request", QJsonObject{{"type", "profile"}, {"id", 1}, {"model", "synthetic"}, {"out", out}}}});
    QJsonArray stages;
    for (int s = 0; s < snapshots; ++s) {
        QJsonArray ns;
        for (int n = 0; n < nodes; ++n) {
            ns.append(QJsonObject{{"id", QStringLiteral("n%1").arg(n)}, {"index", n}, {"op", "call_function"},
                                  {"target", "aten.add.Tensor"}, {"category", "pointwise"},
                                  {"inputs", n > 0 ? QJsonArray{QStringLiteral("n%1").arg(n - 1)} : QJsonArray{}},
                                  {"outputs", QJsonArray{QJsonObject{{"shape", QJsonArray{8, 128}}, {"dtype", "float32"}}}},
                                  {"module", QStringLiteral("layers.%1").arg(n / 50)},
                                  {"module_stack", QJsonArray{QJsonObject{{"path", QStringLiteral("layers.%1").arg(n / 50)}, {"type", "Block"}}}}});
        }
        const QString path = out + QStringLiteral("/snapshots/%1.json").arg(s, 3, 10, QLatin1Char('0'));
        writeJson(path, {{"schema", "aotstudio.graph"}, {"version", 1}, {"stage", "post_grad"},
                         {"pass", QStringLiteral("pass_%1").arg(s)}, {"node_count", nodes}, {"nodes", ns}});
        line({{"type", "snapshot"}, {"id", 1}, {"stage", "post_grad"}, {"pass", QStringLiteral("pass_%1").arg(s)},
              {"nodes", nodes}, {"path", path}, {"seconds", 0.01}});
        stages.append(QJsonObject{{"name", "post_grad"}, {"pass", QStringLiteral("pass_%1").arg(s)}, {"nodes", nodes}, {"snapshot", path}});
    }
    QJsonArray ks, measured;
    for (int k = 0; k < kernels; ++k) {
        const QString name = QStringLiteral("cpp_fused_add_%1").arg(k);
        ks.append(QJsonObject{{"id", name + QStringLiteral(":1")}, {"name", name}, {"kind", "cpp"},
                              {"post_grad_nodes", QJsonArray{QStringLiteral("n%1").arg(k % nodes)}},
                              {"source", QStringLiteral("extern \"C\" void %1() {}").arg(name)}});
        measured.append(QJsonObject{{"variant", "aoti"}, {"name", QStringLiteral("graph_0_") + name}, {"kind", "cpp"},
                                    {"calls", launches / kernels}, {"total_ms", 1.0}, {"mean_ms", 1.0 / (launches / kernels)}});
    }
    writeJson(out + QStringLiteral("/kernels.json"), {{"schema", "aotstudio.kernels"}, {"version", 1}, {"device", "cpu"}, {"kernels", ks}});
    QJsonArray events;
    for (int i = 0; i < launches; ++i)
        events.append(QJsonObject{{"ph", "X"}, {"pid", 1}, {"tid", 1 + i % 2}, {"ts", i * 10.0}, {"dur", 8.0},
                                  {"name", QStringLiteral("graph_0_cpp_fused_add_%1").arg(i % kernels)},
                                  {"cat", "kernel"}, {"args", QJsonObject{{"variant", "aoti"}}}});
    writeJson(out + QStringLiteral("/trace.json"), {{"traceEvents", events}, {"displayTimeUnit", "ms"}});
    const QJsonObject stats{{"median_ms", 1.0}, {"p10_ms", 0.9}, {"p90_ms", 1.2}, {"p99_ms", 1.5}, {"runs", 100}};
    line({{"type", "result"}, {"id", 1},
          {"result", QJsonObject{{"format", "aotstudio.profile"}, {"model", "synthetic"}, {"device", "cpu"}, {"out", out},
                                 {"kernels_json", out + QStringLiteral("/kernels.json")}, {"stages", stages},
                                 {"variants", QJsonArray{QJsonObject{{"name", "eager"}, {"available", true}, {"statistics", stats}},
                                                         QJsonObject{{"name", "aoti"}, {"available", true}, {"statistics", stats}}}},
                                 {"kernels", measured},
                                 {"files", QJsonObject{{"trace", out + QStringLiteral("/trace.json")}}}}}});
    const QString file = dir + QStringLiteral("/session.aotsession");
    QFile f(file);
    if (f.open(QIODevice::WriteOnly))
        f.write(lines.join(QLatin1Char('\n')).toUtf8() + '\n');
    return file;
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
    TimedApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("AOTStudioBench"));
    QCoreApplication::setApplicationName(QStringLiteral("bench_ui"));
    const QStringList args = app.arguments();
    const bool skipCompile = args.contains(QStringLiteral("--skip-compile"));
    const int modelAt = args.indexOf(QStringLiteral("--model"));
    const QString model = modelAt > 0 && modelAt + 1 < args.size() ? args[modelAt + 1] : QStringLiteral("sample:resnet18");

    // 2. Open a big session (first: it needs no engine).
    {
        QTemporaryDir dir;
        const QString file = makeSession(dir.path(), 50, 400, 200, 10000);
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        app.processEvents();
        QElapsedTimer t;
        t.start();
        const bool ok = w.openSession(file);
        app.processEvents();
        const double ms = t.nsecsElapsed() / 1e6;
        std::printf("open_session_50_snapshots_10000_launches: %.1f ms%s\n", ms, ok ? "" : " (FAILED to open)");
        std::printf("open_session_target: 1000 ms (%s)\n", ms < 1000 ? "met" : "missed");
        // Stepping through passes: select each snapshot in turn.
        t.restart();
        for (int i = 0; i < 50; ++i) {
            w.selectionHub()->selectSnapshot(i);
            app.processEvents();
        }
        std::printf("step_through_50_snapshots_mean: %.1f ms\n", t.nsecsElapsed() / 1e6 / 50);
    }

    if (skipCompile)
        return 0;
    // 1. Longest event-loop stall while the engine compiles.
    QTemporaryDir out;
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    w.setModel(model);
    w.setOutputDirectory(out.path());
    QElapsedTimer sinceTick;
    qint64 longestNs = 0;
    qint64 ticks = 0;
    QTimer timer;
    timer.setInterval(2);
    QObject::connect(&timer, &QTimer::timeout, [&] {
        if (sinceTick.isValid())
            longestNs = std::max(longestNs, sinceTick.nsecsElapsed());
        sinceTick.restart();
        ++ticks;
    });
    const int slowAt = args.indexOf(QStringLiteral("--slow-events"));
    if (slowAt > 0 && slowAt + 1 < args.size())
        app.thresholdMs = args[slowAt + 1].toDouble();
    std::optional<bool> finished;
    QObject::connect(&w, &MainWindow::jobFinished, [&](bool ok) { finished = ok; });
    w.startEngine();
    w.compileWhenReady();
    QElapsedTimer total;
    total.start();
    timer.start();
    while (!finished && total.elapsed() < 15 * 60 * 1000)
        app.processEvents(QEventLoop::WaitForMoreEvents, 50);
    timer.stop();
    app.thresholdMs = -1;
    for (const auto &e : std::as_const(app.slow))
        std::printf("slow_event: %.1f ms %s (event type %d)\n", e.ms, qPrintable(e.receiver), e.type);
    const bool ok = finished.value_or(false);
    std::printf("compile_%s_wall: %.1f s%s\n", qPrintable(QString(model).replace(QLatin1Char(':'), QLatin1Char('_'))),
                total.elapsed() / 1e3, ok ? "" : " (job failed)");
    std::printf("ui_longest_stall_during_compile: %.1f ms\n", longestNs / 1e6);
    std::printf("ui_stall_target: 50 ms (%s)\n", longestNs / 1e6 < 50 ? "met" : "missed");
    std::printf("ui_timer_ticks: %lld\n", static_cast<long long>(ticks));
    return ok ? 0 : 1;
}
