// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Small pieces shared by the compile, export, profile and quantize jobs.

#include "process/childprocess.h" // Process::runProcess: the one way a job runs a child process
#include "profiler/statistics.h"
#include "protocol/messages.h"

#include <filesystem>
#include <string>
#include <vector>

namespace AotStudio::Pipeline {

/// A latency summary as the results carry it (FORMAT.md "compile result": median_ms, p10_ms,
/// p90_ms, p99_ms, mean_ms, stddev_ms, min_ms, max_ms in ms; runs; warmup).
Protocol::Json summaryJson(const Profiler::Summary &s, int warmup);
/// Write `text` to `path` atomically (Bundle::writeFileAtomic: temporary name, fsync, rename).
/// Throws JobFailed (stage "write", code internal) naming the file and the cause.
void writeFileAtomic(const std::filesystem::path &path, const std::string &text);
/// `j` indented by 2, invalid UTF-8 replaced (a model's strings must not fail the write), atomically.
void writeJsonAtomic(const std::filesystem::path &path, const Protocol::Json &j);
/// The JSON in `path`, or null when the file is missing, unreadable or not JSON (a result.json
/// that may not be there: callers treat null as "not recorded").
Protocol::Json readJsonFile(const std::filesystem::path &path);
/// The current UTC time as ISO 8601 ("2026-11-30T14:05:00Z").
std::string isoNow();
/// `s` quoted for /bin/sh (single quotes; embedded ones escaped).
std::string shellQuote(const std::string &s);
/// `argv` as one shell-quoted line, for messages and logs.
std::string commandLine(const std::vector<std::string> &argv);
/// The folder of this executable (/proc/self/exe); empty when unknown. Sibling tools
/// (aotstudio-run) are looked up there.
std::filesystem::path selfDir();

} // namespace AotStudio::Pipeline
