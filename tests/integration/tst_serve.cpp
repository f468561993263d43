// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-run --serve and --replay on a real sample:mlp CPU bundle (exported once for the whole
// binary): answers equal to one-shot runs, bad requests refused while the server stays up, a
// killed worker replaced, request isolation serving request after request (the fork rules: a
// parent that ran OpenMP would hang its children), the private socket folder, the replay's table
// with its Python eager server baseline (and eager servers that fail to start or die).
// No test here looks at how fast anything is.
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "processrun.h"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace {

using TestSupport::lastLine;
using TestSupport::Run;

constexpr int kTimeoutMs = 300000; // generous: the machine is shared; a hang still fails

Run runTool(const QStringList &args)
{
    return TestSupport::run(QStringLiteral(AOTSTUDIO_RUN_PATH), args, kTimeoutMs);
}

/// aotstudio-run --serve over stdin and stdout: requests are written as lines, answers read as lines.
class Server
{
public:
    explicit Server(const QStringList &args)
    {
        m_p.start(QStringLiteral(AOTSTUDIO_RUN_PATH), QStringList{QStringLiteral("--serve")} + args);
    }
    ~Server()
    {
        if (m_p.state() != QProcess::NotRunning) {
            m_p.kill();
            m_p.waitForFinished();
        }
    }
    bool started() { return m_p.waitForStarted(); }
    void send(const QByteArray &line)
    {
        m_p.write(line + '\n');
        m_p.waitForBytesWritten();
    }
    /// The next answer line, or an empty object when none came within the timeout.
    QJsonObject next()
    {
        QElapsedTimer t;
        t.start();
        while (!m_p.canReadLine() && t.elapsed() < kTimeoutMs)
            if (!m_p.waitForReadyRead(1000) && m_p.state() == QProcess::NotRunning)
                break;
        return QJsonDocument::fromJson(m_p.readLine()).object();
    }
    /// Close stdin and wait for the exit; the exit code (-1 when it crashed or hung).
    int finish()
    {
        m_p.closeWriteChannel();
        if (!m_p.waitForFinished(kTimeoutMs))
            return -1;
        return m_p.exitStatus() == QProcess::NormalExit ? m_p.exitCode() : -1;
    }
    QByteArray rest() { return m_p.readAllStandardOutput(); }
    QByteArray err() { return m_p.readAllStandardError(); }

private:
    QProcess m_p;
};

QJsonArray outputsOf(const QJsonObject &o)
{
    return o.value(QLatin1String("outputs")).toArray();
}

int pidOf(const QJsonObject &o)
{
    return o.value(QLatin1String("worker_pid")).toInt(-1);
}

} // namespace

class TestServe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void threeRequestsMatchOneShotRuns_data();
    void threeRequestsMatchOneShotRuns();
    void badRequestsAreRefusedAndTheServerStaysUp();
    void killedWorkerIsReplaced();
    void hungWorkerMeetsTheDeadline();
    void requestIsolationServesOneAfterAnother();
    void socketInAPrivateFolder();
    void replayReportsServerAndSpawnBaseline();
    void replayWithEagerServerBaseline();
    void eagerServerThatFailsFailsItsModeOnly();
    void usageErrors();
    void trustRulesApplyBeforeServing();

private:
    /// The one-shot `aotstudio-run --json` of the same request.
    QJsonObject oneShot(const QStringList &request);

    QTemporaryDir m_dir;
    QString m_bundle;
    QString m_input; ///< 3 rows, float32 [3, 64]
    QString m_wrongInput; ///< float32 [2, 32]: the model takes [batch, 64]
};

