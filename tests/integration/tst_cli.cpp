// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-cli end to end on the CPU: real torch.export + AOTInductor + LibTorch loader.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "processrun.h"

#include <csignal>
#include <sys/types.h>

namespace {

using TestSupport::lastLine;
using TestSupport::readJson;
using TestSupport::Run;

Run runCli(const QStringList &args, int timeoutMs = 600000)
{
    return TestSupport::run(QStringLiteral(AOTSTUDIO_CLI_PATH), args, timeoutMs);
}

/// The stage entries of a compile result as "stage" or "stage/pass".
QStringList stageNames(const QJsonObject &result)
{
    QStringList names;
    for (const auto &v : result.value(QLatin1String("stages")).toArray()) {
        const auto o = v.toObject();
        const QString pass = o.value(QLatin1String("pass")).toString();
        names << o.value(QLatin1String("name")).toString() + (pass.isEmpty() ? QString() : QLatin1Char('/') + pass);
    }
    return names;
}

QJsonObject kernelCovering(const QJsonObject &kernels, const QString &preGradNode, const QString &kind)
{
    for (const auto &v : kernels.value(QLatin1String("kernels")).toArray()) {
        const auto k = v.toObject();
        if (k.value(QLatin1String("kind")).toString() == kind &&
            k.value(QLatin1String("pre_grad_nodes")).toArray().contains(QJsonValue(preGradNode)))
            return k;
    }
    return {};
}

QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const auto &x : v.toArray())
        out << x.toString();
    return out;
}

QString fixture(const char *name)
{
    return QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/") + QLatin1String(name);
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void version();
    void usageError();
    void compileMlp();
    void compileFactoryFile();
    void compileSavedProgram();
    void dynamicDimension();
    void convnetStagesAndKernels();
    void structuredInputs();
    void inputsCommand();
    void captureCommand();
    void compileAtAnotherShape();
    void regionalCompile();
    void diffCommand();
    void badInput_data();
    void badInput();
    void mismatchIsAnError();
    void badCommandLine_data();
    void badCommandLine();
    void busyOutputDirectory();
    void ctrlCCancels();
};

void TestCli::version()
{
    const Run r = runCli({QStringLiteral("--version")}, 120000);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("torch 2."), r.out.constData());
    QVERIFY2(r.out.contains("device: cpu"), r.out.constData());
    // --version --json: the handshake in the envelope, the same torch as the text says.
    const Run j = runCli({QStringLiteral("--version"), QStringLiteral("--json")}, 120000);
    QCOMPARE(j.exitCode, 0);
    const QJsonObject envelope = QJsonDocument::fromJson(j.out.trimmed()).object();
    QCOMPARE(envelope.value(QLatin1String("ok")).toBool(), true);
    const QJsonObject result = envelope.value(QLatin1String("result")).toObject();
    const QString torch = result.value(QLatin1String("torch_version")).toString();
    QVERIFY2(torch.startsWith(QLatin1String("2.")) && r.out.contains(("torch " + torch).toUtf8()), j.out.constData());
    QCOMPARE(result.value(QLatin1String("protocol")).toInt(), 1);
    QVERIFY(!result.contains(QLatin1String("type")));
    bool cpu = false;
    for (const auto &d : result.value(QLatin1String("devices")).toArray())
        cpu = cpu || d.toObject().value(QLatin1String("type")).toString() == QLatin1String("cpu");
    QVERIFY(cpu);
}

void TestCli::usageError()
{
    const Run r = runCli({QStringLiteral("compile"), QStringLiteral("--device"), QStringLiteral("cpu")}, 60000);
    QCOMPARE(r.exitCode, 2); // --model is required
    QVERIFY2(r.err.contains("--model"), r.err.constData());
}

