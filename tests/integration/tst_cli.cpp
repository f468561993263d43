// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-cli end to end on the CPU: real torch.export + AOTInductor + LibTorch loader.
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run runCli(const QStringList &args, int timeoutMs = 600000)
{
    QProcess p;
    p.start(QStringLiteral(AOTSTUDIO_CLI_PATH), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

QByteArray lastLine(const QByteArray &text)
{
    const auto lines = text.trimmed().split('\n');
    return lines.isEmpty() ? QByteArray() : lines.last();
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
    void badInput_data();
    void badInput();
    void mismatchIsAnError();
};

void TestCli::version()
{
    const Run r = runCli({QStringLiteral("--version")}, 120000);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("torch 2."), r.out.constData());
    QVERIFY2(r.out.contains("device: cpu"), r.out.constData());
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
    const QJsonObject j = QJsonDocument::fromJson(r.out, &pe).object();
    QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString()));
    QVERIFY(r.err.contains("[100%]"));

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
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    QVERIFY(QFileInfo(j.value(QLatin1String("package")).toString()).isFile());
    QCOMPARE(j.value(QLatin1String("outputs")).toArray().first().toObject().value(QLatin1String("shape")).toArray().size(), 2);
    // The factory's print() went to stderr, not into the JSON on stdout.
    QVERIFY(r.err.contains("tiny_factory: building the model"));
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
    QTest::newRow("unknown device") << QStringList{QStringLiteral("--model"), QStringLiteral("sample:mlp"), QStringLiteral("--device"),
                                                   QStringLiteral("tpu")}
                                    << QStringLiteral("bad_request") << QStringLiteral("unknown device 'tpu'");
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
    const QJsonObject e = QJsonDocument::fromJson(r.out).object().value(QLatin1String("error")).toObject();
    QCOMPARE(e.value(QLatin1String("code")).toString(), code);
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
    QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QLatin1String("error")).toObject().value(QLatin1String("code")).toString(),
             QStringLiteral("mismatch"));
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
