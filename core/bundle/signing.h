// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Signed bundles (core/runtime/BUNDLE.md "Signature"): Ed25519 through OpenSSL's EVP, keys as PEM
// files that `openssl pkey` reads too. What is signed is the exact bytes of manifest.json, in a
// detached file manifest.sig (the 64 raw signature bytes); the manifest lists the SHA-256 of every
// other file, so the signature covers the whole bundle. No torch, no Qt.

#include "bundle/bundle.h" // kSignatureName

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace AotStudio::Bundle {

struct OpenedBundle; // bundle/bundle.h

inline constexpr const char *kSignatureAlgorithm = "ed25519";
inline constexpr std::size_t kSignatureBytes = 64; ///< an Ed25519 signature
inline constexpr std::size_t kMaxKeyFileBytes = 64 * 1024; ///< a PEM key file larger than this is refused
inline constexpr const char *kTrustEnvironment = "AOTSTUDIO_TRUST"; ///< ':'-separated key files or folders

/// The id of an Ed25519 public key: the first 16 hex digits of the SHA-256 of its 32 raw bytes.
/// It names a key in messages and lets the verifier find it in a trust store; trust itself is
/// decided by the signature verifying against the full key. Throws BundleError when `rawPublicKey`
/// is not 32 bytes.
std::string keyIdOf(std::string_view rawPublicKey);

/// A private Ed25519 key loaded from a PEM file (PKCS#8, as `aotstudio-cli keygen` and `openssl
/// genpkey -algorithm ed25519` write it).
class SigningKey
{
public:
    /// Read `path`. Throws BundleError naming the file when it cannot be read, is larger than
    /// kMaxKeyFileBytes, is encrypted (no passphrase prompt: decrypt it with `openssl pkey`), or is
    /// not an Ed25519 private key.
    static SigningKey load(const std::filesystem::path &path);
    ~SigningKey();
    SigningKey(SigningKey &&) noexcept;
    SigningKey &operator=(SigningKey &&) noexcept;

    const std::string &keyId() const { return m_keyId; }
    const std::filesystem::path &file() const { return m_file; }
    /// The manifest's "signer" object for this key: {"key_id", "algorithm": "ed25519"}.
    nlohmann::json signerJson() const;
    /// The 64-byte Ed25519 signature of `message`. Throws BundleError when OpenSSL fails.
    std::string sign(std::string_view message) const;

private:
    struct Impl;
    explicit SigningKey(std::unique_ptr<Impl> impl, std::filesystem::path file, std::string keyId);
    std::unique_ptr<Impl> m_impl;
    std::filesystem::path m_file;
    std::string m_keyId;
};

/// One public key of a trust store.
struct PublicKey {
    std::string raw; ///< the 32 raw Ed25519 public key bytes
    std::string keyId; ///< keyIdOf(raw)
    std::filesystem::path file; ///< where it was read from
};

/// Read an Ed25519 public key from a PEM file (SubjectPublicKeyInfo, "BEGIN PUBLIC KEY"). Throws
/// BundleError naming the file when it cannot be read, is larger than kMaxKeyFileBytes, or holds
/// no Ed25519 public key (a private key given by mistake is named as such).
PublicKey loadPublicKey(const std::filesystem::path &path);

/// True when `signature` is a valid Ed25519 signature of `message` by `key`.
bool verifySignature(const PublicKey &key, std::string_view message, std::string_view signature);

/// Make a new key pair: the private key to `privatePath` (PEM, PKCS#8, mode 0600) and the public
/// key to `publicPath` (PEM). Neither file may exist (nothing is overwritten, nothing is left
/// behind on failure). Returns the key id. Throws BundleError naming the file on any error.
std::string generateKeyPair(const std::filesystem::path &privatePath, const std::filesystem::path &publicPath);

/// The public keys a bundle may be signed by: key files and folders (every `*.pub` in a folder,
/// not recursive). An empty list of sources means no trust store is configured.
class TrustStore
{
public:
    TrustStore() = default;
    /// Read every source. Throws BundleError naming the path when one does not exist, cannot be
    /// listed or read, or a key file in it is not an Ed25519 public key (a trust store that cannot
    /// be read is an error, never an empty one).
    static TrustStore load(const std::vector<std::filesystem::path> &sources);
    /// The sources named by $AOTSTUDIO_TRUST (':'-separated; empty parts ignored); empty when unset.
    static std::vector<std::filesystem::path> sourcesFromEnvironment();
    /// A command's trust store: the `--trust` paths when any, else $AOTSTUDIO_TRUST (BUNDLE.md "Who
    /// may load a bundle"); the one rule every command and runtime uses. Throws BundleError whose
    /// message starts with where the store came from ("--trust: " or "AOTSTUDIO_TRUST: ") when a
    /// source is missing or a key does not read: never an empty store in place of a broken one.
    static TrustStore fromCommandLine(const std::vector<std::string> &trustPaths);

    /// Whether any source was given (a configured store may still hold no key, and then trusts none).
    bool configured() const { return !m_sources.empty(); }
    const std::vector<PublicKey> &keys() const { return m_keys; }
    const std::vector<std::filesystem::path> &sources() const { return m_sources; }
    /// "the trust store (2 keys from 'keys/', 'alice.pub')", for messages.
    std::string describe() const;

private:
    std::vector<std::filesystem::path> m_sources;
    std::vector<PublicKey> m_keys;
};

/// Sign the bundle at `bundleDir`: write `bundleDir/manifest.sig`, the signature of manifest.json's
/// exact bytes. The manifest must already name this key as its signer (`"signer": {"key_id"}`,
/// written before writeManifest() by the caller), so the claim of who signed is itself signed.
/// Throws BundleError when the manifest is missing or unreadable, names another signer or none,
/// or the signature cannot be written.
void signBundle(const std::filesystem::path &bundleDir, const SigningKey &key);

/// What a bundle's signature says, checked against a trust store.
struct SignatureCheck {
    enum class State {
        Unsigned, ///< no manifest.sig
        Trusted, ///< manifest.sig verifies against a key of the trust store
        Untrusted, ///< signed by a key that is not in the trust store (not checkable without it)
        Invalid, ///< manifest.sig does not verify against the key it names, or is malformed
    };
    State state = State::Unsigned;
    std::string keyId; ///< the manifest's signer.key_id (empty when none)
    std::filesystem::path keyFile; ///< the trusted key that verified it (Trusted only)
    std::string detail; ///< one sentence: what was found, e.g. the malformation
    /// "unsigned", "trusted", "untrusted" or "invalid".
    std::string stateName() const;
    /// {"state", "key_id", "key_file", "detail"} (absent values as null).
    nlohmann::json toJson() const;
};

/// Check the signature of an opened bundle: `manifestBytes` are the bytes its manifest was parsed
/// from (OpenedBundle::manifestBytes), so what is verified is exactly what was read. Never throws
/// (std::bad_alloc aside): a malformed or unreadable manifest.sig is State::Invalid.
SignatureCheck checkSignature(const OpenedBundle &bundle, const TrustStore &trust);

/// The policy of aotstudio-run and inspect (BUNDLE.md "Who may load a bundle"): the refusal as one
/// sentence naming the bundle (`name`), or nullopt when the bundle may load. Invalid: always
/// refused. Trusted: loads. Unsigned or Untrusted: refused when a trust store is configured unless
/// `allowUnsigned`; without a trust store it loads (describeSignature() says that nothing was
/// authenticated).
std::optional<std::string> signatureRefusal(
    const SignatureCheck &check, const TrustStore &trust, bool allowUnsigned, const std::string &name);

/// Whether a refusal by signatureRefusal() is one of trust, lifted by `allow_unsigned` or by the
/// signer's key in the trust store (an unsigned or foreign-signed bundle), as against a broken
/// signature that nothing lifts. The engine, aotstudio-run and inspect give the first the error
/// code `untrusted` (FORMAT.md "Error codes"), so a caller can ask its user and try again.
bool refusalIsTrust(const SignatureCheck &check);

/// One line for the report: "signed by key 1a2b3c4d5e6f7a8b, trusted (keys/alice.pub)", "UNSIGNED:
/// nothing vouches for who made it (no trust store: pass --trust KEYFILE or set AOTSTUDIO_TRUST)", ...
std::string describeSignature(const SignatureCheck &check, const TrustStore &trust, bool allowUnsigned);

} // namespace AotStudio::Bundle
