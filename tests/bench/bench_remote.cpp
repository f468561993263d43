// SPDX-License-Identifier: GPL-3.0-or-later
// bench_remote (issue 17): a remote engine over the local SSH (a throwaway sshd on 127.0.0.1, as
// tst_remote). Opens a session of 50 graph snapshots (resnet18's post-grad graph) through the
// ArtifactStore twice: from the local disk, and through the protocol's `read` into an empty cache;
// then the transfer throughput of one 64 MiB file, and the reopen from the cache. Prints
// "name: value unit" lines; the target is a session that opens in under 2x the local time.
// Then, when Ray is installed: wall time of a 4-scheme quantize of sample:convnet here and on a
// local Ray cluster of a head and two worker nodes (BENCH_RAY_ROUNDS alternating rounds, default
// 1; BENCH_RAY=0 skips it). On one 2-CPU machine the cluster shares the same CPUs, so this shows
// the fan-out's overhead, not a speedup; on real nodes the schemes' compiles run side by side.
#include "../integration/raycluster.h"
#include "../integration/sshserver.h"
#include "client/artifactstore.h"
#include "client/engineclient.h"
#include "graph/graph.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace AotStudio;

namespace {

void print(const char *name, double value, const char *unit)
{
    std::printf("%s: %.4g %s\n", name, value, unit);
    std::fflush(stdout);
}

/// Opens every snapshot of `paths` through `store` as the studio does (fetch when needed, then
/// parse); wall ms, or -1 on a failure (printed).
double openSession(Client::ArtifactStore &store, const QStringList &paths)
{
    QElapsedTimer t;
    t.start();
    store.prefetch(paths);
    for (const QString &path : paths) {
        QString error;
        const QString local = store.fetchAndWait(path, &error);
        try {
            if (local.isEmpty())
                throw std::runtime_error(error.toStdString());
            Graph::loadSnapshot(local.toStdString());
        } catch (const std::exception &e) {
            std::fprintf(stderr, "bench_remote: %s\n", e.what());
            return -1;
        }
    }
    return double(t.nsecsElapsed()) / 1e6;
}

/// Wall seconds of `aotstudio-cli quantize` of sample:convnet with four schemes into `out`
/// (with `--ray address` when given); -1 on a failure (printed).
double quantizeSeconds(const QString &out, const QString &address)
{
    QStringList args{QStringLiteral("quantize"),
                     QStringLiteral("--model"),
                     QStringLiteral("sample:convnet"),
                     QStringLiteral("--schemes"),
                     QStringLiteral("fp32,bf16,int8-weight-only,int8-dynamic"),
                     QStringLiteral("--out"),
                     out,
                     QStringLiteral("--json"),
                     QStringLiteral("--no-snapshots"),
                     QStringLiteral("--max-seconds"),
                     QStringLiteral("1")};
    if (!address.isEmpty())
        args << QStringLiteral("--ray") << address;
    QElapsedTimer t;
    t.start();
    const auto r = TestSupport::run(QStringLiteral(AOTSTUDIO_CLI_PATH), args, 1800000);
    if (r.exitCode != 0) {
        std::fprintf(stderr, "bench_remote: quantize%s failed: %s\n", address.isEmpty() ? "" : " --ray",
                     r.err.right(2000).constData());
        return -1;
    }
    return double(t.nsecsElapsed()) / 1e9;
}

/// The Ray part: one cluster, `rounds` alternating local and Ray quantizes.
int benchRay()
{
    if (qEnvironmentVariable("BENCH_RAY") == QLatin1String("0"))
        return 0;
    const int rounds = std::max(1, qEnvironmentVariableIntValue("BENCH_RAY_ROUNDS"));
    Tests::RayCluster cluster(QStringLiteral(AOTSTUDIO_PYTHON_EXECUTABLE));
    if (const QString why = cluster.start(2, 1); !why.isEmpty()) {
        std::printf("ray skipped: %s\n", qPrintable(why));
        return why.startsWith(QLatin1String("skip:")) ? 0 : 1;
    }
    print("ray_cluster_start_s", cluster.startSeconds(), "s");
    print("ray_nodes", 3, "nodes (head + 2 workers, 1 CPU each)");
    QTemporaryDir dir;
    std::vector<double> local, ray;
    for (int i = 0; i < rounds; ++i) {
        const double l = quantizeSeconds(dir.filePath(QStringLiteral("local%1").arg(i)), {});
        const double r = quantizeSeconds(dir.filePath(QStringLiteral("ray%1").arg(i)), cluster.address());
        if (l < 0 || r < 0)
            return 1;
        local.push_back(l);
        ray.push_back(r);
        std::printf("round %d: quantize 4 schemes here %.1f s, on Ray %.1f s\n", i + 1, l, r);
    }
    const auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
    };
    print("quantize4_local_s", median(local), "s (median)");
    print("quantize4_ray_s", median(ray), "s (median)");
    std::printf("quantize4_ray_vs_local: %.3g x (median of %d round%s; %s)\n", median(ray) / median(local), rounds,
                rounds == 1 ? "" : "s",
                rounds < 3 ? "one figure per side, no interval: set BENCH_RAY_ROUNDS=5 for a spread"
                           : "the rounds' spread is in the lines above");
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    Tests::SshServer server;
    const QString skip = server.start();
    if (!skip.isEmpty()) {
        std::printf("skipped: %s\n", qPrintable(skip));
        return benchRay();
    }
    QTemporaryDir jobs;
    const QString fixture = QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/graphs/resnet18_post_grad.json");
    QStringList paths;
    QDir().mkpath(jobs.filePath(QStringLiteral("compile-1/snapshots")));
    for (int i = 0; i < 50; ++i) {
        paths << jobs.filePath(QStringLiteral("compile-1/snapshots/%1_post_grad.json").arg(i, 3, 10, QLatin1Char('0')));
        QFile::copy(fixture, paths.last());
    }
    print("snapshots", paths.size(), "files");
    print("snapshot_bytes", QFileInfo(fixture).size(), "bytes");

