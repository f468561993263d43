// SPDX-License-Identifier: GPL-3.0-or-later
// Verification across shapes (issue 12, item 3), end to end through aotstudio-cli on the CPU with
// tests/fixtures/dynamic_factory.py: `sweep --package` checks a derived dimension inside its range
// (matched), outside it and at odd lengths (refused); a batch-1 example compiled with a dynamic
// batch matches at 2, 7 and the range end; two inputs tied by one name refuse a mismatched batch;
// a package whose guards record was removed runs shapes it must not (AOTInductor checks nothing)
// and the sweep fails saying so; --isolate runs each call in aotstudio-run (a shared-weights
// bundle's bucket through aotstudio-run BUNDLE --bucket); compile's own verify
// checks the range ends; bad requests exit 2.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "processrun.h"

namespace {

using TestSupport::lastLine;
using TestSupport::readJson;
using TestSupport::Run;

QString factory(const char *name)
{
    return QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/dynamic_factory.py:") + QLatin1String(name);
}

using TestSupport::cli;

Run compile(const QString &model, const QString &out, QStringList extra = {})
{
    return TestSupport::quickCompile(model, out, QStringList{QStringLiteral("--no-snapshots")} + extra);
}

Run sweep(const QString &package, const QString &out, QStringList extra = {})
{
    return cli(QStringList { QStringLiteral("sweep"), QStringLiteral("--package"), package, QStringLiteral("--out"),
                   out, QStringLiteral("--json") }
        + extra);
}

QJsonArray points(const QJsonObject &result)
{
    return result.value(QLatin1String("targets")).toArray().first().toObject().value(QLatin1String("points")).toArray();
}

/// The point whose first input has `shape`, or an empty object.
QJsonObject pointAt(const QJsonObject &result, const QJsonArray &shape)
{
    for (const auto &p : points(result))
        if (p.toObject().value(QLatin1String("shapes")).toArray().first().toArray() == shape)
            return p.toObject();
    return {};
}

} // namespace

class TestSweep : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void derivedDimension();
    void compileVerifiesRangeEnds();
    void isolated();
    void batchOneDynamic();
    void sharedBatch();
    void packageWithoutGuards();
    void bundleBucketsAndPolicy();
    void isolatedSharedWeightsBundle();
    void badRequests();

private:
    QTemporaryDir m_dir;
    QString m_derived; ///< the derived-dimension package (compiled once)
};

void TestSweep::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const Run r = compile(factory("derived"), m_dir.filePath(QStringLiteral("derived")));
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    m_derived = m_dir.filePath(QStringLiteral("derived/model.pt2"));
}

