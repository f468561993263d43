// SPDX-License-Identifier: GPL-3.0-or-later
// The typed views of paired timing (FORMAT.md "Paired timing, intervals and the machine
// verdict"): intervals, verdicts, cold-start phases, and which speedup a screen shows. Results
// recorded before these fields must parse to "no interval" / "not assessed", never to zeros.
#include "client/compileresult.h"
#include "client/exportresult.h"
#include "client/measurement.h"
#include "client/session.h"

#include <QFile>
#include <QJsonDocument>
#include <QTest>
#include <QTimeZone>

using namespace AotStudio::Client;

namespace {
QJsonObject json(const char *text)
{
    QJsonParseError error;
    const QJsonObject o = QJsonDocument::fromJson(text, &error).object();
    if (error.error != QJsonParseError::NoError)
        qFatal("bad test JSON: %s", qPrintable(error.errorString()));
    return o;
}

QJsonObject fixture(const QString &name)
{
    QFile file(QFINDTESTDATA(QStringLiteral("../fixtures/results/") + name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open fixture %s", qPrintable(name));
    return QJsonDocument::fromJson(file.readAll()).object();
}

void addJob(Session &s, qint64 id, const QString &kind, const QJsonObject &result)
{
    s.recordRequest(
        QJsonObject { { "type", kind }, { "id", id }, { "model", result.value("model") }, { "out", "/nowhere" } });
    s.apply(QJsonObject { { "type", "result" }, { "id", id }, { "result", result } });
}
} // namespace

class TestMeasurement : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void ratioInterval()
    {
        const RatioInterval full = RatioInterval::fromJson(json(
            R"({"i":{"estimate":2.38,"low":2.31,"high":2.44,"level":0.95,"blocks":24,"resamples":2000,"method":"m"}})")
                                                               .value("i"));
        QCOMPARE(full.estimate, 2.38);
        QCOMPARE(full.low, 2.31);
        QCOMPARE(full.high, 2.44);
        QCOMPARE(full.blocks, 24);
        QCOMPARE(full.resamples, 2000);
        QVERIFY(full.hasBounds() && full.hasObject() && !full.isSlower() && !full.straddlesOne());

        // Too few rounds: the object is there, its bounds are null.
        const QJsonObject few
            = json(R"({"speedup":1.5,"speedup_interval":{"estimate":1.5,"low":null,"high":null,"blocks":2}})");
        const RatioInterval r = RatioInterval::fromJson(few.value("speedup_interval"), few.value("speedup"));
        QVERIFY(r.isValid() && r.hasObject() && !r.hasBounds());
        QCOMPARE(r.blocks, 2);

        // An older result: the bare ratio only.
        const QJsonObject old = json(R"({"speedup":2.83})");
        const RatioInterval bare = RatioInterval::fromJson(old.value("speedup_interval"), old.value("speedup"));
        QCOMPARE(bare.estimate, 2.83);
        QVERIFY(!bare.hasObject() && !bare.hasBounds());

        // Nothing at all.
        QVERIFY(!RatioInterval::fromJson(QJsonValue()).isValid());

        // Slower, and an interval that holds 1.
        QVERIFY(
            RatioInterval::fromJson(json(R"({"i":{"estimate":0.81,"low":0.78,"high":0.84}})").value("i")).isSlower());
        const RatioInterval unclear
            = RatioInterval::fromJson(json(R"({"i":{"estimate":0.97,"low":0.91,"high":1.04}})").value("i"));
        QVERIFY(!unclear.isSlower());
        QVERIFY(unclear.straddlesOne());
        QVERIFY(!unclear.isUnreliableWidth());
        // An interval wider than the estimate itself says nothing reliable.
        QVERIFY(RatioInterval::fromJson(json(R"({"i":{"estimate":2.44,"low":0.01,"high":3.14}})").value("i"))
                    .isUnreliableWidth());
        QVERIFY(!RatioInterval::fromJson(json(R"({"i":{"estimate":2.44,"low":null,"high":null}})").value("i"))
                     .isUnreliableWidth());
    }

    void verdicts_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("verdict");
        QTest::addColumn<int>("threads");
        QTest::newRow("ok") << R"({"threads":4,"measurement":{"verdict":"ok","threads":2,"usable_cpus":2}})"
                            << int(Measurement::Verdict::Ok) << 2;
        QTest::newRow("noisy") << R"({"measurement":{"verdict":"noisy","reasons":["spread"]}})"
                               << int(Measurement::Verdict::Noisy) << 0;
        QTest::newRow("unreliable") << R"({"threads":3,"measurement":{"verdict":"unreliable","reasons":["load"]}})"
                                    << int(Measurement::Verdict::Unreliable) << 3;
        QTest::newRow("unknown") << R"({"measurement":{"verdict":"unknown","reasons":["/proc/stat unreadable"]}})"
                                 << int(Measurement::Verdict::Unknown) << 0;
        QTest::newRow("a newer word") << R"({"measurement":{"verdict":"suspicious"}})"
                                      << int(Measurement::Verdict::Unknown) << 0;
        QTest::newRow("missing") << R"({})" << int(Measurement::Verdict::Missing) << 0;
    }

    void verdicts()
    {
        QFETCH(QString, text);
        QFETCH(int, verdict);
        QFETCH(int, threads);
        const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
        const Measurement m = Measurement::fromJson(o.value("measurement"), o.value("threads"));
        QCOMPARE(int(m.verdict), verdict);
        QCOMPARE(m.threads, threads);
        QCOMPARE(m.isPresent(), verdict != int(Measurement::Verdict::Missing));
    }

