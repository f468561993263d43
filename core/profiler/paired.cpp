// SPDX-License-Identifier: GPL-3.0-or-later
#include "profiler/paired.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>

namespace AotStudio::Profiler {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0, Clock::time_point t1)
{
    return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

double medianOf(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return percentile(v, 50);
}

} // namespace

PairedResult measurePaired(std::span<const PairedVariant> variants, const PairedOptions &options, std::stop_token stop)
{
    PairedResult result;
    const std::size_t n = variants.size();
    result.variants.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        result.variants[i].name = variants[i].name;
    if (n == 0)
        return result;

    const auto &budget = options.budget;
    const int minRuns = std::max(1, budget.minRuns);
    const int maxRuns = std::max(minRuns, budget.maxRuns);
    const int minBlocks = std::max(1, options.minBlocks);

    // Warm-up in turn (A B A B ...), timing each call to size the blocks.
    std::vector<double> warmSum(n, 0.0);
    std::vector<int> warmCount(n, 0);
    for (int w = 0; w < budget.warmup && !stop.stop_requested(); ++w) {
        for (std::size_t i = 0; i < n; ++i) {
            const auto t0 = Clock::now();
            variants[i].call();
            warmSum[i] += msSince(t0, Clock::now());
            ++warmCount[i];
        }
    }
    // Calls per block: about targetBlockMs of work, at least 1, and small enough that maxRuns
    // leaves room for minBlocks rounds (the interval needs blocks, not calls).
    const int capCalls = std::max(1, maxRuns / minBlocks);
    for (std::size_t i = 0; i < n; ++i) {
        auto &v = result.variants[i];
        v.warmupMeanMs = warmCount[i] ? warmSum[i] / warmCount[i] : 0.0;
        int calls = capCalls;
        if (v.warmupMeanMs > 0)
            calls = static_cast<int>(std::clamp(std::floor(options.targetBlockMs / v.warmupMeanMs), 1.0, double(capCalls)));
        v.callsPerBlock = calls;
    }
    // Rounds every variant needs for minRuns; no variant may then pass maxRuns in that many rounds
    // (a fast variant's blocks hold more calls: uncapped, it ran 600 times for --runs 200 while a
    // slow one gathered its minRuns).
    int roundsNeeded = minBlocks;
    for (const auto &v : result.variants)
        roundsNeeded = std::max(roundsNeeded, (minRuns + v.callsPerBlock - 1) / v.callsPerBlock);
    for (auto &v : result.variants) {
        v.callsPerBlock = std::clamp(v.callsPerBlock, 1, std::max(1, maxRuns / roundsNeeded));
        v.samplesMs.reserve(static_cast<std::size_t>(maxRuns) + static_cast<std::size_t>(v.callsPerBlock));
    }

    std::mt19937_64 rng(options.seed);
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::vector<double> checkpoint(n, -1.0);
    const double capSeconds = budget.maxSeconds * static_cast<double>(n);
    const auto start = Clock::now();
    while (!stop.stop_requested()) {
        std::shuffle(order.begin(), order.end(), rng);
        result.order.push_back(order);
        for (int idx : order) {
            const auto &variant = variants[static_cast<std::size_t>(idx)];
            auto &v = result.variants[static_cast<std::size_t>(idx)];
            if (variant.beginBlock)
                variant.beginBlock();
            std::vector<double> block;
            block.reserve(static_cast<std::size_t>(v.callsPerBlock));
            for (int c = 0; c < v.callsPerBlock; ++c) {
                if (variant.beforeCall)
                    variant.beforeCall(c);
                const auto t0 = Clock::now();
                variant.call();
                block.push_back(msSince(t0, Clock::now()));
                if (variant.afterCall)
                    variant.afterCall(c);
            }
            if (variant.endBlock)
                variant.endBlock();
            v.samplesMs.insert(v.samplesMs.end(), block.begin(), block.end());
            v.blocksMs.push_back(std::move(block));
            if (stop.stop_requested())
                break;
        }
        ++result.rounds;
        if (options.afterRound)
            options.afterRound(result.rounds);
        if (stop.stop_requested()) {
            // A round cut short leaves some variants one block behind: drop it from all, so block
            // i is the same round for every variant.
            const std::size_t rounds = std::min_element(result.variants.begin(), result.variants.end(), [](const auto &a, const auto &b) {
                                           return a.blocksMs.size() < b.blocksMs.size();
                                       })->blocksMs.size();
            for (auto &v : result.variants) {
                while (v.blocksMs.size() > rounds) {
                    v.samplesMs.resize(v.samplesMs.size() - v.blocksMs.back().size());
                    v.blocksMs.pop_back();
                }
            }
            result.rounds = static_cast<int>(rounds);
            result.order.resize(rounds);
            break;
        }

        // maxRuns is a hard cap: stop before any variant's next block would pass it.
        if (std::any_of(result.variants.begin(), result.variants.end(), [&](const auto &v) {
                return static_cast<int>(v.samplesMs.size()) + v.callsPerBlock > maxRuns;
            }))
            break;
        const bool enough = result.rounds >= minBlocks && std::all_of(result.variants.begin(), result.variants.end(), [&](const auto &v) {
                                return static_cast<int>(v.samplesMs.size()) >= minRuns;
                            });
        if (!enough)
            continue;
        if (std::chrono::duration<double>(Clock::now() - start).count() >= capSeconds)
            break;
        if (result.rounds % minBlocks == 0) {
            // Stability: every variant's median moved by less than stableRel since the last check.
            bool stable = true;
            for (std::size_t i = 0; i < n; ++i) {
                const double m = medianOf(result.variants[i].samplesMs);
                if (!(checkpoint[i] > 0 && std::abs(m - checkpoint[i]) <= budget.stableRel * checkpoint[i]))
                    stable = false;
                checkpoint[i] = m;
            }
            if (stable)
                break;
        }
    }
    result.stopped = stop.stop_requested();
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
}

