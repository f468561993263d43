// SPDX-License-Identifier: GPL-3.0-or-later
// The studio with the real engine: handshake, compile sample:mlp on the CPU, check the panel.
#include "widgets/mainwindow.h"

#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QStandardPaths>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using AotStudio::Widgets::MainWindow;

class TestStudioEndToEnd : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AOTStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_studio_e2e"));
        qputenv("AOTSTUDIO_ENGINE", AOTSTUDIO_ENGINE_PATH);
    }

    void compileSampleMlpOnCpu()
    {
        QTemporaryDir out;
        QVERIFY(out.isValid());
        MainWindow w;
        w.show();
        QString lastFailure;
        connect(w.engineClient(), &AotStudio::Client::EngineClient::engineFailed, this,
                [&lastFailure](const QString &reason) { lastFailure = reason; });
        w.startEngine();
        QTRY_VERIFY2_WITH_TIMEOUT(w.engineClient()->isReady() || !lastFailure.isEmpty(),
                                  "no handshake", 120000);
        QVERIFY2(lastFailure.isEmpty(), qPrintable(lastFailure));
        QVERIFY2(!w.engineClient()->engineInfo().torchVersion.isEmpty(),
                 "the engine's Python frontend did not start");

        w.setModel(QStringLiteral("sample:mlp"));
        w.setDevice(QStringLiteral("cpu"));
        w.setOutputDirectory(out.path());
        QSignalSpy finished(&w, &MainWindow::jobFinished);
        QVERIFY(w.compile());
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 600000);
        QDir().mkpath(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR));
        w.grab().save(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/studio_e2e.png"));
        QVERIFY2(finished.first().at(0).toBool(),
                 qPrintable(w.findChild<QLabel *>(QStringLiteral("resultErrorText"))->text()));

        const QString package = w.findChild<QLabel *>(QStringLiteral("resultPackage"))->text();
        QVERIFY2(QFileInfo(package).isFile(), qPrintable(package));
        QVERIFY(w.lastResult().has_value());
        QVERIFY(w.lastResult()->maxAbsError < 1e-3);
        QVERIFY(!w.findChild<QLabel *>(QStringLiteral("resultMaxAbsError"))->text().isEmpty());
        QCOMPARE(w.findChild<QLabel *>(QStringLiteral("resultDevice"))->text(),
                 QStringLiteral("cpu"));

        // Export a bundle from that compile through the real engine, as File > Export Bundle does.
        AotStudio::Client::ExportRequest request;
        request.from = out.path();
        request.out = out.filePath(QStringLiteral("bundle"));
        request.buckets = {2};
        request.coldStartRuns = 1;
        QSignalSpy exported(&w, &MainWindow::jobFinished);
        QVERIFY(w.exportBundle(request));
        QTRY_VERIFY_WITH_TIMEOUT(!exported.isEmpty(), 600000);
        w.grab().save(QStringLiteral(AOTSTUDIO_SCREENSHOT_DIR "/studio_e2e_export.png"));
        QVERIFY2(exported.first().at(0).toBool(),
                 qPrintable(w.findChild<QLabel *>(QStringLiteral("resultErrorText"))->text()));
        QVERIFY(QFileInfo::exists(out.filePath(QStringLiteral("bundle/manifest.json"))));
        QVERIFY(QFileInfo::exists(out.filePath(QStringLiteral("bundle/packages/batch2.pt2"))));
        QVERIFY(QFileInfo::exists(out.filePath(QStringLiteral("bundle.zip"))));
    }
};

QTEST_MAIN(TestStudioEndToEnd)
#include "tst_studio_e2e.moc"
