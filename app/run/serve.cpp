// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-run --serve and the burst replay: the scheduler and its worker processes (serve.h).
#include "serve.h"

#include "protocol/envelope.h"

#include "workerpool.h"

#include "bundle/text.h"
#include "profiler/gpubusy.h"
#include "profiler/machine.h"
#include "profiler/paired.h"
#include "profiler/statistics.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>

#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>

namespace AotStudio::RunApp {

using nlohmann::json;
namespace fs = std::filesystem;

const char *isolationName(Isolation isolation)
{
    switch (isolation) {
    case Isolation::Request:
        return "request";
    case Isolation::Worker:
        return "worker";
    case Isolation::Spawn:
        return "spawn";
    case Isolation::Eager:
        return "eager";
    }
    return "?";
}

std::vector<std::string> splitCommandLine(const std::string &line)
{
    wordexp_t w {};
    // WRDE_NOCMD: $(...) and backquotes are an error, never run; WRDE_UNDEF: so is an unset $VAR.
    const int rc = ::wordexp(line.c_str(), &w, WRDE_NOCMD | WRDE_UNDEF);
    std::vector<std::string> words;
    if (rc == 0) {
        for (std::size_t i = 0; i < w.we_wordc; ++i)
            words.emplace_back(w.we_wordv[i]);
    }
    if (rc == 0 || rc == WRDE_NOSPACE)
        ::wordfree(&w);
    const char *why = rc == WRDE_BADCHAR ? "an unquoted |, &, ;, <, >, (, ), { or }"
        : rc == WRDE_CMDSUB              ? "a command substitution ($(...) or backquotes), which is not run"
        : rc == WRDE_BADVAL              ? "an unset variable"
        : rc == WRDE_SYNTAX              ? "a syntax error (an unmatched quote?)"
        : rc != 0                        ? "out of memory"
        : words.empty()                  ? "no command"
                                         : nullptr;
    if (why)
        throw UsageError("--eager-server '" + Bundle::validUtf8(line) + "': " + why);
    return words;
}

namespace {

volatile std::sig_atomic_t g_stopSignal = 0;

void onStopSignal(int sig)
{
    g_stopSignal = sig;
}

/// A request line: a job, a shutdown, or an error response (id null when the line is not a JSON
/// object).
struct ParsedLine {
    std::optional<Job> job;
    bool shutdown = false;
    bool stats = false;
    json id;
    json error; ///< a response line when the request is refused here
};

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
    // Unknown fields are refused, not ignored: a misspelt "seed" would otherwise run with seed 0.
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

/// SIGTERM, SIGINT and SIGHUP are blocked except during ppoll(), whose mask lets them in: the
/// loop sees g_stopSignal without a race. SIGPIPE is ignored (a client that went away).
struct SignalGuard {
    sigset_t waitMask;
    sigset_t oldMask;
    struct sigaction oldActions[3];
    static constexpr int kSignals[3] = {SIGTERM, SIGINT, SIGHUP};
    struct sigaction oldPipe;

    SignalGuard()
    {
        g_stopSignal = 0;
        sigset_t block;
        sigemptyset(&block);
        for (int s : kSignals)
            sigaddset(&block, s);
        ::sigprocmask(SIG_BLOCK, &block, &oldMask);
        waitMask = oldMask;
        for (int s : kSignals)
            sigdelset(&waitMask, s);
        struct sigaction sa {
        };
        sa.sa_handler = onStopSignal;
        sigemptyset(&sa.sa_mask);
        for (int i = 0; i < 3; ++i)
            ::sigaction(kSignals[i], &sa, &oldActions[i]);
        struct sigaction ignore {
        };
        ignore.sa_handler = SIG_IGN;
        ::sigaction(SIGPIPE, &ignore, &oldPipe);
    }
    ~SignalGuard()
    {
        for (int i = 0; i < 3; ++i)
            ::sigaction(kSignals[i], &oldActions[i], nullptr);
        ::sigaction(SIGPIPE, &oldPipe, nullptr);
        ::sigprocmask(SIG_SETMASK, &oldMask, nullptr);
    }
};

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

} // namespace

void checkRunsHereWithoutCuda(const VerifiedBundle &vb)
{
    if (vb.bundle.manifest.device.rfind("cuda", 0) != 0) {
        checkRunsHere(vb, false, std::string()); // a CPU bundle needs nothing of CUDA
        return;
    }
    // Ask a child: initialising CUDA here would leave every forked worker without a usable device.
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0)
        throw Refusal("failed", std::string("cannot make a pipe: ") + std::strerror(errno));
    std::fflush(nullptr);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid == 0) {
        becomeWorker(parent, {p[0]}, 1);
        const bool cuda = Runtime::cudaAvailable();
        const std::string answer
            = std::string(cuda ? "1 " : "0 ") + (cuda ? Runtime::cudaComputeCapability(0) : std::string());
        writeAll(p[1], answer, false);
        ::_exit(0);
    }
    ::close(p[1]);
    std::string answer;
    char chunk[64];
    ssize_t n;
    while ((n = ::read(p[0], chunk, sizeof chunk)) > 0 || (n < 0 && errno == EINTR))
        if (n > 0)
            answer.append(chunk, static_cast<std::size_t>(n));
    ::close(p[0]);
    if (pid > 0)
        while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) { }
    const bool cuda = answer.rfind("1 ", 0) == 0;
    checkRunsHere(vb, cuda, cuda ? answer.substr(2) : std::string());
}

