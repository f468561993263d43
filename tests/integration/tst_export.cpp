// SPDX-License-Identifier: GPL-3.0-or-later
// Bundles end to end on the CPU: `aotstudio-cli export` with shape buckets and a dynamic fallback,
// then `aotstudio-run` (no Python) on the directory and the zip, and every refusal of BUNDLE.md.
// The bundle is signed (keygen, export --sign): the tests that run it without a trust store also
// check that a signed bundle runs where nobody configured one.
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
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

#include <csignal>
#include <sys/types.h>

namespace {

using TestSupport::lastLine;
using TestSupport::readJson;
using TestSupport::Run;

Run run(const char *program, const QStringList &args, int timeoutMs = 600000)
{
    return TestSupport::run(QString::fromUtf8(program), args, timeoutMs);
}

bool writeJson(const QString &path, const QJsonObject &o)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(QJsonDocument(o).toJson()) > 0;
}

/// Copy a bundle directory (recursively) so a test can damage the copy.
bool copyTree(const QString &from, const QString &to)
{
    return QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-r"), from, to}) == 0;
}

QJsonObject runJson(const QString &bundle, int batch)
{
    const Run r = run(AOTSTUDIO_RUN_PATH, {bundle, QStringLiteral("--batch"), QString::number(batch), QStringLiteral("--iters"),
                                           QStringLiteral("3"), QStringLiteral("--warmup"), QStringLiteral("1"), QStringLiteral("--json")});
    if (r.exitCode != 0)
        qWarning("aotstudio-run failed: %s", r.err.constData());
    return TestSupport::result(r.out);
}

QJsonArray firstValues(const QJsonObject &runResult)
{
    return runResult.value(QLatin1String("outputs")).toArray().first().toObject().value(QLatin1String("first")).toArray();
}

} // namespace

class TestExport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void bundleLayoutAndManifest();
    void runExactBucketFromDirAndZip();
    void roundTripEqualsEager();
    void stridedInputsRefusedOrConverted();
    void paddingAndDynamicFallbackAgree();
    void missingBucketIsRefused();
    void tamperedPackageIsRefused();
    void sharedWeightsStoredOnce();
    void tamperedWeightsAreRefused();
    void leanRuntimeMapsNoCudaLibrary();
    void packageCacheExtractsOncePerHash();
    void truncatedZipIsRefused();
    void wrongDeviceIsRefused();
    void inspectBundle();
    void signedRoundTrip();
    void neverOverwrites();
    void interruptedExportLeavesNothing();
    void blockLayout();

private:
    QTemporaryDir m_dir;
    QString m_bundle;
    QString m_key;   ///< the signing key (m_key + ".pub" its public half)
    QString m_keyId;
};

void TestExport::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // aotstudio-run's package cache (BUNDLE.md "Package cache") in this test's folder, not ~/.cache.
    qputenv("AOTSTUDIO_CACHE_DIR", m_dir.filePath(QStringLiteral("cache")).toUtf8());
    const QString job = m_dir.filePath(QStringLiteral("job"));
    Run c = run(AOTSTUDIO_CLI_PATH,
                {QStringLiteral("compile"), QStringLiteral("--model"), QStringLiteral("sample:convnet"),
                 QStringLiteral("--out"), job, QStringLiteral("--max-seconds"), QStringLiteral("0"),
                 QStringLiteral("--runs"), QStringLiteral("1"), QStringLiteral("--min-runs"), QStringLiteral("1"),
                 QStringLiteral("--no-snapshots"), QStringLiteral("--recipe"),
                 QStringLiteral("defaults")}); // shared weights need no freezing
    QVERIFY2(c.exitCode == 0, c.err.right(2000).constData());
    m_key = m_dir.filePath(QStringLiteral("maker.key"));
    const Run k = run(AOTSTUDIO_CLI_PATH, {QStringLiteral("keygen"), m_key, QStringLiteral("--json")}, 60000);
    QVERIFY2(k.exitCode == 0, k.err.constData());
    m_keyId = TestSupport::result(k.out).value(QLatin1String("key_id")).toString();
    QCOMPARE(m_keyId.size(), 16);
    m_bundle = m_dir.filePath(QStringLiteral("convnet-bundle"));
    const Run e = run(AOTSTUDIO_CLI_PATH, {QStringLiteral("export"), QStringLiteral("--from"), job, QStringLiteral("--buckets"),
                                           QStringLiteral("batch=1,4"), QStringLiteral("--dynamic-batch"), QStringLiteral("1:8"),
                                           QStringLiteral("--pad-safe"), QStringLiteral("--cold-start-runs"), QStringLiteral("2"),
                                           QStringLiteral("--sign"), m_key, QStringLiteral("--out"), m_bundle, QStringLiteral("--json")});
    QVERIFY2(e.exitCode == 0, e.err.right(3000).constData());
    const QJsonObject r = TestSupport::result(e.out);
    QCOMPARE(r.value(QLatin1String("bundle")).toString(), m_bundle);
    QCOMPARE(r.value(QLatin1String("zip")).toString(), m_bundle + QStringLiteral(".zip"));
    QCOMPARE(r.value(QLatin1String("signer")).toString(), m_keyId);
}

