// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bundle/bundle.h"

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace AotStudio::Bundle {

/// Turns one torch.save'd tensor file into the raw bytes of its storage (written to `raw`) and
/// says what they are ({file left empty, dtype, numel}); throws BundleError when it cannot. The
/// engine passes Runtime::writeRawWeight (LibTorch's unpickler); core/bundle has no torch.
using RawWeightWriter = std::function<BucketWeight(const std::filesystem::path &torchSaveFile, const std::filesystem::path &raw)>;

/// Export side of BUNDLE.md "Shared weights". `package` is an AOTInductor package compiled with
/// `aot_inductor.package_constants_in_so=False` and `package_constants_on_disk_format=
/// "pickle_weights"`: each constant a torch.save file under `<archive>/data/weights/`, named in
/// `<archive>/data/aotinductor/model/weights_config.json`. Each such file becomes
/// `bundleRoot/weights/<sha256>.bin`, the raw bytes of the tensor's storage (`toRaw`), named by
/// their content so a weight that another bucket stored already is not stored twice, and is removed
/// from the package, which libzip rewrites in place. Raw bytes, so that the runtime maps them with
/// mmap() instead of unpickling a copy. Returns file name -> {file relative to `bundleRoot`, dtype,
/// numel} for the manifest's `buckets[i].weights`; empty when the package has no external weights
/// (then it is not touched). Throws BundleError naming the package on a zip or I/O error or what
/// `toRaw` throws.
std::map<std::string, BucketWeight> shareWeights(const std::filesystem::path &package, const std::filesystem::path &bundleRoot,
                                                 const RawWeightWriter &toRaw);

/// One constant of a package as its weights_config.json describes it (torch.export.pt2_archive's
/// pickle_weights format: FQN -> [file, shape, stride, storage offset]).
struct WeightView {
    std::string file;
    std::vector<long long> shape, stride;
    long long offset = 0;
};

/// What keeps a package's constants from binding to the weights given to it (BUNDLE.md "Weights
/// that bind or refuse"): each list holds one sentence per problem, naming the constant.
struct BindingProblems {
    std::vector<std::string> missing;    ///< a constant without a weight (no file, or not in the config)
    std::vector<std::string> mismatched; ///< wrong dtype, a view that does not fit the file, a malformed entry
    std::vector<std::string> extra;      ///< a weight nothing binds, a constant the package does not know
    std::vector<std::string> duplicated; ///< a constant named twice (which one would bind is undefined)
    bool ok() const { return missing.empty() && mismatched.empty() && extra.empty() && duplicated.empty(); }
    /// "2 missing (a, b); 1 mismatched (c: needs 64 float32 elements, the file holds 32); 1 extra (weights/x.bin)"
    std::string describe() const;
};

/// weights_config.json's text parsed: FQN -> view. Keys that appear twice are listed in
/// `duplicated` (nlohmann's parser would keep the last silently), entries that are not
/// [string, [int], [int], int] in `malformed`. Throws BundleError when the text is not JSON.
std::map<std::string, WeightView> parseWeightsConfig(const std::string &text, std::vector<std::string> *duplicated = nullptr,
                                                     std::vector<std::string> *malformed = nullptr);

/// Check that every constant of a package binds to exactly one weight of the same dtype whose
/// storage holds its view, and that no weight is left over, before the package's native code
/// runs. `config`: the package's weights_config.json (parseWeightsConfig()); `weights`: file name
/// -> what is bound for it (a bundle's `buckets[i].weights`, or the files inside the package);
/// `expectedDtypes`: FQN -> dtype the compiled model declares (from the loaded container, when
/// known; null before loading: then only the config and the files are compared, and constants
/// are not checked against the model). Sizes in elements; a view needs offset + sum((size-1) *
/// stride) + 1 elements (0 for an empty one).
BindingProblems checkWeightBinding(const std::map<std::string, WeightView> &config, const std::map<std::string, BucketWeight> &weights,
                                   const std::map<std::string, std::string> *expectedDtypes = nullptr);

/// The torch-free check of a bundle's buckets that share weights (aotstudio-run and the engine,
/// after verification and before loading): each bucket's package's weights_config.json (read
/// from the .pt2 zip with libzip) against its manifest `weights`, plus any file still inside the
/// package. Returns "bucket NAME: <BindingProblems::describe()>" per bucket that does not bind
/// (empty: all bind). Throws BundleError when a package cannot be read.
std::vector<std::string> checkBundleWeights(const std::filesystem::path &root, const Manifest &manifest);

} // namespace AotStudio::Bundle