void TestServe::initTestCase()
{
    QVERIFY(m_dir.isValid());
    qputenv("PYTHONPATH", AOTSTUDIO_FRONTEND_DIR); // the eager servers' package, inherited through aotstudio-run
    m_bundle = m_dir.filePath(QStringLiteral("mlp-bundle"));
    const Run e = TestSupport::run(QStringLiteral(AOTSTUDIO_CLI_PATH),
        {QStringLiteral("export"), QStringLiteral("--model"), QStringLiteral("sample:mlp"), QStringLiteral("--buckets"),
            QStringLiteral("batch=1,4"), QStringLiteral("--pad-safe"), QStringLiteral("--cold-start-runs"),
            QStringLiteral("1"), QStringLiteral("--out"), m_bundle},
        600000);
    QVERIFY2(e.exitCode == 0, e.err.right(3000).constData());
    m_input = m_dir.filePath(QStringLiteral("x3.pt"));
    m_wrongInput = m_dir.filePath(QStringLiteral("wrong.pt"));
    QProcess py;
    py.start(QStringLiteral(AOTSTUDIO_PYTHON_EXECUTABLE),
        {QStringLiteral("-c"),
            QStringLiteral("import sys, torch; g = torch.Generator().manual_seed(1);"
                           "torch.save([torch.randn(3, 64, generator=g)], sys.argv[1]);"
                           "torch.save([torch.randn(2, 32, generator=g)], sys.argv[2])"),
            m_input, m_wrongInput});
    QVERIFY(py.waitForFinished(300000));
    QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
}

QJsonObject TestServe::oneShot(const QStringList &request)
{
    const Run r = runTool(QStringList{m_bundle, QStringLiteral("--iters"), QStringLiteral("0"),
                              QStringLiteral("--warmup"), QStringLiteral("0"), QStringLiteral("--json")}
        + request);
    return TestSupport::result(r.out);
}

void TestServe::threeRequestsMatchOneShotRuns_data()
{
    QTest::addColumn<QString>("isolation");
    QTest::newRow("worker") << QStringLiteral("worker");
    QTest::newRow("request") << QStringLiteral("request");
}

