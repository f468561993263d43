// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a bundle's manifest.json from outside (core/runtime/BUNDLE.md), read the way
// `aotstudio-cli inspect` and `aotstudio-run` read it: the input is written as manifest.json of a
// small bundle folder (two package files) and inspected (load, parse, verify every hash); when it
// parses, buckets are chosen for a few batches and the bundle checked against this runtime.
// Oracles: only BundleError is thrown, and what --json would print (the description or
// {"ok": false, "error": message}) dumps as strict JSON (issue 19: type_error.316 aborted both
// tools on a manifest with invalid UTF-8).
#include "bundle/bundle.h"
#include "bundle/inspect.h"
#include "bundle/text.h"
#include "fuzzutil.h"

#include <cstddef>
#include <cstdint>

using namespace AotStudio;
using nlohmann::json;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const std::filesystem::path dir = [] {
        const auto d = FuzzUtil::scratch() / "bundle";
        FuzzUtil::writeFile(d / "packages/batch1.pt2", "package for batch 1\n");
        FuzzUtil::writeFile(d / "packages/batch4.pt2", "package for batch 4\n");
        return d;
    }();
    FuzzUtil::writeFile(dir / Bundle::kManifestName, std::string_view(reinterpret_cast<const char *>(data), size));

    try {
        const json info = Bundle::inspectBundle(dir, [](const Bundle::Manifest &m) {
            return Bundle::checkCompatible(m, "2.14.1+cu130", false, "");
        });
        FuzzUtil::requireStrictJson(info, "inspect's description");
    } catch (const Bundle::BundleError &e) {
        FuzzUtil::requireStrictJson(json{{"ok", false}, {"error", e.what()}}, "inspect's error");
        for (const auto &p : e.problems())
            FuzzUtil::requireStrictJson(json(p), "inspect's problem line");
    }

    // aotstudio-run's path: openBundle's error is printed through dumpJson (never throws), then
    // the bucket choice and compatibility of a manifest that parses.
    try {
        const Bundle::Manifest m = Bundle::loadManifest(dir);
        (void)Bundle::dumpJson(json{{"model", m.model}, {"producer", m.producer}});
        for (long long batch : {1LL, 3LL, 4LL, 64LL, 1LL << 40}) {
            try {
                const auto choice = Bundle::chooseBucket(m, batch);
                if (choice.padTo < batch)
                    FuzzUtil::fail("chooseBucket() picked a bucket smaller than the batch");
                for (const auto &in : m.inputs)
                    (void)in.withBatch(choice.padTo);
            } catch (const Bundle::BundleError &) {
            }
        }
        (void)Bundle::checkCompatible(m, "2.14.1", true, "9.0");
    } catch (const Bundle::BundleError &e) {
        (void)Bundle::dumpJson(json{{"ok", false}, {"error", e.what()}});
    }
    return 0;
}
