// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace AotStudio::Cli {

/// Options of `aotstudio-cli sweep` (the engine's `sweep` request, FORMAT.md "sweep").
struct SweepOptions {
    std::string model, package, bundle, device, out = "aotstudio-sweep", dtype;
    std::vector<std::string> dynamic, shapes;
    int budget = 64, randomPoints = 2, threads = 0, rayShards = 0;
    std::string ray; ///< --ray HOST:PORT: the sweep in --ray-shards Ray tasks
    std::string fromCapture; ///< --from-capture DIR: the recorded shapes join the plan (issue 39)
    int captureShapes = -1; ///< --capture-shapes N; -1: the engine's default
    long long seed = 0x5eed;
    double timeout = 60;
    double tolerance = -1;
    bool noPairwise = false, noOutside = false, isolate = false, json = false, verbose = false;
    bool allowUnsigned = false; ///< --allow-unsigned: a --bundle without a trusted signature (BUNDLE.md)
};

/// Add the options of `sweep` to its subcommand; their values land in `options`.
void addSweepOptions(CLI::App &cmd, SweepOptions &options);
/// The `sweep` request for the engine (id 1), with paths made absolute.
nlohmann::json sweepRequest(const SweepOptions &options);
/// Human-readable summary of a sweep result: per target the guards, a line per dimension with
/// each tried size marked, the failures, and the verdict.
void printSweep(std::FILE *out, const nlohmann::json &result);

} // namespace AotStudio::Cli