void TestServe::threeRequestsMatchOneShotRuns()
{
    QFETCH(QString, isolation);
    Server s({m_bundle, QStringLiteral("--isolation"), isolation, QStringLiteral("--workers"), QStringLiteral("2")});
    QVERIFY(s.started());
    s.send(R"({"id": 1, "batch": 4, "seed": 0})");
    s.send(R"({"id": "two", "batch": 1, "seed": 7})");
    s.send(QByteArray(R"({"id": 3, "input": ")") + m_input.toUtf8() + R"("})");
    QMap<QString, QJsonObject> answers;
    for (int i = 0; i < 3; ++i) {
        const QJsonObject a = s.next();
        QVERIFY2(a.value(QLatin1String("ok")).toBool(), QJsonDocument(a).toJson().constData());
        answers.insert(a.value(QLatin1String("id")).toVariant().toString(), a);
    }
    QCOMPARE(s.finish(), 0); // end of stdin: answers what is in flight, then exits
    QCOMPARE(answers.keys(), (QStringList{QStringLiteral("1"), QStringLiteral("3"), QStringLiteral("two")}));

    const QJsonObject one
        = oneShot({QStringLiteral("--batch"), QStringLiteral("4"), QStringLiteral("--seed"), QStringLiteral("0")});
    const QJsonObject two
        = oneShot({QStringLiteral("--batch"), QStringLiteral("1"), QStringLiteral("--seed"), QStringLiteral("7")});
    const QJsonObject three = oneShot({QStringLiteral("--input"), m_input});
    QCOMPARE(outputsOf(answers["1"]), outputsOf(one));
    QCOMPARE(outputsOf(answers["two"]), outputsOf(two));
    QCOMPARE(outputsOf(answers["3"]), outputsOf(three));
    QVERIFY(!outputsOf(one).isEmpty());
    QCOMPARE(answers["1"].value(QLatin1String("bucket")).toString(), QStringLiteral("batch4"));
    QCOMPARE(
        answers["3"].value(QLatin1String("bucket")).toString(), QStringLiteral("batch4")); // 3 rows padded into batch4
    for (const auto &a : answers) {
        const QJsonObject t = a.value(QLatin1String("timing")).toObject();
        for (const char *k : {"queue_ms", "worker_start_ms", "setup_ms", "load_ms", "inputs_ms", "run_ms", "total_ms"})
            QVERIFY2(t.value(QLatin1String(k)).toDouble(-1) >= 0, k);
        // The parts are consecutive spans of one clock (CLOCK_MONOTONIC in parent and worker): their
        // sum cannot exceed the arrival-to-answer total.
        double parts = 0;
        for (const char *k : {"queue_ms", "worker_start_ms", "setup_ms", "load_ms", "inputs_ms", "run_ms"})
            parts += t.value(QLatin1String(k)).toDouble();
        QVERIFY2(parts <= t.value(QLatin1String("total_ms")).toDouble() + 1e-3,
                 qPrintable(QJsonDocument(t).toJson(QJsonDocument::Compact)));
        QVERIFY(pidOf(a) > 0);
    }
}

void TestServe::badRequestsAreRefusedAndTheServerStaysUp()
{
    Server s({m_bundle});
    QVERIFY(s.started());
    s.send(QByteArray(R"({"id": 1, "input": ")") + m_wrongInput.toUtf8() + R"("})");
    const QJsonObject wrong = s.next();
    QCOMPARE(wrong.value(QLatin1String("id")).toInt(), 1);
    QCOMPARE(wrong.value(QLatin1String("ok")).toBool(true), false);
    const QJsonObject error = wrong.value(QLatin1String("error")).toObject();
    QCOMPARE(error.value(QLatin1String("stage")).toString(), QStringLiteral("refused"));
    // The error object of the one-shot envelope: stage, code, message, hint.
    QCOMPARE(error.value(QLatin1String("code")).toString(), QStringLiteral("refused"));
    QVERIFY(error.value(QLatin1String("hint")).isString());
    // The same message as a one-shot aotstudio-run of the same file.
    const Run r = runTool({m_bundle, QStringLiteral("--input"), m_wrongInput});
    QCOMPARE(r.exitCode, 1);
    QCOMPARE(QStringLiteral("aotstudio-run: refused: ") + error.value(QLatin1String("message")).toString(),
        QString::fromUtf8(lastLine(r.err)));

    s.send("this is not json");
    const QJsonObject garbage = s.next();
    QVERIFY(garbage.contains(QLatin1String("id")) && garbage.value(QLatin1String("id")).isNull());
    QCOMPARE(garbage.value(QLatin1String("error")).toObject().value(QLatin1String("stage")).toString(),
        QStringLiteral("request"));
    s.send(R"({"id": 2, "batch": 0})");
    QCOMPARE(s.next().value(QLatin1String("ok")).toBool(true), false);
    s.send(R"({"id": 3, "batch": 1000})"); // no bucket for it: refused by the worker's bucket choice
    const QJsonObject noBucket = s.next();
    QVERIFY2(noBucket.value(QLatin1String("error"))
                 .toObject()
                 .value(QLatin1String("message"))
                 .toString()
                 .contains("no bucket for batch 1000"),
        QJsonDocument(noBucket).toJson().constData());

    s.send(R"({"id": 4, "batch": 1})");
    const QJsonObject fine = s.next();
    QCOMPARE(fine.value(QLatin1String("id")).toInt(), 4);
    QVERIFY2(fine.value(QLatin1String("ok")).toBool(), QJsonDocument(fine).toJson().constData());
    s.send(R"({"id": 5, "shutdown": true})");
    const QJsonObject bye = s.next();
    QCOMPARE(bye.value(QLatin1String("id")).toInt(), 5);
    QCOMPARE(bye.value(QLatin1String("shutdown")).toBool(), true);
    QCOMPARE(s.finish(), 0);
}

void TestServe::killedWorkerIsReplaced()
{
    Server s({m_bundle, QStringLiteral("--isolation"), QStringLiteral("worker"), QStringLiteral("--workers"),
        QStringLiteral("1")});
    QVERIFY(s.started());
    s.send(R"({"id": 1, "batch": 1})");
    const QJsonObject first = s.next();
    QVERIFY2(first.value(QLatin1String("ok")).toBool(), QJsonDocument(first).toJson().constData());
    const int pid = pidOf(first);
    QVERIFY(pid > 0);
    QCOMPARE(::kill(pid, SIGKILL), 0);
    s.send(R"({"id": 2, "batch": 1})");
    const QJsonObject second = s.next();
    QCOMPARE(second.value(QLatin1String("id")).toInt(), 2);
    // Answered by the replacement; had the request reached the dying worker, its error names the signal.
    if (!second.value(QLatin1String("ok")).toBool()) {
        QVERIFY2(second.value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString()
                == QStringLiteral("worker %1 killed by SIGKILL").arg(pid),
            QJsonDocument(second).toJson().constData());
        s.send(R"({"id": 3, "batch": 1})");
        const QJsonObject third = s.next();
        QVERIFY2(third.value(QLatin1String("ok")).toBool(), QJsonDocument(third).toJson().constData());
        QVERIFY(pidOf(third) != pid);
    } else {
        QVERIFY(pidOf(second) != pid && pidOf(second) > 0);
        QCOMPARE(outputsOf(second), outputsOf(first));
    }

    // A worker that dies with a request in hand: stopped, given a request, then killed. Its
    // request gets an error naming the signal; the next one is served by a replacement.
    s.send(R"({"id": 10, "batch": 4})");
    const QJsonObject before = s.next();
    QVERIFY2(before.value(QLatin1String("ok")).toBool(), QJsonDocument(before).toJson().constData());
    const int victim = pidOf(before);
    QCOMPARE(::kill(victim, SIGSTOP), 0);
    s.send(R"({"id": 11, "batch": 4})");
    QTest::qWait(1000); // the idle parent hands it over at once; the stopped worker cannot answer
    QCOMPARE(::kill(victim, SIGKILL), 0);
    const QJsonObject lost = s.next();
    QCOMPARE(lost.value(QLatin1String("id")).toInt(), 11);
    QCOMPARE(lost.value(QLatin1String("ok")).toBool(true), false);
    const QJsonObject error = lost.value(QLatin1String("error")).toObject();
    QCOMPARE(error.value(QLatin1String("stage")).toString(), QStringLiteral("worker"));
    QCOMPARE(
        error.value(QLatin1String("message")).toString(), QStringLiteral("worker %1 killed by SIGKILL").arg(victim));
    s.send(R"({"id": 12, "batch": 4})");
    const QJsonObject after = s.next();
    QVERIFY2(after.value(QLatin1String("ok")).toBool(), QJsonDocument(after).toJson().constData());
    QVERIFY(pidOf(after) != victim);
    QCOMPARE(outputsOf(after), outputsOf(before));
    QCOMPARE(s.finish(), 0);
}

/// A worker that hangs (SIGSTOP) with a request in hand (issue 41 item 5): with --request-timeout 2
/// the request is answered with a `deadline` error naming the deadline and the worker, the worker
/// is killed (and reaped: no process left) and replaced, and the next request is served by the
/// replacement with the same outputs. One server start and the 2 s deadline: a few seconds.
/// Label integration.
void TestServe::hungWorkerMeetsTheDeadline()
{
    Server s({m_bundle, QStringLiteral("--isolation"), QStringLiteral("worker"), QStringLiteral("--workers"),
              QStringLiteral("1"), QStringLiteral("--request-timeout"), QStringLiteral("2")});
    QVERIFY(s.started());
    s.send(R"({"id": 1, "batch": 4})");
    const QJsonObject before = s.next();
    QVERIFY2(before.value(QLatin1String("ok")).toBool(), QJsonDocument(before).toJson().constData());
    const int victim = pidOf(before);
    QVERIFY(victim > 0);
    QCOMPARE(::kill(victim, SIGSTOP), 0);
    s.send(R"({"id": 2, "batch": 4})");
    const QJsonObject late = s.next(); // the stopped worker cannot answer: the deadline does
    QCOMPARE(late.value(QLatin1String("id")).toInt(), 2);
    QCOMPARE(late.value(QLatin1String("ok")).toBool(true), false);
    const QJsonObject error = late.value(QLatin1String("error")).toObject();
    QCOMPARE(error.value(QLatin1String("stage")).toString(), QStringLiteral("deadline"));
    const QString message = error.value(QLatin1String("message")).toString();
    QVERIFY2(message.contains(QStringLiteral("worker %1").arg(victim)) && message.contains(QLatin1String("2 s"))
                 && message.contains(QLatin1String("--request-timeout")),
             qPrintable(message));
    QVERIFY(!QFileInfo::exists(QStringLiteral("/proc/%1").arg(victim))); // killed and reaped
    s.send(R"({"id": 3, "batch": 4})");
    const QJsonObject after = s.next();
    QVERIFY2(after.value(QLatin1String("ok")).toBool(), QJsonDocument(after).toJson().constData());
    QVERIFY(pidOf(after) != victim && pidOf(after) > 0);
    QCOMPARE(outputsOf(after), outputsOf(before));
    QCOMPARE(s.finish(), 0);
}

void TestServe::requestIsolationServesOneAfterAnother()
{
    // A parent that had run a forward (libgomp's pool) would leave the second child hanging.
    Server s({m_bundle, QStringLiteral("--isolation"), QStringLiteral("request")});
    QVERIFY(s.started());
    QSet<int> pids;
    for (int i = 1; i <= 5; ++i) {
        s.send(QStringLiteral(R"({"id": %1, "batch": %2})").arg(i).arg(i % 2 ? 4 : 1).toUtf8());
        const QJsonObject a = s.next();
        QCOMPARE(a.value(QLatin1String("id")).toInt(), i);
        QVERIFY2(a.value(QLatin1String("ok")).toBool(), QJsonDocument(a).toJson().constData());
        pids.insert(pidOf(a));
    }
    QCOMPARE(pids.size(), 5); // a fresh worker each time
    QCOMPARE(s.finish(), 0);
}

void TestServe::socketInAPrivateFolder()
{
    const QString folder = m_dir.filePath(QStringLiteral("sock"));
    const QString path = folder + QStringLiteral("/serve.sock");
    QProcess p;
    p.start(
        QStringLiteral(AOTSTUDIO_RUN_PATH), {QStringLiteral("--serve"), m_bundle, QStringLiteral("--socket"), path});
    QVERIFY(p.waitForStarted());
    QElapsedTimer t;
    t.start();
    while (!QFileInfo::exists(path) && t.elapsed() < kTimeoutMs && p.state() == QProcess::Running)
        QTest::qWait(50);
    QVERIFY2(QFileInfo::exists(path), p.readAllStandardError().constData());
    struct stat st {
    };
    QCOMPARE(::stat(folder.toLocal8Bit().constData(), &st), 0);
    QCOMPARE(st.st_mode & 0777, 0700u);

    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    QVERIFY(fd >= 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const QByteArray p8 = path.toLocal8Bit();
    std::memcpy(addr.sun_path, p8.constData(), static_cast<std::size_t>(p8.size()));
    QCOMPARE(::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr), 0);
    const QByteArray requests = "{\"id\": 7, \"batch\": 4}\n{\"id\": 8, \"shutdown\": true}\n";
    QCOMPARE(::write(fd, requests.constData(), static_cast<std::size_t>(requests.size())),
        static_cast<ssize_t>(requests.size()));
    QByteArray got;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0) // the server closes the connection when it exits
        got.append(buf, n);
    ::close(fd);
    const auto lines = got.trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    const QJsonObject a = QJsonDocument::fromJson(lines[0]).object();
    QCOMPARE(a.value(QLatin1String("id")).toInt(), 7);
    QVERIFY2(a.value(QLatin1String("ok")).toBool(), lines[0].constData());
    QCOMPARE(QJsonDocument::fromJson(lines[1]).object().value(QLatin1String("shutdown")).toBool(), true);
    QVERIFY(p.waitForFinished(kTimeoutMs));
    QCOMPARE(p.exitCode(), 0);
    QVERIFY(!QFileInfo::exists(folder)); // socket and folder removed on exit

    // A folder that exists is refused: the server makes its own.
    QVERIFY(QDir().mkpath(folder));
    const Run taken = runTool({QStringLiteral("--serve"), m_bundle, QStringLiteral("--socket"), path});
    QCOMPARE(taken.exitCode, 2);
    QVERIFY2(taken.err.contains("must not exist"), taken.err.constData());
    QVERIFY(QDir(folder).exists());
}

void TestServe::replayReportsServerAndSpawnBaseline()
{
    const QString trace = m_dir.filePath(QStringLiteral("trace.jsonl"));
    {
        QFile f(trace);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"t_ms\": 0, \"batch\": 1}\n{\"t_ms\": 15.5, \"batch\": 4}\n{\"t_ms\": 40}\n");
    }
    const Run j = runTool({QStringLiteral("--replay"), trace, m_bundle, QStringLiteral("--json")});
    QVERIFY2(j.exitCode == 0, j.err.constData());
    QCOMPARE(TestSupport::envelope(j.out).value(QLatin1String("ok")).toBool(), true);
    const QJsonObject r = TestSupport::result(j.out);
    QCOMPARE(r.value(QLatin1String("trace")).toObject().value(QLatin1String("requests")).toInt(), 3);
    QStringList modes;
    for (const auto &m : r.value(QLatin1String("modes")).toArray()) {
        const QJsonObject o = m.toObject();
        modes << o.value(QLatin1String("mode")).toString();
        QCOMPARE(o.value(QLatin1String("ok")).toInt(), 3);
        for (const char *k : {"median_ms", "p99_ms", "service_median_ms"}) {
            const QJsonObject q = o.value(QLatin1String(k)).toObject();
            QVERIFY2(q.value(QLatin1String("estimate")).toDouble() > 0, k);
            QVERIFY2(q.value(QLatin1String("low")).toDouble() <= q.value(QLatin1String("estimate")).toDouble(), k);
        }
        QVERIFY(o.value(QLatin1String("cpu_busy_share")).toDouble(-1) >= 0);
    }
    QCOMPARE(modes, (QStringList{QStringLiteral("request"), QStringLiteral("worker"), QStringLiteral("spawn")}));
    QCOMPARE(r.value(QLatin1String("ratios")).toArray().size(), 2);
    QVERIFY(r.value(QLatin1String("measurement")).toObject().contains(QLatin1String("verdict")));

    const Run text = runTool(
        {QStringLiteral("--replay"), trace, m_bundle, QStringLiteral("--isolation"), QStringLiteral("worker")});
    QVERIFY2(text.exitCode == 0, text.err.constData());
    QVERIFY2(text.out.contains("p50 ms") && text.out.contains("p99 ms") && text.out.contains("\nworker ")
            && text.out.contains("\nspawn ") && !text.out.contains("\nrequest ")
            && text.out.contains("spawn/worker median latency"),
        text.out.constData());
}

