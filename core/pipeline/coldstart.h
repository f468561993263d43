// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Cold start, measured one way for export and profile: fresh `aotstudio-run` processes on a bundle
// against fresh Python eager processes, alternating, with the runtime's phases.

#include "protocol/messages.h"

#include <filesystem>
#include <functional>
#include <stop_token>
#include <string>

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

} // namespace AotStudio::Pipeline
