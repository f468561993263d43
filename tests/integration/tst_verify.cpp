// SPDX-License-Identifier: GPL-3.0-or-later
// Verification you can trust (issue 12, items 4-6), end to end through aotstudio-cli on the CPU:
// state restored before export and checked over two calls, the example's strides fed to the
// package, reduced precision judged against a float64 reference, every output named and checked on
// seeded inputs, and an output folder that never shows one compile's files beside another's error.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include "processrun.h"

namespace {

using TestSupport::lastLine;
using TestSupport::readJson;
using TestSupport::Run;

QString fixture(const char *name)
{
    return QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/") + QLatin1String(name);
}

/// A compile with little measuring (timings are not what these tests check).
Run compile(const QString &model, const QString &out, QStringList extra = {})
{
    QStringList args{QStringLiteral("compile"), QStringLiteral("--model"), model, QStringLiteral("--out"), out,
                     QStringLiteral("--runs"), QStringLiteral("3"), QStringLiteral("--min-runs"), QStringLiteral("1"),
                     QStringLiteral("--warmup"), QStringLiteral("1"), QStringLiteral("--max-seconds"),
                     QStringLiteral("0.2"),
                     // Not about the recipe chooser: today's options (channels_last_factory is a conv net).
                     QStringLiteral("--recipe"), QStringLiteral("defaults")};
    return TestSupport::run(QStringLiteral(AOTSTUDIO_CLI_PATH), args + extra, 600000);
}

QJsonObject stdoutJson(const Run &r)
{
    // The envelope's result; a failed job's error object (code, message, hint) otherwise.
    const QJsonObject envelope = TestSupport::envelope(r.out);
    return envelope.value(QLatin1String("ok")).toBool()
        ? envelope.value(QLatin1String("result")).toObject()
        : QJsonObject{{QStringLiteral("error"), envelope.value(QLatin1String("error"))}};
}

/// Names in `dir` (files and folders, hidden ones too, so a left-over .partial-* shows), sorted;
/// without the lock file every compile keeps there.
QStringList entries(const QString &dir)
{
    QStringList names = QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
    names.removeAll(QStringLiteral(".aotstudio.lock"));
    return names;
}

QStringList previousFolders(const QString &dir)
{
    return QDir(dir).entryList({QStringLiteral("previous-*")}, QDir::Dirs, QDir::Name);
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList outputNames(const QJsonObject &verify)
{
    QStringList names;
    for (const auto &v : verify.value(QLatin1String("outputs")).toArray())
        names << v.toObject().value(QLatin1String("name")).toString();
    return names;
}

} // namespace

class TestVerify : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void statefulModel();
    void statefulPackageDrifts();
    void channelsLastInputs();
    void reducedPrecision();
    void namedOutputsOnSeededInputs();
    void nothingStale();
};

void TestVerify::statefulModel()
{
    // The output is the buffer itself: eager's first output must not change when the state is restored.
    const QStringList state{QStringLiteral("total")};
    QTemporaryDir dir;
    const Run r = compile(fixture("stateful_factory.py") + QStringLiteral(":make"), dir.path(), {QStringLiteral("--json")});
    // Without restoring the state the package starts one step ahead of eager and this fails.
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    const QJsonObject verify = stdoutJson(r).value(QLatin1String("verify")).toObject();
    QVERIFY(verify.value(QLatin1String("passed")).toBool());
    QVERIFY(verify.value(QLatin1String("stateful")).toBool());
    QStringList mutated;
    for (const auto &v : verify.value(QLatin1String("mutated_state")).toArray())
        mutated << v.toString();
    for (const auto &name : state)
        QVERIFY2(mutated.contains(name), qPrintable(mutated.join(QLatin1Char(','))));
    // Two successive calls on the example, then the seeded inputs, all advancing the state alike.
    const QJsonArray calls = verify.value(QLatin1String("calls")).toArray();
    QCOMPARE(calls.size(), 4);
    QCOMPARE(calls[0].toObject().value(QLatin1String("source")).toString(), QStringLiteral("example"));
    QCOMPARE(calls[1].toObject().value(QLatin1String("source")).toString(), QStringLiteral("example, second call"));
    for (const auto &c : calls)
        QVERIFY2(c.toObject().value(QLatin1String("max_abs_error")).toDouble(-1) <= 1e-5,
                 QJsonDocument(c.toObject()).toJson().constData());
    QVERIFY(verify.value(QLatin1String("verdict")).toString().contains(QLatin1String("a second call on it (stateful model)")));
}

