// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow against the fake engine (tests/fixtures/fake_engine.py), offscreen.
#include "widgets/mainwindow.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFrame>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

using AotStudio::Widgets::MainWindow;

class TestMainWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_out;

    static QString text(const MainWindow &w, const char *name)
    {
        auto *label = w.findChild<QLabel *>(QLatin1String(name));
        return label ? label->text() : QStringLiteral("<missing %1>").arg(QLatin1String(name));
    }

    static void screenshot(MainWindow &w, const QString &name)
    {
        QDir().mkpath(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR));
        QTest::qWait(50); // let the last layout change paint
        const QString path = QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/%1.png").arg(name);
        QVERIFY2(w.grab().save(path), qPrintable(path));
        qInfo("screenshot: %s", qPrintable(path));
    }

    static std::unique_ptr<MainWindow> startedWindow()
    {
        auto w = std::make_unique<MainWindow>();
        w->show();
        w->startEngine();
        return w;
    }

    static QFrame *banner(const MainWindow &w)
    {
        return w.findChild<QFrame *>(QStringLiteral("engineBanner"));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // settings and job folders in a test location
        QCoreApplication::setOrganizationName(QStringLiteral("AOTStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
        QSettings().clear();
        qputenv("AOTSTUDIO_ENGINE", AOTSTUDIO_FAKE_ENGINE);
        QVERIFY(m_out.isValid());
    }

    void emptyStateBeforeHandshake()
    {
        MainWindow w;
        w.show();
        QCOMPARE(text(w, "engineStatus"), QStringLiteral("Engine not running"));
        auto *empty = w.findChild<QLabel *>(QStringLiteral("emptyState"));
        QVERIFY(empty && empty->isVisible());
        QVERIFY(!w.findChild<QAction *>(QStringLiteral("compileAction"))->isEnabled());
    }

    void handshakeShowsEngineInStatusBar()
    {
        auto w = startedWindow();
        QTRY_VERIFY_WITH_TIMEOUT(text(*w, "engineStatus").contains(QLatin1String("2.14.1+fake")),
                                 10000);
        const QString status = text(*w, "engineStatus");
        QVERIFY2(status.contains(QLatin1String("Engine 0.1.0")), qPrintable(status));
        QVERIFY2(status.contains(QLatin1String("CUDA 13.0")), qPrintable(status));
        QVERIFY(w->findChild<QAction *>(QStringLiteral("compileAction"))->isEnabled());
        // The fake reports no CUDA device: the choice is there but disabled, with a reason.
        auto *devices = w->findChild<QComboBox *>(QStringLiteral("deviceCombo"));
        auto *model = qobject_cast<QStandardItemModel *>(devices->model());
        const int cuda = devices->findData(QStringLiteral("cuda"));
        QVERIFY(!model->item(cuda)->isEnabled());
        QVERIFY(!devices->itemData(cuda, Qt::ToolTipRole).toString().isEmpty());
        QCOMPARE(devices->currentData().toString(), QStringLiteral("cpu"));
    }

    void compileShowsResult()
    {
        auto w = startedWindow();
        w->setModel(QStringLiteral("sample:mlp"));
        w->setOutputDirectory(m_out.path());
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        w->findChild<QAction *>(QStringLiteral("compileAction"))->trigger();
        QVERIFY(!w->findChild<QAction *>(QStringLiteral("compileAction"))->isEnabled());
        QVERIFY(w->findChild<QAction *>(QStringLiteral("cancelAction"))->isEnabled());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(0).toBool(), true);

        QCOMPARE(text(*w, "resultPackage"), m_out.filePath(QStringLiteral("model.pt2")));
        QCOMPARE(text(*w, "resultDevice"), QStringLiteral("cpu"));
        QCOMPARE(text(*w, "resultTorch"), QStringLiteral("2.14.1+fake"));
        QVERIFY2(text(*w, "resultMaxAbsError").startsWith(QLatin1String("1.2e-07")),
                 qPrintable(text(*w, "resultMaxAbsError")));
        QVERIFY2(text(*w, "resultEager").startsWith(QLatin1String("0.081 ms")),
                 qPrintable(text(*w, "resultEager")));
        QVERIFY(text(*w, "resultCompiled").startsWith(QLatin1String("0.034 ms")));
        QCOMPARE(text(*w, "resultSpeedup"), QStringLiteral("2.38×"));
        QCOMPARE(text(*w, "resultRuns"), QStringLiteral("200"));
        QVERIFY(!w->findChild<QLabel *>(QStringLiteral("emptyState"))->isVisible());
        QVERIFY(!banner(*w)->isVisible());
        QCOMPARE(w->lastResult()->speedup, 2.38);
        screenshot(*w, QStringLiteral("mainwindow_result"));
    }

    void errorShowsMessageAndPanel()
    {
        auto w = startedWindow();
        w->setModel(QStringLiteral("fake:error"));
        w->setOutputDirectory(m_out.path());
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(0).toBool(), false);

        auto *box = w->findChild<QMessageBox *>(QStringLiteral("compileErrorBox"));
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());
        QVERIFY(box->text().contains(QLatin1String("torch.export failed")));
        QVERIFY(box->informativeText().contains(QLatin1String("torch.cond")));
        const QString panel = text(*w, "resultErrorText");
        QVERIFY2(panel.contains(QLatin1String("export_failed")), qPrintable(panel));
        QVERIFY(panel.contains(QLatin1String("torch.cond")));
        QVERIFY(w->findChild<QFrame *>(QStringLiteral("resultError"))->isVisible());
        // The engine itself is fine: no banner.
        QVERIFY(!banner(*w)->isVisible());
        screenshot(*w, QStringLiteral("mainwindow_error"));
        box->close();
    }

    void crashShowsBannerAndRestartWorks()
    {
        auto w = startedWindow();
        w->setOutputDirectory(m_out.path());
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        w->setModel(QStringLiteral("sample:mlp"));
        QVERIFY(w->compile());
        QVERIFY(finished.wait(10000));
        w->setModel(QStringLiteral("fake:crash"));
        QVERIFY(w->compile());
        QTRY_VERIFY_WITH_TIMEOUT(banner(*w)->isVisible(), 10000);
        QVERIFY(text(*w, "engineBannerText").contains(QLatin1String("code 1")));
        QCOMPARE(text(*w, "engineStatus"), QStringLiteral("Engine not running"));
        QVERIFY(w->statusBar()->currentMessage().contains(QLatin1String("code 1")));
        // A dead engine is not a compile error: no dialog, and the earlier result stays.
        QVERIFY(!w->findChild<QMessageBox *>(QStringLiteral("compileErrorBox")));
        QCOMPARE(text(*w, "resultTorch"), QStringLiteral("2.14.1+fake"));
        QVERIFY(!w->findChild<QAction *>(QStringLiteral("compileAction"))->isEnabled());
        screenshot(*w, QStringLiteral("mainwindow_engine_died"));

        auto *restart = w->findChild<QPushButton *>(QStringLiteral("restartEngineButton"));
        QVERIFY(restart && restart->isVisible());
        QTest::mouseClick(restart, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QVERIFY(!banner(*w)->isVisible());
        QVERIFY(text(*w, "engineStatus").contains(QLatin1String("2.14.1+fake")));
    }

    void missingEngineShowsBanner()
    {
        qputenv("AOTSTUDIO_ENGINE", "/nonexistent/aotstudio-engine");
        auto w = startedWindow();
        qputenv("AOTSTUDIO_ENGINE", AOTSTUDIO_FAKE_ENGINE);
        QTRY_VERIFY_WITH_TIMEOUT(banner(*w)->isVisible(), 5000);
        QVERIFY(text(*w, "engineBannerText").contains(QLatin1String("/nonexistent/aotstudio-engine")));
        QCOMPARE(text(*w, "engineStatus"), QStringLiteral("Engine not running"));
        screenshot(*w, QStringLiteral("mainwindow_no_engine"));
    }

    void cancelFromToolbar()
    {
        auto w = startedWindow();
        w->setModel(QStringLiteral("fake:slow"));
        w->setOutputDirectory(m_out.path());
        QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
        QSignalSpy finished(w.get(), &MainWindow::jobFinished);
        QVERIFY(w->compile());
        QTRY_VERIFY_WITH_TIMEOUT(text(*w, "stageLabel").contains(QLatin1String("AOTInductor")),
                                 10000);
        screenshot(*w, QStringLiteral("mainwindow_running"));
        w->findChild<QAction *>(QStringLiteral("cancelAction"))->trigger();
        QVERIFY(finished.wait(5000));
        QCOMPARE(text(*w, "stageLabel"), QStringLiteral("Cancelled"));
        QVERIFY(!w->findChild<QMessageBox *>(QStringLiteral("compileErrorBox")));
        QVERIFY(text(*w, "resultErrorText").contains(QLatin1String("cancelled")));
    }

    void settingsPersist()
    {
        {
            MainWindow w;
            w.setModel(QStringLiteral("/tmp/my_model.py:factory"));
            w.saveSettings();
        }
        MainWindow w;
        QCOMPARE(w.findChild<QComboBox *>(QStringLiteral("modelCombo"))->currentText(),
                 QStringLiteral("/tmp/my_model.py:factory"));
        QVERIFY(QSettings().contains(QStringLiteral("window/state")));
        QCOMPARE(MainWindow::languageSetting(), QString());
    }

    void chineseTranslation()
    {
        QTranslator translator;
        QVERIFY(translator.load(QStringLiteral(":/i18n/aotstudio_zh_CN.qm")));
        QCoreApplication::installTranslator(&translator);
        {
            auto w = startedWindow();
            w->setModel(QStringLiteral("sample:mlp"));
            w->setOutputDirectory(m_out.path());
            QCOMPARE(w->findChild<QAction *>(QStringLiteral("compileAction"))->text(), QStringLiteral("编译(&C)"));
            QTRY_VERIFY_WITH_TIMEOUT(w->engineClient()->isReady(), 10000);
            QVERIFY(text(*w, "engineStatus").contains(QStringLiteral("引擎")));
            QSignalSpy finished(w.get(), &MainWindow::jobFinished);
            QVERIFY(w->compile());
            QVERIFY(finished.wait(10000));
            screenshot(*w, QStringLiteral("mainwindow_result_zh_CN"));
        }
        QCoreApplication::removeTranslator(&translator);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
