// SPDX-License-Identifier: GPL-3.0-or-later
// `aotstudio-cli compare` on two real CPU compiles of sample:convnet (issue 16: defaults against
// --freezing): the kernel diff lists what freezing removed or changed, the post-grad graph diff is
// not empty, and the refusals (another model, not a job, a bad command line) exit as documented.
// `aotstudio-cli memory` (issue 40) on the same compiles: the plan's peaks and the buffers there.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "processrun.h"

namespace {

using TestSupport::Run;

/// The JSON envelope on stdout (FORMAT.md "Command-line tools").
QJsonObject parse(const QByteArray &text)
{
    QJsonParseError e;
    const QJsonObject o = QJsonDocument::fromJson(text, &e).object();
    if (e.error != QJsonParseError::NoError)
        qWarning("not JSON: %s", qPrintable(e.errorString()));
    return o;
}

QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const auto &x : v.toArray())
        out << x.toString();
    return out;
}

/// Names of the kernels of a kernels.json that compute a batch norm (Inductor names a fused kernel
/// after its origin ops: cpp_fused__native_batch_norm_legit_no_training_relu_0; the post-grad nodes
/// themselves are its decomposition: sub, mul, rsqrt, add).
QStringList batchNormKernels(const QString &kernelsJson)
{
    QStringList out;
    for (const auto &v : TestSupport::readJson(kernelsJson).value(QLatin1String("kernels")).toArray()) {
        const QString name = v.toObject().value(QLatin1String("name")).toString();
        if (name.contains(QLatin1String("batch_norm")))
            out << name;
    }
    out.removeDuplicates();
    return out;
}

} // namespace

class TestCompareCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void freezingAgainstDefaults();
    void textOutput();
    void refusals();
    void badCommandLine();
    void memoryPlan();

private:
    QTemporaryDir m_dir;
    QString m_a, m_b;
};

void TestCompareCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_a = m_dir.filePath(QStringLiteral("defaults"));
    m_b = m_dir.filePath(QStringLiteral("freezing"));
    const Run a = TestSupport::quickCompile(QStringLiteral("sample:convnet"), m_a);
    QVERIFY2(a.exitCode == 0, a.err.right(3000).constData());
    const Run b = TestSupport::quickCompile(QStringLiteral("sample:convnet"), m_b, { QStringLiteral("--freezing") });
    QVERIFY2(b.exitCode == 0, b.err.right(3000).constData());
}

