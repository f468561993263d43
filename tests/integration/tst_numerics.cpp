// SPDX-License-Identifier: GPL-3.0-or-later
// `aotstudio-cli numerics` (issue 16 item 2) on real CPU compiles: a large-magnitude softmax in
// bf16 is found as the first node past the tolerance, by eager and by compiled alike, with its
// source line; on a rotary-style bf16 model the compiled package is judged closer to the float64
// reference than eager (Inductor keeps fused intermediates in float32); bad input exits as
// documented. A few compiles of tiny models: about a minute on an idle machine.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "processrun.h"

namespace {

using TestSupport::Run;

QString fixture(const char *name)
{
    return QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/") + QLatin1String(name);
}

double normError(const QJsonObject &side)
{
    return side.value(QLatin1String("norm_error")).toDouble(-1);
}

} // namespace

class TestNumerics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void unstableSoftmaxFoundFirst();
    void compiledCloserOnBf16Drift();
    void badInput();

private:
    QTemporaryDir m_dir;
};

void TestNumerics::unstableSoftmaxFoundFirst()
{
    const QString out = m_dir.filePath(QStringLiteral("softmax"));
    const Run r
        = TestSupport::cli({QStringLiteral("numerics"), QStringLiteral("--model"),
                            fixture("unstable_softmax_factory.py") + QStringLiteral(":make"), QStringLiteral("--dtype"),
                            QStringLiteral("bf16"), QStringLiteral("--out"), out, QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    const QJsonObject result = TestSupport::result(r.out);
    QCOMPARE(result.value(QLatin1String("format")).toString(), QStringLiteral("aotstudio.numerics"));
    QCOMPARE(result.value(QLatin1String("reference_dtype")).toString(), QStringLiteral("float64"));
    const double tolerance = result.value(QLatin1String("tolerance")).toDouble();
    QCOMPARE(tolerance, 3e-2); // numerics.py DEFAULT_TOLERANCE["bf16"]
    // The first node past the tolerance is the softmax, for both sides, with the user's line.
    for (const char *side : {"eager", "compiled"}) {
        const QJsonObject first
            = result.value(QLatin1String("first_divergent")).toObject().value(QLatin1String(side)).toObject();
        QVERIFY2(first.value(QLatin1String("target")).toString().contains(QLatin1String("softmax")),
                 qPrintable(QString::fromLatin1(side) + QLatin1String(": ")
                            + first.value(QLatin1String("target")).toString()));
        QVERIFY2(
            first.value(QLatin1String("source")).toString().startsWith(QLatin1String("unstable_softmax_factory.py:17")),
            qPrintable(first.value(QLatin1String("source")).toString()));
    }
    // Every node before it is within the tolerance, and measured (not skipped).
    const QJsonArray nodes = result.value(QLatin1String("nodes")).toArray();
    QVERIFY(nodes.size() >= 4);
    bool beforeSoftmax = true;
    int within = 0;
    for (const auto &v : nodes) {
        const QJsonObject n = v.toObject();
        if (n.value(QLatin1String("target")).toString().contains(QLatin1String("softmax")))
            beforeSoftmax = false;
        if (!beforeSoftmax)
            continue;
        for (const char *side : {"eager", "compiled"}) {
            const double e = normError(n.value(QLatin1String(side)).toObject());
            QVERIFY2(e >= 0 && e <= tolerance, qPrintable(n.value(QLatin1String("name")).toString()));
        }
        ++within;
    }
    QVERIFY2(within >= 2, "the projection and the scale come before the softmax");
    // numerics.json on disk, the capture snapshot the studio colours, progress monotonic to 1.
    QCOMPARE(TestSupport::readJson(out + QStringLiteral("/numerics.json")).value(QLatin1String("verdict")).toString(),
             result.value(QLatin1String("verdict")).toString());
    QVERIFY(QFile::exists(out + QStringLiteral("/snapshots/001_capture.json")));
    const QString problems = TestSupport::progressProblems(out + QStringLiteral("/aotstudio.log"));
    QVERIFY2(problems.isEmpty(), qPrintable(problems));
}

void TestNumerics::compiledCloserOnBf16Drift()
{
    const QString out = m_dir.filePath(QStringLiteral("drift"));
    const Run r
        = TestSupport::cli({QStringLiteral("numerics"), QStringLiteral("--model"),
                            fixture("bf16_drift_factory.py") + QStringLiteral(":make"), QStringLiteral("--dtype"),
                            QStringLiteral("bf16"), QStringLiteral("--out"), out, QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    const QJsonObject result = TestSupport::result(r.out);
    const QJsonArray outputs = result.value(QLatin1String("outputs")).toArray();
    QCOMPARE(outputs.size(), 2);
    for (const auto &v : outputs) {
        const QJsonObject o = v.toObject();
        QCOMPARE(o.value(QLatin1String("closer")).toString(), QStringLiteral("compiled"));
        QVERIFY(normError(o.value(QLatin1String("compiled")).toObject())
                < normError(o.value(QLatin1String("eager")).toObject()));
    }
    QVERIFY2(result.value(QLatin1String("verdict")).toString().contains(QLatin1String("compiled is closer")),
             qPrintable(result.value(QLatin1String("verdict")).toString()));
    // The text output names the node and the verdict.
    const Run text = TestSupport::cli({QStringLiteral("numerics"), QStringLiteral("--model"),
                                       fixture("unstable_softmax_factory.py") + QStringLiteral(":make"),
                                       QStringLiteral("--out"), m_dir.filePath(QStringLiteral("text"))});
    QVERIFY2(text.exitCode == 0, text.err.right(3000).constData());
    QVERIFY2(text.out.contains("verdict: ") && text.out.contains("softmax"), text.out.constData());
}

void TestNumerics::badInput()
{
    // A bad command line never starts the engine: exit 2.
    QCOMPARE(TestSupport::cli({QStringLiteral("numerics"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                               QStringLiteral("--tolerance"), QStringLiteral("0")})
                 .exitCode,
             2);
    // A model that does not exist: exit 1 with the envelope naming the stage.
    const Run missing = TestSupport::cli({QStringLiteral("numerics"), QStringLiteral("--model"),
                                          m_dir.filePath(QStringLiteral("nope.py")) + QStringLiteral(":make"),
                                          QStringLiteral("--out"), m_dir.filePath(QStringLiteral("missing")),
                                          QStringLiteral("--json")});
    QCOMPARE(missing.exitCode, 1);
    QCOMPARE(TestSupport::envelope(missing.out).value(QLatin1String("ok")).toBool(true), false);
    QCOMPARE(TestSupport::error(missing.out).value(QLatin1String("stage")).toString(), QStringLiteral("load"));
}

QTEST_GUILESS_MAIN(TestNumerics)
#include "tst_numerics.moc"
