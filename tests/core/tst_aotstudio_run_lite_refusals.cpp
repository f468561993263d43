// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-run-lite's pre-load checks on fake bundles (text files as packages), the ones
// aotstudio-run makes (core/serve/bundlerun.cpp checkRunsHere): the compatibility key against this
// machine and the lite runtime, then the shared weights' binding. A refused bundle stops before
// its package is touched; one that passes goes on to load the fake package, which fails (stage
// `failed`), so "refused" and "got past the checks" are told apart. Then the input admission the
// runtime shares with aotstudio-run (bundle/guards.h InputAdmission) on a stand-in package .so
// (tests/fixtures/lite/fake_package.cpp: reads its input with the strides it was compiled for, as
// generated code does) and torch.save files of one matrix in several layouts
// (tests/fixtures/lite/make_inputs.py): another layout, a misaligned storage offset or another
// dtype is refused naming the input and both sides, or copied with --convert-layout, and every
// accepted run gives the same outputs. The real round trip is tst_aotstudio_run_lite (slow). Each
// run of aotstudio-run-lite takes milliseconds: unit tier.
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

const QString kInputs = QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/lite/");

/// The stand-in package as `dir`/model.pt2 (its .so at <archive>/data/aotinductor/model/, as
/// aoti_compile_and_package writes it) with guards for x: float32 [4, 3], strides (3, 1).
json makeFakePackage(const fs::path &dir)
{
    const fs::path model = dir / "tree/fake/data/aotinductor/model";
    fs::create_directories(model);
    fs::copy_file(AOTSTUDIO_LITE_FAKE_PACKAGE, model / "fake.so", fs::copy_options::overwrite_existing);
    B::zipDirectory(dir / "tree", dir / "model.pt2");
    const json guards = json::parse(R"({"format": "aotstudio.guards", "version": 2, "dynamic": false,
        "inputs": [{"index": 0, "name": "x", "dtype": "float32", "rank": 2,
                    "dims": [{"dim": 0, "size": 4}, {"dim": 1, "size": 3}], "strides": [3, 1], "layout": "contiguous"}],
        "symbols": [], "relations": [], "checks": [], "assertions": []})");
    writeText(dir / "model.guards.json", guards.dump());
    return guards;
}

/// The outputs of the stand-in on the fixtures' matrix x[i, j] = 4 * j + i: y[i] = sum_j x[i, j] * (j + 1).
std::vector<double> expectedOutputs()
{
    std::vector<double> y;
    for (int i = 0; i < 4; ++i) {
        double acc = 0;
        for (int j = 0; j < 3; ++j)
            acc += (4.0 * j + i) * (j + 1);
        y.push_back(acc);
    }
    return y;
}

