// SPDX-License-Identifier: GPL-3.0-or-later
#include "workerpool.h"

#include "bundle/packagecache.h"
#include "bundle/text.h"
#include "profiler/machine.h"
#include "runtime/libraries.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>

#include <fcntl.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace AotStudio::RunApp {

using nlohmann::json;
namespace fs = std::filesystem;

double msBetween(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double, std::milli>(b - a).count();
}

bool writeAll(int fd, const std::string &data, bool socket)
{
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = socket ? ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL)
                                 : ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

/// In a child right after fork(): die with the parent, default signals, no inherited descriptors
/// of the server, stdin from /dev/null and stdout onto stderr (prints from a package must not
/// reach the response stream), and the worker's share of the CPUs as LibTorch's thread count.
void becomeWorker(pid_t parent, const std::vector<int> &closeFds, int threads)
{
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) // the parent died between fork() and prctl()
        ::_exit(1);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int sig : {SIGPIPE, SIGTERM, SIGINT, SIGHUP})
        std::signal(sig, SIG_DFL);
    for (int fd : closeFds)
        ::close(fd);
    const int devNull = ::open("/dev/null", O_RDONLY);
    if (devNull >= 0) {
        ::dup2(devNull, 0);
        ::close(devNull);
    }
    ::dup2(2, 1);
    Runtime::setIntraOpThreads(threads);
}

