// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-cli profile end to end on the CPU (core/profiler/PROFILE.md): one real compile of
// sample:mlp, then the profile's files and fields, and the refusals. No timing thresholds.
#include "processrun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace {

using TestSupport::lastLine;
using TestSupport::readJson;
using TestSupport::Run;

Run runCli(const QStringList &args)
{
    return TestSupport::run(QStringLiteral(AOTSTUDIO_CLI_PATH), args, 600000);
}

QString fixture(const char *name)
{
    return QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/") + QLatin1String(name);
}

/// Small measuring budget: the test checks shapes, not speed.
QStringList quick()
{
    return {QStringLiteral("--runs"), QStringLiteral("16"), QStringLiteral("--min-runs"), QStringLiteral("4"),
            QStringLiteral("--warmup"), QStringLiteral("2"), QStringLiteral("--max-seconds"), QStringLiteral("0.5"),
            QStringLiteral("--runners"), QStringLiteral("1,2"), QStringLiteral("--throughput-seconds"), QStringLiteral("0.1"),
            QStringLiteral("--cold-start-runs"), QStringLiteral("1")};
}

/// A short burst replay (one rate, one second, warm workers and the baselines: spawn, the Python eager server).
QStringList quickReplay()
{
    return {QStringLiteral("--replay-rates"),   QStringLiteral("10"),
            QStringLiteral("--replay-seconds"), QStringLiteral("1"),
            QStringLiteral("--replay-modes"),   QStringLiteral("worker")};
}

} // namespace

