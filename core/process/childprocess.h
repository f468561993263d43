// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one child-process mechanism (HACKING.md "Rules the build enforces"). Every process this code
// starts is described by a ChildSpec and started here: exec()ed with posix_spawnp (spawn(): the
// engine's tools, cold start's aotstudio-run, the replay's spawn baseline, an eager server, the
// detached engine) or fork()ed without an exec (forkChild(): aotstudio-run's serving workers, which
// inherit the verified bundle and LibTorch already mapped). argv and envp are built in one place
// (ExecArgs), from an argv vector: no shell, no quoting. On top of it runProcess() (start, capture,
// wait) and spawnDetached() (a session of its own, output to a log, not waited for).
//
// Standard library and POSIX only (no Qt, no torch): the engine, aotstudio-run's server
// (core/serve) and the bundle library's target exec (core/bundle/targets.h) all link it.

#include <cstddef>
#include <functional>
#include <limits>
#include <stop_token>
#include <string>
#include <vector>

#include <sys/types.h>

namespace AotStudio::Process {

/// Where one of a child's standard streams goes (ChildSpec::in, out, err).
struct Stream {
    enum class Kind {
        Inherit, ///< this process's own descriptor
        Null, ///< /dev/null
        Descriptor, ///< `fd` of this process, duplicated (the caller keeps and closes its own copy)
        AppendFile, ///< `path`, created with mode 0600 when missing, appended to
        Stderr, ///< stdout only: onto the child's stderr (prints of a library must not reach an answer stream)
        Stdout, ///< stderr only: onto the child's stdout (one log for both)
    };
    Kind kind = Kind::Inherit;
    int fd = -1;
    std::string path;

