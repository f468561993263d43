// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a signed bundle from outside (core/runtime/BUNDLE.md "Signature"), checked the way
// `aotstudio-run --trust` and `inspect --trust` check it. The input is split: its first byte gives
// the length of manifest.sig (0..127; 255: no manifest.sig), those bytes follow, the rest is
// manifest.json of a small bundle folder. Trust stores: none, and the fixed test key below.
// Oracles: only BundleError is thrown, and only while opening (checkSignature never throws);
// "trusted" only with the key in the store, for exactly the bytes on disk and a signature that
// verifies, from a manifest naming that key; an invalid signature is refused even with
// --allow-unsigned; every line a tool would print dumps as strict JSON.
#include "bundle/bundle.h"
#include "bundle/signing.h"
#include "bundle/text.h"
#include "fuzzutil.h"

#include <cstddef>
#include <cstdint>
#include <fstream>

using namespace AotStudio;
using nlohmann::json;

namespace {

// A key made for this target alone (aotstudio-cli keygen): its private half signed the seeds in
// corpus/signature and was thrown away (new seeds: a new key here and `openssl pkeyutl -sign -rawin`).
constexpr const char *kTestPublicKey = "-----BEGIN PUBLIC KEY-----\n"
                                       "MCowBQYDK2VwAyEA/ESGuuymtnK1KWis6g9YG+AJ5ZPOX88GIbcIqScBEo8=\n"
                                       "-----END PUBLIC KEY-----\n";
constexpr const char *kTestKeyId = "095e0ac3d191c10e";

std::string readAll(const std::filesystem::path &p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void checkLines(const Bundle::SignatureCheck &c, const Bundle::TrustStore &trust)
{
    for (bool allow : {false, true}) {
        json j = c.toJson();
        j["summary"] = Bundle::describeSignature(c, trust, allow);
        const auto refusal = Bundle::signatureRefusal(c, trust, allow, "b");
        j["refused"] = refusal ? json(*refusal) : json();
        FuzzUtil::requireStrictJson(Bundle::validUtf8Json(j), "the signature verdict");
        if (c.state == Bundle::SignatureCheck::State::Invalid && !refusal)
            FuzzUtil::fail("an invalid signature was admitted");
        if (c.state == Bundle::SignatureCheck::State::Trusted && refusal)
            FuzzUtil::fail("a trusted signature was refused");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const std::filesystem::path dir = [] {
        const auto d = FuzzUtil::scratch() / "signed";
        FuzzUtil::writeFile(d / "packages/batch1.pt2", "package for batch 1\n");
        FuzzUtil::writeFile(FuzzUtil::scratch() / "keys/test.pub", kTestPublicKey);
        return d;
    }();
    static const Bundle::TrustStore trust = Bundle::TrustStore::load({FuzzUtil::scratch() / "keys"});
    static const Bundle::TrustStore none;
    if (size < 1)
        return 0;
    const std::size_t sigLength = data[0] == 255 ? 0 : std::min<std::size_t>(data[0] & 0x7f, size - 1);
    const std::string_view sig(reinterpret_cast<const char *>(data) + 1, sigLength);
    const std::string_view manifest(reinterpret_cast<const char *>(data) + 1 + sigLength, size - 1 - sigLength);
    FuzzUtil::writeFile(dir / Bundle::kManifestName, manifest);
    std::error_code ec;
    std::filesystem::remove_all(dir / Bundle::kSignatureName, ec);
    if (data[0] != 255)
        FuzzUtil::writeFile(dir / Bundle::kSignatureName, sig);

    Bundle::OpenedBundle opened;
    try {
        std::vector<Bundle::Problem> problems;
        opened = Bundle::openBundleUnverified(dir, problems);
    } catch (const Bundle::BundleError &e) {
        FuzzUtil::requireStrictJson(json{{"ok", false}, {"error", Bundle::validUtf8(e.what())}}, "the refusal");
        return 0;
    }
    if (opened.manifestBytes != manifest)
        FuzzUtil::fail("the manifest's bytes are not the ones on disk");
    const Bundle::SignatureCheck withKey = Bundle::checkSignature(opened, trust);
    const Bundle::SignatureCheck withNone = Bundle::checkSignature(opened, none);
    if (withNone.state == Bundle::SignatureCheck::State::Trusted)
        FuzzUtil::fail("trusted without a trust store");
    if (withKey.state == Bundle::SignatureCheck::State::Trusted) {
        if (opened.manifest.signerKeyId != kTestKeyId || withKey.keyId != kTestKeyId)
            FuzzUtil::fail("trusted, but the manifest names another signer");
        if (!Bundle::verifySignature(trust.keys().front(), readAll(dir / Bundle::kManifestName), sig))
            FuzzUtil::fail("trusted, but the signature does not verify on the bytes on disk");
    }
    checkLines(withKey, trust);
    checkLines(withNone, none);
    return 0;
}
