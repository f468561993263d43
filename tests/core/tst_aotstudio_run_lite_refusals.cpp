// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-run-lite's pre-load checks on fake bundles (text files as packages), the ones
// aotstudio-run makes (app/run/bundlerun.cpp checkRunsHere): the compatibility key against this
// machine and the lite runtime, then the shared weights' binding. A refused bundle stops before
// its package is touched; one that passes goes on to load the fake package, which fails (stage
// `failed`), so "refused" and "got past the checks" are told apart. The real round trip is
// tst_aotstudio_run_lite (slow). Each run of aotstudio-run-lite takes milliseconds: unit tier.
#include "bundle/bundle.h"
#include "bundle/signing.h"

#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using nlohmann::json;
namespace fs = std::filesystem;
namespace B = AotStudio::Bundle;

namespace {

struct Result {
    int exitCode = -1;
    QString out;
    QString err;
    json envelope() const { return json::parse(out.trimmed().toStdString(), nullptr, false); }
};

Result runLite(const QStringList &args, const QString &cacheDir)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QString::fromLatin1(B::kTrustEnvironment));
    env.insert(QStringLiteral("AOTSTUDIO_CACHE_DIR"), cacheDir);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(AOTSTUDIO_RUN_LITE_PATH), args);
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

void writeText(const fs::path &path, const std::string &text)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

/// A fake CPU bundle with buckets batch1 and batch4 of the given runtimes ("" leaves the field
/// out: libtorch) and a compatibility key built for this machine (no CPU features, runtime as
/// the buckets make it), torch `torch`.
json makeBundle(const fs::path &dir, const std::string &runtime1, const std::string &runtime4,
                const std::string &torch = "2.14.1")
{
    writeText(dir / "packages/batch1.pt2", "not really a package\n");
    writeText(dir / "packages/batch4.pt2", "not really a package either\n");
    writeText(dir / "report/result.json", "{}\n");
    json b1{{"name", "batch1"}, {"batch", 1}, {"package", "packages/batch1.pt2"}};
    json b4{{"name", "batch4"}, {"batch", 4}, {"package", "packages/batch4.pt2"}};
    if (!runtime1.empty())
        b1["runtime"] = runtime1;
    if (!runtime4.empty())
        b4["runtime"] = runtime4;
    const std::string r1 = runtime1.empty() ? "libtorch" : runtime1, r4 = runtime4.empty() ? "libtorch" : runtime4;
    const json m{{"model", "sample:fake"},
                 {"created", "2026-11-30T12:00:00Z"},
                 {"producer", "test"},
                 {"torch_version", torch},
                 {"device", "cpu"},
                 {"compute_capability", nullptr},
                 {"inputs", json::array({json{{"shape", json::array({"batch", 4})}, {"dtype", "float32"}}})},
                 {"outputs", json::array({json{{"shape", json::array({"batch", 2})}, {"dtype", "float32"}}})},
                 {"batch", {{"pad_safe", false}}},
                 {"buckets", json::array({b1, b4})},
                 {"compat",
                  {{"version", 1},
                   {"torch", torch},
                   {"device", "cpu"},
                   {"machine", nullptr},
                   {"cpu_isa", "AVX2"},
                   {"cpu_features", json::array()},
                   {"runtime", r1 == r4 ? r1 : "mixed"}}}};
    B::writeManifest(dir, m);
    return B::loadManifest(dir).raw;
}

/// Refused before loading: exit 1, one line on stderr naming `needle`, the envelope's `code`.
void expectRefused(const Result &r, const QString &needle, const std::string &code)
{
    QVERIFY2(r.exitCode == 1, qPrintable(QString("exit %1, stderr: %2").arg(r.exitCode).arg(r.err)));
    const QString err = r.err.trimmed();
    QVERIFY2(err.startsWith("aotstudio-run-lite: refused: "), qPrintable(err));
    QVERIFY2(err.contains(needle), qPrintable(err));
    QVERIFY2(!err.contains('\n'), qPrintable("more than one line: " + err));
    const json e = r.envelope();
    QVERIFY2(e.is_object() && e.value("ok", true) == false, qPrintable(r.out));
    QCOMPARE(e["error"].value("code", ""), code);
}

/// Past the pre-load checks: loading the fake package failed.
void expectPastChecks(const Result &r)
{
    QVERIFY2(r.exitCode == 1, qPrintable(QString("exit %1, stderr: %2").arg(r.exitCode).arg(r.err)));
    QVERIFY2(r.err.startsWith("aotstudio-run-lite: failed: ") && r.err.contains("packages/batch"), qPrintable(r.err));
}

} // namespace

