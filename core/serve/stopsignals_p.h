// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How the server and the replay stop (SERVING.md): SIGTERM, SIGINT and SIGHUP are blocked except
// during the pool's ppoll(), whose mask lets them in, so the loop sees the signal without a race;
// SIGPIPE is ignored (a client that went away). Private to core/serve.
#include <csignal>

namespace AotStudio::Serve {

/// The stop signal caught since the last StopSignals was made (SIGTERM, SIGINT, SIGHUP), or 0.
int stopSignal();

/// Installs the handling above for its lifetime and restores what was there after.
class StopSignals
{
public:
    StopSignals();
    ~StopSignals();
    StopSignals(const StopSignals &) = delete;
    StopSignals &operator=(const StopSignals &) = delete;

    /// The mask to wait with: the caller's, with the stop signals let in.
    const sigset_t *waitMask() const { return &m_waitMask; }

private:
    static constexpr int kSignals[3] = {SIGTERM, SIGINT, SIGHUP};
    sigset_t m_waitMask;
    sigset_t m_oldMask;
    struct sigaction m_oldActions[3];
    struct sigaction m_oldPipe;
};

} // namespace AotStudio::Serve