/// Ran: exit 0 and the first output's values are the stand-in's on the fixtures' matrix.
void expectRight(const Result &r)
{
    QVERIFY2(r.exitCode == 0, qPrintable(QString("exit %1, stderr: %2").arg(r.exitCode).arg(r.err)));
    const json e = r.envelope();
    QVERIFY2(e.is_object() && e.value("ok", false), qPrintable(r.out));
    const auto first = e["result"]["outputs"].at(0)["first"].get<std::vector<double>>();
    QCOMPARE(first, expectedOutputs());
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

    // --package (export's verify, a sweep's isolated call): the package indexes its input with the
    // strides it was compiled for, so a transposed matrix of the right shape read as it is gives
    // other numbers without an error. Refused, naming the input and both layouts; with
    // --convert-layout copied into (3, 1), reported, and right.
    void packageInputInAnotherLayout()
    {
        const fs::path dir = fs::path(m_tmp.path().toStdString()) / "pkg-layout";
        makeFakePackage(dir);
        const QString pt2 = QString::fromStdString((dir / "model.pt2").string());
        expectRight(runLite({"--package", pt2, "--input", kInputs + "contiguous.pt", "--json"}, cache()));

        const Result r = runLite({"--package", pt2, "--input", kInputs + "transposed.pt", "--json"}, cache());
        expectRefused(r, "input 0 (x) has strides (1, 4)", "refused");
        QVERIFY2(r.err.contains("the package was compiled for strides (3, 1) (contiguous) at shape (4, 3)")
                     && r.err.contains("aotstudio-run-lite --convert-layout"),
                 qPrintable(r.err));

        const Result c
            = runLite({"--package", pt2, "--input", kInputs + "transposed.pt", "--convert-layout", "--json"}, cache());
        expectRight(c);
        const json conv = c.envelope()["result"]["layout_conversions"];
        QCOMPARE(conv.size(), std::size_t(1));
        QCOMPARE(conv[0]["from"].get<std::vector<std::int64_t>>(), (std::vector<std::int64_t>{1, 4}));
        QCOMPARE(conv[0]["to"].get<std::vector<std::int64_t>>(), (std::vector<std::int64_t>{3, 1}));
    }

    // A storage offset: honoured where the first element stays 16-byte aligned (offset 4 floats);
    // refused where it does not (offset 1: Inductor's ALIGNMENT), or copied with --convert-layout.
    void packageInputWithAStorageOffset()
    {
        const fs::path dir = fs::path(m_tmp.path().toStdString()) / "pkg-offset";
        makeFakePackage(dir);
        const QString pt2 = QString::fromStdString((dir / "model.pt2").string());
        expectRight(runLite({"--package", pt2, "--input", kInputs + "offset4.pt", "--json"}, cache()));
        const Result r = runLite({"--package", pt2, "--input", kInputs + "offset1.pt", "--json"}, cache());
        expectRefused(r, "input 0 (x) starts 1 elements into its storage, at an address not aligned to 16 bytes",
                      "refused");
        expectRight(
            runLite({"--package", pt2, "--input", kInputs + "offset1.pt", "--convert-layout", "--json"}, cache()));
    }

    // Another dtype of the same shape: float64 bytes read as float32 are garbage. Refused, also
    // with --convert-layout (a cast is not a layout copy).
    void packageInputOfAnotherDtype()
    {
        const fs::path dir = fs::path(m_tmp.path().toStdString()) / "pkg-dtype";
        makeFakePackage(dir);
        const QString pt2 = QString::fromStdString((dir / "model.pt2").string());
        for (const QString &extra : {QString(), QStringLiteral("--convert-layout")}) {
            QStringList args{"--package", pt2, "--input", kInputs + "float64.pt", "--json"};
            if (!extra.isEmpty())
                args << extra;
            expectRefused(runLite(args, cache()), "input 0 (x) is float64; the package was compiled for float32",
                          "refused");
        }
    }

    // A bundle's bucket: the file's tensor is admitted by the bucket's guards as aotstudio-run
    // admits it (it used to be copied into a fresh contiguous tensor whatever the package was
    // compiled for). Refused without --convert-layout, right with it.
    void bundleInputInAnotherLayout()
    {
        const fs::path dir = bundle("layout").toStdString();
        json m = makeBundle(dir, "lite", "lite");
        const json guards = makeFakePackage(fs::path(m_tmp.path().toStdString()) / "bundle-pkg");
        fs::copy_file(fs::path(m_tmp.path().toStdString()) / "bundle-pkg/model.pt2", dir / "packages/batch4.pt2",
                      fs::copy_options::overwrite_existing);
        m["inputs"] = json::array({json{{"name", "x"}, {"shape", json::array({"batch", 3})}, {"dtype", "float32"}}});
        m["outputs"] = json::array({json{{"shape", json::array({"batch"})}, {"dtype", "float32"}}});
        m["buckets"][1]["guards"] = guards;
        m.erase("files");
        B::writeManifest(dir, m);
        const QString b = QString::fromStdString(dir.string());
        expectRight(run(b, {"--input", kInputs + "contiguous.pt"}));
        const Result r = run(b, {"--input", kInputs + "transposed.pt"});
        expectRefused(r, "bucket batch4: the inputs do not fit package", "refused");
        QVERIFY2(r.err.contains("input 0 (x) has strides (1, 4)"), qPrintable(r.err));
        expectRight(run(b, {"--input", kInputs + "transposed.pt", "--convert-layout"}));
        // Generated inputs are drawn for the package's layout: never refused for it.
        QCOMPARE(run(b, {"--batch", "4"}).exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(TestAotStudioRunLiteRefusals)
#include "tst_aotstudio_run_lite_refusals.moc"
