// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-engine --serve spoken to over stdio, as the studio does: handshake, bad lines,
// unknown types, errors that leave the engine up, cancel (running and queued), shutdown.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestEngine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void handshake();
    void badLinesAndUnknownTypes();
    void errorKeepsEngineUp();
    void badModelKeepsEngineUp_data();
    void badModelKeepsEngineUp();
    void compileFactoryKeepsStreamClean();
    void failedVerifyFreesTheFolder();
    void requestChecks();
    void cancelRunning();
    void cancelDuringNativeBuild();
    void cancelQueued();
    void shutdown();

private:
    void send(const QByteArray &json);
    /// Next protocol message (every stdout line must be a JSON object: fails the test otherwise).
    QJsonObject next(int timeoutMs = 300000);
    /// Next message matching `type` and `id`, skipping others (progress, log, ...).
    QJsonObject waitFor(const QString &type, qint64 id, int timeoutMs = 300000);

    QProcess m_engine;
    QList<QJsonObject> m_pending;
    QTemporaryDir m_dir;
};

void TestEngine::send(const QByteArray &json)
{
    m_engine.write(json + '\n');
    QVERIFY(m_engine.waitForBytesWritten(5000));
}

QJsonObject TestEngine::next(int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!m_engine.canReadLine()) {
        if (t.elapsed() > timeoutMs || m_engine.state() != QProcess::Running)
            return {};
        m_engine.waitForReadyRead(100);
    }
    const QByteArray line = m_engine.readLine().trimmed();
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        qWarning("not a protocol line on stdout: %s", line.constData());
        return {{QStringLiteral("type"), QStringLiteral("<garbage>")}};
    }
    return doc.object();
}

QJsonObject TestEngine::waitFor(const QString &type, qint64 id, int timeoutMs)
{
    for (int i = 0; i < m_pending.size(); ++i) {
        const auto &m = m_pending.at(i);
        if (m.value(QLatin1String("type")).toString() == type && m.value(QLatin1String("id")).toInteger() == id)
            return m_pending.takeAt(i);
    }
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        const QJsonObject m = next(timeoutMs - int(t.elapsed()));
        if (m.isEmpty())
            break;
        if (m.value(QLatin1String("type")).toString() == QLatin1String("<garbage>"))
            return m;
        if (m.value(QLatin1String("type")).toString() == type && m.value(QLatin1String("id")).toInteger() == id)
            return m;
        m_pending.append(m);
    }
    return {};
}

void TestEngine::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_engine.setProcessChannelMode(QProcess::SeparateChannels);
    m_engine.setReadChannel(QProcess::StandardOutput);
    m_engine.start(QStringLiteral(AOTSTUDIO_ENGINE_PATH), {QStringLiteral("--serve")});
    QVERIFY(m_engine.waitForStarted());
}

void TestEngine::handshake()
{
    const QJsonObject hello = next(120000);
    QCOMPARE(hello.value(QLatin1String("type")).toString(), QStringLiteral("hello")); // the very first line
    QCOMPARE(hello.value(QLatin1String("id")).toInt(), 0);
    QCOMPARE(hello.value(QLatin1String("protocol")).toInt(), 1);
    QVERIFY(!hello.value(QLatin1String("engine_version")).toString().isEmpty());
    QVERIFY(hello.value(QLatin1String("torch_version")).toString().startsWith(QLatin1String("2.")));
    QVERIFY(hello.value(QLatin1String("devices")).toArray().size() >= 1);
    QCOMPARE(hello.value(QLatin1String("devices")).toArray().first().toObject().value(QLatin1String("type")).toString(),
             QStringLiteral("cpu"));
}

void TestEngine::badLinesAndUnknownTypes()
{
    send("this is not json");
    const QJsonObject e = waitFor(QStringLiteral("error"), 0, 10000);
    QCOMPARE(e.value(QLatin1String("code")).toString(), QStringLiteral("bad_request"));
    send(R"({"type":"compile"})"); // no id
    QCOMPARE(waitFor(QStringLiteral("error"), 0, 10000).value(QLatin1String("code")).toString(), QStringLiteral("bad_request"));
    send(R"({"type":"frobnicate","id":7,"whatever":[1,2]})"); // skipped, not fatal
    send(R"({"type":"ping","id":8})");
    QVERIFY(!waitFor(QStringLiteral("pong"), 8, 10000).isEmpty());
    QCOMPARE(m_engine.state(), QProcess::Running);
}

