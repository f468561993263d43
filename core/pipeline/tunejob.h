// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pipeline/job.h"

namespace AotStudio::Pipeline {

/// Run one `tune` request (FORMAT.md "tune"): compile the model with each candidate option set
/// (python/aotstudio_frontend/tune.py `candidates`: defaults, freezing, max-autotune, epilogue
/// fusion off, bf16, ...) into OUT/trials/NAME, each a sub-job with compile's own verify against
/// eager, until the budget (`budget_seconds`, checked before each trial) is spent; then time eager,
/// `torch.compile` with its defaults and every package that compiled together in one paired
/// measurement (measurement.h: same inputs, same process, alternating blocks), each ratio with its
/// 95% interval. Returns FORMAT.md's "tune result": a row per trial (failed ones with the reason),
/// the Pareto front over latency, error, compile time and package size with both baselines, and
/// the chosen recipe (fastest verified trial within `max_error`), also written to OUT/recipe.json
/// (what `compile --recipe` reads), OUT/tune.json and OUT/tune.csv. A cancel during the trials
/// writes the finished rows to OUT/tune.json before it ends the job (code cancelled). Throws
/// JobFailed (bad_request, no_device, model_error, cancelled). Must run on the Python thread.
Protocol::Json runTune(std::int64_t id, const Protocol::Json &request, const EventFn &emit, std::stop_token stop);

} // namespace AotStudio::Pipeline
