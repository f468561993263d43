// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessionengine.h"

#include "pipeline/engine.h"
#include "process/childprocess.h"
#include "protocol/linewriter.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <thread>

#include <cerrno>
#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

namespace AotStudio::EngineApp {

using Protocol::Json;
namespace fs = std::filesystem;

namespace {

std::string env(const char *name)
{
    const char *v = std::getenv(name);
    return v ? v : "";
}

constexpr const char *kChooseFolder = " (set AOTSTUDIO_RUNTIME_DIR to a folder of this user's, mode 0700)";

fs::path socketPath(const fs::path &folder, const std::string &id)
{
    return folder / ("engine-" + id + ".sock");
}

/// A connected stream socket to `path`, close-on-exec; -1 when nothing listens there.
int connectUnix(const fs::path &path)
{
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string p = path.string();
    if (p.size() >= sizeof(address.sun_path))
        return -1;
    std::memcpy(address.sun_path, p.c_str(), p.size() + 1);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

/// Writes all of `data` to `fd`; false on an error (the peer gone, or a send timeout).
bool writeAll(int fd, const char *data, std::size_t size, bool socket)
{
    while (size > 0) {
        const ssize_t n = socket ? ::send(fd, data, size, MSG_NOSIGNAL) : ::write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= std::size_t(n);
    }
    return true;
}

/// The last non-empty line of a file (a detached engine's log), for a message.
std::string lastLine(const fs::path &path)
{
    std::FILE *f = std::fopen(path.c_str(), "r");
    if (!f)
        return {};
    std::string last;
    char buffer[4096];
    while (std::fgets(buffer, sizeof(buffer), f)) {
        std::string line(buffer);
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
            line.pop_back();
        if (!line.empty())
            last = line;
    }
    std::fclose(f);
    return last;
}

/// A listening socket at `path` (mode 0600), close-on-exec, replacing a stale socket file there
/// (the caller holds the session's lock); -1 with a line on stderr when it cannot.
int listenUnix(const fs::path &path)
{
    ::unlink(path.c_str());
    const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, path.c_str(), path.string().size() + 1);
    const mode_t mask = ::umask(077); // the socket file is created 0600 by bind
    const bool bound = listener >= 0 && ::bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof(address)) == 0;
    ::umask(mask);
    if (!bound || ::listen(listener, 4) != 0) {
        std::fprintf(stderr, "aotstudio-engine: cannot listen on %s: %s\n", path.c_str(), std::strerror(errno));
        if (listener >= 0)
            ::close(listener);
        return -1;
    }
    ::chmod(path.c_str(), 0600);
    return listener;
}

std::string randomHex(std::size_t bytes)
{
    std::random_device device;
    std::string out;
    static const char *digits = "0123456789abcdef";
    for (std::size_t i = 0; i < bytes; ++i) {
        const unsigned v = device() & 0xff;
        out += digits[v >> 4];
        out += digits[v & 15];
    }
    return out;
}

} // namespace

std::string checkSessionId(const std::string &id)
{
    if (id.empty() || id.size() > 64)
        return "a session id has 1 to 64 characters";
    for (const char c : id) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-')
            return "a session id holds letters, digits, '_' and '-' only";
    }
    return {};
}

fs::path sessionFolder(std::string *error)
{
    // Not $XDG_RUNTIME_DIR: logind removes it when the user's last session ends, which is what a
    // dropped link of the only ssh session is; the socket would go with it and the reconnect would
    // start a second engine beside the first (tmux keeps its socket out of it for the same reason).
    fs::path folder;
    if (const std::string own = env("AOTSTUDIO_RUNTIME_DIR"); !own.empty())
        folder = own;
    else if (const std::string cache = env("XDG_CACHE_HOME"); !cache.empty())
        folder = fs::path(cache) / "aotstudio" / "engines";
    else if (const std::string home = env("HOME"); !home.empty())
        folder = fs::path(home) / ".cache" / "aotstudio" / "engines";
    else {
        *error = "neither AOTSTUDIO_RUNTIME_DIR, XDG_CACHE_HOME nor HOME is set";
        return {};
    }
    std::error_code ec;
    if (!fs::is_directory(folder)) {
        fs::create_directories(folder.parent_path(), ec);
        if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST) {
            *error = "cannot create " + folder.string() + ": " + std::strerror(errno) + kChooseFolder;
            return {};
        }
    }
    struct stat st {
    };
    if (::stat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        *error = folder.string() + " is not a folder";
        return {};
    }
    if (st.st_uid != ::getuid() || (st.st_mode & 077) != 0) {
        *error = folder.string() + " must be this user's with mode 0700 (others could reach its engines)";
        return {};
    }
    // The socket, lock file and log are created here: a folder that takes no file (read-only, full,
    // another file system's rules) is said now, naming it, not as a failed start of the engine.
    const fs::path probe = folder / (".probe-" + std::to_string(::getpid()));
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        *error = "cannot create files in " + folder.string() + ": " + std::strerror(errno) + kChooseFolder;
        return {};
    }
    ::close(fd);
    ::unlink(probe.c_str());
    return folder;
}