void TestEngine::errorKeepsEngineUp()
{
    send(QStringLiteral(R"({"type":"compile","id":10,"model":"sample:does-not-exist","device":"cpu","out":"%1"})")
             .arg(m_dir.filePath(QStringLiteral("e10")))
             .toUtf8());
    const QJsonObject e = waitFor(QStringLiteral("error"), 10, 60000);
    QCOMPARE(e.value(QLatin1String("code")).toString(), QStringLiteral("unknown_model"));
    QCOMPARE(e.value(QLatin1String("stage")).toString(), QStringLiteral("load"));
    QVERIFY(!e.value(QLatin1String("hint")).toString().isEmpty());
    // The message and hint by id (FORMAT.md "Message ids"): raised in Python, carried through C++.
    const QJsonObject msg = e.value(QLatin1String("message_msg")).toObject();
    QCOMPARE(msg.value(QLatin1String("id")).toString(), QStringLiteral("load.unknown_sample"));
    QCOMPARE(msg.value(QLatin1String("args")).toObject().value(QLatin1String("name")).toString(),
             QStringLiteral("does-not-exist"));
    QCOMPARE(e.value(QLatin1String("hint_msg")).toObject().value(QLatin1String("id")).toString(),
             QStringLiteral("load.unknown_sample.hint"));
    send(R"({"type":"ping","id":11})");
    QVERIFY(!waitFor(QStringLiteral("pong"), 11, 10000).isEmpty());
}

void TestEngine::badModelKeepsEngineUp_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("stage");
    const QString f = QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/");
    QTest::newRow("factory raises") << f + QStringLiteral("raising_factory.py:make") << QStringLiteral("model_error") << QStringLiteral("load");
    QTest::newRow("data-dependent control flow") << f + QStringLiteral("control_flow_factory.py:make") << QStringLiteral("export_failed")
                                                 << QStringLiteral("export");
    QTest::newRow("op export cannot capture") << f + QStringLiteral("unsupported_factory.py:make") << QStringLiteral("export_failed")
                                              << QStringLiteral("export");
    QTest::newRow("wrong input shape") << f + QStringLiteral("wrong_inputs_factory.py:make") << QStringLiteral("model_error")
                                       << QStringLiteral("load");
    QTest::newRow("not an ExportedProgram") << f + QStringLiteral("not_a_program.pt2") << QStringLiteral("model_error")
                                            << QStringLiteral("load");
    QTest::newRow("truncated .pt2") << f + QStringLiteral("tiny_program_truncated.pt2") << QStringLiteral("model_error")
                                    << QStringLiteral("load");
}

void TestEngine::badModelKeepsEngineUp()
{
    QFETCH(QString, model);
    QFETCH(QString, code);
    QFETCH(QString, stage);
    static qint64 id = 100;
    id += 2;
    send(QStringLiteral(R"({"type":"compile","id":%1,"model":"%2","device":"cpu","out":"%3"})")
             .arg(id)
             .arg(model, m_dir.filePath(QStringLiteral("bad%1").arg(id)))
             .toUtf8());
    const QJsonObject e = waitFor(QStringLiteral("error"), id, 120000);
    QCOMPARE(e.value(QLatin1String("code")).toString(), code);
    QCOMPARE(e.value(QLatin1String("stage")).toString(), stage);
    QVERIFY(!e.value(QLatin1String("message")).toString().isEmpty());
    QVERIFY(!e.value(QLatin1String("hint")).toString().isEmpty());
    send(QStringLiteral(R"({"type":"ping","id":%1})").arg(id + 1).toUtf8());
    QVERIFY(!waitFor(QStringLiteral("pong"), id + 1, 10000).isEmpty());
    QCOMPARE(m_engine.state(), QProcess::Running);
}