void TestCompareCli::freezingAgainstDefaults()
{
    const Run r = TestSupport::cli({ QStringLiteral("compare"), m_a, m_b, QStringLiteral("--json") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.out.trimmed().count('\n'), 0); // one JSON object
    QCOMPARE(parse(r.out).value(QLatin1String("ok")).toBool(), true);
    const QJsonObject c = parse(r.out).value(QLatin1String("result")).toObject();
    QCOMPARE(c.value(QLatin1String("format")).toString(), QStringLiteral("aotstudio.compare"));

    // Options side by side: freezing differs, the model does not.
    bool freezingDiffers = false;
    for (const auto &v : c.value(QLatin1String("fields")).toArray()) {
        const auto f = v.toObject();
        if (f.value(QLatin1String("field")).toString() == QLatin1String("option freezing"))
            freezingDiffers = f.value(QLatin1String("a")).toString() == QLatin1String("false")
                && f.value(QLatin1String("b")).toString() == QLatin1String("true");
        if (f.value(QLatin1String("field")).toString() == QLatin1String("model"))
            QVERIFY(!f.value(QLatin1String("differs")).toBool());
    }
    QVERIFY(freezingDiffers);

    // The post-grad graphs differ: freezing folds the batch norms into the convolutions' weights.
    QJsonObject postGrad;
    for (const auto &v : c.value(QLatin1String("stages")).toArray())
        if (v.toObject().value(QLatin1String("stage")).toString() == QLatin1String("post_grad"))
            postGrad = v.toObject();
    QVERIFY2(!postGrad.isEmpty(), r.out.left(2000).constData());
    QVERIFY(postGrad.value(QLatin1String("error")).isNull());
    QVERIFY(!postGrad.value(QLatin1String("empty")).toBool());
    QVERIFY(!postGrad.value(QLatin1String("only_a")).toArray().isEmpty()
        || !postGrad.value(QLatin1String("changed")).toArray().isEmpty());
    // Freezing folds the batch norms (their decomposition: rsqrt, sub, mul, add on the running
    // statistics) into the convolutions' weights: some op count goes down.
    bool someOpFewer = false;
    for (const auto &v : postGrad.value(QLatin1String("targets")).toArray())
        someOpFewer |= v.toObject().value(QLatin1String("b")).toInt() < v.toObject().value(QLatin1String("a")).toInt();
    QVERIFY2(someOpFewer, QJsonDocument(postGrad.value(QLatin1String("targets")).toArray()).toJson().constData());

    // The kernel diff: every kernel of A that computed a batch norm is gone from B or changed there.
    const QStringList bnKernels = batchNormKernels(m_a + QStringLiteral("/kernels.json"));
    QVERIFY2(!bnKernels.isEmpty(), "the defaults compile has no kernel covering a batch norm: the test needs one");
    const QJsonObject kernels = c.value(QLatin1String("kernels")).toObject();
    QVERIFY(kernels.value(QLatin1String("compared")).toBool());
    QStringList listed;
    for (const auto &v : kernels.value(QLatin1String("only_a")).toArray())
        listed << v.toObject().value(QLatin1String("name")).toString();
    bool someSourceDiff = false;
    for (const auto &v : kernels.value(QLatin1String("changed")).toArray()) {
        const auto k = v.toObject();
        listed << k.value(QLatin1String("name_a")).toString();
        if (k.value(QLatin1String("source_changed")).toBool()) {
            const QString diff = k.value(QLatin1String("source_diff")).toString();
            QVERIFY2(diff.startsWith(QLatin1String("--- A/")) && diff.contains(QLatin1String("\n@@ ")),
                qPrintable(diff.left(500)));
            someSourceDiff = true;
        }
    }
    Q_UNUSED(someSourceDiff);
    for (const auto &k : bnKernels)
        QVERIFY2(listed.contains(k),
            qPrintable(k + QStringLiteral(" not listed as removed or changed: ") + listed.join(QLatin1Char(' '))));
    QVERIFY(kernels.value(QLatin1String("count_b")).toInt() > 0);

    // Neither job was profiled: compile's own measurement is compared, kernel times are not.
    const QJsonObject time = c.value(QLatin1String("time")).toObject();
    QCOMPARE(time.value(QLatin1String("pairing")).toString(), QStringLiteral("different_runs"));
    QVERIFY(time.value(QLatin1String("kernels")).toArray().isEmpty());
    QVERIFY(!time.value(QLatin1String("a")).toObject().value(QLatin1String("profiled")).toBool());
    QVERIFY(
        strings(time.value(QLatin1String("verdict"))).join(QLatin1Char('\n')).contains(QLatin1String("not profiled")));
    const QJsonValue ratio = time.value(QLatin1String("latency_ratio"));
    if (ratio.isObject()) // given only with its interval
        QVERIFY(ratio.toObject().value(QLatin1String("low")).isDouble()
            && ratio.toObject().value(QLatin1String("high")).isDouble());
}

void TestCompareCli::textOutput()
{
    const Run r = TestSupport::cli(
        { QStringLiteral("compare"), m_a, m_b, QStringLiteral("--stage"), QStringLiteral("post_grad") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString out = QString::fromUtf8(r.out);
    for (const char *expected :
        { "option freezing", "<- differs", "post_grad", "kernels:", "not profiled", "verdict:", "from different runs" })
        QVERIFY2(out.contains(QLatin1String(expected)),
            qPrintable(QStringLiteral("no '%1' in:\n%2").arg(QLatin1String(expected), out)));
    QVERIFY2(out.contains(QLatin1String("\n    - ")), qPrintable(out)); // --stage lists nodes only in A
}

void TestCompareCli::refusals()
{
    // Another model: a copy of A whose result names sample:mlp.
    const QString other = m_dir.filePath(QStringLiteral("other-model"));
    QVERIFY(QDir().mkpath(other));
    QJsonObject result = TestSupport::readJson(m_a + QStringLiteral("/result.json"));
    result.insert(QStringLiteral("model"), QStringLiteral("sample:mlp"));
    QFile f(other + QStringLiteral("/result.json"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(result).toJson());
    f.close();
    Run r = TestSupport::cli({ QStringLiteral("compare"), m_a, other });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("sample:convnet") && r.err.contains("sample:mlp"), r.err.constData());
    r = TestSupport::cli({ QStringLiteral("compare"), m_a, other, QStringLiteral("--json") });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(parse(r.out)
                 .value(QLatin1String("error"))
                 .toObject()
                 .value(QLatin1String("message"))
                 .toString()
                 .contains(QLatin1String("sample:mlp")),
             r.out.constData());
    QCOMPARE(parse(r.out).value(QLatin1String("error")).toObject().value(QLatin1String("code")).toString(),
             QStringLiteral("refused"));

    // Not a job: the folder named, and what a job folder holds.
    const QString empty = m_dir.filePath(QStringLiteral("empty"));
    QVERIFY(QDir().mkpath(empty));
    r = TestSupport::cli({ QStringLiteral("compare"), m_a, empty });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(empty.toUtf8()) && r.err.contains("result.json"), r.err.constData());

    // A stage they do not both have.
    r = TestSupport::cli(
        { QStringLiteral("compare"), m_a, m_b, QStringLiteral("--stage"), QStringLiteral("no_such_stage") });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("they share: capture"), r.err.constData());
}

void TestCompareCli::badCommandLine()
{
    Run r = TestSupport::cli({ QStringLiteral("compare"), m_a });
    QCOMPARE(r.exitCode, 2);
    r = TestSupport::cli({ QStringLiteral("compare"), m_a, m_b, QStringLiteral("--bogus") });
    QCOMPARE(r.exitCode, 2);
    r = TestSupport::cli({ QStringLiteral("compare"), QStringLiteral("--help") });
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(
        r.out.contains("--json") && r.out.contains("not profiled") && r.out.contains("Exit status"), r.out.constData());
}

QTEST_GUILESS_MAIN(TestCompareCli)
/// `aotstudio-cli memory`: a compile's memory.json read back (FORMAT.md "Memory plan"): the
/// predicted and planned peaks, the buffers live at the planned peak with their nodes, no measured
/// figure without a profile; a folder without a plan is not_found (exit 1), said plainly.
void TestCompareCli::memoryPlan()
{
    Run r = TestSupport::cli({QStringLiteral("memory"), m_a, QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject result = parse(r.out).value(QLatin1String("result")).toObject();
    QVERIFY(result.value(QLatin1String("complete")).toBool());
    const double planned = result.value(QLatin1String("planned_peak_bytes")).toDouble();
    QVERIFY(planned > 0);
    QVERIFY(planned <= result.value(QLatin1String("predicted_peak_bytes")).toDouble());
    QVERIFY(result.value(QLatin1String("measured")).isNull());
    const QJsonArray top = result.value(QLatin1String("top_buffers")).toArray();
    QVERIFY(!top.isEmpty());
    QVERIFY(!top.first().toObject().value(QLatin1String("nodes")).toArray().isEmpty());
    QVERIFY(result.value(QLatin1String("constants_bytes")).toDouble() > 0); // convnet's weights, apart

    r = TestSupport::cli({QStringLiteral("memory"), m_a});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("planned peak (generated code):"), r.out.constData());
    QVERIFY2(r.out.contains("buffers live at the planned peak"), r.out.constData());

    const QString empty = m_dir.filePath(QStringLiteral("no-plan"));
    QVERIFY(QDir().mkpath(empty));
    r = TestSupport::cli({QStringLiteral("memory"), empty, QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 1);
    const QJsonObject error = parse(r.out).value(QLatin1String("error")).toObject();
    QCOMPARE(error.value(QLatin1String("code")).toString(), QStringLiteral("not_found"));
    QVERIFY(r.err.contains("no memory.json"));
}

#include "tst_compare_cli.moc"
