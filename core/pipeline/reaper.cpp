// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/reaper.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string_view>

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace AotStudio::Pipeline {

namespace {

// Everything below runs in the forked watchdog: system calls and plain loops only (no malloc, no
// locks, no stdio), since the parent may have had other threads when it forked.

struct LinuxDirent64 {
    unsigned long long ino;
    long long off;
    unsigned short reclen;
    unsigned char type;
    char name[1];
};

bool contains(const char *hay, std::size_t hayLen, const char *needle, std::size_t needleLen)
{
    if (needleLen == 0 || hayLen < needleLen)
        return false;
    for (std::size_t i = 0; i + needleLen <= hayLen; ++i)
        if (hay[i] == needle[0] && std::memcmp(hay + i, needle, needleLen) == 0)
            return true;
    return false;
}

/// Does /proc/<pid>/environ (pid given as its decimal name) hold `mark`? Reads in chunks, keeping
/// the last mark-length bytes of each so a match across a chunk boundary is found.
bool environHolds(const char *pidName, const char *mark, std::size_t markLen)
{
    char path[64] = "/proc/";
    std::size_t n = 6;
    for (const char *p = pidName; *p && n < sizeof path - 10; ++p)
        path[n++] = *p;
    std::memcpy(path + n, "/environ", 9);
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false; // gone, or not ours to read (another user's processes are not our descendants)
    char buf[8192];
    std::size_t kept = 0;
    bool found = false;
    for (;;) {
        const ssize_t got = ::read(fd, buf + kept, sizeof buf - kept);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        const std::size_t len = kept + static_cast<std::size_t>(got);
        if (contains(buf, len, mark, markLen)) {
            found = true;
            break;
        }
        kept = len < markLen ? len : markLen - 1;
        std::memmove(buf, buf + len - kept, kept);
    }
    ::close(fd);
    return found;
}

/// SIGKILLs every process (but this one) whose environment holds `mark`; returns how many.
int killMarked(const char *mark, std::size_t markLen)
{
    const int dir = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0)
        return 0;
    const pid_t self = ::getpid();
    int killed = 0;
    alignas(8) char buf[16384];
    for (;;) {
        const long got = ::syscall(SYS_getdents64, dir, buf, sizeof buf);
        if (got <= 0)
            break;
        for (long at = 0; at < got;) {
            const auto *d = reinterpret_cast<const LinuxDirent64 *>(buf + at);
            at += d->reclen;
            pid_t pid = 0;
            bool numeric = d->name[0] != '\0';
            for (const char *p = d->name; *p && numeric; ++p) {
                numeric = *p >= '0' && *p <= '9';
                pid = pid * 10 + (*p - '0');
            }
            if (!numeric || pid == self || pid <= 1)
                continue;
            if (environHolds(d->name, mark, markLen) && ::kill(pid, SIGKILL) == 0)
                ++killed;
        }
    }
    ::close(dir);
    return killed;
}

void ignoreSignal(int sig)
{
    struct sigaction sa = {};
    sa.sa_handler = SIG_IGN;
    ::sigaction(sig, &sa, nullptr);
}

void wakeOnly(int)
{ }

[[noreturn]] void watchdog(int readFd, pid_t parent, const char *mark, std::size_t markLen)
{
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ignoreSignal(SIGINT);
    ignoreSignal(SIGHUP);
    ignoreSignal(SIGTERM);
    ignoreSignal(SIGPIPE);
    ignoreSignal(SIGQUIT);
    struct sigaction wake = {};
    wake.sa_handler = wakeOnly; // interrupts poll(); the getppid() check below decides
    ::sigaction(SIGUSR1, &wake, nullptr);
    ::prctl(PR_SET_PDEATHSIG, SIGUSR1);
    ::prctl(PR_SET_NAME, "aotstudio-reap");
    // Hold nothing of the parent's: the studio sees the engine's stdout close when the engine dies.
    if (readFd != 0) {
        ::dup2(readFd, 0);
        ::close(readFd);
    }
    ::fcntl(0, F_SETFD, FD_CLOEXEC);
    ::close_range(1, ~0U, 0);

    while (::getppid() == parent) {
        pollfd p{0, POLLIN, 0};
        const int n = ::poll(&p, 1, 1000);
        if (n > 0) {
            char c;
            const ssize_t got = ::read(0, &c, 1);
            if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN))
                break; // the write end closed: the parent is gone
        }
    }
    // A process that was forking during a scan shows up in the next one: scan until one finds none.
    for (int pass = 0; pass < 40; ++pass) {
        if (killMarked(mark, markLen) == 0 && pass > 0)
            break;
        const timespec pause{0, 50 * 1000 * 1000};
        ::nanosleep(&pause, nullptr);
    }
    ::_exit(0);
}