int serve(const VerifiedBundle &vb, const ServeOptions &options)
{
    SignalGuard signals;
    std::unique_ptr<SocketFolder> socket;
    if (!options.socketPath.empty())
        socket = std::make_unique<SocketFolder>(options.socketPath);

    struct Client {
        int fd = -1;
        std::string buf;
        bool skipping = false; ///< the rest of an oversized line is being read and dropped
    };
    std::map<int, Client> clients; // by id; id 0 is stdin/stdout
    int nextClient = 1;
    std::vector<int> serverFds;
    if (socket)
        serverFds.push_back(socket->fd());
    else
        clients[0] = Client{0, {}};

    WorkerPool pool(vb, options);
    pool.serverFds = &serverFds;
    pool.start();
    // The `stats` request's machine verdict covers the time since the server started serving; its
    // procs_running samples are taken once per stats request (a client polling every second or so).
    Profiler::MachineMonitor monitor(Profiler::usableCpus().usable);
    monitor.begin();
    const auto servingSince = Clock::now();
    std::fprintf(stderr, "aotstudio-run: serving '%s' on %s (isolation %s, %d worker%s)\n",
        Bundle::validUtf8(vb.path).c_str(), socket ? socket->path().c_str() : "stdin", isolationName(options.isolation),
        options.workers, options.workers == 1 ? "" : "s");

    const auto send = [&](int client, const json &response) {
        const auto it = clients.find(client);
        if (it == clients.end())
            return; // the client went away: its answer is dropped
        // A client that went away fails the write; its end of file, read next, closes it.
        writeAll(client == 0 ? 1 : it->second.fd, Bundle::dumpJson(response) + "\n", client != 0);
    };
    std::vector<std::pair<int, json>> shutdowns; // answered once the requests in flight are done
    bool draining = false;
    while (!(draining && pool.idle()) && g_stopSignal == 0) {
        std::vector<pollfd> extra;
        std::vector<int> extraClient; // -1: the listening socket
        if (!draining) {
            if (socket) {
                extra.push_back({socket->fd(), POLLIN, 0});
                extraClient.push_back(-1);
            }
            for (const auto &[id, c] : clients) {
                extra.push_back({c.fd, POLLIN, 0});
                extraClient.push_back(id);
            }
        }
        for (auto &c : pool.poll(extra, -1, &signals.waitMask))
            send(c.job.client, c.response);
        for (std::size_t k = 0; k < extra.size() && !draining; ++k) {
            if (!extra[k].revents)
                continue;
            if (extraClient[k] < 0) {
                const int fd = ::accept4(socket->fd(), nullptr, nullptr, SOCK_CLOEXEC);
                if (fd >= 0) {
                    clients[nextClient++] = Client{fd, {}};
                    serverFds.push_back(fd);
                }
                continue;
            }
            const int id = extraClient[k];
            Client &c = clients[id];
            char chunk[65536];
            const ssize_t n = ::read(c.fd, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR)
                continue;
            const bool eof = n <= 0;
            if (n > 0)
                c.buf.append(chunk, static_cast<std::size_t>(n));
            else if (!c.buf.empty() && !c.skipping)
                c.buf += '\n'; // a last line without its newline
            std::size_t nl;
            for (;;) {
                if (c.skipping) { // the rest of an oversized line, already answered
                    nl = c.buf.find('\n');
                    c.buf.erase(0, nl == std::string::npos ? c.buf.size() : nl + 1);
                    c.skipping = nl == std::string::npos;
                    if (c.skipping)
                        break;
                }
                nl = c.buf.find('\n');
                if (nl == std::string::npos ? c.buf.size() > kMaxRequestLineBytes : nl > kMaxRequestLineBytes) {
                    send(id, json{{"id", nullptr}, {"ok", false},
                                 {"error", errorJson("request", "a request line longer than "
                                         + std::to_string(kMaxRequestLineBytes) + " bytes was dropped unread (it starts "
                                         + Bundle::validUtf8(c.buf.substr(0, 80)) + "); a request is one short JSON object per line")}});
                    c.skipping = true;
                    continue;
                }
                if (nl == std::string::npos || draining)
                    break;
                std::string line = c.buf.substr(0, nl);
                c.buf.erase(0, nl + 1);
                if (line.find_first_not_of(" \t\r") == std::string::npos)
                    continue;
                ParsedLine p = parseRequest(line);
                if (!p.error.is_null())
                    send(id, p.error);
                else if (p.stats) {
                    monitor.round();
                    monitor.end();
                    const auto &k = pool.counters();
                    json workers = json::array();
                    for (pid_t pid : pool.workerPids())
                        workers.push_back(pid);
                    send(id, json{{"id", p.id}, {"ok", true},
                                 {"stats",
                                     {{"pid", ::getpid()}, {"uptime_s", msBetween(servingSince, Clock::now()) / 1000.0},
                                         {"rss_bytes", residentBytes()}, {"open_fds", openDescriptors()},
                                         {"clients", clients.size()}, {"workers", workers},
                                         {"workers_forked", k.forked}, {"workers_died", k.died},
                                         {"workers_replaced", k.replaced}, {"answered", k.answered},
                                         {"failed", k.failed}, {"queued", pool.queued()}, {"in_flight", pool.inFlight()},
                                         {"measurement", monitor.json({})}}}});
                } else if (p.shutdown) {
                    shutdowns.push_back({id, json {{"id", p.id}, {"ok", true}, {"shutdown", true}}});
                    draining = true;
                } else {
                    p.job->client = id;
                    pool.submit(std::move(*p.job));
                }
            }
            // An oversized line, once dropped, must not leave its megabyte reserved for the
            // connection's life (the soak saw the server's RSS grow by one line per client).
            if (c.buf.capacity() > 65536 && c.buf.size() < 4096)
                c.buf.shrink_to_fit();
            if (eof) {
                if (id == 0) {
                    draining = true; // end of stdin: finish what is running, then exit
                } else {
                    std::erase(serverFds, c.fd);
                    ::close(c.fd);
                    clients.erase(id);
                }
            }
        }
    }
    if (g_stopSignal == 0)
        for (const auto &[client, response] : shutdowns)
            send(client, response);
    pool.stop();
    for (const auto &[id, c] : clients)
        if (id != 0)
            ::close(c.fd);
    // SIGTERM and SIGHUP are how a service manager stops a server: a clean end (0). Ctrl-C is a
    // cancel, as everywhere else: 130.
    return g_stopSignal == SIGINT ? Protocol::kExitCancelled : Protocol::kExitOk;
}

