// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Paired measurement: the one routine every job uses to time two or more variants against each
// other (compile's measure stage, profile, quantize, cold start), and the confidence interval of
// their ratio.

#include "profiler/measure.h"
#include "profiler/statistics.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

namespace AotStudio::Profiler {

/// One variant of a paired measurement. `call` is one synchronous forward (on CUDA it synchronizes
/// inside). `beginBlock`/`endBlock`, when set, run untimed around each of the variant's blocks
/// (profile starts and stops its collector there, so traced and untraced runs are one more pair).
struct PairedVariant {
    std::string name;
    std::function<void()> call;
    std::function<void()> beginBlock;
    std::function<void()> endBlock;
    /// When set, run untimed just before and just after each timed call, with the call's index in
    /// its block (0 .. callsPerBlock-1): profile switches its collector on for a sample of calls.
    std::function<void(int callInBlock)> beforeCall;
    std::function<void(int callInBlock)> afterCall;
};

/// How long to measure; the budget of MeasureOptions is per variant, so two variants take about
/// twice as long as one did before pairing.
struct PairedOptions {
    MeasureOptions budget;         ///< warmup (per variant), minRuns/maxRuns (timed calls per variant),
                                   ///< maxSeconds (per variant, so the whole takes at most n times it),
                                   ///< stableRel (every variant's median moved less than this)
    int minBlocks = 8;             ///< at least this many rounds (blocks per variant), so the interval has data
    double targetBlockMs = 25.0;   ///< a block lasts about this long (calls per block from the warm-up)
    std::uint64_t seed = 0x5eed;   ///< block order within each round is shuffled with this seed
    /// Called after every round (all variants ran one block): the machine sampler reads its
    /// counters there. Never timed.
    std::function<void(int round)> afterRound;
};

/// What measurePaired() timed, in call order.
struct PairedSamples {
    std::string name;
    std::vector<double> samplesMs;                ///< every timed call, ms
    std::vector<std::vector<double>> blocksMs;    ///< the same calls, one vector per round
    int callsPerBlock = 1;
    double warmupMeanMs = 0;                      ///< mean of the warm-up calls (how block sizes were chosen)
    Summary summary() const { return summarize(samplesMs); }
};

struct PairedResult {
    std::vector<PairedSamples> variants;          ///< in the order given
    int rounds = 0;
    std::vector<std::vector<int>> order;          ///< per round, the variant indices in the order they ran
    bool stopped = false;                         ///< the stop token ended it early
    double seconds = 0;                           ///< wall time of the timed rounds (warm-ups excluded)
};

/// Warm up every variant (`budget.warmup` untimed calls each, in turn), then time them in rounds:
/// each round runs one block of every variant, in an order shuffled per round (seeded), each call
/// timed with std::chrono::steady_clock. A drift of machine load (another process starting, CPU
/// frequency, thermal state) then hits every variant alike instead of only the one timed during it
/// (the A B A B design of pyperf's and Google Benchmark's "interleaved" repetitions; shuffling also
/// removes a fixed "runs after X" cache effect). Calls per block are chosen per variant from its
/// warm-up so a block lasts about `targetBlockMs`, capped so that no variant passes maxRuns in the
/// rounds the slowest-filling variant needs for minRuns (and at least minBlocks rounds). maxRuns is
/// a hard cap per variant: timing stops before any variant's next block would pass it. Otherwise
/// it stops when every variant has minRuns calls and minBlocks rounds and (its median moved less
/// than stableRel since the last check, or maxSeconds * n passed), or when `stop` is requested
/// (then `stopped`, with what it has). Exceptions from a call propagate.
PairedResult measurePaired(std::span<const PairedVariant> variants, const PairedOptions &options, std::stop_token stop = {});

/// A ratio of medians with its confidence interval.
struct RatioInterval {
    double estimate = 0;   ///< median(numerator samples) / median(denominator samples)
    std::optional<double> low, high; ///< the interval's ends; empty with fewer than 3 blocks
    double level = 0.95;
    int blocks = 0;        ///< paired blocks the interval resamples
    int resamples = 0;
};

/// Ratio of medians `median(num) / median(den)` over paired blocks (block i of both ran in the
/// same round) with a percentile-bootstrap confidence interval: `resamples` times, draw blocks
/// with replacement (the same indices for both sides, which keeps the pairing), pool the drawn
/// blocks' samples per side, take the ratio of their medians; the interval is the (1-level)/2 and
/// (1+level)/2 quantiles of those ratios (numpy's linear percentile). Resampling whole blocks
/// rather than single calls keeps the within-block correlation (Künsch 1989, the block bootstrap;
/// Efron & Tibshirani 1993, ch. 13 for the percentile interval). Deterministic for a given `seed`
/// (std::mt19937_64). Blocks present on only one side are ignored; zero or negative medians give
/// estimate 0 and no interval. Units cancel: any time unit works.
RatioInterval ratioInterval(std::span<const std::vector<double>> numBlocks, std::span<const std::vector<double>> denBlocks,
                            double level = 0.95, int resamples = 2000, std::uint64_t seed = 0x5eed);

/// The same for paired single values (cold start: one fresh process of each kind per round).
RatioInterval ratioInterval(std::span<const double> num, std::span<const double> den, double level = 0.95,
                            int resamples = 2000, std::uint64_t seed = 0x5eed);

/// A rate over windows, Σcalls / Σseconds, with its percentile-bootstrap interval: windows drawn
/// with replacement (`resamples` times; a window's calls and seconds stay together), the rate of
/// each draw, the (1-level)/2 and (1+level)/2 quantiles (numpy's linear percentile). The ratio
/// estimator keeps windows of different lengths right (a window is as long as its calls took).
/// `blocks` is the number of windows; estimate 0 and no interval without calls or time; no
/// interval with fewer than 3 windows. Deterministic for a `seed`. Units: calls per second
/// when seconds are seconds.
RatioInterval rateInterval(std::span<const double> calls, std::span<const double> seconds, double level = 0.95,
                           int resamples = 2000, std::uint64_t seed = 0x5eed);

/// Percentile `q` (0..100, numpy's linear percentile) of independent samples with its
/// percentile-bootstrap interval: `resamples` times, draw n samples with replacement and take their
/// percentile q; the interval is the (1-level)/2 and (1+level)/2 quantiles of those (Efron &
/// Tibshirani 1993, ch. 13). For latencies of separate requests (the serving replay's p50 and p99).
/// A tail percentile's interval is only as good as the samples beyond it: with fewer than 5 samples
/// beyond the percentile (n * min(q, 100-q) / 100 < 5: a p99 needs 500 samples, a p50 10) its end
/// would be the maximum, so there is no interval then. `blocks` is the sample count; no interval
/// with fewer than 3 samples; estimate 0 without samples. Deterministic for a `seed`; units as given.
RatioInterval percentileInterval(std::span<const double> samples, double q, double level = 0.95, int resamples = 2000,
                                 std::uint64_t seed = 0x5eed);

} // namespace AotStudio::Profiler
