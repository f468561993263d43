// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The cold-start clock of aotstudio-run and aotstudio-run-lite (header only: the lite runtime links
// no profiler library), so that the figures of both runtimes are read the same way and compare.

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include <time.h>
#include <unistd.h>

namespace AotStudio::Profiler {

/// Milliseconds since the process started. The start comes from /proc/self/stat (field 22,
/// starttime, in clock ticks since boot; proc(5)), compared with CLOCK_BOOTTIME, the clock the
/// kernel measures it on, so the figures include exec, dynamic linking and static initialisers,
/// which a clock started in main() would miss. Resolution: one clock tick (1/sysconf(_SC_CLK_TCK)
/// s, 10 ms on Linux); starttime is rounded down, so figures can read up to one tick high. Without
/// /proc the clock falls back to the top of main() and says so (source() "main"). Construct it
/// first thing in main().
class ColdClock
{
public:
    ColdClock()
        : m_mainEntered(nowBoot())
    {
        std::ifstream in("/proc/self/stat");
        std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto paren = stat.rfind(')'); // the command name may contain spaces and ')'
        const long tick = ::sysconf(_SC_CLK_TCK);
        if (paren != std::string::npos && tick > 0) {
            std::istringstream fields(stat.substr(paren + 1));
            std::string field;
            unsigned long long startTicks = 0;
            for (int i = 3; i <= 22 && fields >> field; ++i)
                if (i == 22)
                    startTicks = std::stoull(field);
            const double start = static_cast<double>(startTicks) / static_cast<double>(tick);
            if (startTicks > 0 && start <= m_mainEntered) {
                m_start = start;
                m_resolutionMs = 1000.0 / static_cast<double>(tick);
                m_source = "proc_starttime";
            }
        }
        if (m_source.empty()) {
            m_start = m_mainEntered;
            m_source = "main";
        }
    }
    /// Milliseconds since the process started (or since main(), see source()).
    double sinceStartMs() const { return (nowBoot() - m_start) * 1000.0; }
    /// Milliseconds from the process's start to the constructor (exec, linking, static init).
    double mainEnteredMs() const { return (m_mainEntered - m_start) * 1000.0; }
    /// "proc_starttime", or "main" when /proc could not be read.
    const std::string &source() const { return m_source; }
    /// The start's resolution in ms (one clock tick); 0 for source() "main".
    double resolutionMs() const { return m_resolutionMs; }

private:
    static double nowBoot()
    {
        timespec ts{};
        ::clock_gettime(CLOCK_BOOTTIME, &ts);
        return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
    }
    double m_mainEntered;
    double m_start = 0;
    double m_resolutionMs = 0;
    std::string m_source;
};

} // namespace AotStudio::Profiler
