// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bundle/bundle.h"

#include <filesystem>
#include <functional>
#include <map>
#include <string>

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

} // namespace AotStudio::Bundle
