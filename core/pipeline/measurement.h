// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How every job times variants against each other: threads stated and set, variants paired in
// blocks, each ratio with its interval, and the machine's verdict (FORMAT.md "measurement").

#include "profiler/machine.h"
#include "profiler/paired.h"
#include "protocol/messages.h"

#include <stop_token>
#include <string>
#include <vector>

namespace AotStudio::Pipeline {

/// The intra-op thread count a request asks for: its `threads` (an integer in 1..usable CPUs) or,
/// when absent or null, the usable CPUs (affinity and cgroup quota, Profiler::usableCpus()).
/// Sets it for LibTorch and the embedded Python's torch (Runtime::setIntraOpThreads) and returns
/// it. Throws JobFailed(bad_request) naming the value and the usable CPUs when out of range.
int applyThreads(const Protocol::Json &request);

/// Variants timed together, and what came out.
class Comparison {
public:
    /// Time `variants` with Profiler::measurePaired under a MachineMonitor (sampled between
    /// rounds). `threads` is what applyThreads() returned.
    Comparison(std::vector<Profiler::PairedVariant> variants, const Profiler::MeasureOptions &budget, int threads,
               std::stop_token stop);

    const Profiler::PairedResult &paired() const { return m_paired; }
    bool stopped() const { return m_paired.stopped; }
    /// Summary (ms) of variant `i` (in the order given).
    Profiler::Summary summary(std::size_t i) const { return m_paired.variants.at(i).summary(); }
    /// median(num) / median(den) with its 95% interval over the paired blocks.
    Profiler::RatioInterval ratio(std::size_t num, std::size_t den) const;
    /// FORMAT.md "measurement": the verdict with reasons, threads, usable CPUs, load; the ratios
    /// passed give their interval widths to the verdict (a wide interval is "noisy").
    Protocol::Json measurement(const std::vector<Profiler::RatioInterval> &ratios = {});
    /// FORMAT.md "pairing": rounds, calls per block, block order seed, wall seconds.
    Protocol::Json pairing() const;

private:
    Profiler::PairedResult m_paired;
    Profiler::MachineMonitor m_monitor;
    std::uint64_t m_seed;
};

/// A ratio as results carry it: {estimate, low, high, level, blocks, resamples, method}; low and
/// high null when there were too few blocks.
Protocol::Json ratioJson(const Profiler::RatioInterval &r);

/// The inverse of ratioJson() (for readers of results: the CLI's text output); missing keys stay
/// at their defaults, a non-object gives estimate 0.
Profiler::RatioInterval ratioFromJson(const Protocol::Json &j);

/// "1.46× (95% CI 1.41–1.52)", "0.81× (… ) — compiled is slower", for logs and the CLI; "no
/// reliable ratio: its 95% interval 4.87–14.4 is wider than the estimate 8.85×" when high − low >
/// estimate (the studio's MeasurementText says the same). Empty `slowerWords`: nothing added below 1
/// (a ratio where lower is better, e.g. peak memory).
std::string ratioText(const Profiler::RatioInterval &r, const char *slowerWords = "compiled is slower");

/// The verdict line for the CLI and logs: "measurement: unreliable: REASON; REASON" (empty for ok).
std::string verdictLine(const Protocol::Json &measurement);

} // namespace AotStudio::Pipeline
