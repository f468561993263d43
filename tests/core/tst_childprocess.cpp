// SPDX-License-Identifier: GPL-3.0-or-later
// The one child-process mechanism (core/process/childprocess.h): argv passed word for word with no
// shell, the environment's extra entries replacing the inherited ones, each stdio choice, a session
// of its own, default signals, forked children's set-up, and the errors of a program that is not
// there. Only /bin tools are started: well under a second.
#include <QTemporaryDir>
#include <QTest>

#include "process/childprocess.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace AotStudio;

namespace {

/// Everything readable from `fd` until its end (the caller closed its write end).
std::string readAll(int fd)
{
    std::string out;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n > 0)
            out.append(buf, static_cast<std::size_t>(n));
        else if (n == 0 || errno != EINTR)
            return out;
    }
}

std::string readFile(const std::string &path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

class TestChildProcess : public QObject
{
    Q_OBJECT

private slots:
    void argvIsPassedWordForWordWithoutAShell();
    void extraEnvironmentReplacesInheritedEntries();
    void capturesStdoutExitStatusAndLastStderrLine();
    void stdinIsNullByDefault();
    void missingProgramIsAnErrorNamingIt();
    void emptyCommandIsRefused();
    void timeoutKillsTheChild();
    void stderrOnStdoutAndStreamsToFiles();
    void detachedChildHasASessionOfItsOwn();
    void defaultSignalsUndoAnIgnoredSignal();
    void forkedChildIsSetUpAsSpecified();
    void forkedChildDiesWithItsParent();
    void execReplacingReportsAMissingProgram();
};

void TestChildProcess::argvIsPassedWordForWordWithoutAShell()
{
    // Quotes, $, ; and spaces reach the program as they are: no shell ever sees them.
    const auto r = Process::runProcess({"/bin/echo", "a b", "$HOME", "'q'", "x;y", "`id`"});
    QVERIFY2(r.ok(), r.describe().c_str());
    QCOMPARE(r.out, std::string("a b $HOME 'q' x;y `id`\n"));
}

void TestChildProcess::extraEnvironmentReplacesInheritedEntries()
{
    ::setenv("AOTSTUDIO_TST_REPLACED", "old", 1);
    const auto r = Process::runProcess({"/usr/bin/env"}, {"AOTSTUDIO_TST_REPLACED=new", "AOTSTUDIO_TST_ADDED=1"});
    ::unsetenv("AOTSTUDIO_TST_REPLACED");
    QVERIFY2(r.ok(), r.describe().c_str());
    QVERIFY2(r.out.find("AOTSTUDIO_TST_REPLACED=new\n") != std::string::npos, r.out.c_str());
    QVERIFY2(r.out.find("AOTSTUDIO_TST_REPLACED=old") == std::string::npos, "the inherited entry stayed");
    QVERIFY(r.out.find("AOTSTUDIO_TST_ADDED=1\n") != std::string::npos);
    QVERIFY(r.out.find("PATH=") != std::string::npos); // the rest is inherited

    const auto env = Process::childEnvironment({"PATH=/nowhere"});
    QCOMPARE(std::count_if(env.begin(), env.end(), [](const std::string &e) { return e.rfind("PATH=", 0) == 0; }),
             std::ptrdiff_t{1});
    QCOMPARE(env.back(), std::string("PATH=/nowhere"));
}

void TestChildProcess::capturesStdoutExitStatusAndLastStderrLine()
{
    Process::ProcessOptions options;
    std::vector<std::string> lines;
    options.onStderrLine = [&](const std::string &line) { lines.push_back(line); };
    const auto r
        = Process::runProcess({"/bin/sh", "-c", "echo out; echo first >&2; echo last >&2; exit 3"}, {}, options);
    QCOMPARE(r.out, std::string("out\n"));
    QCOMPARE(r.exitCode, 3);
    QCOMPARE(r.signal, 0);
    QCOMPARE(r.err, std::string("last"));
    QVERIFY(lines == (std::vector<std::string>{"first", "last"}));
    QVERIFY(!r.ok());
    QCOMPARE(r.describe(), std::string("exit status 3"));
}

void TestChildProcess::stdinIsNullByDefault()
{
    // cat on the test's own stdin would wait for a terminal; on /dev/null it ends at once, empty.
    const auto r = Process::runProcess({"/bin/cat"});
    QVERIFY2(r.ok(), r.describe().c_str());
    QCOMPARE(r.out, std::string());
}

void TestChildProcess::missingProgramIsAnErrorNamingIt()
{
    const auto r = Process::runProcess({"/nonexistent/aotstudio-tool", "--x"});
    QVERIFY(!r.ok());
    QCOMPARE(r.error, std::string("/nonexistent/aotstudio-tool: No such file or directory"));
    QCOMPARE(r.describe(), std::string("could not start: /nonexistent/aotstudio-tool: No such file or directory"));

    Process::ChildSpec spec;
    spec.argv = {"aotstudio-no-such-tool-in-path"};
    const Process::Child child = Process::spawn(spec);
    QVERIFY(!child.started());
    QCOMPARE(child.errorNumber, ENOENT);
    QVERIFY2(child.error.rfind("aotstudio-no-such-tool-in-path: ", 0) == 0, child.error.c_str());

    // A file that is there but not a program.
    QTemporaryDir dir;
    const std::string plain = dir.filePath(QStringLiteral("plain")).toStdString();
    std::ofstream(plain) << "not a program\n";
    ::chmod(plain.c_str(), 0644);
    const auto notExecutable = Process::runProcess({plain});
    QCOMPARE(notExecutable.error, plain + ": Permission denied");
}

void TestChildProcess::emptyCommandIsRefused()
{
    QCOMPARE(Process::runProcess({}).error, std::string("no command"));
    QCOMPARE(Process::spawn(Process::ChildSpec{}).error, std::string("no command"));
    Process::ChildSpec crossed;
    crossed.argv = {"/bin/true"};
    crossed.out = Process::Stream::toStderr();
    crossed.err = Process::Stream::toStdout();
    const Process::Child child = Process::spawn(crossed);
    QVERIFY(!child.started());
    QVERIFY2(child.error.find("point at each other") != std::string::npos, child.error.c_str());
}

void TestChildProcess::timeoutKillsTheChild()
{
    Process::ProcessOptions options;
    options.timeoutSeconds = 0.2;
    const auto r = Process::runProcess({"/bin/sleep", "30"}, {}, options);
    QVERIFY(r.timedOut);
    QCOMPARE(r.signal, SIGKILL);
    QCOMPARE(r.describe(), std::string("killed by signal 9"));
}

void TestChildProcess::stderrOnStdoutAndStreamsToFiles()
{
    QTemporaryDir dir;
    const std::string log = dir.filePath(QStringLiteral("log")).toStdString();
    std::ofstream(log) << "before\n";
    Process::ChildSpec spec;
    spec.argv = {"/bin/sh", "-c", "echo to-out; echo to-err >&2"};
    spec.out = Process::Stream::appendTo(log);
    spec.err = Process::Stream::toStdout();
    const Process::Child child = Process::spawn(spec);
    QVERIFY2(child.started(), child.error.c_str());
    const int status = Process::waitFor(child.pid);
    QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    QCOMPARE(readFile(log), std::string("before\nto-out\nto-err\n")); // appended, both streams

    // stdout onto stderr, stderr into a pipe: both lines arrive on the pipe.
    int p[2];
    QCOMPARE(::pipe2(p, O_CLOEXEC), 0);
    spec.out = Process::Stream::toStderr();
    spec.err = Process::Stream::descriptor(p[1]);
    const Process::Child second = Process::spawn(spec);
    ::close(p[1]);
    QVERIFY2(second.started(), second.error.c_str());
    QCOMPARE(readAll(p[0]), std::string("to-out\nto-err\n"));
    ::close(p[0]);
    Process::waitFor(second.pid);
    QCOMPARE(Process::waitFor(second.pid), -1); // reaped already
}

void TestChildProcess::detachedChildHasASessionOfItsOwn()
{
    QTemporaryDir dir;
    const std::string log = dir.filePath(QStringLiteral("stat")).toStdString();
    const Process::DetachedChild child = Process::spawnDetached({"/bin/cat", "/proc/self/stat"}, log);
    QVERIFY2(child.pid > 0, child.error.c_str());
    Process::waitFor(child.pid);
    // proc(5): pid (comm) state ppid pgrp session ...
    const std::string stat = readFile(log);
    std::istringstream fields(stat.substr(stat.rfind(')') + 1));
    std::string state;
    long ppid = 0, pgrp = 0, session = 0;
    fields >> state >> ppid >> pgrp >> session;
    QCOMPARE(session, static_cast<long>(child.pid));
    QCOMPARE(pgrp, static_cast<long>(child.pid));
    QVERIFY(session != static_cast<long>(::getsid(0)));
}

void TestChildProcess::defaultSignalsUndoAnIgnoredSignal()
{
    // A parent that ignores SIGTERM hands that on through exec; Signals::Default does not.
    struct sigaction ignore {
    }, old{};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGTERM, &ignore, &old);
    Process::ChildSpec spec;
    spec.argv = {"/bin/sleep", "30"};
    spec.signalState = Process::Signals::Default;
    const Process::Child child = Process::spawn(spec);
    ::sigaction(SIGTERM, &old, nullptr);
    QVERIFY2(child.started(), child.error.c_str());
    ::kill(child.pid, SIGTERM);
    const int status = Process::waitFor(child.pid);
    QVERIFY(WIFSIGNALED(status));
    QCOMPARE(WTERMSIG(status), SIGTERM);
    QCOMPARE(Process::signalName(SIGTERM), std::string("SIGTERM"));
}