void TestVerify::statefulPackageDrifts()
{
    // Two in-place updates of two buffers: with the pinned torch the package matches eager on the
    // first call but its state then drifts (checked by hand with torch's own AOTI loader, also after
    // run_decompositions()). Verification must say so instead of blaming randomness.
    QTemporaryDir dir;
    const Run r = compile(fixture("stateful_factory.py") + QStringLiteral(":make_running"), dir.path());
    QCOMPARE(r.exitCode, 1);
    const QByteArray line = lastLine(r.err);
    QVERIFY2(line.contains("verify failed (mismatch): compiled output 'output' differs from eager by"), line.constData());
    QVERIFY2(line.contains("on the second call on the example (stateful)"), line.constData());
    QVERIFY2(line.contains("Hint: forward() updates steps, running: the package matches eager on the first call"), line.constData());
    QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("model.unverified.pt2"))));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("model.pt2"))));
}

void TestVerify::channelsLastInputs()
{
    QTemporaryDir dir;
    const Run r = compile(fixture("channels_last_factory.py") + QStringLiteral(":make"), dir.path(), {QStringLiteral("--json")});
    // A contiguous copy of the input makes the package's first kernel read the wrong elements.
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    const QJsonObject verify = stdoutJson(r).value(QLatin1String("verify")).toObject();
    const QJsonObject input = verify.value(QLatin1String("inputs")).toArray().at(0).toObject();
    QCOMPARE(input.value(QLatin1String("memory_format")).toString(), QStringLiteral("channels_last"));
    QCOMPARE(input.value(QLatin1String("stride")).toArray(), (QJsonArray{768, 1, 48, 3}));
    QVERIFY(stdoutJson(r).value(QLatin1String("max_abs_error")).toDouble(-1) <= 1e-4);
    QCOMPARE(verify.value(QLatin1String("calls")).toArray().size(), 3); // the example and two seeded inputs

    // Issue 34: the guards record the layout, and the engine's runner refuses a contiguous input
    // for it (profile --package), or copies it with --convert-layout and says so.
    const QJsonObject x = readJson(dir.filePath(QStringLiteral("model.guards.json")))
                              .value(QLatin1String("inputs"))
                              .toArray()
                              .at(0)
                              .toObject();
    QCOMPARE(x.value(QLatin1String("layout")).toString(), QStringLiteral("channels_last"));
    QCOMPARE(x.value(QLatin1String("strides")).toArray(), (QJsonArray{768, 1, 48, 3}));
    const auto profile = [&](const QString &out, const QStringList &extra) {
        return TestSupport::cli(
            QStringList{QStringLiteral("profile"), QStringLiteral("--model"),
                        fixture("channels_last_factory.py") + QStringLiteral(":make_contiguous"),
                        QStringLiteral("--package"), dir.filePath(QStringLiteral("model.pt2")), QStringLiteral("--out"),
                        dir.filePath(out), QStringLiteral("--runners"), QStringLiteral("0"),
                        QStringLiteral("--cold-start-runs"), QStringLiteral("0"), QStringLiteral("--no-trace"),
                        QStringLiteral("--max-seconds"), QStringLiteral("0.1"), QStringLiteral("--variants"),
                        QStringLiteral("eager"), QStringLiteral("aoti")}
            + extra);
    };
    const Run refused = profile(QStringLiteral("refused"), {});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(lastLine(refused.err)
                 .contains("input 0 (x) has strides (768, 256, 16, 1) (contiguous); the package was compiled for "
                           "strides (768, 1, 48, 3) (channels_last)"),
             refused.err.right(2000).constData());
    QVERIFY2(
        !QFileInfo::exists(dir.filePath(QStringLiteral("refused")))
            || QDir(dir.filePath(QStringLiteral("refused"))).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size()
                > 1,
        "a failed profile left a folder holding only its lock");
    const Run converted = profile(QStringLiteral("converted"), {QStringLiteral("--convert-layout")});
    QVERIFY2(converted.exitCode == 0, converted.err.right(3000).constData());
    QVERIFY2(converted.err.contains("layout: input 0 (x) copied from strides (768, 256, 16, 1) to (768, 1, 48, 3)"),
             converted.err.right(3000).constData());
}

