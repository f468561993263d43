// SPDX-License-Identifier: GPL-3.0-or-later
// core/bundle against fake bundles in temporary directories: small text files stand in for the
// packages, so no torch is needed. Format: core/runtime/BUNDLE.md.
#include "bundle/bundle.h"
#include "bundle/inspect.h"
#include "bundle/packagecache.h"
#include "bundle/text.h"
#include "bundle/torchsave.h"
#include "bundle/weights.h"

#include <QtTest/QtTest>

#include <nlohmann/json.hpp>
#include <zip.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

using namespace AotStudio::Bundle;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kFixtures = AOTSTUDIO_FIXTURES_DIR;

void writeText(const fs::path &path, const std::string &text)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::string readText(const fs::path &path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// Manifest fields as export writes them, without "files".
json baseManifest(bool padSafe = true, const std::string &device = "cpu")
{
    return json{{"format", "aotstudio.bundle"},
                {"format_version", 1},
                {"created", "2026-11-30T12:00:00Z"},
                {"producer", "aotstudio test"},
                {"model", "sample:fake"},
                {"torch_version", "2.14.1+cu130"},
                {"cuda_version", "13.0"},
                {"device", device},
                {"compute_capability", nullptr},
                {"quantization", "none"},
                {"inputs", json::array({json{{"shape", json::array({"batch", 3, 8, 8})}, {"dtype", "float32"}}})},
                {"outputs", json::array({json{{"shape", json::array({"batch", 10})}, {"dtype", "float32"}}})},
                {"batch", {{"pad_safe", padSafe}}},
                {"buckets", json::array({json{{"name", "batch1"}, {"batch", 1}, {"package", "packages/batch1.pt2"}},
                                         json{{"name", "batch4"}, {"batch", 4}, {"package", "packages/batch4.pt2"}}})}};
}

/// A complete fake bundle under `dir`, with its manifest written by writeManifest().
void makeBundle(const fs::path &dir, json manifest = baseManifest())
{
    writeText(dir / "packages/batch1.pt2", "package for batch 1\n");
    writeText(dir / "packages/batch4.pt2", std::string(5000, 'x') + "package for batch 4\n");
    writeText(dir / "report/result.json", "{\"ok\": true}\n");
    writeText(dir / "graphs/000_export.json", "{}\n");
    writeManifest(dir, std::move(manifest));
}

bool anyContains(const std::vector<Problem> &problems, const std::string &path, const std::string &what)
{
    for (const auto &p : problems)
        if (p.path == path && p.message.find(path) != std::string::npos && p.message.find(what) != std::string::npos)
            return true;
    return false;
}

std::string listProblems(const std::vector<Problem> &problems)
{
    std::string s;
    for (const auto &p : problems)
        s += p.message + " | ";
    return s;
}

/// A zip with the given entries, written with libzip directly (names not checked), for attacks.
void makeRawZip(const fs::path &zipPath, const std::vector<std::pair<std::string, std::string>> &entries)
{
    int err = 0;
    zip_t *z = zip_open(zipPath.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    QVERIFY(z);
    for (const auto &[name, data] : entries) {
        zip_source_t *src = zip_source_buffer(z, data.data(), data.size(), 0);
        QVERIFY(src);
        QVERIFY(zip_file_add(z, name.c_str(), src, ZIP_FL_OVERWRITE) >= 0);
    }
    QCOMPARE(zip_close(z), 0);
}

Manifest manifestFrom(json j)
{
    if (!j.contains("files"))
        j["files"] = json::object();
    return parseManifest(j, "test");
}

} // namespace

class TestBundle : public QObject {
    Q_OBJECT

private slots:
    void torchSaveChecks_data();
    void torchSaveChecks();
    void pickleWalk_data();
    void pickleWalk();
    void sha256KnownVectors();
    void writeManifestThenVerifyIsClean();
    void newManifestFromDraft();
    void flippedByteNamesTheFile();
    void truncatedFileIsASizeProblem();
    void missingListedFile();
    void unlistedExtraFile();
    void symlinkIsAProblem();
    void openBundleThrowsWithEveryProblem();
    void writeManifestRefusesSymlinks();
    void parseManifestRefusals_data();
    void parseManifestRefusals();
    void zipRoundTrip();
    void zipOfTopLevelDirectory();
    void truncatedZipRefused();
    void zipEntryEscapingRefused_data();
    void zipEntryEscapingRefused();
    void tamperedZipRefused();
    void chooseBucketTable_data();
    void chooseBucketTable();
    void chooseBucketErrorNamesBatchAndBuckets();
    void checkCompatibleTable_data();
    void checkCompatibleTable();
    void inspectPt2Fixtures();
    void batchRuleAndUncoveredSizes();
    void blockVariantNames_data();
    void blockVariantNames();
    void inspectNamesDynamicDimensions();
    void inspectBundleReportsProblems();
    void validUtf8ReplacesOnlyBadBytes();
    void invalidUtf8ManifestGivesValidJsonError();
    void invalidUtf8NamesInspectAsValidJson();
    void mistypedPt2RecordsInspect();
    void manifestOverLimitRefused();
    void zipOverLimitsRefused_data();
    void zipOverLimitsRefused();
    void staleTempDirsRemoved();
    void shareWeightsStoresEachWeightOnce();
    void manifestBucketWeights();
    void packageCacheExtractsOnce();
    void hashCacheSkipsOnlyUnchangedSettledFiles();
    void packageCacheRebuildsDamagedFolder();
};

void TestBundle::sha256KnownVectors()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const fs::path dir = tmp.path().toStdString();
    writeText(dir / "empty", "");
    writeText(dir / "abc", "abc");
    writeText(dir / "big", std::string(1500000, 'a')); // more than one 1 MiB read
    QCOMPARE(sha256File(dir / "empty"), std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    QCOMPARE(sha256File(dir / "abc"), std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    QCOMPARE(sha256File(dir / "big"), std::string("f30207a92765493dcdd80a5a2b541b3f67073c413676ab523b30c4feb12fac90"));
    try {
        sha256File(dir / "nope");
        QFAIL("no exception for a missing file");
    } catch (const BundleError &e) {
        QVERIFY(std::string(e.what()).find("nope") != std::string::npos);
    }
}

void TestBundle::writeManifestThenVerifyIsClean()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    makeBundle(dir);
    const Manifest m = loadManifest(dir);
    QCOMPARE(m.format, std::string(kFormat));
    QCOMPARE(m.formatVersion, 1);
    QCOMPARE(m.model, std::string("sample:fake"));
    QCOMPARE(m.device, std::string("cpu"));
    QVERIFY(m.computeCapability.empty());
    QVERIFY(m.padSafe);
    QCOMPARE(m.inputs.size(), std::size_t(1));
    QCOMPARE(m.inputs[0].shape, (std::vector<long long>{kBatchDim, 3, 8, 8}));
    QCOMPARE(m.inputs[0].withBatch(4), (std::vector<long long>{4, 3, 8, 8}));
    QCOMPARE(m.buckets.size(), std::size_t(2));
    QCOMPARE(m.files.size(), std::size_t(4)); // manifest.json does not list itself
    QVERIFY(!m.files.count("manifest.json"));
    QCOMPARE(m.files.at("packages/batch1.pt2").bytes, std::uintmax_t(20));
    QCOMPARE(m.files.at("packages/batch1.pt2").sha256, sha256File(dir / "packages/batch1.pt2"));
    const auto problems = verify(dir, m);
    QVERIFY2(problems.empty(), listProblems(problems).c_str());
    // Written atomically: no temporary file left next to it.
    for (const auto &e : fs::directory_iterator(dir))
        QVERIFY2(e.path().filename().string().find("partial") == std::string::npos, e.path().c_str());
    // Rewriting (e.g. after adding report/cold_start.json) lists the new file.
    writeText(dir / "report/cold_start.json", "{}");
    writeManifest(dir, baseManifest());
    QVERIFY(verify(dir, loadManifest(dir)).empty());
    QCOMPARE(loadManifest(dir).files.size(), std::size_t(5));
}

void TestBundle::newManifestFromDraft()
{
    // The one builder export and profile share: batch dimension, unbatched inputs, names, the
    // format version that shared weights need, the signer; and the result parses.
    ManifestDraft d;
    d.created = "2026-12-02T00:00:00Z";
    d.producer = "aotstudio test";
    d.model = "sample:fake";
    d.torchVersion = "2.14.1";
    d.inputs = nlohmann::json::parse(R"([{"shape":[2,3],"dtype":"float32","name":"x"},
                                         {"shape":[5],"dtype":"int64","batched":false,"name":"lengths"}])");
    d.outputs = nlohmann::json::parse(R"([{"shape":[2,4],"dtype":"float32","name":"logits"}])");
    d.buckets = nlohmann::json::parse(R"([{"name":"default","batch":2,"package":"packages/model.pt2"}])");
    nlohmann::json m = newManifest(d);
    QCOMPARE(m["format"].get<std::string>(), std::string(kFormat));
    QCOMPARE(m["format_version"].get<int>(), 1);
    QCOMPARE(m["inputs"][0]["shape"], nlohmann::json::parse(R"(["batch",3])"));
    QCOMPARE(m["inputs"][0]["name"].get<std::string>(), std::string("x"));
    QCOMPARE(m["inputs"][1]["shape"], nlohmann::json::parse("[5]")); // no batch dimension: kept
    QCOMPARE(m["outputs"][0]["name"].get<std::string>(), std::string("logits"));
    QVERIFY(!m.contains("signer"));
    QVERIFY(!m.contains("files"));
    m["files"] = nlohmann::json::object();
    const Manifest parsed = parseManifest(m, "draft");
    QCOMPARE(parsed.inputs.size(), std::size_t(2));
    QCOMPARE(parsed.inputs[0].shape, (std::vector<long long>{kBatchDim, 3}));
    QCOMPARE(parsed.inputs[1].shape, (std::vector<long long>{5}));

    d.buckets[0]["weights"] = nlohmann::json::object();
    d.signer = {{"key_id", std::string(64, 'a')}, {"algorithm", "ed25519"}};
    const nlohmann::json shared = newManifest(d);
    QCOMPARE(shared["format_version"].get<int>(), 2);
    // Guards that record strides (version 2) need format_version 3: an older runtime would not check the layout.
    d.buckets[0]["guards"] = {{"format", "aotstudio.guards"}, {"version", 2}, {"inputs", nlohmann::json::array()}};
    QCOMPARE(newManifest(d)["format_version"].get<int>(), 3);
    QCOMPARE(shared["signer"]["algorithm"].get<std::string>(), std::string("ed25519"));
}

