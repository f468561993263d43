// SPDX-License-Identifier: GPL-3.0-or-later
// Which bucket serves a batch, and whether this machine can run a bundle (torch, device, GPU).
#include "bundle/bundle_p.h"
#include "bundle/compat.h"
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

BucketTraffic bucketTraffic(const Manifest &manifest, const std::map<long long, long long> &histogram)
{
    BucketTraffic t;
    for (const auto &b : manifest.buckets)
        t.buckets.push_back({b.name, 0, 0, 0, {}});
    double wasted = 0; // padding rows' share summed over served calls
    long long served = 0;
    for (const auto &[size, calls] : histogram) {
        if (calls <= 0)
            continue;
        t.calls += calls;
        try {
            const BucketChoice c = chooseBucket(manifest, size);
            for (auto &row : t.buckets) {
                if (row.name != c.bucket.name)
                    continue;
                const double w = c.padTo > 0 ? static_cast<double>(c.padTo - size) / static_cast<double>(c.padTo) : 0.0;
                row.calls += calls;
                row.waste += w * static_cast<double>(calls); // a sum until the end
                row.sizes.push_back(size);
                wasted += w * static_cast<double>(calls);
                served += calls;
                break;
            }
        } catch (const BundleError &) {
            t.unservedCalls += calls;
            t.unservedSizes.push_back(size);
        }
    }
    for (auto &row : t.buckets) {
        row.share = t.calls ? static_cast<double>(row.calls) / static_cast<double>(t.calls) : 0.0;
        row.waste = row.calls ? row.waste / static_cast<double>(row.calls) : 0.0;
    }
    t.waste = served ? wasted / static_cast<double>(served) : 0.0;
    return t;
}

std::vector<std::string> checkCompatible(const Manifest &manifest, const std::string &runtimeTorchVersion, bool cudaAvailable,
                                         const std::string &deviceCapability)
{
    return checkCompatible(manifest, Host::current(runtimeTorchVersion, cudaAvailable, deviceCapability));
}

std::string bucketRuntime(const Manifest &manifest, const std::string &bucket)
{
    const auto buckets = manifest.raw.find("buckets");
    if (buckets == manifest.raw.end() || !buckets->is_array())
        return "libtorch";
    for (const auto &b : *buckets)
        if (b.is_object() && b.value("name", json()) == bucket)
            return b.value("runtime", json()).is_string() ? b["runtime"].get<std::string>() : std::string("libtorch");
    return "libtorch";
}

std::string libtorchBuckets(const Manifest &manifest)
{
    std::string names;
    for (const auto &b : manifest.buckets)
        if (bucketRuntime(manifest, b.name) != "lite")
            names += (names.empty() ? "" : ", ") + b.name;
    return names;
}