void TestExport::bundleLayoutAndManifest()
{
    const QJsonObject m = readJson(m_bundle + QStringLiteral("/manifest.json"));
    QCOMPARE(m.value(QLatin1String("format")).toString(), QStringLiteral("aotstudio.bundle"));
    QCOMPARE(m.value(QLatin1String("format_version")).toInt(), 3); // guards with strides (BUNDLE.md "Format versions")
    QCOMPARE(m.value(QLatin1String("model")).toString(), QStringLiteral("sample:convnet"));
    QCOMPARE(m.value(QLatin1String("device")).toString(), QStringLiteral("cpu"));
    QVERIFY(m.value(QLatin1String("torch_version")).toString().startsWith(QLatin1String("2.")));
    QCOMPARE(m.value(QLatin1String("inputs")).toArray().first().toObject().value(QLatin1String("shape")).toArray().first().toString(),
             QStringLiteral("batch"));
    // Inputs and outputs carry the model's names (forward's parameter; a single output is "output").
    QCOMPARE(m.value(QLatin1String("inputs")).toArray().first().toObject().value(QLatin1String("name")).toString(), QStringLiteral("x"));
    QCOMPARE(m.value(QLatin1String("outputs")).toArray().first().toObject().value(QLatin1String("name")).toString(),
             QStringLiteral("output"));
    QStringList names;
    for (const auto &b : m.value(QLatin1String("buckets")).toArray())
        names << b.toObject().value(QLatin1String("name")).toString();
    QCOMPARE(names, (QStringList{QStringLiteral("batch1"), QStringLiteral("batch4"), QStringLiteral("dynamic")}));
    // Every file but the manifest is listed with a SHA-256.
    const QJsonObject files = m.value(QLatin1String("files")).toObject();
    for (const char *f : {"packages/batch1.pt2", "packages/batch4.pt2", "packages/dynamic.pt2", "report/cold_start.json",
                          "report/batch4.json", "graphs/kernels.json"})
        QVERIFY2(files.value(QLatin1String(f)).toObject().value(QLatin1String("sha256")).toString().size() == 64, f);
    // Each bucket's package was checked against eager when it was compiled.
    for (const char *b : {"batch1", "batch4", "dynamic"}) {
        const double err = readJson(m_bundle + QStringLiteral("/report/") + QLatin1String(b) + QStringLiteral(".json"))
                               .value(QLatin1String("max_abs_error"))
                               .toDouble(-1);
        QVERIFY2(err >= 0 && err < 1e-3, b);
    }
    const QJsonObject cold = readJson(m_bundle + QStringLiteral("/report/cold_start.json"));
    QVERIFY(cold.value(QLatin1String("bundle_ms")).toDouble() > 0);
    QVERIFY(cold.value(QLatin1String("eager_ms")).toDouble() > 0);
    qInfo("cold start: bundle %.0f ms, eager %.0f ms", cold.value(QLatin1String("bundle_ms")).toDouble(),
          cold.value(QLatin1String("eager_ms")).toDouble());
}

void TestExport::runExactBucketFromDirAndZip()
{
    const QJsonObject dir = runJson(m_bundle, 4);
    const QJsonObject zip = runJson(m_bundle + QStringLiteral(".zip"), 4);
    QCOMPARE(dir.value(QLatin1String("bucket")).toString(), QStringLiteral("batch4"));
    QCOMPARE(dir.value(QLatin1String("padded")).toBool(), false);
    QCOMPARE(dir.value(QLatin1String("outputs")).toArray().first().toObject().value(QLatin1String("shape")).toArray(),
             (QJsonArray{4, 10}));
    // Same seed, same package: the zip and the directory give the same numbers.
    QCOMPARE(firstValues(zip), firstValues(dir));
    QVERIFY(!firstValues(dir).isEmpty());
}

