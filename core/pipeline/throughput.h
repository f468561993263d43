// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Throughput of one package against the number of runners calling it at once (profile's
// `throughput` rows, PROFILE.md "Throughput").

#include "protocol/messages.h"

#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

struct DLManagedTensor;

namespace AotStudio::Pipeline {

struct ThroughputOptions {
    std::vector<int> runnerCounts{1, 2, 4};
    double seconds = 1.0;  ///< window per runner count, summed over its rounds (s); longer for a slow model
    int rounds = 0;        ///< windows per runner count; 0: seconds / 0.125 clamped to 5..8
    int warmup = 3;        ///< untimed calls of every runner before its first window
    int threads = 1;       ///< the job's intra-op threads, shared out among the runners
    std::uint64_t seed = 0x5eed; ///< order of the runner counts within each round
    bool convertLayout = false; ///< the request's convert_layout (AotiRunner::setConvertLayout)
};

/// Measure calls per second of `package` on `device` (`inputs` makes a fresh set of input tensors
/// for each runner set; AotiRunner::setInputs owns them) with each of `options.runnerCounts` runners
/// (AotiRunner::load with num_runners = N, N threads calling runConcurrent() at once, each thread
/// with max(1, threads / N) intra-op threads).
///
/// Paired like every other comparison (profiler/paired.h): the runner counts take turns in
/// `rounds` rounds, in an order shuffled per round, each round giving every count one window of
/// max(seconds / rounds, 4 calls' time × N). Every runner thread lives through all rounds, warms up
/// once, runs one more untimed call before each window (its caches went cold while other counts
/// ran), and waits at a barrier; the window starts after every thread of the count arrived. A
/// window counts the calls that *end* inside it, over the time from its start to the end of the
/// last of them (so a window is not rounded down to whole calls: a 110 ms model is 9 calls/s, not
/// 8 or 0). A drift of machine load hits every runner count alike.
///
/// Each row (PROFILE.md): runners, threads, intra_op_threads, calls, seconds, windows,
/// window_seconds, window_rates_per_s, throughput_per_s (calls / seconds), `throughput_interval`
/// (the same rate with its 95% interval, Profiler::rateInterval over the windows), `scaling` (this
/// count's median per-window rate over one runner's, paired by round, with its interval; only
/// when 1 is among the counts), median/mean/p10/p90/p99 latency of the counted calls (ms), and for
/// one runner `consistent`: its rate is within 10% of 1000 / mean latency (its calls run back to
/// back, so anything else is time lost between calls). A count whose runners fail is left out
/// and `warn` names the error; `progress(fraction)` is called in [0, 1] after each window. Stops
/// early (rows from the windows done) when `stop` is requested.
Protocol::Json measureThroughput(const std::string &package, const std::string &device,
                                 const std::function<std::vector<DLManagedTensor *>()> &inputs,
                                 const ThroughputOptions &options, std::stop_token stop,
                                 const std::function<void(const std::string &)> &warn,
                                 const std::function<void(double)> &progress = {});

} // namespace AotStudio::Pipeline
