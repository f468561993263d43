// SPDX-License-Identifier: GPL-3.0-or-later
// Starting children: spawn() (posix_spawnp), forkChild() (fork without exec), execReplacing(),
// and the argv/envp they share (ExecArgs). runProcess() and spawnDetached() are in runprocess.cpp.
#include "process/childprocess.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include <fcntl.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace AotStudio::Process {

ExecArgs::ExecArgs(std::vector<std::string> argv, std::vector<std::string> env)
    : m_argv(std::move(argv))
    , m_env(std::move(env))
{
    for (auto &a : m_argv)
        m_argvPointers.push_back(a.data());
    m_argvPointers.push_back(nullptr);
    for (auto &e : m_env)
        m_envPointers.push_back(e.data());
    m_envPointers.push_back(nullptr);
}

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

namespace {

/// The file action that points the child's `target` descriptor where `s` says. False (with `why`)
/// for a stream that cannot be set up so.
bool addStream(posix_spawn_file_actions_t &actions, int target, const Stream &s, std::string &why)
{
    switch (s.kind) {
    case Stream::Kind::Inherit:
        return true;
    case Stream::Kind::Null:
        return ::posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            == 0;
    case Stream::Kind::Descriptor:
        if (s.fd < 0) {
            why = "a stream's descriptor is not open";
            return false;
        }
        return ::posix_spawn_file_actions_adddup2(&actions, s.fd, target) == 0;
    case Stream::Kind::AppendFile:
        return ::posix_spawn_file_actions_addopen(&actions, target, s.path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600)
            == 0;
    case Stream::Kind::Stderr:
        return ::posix_spawn_file_actions_adddup2(&actions, 2, target) == 0;
    case Stream::Kind::Stdout:
        return ::posix_spawn_file_actions_adddup2(&actions, 1, target) == 0;
    }
    return true;
}

/// In a forked child: point `target` where `s` says (dup2/open). Failures are left as they are:
/// the child's own output then goes where the parent's went.
void setStream(int target, const Stream &s)
{
    int fd = -1;
    switch (s.kind) {
    case Stream::Kind::Inherit:
        return;
    case Stream::Kind::Null:
        fd = ::open("/dev/null", target == 0 ? O_RDONLY : O_WRONLY);
        break;
    case Stream::Kind::Descriptor:
        if (s.fd != target)
            ::dup2(s.fd, target);
        else
            ::fcntl(target, F_SETFD, 0); // dup2 onto itself would keep close-on-exec
        return;
    case Stream::Kind::AppendFile:
        fd = ::open(s.path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
        break;
    case Stream::Kind::Stderr:
        ::dup2(2, target);
        return;
    case Stream::Kind::Stdout:
        ::dup2(1, target);
        return;
    }
    if (fd >= 0 && fd != target) {
        ::dup2(fd, target);
        ::close(fd);
    }
}

/// stdout and stderr in the order that lets one point at the other: the one pointed at first.
bool stderrFirst(const ChildSpec &spec)
{
    return spec.out.kind == Stream::Kind::Stderr;
}

} // namespace

Child spawn(const ChildSpec &spec)
{
    Child child;
    if (spec.argv.empty() || spec.argv.front().empty()) {
        child.error = "no command";
        return child;
    }
    if (spec.out.kind == Stream::Kind::Stderr && spec.err.kind == Stream::Kind::Stdout) {
        child.error = spec.argv.front() + ": its stdout and stderr point at each other";
        return child;
    }
    const ExecArgs args(spec.argv, childEnvironment(spec.extraEnv));
    posix_spawn_file_actions_t actions;
    ::posix_spawn_file_actions_init(&actions);
    std::string why;
    bool ok = addStream(actions, 0, spec.in, why);
    if (stderrFirst(spec))
        ok = ok && addStream(actions, 2, spec.err, why) && addStream(actions, 1, spec.out, why);
    else
        ok = ok && addStream(actions, 1, spec.out, why) && addStream(actions, 2, spec.err, why);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
    // Nothing else: an inherited pipe (an ssh channel) would stay open as long as the child lives.
    if (ok && spec.closeOtherFds)
        ok = ::posix_spawn_file_actions_addclosefrom_np(&actions, 3) == 0;
#endif
    posix_spawnattr_t attributes;
    ::posix_spawnattr_init(&attributes);
    short flags = 0;
    if (spec.newSession)
        flags |= POSIX_SPAWN_SETSID;
    if (spec.signalState == Signals::Default) {
        // An empty mask and every signal at its default action, whatever the parent blocked or ignored.
        sigset_t none, all;
        sigemptyset(&none);
        sigfillset(&all);
        ::posix_spawnattr_setsigmask(&attributes, &none);
        ::posix_spawnattr_setsigdefault(&attributes, &all);
        flags |= POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
    }
    ::posix_spawnattr_setflags(&attributes, flags);
    pid_t pid = -1;
    const int rc = ok ? ::posix_spawnp(&pid, spec.argv.front().c_str(), &actions, &attributes, args.argv(), args.envp())
                      : EINVAL;
    ::posix_spawnattr_destroy(&attributes);
    ::posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        child.error = spec.argv.front() + ": " + (why.empty() ? std::string(std::strerror(rc)) : why);
        child.errorNumber = rc;
    } else
        child.pid = pid;
    return child;
}

Child forkChild(const ChildSpec &spec, const std::function<int()> &body)
{
    Child child;
    std::fflush(nullptr); // nothing buffered is written twice, by parent and child
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        child.errorNumber = errno;
        child.error = std::string("cannot fork: ") + std::strerror(errno);
        return child;
    }
    if (pid > 0) {
        child.pid = pid;
        return child;
    }
    // The child.
    if (spec.dieWithParent) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) // the parent died between fork() and prctl()
            ::_exit(1);
    }
    if (spec.signalState == Signals::Default) {
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        for (int sig : {SIGPIPE, SIGTERM, SIGINT, SIGHUP})
            std::signal(sig, SIG_DFL);
    }
    for (int fd : spec.closeFds)
        ::close(fd);
    setStream(0, spec.in);
    if (stderrFirst(spec)) {
        setStream(2, spec.err);
        setStream(1, spec.out);
    } else {
        setStream(1, spec.out);
        setStream(2, spec.err);
    }
    if (spec.newSession)
        ::setsid();
    for (const std::string &kv : spec.extraEnv) {
        const auto eq = kv.find('=');
        if (eq != std::string::npos && eq > 0)
            ::setenv(kv.substr(0, eq).c_str(), kv.c_str() + eq + 1, 1);
    }
    int status = 1;
    try {
        status = body();
    } catch (...) {
        status = 1;
    }
    ::_exit(status);
}

std::string execReplacing(const std::string &program, const std::vector<std::string> &argv,
                          const std::vector<std::string> &env)
{
    const ExecArgs args(argv, env);
    ::execve(program.c_str(), args.argv(), args.envp());
    return program + ": " + std::strerror(errno);
}

int waitFor(pid_t pid)
{
    if (pid <= 0)
        return -1;
    int status = 0;
    for (;;) {
        if (::waitpid(pid, &status, 0) >= 0)
            return status;
        if (errno != EINTR)
            return -1;
    }
}

void killAndReap(pid_t pid)
{
    if (pid <= 0)
        return;
    ::kill(pid, SIGKILL);
    waitFor(pid);
}

std::string signalName(int sig)
{
    const char *abbrev = ::sigabbrev_np(sig);
    return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

} // namespace AotStudio::Process