void TestChildProcess::forkedChildIsSetUpAsSpecified()
{
    int channel[2], kept[2];
    QCOMPARE(::pipe(channel), 0);
    QCOMPARE(::pipe(kept), 0);
    Process::ChildSpec spec;
    spec.closeFds = {kept[0]};
    spec.out = Process::Stream::descriptor(channel[1]);
    spec.extraEnv = {"AOTSTUDIO_TST_FORKED=yes"};
    const Process::Child child = Process::forkChild(spec, [&] {
        // Exit status bits: 1 kept[0] still open, 2 stdin not /dev/null, 4 the variable missing.
        int bad = 0;
        if (::fcntl(kept[0], F_GETFD) != -1)
            bad |= 1;
        char c;
        if (::read(0, &c, 1) != 0)
            bad |= 2;
        const char *v = std::getenv("AOTSTUDIO_TST_FORKED");
        if (!v || std::string(v) != "yes")
            bad |= 4;
        std::printf("from the child\n"); // on stdout: the channel
        std::fflush(stdout);
        return bad;
    });
    QVERIFY2(child.started(), child.error.c_str());
    ::close(channel[1]);
    QCOMPARE(readAll(channel[0]), std::string("from the child\n"));
    ::close(channel[0]);
    const int status = Process::waitFor(child.pid);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);
    QVERIFY(std::getenv("AOTSTUDIO_TST_FORKED") == nullptr); // set in the child only
    QVERIFY(::fcntl(kept[0], F_GETFD) != -1); // closed in the child only
    ::close(kept[0]);
    ::close(kept[1]);

    // A body that throws ends its child with status 1, not in the parent's code.
    const Process::Child thrower = Process::forkChild({}, []() -> int { throw std::runtime_error("no"); });
    const int thrown = Process::waitFor(thrower.pid);
    QVERIFY(WIFEXITED(thrown));
    QCOMPARE(WEXITSTATUS(thrown), 1);
}

