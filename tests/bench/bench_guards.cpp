// SPDX-License-Identifier: GPL-3.0-or-later
// The runner's input check per call (core/bundle/guards.h, issue 12): InputGuards::check() on the
// shapes of one call, for guards like those of sample:mlp (dynamic batch), a transformer (batch and
// sequence shared by two inputs, a multiple-of-8 guard), a static convnet and a derived dimension.
// Target: under 1 µs per call; the stride check (issue 34) under 100 ns of it. Prints "name: value unit" lines.
#include "bundle/guards.h"
#include "guardsbench.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

using namespace AotStudio::Bundle;
using AotStudio::Bench::nsPerCall;
using nlohmann::json;

namespace {

struct Case {
    const char *name;
    json guards;
    std::vector<std::vector<std::int64_t>> shapes;
};


} // namespace

int main()
{
    const std::vector<Case> cases{
        {"mlp",
         json::parse(R"({"symbols": [{"symbol": "s0", "name": "batch", "min": 1, "max": 64}],
                               "inputs": [{"name": "x", "dims": [{"symbol": "s0"}, {"size": 64}], "strides": [64, 1],
                                           "layout": "contiguous"}]})"),
         {{8, 64}}},
        {"transformer",
         json::parse(R"({"symbols": [{"symbol": "s0", "name": "batch", "min": 1, "max": 64},
                                                    {"symbol": "s1", "name": "seq", "min": 2, "max": 512}],
                                       "inputs": [{"name": "input_ids", "dims": [{"symbol": "s0"}, {"symbol": "s1"}],
                                                   "strides": [{"checkable": true, "expr": "s1"}, 1], "layout": "contiguous"},
                                                  {"name": "attention_mask", "dims": [{"symbol": "s0"}, {"symbol": "s1"}],
                                                   "strides": [{"checkable": true, "expr": "s1"}, 1], "layout": "contiguous"}],
                                       "checks": [{"checkable": true, "expr": ["==", ["%", "s1", 8], 0], "text": "seq % 8 == 0"}]})"),
         {{8, 128}, {8, 128}}},
        {"convnet_static",
         json::parse(R"({"inputs": [{"name": "x", "dims": [{"size": 1}, {"size": 3}, {"size": 32}, {"size": 32}],
                                                       "strides": [3072, 1024, 32, 1], "layout": "contiguous"}]})"),
         {{1, 3, 32, 32}}},
        {"derived",
         json::parse(R"({"symbols": [{"symbol": "s0", "name": "n", "min": 2, "max": 32}],
                                   "inputs": [{"name": "x", "dims": [{"symbol": "s0", "coeff": 2}], "strides": [1], "layout": "contiguous"}]})"),
         {{10}}},
    };
    for (const auto &c : cases) {
        const InputGuards g = InputGuards::parse(c.guards, c.name);
        if (const auto v = g.check(c.shapes)) {
            std::fprintf(stderr, "%s: refused: %s\n", c.name, v->message.c_str());
            return 1;
        }
        std::printf("guards_check_%s: %.1f ns/call\n", c.name, nsPerCall(g, c.shapes, true));
        std::printf("guards_check_%s_from_vectors: %.1f ns/call\n", c.name, nsPerCall(g, c.shapes, false));
        // The layout check the runner adds (issue 34): the call's strides against the recorded ones
        // (as guards.collect() writes them: constants, or an expression of a dynamic size).
        std::vector<std::vector<std::int64_t>> strides;
        for (const auto &s : c.shapes) {
            std::vector<std::int64_t> st(s.size());
            std::int64_t step = 1;
            for (std::size_t d = s.size(); d-- > 0;) {
                st[d] = step;
                step *= std::max<std::int64_t>(s[d], 1);
            }
            strides.push_back(st);
        }
        const double shapesOnly = nsPerCall(g, c.shapes, true);
        const double withStrides = nsPerCall(g, c.shapes, true, strides);
        std::printf("guards_check_%s_with_strides: %.1f ns/call\n", c.name, withStrides);
        std::printf("guards_stride_cost_%s: %.1f ns/call\n", c.name, withStrides - shapesOnly);
    }
    // Recorded symbolic strides (a channels-last image with a dynamic batch and side, as
    // guards.collect() writes them): each stride an expression evaluated per call.
    {
        const InputGuards g = InputGuards::parse(json::parse(R"({"version": 2,
            "symbols": [{"symbol": "b", "min": 1, "max": 64}, {"symbol": "s", "min": 4, "max": 512}],
            "inputs": [{"name": "x", "dims": [{"symbol": "b"}, {"size": 3}, {"symbol": "s"}, {"symbol": "s"}],
                        "strides": [{"checkable": true, "expr": ["*", 3, ["*", "s", "s"]]}, 1,
                                    {"checkable": true, "expr": ["*", 3, "s"]}, 3], "layout": "channels_last"}]})"),
                                                 "channels_last");
        const std::vector<std::vector<std::int64_t>> shapes{{8, 3, 224, 224}}, strides{{3 * 224 * 224, 1, 3 * 224, 3}};
        if (const auto v
            = g.check(std::span<const ShapeRef>(std::vector<ShapeRef>{{shapes[0].data(), 4, strides[0].data()}}))) {
            std::fprintf(stderr, "channels_last: refused: %s\n", v->message.c_str());
            return 1;
        }
        const double shapesOnly = nsPerCall(g, shapes, true);
        const double withStrides = nsPerCall(g, shapes, true, strides);
        std::printf("guards_check_channels_last_dynamic_with_strides: %.1f ns/call\n", withStrides);
        std::printf("guards_stride_cost_channels_last_dynamic: %.1f ns/call\n", withStrides - shapesOnly);
    }
    // A refusal builds its message (allocates): what a sweep pays per refused shape.
    const InputGuards g = InputGuards::parse(cases[1].guards, "transformer");
    const std::vector<std::vector<std::int64_t>> bad{{8, 100}, {8, 100}};
    const auto t0 = std::chrono::steady_clock::now();
    int refused = 0;
    for (int i = 0; i < 200000; ++i)
        refused += g.check(bad).has_value();
    std::printf("guards_refusal_transformer: %.1f ns/call (%d refused)\n",
                std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / 200000, refused);
    return 0;
}
