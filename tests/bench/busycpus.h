// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A busy machine on demand, for bench_trust and tst_trust (issue 13): spinning threads, one more
// than the CPUs this process may use (its affinity mask), for as long as the object lives. That is
// what another build running beside a measurement looks like to the scheduler.

#include <sched.h>

#include <atomic>
#include <thread>
#include <vector>

namespace TestSupport {

class BusyCpus {
public:
    BusyCpus()
    {
        cpu_set_t set;
        CPU_ZERO(&set);
        const int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
        for (int i = 0; i < cpus + 1; ++i)
            m_threads.emplace_back([this] {
                volatile unsigned long long x = 0;
                while (!m_stop.load(std::memory_order_relaxed))
                    x = x + 1;
            });
    }
    ~BusyCpus()
    {
        m_stop = true;
        for (auto &t : m_threads)
            t.join();
    }
    BusyCpus(const BusyCpus &) = delete;
    BusyCpus &operator=(const BusyCpus &) = delete;

private:
    std::atomic<bool> m_stop{false};
    std::vector<std::thread> m_threads;
};

} // namespace TestSupport