void TestBundle::flippedByteNamesTheFile()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    makeBundle(dir);
    std::string data = readText(dir / "packages/batch4.pt2");
    data[100] ^= 0x01;
    writeText(dir / "packages/batch4.pt2", data);
    const auto problems = verify(dir, loadManifest(dir));
    QCOMPARE(problems.size(), std::size_t(1));
    QCOMPARE(problems[0].message, std::string("packages/batch4.pt2: SHA-256 differs (tampered or corrupt)"));
}

void TestBundle::truncatedFileIsASizeProblem()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    makeBundle(dir);
    fs::resize_file(dir / "packages/batch4.pt2", 100);
    const auto problems = verify(dir, loadManifest(dir));
    QCOMPARE(problems.size(), std::size_t(1));
    QVERIFY2(anyContains(problems, "packages/batch4.pt2", "size differs"), listProblems(problems).c_str());
}

void TestBundle::missingListedFile()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    makeBundle(dir);
    fs::remove(dir / "report/result.json");
    const auto problems = verify(dir, loadManifest(dir));
    QCOMPARE(problems.size(), std::size_t(1));
    QVERIFY2(anyContains(problems, "report/result.json", "missing"), listProblems(problems).c_str());
}

void TestBundle::unlistedExtraFile()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    makeBundle(dir);
    writeText(dir / "packages/evil.pt2", "not from the export");
    fs::create_directories(dir / "empty/dir"); // empty directories are not files: ignored
    const auto problems = verify(dir, loadManifest(dir));
    QCOMPARE(problems.size(), std::size_t(1));
    QVERIFY2(anyContains(problems, "packages/evil.pt2", "not listed"), listProblems(problems).c_str());
}

void TestBundle::symlinkIsAProblem()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    makeBundle(dir);
    fs::create_symlink("/etc/hostname", dir / "report/link.json");
    const auto problems = verify(dir, loadManifest(dir));
    QVERIFY2(anyContains(problems, "report/link.json", "symbolic link"), listProblems(problems).c_str());
}

void TestBundle::openBundleThrowsWithEveryProblem()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    makeBundle(dir);
    QVERIFY(openBundle(dir).manifest.files.size() == 4);
    writeText(dir / "extra.txt", "x");
    fs::remove(dir / "graphs/000_export.json");
    try {
        openBundle(dir);
        QFAIL("a tampered bundle opened");
    } catch (const BundleError &e) {
        const std::string what = e.what();
        QCOMPARE(e.problems().size(), std::size_t(2));
        QVERIFY2(what.find("extra.txt") != std::string::npos, what.c_str());
        QVERIFY2(what.find("graphs/000_export.json") != std::string::npos, what.c_str());
        QVERIFY2(what.find('\n') == std::string::npos, "the message is one line");
    }
    try {
        openBundle(dir / "does-not-exist");
        QFAIL("a missing bundle opened");
    } catch (const BundleError &e) {
        QVERIFY(std::string(e.what()).find("does not exist") != std::string::npos);
    }
    fs::create_directories(dir / "nomanifest");
    try {
        openBundle(dir / "nomanifest");
        QFAIL("a directory without manifest opened");
    } catch (const BundleError &e) {
        QVERIFY(std::string(e.what()).find("manifest.json") != std::string::npos);
    }
}

void TestBundle::writeManifestRefusesSymlinks()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeText(dir / "packages/batch1.pt2", "p1");
    writeText(dir / "packages/batch4.pt2", "p4");
    fs::create_symlink("/etc/hostname", dir / "report.json");
    QVERIFY_THROWS_EXCEPTION(BundleError, writeManifest(dir, baseManifest()));
    QVERIFY(!fs::exists(dir / "manifest.json"));
}

void TestBundle::parseManifestRefusals_data()
{
    QTest::addColumn<QString>("patch"); // a JSON merge patch applied to a valid manifest
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown format") << R"({"format": "something.else"})" << "not an AOT Studio bundle";
    QTest::newRow("no buckets") << R"({"buckets": []})" << "buckets";
    QTest::newRow("escaping file") << R"({"files": {"../outside": {"sha256": "00", "bytes": 1}}})" << "not a relative path";
    QTest::newRow("absolute package")
        << R"({"buckets": [{"name": "b", "batch": 1, "package": "/etc/passwd"}]})" << "not a relative path";
    QTest::newRow("two dynamic") << R"({"buckets": [{"name": "d1", "batch_min": 1, "batch_max": 8, "package": "a.pt2"},
                                                    {"name": "d2", "batch_min": 1, "batch_max": 8, "package": "b.pt2"}]})"
                                 << "second dynamic";
    QTest::newRow("exact and dynamic")
        << R"({"buckets": [{"name": "x", "batch": 2, "batch_min": 1, "batch_max": 8, "package": "a.pt2"}]})" << "either";
    QTest::newRow("bad hash") << R"({"files": {"a": {"sha256": "xyz", "bytes": 1}}})" << "64 hex";
    QTest::newRow("batch not first") << R"({"inputs": [{"shape": [3, "batch"], "dtype": "float32"}]})" << "dimension 0";
    QTest::newRow("newer and different") << R"({"format_version": 4, "buckets": {"renamed": true}})"
                                         << "newer";
    QTest::newRow("missing device") << R"({"device": null})" << "device";
}