// x has length 2*n, n in 2..32 (c09): even lengths inside match, odd and too long ones are refused.
void TestSweep::derivedDimension()
{
    const QString out = m_dir.filePath(QStringLiteral("derived-sweep"));
    const Run r = sweep(m_derived, out);
    QVERIFY2(r.exitCode == 0, (r.out.right(3000) + r.err.right(3000)).constData());
    const QJsonObject j = TestSupport::result(r.out);
    QCOMPARE(j.value(QLatin1String("passed")).toBool(), true);
    QCOMPARE(j, readJson(out + QLatin1String("/sweep.json")));
    QVERIFY(QFileInfo::exists(out + QLatin1String("/sweep.csv")));
    const QJsonObject counts = j.value(QLatin1String("counts")).toObject();
    QVERIFY(counts.value(QLatin1String("match")).toInt() >= 6);
    QVERIFY(counts.value(QLatin1String("refused")).toInt() >= 3);
    QCOMPARE(j.value(QLatin1String("failures")).toInt(), 0);

    // The range ends match; one past the end and odd lengths are refused with the reason.
    for (const int len : { 4, 64 }) {
        const QJsonObject p = pointAt(j, QJsonArray { len });
        QCOMPARE(p.value(QLatin1String("outcome")).toString(), QStringLiteral("match"));
        QCOMPARE(p.value(QLatin1String("expected")).toString(), QStringLiteral("match"));
        QVERIFY(!p.value(QLatin1String("outputs")).toArray().isEmpty());
    }
    const QJsonObject past = pointAt(j, QJsonArray { 66 });
    QCOMPARE(past.value(QLatin1String("outcome")).toString(), QStringLiteral("refused"));
    QVERIFY2(past.value(QLatin1String("message")).toString().contains(QLatin1String("outside n's range 2..32")),
        qPrintable(past.value(QLatin1String("message")).toString()));
    // Issue 34: the example's values in other layouts (a slice of a longer tensor, a misaligned
    // view): refused by the runner as deployed, copied and equal to eager with convert_layout.
    const QJsonArray layout
        = j.value(QLatin1String("targets")).toArray().first().toObject().value(QLatin1String("layout")).toArray();
    QStringList variants;
    for (const auto &v : layout) {
        const QJsonObject row = v.toObject();
        variants << row.value(QLatin1String("variant")).toString();
        QCOMPARE(row.value(QLatin1String("default")).toString(), QStringLiteral("refused"));
        QCOMPARE(row.value(QLatin1String("converted")).toString(), QStringLiteral("match"));
        QVERIFY(row.value(QLatin1String("ok")).toBool());
        QVERIFY2(row.value(QLatin1String("message")).toString().contains(QLatin1String("input 0 (x)")),
                 qPrintable(row.value(QLatin1String("message")).toString()));
    }
    QCOMPARE(variants, (QStringList{QStringLiteral("sliced"), QStringLiteral("offset")}));
    QVERIFY2(j.value(QLatin1String("verdict"))
                 .toString()
                 .contains(QLatin1String("layouts: 2 (input, layout) pairs, each refused or copied")),
             qPrintable(j.value(QLatin1String("verdict")).toString()));
    const QJsonObject odd = pointAt(j, QJsonArray { 11 });
    QCOMPARE(odd.value(QLatin1String("relation")).toBool(), true);
    QCOMPARE(odd.value(QLatin1String("outcome")).toString(), QStringLiteral("refused"));
    QVERIFY2(odd.value(QLatin1String("message")).toString().contains(QLatin1String("not 2*n")),
        qPrintable(odd.value(QLatin1String("message")).toString()));

    // The text output marks each size per dimension and ends with the verdict.
    const Run text = cli({ QStringLiteral("sweep"), QStringLiteral("--package"), m_derived, QStringLiteral("--out"),
        m_dir.filePath(QStringLiteral("derived-sweep-text")), QStringLiteral("--no-pairwise") });
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.contains("32+ 33-"), text.out.constData());
    QVERIFY2(text.out.contains("sweep:          passed"), text.out.constData());
}

// Compile's verify checks each dynamic dimension's range ends (n = 2 and 32: lengths 4 and 64).
void TestSweep::compileVerifiesRangeEnds()
{
    const QJsonObject result = readJson(m_dir.filePath(QStringLiteral("derived/result.json")));
    const QJsonArray shapes = result.value(QLatin1String("verify"))
                                  .toObject()
                                  .value(QLatin1String("shapes"))
                                  .toObject()
                                  .value(QLatin1String("points"))
                                  .toArray();
    QCOMPARE(shapes.size(), 2);
    QSet<int> lengths;
    for (const auto &p : shapes) {
        QCOMPARE(p.toObject().value(QLatin1String("outcome")).toString(), QStringLiteral("match"));
        lengths.insert(p.toObject().value(QLatin1String("shapes")).toArray().first().toArray().first().toInt());
    }
    QCOMPARE(lengths, (QSet<int> { 4, 64 }));
}

// Every package call in a child aotstudio-run: the same outcomes.
void TestSweep::isolated()
{
    const Run r = sweep(m_derived, m_dir.filePath(QStringLiteral("derived-isolated")),
        { QStringLiteral("--isolate"), QStringLiteral("--timeout"), QStringLiteral("120"), QStringLiteral("--budget"),
            QStringLiteral("8") });
    QVERIFY2(r.exitCode == 0, (r.out.right(3000) + r.err.right(3000)).constData());
    const QJsonObject j = TestSupport::result(r.out);
    QCOMPARE(j.value(QLatin1String("isolate")).toBool(), true);
    QCOMPARE(j.value(QLatin1String("points")).toInt(), 8);
    int matched = 0, refused = 0;
    for (const auto &p : points(j)) {
        const QString outcome = p.toObject().value(QLatin1String("outcome")).toString();
        matched += outcome == QLatin1String("match");
        refused += outcome == QLatin1String("refused");
        QVERIFY(p.toObject().value(QLatin1String("ok")).toBool());
    }
    QVERIFY(matched >= 3);
    QVERIFY(refused >= 1);
    // The child processes' input and output files are gone with their scratch folder.
    QCOMPARE(QDir(m_dir.filePath(QStringLiteral("derived-isolated")))
                 .entryList({ QStringLiteral(".sweep-*") }, QDir::AllEntries | QDir::Hidden)
                 .size(),
        0);
}

