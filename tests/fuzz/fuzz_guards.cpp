// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a package's guards (FORMAT.md "Guards", core/bundle/guards.h) from outside (a
// manifest's bucket, a model.guards.json sidecar) and the shapes and strides of a call checked
// against them, as every runner does before a package reads its inputs. The input is split at the
// first NUL: before it the guards JSON, after it the call: per input one byte of rank (mod 9), then
// per dimension one byte of size and one signed byte of stride.
// Oracles: only BundleError is thrown, and only by parse(); check() never throws; a violation's
// message is one line; a layout violation names its input and dimension and carries one expected
// stride per dimension, and a call with exactly those strides is not refused for its layout again
// (what the runner's copy, at::empty_strided(sizes, expected), relies on: it must terminate).
#include "bundle/bundle.h"
#include "bundle/guards.h"
#include "fuzzutil.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

using namespace AotStudio;
using nlohmann::json;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char *>(data), size);
    const std::size_t nul = bytes.find('\0');
    const json j = json::parse(bytes.substr(0, nul), nullptr, false);
    if (j.is_discarded())
        return 0;
    std::optional<Bundle::InputGuards> guards;
    try {
        guards = Bundle::InputGuards::parse(j, "fuzz.guards.json");
    } catch (const Bundle::BundleError &) {
        return 0;
    }
    (void)guards->describe();
    if (nul == std::string_view::npos)
        return 0;

    // The call: up to 8 inputs of rank < 9, sizes 0..255, strides -128..127.
    std::string_view call = bytes.substr(nul + 1);
    std::vector<std::vector<std::int64_t>> sizes, strides;
    std::size_t at = 0;
    while (at < call.size() && sizes.size() < 8) {
        const std::size_t rank = static_cast<std::uint8_t>(call[at++]) % 9;
        std::vector<std::int64_t> s, st;
        for (std::size_t d = 0; d < rank && at + 1 < call.size(); ++d) {
            s.push_back(static_cast<std::uint8_t>(call[at++]));
            st.push_back(static_cast<std::int8_t>(call[at++]));
        }
        sizes.push_back(std::move(s));
        strides.push_back(std::move(st));
    }
    std::vector<Bundle::ShapeRef> refs;
    for (std::size_t i = 0; i < sizes.size(); ++i)
        refs.push_back({sizes[i].data(), sizes[i].size(), strides[i].data()});
    // As the runner does: copy a refused layout into the expected strides and check again, at most
    // once per input; the shape verdict must not change and the loop must end.
    const auto shapeVerdict = guards->check(sizes);
    for (std::size_t round = 0; round <= refs.size(); ++round) {
        const auto v = guards->check(std::span<const Bundle::ShapeRef>(refs));
        if (!v)
            return 0;
        if (v->message.find('\n') != std::string::npos)
            FuzzUtil::fail("a violation message spans lines: " + v->message);
        if (!v->layout) {
            if (!shapeVerdict)
                FuzzUtil::fail("strides turned an accepted shape into a shape violation: " + v->message);
            return 0;
        }
        if (shapeVerdict)
            FuzzUtil::fail("a layout violation before the shape violation: " + v->message);
        if (v->input < 0 || static_cast<std::size_t>(v->input) >= refs.size())
            FuzzUtil::fail("a layout violation names no input: " + v->message);
        auto &ref = refs[static_cast<std::size_t>(v->input)];
        if (v->dim < 0 || static_cast<std::size_t>(v->dim) >= ref.rank || v->expected.size() != ref.rank)
            FuzzUtil::fail("a layout violation without one expected stride per dimension: " + v->message);
        strides[static_cast<std::size_t>(v->input)] = v->expected;
        ref.strides = strides[static_cast<std::size_t>(v->input)].data();
    }
    FuzzUtil::fail("strides copied into the expected layout are refused again");
}
