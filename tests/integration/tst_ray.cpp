// SPDX-License-Identifier: GPL-3.0-or-later
// Sweeps on a Ray cluster (issue 17 item 4; FORMAT.md "Fan-out on a Ray cluster"): a local Ray
// cluster, a head and one worker node on 127.0.0.1 started here and stopped after, runs a
// two-scheme quantize of sample:mlp with --ray, and its rows equal the local run's in everything
// but timings and where they ran; the files land in the job folder. On the same cluster: an
// export of two buckets (a bundle that verifies, each bucket labelled with its host; a bucket that
// fails names itself and its host), a tune of two trials (compiled there, measured here) and a
// sweep of that bundle in two shards (the same points as the sweep here). A Ray address that does
// not answer is a one-line error before any work starts. Skipped, with the reason, without Ray.
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "processrun.h"
#include "raycluster.h"

#include <unistd.h>

namespace {

using TestSupport::Run;

const QString kPython = QStringLiteral(AOTSTUDIO_PYTHON_EXECUTABLE);

QString hostName()
{
    char buf[256] = {};
    ::gethostname(buf, sizeof buf - 1);
    return QString::fromLocal8Bit(buf);
}

QStringList quantizeArgs(const QString &out)
{
    return {QStringLiteral("quantize"),
            QStringLiteral("--model"),
            QStringLiteral("sample:mlp"),
            QStringLiteral("--schemes"),
            QStringLiteral("fp32,int8-dynamic"),
            QStringLiteral("--out"),
            out,
            QStringLiteral("--json"),
            QStringLiteral("--runs"),
            QStringLiteral("20"),
            QStringLiteral("--min-runs"),
            QStringLiteral("5"),
            QStringLiteral("--max-seconds"),
            QStringLiteral("0.3"),
            QStringLiteral("--eval-samples"),
            QStringLiteral("4"),
            QStringLiteral("--no-snapshots")};
}

/// A row without what differs between two runs of one scheme: timings, the machine's verdict on
/// them, where it ran (the Ray node), and its folder (another --out).
QJsonObject comparable(QJsonObject row, const QString &out)
{
    for (const char *key : {"eager_ms", "compiled_ms", "fp32_eager_ms", "speedup", "speedup_interval",
                            "speedup_vs_fp32_eager", "speedup_vs_fp32_eager_interval", "eager", "compiled",
                            "measurement", "compile_seconds", "export_seconds", "node"})
        row.remove(QLatin1String(key));
    // Paths relative to the job folder.
    QJsonDocument doc(row);
    QByteArray text = doc.toJson(QJsonDocument::Compact);
    text.replace(out.toUtf8(), "OUT");
    return QJsonDocument::fromJson(text).object();
}

} // namespace

class TestRay : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void unansweredAddressFailsFirst();
    void quantizeMatchesLocal();
    void exportBucketsOnRay();
    void tuneCompilesOnRayMeasuresHere();
    void sweepShardsMatchLocal();

private:
    QString m_skip;
    QString m_address;
    QTemporaryDir m_dir;
    AotStudio::Tests::RayCluster m_cluster{kPython}; ///< a head and one worker node (raycluster.h)
    QString m_bundle; ///< exportBucketsOnRay's bundle, swept by sweepShardsMatchLocal
};

void TestRay::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // A second node on the same host: its own raylet and object store, joined to the head.
    const QString why = m_cluster.start(1, 1);
    if (why.startsWith(QLatin1String("skip:"))) {
        m_skip = why.mid(5).trimmed();
        return;
    }
    QVERIFY2(why.isEmpty(), qPrintable(why));
    m_address = m_cluster.address();
    qInfo("Ray cluster of two nodes at %s started in %.1f s", qPrintable(m_address), m_cluster.startSeconds());
}

void TestRay::cleanupTestCase()
{
    m_cluster.stop();
}

