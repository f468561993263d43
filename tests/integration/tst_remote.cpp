// SPDX-License-Identifier: GPL-3.0-or-later
// A remote engine over real SSH (issue 17): the test starts Debian's sshd on 127.0.0.1 with a
// throwaway host key and user key in a temporary folder (its own config, nothing of the machine's
// SSH set-up touched), runs `ssh -p PORT 127.0.0.1 aotstudio-engine --serve` through
// EngineClient, profiles sample:mlp into a job folder the ArtifactStore is told not to read
// directly, and checks that snapshots, kernels with their source, profile.json and trace.json
// arrive through the protocol's `read` with the engine's SHA-256. Then the bad inputs: a path
// outside the job folders (and a symbolic link leading out) refused, a wrong engine path, a key
// the host refuses and an unknown host each named with the host and the step, a connection
// dropped mid-transfer resumed from its offset after the client's own reconnect (issue 41 item 2),
// and one that does not come back leaving nothing in the cache. The detached engine (FORMAT.md
// "Sessions"): a link dropped mid-job while the engine lives is reattached and the job's result
// arrives with every event once and in order; a link dropped after the engine was killed reports
// the job lost with no half-written folder; an engine with no client exits after its idle timeout;
// no engine of the test outlives it. Skipped with the reason when sshd cannot start here.
#include "client/artifactstore.h"
#include "client/engineclient.h"
#include "client/kernelcatalog.h"
#include "client/session.h"
#include "graph/graph.h"
#include "sshserver.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace AotStudio::Client;

