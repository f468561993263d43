// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pipeline/artifactread.h"
#include "protocol/messages.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <stop_token>
#include <thread>

namespace AotStudio::Pipeline {

/// The engine: a request queue served by one worker thread that owns the embedded Python
/// interpreter (all Python and torch work happens there). Shared by `aotstudio-engine --serve`,
/// which feeds it lines from stdin, and `aotstudio-cli`, which feeds it one request in process.
///
/// Events go to `sink`, called from the worker thread and (for immediate answers such as `pong`
/// or a rejected request) from the caller's thread; the sink must be thread-safe.
class Engine {
public:
    using Sink = std::function<void(const Protocol::Json &event)>;

    explicit Engine(Sink sink);
    /// Stops the worker after the running stage. The process should exit soon after: Python is
    /// never finalized (see core/python/frontend.h).
    ~Engine();
    Engine(const Engine &) = delete;
    Engine &operator=(const Engine &) = delete;

    /// Start the worker, initialize Python and the frontend (imports torch: seconds), and return
    /// the `hello` message. If the frontend is unavailable, hello still comes back (empty
    /// torch_version) and every later request is answered with that error.
    Protocol::Json start();

    /// The frontend error found at start(), if any (code frontend_unavailable).
    std::optional<Protocol::Error> startupError() const;

    /// Allow `read` below `folder` besides the out folders of this engine's jobs (`--jobs DIR`).
    void addReadFolder(const std::filesystem::path &folder) { m_reader.addFolder(folder); }

    /// Handle one request: jobs are queued; `cancel`, `ping`, `read` and `shutdown` act at once
    /// (a `read` is answered on the caller's thread, so files arrive while a job runs).
    /// Unknown types are skipped (FORMAT.md). Returns false after `shutdown`.
    bool handle(const Protocol::Request &request);

    /// Block until the queue is empty and no job runs.
    void waitIdle();

    /// Whether requests of `type` are jobs (queued, answered by exactly one `result` or `error`):
    /// compile, export, profile, quantize, sweep, numerics, tune, inputs, capture, repro.
    static bool isJobType(std::string_view type);

private:
    struct Job {
        Protocol::Request request;
        std::stop_source stop;
        std::chrono::steady_clock::time_point received; ///< when handle() queued it
        std::chrono::steady_clock::time_point started; ///< when the worker took it
    };

    void workerLoop(std::stop_token stop);
    void runJob(Job &job);
    /// After a cancel of the running job `id`: every 100 ms until that job ends, end the native
    /// build tools below the engine (endNativeBuilds) and log each one in the job's events.
    void endBuildsUntilJobEnds(std::stop_token stop, std::int64_t id);
    void emit(const Protocol::Json &event);

    Sink m_sink;
    mutable std::mutex m_mutex;
    std::condition_variable_any m_wake;
    std::condition_variable m_idle;
    std::deque<Job> m_queue;
    Job *m_running = nullptr;
    bool m_started = false;
    bool m_ready = false;
    Protocol::Json m_hello;
    std::optional<Protocol::Error> m_startupError;
    std::jthread m_worker;
    /// Runs endBuildsUntilJobEnds while a cancelled job is still running; stopped when it ends.
    std::jthread m_buildEnder;
    ArtifactReader m_reader;
};

} // namespace AotStudio::Pipeline
