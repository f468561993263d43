// SPDX-License-Identifier: GPL-3.0-or-later
// Quantization schemes side by side on the CPU through `aotstudio-cli quantize` (FORMAT.md,
// "quantize result"): every CPU scheme compiles and runs, int8 schemes change the graph and stay
// within a stated error, fp8 is an unsupported row, the per-layer table covers every quantized
// layer, and an unknown scheme is refused with the valid names. Built twice: for sample:mlp
// (label integration) and, with AOTSTUDIO_QUANT_CONVNET, for sample:convnet (label slow).
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include "processrun.h"

namespace {

using TestSupport::readJson;
using TestSupport::Run;

#ifdef AOTSTUDIO_QUANT_CONVNET
constexpr const char *kModel = "sample:convnet";
/// Linear/Conv layers each scheme quantizes in ConvNet (conv1, conv2, fc): torchao's configs take
/// nn.Linear only; the CPU int4 packing needs out_features % 16 == 0 (fc has 10); PT2E takes all.
const QHash<QString, int> kLayers{{QStringLiteral("fp32"), 0},          {QStringLiteral("bf16"), 3},
                                  {QStringLiteral("int8-weight-only"), 1}, {QStringLiteral("int8-dynamic"), 1},
                                  {QStringLiteral("int4-weight-only"), 0}, {QStringLiteral("int8-static"), 3}};
#else
constexpr const char *kModel = "sample:mlp";
/// fc1, fc2, fc3; int4 skips fc3 (10 outputs: the CPU packing needs a multiple of 16).
const QHash<QString, int> kLayers{{QStringLiteral("fp32"), 0},          {QStringLiteral("bf16"), 3},
                                  {QStringLiteral("int8-weight-only"), 3}, {QStringLiteral("int8-dynamic"), 3},
                                  {QStringLiteral("int4-weight-only"), 2}, {QStringLiteral("int8-static"), 3}};
#endif

/// Stated error bounds: max abs error of the compiled package against fp32 eager on the
/// evaluation set (logits of order 1), and the minimum cosine.
const QHash<QString, double> kMaxError{{QStringLiteral("fp32"), 1e-4},          {QStringLiteral("bf16"), 0.05},
                                       {QStringLiteral("int8-weight-only"), 0.05}, {QStringLiteral("int8-dynamic"), 0.05},
                                       {QStringLiteral("int4-weight-only"), 0.2},  {QStringLiteral("int8-static"), 0.05}};

const QStringList kAll{QStringLiteral("fp32"),         QStringLiteral("bf16"),        QStringLiteral("int8-weight-only"),
                       QStringLiteral("int8-dynamic"), QStringLiteral("int4-weight-only"), QStringLiteral("fp8-dynamic"),
                       QStringLiteral("int8-static")};

Run cli(const QStringList &args, int timeoutMs = 900000)
{
    return TestSupport::run(QStringLiteral(AOTSTUDIO_CLI_PATH), args, timeoutMs);
}

} // namespace

class TestQuantize : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void everyCpuSchemeRuns_data();
    void everyCpuSchemeRuns();
    void int8ChangesTheGraph_data();
    void int8ChangesTheGraph();
    void fp8IsUnsupportedOnCpu();
    void perLayerTableCoversQuantizedLayers_data();
    void perLayerTableCoversQuantizedLayers();
    void filesAndBest();
    void unknownSchemeListsValidNames();
#ifndef AOTSTUDIO_QUANT_CONVNET
    void engineRequestAndCancel();
#endif

private:
    QJsonObject row(const QString &scheme) const;
    QTemporaryDir m_dir;
    QString m_out;
    QJsonObject m_result;
};