int runRelay(const SessionOptions &options, const std::vector<std::string> &daemonArgv)
{
    std::signal(SIGPIPE, SIG_IGN);
    std::FILE *protocolOut = Protocol::takeStdoutForProtocol();
    const int out = ::fileno(protocolOut);
    ::fcntl(out, F_SETFD, FD_CLOEXEC); // the detached engine must not hold the ssh channel open
    std::string why;
    const fs::path folder = sessionFolder(&why);
    if (folder.empty()) {
        std::fprintf(stderr, "aotstudio-engine: cannot start the session's engine: %s\n", why.c_str());
        return 1;
    }
    const fs::path socket = socketPath(folder, options.id);
    if (socket.string().size() >= sizeof(sockaddr_un::sun_path)) {
        std::fprintf(
            stderr, "aotstudio-engine: the socket path %s is too long; set AOTSTUDIO_RUNTIME_DIR to a shorter folder\n",
            socket.c_str());
        return 1;
    }
    int engine = connectUnix(socket);
    if (engine < 0) {
        const fs::path log = folder / ("engine-" + options.id + ".log");
        const Process::DetachedChild child = Process::spawnDetached(daemonArgv, log.string());
        if (!child.error.empty()) {
            std::fprintf(stderr, "aotstudio-engine: cannot start the detached engine: %s\n", child.error.c_str());
            return 1;
        }
        // It listens before it imports torch; another relay's engine may win the lock (it exits 0).
        bool exited = false;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
        while (engine < 0 && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            engine = connectUnix(socket);
            if (engine < 0 && !exited && ::waitpid(child.pid, nullptr, WNOHANG) == child.pid) {
                exited = true; // keep trying for a while: the lock's winner may still be binding
                const auto soon = std::chrono::steady_clock::now() + std::chrono::seconds(5);
                while (engine < 0 && std::chrono::steady_clock::now() < soon) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(50));
                    engine = connectUnix(socket);
                }
                break;
            }
        }
        if (engine < 0) {
            std::fprintf(stderr, "aotstudio-engine: the detached engine of session %s did not listen on %s: %s\n",
                         options.id.c_str(), socket.c_str(), lastLine(log).c_str());
            return 1;
        }
    }

    // Copy both ways. stdin's end (the client closed it, or ssh went away) is passed on as a
    // half-close: the engine then lets this connection go (detaching, or after `shutdown`, ending).
    std::vector<char> buffer(1 << 16);
    bool inputOpen = true;
    for (;;) {
        pollfd fds[2] = {{engine, POLLIN, 0}, {inputOpen ? STDIN_FILENO : -1, POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return 0;
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            const ssize_t n = ::read(engine, buffer.data(), buffer.size());
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0 || !writeAll(out, buffer.data(), std::size_t(n), false))
                return 0; // the engine closed (replaced by a newer client, or ended), or stdout is gone
        }
        if (inputOpen && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            const ssize_t n = ::read(STDIN_FILENO, buffer.data(), buffer.size());
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                inputOpen = false;
                ::shutdown(engine, SHUT_WR);
            } else if (!writeAll(engine, buffer.data(), std::size_t(n), true)) {
                return 0;
            }
        }
    }
}