// A batch-1 example compiled with --dynamic 0:0 (c23): the package matches eager at 2, 7 and the
// range end, not only at the example's size.
void TestSweep::batchOneDynamic()
{
    const QString dir = m_dir.filePath(QStringLiteral("batch1"));
    const Run c = compile(factory("batch_one"), dir, { QStringLiteral("--dynamic"), QStringLiteral("0:0:1:32") });
    QVERIFY2(c.exitCode == 0, c.err.right(3000).constData());
    const Run r = sweep(dir + QLatin1String("/model.pt2"), dir + QLatin1String("-sweep"),
        { QStringLiteral("--random-points"), QStringLiteral("4") });
    QVERIFY2(r.exitCode == 0, (r.out.right(3000) + r.err.right(3000)).constData());
    const QJsonObject j = TestSupport::result(r.out);
    for (const int b : { 2, 32 }) {
        const QJsonObject p = pointAt(j, QJsonArray { b, 8 });
        QCOMPARE(p.value(QLatin1String("outcome")).toString(), QStringLiteral("match"));
    }
    const QJsonObject odd = pointAt(j, QJsonArray { 33, 8 });
    QCOMPARE(odd.value(QLatin1String("outcome")).toString(), QStringLiteral("refused"));
    bool oddInside = false;
    for (const auto &p : points(j)) {
        const int b = p.toObject().value(QLatin1String("shapes")).toArray().first().toArray().first().toInt();
        oddInside |= b % 2 == 1 && b > 1 && b < 32
            && p.toObject().value(QLatin1String("outcome")).toString() == QLatin1String("match");
    }
    QVERIFY2(oddInside, "an odd batch inside the range was verified");
}

// Two inputs whose batch is one dimension: a call whose batches differ is refused.
void TestSweep::sharedBatch()
{
    const QString dir = m_dir.filePath(QStringLiteral("shared"));
    const Run c = compile(factory("shared_batch"), dir,
        { QStringLiteral("--dynamic"), QStringLiteral("0:0:1:16=batch"), QStringLiteral("1:0=batch") });
    QVERIFY2(c.exitCode == 0, c.err.right(3000).constData());
    const Run r = sweep(dir + QLatin1String("/model.pt2"), dir + QLatin1String("-sweep"));
    QVERIFY2(r.exitCode == 0, (r.out.right(3000) + r.err.right(3000)).constData());
    const QJsonObject j = TestSupport::result(r.out);
    bool broken = false;
    for (const auto &p : points(j)) {
        const QJsonObject o = p.toObject();
        const QJsonArray shapes = o.value(QLatin1String("shapes")).toArray();
        QCOMPARE(shapes.size(), 2);
        if (o.value(QLatin1String("relation")).toBool()) {
            broken = true;
            QVERIFY(shapes[0].toArray().first() != shapes[1].toArray().first());
            QCOMPARE(o.value(QLatin1String("outcome")).toString(), QStringLiteral("refused"));
            QVERIFY2(o.value(QLatin1String("message")).toString().contains(QLatin1String("they are one dimension")),
                qPrintable(o.value(QLatin1String("message")).toString()));
        } else {
            QCOMPARE(shapes[0].toArray().first(), shapes[1].toArray().first());
        }
    }
    QVERIFY(broken);
}

// Without model.guards.json (and without guards in result.json) nothing stops a call of another
// size: the sweep checks the package as static and fails, naming what ran.
void TestSweep::packageWithoutGuards()
{
    const QString dir = m_dir.filePath(QStringLiteral("noguards"));
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(QFile::copy(m_derived, dir + QLatin1String("/model.pt2")));
    QJsonObject result = readJson(m_dir.filePath(QStringLiteral("derived/result.json")));
    result.remove(QLatin1String("guards"));
    QFile f(dir + QLatin1String("/result.json"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(result).toJson());
    f.close();
    const Run r = sweep(dir + QLatin1String("/model.pt2"), dir + QLatin1String("-sweep"));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("has no guards record"), r.err.right(3000).constData());
    const QJsonObject j = TestSupport::result(r.out);
    QCOMPARE(j.value(QLatin1String("passed")).toBool(), false);
    const QJsonObject longer = pointAt(j, QJsonArray { 11 });
    QCOMPARE(longer.value(QLatin1String("expected")).toString(), QStringLiteral("refused"));
    QCOMPARE(longer.value(QLatin1String("outcome")).toString(), QStringLiteral("not_refused"));
    QVERIFY(j.value(QLatin1String("verdict")).toString().startsWith(QLatin1String("FAILED")));
    // A failed check: the envelope's error names it, the report stays beside it.
    QCOMPARE(TestSupport::envelope(r.out).value(QLatin1String("ok")).toBool(true), false);
    QCOMPARE(TestSupport::error(r.out).value(QLatin1String("code")).toString(), QStringLiteral("failed"));
    QCOMPARE(TestSupport::error(r.out).value(QLatin1String("message")).toString(),
             j.value(QLatin1String("verdict")).toString());
}

