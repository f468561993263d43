// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Nothing the engine started outlives it (issue 19, fault injection): a killed engine's children
// and grandchildren (Inductor's compile workers, the C++ compiler they run, cold start's
// aotstudio-run and eager Python, sweep's isolated points) are killed by a small watchdog process.

#include <string>

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

} // namespace AotStudio::Pipeline
