// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-run-lite end to end (BUNDLE.md "The libtorch-free runtime"): one sample:mlp bundle
// exported with --runtime lite (compiled once for the whole file), run in a process where libtorch
// cannot be found, against eager's outputs; the same bundle in aotstudio-run (libtorch's symbols
// in its process); a package that calls a function the shim lacks, refused by name before loading.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Result {
    int code = -1;
    QString out, err;
    QJsonObject json() const
    {
        const auto lines = out.trimmed().split('\n');
        return QJsonDocument::fromJson(lines.isEmpty() ? QByteArray() : lines.last().toUtf8()).object();
    }
};

Result run(const QString &program, const QStringList &args,
           const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(), int timeoutMs = 600000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(timeoutMs))
        p.kill();
    p.waitForFinished(2000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

Result python(const QString &code)
{
    return run(QStringLiteral(AOTSTUDIO_PYTHON_EXECUTABLE), {QStringLiteral("-c"), code});
}

} // namespace

class TestAotStudioRunLite : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_bundle, m_input, m_eager;

    /// max |outputs in `saved` - eager's| as Python computes it.
    double maxDiff(const QString &saved)
    {
        const auto r = python(QStringLiteral("import torch; a = torch.load('%1'); b = torch.load('%2');"
                                             "print(float((a[0] - b).abs().max()))")
                                  .arg(saved, m_eager));
        if (r.code != 0)
            qWarning("%s", qPrintable(r.err));
        return r.code == 0 ? r.out.trimmed().toDouble() : 1e30;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_bundle = m_dir.filePath(QStringLiteral("mlp-lite"));
        m_input = m_dir.filePath(QStringLiteral("x.pt"));
        m_eager = m_dir.filePath(QStringLiteral("eager.pt"));
        // sample:mlp's example (batch 8) and eager's output on it.
        const auto r = python(QStringLiteral("import sys, torch; sys.path.insert(0, '%1');"
                                             "from aotstudio_frontend.samples import mlp; m, (x,) = mlp();"
                                             "torch.save(x, '%2'); torch.save(m(x).detach(), '%3')")
                                  .arg(QStringLiteral(AOTSTUDIO_SOURCE_DIR "/core/python"), m_input, m_eager));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto e = run(QStringLiteral(AOTSTUDIO_CLI_PATH),
                           {QStringLiteral("export"), QStringLiteral("--model"), QStringLiteral("sample:mlp"),
                            QStringLiteral("--runtime"), QStringLiteral("lite"), QStringLiteral("--out"), m_bundle,
                            QStringLiteral("--no-zip"), QStringLiteral("--cold-start-runs"), QStringLiteral("0")});
        QVERIFY2(e.code == 0, qPrintable(e.err.right(3000)));
    }

    void manifestNamesTheRuntime()
    {
        QFile f(m_bundle + QStringLiteral("/manifest.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto m = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(m.value(QStringLiteral("format_version")).toInt(), 3);
        const auto buckets = m.value(QStringLiteral("buckets")).toArray();
        QVERIFY(!buckets.isEmpty());
        for (const auto &b : buckets)
            QCOMPARE(b.toObject().value(QStringLiteral("runtime")).toString(), QStringLiteral("lite"));
        // The compatibility key names it too (core/bundle/compat.cpp makeCompat reads each bucket's
        // runtime): "...-lite-<first 8 hex digits of the model hash>".
        const auto compat = m.value(QStringLiteral("compat")).toObject();
        QCOMPARE(compat.value(QStringLiteral("runtime")).toString(), QStringLiteral("lite"));
        const QString key = compat.value(QStringLiteral("key")).toString();
        const QString model = compat.value(QStringLiteral("model_sha256")).toString();
        QVERIFY2(model.size() == 64, qPrintable(model));
        QVERIFY2(key.endsWith(QStringLiteral("-lite-") + model.left(8)), qPrintable(key));
    }

    void runsWithoutLibtorch()
    {
        // No libtorch to be found: no LD_LIBRARY_PATH, and the runtime's own RUNPATH has none.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("LD_LIBRARY_PATH"));
        env.remove(QStringLiteral("LD_PRELOAD"));
        env.insert(QStringLiteral("AOTSTUDIO_CACHE_DIR"), m_dir.filePath(QStringLiteral("cache")));
        const QString saved = m_dir.filePath(QStringLiteral("lite-out.pt"));
        const auto r = run(QStringLiteral(AOTSTUDIO_RUN_LITE_PATH),
                           {m_bundle, QStringLiteral("--input"), m_input, QStringLiteral("--save-outputs"), saved,
                            QStringLiteral("--iters"), QStringLiteral("3"), QStringLiteral("--json")},
                           env);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto result = r.json().value(QStringLiteral("result")).toObject();
        QCOMPARE(result.value(QStringLiteral("runtime")).toString(), QStringLiteral("lite"));
        const auto libs
            = result.value(QStringLiteral("cold_start")).toObject().value(QStringLiteral("libraries")).toObject();
        QCOMPARE(libs.value(QStringLiteral("libtorch")).toBool(true),
                 false); // /proc/self/maps: no libtorch, c10, Python
        QVERIFY(libs.value(QStringLiteral("count")).toInt() > 0);
        const double diff = maxDiff(saved);
        QVERIFY2(diff <= 1e-4, qPrintable(QStringLiteral("lite output differs from eager by %1").arg(diff)));
    }

    void anotherLayoutIsRefusedOrCopied()
    {
        // The example's values in a transposed layout (strides (1, 8) for [8, 16]): the package
        // indexes its input with the strides it was compiled for, so this must not run as it is
        // (issue 38: the lite runtime admits inputs as aotstudio-run does, bundle/guards.h).
        const QString xt = m_dir.filePath(QStringLiteral("xt.pt"));
        const auto p
            = python(QStringLiteral("import torch; x = torch.load('%1'); torch.save(x.t().contiguous().t(), '%2')")
                         .arg(m_input, xt));
        QVERIFY2(p.code == 0, qPrintable(p.err));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("AOTSTUDIO_CACHE_DIR"), m_dir.filePath(QStringLiteral("cache")));
        const auto r
            = run(QStringLiteral(AOTSTUDIO_RUN_LITE_PATH),
                  {m_bundle, QStringLiteral("--input"), xt, QStringLiteral("--iters"), QStringLiteral("0")}, env);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("refused")) && r.err.contains(QStringLiteral("has strides (1, 8)"))
                     && r.err.contains(QStringLiteral("(contiguous)")),
                 qPrintable(r.err));
        const QString saved = m_dir.filePath(QStringLiteral("lite-converted.pt"));
        const auto c = run(QStringLiteral(AOTSTUDIO_RUN_LITE_PATH),
                           {m_bundle, QStringLiteral("--input"), xt, QStringLiteral("--convert-layout"),
                            QStringLiteral("--save-outputs"), saved, QStringLiteral("--iters"), QStringLiteral("0")},
                           env);
        QVERIFY2(c.code == 0, qPrintable(c.err));
        QVERIFY(maxDiff(saved) <= 1e-4);
    }

    void libtorchRuntimeRunsItToo()
    {
        // aotstudio-run's process has libtorch_cpu's aoti_torch_* in its global scope: the lite
        // package binds to them (BUNDLE.md), with the same result.
        const QString saved = m_dir.filePath(QStringLiteral("run-out.pt"));
        const auto r = run(QStringLiteral(AOTSTUDIO_RUN_PATH),
                           {m_bundle, QStringLiteral("--bucket"), QStringLiteral("default"), QStringLiteral("--input"),
                            m_input, QStringLiteral("--save-outputs"), saved});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(maxDiff(saved) <= 1e-4);
    }

    void refusesAMissingFunction()
    {
        // A "package" whose model calls a convolution the shim does not provide.
        const QString src = m_dir.filePath(QStringLiteral("m.c"));
        QFile c(src);
        QVERIFY(c.open(QIODevice::WriteOnly));
        c.write("int aoti_torch_cpu_convolution(void); int aoti_torch_empty_strided(void);\n"
                "int use(void) { return aoti_torch_cpu_convolution() + aoti_torch_empty_strided(); }\n");
        c.close();
        const QString model = m_dir.filePath(QStringLiteral("fake/fake/data/aotinductor/model"));
        QVERIFY(QDir().mkpath(model));
        const auto cc = run(QStringLiteral("cc"),
                            {QStringLiteral("-shared"), QStringLiteral("-fPIC"), src, QStringLiteral("-o"),
                             model + QStringLiteral("/m.so")});
        if (cc.code != 0)
            QSKIP("no C compiler to build the fake package");
        const QString pt2 = m_dir.filePath(QStringLiteral("fake.pt2"));
        const auto zip
            = python(QStringLiteral("import shutil; shutil.make_archive('%1', 'zip', '%2')")
                         .arg(m_dir.filePath(QStringLiteral("fake")), m_dir.filePath(QStringLiteral("fake"))));
        QVERIFY2(zip.code == 0, qPrintable(zip.err));
        QVERIFY(QFile::rename(m_dir.filePath(QStringLiteral("fake.zip")), pt2));
        const auto check = run(QStringLiteral(AOTSTUDIO_RUN_LITE_PATH), {QStringLiteral("--check"), pt2});
        QCOMPARE(check.code, 0);
        const auto res = check.json().value(QStringLiteral("result")).toObject();
        QCOMPARE(res.value(QStringLiteral("missing")).toArray(),
                 QJsonArray{QStringLiteral("aoti_torch_cpu_convolution")});
        QCOMPARE(res.value(QStringLiteral("runs")).toBool(true), false);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("AOTSTUDIO_CACHE_DIR"), m_dir.filePath(QStringLiteral("cache")));
        const auto r = run(QStringLiteral(AOTSTUDIO_RUN_LITE_PATH),
                           {QStringLiteral("--package"), pt2, QStringLiteral("--input"), m_input}, env);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("aoti_torch_cpu_convolution"))
                     && !r.err.contains(QStringLiteral("aoti_torch_empty_strided")) && r.err.trimmed().count('\n') == 0,
                 qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestAotStudioRunLite)
#include "tst_aotstudio_run_lite.moc"