namespace {

QByteArray sha256Of(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return h.result().toHex();
}

/// Whether process `pid` exists and is not a zombie (an exited detached engine whose new parent,
/// init in a container, has not reaped it yet).
bool processAlive(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (pid <= 0 || !stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    const int close = line.lastIndexOf(')');
    return close > 0 && line.size() > close + 2 && line.at(close + 2) != 'Z';
}

/// Live processes whose environment holds `entry` ("NAME=value"): the detached engines of a
/// runtime folder, and whatever they started.
QList<qint64> processesWithEnvironment(const QByteArray &entry)
{
    QList<qint64> found;
    for (const QString &pid : QDir(QStringLiteral("/proc")).entryList({QStringLiteral("[0-9]*")}, QDir::Dirs)) {
        QFile environ(QStringLiteral("/proc/%1/environ").arg(pid));
        if (!environ.open(QIODevice::ReadOnly))
            continue;
        if (environ.readAll().split('\0').contains(entry) && processAlive(pid.toLongLong()))
            found << pid.toLongLong();
    }
    return found;
}

/// The detached engine's pid from the hello events `spy` caught (EngineClient::eventReceived).
qint64 enginePid(const QList<QList<QVariant>> &events)
{
    qint64 pid = 0;
    for (const auto &e : events) {
        const QJsonObject o = e.first().toJsonObject();
        if (o.value(QStringLiteral("type")).toString() == QLatin1String("hello"))
            pid = o.value(QStringLiteral("session")).toObject().value(QStringLiteral("pid")).toInteger();
    }
    return pid;
}

/// Files under `folder` whose name is not a finished cache file (QSaveFile's temporary names).
QStringList leftovers(const QString &folder)
{
    QStringList found;
    for (QDirIterator it(folder, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext();) {
        const QString f = it.next();
        if (f.contains(QLatin1String(".XXXXXX")) || QFileInfo(f).fileName().contains(QLatin1Char('~')) ||
            QFileInfo(f).suffix().length() == 6)
            found << f;
    }
    return found;
}

} // namespace

class TestRemote : public QObject
{
    Q_OBJECT

    AotStudio::Tests::SshServer m_server;
    QTemporaryDir m_tmp;
    QString m_jobs;   ///< the engine's job folder: the store must never read it directly
    QString m_skip;   ///< why sshd is not available ("" when it is)

    QString tmp(const QString &name) const { return m_tmp.filePath(name); }

    RemoteEngine remote(const QString &enginePath = QStringLiteral(AOTSTUDIO_ENGINE_PATH)) const
    {
        return m_server.remote(enginePath, m_jobs);
    }

    /// Starts `client` and waits for its handshake; false (with the reason) when it failed.
    static bool connectClient(EngineClient &client, QString *failure)
    {
        QSignalSpy ready(&client, &EngineClient::handshakeCompleted);
        QSignalSpy failed(&client, &EngineClient::engineFailed);
        client.start();
        QElapsedTimer t;
        t.start();
        while (ready.isEmpty() && failed.isEmpty() && t.elapsed() < 60000)
            QTest::qWait(50);
        if (!failed.isEmpty())
            *failure = failed.first().first().toString();
        else if (ready.isEmpty())
            *failure = QStringLiteral("no handshake within 60 s");
        return !ready.isEmpty();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_jobs = tmp(QStringLiteral("engine-jobs"));
        QVERIFY(QDir().mkpath(m_jobs));
        m_skip = m_server.start();
    }

    /// No detached engine of this test (nor anything it started) outlives it: each test's client
    /// ended its engine (shutdown at stop() or destruction) or left it to its idle timeout.
    void cleanupTestCase()
    {
        if (!m_skip.isEmpty())
            return;
        const QByteArray mark = "AOTSTUDIO_RUNTIME_DIR=" + m_server.runtimeDir().toLocal8Bit();
        QTRY_VERIFY_WITH_TIMEOUT(processesWithEnvironment(mark).isEmpty(), 120000);
    }

    void artifactsArriveThroughRead()
    {
        if (!m_skip.isEmpty())
            QSKIP(qPrintable(m_skip));
        EngineClient client;
        client.setRemote(remote());
        Session session;
        connect(&client, &EngineClient::eventReceived, &session, &Session::apply);
        connect(&client, &EngineClient::requestSent, &session, &Session::recordRequest);
        ArtifactStore store;
        store.setClient(&client);
        store.setSession(&session);
        store.setCacheFolder(tmp(QStringLiteral("cache")));
        store.addNoDirectReadFolder(m_jobs); // the studio must not see the engine's disk
        QString failure;
        QVERIFY2(connectClient(client, &failure), qPrintable(failure));
        QVERIFY(!client.engineInfo().torchVersion.isEmpty());

        const QString out = m_jobs + QStringLiteral("/profile-1");
        QSignalSpy results(&client, &EngineClient::resultReceived);
        QSignalSpy errors(&client, &EngineClient::errorReceived);
        const qint64 id = client.submitJob(
            QStringLiteral("profile"),
            QJsonObject{{QStringLiteral("model"), QStringLiteral("sample:mlp")}, {QStringLiteral("device"), QStringLiteral("cpu")},
                        {QStringLiteral("out"), out}, {QStringLiteral("warmup"), 2}, {QStringLiteral("runs"), 20},
                        {QStringLiteral("min_runs"), 5}, {QStringLiteral("max_seconds"), 0.5},
                        {QStringLiteral("variants"), QJsonArray{QStringLiteral("eager"), QStringLiteral("aoti")}},
                        {QStringLiteral("throughput"), QJsonArray{}}, {QStringLiteral("cold_start_runs"), 0}});
        QVERIFY(id > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!results.isEmpty() || !errors.isEmpty(), 600000);
        QVERIFY2(errors.isEmpty(), errors.isEmpty() ? "" : qPrintable(errors.first().at(1).value<EngineError>().message));
        const JobRecord *job = session.job(id);
        QVERIFY(job && job->succeeded());

        // Every file the studio reads, through `read`, into the cache, hashes equal.
        QStringList wanted = ArtifactStore::artifactsOf(*job);
        const QJsonObject files = job->result.value(QStringLiteral("files")).toObject();
        const QString trace = files.value(QStringLiteral("trace")).toString();
        const QString profileJson = files.value(QStringLiteral("profile_json")).toString();
        QVERIFY2(wanted.contains(trace) && wanted.contains(profileJson), qPrintable(wanted.join(u' ')));
        int snapshots = 0;
        for (const auto &s : job->snapshots)
            snapshots += s.graph && !s.path.isEmpty();
        QVERIFY(snapshots > 2);
        for (const QString &path : wanted) {
            const QString original = session.resolvePath(path);
            if (!QFileInfo::exists(original))
                continue; // a guessed name the job did not write
            QString error;
            const QString local = store.fetchAndWait(path, &error);
            QVERIFY2(!local.isEmpty(), qPrintable(error));
            QVERIFY2(local.startsWith(store.cacheFolder() + u'/'), qPrintable(local)); // never the job folder
            QCOMPARE(sha256Of(local), sha256Of(original));
        }
        // The readers open the cached copies.
        QString error;
        for (const auto &s : job->snapshots) {
            if (s.graph && !s.path.isEmpty()) {
                const auto snapshot = AotStudio::Graph::loadSnapshot(store.localPath(s.path).toStdString());
                QVERIFY(!snapshot.nodes.empty());
            }
        }
        const QString kernelsPath = job->result.value(QStringLiteral("kernels_json")).toString();
        const auto kernels = KernelCatalog::load(store.localPath(kernelsPath.isEmpty() ? out + QStringLiteral("/kernels.json") : kernelsPath), &error);
        QVERIFY2(kernels && !kernels->kernels().isEmpty(), qPrintable(error));
        bool withSource = false;
        for (const auto &k : kernels->kernels())
            withSource = withSource || !k.source.isEmpty();
        QVERIFY(withSource);
        QVERIFY(store.filesFetched() >= snapshots + 3);
        QVERIFY(leftovers(store.cacheFolder()).isEmpty());

        // A path outside the job folders is refused (and logged); so is a link leading out.
        QSignalSpy logs(&client, &EngineClient::logMessage);
        QString refused;
        QVERIFY(store.fetchAndWait(QStringLiteral("/etc/passwd"), &refused).isEmpty());
        QVERIFY2(refused.contains(QLatin1String("refused")) && refused.contains(QLatin1String("127.0.0.1")), qPrintable(refused));
        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"), out + QStringLiteral("/escape.json")));
        QVERIFY(store.fetchAndWait(out + QStringLiteral("/escape.json"), &refused).isEmpty());
        QVERIFY2(refused.contains(QLatin1String("refused")), qPrintable(refused));
        QVERIFY(!QFileInfo::exists(store.cachePath(out + QStringLiteral("/escape.json"))));
        bool logged = false;
        for (const auto &l : logs)
            logged = logged || (l.at(1).toString() == QLatin1String("warning") && l.at(2).toString().contains(QLatin1String("refused")));
        QVERIFY(logged);

        // A connection dropped mid-transfer (issue 41 item 2): the client connects again and the
        // transfer goes on from the byte it had reached, not from 0; the file lands whole, its
        // SHA-256 the engine's. Reconnect time: drop to the new handshake, printed, not asserted.
        QFile big(out + QStringLiteral("/big.json"));
        QVERIFY(big.open(QIODevice::WriteOnly));
        for (int i = 0; i < 24; ++i)
            big.write(QByteArray(1 << 20, char('a' + i))); // a splice at a wrong offset shows in the hash
        big.close();
        {
            QSignalSpy fetched(&store, &ArtifactStore::fetched);
            QSignalSpy fetchFailed(&store, &ArtifactStore::fetchFailed);
            QSignalSpy data(&client, &EngineClient::dataReceived);
            QSignalSpy reconnecting(&client, &EngineClient::reconnecting);
            QSignalSpy reattached(&client, &EngineClient::reattached);
            QSignalSpy engineFailed(&client, &EngineClient::engineFailed);
            store.fetch(big.fileName());
            QTRY_VERIFY_WITH_TIMEOUT(!data.isEmpty(), 30000);
            QElapsedTimer sinceDrop;
            sinceDrop.start();
            m_server.dropConnections(); // the network goes away mid-transfer
            QTRY_VERIFY_WITH_TIMEOUT(!reconnecting.isEmpty(), 10000);
            const QString dropped = reconnecting.first().at(2).toString();
            QVERIFY2(dropped.contains(QLatin1String("127.0.0.1"))
                         && dropped.contains(QLatin1String("connection was lost")),
                     qPrintable(dropped));
            QVERIFY(fetched.isEmpty() && fetchFailed.isEmpty()); // waiting for the link, not given up
            QCOMPARE(store.suspendedCount(), 1);
            const qint64 detectedMs = sinceDrop.elapsed();
            const int slicesBefore = data.size();
            // The client reconnects by itself and reattaches to the same engine.
            QTRY_VERIFY_WITH_TIMEOUT(!reattached.isEmpty() || !engineFailed.isEmpty(), 60000);
            QVERIFY2(engineFailed.isEmpty(),
                     engineFailed.isEmpty() ? "" : qPrintable(engineFailed.first().first().toString()));
            const qint64 reconnectMs = sinceDrop.elapsed();
            QTRY_VERIFY_WITH_TIMEOUT(!fetched.isEmpty() || !fetchFailed.isEmpty(), 60000);
            QVERIFY2(fetchFailed.isEmpty(),
                     fetchFailed.isEmpty() ? "" : qPrintable(fetchFailed.first().at(1).toString()));
            QCOMPARE(store.resumedCount(), 1);
            QCOMPARE(sha256Of(store.localPath(big.fileName())), sha256Of(big.fileName()));
            // 24 MiB is 6 slices of 4 MiB, each received once when the transfer resumes from its
            // offset (slices arrive in order, and each one received was written); from 0, more.
            QCOMPARE(data.size(), 6);
            qInfo("reconnect after an ssh drop: drop seen after %lld ms, reattached after %lld ms (attempt %d); %d of "
                  "%lld "
                  "slices before the drop, %lld after",
                  detectedMs, reconnectMs, reconnecting.size(), slicesBefore, qint64(6),
                  qint64(data.size() - slicesBefore));
        }
        QVERIFY2(leftovers(store.cacheFolder()).isEmpty(), qPrintable(leftovers(store.cacheFolder()).join(u' ')));

        // The link does not come back within the resume window: the fetch fails saying where it
        // stopped, and nothing half-written stays in the cache.
        QVERIFY(QFile::remove(store.cachePath(big.fileName())));
        store.setResumeWindow(1000);
        // Without reconnecting (no detached engine): the engine dies with its link, as before.
        client.stop();
        client.setReconnectAttempts(0);
        QVERIFY2(connectClient(client, &failure), qPrintable(failure));
        QVERIFY(client.sessionId().isEmpty());
        {
            QSignalSpy fetchFailed(&store, &ArtifactStore::fetchFailed);
            QSignalSpy data(&client, &EngineClient::dataReceived);
            store.fetch(big.fileName());
            QTRY_VERIFY_WITH_TIMEOUT(!data.isEmpty(), 30000);
            m_server.dropConnections();
            QTRY_VERIFY_WITH_TIMEOUT(!fetchFailed.isEmpty(), 15000);
            const QString lost = fetchFailed.first().at(1).toString();
            QVERIFY2(lost.contains(QLatin1String("127.0.0.1")) && lost.contains(QLatin1String("connection was lost"))
                         && lost.contains(QLatin1String("stopped at byte")),
                     qPrintable(lost));
            QVERIFY(!QFileInfo::exists(store.cachePath(big.fileName())));
            QVERIFY2(leftovers(store.cacheFolder()).isEmpty(), qPrintable(leftovers(store.cacheFolder()).join(u' ')));
        }

        // The session reopens from the cache without the engine.
        ArtifactStore offline;
        offline.setCacheFolder(store.cacheFolder());
        offline.setDirectReads(false);
        QVERIFY(!offline.localPath(trace).isEmpty());
        QCOMPARE(sha256Of(offline.localPath(trace)), sha256Of(trace));
    }

    /// The link dropped mid-job while the detached engine lives (issue 41 item 2): the client
    /// reconnects by itself, reattaches with the last sequence number it saw, and the compile's
    /// result arrives once; every numbered event of the engine arrives exactly once and in order
    /// (seq 1..N with no hole and no repeat: a lost replay or a duplicate fails), the session's job
    /// succeeded, and reconnect + reattach time is printed (not asserted). One sample:mlp compile:
    /// about 40 s. Label integration.
    void reattachContinuesJobAfterDrop()
    {
        if (!m_skip.isEmpty())
            QSKIP(qPrintable(m_skip));
        EngineClient client;
        client.setRemote(remote());
        Session session;
        connect(&client, &EngineClient::eventReceived, &session, &Session::apply);
        connect(&client, &EngineClient::requestSent, &session, &Session::recordRequest);
        QSignalSpy events(&client, &EngineClient::eventReceived);
        QString failure;
        QVERIFY2(connectClient(client, &failure), qPrintable(failure));
        QVERIFY(!client.sessionId().isEmpty());
        const qint64 pid = enginePid(events);
        QVERIFY(processAlive(pid));
        const QString out = m_jobs + QStringLiteral("/compile-reattach");
        QSignalSpy progress(&client, &EngineClient::progress);
        QSignalSpy results(&client, &EngineClient::resultReceived);
        QSignalSpy errors(&client, &EngineClient::errorReceived);
        QSignalSpy reconnecting(&client, &EngineClient::reconnecting);
        QSignalSpy reattached(&client, &EngineClient::reattached);
        const qint64 id = client.submitJob(QStringLiteral("compile"),
                                           QJsonObject{{QStringLiteral("model"), QStringLiteral("sample:mlp")},
                                                       {QStringLiteral("device"), QStringLiteral("cpu")},
                                                       {QStringLiteral("out"), out}});
        QVERIFY(id > 0);
        QTRY_VERIFY_WITH_TIMEOUT(progress.size() >= 2 || !results.isEmpty(), 300000);
        QVERIFY2(results.isEmpty(), "the compile ended before the link could be dropped");
        QElapsedTimer sinceDrop;
        sinceDrop.start();
        m_server.dropConnections();
        QTRY_VERIFY_WITH_TIMEOUT(!reconnecting.isEmpty(), 15000);
        const qint64 seenMs = sinceDrop.elapsed();
        QVERIFY(processAlive(pid)); // the engine outlived its link
        QTRY_VERIFY_WITH_TIMEOUT(!reattached.isEmpty() || !errors.isEmpty(), 120000);
        const qint64 reattachMs = sinceDrop.elapsed();
        QVERIFY2(errors.isEmpty(),
                 errors.isEmpty() ? "" : qPrintable(errors.first().at(1).value<EngineError>().message));
        QCOMPARE(reattached.first().at(0).value<QList<qint64>>(), QList<qint64>{id});
        QVERIFY(reattached.first().at(1).value<QList<qint64>>().isEmpty());
        QCOMPARE(enginePid(events), pid); // the same engine, not a new one
        QTRY_VERIFY_WITH_TIMEOUT(!results.isEmpty() || !errors.isEmpty(), 600000);
        QVERIFY2(errors.isEmpty(),
                 errors.isEmpty() ? "" : qPrintable(errors.first().at(1).value<EngineError>().message));
        QCOMPARE(results.size(), 1);
        QCOMPARE(results.first().first().toLongLong(), id);
        const JobRecord *job = session.job(id);
        QVERIFY(job && job->succeeded());
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/result.json")));

        // Every numbered event once, in order: seq 1, 2, ..., N.
        qint64 expected = 1, resultEvents = 0;
        QStringList stages;
        for (const auto &e : events) {
            const QJsonObject o = e.first().toJsonObject();
            if (!o.contains(QStringLiteral("seq")))
                continue; // hello (and transport) are not numbered
            QCOMPARE(o.value(QStringLiteral("seq")).toInteger(), expected);
            ++expected;
            if (o.value(QStringLiteral("id")).toInteger() != id)
                continue;
            const QString type = o.value(QStringLiteral("type")).toString();
            resultEvents += type == QLatin1String("result");
            if (type == QLatin1String("stage_done")) {
                const QString stage = o.value(QStringLiteral("stage")).toString();
                QVERIFY2(!stages.contains(stage), qPrintable(stage));
                stages << stage;
            }
        }
        QCOMPARE(resultEvents, qint64(1));
        QVERIFY2(stages.contains(QLatin1String("compile")) && stages.contains(QLatin1String("verify")),
                 qPrintable(stages.join(u' ')));
        qInfo("reattach after an ssh drop mid-job: drop seen after %lld ms, reattached after %lld ms "
              "(client: %lld ms from the drop it saw to attached; %d attempt(s)); %lld numbered events, %d replayed "
              "duplicates dropped",
              seenMs, reattachMs, reattached.first().at(2).toLongLong(), int(reconnecting.size()), expected - 1,
              client.duplicateEventCount());
    }

    /// The link dropped mid-job after the detached engine was killed (issue 41 item 2): the client
    /// reconnects to a new engine of the session (another instance), which does not know the job,
    /// so the job is reported lost naming the host and what was kept; the remote job folder holds
    /// no file of the unfinished job outside its staging folder, and the same job into the same
    /// folder then succeeds on the new engine and leaves no staging folder behind. Two sample:mlp
    /// compiles: about a minute. Label integration.
    void jobLostWhenEngineKilledLeavesNoHalfFolder()
    {
        if (!m_skip.isEmpty())
            QSKIP(qPrintable(m_skip));
        EngineClient client;
        client.setRemote(remote());
        QSignalSpy events(&client, &EngineClient::eventReceived);
        QString failure;
        QVERIFY2(connectClient(client, &failure), qPrintable(failure));
        const qint64 pid = enginePid(events);
        QVERIFY(processAlive(pid));
        const QString out = m_jobs + QStringLiteral("/compile-drop");
        const QJsonObject request{{QStringLiteral("model"), QStringLiteral("sample:mlp")},
                                  {QStringLiteral("device"), QStringLiteral("cpu")},
                                  {QStringLiteral("out"), out}};
        QSignalSpy progress(&client, &EngineClient::progress);
        QSignalSpy results(&client, &EngineClient::resultReceived);
        QSignalSpy errors(&client, &EngineClient::errorReceived);
        QSignalSpy reattached(&client, &EngineClient::reattached);
        const qint64 id = client.submitJob(QStringLiteral("compile"), request);
        QVERIFY(id > 0);
        QTRY_VERIFY_WITH_TIMEOUT(progress.size() >= 2 || !results.isEmpty(), 300000);
        QVERIFY2(results.isEmpty(), "the compile ended before the link could be dropped");
        QElapsedTimer sinceDrop;
        sinceDrop.start();
        QCOMPARE(::kill(pid_t(pid), SIGKILL), 0);
        m_server.dropConnections();
        QTRY_VERIFY_WITH_TIMEOUT(!errors.isEmpty(), 120000);
        const auto lost = errors.first().at(1).value<EngineError>();
        QCOMPARE(errors.first().first().toLongLong(), id);
        QCOMPARE(lost.code, QStringLiteral("engine_crashed"));
        QVERIFY2(lost.message.contains(QLatin1String("127.0.0.1")) && lost.message.contains(QLatin1String("lost"))
                     && lost.message.contains(QLatin1String("kept")),
                 qPrintable(lost.message));
        QTRY_VERIFY_WITH_TIMEOUT(!reattached.isEmpty(), 120000);
        QCOMPARE(reattached.first().at(1).value<QList<qint64>>(), QList<qint64>{id});
        QVERIFY(enginePid(events) != pid); // a new engine of the session
        qInfo("job reported lost %lld ms after the engine was killed and the link dropped", sinceDrop.elapsed());
        // Nothing of the unfinished job outside a staging folder: no result.json, no package.
        QVERIFY(!QFileInfo::exists(out + QStringLiteral("/result.json")));
        QVERIFY(!QFileInfo::exists(out + QStringLiteral("/model.pt2")));

        QVERIFY(client.isReady());
        results.clear();
        errors.clear();
        const qint64 again = client.submitJob(QStringLiteral("compile"), request);
        QVERIFY(again > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!results.isEmpty() || !errors.isEmpty(), 600000);
        QVERIFY2(errors.isEmpty(),
                 errors.isEmpty() ? "" : qPrintable(errors.first().at(1).value<EngineError>().message));
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/result.json")));
        const QStringList partial
            = QDir(out).entryList({QStringLiteral(".partial-*")}, QDir::AllEntries | QDir::Hidden);
        QVERIFY2(partial.isEmpty(), qPrintable(partial.join(u' ')));
    }

    /// A detached engine with no client and no job exits after its idle timeout (`--idle-exit 8`),
    /// removing its socket and lock file; it was alive after its link dropped (it does not die with it). One
    /// engine start and the 8 s: about 20 s. Label integration.
    void detachedEngineExitsWhenIdle()
    {
        if (!m_skip.isEmpty())
            QSKIP(qPrintable(m_skip));
        EngineClient client;
        client.setRemote(remote());
        client.setExtraArguments({QStringLiteral("--idle-exit"), QStringLiteral("8")});
        QSignalSpy events(&client, &EngineClient::eventReceived);
        QString failure;
        QVERIFY2(connectClient(client, &failure), qPrintable(failure));
        const qint64 pid = enginePid(events);
        QVERIFY(processAlive(pid));
        const QString sessionFiles = m_server.runtimeDir() + QStringLiteral("/engine-") + client.sessionId();
        const QString socket = sessionFiles + QStringLiteral(".sock");
        QVERIFY2(QFileInfo::exists(socket), qPrintable(socket));
        QCOMPARE(QFileInfo(socket).permissions()
                     & (QFile::ReadGroup | QFile::WriteGroup | QFile::ReadOther | QFile::WriteOther),
                 QFile::Permissions());
        QCOMPARE(QFileInfo(m_server.runtimeDir()).permissions()
                     & (QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther),
                 QFile::Permissions());
        client.setReconnectAttempts(0); // the drop ends the client: nobody reattaches
        QSignalSpy failed(&client, &EngineClient::engineFailed);
        QElapsedTimer sinceDrop;
        sinceDrop.start();
        m_server.dropConnections();
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty(), 15000);
        QVERIFY(processAlive(pid));
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 120000);
        qInfo("idle detached engine exited %lld ms after its link dropped (--idle-exit 8)", sinceDrop.elapsed());
        QVERIFY(!QFileInfo::exists(socket));
        QVERIFY(!QFileInfo::exists(sessionFiles + QStringLiteral(".lock")));
    }

