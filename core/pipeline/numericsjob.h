// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pipeline/job.h"

namespace AotStudio::Pipeline {

/// Run one `numerics` request (FORMAT.md "numerics"): load the model, export it (the `capture`
/// snapshot the studio colours), then, on the example inputs, interpret the graph op by op against
/// a float64 reference (float32 for a model too large for a float64 copy), interpret it in the
/// run's dtype (eager), and compile it with AOTInductor with every intermediate as an output
/// (compiled); per node the error of each side (python/aotstudio_frontend/numerics.py), the first
/// node past the tolerance, and which side is closer on the outputs. Writes OUT/numerics.json
/// atomically and returns it. Throws JobFailed (bad_request, no_device, model_error,
/// export_failed, compile_failed, cancelled). Must run on the thread that initialized the Python
/// frontend.
Protocol::Json runNumerics(std::int64_t id, const Protocol::Json &request, const EventFn &emit, std::stop_token stop);

} // namespace AotStudio::Pipeline
