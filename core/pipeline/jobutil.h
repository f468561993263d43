// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Small pieces shared by the compile, export, profile and quantize jobs.

#include "profiler/statistics.h"
#include "protocol/messages.h"

#include <filesystem>
#include <string>

namespace AotStudio::Pipeline {

/// A latency summary as the results carry it (FORMAT.md "compile result": median_ms, p10_ms,
/// p90_ms, p99_ms, mean_ms, stddev_ms, min_ms, max_ms in ms; runs; warmup).
Protocol::Json summaryJson(const Profiler::Summary &s, int warmup);
/// The current UTC time as ISO 8601 ("2026-11-30T14:05:00Z").
std::string isoNow();
/// `s` quoted for /bin/sh (single quotes; embedded ones escaped).
std::string shellQuote(const std::string &s);
/// Wall time of one fresh process (`command` run by /bin/sh, output discarded), spawn to exit,
/// in ms (std::chrono::steady_clock); -1 when it exited non-zero or could not start. A child
/// killed by SIGINT re-raises SIGINT in this process (system() ignores it meanwhile).
double timeProcess(const std::string &command);
/// The folder of this executable (/proc/self/exe); empty when unknown. Sibling tools
/// (aotstudio-run) are looked up there.
std::filesystem::path selfDir();

} // namespace AotStudio::Pipeline
