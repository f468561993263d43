// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pipeline/job.h"

namespace AotStudio::Pipeline {

/// Run one `capture` request (FORMAT.md "capture", issue 39): the user's own script runs in a
/// child Python (the engine's interpreter, `python -m aotstudio_frontend.capture record`) that
/// records every call of one module, then the record is turned into a proposal (the dynamic-shape
/// spec for `compile`, buckets for `export`, the inputs to verify on) by
/// aotstudio_frontend.capture_propose in the engine's Python.
///
/// Stages: `record` (progress about every 0.5 s with the number of calls recorded so far),
/// `propose`. Writes `out/calls.jsonl`, `out/inputs/`, `out/inputs.json`, `out/summary.json`,
/// `out/proposal.json`, `out/script.log` (the last 64 KiB the script printed). Returns
/// {out, summary, proposal}. Throws JobFailed: bad_request (no script, no module, a field of the
/// wrong type), capture_failed (no call recorded: the script raised first, never called the
/// module, the module path names nothing or several instances; the summary's message says
/// which), cancelled (the record so far is kept). Must run on the thread that initialized the
/// Python frontend.
Protocol::Json runCapture(std::int64_t id, const Protocol::Json &request, const EventFn &emit, std::stop_token stop);

} // namespace AotStudio::Pipeline
