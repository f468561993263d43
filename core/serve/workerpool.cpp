// SPDX-License-Identifier: GPL-3.0-or-later
// The scheduler (workerpool.h): the queue, dispatch to free workers, reading their answers, and
// the response lines. Starting workers is workerstart.cpp; the request deadline workerdeadline.cpp.
#include "serve/workerpool.h"

#include "bundle/text.h"
#include "profiler/machine.h"
#include "serve/serveerror.h"

#include <algorithm>
#include <cerrno>
#include <csignal>

#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace AotStudio::Serve {

using nlohmann::json;

double msBetween(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double, std::milli>(b - a).count();
}

json WorkRequest::toJson() const
{
    return {{"batch", batch ? json(*batch) : json()}, {"seed", seed}, {"input", input}};
}

WorkRequest WorkRequest::fromJson(const json &j)
{
    WorkRequest r;
    if (!j.is_object())
        return r;
    if (j.contains("batch") && j["batch"].is_number_integer())
        r.batch = j["batch"].get<long long>();
    if (j.contains("seed") && j["seed"].is_number_unsigned())
        r.seed = j["seed"].get<std::uint64_t>();
    if (j.contains("input") && j["input"].is_string())
        r.input = j["input"].get<std::string>();
    return r;
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

std::string WorkerPool::describeStatus(int status)
{
    if (WIFSIGNALED(status))
        return "killed by " + Process::signalName(WTERMSIG(status));
    if (WIFEXITED(status))
        return "exited with status " + std::to_string(WEXITSTATUS(status)) + " before answering";
    return "stopped";
}

bool WorkerPool::isReadyLine(const json &line)
{
    return line.is_object() && line.contains("ready") && line["ready"].is_boolean() && line["ready"].get<bool>();
}

WorkerPool::WorkerPool(WorkerBody &body, const ServeOptions &options)
    : m_body(body)
    , m_options(options)
{
    const int usable = Profiler::usableCpus().usable;
    m_threads = std::max(1, usable / std::max(1, options.workers));
}

void WorkerPool::start()
{
    m_body.prepare();
    if (!warmSlots())
        return;
    m_slots.resize(static_cast<std::size_t>(m_options.workers));
    for (auto &s : m_slots) {
        if (m_options.isolation == Isolation::Worker)
            forkWarm(s);
        else
            spawnServer(s);
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
    return static_cast<std::size_t>(
        std::count_if(m_slots.begin(), m_slots.end(), [](const Slot &s) { return s.job.has_value(); }));
}

bool WorkerPool::idle() const
{
    return m_queue.empty() && inFlight() == 0;
}

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
    if (!done.empty()) // answers already (a worker that could not start): do not wait
        timeoutMs = 0;
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
            Process::waitFor(s.pid);
        }
        s.pid = -1;
    }
    m_slots.clear();
}

void WorkerPool::dispatch(std::vector<Completion> &done)
{
    if (warmSlots())
        dispatchWarm(done);
    else
        dispatchPerRequest(done);
}

void WorkerPool::dispatchWarm(std::vector<Completion> &done)
{
    const bool eager = m_options.isolation == Isolation::Eager;
    for (auto &s : m_slots) {
        if (s.pid < 0) {
            if (eager && m_restarts >= kMaxEagerRestarts)
                continue; // it stays dead; see failQueueWithoutServers()
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
    if (eager)
        failQueueWithoutServers(done);
}

void WorkerPool::failQueueWithoutServers(std::vector<Completion> &done)
{
    // Eager servers that keep dying (a model that fails on its first forward and takes the
    // process with it): with none alive and no restart left, the queue fails now, each
    // request with the last server's last words, instead of waiting for a server forever.
    if (m_restarts < kMaxEagerRestarts
        || std::any_of(m_slots.begin(), m_slots.end(), [](const Slot &s) { return s.pid > 0; }))
        return;
    while (!m_queue.empty()) {
        Job job = std::move(m_queue.front());
        m_queue.pop_front();
        const std::string why = "no eager server left: started again " + std::to_string(m_restarts) + " times"
            + (m_lastDeath.empty() ? std::string() : "; the last: " + m_lastDeath);
        done.push_back({job, failure(job, "worker", why, -1)});
    }
}

void WorkerPool::dispatchPerRequest(std::vector<Completion> &done)
{
    // One process per job, at most `workers` running a job at once (one that has answered and is
    // exiting does not count: its slot stays until it is reaped).
    while (!m_queue.empty() && static_cast<int>(inFlight()) < m_options.workers) {
        Job job = std::move(m_queue.front());
        m_queue.pop_front();
        Slot s;
        s.dispatched = Clock::now();
        s.job = std::move(job);
        const std::string error = m_options.isolation == Isolation::Request ? forkForRequest(s) : spawnForRequest(s);
        if (!error.empty()) {
            done.push_back({*s.job, failure(*s.job, "failed", error, -1)});
            continue;
        }
        m_slots.push_back(std::move(s));
    }
}

void WorkerPool::readSlot(std::size_t i, std::vector<Completion> &done)
{
    Slot &s = m_slots[i];
    char chunk[65536];
    const ssize_t n = ::read(s.fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
        return;
    if (n <= 0) {
        slotEnded(i, done);
        return;
    }
    s.buf.append(chunk, static_cast<std::size_t>(n));
    if (warmSlots()) {
        takeWarmAnswers(s, done);
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
}

void WorkerPool::takeWarmAnswers(Slot &s, std::vector<Completion> &done)
{
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
}

void WorkerPool::slotEnded(std::size_t i, std::vector<Completion> &done)
{
    Slot &s = m_slots[i];
    const auto now = Clock::now();
    const int status = Process::waitFor(s.pid);
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
            done.push_back(
                {*s.job,
                 failure(*s.job, "worker", "worker " + std::to_string(s.pid) + " " + describeStatus(status), s.pid)});
    }
    m_slots.erase(m_slots.begin() + static_cast<std::ptrdiff_t>(i));
}

json WorkerPool::failure(const Job &job, const std::string &stage, const std::string &message, pid_t pid)
{
    json r{{"id", job.id}, {"ok", false}, {"error", errorJson(stage, message)}};
    if (pid > 0)
        r["worker_pid"] = pid;
    return r;
}

json WorkerPool::response(const Job &job, const json &answer, const Slot &s, Clock::time_point now) const
{
    if (!answer.is_object())
        return failure(job, "worker", "worker " + std::to_string(s.pid) + " answered something that is not JSON",
                       s.pid);
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
        const bool spawned = m_options.isolation == Isolation::Spawn;
        const json &body = spawned && answer.contains("result") ? answer["result"] : answer;
        if (spawned) {
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
        json r{{"id", job.id},
               {"ok", true},
               {"bucket", body.value("bucket", "")},
               {"outputs", body.value("outputs", json::array())},
               {"timing",
                {{"queue_ms", queueMs},
                 {"worker_start_ms", startMs},
                 {"setup_ms", setupMs},
                 {"load_ms", loadMs},
                 {"inputs_ms", inputsMs},
                 {"run_ms", runMs},
                 {"total_ms", totalMs}}},
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

} // namespace AotStudio::Serve