void TestRay::unansweredAddressFailsFirst()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const QString out = m_dir.filePath(QStringLiteral("nobody"));
    const QString nobody = QStringLiteral("127.0.0.1:%1").arg(TestSupport::freePort());
    QElapsedTimer t;
    t.start();
    const Run r = TestSupport::cli(quantizeArgs(out) + QStringList{QStringLiteral("--ray"), nobody});
    qInfo("unanswered address: %.1f s", t.elapsed() / 1000.0);
    QCOMPARE(r.exitCode, 1);
    const QJsonObject error = TestSupport::error(r.out);
    QCOMPARE(error.value(QLatin1String("code")).toString(), QStringLiteral("ray_unavailable"));
    const QString message = error.value(QLatin1String("message")).toString();
    QVERIFY2(message.contains(nobody) && message.contains(QLatin1String("does not answer")), qPrintable(message));
    QVERIFY2(!message.contains(QLatin1Char('\n')), qPrintable(message));
    // Before any work: no scheme was started, so no scheme folder exists.
    QVERIFY(!QFileInfo::exists(out + QStringLiteral("/fp32")));
    QVERIFY(!QFileInfo::exists(out + QStringLiteral("/int8-dynamic")));
    // A malformed address is a usage error (exit 2) before the engine starts.
    const Run bad
        = TestSupport::cli(quantizeArgs(out) + QStringList{QStringLiteral("--ray"), QStringLiteral("ray://x:1")});
    QCOMPARE(bad.exitCode, 2);
}

void TestRay::quantizeMatchesLocal()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const QString local = m_dir.filePath(QStringLiteral("local"));
    const QString remote = m_dir.filePath(QStringLiteral("remote"));
    QElapsedTimer t;
    t.start();
    const Run a = TestSupport::cli(quantizeArgs(local));
    QVERIFY2(a.exitCode == 0, TestSupport::lastLine(a.err).constData());
    const double localSeconds = t.restart() / 1000.0;
    const Run b = TestSupport::cli(quantizeArgs(remote) + QStringList{QStringLiteral("--ray"), m_address});
    QVERIFY2(b.exitCode == 0, TestSupport::lastLine(b.err).constData());
    qInfo("two-scheme quantize of sample:mlp: %.1f s here, %.1f s on the Ray cluster", localSeconds,
          t.elapsed() / 1000.0);

    const QJsonObject l = TestSupport::readJson(local + QStringLiteral("/quantize.json"));
    const QJsonObject r = TestSupport::readJson(remote + QStringLiteral("/quantize.json"));
    QVERIFY(l.value(QLatin1String("ray")).isNull());
    QCOMPARE(r.value(QLatin1String("ray")).toObject().value(QLatin1String("address")).toString(), m_address);
    for (const char *key : {"model", "device", "torch_version", "torchao_version", "baseline", "calibration",
                            "evaluation", "peak_method", "threads"})
        QVERIFY2(l.value(QLatin1String(key)) == r.value(QLatin1String(key)), key);
    const QJsonArray lr = l.value(QLatin1String("schemes")).toArray(), rr = r.value(QLatin1String("schemes")).toArray();
    QCOMPARE(rr.size(), 2);
    QCOMPARE(lr.size(), rr.size());
    for (int i = 0; i < lr.size(); ++i) {
        const QJsonObject lrow = lr[i].toObject(), rrow = rr[i].toObject();
        const QString scheme = rrow.value(QLatin1String("scheme")).toString();
        QCOMPARE(rrow.value(QLatin1String("status")).toString(), QStringLiteral("ok"));
        // Labelled with where it was measured: this host (the cluster is on it), a Ray node.
        QCOMPARE(rrow.value(QLatin1String("host")).toString(), hostName());
        QVERIFY(!rrow.value(QLatin1String("device_name")).toString().isEmpty());
        QVERIFY(!rrow.value(QLatin1String("node")).toString().isEmpty());
        QVERIFY(lrow.value(QLatin1String("node")).isNull());
        const QJsonObject x = comparable(lrow, local), y = comparable(rrow, remote);
        if (x != y) {
            for (auto it = x.begin(); it != x.end(); ++it)
                if (y.value(it.key()) != it.value())
                    qWarning("%s: %s differs: %s vs %s", qPrintable(scheme), qPrintable(it.key()),
                             QJsonDocument(QJsonObject{{QStringLiteral("v"), it.value()}})
                                 .toJson(QJsonDocument::Compact)
                                 .constData(),
                             QJsonDocument(QJsonObject{{QStringLiteral("v"), y.value(it.key())}})
                                 .toJson(QJsonDocument::Compact)
                                 .constData());
            QFAIL(qPrintable(scheme + QStringLiteral(": the Ray row differs from the local one beyond timings")));
        }
        // The files came back into the job folder, their recorded paths with them.
        const QString dir = remote + QLatin1Char('/') + scheme;
        QVERIFY(QFileInfo::exists(dir + QStringLiteral("/model.pt2")));
        QCOMPARE(rrow.value(QLatin1String("package")).toString(), dir + QStringLiteral("/model.pt2"));
        QVERIFY(QFileInfo::exists(rrow.value(QLatin1String("layers_path")).toString()));
        QVERIFY(QFileInfo::exists(dir + QStringLiteral("/kernels.json")));
        QVERIFY2(!TestSupport::readJson(dir + QStringLiteral("/kernels.json")).isEmpty(), "kernels.json is not JSON");
    }
    QVERIFY(QFileInfo::exists(remote + QStringLiteral("/quantize.csv")));
    // Progress of the parallel tasks, as one bar: monotonic, to 1, each event naming its scheme.
    const QString problems
        = TestSupport::progressProblems(remote + QStringLiteral("/aotstudio.log"), QStringLiteral("scheme"));
    QVERIFY2(problems.isEmpty(), qPrintable(problems));
}

