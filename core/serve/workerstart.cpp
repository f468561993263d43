// SPDX-License-Identifier: GPL-3.0-or-later
// Starting the pool's workers (workerpool.h), all through the one child-process mechanism
// (process/childprocess.h): warm and request workers forked from the prepared parent, the spawn
// baseline and the eager servers spawned; the eager servers' ready lines and last words; the
// workers' CPU time.
#include "serve/workerpool.h"

#include "bundle/text.h"
#include "serve/serveerror.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace AotStudio::Serve {

using nlohmann::json;

namespace {

std::int64_t steadyNs(Clock::time_point t)
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

} // namespace

Process::ChildSpec WorkerPool::workerSpec(int ownEnd) const
{
    Process::ChildSpec spec;
    for (const auto &s : m_slots)
        if (s.fd >= 0)
            spec.closeFds.push_back(s.fd);
    if (serverFds)
        spec.closeFds.insert(spec.closeFds.end(), serverFds->begin(), serverFds->end());
    spec.closeFds.push_back(ownEnd);
    spec.in = Process::Stream::null();
    spec.out = Process::Stream::toStderr();
    spec.signalState = Process::Signals::Default;
    spec.dieWithParent = true;
    return spec;
}

void WorkerPool::forkWarm(Slot &s)
{
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        throw Refusal("failed", std::string("cannot make a worker channel: ") + std::strerror(errno));
    const Process::Child child = Process::forkChild(workerSpec(sv[0]), [&] { return warmWorkerLoop(sv[1]); });
    ::close(sv[1]);
    if (!child.started()) {
        ::close(sv[0]);
        throw Refusal("failed", "cannot fork a worker: " + std::string(std::strerror(child.errorNumber)));
    }
    s = Slot{};
    s.pid = child.pid;
    s.fd = sv[0];
    ++m_counters.forked;
}

int WorkerPool::warmWorkerLoop(int fd)
{
    m_body.enterWorker(m_threads);
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
        json answer = m_body.handle(WorkRequest::fromJson(j), begin, true);
        answer["begin_ns"] = steadyNs(begin);
        if (!writeAll(fd, Bundle::dumpJson(answer) + "\n", true))
            break;
    }
    m_body.leaveWorker();
    return 0;
}

std::string WorkerPool::forkForRequest(Slot &s)
{
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0)
        return std::string("cannot make a pipe: ") + std::strerror(errno);
    const WorkRequest request = s.job->request;
    const Process::Child child = Process::forkChild(workerSpec(p[0]), [&] {
        const auto begin = Clock::now(); // the worker's own share (setup_ms) starts here
        m_body.enterWorker(m_threads);
        json answer = m_body.handle(request, begin, false);
        answer["begin_ns"] = steadyNs(begin);
        writeAll(p[1], Bundle::dumpJson(answer) + "\n", false);
        return 0;
    });
    ::close(p[1]);
    if (!child.started()) {
        ::close(p[0]);
        return "cannot fork a worker: " + std::string(std::strerror(child.errorNumber));
    }
    s.pid = child.pid;
    s.fd = p[0];
    ++m_counters.forked;
    return {};
}

std::string WorkerPool::spawnForRequest(Slot &s)
{
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0)
        return std::string("cannot make a pipe: ") + std::strerror(errno);
    Process::ChildSpec spec;
    spec.argv = m_body.spawnCommand(s.job->request);
    spec.in = Process::Stream::null();
    spec.out = Process::Stream::descriptor(p[1]);
    spec.err = Process::Stream::null();
    spec.signalState = Process::Signals::Default;
    const Process::Child child = Process::spawn(spec);
    ::close(p[1]);
    if (!child.started()) {
        ::close(p[0]);
        return "cannot start " + child.error;
    }
    s.pid = child.pid;
    s.fd = p[0];
    ++m_counters.forked;
    return {};
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
    Process::ChildSpec spec;
    spec.argv = m_options.eagerServer;
    spec.extraEnv = {"OMP_NUM_THREADS=" + std::to_string(m_threads)};
    spec.in = Process::Stream::descriptor(sv[1]);
    spec.out = Process::Stream::descriptor(sv[1]);
    spec.err = errFd >= 0 ? Process::Stream::descriptor(errFd) : Process::Stream::null();
    spec.signalState = Process::Signals::Default;
    const Process::Child child = Process::spawn(spec);
    ::close(sv[1]);
    if (!child.started()) {
        ::close(sv[0]);
        if (errFd >= 0)
            ::close(errFd);
        throw Refusal("failed",
                      "cannot start the eager server '" + commandLine()
                          + "': " + (child.errorNumber ? std::string(std::strerror(child.errorNumber)) : child.error));
    }
    s = Slot{};
    s.pid = child.pid;
    s.fd = sv[0];
    s.errFd = errFd;
    s.ready = false;
    s.started = Clock::now();
    ++m_counters.forked;
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
        timespec ts{waitMs / 1000, static_cast<long>(waitMs % 1000) * 1000000L};
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
                const std::string why = whoDied(s, Process::waitFor(s.pid));
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

std::string WorkerPool::whoDied(const Slot &s, int status) const
{
    const std::string how = describeStatus(status);
    if (m_options.isolation != Isolation::Eager)
        return "worker " + std::to_string(s.pid) + " " + how;
    std::string what = how;
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

std::string WorkerPool::commandLine() const
{
    std::string line;
    for (const auto &a : m_options.eagerServer)
        line += (line.empty() ? "" : " ") + a;
    return line;
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

} // namespace AotStudio::Serve
