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

/// An eager server's first line: {"ready": true, ...} (any other line before it is skipped).
bool isReadyLine(const json &line)
{
    return line.is_object() && line.contains("ready") && line["ready"].is_boolean() && line["ready"].get<bool>();
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

/// posix_spawn attributes of a process the server starts (the spawn baseline, an eager server):
/// an empty signal mask and the default action for the signals the server blocks or ignores, as
/// becomeWorker() sets them after fork(), so `kill -TERM` ends an orphaned one.
class SpawnAttributes
{
public:
    SpawnAttributes()
    {
        ::posix_spawnattr_init(&m_attr);
        sigset_t none, defaults;
        sigemptyset(&none);
        sigemptyset(&defaults);
        for (int sig : {SIGPIPE, SIGTERM, SIGINT, SIGHUP})
            sigaddset(&defaults, sig);
        ::posix_spawnattr_setsigmask(&m_attr, &none);
        ::posix_spawnattr_setsigdefault(&m_attr, &defaults);
        ::posix_spawnattr_setflags(&m_attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    }
    ~SpawnAttributes() { ::posix_spawnattr_destroy(&m_attr); }
    SpawnAttributes(const SpawnAttributes &) = delete;
    SpawnAttributes &operator=(const SpawnAttributes &) = delete;
    const posix_spawnattr_t *get() const { return &m_attr; }

private:
    posix_spawnattr_t m_attr;
};

using RunnerCache = std::map<std::string, std::unique_ptr<Runtime::AotiRunner>>;

/// One request in a worker: the same plan, load, input checks and output summary as a one-shot
/// aotstudio-run. Returns {"ok", "bucket", "outputs", "setup_ms", "load_ms", "inputs_ms", "run_ms"}
/// or {"ok": false, "error": {"stage", "message"}}; `cache` keeps loaded packages (worker
/// isolation). `begin`: when the worker took the request (after fork() for request isolation), so
/// that `setup_ms` (begin to the load: a forked child's set-up and the bucket plan) is its own share.
json handleInWorker(const VerifiedBundle &vb, const WorkRequest &request, RunnerCache *cache, Clock::time_point begin,
                    bool convertLayout)
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
                slot = loadBucket(vb, plan.choice.bucket, 1, convertLayout);
                loadMs = msBetween(t0, Clock::now());
            }
            runner = slot.get();
        } else {
            const auto t0 = Clock::now();
            own = loadBucket(vb, plan.choice.bucket, 1, convertLayout);
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
        json answer{{"ok", true}, {"bucket", plan.choice.bucket.name}, {"outputs", outputs}, {"setup_ms", setupMs},
            {"load_ms", loadMs}, {"inputs_ms", inputsMs}, {"run_ms", runMs}};
        if (!runner->layoutConversions().empty())
            answer["layout_conversions"] = RunApp::conversionsJson(runner->layoutConversions());
        return answer;
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
    if (warmSlots()) {
        m_slots.resize(static_cast<std::size_t>(m_options.workers));
        for (auto &s : m_slots) {
            if (m_options.isolation == Isolation::Worker)
                forkWarm(s);
            else
                spawnServer(s);
        }
    }
}

double WorkerPool::liveWorkersCpuSeconds() const
{
    const double tick = static_cast<double>(::sysconf(_SC_CLK_TCK));
    double s = 0;
    for (const Slot &slot : m_slots) {
        if (slot.pid <= 0)
            continue;
        std::FILE *f = std::fopen(("/proc/" + std::to_string(slot.pid) + "/stat").c_str(), "r");
        if (!f)
            continue;
        char buf[1024];
        const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
        std::fclose(f);
        buf[n] = '\0';
        // proc(5): "pid (comm) state ppid ..."; comm may hold spaces and parentheses, so the fields
        // are counted from the last ')': utime and stime are fields 14 and 15.
        const char *p = std::strrchr(buf, ')');
        unsigned long long utime = 0, stime = 0;
        if (p && std::sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) == 2)
            s += static_cast<double>(utime + stime) / tick;
    }
    return s;
}

