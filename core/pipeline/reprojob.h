// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pipeline/job.h"

namespace AotStudio::Pipeline {

/// Run one `repro` request (FORMAT.md "Repro", issue 40 item 3): for the failed compile in the
/// folder `job` (its error.json: the error and the request that failed), or the numerics job there
/// (its numerics.json: the first divergent node and the request), build the model and export it
/// again as that request did, write a standalone repro folder (`out`, default JOB/repro: the
/// exported program, its inputs, the Inductor options, repro.py, README.md, repro.json; for a
/// numerics divergence the divergent node alone with its inputs and float64 reference output;
/// python/aotstudio_frontend/repro.py) and, unless `run` is false, run repro.py once in a fresh
/// Python process to confirm that it reproduces (`timeout_s`, default 900). Returns repro.json's
/// record. Progress: stages load, export, write, confirm. Throws JobFailed: bad_request (neither
/// error.json nor numerics.json, a failure other than compile_failed or mismatch, an error.json
/// without its request, a numerics job without a divergent node), the load and export errors of
/// the original request, cancelled. Must run on the Python thread.
Protocol::Json runRepro(std::int64_t id, const Protocol::Json &request, const EventFn &emit, std::stop_token stop);

} // namespace AotStudio::Pipeline
