// SPDX-License-Identifier: GPL-3.0-or-later
// The studio against a remote engine over real SSH (issue 17): Engine → Connect to a throwaway
// sshd on 127.0.0.1 (tests/integration/sshserver.h), the status bar names the host and the
// engine's torch, a profile of sample:mlp runs in the host's job folder, and the docks fill from
// files fetched through `read` (graph snapshot, kernels with source, the profile's timeline).
// Screenshots of the Connect dialog and the window go to the screenshot folder.
#include "client/artifactstore.h"
#include "sshserver.h"
#include "widgets/connectdialog.h"
#include "widgets/kernelspanel.h"
#include "widgets/kerneltablemodel.h"
#include "widgets/mainwindow.h"
#include "widgets/profilepanel.h"
#include "widgets/runsettings.h"
#include "widgets/selectionhub.h"
#include "widgets/timelinechart.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace AotStudio;
using Widgets::MainWindow;

class TestRemoteStudio : public QObject
{
    Q_OBJECT

    Tests::SshServer m_server;
    QTemporaryDir m_jobs; ///< the host's job folder
    QString m_skip;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AOTStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_remote_studio"));
        QVERIFY(m_jobs.isValid());
        m_skip = m_server.start();
        // A short profile: few runs, no throughput or cold start.
        Widgets::RunSettings settings;
        settings.warmup = 2;
        settings.runs = 20;
        settings.maxSeconds = 0.5;
        settings.throughputRunners = {};
        settings.coldStartRuns = 0;
        settings.save();
        QDir().mkpath(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR));
    }

    void connectDialogScreenshot()
    {
        Widgets::ConnectDialog dialog;
        Client::RemoteEngine r;
        r.name = QStringLiteral("lab H200");
        r.host = QStringLiteral("gpu-01.lab.example.org");
        r.user = QStringLiteral("alice");
        r.port = 2222;
        r.enginePath = QStringLiteral("/opt/aotstudio/venv/bin/aotstudio-engine");
        r.jobFolder = QStringLiteral("/scratch/alice/aotstudio-jobs");
        dialog.setRemote(r);
        QVERIFY(dialog.problem().isEmpty());
        QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("sshCommand"))->text().contains(QLatin1String("-p 2222 alice@gpu-01")));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        dialog.grab().save(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/remote_connect_dialog.png"));
        dialog.setRemote(Client::RemoteEngine{});
        QVERIFY(!dialog.problem().isEmpty()); // no host
    }

    void docksFillThroughRead()
    {
        if (!m_skip.isEmpty())
            QSKIP(qPrintable(m_skip));
        MainWindow w;
        w.show();
        QString lastFailure;
        connect(w.engineClient(), &Client::EngineClient::engineFailed, this,
                [&lastFailure](const QString &reason) { lastFailure = reason; });
        w.connectRemote(m_server.remote(QStringLiteral(AOTSTUDIO_ENGINE_PATH), m_jobs.path()));
        QTRY_VERIFY2_WITH_TIMEOUT(w.engineClient()->isReady() || !lastFailure.isEmpty(), "no handshake", 120000);
        QVERIFY2(lastFailure.isEmpty(), qPrintable(lastFailure));
        const QString status = w.findChild<QLabel *>(QStringLiteral("engineStatus"))->text();
        QVERIFY2(status.contains(QLatin1String("127.0.0.1")) && status.contains(w.engineClient()->engineInfo().torchVersion),
                 qPrintable(status));

        w.setModel(QStringLiteral("sample:mlp"));
        w.setDevice(QStringLiteral("cpu"));
        QSignalSpy finished(&w, &MainWindow::jobFinished);
        QVERIFY(w.profile());
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 600000);

        Widgets::SelectionHub *hub = w.selectionHub();
        QVERIFY(!hub->store()->readsDirectly(m_jobs.path() + QStringLiteral("/x.json"))); // remote: never the host's paths
        // Graph: the selected snapshot, fetched into the session's cache.
        QTRY_VERIFY2_WITH_TIMEOUT(hub->snapshot(), qPrintable(hub->snapshotError()), 60000);
        QVERIFY2(hub->snapshotPath().startsWith(hub->store()->cacheFolder()), qPrintable(hub->snapshotPath()));
        // Kernels with their source.
        auto *kernels = w.findChild<Widgets::KernelsPanel *>();
        QVERIFY(kernels);
        QTRY_VERIFY_WITH_TIMEOUT(kernels->model()->rowCount() > 0, 60000);
        QString withSource;
        for (const auto &k : hub->kernels()->kernels())
            if (!k.source.isEmpty() && withSource.isEmpty())
                withSource = k.name;
        QVERIFY(!withSource.isEmpty());
        hub->selectKernel(withSource);
        QTRY_VERIFY(!kernels->sourceText().isEmpty());
        // The profile's timeline from trace.json.
        auto *profile = w.findChild<Widgets::ProfilePanel *>();
        QVERIFY(profile);
        QTRY_VERIFY_WITH_TIMEOUT(profile->timeline()->trackCount() > 0, 60000);
        QVERIFY(hub->store()->filesFetched() > 3);
        w.grab().save(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/remote_studio.png"));

        // Every file of the job lands in the session's cache (prefetched when the job ended).
        QTRY_COMPARE_WITH_TIMEOUT(hub->store()->pendingCount(), 0, 60000);
        const QString sessionFile = w.liveSession()->filePath();
        QVERIFY(!sessionFile.isEmpty());

        // A dropped connection costs a retry (issue 41 item 2): the banner says so, the client
        // reattaches to the detached engine by itself, and nothing is lost.
        auto *bannerText = w.findChild<QLabel *>(QStringLiteral("engineBannerText"));
        QVERIFY(bannerText);
        QSignalSpy reattached(w.engineClient(), &Client::EngineClient::reattached);
        m_server.dropConnections();
        QTRY_VERIFY_WITH_TIMEOUT(bannerText->text().contains(QLatin1String("reconnecting (attempt 1")), 30000);
        QVERIFY2(bannerText->text().contains(QLatin1String("127.0.0.1")), qPrintable(bannerText->text()));
        w.grab().save(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/remote_studio_reconnecting.png"));
        QTRY_VERIFY_WITH_TIMEOUT(!reattached.isEmpty() || !lastFailure.isEmpty(), 120000);
        QVERIFY2(lastFailure.isEmpty(), qPrintable(lastFailure));
        QTRY_VERIFY(bannerText->text().contains(QLatin1String("Reattached to")));
        QVERIFY(w.engineClient()->isReady());
        QVERIFY(hub->snapshot());
        w.grab().save(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/remote_studio_reattached.png"));

        // Without reconnecting, a dropped connection is handled as a crash: results kept,
        // Reconnect offered.
        w.engineClient()->setReconnectAttempts(0);
        w.engineClient()->restart();
        QTRY_VERIFY2_WITH_TIMEOUT(w.engineClient()->isReady() || !lastFailure.isEmpty(), "no handshake", 120000);
        QVERIFY2(lastFailure.isEmpty(), qPrintable(lastFailure));
        m_server.dropConnections();
        QTRY_VERIFY_WITH_TIMEOUT(!lastFailure.isEmpty(), 30000);
        QVERIFY2(lastFailure.contains(QLatin1String("127.0.0.1")), qPrintable(lastFailure));
        QVERIFY(hub->snapshot());
        QCOMPARE(w.findChild<QPushButton *>(QStringLiteral("restartEngineButton"))->text(), MainWindow::tr("Reconnect"));
        w.grab().save(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/remote_studio_lost.png"));

        // The recorded session reopens later from its cache, with no engine at all.
        MainWindow later;
        QVERIFY(later.openSession(sessionFile));
        Widgets::SelectionHub *again = later.selectionHub();
        QVERIFY(again->waitForIdle());
        QVERIFY2(again->snapshot(), qPrintable(again->snapshotError()));
        QVERIFY(again->snapshotPath().startsWith(Client::ArtifactStore::cacheFolderFor(sessionFile)));
        QVERIFY(again->kernels() && !again->kernels()->kernels().isEmpty());
        auto *profileAgain = later.findChild<Widgets::ProfilePanel *>();
        QVERIFY(profileAgain->waitForTrace()); // read off the UI thread
        // The read may start after a queued reload on a loaded machine: wait for the tracks.
        QTRY_VERIFY_WITH_TIMEOUT(profileAgain->timeline()->trackCount() > 0, 30000);
        QCOMPARE(later.engineClient()->state(), Client::EngineClient::State::NotRunning);

        // Save As takes the cache along: the copy opens without the engine too.
        QTemporaryDir saved;
        QString error;
        const QString copy = later.session()->saveAs(saved.filePath(QStringLiteral("copy")), &error);
        QVERIFY2(!copy.isEmpty(), qPrintable(error));
        MainWindow third;
        QVERIFY(third.openSession(copy));
        QVERIFY(third.selectionHub()->waitForIdle());
        QVERIFY2(third.selectionHub()->snapshot(), qPrintable(third.selectionHub()->snapshotError()));
        // (Here the "host" is this machine, so Save As finds the job folder too and copies it.)
        QVERIFY(third.selectionHub()->snapshotPath().startsWith(saved.filePath(QStringLiteral("copy/"))));
        QVERIFY(QFileInfo(saved.filePath(QStringLiteral("copy/session.remote-cache"))).isDir());
    }
};

QTEST_MAIN(TestRemoteStudio)
#include "tst_remote_studio.moc"
