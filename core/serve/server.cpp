// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-run --serve (server.h): the request lines, the socket's private folder, the clients,
// the `stats` answer, and the loop around the worker pool.
#include "serve/server.h"

#include "bundle/text.h"
#include "profiler/machine.h"
#include "protocol/envelope.h"
#include "serve/serveerror.h"
#include "serve/stopsignals_p.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace AotStudio::Serve {

using nlohmann::json;
namespace fs = std::filesystem;

ParsedLine parseRequest(const std::string &line)
{
    ParsedLine p;
    const json j = json::parse(line, nullptr, false);
    const auto bad = [&](const std::string &message) {
        p.error = {{"id", p.id}, {"ok", false}, {"error", errorJson("request", message)}};
        return p;
    };
    if (j.is_discarded() || !j.is_object())
        return bad("not a JSON object: " + line.substr(0, 200));
    p.id = j.value("id", json());
    for (const auto &[key, value] : j.items())
        if (key != "id" && key != "batch" && key != "seed" && key != "input" && key != "shutdown" && key != "stats")
            return bad("unknown field \"" + key + "\" (a request has id, batch, seed, input, shutdown or stats)");
    for (const char *flag : {"shutdown", "stats"})
        if (j.contains(flag) && !j[flag].is_boolean())
            return bad(std::string("\"") + flag + "\" must be true or false");
    if (j.value("shutdown", false)) {
        p.shutdown = true;
        return p;
    }
    if (j.value("stats", false)) {
        p.stats = true;
        return p;
    }
    Job job;
    job.id = p.id;
    if (j.contains("batch")) {
        if (!j["batch"].is_number_integer() || j["batch"].get<long long>() < 1)
            return bad("\"batch\" must be an integer of at least 1");
        job.request.batch = j["batch"].get<long long>();
    }
    if (j.contains("seed")) {
        if (!j["seed"].is_number_unsigned())
            return bad("\"seed\" must be a non-negative integer");
        job.request.seed = j["seed"].get<std::uint64_t>();
    }
    if (j.contains("input")) {
        if (!j["input"].is_string() || j["input"].get<std::string>().empty())
            return bad("\"input\" must be the path of a torch.save file");
        job.request.input = j["input"].get<std::string>();
    }
    job.arrival = Clock::now();
    p.job = std::move(job);
    return p;
}

namespace {

/// The socket's private folder: made with mode 0700 (it must not exist), removed with the socket.
class SocketFolder
{
public:
    explicit SocketFolder(const std::string &socketPath)
        : m_socket(fs::absolute(socketPath))
        , m_folder(m_socket.parent_path())
    {
        sockaddr_un addr{};
        if (m_socket.string().size() >= sizeof addr.sun_path)
            throw UsageError("--socket '" + socketPath + "': longer than a Unix socket path may be ("
                             + std::to_string(sizeof addr.sun_path - 1) + " bytes)");
        if (::mkdir(m_folder.c_str(), 0700) != 0)
            throw UsageError("--socket '" + socketPath + "': cannot make its private folder '" + m_folder.string()
                             + "': " + std::strerror(errno)
                             + (errno == EEXIST ? " (it must not exist: the server makes it, mode 0700)" : ""));
        m_made = true;
        ::chmod(m_folder.c_str(), 0700); // whatever the umask
        m_fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        addr.sun_family = AF_UNIX;
        std::memcpy(addr.sun_path, m_socket.c_str(), m_socket.string().size());
        if (m_fd < 0 || ::bind(m_fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0
            || ::listen(m_fd, 64) != 0) {
            const std::string why = std::strerror(errno);
            cleanup();
            throw UsageError("--socket '" + socketPath + "': " + why);
        }
    }
    ~SocketFolder() { cleanup(); }
    SocketFolder(const SocketFolder &) = delete;
    SocketFolder &operator=(const SocketFolder &) = delete;
    int fd() const { return m_fd; }
    const fs::path &path() const { return m_socket; }

private:
    void cleanup()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
        if (m_made) {
            ::unlink(m_socket.c_str());
            ::rmdir(m_folder.c_str());
        }
        m_made = false;
    }
    fs::path m_socket, m_folder;
    int m_fd = -1;
    bool m_made = false;
};

/// This process's resident set, bytes (/proc/self/status VmRSS, proc(5)); -1 when unreadable.
long long residentBytes()
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmRSS:", 0) == 0)
            return std::atoll(line.c_str() + 6) * 1024; // "VmRSS:   123456 kB"
    return -1;
}

