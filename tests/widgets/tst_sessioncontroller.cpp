// SPDX-License-Identifier: GPL-3.0-or-later
// SessionController on its own: which session the hub shows, the window title it asks for, the
// recent-sessions list, and failures it reports instead of showing a half-opened session.
#include "widgets/selectionhub.h"
#include "widgets/sessioncontroller.h"

#include "client/session.h"

#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

using AotStudio::Client::Session;
using AotStudio::Widgets::SelectionHub;
using AotStudio::Widgets::SessionController;

class TestSessionController : public QObject
{
    Q_OBJECT

private:
    static QString fixture() { return QFINDTESTDATA("../fixtures/sessions/mlp/session.aotsession"); }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AOTStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_sessioncontroller"));
        QSettings().clear();
        QVERIFY(!fixture().isEmpty());
    }

    void showsTheLiveSessionFirst()
    {
        QWidget window;
        SelectionHub hub;
        SessionController sessions(&hub, &window);
        QCOMPARE(sessions.windowTitle(), QStringLiteral("AOT Studio"));
        QVERIFY(!sessions.isShowingSavedSession());
        QCOMPARE(sessions.session(), sessions.liveSession());
        QCOMPARE(hub.session(), nullptr); // nothing is put into the hub before showLiveSession()
        sessions.showLiveSession();
        QCOMPARE(hub.session(), sessions.liveSession());
    }

    void openedSessionChangesTitleUntilBackToLive()
    {
        QWidget window;
        SelectionHub hub;
        SessionController sessions(&hub, &window);
        sessions.showLiveSession();
        QSignalSpy titles(&sessions, &SessionController::windowTitleChanged);
        QSignalSpy opened(&sessions, &SessionController::sessionOpened);
        QSignalSpy recent(&sessions, &SessionController::recentSessionsChanged);
        QSignalSpy cleared(&sessions, &SessionController::logCleared);
        QSignalSpy failed(&sessions, &SessionController::failed);

        QVERIFY(sessions.openSession(fixture()));
        QVERIFY(sessions.isShowingSavedSession());
        QVERIFY(sessions.session() != sessions.liveSession());
        QCOMPARE(hub.session(), sessions.session());
        QCOMPARE(opened.size(), 1);
        QCOMPARE(opened.first().at(0).value<Session *>(), sessions.session());
        QCOMPARE(cleared.size(), 1);
        QCOMPARE(failed.size(), 0);
        const QString title = QStringLiteral("AOT Studio — session.aotsession");
        QCOMPARE(sessions.windowTitle(), title);
        QCOMPARE(titles.size(), 1);
        QCOMPARE(titles.first().at(0).toString(), title);
        QCOMPARE(recent.size(), 1);
        QCOMPARE(SessionController::recentSessions().value(0), QFileInfo(fixture()).absoluteFilePath());

        // A job about to start goes back to the live session: the title says so again.
        sessions.showLiveSession();
        QVERIFY(!sessions.isShowingSavedSession());
        QCOMPARE(sessions.session(), sessions.liveSession());
        QCOMPARE(hub.session(), sessions.liveSession());
        QCOMPARE(sessions.windowTitle(), QStringLiteral("AOT Studio"));
        QCOMPARE(titles.size(), 2);
        sessions.showLiveSession(); // already shown: nothing changes
        QCOMPARE(titles.size(), 2);
    }

    void missingFileKeepsWhatWasShown()
    {
        QWidget window;
        SelectionHub hub;
        SessionController sessions(&hub, &window);
        sessions.showLiveSession();
        QSignalSpy failed(&sessions, &SessionController::failed);
        QSignalSpy titles(&sessions, &SessionController::windowTitleChanged);
        QVERIFY(!sessions.openSession(QStringLiteral("/nonexistent/missing.aotsession")));
        QCOMPARE(failed.size(), 1);
        QVERIFY2(failed.first().at(0).toString().startsWith(QLatin1String("Could not open the session")),
                 qPrintable(failed.first().at(0).toString()));
        QVERIFY(!sessions.isShowingSavedSession());
        QCOMPARE(hub.session(), sessions.liveSession());
        QCOMPARE(titles.size(), 0);
        QVERIFY(window.findChild<QMessageBox *>(QStringLiteral("sessionErrorBox"))); // on the dialog parent
    }

    void saveAsCopiesTheShownSession()
    {
        QWidget window;
        SelectionHub hub;
        SessionController sessions(&hub, &window);
        QVERIFY(sessions.openSession(fixture()));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString folder = dir.filePath(QStringLiteral("copy"));
        QSignalSpy status(&sessions, &SessionController::statusMessage);
        QSignalSpy failed(&sessions, &SessionController::failed);
        QVERIFY(sessions.saveSessionAs(folder));
        const QString file = SessionController::recentSessions().value(0);
        QVERIFY2(file.startsWith(folder) && QFileInfo::exists(file), qPrintable(file));
        QCOMPARE(status.size(), 1);
        QCOMPARE(failed.size(), 0);
        // The folder exists now: a second save into it is refused and says why.
        QVERIFY(!sessions.saveSessionAs(folder));
        QCOMPARE(failed.size(), 1);
        QVERIFY(failed.first().at(0).toString().startsWith(QLatin1String("Saving the session failed")));
    }
};

QTEST_MAIN(TestSessionController)
#include "tst_sessioncontroller.moc"
