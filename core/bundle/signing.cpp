// SPDX-License-Identifier: GPL-3.0-or-later
#include "bundle/signing.h"
#include "bundle/text.h"

#include "bundle/bundle.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace AotStudio::Bundle {

namespace {

/// OpenSSL's most recent error as text (its queue is cleared), or "unknown OpenSSL error".
std::string opensslError()
{
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    if (code == 0)
        return "unknown OpenSSL error";
    char buf[256];
    ERR_error_string_n(code, buf, sizeof buf);
    return buf;
}

using PkeyPtr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using BioPtr = std::unique_ptr<BIO, decltype(&BIO_free)>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

/// The whole of a small file, refusing anything over `maxBytes` on what was read (not on a size
/// the file system reports). Throws BundleError naming `what` and the file.
std::string readSmallFile(const fs::path &path, std::size_t maxBytes, const std::string &what)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw BundleError("cannot read " + what + " " + quoted(path) + ": " + std::strerror(errno));
    std::string data;
    char buffer[16 * 1024];
    while (true) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int e = errno;
            ::close(fd);
            throw BundleError("cannot read " + what + " " + quoted(path) + ": " + std::strerror(e));
        }
        if (n == 0)
            break;
        data.append(buffer, static_cast<std::size_t>(n));
        if (data.size() > maxBytes) {
            ::close(fd);
            throw BundleError(
                what + " " + quoted(path) + " is larger than " + std::to_string(maxBytes) + " bytes: not a " + what);
        }
    }
    ::close(fd);
    return data;
}

/// A passphrase callback that never prompts: an encrypted key fails to load instead of reading
/// the terminal (aotstudio-cli may run in CI or inside the engine).
int noPassphrase(char *, int, int, void *)
{
    return -1;
}

std::string rawPublicKey(EVP_PKEY *key)
{
    std::size_t length = 0;
    if (EVP_PKEY_get_raw_public_key(key, nullptr, &length) != 1 || length != 32)
        throw BundleError("OpenSSL cannot export the Ed25519 public key: " + opensslError());
    std::string raw(length, '\0');
    if (EVP_PKEY_get_raw_public_key(key, reinterpret_cast<unsigned char *>(raw.data()), &length) != 1)
        throw BundleError("OpenSSL cannot export the Ed25519 public key: " + opensslError());
    return raw;
}

std::string bioText(BIO *bio)
{
    char *data = nullptr;
    const long n = BIO_get_mem_data(bio, &data);
    return n > 0 ? std::string(data, static_cast<std::size_t>(n)) : std::string();
}

} // namespace

std::string keyIdOf(std::string_view rawPublicKey)
{
    if (rawPublicKey.size() != 32)
        throw BundleError("an Ed25519 public key has 32 bytes, not " + std::to_string(rawPublicKey.size()));
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(rawPublicKey.data(), rawPublicKey.size(), digest, &length, EVP_sha256(), nullptr) != 1)
        throw BundleError("OpenSSL SHA-256 failed: " + opensslError());
    static const char hex[] = "0123456789abcdef";
    std::string id;
    for (unsigned int i = 0; i < 8; ++i) {
        id += hex[digest[i] >> 4];
        id += hex[digest[i] & 0xf];
    }
    return id;
}

// --- SigningKey -----------------------------------------------------------------------------------

struct SigningKey::Impl {
    PkeyPtr key { nullptr, &EVP_PKEY_free };
};

SigningKey::SigningKey(std::unique_ptr<Impl> impl, fs::path file, std::string keyId)
    : m_impl(std::move(impl))
    , m_file(std::move(file))
    , m_keyId(std::move(keyId))
{ }

SigningKey::~SigningKey() = default;
SigningKey::SigningKey(SigningKey &&) noexcept = default;
SigningKey &SigningKey::operator=(SigningKey &&) noexcept = default;