void TestCli::compileMlp()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Run r = runCli({QStringLiteral("compile"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                          QStringLiteral("--device"), QStringLiteral("cpu"), QStringLiteral("--out"), dir.path(),
                          QStringLiteral("--json"), QStringLiteral("--runs"), QStringLiteral("20"), QStringLiteral("--min-runs"), QStringLiteral("10"),
                          QStringLiteral("--warmup"), QStringLiteral("3")});
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());

    // stdout holds exactly one JSON object; progress went to stderr.
    QCOMPARE(r.out.trimmed().count('\n'), 0);
    QJsonParseError pe;
    const QJsonObject envelope = QJsonDocument::fromJson(r.out, &pe).object();
    QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString()));
    // The envelope: {"ok": true, "result": {...}} and nothing else.
    QCOMPARE(envelope.keys(), (QStringList{QStringLiteral("ok"), QStringLiteral("result")}));
    QCOMPARE(envelope.value(QLatin1String("ok")).toBool(), true);
    const QJsonObject j = envelope.value(QLatin1String("result")).toObject();
    QVERIFY(r.err.contains("[100%]"));
    // Every progress event of the job in [0, 1], never going back, ending at 1 (job.h).
    const QString progress = TestSupport::progressProblems(dir.filePath(QStringLiteral("aotstudio.log")));
    QVERIFY2(progress.isEmpty(), qPrintable(progress));

    const QString package = j.value(QLatin1String("package")).toString();
    QVERIFY(package.endsWith(QLatin1String(".pt2")));
    QVERIFY(QFileInfo(package).isFile());
    QVERIFY(QFileInfo(package).size() > 0);
    QCOMPARE(QFileInfo(package).absolutePath(), QFileInfo(dir.path()).absoluteFilePath());
    QCOMPARE(j.value(QLatin1String("device")).toString(), QStringLiteral("cpu"));
    QVERIFY(j.value(QLatin1String("torch_version")).toString().startsWith(QLatin1String("2.")));
    const double err = j.value(QLatin1String("max_abs_error")).toDouble(-1);
    QVERIFY2(err >= 0 && err < 1e-4, qPrintable(QString::number(err)));
    QVERIFY(j.value(QLatin1String("eager_ms")).toDouble() > 0);
    QVERIFY(j.value(QLatin1String("compiled_ms")).toDouble() > 0);
    const int runs = j.value(QLatin1String("runs")).toInt();
    QVERIFY2(runs >= 10 && runs <= 20, qPrintable(QString::number(runs))); // --min-runs 10, --runs 20
    const QJsonObject compiled = j.value(QLatin1String("compiled")).toObject();
    QVERIFY(compiled.value(QLatin1String("p10_ms")).toDouble() <= compiled.value(QLatin1String("median_ms")).toDouble());
    QVERIFY(compiled.value(QLatin1String("median_ms")).toDouble() <= compiled.value(QLatin1String("p90_ms")).toDouble());

    // Stages: capture, core ATen, Inductor's phases, fusion and codegen, each with a snapshot.
    const QStringList stages = stageNames(j);
    for (const char *s : {"capture", "decompose", "pre_grad", "post_grad", "fusion", "codegen"})
        QVERIFY2(stages.contains(QLatin1String(s)), qPrintable(stages.join(QLatin1Char(' '))));
    QCOMPARE(j.value(QLatin1String("inductor_cache")).toString(), QStringLiteral("disabled"));
    // The recipe (issue 38 "Fastest by default"): auto, the rule on the exported graph; an MLP has
    // no convolution, so AOTInductor's defaults, said with the reason's message id and the features.
    const QJsonObject recipe = j.value(QLatin1String("recipe")).toObject();
    QCOMPARE(recipe.value(QLatin1String("name")).toString(), QStringLiteral("defaults"));
    QCOMPARE(recipe.value(QLatin1String("chosen_by")).toString(), QStringLiteral("rule"));
    QCOMPARE(recipe.value(QLatin1String("reason_msg")).toObject().value(QLatin1String("id")).toString(),
             QStringLiteral("recipe.rule_matmul_defaults"));
    QVERIFY(recipe.value(QLatin1String("reason")).toString().contains(QLatin1String("0%")));
    QCOMPARE(recipe.value(QLatin1String("features")).toObject().value(QLatin1String("convolutions")).toInt(-1), 0);
    QVERIFY(!recipe.contains(QLatin1String("cost"))); // no freezing, nothing to pay
    QCOMPARE(j.value(QLatin1String("options")).toObject().value(QLatin1String("freezing")).toBool(true), false);
    // The decomposed graph has only core ATen ops.
    QVERIFY(j.value(QLatin1String("non_core_ops")).toArray().isEmpty());
    const QJsonObject decomposed = readJson(dir.filePath(QStringLiteral("snapshots/002_decompose.json")));
    QCOMPARE(decomposed.value(QLatin1String("stage")).toString(), QStringLiteral("decompose"));
    int aten = 0;
    for (const auto &v : decomposed.value(QLatin1String("nodes")).toArray()) {
        const auto n = v.toObject();
        if (n.contains(QLatin1String("core_aten"))) {
            ++aten;
            QVERIFY2(n.value(QLatin1String("core_aten")).toBool(), qPrintable(n.value(QLatin1String("target")).toString()));
        }
    }
    QVERIFY(aten >= 6); // 3 x (permute, addmm) at least
    // Capture keeps the user's module path and source line.
    bool sawFc1 = false;
    for (const auto &v : readJson(dir.filePath(QStringLiteral("snapshots/001_capture.json"))).value(QLatin1String("nodes")).toArray()) {
        const auto n = v.toObject();
        if (n.value(QLatin1String("module")).toString() == QLatin1String("fc1")) {
            sawFc1 = true;
            QVERIFY(n.value(QLatin1String("source")).toObject().value(QLatin1String("code")).toString().contains(QLatin1String("fc1")));
        }
    }
    QVERIFY(sawFc1);

    // Kernels: GELU becomes one fused C++ kernel that covers exactly the erf-form decomposition of
    // the pre-grad `gelu` node; each linear is a library call (addmm).
    const QJsonObject kinfo = j.value(QLatin1String("kernels")).toObject();
    const QJsonObject kernels = readJson(kinfo.value(QLatin1String("path")).toString());
    QCOMPARE(kernels.value(QLatin1String("kernels")).toArray().size(), kinfo.value(QLatin1String("count")).toInt());
    const QJsonObject gelu = kernelCovering(kernels, QStringLiteral("gelu"), QStringLiteral("cpp"));
    QVERIFY2(!gelu.isEmpty(), "no C++ kernel covers the pre-grad gelu node");
    QVERIFY(gelu.value(QLatin1String("name")).toString().startsWith(QLatin1String("cpp_fused")));
    QVERIFY(gelu.value(QLatin1String("source")).toString().contains(QLatin1String("erf")));
    QCOMPARE(strings(gelu.value(QLatin1String("pre_grad_nodes"))), QStringList{QStringLiteral("gelu")});
    const QStringList geluPost = strings(gelu.value(QLatin1String("post_grad_nodes")));
    QVERIFY2(geluPost.contains(QLatin1String("erf")) && geluPost.size() >= 4, qPrintable(geluPost.join(QLatin1Char(','))));
    for (const char *linear : {"linear", "linear_1", "linear_2"}) {
        const QJsonObject k = kernelCovering(kernels, QLatin1String(linear), QStringLiteral("library"));
        QVERIFY2(k.value(QLatin1String("library_op")).toString().contains(QLatin1String("mm")), linear);
    }

    // An independent check of the package, outside our C++ path: Python's own AOTI loader on the
    // same sample input must agree with the eager module.
    QProcess py;
    py.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
    py.start(QStringLiteral(AOTSTUDIO_PYTHON_EXECUTABLE),
             {QStringLiteral("-c"),
              QStringLiteral("import sys, torch; sys.path.insert(0, sys.argv[2]);"
                             "from aotstudio_frontend import samples;"
                             "m, (x,) = samples.mlp();"
                             "c = torch._inductor.aoti_load_package(sys.argv[1])(x);"
                             "c = c[0] if isinstance(c, (list, tuple)) else c;"
                             "print((c - m(x)).abs().max().item())"),
              package, QStringLiteral(AOTSTUDIO_FRONTEND_DIR)});
    QVERIFY(py.waitForFinished(300000));
    QCOMPARE(py.exitCode(), 0);
    const double pyErr = lastLine(py.readAllStandardOutput()).toDouble();
    QVERIFY2(pyErr < 1e-4, qPrintable(QString::number(pyErr)));
}

