// SPDX-License-Identifier: GPL-3.0-or-later
#include "profiler/measure.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

namespace AotStudio::Profiler {

namespace {
double medianOf(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return percentile(v, 50);
}
} // namespace

Summary measure(const std::function<void()> &call, const MeasureOptions &options, std::stop_token stop)
{
    return summarize(measureSamples(call, options, std::move(stop)));
}

std::vector<double> measureSamples(const std::function<void()> &call, const MeasureOptions &options, std::stop_token stop)
{
    using Clock = std::chrono::steady_clock;
    for (int i = 0; i < options.warmup && !stop.stop_requested(); ++i)
        call();

    const int minRuns = std::max(1, options.minRuns);
    const int maxRuns = std::max(minRuns, options.maxRuns);
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(maxRuns));
    double medianAtCheckpoint = -1;
    const auto start = Clock::now();
    while (static_cast<int>(samples.size()) < maxRuns && !stop.stop_requested()) {
        const auto t0 = Clock::now();
        call();
        const auto t1 = Clock::now();
        samples.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());

        const int n = static_cast<int>(samples.size());
        if (n < minRuns)
            continue;
        if (std::chrono::duration<double>(t1 - start).count() >= options.maxSeconds)
            break;
        if (n % minRuns == 0) {
            // Stability: compare the median now with the median minRuns calls ago.
            const double median = medianOf(samples);
            if (medianAtCheckpoint > 0 && std::abs(median - medianAtCheckpoint) <= options.stableRel * medianAtCheckpoint)
                break;
            medianAtCheckpoint = median;
        }
    }
    return samples;
}

} // namespace AotStudio::Profiler