void TestBundle::parseManifestRefusals()
{
    QFETCH(QString, patch);
    QFETCH(QString, expected);
    json j = baseManifest();
    j["files"] = json::object();
    j.merge_patch(json::parse(patch.toStdString()));
    try {
        parseManifest(j, "bundle/manifest.json");
        QFAIL("accepted");
    } catch (const BundleError &e) {
        const std::string what = e.what();
        QVERIFY2(what.find("bundle/manifest.json") != std::string::npos, what.c_str());
        QVERIFY2(what.find(expected.toStdString()) != std::string::npos, what.c_str());
    }
}

void TestBundle::zipRoundTrip()
{
    QTemporaryDir tmp;
    const fs::path dir = fs::path(tmp.path().toStdString()) / "bundle";
    makeBundle(dir);
    const fs::path zip = fs::path(tmp.path().toStdString()) / "bundle.zip";
    zipDirectory(dir, zip);
    QVERIFY(fs::is_regular_file(zip));
    for (const auto &e : fs::directory_iterator(tmp.path().toStdString()))
        QVERIFY2(e.path().filename().string().find("partial") == std::string::npos, e.path().c_str());
    fs::path extractedTo;
    {
        const OpenedBundle b = openBundle(zip);
        QVERIFY(b.extracted);
        extractedTo = b.extracted->path();
        QCOMPARE(b.root, extractedTo);
        QCOMPARE(b.manifest.files.size(), std::size_t(4));
        QCOMPARE(readText(b.root / "packages/batch4.pt2"), readText(dir / "packages/batch4.pt2"));
    }
    QVERIFY2(!fs::exists(extractedTo), "the extraction is removed with the last OpenedBundle");
}

void TestBundle::zipOfTopLevelDirectory()
{
    // `zip -r B.zip B` puts everything under B/: accepted, the root is that directory.
    QTemporaryDir tmp;
    const fs::path base = tmp.path().toStdString();
    makeBundle(base / "src");
    std::vector<std::pair<std::string, std::string>> entries;
    for (const auto &e : fs::recursive_directory_iterator(base / "src"))
        if (e.is_regular_file())
            entries.emplace_back("B/" + e.path().lexically_relative(base / "src").generic_string(), readText(e.path()));
    makeRawZip(base / "B.zip", entries);
    const OpenedBundle b = openBundle(base / "B.zip");
    QCOMPARE(b.root.filename().string(), std::string("B"));
}

void TestBundle::truncatedZipRefused()
{
    QTemporaryDir tmp;
    const fs::path base = tmp.path().toStdString();
    makeBundle(base / "bundle");
    const fs::path zip = base / "bundle.zip";
    zipDirectory(base / "bundle", zip);
    fs::resize_file(zip, fs::file_size(zip) / 2);
    try {
        extractZip(zip, base / "out");
        QFAIL("a truncated zip was extracted");
    } catch (const BundleError &e) {
        const std::string what = e.what();
        QVERIFY2(what.find(zip.string()) != std::string::npos, what.c_str());
        QVERIFY2(what.find("truncated or corrupt") != std::string::npos, what.c_str());
    }
    QVERIFY_THROWS_EXCEPTION(BundleError, openBundle(zip));
    // Corrupt data with an intact directory: the CRC check catches it.
    zipDirectory(base / "bundle", zip);
    std::string data = readText(zip);
    const auto at = data.find("package for batch 4"); // .pt2 entries are stored, not deflated
    QVERIFY(at != std::string::npos);
    data[at] ^= 0x20;
    writeText(zip, data);
    QVERIFY_THROWS_EXCEPTION(BundleError, extractZip(zip, base / "out2"));
}

void TestBundle::zipEntryEscapingRefused_data()
{
    QTest::addColumn<QString>("entry");
    QTest::newRow("parent") << "../evil.txt";
    QTest::newRow("nested parent") << "packages/../../evil.txt";
    QTest::newRow("absolute") << "/tmp/evil.txt";
    QTest::newRow("backslash") << "..\\evil.txt";
}

void TestBundle::zipEntryEscapingRefused()
{
    QFETCH(QString, entry);
    QTemporaryDir tmp;
    const fs::path base = tmp.path().toStdString();
    const fs::path zip = base / "evil.zip";
    makeRawZip(zip, {{"manifest.json", "{}"}, {entry.toStdString(), "pwned"}});
    const fs::path dest = base / "a" / "b";
    try {
        extractZip(zip, dest);
        QFAIL("an escaping entry was extracted");
    } catch (const BundleError &e) {
        const std::string what = e.what();
        QVERIFY2(what.find(zip.string()) != std::string::npos, what.c_str());
        QVERIFY2(what.find("refused") != std::string::npos, what.c_str());
    }
    QVERIFY(!fs::exists(base / "a" / "evil.txt"));
    QVERIFY(!fs::exists(base / "evil.txt"));
}

void TestBundle::tamperedZipRefused()
{
    // A valid zip of a bundle whose package was swapped after the manifest was written.
    QTemporaryDir tmp;
    const fs::path base = tmp.path().toStdString();
    makeBundle(base / "bundle");
    writeText(base / "bundle/packages/batch1.pt2", "swapped package ...\n");
    zipDirectory(base / "bundle", base / "bundle.zip");
    try {
        openBundle(base / "bundle.zip");
        QFAIL("opened");
    } catch (const BundleError &e) {
        QVERIFY2(std::string(e.what()).find("packages/batch1.pt2: SHA-256 differs") != std::string::npos, e.what());
    }
}

void TestBundle::chooseBucketTable_data()
{
    QTest::addColumn<bool>("padSafe");
    QTest::addColumn<bool>("withDynamic");
    QTest::addColumn<int>("batch");
    QTest::addColumn<QString>("bucket"); // empty: BundleError
    QTest::addColumn<int>("padTo");
    QTest::addColumn<bool>("padded");

    QTest::newRow("exact 1") << true << true << 1 << "batch1" << 1 << false;
    QTest::newRow("exact 4") << true << true << 4 << "batch4" << 4 << false;
    QTest::newRow("exact 16") << false << false << 16 << "batch16" << 16 << false;
    QTest::newRow("pad 2 -> 4") << true << true << 2 << "batch4" << 4 << true;
    QTest::newRow("pad 5 -> 16 (smallest larger)") << true << false << 5 << "batch16" << 16 << true;
    QTest::newRow("pad wins over dynamic") << true << true << 3 << "batch4" << 4 << true;
    QTest::newRow("no pad: dynamic") << false << true << 3 << "dynamic" << 3 << false;
    QTest::newRow("larger than exact: dynamic") << true << true << 40 << "dynamic" << 40 << false;
    QTest::newRow("dynamic upper bound") << false << true << 64 << "dynamic" << 64 << false;
    QTest::newRow("no pad, no dynamic") << false << false << 3 << "" << 0 << false;
    QTest::newRow("beyond everything") << true << true << 65 << "" << 0 << false;
    QTest::newRow("zero") << true << true << 0 << "" << 0 << false;
}

void TestBundle::chooseBucketTable()
{
    QFETCH(bool, padSafe);
    QFETCH(bool, withDynamic);
    QFETCH(int, batch);
    QFETCH(QString, bucket);
    QFETCH(int, padTo);
    QFETCH(bool, padded);
    json j = baseManifest(padSafe);
    j["buckets"] = json::array({json{{"name", "batch16"}, {"batch", 16}, {"package", "packages/batch16.pt2"}},
                                json{{"name", "batch1"}, {"batch", 1}, {"package", "packages/batch1.pt2"}},
                                json{{"name", "batch4"}, {"batch", 4}, {"package", "packages/batch4.pt2"}}});
    if (withDynamic)
        j["buckets"].push_back({{"name", "dynamic"}, {"batch_min", 1}, {"batch_max", 64}, {"package", "packages/dynamic.pt2"}});
    const Manifest m = manifestFrom(j);
    if (bucket.isEmpty()) {
        QVERIFY_THROWS_EXCEPTION(BundleError, chooseBucket(m, batch));
        return;
    }
    const BucketChoice c = chooseBucket(m, batch);
    QCOMPARE(QString::fromStdString(c.bucket.name), bucket);
    QCOMPARE(c.padTo, static_cast<long long>(padTo));
    QCOMPARE(c.padded, padded);
}

