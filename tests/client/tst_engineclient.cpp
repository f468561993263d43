// SPDX-License-Identifier: GPL-3.0-or-later
// EngineClient against tests/fixtures/fake_engine.py, which speaks protocol 1 without torch.
#include "client/compileresult.h"
#include "client/engineclient.h"
#include "client/exportresult.h"
#include "client/session.h"
#include "client/stagenames.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <csignal>
#include <sys/types.h>
#include <unistd.h>

using namespace AotStudio::Client;

class TestEngineClient : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    static std::unique_ptr<EngineClient> makeClient(const QStringList &extra = {})
    {
        auto client = std::make_unique<EngineClient>();
        client->setEnginePath(QStringLiteral(AOTSTUDIO_FAKE_ENGINE));
        client->setExtraArguments(extra);
        return client;
    }

    static CompileRequest request(const QString &model, const QString &out)
    {
        CompileRequest r;
        r.model = model;
        r.out = out;
        return r;
    }

    /// A client for tests/fixtures/fake_session_ssh.py installed as `ssh` first on PATH, with
    /// its state in `state` and `scenario` (reattach, lost, down).
    std::unique_ptr<EngineClient> makeSessionClient(const QString &state, const QString &scenario)
    {
        const QString bin = m_dir.filePath(QStringLiteral("fake-ssh-bin"));
        QDir().mkpath(bin);
        QFile ssh(bin + QStringLiteral("/ssh"));
        if (!ssh.exists()) {
            ssh.open(QIODevice::WriteOnly);
            ssh.write("#!/bin/sh\nexec '" AOTSTUDIO_PYTHON3 "' '" AOTSTUDIO_FAKE_SESSION_SSH "' \"$@\"\n");
            ssh.close();
            ssh.setPermissions(ssh.permissions() | QFileDevice::ExeOwner);
        }
        if (!qEnvironmentVariable("PATH").startsWith(bin))
            qputenv("PATH", (bin + QLatin1Char(':') + qEnvironmentVariable("PATH")).toLocal8Bit());
        qputenv("FAKE_SSH_STATE", state.toLocal8Bit());
        qputenv("FAKE_SSH_SCENARIO", scenario.toLocal8Bit());
        auto client = std::make_unique<EngineClient>();
        RemoteEngine remote;
        remote.host = QStringLiteral("fake-host");
        remote.enginePath = QStringLiteral("/opt/aot/bin/aotstudio-engine");
        client->setRemote(remote);
        return client;
    }

    /// The requests the fake ssh received, in order, over every connection.
    static QList<QJsonObject> fakeSshRequests(const QString &state)
    {
        QList<QJsonObject> requests;
        QFile f(state + QStringLiteral("/requests.jsonl"));
        if (f.open(QIODevice::ReadOnly))
            for (const QByteArray &line : f.readAll().split('\n'))
                if (!line.trimmed().isEmpty())
                    requests << QJsonDocument::fromJson(line).object();
        return requests;
    }

