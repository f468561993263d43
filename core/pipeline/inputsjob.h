// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pipeline/job.h"

namespace AotStudio::Pipeline {

/// Run one `inputs` request (FORMAT.md "inputs"): build the model and its example inputs exactly
/// as a compile's load stage does (model, device, dtype, shapes; one eager forward), without
/// export or compile, in a scratch folder under the system's temporary directory that is removed
/// afterwards. Returns {model, device, dtype, inputs (name, shape, dtype, kind, batched, min, max,
/// mean, std), signature, constants, parameters, outputs, torch_version}. Progress: stage `load`.
/// Throws JobFailed (bad_request, unknown_model, model_error, no_device, cancelled). Must run on
/// the thread that initialized the Python frontend.
Protocol::Json runInputs(std::int64_t id, const Protocol::Json &request, const EventFn &emit, std::stop_token stop);

} // namespace AotStudio::Pipeline