void TestBundle::chooseBucketErrorNamesBatchAndBuckets()
{
    json j = baseManifest(false);
    j["buckets"].push_back({{"name", "dynamic"}, {"batch_min", 8}, {"batch_max", 32}, {"package", "packages/dynamic.pt2"}});
    const Manifest m = manifestFrom(j);
    try {
        chooseBucket(m, 3);
        QFAIL("no error");
    } catch (const BundleError &e) {
        const std::string what = e.what();
        QVERIFY2(what.find("batch 3") != std::string::npos, what.c_str());
        QVERIFY2(what.find("batch1 (batch 1)") != std::string::npos, what.c_str());
        QVERIFY2(what.find("batch4 (batch 4)") != std::string::npos, what.c_str());
        QVERIFY2(what.find("dynamic (batch 8..32)") != std::string::npos, what.c_str());
        QVERIFY2(what.find("pad_safe") != std::string::npos, what.c_str());
    }
}

void TestBundle::checkCompatibleTable_data()
{
    QTest::addColumn<QString>("patch");
    QTest::addColumn<QString>("runtimeTorch");
    QTest::addColumn<bool>("cuda");
    QTest::addColumn<QString>("capability");
    QTest::addColumn<QString>("expected"); // empty: compatible

    QTest::newRow("cpu here") << "{}" << "2.14.1" << false << "" << "";
    QTest::newRow("local build suffix") << "{}" << "2.14.0a0+git123" << false << "" << "";
    QTest::newRow("cpu bundle on a GPU machine") << "{}" << "2.14.1" << true << "9.0" << "";
    QTest::newRow("newer format_version") << R"({"format_version": 4})"
                                          << "2.14.1" << false << ""
                                          << "newer";
    QTest::newRow("unknown format") << R"({"format": "x"})" << "2.14.1" << false << "" << "unknown bundle format";
    QTest::newRow("torch minor differs") << "{}" << "2.13.0" << false << "" << "major.minor";
    QTest::newRow("torch major differs") << "{}" << "3.14.1" << false << "" << "major.minor";
    QTest::newRow("cuda bundle, no CUDA") << R"({"device": "cuda"})" << "2.14.1" << false << "" << "no usable CUDA";
    QTest::newRow("cuda:0 bundle, no CUDA") << R"({"device": "cuda:0"})" << "2.14.1" << false << "" << "no usable CUDA";
    QTest::newRow("cuda bundle on cuda") << R"({"device": "cuda", "compute_capability": "9.0"})" << "2.14.1" << true << "9.0" << "";
    QTest::newRow("older capability runs") << R"({"device": "cuda", "compute_capability": "8.0"})" << "2.14.1" << true << "9.0"
                                           << "";
    QTest::newRow("newer capability") << R"({"device": "cuda", "compute_capability": "9.0"})" << "2.14.1" << true << "8.6"
                                      << "compute capability 9.0";
    QTest::newRow("capability 10.0 > 9.0") << R"({"device": "cuda", "compute_capability": "10.0"})" << "2.14.1" << true
                                           << "9.0" << "compute capability 10.0";
    QTest::newRow("unknown device") << R"({"device": "tpu"})" << "2.14.1" << false << "" << "unknown bundle device";
}

void TestBundle::checkCompatibleTable()
{
    QFETCH(QString, patch);
    QFETCH(QString, runtimeTorch);
    QFETCH(bool, cuda);
    QFETCH(QString, capability);
    QFETCH(QString, expected);
    Manifest m = manifestFrom(baseManifest());
    const json p = json::parse(patch.toStdString());
    // Set on the struct: parseManifest itself refuses some of these (e.g. an unknown format).
    if (p.contains("format_version"))
        m.formatVersion = p["format_version"];
    if (p.contains("format"))
        m.format = p["format"];
    if (p.contains("device"))
        m.device = p["device"];
    if (p.contains("compute_capability"))
        m.computeCapability = p["compute_capability"];
    const auto why = checkCompatible(m, runtimeTorch.toStdString(), cuda, capability.toStdString());
    std::string all;
    for (const auto &w : why)
        all += w + " | ";
    if (expected.isEmpty()) {
        QVERIFY2(why.empty(), all.c_str());
    } else {
        QCOMPARE(why.size(), std::size_t(1));
        QVERIFY2(all.find(expected.toStdString()) != std::string::npos, all.c_str());
    }
}

// Issue 34: export --from keeps the compile's rule for dimension 0, and a bucket policy that
// leaves sizes the compile accepted without a bucket names them.
void TestBundle::batchRuleAndUncoveredSizes()
{
    std::ifstream in(kFixtures + "/guards/derived.json"); // x.shape[0] == 2 * n, n in 2..32 (make_fixtures.py)
    const auto derived = batchRule(json::parse(in));
    QVERIFY(derived && derived->dynamic);
    QVERIFY(!derived->plain);
    QCOMPARE(derived->coeff, 2LL);
    QCOMPARE(derived->lo(), 4LL);
    QCOMPARE(derived->hi().value_or(-1), 64LL);
    QVERIFY2(derived->text.find("2 * n") != std::string::npos, derived->text.c_str());
    std::ifstream st(kFixtures + "/guards/static.json");
    const auto fixed = batchRule(json::parse(st));
    QVERIFY(fixed && !fixed->dynamic);
    QVERIFY(!batchRule(json()).has_value());
    QVERIFY(!batchRule(json::parse(R"({"inputs": "no"})")).has_value());

    BatchRule plain;
    plain.dynamic = true;
    plain.symbolMin = 1;
    plain.symbolMax = 64;
    QCOMPARE(uncoveredBatchSizes(plain, {1, 4}, std::nullopt, false), std::string("2..3, 5..64"));
    QCOMPARE(uncoveredBatchSizes(plain, {1, 4}, std::nullopt, true), std::string("5..64"));
    QCOMPARE(uncoveredBatchSizes(plain, {1, 4}, std::pair<long long, long long>{1, 8}, true), std::string("9..64"));
    QCOMPARE(uncoveredBatchSizes(plain, {}, std::pair<long long, long long>{1, 64}, false), std::string());
    QCOMPARE(uncoveredBatchSizes(plain, {1, 3, 5, 7, 9}, std::nullopt, false), std::string("2, 4, 6, 8, ..."));
    BatchRule open = plain;
    open.symbolMax.reset();
    QCOMPARE(uncoveredBatchSizes(open, {1}, std::nullopt, false), std::string("2..inf"));
    // 2*n: only even sizes are accepted, so only those are missing.
    QCOMPARE(uncoveredBatchSizes(*derived, {8}, std::nullopt, false), std::string("4..6, 10..64"));
    QCOMPARE(uncoveredBatchSizes(*derived, {8}, std::pair<long long, long long>{4, 64}, false), std::string());
    QCOMPARE(uncoveredBatchSizes(*fixed, {1}, std::nullopt, false), std::string());
}

// Issue 34: inspect showed a dynamic height as the example's fixed size; a dimension a bucket's
// guards make dynamic is shown by its name, with its range.
void TestBundle::inspectNamesDynamicDimensions()
{
    QTemporaryDir tmp;
    const fs::path dir = fs::path(tmp.path().toStdString()) / "bundle";
    json m = baseManifest();
    m["buckets"][1]["guards"] = json::parse(R"({"version": 2,
        "symbols": [{"symbol": "s0", "name": "h", "label": "h", "min": 8, "max": 64}],
        "inputs": [{"name": "x", "dims": [{"size": 4}, {"size": 3}, {"symbol": "s0"}, {"symbol": "s0", "coeff": 2}]}]})");
    makeBundle(dir, m);
    const json info = inspectBundle(dir);
    QCOMPARE(info["inputs"][0]["shape"], json::parse(R"(["batch", 3, "h", "2*h"])"));
    QCOMPARE(info["inputs"][0]["dynamic"][0]["min"].get<long long>(), 8LL);
    QCOMPARE(info["inputs"][0]["dynamic"][1]["max"].get<long long>(), 128LL);
    QCOMPARE(info["inputs"][0]["dynamic"][0]["bucket"].get<std::string>(), std::string("batch4"));
    QCOMPARE(info["outputs"][0]["shape"], json::parse(R"(["batch", 10])"));
}