std::string &reaperMark()
{
    static std::string mark;
    return mark;
}

} // namespace

bool isNativeBuildTool(std::string_view name)
{
    static constexpr std::string_view kTools[]
        = {"cc",      "c++",  "gcc",    "g++",     "cc1",       "cc1plus", "lto1",    "lto-wrapper", "collect2",
           "as",      "ld",   "ld.bfd", "ld.gold", "ld.lld",    "lld",     "clang",   "clang++",     "ccache",
           "sccache", "nvcc", "cicc",   "ptxas",   "fatbinary", "nvlink",  "cudafe++"};
    const auto known = [](std::string_view n) {
        for (std::string_view t : kTools)
            if (n == t)
                return true;
        return false;
    };
    // A version suffix: "g++-14", "clang++-19", "ld.lld-18".
    const auto dash = name.rfind('-');
    if (dash != std::string_view::npos && dash + 1 < name.size()
        && name.find_first_not_of("0123456789.", dash + 1) == std::string_view::npos)
        name = name.substr(0, dash);
    if (known(name))
        return true;
    // A target triple in front: "x86_64-linux-gnu-g++", "aarch64-linux-gnu-ld".
    const auto last = name.rfind('-');
    return last != std::string_view::npos && name.substr(0, last).find('-') != std::string_view::npos
        && known(name.substr(last + 1));
}

std::vector<EndedProcess> endNativeBuilds()
{
    std::vector<EndedProcess> ended;
    const std::string mark = reaperMark();
    if (mark.empty())
        return ended;
    namespace fs = std::filesystem;
    std::error_code ec;
    const pid_t self = ::getpid();
    for (fs::directory_iterator it("/proc", ec), end; !ec && it != end; it.increment(ec)) {
        const std::string pidName = it->path().filename().string();
        if (pidName.empty() || pidName.find_first_not_of("0123456789") != std::string::npos)
            continue;
        const pid_t pid = static_cast<pid_t>(std::stol(pidName));
        if (pid == self || pid <= 1)
            continue;
        // The executable's name (exe may be unreadable for a zombie; comm is cut at 15 bytes).
        std::string tool = fs::read_symlink(it->path() / "exe", ec).filename().string();
        if (ec || tool.empty()) {
            ec.clear();
            std::ifstream comm(it->path() / "comm");
            std::getline(comm, tool);
        }
        if (tool.empty() || !isNativeBuildTool(tool) || !environHolds(pidName.c_str(), mark.c_str(), mark.size()))
            continue;
        if (::kill(pid, SIGKILL) == 0)
            ended.push_back({static_cast<int>(pid), tool});
    }
    return ended;
}

std::string startDescendantReaper()
{
    static std::once_flag once;
    std::string &mark = reaperMark();
    std::call_once(once, [&mark] {
        const pid_t parent = ::getpid();
        timespec now{};
        ::clock_gettime(CLOCK_MONOTONIC, &now);
        char name[48], value[48];
        std::snprintf(name, sizeof name, "AOTSTUDIO_REAP_%d", static_cast<int>(parent));
        std::snprintf(value, sizeof value, "%lx%lx", static_cast<unsigned long>(now.tv_nsec),
                      static_cast<unsigned long>(now.tv_sec));
        const std::string entry = std::string(name) + "=" + value;
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0)
            return;
        if (::setenv(name, value, 1) != 0) {
            ::close(fds[0]);
            ::close(fds[1]);
            return;
        }
        const pid_t pid = ::_Fork();
        if (pid == 0)
            watchdog(fds[0], parent, entry.c_str(), entry.size());
        ::close(fds[0]);
        if (pid < 0) {
            ::close(fds[1]);
            ::unsetenv(name);
            return;
        }
        // fds[1] stays open for the life of this process: its closing is the watchdog's signal.
        mark = entry;
    });
    return mark;
}

} // namespace AotStudio::Pipeline