/// Descriptors this process has open (entries of /proc/self/fd, the one opened to list them
/// excluded); -1 when unreadable.
long long openDescriptors()
{
    std::error_code ec;
    long long n = 0;
    for (fs::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end; it.increment(ec))
        ++n;
    return ec ? -1 : n - 1;
}

/// The server: its clients (id 0: the input and output descriptors; others: socket connections),
/// the pool, and the shutdowns answered once the requests in flight are done.
class Server
{
public:
    Server(WorkerBody &body, const ServeOptions &options)
        : m_options(options)
        , m_socket(options.socketPath.empty() ? nullptr : std::make_unique<SocketFolder>(options.socketPath))
        , m_pool(body, options)
        , m_monitor(Profiler::usableCpus().usable)
    {
        if (m_socket)
            m_serverFds.push_back(m_socket->fd());
        else
            m_clients[0] = Client{options.inputFd, {}, false};
        m_pool.serverFds = &m_serverFds;
        m_pool.start();
        // The `stats` request's machine verdict covers the time since the server started serving;
        // its procs_running samples are taken once per stats request.
        m_monitor.begin();
        m_servingSince = Clock::now();
        std::fprintf(stderr, "aotstudio-run: serving '%s' on %s (isolation %s, %d worker%s)\n",
                     Bundle::validUtf8(body.subject().name).c_str(), m_socket ? m_socket->path().c_str() : "stdin",
                     isolationName(options.isolation), options.workers, options.workers == 1 ? "" : "s");
    }

    int run()
    {
        while (!(m_draining && m_pool.idle()) && stopSignal() == 0)
            pollOnce();
        if (stopSignal() == 0)
            for (const auto &[client, response] : m_shutdowns)
                send(client, response);
        m_pool.stop();
        for (const auto &[id, c] : m_clients)
            if (id != 0)
                ::close(c.fd);
        // SIGTERM and SIGHUP are how a service manager stops a server: a clean end (0). Ctrl-C is
        // a cancel, as everywhere else: 130.
        return stopSignal() == SIGINT ? Protocol::kExitCancelled : Protocol::kExitOk;
    }

private:
    struct Client {
        int fd = -1;
        std::string buf;
        bool skipping = false; ///< the rest of an oversized line is being read and dropped
    };

    /// One wait of the pool: answers sent, a new connection accepted, what clients sent handled.
    void pollOnce()
    {
        std::vector<pollfd> extra;
        std::vector<int> extraClient; // -1: the listening socket
        if (!m_draining) {
            if (m_socket) {
                extra.push_back({m_socket->fd(), POLLIN, 0});
                extraClient.push_back(-1);
            }
            for (const auto &[id, c] : m_clients) {
                extra.push_back({c.fd, POLLIN, 0});
                extraClient.push_back(id);
            }
        }
        for (auto &c : m_pool.poll(extra, -1, m_signals.waitMask()))
            send(c.job.client, c.response);
        for (std::size_t k = 0; k < extra.size() && !m_draining; ++k) {
            if (!extra[k].revents)
                continue;
            if (extraClient[k] < 0)
                accept();
            else
                readClient(extraClient[k]);
        }
    }

    void accept()
    {
        const int fd = ::accept4(m_socket->fd(), nullptr, nullptr, SOCK_CLOEXEC);
        if (fd >= 0) {
            m_clients[m_nextClient++] = Client{fd, {}, false};
            m_serverFds.push_back(fd);
        }
    }

