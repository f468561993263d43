// SPDX-License-Identifier: GPL-3.0-or-later
// Signed bundles (core/bundle/signing.h, BUNDLE.md "Signature") on fake bundles: keys, the
// detached signature over manifest.json's bytes, the trust store and the policy of aotstudio-run.
// aotstudio-run's own command line on signed bundles is in tst_aotstudio_run.
#include "bundle/bundle.h"
#include "bundle/signing.h"

#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace AotStudio::Bundle;
using nlohmann::json;
namespace fs = std::filesystem;
using State = SignatureCheck::State;

namespace {

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

json baseManifest()
{
    return json { { "model", "sample:fake" }, { "created", "2026-11-30T12:00:00Z" }, { "producer", "aotstudio test" },
        { "torch_version", "2.14.1+cu130" }, { "device", "cpu" }, { "compute_capability", nullptr },
        { "inputs", json::array({ json { { "shape", json::array({ "batch", 4 }) }, { "dtype", "float32" } } }) },
        { "outputs", json::array({ json { { "shape", json::array({ "batch", 2 }) }, { "dtype", "float32" } } }) },
        { "batch", { { "pad_safe", false } } },
        { "buckets",
            json::array({ json { { "name", "batch1" }, { "batch", 1 }, { "package", "packages/batch1.pt2" } } }) } };
}

/// A fake bundle under `dir`, signed by `key` when given (signer in the manifest, then manifest.sig).
void makeBundle(const fs::path &dir, const SigningKey *key)
{
    writeText(dir / "packages/batch1.pt2", "package for batch 1\n");
    writeText(dir / "report/result.json", "{\"ok\": true}\n");
    json m = baseManifest();
    if (key)
        m["signer"] = key->signerJson();
    writeManifest(dir, m);
    if (key)
        signBundle(dir, *key);
}

/// A key pair under `dir` named `name` (name.key, name.key.pub).
struct Keys {
    fs::path priv, pub;
    std::string id;
};

Keys makeKeys(const fs::path &dir, const std::string &name)
{
    Keys k { dir / (name + ".key"), dir / (name + ".key.pub"), {} };
    k.id = generateKeyPair(k.priv, k.pub);
    return k;
}

SignatureCheck check(const fs::path &bundle, const TrustStore &trust)
{
    return checkSignature(openBundle(bundle), trust);
}

bool contains(const std::string &haystack, const std::string &needle)
{
    return haystack.find(needle) != std::string::npos;
}

} // namespace

class TestSigning : public QObject
{
    Q_OBJECT

private slots:
    void keygenWritesPemPairOnce();
    void keyFilesRefusedWithReasons_data();
    void keyFilesRefusedWithReasons();
    void roundTripTrusted();
    void zipKeepsTheSignature();
    void untrustedKeyRefused();
    void resignedManifestWithChangedHashRefused();
    void changedManifestBreaksTheSignature();
    void unsignedRefusedWithoutAllowUnsigned();
    void malformedSignatureIsInvalid_data();
    void malformedSignatureIsInvalid();
    void trustStoreFolderAndErrors();
    void trustFromEnvironment();
    void writeManifestDropsStaleSignature();
    void manifestSignerField_data();
    void manifestSignerField();
    void opensslVerifiesOurSignature();
};

void TestSigning::keygenWritesPemPairOnce()
{
    QTemporaryDir tmp;
    const Keys k = makeKeys(tmp.path().toStdString(), "me");
    QCOMPARE(k.id.size(), std::size_t(16));
    QVERIFY(contains(readText(k.priv), "-----BEGIN PRIVATE KEY-----"));
    QVERIFY(contains(readText(k.pub), "-----BEGIN PUBLIC KEY-----"));
    struct stat st {
    };
    QCOMPARE(::stat(k.priv.c_str(), &st), 0);
    QCOMPARE(st.st_mode & 0777, mode_t(0600)); // the private key is the owner's alone
    QCOMPARE(SigningKey::load(k.priv).keyId(), k.id);
    QCOMPARE(loadPublicKey(k.pub).keyId, k.id);
    QCOMPARE(keyIdOf(loadPublicKey(k.pub).raw), k.id);
    // Never overwrites, and leaves the existing files as they were.
    const std::string before = readText(k.priv);
    try {
        generateKeyPair(k.priv, k.pub);
        QFAIL("keygen overwrote a key");
    } catch (const BundleError &e) {
        QVERIFY2(contains(e.what(), "already exists"), e.what());
    }
    QCOMPARE(readText(k.priv), before);
    const Keys other = makeKeys(tmp.path().toStdString(), "other");
    QVERIFY(other.id != k.id);
}

