// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/throughput.h"

#include "profiler/paired.h"
#include "profiler/statistics.h"
#include "pipeline/measurement.h"
#include "runtime/aotirunner.h"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <thread>

namespace AotStudio::Pipeline {

using Protocol::Json;

namespace {

using Clock = std::chrono::steady_clock;

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

/// N threads calling one runner set at once, alive across windows. window() wakes them: each runs
/// one untimed call, all meet at a barrier, the window opens, calls ending inside it are counted,
/// all meet again. Every thread reaches every barrier even after a failure, so a failing call can
/// never leave the others (or the caller) waiting.
class RunnerGroup {
public:
    RunnerGroup(Runtime::AotiRunner &runner, int n, int intraOpThreads, int warmup, std::stop_token stop)
        : m_runner(runner)
        , m_sync(n + 1)
        , m_stop(stop)
    {
        for (int t = 0; t < n; ++t)
            m_threads.emplace_back([this, intraOpThreads, warmup] { loop(intraOpThreads, warmup); });
    }
    ~RunnerGroup()
    {
        {
            std::lock_guard lock(m_mutex);
            m_exit = true;
        }
        m_wake.notify_all();
        for (auto &t : m_threads)
            t.join();
    }
    RunnerGroup(const RunnerGroup &) = delete;
    RunnerGroup &operator=(const RunnerGroup &) = delete;

    struct Window {
        long long calls = 0;
        double seconds = 0; ///< from the window's start to the end of its last counted call (the
                            ///< whole window when none ended): calls are not cut into whole windows
        std::vector<double> latenciesMs;
    };

    /// One window of `seconds`. Throws Runtime::RuntimeError when a call failed.
    Window window(double seconds)
    {
        {
            std::lock_guard lock(m_mutex);
            ++m_generation;
            m_counted = 0;
            m_lastEnd = {};
            m_latencies.clear();
        }
        m_wake.notify_all();
        m_sync.arrive_and_wait(); // every thread warmed up
        m_start = Clock::now();
        m_end = m_start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
        m_sync.arrive_and_wait(); // the window is open
        m_sync.arrive_and_wait(); // every thread is done
        if (m_failed)
            throw Runtime::RuntimeError(m_failure);
        std::lock_guard lock(m_mutex);
        const double used = m_counted > 0 ? std::chrono::duration<double>(m_lastEnd - m_start).count() : seconds;
        return {m_counted, used > 0 ? used : seconds, m_latencies};
    }

private:
    void loop(int intraOpThreads, int warmup)
    {
        Runtime::initThreadForTorch();
        Runtime::setIntraOpThreads(intraOpThreads);
        std::uint64_t seen = 0;
        bool first = true;
        for (;;) {
            {
                std::unique_lock lock(m_mutex);
                m_wake.wait(lock, [&] { return m_exit || m_generation != seen; });
                if (m_exit)
                    return;
                seen = m_generation;
            }
            guarded([&] {
                for (int w = 0; w < (first ? std::max(1, warmup) : 1) && !m_failed; ++w)
                    m_runner.runConcurrent();
            });
            first = false;
            m_sync.arrive_and_wait();
            m_sync.arrive_and_wait();
            std::vector<double> mine;
            long long counted = 0;
            Clock::time_point lastEnd{};
            guarded([&] {
                while (!m_failed && !m_stop.stop_requested()) {
                    const auto a = Clock::now();
                    if (a >= m_end)
                        break;
                    m_runner.runConcurrent();
                    const auto b = Clock::now();
                    if (b <= m_end) {
                        ++counted;
                        lastEnd = b;
                        mine.push_back(std::chrono::duration<double, std::milli>(b - a).count());
                    }
                }
            });
            {
                std::lock_guard lock(m_mutex);
                m_counted += counted;
                m_lastEnd = std::max(m_lastEnd, lastEnd);
                m_latencies.insert(m_latencies.end(), mine.begin(), mine.end());
            }
            m_sync.arrive_and_wait();
        }
    }

