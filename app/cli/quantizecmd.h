// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace AotStudio::Cli {

/// Options of `aotstudio-cli quantize` (the engine's `quantize` request, FORMAT.md).
struct QuantizeOptions {
    std::string model, device = "cpu", out = "aotstudio-quantize", calibration, eval, recipe, ray;
    nlohmann::json recipeOptions; ///< loadRecipe()'s, when --recipe was given
    std::vector<std::string> schemes, shapes;
    int calibrationSamples = 32, evalSamples = 16, runs = 200, minRuns = 20, warmup = 5, threads = 0;
    double maxSeconds = 5;
    std::optional<double> maxError;
    bool noSnapshots = false, json = false, verbose = false;
};

/// Add the options of `quantize` to its subcommand; their values land in `options`.
void addQuantizeOptions(CLI::App &cmd, QuantizeOptions &options);
/// The `quantize` request for the engine (id 1), with paths made absolute.
nlohmann::json quantizeRequest(const QuantizeOptions &options);
/// Why a quantize result compared nothing ("" when it did): its fp32 baseline row failed, or every
/// row failed. The CLI exits 1 then (the result is still printed and written).
std::string quantizeFailure(const nlohmann::json &result);
/// The comparison table of a quantize result: one line per scheme, then the best scheme and files.
void printQuantize(std::FILE *out, const nlohmann::json &result);

} // namespace AotStudio::Cli