namespace {

/// The replay's JSON modes by name.
QMap<QString, QJsonObject> modesOf(const QJsonObject &replay)
{
    QMap<QString, QJsonObject> modes;
    for (const auto &m : replay.value(QLatin1String("modes")).toArray())
        modes.insert(m.toObject().value(QLatin1String("mode")).toString(), m.toObject());
    return modes;
}

QString pythonCommand(const QString &code)
{
    return QStringLiteral("'%1' -c \"%2\"").arg(QStringLiteral(AOTSTUDIO_PYTHON_EXECUTABLE), code);
}

} // namespace

void TestServe::replayWithEagerServerBaseline()
{
    // The engine's Python eager server serves the same trace after the pool modes and spawn: one
    // more mode, a baseline, every request answered, and a ratio of it over each pool mode.
    const QString trace = m_dir.filePath(QStringLiteral("eager-trace.jsonl"));
    {
        QFile f(trace);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"t_ms\": 0, \"batch\": 1}\n{\"t_ms\": 10, \"batch\": 4}\n{\"t_ms\": 20, \"batch\": 2}\n");
    }
    const QString eager = QStringLiteral("'%1' -m aotstudio_frontend.eager_serve sample:mlp cpu")
                              .arg(QStringLiteral(AOTSTUDIO_PYTHON_EXECUTABLE));
    const Run j
        = runTool({QStringLiteral("--replay"), trace, m_bundle, QStringLiteral("--isolation"), QStringLiteral("worker"),
                   QStringLiteral("--eager-server"), eager, QStringLiteral("--json")});
    QVERIFY2(j.exitCode == 0, j.err.right(3000).constData());
    const QJsonObject r = TestSupport::result(j.out);
    QStringList names;
    for (const auto &m : r.value(QLatin1String("modes")).toArray())
        names << m.toObject().value(QLatin1String("mode")).toString();
    QCOMPARE(names, (QStringList{QStringLiteral("worker"), QStringLiteral("spawn"), QStringLiteral("eager")}));
    const auto modes = modesOf(r);
    QCOMPARE(modes[QStringLiteral("eager")].value(QLatin1String("ok")).toInt(), 3);
    QCOMPARE(modes[QStringLiteral("eager")].value(QLatin1String("baseline")).toBool(), true);
    QCOMPARE(modes[QStringLiteral("worker")].value(QLatin1String("baseline")).toBool(true), false);
    QVERIFY(modes[QStringLiteral("eager")]
                .value(QLatin1String("median_ms"))
                .toObject()
                .value(QLatin1String("estimate"))
                .toDouble()
            > 0);
    QStringList ratios;
    for (const auto &q : r.value(QLatin1String("ratios")).toArray())
        ratios << q.toObject().value(QLatin1String("name")).toString();
    QCOMPARE(
        ratios,
        (QStringList{QStringLiteral("spawn/worker median latency"), QStringLiteral("eager/worker median latency")}));

    // Its inputs are the runtime's: the same batch and seed give the eager model the same tensors
    // as the bundle, so the output sums agree within the compiled kernels' rounding.
    QProcess server;
    server.start(QStringLiteral(AOTSTUDIO_PYTHON_EXECUTABLE),
                 {QStringLiteral("-m"), QStringLiteral("aotstudio_frontend.eager_serve"), QStringLiteral("sample:mlp"),
                  QStringLiteral("cpu")});
    QVERIFY(server.waitForStarted());
    server.write("{\"batch\": 4, \"seed\": 3, \"input\": \"\"}\n");
    server.closeWriteChannel();
    QVERIFY(server.waitForFinished(kTimeoutMs));
    const QList<QByteArray> lines = server.readAllStandardOutput().trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    QVERIFY(QJsonDocument::fromJson(lines[0]).object().value(QLatin1String("ready")).toBool());
    const QJsonObject answer = QJsonDocument::fromJson(lines[1]).object();
    QVERIFY2(answer.value(QLatin1String("ok")).toBool(), lines[1].constData());
    const QJsonObject bundle
        = oneShot({QStringLiteral("--batch"), QStringLiteral("4"), QStringLiteral("--seed"), QStringLiteral("3")});
    const double eagerSum = outputsOf(answer).first().toObject().value(QLatin1String("sum")).toDouble();
    const double bundleSum = outputsOf(bundle).first().toObject().value(QLatin1String("sum")).toDouble();
    QVERIFY2(std::abs(eagerSum - bundleSum) <= 1e-3 * std::max(1.0, std::abs(bundleSum)),
             qPrintable(QStringLiteral("eager %1, bundle %2").arg(eagerSum).arg(bundleSum)));
}