// A bundle whose inputs have a dynamic dimension besides the batch (export --dynamic): every
// bucket's package keeps it (its guards in the manifest), each is swept, and the bucket policy
// runs every batch size in the bucket aotstudio-run picks, padded, against eager.
void TestSweep::bundleBucketsAndPolicy()
{
    const QString bundle = m_dir.filePath(QStringLiteral("pair-bundle"));
    const Run e = cli({QStringLiteral("export"), QStringLiteral("--model"), factory("shared_batch"), QStringLiteral("--buckets"),
                       QStringLiteral("batch=4"), QStringLiteral("--dynamic-batch"), QStringLiteral("1:8"), QStringLiteral("--pad-safe"),
                       QStringLiteral("--dynamic"), QStringLiteral("0:1:2:32=feat"), QStringLiteral("--dynamic"), QStringLiteral("1:1=feat"),
                       QStringLiteral("--no-zip"), QStringLiteral("--cold-start-runs"), QStringLiteral("0"), QStringLiteral("--out"), bundle});
    QVERIFY2(e.exitCode == 0, e.err.right(3000).constData());
    const QJsonObject manifest = readJson(bundle + QLatin1String("/manifest.json"));
    const QJsonArray buckets = manifest.value(QLatin1String("buckets")).toArray();
    QCOMPARE(buckets.size(), 2);
    for (const auto &b : buckets) {
        // Dimension 1 of both inputs is one symbol with the range given, in every bucket.
        const QJsonArray inputs = b.toObject().value(QLatin1String("guards")).toObject().value(QLatin1String("inputs")).toArray();
        QCOMPARE(inputs.size(), 2);
        const QJsonObject d1 = inputs[0].toObject().value(QLatin1String("dims")).toArray()[1].toObject();
        QVERIFY2(d1.contains(QLatin1String("symbol")), QJsonDocument(d1).toJson().constData());
        QCOMPARE(inputs[1].toObject().value(QLatin1String("dims")).toArray()[1].toObject().value(QLatin1String("symbol")),
                 d1.value(QLatin1String("symbol")));
    }

    const Run r = cli({QStringLiteral("sweep"), QStringLiteral("--bundle"), bundle, QStringLiteral("--out"), m_dir.filePath(QStringLiteral("pair-sweep")),
                       QStringLiteral("--json"), QStringLiteral("--budget"), QStringLiteral("24")});
    QVERIFY2(r.exitCode == 0, (r.out.right(3000) + r.err.right(3000)).constData());
    const QJsonObject j = TestSupport::result(r.out);
    QCOMPARE(j.value(QLatin1String("kind")).toString(), QStringLiteral("bundle"));
    QCOMPARE(j.value(QLatin1String("targets")).toArray().size(), 2);
    // The exact bucket takes batch 4 only, with any feature size in 2..32.
    const QJsonObject exact = j.value(QLatin1String("targets")).toArray()[0].toObject();
    QCOMPARE(exact.value(QLatin1String("name")).toString(), QStringLiteral("batch4"));
    bool featureVaried = false;
    for (const auto &p : exact.value(QLatin1String("points")).toArray()) {
        const QJsonObject o = p.toObject();
        QVERIFY2(o.value(QLatin1String("ok")).toBool(), QJsonDocument(o).toJson().constData());
        const QJsonArray shape = o.value(QLatin1String("shapes")).toArray().first().toArray();
        featureVaried |= shape[1].toInt() != 5 && o.value(QLatin1String("outcome")).toString() == QLatin1String("match");
    }
    QVERIFY(featureVaried);
    // The policy: batch 3 runs padded in batch4, batch 9 in no bucket, each as eager.
    bool padded = false, none = false;
    for (const auto &row : j.value(QLatin1String("policy")).toArray()) {
        const QJsonObject o = row.toObject();
        QVERIFY2(o.value(QLatin1String("ok")).toBool(), QJsonDocument(o).toJson().constData());
        if (o.value(QLatin1String("batch")).toInt() == 3) {
            padded = o.value(QLatin1String("padded")).toBool() && o.value(QLatin1String("bucket")).toString() == QLatin1String("batch4");
            QCOMPARE(o.value(QLatin1String("outcome")).toString(), QStringLiteral("match"));
        }
        if (o.value(QLatin1String("batch")).toInt() == 9)
            none = o.value(QLatin1String("outcome")).toString() == QLatin1String("refused");
    }
    QVERIFY(padded);
    QVERIFY(none);
    QVERIFY2(j.value(QLatin1String("verdict")).toString().contains(QLatin1String("bucket policy")),
             qPrintable(j.value(QLatin1String("verdict")).toString()));
}

