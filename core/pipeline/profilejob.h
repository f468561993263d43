// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pipeline/job.h"

namespace AotStudio::Pipeline {

/// Run one `profile` request (FORMAT.md; result schema in core/profiler/PROFILE.md): compile the
/// model (or load the given `package` and check it runs on the model's inputs), then in this one
/// process, on the same inputs: time eager and the AOTI package without and with the collector
/// (RecordFunction ranges; CUPTI activity records on CUDA), peak memory, throughput against N
/// runners, cold start of fresh processes; write profile.json, the CSVs and trace.json into `out`.
/// Throws JobFailed (no_device when CUDA is asked for and absent, load_failed, model_error,
/// cancelled, ...). Must run on the thread that initialized the Python frontend.
Protocol::Json runProfile(std::int64_t id, const Protocol::Json &request, const EventFn &emit, std::stop_token stop);

} // namespace AotStudio::Pipeline
