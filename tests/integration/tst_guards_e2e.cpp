// SPDX-License-Identifier: GPL-3.0-or-later
// What a package accepts and what was really built (issue 12, items 1-2), end to end through
// aotstudio-cli on the CPU with tests/fixtures/dynamic_factory.py: the guards reach the result and
// the model.guards.json sidecar, the engine's runner refuses inputs outside them (profile
// --package), a batch-1 example is resized for a requested dynamic batch, dimensions tie across
// forward(*args) inputs by name, and a dimension the code pins fails the compile with torch's fix.
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
    return TestSupport::quickCompile(model, out, extra);
}

/// The package profiled with another factory's inputs (the runner checks them against the sidecar).
Run profilePackage(const QString &model, const QString &package, const QString &out)
{
    return cli({QStringLiteral("profile"), QStringLiteral("--model"), model, QStringLiteral("--package"), package,
                QStringLiteral("--out"), out, QStringLiteral("--runners"), QStringLiteral("0"), QStringLiteral("--cold-start-runs"),
                QStringLiteral("0"), QStringLiteral("--no-trace"), QStringLiteral("--max-seconds"), QStringLiteral("0.1"),
                QStringLiteral("--variants"), QStringLiteral("eager"), QStringLiteral("aoti")});
}

} // namespace

class TestGuardsE2E : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void derivedDimension();
    void batchOneResized();
    void sharedBatchAcrossVarargs();
    void pinnedDimensionFails();
    void exportKeepsTheCompilesRule();
};

void TestGuardsE2E::derivedDimension()
{
    QTemporaryDir dir;
    const Run r = compile(factory("derived"), dir.path());
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    const QJsonObject guards = TestSupport::result(r.out).value(QLatin1String("guards")).toObject();
    const QJsonObject n = guards.value(QLatin1String("symbols")).toArray().first().toObject();
    QCOMPARE(n.value(QLatin1String("name")).toString(), QStringLiteral("n"));
    QCOMPARE(n.value(QLatin1String("max")).toInt(), 32);
    const QJsonObject dim = guards.value(QLatin1String("inputs")).toArray().first().toObject().value(QLatin1String("dims")).toArray().first().toObject();
    QCOMPARE(dim.value(QLatin1String("coeff")).toInt(), 2);
    // The sidecar beside the package holds the same.
    QCOMPARE(readJson(dir.filePath(QStringLiteral("model.guards.json"))), guards);

    const QString package = dir.filePath(QStringLiteral("model.pt2"));
    const Run odd = profilePackage(factory("derived_odd"), package, dir.filePath(QStringLiteral("odd")));
    QCOMPARE(odd.exitCode, 1);
    QVERIFY2(lastLine(odd.err).contains("load_failed"), odd.err.right(2000).constData());
    QVERIFY2(lastLine(odd.err).contains("input 0 (x) dimension 0 is 7, which is not 2*n for a whole n"), lastLine(odd.err).constData());
    const Run longer = profilePackage(factory("derived_long"), package, dir.filePath(QStringLiteral("long")));
    QCOMPARE(longer.exitCode, 1);
    QVERIFY2(lastLine(longer.err).contains("is 66 (n = 33), outside n's range 2..32"), lastLine(longer.err).constData());
    const Run other = profilePackage(factory("derived_other"), package, dir.filePath(QStringLiteral("other")));
    QVERIFY2(other.exitCode == 0, other.err.right(2000).constData());
}

void TestGuardsE2E::batchOneResized()
{
    QTemporaryDir dir;
    const Run r = compile(factory("batch_one"), dir.path(), {QStringLiteral("--dynamic"), QStringLiteral("0:0")});
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    QVERIFY2(r.err.contains("has size 1 along dimension 0") && r.err.contains("resized to 2"), r.err.right(3000).constData());
    const QJsonObject j = TestSupport::result(r.out);
    QCOMPARE(j.value(QLatin1String("inputs")).toArray().first().toObject().value(QLatin1String("shape")).toArray().first().toInt(), 2);
    const QJsonObject d0 = j.value(QLatin1String("guards")).toObject().value(QLatin1String("inputs")).toArray().first().toObject()
                               .value(QLatin1String("dims")).toArray().first().toObject();
    QVERIFY2(d0.contains(QLatin1String("symbol")), QJsonDocument(d0).toJson().constData()); // really dynamic
    QVERIFY(!d0.contains(QLatin1String("size")));
}