namespace {

/// The detached engine's connection and replay state; the Engine's sink and the accepting thread
/// meet here under one mutex (the sink runs on the worker thread and on the caller's).
class DetachedEngine
{
public:
    explicit DetachedEngine(const SessionOptions &options)
        : m_options(options)
        , m_instance(randomHex(8))
    { }

    int run();

private:
    enum class JobState { Queued, Running, Finished };
    struct JobEntry {
        JobState state = JobState::Queued;
        std::uint64_t firstSeq = 0; ///< the job's first numbered event; 0: none yet
        std::uint64_t lastSeq = 0; ///< its newest (its `result` or `error` once finished)
    };

    struct Buffered {
        std::uint64_t seq = 0;
        std::string line;
    };

    void sink(const Json &event);
    /// Writes one line to the client; on failure lets the client go (the reader closes it).
    void writeLocked(const std::string &line);
    void attach(std::int64_t id, std::uint64_t after);
    /// False after `shutdown`.
    bool handleLine(const std::string &line);
    bool busy();

    SessionOptions m_options;
    std::string m_instance;
    Pipeline::Engine *m_engine = nullptr;
    std::mutex m_mutex;
    int m_client = -1; ///< the connected relay; opened and closed by run() only
    bool m_attached = false; ///< the client has been replayed to and gets live events
    bool m_clientBroken = false;
    std::uint64_t m_seq = 0;
    std::deque<Buffered> m_buffer;
    std::size_t m_bufferBytes = 0;
    std::set<std::int64_t> m_transport; ///< ids of read, ping and cancel requests: answered live only
    std::map<std::int64_t, JobEntry> m_jobs;
    Json m_hello;
    std::optional<Json> m_startupError;
};

void DetachedEngine::writeLocked(const std::string &line)
{
    if (m_client < 0 || m_clientBroken)
        return;
    std::string framed = line;
    framed += '\n';
    if (!writeAll(m_client, framed.data(), framed.size(), true)) {
        // Gone or stuck past the send timeout: stop writing; run() sees the end and closes it.
        m_clientBroken = true;
        m_attached = false;
        ::shutdown(m_client, SHUT_RDWR);
    }
}

void DetachedEngine::sink(const Json &event)
{
    std::lock_guard lock(m_mutex);
    const std::int64_t id = event.value("id", std::int64_t(0));
    const std::string type = event.value("type", std::string());
    if (type == "data" || type == "pong" || (id != 0 && m_transport.count(id))) {
        if (type == "data" || type == "pong" || type == "error")
            m_transport.erase(id);
        if (m_attached)
            writeLocked(Protocol::toLine(event));
        return;
    }
    Json numbered = event;
    numbered["seq"] = ++m_seq;
    std::string line = Protocol::toLine(numbered);
    if (const auto job = m_jobs.find(id); id != 0 && job != m_jobs.end()) {
        if (type == "result" || type == "error")
            job->second.state = JobState::Finished;
        else if (job->second.state == JobState::Queued)
            job->second.state = JobState::Running;
        if (job->second.firstSeq == 0)
            job->second.firstSeq = m_seq;
        job->second.lastSeq = m_seq;
    }
    if (m_attached)
        writeLocked(line);
    m_bufferBytes += line.size();
    m_buffer.push_back({m_seq, std::move(line)});
    while (!m_buffer.empty() && (m_buffer.size() > m_options.replayEvents || m_bufferBytes > kReplayBufferBytes)) {
        m_bufferBytes -= m_buffer.front().line.size();
        m_buffer.pop_front();
    }
    // Forget the oldest finished jobs beyond 1024 (their events have gone or will go first).
    std::size_t finished = 0;
    for (const auto &[jobId, job] : m_jobs)
        finished += job.state == JobState::Finished;
    for (auto it = m_jobs.begin(); finished > 1024 && it != m_jobs.end();) {
        if (it->second.state == JobState::Finished) {
            it = m_jobs.erase(it);
            --finished;
        } else {
            ++it;
        }
    }
}

void DetachedEngine::attach(std::int64_t id, std::uint64_t after)
{
    std::lock_guard lock(m_mutex);
    const std::uint64_t first = m_buffer.empty() ? m_seq + 1 : m_buffer.front().seq;
    Json jobs = Json::array();
    // Each job with the seq range of its events: a client that missed some (a gap) can tell which
    // jobs they belonged to, and whether a finished job's end is still replayed.
    for (const auto &[jobId, job] : m_jobs)
        jobs.push_back({{"id", jobId},
                        {"state",
                         job.state == JobState::Queued        ? "queued"
                             : job.state == JobState::Running ? "running"
                                                              : "finished"},
                        {"first_seq", job.firstSeq},
                        {"last_seq", job.lastSeq}});
    std::uint64_t replayed = 0;
    for (const Buffered &b : m_buffer)
        replayed += b.seq > after;
    writeLocked(Protocol::toLine(Json{{"type", "attached"},
                                      {"id", id},
                                      {"session", m_options.id},
                                      {"instance", m_instance},
                                      {"after", after},
                                      {"first_seq", first},
                                      {"last_seq", m_seq},
                                      {"replayed", replayed},
                                      {"gap", after + 1 < first && after < m_seq},
                                      {"jobs", jobs}}));
    for (const Buffered &b : m_buffer)
        if (b.seq > after)
            writeLocked(b.line);
    m_attached = !m_clientBroken;
}

bool DetachedEngine::handleLine(const std::string &line)
{
    Protocol::Error error;
    const auto request = Protocol::parseRequest(line, error);
    if (!request) {
        sink(Protocol::makeError(0, error));
        return true;
    }
    if (request->type == "attach") {
        const auto after = request->body.find("after");
        attach(request->id,
               after != request->body.end() && after->is_number_unsigned() ? after->get<std::uint64_t>() : 0);
        return true;
    }
    {
        std::lock_guard lock(m_mutex);
        m_attached = m_attached || !m_clientBroken; // a client that never attaches gets live events from here
        if (request->type == "read" || request->type == "ping" || request->type == "cancel")
            m_transport.insert(request->id);
        else if (Pipeline::Engine::isJobType(request->type) && !m_jobs.count(request->id))
            m_jobs[request->id] = JobEntry{};
    }
    return m_engine->handle(*request);
}

bool DetachedEngine::busy()
{
    std::lock_guard lock(m_mutex);
    for (const auto &[id, job] : m_jobs)
        if (job.state != JobState::Finished)
            return true;
    return false;
}

int DetachedEngine::run()
{
    std::signal(SIGPIPE, SIG_IGN);
    std::signal(SIGHUP, SIG_IGN);
    std::string why;
    const fs::path folder = sessionFolder(&why);
    if (folder.empty()) {
        std::fprintf(stderr, "aotstudio-engine: session %s: %s\n", m_options.id.c_str(), why.c_str());
        return 2;
    }
    const fs::path lockPath = folder / ("engine-" + m_options.id + ".lock");
    const fs::path socket = socketPath(folder, m_options.id);
    const int lockFd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lockFd < 0 || ::flock(lockFd, LOCK_EX | LOCK_NB) != 0) {
        std::fprintf(stderr, "aotstudio-engine: session %s already has an engine (%s is locked)\n",
                     m_options.id.c_str(), lockPath.c_str());
        return 0;
    }
    const int listener = listenUnix(socket);
    if (listener < 0)
        return 2;
    std::fprintf(stderr, "aotstudio-engine: session %s (instance %s, pid %d) listening on %s; idle exit after %d s\n",
                 m_options.id.c_str(), m_instance.c_str(), int(::getpid()), socket.c_str(), m_options.idleExitSeconds);