    void badInputNamesHostAndStep_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("step");
        QTest::newRow("engine path") << "engine" << "starting the engine";
        QTest::newRow("refused key") << "key" << "authenticating";
        QTest::newRow("unknown host") << "host" << "checking the host key";
        QTest::newRow("closed port") << "port" << "connecting";
        QTest::newRow("other protocol") << "protocol" << "handshake failed";
    }
    void badInputNamesHostAndStep()
    {
        if (!m_skip.isEmpty())
            QSKIP(qPrintable(m_skip));
        QFETCH(QString, what);
        QFETCH(QString, step);
        RemoteEngine r = remote(what == QLatin1String("engine") ? QStringLiteral("/nonexistent/aotstudio-engine")
                                                                : QStringLiteral(AOTSTUDIO_ENGINE_PATH));
        if (what == QLatin1String("key"))
            r.identityFile = m_server.path(QStringLiteral("host_key")); // a key the host does not know
        if (what == QLatin1String("host"))
            r.sshOptions = {QStringLiteral("-o"), QStringLiteral("UserKnownHostsFile=") + tmp(QStringLiteral("empty_known_hosts")),
                            QStringLiteral("-o"), QStringLiteral("StrictHostKeyChecking=yes"),
                            QStringLiteral("-o"), QStringLiteral("BatchMode=yes")};
        if (what == QLatin1String("protocol")) {
            // An engine of another protocol version: its frozen hello says so, then it waits.
            QFile script(tmp(QStringLiteral("engine-protocol-99")));
            QVERIFY(script.open(QIODevice::WriteOnly));
            script.write("#!/bin/sh\necho '{\"type\":\"hello\",\"id\":0,\"protocol\":99,\"engine_version\":\"9.0.0\"}'\ncat >/dev/null\n");
            script.close();
            script.setPermissions(script.permissions() | QFileDevice::ExeOwner);
            r.enginePath = script.fileName();
        }
        if (what == QLatin1String("port"))
            r.port = AotStudio::Tests::SshServer::freePort();
        EngineClient client;
        client.setRemote(r);
        QString failure;
        QVERIFY(!connectClient(client, &failure));
        QVERIFY2(failure.contains(QLatin1String("127.0.0.1")) && failure.contains(step), qPrintable(failure));
    }
};

QTEST_GUILESS_MAIN(TestRemote)
#include "tst_remote.moc"