void TestSigning::keyFilesRefusedWithReasons_data()
{
    QTest::addColumn<bool>("asPrivate"); // loaded as a signing key (else as a trust store key)
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("needle");
    QTest::newRow("public key used to sign") << true << "public"
                                             << "a public one";
    QTest::newRow("private key in the trust store") << false << "private"
                                                    << "PRIVATE";
    QTest::newRow("garbage to sign") << true << "garbage"
                                     << "not a PEM private key";
    QTest::newRow("garbage in the trust store") << false << "garbage"
                                                << "not a PEM public key";
    QTest::newRow("huge key file") << false << "huge"
                                   << "larger than";
    QTest::newRow("missing key file") << true << "missing"
                                      << "cannot read";
}

void TestSigning::keyFilesRefusedWithReasons()
{
    QFETCH(bool, asPrivate);
    QFETCH(QString, kind);
    QFETCH(QString, needle);
    QTemporaryDir tmp;
    const Keys k = makeKeys(tmp.path().toStdString(), "k");
    fs::path file = kind == "public" ? k.pub
        : kind == "private"          ? k.priv
                                     : fs::path(tmp.path().toStdString()) / "x.pem";
    if (kind == "garbage")
        writeText(file, "hello\n");
    if (kind == "huge")
        writeText(file, std::string(kMaxKeyFileBytes + 10, 'A'));
    try {
        if (asPrivate)
            SigningKey::load(file);
        else
            loadPublicKey(file);
        QFAIL("accepted");
    } catch (const BundleError &e) {
        QVERIFY2(contains(e.what(), needle.toStdString()) && contains(e.what(), file.string()), e.what());
    }
}

void TestSigning::roundTripTrusted()
{
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    const Keys k = makeKeys(root, "me");
    const SigningKey key = SigningKey::load(k.priv);
    makeBundle(root / "b", &key);
    QVERIFY(fs::is_regular_file(root / "b" / kSignatureName));
    QCOMPARE(fs::file_size(root / "b" / kSignatureName), std::uintmax_t(64));
    const OpenedBundle b = openBundle(root / "b"); // manifest.sig is not an unlisted file
    QCOMPARE(b.manifest.signerKeyId, k.id);
    QCOMPARE(b.manifestBytes, readText(root / "b" / kManifestName));
    const TrustStore trust = TrustStore::load({ k.pub });
    const SignatureCheck c = checkSignature(b, trust);
    QCOMPARE(c.stateName(), std::string("trusted"));
    QCOMPARE(c.keyId, k.id);
    QCOMPARE(c.keyFile, k.pub);
    QVERIFY(!signatureRefusal(c, trust, false, "b"));
    const std::string line = describeSignature(c, trust, false);
    QVERIFY2(contains(line, "signed by key " + k.id) && contains(line, "trusted"), line.c_str());
    QCOMPARE(c.toJson()["key_id"].get<std::string>(), k.id);
}

void TestSigning::zipKeepsTheSignature()
{
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    const Keys k = makeKeys(root, "me");
    const SigningKey key = SigningKey::load(k.priv);
    makeBundle(root / "b", &key);
    zipDirectory(root / "b", root / "b.zip");
    QCOMPARE(check(root / "b.zip", TrustStore::load({ k.pub })).state, State::Trusted);
}

void TestSigning::untrustedKeyRefused()
{
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    const Keys mallory = makeKeys(root, "mallory");
    const Keys alice = makeKeys(root, "alice");
    const SigningKey key = SigningKey::load(mallory.priv);
    makeBundle(root / "b", &key);
    const TrustStore trust = TrustStore::load({ alice.pub });
    const SignatureCheck c = check(root / "b", trust);
    QCOMPARE(c.state, State::Untrusted);
    QCOMPARE(c.keyId, mallory.id);
    const auto refusal = signatureRefusal(c, trust, false, "b");
    QVERIFY(refusal);
    QVERIFY2(contains(*refusal, "signed by key " + mallory.id) && contains(*refusal, "not in the trust store")
            && contains(*refusal, "--allow-unsigned"),
        refusal->c_str());
    QVERIFY(!signatureRefusal(c, trust, true, "b")); // the user's explicit choice
    // Without any trust store nothing can be checked, and the line says so.
    const TrustStore none;
    QVERIFY(!signatureRefusal(check(root / "b", none), none, false, "b"));
    const std::string line = describeSignature(check(root / "b", none), none, false);
    QVERIFY2(contains(line, "NOT checked") && contains(line, "--trust"), line.c_str());
}