void TestBundle::inspectPt2Fixtures()
{
    const json ep = inspectPt2(kFixtures + "/tiny_program.pt2");
    QCOMPARE(ep.value("kind", ""), std::string("exported_program"));
    QCOMPARE(ep.value("archive_format", ""), std::string("pt2"));
    const json model = ep["exported_program"]["models"]["model"];
    QCOMPARE(model.value("nodes", 0), 3);
    QCOMPARE(model["ops"].value("torch.ops.aten.sigmoid.default", 0), 1);
    QVERIFY(ep["entries"].size() > 5);

    QCOMPARE(inspectPt2(kFixtures + "/not_a_program.pt2").value("kind", ""), std::string("unknown"));
    // The runner's classifier (aotstudio-run names a torch.export.save archive as such) agrees.
    QVERIFY(pt2Kind(fs::path(kFixtures + "/tiny_program.pt2")) == Pt2Kind::ExportedProgram);
    QVERIFY(pt2Kind(fs::path(kFixtures + "/tiny_factory.py")) == Pt2Kind::NotAZip);
    QVERIFY(
        pt2Kind(std::vector<std::string>{"m/data/aotinductor/model/a.so", "m/data/aotinductor/model/a_metadata.json"})
        == Pt2Kind::AotiPackage);
    QVERIFY(pt2Kind(std::vector<std::string>{"models/model.json", "data/weights/w"}) == Pt2Kind::ExportedProgram);
    QVERIFY(pt2Kind(std::vector<std::string>{"x/mymodels/model.json", "x/archive_format"}) == Pt2Kind::Unknown);
    QVERIFY(exportedProgramMessage("saved.pt2").find("aotstudio-cli compile --model saved.pt2") != std::string::npos);
    QVERIFY_THROWS_EXCEPTION(BundleError, inspectPt2(kFixtures + "/tiny_program_truncated.pt2"));
    QVERIFY_THROWS_EXCEPTION(BundleError, inspectPt2(kFixtures + "/does_not_exist.pt2"));
}

void TestBundle::inspectBundleReportsProblems()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    makeBundle(dir);
    json info = inspectBundle(dir);
    QVERIFY(info.value("ok", false));
    QCOMPARE(info["buckets"].size(), std::size_t(2));
    writeText(dir / "packages/batch1.pt2", "tampered\n");
    info = inspectBundle(dir);
    QVERIFY(!info.value("ok", true));
    QCOMPARE(info["problems"].size(), std::size_t(1));
}

namespace {

/// Whether `j` dumps with nlohmann's default (strict) error handler: every string valid UTF-8.
bool dumpsStrictly(const json &j)
{
    try {
        (void)j.dump();
        return true;
    } catch (const json::type_error &) {
        return false;
    }
}

} // namespace

void TestBundle::validUtf8ReplacesOnlyBadBytes()
{
    QCOMPARE(validUtf8("plain \xc3\xa9t\xc3\xa9 \xe4\xb8\xad\n\t\"q\""), std::string("plain \xc3\xa9t\xc3\xa9 \xe4\xb8\xad\n\t\"q\""));
    QCOMPARE(validUtf8("a\xff" "b"), std::string("a\xef\xbf\xbd" "b"));        // stray byte -> U+FFFD
    QCOMPARE(validUtf8("\xc3"), std::string("\xef\xbf\xbd"));                 // truncated sequence
    QCOMPARE(validUtf8("\xed\xa0\x80").find('\xed'), std::string::npos);      // surrogate: not UTF-8
    QCOMPARE(validUtf8(std::string("nul\0in", 6)), std::string("nul\0in", 6)); // NUL is valid UTF-8
    QVERIFY(!dumpsStrictly(json{{"k", "\xff"}}));
    QVERIFY(dumpsStrictly(json::parse(dumpJson(json{{"k\xfe", "\xff"}}))));
    QVERIFY(dumpsStrictly(validUtf8Json(json{{"a", {"\xc0\xaf", 1.5, nullptr}}})));
}

void TestBundle::invalidUtf8ManifestGivesValidJsonError()
{
    // Issue 19: a manifest.json with bytes that are not UTF-8 fails to parse, and nlohmann's
    // parse error quotes them ("last read: ..."); dumping that message as JSON threw type_error.316
    // and aborted `inspect --json` and `aotstudio-run --json`.
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    makeBundle(dir);
    std::string text = readText(dir / kManifestName);
    const auto at = text.find("sample:fake");
    QVERIFY(at != std::string::npos);
    text.replace(at, 6, "\xff\xfe\xc3(");
    writeText(dir / kManifestName, text);

    try {
        (void)loadManifest(dir);
        QFAIL("a manifest with invalid UTF-8 loaded");
    } catch (const BundleError &e) {
        QVERIFY2(std::string(e.what()).find("not valid JSON") != std::string::npos, e.what());
        QVERIFY(dumpsStrictly(json::parse(dumpJson(json{{"error", e.what()}}))));
    }
    try {
        (void)inspectBundle(dir);
        QFAIL("inspect read a manifest with invalid UTF-8");
    } catch (const BundleError &e) {
        const std::string what = e.what();
        QVERIFY2(what.find("not valid JSON") != std::string::npos, what.c_str());
        QVERIFY2(dumpsStrictly(json{{"error", what}}), what.c_str()); // inspect's messages are valid UTF-8
        QVERIFY(what.find("\xef\xbf\xbd") != std::string::npos);     // the bad byte shows as U+FFFD
    }
}

void TestBundle::invalidUtf8NamesInspectAsValidJson()
{
    // File names are bytes: a zip entry (or an extracted file) whose name is not UTF-8 reaches
    // inspect's "entries" and "problems".
    QTemporaryDir tmp;
    const fs::path base = tmp.path().toStdString();
    const fs::path pt2 = base / "odd.pt2";
    makeRawZip(pt2, {{"archive/\xff\xfe.bin", "x"}, {"archive/byteorder", "little\xff"}});
    const json info = inspectPt2(pt2);
    QVERIFY(dumpsStrictly(info));
    QCOMPARE(info["entries"].size(), std::size_t(2));
    QCOMPARE(info.value("byteorder", ""), std::string("little\xef\xbf\xbd"));

    const fs::path dir = base / "bundle";
    makeBundle(dir);
    writeText(dir / "report" / "\xff.txt", "added after export\n");
    const json bundle = inspectBundle(dir);
    QVERIFY(dumpsStrictly(bundle));
    QCOMPARE(bundle.value("ok", true), false);
    QCOMPARE(bundle["problems"].size(), std::size_t(1));
}

