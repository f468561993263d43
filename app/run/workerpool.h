// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The scheduler of aotstudio-run --serve and of the replay: a queue of requests and a pool of
// worker processes fork()ed from the prepared parent (or, for the replay's baseline, spawned
// aotstudio-run processes), driven by the caller's poll loop. The fork rules are serve.h's.
#include "serve.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include <poll.h>
#include <signal.h>
#include <sys/types.h>

namespace AotStudio::RunApp {

using Clock = std::chrono::steady_clock;

/// Milliseconds from `a` to `b`.
double msBetween(Clock::time_point a, Clock::time_point b);

/// Write all of `data` to `fd` (send() with MSG_NOSIGNAL when `socket`); false when the other end
/// is gone.
bool writeAll(int fd, const std::string &data, bool socket);

/// In a child right after fork(): die with the parent (PR_SET_PDEATHSIG, then getppid() checked;
/// exits at once when the parent is already gone), default signals and mask, `closeFds` closed,
/// stdin from /dev/null and stdout onto stderr (prints from a package must not reach the answers),
/// and `threads` as LibTorch's intra-op thread count.
void becomeWorker(pid_t parent, const std::vector<int> &closeFds, int threads);

/// What a worker is asked: a batch of generated inputs or an input file (the request's "id" stays
/// with the parent).
struct WorkRequest {
    std::optional<long long> batch;
    std::uint64_t seed = 0;
    std::string input;

    nlohmann::json toJson() const
    {
        return {{"batch", batch ? nlohmann::json(*batch) : nlohmann::json()}, {"seed", seed}, {"input", input}};
    }
    static WorkRequest fromJson(const nlohmann::json &j)
    {
        WorkRequest r;
        if (j.contains("batch") && j["batch"].is_number_integer())
            r.batch = j["batch"].get<long long>();
        r.seed = j.value("seed", std::uint64_t{0});
        r.input = j.value("input", std::string());
        return r;
    }
};

/// A request in the scheduler.
struct Job {
    nlohmann::json id; ///< the request's "id", echoed
    WorkRequest request;
    Clock::time_point arrival; ///< when it arrived (the replay: its scheduled time)
    int client = -1; ///< who gets the answer (socket connections)
    std::size_t index = 0; ///< the replay's request number
};

struct Completion {
    Job job;
    nlohmann::json response; ///< the full response line
};

/// The scheduler: a queue of jobs and a pool of workers (ServeOptions::isolation), driven by
/// poll() from the caller's loop. No threads. Answers come back in completion order.
class WorkerPool
{
public:
    /// How long an eager server may take to write its ready line (importing torch, building a
    /// large model), ms.
    static constexpr int kEagerReadyTimeoutMs = 300000;
    /// Eager servers started again after dying mid-trace, in all; past this, with none alive, the
    /// queued requests fail with the last server's last words instead of waiting forever.
    static constexpr int kMaxEagerRestarts = 3;

    WorkerPool(const VerifiedBundle &vb, const ServeOptions &options);
    ~WorkerPool() { stop(); }
    WorkerPool(const WorkerPool &) = delete;
    WorkerPool &operator=(const WorkerPool &) = delete;

    /// Descriptors of the server (its socket, its clients) that children must not keep.
    std::vector<int> *serverFds = nullptr;

    /// Ready the packages and start the warm workers (worker isolation) or the eager servers
    /// (eager). Throws Refusal("failed") when a worker cannot be forked or a server not started.
    void start();

    /// Wait until every eager server has written its ready line (other modes are ready at once),
    /// at most `timeoutMs`; `mask` as in poll(). Returns "" when all are ready, else what went
    /// wrong: "eager server 1234 exited with status 1 before it was ready: <its last stderr
    /// line>", a timeout, or a stop signal.
    std::string waitReady(int timeoutMs, const sigset_t *mask);

    /// CPU time (user + system, s) the live workers have used so far, from /proc/PID/stat: what
    /// the replay leaves out of a mode's CPU busy share after waitReady() (an eager server's import
    /// of torch and its model build are not serving).
    double liveWorkersCpuSeconds() const;

    void submit(Job job) { m_queue.push_back(std::move(job)); }
    bool idle() const;