    static Stream inherit() { return {}; }
    static Stream null() { return {Kind::Null, -1, {}}; }
    static Stream descriptor(int fd) { return {Kind::Descriptor, fd, {}}; }
    static Stream appendTo(std::string path) { return {Kind::AppendFile, -1, std::move(path)}; }
    static Stream toStderr() { return {Kind::Stderr, -1, {}}; }
    static Stream toStdout() { return {Kind::Stdout, -1, {}}; }
};

/// The signal state a child starts with.
enum class Signals {
    Inherit, ///< the parent's signal mask and ignored signals (runProcess: a tool that a job runs)
    /// An empty mask, and the default action for every signal (spawn()) or for SIGPIPE, SIGTERM,
    /// SIGINT and SIGHUP (forkChild(): the signals a server blocks, handles or ignores, so that
    /// `kill -TERM` ends an orphaned worker; other handlers a library installed stay).
    Default,
};

/// How a child starts. The fields a starter does not use are said so.
struct ChildSpec {
    /// The program and its arguments (spawn()): argv[0] is looked up in PATH when it holds no '/'.
    /// Unused by forkChild(), which runs a function instead.
    std::vector<std::string> argv;
    /// "NAME=value" entries replacing or adding NAME in this process's environment
    /// (childEnvironment()); forkChild() sets them with setenv() in the child.
    std::vector<std::string> extraEnv;
    Stream in = Stream::null();
    Stream out = Stream::inherit();
    Stream err = Stream::inherit();
    Signals signalState = Signals::Inherit;
    /// A session of its own (setsid): no controlling terminal, not in the parent's process group,
    /// so neither a hang-up nor a signal to the parent's group reaches it.
    bool newSession = false;
    /// spawn(): no descriptor but 0, 1 and 2 inherited (closefrom(3), glibc 2.34 and later; before
    /// that the caller's descriptors must be close-on-exec, as this code opens them).
    bool closeOtherFds = false;
    /// forkChild(): descriptors closed in the child before `in`/`out`/`err` are set up (a fork keeps
    /// every descriptor, close-on-exec or not: the parent's other channels, a listening socket).
    std::vector<int> closeFds;
    /// forkChild(): the child gets SIGKILL when this process ends (PR_SET_PDEATHSIG) and exits at
    /// once when this process is already gone, so no worker outlives its server.
    bool dieWithParent = false;
};

/// What spawn() or forkChild() started.
struct Child {
    pid_t pid = -1; ///< > 0 when it started
    std::string error; ///< why it could not be started ("PROGRAM: No such file or directory"), or empty
    int errorNumber = 0; ///< the errno behind `error` (ENOENT), 0 when it started or none applies
    bool started() const { return pid > 0; }
};

/// argv and envp as exec wants them (NULL-terminated arrays of C strings), built from string
/// vectors: the one place in the code that builds them. Holds its own copies; valid while it lives.
class ExecArgs
{
public:
    ExecArgs(std::vector<std::string> argv, std::vector<std::string> env);
    ExecArgs(const ExecArgs &) = delete; // the pointers point into this object's strings
    ExecArgs &operator=(const ExecArgs &) = delete;
    char *const *argv() const { return m_argvPointers.data(); }
    char *const *envp() const { return m_envPointers.data(); }

private:
    std::vector<std::string> m_argv, m_env;
    std::vector<char *> m_argvPointers, m_envPointers;
};

/// This process's environment with `extraEnv` ("NAME=value") replacing or adding NAME: what every
/// spawned child gets.
std::vector<std::string> childEnvironment(const std::vector<std::string> &extraEnv);

/// Start `spec.argv` with posix_spawnp (no shell), its streams, session, descriptors and signals
/// as `spec` says, its environment childEnvironment(spec.extraEnv). Does not wait. Never throws:
/// Child::error says why nothing started (no command, the program missing or not executable,
/// stdout and stderr pointed at each other).
Child spawn(const ChildSpec &spec);

/**
 * fork() this process and run `body` in the child, after setting it up as `spec` says (in this
 * order: dieWithParent, signals, closeFds, in/out/err, newSession, extraEnv); the child ends with
 * _exit(body()) (no destructors, no atexit handlers: what the parent owns, such as a temporary
 * folder, is not the child's to remove). Only the calling thread exists in the child: `body`
 * must not rely on others (or on a lock one of them held). stdio buffers are flushed before the
 * fork, so nothing is written twice. Never throws in the parent; Child::error says why the fork
 * failed. A `body` that throws ends the child with status 1.
 */
Child forkChild(const ChildSpec &spec, const std::function<int()> &body);

/// Replace this process with `program` (execve: no PATH lookup), given `argv` and the complete
/// environment `env`. Returns only on failure: why ("PROGRAM: No such file or directory").
std::string execReplacing(const std::string &program, const std::vector<std::string> &argv,
                          const std::vector<std::string> &env);

/// waitpid(`pid`) retried on EINTR: the child's status (as waitpid reports it), or -1 when `pid`
/// is not a child of this process (or was already reaped).
int waitFor(pid_t pid);

/// SIGKILL `pid`, then waitFor() it: how a child that must not finish is ended. No-op for pid <= 0.
void killAndReap(pid_t pid);

/// "SIGKILL" for 9 (glibc's sigabbrev_np with the prefix), "signal 70" for one it does not name.
std::string signalName(int sig);

/// What runProcess() saw of a child.
struct ProcessResult {
    int exitCode = -1; ///< exit status when it exited normally
    int signal = 0; ///< the signal that killed it, or 0
    std::string out; ///< everything it wrote to stdout
    std::string err; ///< the last line it wrote to stderr (with ProcessOptions::captureStderr), or empty
    double wallMs = 0; ///< spawn to exit (std::chrono::steady_clock), ms
    std::string error; ///< why it could not be started, or empty
    bool timedOut = false; ///< killed (SIGKILL) after ProcessOptions::timeoutSeconds
    bool stopped = false; ///< interrupted (SIGINT) because ProcessOptions::stop was requested
    bool ok() const { return error.empty() && signal == 0 && exitCode == 0; }
    /// "exit status 1", "killed by signal 9", "could not start: ..."
    std::string describe() const;
};

/// How runProcess() waits.
struct ProcessOptions {
    double timeoutSeconds = 0; ///< > 0: SIGKILL the child after this long (ProcessResult::timedOut)
    bool captureStderr = true; ///< keep the last line of stderr (ProcessResult::err); else /dev/null
    /// A job's cancel: when requested, the child gets SIGINT (a tool's cancel, exit 130) and, if it
    /// is still there 5 s later, SIGKILL; ProcessResult::stopped says so. Checked every 0.2 s.
    std::stop_token stop;
    /// Called about every 0.5 s while the child runs (a job's live progress: counting what the
    /// child wrote so far). Runs on the waiting thread; must not throw.
    std::function<void()> onTick;
    /// Called with each complete line the child writes to stderr (without its newline), as it
    /// arrives (with captureStderr): a tool's progress lines passed on. Runs on the waiting thread;
    /// must not throw.
    std::function<void(const std::string &line)> onStderrLine;
    /// Keep at most the last this many bytes of stdout (a user's script may print without end).
    std::size_t stdoutTail = std::numeric_limits<std::size_t>::max();
};

/// Run `argv` to its end (spawn(): posix_spawnp, no shell, no quoting), this process's environment
/// plus `extraEnv` ("NAME=value", replacing NAME), stdin on /dev/null, stdout captured, stderr's
/// last line kept (a crash's message). Waits for it to exit, or kills it after
/// `options.timeoutSeconds`, or interrupts it on `options.stop`. Never throws.
ProcessResult runProcess(const std::vector<std::string> &argv, const std::vector<std::string> &extraEnv = {},
                         const ProcessOptions &options = {});

/// What spawnDetached() started.
struct DetachedChild {
    int pid = 0; ///< the child's process id, > 0 when it started
    std::string error; ///< why it could not be started, or empty
};

/**
 * Starts `argv` (spawn(), no shell) in a session of its own (ChildSpec::newSession), stdin on
 * /dev/null, stdout and stderr appended to `logPath` (created 0600; /dev/null when empty), this
 * process's environment plus `extraEnv`, default signals, no other descriptor inherited
 * (ChildSpec::closeOtherFds). Does not wait: the caller may reap it with waitpid(WNOHANG) while it
 * lives; when the caller exits, init (or the nearest subreaper) adopts it. Used by
 * `aotstudio-engine --serve --session` to start the detached engine (app/engine/sessionengine.h).
 * Never throws.
 */
DetachedChild spawnDetached(const std::vector<std::string> &argv, const std::string &logPath,
                            const std::vector<std::string> &extraEnv = {});

} // namespace AotStudio::Process