void TestQuantize::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_out = m_dir.filePath(QStringLiteral("q"));
    const Run r = cli({QStringLiteral("quantize"), QStringLiteral("--model"), QLatin1String(kModel), QStringLiteral("--out"), m_out,
                       QStringLiteral("--schemes"), kAll.join(QLatin1Char(',')), QStringLiteral("--runs"), QStringLiteral("3"),
                       QStringLiteral("--min-runs"), QStringLiteral("1"), QStringLiteral("--warmup"), QStringLiteral("1"),
                       QStringLiteral("--max-seconds"), QStringLiteral("0.2"), QStringLiteral("--eval-samples"), QStringLiteral("4"),
                       QStringLiteral("--calibration-samples"), QStringLiteral("4"), QStringLiteral("--max-error"),
                       QStringLiteral("0.05"), QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    m_result = TestSupport::result(r.out);
    QCOMPARE(m_result.value(QLatin1String("model")).toString(), QLatin1String(kModel));
    QCOMPARE(m_result.value(QLatin1String("baseline")).toString(), QStringLiteral("fp32"));
    QStringList order;
    for (const auto &v : m_result.value(QLatin1String("schemes")).toArray())
        order << v.toObject().value(QLatin1String("scheme")).toString();
    QCOMPARE(order, kAll);
}

QJsonObject TestQuantize::row(const QString &scheme) const
{
    for (const auto &v : m_result.value(QLatin1String("schemes")).toArray()) {
        if (v.toObject().value(QLatin1String("scheme")).toString() == scheme)
            return v.toObject();
    }
    return {};
}

void TestQuantize::everyCpuSchemeRuns_data()
{
    QTest::addColumn<QString>("scheme");
    for (const auto &s : kAll) {
        if (s != QLatin1String("fp8-dynamic"))
            QTest::newRow(qPrintable(s)) << s;
    }
}

void TestQuantize::everyCpuSchemeRuns()
{
    QFETCH(QString, scheme);
    const QJsonObject r = row(scheme);
    // A weight scheme that finds no layer it supports (int4 on ConvNet) runs, but its row says
    // so instead of offering fp32's figures as a quantized result.
    const bool nothingQuantized = kLayers.value(scheme) == 0 && scheme != QLatin1String("fp32");
    QCOMPARE(r.value(QLatin1String("status")).toString(),
             nothingQuantized ? QStringLiteral("unsupported") : QStringLiteral("ok"));
    if (nothingQuantized)
        QVERIFY2(r.value(QLatin1String("reason")).toString().contains(QLatin1String("quantized no layer")),
                 qPrintable(r.value(QLatin1String("reason")).toString()));
    else
        QVERIFY2(r.value(QLatin1String("reason")).toString().isEmpty(), qPrintable(r.value(QLatin1String("reason")).toString()));
    const QString package = r.value(QLatin1String("package")).toString();
    QCOMPARE(package, m_out + QLatin1Char('/') + scheme + QStringLiteral("/model.pt2"));
    QVERIFY(QFileInfo(package).isFile());
    QCOMPARE(r.value(QLatin1String("package_bytes")).toDouble(), double(QFileInfo(package).size()));
    // Figures exist; their size is not a test (timings are never pass/fail).
    QVERIFY(r.value(QLatin1String("eager_ms")).toDouble() > 0);
    QVERIFY(r.value(QLatin1String("compiled_ms")).toDouble() > 0);
    QVERIFY(nothingQuantized || r.value(QLatin1String("speedup_vs_fp32_eager")).isDouble());
    QVERIFY(r.value(QLatin1String("compiled")).toObject().value(QLatin1String("runs")).toInt() >= 1);
    const QJsonObject peak = r.value(QLatin1String("peak_bytes")).toObject();
    QVERIFY(peak.value(QLatin1String("eager")).isDouble() && peak.value(QLatin1String("compiled")).isDouble());
    const QJsonObject acc = r.value(QLatin1String("accuracy")).toObject();
    QCOMPARE(acc.value(QLatin1String("samples")).toInt(), 4);
    const double err = acc.value(QLatin1String("max_abs_error")).toDouble(-1);
    QVERIFY2(err >= 0 && err <= kMaxError.value(scheme), qPrintable(QStringLiteral("%1: max abs error %2").arg(scheme).arg(err)));
    QVERIFY(acc.value(QLatin1String("mean_abs_error")).toDouble(-1) <= err);
    QVERIFY2(acc.value(QLatin1String("cosine")).toDouble() > 0.99, qPrintable(scheme));
    // Both samples are classifiers ([batch, 10] logits): top-1 agreement is reported.
    QVERIFY(acc.value(QLatin1String("top1_agreement")).toDouble(-1) >= 0.5);
    QVERIFY(acc.value(QLatin1String("embedding_cosine")).isNull());
    // One output, named as the forward returns it (a single tensor: "output"), with its own error.
    const QJsonArray outputs = acc.value(QLatin1String("outputs")).toArray();
    QCOMPARE(outputs.size(), 1);
    QCOMPARE(outputs[0].toObject().value(QLatin1String("name")).toString(), QStringLiteral("output"));
    QCOMPARE(outputs[0].toObject().value(QLatin1String("max_abs_error")).toDouble(-1), err);
}

void TestQuantize::int8ChangesTheGraph_data()
{
    QTest::addColumn<QString>("scheme");
    QTest::addColumn<QString>("op"); // an op of this scheme expected in the exported graph
    QTest::newRow("int8-weight-only") << QStringLiteral("int8-weight-only") << QStringLiteral("aten.to.dtype");
    QTest::newRow("int8-dynamic") << QStringLiteral("int8-dynamic") << QStringLiteral("aten._int_mm.default");
    QTest::newRow("int8-static") << QStringLiteral("int8-static") << QStringLiteral("quantized_decomposed.quantize_per_tensor.default");
}

void TestQuantize::int8ChangesTheGraph()
{
    QFETCH(QString, scheme);
    QFETCH(QString, op);
    QStringList ops;
    for (const auto &v : row(scheme).value(QLatin1String("quantized_ops")).toArray())
        ops << v.toString();
    QVERIFY2(ops.contains(op), qPrintable(scheme + QStringLiteral(": ") + ops.join(QLatin1Char(' '))));
    QVERIFY(row(QStringLiteral("fp32")).value(QLatin1String("quantized_ops")).toArray().isEmpty());
    // The capture snapshot of the scheme's graph shows the quantized op too.
    const QDir snapshots(m_out + QLatin1Char('/') + scheme + QStringLiteral("/snapshots"));
    const QStringList capture = snapshots.entryList({QStringLiteral("*_capture.json")});
    QVERIFY2(!capture.isEmpty(), qPrintable(snapshots.path()));
    QFile f(snapshots.filePath(capture.first()));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString target = op.section(QLatin1Char('.'), 1, 1); // e.g. "_int_mm"
    QVERIFY2(f.readAll().contains(target.toUtf8()), qPrintable(target));
}

void TestQuantize::fp8IsUnsupportedOnCpu()
{
    const QJsonObject r = row(QStringLiteral("fp8-dynamic"));
    QCOMPARE(r.value(QLatin1String("status")).toString(), QStringLiteral("unsupported"));
    const QString reason = r.value(QLatin1String("reason")).toString();
    QVERIFY2(reason.contains(QLatin1String("8.9")) && reason.contains(QLatin1String("cpu")), qPrintable(reason));
    QVERIFY(r.value(QLatin1String("compiled_ms")).isNull());
}

void TestQuantize::perLayerTableCoversQuantizedLayers_data()
{
    QTest::addColumn<QString>("scheme");
    for (auto it = kLayers.cbegin(); it != kLayers.cend(); ++it)
        QTest::newRow(qPrintable(it.key())) << it.key();
}

void TestQuantize::perLayerTableCoversQuantizedLayers()
{
    QFETCH(QString, scheme);
    const QJsonObject r = row(scheme);
    const QJsonArray layers = r.value(QLatin1String("layers")).toArray();
    QCOMPARE(r.value(QLatin1String("quantized_layers")).toInt(), kLayers.value(scheme));
    QCOMPARE(layers.size(), kLayers.value(scheme));
    QSet<QString> names;
    for (const auto &v : layers) {
        const QJsonObject l = v.toObject();
        names.insert(l.value(QLatin1String("name")).toString());
        QVERIFY(QStringList({QStringLiteral("Linear"), QStringLiteral("Conv2d")}).contains(l.value(QLatin1String("type")).toString()));
        // Each layer's own error is a number (fp32 layer vs quantized layer on the same input).
        QVERIFY2(l.value(QLatin1String("max_abs_error")).isDouble(), qPrintable(l.value(QLatin1String("name")).toString()));
        QVERIFY(l.value(QLatin1String("cosine")).toDouble() > 0.9);
    }
    QCOMPARE(names.size(), layers.size());
    const QJsonObject file = readJson(r.value(QLatin1String("layers_path")).toString());
    QCOMPARE(file.value(QLatin1String("layers")).toArray().size(), layers.size());
}

void TestQuantize::filesAndBest()
{
    // One bar for every scheme: monotonic, ending at 1, each scheme's events carrying `scheme`.
    const QString progress = TestSupport::progressProblems(m_out + QStringLiteral("/aotstudio.log"), QStringLiteral("scheme"));
    QVERIFY2(progress.isEmpty(), qPrintable(progress));
    const QJsonObject saved = readJson(m_out + QStringLiteral("/quantize.json"));
    QCOMPARE(saved.value(QLatin1String("schemes")).toArray().size(), kAll.size());
    QFile csv(m_out + QStringLiteral("/quantize.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), kAll.size() + 1);
    QVERIFY(lines.first().startsWith("scheme,status,eager_ms,compiled_ms"));
    // --max-error 0.05: the fastest scheme within it is an ok row within it.
    const QJsonObject best = m_result.value(QLatin1String("best")).toObject();
    QCOMPARE(best.value(QLatin1String("max_error")).toDouble(), 0.05);
    const QString scheme = best.value(QLatin1String("scheme")).toString();
    QVERIFY(!scheme.isEmpty());
    QVERIFY(row(scheme).value(QLatin1String("accuracy")).toObject().value(QLatin1String("max_abs_error")).toDouble() <= 0.05);
    for (const auto &v : m_result.value(QLatin1String("schemes")).toArray()) {
        const QJsonObject r = v.toObject();
        const double err = r.value(QLatin1String("accuracy")).toObject().value(QLatin1String("max_abs_error")).toDouble(1e9);
        if (r.value(QLatin1String("status")).toString() == QLatin1String("ok") && err <= 0.05)
            QVERIFY(r.value(QLatin1String("compiled_ms")).toDouble() >= best.value(QLatin1String("compiled_ms")).toDouble());
    }
}

void TestQuantize::unknownSchemeListsValidNames()
{
    const Run r = cli({QStringLiteral("quantize"), QStringLiteral("--model"), QLatin1String(kModel), QStringLiteral("--out"),
                       m_dir.filePath(QStringLiteral("bad")), QStringLiteral("--schemes"), QStringLiteral("fp32,int3")});
    QCOMPARE(r.exitCode, 2); // a command-line error: checked before the engine (and torch) start
    const QByteArray last = r.err;
    QVERIFY2(last.contains("unknown quantization scheme 'int3'"), last.constData());
    for (const auto &s : kAll)
        QVERIFY2(last.contains(s.toUtf8()), last.constData());
    QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("bad/fp32"))));
}

