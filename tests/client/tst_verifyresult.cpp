// SPDX-License-Identifier: GPL-3.0-or-later
// The typed view of a compile result's `verify` (FORMAT.md "verify") and of a failed verification
// (a `mismatch` error and verify's per-output log lines). Results recorded before per-output
// verification must parse to "not present", never to an empty pass.
#include "client/compileresult.h"
#include "client/engineerror.h"
#include "client/session.h"
#include "client/verifyresult.h"

#include <QFile>
#include <QJsonDocument>
#include <QTest>

using namespace AotStudio::Client;

namespace {
QJsonObject fixture(const QString &name)
{
    QFile file(QFINDTESTDATA(QStringLiteral("../fixtures/results/") + name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open fixture %s", qPrintable(name));
    return QJsonDocument::fromJson(file.readAll()).object();
}
} // namespace

class TestVerifyResult : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void eagerMode()
    {
        const CompileResult r = CompileResult::fromJson(fixture(QStringLiteral("compile_verify_cpu.json")));
        const VerifyResult &v = r.verify;
        QVERIFY(v.isPresent());
        QVERIFY(v.passed);
        QVERIFY(!v.isReducedPrecision());
        QCOMPARE(v.tolerance, 0.001);
        QCOMPARE(v.seededInputs, 2);
        QCOMPARE(v.calls.size(), 3);
        QCOMPARE(v.comparedCalls(), 3);
        QCOMPARE(v.calls.at(1).seed, 1001);
        QCOMPARE(v.calls.at(0).seed, -1);
        QCOMPARE(v.outputs.size(), 2);
        QCOMPARE(v.outputs.at(1).name, QStringLiteral("extra.hidden.1"));
        QCOMPARE(v.outputs.at(0).shapeText(), QStringLiteral("[8, 10]"));
        QCOMPARE(v.outputs.at(0).maxAbsError, 2.4e-7);
        QVERIFY(v.outputs.at(0).passed.value_or(false));
        QVERIFY(!v.outputs.at(0).hasReferenceErrors());
        QVERIFY(v.failedOutputs().isEmpty());
        QCOMPARE(v.memoryFormats, QStringList{QStringLiteral("contiguous")});
        QVERIFY(v.verdict.startsWith(QLatin1String("passed: 2 outputs")));
    }

    void reducedPrecisionStatefulWithSkippedCall()
    {
        const VerifyResult v = CompileResult::fromJson(fixture(QStringLiteral("compile_bf16_cpu.json"))).verify;
        QVERIFY(v.isReducedPrecision());
        QCOMPARE(v.referenceDtype, QStringLiteral("float64"));
        QVERIFY(v.stateful);
        QCOMPARE(v.mutatedState.size(), 2);
        QCOMPARE(v.calls.size(), 4);
        QCOMPARE(v.skippedCalls(), 1);
        QVERIFY(v.calls.at(3).skipped.contains(QLatin1String("IndexError")));
        QVERIFY(qIsNaN(v.calls.at(3).maxAbsError));
        QCOMPARE(v.outputs.at(0).compiledReferenceError, 0.0078);
        QCOMPARE(v.outputs.at(0).eagerReferenceError, 0.0071);
        QVERIFY(v.outputs.at(0).hasReferenceErrors());
    }

    void olderResultHasNone()
    {
        // compile_cpu.json predates paired timing and per-output verify: it must still load.
        const CompileResult r = CompileResult::fromJson(fixture(QStringLiteral("compile_cpu.json")));
        QVERIFY(!r.verify.isPresent());
        QVERIFY(r.verify.outputs.isEmpty());
        QVERIFY(!qIsNaN(r.maxAbsError));
    }

    void failedOutputFromMessage_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("output");
        QTest::newRow("differs") << "mismatch"
                                 << "compiled output 'logits' differs from eager by 0.031 (max abs) on seeded "
                                    "input 1 (seed 1001), above the tolerance 0.001"
                                 << "logits";
        QTest::newRow("reference") << "mismatch"
                                   << "compiled output 'extra.hidden.1' is further from the float64 reference "
                                      "than eager bf16 is by 0.02"
                                   << "extra.hidden.1";
        QTest::newRow("shape") << "mismatch" << "output '0' has shape [8] in the package, [8, 2] in eager" << "0";
        QTest::newRow("count") << "mismatch" << "the package returned 1 outputs, eager returned 2 (a, b)" << "";
        QTest::newRow("not a mismatch") << "export_failed" << "output 'x' could not be traced" << "";
    }

    void failedOutputFromMessage()
    {
        QFETCH(QString, code);
        QFETCH(QString, message);
        QFETCH(QString, output);
        QCOMPARE(VerifyFailure::failedOutputOf(EngineError{QStringLiteral("verify"), code, message, {}}), output);
    }

    void logLines()
    {
        auto line = VerifyFailure::parseLogLine(
            QStringLiteral("warning"),
            QStringLiteral("verify output 'logits' [8, 10] float32: max abs 0.031, max rel 0.0042, cosine 0.999812"));
        QVERIFY(line);
        QCOMPARE(line->name, QStringLiteral("logits"));
        QCOMPARE(line->shape, (QList<qint64>{8, 10}));
        QCOMPARE(line->maxAbsError, 0.031);
        QCOMPARE(line->cosine, 0.999812);
        QCOMPARE(line->passed, std::optional<bool>(false));

        line = VerifyFailure::parseLogLine(
            QStringLiteral("info"),
            QStringLiteral("verify output 'output' [] bfloat16: max abs nan, max rel 0.01, cosine 0.999900; against "
                           "the reference: compiled 0.0078, eager 0.0071"));
        QVERIFY(line);
        QVERIFY(line->shape.isEmpty());
        QVERIFY(qIsNaN(line->maxAbsError));
        QCOMPARE(line->compiledReferenceError, 0.0078);
        QCOMPARE(line->passed, std::optional<bool>(true));

        QVERIFY(!VerifyFailure::parseLogLine(QStringLiteral("info"), QStringLiteral("verify passed: 2 outputs")));
    }

    void failureFromTheJobsLog()
    {
        const EngineError error{QStringLiteral("verify"), QStringLiteral("mismatch"),
                                QStringLiteral("compiled output 'b' differs from eager by 0.5 (max abs) on the "
                                               "example input, above the tolerance 0.001"),
                                {}};
        const QList<LogRecord> logs{
            {1, QStringLiteral("info"), QStringLiteral("verify output 'zzz' [1] float32: max abs 0, max rel 0, cosine 1.000000")},
            {2, QStringLiteral("info"), QStringLiteral("verify output 'a' [2] float32: max abs 1e-07, max rel 0, cosine 1.000000")},
            // Logged at info (a recording that lost levels): the message still marks it failed.
            {2, QStringLiteral("info"), QStringLiteral("verify output 'b' [2] float32: max abs 0.5, max rel 0.2, cosine 0.900000")},
            {2, QStringLiteral("error"), QStringLiteral("something else")}};
        const VerifyFailure f = VerifyFailure::fromError(error, logs, 2);
        QCOMPARE(f.failedOutput, QStringLiteral("b"));
        QCOMPARE(f.outputs.size(), 2); // job 1's line is not this job's
        QCOMPARE(f.outputs.at(0).passed, std::optional<bool>(true));
        QCOMPARE(f.outputs.at(1).passed, std::optional<bool>(false));

        const VerifyFailure other = VerifyFailure::fromError(
            EngineError{QStringLiteral("compile"), QStringLiteral("compile_failed"), QStringLiteral("boom"), {}}, logs, 2);
        QVERIFY(other.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestVerifyResult)
#include "tst_verifyresult.moc"