/// Where a row says it ran: this host (the cluster is on it) and a Ray node.
#define VERIFY_ON_RAY_NODE(row, what)                                                                                  \
    do {                                                                                                               \
        const QJsonObject o_ = (row);                                                                                  \
        QVERIFY2(o_.value(QLatin1String("host")).toString() == hostName(), qPrintable(what));                          \
        QVERIFY2(!o_.value(QLatin1String("device_name")).toString().isEmpty(), qPrintable(what));                      \
        QVERIFY2(!o_.value(QLatin1String("node")).toString().isEmpty(), qPrintable(what));                             \
    } while (false)

void TestRay::exportBucketsOnRay()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const QString bundle = m_dir.filePath(QStringLiteral("bundle"));
    QElapsedTimer t;
    t.start();
    const Run r = TestSupport::cli({QStringLiteral("export"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                                    QStringLiteral("--buckets"), QStringLiteral("batch=1,2"), QStringLiteral("--out"),
                                    bundle, QStringLiteral("--no-zip"), QStringLiteral("--cold-start-runs"),
                                    QStringLiteral("0"), QStringLiteral("--json"), QStringLiteral("--ray"), m_address});
    qInfo("export of two buckets on the Ray cluster: %.1f s", t.elapsed() / 1000.0);
    QVERIFY2(r.exitCode == 0, (r.out.right(2000) + TestSupport::lastLine(r.err)).constData());
    const QJsonObject j = TestSupport::result(r.out);
    QCOMPARE(j.value(QLatin1String("ray")).toObject().value(QLatin1String("address")).toString(), m_address);
    const QJsonArray buckets = j.value(QLatin1String("buckets")).toArray();
    QCOMPARE(buckets.size(), 2);
    QCOMPARE(buckets[0].toObject().value(QLatin1String("name")).toString(), QStringLiteral("batch1"));
    QCOMPARE(buckets[1].toObject().value(QLatin1String("name")).toString(), QStringLiteral("batch2"));
    for (const auto &b : buckets) {
        const QString name = b.toObject().value(QLatin1String("name")).toString();
        VERIFY_ON_RAY_NODE(b.toObject(), name);
        // The bucket's report says where it compiled too; its package is the bundle's, not a worker's.
        const QJsonObject report
            = TestSupport::readJson(bundle + QStringLiteral("/report/") + name + QStringLiteral(".json"));
        VERIFY_ON_RAY_NODE(report, name + QStringLiteral(" report"));
        QVERIFY2(report.value(QLatin1String("package")).toString().startsWith(bundle), qPrintable(name));
        QVERIFY(QFileInfo::exists(bundle + QStringLiteral("/packages/") + name + QStringLiteral(".pt2")));
    }
    // The manifest stays what it was: where a bucket compiled is a report, not part of the bundle.
    const QJsonObject manifest = TestSupport::readJson(bundle + QStringLiteral("/manifest.json"));
    QVERIFY(!manifest.value(QLatin1String("buckets")).toArray()[0].toObject().contains(QLatin1String("host")));
    // The first bucket's graphs came back with it.
    QVERIFY(!QDir(bundle + QStringLiteral("/graphs")).isEmpty());
    // Intact, and it runs here (hashes, shared weights, guards: as a local export's).
    const Run inspect = TestSupport::cli({QStringLiteral("inspect"), bundle, QStringLiteral("--json")});
    QVERIFY2(inspect.exitCode == 0, inspect.out.right(2000).constData());
    m_bundle = bundle;

    // A bucket that fails on its node fails the export, naming the bucket and the host.
    const Run bad = TestSupport::cli(
        {QStringLiteral("export"), QStringLiteral("--model"), QStringLiteral("sample:no_such_model"),
         QStringLiteral("--buckets"), QStringLiteral("batch=1"), QStringLiteral("--out"),
         m_dir.filePath(QStringLiteral("bad-bundle")), QStringLiteral("--no-zip"), QStringLiteral("--cold-start-runs"),
         QStringLiteral("0"), QStringLiteral("--json"), QStringLiteral("--ray"), m_address});
    QCOMPARE(bad.exitCode, 1);
    const QString message = TestSupport::error(bad.out).value(QLatin1String("message")).toString();
    QVERIFY2(message.contains(QLatin1String("bucket batch1")) && message.contains(hostName()), qPrintable(message));
    QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("bad-bundle"))));
}