    void compileResultCarriesIntervalAndVerdict()
    {
        const CompileResult r = CompileResult::fromJson(fixture(QStringLiteral("compile_unreliable_cpu.json")));
        QCOMPARE(r.speedup, 326.94);
        QCOMPARE(r.speedupInterval.low, 118.2);
        QCOMPARE(r.speedupInterval.high, 351.7);
        QCOMPARE(r.speedupInterval.blocks, 24);
        QCOMPARE(r.threads, 2);
        QVERIFY(r.measurement.isUnreliable());
        QCOMPARE(r.measurement.usableCpus, 2);
        QCOMPARE(r.measurement.reasons.size(), 2);
        QVERIFY(r.measurement.reasons.first().contains(QLatin1String("other runnable tasks")));
        QCOMPARE(r.measurement.notes.size(), 1);
        QCOMPARE(r.warnings.size(), 1);
        QVERIFY(r.otherWarnings().isEmpty()); // the "measurement: …" line is the verdict itself

        const CompileResult old = CompileResult::fromJson(fixture(QStringLiteral("compile_cpu.json")));
        QVERIFY(!old.measurement.isPresent());
        QVERIFY(!old.speedupInterval.hasObject());
        QCOMPARE(old.speedupInterval.estimate, old.speedup);
        QCOMPARE(old.threads, 0);
    }

    void coldStartPhases()
    {
        const ExportResult e = ExportResult::fromJson(json(R"({"bundle":"/b","cold_start":{
            "bundle_ms":310,"eager_ms":2900,"ratio":9.35,"runs":5,
            "ratio_interval":{"estimate":9.35,"low":8.9,"high":9.8,"blocks":5},
            "phases":{"to_main_ms":{"median_ms":120,"low_ms":112,"high_ms":131,"runs":5},"verify_ms":null,
                      "load_ms":{"median_ms":140,"low_ms":null,"high_ms":null,"runs":2},"first_run_ms":{}}}})"));
        const ColdStart &c = e.coldStart;
        QVERIFY(c.isMeasured());
        QCOMPARE(c.bundleMs, 310.0);
        QCOMPARE(c.ratioInterval.low, 8.9);
        QVERIFY(c.hasPhases());
        QCOMPARE(c.phases[ColdStart::ToMain].medianMs, 120.0);
        QCOMPARE(c.phases[ColdStart::ToMain].highMs, 131.0);
        QVERIFY(!c.phases[ColdStart::Verify].isValid());
        QVERIFY(c.phases[ColdStart::Load].isValid() && !c.phases[ColdStart::Load].hasBounds());
        QVERIFY(!c.phases[ColdStart::FirstRun].isValid());

        // Recordings before bundle_ms: aoti_run_ms, no interval, no phases.
        const ColdStart old = ColdStart::fromJson(fixture(QStringLiteral("profile_cuda.json")).value("cold_start"));
        QCOMPARE(old.bundleMs, 310.0);
        QCOMPARE(old.ratio, 9.35);
        QCOMPARE(old.bundleRunsOk, 3);
        QVERIFY(!old.hasPhases());
        QVERIFY(!old.ratioInterval.hasObject());
    }

    void laterProfileSupersedesCompile()
    {
        const QJsonObject compile = fixture(QStringLiteral("compile_unreliable_cpu.json"));
        QJsonObject profile = fixture(QStringLiteral("profile_paired_cpu.json"));
        {
            Session s;
            addJob(s, 1, QStringLiteral("compile"), compile);
            QCOMPARE(int(SpeedupFigure::current(s).source), int(SpeedupFigure::Source::Compile));
            addJob(s, 2, QStringLiteral("profile"), profile);
            const SpeedupFigure f = SpeedupFigure::current(s);
            QCOMPARE(int(f.source), int(SpeedupFigure::Source::Profile));
            QCOMPARE(f.job, 2);
            QCOMPARE(f.speedup.estimate, 2.38);
            QCOMPARE(f.speedup.low, 2.31);
            QCOMPARE(f.eagerMs, 0.081);
            QCOMPARE(f.compiledMs, 0.034);
            QCOMPARE(int(f.measurement.verdict), int(Measurement::Verdict::Noisy));
            QCOMPARE(f.measuredAt.toUTC(), QDateTime(QDate(2026, 11, 30), QTime(13, 0), QTimeZone::utc()));
        }
        {
            // A profile of another device does not replace the compile's figure.
            Session s;
            addJob(s, 1, QStringLiteral("compile"), compile);
            profile.insert("device", "cuda");
            addJob(s, 2, QStringLiteral("profile"), profile);
            QCOMPARE(int(SpeedupFigure::current(s).source), int(SpeedupFigure::Source::Compile));
        }
        {
            // Nor does one made before the compile.
            Session s;
            addJob(s, 1, QStringLiteral("profile"), fixture(QStringLiteral("profile_paired_cpu.json")));
            addJob(s, 2, QStringLiteral("compile"), compile);
            const SpeedupFigure f = SpeedupFigure::current(s);
            QCOMPARE(int(f.source), int(SpeedupFigure::Source::Compile));
            QCOMPARE(f.speedup.estimate, 326.94);
            QVERIFY(f.measurement.isUnreliable());
        }
        QVERIFY(!SpeedupFigure::current(Session()).isValid());
    }
};

QTEST_GUILESS_MAIN(TestMeasurement)
#include "tst_measurement.moc"
