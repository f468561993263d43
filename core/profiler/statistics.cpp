// SPDX-License-Identifier: GPL-3.0-or-later
#include "profiler/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace AotStudio::Profiler {

double percentile(std::span<const double> sorted, double q)
{
    if (sorted.empty())
        throw std::invalid_argument("percentile of an empty sample");
    if (!(q >= 0.0 && q <= 100.0))
        throw std::invalid_argument("percentile outside [0, 100]");
    const double rank = q / 100.0 * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(rank));
    const auto hi = std::min(lo + 1, sorted.size() - 1);
    const double frac = rank - static_cast<double>(lo);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

Summary summarize(std::vector<double> samplesMs)
{
    Summary s;
    if (samplesMs.empty())
        return s;
    std::sort(samplesMs.begin(), samplesMs.end());
    const std::span<const double> sorted(samplesMs);
    s.runs = sorted.size();
    s.medianMs = percentile(sorted, 50);
    s.p10Ms = percentile(sorted, 10);
    s.p90Ms = percentile(sorted, 90);
    s.p99Ms = percentile(sorted, 99);
    s.minMs = sorted.front();
    s.maxMs = sorted.back();
    s.meanMs = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(s.runs);
    if (s.runs > 1) {
        double ss = 0;
        for (double v : sorted)
            ss += (v - s.meanMs) * (v - s.meanMs);
        s.stddevMs = std::sqrt(ss / static_cast<double>(s.runs - 1));
    }
    return s;
}

std::vector<std::size_t> paretoFront(const std::vector<std::vector<double>> &points)
{
    const auto worse = [](double a, double b) { // a is worse than b
        if (std::isnan(a))
            return !std::isnan(b);
        return !std::isnan(b) && a > b;
    };
    const auto notWorse = [&](double a, double b) { return !worse(a, b); };
    std::vector<std::size_t> front;
    for (std::size_t i = 0; i < points.size(); ++i) {
        bool dominated = false;
        for (std::size_t j = 0; j < points.size() && !dominated; ++j) {
            if (i == j)
                continue;
            bool allNotWorse = true, oneBetter = false;
            for (std::size_t k = 0; k < std::min(points[i].size(), points[j].size()); ++k) {
                allNotWorse = allNotWorse && notWorse(points[j][k], points[i][k]);
                oneBetter = oneBetter || worse(points[i][k], points[j][k]);
            }
            dominated = allNotWorse && oneBetter;
        }
        if (!dominated)
            front.push_back(i);
    }
    return front;
}

} // namespace AotStudio::Profiler
