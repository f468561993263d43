// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The steps of aotstudio-run that the one-shot run (oneshot.h) and the serving workers
// (bundleworker.h) share, so that both apply the same trust, verification and input rules and give
// the same messages: the trust store, open + verify + signature, "can it run here", a request's
// bucket and inputs, and the outputs' summary as --json prints it. The torch-free header of the
// runtime (runtime/aotirunner.h: pimpl + DLPack); linking it maps LibTorch.
#include "bundle/bundle.h"
#include "bundle/signing.h"
#include "runtime/aotirunner.h"
#include "serve/serveerror.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace AotStudio::Serve {

/// The trust store from `--trust` paths, else from $AOTSTUDIO_TRUST (BUNDLE.md "Who may load a
/// bundle"). Throws UsageError (exit 2) when a path is missing or a key does not read, the
/// message naming its source ("--trust: ..." or "$AOTSTUDIO_TRUST: ..."): never an empty store in
/// place of a broken one.
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
std::unique_ptr<Runtime::AotiRunner> loadBucket(const VerifiedBundle &vb, const Bundle::Bucket &bucket,
                                                int numRunners = 1, bool convertLayout = false);

/// Give `runner` the request's inputs: the file's tensors padded to the bucket's batch, or
/// generated ones (floating N(0, 1) from `seed`, integers zero; padding rows zero). Throws
/// Runtime::InputRefused when the guards refuse them, Runtime::RuntimeError otherwise.
void setRequestInputs(Runtime::AotiRunner &runner, const VerifiedBundle &vb, const RequestPlan &plan,
                      std::uint64_t seed);

/// The outputs as `aotstudio-run --json` prints them: [{name, shape, dtype, sum, mean, first,
/// non_finite}], named after the manifest's outputs ("output N" when unnamed).
nlohmann::json outputsJson(const Bundle::Manifest &manifest, const std::vector<Runtime::OutputSummary> &outputs);

} // namespace AotStudio::Serve
