// SPDX-License-Identifier: GPL-3.0-or-later
// JobController against the fake engine (tests/fixtures/fake_engine.py) without a main window:
// what may start when, the busy state while a job runs, cancelling, and what it reports.
#include "widgets/jobcontroller.h"
#include "widgets/selectionhub.h"
#include "widgets/sessioncontroller.h"

#include "client/engineclient.h"
#include "client/session.h"

#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

using AotStudio::Client::EngineError;
using AotStudio::Widgets::JobController;
using AotStudio::Widgets::SelectionHub;
using AotStudio::Widgets::SessionController;

/// A controller with everything it needs, as MainWindow sets it up.
struct Fixture {
    QWidget window;
    SelectionHub hub;
    SessionController sessions{&hub, &window};
    JobController jobs{&sessions, &window};
    JobController::Inputs inputs;

    Fixture()
    {
        sessions.showLiveSession();
        jobs.setInputs([this] { return inputs; });
    }
    bool startEngine()
    {
        jobs.startEngine();
        return QTest::qWaitFor([this] { return jobs.client()->isReady(); }, 10000);
    }
};

class TestJobController : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_out;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AOTStudioTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_jobcontroller"));
        QSettings().clear();
        qputenv("AOTSTUDIO_ENGINE", AOTSTUDIO_FAKE_ENGINE);
        QVERIFY(m_out.isValid());
    }

    void nothingStartsWithoutAnEngine()
    {
        Fixture f;
        f.inputs = {QStringLiteral("sample:mlp"), QStringLiteral("cpu"), m_out.path()};
        QSignalSpy busy(&f.jobs, &JobController::busyChanged);
        QSignalSpy stage(&f.jobs, &JobController::stageChanged);
        QVERIFY(!f.jobs.canStart());
        QVERIFY(!f.jobs.compile());
        QVERIFY(!f.jobs.profile());
        QVERIFY(!f.jobs.sweep());
        QVERIFY(!f.jobs.numerics());
        QVERIFY(!f.jobs.tune(60));
        f.jobs.cancel(); // nothing runs: nothing to say
        QVERIFY(!f.jobs.isBusy());
        QCOMPARE(busy.size(), 0);
        QCOMPARE(stage.size(), 0);
    }

    void pickAModelFirst()
    {
        Fixture f;
        QVERIFY(f.startEngine());
        QSignalSpy status(&f.jobs, &JobController::statusMessage);
        QSignalSpy busy(&f.jobs, &JobController::busyChanged);
        QVERIFY(f.jobs.canStart());
        QVERIFY(!f.jobs.compile()); // inputs say no model
        QCOMPARE(status.size(), 1);
        QCOMPARE(status.first().at(0).toString(), QStringLiteral("Pick a model first."));
        QCOMPARE(busy.size(), 0);
        QVERIFY(f.jobs.canStart());
    }

    void busyUntilCancelled()
    {
        Fixture f;
        QSignalSpy connected(&f.jobs, &JobController::engineConnected);
        QSignalSpy ready(&f.jobs, &JobController::engineReady);
        QVERIFY(f.startEngine());
        QCOMPARE(connected.size(), 1);
        QCOMPARE(ready.size(), 1);

        f.inputs = {QStringLiteral("fake:slow"), QStringLiteral("cpu"), m_out.path()};
        QSignalSpy busy(&f.jobs, &JobController::busyChanged);
        QSignalSpy started(&f.jobs, &JobController::jobStarted);
        QSignalSpy stage(&f.jobs, &JobController::stageChanged);
        QSignalSpy failedJob(&f.jobs, &JobController::jobFailed);
        QSignalSpy failed(&f.jobs, &JobController::failed);
        QSignalSpy finished(&f.jobs, &JobController::jobFinished);
        QVERIFY(f.jobs.compile());
        QCOMPARE(busy.size(), 1);
        QCOMPARE(busy.first().at(0).toBool(), true);
        QCOMPARE(started.size(), 1);
        QCOMPARE(started.first().at(1).value<JobController::JobKind>(), JobController::JobKind::Compile);
        QVERIFY(f.jobs.isBusy());
        QVERIFY(!f.jobs.canStart());
        QCOMPARE(f.jobs.currentJob(), started.first().at(0).toLongLong());
        QVERIFY(!f.jobs.compile()); // one job at a time
        QVERIFY(!f.jobs.quantize());
        QCOMPARE(busy.size(), 1);

        f.jobs.cancel();
        QCOMPARE(stage.last().at(0).toString(), QStringLiteral("Cancelling…"));
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.first().at(0).toBool(), false);
        QCOMPARE(busy.size(), 2);
        QCOMPARE(busy.last().at(0).toBool(), false);
        QVERIFY(!f.jobs.isBusy());
        QVERIFY(f.jobs.canStart());
        QCOMPARE(stage.last().at(0).toString(), QStringLiteral("Cancelled"));
        QCOMPARE(failedJob.size(), 1);
        QVERIFY(failedJob.first().at(1).value<EngineError>().isCancellation());
        QCOMPARE(failed.size(), 1);
        QCOMPARE(failed.first().at(0).toString(), QStringLiteral("Compiling fake:slow was cancelled."));
        QVERIFY(!f.jobs.lastResult().has_value());
        QVERIFY(!f.window.findChild<QWidget *>(QStringLiteral("compileErrorBox"))); // no dialog for a cancel
    }

    void compileResultLandsInTheLiveSession()
    {
        Fixture f;
        QVERIFY(f.startEngine());
        const QString out = m_out.filePath(QStringLiteral("mlp"));
        f.inputs = {QStringLiteral("sample:mlp"), QStringLiteral("cpu"), out};
        QSignalSpy compiled(&f.jobs, &JobController::compiled);
        QSignalSpy progress(&f.jobs, &JobController::progressChanged);
        QSignalSpy finished(&f.jobs, &JobController::jobFinished);
        QVERIFY(f.jobs.compile());
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(0).toBool(), true);
        QCOMPARE(compiled.size(), 1);
        QVERIFY(f.jobs.lastResult().has_value());
        QCOMPARE(f.jobs.lastResult()->model, QStringLiteral("sample:mlp"));
        QCOMPARE(f.jobs.lastCompileDirectory(), out);
        QCOMPARE(progress.last().at(0).toDouble(), 1.0);
        // Recorded into a session file, and the job is in the session the hub shows.
        QVERIFY(!f.sessions.liveSession()->filePath().isEmpty());
        QVERIFY(f.sessions.liveSession()->latestSucceeded(QStringLiteral("compile")));
        QCOMPARE(f.hub.session(), f.sessions.liveSession());
    }

    void jobGoesBackToTheLiveSession()
    {
        Fixture f;
        QVERIFY(f.startEngine());
        QVERIFY(f.sessions.openSession(QFINDTESTDATA("../fixtures/sessions/mlp/session.aotsession")));
        QVERIFY(f.sessions.isShowingSavedSession());
        f.inputs = {QStringLiteral("sample:mlp"), QStringLiteral("cpu"), m_out.filePath(QStringLiteral("again"))};
        QSignalSpy finished(&f.jobs, &JobController::jobFinished);
        QVERIFY(f.jobs.compile());
        QVERIFY(!f.sessions.isShowingSavedSession());
        QCOMPARE(f.hub.session(), f.sessions.liveSession());
        QCOMPARE(f.sessions.windowTitle(), QStringLiteral("AOT Studio"));
        QVERIFY(finished.wait(10000));
    }

    // A numerics job the engine fails says so as a compile does: the failure with the engine's code,
    // the job's error for the result panel, and a message box with the engine's message and hint.
    void numericsFailureShowsTheEngineError()
    {
        Fixture f;
        QVERIFY(f.startEngine());
        f.inputs = {QStringLiteral("fake:error"), QStringLiteral("cpu"), m_out.filePath(QStringLiteral("num-error"))};
        QSignalSpy started(&f.jobs, &JobController::jobStarted);
        QSignalSpy failedJob(&f.jobs, &JobController::jobFailed);
        QSignalSpy failed(&f.jobs, &JobController::failed);
        QSignalSpy results(&f.jobs, &JobController::resultsReady);
        QSignalSpy finished(&f.jobs, &JobController::jobFinished);
        QVERIFY(f.jobs.numerics());
        QCOMPARE(started.first().at(1).value<JobController::JobKind>(), JobController::JobKind::Numerics);
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.first().at(0).toBool(), false);
        QCOMPARE(results.size(), 0);
        QCOMPARE(failed.size(), 1);
        QCOMPARE(failed.first().at(0).toString(),
                 QStringLiteral("Finding the numerical divergence of fake:error failed: export_failed"));
        QCOMPARE(failedJob.size(), 1);
        QCOMPARE(failedJob.first().at(0).toString(), QStringLiteral("fake:error"));
        QCOMPARE(failedJob.first().at(1).value<EngineError>().code, QStringLiteral("export_failed"));
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = f.window.findChild<QMessageBox *>(QStringLiteral("compileErrorBox"))));
        QCOMPARE(box->windowTitle(), QStringLiteral("Finding numerical divergence failed"));
        QVERIFY(box->text().contains(QLatin1String("data-dependent control flow")));
        QVERIFY(box->informativeText().contains(QLatin1String("torch.cond")));
        const auto *job = f.sessions.liveSession()->job(started.first().at(0).toLongLong());
        QVERIFY(job && job->error && job->kind == QLatin1String("numerics"));
    }

    // A tune is cancelled like any job; while its first trial compiles, the stage names the trial.
    void tuneShowsItsTrialAndCancels()
    {
        Fixture f;
        QVERIFY(f.startEngine());
        f.inputs = {QStringLiteral("fake:slow"), QStringLiteral("cpu"), m_out.filePath(QStringLiteral("tune-slow"))};
        QSignalSpy stage(&f.jobs, &JobController::stageChanged);
        QSignalSpy failed(&f.jobs, &JobController::failed);
        QSignalSpy finished(&f.jobs, &JobController::jobFinished);
        QVERIFY(f.jobs.tune(90));
        QCOMPARE(f.jobs.currentKind(), JobController::JobKind::Tune);
        QVERIFY(!f.jobs.numerics()); // one job at a time
        QTRY_COMPARE_WITH_TIMEOUT(stage.last().at(0).toString(),
                                  QStringLiteral("Tune · defaults: Compiling with AOTInductor"), 10000);
        f.jobs.cancel();
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.first().at(0).toBool(), false);
        QCOMPARE(stage.last().at(0).toString(), QStringLiteral("Cancelled"));
        QCOMPARE(failed.size(), 1);
        QCOMPARE(failed.first().at(0).toString(), QStringLiteral("Tuning fake:slow was cancelled."));
        QVERIFY(!f.window.findChild<QWidget *>(QStringLiteral("compileErrorBox"))); // no dialog for a cancel
        QVERIFY(f.jobs.canStart());
    }

    void forgetChosenEngine()
    {
        Fixture f;
        QVERIFY(f.startEngine());
        QVERIFY(!f.jobs.forgetEngineVenv()); // none chosen: nothing to forget
        const QString key = AotStudio::Client::EngineClient::engineVenvKey();
        QSettings().setValue(key, m_out.filePath(QStringLiteral("some-venv")));
        QSignalSpy status(&f.jobs, &JobController::statusMessage);
        QVERIFY(f.jobs.forgetEngineVenv());
        QVERIFY(!QSettings().contains(key));
        QVERIFY(!status.isEmpty() && status.last().at(0).toString().contains(QLatin1String("some-venv")));
        // The engine found next ($AOTSTUDIO_ENGINE here) starts again.
        QVERIFY(QTest::qWaitFor([&f] { return f.jobs.client()->isReady(); }, 10000));
    }

    void missingCudaIsRefused()
    {
        Fixture f;
        QVERIFY(f.startEngine()); // the fake engine has no CUDA unless FAKE_CUDA=1
        f.inputs = {QStringLiteral("sample:mlp"), QStringLiteral("cpu"), m_out.path()};
        QSignalSpy failed(&f.jobs, &JobController::failed);
        QSignalSpy blocked(&f.jobs, &JobController::compileBlocked);
        QSignalSpy busy(&f.jobs, &JobController::busyChanged);
        f.jobs.setRequestedDevice(QStringLiteral("cuda"));
        QCOMPARE(failed.size(), 1); // said at once, though no compile was asked for yet
        QCOMPARE(blocked.size(), 0);
        QVERIFY(!f.jobs.compile()); // never falls back to the CPU the inputs name
        QCOMPARE(blocked.size(), 1);
        QVERIFY(blocked.first().at(0).toString().contains(QLatin1String("no CUDA device")));
        QCOMPARE(busy.size(), 0);
        f.jobs.setRequestedDevice(QString()); // picked by hand: the inputs' device counts again
        QSignalSpy finished(&f.jobs, &JobController::jobFinished);
        QVERIFY(f.jobs.compile());
        QVERIFY(f.jobs.isBusy());
        QVERIFY(finished.wait(10000));
    }
};

QTEST_MAIN(TestJobController)
#include "tst_jobcontroller.moc"