void TestEngine::compileFactoryKeepsStreamClean()
{
    // The factory prints to stdout; the protocol stream must stay pure JSON (next() flags garbage).
    const QString out = m_dir.filePath(QStringLiteral("c20"));
    send(QStringLiteral(R"({"type":"compile","id":20,"model":"%1/tiny_factory.py:make","device":"cpu","out":"%2","runs":5,"min_runs":3,"warmup":1})")
             .arg(QStringLiteral(AOTSTUDIO_FIXTURES_DIR), out)
             .toUtf8());
    QStringList stages;
    QStringList snapshots;
    QJsonObject result;
    for (;;) {
        const QJsonObject m = next();
        const QString type = m.value(QLatin1String("type")).toString();
        QVERIFY2(!m.isEmpty() && type != QLatin1String("<garbage>"), "engine stream ended or carried a non-JSON line");
        if (m.value(QLatin1String("id")).toInteger() != 20)
            continue;
        if (type == QLatin1String("stage_done"))
            stages << m.value(QLatin1String("stage")).toString();
        if (type == QLatin1String("snapshot")) {
            snapshots << m.value(QLatin1String("stage")).toString();
            QVERIFY(QFileInfo(m.value(QLatin1String("path")).toString()).isFile());
            QVERIFY(m.value(QLatin1String("nodes")).toInt() > 0);
        }
        if (type == QLatin1String("error"))
            QFAIL(qPrintable(m.value(QLatin1String("message")).toString()));
        if (type == QLatin1String("result")) {
            result = m.value(QLatin1String("result")).toObject();
            break;
        }
    }
    QCOMPARE(stages, (QStringList{QStringLiteral("load"), QStringLiteral("export"), QStringLiteral("decompose"), QStringLiteral("compile"),
                                  QStringLiteral("load_package"), QStringLiteral("verify"), QStringLiteral("measure")}));
    // Snapshot events arrive as they are taken: export, core ATen, then Inductor's phases.
    QVERIFY2(snapshots.size() >= 4, qPrintable(snapshots.join(QLatin1Char(' '))));
    QCOMPARE(snapshots.mid(0, 2), (QStringList{QStringLiteral("capture"), QStringLiteral("decompose")}));
    QVERIFY(snapshots.contains(QLatin1String("post_grad")));
    QCOMPARE(result.value(QLatin1String("package")).toString(), QDir(out).filePath(QStringLiteral("model.pt2")));
    QVERIFY(QFileInfo(result.value(QLatin1String("package")).toString()).isFile());
    QVERIFY(result.value(QLatin1String("max_abs_error")).toDouble(-1) < 1e-4);
}

void TestEngine::failedVerifyFreesTheFolder()
{
    // A job that failed verification must let go of its output folder (its lock) at once: the next
    // compile into the same folder, in the same engine, runs instead of being refused as "in use".
    const QString out = m_dir.filePath(QStringLiteral("c30"));
    send(QStringLiteral(R"({"type":"compile","id":30,"model":"%1/nondeterministic_factory.py:make","device":"cpu","out":"%2","runs":3,"min_runs":1,"warmup":1})")
             .arg(QStringLiteral(AOTSTUDIO_FIXTURES_DIR), out)
             .toUtf8());
    const QJsonObject e = waitFor(QStringLiteral("error"), 30);
    QCOMPARE(e.value(QLatin1String("code")).toString(), QStringLiteral("mismatch"));
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/model.unverified.pt2")));
    send(QStringLiteral(R"({"type":"compile","id":31,"model":"%1/tiny_factory.py:make","device":"cpu","out":"%2","runs":3,"min_runs":1,"warmup":1})")
             .arg(QStringLiteral(AOTSTUDIO_FIXTURES_DIR), out)
             .toUtf8());
    const QJsonObject r = waitFor(QStringLiteral("result"), 31);
    QVERIFY2(!r.isEmpty(), "the second compile into the same folder got no result");
    QCOMPARE(r.value(QLatin1String("result")).toObject().value(QLatin1String("package")).toString(), out + QStringLiteral("/model.pt2"));
    QVERIFY(!QFileInfo::exists(out + QStringLiteral("/model.unverified.pt2")));
}

