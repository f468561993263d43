// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: what a package from outside says it was built for (core/bundle/compat.h: cubin and
// fatbin headers, the .so's producer string, torch's metadata JSON) and a package's
// weights_config.json (core/bundle/weights.h), as export, inspect and every runtime read them
// before any native code runs. The first byte picks the entry's kind, the rest is its content.
// Oracles: readPackageEntry() never throws; every SM it reports is a plausible one (10..255);
// the compat object built from it has a key and checks against a host without throwing;
// parseWeightsConfig() throws only BundleError, and checkWeightBinding() never throws.
#include "bundle/bundle.h"
#include "bundle/compat.h"
#include "bundle/weights.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace AotStudio;
using nlohmann::json;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    static const char *const kNames[] = {"model/data/aotinductor/model/c.wrapper.so",
                                         "model/data/aotinductor/model/k.cubin",
                                         "model/data/aotinductor/model/k.fatbin",
                                         "model/data/aotinductor/model/c.wrapper_metadata.json",
                                         "model/data/aotinductor/model/kernel_information.json",
                                         "weights_config.json"};
    const unsigned kind = data[0] % 6;
    std::string bytes(reinterpret_cast<const char *>(data) + 1, size - 1);
    if (kind == 5) {
        std::vector<std::string> duplicated, malformed;
        std::map<std::string, Bundle::WeightView> config;
        try {
            config = Bundle::parseWeightsConfig(bytes, &duplicated, &malformed);
        } catch (const Bundle::BundleError &) {
            return 0;
        }
        std::map<std::string, Bundle::BucketWeight> weights;
        std::map<std::string, std::string> expected;
        long long numel = 1;
        for (const auto &[fqn, view] : config) {
            weights[view.file] = {"weights/" + view.file + ".bin", "float32", numel};
            expected[fqn] = numel % 2 ? "float32" : "bfloat16";
            numel = numel * 7 % 1000003;
        }
        (void)Bundle::checkWeightBinding(config, weights, &expected).describe();
        (void)Bundle::checkWeightBinding(config, weights).describe();
        return 0;
    }
    Bundle::PackageTarget t;
    Bundle::readPackageEntry(kNames[kind], std::move(bytes), t);
    for (const auto *archs : {&t.sass, &t.ptx})
        for (int sm : *archs)
            if (sm < 10 || sm > 255)
                std::abort();
    const json compat = Bundle::makeCompat(json{{"torch", "2.14.1"}, {"precision", "fp32"}}, {t}, json::array(),
                                           t.deviceKey == "cuda" ? "cuda" : "cpu", "none");
    if (compat.value("key", std::string()).empty())
        std::abort();
    Bundle::Host host;
    host.torchVersion = "2.14.1";
    host.cudaAvailable = true;
    host.computeCapability = "12.0";
    host.machine = "x86_64";
    host.cpuFlags = {"avx2", "fma"};
    (void)Bundle::checkCompat(compat, host);
    (void)Bundle::describeCompat(compat);
    return 0;
}
