// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>
#include <map>
#include <string>

namespace AotStudio::Bundle {

/// Export side of BUNDLE.md "Shared weights". `package` is an AOTInductor package compiled with
/// `aot_inductor.package_constants_in_so=False` and `package_constants_on_disk_format=
/// "pickle_weights"`: each constant a torch.save file under `<archive>/data/weights/`, named in
/// `<archive>/data/aotinductor/model/weights_config.json`. Each such file is moved to
/// `bundleRoot/weights/<sha256>.pt` (content-addressed: a weight another bucket stored already is
/// not stored twice; torch.save's bytes are a function of the tensor) and removed from the package,
/// which libzip rewrites in place. Returns file name -> path relative to `bundleRoot`, for the
/// manifest's `buckets[i].weights`; empty when the package has no external weights (then it is
/// not touched). Throws BundleError naming the package on a zip or I/O error.
std::map<std::string, std::string> shareWeights(const std::filesystem::path &package, const std::filesystem::path &bundleRoot);

} // namespace AotStudio::Bundle