namespace {

std::int64_t steadyNs(Clock::time_point t)
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

/// "SIGKILL" for 9 (sigabbrev_np is glibc's; its names lack the prefix).
std::string signalName(int sig)
{
    const char *abbrev = ::sigabbrev_np(sig);
    return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

/// "killed by SIGKILL", "exited with status 3".
std::string describeStatus(int status)
{
    if (WIFSIGNALED(status))
        return "killed by " + signalName(WTERMSIG(status));
    if (WIFEXITED(status))
        return "exited with status " + std::to_string(WEXITSTATUS(status)) + " before answering";
    return "stopped";
}

using RunnerCache = std::map<std::string, std::unique_ptr<Runtime::AotiRunner>>;

/// One request in a worker: the same plan, load, input checks and output summary as a one-shot
/// aotstudio-run. Returns {"ok", "bucket", "outputs", "setup_ms", "load_ms", "inputs_ms", "run_ms"}
/// or {"ok": false, "error": {"stage", "message"}}; `cache` keeps loaded packages (worker
/// isolation). `begin`: when the worker took the request (after fork() for request isolation), so
/// that `setup_ms` (begin to the load: a forked child's set-up and the bucket plan) is its own share.
json handleInWorker(const VerifiedBundle &vb, const WorkRequest &request, RunnerCache *cache, Clock::time_point begin)
{
    try {
        const RequestPlan plan = planRequest(vb, request.batch, request.input);
        const double setupMs = msBetween(begin, Clock::now());
        double loadMs = 0;
        std::unique_ptr<Runtime::AotiRunner> own;
        Runtime::AotiRunner *runner = nullptr;
        if (cache) {
            auto &slot = (*cache)[plan.choice.bucket.name];
            if (!slot) {
                const auto t0 = Clock::now();
                slot = loadBucket(vb, plan.choice.bucket);
                loadMs = msBetween(t0, Clock::now());
            }
            runner = slot.get();
        } else {
            const auto t0 = Clock::now();
            own = loadBucket(vb, plan.choice.bucket);
            loadMs = msBetween(t0, Clock::now());
            runner = own.get();
        }
        double runMs = 0, inputsMs = 0;
        json outputs;
        try {
            const auto t0 = Clock::now();
            setRequestInputs(*runner, vb, plan, request.seed); // generated (seeded) or read from the file
            const auto t1 = Clock::now();
            runner->run();
            inputsMs = msBetween(t0, t1);
            runMs = msBetween(t1, Clock::now());
            outputs = outputsJson(vb.bundle.manifest, runner->outputSummary(plan.batch));
        } catch (const Runtime::InputRefused &e) {
            throw Refusal("refused", e.what());
        } catch (const Runtime::RuntimeError &e) {
            throw Refusal("failed", e.what());
        }
        return {{"ok", true}, {"bucket", plan.choice.bucket.name}, {"outputs", outputs}, {"setup_ms", setupMs},
            {"load_ms", loadMs}, {"inputs_ms", inputsMs}, {"run_ms", runMs}};
    } catch (const Refusal &e) {
        return {{"ok", false}, {"error", errorJson(e.stage(), e.what(), "", e.code())}};
    } catch (const std::exception &e) { // a c10::Error outside the runner's own wrapping
        return {{"ok", false}, {"error", errorJson("failed", e.what())}};
    }
}

} // namespace

WorkerPool::WorkerPool(const VerifiedBundle &vb, const ServeOptions &options)
    : m_vb(vb)
    , m_options(options)
    , m_parent(::getpid())
{
    const int usable = Profiler::usableCpus().usable;
    m_threads = std::max(1, usable / std::max(1, options.workers));
}

void WorkerPool::start()
{
    // Ready what every worker would otherwise do again: each bucket's package extracted into the
    // package cache (file I/O only: no code of the bundle runs in the parent), and for a CPU bundle
    // the stand-in for libtorch.so mapped once (core/runtime/libraries.h). A failure here is left
    // for the worker that loads the bucket to report.
    for (const auto &b : m_vb.bundle.manifest.buckets) {
        try {
            const auto entry = m_vb.bundle.manifest.files.find(b.package);
            Bundle::cachedPackageDir(m_vb.bundle.root / b.package, entry != m_vb.bundle.manifest.files.end() ? entry->second.sha256 : std::string());
        } catch (const Bundle::BundleError &) {
        }
    }
    if (m_vb.bundle.manifest.device == "cpu") {
        try {
            Runtime::Libraries::prepareFor("cpu");
        } catch (const Runtime::RuntimeError &) {
        }
    }
    if (m_options.isolation == Isolation::Worker) {
        m_slots.resize(static_cast<std::size_t>(m_options.workers));
        for (auto &s : m_slots)
            forkWarm(s);
    }
}

bool WorkerPool::idle() const
{
    return m_queue.empty()
        && std::none_of(m_slots.begin(), m_slots.end(), [](const Slot &s) { return s.job.has_value(); });
}

/// Start what can start, wait up to `timeoutMs` for a worker's answer or for one of `extra`
/// (their revents are set for the caller), and return the finished jobs. `mask`: the signal
/// mask during the wait (ppoll), so a stop signal ends it.
std::vector<Completion> WorkerPool::poll(std::vector<pollfd> &extra, int timeoutMs, const sigset_t *mask)
{
    std::vector<Completion> done;
    dispatch(done);
    std::vector<pollfd> fds;
    std::vector<std::size_t> slotOf;
    for (std::size_t i = 0; i < m_slots.size(); ++i)
        if (m_slots[i].fd >= 0) {
            fds.push_back({m_slots[i].fd, POLLIN, 0});
            slotOf.push_back(i);
        }
    const std::size_t workerFds = fds.size();
    fds.insert(fds.end(), extra.begin(), extra.end());
    timespec ts{timeoutMs / 1000, static_cast<long>(timeoutMs % 1000) * 1000000L};
    const int n = ::ppoll(fds.data(), fds.size(), timeoutMs < 0 ? nullptr : &ts, mask);
    if (n > 0) {
        // Highest slot first: readSlot() erases a finished request worker's slot, which would shift
        // the indices of the slots after it (two workers finishing in one wait lost an answer).
        for (std::size_t k = workerFds; k-- > 0;)
            if (fds[k].revents)
                readSlot(slotOf[k], done);
        for (std::size_t k = 0; k < extra.size(); ++k)
            extra[k].revents = fds[workerFds + k].revents;
    } else {
        for (auto &e : extra)
            e.revents = 0;
    }
    // Fresh workers replace dead warm ones; queued jobs go to whoever is free.
    dispatch(done);
    return done;
}

/// End every worker: warm ones see their channel close and exit; running request or spawn
/// workers are killed. Reaps them all.
void WorkerPool::stop()
{
    for (auto &s : m_slots) {
        if (s.fd >= 0)
            ::close(s.fd);
        s.fd = -1;
        if (s.pid > 0) {
            if (m_options.isolation != Isolation::Worker || s.job)
                ::kill(s.pid, SIGKILL);
            int status = 0;
            while (::waitpid(s.pid, &status, 0) < 0 && errno == EINTR) { }
        }
        s.pid = -1;
    }
    m_slots.clear();
}

std::vector<int> WorkerPool::childCloseFds(int keep) const
{
    std::vector<int> fds;
    for (const auto &s : m_slots)
        if (s.fd >= 0 && s.fd != keep)
            fds.push_back(s.fd);
    if (serverFds)
        fds.insert(fds.end(), serverFds->begin(), serverFds->end());
    return fds;
}

void WorkerPool::forkWarm(Slot &s)
{
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        throw Refusal("failed", std::string("cannot make a worker channel: ") + std::strerror(errno));
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(sv[0]);
        ::close(sv[1]);
        throw Refusal("failed", std::string("cannot fork a worker: ") + std::strerror(errno));
    }
    if (pid == 0) {
        auto close = childCloseFds(-1);
        close.push_back(sv[0]);
        becomeWorker(m_parent, close, m_threads);
        warmWorkerLoop(sv[1]);
        ::_exit(0);
    }
    ::close(sv[1]);
    s = Slot{};
    s.pid = pid;
    s.fd = sv[0];
}

