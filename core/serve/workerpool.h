// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The scheduler of aotstudio-run --serve and of the replay (app/run/SERVING.md): a queue of
// requests and a pool of worker processes fork()ed from the prepared parent (or, for the replay's
// baselines, spawned processes), driven by the caller's poll loop. Every child starts through the
// one child-process mechanism (process/childprocess.h). What a worker does with a request is its
// WorkerBody (workerbody.h); the fork rules are SERVING.md's. Torch-free.
#include "process/childprocess.h"
#include "serve/serveoptions.h"
#include "serve/workerbody.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include <poll.h>
#include <signal.h>
#include <sys/types.h>

namespace AotStudio::Serve {

/// Write all of `data` to `fd` (send() with MSG_NOSIGNAL when `socket`); false when the other end
/// is gone.
bool writeAll(int fd, const std::string &data, bool socket);

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
/// poll() from the caller's loop. No threads. Jobs are handed out in arrival order; answers come
/// back in completion order.
class WorkerPool
{
public:
    /// How long an eager server may take to write its ready line (importing torch, building a
    /// large model), ms.
    static constexpr int kEagerReadyTimeoutMs = 300000;
    /// Eager servers started again after dying mid-trace, in all; past this, with none alive, the
    /// queued requests fail with the last server's last words instead of waiting forever.
    static constexpr int kMaxEagerRestarts = 3;

    /// `body` must outlive the pool.
    WorkerPool(WorkerBody &body, const ServeOptions &options);
    ~WorkerPool() { stop(); }
    WorkerPool(const WorkerPool &) = delete;
    WorkerPool &operator=(const WorkerPool &) = delete;

    /// Descriptors of the server (its socket, its clients) that forked workers must not keep.
    std::vector<int> *serverFds = nullptr;

    /// Ready the body (WorkerBody::prepare) and start the warm workers (worker isolation) or the
    /// eager servers (eager). Throws Refusal("failed") when a worker cannot be forked or a server
    /// not started.
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

    /// Start what can start, wait up to `timeoutMs` (-1: until something happens) for a worker's
    /// answer, a request's deadline or one of `extra` (their revents are set for the caller), and
    /// return the finished jobs. `mask`: the signal mask during the wait (ppoll), so a stop signal
    /// ends it; null: the current one.
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
    bool warmSlots() const
    {
        return m_options.isolation == Isolation::Worker || m_options.isolation == Isolation::Eager;
    }

    /// The set-up of a forked worker (SERVING.md "The fork rules"): dies with the parent, default
    /// signals, the server's other descriptors and `ownEnd` closed, stdin from /dev/null and stdout
    /// onto stderr (prints from a package must not reach the answers).
    Process::ChildSpec workerSpec(int ownEnd) const;

    void forkWarm(Slot &s);

    /// A warm worker: one request line in, one answer line out, what the body loaded kept. Ends
    /// when the parent closes the channel (WorkerBody::leaveWorker first). Returns the exit status.
    int warmWorkerLoop(int fd);

    void dispatch(std::vector<Completion> &done);
    void dispatchWarm(std::vector<Completion> &done);
    /// Eager servers that keep dying: with none alive and no restart left, the queue fails.
    void failQueueWithoutServers(std::vector<Completion> &done);
    void dispatchPerRequest(std::vector<Completion> &done);

    std::string forkForRequest(Slot &s);

    /// The spawn baseline: WorkerBody::spawnCommand, stdout to a pipe, stderr to /dev/null.
    std::string spawnForRequest(Slot &s);

    /// An eager server: options.eagerServer spawned with a socket pair as stdin and stdout,
    /// stderr to an unlinked temporary file, OMP_NUM_THREADS set to its share of the CPUs. Not
    /// ready until its first line. Throws Refusal("failed") when it cannot be started.
    void spawnServer(Slot &s);

    /// "eager server 1234 exited with status 1 before answering (before it was ready): <its last
    /// line on stderr>", or "worker 1234 killed by SIGKILL".
    std::string whoDied(const Slot &s, int status) const;

    /// options.eagerServer as one line, for messages.
    std::string commandLine() const;

    void readSlot(std::size_t i, std::vector<Completion> &done);
    /// Answers in a warm slot's buffer (a replacement eager server's ready line first).
    void takeWarmAnswers(Slot &s, std::vector<Completion> &done);
    /// A slot's channel closed: a warm worker died, or a request or spawn worker ended.
    void slotEnded(std::size_t i, std::vector<Completion> &done);

    /// Requests past ServeOptions::requestTimeoutMs: answered with a `deadline` error, their
    /// workers killed (a warm slot is left empty for dispatch() to replace, a request worker's
    /// slot removed).
    void expireDeadlines(std::vector<Completion> &done);
    /// ms until the nearest request deadline (at least 0), or -1 when none runs.
    int msToNextDeadline() const;

    /// Kill and reap a slot's process, close its channel and leave it empty.
    void workerGone(Slot &s);

    /// "killed by SIGKILL", "exited with status 3 before answering".
    static std::string describeStatus(int status);
    /// An eager server's first line: {"ready": true, ...} (any other line before it is skipped).
    static bool isReadyLine(const nlohmann::json &line);

    static nlohmann::json failure(const Job &job, const std::string &stage, const std::string &message, pid_t pid);

    /// The response line from a worker's answer (or an aotstudio-run --json result for spawn).
    nlohmann::json response(const Job &job, const nlohmann::json &answer, const Slot &s, Clock::time_point now) const;

    WorkerBody &m_body;
    ServeOptions m_options;
    int m_threads = 1;
    Counters m_counters;
    int m_restarts = 0; ///< eager servers started again (kMaxEagerRestarts)
    std::string m_lastDeath; ///< how the last eager server that died ended
    std::vector<Slot> m_slots;
    std::deque<Job> m_queue;
};

} // namespace AotStudio::Serve
