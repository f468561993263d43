// SPDX-License-Identifier: GPL-3.0-or-later
// The floor of a LibTorch runtime's cold start (bench_coldstart): a program linked to libtorch_cpu
// and c10, as aotstudio-run is, that leaves at the top of main(). Its spawn-to-exit time is what
// the dynamic loader and the libraries' static initialisers (the operator registrations: perf
// shows c10::Dispatcher and the JIT schema parser) cost before any code of ours runs.
#include <c10/core/Device.h>

#include <unistd.h>

int main()
{
    // A use of c10 so that the link keeps it; never reached at run time in a way that matters.
    volatile bool cpu = c10::Device(c10::kCPU).is_cpu();
    (void)cpu;
    ::_exit(0);
}