void TestGuardsE2E::sharedBatchAcrossVarargs()
{
    QTemporaryDir dir;
    // Two names for dims the model adds together: torch's "must always be equal" and the fix in --dynamic words.
    const Run untied = compile(factory("shared_batch"), dir.filePath(QStringLiteral("untied")),
                               {QStringLiteral("--dynamic"), QStringLiteral("0:0"), QStringLiteral("1:0")});
    QCOMPARE(untied.exitCode, 1);
    QVERIFY2(lastLine(untied.err).contains("must always be equal") && lastLine(untied.err).contains("--dynamic 0:0=NAME 1:0=NAME"),
             lastLine(untied.err).constData());

    const Run r = compile(factory("shared_batch"), dir.path(),
                          {QStringLiteral("--dynamic"), QStringLiteral("0:0:1:16=batch"), QStringLiteral("1:0=batch")});
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    const QJsonObject guards = TestSupport::result(r.out).value(QLatin1String("guards")).toObject();
    const QJsonObject batch = guards.value(QLatin1String("symbols")).toArray().first().toObject();
    QCOMPARE(batch.value(QLatin1String("name")).toString(), QStringLiteral("batch"));
    QCOMPARE(batch.value(QLatin1String("max")).toInt(), 16);
    const QJsonObject relation = guards.value(QLatin1String("relations")).toArray().first().toObject();
    QCOMPARE(relation.value(QLatin1String("kind")).toString(), QStringLiteral("equal"));
    QCOMPARE(relation.value(QLatin1String("dims")).toArray().size(), 2);
}

void TestGuardsE2E::pinnedDimensionFails()
{
    QTemporaryDir dir;
    const Run r = compile(factory("pinned"), dir.path(), {QStringLiteral("--dynamic"), QStringLiteral("0:0")});
    QCOMPARE(r.exitCode, 1);
    const QByteArray line = lastLine(r.err);
    QVERIFY2(line.contains("export_failed"), line.constData());
    QVERIFY2(line.contains("specialized it to be a constant (4)"), line.constData());
    QVERIFY2(line.contains("drop 0:0 from --dynamic"), line.constData());
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("model.pt2"))));
}

QTEST_GUILESS_MAIN(TestGuardsE2E)
// Issue 34: a bundle accepts exactly the sizes the compile accepted. export --from a compile whose
// dimension 0 is 2*n keeps that rule in one dynamic bucket (odd sizes refused by its guards, not
// "no bucket"); --dynamic-batch, which would make it a plain batch, is refused; an exact bucket is
// a static build, and the sizes the compile accepted that no bucket answers are named. About 1 min
// (three small exports).
void TestGuardsE2E::exportKeepsTheCompilesRule()
{
    QTemporaryDir dir;
    const QString compiled = dir.filePath(QStringLiteral("c"));
    const Run c = compile(factory("derived"), compiled);
    QVERIFY2(c.exitCode == 0, c.err.right(3000).constData());
    const auto exportBundle = [&](const QString &name, const QStringList &extra) {
        return cli(QStringList{QStringLiteral("export"), QStringLiteral("--from"), compiled, QStringLiteral("--out"),
                               dir.filePath(name), QStringLiteral("--cold-start-runs"), QStringLiteral("0"),
                               QStringLiteral("--json")}
                   + extra);
    };
    const Run keep = exportBundle(QStringLiteral("keep"), {});
    QVERIFY2(keep.exitCode == 0, keep.err.right(3000).constData());
    const QJsonArray buckets
        = readJson(dir.filePath(QStringLiteral("keep/manifest.json"))).value(QLatin1String("buckets")).toArray();
    QCOMPARE(buckets.size(), 1);
    const QJsonObject bucket = buckets.first().toObject();
    QCOMPARE(bucket.value(QLatin1String("batch_min")).toInt(), 4); // 2*n, n in 2..32 (torch starts n at 2)
    QCOMPARE(bucket.value(QLatin1String("batch_max")).toInt(), 64);
    const auto runBatch = [&](int batch) {
        return TestSupport::run(QStringLiteral(AOTSTUDIO_RUN_PATH),
                                {dir.filePath(QStringLiteral("keep")), QStringLiteral("--batch"),
                                 QString::number(batch), QStringLiteral("--iters"), QStringLiteral("0")},
                                300000);
    };
    const Run six = runBatch(6);
    QVERIFY2(six.exitCode == 0, six.err.constData());
    const Run seven = runBatch(7);
    QCOMPARE(seven.exitCode, 1);
    QVERIFY2(lastLine(seven.err).contains("is 7, which is not 2*n for a whole n"), seven.err.constData());

    const Run plain = exportBundle(QStringLiteral("plain"), {QStringLiteral("--dynamic-batch"), QStringLiteral("1:8")});
    QCOMPARE(plain.exitCode, 1);
    QVERIFY2(lastLine(plain.err).contains("not a plain batch (x.shape[0] == 2 * n)"),
             plain.err.right(2000).constData());
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("plain"))));

    const Run exact = exportBundle(QStringLiteral("exact"), {QStringLiteral("--buckets"), QStringLiteral("batch=8")});
    QVERIFY2(exact.exitCode == 0, exact.err.right(3000).constData());
    QVERIFY2(exact.err.contains("these have no bucket in the bundle: 4..6, 10..64"), exact.err.right(3000).constData());
    const QJsonObject exactBucket = readJson(dir.filePath(QStringLiteral("exact/manifest.json")))
                                        .value(QLatin1String("buckets"))
                                        .toArray()
                                        .first()
                                        .toObject();
    QCOMPARE(exactBucket.value(QLatin1String("batch")).toInt(), 8);
    QCOMPARE(exactBucket.value(QLatin1String("guards")).toObject().value(QLatin1String("dynamic")).toBool(true), false);
}

#include "tst_guards_e2e.moc"
