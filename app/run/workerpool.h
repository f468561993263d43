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
    WorkerPool(const VerifiedBundle &vb, const ServeOptions &options);
    ~WorkerPool() { stop(); }
    WorkerPool(const WorkerPool &) = delete;
    WorkerPool &operator=(const WorkerPool &) = delete;

    /// Descriptors of the server (its socket, its clients) that children must not keep.
    std::vector<int> *serverFds = nullptr;

    void start();

    void submit(Job job) { m_queue.push_back(std::move(job)); }
    bool idle() const;

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
    };

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

    void readSlot(std::size_t i, std::vector<Completion> &done);

    void workerGone(Slot &s);

    static nlohmann::json failure(const Job &job, const std::string &stage, const std::string &message, pid_t pid);

    /// The response line from a worker's answer (or an aotstudio-run --json result for spawn).
    nlohmann::json response(const Job &job, const nlohmann::json &answer, const Slot &s, Clock::time_point now) const;

    const VerifiedBundle &m_vb;
    ServeOptions m_options;
    pid_t m_parent;
    int m_threads = 1;
    std::vector<Slot> m_slots;
    std::deque<Job> m_queue;
};

} // namespace AotStudio::RunApp