std::vector<std::string> checkCompatible(const Manifest &manifest, const Host &host)
{
    const std::string &runtimeTorchVersion = host.torchVersion;
    const bool cudaAvailable = host.cudaAvailable;
    const std::string &deviceCapability = host.computeCapability;
    std::vector<std::string> why;
    if (manifest.format != kFormat)
        why.push_back("unknown bundle format '" + manifest.format + "' (expected '" + kFormat + "')");
    if (manifest.formatVersion > kFormatVersion)
        why.push_back("bundle format_version " + std::to_string(manifest.formatVersion) + " is newer than this runtime reads (" +
                      std::to_string(kFormatVersion) + "); use a newer aotstudio-run");
    else if (manifest.formatVersion < 1)
        why.push_back("bundle format_version " + std::to_string(manifest.formatVersion) + " is invalid");
    // The lite runtime loads lite packages only: a bundle without one cannot run in it at all. Of a
    // mixed bundle it runs the lite buckets; the bucket choice (runtime side) refuses the others.
    if (host.runtime == "lite") {
        const std::string needLibtorch = libtorchBuckets(manifest);
        const bool anyLite = std::any_of(manifest.buckets.begin(), manifest.buckets.end(),
                                         [&](const Bucket &b) { return bucketRuntime(manifest, b.name) == "lite"; });
        if (!anyLite && !manifest.buckets.empty())
            why.push_back("its buckets " + needLibtorch +
                          " were exported for the libtorch runtime (their packages need libtorch); this runtime is lite: "
                          "run it with aotstudio-run, or export it again with --runtime lite");
    }

    // A bundle with a compatibility key (BUNDLE.md "Compatibility key") is checked against it:
    // torch, machine, CPU instructions, CUDA and the GPU architectures its kernels were built for.
    if (const auto compat = manifest.raw.find("compat"); compat != manifest.raw.end() && compat->is_object()) {
        for (auto &reason : checkCompat(*compat, host))
            why.push_back(std::move(reason));
        const bool cuda = manifest.device.rfind("cuda", 0) == 0;
        if (!cuda && manifest.device != "cpu")
            why.push_back("unknown bundle device '" + manifest.device + "' (this runtime knows cpu and cuda)");
        return why;
    }

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

std::optional<long long> BatchRule::hi() const
{
    return symbolMax ? std::optional<long long>(coeff * *symbolMax + offset) : std::nullopt;
}

std::optional<BatchRule> batchRule(const json &guards)
{
    if (!guards.is_object())
        return std::nullopt;
    try {
        const InputGuards g = InputGuards::parse(guards, "the compile's guards");
        BatchRule r;
        const auto symbols = g.symbols();
        for (const auto &b : g.bindings()) {
            if (b.dim != 0)
                continue;
            r.dynamic = true;
            r.coeff = b.coeff;
            r.offset = b.offset;
            r.plain = b.coeff == 1 && b.offset == 0;
            r.symbolMin = std::max<long long>(symbols[b.symbol].min.value_or(0), 0);
            r.symbolMax = symbols[b.symbol].max;
            r.text = symbols[b.symbol].label;
            for (const auto &in : guards.value("inputs", json::array()))
                if (in.is_object() && in.value("index", -1) == static_cast<int>(b.input) && in.contains("dims") &&
                    in["dims"].is_array() && !in["dims"].empty() && in["dims"][0].is_object())
                    if (const std::string t = in["dims"][0].value("text", ""); !r.plain && !t.empty())
                        r.text = t;
            return r;
        }
        return r;
    } catch (const BundleError &) {
        return std::nullopt;
    }
}

std::string uncoveredBatchSizes(const BatchRule &rule, const std::vector<long long> &exact,
                                const std::optional<std::pair<long long, long long>> &dynamicRange, bool padSafe)
{
    if (!rule.dynamic)
        return {};
    std::vector<std::pair<long long, long long>> covered;
    const long long largest = exact.empty() ? 0 : *std::max_element(exact.begin(), exact.end());
    if (padSafe && largest > 0)
        covered.push_back({1, largest});
    for (long long b : exact)
        covered.push_back({b, b});
    if (dynamicRange)
        covered.push_back(*dynamicRange);
    std::sort(covered.begin(), covered.end());
    const long long step = std::max<long long>(1, rule.coeff);
    const long long first = rule.lo();
    const auto hi = rule.hi();
    // The first accepted size at or after `n`.
    const auto nextAccepted = [&](long long n) { return n <= first ? first : first + ((n - first + step - 1) / step) * step; };
    std::vector<std::string> gaps;
    const auto say = [&](long long a, std::optional<long long> b) {
        if (gaps.size() < 4)
            gaps.push_back(b && *b == a ? std::to_string(a) : std::to_string(a) + ".." + (b ? std::to_string(*b) : "inf"));
        else if (gaps.size() == 4)
            gaps.push_back("...");
    };
    long long at = first; // the first accepted size not yet known to be covered
    for (const auto &[a, b] : covered) {
        if (hi && at > *hi)
            break;
        if (b < at)
            continue;
        if (a > at) { // accepted sizes in [at, a) have no bucket
            const long long end = hi ? std::min(*hi, a - 1) : a - 1;
            if (end >= at)
                say(at, at + ((end - at) / step) * step);
        }
        at = std::max(at, nextAccepted(b + 1));
    }
    if (!hi || at <= *hi)
        say(at, hi ? std::optional<long long>(at + ((*hi - at) / step) * step) : std::nullopt);
    std::string out;
    for (const auto &g : gaps)
        out += (out.empty() ? "" : ", ") + g;
    return out;
}

} // namespace AotStudio::Bundle