void TestBundle::mistypedPt2RecordsInspect()
{
    // An ExportedProgram record whose fields have other types than torch writes: counted as far as
    // they read, never nlohmann's type_error (which `inspect` did not catch).
    QTemporaryDir tmp;
    const fs::path pt2 = fs::path(tmp.path().toStdString()) / "mistyped.pt2";
    makeRawZip(pt2, {{"archive/models/model.json",
                      R"({"schema_version": {"major": "8", "minor": []},
                          "graph_module": {"graph": {"nodes": [1, {"target": 5}, {"target": "aten.add"}], "inputs": 7}}})"}});
    const json info = inspectPt2(pt2);
    QCOMPARE(info.value("kind", ""), std::string("exported_program"));
    const json model = info["exported_program"]["models"]["model"];
    QCOMPARE(model.value("nodes", 0), 3);
    QCOMPARE(model.value("inputs", -1), 0);
    QCOMPARE(model["ops"].value("aten.add", 0), 1);
    QCOMPARE(model["ops"].value("?", 0), 2);
    QCOMPARE(model.value("schema_version", ""), std::string("0.0"));
}

void TestBundle::manifestOverLimitRefused()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    makeBundle(dir);
    const auto size = fs::file_size(dir / kManifestName);
    std::string bytes;
    loadManifest(dir, &bytes, size); // exactly at the limit: read, and the bytes are the file's
    QCOMPARE(bytes, readText(dir / kManifestName));
    try {
        loadManifest(dir, nullptr, size - 1);
        QFAIL("a manifest over the limit was read");
    } catch (const BundleError &e) {
        const std::string what = e.what();
        QVERIFY2(what.find("manifest.json") != std::string::npos && what.find("larger than " + std::to_string(size - 1) + " bytes") != std::string::npos &&
                     what.find("limit for a bundle manifest") != std::string::npos,
                 e.what());
    }
    // The default limit, through openBundle: a manifest padded past 16 MiB with spaces (valid JSON).
    writeText(dir / kManifestName, readText(dir / kManifestName) + std::string(kMaxManifestBytes, ' '));
    try {
        openBundle(dir);
        QFAIL("a 16 MiB manifest was read");
    } catch (const BundleError &e) {
        QVERIFY2(std::string(e.what()).find(std::to_string(kMaxManifestBytes)) != std::string::npos, e.what());
    }
}

void TestBundle::zipOverLimitsRefused_data()
{
    QTest::addColumn<int>("entries");      // ExtractLimits::maxEntries
    QTest::addColumn<qint64>("entryBytes"); // ExtractLimits::maxEntryBytes
    QTest::addColumn<qint64>("totalBytes"); // ExtractLimits::maxTotalBytes
    QTest::addColumn<QString>("needle");
    // The zip: manifest.json (about 1.5 KiB), packages/batch1.pt2 (20 B), packages/batch4.pt2
    // (5020 B), report/result.json, graphs/000_export.json: 5 files, over 6 KiB in all.
    QTest::newRow("entries") << 4 << qint64(1) << qint64(1) << "entries, over the limit of 4 entries";
    QTest::newRow("one entry") << 100 << qint64(5000) << (qint64(1) << 30) << "'packages/batch4.pt2' is 0.0 GiB (5020 bytes) uncompressed, over the limit";
    QTest::newRow("whole zip") << 100 << qint64(6000) << qint64(5100) << "more than 0.0 GiB uncompressed, the limit for a whole bundle zip";
}

void TestBundle::zipOverLimitsRefused()
{
    QFETCH(int, entries);
    QFETCH(qint64, entryBytes);
    QFETCH(qint64, totalBytes);
    QFETCH(QString, needle);
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    makeBundle(root / "b");
    zipDirectory(root / "b", root / "b.zip");
    ExtractLimits limits;
    limits.maxEntries = static_cast<std::uint64_t>(entries);
    limits.maxEntryBytes = static_cast<std::uint64_t>(entryBytes);
    limits.maxTotalBytes = static_cast<std::uint64_t>(totalBytes);
    try {
        extractZip(root / "b.zip", root / "out", limits);
        QFAIL("a zip over the limits was extracted");
    } catch (const BundleError &e) {
        QVERIFY2(std::string(e.what()).find(needle.toStdString()) != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find("b.zip") != std::string::npos, e.what());
    }
    QVERIFY(!fs::exists(root / "out")); // refused before anything was written
    // The defaults take it.
    QCOMPARE(extractZip(root / "b.zip", root / "ok"), root / "ok");
}

// SIGKILL of aotstudio-run while it extracts a zip leaves its TempDir behind (issue 19): the next
// TempDir removes the folders of processes that are gone, and only those.
void TestBundle::staleTempDirsRemoved()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const fs::path base = tmp.path().toStdString();
    const pid_t child = ::fork(); // a pid that is gone once waited for
    if (child == 0)
        ::_exit(0);
    QVERIFY(child > 0);
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    const std::string dead = "aotstudio-bundle-" + std::to_string(child);
    const std::string alive = "aotstudio-bundle-" + std::to_string(::getppid());
    for (const std::string name : {dead + "-a1b2c3", dead + "-locked", alive + "-d4e5f6", std::string("aotstudio-bundle-Xy12Zw"),
                                   std::string("other-") + std::to_string(child) + "-a1b2c3"}) {
        QVERIFY(fs::create_directories(base / name / "packages"));
        std::ofstream(base / name / "packages" / "half.pt2") << "PK";
    }
    // A folder of a process in another PID namespace: the pid looks gone, the lock says it is not.
    const int held = ::open((base / (dead + "-locked")).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    QVERIFY(held >= 0);
    QCOMPARE(::flock(held, LOCK_EX | LOCK_NB), 0);

    const QByteArray oldTmp = qgetenv("TMPDIR");
    qputenv("TMPDIR", tmp.path().toLocal8Bit());
    fs::path mine;
    {
        TempDir t;
        mine = t.path();
        QVERIFY(mine.filename().string().rfind("aotstudio-bundle-" + std::to_string(::getpid()) + "-", 0) == 0);
        QVERIFY(fs::is_directory(mine));
        // A second one in this process keeps the first (its pid is alive).
        TempDir second;
        QVERIFY(fs::is_directory(mine));
    }
    qputenv("TMPDIR", oldTmp);
    ::close(held);

    QVERIFY(!fs::exists(mine));
    QVERIFY(!fs::exists(base / (dead + "-a1b2c3")));
    QVERIFY(fs::exists(base / (dead + "-locked")));
    QVERIFY(fs::exists(base / (alive + "-d4e5f6")));
    QVERIFY(fs::exists(base / "aotstudio-bundle-Xy12Zw"));
    QVERIFY(fs::exists(base / ("other-" + std::to_string(child) + "-a1b2c3")));
    // Once its lock is released, the locked one goes too.
    QCOMPARE(removeStaleTempDirs(base, "aotstudio-bundle-"), 1);
    QVERIFY(!fs::exists(base / (dead + "-locked")));
}

namespace {

/// Names of the entries of zip `path`.
std::vector<std::string> zipNames(const fs::path &path)
{
    std::vector<std::string> names;
    int err = 0;
    zip_t *z = zip_open(path.c_str(), ZIP_RDONLY, &err);
    if (!z)
        return names;
    for (zip_int64_t i = 0; i < zip_get_num_entries(z, 0); ++i)
        names.push_back(zip_get_name(z, static_cast<zip_uint64_t>(i), 0));
    zip_discard(z);
    return names;
}

} // namespace

