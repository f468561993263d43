// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Cold start, measured one way for export and profile: fresh `aotstudio-run` processes on a bundle
// against fresh Python eager processes, alternating, with the runtime's phases. And the burst
// replay of a profile: the same bundle served by `aotstudio-run --poisson` at several arrival rates.

#include "protocol/messages.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace AotStudio::Pipeline {

struct ColdStartSpec {
    std::filesystem::path bundle; ///< a bundle directory (manifest.json) that aotstudio-run accepts
    long long batch = 1;          ///< rows of the first call, both sides
    std::string model;            ///< model spec for the eager side (python -m aotstudio_frontend.coldstart)
    std::string device = "cpu";
    int runs = 3;                 ///< rounds; each runs one process of each kind, in alternating order
    std::string shapes; ///< the request's `shapes` as JSON text ("" none): the eager side's inputs
};

/// Time `spec.runs` rounds of (aotstudio-run BUNDLE --json, eager Python), the order swapped every
/// round so neither side always runs with a warmer page cache. Each process is timed from spawn
/// to exit (std::chrono::steady_clock, ms); aotstudio-run's own JSON gives its phases (to_main_ms:
/// spawn to main, i.e. the dynamic loader; verify_ms; load_ms; first_run_ms). Returns FORMAT.md's
/// "cold start" object: bundle_ms and eager_ms (medians), ratio = eager / bundle with its 95%
/// interval over the paired rounds (ratio_interval), phases with median and interval each,
/// per-round samples, runs ok per side. Empty object when aotstudio-run is missing next to this
/// executable (`warn` says so). Failures of single processes are counted, never thrown; `warn`
/// names the command that failed. Stops between processes when `stop` is requested.
Protocol::Json measureColdStart(const ColdStartSpec &spec, std::stop_token stop, const std::function<void(const std::string &)> &warn);

/// A profile's burst replay (PROFILE.md "Burst replay"; the request's `replay`).
struct ReplaySpec {
    std::vector<double> rates; ///< offered arrival rates, requests/s, run in this order
    double seconds = 3; ///< length of each rate's Poisson trace, s
    int workers = 1; ///< --workers: warm workers, or requests at once (request, spawn)
    std::vector<std::string> modes{"worker", "request"}; ///< isolation modes served ("worker", "request")
    std::uint64_t seed = 0; ///< of the arrivals and the generated inputs
    bool eager = true; ///< also serve each trace by a Python eager server (the `eager` baseline)
    std::string model; ///< the eager server's model spec (python -m aotstudio_frontend.eager_serve)
    std::string device = "cpu"; ///< the eager server's device
    std::string shapes; ///< the request's `shapes` as JSON text ("" none), as ColdStartSpec::shapes
};

/// Run `aotstudio-run BUNDLE --poisson RATE --seconds S --workers N --batch B --json` once per rate
/// (with `--isolation MODE` when one mode is asked; aotstudio-run serves the trace by each mode,
/// then by its spawn baseline: a fresh aotstudio-run per request, and with `spec.eager` and a
/// model by `--eager-server "python -m aotstudio_frontend.eager_serve MODEL DEVICE"`, N resident
/// Python eager processes) through runProcess, which
/// interrupts it on `stop`. `progress(f, message)` before each rate. Returns PROFILE.md's "replay"
/// object: `rows` (one per rate and mode, spawn and eager among them with baseline true: offered
/// and achieved rate, throughput, p50 and p99 latency with their 95% intervals, CPU busy share,
/// counts, saturated), `ratios` (each baseline over each mode, per rate, with `comparable`), `runs` (per rate: the
/// trace, aotstudio-run's machine verdict, exit). A rate whose process fails is a line in `warn`
/// and no rows; never throws.
Protocol::Json measureBurstReplay(const ReplaySpec &spec, const std::filesystem::path &bundle, long long batch,
                                  std::stop_token stop, const std::function<void(const std::string &)> &warn,
                                  const std::function<void(double, const std::string &)> &progress);

} // namespace AotStudio::Pipeline
