// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The detached side of the one child-process mechanism (jobutil.h runProcess(): posix_spawnp with
// an argv, no shell): a child that is not waited for and outlives its parent. Declared apart from
// jobutil.h so that the few users do not make every job recompile; defined in jobutil.cpp beside
// runProcess(), with the same environment handling.

#include <string>
#include <vector>

namespace AotStudio::Pipeline {

/// What spawnDetached() started.
struct DetachedChild {
    int pid = 0; ///< the child's process id, > 0 when it started
    std::string error; ///< why it could not be started, or empty
};

/**
 * Starts `argv` (posix_spawnp, no shell) in a session of its own (POSIX_SPAWN_SETSID: no
 * controlling terminal, not in the parent's process group, so neither a hang-up nor a signal to
 * the parent's group reaches it), stdin on /dev/null, stdout and stderr appended to `logPath`
 * (created 0600; /dev/null when empty), this process's environment plus `extraEnv` ("NAME=value",
 * replacing NAME). No other descriptor is inherited (closefrom 3 with glibc 2.34 and later; before
 * that the caller's descriptors must be close-on-exec).
 * Does not wait: the caller may reap it with waitpid(WNOHANG) while it lives; when the caller
 * exits, init (or the nearest subreaper) adopts it. Used by `aotstudio-engine --serve --session`
 * to start the detached engine (app/engine/sessionengine.h). Never throws.
 */
DetachedChild spawnDetached(const std::vector<std::string> &argv, const std::string &logPath,
                            const std::vector<std::string> &extraEnv = {});

} // namespace AotStudio::Pipeline
