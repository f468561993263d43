// SPDX-License-Identifier: GPL-3.0-or-later
// runProcess() (start, capture, wait) and spawnDetached(), both on spawn() (childprocess.cpp).
#include "process/childprocess.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace AotStudio::Process {

std::string ProcessResult::describe() const
{
    if (!error.empty())
        return "could not start: " + error;
    if (signal)
        return "killed by signal " + std::to_string(signal);
    return "exit status " + std::to_string(exitCode);
}

namespace {

using Clock = std::chrono::steady_clock;

/// A started child's two pipes, read until they close, its deadline and its cancel.
class Capture
{
public:
    Capture(pid_t pid, int outFd, int errFd, const ProcessOptions &options, ProcessResult &r)
        : m_pid(pid)
        , m_options(options)
        , m_r(r)
        , m_fds{{outFd, POLLIN, 0}, {errFd, POLLIN, 0}}
        , m_nfds(errFd >= 0 ? 2 : 1)
        , m_open(static_cast<int>(m_nfds))
    { }

    /// Read both pipes until they close, or until the deadline passes or the stop has waited
    /// long enough (then kill the child). Returns everything read from stderr (its tail).
    std::string run(Clock::time_point t0)
    {
        auto ticked = Clock::now();
        while (m_open > 0) {
            int wait = -1;
            if (m_options.onTick) {
                if (Clock::now() - ticked >= std::chrono::milliseconds(500)) {
                    m_options.onTick();
                    ticked = Clock::now();
                }
                wait = 200;
            }
            if (!timeoutWait(t0, wait) || !stopWait(wait))
                break;
            const int n = ::poll(m_fds, m_nfds, wait);
            if (n > 0)
                readReady();
        }
        for (nfds_t i = 0; i < m_nfds; ++i)
            if (m_fds[i].fd >= 0)
                ::close(m_fds[i].fd);
        if (m_options.onStderrLine && !m_lineBuffer.empty())
            m_options.onStderrLine(m_lineBuffer);
        return m_errText;
    }

private:
    /// False once the timeout has passed (the child killed); else narrows `wait`.
    bool timeoutWait(Clock::time_point t0, int &wait)
    {
        if (m_options.timeoutSeconds <= 0)
            return true;
        const double left
            = m_options.timeoutSeconds * 1000.0 - std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        if (left <= 0) {
            ::kill(m_pid, SIGKILL);
            m_r.timedOut = true;
            return false;
        }
        wait = std::min(wait < 0 ? 1001 : wait, static_cast<int>(std::min(left, 1000.0)) + 1);
        return true;
    }

    /// False once a requested stop has waited 5 s (the child killed); else narrows `wait`.
    bool stopWait(int &wait)
    {
        if (!m_options.stop.stop_possible())
            return true;
        if (m_options.stop.stop_requested() && !m_r.stopped) {
            ::kill(m_pid, SIGINT); // the tool's own cancel: it cleans up its children and exits 130
            m_r.stopped = true;
            m_interrupted = Clock::now();
        }
        if (m_r.stopped && Clock::now() - m_interrupted > std::chrono::seconds(5)) {
            ::kill(m_pid, SIGKILL);
            return false;
        }
        wait = wait < 0 ? 200 : std::min(wait, 200);
        return true;
    }

    void readReady()
    {
        char buf[4096];
        for (nfds_t i = 0; i < m_nfds; ++i) {
            if (m_fds[i].fd < 0 || !(m_fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const ssize_t got = ::read(m_fds[i].fd, buf, sizeof buf);
            if (got > 0) {
                (i == 0 ? m_r.out : m_errText).append(buf, static_cast<std::size_t>(got));
                if (i == 1 && m_options.onStderrLine) {
                    m_lineBuffer.append(buf, static_cast<std::size_t>(got));
                    for (auto nl = m_lineBuffer.find('\n'); nl != std::string::npos; nl = m_lineBuffer.find('\n')) {
                        m_options.onStderrLine(m_lineBuffer.substr(0, nl));
                        m_lineBuffer.erase(0, nl + 1);
                    }
                }
                if (m_r.out.size() > m_options.stdoutTail)
                    m_r.out.erase(0, m_r.out.size() - m_options.stdoutTail);
                if (m_errText.size() > 65536) // keep the tail
                    m_errText.erase(0, m_errText.size() - 16384);
            } else if (got == 0 || errno != EINTR) {
                ::close(m_fds[i].fd);
                m_fds[i].fd = -1;
                --m_open;
            }
        }
    }

    pid_t m_pid;
    const ProcessOptions &m_options;
    ProcessResult &m_r;
    pollfd m_fds[2];
    nfds_t m_nfds;
    int m_open;
    std::string m_errText;
    std::string m_lineBuffer; ///< stderr not yet passed to onStderrLine (the part after its last newline)
    Clock::time_point m_interrupted;
};

/// The last non-empty line of `text`: what a crashing child said last.
std::string lastLine(const std::string &text)
{
    const auto end = text.find_last_not_of("\r\n");
    if (end == std::string::npos)
        return {};
    const auto begin = text.rfind('\n', end);
    const std::size_t from = begin == std::string::npos ? 0 : begin + 1;
    return text.substr(from, end - from + 1);
}

} // namespace

ProcessResult runProcess(const std::vector<std::string> &argv, const std::vector<std::string> &extraEnv,
                         const ProcessOptions &options)
{
    ProcessResult r;
    int outFd[2], errFd[2] = {-1, -1};
    if (::pipe2(outFd, O_CLOEXEC) != 0) {
        r.error = std::strerror(errno);
        return r;
    }
    if (options.captureStderr && ::pipe2(errFd, O_CLOEXEC) != 0) {
        r.error = std::strerror(errno);
        ::close(outFd[0]);
        ::close(outFd[1]);
        return r;
    }
    ChildSpec spec;
    spec.argv = argv;
    spec.extraEnv = extraEnv;
    spec.out = Stream::descriptor(outFd[1]);
    spec.err = options.captureStderr ? Stream::descriptor(errFd[1]) : Stream::null();
    const auto t0 = Clock::now();
    const Child child = spawn(spec);
    ::close(outFd[1]);
    if (errFd[1] >= 0)
        ::close(errFd[1]);
    if (!child.started()) {
        ::close(outFd[0]);
        if (errFd[0] >= 0)
            ::close(errFd[0]);
        r.error = child.error;
        return r;
    }
    const std::string errText = Capture(child.pid, outFd[0], errFd[0], options, r).run(t0);
    const int status = waitFor(child.pid);
    r.wallMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (WIFEXITED(status))
        r.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        r.signal = WTERMSIG(status);
    r.err = lastLine(errText);
    return r;
}

DetachedChild spawnDetached(const std::vector<std::string> &argv, const std::string &logPath,
                            const std::vector<std::string> &extraEnv)
{
    ChildSpec spec;
    spec.argv = argv;
    spec.extraEnv = extraEnv;
    spec.out = logPath.empty() ? Stream::null() : Stream::appendTo(logPath);
    spec.err = Stream::toStdout();
    spec.signalState = Signals::Default;
    spec.newSession = true;
    spec.closeOtherFds = true;
    const Child child = spawn(spec);
    DetachedChild detached;
    detached.pid = child.started() ? child.pid : 0;
    detached.error = child.error;
    return detached;
}

} // namespace AotStudio::Process
