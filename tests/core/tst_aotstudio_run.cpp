// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-run's command line and refusals, on fake bundles (text files as packages): every case
// here stops before a package is loaded, or fails loading one that is not an AOTInductor package.
// The real round trip (export, then run) is tests/integration's export test.
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
};

Result runTool(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    QProcessEnvironment e = env;
    if (env == QProcessEnvironment::systemEnvironment())
        e.remove(QString::fromLatin1(B::kTrustEnvironment)); // the tests name their trust store
    p.setProcessEnvironment(e);
    p.start(QStringLiteral(AOTSTUDIO_RUN_PATH), args);
    if (!p.waitForFinished(120000)) {
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

/// A fake CPU bundle for this runtime's torch: buckets batch1 and batch4, not pad_safe; signed by
/// `key` when given.
void makeBundle(const fs::path &dir, const std::string &device = "cpu", const std::string &torch = AOTSTUDIO_TORCH_VERSION,
                const B::SigningKey *key = nullptr)
{
    writeText(dir / "packages/batch1.pt2", "not really a package\n");
    writeText(dir / "packages/batch4.pt2", "not really a package either\n");
    writeText(dir / "report/result.json", "{}\n");
    B::writeManifest(dir, json{{"model", "sample:fake"},
                               {"created", "2026-11-30T12:00:00Z"},
                               {"producer", "test"},
                               {"torch_version", torch},
                               {"device", device},
                               {"compute_capability", nullptr},
                               {"inputs", json::array({json{{"shape", json::array({"batch", 4})}, {"dtype", "float32"}}})},
                               {"outputs", json::array({json{{"shape", json::array({"batch", 2})}, {"dtype", "float32"}}})},
                               {"batch", {{"pad_safe", false}}},
                               {"buckets", json::array({json{{"name", "batch1"}, {"batch", 1}, {"package", "packages/batch1.pt2"}},
                                                        json{{"name", "batch4"}, {"batch", 4}, {"package", "packages/batch4.pt2"}}})},
                               {"signer", key ? key->signerJson() : json()}});
    if (key)
        B::signBundle(dir, *key);
}

/// The signature was accepted: aotstudio-run went on to load the fake package, which fails.
void expectPastSignature(const Result &r)
{
    QVERIFY2(r.exitCode == 1, qPrintable(QString("exit %1, stderr: %2").arg(r.exitCode).arg(r.err)));
    QVERIFY2(r.err.startsWith("aotstudio-run: failed: ") && r.err.contains("packages/batch1.pt2"), qPrintable(r.err));
}

/// Exit status 1 and exactly one line on stderr containing `needle`.
void expectRefused(const Result &r, const QString &needle)
{
    QVERIFY2(r.exitCode == 1, qPrintable(QString("exit %1, stderr: %2").arg(r.exitCode).arg(r.err)));
    const QString err = r.err.trimmed();
    QVERIFY2(err.contains(needle), qPrintable(err));
    QVERIFY2(!err.contains('\n'), qPrintable("more than one line: " + err));
    QVERIFY2(err.startsWith("aotstudio-run: "), qPrintable(err));
}

} // namespace

class TestAotStudioRun : public QObject {
    Q_OBJECT

private slots:
    void helpExitsZero();
    void usageErrorsExitTwo_data();
    void usageErrorsExitTwo();
    void missingBundle();
    void tamperedBundle();
    void truncatedZip();
    void noBucketForBatch();
    void incompatibleTorch();
    void cudaBundleWithoutCuda();
    void compatibilityKeyRefusals();
    void weightsThatDoNotBindAreRefused();
    void notAnAotiPackageFailsToLoad();
    void exportedProgramNamedAsSuch();
    void jsonRefusal();
    void invalidUtf8ManifestJson();
    void signedBundleWithTrustedKey();
    void foreignSignerRefused();
    void unsignedRefusedWithTrustStore();
    void invalidSignatureRefusedEvenIfAllowed();
    void trustStoreProblemsAreUsageErrors();
};

void TestAotStudioRun::helpExitsZero()
{
    const Result r = runTool({"--help"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("--batch") && r.out.contains("--runners") && r.out.contains("Exit status"), qPrintable(r.out));
}

void TestAotStudioRun::usageErrorsExitTwo_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("no bundle") << QStringList{};
    QTest::newRow("unknown option") << QStringList{"b", "--frobnicate"};
    QTest::newRow("batch 0") << QStringList{"b", "--batch", "0"};
    QTest::newRow("batch not a number") << QStringList{"b", "--batch", "many"};
    QTest::newRow("runners 0") << QStringList{"b", "--runners", "0"};
    QTest::newRow("negative iters") << QStringList{"b", "--iters", "-1"};
}

void TestAotStudioRun::usageErrorsExitTwo()
{
    QFETCH(QStringList, args);
    const Result r = runTool(args);
    QVERIFY2(r.exitCode == 2, qPrintable(QString("exit %1: %2").arg(r.exitCode).arg(r.err)));
    QVERIFY(!r.err.trimmed().isEmpty());
    QVERIFY(r.out.isEmpty());

    // With --json the same command line answers in the envelope too (stage command_line, code usage).
    const Result j = runTool(args + QStringList{"--json"});
    QCOMPARE(j.exitCode, 2);
    const json e = json::parse(j.out.toStdString());
    QCOMPARE(e.value("ok", true), false);
    QCOMPARE(e["error"].value("stage", ""), std::string("command_line"));
    QCOMPARE(e["error"].value("code", ""), std::string("usage"));
    QVERIFY(!e["error"].value("message", "").empty());
}

void TestAotStudioRun::missingBundle()
{
    QTemporaryDir tmp;
    expectRefused(runTool({tmp.filePath("no-such-bundle")}), "does not exist");
}

void TestAotStudioRun::tamperedBundle()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    makeBundle(dir);
    writeText(dir / "packages/batch4.pt2", "not really a package EITHER\n"); // same size, other bytes
    expectRefused(runTool({tmp.path(), "--batch", "4"}), "packages/batch4.pt2: SHA-256 differs (tampered or corrupt)");
}

