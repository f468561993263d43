// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The burst replay (app/run/SERVING.md "The burst replay"): an arrival trace served by the worker
// pool in this process, per isolation mode, and by the baselines (a fresh process per request; N
// resident eager servers), with latency percentiles and baseline/mode ratios, each with its
// interval. Torch-free: what a worker does is its WorkerBody.
#include "serve/serveoptions.h"
#include "serve/workerbody.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace AotStudio::Serve {

/// One request of a trace.
struct Arrival {
    double tMs = 0; ///< offset from the start of the trace, ms
    std::optional<long long> batch;
};

/// The trace in `path`: JSON lines {"t_ms": offset (>= 0), "batch": rows (optional, >= 1)}, blank
/// lines skipped, sorted by t_ms (stable); `batch` for lines without one. Throws UsageError naming
/// the file and line (unreadable, not such an object, an unknown field, no arrivals).
std::vector<Arrival> readTrace(const std::string &path, std::optional<long long> batch);

/// A Poisson process of `rate` arrivals/s over `seconds` (exponential gaps from std::mt19937_64
/// seeded with `seed`: the same trace for the same seed), each of `batch` rows.
std::vector<Arrival> poissonTrace(double rate, double seconds, std::uint64_t seed, std::optional<long long> batch);

/// The burst replay: the trace served by the pool in this process (each isolation mode, or the one
/// asked for, with options.workers), then by the baselines: a fresh process per request
/// (WorkerBody::spawnCommand, "spawn") and, with options.eagerServer, N resident eager server
/// processes ("eager"). Per configuration p50/p99 latency (arrival to response) and their 95%
/// intervals, throughput, achieved arrival rate and CPU busy share; per baseline and mode the
/// baseline/mode ratio of median latencies with its interval; the machine's verdict. Prints a
/// table (or, with replay.asJson, one envelope) on stdout. Returns the exit status (0; 1 when
/// every request of a configuration failed; 130 after SIGINT). Throws UsageError for a trace that
/// does not read or has no arrivals.
int replay(WorkerBody &body, const ServeOptions &options, const ReplayOptions &replay);

} // namespace AotStudio::Serve