#ifndef AOTSTUDIO_QUANT_CONVNET
namespace {

/// The next protocol line of `type` for request `id` (other lines are skipped), or {} on timeout.
QJsonObject waitFor(QProcess &engine, const QString &type, qint64 id, int timeoutMs, QList<QJsonObject> *seen = nullptr)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs && engine.state() == QProcess::Running) {
        if (!engine.canReadLine()) {
            engine.waitForReadyRead(100);
            continue;
        }
        const QJsonObject m = QJsonDocument::fromJson(engine.readLine().trimmed()).object();
        if (seen)
            seen->append(m);
        if (m.value(QLatin1String("type")).toString() == type && m.value(QLatin1String("id")).toInteger() == id)
            return m;
    }
    return {};
}

} // namespace

void TestQuantize::engineRequestAndCancel()
{
    QProcess engine;
    engine.setReadChannel(QProcess::StandardOutput);
    engine.start(QStringLiteral(AOTSTUDIO_ENGINE_PATH), {QStringLiteral("--serve")});
    QVERIFY(engine.waitForStarted());
    // The engine's quantize request runs the same code as the CLI: an fp8-only comparison on the
    // CPU is one unsupported row (no compile), with events that name the scheme.
    const QString out = m_dir.filePath(QStringLiteral("engine"));
    engine.write(QStringLiteral(R"({"type":"quantize","id":1,"model":"sample:mlp","device":"cpu","out":"%1","schemes":["fp8-dynamic"]})")
                     .arg(out)
                     .toUtf8() +
                 '\n');
    QList<QJsonObject> seen;
    const QJsonObject result = waitFor(engine, QStringLiteral("result"), 1, 120000, &seen).value(QLatin1String("result")).toObject();
    const QJsonArray rows = result.value(QLatin1String("schemes")).toArray();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.first().toObject().value(QLatin1String("status")).toString(), QStringLiteral("unsupported"));
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/quantize.csv")));
    bool named = false;
    for (const auto &m : seen)
        named = named || m.value(QLatin1String("scheme")).toString() == QLatin1String("fp8-dynamic");
    QVERIFY(named);

    // Cancel while the first scheme runs: the request ends with `cancelled`, no later scheme starts.
    engine.write(QStringLiteral(R"({"type":"quantize","id":2,"model":"sample:mlp","device":"cpu","out":"%1","schemes":["fp32","int8-dynamic"]})")
                     .arg(m_dir.filePath(QStringLiteral("cancelled")))
                     .toUtf8() +
                 '\n');
    QVERIFY(!waitFor(engine, QStringLiteral("progress"), 2, 120000).isEmpty());
    engine.write(R"({"type":"cancel","id":3,"target":2})" "\n");
    seen.clear();
    const QJsonObject e = waitFor(engine, QStringLiteral("error"), 2, 300000, &seen);
    QCOMPARE(e.value(QLatin1String("code")).toString(), QStringLiteral("cancelled"));
    for (const auto &m : seen)
        QVERIFY(m.value(QLatin1String("scheme")).toString() != QLatin1String("int8-dynamic"));
    engine.write(R"({"type":"shutdown","id":4})" "\n");
    QVERIFY(engine.waitForFinished(60000));
}
#endif

QTEST_GUILESS_MAIN(TestQuantize)
#include "tst_quantize.moc"