std::string WorkerPool::waitReady(int timeoutMs, const sigset_t *mask)
{
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    for (;;) {
        std::vector<pollfd> fds;
        std::vector<std::size_t> slotOf;
        for (std::size_t i = 0; i < m_slots.size(); ++i) {
            const Slot &s = m_slots[i];
            if (s.ready)
                continue;
            if (s.fd < 0)
                return "eager server " + std::to_string(s.pid) + " is gone";
            fds.push_back({s.fd, POLLIN, 0});
            slotOf.push_back(i);
        }
        if (fds.empty())
            return {};
        const double leftMs = msBetween(Clock::now(), deadline);
        if (leftMs <= 0)
            return "an eager server was not ready after " + std::to_string(timeoutMs / 1000) + " s: " + commandLine();
        const int waitMs = static_cast<int>(leftMs) + 1;
        timespec ts {waitMs / 1000, static_cast<long>(waitMs % 1000) * 1000000L};
        const int n = ::ppoll(fds.data(), fds.size(), &ts, mask);
        if (n < 0 && errno == EINTR)
            return "stopped by a signal while the eager servers started";
        for (std::size_t k = 0; n > 0 && k < fds.size(); ++k) {
            if (!fds[k].revents)
                continue;
            Slot &s = m_slots[slotOf[k]];
            char chunk[4096];
            const ssize_t got = ::read(s.fd, chunk, sizeof chunk);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0) {
                int status = 0;
                while (::waitpid(s.pid, &status, 0) < 0 && errno == EINTR) { }
                const std::string why = whoDied(s, status);
                ::close(s.fd);
                s.fd = -1;
                s.pid = -1;
                return why;
            }
            s.buf.append(chunk, static_cast<std::size_t>(got));
            for (auto nl = s.buf.find('\n'); !s.ready && nl != std::string::npos; nl = s.buf.find('\n')) {
                const json line = json::parse(s.buf.substr(0, nl), nullptr, false);
                s.buf.erase(0, nl + 1);
                s.ready = isReadyLine(line);
            }
        }
    }
}

std::vector<pid_t> WorkerPool::workerPids() const
{
    std::vector<pid_t> pids;
    for (const Slot &s : m_slots)
        if (s.pid > 0)
            pids.push_back(s.pid);
    return pids;
}

std::size_t WorkerPool::inFlight() const
{
    return static_cast<std::size_t>(std::count_if(m_slots.begin(), m_slots.end(), [](const Slot &s) { return s.job.has_value(); }));
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
    if (const int deadline = msToNextDeadline(); deadline >= 0)
        timeoutMs = timeoutMs < 0 ? deadline : std::min(timeoutMs, deadline);
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
    expireDeadlines(done);
    // Fresh workers replace dead warm ones; queued jobs go to whoever is free.
    dispatch(done);
    for (const Completion &c : done)
        ++(c.response.value("ok", false) ? m_counters.answered : m_counters.failed);
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
        if (s.errFd >= 0)
            ::close(s.errFd);
        s.errFd = -1;
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
    ++m_counters.forked;
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
        json answer = handleInWorker(m_vb, WorkRequest::fromJson(j), &cache, begin, m_options.convertLayout);
        answer["begin_ns"] = steadyNs(begin);
        if (!writeAll(fd, Bundle::dumpJson(answer) + "\n", true))
            break;
    }
    cache.clear();
    ::_exit(0);
}

