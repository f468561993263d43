// SPDX-License-Identifier: GPL-3.0-or-later
// RemoteEngine without a server: the ssh arguments (quoting of the remote command), --engine
// command lines, QSettings profiles, and the message for each way ssh fails, naming the host and
// the step. ArtifactStore's rules without an engine: direct reads, the cache winning, a
// no-direct-read folder, nothing fetched for a local engine's missing file.
#include "client/artifactstore.h"
#include "client/remoteengine.h"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace AotStudio::Client;

class TestRemoteEngine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sshArguments()
    {
        RemoteEngine r;
        r.host = QStringLiteral("gpu-01");
        r.user = QStringLiteral("alice");
        r.port = 2222;
        r.identityFile = QStringLiteral("/home/alice/.ssh/id_ed25519");
        r.enginePath = QStringLiteral("/opt/aot studio/aotstudio-engine");
        r.jobFolder = QStringLiteral("/scratch/jobs");
        const QStringList args = r.sshArguments();
        QCOMPARE(args.mid(0, 5), (QStringList{QStringLiteral("-T"), QStringLiteral("-e"), QStringLiteral("none"),
                                              QStringLiteral("-p"), QStringLiteral("2222")}));
        QVERIFY(args.contains(QStringLiteral("-i")));
        QVERIFY(args.contains(QStringLiteral("alice@gpu-01")));
        // The remote command goes through the host's shell: a path with a space is quoted.
        QVERIFY(args.contains(QStringLiteral("'/opt/aot studio/aotstudio-engine'")));
        QCOMPARE(args.mid(args.size() - 3), (QStringList{QStringLiteral("--serve"), QStringLiteral("--jobs"), QStringLiteral("/scratch/jobs")}));
        QCOMPARE(r.displayName(), QStringLiteral("alice@gpu-01:2222"));
    }

    void fromCommandLine()
    {
        RemoteEngine r;
        QVERIFY(RemoteEngine::fromCommandLine(QStringLiteral("ssh -p 2200 -o BatchMode=yes bob@h100 /opt/bin/aotstudio-engine --serve --jobs /data/j"), &r));
        QCOMPARE(r.host, QStringLiteral("h100"));
        QCOMPARE(r.user, QStringLiteral("bob"));
        QCOMPARE(r.port, 2200);
        QCOMPARE(r.enginePath, QStringLiteral("/opt/bin/aotstudio-engine"));
        QCOMPARE(r.jobFolder, QStringLiteral("/data/j"));
        QCOMPARE(r.sshOptions, (QStringList{QStringLiteral("-o"), QStringLiteral("BatchMode=yes")}));
        QVERIFY(!RemoteEngine::fromCommandLine(QStringLiteral("aotstudio-engine --serve"), &r));
        QVERIFY(!RemoteEngine::fromCommandLine(QStringLiteral("ssh host"), &r));
    }

    void profiles()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        RemoteEngine a;
        a.name = QStringLiteral("lab/H200"); // a '/' must not split the group
        a.host = QStringLiteral("gpu-01");
        a.port = 22;
        a.save(settings);
        const auto loaded = RemoteEngine::loadProfiles(settings);
        QCOMPARE(loaded.size(), 1);
        QCOMPARE(loaded.first().name, a.name);
        QCOMPARE(loaded.first().host, a.host);
        QCOMPARE(loaded.first().jobFolder, a.jobFolder);
        RemoteEngine::removeProfile(settings, a.name);
        QVERIFY(RemoteEngine::loadProfiles(settings).isEmpty());
    }

    void describeExit_data()
    {
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrLine");
        QTest::addColumn<bool>("wasReady");
        QTest::addColumn<QString>("step");
        QTest::newRow("key refused") << 255 << "root@127.0.0.1: Permission denied (publickey)." << false << "authenticating";
        QTest::newRow("unknown host") << 255 << "Host key verification failed." << false << "checking the host key";
        QTest::newRow("no server") << 255 << "ssh: connect to host h port 22: Connection refused" << false << "connecting";
        QTest::newRow("no such engine") << 127 << "bash: /x/aotstudio-engine: No such file or directory" << false << "starting the engine";
        QTest::newRow("not executable") << 126 << "bash: /x/aotstudio-engine: Permission denied" << false << "starting the engine";
        QTest::newRow("lost") << 255 << "Connection to h closed by remote host." << true << "connection was lost";
    }
    void describeExit()
    {
        QFETCH(int, exitCode);
        QFETCH(QString, stderrLine);
        QFETCH(bool, wasReady);
        QFETCH(QString, step);
        RemoteEngine r;
        r.host = QStringLiteral("gpu-01");
        r.enginePath = QStringLiteral("/x/aotstudio-engine");
        const QString message = r.describeExit(exitCode, {stderrLine}, wasReady);
        QVERIFY2(message.startsWith(QLatin1String("gpu-01:")) && message.contains(step), qPrintable(message));
        QVERIFY2(message.contains(stderrLine), qPrintable(message)); // ssh's own words too
    }

    void storeRules()
    {
        QTemporaryDir dir;
        const QString job = dir.filePath(QStringLiteral("jobs/compile-1"));
        QVERIFY(QDir().mkpath(job + QStringLiteral("/.partial-42-staging")));
        QFile f(job + QStringLiteral("/kernels.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{}");
        f.close();
        ArtifactStore store;
        store.setCacheFolder(dir.filePath(QStringLiteral("cache")));
        QCOMPARE(store.localPath(f.fileName()), f.fileName()); // shared disk: the file itself
        // A live event's staging path maps to the file's final place.
        QCOMPARE(store.localPath(job + QStringLiteral("/.partial-42-staging/kernels.json")), f.fileName());
        QCOMPARE(store.cachePath(job + QStringLiteral("/.partial-42-staging/kernels.json")),
                 dir.filePath(QStringLiteral("cache")) + job + QStringLiteral("/kernels.json"));
        // Told not to read the job folder: nothing here until fetched, and no engine to fetch it.
        store.addNoDirectReadFolder(dir.filePath(QStringLiteral("jobs")));
        QVERIFY(!store.readsDirectly(f.fileName()));
        QVERIFY(store.localPath(f.fileName()).isEmpty());
        QString error;
        QVERIFY(store.fetchAndWait(f.fileName(), &error, 2000).isEmpty());
        QVERIFY2(error.contains(QLatin1String("no engine is connected")), qPrintable(error));
        // A cached copy wins.
        QVERIFY(QDir().mkpath(QFileInfo(store.cachePath(f.fileName())).absolutePath()));
        QVERIFY(QFile::copy(f.fileName(), store.cachePath(f.fileName())));
        QCOMPARE(store.localPath(f.fileName()), store.cachePath(f.fileName()));
        // A local engine's missing file is not fetched: it does not exist.
        ArtifactStore local;
        local.setCacheFolder(dir.filePath(QStringLiteral("cache2")));
        QVERIFY(local.fetchAndWait(job + QStringLiteral("/trace.json"), &error, 2000).isEmpty());
        QVERIFY2(error.contains(QLatin1String("does not exist")), qPrintable(error));
        QCOMPARE(ArtifactStore::cacheFolderFor(QStringLiteral("/s/20261202-1315.aotsession")),
                 QStringLiteral("/s/20261202-1315.remote-cache"));
    }
};

QTEST_GUILESS_MAIN(TestRemoteEngine)
#include "tst_remoteengine.moc"
