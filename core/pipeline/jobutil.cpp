// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/jobutil.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <sys/wait.h>

namespace AotStudio::Pipeline {

Protocol::Json summaryJson(const Profiler::Summary &s, int warmup)
{
    return Protocol::Json{{"median_ms", s.medianMs}, {"p10_ms", s.p10Ms},       {"p90_ms", s.p90Ms},
                          {"p99_ms", s.p99Ms},       {"mean_ms", s.meanMs},     {"stddev_ms", s.stddevMs},
                          {"min_ms", s.minMs},       {"max_ms", s.maxMs},       {"runs", s.runs},
                          {"warmup", warmup}};
}

std::string isoNow()
{
    char buf[32];
    const std::time_t t = std::time(nullptr);
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

std::string shellQuote(const std::string &s)
{
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

double timeProcess(const std::string &command)
{
    const auto t0 = std::chrono::steady_clock::now();
    const int rc = std::system((command + " >/dev/null 2>&1").c_str());
    const auto t1 = std::chrono::steady_clock::now();
    // system() ignores SIGINT while the child runs, so a Ctrl-C would only kill the child: pass
    // it on, as a shell does, so the caller's handler (the CLI's cancel) sees it.
    if (rc != -1 && WIFSIGNALED(rc) && WTERMSIG(rc) == SIGINT)
        std::raise(SIGINT);
    return rc == 0 ? std::chrono::duration<double, std::milli>(t1 - t0).count() : -1.0;
}

std::filesystem::path selfDir()
{
    std::error_code ec;
    const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : p.parent_path();
}

} // namespace AotStudio::Pipeline