    template<typename F>
    void guarded(F &&body)
    {
        try {
            body();
        } catch (const std::exception &e) {
            std::lock_guard lock(m_mutex);
            if (!m_failed)
                m_failure = e.what();
            m_failed = true;
        }
    }

    Runtime::AotiRunner &m_runner;
    std::barrier<> m_sync;
    std::stop_token m_stop;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::uint64_t m_generation = 0;
    bool m_exit = false;
    std::atomic<bool> m_failed{false};
    std::string m_failure;
    Clock::time_point m_start, m_end, m_lastEnd;
    long long m_counted = 0;
    std::vector<double> m_latencies;
    std::vector<std::thread> m_threads;
};

struct CountState {
    int runners = 0;
    int intraOpThreads = 1;
    std::unique_ptr<Runtime::AotiRunner> runner;
    std::unique_ptr<RunnerGroup> group;
    double windowSeconds = 0;       ///< this count's window: long enough for several calls
    std::vector<double> calls;      ///< counted calls per window, in round order
    std::vector<double> seconds;    ///< the time those calls took per window (RunnerGroup::Window)
    std::vector<int> rounds;        ///< the round of each window
    std::vector<double> latencies;  ///< ms, every counted call
    bool failed = false;
};

} // namespace

Json measureThroughput(const std::string &package, const std::string &device, const std::function<std::vector<DLManagedTensor *>()> &inputs,
                       const ThroughputOptions &options, std::stop_token stop, const std::function<void(const std::string &)> &warn,
                       const std::function<void(double)> &progress)
{
    Json rows = Json::array();
    if (options.runnerCounts.empty())
        return rows;
    const double seconds = std::max(0.05, options.seconds);
    const int rounds = options.rounds > 0 ? options.rounds : std::clamp(static_cast<int>(seconds / 0.125), 5, 8);

    std::vector<CountState> counts;
    for (int n : options.runnerCounts) {
        CountState c;
        c.runners = n;
        c.intraOpThreads = std::max(1, options.threads / n);
        try {
            c.runner = Runtime::AotiRunner::load(package, device, n);
            c.runner->setConvertLayout(options.convertLayout);
            c.runner->setInputs(inputs());
            c.runner->run(); // the first call pays lazy initialisation: time the next two, keep the faster
            double callS = 1e30;
            for (int k = 0; k < 2; ++k) {
                const auto t0 = Clock::now();
                c.runner->run();
                callS = std::min(callS, std::chrono::duration<double>(Clock::now() - t0).count());
            }
            // A window holds at least about 4 calls of each runner (N runners may share fewer CPUs,
            // so a call can take up to N times as long): a slow model gets longer windows.
            c.windowSeconds = std::max(seconds / rounds, 4.0 * callS * n);
            c.group = std::make_unique<RunnerGroup>(*c.runner, n, c.intraOpThreads, options.warmup, stop);
        } catch (const Runtime::RuntimeError &e) {
            warn("throughput with " + std::to_string(n) + " runners failed: " + e.what());
            continue;
        }
        counts.push_back(std::move(c));
    }

    std::mt19937_64 rng(options.seed);
    std::vector<std::size_t> order(counts.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    const double totalWindows = static_cast<double>(rounds * std::max<std::size_t>(1, counts.size()));
    int done = 0;
    for (int round = 0; round < rounds && !stop.stop_requested(); ++round) {
        std::shuffle(order.begin(), order.end(), rng);
        for (std::size_t i : order) {
            auto &c = counts[i];
            if (c.failed || stop.stop_requested())
                continue;
            try {
                auto w = c.group->window(c.windowSeconds);
                c.calls.push_back(static_cast<double>(w.calls));
                c.seconds.push_back(w.seconds);
                c.rounds.push_back(round);
                c.latencies.insert(c.latencies.end(), w.latenciesMs.begin(), w.latenciesMs.end());
            } catch (const Runtime::RuntimeError &e) {
                c.failed = true;
                warn("throughput with " + std::to_string(c.runners) + " runners failed: " + e.what());
            }
            if (progress)
                progress(++done / totalWindows);
        }
    }
    for (auto &c : counts)
        c.group.reset(); // threads joined before their runners go
    Runtime::setIntraOpThreads(options.threads); // the runner threads changed the process default

    // One runner's windows, by round, for the scaling ratios (paired: same rounds only).
    const CountState *one = nullptr;
    for (const auto &c : counts)
        if (c.runners == 1 && !c.failed)
            one = &c;
    for (const auto &c : counts) {
        if (c.failed || c.calls.empty())
            continue;
        const auto s = Profiler::summarize(c.latencies);
        const auto rate = Profiler::rateInterval(c.calls, c.seconds);
        const auto rates = [](const CountState &x) {
            std::vector<double> r;
            for (std::size_t k = 0; k < x.calls.size(); ++k)
                r.push_back(x.seconds[k] > 0 ? x.calls[k] / x.seconds[k] : 0.0);
            return r;
        };
        const auto windowRates = rates(c);
        double totalCalls = 0, totalSeconds = 0;
        for (std::size_t k = 0; k < c.calls.size(); ++k)
            totalCalls += c.calls[k], totalSeconds += c.seconds[k];
        const double perS = rate.estimate;
        Json interval = ratioJson(rate); // the same shape as every interval; estimate in calls/s
        interval["unit"] = "calls/s";
        interval["method"] = "calls over the time they took, percentile bootstrap over the windows";
        Json row{{"runners", c.runners},
                 {"threads", c.runners},
                 {"intra_op_threads", c.intraOpThreads},
                 {"calls", static_cast<long long>(totalCalls)},
                 {"seconds", totalSeconds},
                 {"windows", static_cast<int>(c.calls.size())},
                 {"window_seconds", c.windowSeconds},
                 {"window_rates_per_s", windowRates},
                 {"throughput_per_s", perS},
                 {"throughput_interval", interval},
                 {"median_ms", s.medianMs},
                 {"mean_ms", s.meanMs},
                 {"p10_ms", s.p10Ms},
                 {"p90_ms", s.p90Ms},
                 {"p99_ms", s.p99Ms},
                 {"method", "runner counts take turns in rounds (shuffled order); per round one window per count that opens "
                            "after every runner thread ran an untimed call and met at a barrier; the calls ending inside "
                            "it, over the time from its start to the last of them; latency of each counted call"}};
        if (one && &c != one) {
            std::vector<double> mine, base;
            const auto baseRates = rates(*one);
            for (std::size_t k = 0; k < c.rounds.size(); ++k) {
                const auto it = std::find(one->rounds.begin(), one->rounds.end(), c.rounds[k]);
                if (it == one->rounds.end())
                    continue;
                mine.push_back(windowRates[k]);
                base.push_back(baseRates[static_cast<std::size_t>(it - one->rounds.begin())]);
            }
            auto scaling = ratioJson(Profiler::ratioInterval(mine, base));
            scaling["method"] = "median per-window rate over one runner's, windows paired by round; percentile bootstrap";
            row["scaling"] = std::move(scaling);
        }
        // One runner's calls run back to back: its rate must match the mean latency of the calls
        // it counted (calls/s = 1000 / mean ms; the mean, not the median, since a slow call costs
        // its full time). A gap means time went somewhere between calls: a measuring fault.
        if (c.runners == 1 && s.runs > 0 && s.meanMs > 0) {
            const double expected = 1000.0 / s.meanMs;
            const bool agrees = std::abs(perS / expected - 1.0) <= 0.10;
            row["consistent"] = agrees;
            if (!agrees)
                warn("throughput with 1 runner (" + num(perS) + " calls/s) disagrees with the mean latency of its calls (" +
                     num(expected) + " calls/s from " + num(s.meanMs * 1000.0) +
                     " us): time went somewhere between calls; treat the throughput table with care");
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace AotStudio::Pipeline