SigningKey SigningKey::load(const fs::path &path)
{
    const std::string pem = readSmallFile(path, kMaxKeyFileBytes, "signing key");
    BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free);
    if (!bio)
        throw BundleError("OpenSSL cannot read memory: " + opensslError());
    auto impl = std::make_unique<Impl>();
    impl->key.reset(PEM_read_bio_PrivateKey(bio.get(), nullptr, &noPassphrase, nullptr));
    if (!impl->key) {
        ERR_clear_error();
        const bool encrypted = pem.find("ENCRYPTED") != std::string::npos;
        const bool isPublic = pem.find("PUBLIC KEY") != std::string::npos;
        throw BundleError("signing key " + quoted(path) + " is not "
            + (encrypted
                    ? std::string("usable: it is encrypted (write a plain copy with `openssl pkey -in KEY -out PLAIN`)")
                    : isPublic
                    ? std::string("a private key but a public one (sign with the private key; .pub files go into "
                                  "the trust store)")
                    : std::string("a PEM private key (make one with aotstudio-cli keygen KEYFILE)")));
    }
    if (EVP_PKEY_get_id(impl->key.get()) != EVP_PKEY_ED25519)
        throw BundleError("signing key " + quoted(path) + " is a " + OBJ_nid2sn(EVP_PKEY_get_id(impl->key.get()))
            + " key; bundles are signed with Ed25519 (make one with aotstudio-cli keygen KEYFILE)");
    const std::string id = keyIdOf(rawPublicKey(impl->key.get()));
    return SigningKey(std::move(impl), path, id);
}

json SigningKey::signerJson() const
{
    return { { "key_id", m_keyId }, { "algorithm", kSignatureAlgorithm } };
}

std::string SigningKey::sign(std::string_view message) const
{
    MdCtxPtr ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    std::size_t length = kSignatureBytes;
    std::string signature(kSignatureBytes, '\0');
    // Ed25519 hashes the message itself (PureEdDSA): no digest is named, and it is signed in one call.
    if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, m_impl->key.get()) != 1
        || EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char *>(signature.data()), &length,
               reinterpret_cast<const unsigned char *>(message.data()), message.size())
            != 1
        || length != kSignatureBytes)
        throw BundleError("OpenSSL cannot sign with " + quoted(m_file) + ": " + opensslError());
    return signature;
}

// --- public keys and the trust store ---------------------------------------------------------------

PublicKey loadPublicKey(const fs::path &path)
{
    const std::string pem = readSmallFile(path, kMaxKeyFileBytes, "public key");
    BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free);
    if (!bio)
        throw BundleError("OpenSSL cannot read memory: " + opensslError());
    PkeyPtr key(PEM_read_bio_PUBKEY(bio.get(), nullptr, &noPassphrase, nullptr), &EVP_PKEY_free);
    if (!key) {
        ERR_clear_error();
        const bool isPrivate = pem.find("PRIVATE KEY") != std::string::npos;
        throw BundleError("public key " + quoted(path) + " is not "
            + (isPrivate ? std::string("a public key but a PRIVATE one: never share it; trust its .pub twin")
                         : std::string(
                             "a PEM public key (\"BEGIN PUBLIC KEY\", as aotstudio-cli keygen writes KEYFILE.pub)")));
    }
    if (EVP_PKEY_get_id(key.get()) != EVP_PKEY_ED25519)
        throw BundleError("public key " + quoted(path) + " is a " + OBJ_nid2sn(EVP_PKEY_get_id(key.get()))
            + " key; bundles are signed with Ed25519");
    PublicKey out;
    out.raw = rawPublicKey(key.get());
    out.keyId = keyIdOf(out.raw);
    out.file = path;
    return out;
}

bool verifySignature(const PublicKey &key, std::string_view message, std::string_view signature)
{
    if (signature.size() != kSignatureBytes || key.raw.size() != 32)
        return false;
    PkeyPtr pkey(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr,
                     reinterpret_cast<const unsigned char *>(key.raw.data()), key.raw.size()),
        &EVP_PKEY_free);
    MdCtxPtr ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    const bool ok = pkey && ctx && EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, pkey.get()) == 1
        && EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char *>(signature.data()), signature.size(),
               reinterpret_cast<const unsigned char *>(message.data()), message.size())
            == 1;
    ERR_clear_error();
    return ok;
}