namespace {

struct Arrival {
    double tMs = 0;
    std::optional<long long> batch;
};

std::vector<Arrival> readTrace(const std::string &path, std::optional<long long> batch)
{
    std::ifstream in(path);
    if (!in)
        throw UsageError("--replay '" + path + "': cannot read it");
    std::vector<Arrival> out;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        const json j = json::parse(line, nullptr, false);
        const std::string where = "--replay '" + path + "', line " + std::to_string(lineNo) + ": ";
        if (!j.is_object() || !j.contains("t_ms") || !j["t_ms"].is_number() || j["t_ms"].get<double>() < 0)
            throw UsageError(where + "expected {\"t_ms\": arrival offset in ms (>= 0), \"batch\": rows}");
        for (const auto &[key, value] : j.items())
            if (key != "t_ms" && key != "batch")
                throw UsageError(where + "unknown field \"" + key + "\" (a trace line has t_ms and batch)");
        Arrival a{j["t_ms"].get<double>(), batch};
        if (j.contains("batch")) {
            if (!j["batch"].is_number_integer() || j["batch"].get<long long>() < 1)
                throw UsageError(where + "\"batch\" must be an integer of at least 1");
            a.batch = j["batch"].get<long long>();
        }
        out.push_back(a);
    }
    if (out.empty())
        throw UsageError("--replay '" + path + "': no arrivals");
    std::stable_sort(out.begin(), out.end(), [](const Arrival &a, const Arrival &b) { return a.tMs < b.tMs; });
    return out;
}