void TestChildProcess::forkedChildDiesWithItsParent()
{
    // A middle process forks a worker with dieWithParent, says its pid and exits: the worker is
    // killed (PR_SET_PDEATHSIG) although nobody signals it.
    int p[2];
    QCOMPARE(::pipe(p), 0);
    const pid_t middle = ::fork();
    if (middle == 0) {
        ::close(p[0]);
        Process::ChildSpec spec;
        spec.dieWithParent = true;
        const Process::Child worker = Process::forkChild(spec, [] {
            ::pause();
            return 0;
        });
        const std::string pid = std::to_string(worker.pid);
        (void)!::write(p[1], pid.data(), pid.size());
        ::_exit(0);
    }
    ::close(p[1]);
    const pid_t worker = static_cast<pid_t>(std::stol(readAll(p[0])));
    ::close(p[0]);
    Process::waitFor(middle);
    QVERIFY(worker > 0);
    bool gone = false;
    for (int i = 0; i < 200 && !gone; ++i) { // up to 10 s: a wait for an event, not a timing
        std::ifstream stat("/proc/" + std::to_string(worker) + "/stat");
        std::string pidField, comm, state;
        stat >> pidField >> comm >> state;
        gone = !stat || state == "Z" || state == "X";
        if (!gone)
            ::usleep(50 * 1000);
    }
    QVERIFY2(gone, "the worker outlived its parent");
}

void TestChildProcess::execReplacingReportsAMissingProgram()
{
    // execve fails before anything is replaced, so this process goes on with the reason.
    const std::string why = Process::execReplacing("/nonexistent/aotstudio-cli", {"aotstudio-cli", "--version"}, {});
    QCOMPARE(why, std::string("/nonexistent/aotstudio-cli: No such file or directory"));
}

QTEST_GUILESS_MAIN(TestChildProcess)
#include "tst_childprocess.moc"