void TestVerify::reducedPrecision()
{
    QTemporaryDir dir;
    const Run r = compile(fixture("bf16_drift_factory.py") + QStringLiteral(":make"), dir.path(),
                          {QStringLiteral("--dtype"), QStringLiteral("bf16"), QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    const QJsonObject result = stdoutJson(r);
    const QJsonObject verify = result.value(QLatin1String("verify")).toObject();
    const double tolerance = result.value(QLatin1String("tolerance")).toDouble();
    QCOMPARE(tolerance, 5e-2); // the bf16 default
    QCOMPARE(verify.value(QLatin1String("mode")).toString(), QStringLiteral("reduced_precision"));
    QCOMPARE(verify.value(QLatin1String("reference")).toObject().value(QLatin1String("dtype")).toString(), QStringLiteral("float64"));
    QVERIFY(verify.value(QLatin1String("verdict")).toString().contains(QLatin1String("reduced precision")));
    // Compiled and eager bf16 disagree by more than the tolerance: comparing them alone would fail.
    QVERIFY2(result.value(QLatin1String("max_abs_error")).toDouble() > tolerance,
             qPrintable(QString::number(result.value(QLatin1String("max_abs_error")).toDouble())));
    QCOMPARE(outputNames(verify), (QStringList{QStringLiteral("0"), QStringLiteral("1")}));
    bool closer = false;
    for (const auto &v : verify.value(QLatin1String("outputs")).toArray()) {
        const QJsonObject o = v.toObject();
        const double c = o.value(QLatin1String("compiled_reference_error")).toDouble(-1);
        const double e = o.value(QLatin1String("eager_reference_error")).toDouble(-1);
        QVERIFY2(c >= 0 && e >= 0, QJsonDocument(o).toJson().constData());
        QVERIFY2(c <= e + tolerance, QJsonDocument(o).toJson().constData());
        closer = closer || c < e;
        QVERIFY(o.value(QLatin1String("passed")).toBool());
    }
    QVERIFY(closer); // the package is nearer the float64 reference than eager bf16 is
    // Both sides' matmul precision is on record.
    const QJsonObject precision = verify.value(QLatin1String("precision")).toObject();
    for (const char *side : {"eager", "compiled"}) {
        const QJsonObject p = precision.value(QLatin1String(side)).toObject();
        QCOMPARE(p.value(QLatin1String("float32_matmul_precision")).toString(), QStringLiteral("highest"));
        QVERIFY(p.value(QLatin1String("cuda_matmul_allow_tf32")).isBool());
    }
}

void TestVerify::namedOutputsOnSeededInputs()
{
    QTemporaryDir dir;
    const Run r = compile(fixture("named_outputs_factory.py") + QStringLiteral(":make"), dir.path());
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    const QJsonObject result = readJson(dir.filePath(QStringLiteral("result.json")));
    const QJsonObject verify = result.value(QLatin1String("verify")).toObject();
    const QStringList names{QStringLiteral("logits"), QStringLiteral("extra.hidden"), QStringLiteral("extra.pooled"),
                            QStringLiteral("pair.0"), QStringLiteral("pair.1")};
    QCOMPARE(outputNames(verify), names);
    // The existing top-level keys stay, and name their outputs too.
    QCOMPARE(result.value(QLatin1String("outputs")).toArray().size(), 5);
    QCOMPARE(result.value(QLatin1String("outputs")).toArray().at(2).toObject().value(QLatin1String("name")).toString(),
             QStringLiteral("extra.pooled"));
    QCOMPARE(result.value(QLatin1String("outputs")).toArray().at(2).toObject().value(QLatin1String("shape")).toArray(),
             (QJsonArray{5}));
    for (const char *key : {"max_abs_error", "max_rel_error", "cosine", "tolerance"})
        QVERIFY2(result.contains(QLatin1String(key)), key);
    for (const auto &v : verify.value(QLatin1String("outputs")).toArray()) {
        const QJsonObject o = v.toObject();
        QVERIFY(o.value(QLatin1String("max_abs_error")).toDouble(-1) <= 1e-4);
        QVERIFY(o.value(QLatin1String("cosine")).toDouble() > 0.9999);
    }
    // The example and two seeded inputs, seeds on record.
    const QJsonArray calls = verify.value(QLatin1String("calls")).toArray();
    QCOMPARE(calls.size(), 3);
    QCOMPARE(calls[1].toObject().value(QLatin1String("source")).toString(), QStringLiteral("seeded"));
    QCOMPARE(calls[1].toObject().value(QLatin1String("seed")).toInt(), 1001);
    QCOMPARE(calls[2].toObject().value(QLatin1String("seed")).toInt(), 1002);
    QVERIFY(!verify.value(QLatin1String("stateful")).toBool());
    // The CLI's text output: the verdict and a line per named output.
    QVERIFY2(r.out.contains("verified:       passed: 5 outputs within 0.001 of eager"), r.out.constData());
    QVERIFY2(r.out.contains("on the example input and 2 seeded inputs"), r.out.constData());
    for (const auto &name : names)
        QVERIFY2(r.out.contains(("output '" + name + "'").toUtf8()), r.out.constData());
    QVERIFY2(r.out.contains("fp32 matmul:    eager highest, TF32 matmul off; compiled highest"), r.out.constData());
}

void TestVerify::nothingStale()
{
    QTemporaryDir tmp;
    const QString out = tmp.filePath(QStringLiteral("out"));
    const Run first = compile(fixture("named_outputs_factory.py") + QStringLiteral(":make"), out);
    QVERIFY2(first.exitCode == 0, first.err.right(3000).constData());
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/model.pt2")));
    const QStringList firstSnapshots = entries(out + QStringLiteral("/snapshots"));
    QVERIFY(!firstSnapshots.isEmpty());

    // 1. A compile of another model that fails verification, into the same folder.
    const Run failed = compile(fixture("named_outputs_factory.py") + QStringLiteral(":make_noisy"), out);
    QCOMPARE(failed.exitCode, 1);
    const QByteArray line = lastLine(failed.err);
    QVERIFY2(line.contains("verify failed (mismatch): compiled output 'noisy' differs from eager by"), line.constData());
    QVERIFY2(line.contains("above the tolerance"), line.constData());
    // Beside the error: the failed compile's own files, its package under a name that says so, and
    // the previous model in one dated folder. Nothing of the previous model at the top.
    QStringList previous = previousFolders(out);
    QCOMPARE(previous.size(), 1);
    QVERIFY(QRegularExpression(QStringLiteral("^previous-\\d{8}-\\d{6}$")).match(previous[0]).hasMatch());
    // The package's guards sidecar goes with it, renamed alike (model.X.pt2 -> model.X.guards.json).
    // memory.json and fusion.json (FORMAT.md "Memory plan") are the failed compile's own, as kernels.json.
    QCOMPARE(entries(out),
             (QStringList{QStringLiteral("aotstudio.log"), QStringLiteral("error.json"), QStringLiteral("fusion.json"),
                          QStringLiteral("kernels.json"), QStringLiteral("memory.json"),
                          QStringLiteral("model.unverified.guards.json"), QStringLiteral("model.unverified.pt2"),
                          previous[0], QStringLiteral("snapshots"), QStringLiteral("trace")}));
    const QString aside = out + QLatin1Char('/') + previous[0];
    // The previous compile's log goes with its files (issue 34: it was overwritten by the failed run's).
    QCOMPARE(
        entries(aside),
        (QStringList{QStringLiteral("aotstudio.log"), QStringLiteral("fusion.json"), QStringLiteral("kernels.json"),
                     QStringLiteral("memory.json"), QStringLiteral("model.guards.json"), QStringLiteral("model.pt2"),
                     QStringLiteral("result.json"), QStringLiteral("snapshots"), QStringLiteral("trace")}));
    QVERIFY(readAll(aside + QStringLiteral("/aotstudio.log")).contains("\"type\":\"result\""));
    QVERIFY(!readAll(aside + QStringLiteral("/aotstudio.log")).contains("\"type\":\"error\""));
    QVERIFY(readAll(out + QStringLiteral("/aotstudio.log")).contains("\"type\":\"error\""));
    QCOMPARE(readJson(aside + QStringLiteral("/result.json")).value(QLatin1String("model")).toString(),
             fixture("named_outputs_factory.py") + QStringLiteral(":make"));
    QCOMPARE(entries(aside + QStringLiteral("/snapshots")), firstSnapshots);
    // The snapshots at the top are the failed model's (its graph draws random numbers).
    QVERIFY(readAll(out + QStringLiteral("/snapshots/001_capture.json")).contains("rand"));
    QVERIFY(!readAll(aside + QStringLiteral("/snapshots/001_capture.json")).contains("rand"));
    QCOMPARE(readJson(out + QStringLiteral("/error.json")).value(QLatin1String("code")).toString(), QStringLiteral("mismatch"));
    // kernels.json names the trace folder where it now is.
    const QString traceDir = readJson(out + QStringLiteral("/kernels.json")).value(QLatin1String("trace_dir")).toString();
    QVERIFY2(traceDir.startsWith(out + QStringLiteral("/trace/")) && QFileInfo(traceDir).isDir(), qPrintable(traceDir));

    // 2. export --from refuses the folder, naming the file and what to do.
    const Run exported = TestSupport::run(QStringLiteral(AOTSTUDIO_CLI_PATH),
                                          {QStringLiteral("export"), QStringLiteral("--from"), out, QStringLiteral("--out"),
                                           tmp.filePath(QStringLiteral("bundle")), QStringLiteral("--cold-start-runs"),
                                           QStringLiteral("0")},
                                          300000);
    QCOMPARE(exported.exitCode, 1);
    const QByteArray refusal = lastLine(exported.err);
    QVERIFY2(refusal.contains((out + QStringLiteral("/model.unverified.pt2' did not pass verification")).toUtf8()),
             refusal.constData());
    QVERIFY2(refusal.contains("compile it again"), refusal.constData());
    QVERIFY(!QFileInfo::exists(tmp.filePath(QStringLiteral("bundle"))));

    // 3. A request that is bad once the folder is locked changes nothing in it.
    const QStringList before = entries(out);
    const Run bad = compile(fixture("named_outputs_factory.py") + QStringLiteral(":make"), out,
                            {QStringLiteral("--dynamic"), QStringLiteral("3:0")});
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(lastLine(bad.err).contains("bad_request"), bad.err.right(2000).constData());
    QCOMPARE(entries(out), before);
    QCOMPARE(readJson(out + QStringLiteral("/error.json")).value(QLatin1String("code")).toString(), QStringLiteral("mismatch"));

    // 4. A failure in the load stage moves the failed compile's files aside in their turn.
    const Run noFactory = compile(fixture("named_outputs_factory.py") + QStringLiteral(":missing"), out);
    QCOMPARE(noFactory.exitCode, 1);
    previous = previousFolders(out);
    QCOMPARE(previous.size(), 2);
    QCOMPARE(entries(out), QStringList({QStringLiteral("aotstudio.log"), QStringLiteral("error.json")}) + previous);
    QVERIFY(QFileInfo::exists(out + QLatin1Char('/') + previous[1] + QStringLiteral("/model.unverified.pt2")));
    QCOMPARE(readJson(out + QStringLiteral("/error.json")).value(QLatin1String("code")).toString(), QStringLiteral("unknown_model"));

    // 5. A successful compile: its files only, paths into the folder, earlier folders kept.
    const Run ok = compile(fixture("tiny_factory.py") + QStringLiteral(":make"), out, {QStringLiteral("--json")});
    QVERIFY2(ok.exitCode == 0, ok.err.right(3000).constData());
    QCOMPARE(previousFolders(out), previous);
    const QStringList expected = QStringList{QStringLiteral("aotstudio.log"),     QStringLiteral("fusion.json"),
                                             QStringLiteral("kernels.json"),      QStringLiteral("memory.json"),
                                             QStringLiteral("model.guards.json"), QStringLiteral("model.pt2")}
        + previous + QStringList{QStringLiteral("result.json"), QStringLiteral("snapshots"), QStringLiteral("trace")};
    QCOMPARE(entries(out), expected);
    const QJsonObject result = stdoutJson(ok);
    QCOMPARE(result.value(QLatin1String("package")).toString(), out + QStringLiteral("/model.pt2"));
    QCOMPARE(result.value(QLatin1String("kernels")).toObject().value(QLatin1String("path")).toString(), out + QStringLiteral("/kernels.json"));
    QSet<QString> listed;
    for (const auto &v : result.value(QLatin1String("stages")).toArray()) {
        const QString path = v.toObject().value(QLatin1String("snapshot")).toString();
        QVERIFY2(path.isEmpty() || path.startsWith(out + QLatin1Char('/')), qPrintable(path));
        QVERIFY2(!path.contains(QLatin1String(".partial-")), qPrintable(path));
        QVERIFY2(path.isEmpty() || QFileInfo::exists(path), qPrintable(path));
        if (path.startsWith(out + QStringLiteral("/snapshots/")))
            listed.insert(QFileInfo(path).fileName());
    }
    // Every snapshot file is this compile's (none left over from the longer-named earlier ones).
    const QStringList files = entries(out + QStringLiteral("/snapshots"));
    QCOMPARE(QSet<QString>(files.begin(), files.end()), listed);
    QCOMPARE(readJson(out + QStringLiteral("/result.json")).value(QLatin1String("model")).toString(),
             fixture("tiny_factory.py") + QStringLiteral(":make"));
}

QTEST_GUILESS_MAIN(TestVerify)
#include "tst_verify.moc"
