// SPDX-License-Identifier: GPL-3.0-or-later
// The job context (core/pipeline/job.h): stages map to their span of the bar, nested jobs fill
// their part of the parent's, progress never goes back and stays in [0, 1], every event carries
// the job's id and fields, a stop request ends a stage with "cancelled", a stage's failure code
// is kept.
#include <QTest>

#include "pipeline/job.h"

#include <stop_token>
#include <vector>

using namespace AotStudio::Pipeline;
using AotStudio::Protocol::Json;

namespace {

constexpr StageSpan kTop[] = {{"compile", 0.0, 0.5}, {"measure", 0.5, 0.9}, {"write", 0.9, 1.0}};
constexpr StageSpan kInner[] = {{"load", 0.0, 0.2}, {"build", 0.2, 1.0}};

struct Sink {
    std::vector<Json> events;
    EventFn fn()
    {
        return [this](const Json &e) { events.push_back(e); };
    }
    std::vector<double> fractions() const
    {
        std::vector<double> f;
        for (const auto &e : events)
            if (e.value("type", "") == "progress")
                f.push_back(e.value("fraction", -1.0));
        return f;
    }
};

} // namespace

class TestJob : public QObject {
    Q_OBJECT

private slots:
    void stagesMapToTheirSpan()
    {
        Sink sink;
        const Job job(7, sink.fn(), {}, kTop);
        job.progress("measure", 0.5, "half way");
        QCOMPARE(sink.events.back().value("fraction", -1.0), 0.7);
        QCOMPARE(sink.events.back().value("id", 0), 7);
        QCOMPARE(sink.events.back().value("stage", ""), std::string("measure"));
        job.progress("write", 2.0, "past the end"); // clamped to the stage's end
        QCOMPARE(sink.events.back().value("fraction", -1.0), 1.0);
    }

    void stageEmitsStartDoneAndEnd()
    {
        Sink sink;
        const Job job(1, sink.fn(), {}, kTop);
        const int r = job.stage("measure", "timing", [](Json &artifacts) {
            artifacts["file"] = "x.json";
            return 42;
        });
        QCOMPARE(r, 42);
        QCOMPARE(sink.events.size(), std::size_t(3));
        QCOMPARE(sink.events[0].value("fraction", -1.0), 0.5);
        QCOMPARE(sink.events[1].value("type", ""), std::string("stage_done"));
        QCOMPARE(sink.events[1]["artifacts"].value("file", ""), std::string("x.json"));
        QCOMPARE(sink.events[2].value("fraction", -1.0), 0.9);
        QVERIFY(job.seconds("measure") >= 0);
        QCOMPARE(job.seconds("write"), 0.0);
    }

    void subJobsFillTheirPartAndCarryFields()
    {
        Sink sink;
        const Job top(3, sink.fn(), {}, kTop);
        const Job inner = top.sub(0.0, 0.5, kInner, Json{{"scheme", "int8"}});
        inner.progress("build", 0.5, "building"); // 0.2 + 0.8 * 0.5 = 0.6 of the inner bar
        QCOMPARE(sink.events.back().value("fraction", -1.0), 0.3); // 0.6 of [0, 0.5]
        QCOMPARE(sink.events.back().value("scheme", ""), std::string("int8"));
        QCOMPARE(sink.events.back().value("id", 0), 3);
        inner.log("info", "hello");
        QCOMPARE(sink.events.back().value("type", ""), std::string("log"));
        QCOMPARE(sink.events.back().value("scheme", ""), std::string("int8"));
        // A sub-job of a sub-job: fields merge, the spans compose.
        const Job deeper = inner.sub(0.5, 0.5, kInner, Json{{"bucket", "b4"}});
        deeper.progress("load", 0.0, "start");
        QCOMPARE(sink.events.back().value("fraction", -1.0), 0.3); // not back below 0.3
        deeper.progress("build", 1.0, "end");
        QCOMPARE(sink.events.back().value("fraction", -1.0), 0.5);
        QCOMPARE(sink.events.back().value("scheme", ""), std::string("int8"));
        QCOMPARE(sink.events.back().value("bucket", ""), std::string("b4"));
        // A plain EventFn through the sub-job: its progress is scaled like the job's own.
        const EventFn fn = inner.sink();
        fn(AotStudio::Protocol::makeProgress(99, "build", 1.0, "from elsewhere"));
        QCOMPARE(sink.events.back().value("fraction", -1.0), 0.5);
        QCOMPARE(sink.events.back().value("id", 0), 3);
    }

    void progressIsMonotonicInZeroOne()
    {
        Sink sink;
        const Job top(1, sink.fn(), {}, kTop);
        top.progress("measure", 1.0, "");
        top.progress("compile", 0.0, ""); // an earlier stage reported late
        top.progress("unknown", 0.3, ""); // a stage not in the table
        top.sub(0.0, 0.5, kInner).progress("build", 1.0, "");
        top.progress("write", -5.0, "");
        top.progress("write", 0.5, "");
        const auto f = sink.fractions();
        QCOMPARE(f.size(), std::size_t(6));
        for (std::size_t i = 0; i < f.size(); ++i) {
            QVERIFY(f[i] >= 0.0 && f[i] <= 1.0);
            if (i > 0)
                QVERIFY2(f[i] >= f[i - 1], qPrintable(QString::number(i)));
        }
        QCOMPARE(f.back(), 0.95);
        QCOMPARE(top.fraction(), 0.95);
    }

    void stopEndsTheNextStage()
    {
        Sink sink;
        std::stop_source source;
        const Job job(1, sink.fn(), source.get_token(), kTop);
        source.request_stop();
        bool ran = false;
        try {
            job.stage("measure", "timing", [&](Json &) { ran = true; });
            QFAIL("no JobFailed");
        } catch (const JobFailed &e) {
            QCOMPARE(e.error().code, std::string("cancelled"));
            QCOMPARE(e.error().stage, std::string("measure"));
        }
        QVERIFY(!ran);
        QVERIFY_THROWS_EXCEPTION(JobFailed, job.checkStop("write"));
    }

    void failedStageKeepsItsCode()
    {
        Sink sink;
        const Job job(1, sink.fn(), {}, kTop);
        QCOMPARE(job.failedCode(), std::string());
        QVERIFY_THROWS_EXCEPTION(JobFailed, job.stage("compile", "c", [](Json &) -> int {
            throw JobFailed({"compile", "mismatch", "differs", ""});
        }));
        QCOMPARE(job.failedCode(), std::string("mismatch"));
        // No stage_done for a failed stage.
        for (const auto &e : sink.events)
            QVERIFY(e.value("type", "") != "stage_done");
    }
};

QTEST_GUILESS_MAIN(TestJob)
#include "tst_job.moc"