void TestRay::tuneCompilesOnRayMeasuresHere()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    const QString out = m_dir.filePath(QStringLiteral("tune"));
    QElapsedTimer t;
    t.start();
    const Run r = TestSupport::cli({QStringLiteral("tune"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                                    QStringLiteral("--trials"), QStringLiteral("defaults,freezing"),
                                    QStringLiteral("--out"), out, QStringLiteral("--budget"), QStringLiteral("10m"),
                                    QStringLiteral("--runs"), QStringLiteral("20"), QStringLiteral("--min-runs"),
                                    QStringLiteral("5"), QStringLiteral("--max-seconds"), QStringLiteral("0.3"),
                                    QStringLiteral("--json"), QStringLiteral("--ray"), m_address});
    qInfo("tune of two trials compiled on the Ray cluster: %.1f s", t.elapsed() / 1000.0);
    QVERIFY2(r.exitCode == 0, (r.out.right(2000) + TestSupport::lastLine(r.err)).constData());
    const QJsonObject j = TestSupport::readJson(out + QStringLiteral("/tune.json"));
    const QJsonObject ray = j.value(QLatin1String("ray")).toObject();
    QCOMPARE(ray.value(QLatin1String("address")).toString(), m_address);
    QCOMPARE(ray.value(QLatin1String("several_hosts")).toBool(true), false);
    QCOMPARE(ray.value(QLatin1String("pareto_axes")).toArray().size(), 4); // one host: compile time is an axis
    const QJsonArray rows = j.value(QLatin1String("rows")).toArray();
    QCOMPARE(rows.size(), 2);
    for (const auto &v : rows) {
        const QJsonObject row = v.toObject();
        const QString name = row.value(QLatin1String("name")).toString();
        QVERIFY2(row.value(QLatin1String("status")).toString() == QLatin1String("ok"),
                 qPrintable(name + QStringLiteral(": ") + row.value(QLatin1String("reason")).toString()));
        VERIFY_ON_RAY_NODE(row, name);
        // Measured here, together: a median and a ratio against defaults (paired, one process).
        QVERIFY2(row.value(QLatin1String("median_ms")).toDouble() > 0, qPrintable(name));
        QVERIFY2(row.value(QLatin1String("compile_seconds")).toDouble() > 0, qPrintable(name));
        const QString package = out + QStringLiteral("/trials/") + name + QStringLiteral("/model.pt2");
        QCOMPARE(row.value(QLatin1String("package")).toString(), package);
        QVERIFY(QFileInfo::exists(package));
    }
    // The ratio of the two, paired in one process here.
    bool ratio = false;
    for (const auto &v : rows)
        if (v.toObject().value(QLatin1String("name")).toString() == QLatin1String("freezing"))
            ratio = v.toObject().value(QLatin1String("speedup_vs_defaults")).toDouble() > 0;
    QVERIFY(ratio);
    QVERIFY(!j.value(QLatin1String("front")).toArray().isEmpty());
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/recipe.json")));
    const QString problems = TestSupport::progressProblems(out + QStringLiteral("/aotstudio.log"));
    QVERIFY2(problems.isEmpty(), qPrintable(problems));
}