    /// What the pool has done since start(), for the server's `stats` request (SERVING.md).
    struct Counters {
        long long forked = 0; ///< worker processes started (fork or spawn), the first ones included
        long long replaced = 0; ///< warm workers (or eager servers) started again after one died
        long long died = 0; ///< warm workers that died (killed, crashed), busy or idle
        long long answered = 0; ///< completions with "ok": true
        long long failed = 0; ///< completions with "ok": false (refusals, failures, dead workers)
    };
    const Counters &counters() const { return m_counters; }
    /// The live workers' process ids (warm slots and running request workers), in slot order.
    std::vector<pid_t> workerPids() const;
    /// Jobs waiting for a worker, and jobs a worker is running.
    std::size_t queued() const { return m_queue.size(); }
    std::size_t inFlight() const;

    /// Start what can start, wait up to `timeoutMs` for a worker's answer or for one of `extra`
    /// (their revents are set for the caller), and return the finished jobs. `mask`: the signal
    /// mask during the wait (ppoll), so a stop signal ends it.
    std::vector<Completion> poll(std::vector<pollfd> &extra, int timeoutMs, const sigset_t *mask);

    /// End every worker: warm ones see their channel close and exit; running request or spawn
    /// workers are killed. Reaps them all.
    void stop();

private:
    struct Slot {
        pid_t pid = -1;
        int fd = -1; ///< the parent's end of the channel
        std::string buf; ///< what the worker wrote so far
        std::optional<Job> job; ///< the job it is running
        Clock::time_point dispatched;
        bool ready = true; ///< an eager server: false until its ready line
        Clock::time_point started; ///< when an eager server was started
        int errFd = -1; ///< an eager server's stderr (an unlinked temporary file), for its last words
    };

    /// Warm slots (worker isolation and eager servers) stay for many jobs and are replaced when
    /// they die; the others are one process per job.
    bool warmSlots() const { return m_options.isolation == Isolation::Worker || m_options.isolation == Isolation::Eager; }

    std::vector<int> childCloseFds(int keep) const;

    void forkWarm(Slot &s);

    /// A warm worker: one request line in, one answer line out, packages kept per bucket. Ends
    /// when the parent closes the channel (the packages are unloaded first, removing LibTorch's
    /// extraction of them).
    [[noreturn]] void warmWorkerLoop(int fd);

    void dispatch(std::vector<Completion> &done);

    std::string forkForRequest(Slot &s);

    /// The baseline: `aotstudio-run BUNDLE --batch B --seed S --iters 0 --warmup 0 --json` (and
    /// the server's trust options), stdout to a pipe, posix_spawn with an argv (no shell).
    std::string spawnForRequest(Slot &s);

    /// An eager server: options.eagerServer posix_spawn()ed with a socket pair as stdin and stdout,
    /// stderr to an unlinked temporary file, OMP_NUM_THREADS set to its share of the CPUs. Not
    /// ready until its first line. Throws Refusal("failed") when it cannot be started.
    void spawnServer(Slot &s);

    /// "eager server 1234 exited with status 1 before answering (before it was ready): <its last
    /// line on stderr>", or "worker 1234 killed by SIGKILL".
    std::string whoDied(const Slot &s, int status) const;

    /// options.eagerServer as one line, for messages.
    std::string commandLine() const;

    void readSlot(std::size_t i, std::vector<Completion> &done);

    /// Requests past ServeOptions::requestTimeoutMs: answered with a `deadline` error, their
    /// workers killed (a warm slot is left empty for dispatch() to replace, a request worker's
    /// slot removed).
    void expireDeadlines(std::vector<Completion> &done);
    /// ms until the nearest request deadline (at least 0), or -1 when none runs.
    int msToNextDeadline() const;

    void workerGone(Slot &s);

    static nlohmann::json failure(const Job &job, const std::string &stage, const std::string &message, pid_t pid);

    /// The response line from a worker's answer (or an aotstudio-run --json result for spawn).
    nlohmann::json response(const Job &job, const nlohmann::json &answer, const Slot &s, Clock::time_point now) const;

    const VerifiedBundle &m_vb;
    ServeOptions m_options;
    pid_t m_parent;
    int m_threads = 1;
    Counters m_counters;
    int m_restarts = 0; ///< eager servers started again (kMaxEagerRestarts)
    std::string m_lastDeath; ///< how the last eager server that died ended
    std::vector<Slot> m_slots;
    std::deque<Job> m_queue;
};

} // namespace AotStudio::RunApp