/// A warm worker: one request line in, one answer line out, packages kept per bucket. Ends
/// when the parent closes the channel (the packages are unloaded first, removing LibTorch's
/// extraction of them).
void WorkerPool::warmWorkerLoop(int fd)
{
    RunnerCache cache;
    std::string buf;
    char chunk[4096];
    for (;;) {
        const auto nl = buf.find('\n');
        if (nl == std::string::npos) {
            const ssize_t n = ::read(fd, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            buf.append(chunk, static_cast<std::size_t>(n));
            continue;
        }
        const auto begin = Clock::now();
        const json j = json::parse(buf.substr(0, nl), nullptr, false);
        buf.erase(0, nl + 1);
        json answer = handleInWorker(m_vb, WorkRequest::fromJson(j), &cache, begin);
        answer["begin_ns"] = steadyNs(begin);
        if (!writeAll(fd, Bundle::dumpJson(answer) + "\n", true))
            break;
    }
    cache.clear();
    ::_exit(0);
}

void WorkerPool::dispatch(std::vector<Completion> &done)
{
    if (m_options.isolation == Isolation::Worker) {
        for (auto &s : m_slots) {
            if (s.pid < 0) {
                try {
                    forkWarm(s);
                } catch (const Refusal &) {
                    continue; // tried again on the next poll
                }
            }
            if (s.job || m_queue.empty())
                continue;
            Job job = std::move(m_queue.front());
            m_queue.pop_front();
            s.dispatched = Clock::now();
            if (!writeAll(s.fd, Bundle::dumpJson(job.request.toJson()) + "\n", true)) {
                // It died before we knew: the job never reached it, so it waits for the
                // replacement (forked on the next round).
                m_queue.push_front(std::move(job));
                workerGone(s);
                continue;
            }
            s.job = std::move(job);
        }
        return;
    }
    // One process per job, at most `workers` running a job at once (one that has answered and is
    // exiting does not count: its slot stays until it is reaped).
    const auto running = [this] {
        return static_cast<int>(std::count_if(m_slots.begin(), m_slots.end(), [](const Slot &s) { return s.job.has_value(); }));
    };
    while (!m_queue.empty() && running() < m_options.workers) {
        Job job = std::move(m_queue.front());
        m_queue.pop_front();
        Slot s;
        s.dispatched = Clock::now();
        s.job = std::move(job);
        std::string error = m_options.isolation == Isolation::Request ? forkForRequest(s) : spawnForRequest(s);
        if (!error.empty()) {
            done.push_back({*s.job, failure(*s.job, "failed", error, -1)});
            continue;
        }
        m_slots.push_back(std::move(s));
    }
}

std::string WorkerPool::forkForRequest(Slot &s)
{
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0)
        return std::string("cannot make a pipe: ") + std::strerror(errno);
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(p[0]);
        ::close(p[1]);
        return std::string("cannot fork a worker: ") + std::strerror(errno);
    }
    if (pid == 0) {
        const auto begin = Clock::now();
        auto close = childCloseFds(-1);
        close.push_back(p[0]);
        becomeWorker(m_parent, close, m_threads);
        json answer = handleInWorker(m_vb, s.job->request, nullptr, begin);
        answer["begin_ns"] = steadyNs(begin);
        writeAll(p[1], Bundle::dumpJson(answer) + "\n", false);
        ::_exit(0); // no destructors, no atexit: the parent's bundle folder is not ours to remove
    }
    ::close(p[1]);
    s.pid = pid;
    s.fd = p[0];
    return {};
}