void WorkerPool::dispatch(std::vector<Completion> &done)
{
    if (warmSlots()) {
        const bool eager = m_options.isolation == Isolation::Eager;
        for (auto &s : m_slots) {
            if (s.pid < 0) {
                if (eager && m_restarts >= kMaxEagerRestarts)
                    continue; // it stays dead; see below
                try {
                    if (eager) {
                        ++m_restarts;
                        spawnServer(s); // not ready until its ready line: the queue waits for it
                    } else {
                        forkWarm(s);
                    }
                    ++m_counters.replaced;
                } catch (const Refusal &e) {
                    if (eager)
                        m_lastDeath = e.what();
                    continue; // tried again on the next poll
                }
            }
            if (eager && !s.ready && msBetween(s.started, Clock::now()) > kEagerReadyTimeoutMs) {
                m_lastDeath = "eager server " + std::to_string(s.pid) + " was not ready after "
                    + std::to_string(kEagerReadyTimeoutMs / 1000) + " s";
                workerGone(s);
                continue;
            }
            if (!s.ready || s.job || m_queue.empty())
                continue;
            Job job = std::move(m_queue.front());
            m_queue.pop_front();
            s.dispatched = Clock::now();
            if (!writeAll(s.fd, Bundle::dumpJson(job.request.toJson()) + "\n", true)) {
                // It died before we knew: the job never reached it, so it waits for the
                // replacement (forked on the next round).
                m_queue.push_front(std::move(job));
                ++m_counters.died;
                workerGone(s);
                continue;
            }
            s.job = std::move(job);
        }
        // Eager servers that keep dying (a model that fails on its first forward and takes the
        // process with it): with none alive and no restart left, the queue fails now, each
        // request with the last server's last words, instead of waiting for a server forever.
        if (eager && m_restarts >= kMaxEagerRestarts
            && std::none_of(m_slots.begin(), m_slots.end(), [](const Slot &s) { return s.pid > 0; })) {
            while (!m_queue.empty()) {
                Job job = std::move(m_queue.front());
                m_queue.pop_front();
                const std::string why = "no eager server left: started again " + std::to_string(m_restarts)
                    + " times" + (m_lastDeath.empty() ? std::string() : "; the last: " + m_lastDeath);
                done.push_back({job, failure(job, "worker", why, -1)});
            }
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
        json answer = handleInWorker(m_vb, s.job->request, nullptr, begin, m_options.convertLayout);
        answer["begin_ns"] = steadyNs(begin);
        writeAll(p[1], Bundle::dumpJson(answer) + "\n", false);
        ::_exit(0); // no destructors, no atexit: the parent's bundle folder is not ours to remove
    }
    ::close(p[1]);
    s.pid = pid;
    s.fd = p[0];
    ++m_counters.forked;
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
    const SpawnAttributes attributes;
    const int rc = ::posix_spawn(&pid, argv[0], &actions, attributes.get(), argv.data(), environ);
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
        if (warmSlots()) {
            // One answer line per job; a replacement eager server's ready line comes first.
            for (auto nl = s.buf.find('\n'); nl != std::string::npos; nl = s.buf.find('\n')) {
                const json answer = json::parse(s.buf.substr(0, nl), nullptr, false);
                s.buf.erase(0, nl + 1);
                if (!s.ready) {
                    s.ready = isReadyLine(answer);
                } else if (s.job) {
                    done.push_back({*s.job, response(*s.job, answer, s, Clock::now())});
                    s.job.reset();
                }
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
    if (warmSlots()) {
        const pid_t pid = s.pid;
        ++m_counters.died;
        const std::string why = whoDied(s, status);
        m_lastDeath = why;
        if (s.errFd >= 0)
            ::close(s.errFd);
        s.errFd = -1;
        s.pid = -1;
        if (s.job)
            done.push_back({*s.job, failure(*s.job, "worker", why, pid)});
        s.job.reset();
        s.buf.clear();
        return; // dispatch() starts a replacement
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

std::string WorkerPool::commandLine() const
{
    std::string line;
    for (const auto &a : m_options.eagerServer)
        line += (line.empty() ? "" : " ") + a;
    return line;
}

void WorkerPool::spawnServer(Slot &s)
{
    if (m_options.eagerServer.empty())
        throw Refusal("failed", "no eager server command (--eager-server)");
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        throw Refusal("failed", std::string("cannot make an eager server's channel: ") + std::strerror(errno));
    // Its stderr: an unlinked temporary file, read back for the last words of one that dies.
    FILE *err = std::tmpfile();
    const int errFd = err ? ::fcntl(::fileno(err), F_DUPFD_CLOEXEC, 0) : -1;
    if (err)
        std::fclose(err);
    std::vector<std::string> env;
    const std::string threads = "OMP_NUM_THREADS=" + std::to_string(m_threads);
    for (char **e = environ; *e; ++e)
        if (std::strncmp(*e, "OMP_NUM_THREADS=", 16) != 0)
            env.emplace_back(*e);
    env.push_back(threads);
    std::vector<char *> envp, argv;
    for (auto &e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    std::vector<std::string> args = m_options.eagerServer;
    for (auto &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, sv[1], 0);
    posix_spawn_file_actions_adddup2(&actions, sv[1], 1);
    if (errFd >= 0)
        posix_spawn_file_actions_adddup2(&actions, errFd, 2);
    else
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    const SpawnAttributes attributes;
    const int rc = ::posix_spawnp(&pid, argv[0], &actions, attributes.get(), argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(sv[1]);
    if (rc != 0) {
        ::close(sv[0]);
        if (errFd >= 0)
            ::close(errFd);
        throw Refusal("failed", "cannot start the eager server '" + commandLine() + "': " + std::strerror(rc));
    }
    s = Slot{};
    s.pid = pid;
    s.fd = sv[0];
    s.errFd = errFd;
    s.ready = false;
    s.started = Clock::now();
}

std::string WorkerPool::whoDied(const Slot &s, int status) const
{
    if (m_options.isolation != Isolation::Eager)
        return "worker " + std::to_string(s.pid) + " " + describeStatus(status);
    std::string what = describeStatus(status);
    if (!s.ready)
        what = WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status)) + " before it was ready"
                                 : what + " before it was ready";
    std::string why = "eager server " + std::to_string(s.pid) + " " + what;
    // Its last non-empty line on stderr (at most the last 4 KiB are read).
    if (s.errFd >= 0) {
        const off_t size = std::max<off_t>(0, ::lseek(s.errFd, 0, SEEK_END));
        const off_t from = std::max<off_t>(0, size - 4096);
        std::string tail(static_cast<std::size_t>(size - from), '\0');
        const ssize_t n = ::pread(s.errFd, tail.data(), tail.size(), from);
        tail.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
        while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' '))
            tail.pop_back();
        const auto nl = tail.rfind('\n');
        const std::string last = nl == std::string::npos ? tail : tail.substr(nl + 1);
        if (!last.empty())
            why += ": " + Bundle::validUtf8(last);
    }
    return why;
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
    // A worker's lines are ours, but an eager server may be any program (SERVING.md): a field of
    // the wrong type fails that request, never the server.
    try {
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
        json r{{"id", job.id}, {"ok", true}, {"bucket", body.value("bucket", "")},
            {"outputs", body.value("outputs", json::array())},
            {"timing",
                {{"queue_ms", queueMs}, {"worker_start_ms", startMs}, {"setup_ms", setupMs}, {"load_ms", loadMs},
                    {"inputs_ms", inputsMs}, {"run_ms", runMs}, {"total_ms", totalMs}}},
            {"worker_pid", s.pid}};
        if (body.contains("layout_conversions")) // an input copied into the package's layout (--convert-layout)
            r["layout_conversions"] = body["layout_conversions"];
        return r;
    } catch (const json::exception &e) {
        return failure(job, "worker",
            (m_options.isolation == Isolation::Eager ? "eager server " : "worker ") + std::to_string(s.pid)
                + " answered a line of the wrong shape: " + e.what(),
            s.pid);
    }
}

} // namespace AotStudio::RunApp