void TestAotStudioRun::truncatedZip()
{
    QTemporaryDir tmp;
    const fs::path dir = fs::path(tmp.path().toStdString()) / "b";
    makeBundle(dir);
    const fs::path zip = fs::path(tmp.path().toStdString()) / "b.zip";
    B::zipDirectory(dir, zip);
    fs::resize_file(zip, fs::file_size(zip) - 30);
    expectRefused(runTool({QString::fromStdString(zip.string())}), "truncated or corrupt");
}

void TestAotStudioRun::noBucketForBatch()
{
    QTemporaryDir tmp;
    makeBundle(tmp.path().toStdString());
    const Result r = runTool({tmp.path(), "--batch", "3"});
    expectRefused(r, "no bucket for batch 3");
    QVERIFY2(r.err.contains("batch1 (batch 1)") && r.err.contains("batch4 (batch 4)"), qPrintable(r.err));
}

void TestAotStudioRun::incompatibleTorch()
{
    QTemporaryDir tmp;
    makeBundle(tmp.path().toStdString(), "cpu", "1.13.0");
    expectRefused(runTool({tmp.path()}), "torch 1.13.0");
}

void TestAotStudioRun::cudaBundleWithoutCuda()
{
    QTemporaryDir tmp;
    makeBundle(tmp.path().toStdString(), "cuda");
    const Result r = runTool({tmp.path()});
    // Without CUDA it is refused before loading; with CUDA the fake package fails to load.
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("no usable CUDA device") || r.err.contains("cannot load AOTInductor package"), qPrintable(r.err));
}

// Issue 37: a bundle whose compatibility key names CPU instructions this machine lacks (or another
// torch) is refused before anything is loaded, with code `incompatible` and both sides named.
void TestAotStudioRun::compatibilityKeyRefusals()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    makeBundle(dir);
    json m = B::loadManifest(dir).raw;
    m["compat"]
        = {{"version", 1},      {"torch", AOTSTUDIO_TORCH_VERSION},       {"device", "cpu"}, {"machine", nullptr},
           {"cpu_isa", "AVX2"}, {"cpu_features", {"no_such_instruction"}}};
    m.erase("files");
    B::writeManifest(dir, m);
    const Result r = runTool({tmp.path(), "--batch", "1", "--json"});
    expectRefused(r, "no_such_instruction");
    QVERIFY2(r.err.contains("built for torch") && r.err.contains("this runtime: torch"), qPrintable(r.err));
    const json envelope = json::parse(r.out.toStdString());
    QCOMPARE(envelope["error"].value("code", ""), std::string("incompatible"));

    m["compat"]["cpu_features"] = json::array();
    m["compat"]["torch"] = "1.13.0";
    B::writeManifest(dir, m);
    expectRefused(runTool({tmp.path(), "--batch", "1"}), "re-export it with torch");
}

// Issue 37: a package whose weights_config.json names a weight the manifest does not give is
// refused before its native code is loaded, naming the constant.
void TestAotStudioRun::weightsThatDoNotBindAreRefused()
{
    QTemporaryDir tmp;
    const fs::path dir = fs::path(tmp.path().toStdString()) / "bundle";
    makeBundle(dir);
    const fs::path tree = fs::path(tmp.path().toStdString()) / "tree";
    writeText(tree / "model/data/aotinductor/model/weights_config.json",
              R"({"fc.weight": ["weight_0", [2, 4], [4, 1], 0], "fc.bias": ["weight_1", [2], [1], 0]})");
    B::zipDirectory(tree, dir / "packages/batch1.pt2");
    writeText(dir / "weights/w0.bin", std::string(32, '\0'));
    json m = B::loadManifest(dir).raw;
    m["buckets"][0]["weights"] = {{"weight_0", {{"file", "weights/w0.bin"}, {"dtype", "float32"}, {"numel", 8}}}};
    m.erase("files");
    B::writeManifest(dir, m);
    expectRefused(runTool({QString::fromStdString(dir.string()), "--batch", "1"}),
                  "fc.bias: its file 'weight_1' is given no weight");
}

