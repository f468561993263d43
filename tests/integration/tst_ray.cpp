// SPDX-License-Identifier: GPL-3.0-or-later
// Sweeps on a Ray cluster (issue 17 item 4; FORMAT.md "Fan-out on a Ray cluster"): a local Ray
// cluster, a head and one worker node on 127.0.0.1 started here and stopped after, runs a
// two-scheme quantize of sample:mlp with --ray, and its rows equal the local run's in everything
// but timings and where they ran; the files land in the job folder. A Ray address that does not
// answer is a one-line error before any work starts. Skipped, with the reason, without Ray.
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "processrun.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

using TestSupport::Run;

const QString kPython = QStringLiteral(AOTSTUDIO_PYTHON_EXECUTABLE);

/// The `ray` program of the engine's venv (beside its python).
QString rayProgram()
{
    return QFileInfo(kPython).absolutePath() + QStringLiteral("/ray");
}

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

private:
    bool ray(const QStringList &args, QByteArray *err = nullptr);
    QString m_skip;
    QString m_address;
    QTemporaryDir m_dir;
    /// Ray's session folder holds Unix sockets, whose paths must stay short: not the build tree.
    QTemporaryDir m_rayDir{QStringLiteral("/tmp/rayXXXXXX")};
    bool m_started = false;
};

bool TestRay::ray(const QStringList &args, QByteArray *err)
{
    QProcess p;
    p.setProgram(rayProgram());
    p.setArguments(args);
    p.start();
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
    }
    if (err)
        *err = p.readAllStandardError() + p.readAllStandardOutput();
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

void TestRay::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const Run probe = TestSupport::run(kPython, {QStringLiteral("-c"), QStringLiteral("import ray")}, 120000);
    if (probe.exitCode != 0 || !QFileInfo(rayProgram()).isExecutable()) {
        m_skip = QStringLiteral("Ray is not installed in the engine's venv (pip install ray, tools/requirements.txt)");
        return;
    }
    QVERIFY(m_rayDir.isValid());
    const int port = TestSupport::freePort();
    m_address = QStringLiteral("127.0.0.1:%1").arg(port);
    const QStringList common{QStringLiteral("--num-cpus"),
                             QStringLiteral("1"),
                             QStringLiteral("--node-ip-address"),
                             QStringLiteral("127.0.0.1"),
                             QStringLiteral("--object-store-memory"),
                             QStringLiteral("200000000"),
                             QStringLiteral("--disable-usage-stats")};
    QElapsedTimer t;
    t.start();
    QByteArray err;
    m_started = true;
    QVERIFY2(ray(QStringList{QStringLiteral("start"), QStringLiteral("--head"), QStringLiteral("--port"),
                             QString::number(port), QStringLiteral("--include-dashboard=false"),
                             QStringLiteral("--temp-dir"), m_rayDir.path()}
                     + common,
                 &err),
             err.constData());
    // A second node on the same host: its own raylet and object store, joined to the head.
    QVERIFY2(ray(QStringList{QStringLiteral("start"), QStringLiteral("--address"), m_address} + common, &err),
             err.constData());
    qInfo("Ray cluster of two nodes at %s started in %.1f s", qPrintable(m_address), t.elapsed() / 1000.0);
}

void TestRay::cleanupTestCase()
{
    if (m_started)
        ray({QStringLiteral("stop")});
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

QTEST_GUILESS_MAIN(TestRay)
#include "tst_ray.moc"