class TstProfile : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_out = m_dir.filePath(QStringLiteral("mlp"));
        m_run = runCli(QStringList{QStringLiteral("profile"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                                   QStringLiteral("--out"), m_out, QStringLiteral("--json")}
                       + quick() + quickReplay());
        QVERIFY2(m_run.exitCode == 0, m_run.err.right(3000).constData());
        m_result = TestSupport::result(m_run.out);
        QVERIFY2(!m_result.isEmpty(), m_run.out.right(2000).constData());
        // The same package relabelled for CUDA (what a CUDA build's package says about itself).
        const Run relabel = TestSupport::run(QStringLiteral(AOTSTUDIO_PYTHON_EXECUTABLE),
                                             {fixture("relabel_package.py"), m_out + QStringLiteral("/model.pt2"),
                                              m_dir.filePath(QStringLiteral("cuda_model.pt2")), QStringLiteral("cuda")});
        QVERIFY2(relabel.exitCode == 0, relabel.err.constData());
    }

    void profileJsonMatchesResult()
    {
        const QJsonObject p = readJson(m_out + QStringLiteral("/profile.json"));
        QCOMPARE(p.value(QLatin1String("format")).toString(), QStringLiteral("aotstudio.profile"));
        QCOMPARE(p.value(QLatin1String("format_version")).toInt(), 1);
        QCOMPARE(p.value(QLatin1String("model")).toString(), m_result.value(QLatin1String("model")).toString());
        QCOMPARE(p.value(QLatin1String("package_source")).toString(), QStringLiteral("compiled"));
        QVERIFY(QFile::exists(p.value(QLatin1String("package")).toString()));
        const auto collector = p.value(QLatin1String("collector")).toObject();
        QCOMPARE(collector.value(QLatin1String("name")).toString(), QStringLiteral("record_function"));
        // The CLI exports the AOTI range functions, so a CPU package's kernel ranges come from
        // the shim hook (no RecordFunction); a sample of the traced calls is traced.
        QCOMPARE(collector.value(QLatin1String("aoti_ranges")).toString(), QStringLiteral("aoti_shim"));
        QVERIFY(collector.value(QLatin1String("sample_every")).toInt() >= 1);
        QCOMPARE(p.value(QLatin1String("device_info")).toObject().value(QLatin1String("type")).toString(), QStringLiteral("cpu"));
        QVERIFY(p.value(QLatin1String("gpu")).isNull());
        // The model's inputs and outputs by name (a single-tensor forward: "output").
        const QJsonArray outputs = p.value(QLatin1String("outputs")).toArray();
        QCOMPARE(outputs.size(), 1);
        QCOMPARE(outputs[0].toObject().value(QLatin1String("name")).toString(), QStringLiteral("output"));
        QVERIFY(!p.value(QLatin1String("inputs"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QLatin1String("name"))
                     .toString()
                     .isEmpty());
    }

    void variantsHaveStatisticsAndOverhead()
    {
        QSet<QString> names;
        for (const auto &v : m_result.value(QLatin1String("variants")).toArray()) {
            const auto o = v.toObject();
            const QString name = o.value(QLatin1String("name")).toString();
            names << name;
            if (!o.value(QLatin1String("available")).toBool()) {
                QVERIFY2(!o.value(QLatin1String("reason")).toString().isEmpty(), qPrintable(name));
                QVERIFY(o.value(QLatin1String("statistics")).isNull());
                continue;
            }
            const auto s = o.value(QLatin1String("statistics")).toObject();
            for (const char *k : {"median_ms", "p10_ms", "p90_ms", "p99_ms", "mean_ms", "stddev_ms", "runs", "warmup"})
                QVERIFY2(s.value(QLatin1String(k)).isDouble(), k);
            QVERIFY(s.value(QLatin1String("runs")).toInt() >= 4);
            QVERIFY(s.value(QLatin1String("p10_ms")).toDouble() <= s.value(QLatin1String("median_ms")).toDouble());
            QVERIFY(s.value(QLatin1String("median_ms")).toDouble() <= s.value(QLatin1String("p90_ms")).toDouble());
            QVERIFY(o.value(QLatin1String("traced")).toObject().value(QLatin1String("median_ms")).isDouble());
            QVERIFY2(o.value(QLatin1String("overhead_pct")).isDouble(), qPrintable(name)); // a number, no threshold
            // The overhead is a paired ratio (traced / untraced) with its interval.
            const auto overhead = o.value(QLatin1String("overhead")).toObject();
            QVERIFY2(overhead.value(QLatin1String("estimate")).toDouble() > 0, qPrintable(name));
            QVERIFY2(overhead.value(QLatin1String("blocks")).toInt() >= 3, qPrintable(name));
            QVERIFY(overhead.value(QLatin1String("low")).toDouble() <= overhead.value(QLatin1String("high")).toDouble());
            // And what each sampled call paid, paired by round with the untraced blocks.
            const auto sampled = o.value(QLatin1String("sampled_call_overhead")).toObject();
            QVERIFY2(sampled.value(QLatin1String("estimate")).toDouble() > 0, qPrintable(name));
            QCOMPARE(sampled.value(QLatin1String("blocks")).toInt(), overhead.value(QLatin1String("blocks")).toInt());
            const auto mem = o.value(QLatin1String("memory")).toObject();
            QVERIFY(!mem.value(QLatin1String("method")).toString().isEmpty());
            QVERIFY(mem.value(QLatin1String("peak_bytes")).toDouble() >= 0);
            QCOMPARE(mem.value(QLatin1String("samples")).toArray().size(), 5); // the paired memory rounds
        }
        // Peak memory against eager (issue 38 item 4): the paired ratio of the medians, its interval
        // around it, the target, and a cause from the compile's memory.json.
        const auto vsEager
            = m_result.value(QLatin1String("memory_vs_eager")).toObject().value(QLatin1String("aoti")).toObject();
        const auto ratio = vsEager.value(QLatin1String("ratio")).toObject();
        const double peak = vsEager.value(QLatin1String("peak_bytes")).toDouble(),
                     eager = vsEager.value(QLatin1String("eager_peak_bytes")).toDouble();
        QVERIFY2(eager > 0 && peak >= 0, qPrintable(QString("%1 %2").arg(peak).arg(eager)));
        QCOMPARE(ratio.value(QLatin1String("estimate")).toDouble(), peak / eager);
        QVERIFY(ratio.value(QLatin1String("low")).toDouble() <= ratio.value(QLatin1String("estimate")).toDouble());
        QVERIFY(ratio.value(QLatin1String("estimate")).toDouble() <= ratio.value(QLatin1String("high")).toDouble());
        QCOMPARE(vsEager.value(QLatin1String("within_target")).toBool(), peak / eager <= 1.1);
        QVERIFY(vsEager.value(QLatin1String("planned_peak_bytes")).isDouble()); // the plan was read
        QVERIFY(!vsEager.value(QLatin1String("cause")).toString().isEmpty());
        QVERIFY(names.contains(QStringLiteral("eager")));
        QVERIFY(names.contains(QStringLiteral("aoti")));
        QVERIFY(names.contains(QStringLiteral("nativert"))); // listed, available or with a reason
        QVERIFY(m_result.value(QLatin1String("speedup")).toObject().value(QLatin1String("aoti")).isDouble());
        // Every ratio with its interval (paired blocks), the threads and a verdict on the machine.
        const auto interval = m_result.value(QLatin1String("speedup_interval")).toObject().value(QLatin1String("aoti")).toObject();
        const double est = interval.value(QLatin1String("estimate")).toDouble();
        QCOMPARE(est, m_result.value(QLatin1String("speedup")).toObject().value(QLatin1String("aoti")).toDouble());
        QVERIFY(interval.value(QLatin1String("low")).toDouble() <= est && est <= interval.value(QLatin1String("high")).toDouble());
        QVERIFY(m_result.value(QLatin1String("threads")).toInt() >= 1);
        const auto m = m_result.value(QLatin1String("measurement")).toObject();
        QVERIFY2(QStringList({QStringLiteral("ok"), QStringLiteral("noisy"), QStringLiteral("unreliable"), QStringLiteral("unknown")})
                     .contains(m.value(QLatin1String("verdict")).toString()),
                 qPrintable(m.value(QLatin1String("verdict")).toString()));
        QCOMPARE(m.value(QLatin1String("threads")).toInt(), m_result.value(QLatin1String("threads")).toInt());
        QVERIFY(m.value(QLatin1String("usable_cpus")).toInt() >= m.value(QLatin1String("threads")).toInt());
        QVERIFY(m.value(QLatin1String("verdict")).toString() == QStringLiteral("ok") ||
                !m.value(QLatin1String("reasons")).toArray().isEmpty());
        // Eager, aoti, each traced: one round runs a block of each.
        QVERIFY(m.value(QLatin1String("pairing")).toObject().value(QLatin1String("rounds")).toInt() >= 3);
    }

    void kernelsJoinKernelsJson()
    {
        // Every generated kernel named in kernels.json; the ranges carry those names (possibly
        // with Inductor's graph_N_ prefix).
        const QJsonObject kj = readJson(m_out + QStringLiteral("/kernels.json"));
        QSet<QString> known;
        for (const auto &k : kj.value(QLatin1String("kernels")).toArray())
            known << k.toObject().value(QLatin1String("name")).toString();
        QVERIFY(!known.isEmpty());
        const auto kernels = m_result.value(QLatin1String("kernels")).toArray();
        QVERIFY(!kernels.isEmpty());
        int joined = 0, covering = 0;
        for (const auto &v : kernels) {
            const auto k = v.toObject();
            QCOMPARE(k.value(QLatin1String("variant")).toString(), QStringLiteral("aoti"));
            QVERIFY(k.value(QLatin1String("calls")).toInt() > 0);
            QVERIFY(k.value(QLatin1String("total_ms")).toDouble() >= 0);
            if (k.value(QLatin1String("in_kernels_json")).toBool()) {
                ++joined;
                QString name = k.value(QLatin1String("name")).toString();
                name.remove(QRegularExpression(QStringLiteral("^graph_[0-9]+_")));
                QVERIFY2(known.contains(name) || k.value(QLatin1String("kind")).toString() == QStringLiteral("library"), qPrintable(name));
            }
            if (!k.value(QLatin1String("covered_nodes")).toArray().isEmpty())
                ++covering;
        }
        QVERIFY(joined > 0);
        QVERIFY(covering > 0);
        QVERIFY(!m_result.value(QLatin1String("ops")).toArray().isEmpty()); // eager's ATen ops
    }

    void filesParse()
    {
        // trace.json: Chrome trace-event JSON object, complete events in µs, sorted.
        QFile t(m_out + QStringLiteral("/trace.json"));
        QVERIFY(t.open(QIODevice::ReadOnly));
        QJsonParseError err;
        const auto doc = QJsonDocument::fromJson(t.readAll(), &err);
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
        const auto events = doc.object().value(QLatin1String("traceEvents")).toArray();
        double last = -1;
        int complete = 0;
        bool named = false;
        for (const auto &e : events) {
            const auto o = e.toObject();
            if (o.value(QLatin1String("ph")).toString() == QStringLiteral("M")) {
                named = named || o.value(QLatin1String("name")).toString() == QStringLiteral("process_name");
                continue;
            }
            QCOMPARE(o.value(QLatin1String("ph")).toString(), QStringLiteral("X"));
            QVERIFY(o.value(QLatin1String("ts")).toDouble() >= last);
            last = o.value(QLatin1String("ts")).toDouble();
            QVERIFY(o.value(QLatin1String("dur")).toDouble() >= 0);
            ++complete;
        }
        QVERIFY(named);
        QVERIFY(complete > 0);
        // CSVs: the documented headers, a row per variant.
        QFile c(m_out + QStringLiteral("/profile.csv"));
        QVERIFY(c.open(QIODevice::ReadOnly));
        const auto lines = c.readAll().trimmed().split('\n');
        QCOMPARE(lines.first(), QByteArray("variant,available,median_ms,p10_ms,p90_ms,p99_ms,mean_ms,stddev_ms,runs,warmup,"
                                           "traced_median_ms,overhead_pct,peak_bytes,cuda_event_ms,gpu_busy_share"));
        QCOMPARE(lines.size(), m_result.value(QLatin1String("variants")).toArray().size() + 1);
        QFile k(m_out + QStringLiteral("/profile_kernels.csv"));
        QVERIFY(k.open(QIODevice::ReadOnly));
        QVERIFY(k.readLine().startsWith("variant,name,kind,calls,total_ms,mean_ms,share,covered_nodes"));
    }

    void throughputAndColdStart()
    {
        const auto rows = m_result.value(QLatin1String("throughput")).toArray();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[1].toObject().value(QLatin1String("runners")).toInt(), 2);
        QVERIFY(rows[0].toObject().value(QLatin1String("throughput_per_s")).toDouble() > 0);
        // Runner counts took turns in windows: every row has one rate per window and the interval
        // of their median; two runners are compared with one, windows paired by round.
        for (const auto &value : rows) {
            const auto row = value.toObject();
            const int windows = row.value(QLatin1String("windows")).toInt();
            QVERIFY2(windows >= 3, qPrintable(QString::number(windows)));
            const auto rates = row.value(QLatin1String("window_rates_per_s")).toArray();
            QCOMPARE(rates.size(), windows);
            const auto interval = row.value(QLatin1String("throughput_interval")).toObject();
            QCOMPARE(interval.value(QLatin1String("blocks")).toInt(), windows);
            QVERIFY(interval.value(QLatin1String("low")).toDouble() <= interval.value(QLatin1String("estimate")).toDouble());
            QVERIFY(interval.value(QLatin1String("estimate")).toDouble() <= interval.value(QLatin1String("high")).toDouble());
            // The rate is the counted calls over the time they took, and every window counted some.
            const double calls = row.value(QLatin1String("calls")).toDouble();
            QVERIFY(calls > 0);
            QVERIFY(qAbs(row.value(QLatin1String("throughput_per_s")).toDouble() * row.value(QLatin1String("seconds")).toDouble() - calls) <
                    1e-6 * calls + 1e-6);
            QCOMPARE(interval.value(QLatin1String("estimate")).toDouble(), row.value(QLatin1String("throughput_per_s")).toDouble());
            for (const auto &r : rates)
                QVERIFY(r.toDouble() > 0);
        }
        QVERIFY(!rows[0].toObject().contains(QLatin1String("scaling")));
        const auto scaling = rows[1].toObject().value(QLatin1String("scaling")).toObject();
        QVERIFY(scaling.value(QLatin1String("estimate")).toDouble() > 0);
        QCOMPARE(scaling.value(QLatin1String("blocks")).toInt(), rows[1].toObject().value(QLatin1String("windows")).toInt());
        const auto cold = m_result.value(QLatin1String("cold_start")).toObject();
        QVERIFY2(cold.value(QLatin1String("bundle_ms")).isDouble(), m_run.err.right(2000).constData());
        QVERIFY(cold.value(QLatin1String("eager_ms")).isDouble());
        QVERIFY(cold.value(QLatin1String("ratio")).isDouble());
        QCOMPARE(cold.value(QLatin1String("ratio_interval")).toObject().value(QLatin1String("estimate")).toDouble(),
                 cold.value(QLatin1String("ratio")).toDouble());
        // The runtime's phases, each a median over the runs (spawn to main is the dynamic loader).
        const auto phases = cold.value(QLatin1String("phases")).toObject();
        for (const char *k : {"to_main_ms", "verify_ms", "load_ms", "first_run_ms"})
            QVERIFY2(phases.value(QLatin1String(k)).toObject().value(QLatin1String("median_ms")).toDouble() >= 0 &&
                         phases.value(QLatin1String(k)).isObject(),
                     k);
        QCOMPARE(cold.value(QLatin1String("samples")).toArray().size(), cold.value(QLatin1String("runs")).toInt());
        // One runner: calls counted in the window, checked against its own latency.
        QVERIFY(rows[0].toObject().contains(QLatin1String("consistent")));
    }

    // The burst replay (PROFILE.md "Burst replay"): worker isolation and the two baselines (spawn,
    // the Python eager server) at the one rate asked, each with its latency percentiles; no timing
    // threshold beyond "answered".
    void burstReplay()
    {
        const auto replay = m_result.value(QLatin1String("replay")).toObject();
        QVERIFY2(!replay.isEmpty(), m_run.err.right(2000).constData());
        QCOMPARE(replay.value(QLatin1String("rates")).toArray().size(), 1);
        QCOMPARE(replay.value(QLatin1String("rates")).toArray().first().toDouble(), 10.0);
        QSet<QString> modes;
        for (const auto &row : replay.value(QLatin1String("rows")).toArray()) {
            const auto o = row.toObject();
            const QString mode = o.value(QLatin1String("mode")).toString();
            modes << mode;
            QCOMPARE(o.value(QLatin1String("rate")).toDouble(), 10.0);
            QCOMPARE(o.value(QLatin1String("baseline")).toBool(), mode != QLatin1String("worker"));
            QVERIFY2(o.value(QLatin1String("ok")).toInt() > 0, QJsonDocument(o).toJson().constData());
            QVERIFY2(o.value(QLatin1String("median_ms")).toObject().value(QLatin1String("estimate")).toDouble() > 0,
                     QJsonDocument(o).toJson().constData());
            QVERIFY(o.value(QLatin1String("p99_ms")).toObject().value(QLatin1String("estimate")).toDouble()
                    >= o.value(QLatin1String("median_ms")).toObject().value(QLatin1String("estimate")).toDouble());
            QVERIFY(o.value(QLatin1String("saturated")).isBool());
            QVERIFY(o.value(QLatin1String("cpu_busy_share")).isDouble());
            QVERIFY(o.value(QLatin1String("gpu_busy_share")).isNull()); // a CPU bundle
        }
        QCOMPARE(modes, (QSet<QString>{QStringLiteral("worker"), QStringLiteral("spawn"), QStringLiteral("eager")}));
        QStringList ratios;
        for (const auto &q : replay.value(QLatin1String("ratios")).toArray())
            ratios << q.toObject().value(QLatin1String("name")).toString();
        QCOMPARE(ratios,
                 (QStringList{QStringLiteral("spawn/worker median latency"),
                              QStringLiteral("eager/worker median latency")}));
        QCOMPARE(replay.value(QLatin1String("saturation")).toObject().value(QLatin1String("below_share")).toDouble(),
                 0.8);
        QVERIFY(m_run.out.contains("\"replay\"")); // and the profile.json beside it
        QCOMPARE(readJson(m_out + QStringLiteral("/profile.json")).value(QLatin1String("replay")).toObject(), replay);
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("says");
        const QString pkg = QDir(m_out).filePath(QStringLiteral("model.pt2"));
        QTest::newRow("cuda absent") << QStringList{QStringLiteral("--model"), QStringLiteral("sample:mlp"), QStringLiteral("--package"), pkg,
                                                    QStringLiteral("--device"), QStringLiteral("cuda")}
                                     << QStringLiteral("no_device") << QStringLiteral("no CUDA device");
        QTest::newRow("not a package") << QStringList{QStringLiteral("--model"), QStringLiteral("sample:mlp"), QStringLiteral("--package"),
                                                      fixture("not_a_program.pt2")}
                                       << QStringLiteral("load_failed") << QStringLiteral("not_a_program.pt2");
        QTest::newRow("package of another model") << QStringList{QStringLiteral("--model"), fixture("tiny_factory.py") + QStringLiteral(":make"),
                                                                 QStringLiteral("--package"), pkg}
                                                  << QStringLiteral("load_failed") << QStringLiteral("model.pt2");
        QTest::newRow("CUDA package on a CPU machine")
            << QStringList{QStringLiteral("--model"), QStringLiteral("sample:mlp"), QStringLiteral("--package"),
                           m_dir.filePath(QStringLiteral("cuda_model.pt2"))}
            << QStringLiteral("load_failed") << QStringLiteral("CUDA");
        QTest::newRow("factory raises") << QStringList{QStringLiteral("--model"), fixture("raising_factory.py") + QStringLiteral(":make")}
                                        << QStringLiteral("model_error") << QStringLiteral("raising_factory.py");
        QTest::newRow("eager raises") << QStringList{QStringLiteral("--model"), fixture("eager_raising_factory.py") + QStringLiteral(":make"),
                                                     QStringLiteral("--package"), pkg}
                                      << QStringLiteral("model_error") << QStringLiteral("on purpose");
    }

    void refusals()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, code);
        QFETCH(QString, says);
        const QString out = m_dir.filePath(QStringLiteral("refused-") + QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')));
        const Run r = runCli(QStringList{QStringLiteral("profile"), QStringLiteral("--out"), out, QStringLiteral("--json")} + args + quick());
        if (code == QStringLiteral("no_device") && r.exitCode == 0)
            QSKIP("this machine has a CUDA device; the no-device path cannot be exercised here");
        QCOMPARE(r.exitCode, 1);
        const QString last = QString::fromUtf8(lastLine(r.err));
        QVERIFY2(last.contains(QStringLiteral("(") + code + QStringLiteral(")")), qPrintable(last));
        QVERIFY2(last.contains(says), qPrintable(last));
        const auto error = TestSupport::error(r.out);
        QCOMPARE(error.value(QLatin1String("code")).toString(), code);
    }

    void badCommandLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        QTest::newRow("negative runners") << QStringList{QStringLiteral("--runners"), QStringLiteral("-1")} << QStringLiteral("--runners");
        QTest::newRow("0 among counts") << QStringList{QStringLiteral("--runners"), QStringLiteral("0,1")} << QStringLiteral("stands alone");
        QTest::newRow("unknown dtype") << QStringList{QStringLiteral("--dtype"), QStringLiteral("int8")} << QStringLiteral("--dtype");
        QTest::newRow("unknown variant") << QStringList{QStringLiteral("--variants"), QStringLiteral("bogus")} << QStringLiteral("--variants");
        QTest::newRow("nothing to time") << QStringList{QStringLiteral("--variants"), QStringLiteral("nativert")} << QStringLiteral("nothing to time");
        QTest::newRow("min above max runs") << QStringList{QStringLiteral("--runs"), QStringLiteral("10"), QStringLiteral("--min-runs"),
                                                            QStringLiteral("50")}
                                            << QStringLiteral("--min-runs 50");
        QTest::newRow("missing package") << QStringList{QStringLiteral("--package"),
                                                        QStringLiteral("/nonexistent/model.pt2")}
                                         << QStringLiteral("--package");
        QTest::newRow("eager baseline without a replay")
            << QStringList{QStringLiteral("--no-replay-eager")}
            << QStringLiteral("--no-replay-eager goes with --replay-rates");
    }

    void badCommandLine()
    {
        // Exit 2 with a line naming the option, before any engine work (nothing is written).
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        const QString out = m_dir.filePath(QStringLiteral("badcli"));
        const Run r = runCli(QStringList{QStringLiteral("profile"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                                         QStringLiteral("--out"), out} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(says), r.err.constData());
        QVERIFY(!QFileInfo::exists(out + QStringLiteral("/profile.json")));
    }

    void unseededFactoryBuiltTwice()
    {
        // Profile builds the model for its compile and again for eager: random weights without a
        // seed of the factory's own must come out the same both times (verify passes).
        const QString out = m_dir.filePath(QStringLiteral("unseeded"));
        const Run r = runCli(QStringList{QStringLiteral("profile"), QStringLiteral("--out"), out, QStringLiteral("--json"),
                                         QStringLiteral("--model"), fixture("unseeded_factory.py") + QStringLiteral(":make")} +
                             quick());
        QVERIFY2(r.exitCode == 0, r.err.right(2000).constData());
    }

    void engineRequestAndCancel()
    {
        // The same code path over the protocol (what the studio sends): a profile of the package
        // compiled above, then one that runs long and is cancelled while measuring.
        QProcess engine;
        engine.setReadChannel(QProcess::StandardOutput);
        engine.start(QStringLiteral(AOTSTUDIO_ENGINE_PATH), {QStringLiteral("--serve")});
        QVERIFY(engine.waitForStarted());
        const auto next = [&](int timeoutMs) {
            QElapsedTimer t;
            t.start();
            while (!engine.canReadLine() && t.elapsed() < timeoutMs && engine.state() == QProcess::Running)
                engine.waitForReadyRead(100);
            return engine.canReadLine() ? QJsonDocument::fromJson(engine.readLine()).object() : QJsonObject();
        };
        const auto send = [&](const QJsonObject &o) {
            engine.write(QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n');
            engine.waitForBytesWritten(5000);
        };
        QCOMPARE(next(120000).value(QLatin1String("type")).toString(), QStringLiteral("hello"));
        const QString pkg = QDir(m_out).filePath(QStringLiteral("model.pt2"));
        QJsonObject request{{QStringLiteral("type"), QStringLiteral("profile")}, {QStringLiteral("id"), 5},
                            {QStringLiteral("model"), QStringLiteral("sample:mlp")}, {QStringLiteral("package"), pkg},
                            {QStringLiteral("out"), m_dir.filePath(QStringLiteral("engine"))},
                            {QStringLiteral("runs"), 8}, {QStringLiteral("min_runs"), 4}, {QStringLiteral("max_seconds"), 0.3},
                            {QStringLiteral("throughput"), QJsonArray{1}}, {QStringLiteral("throughput_seconds"), 0.1},
                            {QStringLiteral("cold_start_runs"), 0}};
        send(request);
        QJsonObject m;
        QStringList stages;
        do {
            m = next(300000);
            if (m.value(QLatin1String("type")).toString() == QStringLiteral("progress"))
                stages << m.value(QLatin1String("stage")).toString();
        } while (!m.isEmpty() && m.value(QLatin1String("type")).toString() != QStringLiteral("result") &&
                 m.value(QLatin1String("type")).toString() != QStringLiteral("error"));
        QCOMPARE(m.value(QLatin1String("type")).toString(), QStringLiteral("result"));
        QCOMPARE(m.value(QLatin1String("id")).toInt(), 5);
        QCOMPARE(m.value(QLatin1String("result")).toObject().value(QLatin1String("format")).toString(), QStringLiteral("aotstudio.profile"));
        QVERIFY2(stages.contains(QStringLiteral("measure")) && stages.contains(QStringLiteral("write")), qPrintable(stages.join(u',')));

        request[QStringLiteral("id")] = 6;
        request[QStringLiteral("runs")] = 10000000;
        request[QStringLiteral("min_runs")] = 10000000;
        request[QStringLiteral("max_seconds")] = 1000;
        send(request);
        do {
            m = next(300000);
        } while (!m.isEmpty() && m.value(QLatin1String("stage")).toString() != QStringLiteral("measure"));
        QVERIFY(!m.isEmpty());
        send({{QStringLiteral("type"), QStringLiteral("cancel")}, {QStringLiteral("id"), 7}, {QStringLiteral("target"), 6}});
        do {
            m = next(60000);
        } while (!m.isEmpty() && m.value(QLatin1String("type")).toString() != QStringLiteral("error"));
        QCOMPARE(m.value(QLatin1String("id")).toInt(), 6);
        QCOMPARE(m.value(QLatin1String("code")).toString(), QStringLiteral("cancelled"));
        send({{QStringLiteral("type"), QStringLiteral("shutdown")}, {QStringLiteral("id"), 8}});
        engine.closeWriteChannel();
        if (!engine.waitForFinished(30000))
            engine.kill();
    }

private:
    QTemporaryDir m_dir;
    QString m_out;
    Run m_run;
    QJsonObject m_result;
};

QTEST_GUILESS_MAIN(TstProfile)
#include "tst_profile.moc"