void TestAotStudioRun::notAnAotiPackageFailsToLoad()
{
    QTemporaryDir tmp;
    makeBundle(tmp.path().toStdString());
    const Result r = runTool({tmp.path(), "--batch", "1"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("packages/batch1.pt2"), qPrintable(r.err));
}

// Issue 34: a torch.export.save archive (.pt2 like an AOTInductor package) given as a bundle or as
// --package is named as such, with the command that compiles it, never LibTorch's "Failed to find
// a generated cpp file or so file".
void TestAotStudioRun::exportedProgramNamedAsSuch()
{
    const QString program = QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/tiny_program.pt2");
    for (const QStringList &args : {QStringList{program}, QStringList{"--package", program, "--input", program}}) {
        const Result r = runTool(args + QStringList{"--json"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("is a torch.export.save program")
                     && r.err.contains("aotstudio-cli compile --model " + program) && !r.err.contains("Failed to find"),
                 qPrintable(r.err));
        const json envelope = json::parse(r.out.toStdString());
        QCOMPARE(envelope["ok"].get<bool>(), false);
    }
}

void TestAotStudioRun::jsonRefusal()
{
    QTemporaryDir tmp;
    makeBundle(tmp.path().toStdString());
    const Result r = runTool({tmp.path(), "--batch", "7", "--json"});
    QCOMPARE(r.exitCode, 1);
    const json j = json::parse(r.out.toStdString());
    QCOMPARE(j.value("ok", true), false); // the envelope: {"ok": false, "error": {stage, code, message, hint}}
    QCOMPARE(j["error"].value("code", ""), std::string("refused"));
    QVERIFY(j["error"].value("message", "").find("no bucket for batch 7") != std::string::npos);
}

void TestAotStudioRun::invalidUtf8ManifestJson()
{
    // Issue 19: the manifest parse error quotes the bad bytes; --json aborted (SIGABRT, nlohmann
    // type_error.316) instead of refusing. Now: exit 1, one line on stderr, valid JSON on stdout.
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    makeBundle(dir);
    std::string text;
    {
        std::ifstream in(dir / "manifest.json", std::ios::binary);
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    const auto at = text.find("sample:fake");
    QVERIFY(at != std::string::npos);
    text.replace(at, 6, "\xff\xfe\n\xc3(");
    writeText(dir / "manifest.json", text);

    const Result r = runTool({tmp.path(), "--json"});
    expectRefused(r, "is not valid JSON");
    json j;
    try {
        j = json::parse(r.out.toStdString()); // strict: throws on invalid UTF-8 too
    } catch (const json::exception &e) {
        QFAIL(qPrintable(QString("stdout is not valid JSON (%1): %2").arg(e.what(), r.out)));
    }
    QCOMPARE(j.value("ok", true), false);
    QCOMPARE(j["error"].value("stage", ""), std::string("refused"));
    QCOMPARE(j["error"].value("code", ""), std::string("refused"));
    QVERIFY(j["error"].value("message", "").find("manifest.json") != std::string::npos);
}

void TestAotStudioRun::signedBundleWithTrustedKey()
{
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    B::generateKeyPair(root / "alice.key", root / "alice.key.pub");
    const B::SigningKey key = B::SigningKey::load(root / "alice.key");
    makeBundle(root / "b", "cpu", AOTSTUDIO_TORCH_VERSION, &key);
    const QString bundle = QString::fromStdString((root / "b").string());
    const QString pub = QString::fromStdString((root / "alice.key.pub").string());
    expectPastSignature(runTool({bundle, "--batch", "1", "--trust", pub}));
    // A folder of public keys, and $AOTSTUDIO_TRUST, are trust stores too.
    fs::create_directories(root / "keys");
    fs::copy_file(root / "alice.key.pub", root / "keys/alice.pub");
    expectPastSignature(runTool({bundle, "--batch", "1", "--trust", QString::fromStdString((root / "keys").string())}));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QString::fromLatin1(B::kTrustEnvironment), QString::fromStdString((root / "keys").string()));
    expectPastSignature(runTool({bundle, "--batch", "1"}, env));
    // And through a zip.
    B::zipDirectory(root / "b", root / "b.zip");
    expectPastSignature(runTool({QString::fromStdString((root / "b.zip").string()), "--batch", "1", "--trust", pub}));
}

void TestAotStudioRun::foreignSignerRefused()
{
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    B::generateKeyPair(root / "alice.key", root / "alice.key.pub");
    const std::string malloryId = B::generateKeyPair(root / "mallory.key", root / "mallory.key.pub");
    const B::SigningKey mallory = B::SigningKey::load(root / "mallory.key");
    makeBundle(root / "b", "cpu", AOTSTUDIO_TORCH_VERSION, &mallory);
    const QString bundle = QString::fromStdString((root / "b").string());
    const QString alicePub = QString::fromStdString((root / "alice.key.pub").string());
    expectRefused(runTool({bundle, "--batch", "1", "--trust", alicePub}),
                  QString::fromStdString("signed by key " + malloryId + ", which is not in the trust store"));
    expectPastSignature(runTool({bundle, "--batch", "1", "--trust", alicePub, "--allow-unsigned"}));
    const Result j = runTool({bundle, "--batch", "1", "--trust", alicePub, "--json"});
    QCOMPARE(j.exitCode, 1);
    QVERIFY2(json::parse(j.out.toStdString())["error"].value("message", "").find(malloryId) != std::string::npos,
             qPrintable(j.out));
    // The code the engine gives the same bundle (FORMAT.md "Error codes"): lifted by --allow-unsigned.
    QCOMPARE(json::parse(j.out.toStdString())["error"].value("code", ""), std::string("untrusted"));
    QCOMPARE(json::parse(j.out.toStdString())["error"].value("stage", ""), std::string("refused"));
}

void TestAotStudioRun::unsignedRefusedWithTrustStore()
{
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    B::generateKeyPair(root / "alice.key", root / "alice.key.pub");
    makeBundle(root / "b");
    const QString bundle = QString::fromStdString((root / "b").string());
    const QString pub = QString::fromStdString((root / "alice.key.pub").string());
    expectRefused(runTool({bundle, "--batch", "1", "--trust", pub}), "is unsigned");
    const Result j = runTool({bundle, "--batch", "1", "--trust", pub, "--json"});
    QCOMPARE(json::parse(j.out.toStdString())["error"].value("code", ""), std::string("untrusted"));
    expectPastSignature(runTool({bundle, "--batch", "1", "--trust", pub, "--allow-unsigned"}));
    // Without a trust store an unsigned bundle runs as before (every earlier test here relies on it).
    expectPastSignature(runTool({bundle, "--batch", "1"}));
}

void TestAotStudioRun::invalidSignatureRefusedEvenIfAllowed()
{
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    B::generateKeyPair(root / "alice.key", root / "alice.key.pub");
    const B::SigningKey key = B::SigningKey::load(root / "alice.key");
    makeBundle(root / "b", "cpu", AOTSTUDIO_TORCH_VERSION, &key);
    // A re-written manifest (one more bucket) under Alice's old signature.
    json m = B::loadManifest(root / "b").raw;
    m["producer"] = "someone else";
    const std::string sig = [&] {
        std::ifstream in(root / "b/manifest.sig", std::ios::binary);
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    }();
    m.erase("files");
    B::writeManifest(root / "b", m);
    writeText(root / "b/manifest.sig", sig);
    const QString bundle = QString::fromStdString((root / "b").string());
    const QString pub = QString::fromStdString((root / "alice.key.pub").string());
    expectRefused(runTool({bundle, "--batch", "1", "--trust", pub, "--allow-unsigned"}), "invalid signature");
    // Nothing lifts a broken signature: refused, never untrusted.
    const Result j = runTool({bundle, "--batch", "1", "--trust", pub, "--json"});
    QCOMPARE(json::parse(j.out.toStdString())["error"].value("code", ""), std::string("refused"));
}

void TestAotStudioRun::trustStoreProblemsAreUsageErrors()
{
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    makeBundle(root / "b");
    const QString bundle = QString::fromStdString((root / "b").string());
    const Result missing = runTool({bundle, "--trust", QString::fromStdString((root / "nowhere.pub").string())});
    QCOMPARE(missing.exitCode, 2);
    writeText(root / "bad.pub", "not a key\n");
    const Result bad = runTool({bundle, "--trust", QString::fromStdString((root / "bad.pub").string())});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("--trust") && bad.err.contains("bad.pub"), qPrintable(bad.err));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QString::fromLatin1(B::kTrustEnvironment), QString::fromStdString((root / "nowhere").string()));
    const Result fromEnv = runTool({bundle}, env);
    QCOMPARE(fromEnv.exitCode, 2);
    QVERIFY2(fromEnv.err.contains("AOTSTUDIO_TRUST") && fromEnv.err.contains("does not exist"), qPrintable(fromEnv.err));
}

QTEST_GUILESS_MAIN(TestAotStudioRun)
#include "tst_aotstudio_run.moc"
