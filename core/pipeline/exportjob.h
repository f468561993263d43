// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pipeline/job.h"

namespace AotStudio::Pipeline {

/// Run one `export` request (core/protocol/FORMAT.md, core/runtime/BUNDLE.md): compile one
/// AOTInductor package per shape bucket (and an optional dynamic-batch package) through
/// runCompile(), verify each against eager, lay out the bundle (packages/, report/, graphs/),
/// write the manifest with the SHA-256 of every file, measure cold start (fresh `aotstudio-run`
/// processes against fresh eager Python processes) into report/cold_start.json, then rename the
/// staging directory into place and zip it. Nothing is left half-written: all work happens under
/// `OUT.partial-<pid>`. Throws JobFailed. Must run on the Python thread.
Protocol::Json runExport(std::int64_t id, const Protocol::Json &request, const EventFn &emit, std::stop_token stop);

} // namespace AotStudio::Pipeline