    // Local disk: the normal case (and the open of a cached session, measured last).
    Client::ArtifactStore local;
    openSession(local, paths); // warm the page cache alike for both
    print("open_local_ms", openSession(local, paths), "ms");

    Client::EngineClient client;
    client.setRemote(server.remote(QStringLiteral(AOTSTUDIO_ENGINE_PATH), jobs.path()));
    QSignalSpy ready(&client, &Client::EngineClient::handshakeCompleted);
    QSignalSpy failed(&client, &Client::EngineClient::engineFailed);
    QElapsedTimer t;
    t.start();
    client.start();
    while (ready.isEmpty() && failed.isEmpty() && t.elapsed() < 120000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    if (ready.isEmpty()) {
        std::printf("skipped: no handshake: %s\n", failed.isEmpty() ? "timeout" : qPrintable(failed.first().first().toString()));
        return 1;
    }
    print("connect_ms", double(t.nsecsElapsed()) / 1e6, "ms");

    QTemporaryDir cache;
    Client::ArtifactStore remote;
    remote.setClient(&client);
    remote.setCacheFolder(cache.path());
    const double localMs = openSession(local, paths);
    const double remoteMs = openSession(remote, paths);
    print("open_local_ms", localMs, "ms");
    print("open_read_ms", remoteMs, "ms");
    print("open_read_vs_local", remoteMs / localMs, "x");
    print("open_read_bytes", remote.bytesFetched(), "bytes");

    // Throughput of one large file (incompressible bytes: ssh compresses nothing by default anyway).
    const QString big = jobs.filePath(QStringLiteral("compile-1/big.bin"));
    {
        QFile f(big);
        f.open(QIODevice::WriteOnly);
        QByteArray block(1 << 20, '\0');
        for (int i = 0; i < 64; ++i) {
            QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(block.data()), block.size() / 4);
            f.write(block);
        }
    }
    for (int window : {1, 4}) {
        QTemporaryDir c;
        Client::ArtifactStore store;
        store.setClient(&client);
        store.setCacheFolder(c.path());
        store.setWindow(window);
        t.restart();
        QString error;
        if (store.fetchAndWait(big, &error).isEmpty()) {
            std::fprintf(stderr, "bench_remote: %s\n", qPrintable(error));
            return 1;
        }
        const double s = double(t.nsecsElapsed()) / 1e9;
        print(window == 1 ? "read_throughput_window1_MiB_per_s" : "read_throughput_window4_MiB_per_s",
              64.0 / s, "MiB/s");
    }

    // The same through a local engine's pipe (no ssh): what the protocol and the client cost alone.
    client.stop();
    {
        Client::EngineClient pipe;
        pipe.setEnginePath(QStringLiteral(AOTSTUDIO_ENGINE_PATH));
        pipe.setExtraArguments({QStringLiteral("--jobs"), jobs.path()});
        QSignalSpy up(&pipe, &Client::EngineClient::handshakeCompleted);
        pipe.start();
        while (up.isEmpty() && pipe.state() == Client::EngineClient::State::Starting)
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        QTemporaryDir c;
        Client::ArtifactStore store;
        store.setClient(&pipe);
        store.setCacheFolder(c.path());
        store.addNoDirectReadFolder(jobs.path());
        t.restart();
        QString error;
        if (!up.isEmpty() && !store.fetchAndWait(big, &error).isEmpty())
            print("read_throughput_pipe_MiB_per_s", 64.0 / (double(t.nsecsElapsed()) / 1e9), "MiB/s");
        QTemporaryDir c2;
        Client::ArtifactStore store2;
        store2.setClient(&pipe);
        store2.setCacheFolder(c2.path());
        store2.addNoDirectReadFolder(jobs.path());
        const double pipeMs = openSession(store2, paths);
        print("open_read_pipe_ms", pipeMs, "ms");
        pipe.stop();
    }

    // The session reopened later from its cache, with no engine.
    Client::ArtifactStore offline;
    offline.setCacheFolder(cache.path());
    offline.setDirectReads(false);
    const double cachedMs = openSession(offline, paths);
    print("open_cache_ms", cachedMs, "ms");
    print("open_cache_vs_local", cachedMs / localMs, "x");
    return benchRay();
}
