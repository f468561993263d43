// SPDX-License-Identifier: GPL-3.0-or-later
#include "signcmd.h"
#include "command.h"

#include "bundle/bundle.h"
#include "bundle/signing.h"
#include "bundle/text.h"
#include "protocol/envelope.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>

namespace AotStudio::Cli {

void addKeygenOptions(CLI::App &cmd, KeygenOptions &options)
{
    cmd.add_option("keyfile", options.keyFile,
                   "Private key file to create (KEYFILE.pub is written beside it); never "
                   "overwritten")
        ->required();
    cmd.add_flag("--json", options.json,
                 "Print the JSON envelope: {\"ok\": true, \"result\": {key_id, private_key, public_key}}");
    cmd.footer(
        "The files are PEM (PKCS#8 and SubjectPublicKeyInfo), as `openssl genpkey -algorithm ed25519` writes them.\n"
        "Sign: aotstudio-cli export ... --sign KEYFILE. Trust: aotstudio-run BUNDLE --trust KEYFILE.pub (or a folder\n"
        "of *.pub files, or $AOTSTUDIO_TRUST). Exit status: 0 written, 1 a file exists or cannot be written, 2 bad "
        "command\n"
        "line.");
}

int runKeygen(const KeygenOptions &options)
{
    const std::filesystem::path priv = options.keyFile;
    const std::filesystem::path pub = options.keyFile + ".pub";
    std::string keyId;
    try {
        keyId = Bundle::generateKeyPair(priv, pub);
    } catch (const Bundle::BundleError &e) {
        std::fprintf(stderr, "aotstudio-cli: keygen: %s\n", Bundle::validUtf8(e.what()).c_str());
        if (options.json)
            Protocol::printEnvelope(
                stdout, Protocol::errorEnvelope(Protocol::Error{"keygen", Protocol::Code::Failed, e.what(), ""}));
        return Protocol::kExitFailed;
    }
    if (options.json) {
        Protocol::printEnvelope(
            stdout,
            Protocol::okEnvelope(nlohmann::json{{"key_id", keyId},
                                                {"algorithm", Bundle::kSignatureAlgorithm},
                                                {"private_key", std::filesystem::absolute(priv).string()},
                                                {"public_key", std::filesystem::absolute(pub).string()}}));
        return 0;
    }
    std::printf("key id:       %s (Ed25519)\n", keyId.c_str());
    std::printf(
        "private key:  %s (mode 0600: keep it secret; sign with export --sign %s)\n", priv.c_str(), priv.c_str());
    std::printf("public key:   %s (give it to whoever runs your bundles: aotstudio-run BUNDLE --trust %s)\n",
        pub.c_str(), pub.c_str());
    return 0;
}

std::optional<std::string> checkSigningKey(const std::string &keyFile)
{
    try {
        Bundle::SigningKey::load(keyFile);
    } catch (const Bundle::BundleError &e) {
        return "aotstudio-cli: export: --sign: " + Bundle::validUtf8(e.what());
    }
    return std::nullopt;
}

std::optional<Bundle::TrustStore> loadTrustStore(const std::vector<std::string> &trustPaths, const char *command)
{
    try {
        return Bundle::TrustStore::fromCommandLine(trustPaths);
    } catch (const Bundle::BundleError &e) {
        std::fprintf(stderr, "aotstudio-cli: %s: %s\n", command, e.what());
        return std::nullopt;
    }
}

Command keygenCommand()
{
    auto o = std::make_shared<KeygenOptions>();
    return {
        "keygen",
        "Make an Ed25519 key pair for signing bundles: KEYFILE (private, keep it secret) and KEYFILE.pub (give it to "
        "whoever runs your bundles)",
        [o](CLI::App &cmd) { addKeygenOptions(cmd, *o); },
        [] { return std::string(); },
        [o](const Globals &) { return runKeygen(*o); },
        [o] { return o->json; }};
}

} // namespace AotStudio::Cli
