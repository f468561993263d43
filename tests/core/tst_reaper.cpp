// SPDX-License-Identifier: GPL-3.0-or-later
// The descendant reaper (core/pipeline/reaper.h, issue 19): when the engine process ends, SIGKILL
// or normal exit, the processes it started and theirs are killed within seconds, the pipe the
// engine wrote to reaches end-of-file (the watchdog does not hold it), and a process the engine
// started before the reaper (so without the mark) is left alone.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "pipeline/reaper.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using namespace AotStudio;

namespace {

/// Alive and not a zombie (a reparented zombie may wait for a PID 1 that does not reap).
bool alive(pid_t pid)
{
    if (::kill(pid, 0) != 0)
        return false;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string pidField, comm, state;
    stat >> pidField >> comm >> state;
    return stat && state != "Z";
}

bool goneWithin(pid_t pid, int ms)
{
    for (int waited = 0; waited < ms; waited += 50) {
        if (!alive(pid))
            return true;
        ::usleep(50 * 1000);
    }
    return !alive(pid);
}

pid_t spawnShell(const char *script, int stdoutFd)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, stdoutFd, 1);
    const char *argv[] = {"/bin/sh", "-c", script, nullptr};
    pid_t pid = 0;
    const int rc = ::posix_spawn(&pid, "/bin/sh", &actions, nullptr, const_cast<char **>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    return rc == 0 ? pid : -1;
}

/// Reads "PID PID PID\n" (three numbers) from `fd`, waiting up to 10 s.
bool readPids(int fd, pid_t out[3])
{
    std::string text;
    char buf[256];
    for (int waited = 0; waited < 10000 && std::count(text.begin(), text.end(), '\n') < 1; waited += 50) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 50) > 0) {
            const ssize_t got = ::read(fd, buf, sizeof buf);
            if (got <= 0)
                break;
            text.append(buf, static_cast<std::size_t>(got));
        }
    }
    return std::sscanf(text.c_str(), "%d %d %d", &out[0], &out[1], &out[2]) == 3;
}

/// Reads `fd` until end-of-file; false if it stays open for `ms`.
bool eofWithin(int fd, int ms)
{
    char buf[256];
    for (int waited = 0; waited < ms; waited += 50) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 50) > 0 && ::read(fd, buf, sizeof buf) == 0)
            return true;
    }
    return false;
}

} // namespace

class TestReaper : public QObject
{
    Q_OBJECT

private slots:
    void descendantsDieWithTheEngine_data();
    void descendantsDieWithTheEngine();
    void markIsStable();
    void nativeBuildToolNames_data();
    void nativeBuildToolNames();
    void endNativeBuildsEndsOnlyMarkedBuildTools();
};

void TestReaper::descendantsDieWithTheEngine_data()
{
    QTest::addColumn<bool>("killed");
    QTest::newRow("engine SIGKILLed") << true;
    QTest::newRow("engine exits") << false;
}

void TestReaper::descendantsDieWithTheEngine()
{
    QFETCH(bool, killed);
    int out[2];
    QVERIFY(::pipe(out) == 0);
    const pid_t engine = ::fork();
    QVERIFY(engine >= 0);
    if (engine == 0) {
        // The "engine" (no Qt Test calls in here): a child started before the reaper (unmarked),
        // then the reaper, then a child that starts a grandchild. None of them holds `out`.
        ::close(out[0]);
        ::fcntl(out[1], F_SETFD, FD_CLOEXEC);
        const int devNull = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
        const pid_t before = spawnShell("exec sleep 300", devNull);
        if (Pipeline::startDescendantReaper().empty())
            ::_exit(3);
        int inner[2];
        if (::pipe(inner) != 0)
            ::_exit(4);
        const pid_t child = spawnShell("sleep 300 & echo $!; exec sleep 300", inner[1]);
        ::close(inner[1]);
        int grandchild = 0;
        char buf[64] = {};
        for (std::size_t got = 0; got < sizeof buf - 1;) {
            const ssize_t n = ::read(inner[0], buf + got, sizeof buf - 1 - got);
            if (n <= 0 || std::memchr(buf, '\n', got + static_cast<std::size_t>(n)))
                break;
            got += static_cast<std::size_t>(n);
        }
        std::sscanf(buf, "%d", &grandchild);
        ::dprintf(out[1], "%d %d %d\n", static_cast<int>(before), static_cast<int>(child), grandchild);
        if (!killed)
            ::_exit(0);
        for (;;)
            ::pause();
    }
    ::close(out[1]);
    pid_t pids[3] = {};
    const bool reported = readPids(out[0], pids);
    if (killed)
        ::kill(engine, SIGKILL);
    int status = 0;
    ::waitpid(engine, &status, 0);
    QVERIFY2(reported, "the engine process did not report its children");
    const pid_t before = pids[0], child = pids[1], grandchild = pids[2];
    QVERIFY(before > 0 && child > 0 && grandchild > 0);

    const bool childGone = goneWithin(child, 5000);
    const bool grandchildGone = goneWithin(grandchild, 5000);
    const bool eof = eofWithin(out[0], 5000);
    const bool unmarkedAlive = alive(before);
    for (const pid_t pid : {before, child, grandchild})
        ::kill(pid, SIGKILL); // whatever the verdict, leave nothing behind
    ::close(out[0]);
    QVERIFY2(childGone, "the engine's child outlived it by 5 s");
    QVERIFY2(grandchildGone, "the engine's grandchild outlived it by 5 s");
    QVERIFY2(eof, "the engine's stdout stayed open after it ended: the watchdog holds it");
    QVERIFY2(unmarkedAlive, "a process started before the reaper (without the mark) was killed");
}

