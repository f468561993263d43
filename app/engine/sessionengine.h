// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An engine that survives its link (issue 41 item 2; FORMAT.md "Detached engines").
// `aotstudio-engine --serve --session ID` over ssh does not run the engine itself: it
// is a relay that connects the ssh channel (its stdin and stdout) to the detached engine of session
// ID, listening on a Unix socket, and starts that engine first when none listens. The detached
// engine (`--detached`, started by the relay only) runs in a session of its own, keeps running its
// jobs when the relay dies with the link, numbers every job event (`seq`), keeps them in a bounded
// buffer, and replays those after the client's last one to the next client that sends `attach`.
// With no client and no job for `--idle-exit` seconds it exits. No Qt, no Python in the relay.

#include <filesystem>
#include <string>
#include <vector>

namespace AotStudio::EngineApp {

/// Seconds a detached engine with no client and no queued or running job waits before it exits
/// (`--idle-exit`): 15 minutes.
inline constexpr int kDefaultIdleExitSeconds = 900;

/// Events a detached engine keeps for replay: at most this many, and at most kReplayBufferBytes
/// of their lines; the oldest go first (a replay that needed them says `gap`).
inline constexpr std::size_t kReplayBufferEvents = 50000;
inline constexpr std::size_t kReplayBufferBytes = std::size_t(64) << 20;

struct SessionOptions {
    std::string id; ///< the session's id: 1 to 64 of [A-Za-z0-9_-]
    std::vector<std::string> readFolders; ///< `--jobs DIR` (absolute paths)
    int idleExitSeconds = kDefaultIdleExitSeconds;
    std::size_t replayEvents = kReplayBufferEvents; ///< `--replay-events` (tests make it small)
};

/// Empty when `id` is a usable session id, else why not.
std::string checkSessionId(const std::string &id);

/**
 * The folder of the detached engines' sockets, lock files and logs, created mode 0700 when
 * missing: $AOTSTUDIO_RUNTIME_DIR, else $XDG_CACHE_HOME/aotstudio/engines, else
 * ~/.cache/aotstudio/engines ($XDG_RUNTIME_DIR is removed at the end of the user's last login
 * session: a dropped link). A folder that is not this user's, that others may enter, or that takes
 * no new file is refused (empty path, `error` says why, naming the folder and AOTSTUDIO_RUNTIME_DIR).
 */
std::filesystem::path sessionFolder(std::string *error);

/**
 * The relay (`--serve --session ID`): connects to the detached engine of `options.id`, starting it
 * as `daemonArgv` (Process::spawnDetached, its output appended to `engine-ID.log` in the session
 * folder) when nothing listens, then copies stdin to the engine and the engine to the protocol's
 * stdout until either side ends. Returns the exit status: 0 when a side ended, 1 when the engine
 * could not be started or reached within 120 s (a line on stderr says why).
 */
int runRelay(const SessionOptions &options, const std::vector<std::string> &daemonArgv);

/**
 * The detached engine (`--detached --session ID`): takes `engine-ID.lock` (another engine of the
 * session holding it: exits 0), listens on `engine-ID.sock` (mode 0600), serves one client at a
 * time (a new connection replaces the old one), and exits after `shutdown` once idle, or after
 * `options.idleExitSeconds` with neither a client nor a queued or running job, removing its
 * socket, lock file and log (a killed one leaves the last two). Returns the exit status (2:
 * cannot listen).
 */
int runDetachedEngine(const SessionOptions &options);

} // namespace AotStudio::EngineApp