void TestExport::roundTripEqualsEager()
{
    // Python writes 3 rows of the sample's input with torch.save and prints eager's first outputs;
    // aotstudio-run (no Python) reads the file, pads into the batch4 bucket and must agree.
    const QString input = m_dir.filePath(QStringLiteral("in3.pt"));
    QProcess py;
    py.start(QStringLiteral(AOTSTUDIO_PYTHON_EXECUTABLE),
             {QStringLiteral("-c"),
              QStringLiteral("import sys, json, torch; sys.path.insert(0, sys.argv[2]);"
                             "from aotstudio_frontend import samples;"
                             "m, (x,) = samples.convnet(); x = torch.cat([x, x])[:3]; torch.save([x], sys.argv[1]);"
                             "torch.save([x[:, :, :8, :8].contiguous()], sys.argv[1] + '.small');"
                             "torch.save([x.double()], sys.argv[1] + '.f64');"
                             "torch.save({'x': x}, sys.argv[1] + '.named'); torch.save({'y': x}, sys.argv[1] + '.wrongname');"
                             "print(json.dumps(m(x).flatten()[:6].tolist()))"),
              input, QStringLiteral(AOTSTUDIO_FRONTEND_DIR)});
    QVERIFY(py.waitForFinished(300000));
    QCOMPARE(py.exitCode(), 0);
    const QJsonArray eager = QJsonDocument::fromJson(lastLine(py.readAllStandardOutput())).array();
    QCOMPARE(eager.size(), 6);
    const Run r = run(AOTSTUDIO_RUN_PATH, {m_bundle + QStringLiteral(".zip"), QStringLiteral("--input"), input, QStringLiteral("--iters"),
                                           QStringLiteral("0"), QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject j = TestSupport::result(r.out);
    QCOMPARE(j.value(QLatin1String("batch")).toInt(), 3);
    const QJsonArray compiled = firstValues(j);
    QCOMPARE(compiled.size(), eager.size());
    for (qsizetype i = 0; i < eager.size(); ++i)
        QVERIFY2(qAbs(compiled[i].toDouble() - eager[i].toDouble()) < 1e-4, qPrintable(QString::number(i)));

    // A dict of named tensors is matched to the manifest's input names; an unknown name is refused.
    const Run named = run(AOTSTUDIO_RUN_PATH, {m_bundle, QStringLiteral("--input"), input + QLatin1String(".named"),
                                               QStringLiteral("--iters"), QStringLiteral("0"), QStringLiteral("--json")});
    QVERIFY2(named.exitCode == 0, named.err.constData());
    QCOMPARE(firstValues(TestSupport::result(named.out)), compiled);
    const Run wrongName = run(AOTSTUDIO_RUN_PATH, {m_bundle, QStringLiteral("--input"), input + QLatin1String(".wrongname")});
    QCOMPARE(wrongName.exitCode, 1);
    QVERIFY2(lastLine(wrongName.err).contains("names the input 'y', which the model does not take; its inputs: x"),
             wrongName.err.constData());

    const Run bad = run(AOTSTUDIO_RUN_PATH, {m_bundle, QStringLiteral("--input"), QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/tiny_factory.py")});
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(lastLine(bad.err).contains("is not a torch.save file"), bad.err.constData());

    // Inputs of another shape or dtype are refused before the package reads them (a smaller
    // tensor would be read past its end).
    // A smaller image: the bucket's guards (manifest) name the dimension, the size and the
    // static size it must have; another dtype: the manifest's input list.
    const Run small = run(AOTSTUDIO_RUN_PATH, {m_bundle, QStringLiteral("--input"), input + QLatin1String(".small")});
    QCOMPARE(small.exitCode, 1);
    QVERIFY2(lastLine(small.err).contains("dimension 2 is 8; the package takes only 32 there"), small.err.constData());
    const Run f64 = run(AOTSTUDIO_RUN_PATH, {m_bundle, QStringLiteral("--input"), input + QLatin1String(".f64")});
    QCOMPARE(f64.exitCode, 1);
    QVERIFY2(lastLine(f64.err).contains("the bundle's model takes float32[batch, 3"), f64.err.constData());
}

// Issue 34: an input of the right shape in another layout (channels-last, a channel slice of a
// wider tensor, an expanded row, a transpose) must never reach the package silently: AOTInductor
// indexes with its compiled strides and would return a wrong result with exit 0. Every mode of
// aotstudio-run refuses it, naming the strides, or with --convert-layout copies it and says so;
// the converted run gives the contiguous run's numbers.
void TestExport::stridedInputsRefusedOrConverted()
{
    const QString input = m_dir.filePath(QStringLiteral("layout.pt"));
    QProcess py;
    py.start(
        QStringLiteral(AOTSTUDIO_PYTHON_EXECUTABLE),
        {QStringLiteral("-c"),
         QStringLiteral(
             "import sys, torch; torch.manual_seed(3); base = torch.randn(4, 6, 32, 32); x = base[:, ::2].contiguous();"
             "p = sys.argv[1]; torch.save([x], p);"
             "torch.save([x.contiguous(memory_format=torch.channels_last)], p + '.cl');"
             "torch.save([base[:, ::2]], p + '.slice');"
             "torch.save([x.transpose(2, 3).contiguous().transpose(2, 3)], p + '.t');"
             "torch.save([x[:1].expand(4, 3, 32, 32)], p + '.expand');"
             "torch.save([x[:1].expand(4, 3, 32, 32).contiguous()], p + '.expand.ref');"
             "torch.save([x[:2].contiguous(memory_format=torch.channels_last)], p + '.two.cl')"),
         input});
    QVERIFY(py.waitForFinished(300000));
    QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
    const auto runOn = [&](const QStringList &args) {
        return run(AOTSTUDIO_RUN_PATH,
                   args + QStringList{QStringLiteral("--iters"), QStringLiteral("0"), QStringLiteral("--json")});
    };
    const Run plain = runOn({m_bundle, QStringLiteral("--input"), input});
    QVERIFY2(plain.exitCode == 0, plain.err.constData());
    const QJsonObject plainResult = TestSupport::result(plain.out);
    QVERIFY(plainResult.value(QLatin1String("layout_conversions")).toArray().isEmpty());
    const Run expandRef = runOn({m_bundle, QStringLiteral("--input"), input + QLatin1String(".expand.ref")});
    QVERIFY2(expandRef.exitCode == 0, expandRef.err.constData());

    struct Case {
        const char *suffix;
        const char *layout; ///< how the refusal names the input's layout
        const Run *reference;
    };
    for (const Case &c : {Case{".cl", "channels_last", &plain}, Case{".slice", "a strided view", &plain},
                          Case{".t", "a permuted layout", &plain}, Case{".expand", "expanded", &expandRef}}) {
        const QString file = input + QLatin1String(c.suffix);
        const Run refused = runOn({m_bundle, QStringLiteral("--input"), file});
        QVERIFY2(refused.exitCode == 1, c.suffix);
        const QByteArray line = lastLine(refused.err);
        QVERIFY2(line.contains("input 0 (x) has strides") && line.contains(c.layout)
                     && line.contains("the package was compiled for strides (3072, 1024, 32, 1) (contiguous)")
                     && line.contains("--convert-layout"),
                 line.constData());
        const Run converted = runOn({m_bundle, QStringLiteral("--input"), file, QStringLiteral("--convert-layout")});
        QVERIFY2(converted.exitCode == 0, converted.err.constData());
        const QJsonObject j = TestSupport::result(converted.out);
        const QJsonArray conversions = j.value(QLatin1String("layout_conversions")).toArray();
        QCOMPARE(conversions.size(), 1);
        QCOMPARE(conversions.first().toObject().value(QLatin1String("to")).toArray(), (QJsonArray{3072, 1024, 32, 1}));
        const QJsonArray got = firstValues(j), want = firstValues(TestSupport::result(c.reference->out));
        QCOMPARE(got.size(), want.size());
        for (qsizetype i = 0; i < want.size(); ++i)
            QVERIFY2(qAbs(got[i].toDouble() - want[i].toDouble()) < 1e-4, c.suffix);
        // The text output says so too.
        const Run text = run(AOTSTUDIO_RUN_PATH,
                             {m_bundle, QStringLiteral("--input"), file, QStringLiteral("--iters"), QStringLiteral("0"),
                              QStringLiteral("--convert-layout")});
        QVERIFY2(text.exitCode == 0 && text.out.contains("layout:      input 0 (x) copied from strides"),
                 text.out.constData());
    }

    // --package (the compile's package, batch 2, with its guards sidecar) and --bucket: the same rule.
    const QString package = m_dir.filePath(QStringLiteral("job/model.pt2"));
    const Run pkgRefused
        = runOn({QStringLiteral("--package"), package, QStringLiteral("--input"), input + QLatin1String(".two.cl")});
    QCOMPARE(pkgRefused.exitCode, 1);
    QVERIFY2(lastLine(pkgRefused.err).contains("(channels_last); the package was compiled for strides"),
             pkgRefused.err.constData());
    const QString saved = m_dir.filePath(QStringLiteral("layout.out.pt"));
    const Run pkgOk
        = runOn({QStringLiteral("--package"), package, QStringLiteral("--input"), input + QLatin1String(".two.cl"),
                 QStringLiteral("--convert-layout"), QStringLiteral("--save-outputs"), saved});
    QVERIFY2(pkgOk.exitCode == 0, pkgOk.err.constData());
    QCOMPARE(TestSupport::result(pkgOk.out).value(QLatin1String("layout_conversions")).toArray().size(), 1);
    // --save-outputs is read by torch.load with its defaults (weights_only): a tuple of tensors.
    QProcess load;
    load.start(
        QStringLiteral(AOTSTUDIO_PYTHON_EXECUTABLE),
        {QStringLiteral("-c"),
         QStringLiteral("import sys, torch; o = torch.load(sys.argv[1]); print(type(o).__name__, tuple(o[0].shape))"),
         saved});
    QVERIFY(load.waitForFinished(300000));
    QVERIFY2(load.exitCode() == 0, load.readAllStandardError().constData());
    QCOMPARE(lastLine(load.readAllStandardOutput()), QByteArray("tuple (2, 10)"));
    const Run bucketRefused = runOn({m_bundle, QStringLiteral("--bucket"), QStringLiteral("batch4"),
                                     QStringLiteral("--input"), input + QLatin1String(".slice")});
    QCOMPARE(bucketRefused.exitCode, 1);
    QVERIFY2(lastLine(bucketRefused.err).contains("a strided view"), bucketRefused.err.constData());

    // --serve: the request is refused with the same line; with --convert-layout answered and marked.
    for (const bool convert : {false, true}) {
        QProcess serve;
        QStringList args{QStringLiteral("--serve"), m_bundle};
        if (convert)
            args << QStringLiteral("--convert-layout");
        serve.start(QStringLiteral(AOTSTUDIO_RUN_PATH), args);
        QVERIFY(serve.waitForStarted());
        const QByteArray request = QJsonDocument(QJsonObject{{QStringLiteral("id"), 7},
                                                             {QStringLiteral("input"), input + QLatin1String(".cl")}})
                                       .toJson(QJsonDocument::Compact);
        serve.write(request + "\n");
        serve.closeWriteChannel();
        QVERIFY(serve.waitForFinished(300000));
        const QJsonObject answer = QJsonDocument::fromJson(lastLine(serve.readAllStandardOutput())).object();
        QCOMPARE(answer.value(QLatin1String("id")).toInt(), 7);
        QCOMPARE(answer.value(QLatin1String("ok")).toBool(), convert);
        if (convert) {
            QCOMPARE(answer.value(QLatin1String("layout_conversions")).toArray().size(), 1);
        } else {
            const QJsonObject error = answer.value(QLatin1String("error")).toObject();
            QCOMPARE(error.value(QLatin1String("stage")).toString(), QStringLiteral("refused"));
            QVERIFY(error.value(QLatin1String("message")).toString().contains(QLatin1String("(channels_last)")));
        }
    }
}

void TestExport::paddingAndDynamicFallbackAgree()
{
    // Batch 3: padded into batch4 (pad_safe) ...
    const QJsonObject padded = runJson(m_bundle, 3);
    QCOMPARE(padded.value(QLatin1String("bucket")).toString(), QStringLiteral("batch4"));
    QVERIFY(padded.value(QLatin1String("padded")).toBool());
    // ... and, in a copy that does not declare padding safe, answered by the dynamic package.
    const QString copy = m_dir.filePath(QStringLiteral("nopad"));
    QVERIFY(copyTree(m_bundle, copy));
    QJsonObject m = readJson(copy + QStringLiteral("/manifest.json"));
    m.insert(QStringLiteral("batch"), QJsonObject{{QStringLiteral("pad_safe"), false}});
    QVERIFY(writeJson(copy + QStringLiteral("/manifest.json"), m));
    const QJsonObject dynamic = runJson(copy, 3);
    QCOMPARE(dynamic.value(QLatin1String("bucket")).toString(), QStringLiteral("dynamic"));
    QCOMPARE(dynamic.value(QLatin1String("outputs")).toArray().first().toObject().value(QLatin1String("shape")).toArray(),
             (QJsonArray{3, 10}));
    // The same three rows in, the same three rows out (padding rows sliced off).
    const QJsonArray a = firstValues(padded), b = firstValues(dynamic);
    QCOMPARE(a.size(), b.size());
    for (qsizetype i = 0; i < a.size(); ++i)
        QVERIFY2(qAbs(a[i].toDouble() - b[i].toDouble()) < 1e-4, qPrintable(QString::number(i)));
}

void TestExport::missingBucketIsRefused()
{
    const QString copy = m_dir.filePath(QStringLiteral("nobucket"));
    QVERIFY(copyTree(m_bundle, copy));
    QJsonObject m = readJson(copy + QStringLiteral("/manifest.json"));
    m.insert(QStringLiteral("batch"), QJsonObject{{QStringLiteral("pad_safe"), false}});
    QJsonArray buckets;
    for (const auto &b : m.value(QLatin1String("buckets")).toArray())
        if (b.toObject().value(QLatin1String("name")).toString() != QLatin1String("dynamic"))
            buckets.append(b);
    m.insert(QStringLiteral("buckets"), buckets);
    QJsonObject files = m.value(QLatin1String("files")).toObject();
    files.remove(QStringLiteral("packages/dynamic.pt2"));
    m.insert(QStringLiteral("files"), files);
    QVERIFY(QFile::remove(copy + QStringLiteral("/packages/dynamic.pt2")));
    QVERIFY(writeJson(copy + QStringLiteral("/manifest.json"), m));
    const Run r = run(AOTSTUDIO_RUN_PATH, {copy, QStringLiteral("--batch"), QStringLiteral("3")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(lastLine(r.err).contains("3") && lastLine(r.err).contains("batch4"), r.err.constData());
}

void TestExport::tamperedPackageIsRefused()
{
    const QString copy = m_dir.filePath(QStringLiteral("tampered"));
    QVERIFY(copyTree(m_bundle, copy));
    QFile f(copy + QStringLiteral("/packages/batch4.pt2"));
    QVERIFY(f.open(QIODevice::ReadWrite));
    QVERIFY(f.seek(f.size() / 2));
    char c = 0;
    QVERIFY(f.getChar(&c));
    QVERIFY(f.seek(f.size() / 2));
    QVERIFY(f.putChar(static_cast<char>(c ^ 0x01))); // one flipped bit
    f.close();
    const Run r = run(AOTSTUDIO_RUN_PATH, {copy, QStringLiteral("--batch"), QStringLiteral("4")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("packages/batch4.pt2") && r.err.contains("SHA-256"), r.err.constData());
}

void TestExport::sharedWeightsStoredOnce()
{
    // Three buckets (batch1, batch4, dynamic): each package's weights live in weights/, once each
    // (the convnet is not frozen, so every bucket binds the same parameter files).
    const QJsonObject m = readJson(m_bundle + QStringLiteral("/manifest.json"));
    const QJsonObject files = m.value(QLatin1String("files")).toObject();
    QSet<QString> all;
    int perBucket = -1;
    for (const auto &b : m.value(QLatin1String("buckets")).toArray()) {
        const QJsonObject weights = b.toObject().value(QLatin1String("weights")).toObject();
        QVERIFY2(!weights.isEmpty(), qPrintable(b.toObject().value(QLatin1String("name")).toString()));
        if (perBucket < 0)
            perBucket = weights.size();
        QCOMPARE(weights.size(), perBucket);
        for (const auto &entry : weights) {
            // {file, dtype, numel}: the raw storage bytes, named by their SHA-256.
            const QString path = entry.toObject().value(QLatin1String("file")).toString();
            QVERIFY2(path.startsWith(QLatin1String("weights/")) && path.endsWith(QLatin1String(".bin")), qPrintable(path));
            QVERIFY2(files.contains(path), qPrintable(path + " not hashed in the manifest"));
            QCOMPARE(entry.toObject().value(QLatin1String("dtype")).toString(), QStringLiteral("float32"));
            const qint64 numel = entry.toObject().value(QLatin1String("numel")).toInteger();
            QCOMPARE(files.value(path).toObject().value(QLatin1String("bytes")).toInteger(), numel * 4);
            all.insert(path);
        }
    }
    QCOMPARE(all.size(), perBucket);
    QCOMPARE(QDir(m_bundle + QStringLiteral("/weights")).entryList(QDir::Files).size(), perBucket);
    // The packages hold no weights of their own.
    const Run i = run(AOTSTUDIO_CLI_PATH, {QStringLiteral("inspect"), m_bundle + QStringLiteral("/packages/batch4.pt2"),
                                           QStringLiteral("--json")}, 120000);
    QVERIFY2(i.exitCode == 0, i.err.constData());
    QVERIFY2(!i.out.contains("/data/weights/"), "a package kept data/weights/");
}

void TestExport::tamperedWeightsAreRefused()
{
    const QString copy = m_dir.filePath(QStringLiteral("tampered-weights"));
    QVERIFY(copyTree(m_bundle, copy));
    const QStringList weights = QDir(copy + QStringLiteral("/weights")).entryList(QDir::Files);
    QVERIFY(!weights.isEmpty());
    QFile f(copy + QStringLiteral("/weights/") + weights.first());
    QVERIFY(f.open(QIODevice::ReadWrite));
    QVERIFY(f.seek(f.size() - 2));
    QVERIFY(f.putChar('!'));
    f.close();
    const Run r = run(AOTSTUDIO_RUN_PATH, {copy, QStringLiteral("--batch"), QStringLiteral("4")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(("weights/" + weights.first()).toUtf8()) && r.err.contains("SHA-256"), r.err.constData());
}

void TestExport::leanRuntimeMapsNoCudaLibrary()
{
    // A CPU bundle binds its packages to the CPU stand-in for libtorch.so (core/runtime/libraries.h):
    // by the first output, no libtorch_cuda, cuDNN, cuBLAS or NCCL is mapped.
    const QJsonObject r = runJson(m_bundle, 4);
    const QJsonObject libs = r.value(QLatin1String("cold_start")).toObject().value(QLatin1String("libraries")).toObject();
    QVERIFY2(libs.value(QLatin1String("count")).toInt() > 0, "no library list");
    QCOMPARE(libs.value(QLatin1String("cuda_stack")).toBool(true), false);
}

void TestExport::packageCacheExtractsOncePerHash()
{
    const QString cache = m_dir.filePath(QStringLiteral("cache-once"));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("AOTSTUDIO_CACHE_DIR"), cache);
    const auto runOnce = [&](int batch) {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(AOTSTUDIO_RUN_PATH), {m_bundle, QStringLiteral("--batch"), QString::number(batch), QStringLiteral("--json")});
        p.waitForFinished(120000);
        const QJsonObject envelope = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        return envelope.value(QLatin1String("ok")).toBool() ? envelope.value(QLatin1String("result")).toObject()
                                                            : QJsonObject();
    };
    const QJsonObject first = runOnce(4);
    QVERIFY(!first.isEmpty());
    QDir packages(cache + QStringLiteral("/packages"));
    QCOMPARE(packages.entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 1); // batch4's package, named by its SHA-256
    const QString folder = packages.entryList(QDir::Dirs | QDir::NoDotAndDotDot).first();
    QCOMPARE(folder.size(), 64);
    QString library;
    QDirIterator it(packages.filePath(folder), {QStringLiteral("*.so")}, QDir::Files, QDirIterator::Subdirectories);
    QVERIFY(it.hasNext());
    library = it.next();
    const auto inode = QFileInfo(library).fileTime(QFileDevice::FileMetadataChangeTime);
    // Again: the same folder, not extracted anew; the same outputs.
    const QJsonObject again = runOnce(4);
    QCOMPARE(firstValues(again), firstValues(first));
    QCOMPARE(QFileInfo(library).fileTime(QFileDevice::FileMetadataChangeTime), inode);
    // Damaged (the library truncated): extracted again, and it still runs.
    QVERIFY(QFile::resize(library, 100));
    const QJsonObject repaired = runOnce(4);
    QCOMPARE(firstValues(repaired), firstValues(first));
    QVERIFY(QFileInfo(library).size() > 100);
    // Another bucket is another package: a second folder.
    QVERIFY(!runOnce(1).isEmpty());
    QCOMPARE(packages.entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 2);
}

void TestExport::truncatedZipIsRefused()
{
    const QString zip = m_dir.filePath(QStringLiteral("truncated.zip"));
    QVERIFY(QFile::copy(m_bundle + QStringLiteral(".zip"), zip));
    QVERIFY(QFile::resize(zip, QFileInfo(zip).size() / 2));
    const Run r = run(AOTSTUDIO_RUN_PATH, {zip});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("truncated.zip"), r.err.constData());
}

void TestExport::wrongDeviceIsRefused()
{
    const Run probe = run(AOTSTUDIO_CLI_PATH, {QStringLiteral("--version")}, 120000);
    if (!probe.out.contains("no CUDA device"))
        QSKIP("this machine has a CUDA device: a CUDA bundle would be runnable");
    const QString copy = m_dir.filePath(QStringLiteral("cuda"));
    QVERIFY(copyTree(m_bundle, copy));
    QJsonObject m = readJson(copy + QStringLiteral("/manifest.json"));
    m.insert(QStringLiteral("device"), QStringLiteral("cuda"));
    m.insert(QStringLiteral("compute_capability"), QStringLiteral("9.0"));
    QVERIFY(writeJson(copy + QStringLiteral("/manifest.json"), m));
    const Run r = run(AOTSTUDIO_RUN_PATH, {copy});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(lastLine(r.err).contains("CUDA"), r.err.constData());
}

void TestExport::inspectBundle()
{
    const Run r = run(AOTSTUDIO_CLI_PATH, {QStringLiteral("inspect"), m_bundle + QStringLiteral(".zip"), QStringLiteral("--json")}, 120000);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("dynamic") && r.out.contains("batch4"), r.out.constData());
}

void TestExport::signedRoundTrip()
{
    // The manifest names the signer; manifest.sig sits beside it and travels in the zip.
    QCOMPARE(readJson(m_bundle + QStringLiteral("/manifest.json")).value(QLatin1String("signer")).toObject().value(QLatin1String("key_id")).toString(),
             m_keyId);
    QCOMPARE(QFileInfo(m_bundle + QStringLiteral("/manifest.sig")).size(), 64);
    const QString pub = m_key + QStringLiteral(".pub");
    const Run ok = run(AOTSTUDIO_RUN_PATH, {m_bundle + QStringLiteral(".zip"), QStringLiteral("--batch"), QStringLiteral("4"), QStringLiteral("--iters"),
                                            QStringLiteral("1"), QStringLiteral("--trust"), pub, QStringLiteral("--json")});
    QVERIFY2(ok.exitCode == 0, ok.err.constData());
    const QJsonObject sig = TestSupport::result(ok.out).value(QLatin1String("signature")).toObject();
    QCOMPARE(sig.value(QLatin1String("state")).toString(), QStringLiteral("trusted"));
    QCOMPARE(sig.value(QLatin1String("key_id")).toString(), m_keyId);
    const Run text = run(AOTSTUDIO_RUN_PATH, {m_bundle, QStringLiteral("--iters"), QStringLiteral("0"), QStringLiteral("--trust"), pub});
    QVERIFY2(text.out.contains("signature:   signed by key " + m_keyId.toUtf8() + ", trusted"), text.out.constData());

    // Another maker's key: refused, and inspect says the same.
    const QString other = m_dir.filePath(QStringLiteral("other.key"));
    QCOMPARE(run(AOTSTUDIO_CLI_PATH, {QStringLiteral("keygen"), other}, 60000).exitCode, 0);
    const Run foreign = run(AOTSTUDIO_RUN_PATH, {m_bundle, QStringLiteral("--trust"), other + QStringLiteral(".pub")});
    QCOMPARE(foreign.exitCode, 1);
    QVERIFY2(lastLine(foreign.err).contains("not in the trust store"), foreign.err.constData());
    const Run inspectOk = run(AOTSTUDIO_CLI_PATH, {QStringLiteral("inspect"), m_bundle, QStringLiteral("--trust"), pub}, 120000);
    QCOMPARE(inspectOk.exitCode, 0);
    QVERIFY2(inspectOk.out.contains("signature:    signed by key " + m_keyId.toUtf8() + ", trusted"), inspectOk.out.constData());
    const Run inspectForeign = run(AOTSTUDIO_CLI_PATH, {QStringLiteral("inspect"), m_bundle, QStringLiteral("--trust"), other + QStringLiteral(".pub"),
                                                        QStringLiteral("--json")}, 120000);
    QCOMPARE(inspectForeign.exitCode, 1);
    // A refused bundle: the error envelope, with what inspect read beside it.
    // A trust refusal has the code the engine and aotstudio-run give it (FORMAT.md "Error codes").
    QCOMPARE(TestSupport::error(inspectForeign.out).value(QLatin1String("code")).toString(),
             QStringLiteral("untrusted"));
    const QJsonObject inspected = TestSupport::result(inspectForeign.out).value(QLatin1String("signature")).toObject();
    QCOMPARE(inspected.value(QLatin1String("state")).toString(), QStringLiteral("untrusted"));
    QVERIFY(inspected.value(QLatin1String("refused")).toString().contains(m_keyId));

    // The signature removed: an unsigned bundle, refused by a trust store unless --allow-unsigned.
    const QString copy = m_dir.filePath(QStringLiteral("unsigned"));
    QVERIFY(copyTree(m_bundle, copy));
    QVERIFY(QFile::remove(copy + QStringLiteral("/manifest.sig")));
    const Run refused = run(AOTSTUDIO_RUN_PATH, {copy, QStringLiteral("--trust"), pub});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(lastLine(refused.err).contains("is unsigned") && lastLine(refused.err).contains("--allow-unsigned"), refused.err.constData());
    const Run allowed = run(AOTSTUDIO_RUN_PATH, {copy, QStringLiteral("--iters"), QStringLiteral("0"), QStringLiteral("--trust"), pub,
                                                 QStringLiteral("--allow-unsigned")});
    QVERIFY2(allowed.exitCode == 0, allowed.err.constData());
    QVERIFY2(allowed.out.contains("signature:   UNSIGNED"), allowed.out.constData());

    // sweep --bundle follows the same rules, with the engine's $AOTSTUDIO_TRUST as the store.
    qputenv("AOTSTUDIO_TRUST", pub.toUtf8());
    const QStringList sweep{QStringLiteral("sweep"), QStringLiteral("--bundle"), copy, QStringLiteral("--budget"), QStringLiteral("1"),
                            QStringLiteral("--no-pairwise"), QStringLiteral("--no-outside")};
    const Run sweepRefused = run(AOTSTUDIO_CLI_PATH, sweep + QStringList{QStringLiteral("--out"), m_dir.filePath(QStringLiteral("sweep-refused"))});
    const Run sweepAllowed = run(AOTSTUDIO_CLI_PATH, sweep + QStringList{QStringLiteral("--out"), m_dir.filePath(QStringLiteral("sweep-allowed")),
                                                                        QStringLiteral("--allow-unsigned")});
    qunsetenv("AOTSTUDIO_TRUST");
    QCOMPARE(sweepRefused.exitCode, 1);
    QVERIFY2(sweepRefused.err.contains("is unsigned"), sweepRefused.err.right(2000).constData());
    // The code the studio answers with its trust dialog (an invalid signature stays load_failed).
    QVERIFY2(sweepRefused.err.contains("untrusted"), sweepRefused.err.right(2000).constData());
    QVERIFY2(sweepAllowed.exitCode == 0, sweepAllowed.err.right(2000).constData());
}

void TestExport::neverOverwrites()
{
    const Run r = run(AOTSTUDIO_CLI_PATH, {QStringLiteral("export"), QStringLiteral("--from"), m_dir.filePath(QStringLiteral("job")),
                                           QStringLiteral("--out"), m_bundle});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(lastLine(r.err).contains("already exists"), r.err.constData());
    QVERIFY(QFileInfo::exists(m_bundle + QStringLiteral("/manifest.json")));
}

void TestExport::interruptedExportLeavesNothing()
{
    const QString out = m_dir.filePath(QStringLiteral("interrupted"));
    QProcess p;
    p.start(QStringLiteral(AOTSTUDIO_CLI_PATH), {QStringLiteral("export"), QStringLiteral("--from"), m_dir.filePath(QStringLiteral("job")),
                                                QStringLiteral("--buckets"), QStringLiteral("batch=1,2"), QStringLiteral("--out"), out});
    QByteArray err;
    QTRY_VERIFY_WITH_TIMEOUT((err += p.readAllStandardError()).contains("batch2: "), 300000); // second bucket started
    ::kill(static_cast<pid_t>(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(600000));
    QCOMPARE(p.exitCode(), 130);
    QVERIFY(!QFileInfo::exists(out));
    QVERIFY(!QFileInfo::exists(out + QStringLiteral(".zip")));
    const QStringList partial = QDir(m_dir.path()).entryList({QStringLiteral("interrupted*")}, QDir::AllEntries | QDir::Hidden);
    QVERIFY2(partial.isEmpty(), qPrintable(partial.join(QLatin1Char(' '))));
}

QTEST_GUILESS_MAIN(TestExport)
#include "tst_export.moc"

void TestExport::blockLayout()
{
    // The layout spaces.aoti_blocks_load reads (BUNDLE.md "Block layout"): one weightless package
    // per repeated block class, with blocks.json hashing every file; not a bundle aotstudio-run runs.
    const QString model = QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/repeated_blocks_factory.py:make");
    const QString out = m_dir.filePath(QStringLiteral("blocks-layout"));
    // What does not apply is refused before any compile (exit 2, the flag named).
    const Run refused = run(AOTSTUDIO_CLI_PATH,
                            {QStringLiteral("export"), QStringLiteral("--model"), model, QStringLiteral("--layout"),
                             QStringLiteral("blocks"), QStringLiteral("--buckets"), QStringLiteral("batch=1,2"),
                             QStringLiteral("--out"), out},
                            120000);
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains("--buckets does not apply to --layout blocks"), refused.err.constData());
    QVERIFY(!QFileInfo::exists(out));

    const Run e = run(AOTSTUDIO_CLI_PATH,
                      {QStringLiteral("export"), QStringLiteral("--model"), model, QStringLiteral("--layout"),
                       QStringLiteral("blocks"), QStringLiteral("--out"), out, QStringLiteral("--json")});
    QVERIFY2(e.exitCode == 0, e.err.right(3000).constData());
    const QJsonObject r = TestSupport::result(e.out);
    QCOMPARE(r.value(QLatin1String("layout")).toString(), QStringLiteral("blocks"));
    QVERIFY(r.value(QLatin1String("manifest")).isNull());
    QVERIFY2(r.value(QLatin1String("verify"))
                 .toObject()
                 .value(QLatin1String("verdict"))
                 .toString()
                 .startsWith(QLatin1String("matches eager")),
             e.out.constData());
    QVERIFY(QFileInfo(out + QStringLiteral("/Block/package.pt2")).isFile());
    QVERIFY(QFileInfo(out + QStringLiteral("/Block/block.json")).isFile());
    QVERIFY(!QFileInfo::exists(out + QStringLiteral("/manifest.json")));
    QVERIFY(!QFileInfo::exists(out + QStringLiteral("/work"))); // the compile's own folder is not shipped
    QVERIFY(QFileInfo(out + QStringLiteral(".zip")).isFile());
    const QStringList leftovers
        = QDir(m_dir.path()).entryList({QStringLiteral("blocks-layout.partial-*")}, QDir::AllEntries | QDir::Hidden);
    QVERIFY2(leftovers.isEmpty(), qPrintable(leftovers.join(QLatin1Char(' '))));

    // blocks.json: the block, its four instances, and the SHA-256 of each file as it is on disk.
    const QJsonObject index = readJson(out + QStringLiteral("/blocks.json"));
    QCOMPARE(index.value(QLatin1String("format")).toString(), QStringLiteral("aotstudio.blocks"));
    const QJsonArray blocks = index.value(QLatin1String("blocks")).toArray();
    QCOMPARE(blocks.size(), 1);
    const QJsonObject block = blocks.first().toObject();
    QCOMPARE(block.value(QLatin1String("class")).toString(), QStringLiteral("Block"));
    QCOMPARE(block.value(QLatin1String("instances")).toArray().size(), 4);
    QCOMPARE(block.value(QLatin1String("constants")).toInt(), 4);
    const QJsonObject files = block.value(QLatin1String("files")).toObject();
    QCOMPARE(files.keys(), (QStringList{QStringLiteral("Block/block.json"), QStringLiteral("Block/package.pt2")}));
    for (auto it = files.begin(); it != files.end(); ++it) {
        QFile f(out + QLatin1Char('/') + it.key());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QCOMPARE(QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()),
                 it.value().toObject().value(QLatin1String("sha256")).toString());
        QCOMPARE(qint64(it.value().toObject().value(QLatin1String("bytes")).toDouble()), qint64(bytes.size()));
    }

    // aotstudio-run says what it is instead of "no manifest".
    const Run runIt = run(AOTSTUDIO_RUN_PATH, {out, QStringLiteral("--iters"), QStringLiteral("1")}, 120000);
    QVERIFY(runIt.exitCode != 0);
    QVERIFY2(runIt.err.contains("is a block layout"), runIt.err.constData());
}
