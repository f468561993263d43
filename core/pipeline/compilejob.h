// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "profiler/measure.h"
#include "protocol/messages.h"

#include <functional>
#include <stop_token>

namespace AotStudio::Python {
class CompileJob;
}
namespace AotStudio::Runtime {
class AotiRunner;
}

namespace AotStudio::Pipeline {

/// Where a job's events go (progress, log, stage_done); result and error are returned/thrown.
using EventFn = std::function<void(const Protocol::Json &event)>;

/// Thrown when a job ends early; carries the protocol error (code, stage, message, hint).
class JobFailed : public std::exception {
public:
    explicit JobFailed(Protocol::Error error) : m_error(std::move(error)) {}
    const Protocol::Error &error() const { return m_error; }
    const char *what() const noexcept override { return m_error.message.c_str(); }

private:
    Protocol::Error m_error;
};

/// A compile (without timing) as the first part of a longer job (profile, sweep): runCompile()
/// on `request` with `measure` false, its events re-tagged with `id` and its progress scaled into
/// [0, `share`] of the whole job. Returns the compile result; throws as runCompile().
Protocol::Json runCompileAsPart(std::int64_t id, Protocol::Json request, const EventFn &emit, std::stop_token stop, double share);

/// The one verify of a package against eager (FORMAT.md, "verify"), used by compile, profile and
/// quantize: the frontend plans the calls (the example, a second one for a stateful model, seeded
/// inputs of the same shapes and layout), `runner` runs each from C++ and the frontend compares
/// its outputs with eager's, output by output (against a higher-precision reference for
/// bf16/fp16). Returns the frontend's verify result; throws Python::FrontendException (mismatch)
/// or JobFailed (the package failed to run). Leaves the example inputs set for measuring.
Protocol::Json verifyPackage(Python::CompileJob &job, Runtime::AotiRunner &runner);

/// Measuring options of a `compile` request (FORMAT.md): warmup, runs, min_runs, max_seconds.
Profiler::MeasureOptions measureOptionsFrom(const Protocol::Json &request);

/// Run one `compile` request: load -> export -> compile (AOTInductor .pt2) -> load_package (LibTorch)
/// -> verify against eager -> measure eager and compiled with one C++ timer. Emits progress and
/// stage_done events through `emit`, checks `stop` between stages and inside measuring.
/// Returns the result object of FORMAT.md; throws JobFailed (cancelled, mismatch, ...).
/// Must run on the thread that initialized the Python frontend.
Protocol::Json runCompile(std::int64_t id, const Protocol::Json &request, const EventFn &emit, std::stop_token stop);

} // namespace AotStudio::Pipeline
