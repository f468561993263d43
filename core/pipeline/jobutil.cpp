// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/jobutil.h"
#include "pipeline/detachedspawn.h"
#include "pipeline/job.h"
#include "pipeline/versions.h"

#include "bundle/bundle.h"
#include "python/frontend.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <spawn.h>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace AotStudio::Pipeline {

Protocol::Json summaryJson(const Profiler::Summary &s, int warmup)
{
    return Protocol::Json{{"median_ms", s.medianMs}, {"p10_ms", s.p10Ms},       {"p90_ms", s.p90Ms},
                          {"p99_ms", s.p99Ms},       {"mean_ms", s.meanMs},     {"stddev_ms", s.stddevMs},
                          {"min_ms", s.minMs},       {"max_ms", s.maxMs},       {"runs", s.runs},
                          {"warmup", warmup}};
}

void writeFileAtomic(const std::filesystem::path &path, const std::string &text)
{
    try {
        Bundle::writeFileAtomic(path, text);
    } catch (const Bundle::BundleError &e) {
        throw JobFailed({"write", Protocol::Code::Internal, e.what(), "check free disk space and that the output folder is writable"});
    }
}

void writeJsonAtomic(const std::filesystem::path &path, const Protocol::Json &j)
{
    writeFileAtomic(path, j.dump(2, ' ', false, Protocol::Json::error_handler_t::replace) + "\n");
}

Protocol::Json readJsonFile(const std::filesystem::path &path)
{
    std::ifstream in(path);
    if (!in)
        return nullptr;
    Protocol::Json j = Protocol::Json::parse(in, nullptr, false);
    return j.is_discarded() ? nullptr : j;
}

