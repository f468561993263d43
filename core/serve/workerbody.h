// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a serving worker does with a request (WorkerBody), kept apart from the scheduler that starts
// the workers (workerpool.h): the pool, the server and the replay need no LibTorch, and their tests
// serve with a stand-in. The bundle's own body, which loads and runs packages, is BundleWorker
// (bundleworker.h). Torch-free.
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace AotStudio::Serve {

using Clock = std::chrono::steady_clock;

/// Milliseconds from `a` to `b`.
double msBetween(Clock::time_point a, Clock::time_point b);

/// What a worker is asked: a batch of generated inputs or an input file (the request's "id" stays
/// with the parent).
struct WorkRequest {
    std::optional<long long> batch;
    std::uint64_t seed = 0;
    std::string input;

    /// The line the parent writes to a warm worker (and an eager server reads): {batch, seed, input}.
    nlohmann::json toJson() const;
    /// The request of a toJson() line; a field missing or of another type is left at its default.
    static WorkRequest fromJson(const nlohmann::json &j);
};

/// What is served, for messages and reports.
struct Subject {
    std::string name; ///< as the user named it (messages: "serving 'NAME'")
    std::string source; ///< the path it was opened from (the replay's "bundle")
    std::string model;
    std::string device; ///< "cpu", "cuda", "cuda:1"
    bool cuda() const { return device.rfind("cuda", 0) == 0; }
};

/**
 * The part of serving that runs in the workers. The pool calls prepare() once in the parent, then
 * for every worker it forks enterWorker() in the child and handle() per request (many times in a
 * warm worker, once in a request worker), and leaveWorker() before a warm worker exits. Each
 * forked worker has its own copy of this object (fork()), so what handle() keeps (the packages a
 * warm worker loaded) is the worker's own. The fork rules (SERVING.md "The fork rules"): nothing
 * called in the parent may run a forward, enter an OpenMP parallel region or initialise CUDA.
 */
class WorkerBody
{
public:
    explicit WorkerBody(Subject subject)
        : m_subject(std::move(subject))
    { }
    virtual ~WorkerBody() = default;
    WorkerBody(const WorkerBody &) = delete;
    WorkerBody &operator=(const WorkerBody &) = delete;

    const Subject &subject() const { return m_subject; }

    /// In the parent, before the first worker starts: ready what every worker would otherwise do
    /// again (file I/O, mapping libraries; no code of the served model). Failures are left for the
    /// worker that meets them to report. Must not throw.
    virtual void prepare() { }
    /// In a forked worker, after its set-up: `threads` is its share of the usable CPUs.
    virtual void enterWorker(int threads) { (void)threads; }
    /// In a worker: answer one request. `begin`: when the worker took it; `warm`: the worker serves
    /// many requests (keep what was loaded). Returns {"ok": true, "bucket", "outputs", "setup_ms",
    /// "load_ms", "inputs_ms", "run_ms"[, "layout_conversions"]} (ms) or {"ok": false, "error":
    /// errorJson(...)}. Must not throw.
    virtual nlohmann::json handle(const WorkRequest &request, Clock::time_point begin, bool warm) = 0;
    /// In a warm worker before it exits: drop what it kept (unloading packages removes LibTorch's
    /// extraction of them).
    virtual void leaveWorker() { }
    /// The replay's spawn baseline: the argv of a fresh process that answers `request` with
    /// `aotstudio-run --json`'s envelope on stdout ({"ok": true, "result": {"bucket", "outputs",
    /// "cold_start": {"load_ms", "first_run_ms", "to_loaded_ms"}}}).
    virtual std::vector<std::string> spawnCommand(const WorkRequest &request) const = 0;

private:
    Subject m_subject;
};

} // namespace AotStudio::Serve
