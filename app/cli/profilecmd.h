// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace AotStudio::Cli {

/// Options of `aotstudio-cli profile` (the engine's `profile` request, FORMAT.md).
struct ProfileOptions {
    std::string model, package, device = "cpu", out = "aotstudio-profile", dtype = "fp32";
    int runs = 200, minRuns = 20, warmup = 5, coldStartRuns = 3, threads = 0;
    double maxSeconds = 5, throughputSeconds = 1;
    std::vector<int> runners{1, 2, 4};
    std::vector<std::string> variants, shapes;
    std::vector<double> replayRates; ///< burst replay arrival rates, requests/s; empty: no replay
    double replaySeconds = 3;
    int replayWorkers = 1;
    std::vector<std::string> replayModes; ///< isolation modes (worker, request); empty: both
    bool noReplayEager = false; ///< the request's replay.eager false: no Python eager server baseline
    bool noTrace = false, json = false, verbose = false;
    bool convertLayout = false; ///< --convert-layout: the request's convert_layout
};

/// Add the options of `profile` to its subcommand; their values land in `options`.
void addProfileOptions(CLI::App &cmd, ProfileOptions &options);
/// The `profile` request for the engine (id 1), with `out` made absolute.
nlohmann::json profileRequest(const ProfileOptions &options);
/// What is wrong with a parsed `profile` command line that CLI11's per-option checks cannot see
/// (0 among other runner counts, --min-runs above --runs, --variants without a variant to time);
/// empty when nothing is.
std::string profileCommandLineProblem(const ProfileOptions &options);
/// The cold-start lines (profile and export results share the shape, FORMAT.md): both medians,
/// the ratio with its interval, the runtime's phases. Nothing when there is no ratio.
void printColdStart(std::FILE *out, const nlohmann::json &coldStart);
/// The burst replay lines (PROFILE.md "Burst replay"): per rate and mode, p50 and p99 with their
/// intervals, throughput, CPU busy share, saturated; the spawn ratios. Nothing when not asked.
void printReplay(std::FILE *out, const nlohmann::json &replay);
/// Human-readable summary of a profile result (core/profiler/PROFILE.md).
void printProfile(std::FILE *out, const nlohmann::json &result);

} // namespace AotStudio::Cli