void TestBundle::shareWeightsStoresEachWeightOnce()
{
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    fs::create_directories(root / "packages");
    // Two buckets' packages as pickle_weights lays them out: one weight the same, one different.
    makeRawZip(root / "packages/batch1.pt2", {{"batch1/data/aotinductor/model/x.wrapper.so", "code 1"},
                                              {"batch1/data/aotinductor/model/weights_config.json", "{}"},
                                              {"batch1/data/weights/weight_0", "shared weight bytes"},
                                              {"batch1/data/weights/weight_1", "weight of batch 1"}});
    makeRawZip(root / "packages/batch4.pt2", {{"batch4/data/aotinductor/model/x.wrapper.so", "code 4"},
                                              {"batch4/data/weights/weight_0", "shared weight bytes"},
                                              {"batch4/data/weights/weight_1", "weight of batch 4"}});
    makeRawZip(root / "packages/plain.pt2", {{"plain/data/aotinductor/model/x.wrapper.so", "weights inside"}});
    const auto before = fs::last_write_time(root / "packages/plain.pt2");

    // A stand-in for Runtime::writeRawWeight (which needs LibTorch): the file's bytes as uint8.
    const RawWeightWriter toRaw = [](const fs::path &in, const fs::path &out) {
        fs::copy_file(in, out);
        return BucketWeight{"", "uint8", static_cast<long long>(fs::file_size(in))};
    };
    const auto a = shareWeights(root / "packages/batch1.pt2", root, toRaw);
    const auto b = shareWeights(root / "packages/batch4.pt2", root, toRaw);
    QCOMPARE(a.size(), std::size_t(2));
    QCOMPARE(b.size(), std::size_t(2));
    QCOMPARE(a.at("weight_0"), b.at("weight_0")); // stored once
    QVERIFY(a.at("weight_1").file != b.at("weight_1").file);
    QCOMPARE(a.at("weight_0").file, "weights/" + sha256File(root / a.at("weight_0").file) + ".bin"); // named by content
    QCOMPARE(a.at("weight_0").numel, 19LL);
    QCOMPARE(a.at("weight_0").dtype, std::string("uint8"));
    QCOMPARE(readText(root / a.at("weight_1").file), std::string("weight of batch 1"));
    std::size_t stored = 0;
    for (const auto &e : fs::directory_iterator(root / "weights")) {
        QVERIFY2(e.path().filename().string().rfind(".partial", 0) != 0, e.path().c_str());
        ++stored;
    }
    QCOMPARE(stored, std::size_t(3));
    // The packages lost their weights and kept everything else.
    const auto names = zipNames(root / "packages/batch1.pt2");
    QCOMPARE(names, (std::vector<std::string>{"batch1/data/aotinductor/model/x.wrapper.so", "batch1/data/aotinductor/model/weights_config.json"}));
    // A package without external weights is not touched.
    QVERIFY(shareWeights(root / "packages/plain.pt2", root, toRaw).empty());
    QCOMPARE(fs::last_write_time(root / "packages/plain.pt2"), before);
    // Not a zip: an error naming the package.
    writeText(root / "packages/broken.pt2", "not a zip");
    try {
        shareWeights(root / "packages/broken.pt2", root, toRaw);
        QFAIL("no error");
    } catch (const BundleError &e) {
        QVERIFY2(std::string(e.what()).find("broken.pt2") != std::string::npos, e.what());
    }
}

void TestBundle::manifestBucketWeights()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    json m = baseManifest();
    m["format_version"] = 2;
    const json w{{"file", "weights/a.bin"}, {"dtype", "float32"}, {"numel", 1}};
    m["buckets"][0]["weights"] = {{"weight_0", w}};
    writeText(dir / "weights/a.bin", "wwww");
    makeBundle(dir, m);
    const Manifest parsed = loadManifest(dir);
    QCOMPARE(parsed.buckets[0].weights.at("weight_0"), (BucketWeight{"weights/a.bin", "float32", 1}));
    QVERIFY(parsed.buckets[1].weights.empty());
    QVERIFY2(verify(dir, parsed).empty(), listProblems(verify(dir, parsed)).c_str());
    // A weights path that the files list does not cover is a verification problem (never loaded unhashed).
    json j = json::parse(readText(dir / "manifest.json"));
    j["files"].erase("weights/a.bin");
    const auto problems = verify(dir, parseManifest(j, "test"));
    QVERIFY2(anyContains(problems, "weights/a.bin", "not listed"), listProblems(problems).c_str());
    // Outside the bundle, not an object, a field missing or negative: refused when parsed.
    const json outside{{"file", "../a.bin"}, {"dtype", "float32"}, {"numel", 1}};
    const json noDtype{{"file", "weights/a.bin"}, {"numel", 1}};
    const json negative{{"file", "weights/a.bin"}, {"dtype", "float32"}, {"numel", -1}};
    for (const json &bad : {json{{"weight_0", outside}}, json{{"weight_0", "weights/a.bin"}}, json{{"weight_0", noDtype}},
                            json{{"weight_0", negative}}, json::array({w}), json{{"a/b", w}}}) {
        json k = baseManifest();
        k["format_version"] = 2;
        k["buckets"][0]["weights"] = bad;
        QVERIFY_THROWS_EXCEPTION(BundleError, manifestFrom(k));
    }
    // In a version-1 manifest the field is refused: a version-1 runtime would not know it.
    json v1 = baseManifest();
    v1["buckets"][0]["weights"] = {{"weight_0", w}};
    QVERIFY_THROWS_EXCEPTION(BundleError, manifestFrom(v1));
}

// The hash cache (BUNDLE.md "Hash cache"): a file is read again unless its stamp is unchanged and
// its ctime had settled (kHashCacheSettleSeconds) before it was hashed; a file changed in place is
// hashed again and its new hash given; AOTSTUDIO_VERIFY_FULL and a disabled cache hash every time.
void TestBundle::hashCacheSkipsOnlyUnchangedSettledFiles()
{
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    qputenv("AOTSTUDIO_CACHE_DIR", (root / "cache").c_str());
    const fs::path bundle = root / "bundle";
    fs::create_directories(bundle / "packages");
    writeText(bundle / "packages/a.pt2", "package bytes");
    const std::string original = sha256File(bundle / "packages/a.pt2");
    const auto hashOnce = [&](int &hashed, int &cached, bool enabled = true) {
        HashCache cache(bundle, enabled);
        const std::string sha = cache.sha256("packages/a.pt2");
        hashed = cache.hashed();
        cached = cache.cached();
        return sha;
    };
    int hashed = 0, cached = 0;
    QCOMPARE(hashOnce(hashed, cached), original);
    QCOMPARE(hashed, 1);
    // Written just now: its ctime is too close to the entry to trust, so it is read again.
    QCOMPARE(hashOnce(hashed, cached), original);
    QCOMPARE(cached, 0);
    QTest::qWait((kHashCacheSettleSeconds + 1) * 1000);
    QCOMPARE(hashOnce(hashed, cached), original); // recorded again, now after the file settled
    QCOMPARE(hashOnce(hashed, cached), original);
    QCOMPARE(hashed, 0);
    QCOMPARE(cached, 1);
    // Changed in place with the same size: a new ctime, so it is hashed and the change is seen.
    writeText(bundle / "packages/a.pt2", "PACKAGE bytes");
    QCOMPARE(hashOnce(hashed, cached), sha256File(bundle / "packages/a.pt2"));
    QCOMPARE(hashed, 1);
    QVERIFY(hashOnce(hashed, cached) != original);
    // Forced, or disabled (an extracted zip): always read.
    QTest::qWait((kHashCacheSettleSeconds + 1) * 1000);
    (void)hashOnce(hashed, cached); // settled entry
    (void)hashOnce(hashed, cached);
    QCOMPARE(cached, 1);
    qputenv("AOTSTUDIO_VERIFY_FULL", "1");
    (void)hashOnce(hashed, cached);
    QCOMPARE(hashed, 1);
    qunsetenv("AOTSTUDIO_VERIFY_FULL");
    (void)hashOnce(hashed, cached, false);
    QCOMPARE(hashed, 1);
    // The cache file lives in the private cache folder.
    struct stat st {
    };
    QCOMPARE(::stat((root / "cache/hashes").c_str(), &st), 0);
    QCOMPARE(st.st_mode & 0777, 0700u);
    qunsetenv("AOTSTUDIO_CACHE_DIR");
}