void TestSigning::resignedManifestWithChangedHashRefused()
{
    // Mallory replaces a package, writes a manifest with its hash and signs it with his own key.
    // Every hash matches, so integrity alone would pass: the trust store must refuse it.
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    const Keys alice = makeKeys(root, "alice");
    const Keys mallory = makeKeys(root, "mallory");
    const SigningKey aliceKey = SigningKey::load(alice.priv);
    const SigningKey malloryKey = SigningKey::load(mallory.priv);
    makeBundle(root / "b", &aliceKey);
    const std::string oldHash = loadManifest(root / "b").files.at("packages/batch1.pt2").sha256;
    writeText(root / "b/packages/batch1.pt2", "evil package\n");
    json m = loadManifest(root / "b").raw;
    m.erase("files");
    m["signer"] = malloryKey.signerJson();
    writeManifest(root / "b", m);
    signBundle(root / "b", malloryKey);
    QVERIFY(loadManifest(root / "b").files.at("packages/batch1.pt2").sha256 != oldHash);
    QVERIFY(verify(root / "b", loadManifest(root / "b")).empty()); // intact as far as hashes go
    const TrustStore trust = TrustStore::load({ alice.pub });
    const SignatureCheck c = check(root / "b", trust);
    QCOMPARE(c.state, State::Untrusted);
    QVERIFY(signatureRefusal(c, trust, false, "b"));

    // Or he keeps Alice's key id and her old signature: the signature no longer verifies, and
    // that is refused even with --allow-unsigned.
    m["signer"] = aliceKey.signerJson();
    writeManifest(root / "b", m);
    writeText(root / "b" / kSignatureName, malloryKey.sign(readText(root / "b" / kManifestName)));
    const SignatureCheck forged = check(root / "b", trust);
    QCOMPARE(forged.state, State::Invalid);
    const auto refusal = signatureRefusal(forged, trust, true, "b");
    QVERIFY(refusal);
    QVERIFY2(
        contains(*refusal, "invalid signature") && contains(*refusal, "changed after it was signed"), refusal->c_str());
}

void TestSigning::changedManifestBreaksTheSignature()
{
    // One hash edited in manifest.json's bytes (and the package to match), no new signature.
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    const Keys alice = makeKeys(root, "alice");
    const SigningKey key = SigningKey::load(alice.priv);
    makeBundle(root / "b", &key);
    const fs::path pkg = root / "b/packages/batch1.pt2";
    const std::string oldHash = sha256File(pkg);
    writeText(pkg, "package for batch 2\n"); // same size
    std::string text = readText(root / "b" / kManifestName);
    text.replace(text.find(oldHash), oldHash.size(), sha256File(pkg));
    writeText(root / "b" / kManifestName, text);
    const TrustStore trust = TrustStore::load({ alice.pub });
    QVERIFY(verify(root / "b", loadManifest(root / "b")).empty());
    QCOMPARE(check(root / "b", trust).state, State::Invalid);
    QVERIFY(signatureRefusal(check(root / "b", trust), trust, true, "b"));
    // Whitespace is a change too: the signature covers the exact bytes, not a canonical form.
    makeBundle(root / "c", &key);
    writeText(root / "c" / kManifestName, readText(root / "c" / kManifestName) + "\n");
    QCOMPARE(check(root / "c", trust).state, State::Invalid);
}

void TestSigning::unsignedRefusedWithoutAllowUnsigned()
{
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    const Keys alice = makeKeys(root, "alice");
    makeBundle(root / "b", nullptr);
    const TrustStore trust = TrustStore::load({ alice.pub });
    const SignatureCheck c = check(root / "b", trust);
    QCOMPARE(c.state, State::Unsigned);
    QVERIFY(c.keyId.empty());
    const auto refusal = signatureRefusal(c, trust, false, "b");
    QVERIFY(refusal);
    QVERIFY2(
        contains(*refusal, "is unsigned") && contains(*refusal, "--allow-unsigned") && contains(*refusal, "--sign"),
        refusal->c_str());
    QVERIFY(!signatureRefusal(c, trust, true, "b"));
    QVERIFY(contains(describeSignature(c, trust, true), "UNSIGNED"));
    // No trust store: existing unsigned bundles keep running, with a line that says so.
    const TrustStore none;
    QVERIFY(!none.configured());
    QVERIFY(!signatureRefusal(c, none, false, "b"));
    QVERIFY(contains(describeSignature(c, none, false), "UNSIGNED"));
    // A configured but empty trust store trusts nobody.
    fs::create_directories(root / "empty");
    const TrustStore empty = TrustStore::load({ root / "empty" });
    QVERIFY(empty.configured() && empty.keys().empty());
    QVERIFY(signatureRefusal(c, empty, false, "b"));
    // A stripped signature of a signed bundle is an unsigned bundle, and says what it lost.
    const SigningKey key = SigningKey::load(alice.priv);
    makeBundle(root / "s", &key);
    fs::remove(root / "s" / kSignatureName);
    const SignatureCheck stripped = check(root / "s", trust);
    QCOMPARE(stripped.state, State::Unsigned);
    QVERIFY2(contains(stripped.detail, "no manifest.sig"), stripped.detail.c_str());
    QVERIFY(signatureRefusal(stripped, trust, false, "s"));
}

