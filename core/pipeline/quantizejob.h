// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pipeline/job.h"

namespace AotStudio::Pipeline {

/// Run one `quantize` request (core/protocol/FORMAT.md, "quantize result"): for each scheme, in
/// OUT/<scheme>/, quantize the model (torchao `quantize_`, or PT2E for int8-static; see
/// core/python/aotstudio_frontend/quant/), export and compile it with AOTInductor, load the
/// package with LibTorch, time eager and compiled with Profiler::measure (ms), measure peak memory
/// of one forward (bytes), run the evaluation set through the package and compare with fp32 eager,
/// and compute the per-layer error table. A scheme the device cannot run, or one that fails, is a
/// row with `status` and `reason`; the others still run. Writes OUT/quantize.json and
/// OUT/quantize.csv. Throws JobFailed for a bad request (unknown scheme: the message lists the valid
/// names), an unknown model, a missing device, or a cancel (checked between and inside schemes).
/// Must run on the thread that initialized the Python frontend.
Protocol::Json runQuantize(std::int64_t id, const Protocol::Json &request, const EventFn &emit, std::stop_token stop);

} // namespace AotStudio::Pipeline