void TestCli::compileFactoryFile()
{
    QTemporaryDir dir;
    const Run r = runCli({QStringLiteral("compile"), QStringLiteral("--model"), fixture("tiny_factory.py") + QStringLiteral(":make"),
                          QStringLiteral("--out"), dir.path(), QStringLiteral("--json"), QStringLiteral("--runs"),
                          QStringLiteral("10")});
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    const QJsonObject j = TestSupport::result(r.out);
    QVERIFY(QFileInfo(j.value(QLatin1String("package")).toString()).isFile());
    QCOMPARE(j.value(QLatin1String("outputs")).toArray().first().toObject().value(QLatin1String("shape")).toArray().size(), 2);
    // The factory's print() went to stderr, not into the JSON on stdout.
    QVERIFY(r.err.contains("tiny_factory: building the model"));
}

void TestCli::compileSavedProgram()
{
    QTemporaryDir dir;
    const Run r = runCli({QStringLiteral("compile"), QStringLiteral("--model"), fixture("tiny_program.pt2"),
                          QStringLiteral("--out"), dir.path(), QStringLiteral("--json"), QStringLiteral("--max-seconds"),
                          QStringLiteral("1")});
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    const QJsonObject j = TestSupport::result(r.out);
    QVERIFY(QFileInfo(j.value(QLatin1String("package")).toString()).isFile());
    QVERIFY(j.value(QLatin1String("max_abs_error")).toDouble(-1) < 1e-5);
}

void TestCli::dynamicDimension()
{
    QTemporaryDir dir;
    const Run r = runCli({QStringLiteral("compile"), QStringLiteral("--model"), fixture("tiny_factory.py") + QStringLiteral(":make"),
                          QStringLiteral("--dynamic"), QStringLiteral("0:0:1:16"), QStringLiteral("--out"), dir.path(),
                          QStringLiteral("--json"), QStringLiteral("--max-seconds"), QStringLiteral("1")});
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    const QJsonObject j = TestSupport::result(r.out);
    QCOMPARE(strings(j.value(QLatin1String("options")).toObject().value(QLatin1String("dynamic"))), QStringList{QStringLiteral("0:0:1:16")});
    // The captured graph's input has a symbolic batch dimension (a string such as "s77").
    bool symbolic = false;
    for (const auto &v : readJson(dir.filePath(QStringLiteral("snapshots/001_capture.json"))).value(QLatin1String("nodes")).toArray()) {
        const auto n = v.toObject();
        if (n.value(QLatin1String("id")).toString() == QLatin1String("x"))
            symbolic = n.value(QLatin1String("outputs")).toArray().first().toObject().value(QLatin1String("shape")).toArray().first().isString();
    }
    QVERIFY(symbolic);
    // The package answers a batch it was not traced with (Python's loader, independent of ours).
    QProcess py;
    py.start(QStringLiteral(AOTSTUDIO_PYTHON_EXECUTABLE),
             {QStringLiteral("-c"), QStringLiteral("import sys, torch; r = torch._inductor.aoti_load_package(sys.argv[1]);"
                                                   "print(tuple(r(torch.randn(7, 16)).shape))"),
              j.value(QLatin1String("package")).toString()});
    QVERIFY(py.waitForFinished(300000));
    QCOMPARE(lastLine(py.readAllStandardOutput()), QByteArray("(7, 4)"));

    const Run bad = runCli({QStringLiteral("compile"), QStringLiteral("--model"), QStringLiteral("sample:mlp"), QStringLiteral("--dynamic"),
                            QStringLiteral("3:0"), QStringLiteral("--out"), dir.filePath(QStringLiteral("bad"))}, 300000);
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(lastLine(bad.err).contains("dynamic dimension 3:0 does not exist"), bad.err.constData());
}

void TestCli::structuredInputs()
{
    // Positional, nested and keyword inputs: the package takes the tensor leaves, each named.
    QTemporaryDir dir;
    const Run r = runCli({QStringLiteral("compile"), QStringLiteral("--model"), fixture("structured_inputs_factory.py") + QStringLiteral(":nested"),
                          QStringLiteral("--dynamic"), QStringLiteral("mask:0:2:16=batch"), QStringLiteral("--dynamic"),
                          QStringLiteral("x:0:2:16=batch"), QStringLiteral("--out"), dir.path(), QStringLiteral("--json"),
                          QStringLiteral("--max-seconds"), QStringLiteral("0.5")});
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    const QJsonObject j = TestSupport::result(r.out);
    QStringList inputs, outputs;
    for (const auto &v : j.value(QLatin1String("inputs")).toArray())
        inputs << v.toObject().value(QLatin1String("name")).toString();
    for (const auto &v : j.value(QLatin1String("outputs")).toArray())
        outputs << v.toObject().value(QLatin1String("name")).toString();
    QCOMPARE(inputs, (QStringList{QStringLiteral("x"), QStringLiteral("pair[0]"), QStringLiteral("pair[1]"),
                                  QStringLiteral("extra['bias']"), QStringLiteral("mask")}));
    QCOMPARE(outputs, (QStringList{QStringLiteral("logits"), QStringLiteral("hidden.0"), QStringLiteral("hidden.1")}));
    // The guards sidecar names the inputs as the user does, and the batch is dynamic on both.
    const QJsonObject guards = readJson(dir.filePath(QStringLiteral("model.guards.json")));
    QCOMPARE(guards.value(QLatin1String("inputs")).toArray().at(4).toObject().value(QLatin1String("name")).toString(),
             QStringLiteral("mask"));
    QVERIFY(guards.value(QLatin1String("dynamic")).toBool());
    // A dataclass of tensors as an input is registered and flattened (with a note in the log).
    QTemporaryDir dir2;
    const Run d = runCli({QStringLiteral("compile"), QStringLiteral("--model"),
                          fixture("structured_inputs_factory.py") + QStringLiteral(":dataclass_tensors"), QStringLiteral("--out"),
                          dir2.path(), QStringLiteral("--json"), QStringLiteral("--max-seconds"), QStringLiteral("0.5"), QStringLiteral("-v")});
    QVERIFY2(d.exitCode == 0, d.err.right(3000).constData());
    QVERIFY2(d.err.contains("register_dataclass"), d.err.right(3000).constData());
    QCOMPARE(TestSupport::result(d.out).value(QLatin1String("inputs")).toArray().size(), 3);
}

