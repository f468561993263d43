// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace AotStudio::Profiler {

/// Summary of repeated timings, all in milliseconds.
struct Summary {
    std::size_t runs = 0;
    double medianMs = 0;
    double p10Ms = 0;
    double p90Ms = 0;
    double p99Ms = 0;
    double meanMs = 0;
    double stddevMs = 0; ///< sample standard deviation (n - 1 in the denominator); 0 for one run
    double minMs = 0;
    double maxMs = 0;
};

/// Percentile q in [0, 100] of `sorted` (ascending, non-empty) by linear interpolation between
/// the closest ranks: rank = q/100 * (n - 1). This is numpy.percentile's default ("linear",
/// Hyndman & Fan type 7), so figures can be checked against numpy. Throws std::invalid_argument
/// on an empty input or q outside [0, 100].
double percentile(std::span<const double> sorted, double q);

/// Summarise samples in milliseconds (any order). Empty input gives a Summary with runs == 0.
Summary summarize(std::vector<double> samplesMs);

/// Indices (ascending) of the rows of `points` that no other row dominates (every coordinate <=
/// and one <), all coordinates to be minimised; NaN counts as worse than any number, so a row
/// with an unknown coordinate is on the front only if nothing matches it elsewhere. Rows of
/// unequal length compare on their common prefix. O(n² d): tune's front over a few dozen trials
/// (latency ms, error, compile s, package bytes).
std::vector<std::size_t> paretoFront(const std::vector<std::vector<double>> &points);

} // namespace AotStudio::Profiler
