// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Small pieces shared by the compile, export, profile and quantize jobs.

#include "profiler/statistics.h"
#include "protocol/messages.h"

#include <filesystem>
#include <functional>
#include <limits>
#include <stop_token>
#include <string>
#include <vector>

namespace AotStudio::Pipeline {

/// A latency summary as the results carry it (FORMAT.md "compile result": median_ms, p10_ms,
/// p90_ms, p99_ms, mean_ms, stddev_ms, min_ms, max_ms in ms; runs; warmup).
Protocol::Json summaryJson(const Profiler::Summary &s, int warmup);
/// Write `text` to `path` atomically (Bundle::writeFileAtomic: temporary name, fsync, rename).
/// Throws JobFailed (stage "write", code internal) naming the file and the cause.
void writeFileAtomic(const std::filesystem::path &path, const std::string &text);
/// `j` indented by 2, invalid UTF-8 replaced (a model's strings must not fail the write), atomically.
void writeJsonAtomic(const std::filesystem::path &path, const Protocol::Json &j);
/// The JSON in `path`, or null when the file is missing, unreadable or not JSON (a result.json
/// that may not be there: callers treat null as "not recorded").
Protocol::Json readJsonFile(const std::filesystem::path &path);
/// The current UTC time as ISO 8601 ("2026-11-30T14:05:00Z").
std::string isoNow();
/// `s` quoted for /bin/sh (single quotes; embedded ones escaped).
std::string shellQuote(const std::string &s);
/// What runProcess() saw of a child.
struct ProcessResult {
    int exitCode = -1;   ///< exit status when it exited normally
    int signal = 0;      ///< the signal that killed it, or 0
    std::string out;     ///< everything it wrote to stdout
    std::string err;     ///< the last line it wrote to stderr (with ProcessOptions::captureStderr), or empty
    double wallMs = 0;   ///< spawn to exit (std::chrono::steady_clock), ms
    std::string error;   ///< why it could not be started, or empty
    bool timedOut = false; ///< killed (SIGKILL) after ProcessOptions::timeoutSeconds
    bool stopped = false; ///< interrupted (SIGINT) because ProcessOptions::stop was requested
    bool ok() const { return error.empty() && signal == 0 && exitCode == 0; }
    /// "exit status 1", "killed by signal 9", "could not start: ..."
    std::string describe() const;
};

/// How runProcess() waits.
struct ProcessOptions {
    double timeoutSeconds = 0;  ///< > 0: SIGKILL the child after this long (ProcessResult::timedOut)
    bool captureStderr = true;  ///< keep the last line of stderr (ProcessResult::err); else /dev/null
    /// A job's cancel: when requested, the child gets SIGINT (a tool's cancel, exit 130) and, if it
    /// is still there 5 s later, SIGKILL; ProcessResult::stopped says so. Checked every 0.2 s.
    std::stop_token stop;
    /// Called about every 0.5 s while the child runs (a job's live progress: counting what the
    /// child wrote so far). Runs on the waiting thread; must not throw.
    std::function<void()> onTick;
    /// Called with each complete line the child writes to stderr (without its newline), as it
    /// arrives (with captureStderr): a tool's progress lines passed on. Runs on the waiting thread;
    /// must not throw.
    std::function<void(const std::string &line)> onStderrLine;
    /// Keep at most the last this many bytes of stdout (a user's script may print without end).
    std::size_t stdoutTail = std::numeric_limits<std::size_t>::max();
};

/// The one way the engine runs a child process: posix_spawnp with `argv` (no shell, no quoting),
/// this process's environment plus `extraEnv` ("NAME=value", replacing NAME), stdin on /dev/null,
/// stdout captured, stderr's last line kept (a crash's message). Waits for it to exit, or kills it
/// after `options.timeoutSeconds`, or interrupts it on `options.stop`. Never throws.
ProcessResult runProcess(const std::vector<std::string> &argv, const std::vector<std::string> &extraEnv = {},
                         const ProcessOptions &options = {});
/// `argv` as one shell-quoted line, for messages and logs.
std::string commandLine(const std::vector<std::string> &argv);
/// The folder of this executable (/proc/self/exe); empty when unknown. Sibling tools
/// (aotstudio-run) are looked up there.
std::filesystem::path selfDir();

} // namespace AotStudio::Pipeline
