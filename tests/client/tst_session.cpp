// SPDX-License-Identifier: GPL-3.0-or-later
// Session files (core/client/SESSION.md): replay, damage, versions, recording, save-as; and the
// kernel catalog's join of kernels.json with measured times.
#include "client/kernelcatalog.h"
#include "client/session.h"
#include "graph/graph.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace AotStudio::Client;

class TestSession : public QObject
{
    Q_OBJECT

    static QString fixture() { return QFINDTESTDATA("../fixtures/sessions/mlp/session.aotsession"); }

    static QByteArray readAll(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    static void writeAll(const QString &path, const QByteArray &data)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(data);
    }

private Q_SLOTS:
    void replaysRecordedCompile()
    {
        QVERIFY(!fixture().isEmpty());
        std::unique_ptr<Session> s(Session::load(fixture()));
        QVERIFY(s->warnings().isEmpty());
        QVERIFY(s->hasEngineInfo());
        QVERIFY(s->engineInfo().torchVersion.startsWith(QLatin1String("2.")));
        QCOMPARE(s->jobs().size(), 1);
        const JobRecord &job = s->jobs().first();
        QCOMPARE(job.kind, QStringLiteral("compile"));
        QVERIFY(job.succeeded());
        QCOMPARE(job.request.value(QLatin1String("model")).toString(), QStringLiteral("sample:mlp"));
        QCOMPARE(job.stages.size(), 7); // load export decompose compile load_package verify measure
        // The result's stage list replaces the snapshot events: 5 graph snapshots + fusion + codegen.
        QCOMPARE(job.snapshots.size(), 7);
        QCOMPARE(job.snapshots.first().stage, QStringLiteral("capture"));
        QCOMPARE(job.snapshots.first().previousNodes, -1);
        QVERIFY(job.snapshots[1].previousNodes == job.snapshots[0].nodes);
        QVERIFY(!job.snapshots.last().graph);
        QCOMPARE(s->latestSucceeded(QStringLiteral("compile")), &job);
        QCOMPARE(s->latestSucceeded(QStringLiteral("profile")), nullptr);
        QVERIFY(s->logs().size() >= 4);
    }

    void resolvesPathsOfAMovedSession()
    {
        std::unique_ptr<Session> s(Session::load(fixture()));
        QCOMPARE(s->root(), QStringLiteral("/tmp/s7"));
        const QString recorded = s->jobs().first().snapshots.first().path;
        QVERIFY(recorded.startsWith(QLatin1String("/tmp/s7/job1/")));
        const QString here = s->resolvePath(recorded);
        QCOMPARE(here, QFileInfo(fixture()).absolutePath() + QStringLiteral("/job1/snapshots/001_capture.json"));
        QVERIFY(QFileInfo::exists(here));
        QCOMPARE(s->resolvePath(QStringLiteral("/elsewhere/x.json")), QStringLiteral("/elsewhere/x.json"));
        const auto snapshot = AotStudio::Graph::loadSnapshot(here.toStdString());
        QCOMPARE(int(snapshot.nodes.size()), s->jobs().first().snapshots.first().nodes);
    }