std::vector<Arrival> poissonTrace(double rate, double seconds, std::uint64_t seed, std::optional<long long> batch)
{
    std::mt19937_64 rng(seed);
    std::exponential_distribution<double> gap(rate);
    std::vector<Arrival> out;
    for (double t = gap(rng); t < seconds; t += gap(rng))
        out.push_back({t * 1000.0, batch});
    return out;
}

double cpuSeconds()
{
    double s = 0;
    for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
        rusage u{};
        ::getrusage(who, &u);
        s += static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec)
            + static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
    }
    return s;
}

struct ModeResult {
    Isolation isolation;
    int workers = 1;
    std::vector<double> latencyMs; ///< per request (NaN when it failed)
    std::vector<double> serviceMs; ///< dispatch to answer (total - queue) of the requests that succeeded
    int ok = 0, errors = 0;
    std::string firstError;
    double wallS = 0, cpuS = 0, submitSpanS = 0;
    json gpuBusy; ///< a CUDA bundle's GpuBusyMeter::Result over the trace; null for a CPU bundle
};

ModeResult replayOnce(const VerifiedBundle &vb, ServeOptions options, Isolation isolation,
    const std::vector<Arrival> &trace, std::uint64_t seed, Profiler::MachineMonitor &monitor, const sigset_t *waitMask)
{
    options.isolation = isolation;
    ModeResult r;
    r.isolation = isolation;
    r.workers = options.workers;
    r.latencyMs.assign(trace.size(), std::nan(""));
    const double cpu0 = cpuSeconds();
    double startupCpuS = 0; // the workers' start (an eager server's import of torch): not serving
    {
        WorkerPool pool(vb, options);
        // An eager server that does not start fails its own mode, not the replay: every request of
        // the mode is an error carrying why.
        std::string notReady;
        try {
            pool.start();
            notReady = pool.waitReady(WorkerPool::kEagerReadyTimeoutMs, waitMask);
        } catch (const Refusal &e) {
            if (isolation != Isolation::Eager)
                throw;
            notReady = e.what();
        }
        if (!notReady.empty()) {
            pool.stop();
            r.errors = static_cast<int>(trace.size());
            r.firstError = notReady;
            r.cpuS = cpuSeconds() - cpu0;
            return r;
        }
        startupCpuS = pool.liveWorkersCpuSeconds();
        // The GPU's busy share over the trace, every worker's kernels together (NVML, no CUDA here).
        std::optional<Profiler::GpuBusyMeter> gpu;
        if (vb.bundle.manifest.device.rfind("cuda", 0) == 0) {
            gpu.emplace(0);
            gpu->begin();
        }
        const auto t0 = Clock::now();
        Clock::time_point firstSubmit, lastSubmit, lastDone = t0;
        std::size_t next = 0, done = 0;
        std::vector<pollfd> none;
        while (done < trace.size() && g_stopSignal == 0) {
            const auto now = Clock::now();
            for (; next < trace.size() && msBetween(t0, now) >= trace[next].tMs; ++next) {
                Job job;
                job.id = static_cast<std::uint64_t>(next);
                job.index = next;
                job.request.batch = trace[next].batch;
                job.request.seed = seed;
                job.arrival = t0
                    + std::chrono::duration_cast<Clock::duration>(
                        std::chrono::duration<double, std::milli>(trace[next].tMs));
                (next == 0 ? firstSubmit : lastSubmit) = now;
                pool.submit(std::move(job));
            }
            int timeoutMs = 1000;
            if (next < trace.size())
                timeoutMs = std::max(0, static_cast<int>(std::ceil(trace[next].tMs - msBetween(t0, Clock::now()))));
            for (auto &c : pool.poll(none, timeoutMs, waitMask)) {
                ++done;
                lastDone = Clock::now();
                if (c.response.value("ok", false)) {
                    ++r.ok;
                    const json &timing = c.response["timing"];
                    r.latencyMs[c.job.index] = timing.value("total_ms", 0.0);
                    r.serviceMs.push_back(timing.value("total_ms", 0.0) - timing.value("queue_ms", 0.0));
                } else {
                    ++r.errors;
                    if (r.firstError.empty())
                        r.firstError = c.response["error"].value("message", "");
                }
                monitor.round();
            }
        }
        r.wallS = msBetween(t0, lastDone) / 1000.0;
        if (gpu)
            r.gpuBusy = gpu->end().toJson();
        r.submitSpanS = trace.size() > 1 ? msBetween(firstSubmit, lastSubmit) / 1000.0 : 0.0;
        pool.stop(); // reaps the warm workers, so their CPU time is counted
    }
    r.cpuS = std::max(0.0, cpuSeconds() - cpu0 - startupCpuS);
    return r;
}