void TestCli::captureCommand()
{
    // Issue 39 through the engine and the CLI (capture.py's own tests cover the recorder): a
    // script of ours calls a small model with a varying batch and a length that is a multiple
    // of 8, ids and mask tied; the proposal finds both dimensions; a module path that names
    // nothing records no call (exit 1, capture_failed). ~15 s.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString script = dir.filePath(QStringLiteral("serve.py"));
    QFile f(script);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("import torch\n"
            "class Net(torch.nn.Module):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.emb = torch.nn.Embedding(50, 8)\n"
            "    def forward(self, ids, mask):\n"
            "        return (self.emb(ids) * mask.unsqueeze(-1)).sum(1)\n"
            "model = Net().eval()\n"
            "with torch.no_grad():\n"
            "    for i in range(60):\n"
            "        b, s = [2, 3, 4, 8][i % 4], 8 * (1 + i % 5)\n"
            "        model(torch.zeros(b, s, dtype=torch.long), torch.ones(b, s))\n");
    f.close();
    const QString out = dir.filePath(QStringLiteral("cap"));
    const Run r = runCli({QStringLiteral("capture"), QStringLiteral("--script"), script, QStringLiteral("--module"),
                          QStringLiteral("model"), QStringLiteral("--out"), out, QStringLiteral("--json")},
                         300000);
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    const QJsonObject j = TestSupport::result(r.out);
    QCOMPARE(j.value(QLatin1String("summary")).toObject().value(QLatin1String("calls")).toInt(), 60);
    const QJsonObject proposal = j.value(QLatin1String("proposal")).toObject();
    QStringList dynamic;
    for (const auto &d : proposal.value(QLatin1String("compile")).toObject().value(QLatin1String("dynamic")).toArray())
        dynamic << d.toString();
    // The batch 2..8 tied across ids and mask; the length 8..40 tied too (one name each).
    QVERIFY2(dynamic.contains(QStringLiteral("ids:0:2:8=batch"))
                 && dynamic.contains(QStringLiteral("mask:0:2:8=batch")),
             qPrintable(dynamic.join(QLatin1Char(' '))));
    QVERIFY2(dynamic.filter(QRegularExpression(QStringLiteral("^ids:1:8:40="))).size() == 1,
             qPrintable(dynamic.join(QLatin1Char(' '))));
    bool multipleOf8 = false;
    for (const auto &d : proposal.value(QLatin1String("dims")).toArray())
        multipleOf8 = multipleOf8 || d.toObject().value(QLatin1String("multiple_of")).toInt() == 8;
    QVERIFY(multipleOf8);
    QVERIFY(QFileInfo::exists(out + QLatin1String("/proposal.json")));
    QVERIFY(QFileInfo::exists(out + QLatin1String("/calls.jsonl")));

    const Run none
        = runCli({QStringLiteral("capture"), QStringLiteral("--script"), script, QStringLiteral("--module"),
                  QStringLiteral("no_such_model"), QStringLiteral("--out"), dir.filePath(QStringLiteral("none"))},
                 300000);
    QCOMPARE(none.exitCode, 1);
    QVERIFY2(none.err.contains("capture_failed"), none.err.right(2000).constData());
}

