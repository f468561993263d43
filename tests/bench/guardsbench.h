// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The runner's input check timed per call (bench_guards, bench_sweep): the best of five rounds of
// two million InputGuards::check() calls on the same shapes.

#include "bundle/guards.h"

#include <algorithm>
#include <chrono>
#include <span>
#include <vector>

namespace AotStudio::Bench {

/// ns per InputGuards::check() of `shapes`: through prebuilt ShapeRefs (what the runner does) or
/// from the vectors (what a caller with plain shapes pays). With `strides` (one per shape; prebuilt
/// only) the layout is checked too, as the runner does on every call.
inline double nsPerCall(const Bundle::InputGuards &g, const std::vector<std::vector<std::int64_t>> &shapes,
                        bool prebuilt, const std::vector<std::vector<std::int64_t>> &strides = {})
{
    using namespace AotStudio::Bundle;

    std::vector<ShapeRef> refs;
    for (std::size_t i = 0; i < shapes.size(); ++i)
        refs.push_back({shapes[i].data(), shapes[i].size(), i < strides.size() ? strides[i].data() : nullptr});
    const int iters = 2'000'000;
    volatile bool sink = false;
    double best = 1e30;
    for (int round = 0; round < 5; ++round) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < iters; ++i)
            sink = prebuilt ? g.check(std::span<const ShapeRef>(refs)).has_value() : g.check(shapes).has_value();
        const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / iters;
        best = std::min(best, ns);
    }
    (void)sink;
    return best;
}

} // namespace AotStudio::Bench
