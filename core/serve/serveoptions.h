// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How aotstudio-run serves (app/run/SERVING.md): the isolation modes, the server's and the burst
// replay's options, and the --eager-server command line split into an argv. Torch-free.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace AotStudio::Serve {

/// How requests reach a package.
enum class Isolation {
    Request, ///< a fresh worker forked per request: load, run once, answer, exit
    Worker, ///< N warm workers forked at start, each keeping the packages it loaded (per bucket)
    Spawn, ///< the replay's baseline: a fresh `aotstudio-run` process (posix_spawn) per request
    Eager, ///< the replay's second baseline: N resident --eager-server processes (a Python eager server)
};

/// "request", "worker", "spawn" or "eager".
const char *isolationName(Isolation isolation);

/// The longest request line the server reads, bytes (newline excluded): a longer line is answered
/// with a `bad_request` error (id null: the line was never parsed) and skipped up to its newline,
/// so a client cannot make the server buffer without bound. A request is a few fields and a path;
/// 1 MiB leaves room for any path (PATH_MAX is 4096) and an id of any reasonable size.
constexpr std::size_t kMaxRequestLineBytes = std::size_t{1} << 20;

/// `aotstudio-run --serve`'s request deadline when --request-timeout is not given: 300 s.
inline constexpr int kDefaultRequestTimeoutMs = 300000;

struct ServeOptions {
    Isolation isolation = Isolation::Worker;
    int workers = 1; ///< warm workers, or requests at once (request isolation)
    std::string socketPath; ///< empty: JSON lines on `inputFd` and `outputFd`
    int inputFd = 0; ///< without a socket: where requests are read (stdin)
    int outputFd = 1; ///< without a socket: where responses are written (stdout)
    /// The replay's eager baseline: the argv of a server that speaks the request and answer lines
    /// on stdin and stdout after a first `{"ready": true}` line (the engine's
    /// `python -m aotstudio_frontend.eager_serve MODEL DEVICE`); empty: no eager baseline.
    std::vector<std::string> eagerServer;
    /// --request-timeout: a request whose worker has not answered this many ms after it was handed
    /// over is answered with an error (stage `deadline`) naming the deadline, and its worker is
    /// killed (SIGKILL) and, for warm workers, replaced. 0: no deadline (the replay's modes).
    /// `aotstudio-run --serve` defaults to kDefaultRequestTimeoutMs.
    int requestTimeoutMs = 0;
};

struct ReplayOptions {
    std::string tracePath; ///< JSON lines {"t_ms": arrival offset, "batch": rows}
    double poissonRate = 0; ///< > 0: a Poisson process of this many requests/s instead
    double seconds = 10; ///< length of the Poisson trace, s
    std::uint64_t seed = 0; ///< of the arrivals and of the generated inputs
    std::optional<long long> batch; ///< rows per request (a trace line's "batch" wins)
    bool isolationGiven = false; ///< only options.isolation (else both isolation modes)
    bool asJson = false;
};

/// The words of a command line as a POSIX shell splits them (wordexp(3) without command
/// substitution: quotes and backslashes as in sh, `$VAR` expanded, `$(...)` and backquotes
/// refused). Nothing is run: the words become an argv for Process::spawn. Throws UsageError
/// (serveerror.h) naming what is wrong (an empty command, an unmatched quote, a command
/// substitution, an unset variable).
std::vector<std::string> splitCommandLine(const std::string &line);

} // namespace AotStudio::Serve