    void stagedPathsFollowTheirFiles()
    {
        // Live events of a staged compile point into OUT/.partial-<pid>-staging/; after the job the
        // files are directly under OUT (what a failed job's snapshot list still names).
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("out/snapshots")));
        const QString moved = dir.filePath(QStringLiteral("out/snapshots/001_capture.json"));
        writeAll(moved, "{}");
        const QString staged = dir.filePath(QStringLiteral("out/.partial-4242-staging/snapshots/001_capture.json"));
        Session live;
        QCOMPARE(live.resolvePath(staged), moved);
        // While the job runs the staged file exists and wins; other paths are left alone.
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("out/.partial-4242-staging/snapshots")));
        writeAll(staged, "{}");
        QCOMPARE(live.resolvePath(staged), staged);
        const QString other = dir.filePath(QStringLiteral("out/.partial-4242/model.pt2"));
        QCOMPARE(live.resolvePath(other), other);
    }

    void truncatedLastLineLoadsTheRest()
    {
        QTemporaryDir dir;
        const QByteArray data = readAll(fixture());
        const QString path = dir.filePath(QStringLiteral("cut.aotsession"));
        writeAll(path, data.left(data.size() - 40)); // inside the result line
        std::unique_ptr<Session> s(Session::load(path));
        QCOMPARE(s->warnings().size(), 1);
        QVERIFY2(s->warnings().first().contains(QLatin1String("truncated")), qPrintable(s->warnings().first()));
        QCOMPARE(s->jobs().size(), 1);
        QVERIFY(!s->jobs().first().finished()); // the result was the damaged line
        QCOMPARE(s->jobs().first().stages.size(), 7);
    }

    void refusesNewerFormatAndNonSessions_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("newer") << QByteArray(R"({"type":"session","format":"aotstudio-session","version":99,"root":""})"
                                             "\n")
                               << QStringLiteral("version 99");
        QTest::newRow("not json") << QByteArray("PK\x03\x04 zip bytes\n") << QStringLiteral("not an AOT Studio session");
        QTest::newRow("plain stream") << QByteArray(R"({"type":"hello","id":0,"protocol":1})" "\n")
                                      << QStringLiteral("not an AOT Studio session");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("empty");
    }
    void refusesNewerFormatAndNonSessions()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.aotsession"));
        writeAll(path, content);
        try {
            std::unique_ptr<Session> s(Session::load(path));
            QFAIL("no SessionError");
        } catch (const SessionError &e) {
            QVERIFY2(e.message().contains(expected), qPrintable(e.message()));
            QVERIFY2(e.message().contains(path), qPrintable(e.message()));
        }
        try {
            std::unique_ptr<Session> s(Session::load(dir.filePath(QStringLiteral("missing.aotsession"))));
            QFAIL("no SessionError for a missing file");
        } catch (const SessionError &e) {
            QVERIFY(e.message().contains(QLatin1String("missing.aotsession")));
        }
    }

    void filesOverTheLimitAreRefusedUnread()
    {
        // A session and a snapshot over their limits are refused with a message naming the limit;
        // exactly at the limit they load. (Small limits stand in for the 512 and 256 MiB defaults.)
        const qint64 size = QFileInfo(fixture()).size();
        std::unique_ptr<Session> ok(Session::load(fixture(), nullptr, size));
        QVERIFY(!ok->jobs().isEmpty());
        try {
            std::unique_ptr<Session> s(Session::load(fixture(), nullptr, 1024));
            QFAIL("a session over the limit was read");
        } catch (const SessionError &e) {
            QVERIFY2(e.message().contains(QLatin1String("larger than 0.0009766 MiB")) && e.message().contains(QLatin1String("limit for a session file")),
                     qPrintable(e.message()));
        }
        QCOMPARE(Session::MaxFileBytes, qint64(512) << 20);
        // Snapshots are read by core/graph alone (its limit: tst_graphdiff).
    }

    void recordingRoundTrips()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("live.aotsession"));
        Session live;
        QSignalSpy finished(&live, &Session::jobFinished);
        QVERIFY(live.startRecording(path, dir.path()));
        live.apply(QJsonObject{{"type", "hello"}, {"id", 0}, {"protocol", 1}, {"torch_version", "2.14.1"}});
        live.recordRequest(QJsonObject{{"type", "profile"}, {"id", 3}, {"model", "sample:mlp"}, {"out", dir.filePath("p")}});
        live.apply(QJsonObject{{"type", "progress"}, {"id", 3}, {"stage", "measure"}, {"fraction", 0.5}});
        live.recordLog(0, QStringLiteral("debug"), QStringLiteral("stderr line"));
        live.recordError(3, EngineError{QStringLiteral("measure"), QStringLiteral("engine_crashed"),
                                        QStringLiteral("The engine exited"), QString()});
        // The engine's own late error for the same job is ignored: a job ends once.
        live.apply(QJsonObject{{"type", "error"}, {"id", 3}, {"code", "cancelled"}, {"message", "late"}});
        QCOMPARE(finished.size(), 1);
        live.stopRecording();

        std::unique_ptr<Session> back(Session::load(path));
        QCOMPARE(back->root(), QDir::cleanPath(dir.path()));
        QCOMPARE(back->jobs().size(), 1);
        const JobRecord &job = back->jobs().first();
        QCOMPARE(job.kind, QStringLiteral("profile"));
        QCOMPARE(job.currentStage, QStringLiteral("measure"));
        QVERIFY(job.error.has_value());
        QCOMPARE(job.error->code, QStringLiteral("engine_crashed"));
        QCOMPARE(back->logs().last().message, QStringLiteral("stderr line"));
        QCOMPARE(back->eventCount(), live.eventCount());
    }

    void saveAsCopiesJobFoldersAndRewritesPaths()
    {
        std::unique_ptr<Session> s(Session::load(fixture()));
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("copy"));
        QString error;
        const QString file = s->saveAs(target, &error);
        QVERIFY2(!file.isEmpty(), qPrintable(error));
        QVERIFY(QFileInfo::exists(target + QStringLiteral("/job1/kernels.json")));
        QVERIFY(QFileInfo::exists(target + QStringLiteral("/job1/snapshots/005_post_grad.json")));
        QVERIFY(!readAll(file).contains("/tmp/s7/job1"));
        std::unique_ptr<Session> copy(Session::load(file));
        const QString path = copy->jobs().first().snapshots.first().path;
        QVERIFY2(path.startsWith(target + QStringLiteral("/job1/")), qPrintable(path));
        QCOMPARE(copy->resolvePath(path), path);

        // Never into a folder that holds something; nothing staged is left behind.
        QVERIFY(s->saveAs(target, &error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("not empty")), qPrintable(error));
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList{QStringLiteral("copy")});

        // A folder that cannot be created (under a file): the reason, and nothing staged left.
        const QString blocker = dir.filePath(QStringLiteral("a-file"));
        writeAll(blocker, "x");
        QVERIFY(s->saveAs(blocker + QStringLiteral("/s"), &error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("Cannot create")), qPrintable(error));
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
                 (QStringList{QStringLiteral("a-file"), QStringLiteral("copy")}));
    }

    void kernelCatalogJoinsMeasurements()
    {
        QString error;
        const auto catalog = KernelCatalog::load(QFileInfo(fixture()).absolutePath() + QStringLiteral("/job1/kernels.json"), &error);
        QVERIFY2(catalog, qPrintable(error));
        QCOMPARE(catalog->kernels().size(), 5);
        const auto *relu = catalog->find(QStringLiteral("cpp_fused_relu_0"));
        QVERIFY(relu);
        QCOMPARE(relu->postGradNodes, QStringList{QStringLiteral("relu")});
        QVERIFY(!catalog->hasMeasurements());
        QVERIFY(qIsNaN(relu->totalMs));
        QCOMPARE(catalog->kernelsForNode(QStringLiteral("relu")).size(), 1);

        // Inductor's RecordFunction range names carry a "graph_N_" prefix.
        catalog->setMeasurements(QJsonArray{QJsonObject{{"name", "graph_0_cpp_fused_relu_0"}, {"calls", 10}, {"total_ms", 3.0}},
                                            QJsonObject{{"name", "aoti_torch_cpu_addmm_out"}, {"calls", 30}, {"total_ms", 9.0}}});
        QVERIFY(catalog->hasMeasurements());
        relu = catalog->find(QStringLiteral("graph_0_cpp_fused_relu_0"));
        QVERIFY(relu);
        QCOMPARE(relu->calls, 10);
        QCOMPARE(relu->meanMs, 0.3);
        QCOMPARE(relu->share, 0.25); // 3 of 12 ms, no shares given
        QCOMPARE(catalog->find(QStringLiteral("aoti_torch_cpu_addmm_out"))->calls, 10); // 30 over 3 call sites

        QVERIFY(!KernelCatalog::load(fixture(), &error));
        QVERIFY(error.contains(QLatin1String("not a kernels.json")));
    }
};

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
