// SPDX-License-Identifier: GPL-3.0-or-later
// The pool's per-request deadline (`--request-timeout`, SERVING.md): when poll() must wake for the
// nearest one, and answering the requests past theirs (the worker killed and replaced); and
// workerGone(), how a worker is killed and reaped.
#include "serve/workerpool.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <unistd.h>

namespace AotStudio::Serve {

int WorkerPool::msToNextDeadline() const
{
    if (m_options.requestTimeoutMs <= 0)
        return -1;
    const auto now = Clock::now();
    int next = -1;
    for (const auto &s : m_slots) {
        if (!s.job || s.pid <= 0)
            continue;
        const int left
            = std::max(0, static_cast<int>(std::ceil(m_options.requestTimeoutMs - msBetween(s.dispatched, now))));
        next = next < 0 ? left : std::min(next, left);
    }
    return next;
}

void WorkerPool::expireDeadlines(std::vector<Completion> &done)
{
    if (m_options.requestTimeoutMs <= 0)
        return;
    const auto now = Clock::now();
    // Highest slot first: a request worker's slot is erased.
    for (std::size_t i = m_slots.size(); i-- > 0;) {
        Slot &s = m_slots[i];
        if (!s.job || s.pid <= 0 || msBetween(s.dispatched, now) < m_options.requestTimeoutMs)
            continue;
        const pid_t pid = s.pid;
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%g", m_options.requestTimeoutMs / 1000.0);
        const std::string why = "worker " + std::to_string(pid) + " did not answer within the request deadline of "
            + seconds + " s (--request-timeout); it was killed" + (warmSlots() ? " and is replaced" : "");
        done.push_back({*s.job, failure(*s.job, "deadline", why, pid)});
        s.job.reset();
        if (warmSlots()) {
            ++m_counters.died;
            m_lastDeath = why;
            workerGone(s); // an empty slot: dispatch() forks its replacement
        } else {
            Process::killAndReap(pid);
            ::close(s.fd);
            m_slots.erase(m_slots.begin() + static_cast<std::ptrdiff_t>(i));
        }
    }
}

void WorkerPool::workerGone(Slot &s)
{
    Process::killAndReap(s.pid);
    ::close(s.fd);
    if (s.errFd >= 0)
        ::close(s.errFd);
    s = Slot{};
}

} // namespace AotStudio::Serve