RatioInterval ratioInterval(std::span<const std::vector<double>> numBlocks, std::span<const std::vector<double>> denBlocks,
                            double level, int resamples, std::uint64_t seed)
{
    RatioInterval r;
    r.level = level;
    const std::size_t blocks = std::min(numBlocks.size(), denBlocks.size());
    const auto pooledMedian = [](std::span<const std::vector<double>> bs, std::span<const std::size_t> picks) {
        std::vector<double> all;
        for (std::size_t b : picks)
            all.insert(all.end(), bs[b].begin(), bs[b].end());
        return medianOf(std::move(all));
    };
    std::vector<std::size_t> every(blocks);
    std::iota(every.begin(), every.end(), std::size_t{0});
    const double num = pooledMedian(numBlocks, every), den = pooledMedian(denBlocks, every);
    r.blocks = static_cast<int>(blocks);
    if (!(num > 0 && den > 0))
        return r;
    r.estimate = num / den;
    if (blocks < 3 || resamples < 10)
        return r;

    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::size_t> pick(0, blocks - 1);
    std::vector<double> ratios;
    ratios.reserve(static_cast<std::size_t>(resamples));
    std::vector<std::size_t> picks(blocks);
    for (int k = 0; k < resamples; ++k) {
        for (auto &p : picks)
            p = pick(rng);
        const double a = pooledMedian(numBlocks, picks), b = pooledMedian(denBlocks, picks);
        if (a > 0 && b > 0)
            ratios.push_back(a / b);
    }
    if (ratios.size() < 10)
        return r;
    std::sort(ratios.begin(), ratios.end());
    r.resamples = static_cast<int>(ratios.size());
    r.low = percentile(ratios, 50.0 * (1.0 - level));
    r.high = percentile(ratios, 50.0 * (1.0 + level));
    return r;
}

RatioInterval ratioInterval(std::span<const double> num, std::span<const double> den, double level, int resamples, std::uint64_t seed)
{
    std::vector<std::vector<double>> a, b;
    for (double v : num)
        a.push_back({v});
    for (double v : den)
        b.push_back({v});
    return ratioInterval(a, b, level, resamples, seed);
}

RatioInterval rateInterval(std::span<const double> calls, std::span<const double> seconds, double level, int resamples,
                           std::uint64_t seed)
{
    RatioInterval r;
    r.level = level;
    const std::size_t n = std::min(calls.size(), seconds.size());
    r.blocks = static_cast<int>(n);
    const auto rateOf = [&](auto &&pick) {
        double c = 0, s = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t k = pick(i);
            c += calls[k];
            s += seconds[k];
        }
        return s > 0 ? c / s : 0.0;
    };
    r.estimate = rateOf([](std::size_t i) { return i; });
    if (!(r.estimate > 0) || n < 3 || resamples < 10)
        return r;
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::size_t> pick(0, n - 1);
    std::vector<double> rates;
    rates.reserve(static_cast<std::size_t>(resamples));
    for (int k = 0; k < resamples; ++k)
        rates.push_back(rateOf([&](std::size_t) { return pick(rng); }));
    std::sort(rates.begin(), rates.end());
    r.resamples = resamples;
    r.low = percentile(rates, 50.0 * (1.0 - level));
    r.high = percentile(rates, 50.0 * (1.0 + level));
    return r;
}

RatioInterval percentileInterval(std::span<const double> samples, double q, double level, int resamples, std::uint64_t seed)
{
    RatioInterval r;
    r.level = level;
    r.blocks = static_cast<int>(samples.size());
    if (samples.empty())
        return r;
    std::vector<double> sorted(samples.begin(), samples.end());
    std::sort(sorted.begin(), sorted.end());
    r.estimate = percentile(sorted, q);
    // A tail percentile's bootstrap needs samples beyond it: with fewer than kMinTailSamples above
    // (below) the percentile its interval's end is just the maximum (minimum), a figure that looks
    // like an interval and is not one (p99 of 17 requests): none then.
    constexpr double kMinTailSamples = 5;
    const double tail = static_cast<double>(samples.size()) * std::min(q, 100.0 - q) / 100.0;
    if (samples.size() < 3 || resamples < 10 || tail < kMinTailSamples)
        return r;
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::size_t> pick(0, samples.size() - 1);
    std::vector<double> draw(samples.size()), estimates;
    estimates.reserve(static_cast<std::size_t>(resamples));
    for (int k = 0; k < resamples; ++k) {
        for (auto &v : draw)
            v = samples[pick(rng)];
        std::sort(draw.begin(), draw.end());
        estimates.push_back(percentile(draw, q));
    }
    std::sort(estimates.begin(), estimates.end());
    r.resamples = resamples;
    r.low = percentile(estimates, 50.0 * (1.0 - level));
    r.high = percentile(estimates, 50.0 * (1.0 + level));
    return r;
}

} // namespace AotStudio::Profiler