void TestReaper::markIsStable()
{
    // In a child process, so the test process itself gets no watchdog.
    const pid_t pid = ::fork();
    QVERIFY(pid >= 0);
    if (pid == 0) {
        const std::string mark = Pipeline::startDescendantReaper();
        const std::string name = "AOTSTUDIO_REAP_" + std::to_string(::getpid());
        const char *value = std::getenv(name.c_str());
        const bool ok
            = !mark.empty() && value && mark == name + "=" + value && Pipeline::startDescendantReaper() == mark;
        ::_exit(ok ? 0 : 1);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);
}

void TestReaper::nativeBuildToolNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("tool");
    for (const char *n : {"cc1plus", "g++", "g++-14", "x86_64-linux-gnu-g++-14", "x86_64-linux-gnu-ld.bfd",
                          "x86_64-linux-gnu-as", "collect2", "clang++-19", "ld.lld", "ccache", "nvcc", "ptxas", "cc"})
        QTest::newRow(n) << QString::fromLatin1(n) << true;
    for (const char *n : {"python3", "python3.12", "aotstudio-engine", "aotstudio-run", "sleep", "make", "bash",
                          "ld-linux", "cc1plus-helper", "x86_64-g++", "assemble"})
        QTest::newRow(n) << QString::fromLatin1(n) << false;
}

void TestReaper::nativeBuildToolNames()
{
    QFETCH(QString, name);
    QFETCH(bool, tool);
    QCOMPARE(Pipeline::isNativeBuildTool(name.toStdString()), tool);
}

void TestReaper::endNativeBuildsEndsOnlyMarkedBuildTools()
{
    // A copy of sleep named cc1plus stands for the compiler (/proc/PID/exe names the file, so a
    // symlink would read as "sleep"). In a child process, so the test process gets no watchdog.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fake = dir.filePath(QStringLiteral("cc1plus"));
    QVERIFY(QFile::copy(QStringLiteral("/bin/sleep"), fake));
    QVERIFY(QFile::setPermissions(fake, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
    const std::string compiler = fake.toStdString();
    const pid_t pid = ::fork();
    QVERIFY(pid >= 0);
    if (pid == 0) {
        const auto spawn = [](const std::string &path) {
            const char *argv[] = {path.c_str(), "300", nullptr};
            pid_t p = 0;
            return ::posix_spawn(&p, path.c_str(), nullptr, nullptr, const_cast<char **>(argv), environ) == 0 ? p : -1;
        };
        const pid_t unmarked = spawn(compiler); // started before the reaper: not this engine's
        if (Pipeline::startDescendantReaper().empty())
            ::_exit(10);
        const pid_t marked = spawn(compiler);
        const pid_t other = spawn("/bin/sleep"); // a descendant that is no build tool
        ::usleep(200 * 1000); // let exec finish (/proc/PID/exe names the new image)
        const std::vector<Pipeline::EndedProcess> ended = Pipeline::endNativeBuilds();
        int status = 0;
        const bool markedKilled
            = ::waitpid(marked, &status, 0) == marked && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
        const bool othersAlive = alive(unmarked) && alive(other);
        ::kill(unmarked, SIGKILL);
        ::kill(other, SIGKILL);
        if (ended.size() != 1 || ended[0].pid != marked || ended[0].tool != "cc1plus")
            ::_exit(11);
        ::_exit(!markedKilled ? 12 : !othersAlive ? 13 : 0);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    QVERIFY(WIFEXITED(status));
    // 10: no reaper mark; 11: ended the wrong set; 12: the marked compiler lives; 13: others killed
    QCOMPARE(WEXITSTATUS(status), 0);
}

QTEST_GUILESS_MAIN(TestReaper)
#include "tst_reaper.moc"