void TestCli::inputsCommand()
{
    // The inputs a compile would build, named as --dynamic and --shape take them; nothing compiled.
    const Run r = runCli({QStringLiteral("inputs"), QStringLiteral("--model"), QStringLiteral("sample:minilm"),
                          QStringLiteral("--json")},
                         300000);
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    const QJsonObject j = TestSupport::result(r.out);
    const QJsonArray inputs = j.value(QLatin1String("inputs")).toArray();
    QCOMPARE(inputs.size(), 2);
    const QJsonObject ids = inputs.at(0).toObject(), mask = inputs.at(1).toObject();
    QCOMPARE(ids.value(QLatin1String("name")).toString(), QStringLiteral("input_ids"));
    QCOMPARE(mask.value(QLatin1String("name")).toString(), QStringLiteral("attention_mask"));
    QCOMPARE(ids.value(QLatin1String("dtype")).toString(), QStringLiteral("int64"));
    QCOMPARE(ids.value(QLatin1String("kind")).toString(), QStringLiteral("ids"));
    QCOMPARE(mask.value(QLatin1String("kind")).toString(), QStringLiteral("mask"));
    const QJsonArray shape = ids.value(QLatin1String("shape")).toArray();
    QCOMPARE(shape.size(), 2);
    QCOMPARE(shape.at(0).toInt(), 4); // the 4 sentences
    QCOMPARE(mask.value(QLatin1String("shape")).toArray(), shape);
    QVERIFY(ids.value(QLatin1String("max")).toInt() < 30522); // BERT's vocabulary
    QCOMPARE(j.value(QLatin1String("signature")).toString(), QStringLiteral("forward(input_ids, attention_mask)"));
    QVERIFY(j.value(QLatin1String("parameters")).toInteger() > 20000000);
    QCOMPARE(j.value(QLatin1String("outputs")).toArray().at(0).toObject().value(QLatin1String("shape")).toArray(),
             (QJsonArray{4, 384}));

    // --shape by name; the text form is a table with the new shape.
    const Run t = runCli({QStringLiteral("inputs"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                          QStringLiteral("--shape"), QStringLiteral("x=3x64")},
                         300000);
    QVERIFY2(t.exitCode == 0, t.err.right(3000).constData());
    QVERIFY2(t.out.contains("signature:  forward(x)"), t.out.constData());
    QVERIFY2(QRegularExpression(QStringLiteral("\\nx +\\[3, 64\\] +float32 +float +-?[0-9.]+\\.\\."))
                 .match(QString::fromUtf8(t.out))
                 .hasMatch(),
             t.out.constData());

    // An unknown name is refused naming the inputs; a malformed --shape is a usage error.
    const Run bad = runCli({QStringLiteral("inputs"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                            QStringLiteral("--shape"), QStringLiteral("y=3x64"), QStringLiteral("--json")},
                           300000);
    QCOMPARE(bad.exitCode, 1);
    const QJsonObject e = TestSupport::error(bad.out);
    QCOMPARE(e.value(QLatin1String("code")).toString(), QStringLiteral("bad_request"));
    QVERIFY2(e.value(QLatin1String("message")).toString().contains(QStringLiteral("no input 'y'; its inputs: x")),
             bad.out.constData());
    const Run usage = runCli({QStringLiteral("compile"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                              QStringLiteral("--shape"), QStringLiteral("x=0x64")},
                             60000);
    QCOMPARE(usage.exitCode, 2);
    QVERIFY2(usage.err.contains("at least 1"), usage.err.constData());
}

void TestCli::compileAtAnotherShape()
{
    // sample:mlp's example is x float32 [8, 64]: compiled at a batch of 4 instead.
    QTemporaryDir dir;
    const Run r = runCli({QStringLiteral("compile"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                          QStringLiteral("--shape"), QStringLiteral("0=4x64"), QStringLiteral("--out"), dir.path(),
                          QStringLiteral("--json"), QStringLiteral("--max-seconds"), QStringLiteral("0.5")});
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    const QJsonObject j = TestSupport::result(r.out);
    const QJsonObject x = j.value(QLatin1String("inputs")).toArray().at(0).toObject();
    QCOMPARE(x.value(QLatin1String("name")).toString(), QStringLiteral("x"));
    QCOMPARE(x.value(QLatin1String("shape")).toArray(), (QJsonArray{4, 64}));
    QCOMPARE(j.value(QLatin1String("outputs")).toArray().at(0).toObject().value(QLatin1String("shape")).toArray(),
             (QJsonArray{4, 10}));
    QCOMPARE(j.value(QLatin1String("options")).toObject().value(QLatin1String("shapes")).toObject(),
             (QJsonObject{{QStringLiteral("0"), QJsonArray{4, 64}}}));
    QVERIFY(j.value(QLatin1String("verify")).toObject().value(QLatin1String("passed")).toBool());
    // A rank other than the example's is refused before anything is exported.
    const Run bad = runCli({QStringLiteral("compile"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                            QStringLiteral("--shape"), QStringLiteral("x=4x8x8"), QStringLiteral("--out"),
                            dir.filePath(QStringLiteral("bad"))},
                           300000);
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(lastLine(bad.err).contains("'x' has 2 dimensions"), bad.err.constData());
}

void TestCli::regionalCompile()
{
    QTemporaryDir dir;
    const Run r = runCli({QStringLiteral("compile"), QStringLiteral("--model"), fixture("repeated_blocks_factory.py") + QStringLiteral(":make"),
                          QStringLiteral("--regional"), QStringLiteral("--out"), dir.path(), QStringLiteral("--json"),
                          QStringLiteral("--max-seconds"), QStringLiteral("0.5")});
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    const QJsonObject j = TestSupport::result(r.out);
    QCOMPARE(j.value(QLatin1String("mode")).toString(), QStringLiteral("regional"));
    const QJsonObject regional = j.value(QLatin1String("regional")).toObject();
    const QJsonArray blocks = regional.value(QLatin1String("blocks")).toArray();
    QCOMPARE(blocks.size(), 1); // one class, four instances
    const QJsonObject block = blocks.first().toObject();
    QCOMPARE(block.value(QLatin1String("class")).toString(), QStringLiteral("Block"));
    QCOMPARE(block.value(QLatin1String("instances")).toArray().size(), 4);
    // The layout spaces.aoti_blocks_load reads, under OUT (committed from the staging folder).
    QVERIFY(QFileInfo(dir.filePath(QStringLiteral("blocks/Block/package.pt2"))).isFile());
    const QJsonObject info = readJson(dir.filePath(QStringLiteral("blocks/Block/block.json")));
    QCOMPARE(strings(info.value(QLatin1String("constants"))),
             (QStringList{QStringLiteral("fc.bias"), QStringLiteral("fc.weight"), QStringLiteral("norm.bias"), QStringLiteral("norm.weight")}));
    QVERIFY(!info.value(QLatin1String("weights_in_package")).toBool(true));
    QVERIFY(j.value(QLatin1String("max_abs_error")).toDouble(1) < 1e-4);
    QVERIFY(j.value(QLatin1String("speedup_interval")).toObject().contains(QLatin1String("low")));
    // The package holds no weights: loaded in Python (torch's own loader) with the weights of
    // another instance bound, it gives that instance's output.
    QProcess py;
    py.start(QStringLiteral(AOTSTUDIO_PYTHON_EXECUTABLE),
             {QStringLiteral("-c"),
              QStringLiteral("import sys, torch; sys.path.insert(0, sys.argv[2]); import repeated_blocks_factory as f;"
                             "m, (x,) = f.make(); b = m.blocks[2]; c = torch._inductor.aoti_load_package(sys.argv[1]);"
                             "c.load_constants(b.state_dict(), check_full_update=True, user_managed=True); h = torch.randn(2, 6, 32);"
                             "print(float((c(h, scale=0.5) - b(h, scale=0.5)).abs().max()) < 1e-4)"),
              dir.filePath(QStringLiteral("blocks/Block/package.pt2")), QStringLiteral(AOTSTUDIO_FIXTURES_DIR)});
    QVERIFY(py.waitForFinished(300000));
    QCOMPARE(lastLine(py.readAllStandardOutput()), QByteArray("True"));
}

void TestCli::convnetStagesAndKernels()
{
    QTemporaryDir dir;
    // --recipe defaults: the stages and kernels of AOTInductor's defaults (auto freezes a conv net).
    const Run r = runCli({QStringLiteral("compile"), QStringLiteral("--model"), QStringLiteral("sample:convnet"),
                          QStringLiteral("--out"), dir.path(), QStringLiteral("--json"), QStringLiteral("--runs"),
                          QStringLiteral("20"), QStringLiteral("--max-seconds"), QStringLiteral("1"),
                          QStringLiteral("--recipe"), QStringLiteral("defaults")});
    QVERIFY2(r.exitCode == 0, r.err.right(3000).constData());
    const QJsonObject j = TestSupport::result(r.out);
    QVERIFY(j.value(QLatin1String("max_abs_error")).toDouble(-1) < 1e-3);

    // At least one Inductor pass changed the graph, and its snapshot is named by the pass; the
    // passes that changed nothing are listed too (changed: false), without a snapshot.
    int passSnapshots = 0;
    int unchanged = 0;
    for (const auto &v : j.value(QLatin1String("stages")).toArray()) {
        const auto s = v.toObject();
        if (s.value(QLatin1String("pass")).toString().isEmpty())
            continue;
        if (!s.value(QLatin1String("changed")).toBool(true)) {
            QVERIFY(s.value(QLatin1String("snapshot")).isNull());
            ++unchanged;
            continue;
        }
        ++passSnapshots;
        const QString path = s.value(QLatin1String("snapshot")).toString();
        QVERIFY2(path.contains(s.value(QLatin1String("pass")).toString()), qPrintable(path));
        QCOMPARE(readJson(path).value(QLatin1String("pass")).toString(), s.value(QLatin1String("pass")).toString());
    }
    QVERIFY2(passSnapshots >= 1, qPrintable(stageNames(j).join(QLatin1Char(' '))));
    QVERIFY2(unchanged >= 1, "Inductor runs passes that leave a convnet unchanged (e.g. remove_noop_ops)");

    // Eval-mode BatchNorm and ReLU fuse into the C++ kernel after each convolution.
    const QJsonObject kernels = readJson(j.value(QLatin1String("kernels")).toObject().value(QLatin1String("path")).toString());
    const QJsonObject bn = kernelCovering(kernels, QStringLiteral("batch_norm"), QStringLiteral("cpp"));
    QVERIFY2(!bn.isEmpty(), "no C++ kernel covers batch_norm");
    const QStringList pre = strings(bn.value(QLatin1String("pre_grad_nodes")));
    QVERIFY2(pre.contains(QLatin1String("relu")), qPrintable(pre.join(QLatin1Char(','))));
    QVERIFY(!kernelCovering(kernels, QStringLiteral("conv2d"), QStringLiteral("library")).isEmpty());
    QVERIFY(kernels.value(QLatin1String("scheduler_nodes_post_fusion")).toInt() <=
            kernels.value(QLatin1String("scheduler_nodes_pre_fusion")).toInt());

    // `diff` of the exported graph against its core ATen decomposition.
    const Run d = runCli({QStringLiteral("diff"), dir.filePath(QStringLiteral("snapshots/001_capture.json")),
                          dir.filePath(QStringLiteral("snapshots/002_decompose.json")), QStringLiteral("--json")}, 60000);
    QCOMPARE(d.exitCode, 0);
    const QJsonObject diff = TestSupport::result(d.out);
    // conv2d -> convolution is a replacement that provenance pairs up.
    bool conv = false;
    for (const auto &v : diff.value(QLatin1String("changed")).toArray()) {
        const auto c = v.toObject();
        if (c.value(QLatin1String("before")).toString() == QLatin1String("conv2d")) {
            conv = true;
            QCOMPARE(c.value(QLatin1String("after")).toString(), QStringLiteral("convolution"));
            QCOMPARE(c.value(QLatin1String("via")).toString(), QStringLiteral("provenance"));
        }
    }
    QVERIFY2(conv, d.out.constData());
}

void TestCli::diffCommand()
{
    const Run bad = runCli({QStringLiteral("diff"), fixture("tiny_factory.py"), fixture("tiny_factory.py")}, 60000);
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(lastLine(bad.err).contains("not valid JSON"), bad.err.constData());
    const Run missing = runCli({QStringLiteral("diff"), QStringLiteral("/nonexistent.json"), fixture("tiny_factory.py")}, 60000);
    QCOMPARE(missing.exitCode, 2);
}

void TestCli::badInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("mentions");

    QTest::newRow("unknown sample") << QStringList{QStringLiteral("--model"), QStringLiteral("sample:nope")}
                                    << QStringLiteral("unknown_model") << QStringLiteral("unknown sample 'nope'");
    QTest::newRow("missing factory file")
        << QStringList{QStringLiteral("--model"), QStringLiteral("/nonexistent/model.py:make")}
        << QStringLiteral("unknown_model") << QStringLiteral("'/nonexistent/model.py' does not exist");
    QTest::newRow("factory raises") << QStringList{QStringLiteral("--model"), fixture("raising_factory.py") + QStringLiteral(":make")}
                                    << QStringLiteral("model_error") << QStringLiteral("raising_factory.py:6");
    QTest::newRow("no such factory") << QStringList{QStringLiteral("--model"), fixture("raising_factory.py") + QStringLiteral(":build")}
                                     << QStringLiteral("unknown_model") << QStringLiteral("no callable 'build'");
    QTest::newRow("unreadable spec") << QStringList{QStringLiteral("--model"), QStringLiteral("resnet")}
                                     << QStringLiteral("unknown_model") << QStringLiteral("cannot read model spec 'resnet'");
    QTest::newRow("data-dependent control flow")
        << QStringList{QStringLiteral("--model"), fixture("control_flow_factory.py") + QStringLiteral(":make")}
        << QStringLiteral("export_failed") << QStringLiteral("control_flow_factory.py:8 (if x.sum() > 0:");
    QTest::newRow("op export cannot capture")
        << QStringList{QStringLiteral("--model"), fixture("unsupported_factory.py") + QStringLiteral(":make")}
        << QStringLiteral("export_failed") << QStringLiteral("unsupported_factory.py:8");
    QTest::newRow("inputs of the wrong shape")
        << QStringList{QStringLiteral("--model"), fixture("wrong_inputs_factory.py") + QStringLiteral(":make")}
        << QStringLiteral("model_error") << QStringLiteral("on inputs (input [2, 5] float32)");
    QTest::newRow("legacy eager-mode quantized model")
        << QStringList{QStringLiteral("--model"), fixture("legacy_quant_factory.py") + QStringLiteral(":make")}
        << QStringLiteral("model_error") << QStringLiteral("legacy eager-mode quantized modules (quant (Quantize), fc (Linear)");
    QTest::newRow("sub-module that does not exist")
        << QStringList{QStringLiteral("--model"), fixture("repeated_blocks_factory.py") + QStringLiteral(":make"),
                       QStringLiteral("--submodule"), QStringLiteral("blocks.9")}
        << QStringLiteral("model_error") << QStringLiteral("no sub-module 'blocks.9'; closest: blocks.3, blocks.2");
    QTest::newRow("keyword forward does not take")
        << QStringList{QStringLiteral("--model"), fixture("structured_inputs_factory.py") + QStringLiteral(":bad_keyword")}
        << QStringLiteral("model_error") << QStringLiteral("do not fit forward(x, y)");
    QTest::newRow("regional without repeated blocks")
        << QStringList{QStringLiteral("--model"), fixture("repeated_blocks_factory.py") + QStringLiteral(":make_single"),
                       QStringLiteral("--regional")}
        << QStringLiteral("bad_request") << QStringLiteral("has no repeated blocks");
    QTest::newRow("truncated .pt2") << QStringList{QStringLiteral("--model"), fixture("tiny_program_truncated.pt2")}
                                    << QStringLiteral("model_error") << QStringLiteral("truncated");
    QTest::newRow(".pt2 that is not an ExportedProgram")
        << QStringList{QStringLiteral("--model"), fixture("not_a_program.pt2")} << QStringLiteral("model_error")
        << QStringLiteral("is not a loadable ExportedProgram");
    QTest::newRow("cuda without a GPU") << QStringList{QStringLiteral("--model"), QStringLiteral("sample:mlp"), QStringLiteral("--device"),
                                                       QStringLiteral("cuda")}
                                        << QStringLiteral("no_device") << QStringLiteral("no CUDA device");
}

void TestCli::badInput()
{
    QFETCH(QStringList, args);
    QFETCH(QString, code);
    QFETCH(QString, mentions);
    if (code == QLatin1String("no_device")) {
        const Run v = runCli({QStringLiteral("--version")}, 120000);
        if (!v.out.contains("no CUDA device"))
            QSKIP("this machine has a CUDA device; the no-device path cannot be exercised here");
    }
    QTemporaryDir dir;
    const Run r = runCli(QStringList{QStringLiteral("compile")} + args +
                             QStringList{QStringLiteral("--out"), dir.path(), QStringLiteral("--json")},
                         300000);
    QCOMPARE(r.exitCode, 1);
    // One line on stderr names what failed and what to do.
    const QByteArray line = lastLine(r.err);
    QVERIFY2(line.startsWith("aotstudio-cli: "), line.constData());
    QVERIFY2(line.contains(mentions.toUtf8()), line.constData());
    QVERIFY2(line.contains("Hint: "), line.constData());
    // --json still gives a machine-readable error on stdout.
    QCOMPARE(TestSupport::envelope(r.out).value(QLatin1String("ok")).toBool(true), false);
    const QJsonObject e = TestSupport::error(r.out);
    QCOMPARE(e.value(QLatin1String("code")).toString(), code);
    for (const char *k : {"stage", "message", "hint"})
        QVERIFY2(e.value(QLatin1String(k)).isString(), k);
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("model.pt2"))));
}

void TestCli::mismatchIsAnError()
{
    QTemporaryDir dir;
    const Run r = runCli({QStringLiteral("compile"), QStringLiteral("--model"),
                          fixture("nondeterministic_factory.py") + QStringLiteral(":make"), QStringLiteral("--out"), dir.path(),
                          QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 1);
    const QByteArray line = lastLine(r.err);
    QVERIFY2(line.contains("verify failed (mismatch)"), line.constData());
    QVERIFY2(line.contains("above the tolerance"), line.constData());
    QCOMPARE(TestSupport::error(r.out).value(QLatin1String("code")).toString(), QStringLiteral("mismatch"));
}

void TestCli::badCommandLine_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    const QStringList base{QStringLiteral("compile"), QStringLiteral("--model"), QStringLiteral("sample:mlp")};
    QTest::newRow("unwritable out") << base + QStringList{QStringLiteral("--out"), QStringLiteral("/proc/aotstudio-test")}
                                    << QStringLiteral("cannot create output directory '/proc/aotstudio-test'");
    QTest::newRow("out is a file") << base + QStringList{QStringLiteral("--out"), fixture("tiny_factory.py")}
                                   << QStringLiteral("cannot create output directory");
    QTest::newRow("nan tolerance") << base + QStringList{QStringLiteral("--tolerance"), QStringLiteral("nan")}
                                   << QStringLiteral("finite number >= 0");
    QTest::newRow("negative tolerance") << base + QStringList{QStringLiteral("--tolerance"), QStringLiteral("-1")}
                                        << QStringLiteral("finite number >= 0");
    QTest::newRow("zero runs") << base + QStringList{QStringLiteral("--runs"), QStringLiteral("0")} << QStringLiteral("--runs");
    QTest::newRow("negative max-seconds") << base + QStringList{QStringLiteral("--max-seconds"), QStringLiteral("-1")}
                                          << QStringLiteral("--max-seconds");
    QTest::newRow("empty model") << QStringList{QStringLiteral("compile"), QStringLiteral("--model"), QString()}
                                 << QStringLiteral("must not be empty");
    // Typos are caught by the command line, before the engine (and torch) start.
    QTest::newRow("device typo") << base + QStringList{QStringLiteral("--device"), QStringLiteral("cdua")}
                                 << QStringLiteral("'cdua' is not a device");
    // An unknown device was the engine's bad_request (exit 1) before; the command line knows the names.
    QTest::newRow("unknown device") << base + QStringList{QStringLiteral("--device"), QStringLiteral("tpu")}
                                    << QStringLiteral("'tpu' is not a device");
    QTest::newRow("dtype typo") << base + QStringList{QStringLiteral("--dtype"), QStringLiteral("fp33")}
                                << QStringLiteral("--dtype");
    QTest::newRow("recipe neither name nor file")
        << base + QStringList{QStringLiteral("--recipe"), QStringLiteral("/no/such/recipe.json")}
        << QStringLiteral("neither a recipe name");
    QTest::newRow("export buckets") << QStringList{
        QStringLiteral("export"),   QStringLiteral("--model"),    QStringLiteral("sample:mlp"),
        QStringLiteral("--out"),    QStringLiteral("/tmp/never"), QStringLiteral("--buckets"),
        QStringLiteral("batch=1,x")} << QStringLiteral("--buckets: cannot read 'batch=1,x'");
    QTest::newRow("export dynamic batch")
        << QStringList{QStringLiteral("export"), QStringLiteral("--model"),    QStringLiteral("sample:mlp"),
                       QStringLiteral("--out"),  QStringLiteral("/tmp/never"), QStringLiteral("--dynamic-batch"),
                       QStringLiteral("8:2")}
        << QStringLiteral("--dynamic-batch: cannot read '8:2'");
    QTest::newRow("export without a model")
        << QStringList{QStringLiteral("export"), QStringLiteral("--out"), QStringLiteral("/tmp/never")}
        << QStringLiteral("needs a model");
    QTest::newRow("export from a missing folder")
        << QStringList{QStringLiteral("export"), QStringLiteral("--from"), QStringLiteral("/nonexistent/job"),
                       QStringLiteral("--out"), QStringLiteral("/tmp/never")}
        << QStringLiteral("--from");
    QTest::newRow("quantize scheme") << QStringList{QStringLiteral("quantize"), QStringLiteral("--model"),
                                                    QStringLiteral("sample:mlp"), QStringLiteral("--schemes"),
                                                    QStringLiteral("fp32,int3")}
                                     << QStringLiteral("unknown quantization scheme 'int3'");
}

void TestCli::badCommandLine()
{
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    const Run r = runCli(args, 60000);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(mentions.toUtf8()), r.err.constData());
    QVERIFY(r.out.isEmpty());
    QVERIFY2(!r.err.contains("torch"), r.err.constData()); // nothing started

    // With --json the same line answers in the envelope: stage command_line, code usage.
    const Run j = runCli(args + QStringList{QStringLiteral("--json")}, 60000);
    QCOMPARE(j.exitCode, 2);
    QCOMPARE(TestSupport::envelope(j.out).value(QLatin1String("ok")).toBool(true), false);
    const QJsonObject e = TestSupport::error(j.out);
    QCOMPARE(e.value(QLatin1String("stage")).toString(), QStringLiteral("command_line"));
    QCOMPARE(e.value(QLatin1String("code")).toString(), QStringLiteral("usage"));
    QVERIFY2(e.value(QLatin1String("message")).toString().contains(mentions), j.out.constData());
}