// A bundle whose buckets share their weights (BUNDLE.md "Shared weights": weights/ beside packages
// that hold none): --isolate runs each call as aotstudio-run BUNDLE --bucket NAME, which binds
// them as a deployed run does (aotstudio-run --package alone could not).
void TestSweep::isolatedSharedWeightsBundle()
{
    const QString bundle = m_dir.filePath(QStringLiteral("mlp-bundle"));
    const Run e = cli({QStringLiteral("export"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                       QStringLiteral("--buckets"), QStringLiteral("batch=1,2"), QStringLiteral("--no-zip"),
                       QStringLiteral("--cold-start-runs"), QStringLiteral("0"), QStringLiteral("--out"), bundle});
    QVERIFY2(e.exitCode == 0, e.err.right(3000).constData());
    const QJsonArray buckets
        = readJson(bundle + QLatin1String("/manifest.json")).value(QLatin1String("buckets")).toArray();
    QCOMPARE(buckets.size(), 2);
    for (const auto &b : buckets)
        QVERIFY2(!b.toObject().value(QLatin1String("weights")).toObject().isEmpty(), "the buckets share their weights");
    const Run r = cli({QStringLiteral("sweep"), QStringLiteral("--bundle"), bundle, QStringLiteral("--out"),
                       m_dir.filePath(QStringLiteral("mlp-sweep-isolated")), QStringLiteral("--json"),
                       QStringLiteral("--isolate"), QStringLiteral("--timeout"), QStringLiteral("120"),
                       QStringLiteral("--budget"), QStringLiteral("4")});
    QVERIFY2(r.exitCode == 0, (r.out.right(3000) + r.err.right(3000)).constData());
    const QJsonObject j = TestSupport::result(r.out);
    QCOMPARE(j.value(QLatin1String("isolate")).toBool(), true);
    QCOMPARE(j.value(QLatin1String("targets")).toArray().size(), 2);
    int matched = 0;
    for (const auto &t : j.value(QLatin1String("targets")).toArray())
        for (const auto &p : t.toObject().value(QLatin1String("points")).toArray()) {
            const QJsonObject o = p.toObject();
            QVERIFY2(o.value(QLatin1String("ok")).toBool(), QJsonDocument(o).toJson().constData());
            matched += o.value(QLatin1String("outcome")).toString() == QLatin1String("match");
        }
    QCOMPARE(matched, 2); // each bucket's example batch, its outputs against eager
}

void TestSweep::badRequests()
{
    // No target.
    QCOMPARE(
        cli({ QStringLiteral("sweep"), QStringLiteral("--out"), m_dir.filePath(QStringLiteral("bad")) }).exitCode, 2);
    // Two targets.
    QCOMPARE(cli({ QStringLiteral("sweep"), QStringLiteral("--package"), m_derived, QStringLiteral("--bundle"),
                     m_dir.path(), QStringLiteral("--out"), m_dir.filePath(QStringLiteral("bad")) })
                 .exitCode,
        2);
    // A package that does not exist, a zero budget.
    QCOMPARE(cli({ QStringLiteral("sweep"), QStringLiteral("--package"), m_dir.filePath(QStringLiteral("nope.pt2")) })
                 .exitCode,
        2);
    QCOMPARE(cli({ QStringLiteral("sweep"), QStringLiteral("--package"), m_derived, QStringLiteral("--budget"),
                     QStringLiteral("0") })
                 .exitCode,
        2);
}

QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
