// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The steps of aotstudio-run that the one-shot run and the serving mode (serve.h) share, so that
// both apply the same trust, verification and input rules and give the same messages: the trust
// store, open + verify + signature, "can it run here", a request's bucket and inputs, and the
// outputs' summary as --json prints it.
#include "bundle/bundle.h"
#include "bundle/signing.h"
#include "runtime/aotirunner.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace AotStudio::RunApp {

/// A request or a bundle that aotstudio-run does not run: `stage` "refused" (the bundle, the
/// device, the inputs) or "failed" (loading or running), and a one-line message. `code` is the
/// FORMAT.md error code when it is not the stage's own (errorJson()): `untrusted` for a bundle
/// the trust store does not admit (Bundle::refusalIsTrust), as the engine says for the same bundle.
class Refusal : public std::runtime_error
{
public:
    Refusal(std::string stage, const std::string &message, std::string code = {})
        : std::runtime_error(message)
        , m_stage(std::move(stage))
        , m_code(std::move(code))
    { }
    const std::string &stage() const { return m_stage; }
    const std::string &code() const { return m_code; }

private:
    std::string m_stage;
    std::string m_code;
};

/// A trust store that cannot be read (a usage error, exit 2); the message names its source
/// ("--trust: ..." or "$AOTSTUDIO_TRUST: ...").
class TrustStoreError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// The trust store from `--trust` paths, else from $AOTSTUDIO_TRUST (BUNDLE.md "Who may load a
/// bundle"). Throws TrustStoreError when a path is missing or a key does not read: never an empty
/// store in place of a broken one.
Bundle::TrustStore loadTrustStore(const std::vector<std::string> &trustPaths);

/// A bundle opened, every hash verified and its signature accepted by the trust rules.
struct VerifiedBundle {
    Bundle::OpenedBundle bundle;
    Bundle::SignatureCheck signature;
    std::string signatureLine; ///< describeSignature()'s sentence for the report
    std::string path; ///< as the user named it, for messages
    double verifyMs = 0; ///< open (and extract) + hashes + signature, ms
};

/// Open `path` (a directory, or a zip extracted to a private temporary folder), verify every
/// file's SHA-256, then the signature against `trust`. Nothing of the bundle is loaded. Throws
/// Refusal("refused") with BUNDLE.md's message for every refusal.
VerifiedBundle openVerified(const std::string &path, const Bundle::TrustStore &trust, bool allowUnsigned);

/// Whether the bundle can run on this machine: torch version, format, and for a CUDA bundle a
/// CUDA device with a recent enough compute capability. Throws Refusal("refused") naming every
/// reason. `cudaAvailable` and `capability` ("9.0"; empty without CUDA) come from the caller, so
/// that a server that must not initialise CUDA can ask a child (see serve.h).
void checkRunsHere(const VerifiedBundle &vb, bool cudaAvailable, const std::string &capability);

/// What one request runs: the batch, its inputs (a file's tensors, or none: generated from the
/// seed) and the bucket that answers it.
struct RequestPlan {
    long long batch = 0;
    std::shared_ptr<const Runtime::InputFile> inputFile; ///< null: generated inputs
    Bundle::BucketChoice choice;
};

/// Choose the bucket for a request with `batch` rows (default: the first exact bucket's batch, or
/// the dynamic bucket's minimum), or for the tensors of `inputPath` (torch.save format; the batch
/// is the first tensor's first dimension; then `batch`, when given, must agree). The file's
/// tensors are checked against the manifest's shapes and dtypes and the bucket's guards (a size
/// an exact bucket was not compiled for moves to the dynamic bucket when its guards take it).
/// Reads the input file with LibTorch (no forward runs). Throws Refusal("refused") with the
/// message aotstudio-run prints.
RequestPlan planRequest(const VerifiedBundle &vb, std::optional<long long> batch, const std::string &inputPath);

/// Load the package of `plan`'s bucket for the bundle's device and set the bucket's guards on it
/// (every input set is checked before a call: shapes, dtypes and strides). `convertLayout`
/// (--convert-layout): an input in another layout is copied into the package's (and reported by
/// layoutConversions()) instead of refused. Loading runs the package's native code. Throws
/// Refusal("failed") naming the package.
std::unique_ptr<Runtime::AotiRunner> loadBucket(
    const VerifiedBundle &vb, const Bundle::Bucket &bucket, int numRunners = 1, bool convertLayout = false);

/// The inputs the runner copied into the package's layout, as --json and --serve print them:
/// [{input, name, from, to, message}] (strides in elements).
nlohmann::json conversionsJson(const std::vector<Runtime::LayoutConversion> &conversions);

/// Give `runner` the request's inputs: the file's tensors padded to the bucket's batch, or
/// generated ones (floating N(0, 1) from `seed`, integers zero; padding rows zero). Throws
/// Runtime::InputRefused when the guards refuse them, Runtime::RuntimeError otherwise.
void setRequestInputs(
    Runtime::AotiRunner &runner, const VerifiedBundle &vb, const RequestPlan &plan, std::uint64_t seed);

/// The outputs as `aotstudio-run --json` prints them: [{name, shape, dtype, sum, mean, first,
/// non_finite}], named after the manifest's outputs ("output N" when unnamed).
nlohmann::json outputsJson(const Bundle::Manifest &manifest, const std::vector<Runtime::OutputSummary> &outputs);

/// One line, valid UTF-8, no newlines: for refusals on stderr and in JSON.
std::string oneLine(const std::string &message);

/// The error object of aotstudio-run, in the one-shot envelope and on a --serve response line
/// alike (FORMAT.md "Command-line tools"): {"stage", "code", "message", "hint"}. `stage` is where
/// it ended: "refused" (the bundle, the input or the trust store said no), "failed" (loading or
/// running), "request" (a malformed --serve request), "worker" (a worker died or answered
/// garbage), "replay"; `code` follows from it (refused, failed, bad_request, internal) unless
/// given (a Refusal's code(): untrusted).
nlohmann::json errorJson(const std::string &stage, const std::string &message, const std::string &hint = "",
    const std::string &code = "");

} // namespace AotStudio::RunApp