void TestBundle::packageCacheExtractsOnce()
{
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    qputenv("AOTSTUDIO_CACHE_DIR", (root / "cache").c_str());
    makeRawZip(root / "m.pt2", {{"m/data/aotinductor/model/x.wrapper.so", "native code"}, {"m/data/constants/c", "constant"}});
    const fs::path dir = cachedPackageDir(root / "m.pt2");
    QCOMPARE(dir, root / "cache" / "packages" / sha256File(root / "m.pt2"));
    QCOMPARE(readText(dir / "m/data/aotinductor/model/x.wrapper.so"), std::string("native code"));
    struct stat first {};
    QCOMPARE(::stat((dir / "m/data/aotinductor/model/x.wrapper.so").c_str(), &first), 0);
    // Again, with the hash given (a bundle's manifest): the same folder, not extracted again.
    QCOMPARE(cachedPackageDir(root / "m.pt2", sha256File(root / "m.pt2")), dir);
    struct stat second {};
    QCOMPARE(::stat((dir / "m/data/aotinductor/model/x.wrapper.so").c_str(), &second), 0);
    QCOMPARE(second.st_ino, first.st_ino);
    QCOMPARE(second.st_ctim.tv_nsec, first.st_ctim.tv_nsec);
    // No partial folder is left; a partial folder of a process that is gone is removed.
    const fs::path stale = root / "cache/packages/.partial-999999999-abcdef";
    fs::create_directories(stale / "m");
    makeRawZip(root / "n.pt2", {{"n/data/aotinductor/model/y.wrapper.so", "other code"}});
    (void)cachedPackageDir(root / "n.pt2");
    for (const auto &e : fs::directory_iterator(root / "cache/packages"))
        QVERIFY2(e.path().filename().string().rfind(".partial", 0) != 0, e.path().c_str());
    // A hash that is not one: refused before anything is written.
    QVERIFY_THROWS_EXCEPTION(BundleError, cachedPackageDir(root / "m.pt2", "../../etc"));
    qunsetenv("AOTSTUDIO_CACHE_DIR");
}

void TestBundle::packageCacheRebuildsDamagedFolder()
{
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    qputenv("AOTSTUDIO_CACHE_DIR", (root / "cache").c_str());
    makeRawZip(root / "m.pt2", {{"m/data/aotinductor/model/x.wrapper.so", "native code"}});
    const fs::path dir = cachedPackageDir(root / "m.pt2");
    const fs::path so = dir / "m/data/aotinductor/model/x.wrapper.so";
    // Edited in place (same size), truncated, deleted, or a file added: each is extracted again.
    const std::vector<std::function<void()>> damages{
        [&] { writeText(so, "NATIVE CODE"); },
        [&] { fs::resize_file(so, 3); },
        [&] { fs::remove(so); },
        [&] { writeText(dir / "m/data/aotinductor/model/extra.so", "dropped in"); },
    };
    for (std::size_t i = 0; i < damages.size(); ++i) {
        damages[i]();
        QCOMPARE(cachedPackageDir(root / "m.pt2"), dir);
        QCOMPARE(readText(so), std::string("native code"));
        QVERIFY2(!fs::exists(dir / "m/data/aotinductor/model/extra.so"), std::to_string(i).c_str());
    }
    qunsetenv("AOTSTUDIO_CACHE_DIR");
}

// torch.save archives are checked before LibTorch reads them (bundle/torchsave.h): the files
// torch.save wrote pass; the inputs fuzz_input found (a central directory past the buffer, a memo
// index asking for 30 GB) are refused with what is wrong.
void TestBundle::torchSaveChecks_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("refusal"); // empty: accepted
    const QString corpus = QStringLiteral(AOTSTUDIO_FIXTURES_DIR "/../fuzz/corpus/input/");
    for (const char *ok : {"tensor.pt", "tuple.pt", "list.pt", "dict.pt", "nested.pt", "bool.pt", "strided_view.pt"})
        QTest::newRow(ok) << corpus + QLatin1String(ok) << QString();
    QTest::newRow("central directory past the buffer")
        << corpus + QStringLiteral("regress_central_dir_past_buffer.pt") << QStringLiteral("cannot be read");
    QTest::newRow("memo index asking for 30 GB")
        << corpus + QStringLiteral("regress_memo_index_alloc.pt") << QStringLiteral("memo index");
}

void TestBundle::torchSaveChecks()
{
    QFETCH(QString, file);
    QFETCH(QString, refusal);
    std::ifstream in(file.toStdString(), std::ios::binary);
    QVERIFY2(in, qPrintable(file));
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    try {
        checkTorchSave(bytes, "t");
        QVERIFY2(refusal.isEmpty(), "accepted a file that must be refused");
    } catch (const BundleError &e) {
        QVERIFY2(!refusal.isEmpty(), e.what());
        QVERIFY2(QString::fromStdString(e.what()).contains(refusal), e.what());
    }
}

void TestBundle::pickleWalk_data()
{
    QTest::addColumn<QByteArray>("pickle");
    QTest::addColumn<QString>("refusal");
    // PROTO 2, EMPTY_DICT, BINPUT 0, STOP: what torch.save starts and ends with.
    QTest::newRow("well formed") << QByteArray("\x80\x02}q\x00.", 6) << QString();
    QTest::newRow("no STOP") << QByteArray("\x80\x02}q\x00", 5) << QStringLiteral("no STOP");
    QTest::newRow("LONG_BINPUT far ahead")
        << QByteArray("\x80\x02}r\x00\x00\x00\x40.", 9) << QStringLiteral("memo index 1073741824");
    QTest::newRow("BINGET of nothing") << QByteArray("\x80\x02h\x03.", 5) << QStringLiteral("only 0 were put");
    QTest::newRow("BINBYTES8 longer than the stream") << QByteArray("\x80\x02\x8e\x00\x00\x00\xfa\x00\x00\x00\x00.", 12)
                                                      << QStringLiteral("declares 4194304000 bytes");
    QTest::newRow("BINUNICODE cut off") << QByteArray("X\x05\x00", 3) << QStringLiteral("cut off");
    QTest::newRow("not an opcode") << QByteArray("\x80\x02\xff.", 4) << QStringLiteral("0xff is not a pickle opcode");
    QTest::newRow("GLOBAL without its lines") << QByteArray("ctorch\n", 7) << QStringLiteral("end of line");
}

void TestBundle::pickleWalk()
{
    QFETCH(QByteArray, pickle);
    QFETCH(QString, refusal);
    try {
        checkPickle(std::string_view(pickle.constData(), std::size_t(pickle.size())), "p");
        QVERIFY2(refusal.isEmpty(), "accepted a pickle that must be refused");
    } catch (const BundleError &e) {
        QVERIFY2(!refusal.isEmpty(), e.what());
        QVERIFY2(QString::fromStdString(e.what()).contains(refusal), e.what());
    }
}

// The block layout's variant (export --layout blocks --variant): spelled as spaces'
// `_variant(name, v)` (`name.v`, or `name` without one), and a name that would leave its folder
// or hide it refused (Bundle::variantProblem). Microseconds.
void TestBundle::blockVariantNames_data()
{
    QTest::addColumn<QString>("variant");
    QTest::addColumn<bool>("accepted");
    QTest::newRow("plain") << QStringLiteral("fp16") << true;
    QTest::newRow("dash, dot, underscore") << QStringLiteral("bf16-sm_120.v2") << true;
    QTest::newRow("64 characters") << QString(64, QLatin1Char('a')) << true;
    QTest::newRow("empty") << QString() << false;
    QTest::newRow("65 characters") << QString(65, QLatin1Char('a')) << false;
    QTest::newRow("parent folder") << QStringLiteral("../up") << false;
    QTest::newRow("dot dot") << QStringLiteral("..") << false;
    QTest::newRow("hidden") << QStringLiteral(".fp16") << false;
    QTest::newRow("slash") << QStringLiteral("a/b") << false;
    QTest::newRow("backslash") << QStringLiteral("a\\b") << false;
    QTest::newRow("space") << QStringLiteral("fp 16") << false;
    QTest::newRow("newline") << QStringLiteral("fp16\n") << false;
    QTest::newRow("leading dash") << QStringLiteral("-fp16") << false;
}

void TestBundle::blockVariantNames()
{
    QFETCH(QString, variant);
    QFETCH(bool, accepted);
    const std::string v = variant.toStdString();
    const std::string why = variantProblem(v);
    QVERIFY2(why.empty() == accepted, why.c_str());
    if (accepted) {
        QCOMPARE(withVariant("Block", v), "Block." + v);
        QCOMPARE(withVariant(kBlocksConfigStem, v) + ".json", "config." + v + ".json");
    }
    QCOMPARE(withVariant("Block", ""), std::string("Block"));
    QCOMPARE(withVariant(kBlocksConfigStem, "") + ".json", std::string("config.json"));
}

QTEST_GUILESS_MAIN(TestBundle)
#include "tst_bundle.moc"
