// SPDX-License-Identifier: GPL-3.0-or-later
// The layout check (issue 35 item 5): the main window, after a compile against the fake engine,
// at 1366×768, 1920×1080 and 2560×1440, in English and Chinese, with every dock brought to the
// front in turn. Fails on any visible label, button, check box or combo box narrower than its text
// (its size hint), any word-wrapped label shorter than its text, and any widget outside the
// window, except the widgets listed in kElideByDesign. Cost: ~10 s (gui tier).
#include "layoutcheck.h"

#include "client/engineerror.h"
#include "widgets/connectdialog.h"
#include "widgets/exportdialog.h"
#include "widgets/mainwindow.h"
#include "widgets/runsettings.h"
#include "widgets/trustdialog.h"

#include <QDockWidget>
#include <QJsonObject>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

using AotStudio::Widgets::MainWindow;

namespace {

/// Let posted layout requests run until the window stops changing (word-wrapped labels take a few
/// rounds: a new width, then the height for it).
void settle()
{
    for (int i = 0; i < 5; ++i) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
        QTest::qWait(20);
    }
}

} // namespace

class TestLayout : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_out;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AOTStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_layout"));
        QSettings().clear();
        qputenv("AOTSTUDIO_ENGINE", AOTSTUDIO_FAKE_ENGINE);
        QVERIFY(m_out.isValid());
    }

    void windowFitsTheSmallestScreen()
    {
        // A 1366×768 screen leaves about 1366×728 to a window (title bar, a panel): the window's
        // minimum must fit in it, whatever the docks hold.
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QSize min = w.minimumSizeHint().expandedTo(w.minimumSize());
        qInfo("minimum %d×%d at a device pixel ratio of %.1f", min.width(), min.height(), w.devicePixelRatioF());
        QVERIFY2(min.width() <= 1366 && min.height() <= 728,
                 qPrintable(QStringLiteral("minimum %1×%2").arg(min.width()).arg(min.height())));
    }

    void nothingClipped_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("language");
        for (const QString &lang : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
            for (const QSize s : {QSize(1366, 728), QSize(1920, 1040), QSize(2560, 1400)})
                QTest::addRow("%dx%d %s", s.width(), s.height(), qPrintable(lang)) << s << lang;
        }
    }

    void nothingClipped()
    {
        QFETCH(QSize, size);
        QFETCH(QString, language);
        QTranslator translator;
        QVERIFY(translator.load(QStringLiteral(":/i18n/aotstudio_%1.qm").arg(language)));
        QCoreApplication::installTranslator(&translator);
        QLocale::setDefault(QLocale(language));
        QSettings().clear();
        {
            MainWindow w;
            w.resize(size);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.startEngine();
            w.setModel(QStringLiteral("sample:mlp"));
            w.setOutputDirectory(m_out.filePath(QStringLiteral("job-%1-%2").arg(size.width()).arg(language)));
            QTRY_VERIFY_WITH_TIMEOUT(w.engineClient()->isReady(), 10000);
            QSignalSpy finished(&w, &MainWindow::jobFinished);
            QVERIFY(w.compile());
            QVERIFY(finished.wait(10000));
            QCOMPARE(w.size(), size); // not grown past the screen by a minimum size
            QStringList problems;
            for (QDockWidget *dock : w.findChildren<QDockWidget *>()) {
                dock->show();
                dock->raise();
                settle();
                for (const QString &p : LayoutCheck::clipped(&w))
                    if (!problems.contains(p))
                        problems << p;
            }
            QVERIFY2(problems.isEmpty(),
                     qPrintable(QStringLiteral("%1 clipped:\n  %2")
                                    .arg(problems.size())
                                    .arg(problems.join(QStringLiteral("\n  ")))));
        }
        QLocale::setDefault(QLocale::c());
        QCoreApplication::removeTranslator(&translator);
    }

    void dialogsFit_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }

    void dialogsFit()
    {
        // Each dialog at the size it opens with: inside a 1366×728 screen, nothing clipped.
        QFETCH(QString, language);
        QTranslator translator;
        QVERIFY(translator.load(QStringLiteral(":/i18n/aotstudio_%1.qm").arg(language)));
        QCoreApplication::installTranslator(&translator);
        QLocale::setDefault(QLocale(language));
        const auto check = [](QWidget &dialog, const char *name) {
            dialog.show();
            QVERIFY(QTest::qWaitForWindowExposed(&dialog));
            settle();
            QVERIFY2(dialog.width() <= 1366 && dialog.height() <= 728,
                     qPrintable(QStringLiteral("%1 opens at %2×%3")
                                    .arg(QLatin1String(name))
                                    .arg(dialog.width())
                                    .arg(dialog.height())));
            const QStringList problems = LayoutCheck::clipped(&dialog);
            QVERIFY2(problems.isEmpty(),
                     qPrintable(QStringLiteral("%1: %2 clipped:\n  %3")
                                    .arg(QLatin1String(name))
                                    .arg(problems.size())
                                    .arg(problems.join(QStringLiteral("\n  ")))));
        };
        {
            AotStudio::Widgets::ExportDialog dialog(m_out.path());
            check(dialog, "export");
        }
        {
            AotStudio::Widgets::RunSettingsDialog dialog(AotStudio::Widgets::RunSettings{},
                                                         QStringLiteral("sample:mlp"));
            check(dialog, "run settings");
        }
        {
            AotStudio::Widgets::ConnectDialog dialog;
            check(dialog, "connect");
        }
        {
            AotStudio::Client::EngineError refusal{QStringLiteral("load"), QStringLiteral("untrusted"),
                                                   QStringLiteral("bundle signed by an unknown key"), QString()};
            AotStudio::Widgets::TrustDialog dialog(m_out.filePath(QStringLiteral("bundle")),
                                                   QStringLiteral("this computer"), refusal);
            check(dialog, "trust");
        }
        QLocale::setDefault(QLocale::c());
        QCoreApplication::removeTranslator(&translator);
    }
};

QTEST_MAIN(TestLayout)
#include "tst_layout.moc"