    void readClient(int id)
    {
        Client &c = m_clients[id];
        char chunk[65536];
        const ssize_t n = ::read(c.fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            return;
        const bool eof = n <= 0;
        if (n > 0)
            c.buf.append(chunk, static_cast<std::size_t>(n));
        else if (!c.buf.empty() && !c.skipping)
            c.buf += '\n'; // a last line without its newline
        takeLines(id, c);
        // An oversized line, once dropped, must not leave its megabyte reserved for the
        // connection's life (the soak saw the server's RSS grow by one line per client).
        if (c.buf.capacity() > 65536 && c.buf.size() < 4096)
            c.buf.shrink_to_fit();
        if (!eof)
            return;
        if (id == 0) {
            m_draining = true; // end of input: finish what is running, then exit
        } else {
            std::erase(m_serverFds, c.fd);
            ::close(c.fd);
            m_clients.erase(id);
        }
    }

    /// Handle the complete lines in `c`'s buffer; an oversized one is answered and skipped.
    void takeLines(int id, Client &c)
    {
        for (;;) {
            if (c.skipping) { // the rest of an oversized line, already answered
                const auto nl = c.buf.find('\n');
                c.buf.erase(0, nl == std::string::npos ? c.buf.size() : nl + 1);
                c.skipping = nl == std::string::npos;
                if (c.skipping)
                    return;
            }
            const auto nl = c.buf.find('\n');
            if (nl == std::string::npos ? c.buf.size() > kMaxRequestLineBytes : nl > kMaxRequestLineBytes) {
                send(id,
                     json{{"id", nullptr},
                          {"ok", false},
                          {"error",
                           errorJson("request",
                                     "a request line longer than " + std::to_string(kMaxRequestLineBytes)
                                         + " bytes was dropped unread (it starts "
                                         + Bundle::validUtf8(c.buf.substr(0, 80))
                                         + "); a request is one short JSON object per line")}});
                c.skipping = true;
                continue;
            }
            if (nl == std::string::npos || m_draining)
                return;
            const std::string line = c.buf.substr(0, nl);
            c.buf.erase(0, nl + 1);
            if (line.find_first_not_of(" \t\r") != std::string::npos)
                handleLine(id, line);
        }
    }

    void handleLine(int id, const std::string &line)
    {
        ParsedLine p = parseRequest(line);
        if (!p.error.is_null()) {
            send(id, p.error);
        } else if (p.stats) {
            send(id, json{{"id", p.id}, {"ok", true}, {"stats", stats()}});
        } else if (p.shutdown) {
            m_shutdowns.push_back({id, json{{"id", p.id}, {"ok", true}, {"shutdown", true}}});
            m_draining = true;
        } else {
            p.job->client = id;
            m_pool.submit(std::move(*p.job));
        }
    }

    /// The `stats` answer (SERVING.md "Requests").
    json stats()
    {
        m_monitor.round();
        m_monitor.end();
        const auto &k = m_pool.counters();
        json workers = json::array();
        for (pid_t pid : m_pool.workerPids())
            workers.push_back(pid);
        return {{"pid", ::getpid()},
                {"uptime_s", msBetween(m_servingSince, Clock::now()) / 1000.0},
                {"rss_bytes", residentBytes()},
                {"open_fds", openDescriptors()},
                {"clients", m_clients.size()},
                {"workers", workers},
                {"workers_forked", k.forked},
                {"workers_died", k.died},
                {"workers_replaced", k.replaced},
                {"answered", k.answered},
                {"failed", k.failed},
                {"queued", m_pool.queued()},
                {"in_flight", m_pool.inFlight()},
                {"measurement", m_monitor.json({})}};
    }

    void send(int client, const json &response)
    {
        const auto it = m_clients.find(client);
        if (it == m_clients.end())
            return; // the client went away: its answer is dropped
        // A client that went away fails the write; its end of file, read next, closes it.
        writeAll(client == 0 ? m_options.outputFd : it->second.fd, Bundle::dumpJson(response) + "\n", client != 0);
    }

    const ServeOptions &m_options;
    StopSignals m_signals; // first: blocked before anything starts, restored last
    std::unique_ptr<SocketFolder> m_socket;
    std::map<int, Client> m_clients; // by id; id 0 is the input and output descriptors
    int m_nextClient = 1;
    std::vector<int> m_serverFds;
    WorkerPool m_pool;
    Profiler::MachineMonitor m_monitor;
    Clock::time_point m_servingSince;
    std::vector<std::pair<int, json>> m_shutdowns; // answered once the requests in flight are done
    bool m_draining = false;
};

} // namespace

int serve(WorkerBody &body, const ServeOptions &options)
{
    Server server(body, options);
    return server.run();
}

} // namespace AotStudio::Serve