void TestEngine::requestChecks()
{
    // A field of the wrong type is a bad request naming the field.
    send(QStringLiteral(R"({"type":"compile","id":60,"model":"sample:mlp","device":"cpu","out":"%1","runs":"many"})")
             .arg(m_dir.filePath(QStringLiteral("r60"))).toUtf8());
    QJsonObject e = waitFor(QStringLiteral("error"), 60, 60000);
    QCOMPARE(e.value(QLatin1String("code")).toString(), QStringLiteral("bad_request"));
    QVERIFY(e.value(QLatin1String("message")).toString().contains(QLatin1String("'runs'")));
    // cancel without a target, and of an unknown job, are answered.
    send(R"({"type":"cancel","id":61})");
    QCOMPARE(waitFor(QStringLiteral("error"), 61, 10000).value(QLatin1String("code")).toString(), QStringLiteral("bad_request"));
    send(R"({"type":"cancel","id":62,"target":99999})");
    QVERIFY(waitFor(QStringLiteral("error"), 62, 10000).value(QLatin1String("message")).toString().contains(QLatin1String("99999")));
    // A second request with the id of an active job is refused (id 0) and the active job goes on.
    send(QStringLiteral(R"({"type":"compile","id":63,"model":"sample:mlp","device":"cpu","out":"%1"})")
             .arg(m_dir.filePath(QStringLiteral("r63"))).toUtf8());
    send(QStringLiteral(R"({"type":"compile","id":63,"model":"sample:mlp","device":"cpu","out":"%1"})")
             .arg(m_dir.filePath(QStringLiteral("r63b"))).toUtf8());
    e = waitFor(QStringLiteral("error"), 0, 10000);
    QVERIFY(e.value(QLatin1String("message")).toString().contains(QLatin1String("already used")));
    send(R"({"type":"cancel","id":64,"target":63})");
    QCOMPARE(waitFor(QStringLiteral("error"), 63, 300000).value(QLatin1String("code")).toString(), QStringLiteral("cancelled"));
}

void TestEngine::cancelRunning()
{
    const QString out = m_dir.filePath(QStringLiteral("c30"));
    // cache false: a reused package could finish before the cancel arrives.
    send(QStringLiteral(R"({"type":"compile","id":30,"model":"sample:mlp","device":"cpu","out":"%1","cache":false})")
             .arg(out)
             .toUtf8());
    QVERIFY(!waitFor(QStringLiteral("progress"), 30, 60000).isEmpty()); // it is running
    QElapsedTimer t;
    t.start();
    send(R"({"type":"cancel","id":31,"target":30})");
    const QJsonObject e = waitFor(QStringLiteral("error"), 30, 300000);
    QCOMPARE(e.value(QLatin1String("code")).toString(), QStringLiteral("cancelled"));
    qInfo("cancel took %lld ms (stage %s)", t.elapsed(), qPrintable(e.value(QLatin1String("stage")).toString()));
    // Whatever stage it stopped at, no half-written package is left behind.
    const QStringList partial = QDir(out).entryList({QStringLiteral(".partial-*")}, QDir::Files | QDir::Hidden);
    QVERIFY2(partial.isEmpty(), qPrintable(partial.join(QLatin1Char(' '))));
    send(R"({"type":"ping","id":32})");
    QVERIFY(!waitFor(QStringLiteral("pong"), 32, 300000).isEmpty());
}

namespace {

/// Processes below `root` (by parent pid, at any depth) whose executable's base name is `name`.
QList<qint64> descendantsNamed(qint64 root, const QString &name)
{
    QHash<qint64, qint64> parent;
    QHash<qint64, QString> exe;
    for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool ok = false;
        const qint64 pid = entry.toLongLong(&ok);
        if (!ok)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = stat.readAll();
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' '); // state ppid ...
        if (fields.size() < 2 || fields.at(0) == "Z")
            continue;
        parent.insert(pid, fields.at(1).toLongLong());
        exe.insert(pid, QFileInfo(QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(pid))).fileName());
    }
    QList<qint64> found;
    for (auto it = parent.cbegin(); it != parent.cend(); ++it) {
        if (exe.value(it.key()) != name)
            continue;
        for (qint64 p = it.value(), hops = 0; p > 1 && hops < 64; p = parent.value(p, 0), ++hops)
            if (p == root) {
                found.append(it.key());
                break;
            }
    }
    return found;
}

} // namespace