void TestServe::eagerServerThatFailsFailsItsModeOnly()
{
    const QString trace = m_dir.filePath(QStringLiteral("fail-trace.jsonl"));
    {
        QFile f(trace);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"t_ms\": 0}\n{\"t_ms\": 5}\n{\"t_ms\": 10}\n");
    }
    const auto replay = [&](const QString &eager) {
        return runTool({QStringLiteral("--replay"), trace, m_bundle, QStringLiteral("--isolation"),
                        QStringLiteral("worker"), QStringLiteral("--eager-server"), eager, QStringLiteral("--json")});
    };
    // One that cannot build its model: exit 1 (a mode answered nothing), its last stderr line named,
    // the other modes measured in full.
    const Run notReady
        = replay(pythonCommand(QStringLiteral("import sys; sys.stderr.write('no such model\\n'); sys.exit(3)")));
    QCOMPARE(notReady.exitCode, 1);
    QCOMPARE(TestSupport::error(notReady.out).value(QLatin1String("stage")).toString(), QStringLiteral("replay"));
    auto modes = modesOf(TestSupport::result(notReady.out));
    QCOMPARE(modes[QStringLiteral("worker")].value(QLatin1String("ok")).toInt(), 3);
    QCOMPARE(modes[QStringLiteral("spawn")].value(QLatin1String("ok")).toInt(), 3);
    QCOMPARE(modes[QStringLiteral("eager")].value(QLatin1String("errors")).toInt(), 3);
    const QString why = modes[QStringLiteral("eager")].value(QLatin1String("first_error")).toString();
    QVERIFY2(why.contains(QLatin1String("exited with status 3 before it was ready: no such model")), qPrintable(why));
    // No answer, no latency and no ratio: null, never a 0 ms or a 0.00x that reads as a figure.
    QVERIFY(modes[QStringLiteral("eager")].value(QLatin1String("median_ms")).isNull());
    QVERIFY(modes[QStringLiteral("worker")].value(QLatin1String("median_ms")).isObject());
    QStringList ratioNames;
    for (const auto &q : TestSupport::result(notReady.out).value(QLatin1String("ratios")).toArray())
        ratioNames << q.toObject().value(QLatin1String("name")).toString();
    QCOMPARE(ratioNames, QStringList{QStringLiteral("spawn/worker median latency")});

    // One that dies on its first request: that request fails naming it, the server is started again
    // for the next (which dies likewise), and the replay still ends.
    const Run dies = replay(pythonCommand(
        QStringLiteral("import sys; print('{\\\"ready\\\": true}', flush=True); sys.stdin.readline(); sys.exit(4)")));
    QCOMPARE(dies.exitCode, 1);
    modes = modesOf(TestSupport::result(dies.out));
    QCOMPARE(modes[QStringLiteral("eager")].value(QLatin1String("errors")).toInt(), 3);
    const QString died = modes[QStringLiteral("eager")].value(QLatin1String("first_error")).toString();
    QVERIFY2(died.startsWith(QLatin1String("eager server "))
                 && died.contains(QLatin1String("exited with status 4 before answering")),
             qPrintable(died));

    // A command that is not there: named, exit 1.
    const Run missing = replay(QStringLiteral("/nonexistent/python -m x"));
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(modesOf(TestSupport::result(missing.out))[QStringLiteral("eager")]
                 .value(QLatin1String("first_error"))
                 .toString()
                 .contains(QLatin1String("/nonexistent/python")),
             missing.out.constData());
}

