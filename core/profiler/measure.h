// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "profiler/statistics.h"

#include <functional>
#include <stop_token>
#include <vector>

namespace AotStudio::Profiler {

/// How long to measure. Defaults match the `compile` request defaults in FORMAT.md.
struct MeasureOptions {
    int warmup = 5;          ///< untimed calls first (allocator, caches, lazy init)
    int minRuns = 20;        ///< at least this many timed calls, whatever the time cap says
    int maxRuns = 200;       ///< at most this many timed calls
    double maxSeconds = 5;   ///< stop timing after this much wall time (once minRuns is reached)
    double stableRel = 0.01; ///< stop early when the running median moved by less than this
                             ///< fraction over the last minRuns calls (and minRuns reached)
};

/// Time `call` with one wall clock (std::chrono::steady_clock, ns resolution) around each call:
/// warm-up, then timed calls until the median is stable, maxRuns is reached or the time cap hits.
/// The caller makes `call` synchronous (on CUDA it must synchronize the device inside).
/// Stops early, returning what it has, when `stop` is requested. Exceptions from `call` propagate.
Summary measure(const std::function<void()> &call, const MeasureOptions &options, std::stop_token stop = {});

/// The same loop as measure(), returning the timed samples in ms in call order (for callers that
/// pool several passes, e.g. untraced and traced runs interleaved in rounds).
std::vector<double> measureSamples(const std::function<void()> &call, const MeasureOptions &options, std::stop_token stop = {});

} // namespace AotStudio::Profiler