void TestSigning::malformedSignatureIsInvalid_data()
{
    QTest::addColumn<QString>("kind");
    QTest::newRow("short") << "short";
    QTest::newRow("long") << "long";
    QTest::newRow("empty") << "empty";
    QTest::newRow("no signer in the manifest") << "nosigner";
    QTest::newRow("unknown algorithm") << "algorithm";
    QTest::newRow("a folder") << "folder";
}

void TestSigning::malformedSignatureIsInvalid()
{
    QFETCH(QString, kind);
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    const Keys alice = makeKeys(root, "alice");
    const SigningKey key = SigningKey::load(alice.priv);
    const fs::path b = root / "b";
    const fs::path sig = b / kSignatureName;
    if (kind == "nosigner" || kind == "algorithm") {
        writeText(b / "packages/batch1.pt2", "package\n");
        json m = baseManifest();
        if (kind == "algorithm")
            m["signer"] = { { "key_id", key.keyId() }, { "algorithm", "rsa" } };
        writeManifest(b, m);
        writeText(sig, key.sign(readText(b / kManifestName)));
    } else {
        makeBundle(b, &key);
        const std::string good = readText(sig);
        if (kind == "short")
            writeText(sig, good.substr(0, 63));
        else if (kind == "long")
            writeText(sig, good + "x");
        else if (kind == "empty")
            writeText(sig, "");
        else if (kind == "folder") {
            fs::remove(sig);
            fs::create_directories(sig);
        }
    }
    const TrustStore trust = TrustStore::load({ alice.pub });
    std::vector<Problem> problems;
    const OpenedBundle opened = openBundleUnverified(b, problems);
    const SignatureCheck c = checkSignature(opened, trust);
    QVERIFY2(c.state == State::Invalid, c.detail.c_str());
    QVERIFY(!c.detail.empty());
    QVERIFY(signatureRefusal(c, trust, true, "b"));
    QVERIFY(signatureRefusal(c, TrustStore(), true, "b")); // invalid is refused even without a trust store
}

void TestSigning::trustStoreFolderAndErrors()
{
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    fs::create_directories(root / "keys");
    const Keys alice = makeKeys(root / "keys", "alice");
    const Keys bob = makeKeys(root / "keys", "bob");
    writeText(root / "keys/README", "not a key, not a .pub: ignored\n");
    const TrustStore store = TrustStore::load({ root / "keys" });
    QCOMPARE(store.keys().size(), std::size_t(2)); // alice.key.pub, bob.key.pub; not the .key files
    QVERIFY(contains(store.describe(), "2 keys"));
    const SigningKey key = SigningKey::load(bob.priv);
    makeBundle(root / "b", &key);
    QCOMPARE(check(root / "b", store).state, State::Trusted);

    try {
        TrustStore::load({ root / "nowhere" });
        QFAIL("a missing trust store loaded");
    } catch (const BundleError &e) {
        QVERIFY2(contains(e.what(), "does not exist"), e.what());
    }
    writeText(root / "keys/broken.pub", "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n");
    try {
        TrustStore::load({ root / "keys" });
        QFAIL("a broken key file in the trust store was ignored");
    } catch (const BundleError &e) {
        QVERIFY2(contains(e.what(), "broken.pub"), e.what());
    }
}