void TestRay::sweepShardsMatchLocal()
{
    if (!m_skip.isEmpty())
        QSKIP(qPrintable(m_skip));
    if (m_bundle.isEmpty())
        QSKIP("exportBucketsOnRay wrote no bundle");
    const QString local = m_dir.filePath(QStringLiteral("sweep-local"));
    const QString remote = m_dir.filePath(QStringLiteral("sweep-ray"));
    const QStringList args{QStringLiteral("sweep"),    QStringLiteral("--bundle"), m_bundle,
                           QStringLiteral("--budget"), QStringLiteral("8"),        QStringLiteral("--json")};
    QElapsedTimer t;
    t.start();
    const Run a = TestSupport::cli(args + QStringList{QStringLiteral("--out"), local});
    QVERIFY2(a.exitCode == 0, (a.out.right(2000) + TestSupport::lastLine(a.err)).constData());
    const double localSeconds = t.restart() / 1000.0;
    const Run b = TestSupport::cli(args
                                   + QStringList{QStringLiteral("--out"), remote, QStringLiteral("--ray"), m_address,
                                                 QStringLiteral("--ray-shards"), QStringLiteral("2")});
    QVERIFY2(b.exitCode == 0, (b.out.right(2000) + TestSupport::lastLine(b.err)).constData());
    qInfo("sweep of a two-bucket bundle: %.1f s here, %.1f s in two shards on the Ray cluster", localSeconds,
          t.elapsed() / 1000.0);
    const QJsonObject l = TestSupport::result(a.out), r = TestSupport::result(b.out);
    QVERIFY(r.value(QLatin1String("passed")).toBool());
    QCOMPARE(r.value(QLatin1String("ray")).toObject().value(QLatin1String("shards")).toInt(), 2);
    QVERIFY(l.value(QLatin1String("points")).toInt() > 2);
    QCOMPARE(r.value(QLatin1String("points")).toInt(), l.value(QLatin1String("points")).toInt());
    QCOMPARE(r.value(QLatin1String("counts")).toObject(), l.value(QLatin1String("counts")).toObject());
    // Merged in plan order: the same shapes, outcomes and indices as the local sweep, each labelled.
    const QJsonArray lt = l.value(QLatin1String("targets")).toArray(), rt = r.value(QLatin1String("targets")).toArray();
    QCOMPARE(rt.size(), lt.size());
    for (int i = 0; i < lt.size(); ++i) {
        const QJsonObject x = lt[i].toObject(), y = rt[i].toObject();
        QCOMPARE(y.value(QLatin1String("name")), x.value(QLatin1String("name")));
        QCOMPARE(y.value(QLatin1String("package")), x.value(QLatin1String("package")));
        QCOMPARE(y.value(QLatin1String("counts")), x.value(QLatin1String("counts")));
        const QJsonArray lp = x.value(QLatin1String("points")).toArray(),
                         rp = y.value(QLatin1String("points")).toArray();
        QCOMPARE(rp.size(), lp.size());
        for (int k = 0; k < lp.size(); ++k) {
            const QJsonObject p = rp[k].toObject(), q = lp[k].toObject();
            for (const char *key : {"index", "shapes", "expected", "outcome", "ok"})
                QVERIFY2(p.value(QLatin1String(key)) == q.value(QLatin1String(key)), key);
            VERIFY_ON_RAY_NODE(p, QStringLiteral("point %1").arg(k));
            QVERIFY(q.value(QLatin1String("node")).isNull());
        }
    }
    const QJsonArray lpol = l.value(QLatin1String("policy")).toArray(),
                     rpol = r.value(QLatin1String("policy")).toArray();
    QCOMPARE(rpol.size(), lpol.size());
    for (int k = 0; k < lpol.size(); ++k)
        QCOMPARE(rpol[k].toObject().value(QLatin1String("batch")), lpol[k].toObject().value(QLatin1String("batch")));
    // Each shard ran a part of the points, the two parts making the whole.
    int shardPoints[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
        const QJsonObject s = TestSupport::readJson(remote + QStringLiteral("/shards/shard%1/sweep.json").arg(k));
        QCOMPARE(s.value(QLatin1String("shard")).toObject().value(QLatin1String("index")).toInt(-1), k);
        shardPoints[k] = s.value(QLatin1String("points")).toInt() + s.value(QLatin1String("policy")).toArray().size();
        QVERIFY2(shardPoints[k] > 0, qPrintable(QStringLiteral("shard %1 ran nothing").arg(k)));
    }
    QCOMPARE(shardPoints[0] + shardPoints[1], l.value(QLatin1String("points")).toInt() + lpol.size());
    QVERIFY(QFileInfo::exists(remote + QStringLiteral("/sweep.csv")));
}

QTEST_GUILESS_MAIN(TestRay)
#include "tst_ray.moc"