std::string isoNow()
{
    char buf[32];
    const std::time_t t = std::time(nullptr);
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

std::string shellQuote(const std::string &s)
{
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string ProcessResult::describe() const
{
    if (!error.empty())
        return "could not start: " + error;
    if (signal)
        return "killed by signal " + std::to_string(signal);
    return "exit status " + std::to_string(exitCode);
}

namespace {
/// This process's environment with `extraEnv` ("NAME=value") replacing or adding NAME: what every
/// child of runProcess() and spawnDetached() gets.
std::vector<std::string> childEnvironment(const std::vector<std::string> &extraEnv)
{
    std::vector<std::string> env;
    for (char **e = environ; *e; ++e) {
        const std::string_view kv(*e);
        const auto name = kv.substr(0, kv.find('='));
        const bool replaced = std::any_of(extraEnv.begin(), extraEnv.end(), [&](const std::string &x) {
            return x.size() > name.size() && x.compare(0, name.size(), name) == 0 && x[name.size()] == '=';
        });
        if (!replaced)
            env.emplace_back(kv);
    }
    env.insert(env.end(), extraEnv.begin(), extraEnv.end());
    return env;
}
} // namespace

ProcessResult runProcess(const std::vector<std::string> &argv, const std::vector<std::string> &extraEnv,
                         const ProcessOptions &options)
{
    ProcessResult r;
    if (argv.empty()) {
        r.error = "no command";
        return r;
    }
    const std::vector<std::string> env = childEnvironment(extraEnv);
    std::vector<char *> args, envp;
    for (const auto &a : argv)
        args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    for (const auto &e : env)
        envp.push_back(const_cast<char *>(e.c_str()));
    envp.push_back(nullptr);

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
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, outFd[1], 1);
    if (options.captureStderr)
        posix_spawn_file_actions_adddup2(&actions, errFd[1], 2);
    else
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    const auto t0 = std::chrono::steady_clock::now();
    pid_t pid = 0;
    const int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(outFd[1]);
    if (errFd[1] >= 0)
        ::close(errFd[1]);
    if (rc != 0) {
        ::close(outFd[0]);
        if (errFd[0] >= 0)
            ::close(errFd[0]);
        r.error = std::string(args[0]) + ": " + std::strerror(rc);
        return r;
    }
    // Read both pipes until they close, or until the deadline passes (then kill the child).
    std::string errText;
    std::string lineBuffer; // stderr not yet passed to onStderrLine (the part after its last newline)
    pollfd fds[2] = {{outFd[0], POLLIN, 0}, {errFd[0], POLLIN, 0}};
    const nfds_t nfds = errFd[0] >= 0 ? 2 : 1;
    int open = static_cast<int>(nfds);
    char buf[4096];
    std::chrono::steady_clock::time_point interrupted;
    auto ticked = std::chrono::steady_clock::now();
    while (open > 0) {
        int wait = -1;
        if (options.onTick) {
            if (std::chrono::steady_clock::now() - ticked >= std::chrono::milliseconds(500)) {
                options.onTick();
                ticked = std::chrono::steady_clock::now();
            }
            wait = 200;
        }
        if (options.timeoutSeconds > 0) {
            const double left = options.timeoutSeconds * 1000.0 -
                                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            if (left <= 0) {
                ::kill(pid, SIGKILL);
                r.timedOut = true;
                break;
            }
            wait = std::min(wait < 0 ? 1001 : wait, static_cast<int>(std::min(left, 1000.0)) + 1);
        }
        if (options.stop.stop_possible()) {
            if (options.stop.stop_requested() && !r.stopped) {
                ::kill(pid, SIGINT); // the tool's own cancel: it cleans up its children and exits 130
                r.stopped = true;
                interrupted = std::chrono::steady_clock::now();
            }
            if (r.stopped && std::chrono::steady_clock::now() - interrupted > std::chrono::seconds(5)) {
                ::kill(pid, SIGKILL);
                break;
            }
            wait = wait < 0 ? 200 : std::min(wait, 200);
        }
        const int n = ::poll(fds, nfds, wait);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            continue;
        for (nfds_t i = 0; i < nfds; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
            if (got > 0) {
                (i == 0 ? r.out : errText).append(buf, static_cast<std::size_t>(got));
                if (i == 1 && options.onStderrLine) {
                    lineBuffer.append(buf, static_cast<std::size_t>(got));
                    for (auto nl = lineBuffer.find('\n'); nl != std::string::npos; nl = lineBuffer.find('\n')) {
                        options.onStderrLine(lineBuffer.substr(0, nl));
                        lineBuffer.erase(0, nl + 1);
                    }
                }
                if (r.out.size() > options.stdoutTail)
                    r.out.erase(0, r.out.size() - options.stdoutTail);
                if (errText.size() > 65536) // keep the tail
                    errText.erase(0, errText.size() - 16384);
            } else if (got == 0 || errno != EINTR) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
    for (nfds_t i = 0; i < nfds; ++i)
        if (fds[i].fd >= 0)
            ::close(fds[i].fd);
    if (options.onStderrLine && !lineBuffer.empty())
        options.onStderrLine(lineBuffer);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    r.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (WIFEXITED(status))
        r.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        r.signal = WTERMSIG(status);
    // The last non-empty line of stderr: what a crashing child said last.
    const auto end = errText.find_last_not_of("\r\n");
    if (end != std::string::npos) {
        const auto begin = errText.rfind('\n', end);
        r.err = errText.substr(begin == std::string::npos ? 0 : begin + 1, end - (begin == std::string::npos ? 0 : begin + 1) + 1);
    }
    return r;
}

DetachedChild spawnDetached(const std::vector<std::string> &argv, const std::string &logPath,
                            const std::vector<std::string> &extraEnv)
{
    DetachedChild child;
    if (argv.empty()) {
        child.error = "no command";
        return child;
    }
    const std::vector<std::string> env = childEnvironment(extraEnv);
    std::vector<char *> args, envp;
    for (const auto &a : argv)
        args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    for (const auto &e : env)
        envp.push_back(const_cast<char *>(e.c_str()));
    envp.push_back(nullptr);
    const char *log = logPath.empty() ? "/dev/null" : logPath.c_str();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
    // Nothing else: an inherited pipe (an ssh channel) would stay open as long as the child lives.
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    // A new session, and the default signal dispositions and an empty mask whatever the parent set.
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = 0;
    const int rc = ::posix_spawnp(&pid, args[0], &actions, &attributes, args.data(), envp.data());
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        child.error = std::string(args[0]) + ": " + std::strerror(rc);
    else
        child.pid = pid;
    return child;
}

std::string commandLine(const std::vector<std::string> &argv)
{
    std::string line;
    for (const auto &a : argv)
        line += (line.empty() ? "" : " ") + shellQuote(a);
    return line;
}

std::filesystem::path selfDir()
{
    std::error_code ec;
    const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : p.parent_path();
}

Protocol::Json torchaoVersion()
{
    try {
        const Protocol::Json v = Python::callFunction("versions", "library_versions").value("torchao_version", Protocol::Json());
        return v.is_string() ? v : Protocol::Json();
    } catch (...) {
        return nullptr; // an older frontend or no Python: not recorded
    }
}

} // namespace AotStudio::Pipeline
