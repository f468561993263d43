// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Nothing the engine started outlives it (issue 19, fault injection): a killed engine's children
// and grandchildren (Inductor's compile workers, the C++ compiler they run, cold start's
// aotstudio-run and eager Python, sweep's isolated points) are killed by a small watchdog process.

#include <string>
#include <vector>

namespace AotStudio::Pipeline {

/// Starts, once per process, the descendant reaper: a forked watchdog that waits for this process
/// to end (for whatever reason, SIGKILL included) and then SIGKILLs every process whose
/// environment holds this process's mark, i.e. everything started after this call by this process
/// or by its descendants, however deep and whoever became their parent.
///
/// How: sets `AOTSTUDIO_REAP_<pid>=<nonce>` in this process's environment (every child inherits
/// it; a nested engine adds its own variable), then forks (glibc's `_Fork`: no fork handlers) a
/// child that closes every descriptor (so it never holds the studio's pipe open), ignores SIGINT,
/// SIGHUP and SIGTERM (Ctrl-C in a terminal reaches the whole foreground group), and waits on a
/// pipe whose write end only this process holds (close-on-exec) plus PR_SET_PDEATHSIG and a
/// getppid() check once a second. When the parent is gone it scans /proc/<pid>/environ with raw
/// system calls only (async-signal-safe: the fork may happen with other threads running) and
/// kills every match, repeating until a scan finds none (at most ~2 s), then exits.
///
/// Why not a process group or PR_SET_PDEATHSIG on each child: a new process group would take the
/// CLI out of the terminal's foreground group (Ctrl-C would no longer reach it), PDEATHSIG covers
/// only direct children and only those we spawn ourselves (Python spawns Inductor's workers and
/// the compiler), and cgroups are not ours to create on a user's machine. The environment mark is
/// what tests/integration/tst_faults.cpp checks with, too.
///
/// Call early, before the engine starts Python (Engine::start() does); later calls return the same
/// mark. Returns the variable's `NAME=value`, or an empty string when the watchdog could not be
/// started (then nothing changes: children may outlive a killed engine, as before). Never throws.
std::string startDescendantReaper();

/// A native build tool ended by endNativeBuilds().
struct EndedProcess {
    int pid = 0;
    std::string tool; ///< the executable's base name, e.g. "cc1plus", "g++-14", "ld"
};

/// Is `name` (an executable's base name) a native build tool: a C/C++ compiler driver or one of
/// its passes, an assembler, a linker, a compiler cache, or a CUDA compiler stage? Accepts target
/// triples and versions as Debian installs them ("x86_64-linux-gnu-g++-14", "clang++-19").
bool isNativeBuildTool(std::string_view name);

/// Ends (SIGKILL) every native build tool (isNativeBuildTool) among this process's descendants,
/// i.e. the processes carrying startDescendantReaper()'s mark: the C++ compiler, assembler and
/// linker Inductor runs to build a package, however deep below Python or its compile workers
/// they are. Python itself, Inductor's compile-worker pool and the reaper are left running.
///
/// Why: a cancel during the native build used to wait for the compiler (tens of seconds, FORMAT.md
/// "cancel"); once the compiler is gone, Inductor's `subprocess` call fails at once and the job
/// ends as cancelled (the engine checks its stop token before reporting a compile failure).
/// Only for a job that was asked to stop: requests run one at a time, so every build tool below
/// the engine belongs to the running job. Returns what was ended (empty when there was nothing,
/// or no mark: startDescendantReaper() not called or failed). Never throws.
std::vector<EndedProcess> endNativeBuilds();

} // namespace AotStudio::Pipeline