std::string generateKeyPair(const fs::path &privatePath, const fs::path &publicPath)
{
    std::error_code ec;
    for (const auto &p : { privatePath, publicPath })
        if (fs::exists(fs::symlink_status(p, ec)))
            throw BundleError(quoted(p) + " already exists: keygen never overwrites a key (choose another name)");
    PkeyPtr key(EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519"), &EVP_PKEY_free);
    if (!key)
        throw BundleError("OpenSSL cannot generate an Ed25519 key: " + opensslError());
    BioPtr priv(BIO_new(BIO_s_mem()), &BIO_free), pub(BIO_new(BIO_s_mem()), &BIO_free);
    if (!priv || !pub || PEM_write_bio_PrivateKey(priv.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1
        || PEM_write_bio_PUBKEY(pub.get(), key.get()) != 1)
        throw BundleError("OpenSSL cannot write the new key as PEM: " + opensslError());
    writeFileAtomic(privatePath, bioText(priv.get()), {0600, true}); // never over an existing key
    try {
        writeFileAtomic(publicPath, bioText(pub.get()), {0644, true});
    } catch (...) {
        ::unlink(privatePath.c_str());
        throw;
    }
    return keyIdOf(rawPublicKey(key.get()));
}

TrustStore TrustStore::load(const std::vector<fs::path> &sources)
{
    TrustStore store;
    store.m_sources = sources;
    for (const auto &source : sources) {
        std::error_code ec;
        const fs::file_status st = fs::status(source, ec);
        if (!fs::exists(st))
            throw BundleError("trust store " + quoted(source)
                + " does not exist (give a public key file or a folder of *.pub files)");
        if (fs::is_directory(st)) {
            std::vector<fs::path> files;
            for (fs::directory_iterator it(source, ec), end; !ec && it != end; it.increment(ec))
                if (it->path().extension() == ".pub" && it->is_regular_file(ec))
                    files.push_back(it->path());
            if (ec)
                throw BundleError("cannot list trust store folder " + quoted(source) + ": " + ec.message());
            std::sort(files.begin(), files.end());
            for (const auto &f : files)
                store.m_keys.push_back(loadPublicKey(f));
        } else {
            store.m_keys.push_back(loadPublicKey(source));
        }
    }
    return store;
}

TrustStore TrustStore::fromCommandLine(const std::vector<std::string> &trustPaths)
{
    const bool fromEnvironment = trustPaths.empty();
    const std::vector<fs::path> sources
        = fromEnvironment ? sourcesFromEnvironment() : std::vector<fs::path>(trustPaths.begin(), trustPaths.end());
    try {
        return load(sources);
    } catch (const BundleError &e) {
        throw BundleError(std::string(fromEnvironment ? kTrustEnvironment : "--trust") + ": " + validUtf8(e.what()));
    }
}

std::vector<fs::path> TrustStore::sourcesFromEnvironment()
{
    std::vector<fs::path> out;
    const char *env = std::getenv(kTrustEnvironment);
    if (!env)
        return out;
    const std::string value = env;
    std::size_t start = 0;
    while (start <= value.size()) {
        const std::size_t end = std::min(value.find(':', start), value.size());
        if (end > start)
            out.emplace_back(value.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

std::string TrustStore::describe() const
{
    std::string names;
    for (const auto &s : m_sources)
        names += (names.empty() ? "" : ", ") + quoted(s);
    return "the trust store (" + std::to_string(m_keys.size()) + (m_keys.size() == 1 ? " key" : " keys") + " from "
        + (names.empty() ? std::string("nowhere") : names) + ")";
}

// --- signing and checking bundles -------------------------------------------------------------------

void signBundle(const fs::path &bundleDir, const SigningKey &key)
{
    std::string bytes;
    const Manifest m = loadManifest(bundleDir, &bytes);
    if (m.signerKeyId != key.keyId())
        throw BundleError("manifest " + quoted(bundleDir / kManifestName) + " names "
            + (m.signerKeyId.empty() ? std::string("no signer") : "the signer " + m.signerKeyId) + ", not key "
            + key.keyId() + " of " + quoted(key.file()) + ": write it with \"signer\": SigningKey::signerJson() first");
    writeFileAtomic(bundleDir / kSignatureName, key.sign(bytes));
}

std::string SignatureCheck::stateName() const
{
    switch (state) {
    case State::Unsigned:
        return "unsigned";
    case State::Trusted:
        return "trusted";
    case State::Untrusted:
        return "untrusted";
    case State::Invalid:
        return "invalid";
    }
    return "invalid";
}

json SignatureCheck::toJson() const
{
    return { { "state", stateName() }, { "key_id", keyId.empty() ? json() : json(keyId) },
        { "key_file", keyFile.empty() ? json() : json(keyFile.string()) }, { "detail", detail } };
}

SignatureCheck checkSignature(const OpenedBundle &bundle, const TrustStore &trust)
{
    SignatureCheck c;
    c.keyId = bundle.manifest.signerKeyId;
    const fs::path sigPath = bundle.root / kSignatureName;
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(sigPath, ec);
    if (!fs::exists(st)) {
        c.state = SignatureCheck::State::Unsigned;
        c.detail = c.keyId.empty()
            ? "no manifest.sig"
            : "manifest.json names the signer " + c.keyId + " but there is no manifest.sig (removed?)";
        return c;
    }
    c.state = SignatureCheck::State::Invalid;
    if (!fs::is_regular_file(st)) {
        c.detail = "manifest.sig is not a regular file";
        return c;
    }
    std::string signature;
    try {
        signature = readSmallFile(sigPath, kSignatureBytes, "signature file");
    } catch (const BundleError &e) {
        c.detail = e.what();
        return c;
    }
    if (signature.size() != kSignatureBytes) {
        c.detail = "manifest.sig has " + std::to_string(signature.size()) + " bytes; an Ed25519 signature has 64";
        return c;
    }
    if (c.keyId.empty()) {
        c.detail = "manifest.sig is present but manifest.json names no signer";
        return c;
    }
    if (bundle.manifest.signerAlgorithm != kSignatureAlgorithm) {
        c.detail = "manifest.json names the signature algorithm '" + bundle.manifest.signerAlgorithm
            + "'; this runtime knows ed25519";
        return c;
    }
    bool known = false;
    for (const auto &key : trust.keys()) {
        if (key.keyId != c.keyId)
            continue;
        known = true;
        if (verifySignature(key, bundle.manifestBytes, signature)) {
            c.state = SignatureCheck::State::Trusted;
            c.keyFile = key.file;
            c.detail = "manifest.sig verifies against " + quoted(key.file);
            return c;
        }
    }
    if (known) {
        c.detail = "manifest.sig does not verify against the trusted key " + c.keyId
            + ": manifest.json was changed after it was signed, or the signature was forged";
        return c;
    }
    c.state = SignatureCheck::State::Untrusted;
    c.detail = !trust.configured() ? "there is no trust store to check it against"
        : trust.keys().empty()     ? trust.describe() + " holds no key"
                                   : "key " + c.keyId + " is not in " + trust.describe();
    return c;
}

std::optional<std::string> signatureRefusal(
    const SignatureCheck &check, const TrustStore &trust, bool allowUnsigned, const std::string &name)
{
    using S = SignatureCheck::State;
    if (check.state == S::Trusted)
        return std::nullopt;
    if (check.state == S::Invalid)
        return "bundle '" + name + "' has an invalid signature: " + check.detail
            + ". Refused even with --allow-unsigned (delete its manifest.sig to run it as an unsigned bundle)";
    if (!trust.configured() || allowUnsigned)
        return std::nullopt;
    if (check.state == S::Unsigned)
        return "bundle '" + name + "' is unsigned (" + check.detail + "), and " + trust.describe()
            + " only admits signed bundles: ask its maker to sign it (aotstudio-cli export --sign KEY), or pass "
              "--allow-unsigned to run it anyway";
    return "bundle '" + name + "' is signed by key " + check.keyId + ", which is not in " + trust.describe()
        + ": add the signer's public key to the trust store if you trust them, or pass --allow-unsigned to run it "
          "anyway";
}

bool refusalIsTrust(const SignatureCheck &check)
{
    return check.state == SignatureCheck::State::Unsigned || check.state == SignatureCheck::State::Untrusted;
}

std::string describeSignature(const SignatureCheck &check, const TrustStore &trust, bool allowUnsigned)
{
    using S = SignatureCheck::State;
    const std::string how = !trust.configured() ? " (no trust store: pass --trust KEYFILE or set AOTSTUDIO_TRUST)"
        : allowUnsigned                         ? " (allowed by --allow-unsigned)"
                                                : "";
    switch (check.state) {
    case S::Trusted:
        return "signed by key " + check.keyId + ", trusted (" + check.keyFile.string() + ")";
    case S::Untrusted:
        return "signed by key " + check.keyId + ", NOT checked"
            + (trust.configured() ? ": " + check.detail : std::string()) + how;
    case S::Unsigned:
        return "UNSIGNED: nothing vouches for who made it" + how;
    case S::Invalid:
        return "INVALID signature: " + check.detail;
    }
    return {};
}

} // namespace AotStudio::Bundle