void TestServe::usageErrors()
{
    for (const QStringList &args :
         {QStringList{QStringLiteral("--workers"), QStringLiteral("2"), m_bundle},
          QStringList{QStringLiteral("--serve"), m_bundle, QStringLiteral("--batch"), QStringLiteral("2")},
          QStringList{QStringLiteral("--serve"), m_bundle, QStringLiteral("--isolation"), QStringLiteral("thread")},
          QStringList{QStringLiteral("--seconds"), QStringLiteral("3"), m_bundle},
          QStringList{QStringLiteral("--eager-server"), QStringLiteral("python3"), m_bundle},
          QStringList{QStringLiteral("--poisson"), QStringLiteral("0"), m_bundle},
          QStringList{QStringLiteral("--poisson"), QStringLiteral("2"), m_bundle, QStringLiteral("--eager-server"),
                      QStringLiteral("python3 $(touch /tmp/aotstudio-not-run)")},
          QStringList{QStringLiteral("--poisson"), QStringLiteral("2"), m_bundle, QStringLiteral("--eager-server"),
                      QStringLiteral("python3 'unclosed")}}) {
        const Run r = runTool(args);
        QVERIFY2(r.exitCode == 2, qPrintable(args.join(' ') + ": " + QString::fromUtf8(r.err)));
        const Run j = runTool(args + QStringList{QStringLiteral("--json")});
        QCOMPARE(j.exitCode, 2);
        QCOMPARE(TestSupport::error(j.out).value(QLatin1String("code")).toString(), QStringLiteral("usage"));
    }
    const QString bad = m_dir.filePath(QStringLiteral("bad-trace.jsonl"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"batch\": 1}\n");
    f.close();
    const Run r = runTool({QStringLiteral("--replay"), bad, m_bundle});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("line 1"), r.err.constData());
}