void TestEngine::cancelDuringNativeBuild()
{
    // Issue 41: a cancel while the generated C++ is being built ends the compiler (it used to run
    // to its end, ~30 s here) and leaves the same engine ready; the time to stop is printed.
    const qint64 engine = m_engine.processId();
    const QString out = m_dir.filePath(QStringLiteral("c35"));
    // cache false: a reused package or a ccache hit would leave no native build to cancel.
    send(QStringLiteral(R"({"type":"compile","id":35,"model":"sample:mlp","device":"cpu","out":"%1","cache":false})")
             .arg(out)
             .toUtf8());
    QElapsedTimer waited;
    waited.start();
    // Inductor also runs short probes (its vector-ISA check); wait for a compiler that has run
    // for 2 s, i.e. the package's build.
    QHash<qint64, qint64> firstSeen;
    bool building = false;
    while (!building && waited.elapsed() < 240000) {
        QTest::qWait(50);
        for (const qint64 pid : descendantsNamed(engine, QStringLiteral("cc1plus"))) {
            firstSeen.insert(pid, firstSeen.value(pid, waited.elapsed()));
            building = building || waited.elapsed() - firstSeen.value(pid) >= 2000;
        }
    }
    QVERIFY2(building, "the compile never ran the C++ compiler (cc1plus) below the engine for 2 s");
    qInfo("the package's C++ build started %lld ms after the request", waited.elapsed() - 2000);
    QElapsedTimer t;
    t.start();
    send(R"({"type":"cancel","id":36,"target":35})");
    const QJsonObject e = waitFor(QStringLiteral("error"), 35, 300000);
    const qint64 ms = t.elapsed();
    QCOMPARE(e.value(QLatin1String("code")).toString(), QStringLiteral("cancelled"));
    QCOMPARE(e.value(QLatin1String("stage")).toString(), QStringLiteral("compile"));
    qInfo("cancel during the native build took %lld ms", ms);
    // The job's log says which build tools it ended, by message id.
    bool logged = false;
    for (const QJsonObject &m : std::as_const(m_pending))
        logged = logged
            || (m.value(QLatin1String("type")).toString() == QLatin1String("log")
                && m.value(QLatin1String("id")).toInteger() == 35
                && m.value(QLatin1String("message_msg")).toObject().value(QLatin1String("id")).toString()
                    == QLatin1String("cancel.native_build"));
    QVERIFY2(logged, "no cancel.native_build log line for the ended compiler");
    QVERIFY(descendantsNamed(engine, QStringLiteral("cc1plus")).isEmpty());
    // The same engine answers, and compiles again (no restart).
    QCOMPARE(m_engine.processId(), engine);
    send(R"({"type":"ping","id":37})");
    QVERIFY(!waitFor(QStringLiteral("pong"), 37, 30000).isEmpty());
    const QStringList partial = QDir(out).entryList({QStringLiteral(".partial-*")}, QDir::AllEntries | QDir::Hidden);
    QVERIFY2(partial.isEmpty(), qPrintable(partial.join(QLatin1Char(' '))));
}

void TestEngine::cancelQueued()
{
    send(QStringLiteral(R"({"type":"compile","id":40,"model":"sample:mlp","device":"cpu","out":"%1"})")
             .arg(m_dir.filePath(QStringLiteral("c40"))).toUtf8());
    send(QStringLiteral(R"({"type":"compile","id":41,"model":"sample:mlp","device":"cpu","out":"%1"})")
             .arg(m_dir.filePath(QStringLiteral("c41"))).toUtf8());
    send(R"({"type":"cancel","id":42,"target":41})");
    send(R"({"type":"cancel","id":43,"target":40})");
    const QJsonObject queued = waitFor(QStringLiteral("error"), 41, 300000);
    QCOMPARE(queued.value(QLatin1String("code")).toString(), QStringLiteral("cancelled"));
    QCOMPARE(queued.value(QLatin1String("stage")).toString(), QStringLiteral("queued"));
    // A C++ message by id: its English text is the catalog's.
    QCOMPARE(queued.value(QLatin1String("message")).toString(), QStringLiteral("cancelled before it started"));
    QCOMPARE(queued.value(QLatin1String("message_msg")).toObject().value(QLatin1String("id")).toString(),
             QStringLiteral("cancel.queued"));
    QCOMPARE(waitFor(QStringLiteral("error"), 40, 300000).value(QLatin1String("code")).toString(), QStringLiteral("cancelled"));
    QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("c41/model.pt2"))));
}

void TestEngine::shutdown()
{
    send(R"({"type":"shutdown","id":50})");
    QVERIFY(m_engine.waitForFinished(120000));
    QCOMPARE(m_engine.exitStatus(), QProcess::NormalExit);
    QCOMPARE(m_engine.exitCode(), 0);
}

QTEST_GUILESS_MAIN(TestEngine)
#include "tst_engine.moc"
