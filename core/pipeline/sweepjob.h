// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pipeline/job.h"

#include <stop_token>

namespace AotStudio::Pipeline {

/// Run one `sweep` request (FORMAT.md "sweep"): a package (`package`, with the model from its
/// result.json unless `model` is given), a bundle (`bundle`: every bucket's package, and the
/// bucket policy across batch sizes with padding checked against eager), or a model compiled first
/// into OUT/compile (`model` alone, the compile request's fields apply). Writes OUT/sweep.json and
/// OUT/sweep.csv; returns the same object, `passed` false when any point's outcome is not what the
/// guards promise (the CLI then exits 1). Throws JobFailed for a bad request, a package that cannot
/// be loaded, or a cancel.
Protocol::Json runSweep(std::int64_t id, const Protocol::Json &request, const EventFn &emit, std::stop_token stop);

} // namespace AotStudio::Pipeline