/// The baseline: `aotstudio-run BUNDLE --batch B --seed S --iters 0 --warmup 0 --json` (and
/// the server's trust options), stdout to a pipe, posix_spawn with an argv (no shell).
std::string WorkerPool::spawnForRequest(Slot &s)
{
    std::vector<std::string> args {"/proc/self/exe", m_vb.bundle.source.string()};
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
        args[0] = self.string();
    const auto &r = s.job->request;
    if (r.batch)
        args.insert(args.end(), {"--batch", std::to_string(*r.batch)});
    if (!r.input.empty())
        args.insert(args.end(), {"--input", r.input});
    args.insert(args.end(), {"--seed", std::to_string(r.seed), "--iters", "0", "--warmup", "0", "--json"});
    for (const auto &t : m_options.trustArgs)
        args.insert(args.end(), {"--trust", t});
    if (m_options.allowUnsigned)
        args.push_back("--allow-unsigned");
    std::vector<char *> argv;
    for (auto &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0)
        return std::string("cannot make a pipe: ") + std::strerror(errno);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, p[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(p[1]);
    if (rc != 0) {
        ::close(p[0]);
        return "cannot start " + args[0] + ": " + std::strerror(rc);
    }
    s.pid = pid;
    s.fd = p[0];
    return {};
}

void WorkerPool::readSlot(std::size_t i, std::vector<Completion> &done)
{
    Slot &s = m_slots[i];
    char chunk[65536];
    const ssize_t n = ::read(s.fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
        return;
    if (n > 0) {
        s.buf.append(chunk, static_cast<std::size_t>(n));
        if (m_options.isolation == Isolation::Worker) {
            const auto nl = s.buf.find('\n');
            if (nl != std::string::npos && s.job) {
                const json answer = json::parse(s.buf.substr(0, nl), nullptr, false);
                s.buf.erase(0, nl + 1);
                done.push_back({*s.job, response(*s.job, answer, s, Clock::now())});
                s.job.reset();
            }
            return;
        }
        // A request worker or a spawned aotstudio-run answers with one JSON line and then exits:
        // the answer is taken when its line arrives, not when the process has torn down its
        // address space (a few ms to tens of ms for one that mapped LibTorch), which is not the
        // client's wait. Other lines (a package printing to stdout in a spawned run) are skipped.
        for (auto nl = s.buf.find('\n'); s.job && nl != std::string::npos; nl = s.buf.find('\n')) {
            const json answer = json::parse(s.buf.substr(0, nl), nullptr, false);
            s.buf.erase(0, nl + 1);
            if (answer.is_object() && (m_options.isolation == Isolation::Request || answer.contains("ok"))) {
                done.push_back({*s.job, response(*s.job, answer, s, Clock::now())});
                s.job.reset();
            }
        }
        return;
    }
    // End of the channel: a request or spawn worker finished (or died); a warm one died.
    const auto now = Clock::now();
    int status = 0;
    while (::waitpid(s.pid, &status, 0) < 0 && errno == EINTR) { }
    ::close(s.fd);
    s.fd = -1;
    if (m_options.isolation == Isolation::Worker) {
        const pid_t pid = s.pid;
        s.pid = -1;
        if (s.job)
            done.push_back({*s.job,
                failure(*s.job, "worker", "worker " + std::to_string(pid) + " " + describeStatus(status), pid)});
        s.job.reset();
        s.buf.clear();
        return; // dispatch() forks a replacement
    }
    if (s.job) { // it ended without an answer line (a last line without its newline counts)
        const json answer = json::parse(s.buf, nullptr, false);
        if (answer.is_object() && (m_options.isolation == Isolation::Request || answer.contains("ok")))
            done.push_back({*s.job, response(*s.job, answer, s, now)});
        else
            done.push_back({*s.job,
                failure(*s.job, "worker", "worker " + std::to_string(s.pid) + " " + describeStatus(status), s.pid)});
    }
    m_slots.erase(m_slots.begin() + static_cast<std::ptrdiff_t>(i));
}

void WorkerPool::workerGone(Slot &s)
{
    ::kill(s.pid, SIGKILL);
    while (::waitpid(s.pid, nullptr, 0) < 0 && errno == EINTR) { }
    ::close(s.fd);
    s = Slot{};
}

json WorkerPool::failure(const Job &job, const std::string &stage, const std::string &message, pid_t pid)
{
    json r {{"id", job.id}, {"ok", false}, {"error", errorJson(stage, message)}};
    if (pid > 0)
        r["worker_pid"] = pid;
    return r;
}

/// The response line from a worker's answer (or an aotstudio-run --json result for spawn).
json WorkerPool::response(const Job &job, const json &answer, const Slot &s, Clock::time_point now) const
{
    if (!answer.is_object())
        return failure(
            job, "worker", "worker " + std::to_string(s.pid) + " answered something that is not JSON", s.pid);
    const double queueMs = msBetween(job.arrival, s.dispatched);
    const double totalMs = msBetween(job.arrival, now);
    if (!answer.value("ok", false)) {
        json r = failure(job, "failed", "", s.pid);
        if (answer.contains("error") && answer["error"].is_object())
            r["error"] = answer["error"]; // a worker's answer, or aotstudio-run's envelope (spawn)
        return r;
    }
    double startMs = 0, setupMs = 0, loadMs = 0, inputsMs = 0, runMs = 0;
    // aotstudio-run --json (spawn) answers in the envelope: {"ok": true, "result": {...}}.
    const json &body = m_options.isolation == Isolation::Spawn && answer.contains("result") ? answer["result"] : answer;
    if (m_options.isolation == Isolation::Spawn) {
        const json cold = body.value("cold_start", json::object());
        loadMs = cold.value("load_ms", 0.0);
        runMs = cold.value("first_run_ms", 0.0);
        startMs = std::max(0.0, cold.value("to_loaded_ms", 0.0) - loadMs); // exec, linking, verify
    } else {
        const auto begin = Clock::time_point(std::chrono::nanoseconds(answer.value("begin_ns", std::int64_t{0})));
        startMs = std::max(0.0, msBetween(s.dispatched, begin));
        setupMs = answer.value("setup_ms", 0.0);
        loadMs = answer.value("load_ms", 0.0);
        inputsMs = answer.value("inputs_ms", 0.0);
        runMs = answer.value("run_ms", 0.0);
    }
    return {{"id", job.id}, {"ok", true}, {"bucket", body.value("bucket", "")},
        {"outputs", body.value("outputs", json::array())},
        {"timing",
            {{"queue_ms", queueMs}, {"worker_start_ms", startMs}, {"setup_ms", setupMs}, {"load_ms", loadMs},
                {"inputs_ms", inputsMs}, {"run_ms", runMs}, {"total_ms", totalMs}}},
        {"worker_pid", s.pid}};
}

} // namespace AotStudio::RunApp
