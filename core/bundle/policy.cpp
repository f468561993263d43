// SPDX-License-Identifier: GPL-3.0-or-later
// Which bucket serves a batch, and whether this machine can run a bundle (torch, device, GPU).
#include "bundle/bundle_p.h"
#include "bundle/guards.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace AotStudio::Bundle {

using namespace Detail;

namespace {

/// "2.14.1+cu130" -> "2.14"; empty when it does not start with major.minor.
std::string majorMinor(const std::string &version)
{
    std::size_t i = 0;
    auto digits = [&] {
        const std::size_t start = i;
        while (i < version.size() && version[i] >= '0' && version[i] <= '9')
            ++i;
        return i > start;
    };
    if (!digits() || i >= version.size() || version[i] != '.')
        return {};
    ++i;
    if (!digits())
        return {};
    return version.substr(0, i);
}

/// "9.0" -> 90, "8.6" -> 86; -1 when unparsable.
int capabilityValue(const std::string &cap)
{
    int major = 0, minor = 0;
    char dot = 0;
    std::istringstream in(cap);
    if (!(in >> major))
        return -1;
    if (in >> dot) {
        if (dot != '.' || !(in >> minor))
            return -1;
    }
    return major * 10 + minor;
}

} // namespace

BucketChoice chooseBucket(const Manifest &manifest, long long batch)
{
    auto available = [&] {
        std::string s;
        for (const auto &b : manifest.buckets)
            s += (s.empty() ? "" : ", ") + b.describe();
        return s.empty() ? std::string("none") : s;
    };
    if (batch < 1)
        throw BundleError("batch " + std::to_string(batch) + " is not a batch size (must be >= 1); buckets: " + available());
    for (const auto &b : manifest.buckets)
        if (b.batch && *b.batch == batch)
            return {b, batch, false};
    if (manifest.padSafe) {
        const Bucket *best = nullptr;
        for (const auto &b : manifest.buckets)
            if (b.batch && *b.batch > batch && (!best || *b.batch < *best->batch))
                best = &b;
        if (best)
            return {*best, *best->batch, true};
    }
    for (const auto &b : manifest.buckets)
        if (b.isDynamic() && b.batchMin <= batch && batch <= b.batchMax)
            return {b, batch, false};
    std::string why = "no bucket for batch " + std::to_string(batch) + "; buckets: " + available();
    if (!manifest.padSafe)
        why += " (not pad_safe: a smaller batch cannot be padded into a larger bucket)";
    throw BundleError(why);
}

std::vector<std::string> checkCompatible(const Manifest &manifest, const std::string &runtimeTorchVersion, bool cudaAvailable,
                                         const std::string &deviceCapability)
{
    std::vector<std::string> why;
    if (manifest.format != kFormat)
        why.push_back("unknown bundle format '" + manifest.format + "' (expected '" + kFormat + "')");
    if (manifest.formatVersion > kFormatVersion)
        why.push_back("bundle format_version " + std::to_string(manifest.formatVersion) + " is newer than this runtime reads (" +
                      std::to_string(kFormatVersion) + "); use a newer aotstudio-run");
    else if (manifest.formatVersion < 1)
        why.push_back("bundle format_version " + std::to_string(manifest.formatVersion) + " is invalid");

    const std::string bundleTorch = majorMinor(manifest.torchVersion);
    const std::string runtimeTorch = majorMinor(runtimeTorchVersion);
    if (bundleTorch.empty())
        why.push_back("bundle torch_version '" + manifest.torchVersion + "' is not a version");
    else if (bundleTorch != runtimeTorch)
        why.push_back("bundle was built with torch " + manifest.torchVersion + " but this runtime has LibTorch " + runtimeTorchVersion +
                      " (AOTInductor packages need the same major.minor; re-export with this torch)");

    const bool cuda = manifest.device.rfind("cuda", 0) == 0;
    if (!cuda && manifest.device != "cpu")
        why.push_back("unknown bundle device '" + manifest.device + "' (this runtime knows cpu and cuda)");
    if (cuda && !cudaAvailable)
        why.push_back("bundle is for device " + manifest.device + " but this machine has no usable CUDA device");
    if (cuda && cudaAvailable && !manifest.computeCapability.empty() && !deviceCapability.empty()) {
        const int need = capabilityValue(manifest.computeCapability);
        const int have = capabilityValue(deviceCapability);
        if (need < 0)
            why.push_back("bundle compute_capability '" + manifest.computeCapability + "' is not a version");
        else if (have >= 0 && need > have)
            why.push_back("bundle was compiled for compute capability " + manifest.computeCapability + " but this GPU has " +
                          deviceCapability + " (re-export on this GPU)");
    }
    return why;
}

} // namespace AotStudio::Bundle
