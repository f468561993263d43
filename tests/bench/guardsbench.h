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
/// from the vectors (what a caller with plain shapes pays).
inline double nsPerCall(const Bundle::InputGuards &g, const std::vector<std::vector<std::int64_t>> &shapes, bool prebuilt)
{
    using namespace AotStudio::Bundle;

    std::vector<ShapeRef> refs;
    for (const auto &s : shapes)
        refs.push_back({s.data(), s.size()});
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