private Q_SLOTS:
    void init()
    {
        qunsetenv("FAKE_IGNORE_CANCEL");
        qunsetenv("FAKE_REQUEST_LOG");
    }

    /// A remote link that drops mid-job (issue 41 item 2) against a scripted detached engine
    /// (tests/fixtures/fake_session_ssh.py): the client reconnects by itself, attaches with the
    /// last seq it saw (3), drops the replayed events it already has (seq 2 and 3: the fake replays
    /// them on purpose), and the job's events 1..5 and its result arrive once each, in order.
    /// Under a second (the first reconnect waits 0.5 s). Label unit.
    void sessionReattachDropsDuplicates()
    {
        QTemporaryDir state;
        auto client = makeSessionClient(state.path(), QStringLiteral("reattach"));
        QSignalSpy ready(client.get(), &EngineClient::handshakeCompleted);
        QSignalSpy progress(client.get(), &EngineClient::progress);
        QSignalSpy results(client.get(), &EngineClient::resultReceived);
        QSignalSpy errors(client.get(), &EngineClient::errorReceived);
        QSignalSpy failed(client.get(), &EngineClient::engineFailed);
        QSignalSpy reconnecting(client.get(), &EngineClient::reconnecting);
        QSignalSpy reattached(client.get(), &EngineClient::reattached);
        client->start();
        QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty() || !failed.isEmpty(), 30000);
        QVERIFY(failed.isEmpty());
        QVERIFY(!client->sessionId().isEmpty());
        const qint64 id = client->submitJob(QStringLiteral("compile"),
                                            QJsonObject{{QStringLiteral("model"), QStringLiteral("sample:mlp")}});
        QVERIFY(id > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!results.isEmpty() || !errors.isEmpty() || !failed.isEmpty(), 30000);
        QVERIFY2(errors.isEmpty() && failed.isEmpty(),
                 failed.isEmpty() ? "job error" : qPrintable(failed.first().first().toString()));
        QCOMPARE(reconnecting.size(), 1);
        QCOMPARE(reconnecting.first().at(0).toInt(), 1);
        QVERIFY2(reconnecting.first().at(2).toString().contains(QLatin1String("fake-host")),
                 qPrintable(reconnecting.first().at(2).toString()));
        QCOMPARE(reattached.size(), 1);
        QCOMPARE(reattached.first().at(0).value<QList<qint64>>(), QList<qint64>{id});
        QVERIFY(reattached.first().at(1).value<QList<qint64>>().isEmpty());
        QCOMPARE(progress.size(), 5); // 1, 2, 3 before the drop; 4, 5 after; the replayed 2, 3 dropped
        for (int i = 0; i < progress.size(); ++i)
            QCOMPARE(progress.at(i).at(3).toString(), QStringLiteral("step %1").arg(i + 1));
        QCOMPARE(results.size(), 1);
        QCOMPARE(client->duplicateEventCount(), 2);
        QVERIFY(client->isReady());
        // What the fake saw: the second connection's attach asked for the events after seq 3, with
        // the same session id on both command lines' --session (one session).
        const QList<QJsonObject> requests = fakeSshRequests(state.path());
        QCOMPARE(requests.size(), 3);
        QCOMPARE(requests.at(0).value(QStringLiteral("type")).toString(), QStringLiteral("attach"));
        QCOMPARE(requests.at(0).value(QStringLiteral("after")).toInteger(), 0);
        QCOMPARE(requests.at(2).value(QStringLiteral("type")).toString(), QStringLiteral("attach"));
        QCOMPARE(requests.at(2).value(QStringLiteral("after")).toInteger(), 3);
    }

    /// The engine that answers the reconnect is another instance (the old one was killed): the
    /// job is reported lost with engine_crashed naming the host and what was kept, once. Label unit.
    void sessionNewInstanceReportsJobLost()
    {
        QTemporaryDir state;
        auto client = makeSessionClient(state.path(), QStringLiteral("lost"));
        QSignalSpy ready(client.get(), &EngineClient::handshakeCompleted);
        QSignalSpy errors(client.get(), &EngineClient::errorReceived);
        QSignalSpy results(client.get(), &EngineClient::resultReceived);
        QSignalSpy reattached(client.get(), &EngineClient::reattached);
        client->start();
        QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty(), 30000);
        const qint64 id = client->submitJob(QStringLiteral("compile"),
                                            QJsonObject{{QStringLiteral("model"), QStringLiteral("sample:mlp")}});
        QTRY_VERIFY_WITH_TIMEOUT(!reattached.isEmpty(), 30000);
        QCOMPARE(errors.size(), 1);
        QCOMPARE(errors.first().at(0).toLongLong(), id);
        const auto error = errors.first().at(1).value<EngineError>();
        QCOMPARE(error.code, QStringLiteral("engine_crashed"));
        QVERIFY2(error.message.contains(QLatin1String("fake-host")) && error.message.contains(QLatin1String("lost"))
                     && error.message.contains(QLatin1String("kept")),
                 qPrintable(error.message));
        QCOMPARE(reattached.first().at(1).value<QList<qint64>>(), QList<qint64>{id});
        QVERIFY(results.isEmpty());
        QVERIFY(client->isReady());
        QVERIFY(client->activeJobs().isEmpty());
        // A new instance is asked for everything (after 0).
        const QList<QJsonObject> requests = fakeSshRequests(state.path());
        QCOMPARE(requests.last().value(QStringLiteral("after")).toInteger(), 0);
    }

    /// The host does not come back: after reconnectAttempts() failed attempts (2 here: 0.5 + 1 s
    /// of backoff) the job ends with engine_crashed and the engine is reported failed, saying how
    /// many attempts failed and the last one's reason. Label unit.
    void sessionGivesUpAfterAttempts()
    {
        QTemporaryDir state;
        auto client = makeSessionClient(state.path(), QStringLiteral("down"));
        client->setReconnectAttempts(2);
        QSignalSpy ready(client.get(), &EngineClient::handshakeCompleted);
        QSignalSpy errors(client.get(), &EngineClient::errorReceived);
        QSignalSpy failed(client.get(), &EngineClient::engineFailed);
        QSignalSpy reconnecting(client.get(), &EngineClient::reconnecting);
        client->start();
        QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty(), 30000);
        const qint64 id = client->submitJob(QStringLiteral("compile"),
                                            QJsonObject{{QStringLiteral("model"), QStringLiteral("sample:mlp")}});
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 30000);
        QCOMPARE(reconnecting.size(), 2);
        QCOMPARE(reconnecting.last().at(0).toInt(), 2);
        const QString reason = failed.first().first().toString();
        QVERIFY2(reason.contains(QLatin1String("Reconnecting failed 2 times"))
                     && reason.contains(QLatin1String("connecting")),
                 qPrintable(reason));
        QCOMPARE(errors.size(), 1);
        QCOMPARE(errors.first().at(0).toLongLong(), id);
        QCOMPARE(errors.first().at(1).value<EngineError>().code, QStringLiteral("engine_crashed"));
        QCOMPARE(client->state(), EngineClient::State::NotRunning);
        QVERIFY(client->sessionId().isEmpty());
    }

    /// Events 4 and 5 fell out of the engine's replay buffer while the link was down (`gap`):
    /// the running job goes on (its result arrives once) and the client says which job lost which
    /// events (eventsLost, a job log line), instead of showing progress 3 then 6 silently. A job
    /// that finished with its end among the dropped events is reported lost, not left waiting.
    /// About a second each. Label unit.
    void sessionGapIsReported_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::newRow("running") << QStringLiteral("gap");
        QTest::newRow("finished") << QStringLiteral("gapfinished");
    }
    void sessionGapIsReported()
    {
        QFETCH(QString, scenario);
        QTemporaryDir state;
        auto client = makeSessionClient(state.path(), scenario);
        QSignalSpy ready(client.get(), &EngineClient::handshakeCompleted);
        QSignalSpy progress(client.get(), &EngineClient::progress);
        QSignalSpy results(client.get(), &EngineClient::resultReceived);
        QSignalSpy errors(client.get(), &EngineClient::errorReceived);
        QSignalSpy lostEvents(client.get(), &EngineClient::eventsLost);
        QSignalSpy reattached(client.get(), &EngineClient::reattached);
        client->start();
        QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty(), 30000);
        const qint64 id = client->submitJob(QStringLiteral("compile"),
                                            QJsonObject{{QStringLiteral("model"), QStringLiteral("sample:mlp")}});
        QTRY_VERIFY_WITH_TIMEOUT(!results.isEmpty() || !errors.isEmpty(), 30000);
        QCOMPARE(reattached.size(), 1);
        if (scenario == QLatin1String("gap")) {
            QVERIFY(errors.isEmpty());
            QCOMPARE(results.size(), 1);
            QCOMPARE(reattached.first().at(0).value<QList<qint64>>(), QList<qint64>{id});
            QCOMPARE(lostEvents.size(), 1);
            QCOMPARE(lostEvents.first().at(0).toLongLong(), id);
            QCOMPARE(lostEvents.first().at(1).toLongLong(), 4);
            QCOMPARE(lostEvents.first().at(2).toLongLong(), 5);
            const QString message = lostEvents.first().at(3).toString();
            QVERIFY2(message.contains(QLatin1String("fake-host")) && message.contains(QLatin1String("missing")),
                     qPrintable(message));
            QCOMPARE(progress.size(), 5); // 1, 2, 3 before the drop; 6, 7 after; 4 and 5 lost
            QCOMPARE(progress.last().at(3).toString(), QStringLiteral("step 7"));
        } else {
            QVERIFY(results.isEmpty());
            QCOMPARE(errors.size(), 1);
            QCOMPARE(errors.first().at(0).toLongLong(), id);
            const auto error = errors.first().at(1).value<EngineError>();
            QCOMPARE(error.code, QStringLiteral("engine_crashed"));
            QVERIFY2(error.message.contains(QLatin1String("replay buffer"))
                         && error.message.contains(QLatin1String("folder on the host")),
                     qPrintable(error.message));
            QCOMPARE(reattached.first().at(1).value<QList<qint64>>(), QList<qint64>{id});
            QVERIFY(lostEvents.isEmpty());
        }
        QVERIFY(client->isReady());
        QVERIFY(client->activeJobs().isEmpty());
    }

    /// Another client attached to the session and the engine let this link go with a `detached`
    /// notice: the client does not reconnect (two clients would take the engine from each other in
    /// turn); the job ends naming the other client, the engine is reported failed. Label unit.
    void sessionTakenOverDoesNotReconnect()
    {
        QTemporaryDir state;
        auto client = makeSessionClient(state.path(), QStringLiteral("replaced"));
        QSignalSpy ready(client.get(), &EngineClient::handshakeCompleted);
        QSignalSpy errors(client.get(), &EngineClient::errorReceived);
        QSignalSpy failed(client.get(), &EngineClient::engineFailed);
        QSignalSpy reconnecting(client.get(), &EngineClient::reconnecting);
        client->start();
        QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty(), 30000);
        const QString session = client->sessionId();
        const qint64 id = client->submitJob(QStringLiteral("compile"),
                                            QJsonObject{{QStringLiteral("model"), QStringLiteral("sample:mlp")}});
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 30000);
        QTest::qWait(1000); // a reconnect would start after 0.5 s
        QVERIFY(reconnecting.isEmpty());
        QFile connections(state.path() + QStringLiteral("/connections"));
        QVERIFY(connections.open(QIODevice::ReadOnly));
        QCOMPARE(connections.readAll().trimmed(), QByteArray("1"));
        const QString reason = failed.first().first().toString();
        QVERIFY2(reason.contains(QLatin1String("another client")) && reason.contains(session), qPrintable(reason));
        QCOMPARE(errors.size(), 1);
        QCOMPARE(errors.first().at(0).toLongLong(), id);
        QVERIFY(errors.first().at(1).value<EngineError>().message.contains(QLatin1String("another client")));
        QVERIFY(client->sessionId().isEmpty()); // nothing asks that engine to shut down later
    }

    /// The engine on the host predates sessions and refuses --session as an unknown option: the
    /// client starts it again without one, says that a drop will end its jobs, and works as before
    /// sessions. Label unit.
    void sessionOlderEngineFallsBack()
    {
        QTemporaryDir state;
        auto client = makeSessionClient(state.path(), QStringLiteral("old"));
        QSignalSpy ready(client.get(), &EngineClient::handshakeCompleted);
        QSignalSpy failed(client.get(), &EngineClient::engineFailed);
        QSignalSpy messages(client.get(), &EngineClient::clientMessage);
        QSignalSpy results(client.get(), &EngineClient::resultReceived);
        client->start();
        QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty() || !failed.isEmpty(), 30000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        QVERIFY(client->sessionId().isEmpty());
        QVERIFY(std::any_of(messages.cbegin(), messages.cend(), [](const QList<QVariant> &m) {
            return m.at(0).toString() == QLatin1String("warning") && m.at(1).toString().contains(QLatin1String("older"))
                && m.at(1).toString().contains(QLatin1String("fake-host"));
        }));
        QFile argv(state.path() + QStringLiteral("/argv.jsonl"));
        QVERIFY(argv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = argv.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines.at(0).contains("--session"));
        QVERIFY(!lines.at(1).contains("--session"));
        client->submitJob(QStringLiteral("compile"),
                          QJsonObject{{QStringLiteral("model"), QStringLiteral("sample:mlp")}});
        QTRY_VERIFY_WITH_TIMEOUT(!results.isEmpty(), 30000);
    }

    void handshake()
    {
        auto client = makeClient();
        QSignalSpy hello(client.get(), &EngineClient::handshakeCompleted);
        client->start();
        QCOMPARE(client->state(), EngineClient::State::Starting);
        QVERIFY(hello.wait(10000));
        QCOMPARE(client->state(), EngineClient::State::Ready);
        const EngineInfo &info = client->engineInfo();
        QCOMPARE(info.protocol, 1);
        QCOMPARE(info.engineVersion, QStringLiteral("0.1.0"));
        QCOMPARE(info.torchVersion, QStringLiteral("2.14.1+fake"));
        QCOMPARE(info.cudaVersion, QStringLiteral("13.0"));
        QCOMPARE(info.pythonVersion, QStringLiteral("3.11.7"));
        QCOMPARE(info.cudaAvailable, false);
        QCOMPARE(info.devices.size(), 1);
        QCOMPARE(info.devices.first().type, QStringLiteral("cpu"));
        QCOMPARE(info.devices.first().label(), QStringLiteral("cpu"));
    }

    void compileReportsProgressThenResult()
    {
        auto client = makeClient();
        const QString recording = m_dir.filePath(QStringLiteral("session.jsonl"));
        QVERIFY(client->setRecordingPath(recording));
        QSignalSpy progress(client.get(), &EngineClient::progress);
        QSignalSpy stages(client.get(), &EngineClient::stageDone);
        QSignalSpy logs(client.get(), &EngineClient::logMessage);
        QSignalSpy results(client.get(), &EngineClient::resultReceived);
        QSignalSpy errors(client.get(), &EngineClient::errorReceived);
        QSignalSpy snapshots(client.get(), &EngineClient::snapshotTaken);
        // Requests made before the handshake are queued, not lost.
        client->start();
        const qint64 id = client->compile(request(QStringLiteral("sample:mlp"), m_dir.path()));
        QVERIFY(id > 0);
        QVERIFY(results.wait(10000));
        QCOMPARE(errors.count(), 0);

        QStringList order;
        for (const auto &args : progress) {
            QCOMPARE(args.at(0).toLongLong(), id);
            order << args.at(1).toString();
        }
        QCOMPARE(order, (QStringList{"load", "export", "decompose", "compile", "load_package",
                                     "verify", "measure"}));
        double last = -1;
        for (const auto &args : progress) {
            QVERIFY(args.at(2).toDouble() > last);
            last = args.at(2).toDouble();
        }
        QCOMPARE(stages.count(), 7);
        QCOMPARE(snapshots.count(), 3);
        const QList<QVariant> pass = snapshots.last();
        QCOMPARE(pass.at(0).toLongLong(), id);
        QCOMPARE(pass.at(1).toString(), QStringLiteral("post_grad"));
        QCOMPARE(pass.at(2).toString(), QStringLiteral("remove_noop_ops"));
        QCOMPARE(pass.at(3).toInt(), 53);
        QVERIFY(pass.at(4).toString().endsWith(QLatin1String("/snapshots/003_remove_noop_ops.json")));
        QCOMPARE(pass.at(5).toDouble(), 0.01);
        QCOMPARE(snapshots.first().at(2).toString(), QString()); // a stage entry has no pass
        QCOMPARE(stages.first().at(3).toJsonObject().value("log").toString(),
                 m_dir.filePath("load.log"));
        QVERIFY(logs.count() >= 1);
        QCOMPARE(logs.first().at(1).toString(), QStringLiteral("info"));

        QCOMPARE(results.first().at(0).toLongLong(), id);
        const CompileResult r = CompileResult::fromJson(results.first().at(1).toJsonObject());
        QCOMPARE(r.model, QStringLiteral("sample:mlp"));
        QCOMPARE(r.package, m_dir.filePath(QStringLiteral("model.pt2")));
        QCOMPARE(r.maxAbsError, 1.2e-7);
        QCOMPARE(r.eagerMs, 0.081);
        QCOMPARE(r.compiledMs, 0.034);
        QCOMPARE(r.speedup, 2.38);
        QCOMPARE(r.runs, 40);
        QCOMPARE(r.eager.runs, 80);
        QCOMPARE(r.compiled.runs, 40);
        QCOMPARE(r.eager.p90Ms, 0.09);
        QVERIFY(r.warnings.isEmpty()); // the field is absent: tolerated
        QVERIFY(client->results().contains(id));
        QVERIFY(client->activeJobs().isEmpty());

        // The unknown message type was skipped and did not disturb anything after it.
        QCOMPARE(client->skippedLineCount(), 1);
        QCOMPARE(client->state(), EngineClient::State::Ready);

        QFile file(recording);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        QVERIFY(lines.first().contains("\"type\":\"hello\""));
        QVERIFY(lines.size() > 10);
    }

    void exportRequestJson()
    {
        ExportRequest r;
        r.from = QStringLiteral("/jobs/mlp");
        r.model = QStringLiteral("sample:ignored"); // `from` wins
        r.out = QStringLiteral("/jobs/mlp-bundle");
        r.buckets = {1, 4, 16};
        r.padSafe = true;
        r.zip = false;
        r.coldStartRuns = 5;
        QJsonObject o = r.toJson(7);
        QCOMPARE(o.value("type").toString(), QStringLiteral("export"));
        QCOMPARE(o.value("id").toInteger(), 7);
        QCOMPARE(o.value("from").toString(), QStringLiteral("/jobs/mlp"));
        QVERIFY(!o.contains("model") && !o.contains("device") && !o.contains("dtype"));
        QCOMPARE(o.value("out").toString(), QStringLiteral("/jobs/mlp-bundle"));
        QCOMPARE(o.value("buckets").toArray(), (QJsonArray{1, 4, 16}));
        QVERIFY(!o.contains("dynamic_batch")); // absent, not null, without a range
        QCOMPARE(o.value("pad_safe").toBool(), true);
        QCOMPARE(o.value("zip").toBool(), false);
        QCOMPARE(o.value("cold_start_runs").toInt(), 5);

        r.from.clear();
        r.device = QStringLiteral("cuda");
        r.dtype = QStringLiteral("bf16");
        r.dynamicBatchMin = 1;
        r.dynamicBatchMax = 64;
        o = r.toJson(8);
        QVERIFY(!o.contains("from"));
        QCOMPARE(o.value("model").toString(), QStringLiteral("sample:ignored"));
        QCOMPARE(o.value("device").toString(), QStringLiteral("cuda"));
        QCOMPARE(o.value("dtype").toString(), QStringLiteral("bf16"));
        QCOMPARE(o.value("dynamic_batch").toArray(), (QJsonArray{1, 64}));
    }

    void exportSendsRequestAndParsesResult()
    {
        const QString log = m_dir.filePath(QStringLiteral("export-requests.log"));
        QFile::remove(log);
        qputenv("FAKE_REQUEST_LOG", log.toLocal8Bit());
        auto client = makeClient();
        QSignalSpy progress(client.get(), &EngineClient::progress);
        QSignalSpy results(client.get(), &EngineClient::resultReceived);
        QSignalSpy errors(client.get(), &EngineClient::errorReceived);
        client->start();
        ExportRequest r;
        r.from = m_dir.path();
        r.out = m_dir.filePath(QStringLiteral("bundle"));
        r.buckets = {1, 4};
        r.dynamicBatchMin = 2;
        r.dynamicBatchMax = 32;
        r.padSafe = true;
        const qint64 id = client->exportBundle(r); // queued until the handshake, like compile
        QVERIFY(id > 0);
        QVERIFY(results.wait(10000));
        QCOMPARE(errors.count(), 0);

        // What went over the wire.
        QFile file(log);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject sent = QJsonDocument::fromJson(file.readLine()).object();
        QCOMPARE(sent, r.toJson(id));
        QCOMPARE(sent.value("dynamic_batch").toArray(), (QJsonArray{2, 32}));

        // Progress: each bucket's compile, scaled into the export, then cold start and package.
        QStringList messages;
        double last = -1;
        for (const auto &args : progress) {
            QCOMPARE(args.at(0).toLongLong(), id);
            QVERIFY(args.at(2).toDouble() > last);
            last = args.at(2).toDouble();
            messages << args.at(3).toString();
        }
        QVERIFY2(messages.first().startsWith(QLatin1String("batch1: ")), qPrintable(messages.first()));
        QCOMPARE(progress.last().at(1).toString(), QStringLiteral("package"));

        QCOMPARE(results.first().at(0).toLongLong(), id);
        const ExportResult e = ExportResult::fromJson(results.first().at(1).toJsonObject());
        QCOMPARE(e.bundle, r.out);
        QCOMPARE(e.zip, r.out + QStringLiteral(".zip"));
        QCOMPARE(e.manifest, r.out + QStringLiteral("/manifest.json"));
        QCOMPARE(e.buckets.size(), 3);
        QCOMPARE(e.buckets.at(0).name, QStringLiteral("batch1"));
        QCOMPARE(e.buckets.at(1).batch, 4);
        QCOMPARE(e.buckets.at(1).package, QStringLiteral("packages/batch4.pt2"));
        QVERIFY(!e.buckets.at(1).isDynamic());
        QVERIFY(e.buckets.at(2).isDynamic());
        QCOMPARE(e.buckets.at(2).batchMin, 2);
        QCOMPARE(e.buckets.at(2).batchMax, 32);
        QVERIFY(e.coldStart.isMeasured());
        QCOMPARE(e.coldStart.bundleMs, 182.4);
        QCOMPARE(e.coldStart.eagerMs, 2431.0);
        QCOMPARE(e.coldStart.ratio, 13.328);
        QCOMPARE(e.coldStart.runs, 3);
        QVERIFY(client->results().contains(id));
        QVERIFY(client->activeJobs().isEmpty());
    }

    void exportResultWithoutColdStart()
    {
        // The engine sends an empty cold_start (no runs asked for) and "" for an unwritten zip.
        const ExportResult e = ExportResult::fromJson(
            QJsonDocument::fromJson(R"({"bundle":"/b","zip":"","buckets":[{"name":"default","batch":8}],
                                        "cold_start":{},"manifest":"/b/manifest.json"})")
                .object());
        QVERIFY(!e.coldStart.isMeasured());
        QVERIFY(e.zip.isEmpty());
        QCOMPARE(e.buckets.size(), 1);
        QCOMPARE(e.buckets.first().batch, 8);
    }

    void exportFailureAndCancel()
    {
        auto client = makeClient();
        QSignalSpy hello(client.get(), &EngineClient::handshakeCompleted);
        QSignalSpy progress(client.get(), &EngineClient::progress);
        QSignalSpy errors(client.get(), &EngineClient::errorReceived);
        client->start();
        QVERIFY(hello.wait(10000));
        ExportRequest r;
        r.from = m_dir.path();
        r.out = m_dir.filePath(QStringLiteral("fail-bundle"));
        const qint64 failed = client->exportBundle(r);
        QVERIFY(errors.wait(10000));
        QCOMPARE(errors.first().at(0).toLongLong(), failed);
        const auto error = errors.first().at(1).value<EngineError>();
        QCOMPARE(error.stage, QStringLiteral("export"));
        QCOMPARE(error.code, QStringLiteral("export_failed"));

        // Cancel works as for compile: cooperative, same engine.
        r.out = m_dir.filePath(QStringLiteral("slow-bundle"));
        const qint64 slow = client->exportBundle(r);
        QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty() && progress.last().at(1) == "compile", 10000);
        client->cancel(slow);
        QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 2, 4000);
        QCOMPARE(errors.last().at(0).toLongLong(), slow);
        QVERIFY(errors.last().at(1).value<EngineError>().isCancellation());
        QCOMPARE(hello.count(), 1);
        QVERIFY(!QFileInfo::exists(r.out));
    }

    void resultParsing_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("eagerRuns");
        QTest::addColumn<int>("compiledRuns");
        QTest::addColumn<QStringList>("warnings");
        QTest::newRow("per-variant objects")
            << QByteArray(R"({"runs":40,"eager":{"runs":80},"compiled":{"runs":40},"warnings":["a"]})")
            << 80 << 40 << QStringList{"a"};
        QTest::newRow("top-level counts only")
            << QByteArray(R"({"runs":40,"eager_runs":80,"compiled_runs":40})") << 80 << 40
            << QStringList{};
        QTest::newRow("no counts, odd warnings")
            << QByteArray(R"({"warnings":[" b ",3,"",null]})") << 0 << 0 << QStringList{"b"};
        QTest::newRow("warnings not an array") << QByteArray(R"({"warnings":"c"})") << 0 << 0
                                               << QStringList{};
    }

    void resultParsing()
    {
        QFETCH(QByteArray, json);
        const CompileResult r = CompileResult::fromJson(QJsonDocument::fromJson(json).object());
        QTEST(r.eager.runs, "eagerRuns");
        QTEST(r.compiled.runs, "compiledRuns");
        QTEST(r.warnings, "warnings");
    }

    void noisyResultCarriesWarnings()
    {
        auto client = makeClient();
        QSignalSpy results(client.get(), &EngineClient::resultReceived);
        client->start();
        client->compile(request(QStringLiteral("fake:noisy"), m_dir.path()));
        QVERIFY(results.wait(10000));
        const CompileResult r = CompileResult::fromJson(results.first().at(1).toJsonObject());
        // The engine's own line, and the verdict's "measurement: noisy: …" (shown on its own line).
        QCOMPARE(r.warnings.size(), 2);
        QVERIFY(r.warnings.first().contains(QLatin1String("noisy")));
        QCOMPARE(r.measurement.verdictName, QStringLiteral("noisy"));
        QCOMPARE(r.otherWarnings(), QStringList{r.warnings.first()});
        QCOMPARE(r.eager.p90Ms, 32.0);
    }

    void stageNames_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QString>("name");
        QTest::newRow("load") << "load" << "Loading the model";
        QTest::newRow("export") << "export" << "Exporting the graph";
        QTest::newRow("decompose") << "decompose" << "Decomposing to core ATen";
        QTest::newRow("compile") << "compile" << "Compiling with AOTInductor";
        QTest::newRow("load_package") << "load_package" << "Loading the package";
        QTest::newRow("verify") << "verify" << "Verifying outputs";
        QTest::newRow("measure") << "measure" << "Measuring latency";
        QTest::newRow("numerics reference") << "reference"
                                            << "Running the float64 reference";
        QTest::newRow("tune trials") << "trials"
                                     << "Compiling the trials";
        QTest::newRow("unknown stays raw") << "profile_kernels" << "profile_kernels";
        QTest::newRow("empty") << "" << "";
    }

    void stageNames()
    {
        QFETCH(QString, stage);
        QTEST(StageNames::displayName(stage), "name");
    }

    void nestedJobLeadsProgressAndLog()
    {
        // A tune trial's events carry `trial`: its progress and its log lines are led by it.
        auto client = makeClient();
        QSignalSpy progress(client.get(), &EngineClient::progress);
        QSignalSpy logs(client.get(), &EngineClient::logMessage);
        QSignalSpy results(client.get(), &EngineClient::resultReceived);
        client->start();
        client->submitJob(QStringLiteral("tune"),
                          QJsonObject{{QStringLiteral("model"), QStringLiteral("sample:mlp")},
                                      {QStringLiteral("device"), QStringLiteral("cpu")},
                                      {QStringLiteral("out"), m_dir.filePath(QStringLiteral("tune"))}});
        QVERIFY(results.wait(10000));
        QStringList logLines, progressLines;
        for (const auto &args : logs)
            logLines << args.at(2).toString();
        for (const auto &args : progress)
            progressLines << args.at(3).toString();
        QVERIFY2(logLines.contains(QStringLiteral("[freezing] verify passed")),
                 qPrintable(logLines.join(QLatin1Char('|'))));
        QVERIFY2(logLines.contains(QStringLiteral("[defaults] verify passed")),
                 qPrintable(logLines.join(QLatin1Char('|'))));
        QVERIFY(progressLines.contains(QStringLiteral("[freezing] running compile")));
        // Events of the tune itself have no trial: no prefix.
        QVERIFY(progressLines.contains(QStringLiteral("running measure")));
    }

    void crashKeepsResultsAndRestartWorks()
    {
        auto client = makeClient();
        QSignalSpy hello(client.get(), &EngineClient::handshakeCompleted);
        QSignalSpy results(client.get(), &EngineClient::resultReceived);
        QSignalSpy failed(client.get(), &EngineClient::engineFailed);
        QSignalSpy errors(client.get(), &EngineClient::errorReceived);
        client->start();
        QVERIFY(hello.wait(10000));
        const qint64 first = client->compile(request(QStringLiteral("sample:mlp"), m_dir.path()));
        QVERIFY(results.wait(10000));

        const qint64 doomed = client->compile(request(QStringLiteral("fake:crash"), m_dir.path()));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
        const QString reason = failed.first().at(0).toString();
        QVERIFY2(reason.contains(QLatin1String("code 1")), qPrintable(reason));
        QVERIFY2(reason.contains(QLatin1String("simulated crash")), qPrintable(reason));
        QCOMPARE(client->state(), EngineClient::State::NotRunning);
        // The lost job still ends, exactly once.
        QCOMPARE(errors.count(), 1);
        QCOMPARE(errors.first().at(0).toLongLong(), doomed);
        QCOMPARE(errors.first().at(1).value<EngineError>().code, QStringLiteral("engine_crashed"));
        QVERIFY(client->results().contains(first));
        QCOMPARE(client->compile(request(QStringLiteral("sample:mlp"), m_dir.path())), 0);

        client->restart();
        QVERIFY(hello.wait(10000));
        const qint64 again = client->compile(request(QStringLiteral("sample:mlp"), m_dir.path()));
        QVERIFY(again > doomed);
        QVERIFY(results.wait(10000));
        QCOMPARE(client->results().size(), 2);
        QVERIFY(client->results().contains(first));
        QVERIFY(client->results().contains(again));
    }

    // Fault injection (issue 19): the engine SIGKILLed at 20 seeded points of a compile while the
    // client records the session as the studio does (JobController's connections). Each time the job
    // ends once (engine_crashed, or its result when it finished first), the session file loads with
    // every event recorded up to the kill, and the next job runs after a restart.
    void sessionLoadsAfterEngineKilled()
    {
        const QByteArray mark = "tst_engineclient-" + QByteArray::number(::getpid());
        qputenv("AOTSTUDIO_FAULT_MARK", mark);
        qputenv("FAKE_STAGE_DELAY", "0.05");
        const auto enginePids = [&] {
            QList<pid_t> found;
            for (const QString &e : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
                bool ok = false;
                const pid_t pid = e.toInt(&ok);
                QFile env(QStringLiteral("/proc/%1/environ").arg(e));
                if (ok && pid != ::getpid() && env.open(QIODevice::ReadOnly) &&
                    env.readAll().split('\0').contains("AOTSTUDIO_FAULT_MARK=" + mark))
                    found.append(pid);
            }
            return found;
        };
        QRandomGenerator random(19);
        auto client = makeClient();
        QSignalSpy hello(client.get(), &EngineClient::handshakeCompleted);
        QSignalSpy results(client.get(), &EngineClient::resultReceived);
        QSignalSpy errors(client.get(), &EngineClient::errorReceived);
        client->start();
        QVERIFY(hello.wait(10000));
        QElapsedTimer timer; // an uninterrupted job's length spans the kill points
        timer.start();
        client->compile(request(QStringLiteral("sample:mlp"), m_dir.path()));
        QVERIFY(results.wait(10000));
        const qint64 duration = qMax<qint64>(timer.elapsed(), 1);
        int crashed = 0;
        for (int point = 0; point < 20; ++point) {
            const QString path = m_dir.filePath(QStringLiteral("killed-%1.aotsession").arg(point));
            Session live;
            QVERIFY(live.startRecording(path, m_dir.path()));
            connect(client.get(), &EngineClient::eventReceived, &live, &Session::apply);
            connect(client.get(), &EngineClient::requestSent, &live, &Session::recordRequest);
            connect(client.get(), &EngineClient::stderrLine, &live,
                    [&live](const QString &line) { live.recordLog(0, QStringLiteral("debug"), line); });
            connect(client.get(), &EngineClient::errorReceived, &live, &Session::recordError);
            if (client->state() != EngineClient::State::Ready) {
                client->restart();
                QVERIFY(hello.wait(10000));
            }
            results.clear();
            errors.clear();
            const qint64 id = client->compile(request(QStringLiteral("sample:mlp"), m_dir.path()));
            QVERIFY(id > 0);
            QTest::qWait(int(random.bounded(duration)));
            for (const pid_t pid : enginePids())
                ::kill(pid, SIGKILL);
            QTRY_VERIFY_WITH_TIMEOUT(results.count() + errors.count() == 1, 10000);
            if (!errors.isEmpty()) {
                QCOMPARE(errors.first().at(1).value<EngineError>().code, QStringLiteral("engine_crashed"));
                ++crashed;
            }
            live.stopRecording();
            disconnect(client.get(), nullptr, &live, nullptr);

            std::unique_ptr<Session> back(Session::load(path));
            QVERIFY(back);
            QCOMPARE(back->eventCount(), live.eventCount());
            QCOMPARE(back->jobs().size(), 1);
            QVERIFY(back->jobs().first().finished());
            QCOMPARE(back->jobs().first().succeeded(), errors.isEmpty());
        }
        qInfo("20 kill points over %lld ms: %d inside the job, %d after it", duration, crashed, 20 - crashed);
        // The next job after the last kill.
        if (client->state() != EngineClient::State::Ready) {
            client->restart();
            QVERIFY(hello.wait(10000));
        }
        results.clear();
        client->compile(request(QStringLiteral("sample:mlp"), m_dir.path()));
        QVERIFY(results.wait(10000));
        qunsetenv("AOTSTUDIO_FAULT_MARK");
        qunsetenv("FAKE_STAGE_DELAY");
    }

    void cancelIsCooperative()
    {
        auto client = makeClient();
        client->setCancelGracePeriod(5000);
        QSignalSpy hello(client.get(), &EngineClient::handshakeCompleted);
        QSignalSpy progress(client.get(), &EngineClient::progress);
        QSignalSpy errors(client.get(), &EngineClient::errorReceived);
        QSignalSpy failed(client.get(), &EngineClient::engineFailed);
        client->start();
        QVERIFY(hello.wait(10000));
        const qint64 id = client->compile(request(QStringLiteral("fake:slow"), m_dir.path()));
        QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty() && progress.last().at(1) == "compile", 10000);
        QElapsedTimer timer;
        timer.start();
        client->cancel(id);
        QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, 5000);
        QVERIFY(timer.elapsed() < client->cancelGracePeriod());
        QCOMPARE(errors.first().at(0).toLongLong(), id);
        const auto error = errors.first().at(1).value<EngineError>();
        QVERIFY(error.isCancellation());
        QCOMPARE(error.stage, QStringLiteral("compile"));
        // The engine honoured the cancel: same process, no restart, no failure.
        QTest::qWait(200);
        QCOMPARE(hello.count(), 1);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(client->state(), EngineClient::State::Ready);
    }

    void cancelEscalatesToKillAndRestart()
    {
        qputenv("FAKE_IGNORE_CANCEL", "1");
        auto client = makeClient();
        client->setCancelGracePeriod(300);
        QSignalSpy hello(client.get(), &EngineClient::handshakeCompleted);
        QSignalSpy results(client.get(), &EngineClient::resultReceived);
        QSignalSpy progress(client.get(), &EngineClient::progress);
        QSignalSpy errors(client.get(), &EngineClient::errorReceived);
        QSignalSpy failed(client.get(), &EngineClient::engineFailed);
        client->start();
        QVERIFY(hello.wait(10000));
        const qint64 done = client->compile(request(QStringLiteral("sample:mlp"), m_dir.path()));
        QVERIFY(results.wait(10000));
        const qint64 id = client->compile(request(QStringLiteral("fake:slow"), m_dir.path()));
        QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty() && progress.last().at(1) == "compile", 10000);
        client->cancel(id);
        QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, 5000);
        QCOMPARE(errors.first().at(0).toLongLong(), id);
        const auto error = errors.first().at(1).value<EngineError>();
        QVERIFY(error.isCancellation());
        QVERIFY2(error.message.contains(QLatin1String("restarted")), qPrintable(error.message));
        // Killed on purpose: a fresh engine comes up and nobody is told it "failed".
        QTRY_COMPARE_WITH_TIMEOUT(hello.count(), 2, 10000);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(client->state(), EngineClient::State::Ready);
        QVERIFY(client->results().contains(done));
        QVERIFY(client->activeJobs().isEmpty());
    }

    void protocolMismatchNamesBothVersions()
    {
        const QString log = m_dir.filePath(QStringLiteral("requests.log"));
        QFile::remove(log);
        qputenv("FAKE_REQUEST_LOG", log.toLocal8Bit());
        auto client = makeClient({QStringLiteral("--protocol"), QStringLiteral("99")});
        QSignalSpy failed(client.get(), &EngineClient::engineFailed);
        QSignalSpy hello(client.get(), &EngineClient::handshakeCompleted);
        QSignalSpy errors(client.get(), &EngineClient::errorReceived);
        client->start();
        const qint64 queued = client->compile(request(QStringLiteral("sample:mlp"), m_dir.path()));
        QVERIFY(failed.wait(10000));
        const QString reason = failed.first().at(0).toString();
        QVERIFY2(reason.contains(QLatin1String("99")), qPrintable(reason));
        QVERIFY2(reason.contains(QLatin1String("version 1")), qPrintable(reason));
        QCOMPARE(hello.count(), 0);
        QCOMPARE(client->state(), EngineClient::State::Failed);
        QCOMPARE(client->engineInfo().protocol, 99);
        QCOMPARE(errors.count(), 1);
        QCOMPARE(errors.first().at(0).toLongLong(), queued);
        QCOMPARE(client->compile(request(QStringLiteral("sample:mlp"), m_dir.path())), 0);
        // The engine exits on EOF; it must have received nothing at all.
        QTest::qWait(300);
        QCOMPARE(failed.count(), 1);
        QVERIFY(!QFile::exists(log) || QFile(log).size() == 0);
    }

    void missingBinaryNamesThePath()
    {
        EngineClient client;
        const QString path = m_dir.filePath(QStringLiteral("no-such-dir/aotstudio-engine"));
        client.setEnginePath(path);
        QSignalSpy failed(&client, &EngineClient::engineFailed);
        client.start();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
        QVERIFY2(failed.first().at(0).toString().contains(path),
                 qPrintable(failed.first().at(0).toString()));
        QCOMPARE(client.state(), EngineClient::State::NotRunning);
    }

    void environmentVariableSelectsEngine()
    {
        const QString path = m_dir.filePath(QStringLiteral("elsewhere/aotstudio-engine"));
        qputenv("AOTSTUDIO_ENGINE", path.toLocal8Bit());
        EngineClient client;
        QCOMPARE(client.resolveEnginePath(), path);
        client.setEnginePath(QStringLiteral("/explicit"));
        QCOMPARE(client.resolveEnginePath(), QStringLiteral("/explicit"));
        qunsetenv("AOTSTUDIO_ENGINE");
    }

    void engineVenvAndInstallCommand()
    {
        // A venv chosen in Engine → Choose Local Engine… (QSettings) comes after AOTSTUDIO_ENGINE
        // and before the engine next to the application (the test's bin/ has one).
        QStandardPaths::setTestModeEnabled(true);
        qunsetenv("AOTSTUDIO_ENGINE");
        const QString venv = m_dir.filePath(QStringLiteral("engine-venv"));
        QSettings().setValue(EngineClient::engineVenvKey(), venv);
        EngineClient client;
        QCOMPARE(client.resolveEnginePath(), venv + QStringLiteral("/bin/aotstudio-engine"));
        qputenv("AOTSTUDIO_ENGINE", "/from/env");
        QCOMPARE(client.resolveEnginePath(), QStringLiteral("/from/env"));
        qunsetenv("AOTSTUDIO_ENGINE");
        QSettings().remove(EngineClient::engineVenvKey());
        QVERIFY(client.resolveEnginePath() != venv + QStringLiteral("/bin/aotstudio-engine"));

        // The command the "not found" error gives: a venv of Python 3.11 and this version's wheel.
        const QString command = EngineClient::installCommand();
        QVERIFY2(command.startsWith(QStringLiteral("python3.11 -m venv ") + EngineClient::defaultEngineVenv()),
                 qPrintable(command));
        QVERIFY2(command.endsWith(QStringLiteral("/bin/pip install aotstudio-engine==" AOTSTUDIO_VERSION)),
                 qPrintable(command));
        QVERIFY(EngineClient::defaultEngineVenv().endsWith(QStringLiteral("/aotstudio/engine-venv")));
        QStandardPaths::setTestModeEnabled(false);
    }

    void stopIsQuiet()
    {
        auto client = makeClient();
        QSignalSpy hello(client.get(), &EngineClient::handshakeCompleted);
        QSignalSpy failed(client.get(), &EngineClient::engineFailed);
        client->start();
        QVERIFY(hello.wait(10000));
        client->stop();
        QCOMPARE(client->state(), EngineClient::State::NotRunning);
        QTest::qWait(100);
        QCOMPARE(failed.count(), 0);
    }

    void overlongLinesAreSkipped()
    {
        // An engine (here a wrapper around the fake one) that writes a 3 MB line on stdout and on
        // stderr before its handshake: with a 1 MiB limit both are dropped as they arrive, each
        // with a warning, and the handshake that follows still completes.
        QTemporaryDir dir;
        const QString wrapper = dir.filePath(QStringLiteral("long-line-engine"));
        QFile f(wrapper);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\n"
                "head -c 3000000 /dev/zero | tr '\\0' x; echo\n"
                "head -c 3000000 /dev/zero | tr '\\0' y >&2; echo >&2\n"
                "exec '" AOTSTUDIO_FAKE_ENGINE "' \"$@\"\n");
        f.close();
        QVERIFY(f.setPermissions(f.permissions() | QFileDevice::ExeOwner));
        EngineClient client;
        client.setEnginePath(wrapper);
        client.setMaxLineBytes(1 << 20);
        QSignalSpy hello(&client, &EngineClient::handshakeCompleted);
        QSignalSpy logs(&client, &EngineClient::logMessage);
        client.start();
        QVERIFY(hello.wait(20000));
        QCOMPARE(client.state(), EngineClient::State::Ready);
        QVERIFY(client.skippedLineCount() >= 1);
        int warnings = 0;
        for (const auto &args : logs)
            if (args.at(1).toString() == QLatin1String("warning") && args.at(2).toString().contains(QLatin1String("longer than 1 MiB")))
                ++warnings;
        QCOMPARE(warnings, 2);
        QCOMPARE(client.maxLineBytes(), qsizetype(1) << 20);
        QCOMPARE(EngineClient::DefaultMaxLineBytes, qsizetype(16) << 20);
    }
};

QTEST_GUILESS_MAIN(TestEngineClient)
#include "tst_engineclient.moc"
