// SPDX-License-Identifier: GPL-3.0-or-later
// The typed profile and quantize results (issue 20 item 3): every recorded fixture parses, fields
// of the wrong JSON type are refused with the field named, and damaged bytes never crash a
// reader (issue 19 fuzzes the same functions). The regional part of a compile result (issue 14
// item 6).
#include "client/compileresult.h"
#include "client/jobrequest.h"
#include "client/profileresult.h"
#include "client/quantizeresult.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

#include <algorithm>

using namespace AotStudio::Client;

namespace {
QByteArray fixtureBytes(const QString &name)
{
    QFile file(QFINDTESTDATA(QStringLiteral("../fixtures/results/") + name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(name));
    return file.readAll();
}

QJsonObject fixture(const QString &name)
{
    return QJsonDocument::fromJson(fixtureBytes(name)).object();
}
} // namespace

class TestResultParse : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void profileFixtures_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("isProfile");
        for (const char *name :
             {"profile_cpu.json", "profile_cuda.json", "profile_paired_cpu.json", "profile_replay_cpu.json"})
            QTest::newRow(name) << QString::fromLatin1(name) << true;
        for (const char *name :
             {"compile_cpu.json", "compile_bf16_cpu.json", "compile_unreliable_cpu.json", "compile_verify_cpu.json"})
            QTest::newRow(name) << QString::fromLatin1(name) << false;
    }
    void profileFixtures()
    {
        QFETCH(QString, name);
        QFETCH(bool, isProfile);
        const auto parsed = parseProfileResult(fixtureBytes(name));
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        QCOMPARE(parsed.value->isProfile(), isProfile);
        QVERIFY(!parsed.value->model.isEmpty());
        QVERIFY(parsed.value->variants.size() >= 2);
        QCOMPARE(parsed.value->variants.first().name, QStringLiteral("eager"));
        QVERIFY(parsed.value->variants.first().stats.isValid());
    }

    void profileFields()
    {
        const auto parsed = parseProfileResult(fixture(QStringLiteral("profile_cpu.json")));
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        const ProfileResult &p = *parsed.value;
        QVERIFY(!p.kernels.isEmpty());
        QVERIFY(!p.kernelsOf(QStringLiteral("aoti")).isEmpty());
        QVERIFY(std::all_of(p.kernels.cbegin(), p.kernels.cend(), [](const ProfileKernel &k) {
            return k.source == k.variant || k.source == QStringLiteral("ops:") + k.variant;
        }));
        QVERIFY(!p.tracePath.isEmpty());
        QVERIFY(!p.gpu.present);
        const auto cuda = parseProfileResult(fixture(QStringLiteral("profile_cuda.json")));
        QVERIFY2(cuda.ok(), qPrintable(cuda.error));
        QVERIFY(cuda.value->gpu.present);
        QVERIFY(std::any_of(cuda.value->kernels.cbegin(), cuda.value->kernels.cend(),
                            [](const ProfileKernel &k) { return k.hasCuda && !k.grid.isEmpty(); }));
    }

    // The burst replay (PROFILE.md "Burst replay"): rows per rate and mode, spawn last, the
    // saturated flag and the spawn ratios with their intervals.
    void replayFields()
    {
        const auto parsed = parseProfileResult(fixture(QStringLiteral("profile_replay_cpu.json")));
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        const ProfileReplay &r = parsed.value->replay;
        QVERIFY(r.present);
        QCOMPARE(r.rates, (QList<double>{5, 20, 50}));
        QCOMPARE(r.modes(),
                 (QStringList{QStringLiteral("request"), QStringLiteral("worker"), QStringLiteral("spawn"),
                              QStringLiteral("eager")}));
        QCOMPARE(r.saturationShare, 0.8);
        QCOMPARE(r.rows.size(), 12);
        for (const QString &mode : r.modes()) {
            const QList<ReplayRow> rows = r.rowsOf(mode);
            QCOMPARE(rows.size(), 3);
            QCOMPARE(rows.first().rate, 5.0);
            QCOMPARE(rows.last().rate, 50.0);
            for (const ReplayRow &row : rows) {
                QVERIFY(row.median.isValid() && row.median.estimate > 0);
                QVERIFY(row.p99.estimate >= row.median.estimate);
                QCOMPARE(row.baseline, mode == QLatin1String("spawn") || mode == QLatin1String("eager"));
                QVERIFY(!qIsNaN(row.throughput) && !qIsNaN(row.cpuBusyShare) && row.requests > 0);
                QVERIFY(qIsNaN(row.gpuBusyShare)); // a CPU bundle: no GPU figure, and no reason either
                QVERIFY(row.gpuBusyWhy.isEmpty());
            }
        }
        QVERIFY(std::any_of(r.rows.cbegin(), r.rows.cend(), [](const ReplayRow &row) { return row.saturated; }));
        QCOMPARE(r.ratios.size(), 12); // spawn and eager over request and worker, per rate
        QVERIFY(std::any_of(r.ratios.cbegin(), r.ratios.cend(), [](const ReplayRatio &x) { return !x.comparable; }));
        QCOMPARE(r.runs.size(), 3);
        QVERIFY(r.runs.first().measurement.isPresent());
        // A profile without it: not present.
        QVERIFY(!parseProfileResult(fixture(QStringLiteral("profile_paired_cpu.json"))).value->replay.present);
    }

    // A recorded regional compile (FORMAT.md "Regional compile", --regional --compare-whole): the
    // blocks, both compile times, the three medians and the two ratios with their intervals. It
    // has no package of its own; the whole-compile fields it lacks are not an error.
    void regionalFields()
    {
        const QJsonObject o = fixture(QStringLiteral("compile_regional_cpu.json"));
        QVERIFY(!o.contains(QLatin1String("package")));
        const auto parsed = parseRegionalResult(o);
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        const RegionalResult &g = *parsed.value;
        QCOMPARE(g.blocks.size(), 1);
        const RegionalBlock &b = g.blocks.first();
        QCOMPARE(b.className, QStringLiteral("Block"));
        QCOMPARE(b.module, QStringLiteral("tests/fixtures/repeated_blocks_factory.py"));
        QCOMPARE(b.instances,
                 (QStringList{QStringLiteral("blocks.0"), QStringLiteral("blocks.1"), QStringLiteral("blocks.2"),
                              QStringLiteral("blocks.3")}));
        QCOMPARE(b.parametersPerInstance, qint64(1120));
        QCOMPARE(b.package, QStringLiteral("/OUT/blocks/Block/package.pt2"));
        QCOMPARE(b.packageBytes, 1599299.0);
        QVERIFY(b.exportSeconds > 0 && b.compileSeconds > 0);
        QCOMPARE(b.totalSeconds(), b.exportSeconds + b.compileSeconds);
        QCOMPARE(g.instanceCount(), 4);
        QCOMPARE(g.layout, QStringLiteral("/OUT/blocks"));
        QVERIFY(g.parameterShare > 0.9 && g.parameterShare < 1);
        QCOMPARE(g.packageBytes, 1599299.0);
        // The total is the blocks' export + compile.
        QVERIFY(qAbs(g.compileSeconds - b.totalSeconds()) < 1e-9);
        QVERIFY(g.eagerMs > 0 && g.medianMs > 0);
        QCOMPARE(g.medianMs, o.value(QLatin1String("compiled_ms")).toDouble());
        QVERIFY(g.speedupVsEager.hasBounds());
        QVERIFY(g.speedupVsEager.low <= g.speedupVsEager.estimate
                && g.speedupVsEager.estimate <= g.speedupVsEager.high);
        QCOMPARE(g.speedupVsEager.blocks, 25);
        QVERIFY(g.hasWhole);
        QCOMPARE(g.wholePackage, QStringLiteral("/OUT/model.pt2"));
        QCOMPARE(g.wholePackageBytes, 1796113.0);
        QVERIFY(g.wholeCompileSeconds > g.compileSeconds);
        QVERIFY(g.wholeMedianMs > 0);
        QVERIFY(g.speedupVsWhole.hasBounds());
        QVERIFY(qAbs(g.compileTimeRatio - g.compileSeconds / g.wholeCompileSeconds) < 1e-9);

        // Through the compile result: regional, no package, the blocks parsed.
        const CompileResult r = CompileResult::fromJson(o);
        QVERIFY(r.isRegional());
        QVERIFY(r.package.isEmpty());
        QVERIFY(r.regional);
        QVERIFY(r.regionalError.isEmpty());
        QCOMPARE(r.regional->blocks.size(), 1);
        QCOMPARE(r.compiledMs, g.medianMs);
        // A whole compile is not regional and carries no regional part.
        const CompileResult whole = CompileResult::fromJson(fixture(QStringLiteral("compile_cpu.json")));
        QVERIFY(!whole.isRegional());
        QVERIFY(!whole.regional);
        // The compile result's latency view reads it too (the Session's parse of a compile job).
        const auto latency = parseProfileResult(o);
        QVERIFY2(latency.ok(), qPrintable(latency.error));
        QCOMPARE(latency.value->kind, ProfileResult::Kind::Compile);
    }

    void regionalWithoutWhole()
    {
        // Without compare_whole `whole` is null and there is no compile time ratio; without
        // measuring, the medians and the ratio are null: all missing, none an error.
        const auto parsed = parseRegionalResult(QJsonDocument::fromJson(
                                                    R"({"mode": "regional", "eager_ms": null, "whole": null,
                "regional": {"blocks": [{"class": "Layer", "instances": ["l.0", "l.1"]}], "median_ms": null,
                             "speedup_vs_eager": null, "compile_seconds": 3.5, "layout": null}})")
                                                    .object());
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        QVERIFY(!parsed.value->hasWhole);
        QVERIFY(qIsNaN(parsed.value->compileTimeRatio));
        QVERIFY(qIsNaN(parsed.value->medianMs));
        QVERIFY(!parsed.value->speedupVsEager.isValid());
        QVERIFY(!parsed.value->speedupVsWhole.isValid());
        QCOMPARE(parsed.value->compileSeconds, 3.5);
        QCOMPARE(parsed.value->blocks.first().instances.size(), 2);
        QVERIFY(qIsNaN(parsed.value->blocks.first().totalSeconds()));
    }

    void refusesBadRegional_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("field");
        QTest::newRow("regional array") << QByteArray("{\"regional\": []}")
                                        << QStringLiteral("regional: expected an object");
        QTest::newRow("blocks object") << QByteArray("{\"regional\": {\"blocks\": {}}}")
                                       << QStringLiteral("regional.blocks: expected an array");
        QTest::newRow("block string") << QByteArray("{\"regional\": {\"blocks\": [\"Block\"]}}")
                                      << QStringLiteral("regional.blocks[0]: expected an object");
        QTest::newRow("instances string")
            << QByteArray("{\"regional\": {\"blocks\": [{\"class\": \"B\", \"instances\": \"b.0\"}]}}")
            << QStringLiteral("regional.blocks[0].instances: expected an array");
        QTest::newRow("instance number") << QByteArray("{\"regional\": {\"blocks\": [{\"instances\": [\"b.0\", 1]}]}}")
                                         << QStringLiteral("regional.blocks[0].instances[1]: expected a string");
        QTest::newRow("parameters fraction")
            << QByteArray("{\"regional\": {\"blocks\": [{\"parameters_per_instance\": 2.5}]}}")
            << QStringLiteral("regional.blocks[0].parameters_per_instance: expected a count");
        QTest::newRow("block seconds string")
            << QByteArray("{\"regional\": {\"blocks\": [{\"compile_seconds\": \"18\"}]}}")
            << QStringLiteral("regional.blocks[0].compile_seconds: expected a number");
        QTest::newRow("share string") << QByteArray("{\"regional\": {\"parameter_share\": \"91%\"}}")
                                      << QStringLiteral("regional.parameter_share: expected a number");
        QTest::newRow("speedup number") << QByteArray("{\"regional\": {\"speedup_vs_eager\": 2.4}}")
                                        << QStringLiteral("regional.speedup_vs_eager: expected an object");
        QTest::newRow("speedup low string")
            << QByteArray("{\"regional\": {\"speedup_vs_eager\": {\"estimate\": 2.4, \"low\": \"2\"}}}")
            << QStringLiteral("regional.speedup_vs_eager.low: expected a number");
        QTest::newRow("whole string") << QByteArray("{\"regional\": {}, \"whole\": \"model.pt2\"}")
                                      << QStringLiteral("whole: expected an object");
        QTest::newRow("whole median string") << QByteArray("{\"whole\": {\"median_ms\": \"71\"}}")
                                             << QStringLiteral("whole.median_ms: expected a number");
        QTest::newRow("vs whole high string")
            << QByteArray("{\"whole\": {\"regional_speedup_vs_whole\": {\"estimate\": 1, \"high\": true}}}")
            << QStringLiteral("whole.regional_speedup_vs_whole.high: expected a number");
        QTest::newRow("eager_ms string") << QByteArray("{\"eager_ms\": \"168\"}")
                                         << QStringLiteral("eager_ms: expected a number");
    }
    void refusesBadRegional()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, field);
        const QJsonObject o = QJsonDocument::fromJson(json).object();
        QVERIFY(!o.isEmpty());
        const auto parsed = parseRegionalResult(o);
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.error.contains(field), qPrintable(parsed.error));
        QVERIFY2(parsed.error.startsWith(QStringLiteral("regional compile result")), qPrintable(parsed.error));
        // The compile result keeps the rest and says why its regional part is missing.
        QJsonObject regional = o;
        regional.insert(QLatin1String("mode"), QStringLiteral("regional"));
        const CompileResult r = CompileResult::fromJson(regional);
        QVERIFY(r.isRegional());
        QVERIFY(!r.regional);
        QCOMPARE(r.regionalError, parsed.error);
    }

    void quantizeFixtures_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("quantize_cpu") << QStringLiteral("quantize_cpu.json");
        QTest::newRow("quantize_paired_cpu") << QStringLiteral("quantize_paired_cpu.json");
    }
    void quantizeFixtures()
    {
        QFETCH(QString, name);
        const auto parsed = parseQuantizeResult(fixtureBytes(name));
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        const QuantizeResult &q = *parsed.value;
        QVERIFY(!q.schemes.isEmpty());
        QVERIFY(q.find(QStringLiteral("fp32")));
        QVERIFY(std::any_of(q.schemes.cbegin(), q.schemes.cend(),
                            [](const QuantizeScheme &s) { return !s.layers.isEmpty(); }));
        if (!q.bestScheme.isEmpty())
            QVERIFY(q.find(q.bestScheme)->best);
    }

    void refusesBadProfiles_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("field");
        QTest::newRow("not JSON") << QByteArray("{\"variants\": [") << QStringLiteral("not JSON");
        QTest::newRow("array") << QByteArray("[1, 2]") << QStringLiteral("expected an object");
        QTest::newRow("empty") << QByteArray("") << QStringLiteral("not JSON");
        QTest::newRow("neither") << QByteArray("{\"model\": \"m\"}") << QStringLiteral("neither a profile");
        QTest::newRow("variants number") << QByteArray("{\"variants\": 3}")
                                         << QStringLiteral("variants: expected an array");
        QTest::newRow("variant not object") << QByteArray("{\"variants\": [5]}") << QStringLiteral("variants[0]");
        QTest::newRow("median string") << QByteArray(
            "{\"variants\": [{\"name\": \"eager\", \"statistics\": {\"median_ms\": \"1\"}}]}")
                                       << QStringLiteral("variants[0].statistics.median_ms: expected a number");
        QTest::newRow("runs negative") << QByteArray(
            "{\"variants\": [{\"statistics\": {\"median_ms\": 1, \"runs\": -4}}]}")
                                       << QStringLiteral("runs: expected a count");
        QTest::newRow("runs fraction") << QByteArray(
            "{\"variants\": [{\"statistics\": {\"median_ms\": 1, \"runs\": 1.5}}]}")
                                       << QStringLiteral("runs: expected an integer");
        QTest::newRow("runs huge") << QByteArray(
            "{\"variants\": [{\"statistics\": {\"median_ms\": 1, \"runs\": 1e300}}]}")
                                   << QStringLiteral("runs: expected an integer");
        QTest::newRow("kernels object") << QByteArray("{\"variants\": [], \"kernels\": {}}")
                                        << QStringLiteral("kernels: expected an array");
        QTest::newRow("grid strings") << QByteArray(
            "{\"variants\": [], \"kernels\": [{\"name\": \"k\", \"cuda\": {\"grid\": [\"a\"]}}]}")
                                      << QStringLiteral("kernels[0].cuda.grid[0]");
        QTest::newRow("throughput row") << QByteArray("{\"variants\": [], \"throughput\": [{\"runners\": true}]}")
                                        << QStringLiteral("throughput[0].runners");
        QTest::newRow("warnings numbers")
            << QByteArray("{\"variants\": [], \"warnings\": [1]}") << QStringLiteral("warnings[0]");
        QTest::newRow("replay not object")
            << QByteArray("{\"variants\": [], \"replay\": [1]}") << QStringLiteral("replay: expected an object");
        QTest::newRow("replay rows object") << QByteArray("{\"variants\": [], \"replay\": {\"rows\": {}}}")
                                            << QStringLiteral("replay.rows: expected an array");
        QTest::newRow("replay rate string") << QByteArray("{\"variants\": [], \"replay\": {\"rates\": [5, \"20\"]}}")
                                            << QStringLiteral("replay.rates[1]: expected a number");
        QTest::newRow("replay median string")
            << QByteArray("{\"variants\": [], \"replay\": {\"rows\": [{\"mode\": \"worker\", \"rate\": 5,"
                          " \"median_ms\": {\"estimate\": \"1.2\"}}]}}")
            << QStringLiteral("replay.rows[0].median_ms.estimate: expected a number");
        QTest::newRow("replay saturated string")
            << QByteArray("{\"variants\": [], \"replay\": {\"rows\": [{\"mode\": \"spawn\", \"saturated\": \"yes\"}]}}")
            << QStringLiteral("replay.rows[0].saturated");
        QTest::newRow("replay ratio comparable")
            << QByteArray("{\"variants\": [], \"replay\": {\"ratios\": [{\"comparable\": 1}]}}")
            << QStringLiteral("replay.ratios[0].comparable");
        QTest::newRow("compile speedup object")
            << QByteArray("{\"eager\": {\"median_ms\": 1}, \"compiled\": {\"median_ms\": 1}, \"speedup\": {}}")
            << QStringLiteral("speedup: expected a number");
    }
    void refusesBadProfiles()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, field);
        const auto parsed = parseProfileResult(json);
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.error.contains(field), qPrintable(parsed.error));
        QVERIFY(parsed.error.startsWith(QStringLiteral("profile result")));
    }

    void refusesBadQuantize_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("field");
        QTest::newRow("not JSON") << QByteArray("nul") << QStringLiteral("not JSON");
        QTest::newRow("schemes object") << QByteArray("{\"schemes\": {}}")
                                        << QStringLiteral("schemes: expected an array");
        QTest::newRow("scheme string") << QByteArray("{\"schemes\": [\"fp32\"]}") << QStringLiteral("schemes[0]");
        QTest::newRow("peak_bytes number") << QByteArray("{\"schemes\": [{\"scheme\": \"x\", \"peak_bytes\": 3}]}")
                                           << QStringLiteral("schemes[0].peak_bytes: expected an object");
        QTest::newRow("layer error string")
            << QByteArray("{\"schemes\": [{\"layers\": [{\"name\": \"fc\", \"max_abs_error\": \"big\"}]}]}")
            << QStringLiteral("schemes[0].layers[0].max_abs_error");
        QTest::newRow("output error string")
            << QByteArray("{\"schemes\": [{\"accuracy\": {\"outputs\": [{\"name\": \"logits\", \"cosine\": \"1\"}]}}]}")
            << QStringLiteral("schemes[0].accuracy.outputs[0].cosine");
        QTest::newRow("best scheme number")
            << QByteArray("{\"best\": {\"scheme\": 1}}") << QStringLiteral("best.scheme");
        QTest::newRow("calibration samples")
            << QByteArray("{\"calibration\": {\"samples\": \"32\"}}") << QStringLiteral("calibration.samples");
    }
    void refusesBadQuantize()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, field);
        const auto parsed = parseQuantizeResult(json);
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.error.contains(field), qPrintable(parsed.error));
    }

    void nullsAreMissing()
    {
        // Older engines send null (or nothing) for figures they did not measure: not an error.
        const auto p = parseProfileResult(QByteArray(
            "{\"variants\": [{\"name\": \"aoti\", \"available\": null, \"statistics\": null, \"memory\": null}],"
            " \"gpu\": null, \"cold_start\": null, \"replay\": null, \"throughput\": null, \"collector\": null}"));
        QVERIFY2(p.ok(), qPrintable(p.error));
        QVERIFY(!p.value->replay.present);
        QVERIFY(!p.value->variants.first().available);
        QVERIFY(qIsNaN(p.value->variants.first().peakBytes));
        const auto q
            = parseQuantizeResult(QByteArray("{\"schemes\": [{\"scheme\": \"fp8\", \"status\": \"unsupported\","
                                             " \"eager_ms\": null, \"accuracy\": null, \"peak_bytes\": null}]}"));
        QVERIFY2(q.ok(), qPrintable(q.error));
        QVERIFY(qIsNaN(q.value->schemes.first().eagerMs));
    }

    void requestsAreTyped()
    {
        CompileRequest compile;
        compile.model = QStringLiteral("sample:mlp");
        compile.out = QStringLiteral("/out");
        ProfileRequest profile;
        profile.compile = compile;
        profile.throughputRunners = {1, 2};
        const QJsonObject p = profile.toJson(7);
        QCOMPARE(p.value(QLatin1String("type")).toString(), QStringLiteral("profile"));
        QCOMPARE(p.value(QLatin1String("id")).toInteger(), 7);
        QCOMPARE(p.value(QLatin1String("model")).toString(), QStringLiteral("sample:mlp"));
        QCOMPARE(p.value(QLatin1String("throughput")).toArray(), (QJsonArray{1, 2}));
        QVERIFY(!p.contains(QLatin1String("threads"))); // 0: the engine's default
        QVERIFY(!p.contains(QLatin1String("package")));
        profile.package = QStringLiteral("/out/model.pt2");
        profile.threads = 2;
        QCOMPARE(profile.toJson(7).value(QLatin1String("package")).toString(), QStringLiteral("/out/model.pt2"));
        QCOMPARE(profile.toJson(7).value(QLatin1String("threads")).toInt(), 2);
        QVERIFY(!p.contains(QLatin1String("replay"))); // no rates: no replay, the engine's default
        profile.replayRates = {5, 20};
        profile.replaySeconds = 2;
        const QJsonObject replay = profile.toJson(7).value(QLatin1String("replay")).toObject();
        QCOMPARE(replay.value(QLatin1String("rates")).toArray(), (QJsonArray{5.0, 20.0}));
        QCOMPARE(replay.value(QLatin1String("seconds")).toDouble(), 2.0);

        QuantizeRequest quantize;
        quantize.compile = compile;
        quantize.schemes = {QStringLiteral("fp32"), QStringLiteral("int8-dynamic")};
        const QJsonObject q = quantize.toJson(8);
        QCOMPARE(q.value(QLatin1String("type")).toString(), QStringLiteral("quantize"));
        QVERIFY(!q.contains(QLatin1String("tolerance"))); // per scheme, chosen by the engine
        QVERIFY(!q.contains(QLatin1String("max_error")));
        QCOMPARE(q.value(QLatin1String("schemes")).toArray().size(), 2);
        QCOMPARE(q.value(QLatin1String("calibration_samples")).toInt(), 32);
    }

    void damagedBytesNeverCrash()
    {
        // A small in-test fuzz: flipped, cut and duplicated bytes of real results. Each parse
        // either succeeds or says why; it must never crash, hang or throw.
        QRandomGenerator rng(20);
        for (const char *name : {"profile_cuda.json", "quantize_cpu.json", "compile_cpu.json"}) {
            const QByteArray original = fixtureBytes(QString::fromLatin1(name));
            for (int i = 0; i < 300; ++i) {
                QByteArray bytes = original;
                const int edits = 1 + int(rng.bounded(4));
                for (int e = 0; e < edits && !bytes.isEmpty(); ++e) {
                    const qsizetype at = rng.bounded(int(bytes.size()));
                    switch (rng.bounded(3)) {
                    case 0:
                        bytes[at] = char(rng.bounded(256));
                        break;
                    case 1:
                        bytes.truncate(at);
                        break;
                    default:
                        bytes.insert(at, bytes.mid(at, 16));
                        break;
                    }
                }
                const auto p = parseProfileResult(bytes);
                const auto q = parseQuantizeResult(bytes);
                QVERIFY(p.ok() || !p.error.isEmpty());
                QVERIFY(q.ok() || !q.error.isEmpty());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestResultParse)
#include "tst_resultparse.moc"