void TestServe::trustRulesApplyBeforeServing()
{
    // The one-shot run's rules, through the same code: with a trust store, an unsigned bundle is
    // refused (exit 1) before anything is served or replayed, unless --allow-unsigned.
    const QString key = m_dir.filePath(QStringLiteral("someone.key"));
    const Run k = TestSupport::run(QStringLiteral(AOTSTUDIO_CLI_PATH), {QStringLiteral("keygen"), key}, 60000);
    QVERIFY2(k.exitCode == 0, k.err.constData());
    const QString pub = key + QStringLiteral(".pub");
    for (const QStringList &mode : {QStringList{QStringLiteral("--serve")},
             QStringList{
                 QStringLiteral("--poisson"), QStringLiteral("5"), QStringLiteral("--seconds"), QStringLiteral("1")}}) {
        const Run refused = runTool(mode + QStringList{m_bundle, QStringLiteral("--trust"), pub});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(lastLine(refused.err).contains("is unsigned"), refused.err.constData());
        QVERIFY(refused.out.isEmpty());
    }
    Server s({m_bundle, QStringLiteral("--trust"), pub, QStringLiteral("--allow-unsigned")});
    QVERIFY(s.started());
    s.send(R"({"id": 1, "batch": 1})");
    QVERIFY(s.next().value(QLatin1String("ok")).toBool());
    QCOMPARE(s.finish(), 0);
}

QTEST_GUILESS_MAIN(TestServe)
#include "tst_serve.moc"
