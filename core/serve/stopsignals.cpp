// SPDX-License-Identifier: GPL-3.0-or-later
#include "serve/stopsignals_p.h"

namespace AotStudio::Serve {

namespace {

volatile std::sig_atomic_t g_stopSignal = 0;

extern "C" void onStopSignal(int sig)
{
    g_stopSignal = sig;
}

} // namespace

int stopSignal()
{
    return g_stopSignal;
}

StopSignals::StopSignals()
{
    g_stopSignal = 0;
    sigset_t block;
    sigemptyset(&block);
    for (int s : kSignals)
        sigaddset(&block, s);
    ::sigprocmask(SIG_BLOCK, &block, &m_oldMask);
    m_waitMask = m_oldMask;
    for (int s : kSignals)
        sigdelset(&m_waitMask, s);
    struct sigaction sa {
    };
    sa.sa_handler = onStopSignal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; ++i)
        ::sigaction(kSignals[i], &sa, &m_oldActions[i]);
    struct sigaction ignore {
    };
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, &m_oldPipe);
}

StopSignals::~StopSignals()
{
    for (int i = 0; i < 3; ++i)
        ::sigaction(kSignals[i], &m_oldActions[i], nullptr);
    ::sigaction(SIGPIPE, &m_oldPipe, nullptr);
    ::sigprocmask(SIG_SETMASK, &m_oldMask, nullptr);
}

} // namespace AotStudio::Serve
