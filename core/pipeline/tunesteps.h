// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The steps of a tune below runTune (tunejob.cpp) that work on its rows alone: a trial's row from
// its compile, the Pareto front, the recipe's choice, the files. Engine-internal, not part of the
// job API. The shared steps (measuring options, ...) are in steps.h.

#include "protocol/messages.h"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace AotStudio::Pipeline::TuneSteps {

/// Adds a warning to the tune result and logs it.
using WarnFn = std::function<void(const std::string &)>;

/// A compiled trial's figures into its row (FORMAT.md "tune result" `rows`): package and size,
/// the error against eager in the trial's dtype or, for a bf16/fp16 trial verified in reduced
/// precision, against verify's high-precision reference (`error_against` says which), the verify
/// verdict, dtype and the options the compile recorded. `trialRequest`: the trial's compile request.
void fillTrialRow(Protocol::Json &row, const Protocol::Json &compiled, const Protocol::Json &trialRequest);

/// OUT/tune.json (`result`) and OUT/tune.csv (a row per trial, Profiler::CsvTable), atomically.
/// Throws JobFailed when a file cannot be written.
void writeTuneFiles(const std::filesystem::path &out, const Protocol::Json &result);

/// The Pareto front over the measured trials.
struct Front {
    Protocol::Json names = Protocol::Json::array(); ///< the result's `front`: trial names, then the baselines
    std::vector<std::size_t> measured; ///< indices of the rows that were timed (have `median_ms`)
    bool severalHosts = false; ///< the trials compiled on several hosts: compile time left out
};

/// The Pareto front (latency, error, package size and, when all compiled on one host, compile
/// time; all minimised, Profiler::paretoFront) over the rows that were measured; marks each
/// member's row `pareto`. A trial whose speedup over defaults has an interval holding 1 takes
/// defaults' median, so that noise does not decide who dominates whom. `defaults` is listed when
/// `defaultsTimed` and not a member; `torch.compile` when `jitTimed`. `warn` says when compile
/// time is left out.
Front paretoFront(Protocol::Json &rows, bool defaultsTimed, bool jitTimed, const WarnFn &warn);

/// The chosen recipe (FORMAT.md "tune result" `recipe`): the fastest measured row within
/// `maxError` (a number, or null for any error); defaults instead when the fastest is not faster
/// than defaults beyond its 95% interval (`warn` says so). Null when no row qualifies.
Protocol::Json chooseRecipe(const Protocol::Json &rows, const std::vector<std::size_t> &measured,
                            const Protocol::Json &maxError, const WarnFn &warn);

/// OUT/recipe.json's object (FORMAT.md "recipe"; what `compile --recipe` reads) for the `chosen`
/// row of a tune of `result` (its model, device, dtype and torch_version); `verdict` the tune's
/// measurement verdict.
Protocol::Json recipeJson(const Protocol::Json &chosen, const Protocol::Json &result, const Protocol::Json &verdict);

} // namespace AotStudio::Pipeline::TuneSteps
