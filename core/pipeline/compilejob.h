// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pipeline/job.h"
#include "protocol/messages.h"

#include <stop_token>

namespace AotStudio::Pipeline {

/// The compile's stages and their share of its progress bar (the compile stage, C++ code
/// generation and g++, dominates).
extern const std::span<const StageSpan> kCompileStages;

/// A compile (without timing) as part of a longer job (profile, sweep, tune): runCompile() on
/// `request` with `measure` false, as a sub-job of `parent` filling [`begin`, `begin` + `share`]
/// of its bar. Returns the compile result; throws as runCompile().
Protocol::Json runCompileAsPart(const Job &parent, Protocol::Json request, double share, double begin = 0.0);

/// Run one `compile` request: load -> export -> compile (AOTInductor .pt2) -> load_package (LibTorch)
/// -> verify against eager -> measure eager and compiled with one C++ timer. Emits progress and
/// stage_done events through `emit`, checks `stop` between stages and inside measuring.
/// Returns the result object of FORMAT.md; throws JobFailed (cancelled, mismatch, ...).
/// Must run on the thread that initialized the Python frontend.
Protocol::Json runCompile(std::int64_t id, const Protocol::Json &request, const EventFn &emit, std::stop_token stop);
/// The same inside `job` (its stages are kCompileStages).
Protocol::Json runCompile(const Job &job, const Protocol::Json &request);

} // namespace AotStudio::Pipeline