    Pipeline::Engine engine([this](const Json &event) { sink(event); });
    m_engine = &engine;
    for (const auto &f : m_options.readFolders)
        engine.addReadFolder(fs::absolute(f));
    m_hello = engine.start();
    m_hello["session"] = {{"id", m_options.id},
                          {"instance", m_instance},
                          {"pid", int(::getpid())},
                          {"idle_exit_seconds", m_options.idleExitSeconds}};
    if (auto error = engine.startupError())
        m_startupError = Protocol::makeError(0, *error);

    const auto leave = [&](int status) {
        // A clean end leaves nothing behind (a killed engine leaves its lock and log: the next
        // engine of the session takes the lock over, and the log says what happened).
        ::unlink(socket.c_str());
        ::unlink(lockPath.c_str());
        ::unlink((folder / ("engine-" + m_options.id + ".log")).c_str());
        std::fflush(nullptr);
        std::_Exit(status); // Python is never finalized (core/python/frontend.h)
    };
    std::string input;
    bool discarding = false; // inside a line over the limit
    std::vector<char> chunk(1 << 16);
    auto idleSince = std::chrono::steady_clock::now();
    for (;;) {
        int client;
        {
            std::lock_guard lock(m_mutex);
            client = m_client;
        }
        pollfd fds[2] = {{listener, POLLIN, 0}, {client, POLLIN, 0}};
        if (::poll(fds, 2, 1000) < 0 && errno != EINTR)
            leave(2);
        if (fds[0].revents & POLLIN) {
            const int accepted = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
            if (accepted >= 0) {
                timeval timeout{30, 0}; // a client that stops reading for 30 s is let go
                ::setsockopt(accepted, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
                std::lock_guard lock(m_mutex);
                if (m_client >= 0) { // the newer link wins; the old relay sees its end and exits
                    // Told why first, without waiting (a dead link's relay may not read): a client
                    // that is still there must not reconnect and take the session back in turn.
                    const std::string notice
                        = Protocol::toLine(Json{{"type", "detached"},
                                                {"id", 0},
                                                {"reason", "replaced"},
                                                {"session", m_options.id},
                                                {"message", "another client attached to session " + m_options.id}})
                        + '\n';
                    (void)::send(m_client, notice.data(), notice.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
                    ::shutdown(m_client, SHUT_RDWR);
                    ::close(m_client);
                }
                m_client = accepted;
                m_clientBroken = false;
                m_attached = false;
                input.clear();
                discarding = false;
                writeLocked(Protocol::toLine(m_hello));
                if (m_startupError)
                    writeLocked(Protocol::toLine(*m_startupError));
                continue; // poll again: the old client's descriptor is gone
            }
        }
        if (client >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            const ssize_t n = ::read(client, chunk.data(), chunk.size());
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) { // the relay ended (the link dropped, or the client left): jobs go on
                std::lock_guard lock(m_mutex);
                ::close(m_client);
                m_client = -1;
                m_attached = false;
                idleSince = std::chrono::steady_clock::now();
                continue;
            }
            for (ssize_t i = 0; i < n; ++i) {
                const char c = chunk[std::size_t(i)];
                if (c != '\n') {
                    if (!discarding && input.size() < Protocol::kMaxLineBytes)
                        input += c;
                    else if (!discarding) {
                        discarding = true;
                        input.clear();
                    }
                    continue;
                }
                if (discarding) {
                    discarding = false;
                    sink(Protocol::makeError(
                        0,
                        {"protocol", Protocol::Code::BadRequest,
                         "request line longer than 16 MiB, the protocol's line limit: skipped",
                         "send large data as files and name them in the request (FORMAT.md \"Framing\")"}));
                    continue;
                }
                std::string line = std::move(input);
                input.clear();
                if (!line.empty() && line.back() == '\r')
                    line.pop_back();
                if (line.empty())
                    continue;
                if (!handleLine(line)) { // shutdown: finish the running stage, then leave
                    ::close(listener);
                    ::unlink(socket.c_str());
                    engine.waitIdle();
                    leave(0);
                }
            }
        }
        // Idle: no client and nothing queued or running, for idleExitSeconds.
        bool connected;
        {
            std::lock_guard lock(m_mutex);
            connected = m_client >= 0;
        }
        if (connected || busy())
            idleSince = std::chrono::steady_clock::now();
        else if (std::chrono::steady_clock::now() - idleSince >= std::chrono::seconds(m_options.idleExitSeconds)) {
            std::fprintf(stderr, "aotstudio-engine: session %s: no client and no job for %d s, exiting\n",
                         m_options.id.c_str(), m_options.idleExitSeconds);
            leave(0);
        }
    }
}

} // namespace

int runDetachedEngine(const SessionOptions &options)
{
    DetachedEngine engine(options);
    return engine.run();
}

} // namespace AotStudio::EngineApp
