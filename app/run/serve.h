// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// aotstudio-run --serve and the burst replay (app/run/SERVING.md): a resident parent that has
// verified the bundle and has LibTorch mapped, and a pool of worker processes fork()ed from it.
//
// The fork rules: the parent never runs a forward, never enters an OpenMP parallel region (GNU
// libgomp's thread pool does not survive fork(): the child's first parallel region would wait
// for threads that do not exist) and never initialises CUDA (a CUDA context is not inherited;
// each CUDA worker makes its own). Everything that loads or runs a package happens in a worker.
// Every worker sets PR_SET_PDEATHSIG right after fork(), so none outlives the server.
#include "bundlerun.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace AotStudio::RunApp {

/// How requests reach a package.
enum class Isolation {
    Request, ///< a fresh worker forked per request: load, run once, answer, exit
    Worker, ///< N warm workers forked at start, each keeping the packages it loaded (per bucket)
    Spawn, ///< the replay's baseline: a fresh `aotstudio-run` process (posix_spawn) per request
    Eager, ///< the replay's second baseline: N resident --eager-server processes (a Python eager server)
};

/// "request", "worker", "spawn" or "eager".
const char *isolationName(Isolation isolation);

/// A bad command line found after parsing (exit 2): a --socket folder that exists, a trace that
/// does not read.
class UsageError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// The longest request line the server reads, bytes (newline excluded): a longer line is answered
/// with a `bad_request` error (id null: the line was never parsed) and skipped up to its newline,
/// so a client cannot make the server buffer without bound. A request is a few fields and a path;
/// 1 MiB leaves room for any path (PATH_MAX is 4096) and an id of any reasonable size.
constexpr std::size_t kMaxRequestLineBytes = std::size_t{1} << 20;

struct ServeOptions {
    Isolation isolation = Isolation::Worker;
    int workers = 1; ///< warm workers, or requests at once (request isolation)
    std::string socketPath; ///< empty: JSON lines on stdin and stdout
    std::vector<std::string> trustArgs; ///< --trust paths, passed on to the spawn baseline
    bool allowUnsigned = false; ///< likewise
    /// The replay's eager baseline: the argv of a server that speaks the request and answer lines
    /// on stdin and stdout after a first `{"ready": true}` line (the engine's
    /// `python -m aotstudio_frontend.eager_serve MODEL DEVICE`); empty: no eager baseline.
    std::vector<std::string> eagerServer;
    /// --convert-layout: a request's input file in another layout than the package's is copied
    /// into it (the answer's `layout_conversions` says so) instead of refused.
    bool convertLayout = false;
    /// --request-timeout: a request whose worker has not answered this many ms after it was handed
    /// over is answered with an error (stage `deadline`) naming the deadline, and its worker is
    /// killed (SIGKILL) and, for warm workers, replaced. 0: no deadline (the replay's modes).
    /// `aotstudio-run --serve` defaults to kDefaultRequestTimeoutMs.
    int requestTimeoutMs = 0;
};

/// `aotstudio-run --serve`'s request deadline when --request-timeout is not given: 300 s.
inline constexpr int kDefaultRequestTimeoutMs = 300000;

/// The words of a command line as a POSIX shell splits them (wordexp(3) without command
/// substitution: quotes and backslashes as in sh, `$VAR` expanded, `$(...)` and backquotes
/// refused). Throws UsageError naming what is wrong (an empty command, an unmatched quote, a
/// command substitution).
std::vector<std::string> splitCommandLine(const std::string &line);

/// checkRunsHere() without initialising CUDA in this process: a CPU bundle does not ask about
/// CUDA at all; for a CUDA bundle a forked child asks LibTorch for the device and its capability
/// and exits. Throws Refusal("refused") as checkRunsHere() does.
void checkRunsHereWithoutCuda(const VerifiedBundle &vb);

/// Serve requests until end of input or a shutdown request (SERVING.md: request and response
/// lines). Returns the exit status: 0 after a clean shutdown; a signal (SIGTERM, SIGINT) ends it
/// with 0 too, after the workers are killed and the socket folder removed. Throws UsageError when
/// the socket cannot be made (its folder exists, the path is too long).
int serve(const VerifiedBundle &vb, const ServeOptions &options);

struct ReplayOptions {
    std::string tracePath; ///< JSON lines {"t_ms": arrival offset, "batch": rows}
    double poissonRate = 0; ///< > 0: a Poisson process of this many requests/s instead
    double seconds = 10; ///< length of the Poisson trace, s
    std::uint64_t seed = 0; ///< of the arrivals and of the generated inputs
    std::optional<long long> batch; ///< rows per request (a trace line's "batch" wins)
    bool isolationGiven = false; ///< only options.isolation (else both isolation modes)
    bool asJson = false;
};

/// The burst replay: the trace served by the pool in this process (each isolation mode, or the one
/// asked for, with options.workers), then by the baselines: a fresh aotstudio-run process per
/// request (spawn) and, with options.eagerServer, N resident eager server processes (eager). Per
/// configuration p50/p99 latency (arrival to response) and their 95% intervals, throughput,
/// achieved arrival rate and CPU busy share; per baseline and mode the baseline/mode ratio of
/// median latencies with its interval; the machine's verdict. Prints a table (or one JSON object). Returns the exit status (0; 1
/// when every request of a configuration failed). Throws UsageError for a trace that does not read.
int replay(const VerifiedBundle &vb, const ServeOptions &options, const ReplayOptions &replay);

} // namespace AotStudio::RunApp