json intervalJson(const Profiler::RatioInterval &i)
{
    return {{"estimate", i.estimate}, {"low", i.low ? json(*i.low) : json()}, {"high", i.high ? json(*i.high) : json()},
        {"level", i.level}};
}

std::string intervalText(const Profiler::RatioInterval &i, const char *format)
{
    char buf[128];
    std::string s;
    std::snprintf(buf, sizeof buf, format, i.estimate);
    s = buf;
    if (i.low && i.high) {
        char lo[48], hi[48];
        std::snprintf(lo, sizeof lo, format, *i.low);
        std::snprintf(hi, sizeof hi, format, *i.high);
        s += std::string(" [") + lo + ", " + hi + "]";
    } else if (i.blocks > 0) {
        s += " (no interval, n=" + std::to_string(i.blocks) + ")";
    }
    return s;
}

} // namespace

int replay(const VerifiedBundle &vb, const ServeOptions &options, const ReplayOptions &ro)
{
    const std::vector<Arrival> trace = ro.poissonRate > 0 ? poissonTrace(ro.poissonRate, ro.seconds, ro.seed, ro.batch)
                                                          : readTrace(ro.tracePath, ro.batch);
    if (trace.empty())
        throw UsageError(
            "--poisson " + std::to_string(ro.poissonRate) + " for " + std::to_string(ro.seconds) + " s: no arrivals");
    SignalGuard signals;
    std::vector<Isolation> modes;
    if (ro.isolationGiven)
        modes.push_back(options.isolation);
    else
        modes = {Isolation::Request, Isolation::Worker};
    modes.push_back(Isolation::Spawn);
    if (!options.eagerServer.empty())
        modes.push_back(Isolation::Eager);
    const auto isBaseline = [](Isolation i) { return i == Isolation::Spawn || i == Isolation::Eager; };

    const auto cpus = Profiler::usableCpus();
    Profiler::MachineMonitor monitor(cpus.usable);
    monitor.begin();
    std::vector<ModeResult> results;
    for (Isolation mode : modes)
        results.push_back(replayOnce(vb, options, mode, trace, ro.seed, monitor, &signals.waitMask));
    monitor.end();
    if (g_stopSignal != 0)
        return g_stopSignal == SIGINT ? Protocol::kExitCancelled : Protocol::kExitFailed;

    const double spanS = trace.size() > 1 ? (trace.back().tMs - trace.front().tMs) / 1000.0 : 0.0;
    const double offered = spanS > 0 ? static_cast<double>(trace.size() - 1) / spanS : 0.0;
    // A mode that answered clearly fewer requests per second than arrived had a queue that grew for
    // the whole run: its latencies measure the trace's length, not the mode, and no ratio with it
    // means anything (spawn baselines at 20 requests/s on 2 CPUs).
    constexpr double kSaturatedBelow = 0.8; // answers/s under this share of the offered rate
    constexpr std::size_t kSaturatedMinRequests = 10; // fewer: too few to tell a queue from a gap
    const auto saturated = [&](const ModeResult &r) {
        return offered > 0 && r.wallS > 0 && trace.size() >= kSaturatedMinRequests
            && r.ok / r.wallS < kSaturatedBelow * offered;
    };
    std::vector<Profiler::VariantSpread> spreads;
    json modesJson = json::array();
    std::vector<std::string> lines;
    int exitCode = 0;
    std::string failedModes; // modes with no request answered: the replay failed
    for (const auto &r : results) {
        std::vector<double> ok;
        for (double v : r.latencyMs)
            if (!std::isnan(v))
                ok.push_back(v);
        const auto p50 = Profiler::percentileInterval(ok, 50);
        const auto p99 = Profiler::percentileInterval(ok, 99);
        const auto service = Profiler::percentileInterval(r.serviceMs, 50);
        const auto s = Profiler::summarize(ok);
        spreads.push_back({isolationName(r.isolation), s.p10Ms, s.medianMs, s.p90Ms});
        const double throughput = r.wallS > 0 ? r.ok / r.wallS : 0.0;
        const double achieved = r.submitSpanS > 0 ? static_cast<double>(trace.size() - 1) / r.submitSpanS : 0.0;
        const double busy = r.wallS > 0 ? r.cpuS / (r.wallS * cpus.usable) : 0.0;
        if (r.ok == 0) {
            exitCode = Protocol::kExitFailed;
            failedModes += (failedModes.empty() ? "" : ", ") + std::string(isolationName(r.isolation)) +
                           (r.firstError.empty() ? std::string() : " (" + r.firstError + ")");
        }
        // A mode that answered nothing has no latency: null, never a 0 ms that reads as a figure.
        const auto latency = [&](const Profiler::RatioInterval &i) { return ok.empty() ? json() : intervalJson(i); };
        modesJson.push_back({{"mode", isolationName(r.isolation)}, {"baseline", isBaseline(r.isolation)},
            {"workers", r.workers},
            {"requests", r.latencyMs.size()}, {"ok", r.ok}, {"errors", r.errors},
            {"first_error", r.firstError.empty() ? json() : json(r.firstError)}, {"median_ms", latency(p50)},
            {"p99_ms", latency(p99)}, {"service_median_ms", latency(service)}, {"throughput_per_s", throughput},
            {"achieved_rate_per_s", achieved}, {"wall_s", r.wallS}, {"cpu_s", r.cpuS}, {"cpu_busy_share", busy},
            {"gpu_busy_share", r.gpuBusy.is_object() ? r.gpuBusy.value("share", json()) : json()},
            {"gpu_busy", r.gpuBusy}, {"saturated", saturated(r)}});
        char line[512];
        const auto text = [&](const Profiler::RatioInterval &i) { return ok.empty() ? std::string("-") : intervalText(i, "%.2f"); };
        std::snprintf(line, sizeof line, "%-9s %3d  %-30s %-30s %-30s %8.1f %8.1f %8.0f%%  %d/%zu",
            isolationName(r.isolation), r.workers, text(p50).c_str(), text(p99).c_str(),
            text(service).c_str(), throughput, achieved, busy * 100.0, r.errors, r.latencyMs.size());
        lines.push_back(line);
        if (!r.firstError.empty())
            lines.push_back("          first error: " + oneLine(r.firstError));
        if (r.gpuBusy.is_object()) {
            char gpuLine[400];
            if (r.gpuBusy["share"].is_number())
                std::snprintf(gpuLine, sizeof gpuLine, "          gpu busy: %.0f%% (%s, %d NVML samples)",
                    100.0 * r.gpuBusy["share"].get<double>(), r.gpuBusy.value("device", "").c_str(),
                    r.gpuBusy.value("samples", 0));
            else
                std::snprintf(gpuLine, sizeof gpuLine, "          gpu busy: not measured (%s)",
                    r.gpuBusy.value("why", "").c_str());
            lines.push_back(gpuLine);
        }
        if (saturated(r)) {
            char note[200];
            std::snprintf(note, sizeof note, "          saturated: answered %.1f/s of the %.1f/s offered; its queue grew for the whole run", throughput, offered);
            lines.push_back(note);
        }
    }
    // What the resident server buys: each baseline's latency (spawn, eager) over each pool mode's,
    // paired by request (request i arrived at the same offset in both runs).
    json ratios = json::array();
    std::vector<double> widths;
    for (const ModeResult &base : results) {
        if (!isBaseline(base.isolation))
            continue;
        for (const ModeResult &mode : results) {
            if (isBaseline(mode.isolation))
                continue;
            std::vector<double> num, den;
            for (std::size_t i = 0; i < trace.size(); ++i)
                if (!std::isnan(base.latencyMs[i]) && !std::isnan(mode.latencyMs[i])) {
                    num.push_back(base.latencyMs[i]);
                    den.push_back(mode.latencyMs[i]);
                }
            const std::string name
                = std::string(isolationName(base.isolation)) + "/" + isolationName(mode.isolation) + " median latency";
            if (num.empty()) { // one side answered nothing: no ratio, and no 0.00x that reads as one
                lines.push_back(name + ": none (no request answered by both)");
                continue;
            }
            const auto ratio = Profiler::ratioInterval(num, den);
            if (ratio.low && ratio.high && ratio.estimate > 0)
                widths.push_back((*ratio.high - *ratio.low) / ratio.estimate);
            json j = intervalJson(ratio);
            j["name"] = name;
            j["baseline"] = isolationName(base.isolation);
            j["mode"] = isolationName(mode.isolation);
            j["pairs"] = num.size();
            j["method"] = "ratio of medians; percentile bootstrap over requests paired by arrival";
            const bool comparable = !saturated(base) && !saturated(mode);
            j["comparable"] = comparable;
            if (!comparable)
                j["why_not"] = "a saturated mode's latency grows with the trace's length; replay a lower rate";
            ratios.push_back(j);
            lines.push_back(name + ": " + intervalText(ratio, "%.2fx") + " (" + std::to_string(num.size())
                + " paired requests)"
                + (comparable ? "" : "; NOT comparable: a mode was saturated (its queue grew), replay a lower rate"));
        }
    }
    const json measurement = monitor.json(spreads, widths);

    char poisson[128];
    std::snprintf(poisson, sizeof poisson, "poisson %g/s for %g s, seed %llu", ro.poissonRate, ro.seconds,
        static_cast<unsigned long long>(ro.seed));
    const std::string source = ro.poissonRate > 0 ? std::string(poisson) : ro.tracePath;
    if (ro.asJson) {
        const json out {{"bundle", vb.bundle.source.string()},
            {"model", vb.bundle.manifest.model}, {"device", vb.bundle.manifest.device},
            {"trace",
                {{"source", source}, {"requests", trace.size()}, {"span_s", spanS},
                    {"offered_rate_per_s", spanS > 0 ? static_cast<double>(trace.size() - 1) / spanS : 0.0}}},
            {"saturation",
                {{"below_share", kSaturatedBelow}, {"min_requests", kSaturatedMinRequests},
                    {"rule", "a mode is saturated when it answered fewer than below_share x the offered arrivals "
                             "per second (throughput_per_s < below_share x trace.offered_rate_per_s), with at "
                             "least min_requests requests: its queue grew for the whole run"}}},
            {"usable_cpus", cpus.usable}, {"modes", modesJson}, {"ratios", ratios}, {"measurement", measurement}};
        Protocol::printEnvelope(stdout,
            exitCode == 0 ? Protocol::okEnvelope(Bundle::validUtf8Json(out))
                          : Protocol::errorEnvelope(errorJson("replay", "no request was answered in mode " + failedModes),
                                Bundle::validUtf8Json(out)));
    } else {
        std::printf("replay:      %s: %zu requests over %.2f s against '%s' (%s, %d usable CPUs)\n",
            Bundle::validUtf8(source).c_str(), trace.size(), spanS, Bundle::validUtf8(vb.path).c_str(),
            vb.bundle.manifest.device.c_str(), cpus.usable);
        std::printf(
            "latency:     arrival to response (p50, p99) and dispatch to response (service: worker start, load,\n"
            "             run), ms, with 95%% bootstrap intervals; done/s: answers per second of the run; rate/s:\n"
            "             arrivals per second achieved; cpu busy: CPU time of server and workers / (wall x CPUs)\n"
            "baselines:   spawn: a fresh aotstudio-run per request; eager (--eager-server): N resident eager\n"
            "             server processes\n");
        std::printf("%-9s %3s  %-30s %-30s %-30s %8s %8s %9s  %s\n", "mode", "N", "p50 ms", "p99 ms", "service p50 ms",
            "done/s", "rate/s", "cpu busy", "errors");
        for (const auto &l : lines)
            std::printf("%s\n", l.c_str());
        const std::string verdict = measurement.value("verdict", "");
        if (verdict != "ok") {
            std::string reasons;
            for (const auto &r : measurement.value("reasons", json::array()))
                reasons += (reasons.empty() ? "" : "; ") + r.get<std::string>();
            std::printf("measurement: %s%s%s\n", verdict.c_str(), reasons.empty() ? "" : ": ", reasons.c_str());
        }
    }
    std::fflush(nullptr);
    return exitCode;
}

} // namespace AotStudio::RunApp