void TestSigning::trustFromEnvironment()
{
    const QByteArray saved = qgetenv(kTrustEnvironment);
    qputenv(kTrustEnvironment, "/a/b.pub::/c/keys");
    const auto sources = TrustStore::sourcesFromEnvironment();
    QCOMPARE(sources.size(), std::size_t(2));
    QCOMPARE(sources[0], fs::path("/a/b.pub"));
    QCOMPARE(sources[1], fs::path("/c/keys"));
    qunsetenv(kTrustEnvironment);
    QVERIFY(TrustStore::sourcesFromEnvironment().empty());

    // A command's store: --trust wins over the environment; an error names where the store came from.
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    const Keys alice = makeKeys(root, "alice");
    qputenv(kTrustEnvironment, QByteArray::fromStdString((root / "nowhere").string()));
    QCOMPARE(TrustStore::fromCommandLine({alice.pub.string()}).keys().size(), std::size_t(1));
    try {
        TrustStore::fromCommandLine({});
        QFAIL("a missing $AOTSTUDIO_TRUST source loaded");
    } catch (const BundleError &e) {
        QVERIFY2(std::string(e.what()).rfind(std::string(kTrustEnvironment) + ": ", 0) == 0, e.what());
    }
    try {
        TrustStore::fromCommandLine({(root / "nowhere.pub").string()});
        QFAIL("a missing --trust source loaded");
    } catch (const BundleError &e) {
        QVERIFY2(std::string(e.what()).rfind("--trust: ", 0) == 0 && contains(e.what(), "nowhere.pub"), e.what());
    }
    qunsetenv(kTrustEnvironment);
    QVERIFY(!TrustStore::fromCommandLine({}).configured()); // neither: no store, not an error
    if (!saved.isNull())
        qputenv(kTrustEnvironment, saved);
}

void TestSigning::writeManifestDropsStaleSignature()
{
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    const Keys alice = makeKeys(root, "alice");
    const SigningKey key = SigningKey::load(alice.priv);
    makeBundle(root / "b", &key);
    json m = loadManifest(root / "b").raw;
    m.erase("files");
    writeManifest(root / "b", m); // e.g. export's second manifest after the cold start
    QVERIFY(!fs::exists(root / "b" / kSignatureName));
    QVERIFY(!loadManifest(root / "b").files.count(kSignatureName));
    signBundle(root / "b", key);
    QCOMPARE(check(root / "b", TrustStore::load({ alice.pub })).state, State::Trusted);
    // signBundle refuses a manifest that names another signer (the claim would be a lie).
    const Keys bob = makeKeys(root, "bob");
    try {
        signBundle(root / "b", SigningKey::load(bob.priv));
        QFAIL("signed a manifest that names another signer");
    } catch (const BundleError &e) {
        QVERIFY2(contains(e.what(), alice.id) && contains(e.what(), bob.id), e.what());
    }
}

void TestSigning::manifestSignerField_data()
{
    QTest::addColumn<QString>("patch"); // JSON merged into a valid manifest
    QTest::addColumn<QString>("needle");
    QTest::newRow("signer not an object") << R"({"signer": "alice"})"
                                          << "signer: must be an object";
    QTest::newRow("key id too short") << R"({"signer": {"key_id": "abc", "algorithm": "ed25519"}})"
                                      << "signer.key_id";
    QTest::newRow("key id upper case") << R"({"signer": {"key_id": "ABCDEF0123456789", "algorithm": "ed25519"}})"
                                       << "signer.key_id";
    QTest::newRow("no algorithm") << R"({"signer": {"key_id": "abcdef0123456789"}})"
                                  << "signer.algorithm: missing";
    QTest::newRow("manifest.sig listed")
        << R"({"files": {"manifest.sig": {"sha256": "0000000000000000000000000000000000000000000000000000000000000000", "bytes": 64}}})"
        << "manifest.sig is not listed";
}

void TestSigning::manifestSignerField()
{
    QFETCH(QString, patch);
    QFETCH(QString, needle);
    json m = baseManifest();
    m["format"] = kFormat;
    m["format_version"] = 1;
    m["files"] = json::object();
    m.merge_patch(json::parse(patch.toStdString()));
    try {
        parseManifest(m, "test");
        QFAIL("accepted");
    } catch (const BundleError &e) {
        QVERIFY2(contains(e.what(), needle.toStdString()), e.what());
    }
}

void TestSigning::opensslVerifiesOurSignature()
{
    // The format is plain Ed25519 over the file's bytes: stock OpenSSL checks it without us.
    const QString openssl = QStandardPaths::findExecutable(QStringLiteral("openssl"));
    if (openssl.isEmpty())
        QSKIP("no openssl command on PATH");
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    const Keys alice = makeKeys(root, "alice");
    const SigningKey key = SigningKey::load(alice.priv);
    makeBundle(root / "b", &key);
    QProcess p;
    p.start(openssl,
        { "pkeyutl", "-verify", "-pubin", "-inkey", QString::fromStdString(alice.pub.string()), "-rawin", "-in",
            QString::fromStdString((root / "b" / kManifestName).string()), "-sigfile",
            QString::fromStdString((root / "b" / kSignatureName).string()) });
    QVERIFY(p.waitForFinished(30000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QVERIFY2(p.readAllStandardOutput().contains("Signature Verified Successfully"), "openssl did not verify");
}

QTEST_GUILESS_MAIN(TestSigning)
#include "tst_signing.moc"