class TestAotStudioRunLiteRefusals : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString cache() const { return m_tmp.filePath(QStringLiteral("cache")); }
    QString bundle(const QString &name) const { return m_tmp.filePath(name); }
    Result run(const QString &b, QStringList args)
    {
        args.prepend(b);
        args << QStringLiteral("--allow-unsigned") << QStringLiteral("--iters") << QStringLiteral("0")
             << QStringLiteral("--json");
        return runLite(args, cache());
    }

private slots:
    // A compatibility key naming a CPU instruction no CPU has: refused with code incompatible,
    // both sides named, before the package is read.
    void cpuFeatureRefusedBeforeLoading()
    {
        const fs::path dir = bundle("cpu").toStdString();
        json m = makeBundle(dir, "lite", "lite");
        m["compat"]["cpu_features"] = {"avx2", "no_such_instruction"};
        m.erase("files");
        B::writeManifest(dir, m);
        const Result r = run(QString::fromStdString(dir.string()), {"--batch", "1"});
        expectRefused(r, "no_such_instruction", "incompatible");
        QVERIFY2(r.err.contains("built for torch") && r.err.contains("runtime lite"), qPrintable(r.err));
        std::error_code ec; // nothing extracted into the package cache
        QVERIFY(fs::is_empty(fs::path(cache().toStdString()) / "packages", ec) || ec);
    }

    // Lite packages bind to the shim, not to a torch: a lite bundle from another torch passes the
    // key (and fails here only at loading its fake package); a libtorch one is refused by name.
    void torchNotComparedForLitePackages()
    {
        const fs::path dir = bundle("torch").toStdString();
        makeBundle(dir, "lite", "lite", "1.13.0");
        expectPastChecks(run(QString::fromStdString(dir.string()), {"--batch", "1"}));
    }

    void libtorchBundleRefusedNamingItsBuckets()
    {
        const fs::path dir = bundle("libtorch").toStdString();
        makeBundle(dir, "", "");
        const Result r = run(QString::fromStdString(dir.string()), {"--batch", "1"});
        expectRefused(r, "its buckets batch1, batch4 were exported for the libtorch runtime", "incompatible");
        QVERIFY2(r.err.contains("aotstudio-run"), qPrintable(r.err));
    }

    // A mixed bundle: the lite bucket runs, the libtorch one is refused naming the buckets that
    // need libtorch and the lite ones to choose instead.
    void mixedBundleRunsItsLiteBuckets()
    {
        const fs::path dir = bundle("mixed").toStdString();
        makeBundle(dir, "lite", "", "1.13.0");
        expectPastChecks(run(QString::fromStdString(dir.string()), {"--batch", "1"}));
        const Result r = run(QString::fromStdString(dir.string()), {"--batch", "4"});
        expectRefused(r, "buckets needing libtorch: batch4", "incompatible");
        QVERIFY2(r.err.contains("bucket batch4 was exported for the libtorch runtime")
                     && r.err.contains("lite buckets here: batch1 (batch 1)"),
                 qPrintable(r.err));
    }

    // Shared weights that do not bind: refused before the package's native code is loaded,
    // naming the constant (BUNDLE.md "Weights that bind or refuse").
    void weightsThatDoNotBindAreRefused()
    {
        const fs::path dir = bundle("weights").toStdString();
        json m = makeBundle(dir, "lite", "lite");
        const fs::path tree = fs::path(m_tmp.path().toStdString()) / "tree";
        writeText(tree / "model/data/aotinductor/model/weights_config.json",
                  R"({"fc.weight": ["weight_0", [2, 4], [4, 1], 0], "fc.bias": ["weight_1", [2], [1], 0]})");
        B::zipDirectory(tree, dir / "packages/batch1.pt2");
        writeText(dir / "weights/w0.bin", std::string(32, '\0'));
        m["buckets"][0]["weights"] = {{"weight_0", {{"file", "weights/w0.bin"}, {"dtype", "float32"}, {"numel", 8}}}};
        m.erase("files");
        B::writeManifest(dir, m);
        expectRefused(run(QString::fromStdString(dir.string()), {"--batch", "1"}),
                      "fc.bias: its file 'weight_1' is given no weight", "refused");
    }
};

QTEST_GUILESS_MAIN(TestAotStudioRunLiteRefusals)
#include "tst_aotstudio_run_lite_refusals.moc"