void TestCli::busyOutputDirectory()
{
    QTemporaryDir dir;
    QProcess first;
    // --no-cache: a reused package would end the first compile before the second one starts.
    first.start(QStringLiteral(AOTSTUDIO_CLI_PATH),
                {QStringLiteral("compile"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                 QStringLiteral("--out"), dir.path(), QStringLiteral("--json"), QStringLiteral("--max-seconds"),
                 QStringLiteral("1"), QStringLiteral("--no-cache")});
    QByteArray firstErr;
    QTRY_VERIFY_WITH_TIMEOUT((firstErr += first.readAllStandardError()).contains("export:"), 120000);

    const Run second = runCli({QStringLiteral("compile"), QStringLiteral("--model"), QStringLiteral("sample:convnet"),
                               QStringLiteral("--out"), dir.path()}, 120000);
    QCOMPARE(second.exitCode, 1);
    QVERIFY2(lastLine(second.err).contains("is in use by another compile"), second.err.constData());

    QVERIFY(first.waitForFinished(600000));
    QCOMPARE(first.exitCode(), 0);
    // The refused compile touched nothing of the running one: its log, result and package agree.
    QFile log(dir.filePath(QStringLiteral("aotstudio.log")));
    QVERIFY(log.open(QIODevice::ReadOnly));
    QVERIFY(log.readAll().contains("\"type\":\"result\""));
    const QJsonObject result = readJson(dir.filePath(QStringLiteral("result.json")));
    QCOMPARE(result.value(QLatin1String("model")).toString(), QStringLiteral("sample:mlp"));
    QCOMPARE(QFileInfo(dir.filePath(QStringLiteral("model.pt2"))).size(),
             qint64(result.value(QLatin1String("package_bytes")).toDouble()));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("error.json"))));
}

void TestCli::ctrlCCancels()
{
    QTemporaryDir dir;
    QProcess p;
    // --no-cache: a reused package could finish before the Ctrl-C arrives.
    p.start(QStringLiteral(AOTSTUDIO_CLI_PATH),
            {QStringLiteral("compile"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
             QStringLiteral("--out"), dir.path(), QStringLiteral("--no-cache")});
    QByteArray err;
    QTRY_VERIFY_WITH_TIMEOUT((err += p.readAllStandardError()).contains("] export:"), 120000);
    ::kill(static_cast<pid_t>(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(600000)); // between stages: after the running stage ends
    err += p.readAllStandardError();
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 130);
    QVERIFY2(lastLine(err).contains("(cancelled)"), err.constData());
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("result.json"))));
    QCOMPARE(readJson(dir.filePath(QStringLiteral("error.json"))).value(QLatin1String("code")).toString(), QStringLiteral("cancelled"));
    QVERIFY(QDir(dir.path()).entryList({QStringLiteral(".partial-*")}, QDir::Files | QDir::Hidden).isEmpty());
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
