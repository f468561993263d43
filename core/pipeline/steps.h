// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The pipeline's shared steps (issue 36 item 2): the small functions below the jobs that more
// than one job runs (reading the measuring options, loading a package, verifying it against
// eager, checking it at one planned shape), so that no job reaches into another job's file for
// them. A job (compilejob.cpp, quantizejob.cpp, profilejob.cpp, sweepjob.cpp, tunejob.cpp, ...)
// is the table of its stages (job.h) that calls these; steps a single job owns live beside it
// (sweepsteps.h, tunesteps.h, exportsteps.h, profilesteps.h). Engine-internal, not the job API.

#include "bundle/sweepplan.h"
#include "pipeline/job.h"
#include "profiler/measure.h"
#include "protocol/messages.h"

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace AotStudio::Python {
class CompileJob;
}
namespace AotStudio::Runtime {
class AotiRunner;
}

namespace AotStudio::Pipeline {

/// Measuring options of a request (FORMAT.md "compile"): warmup, runs, min_runs, max_seconds;
/// also checks the types of the fields every job shares (measure, model, device, out, dtype).
/// Throws JobFailed(bad_request, stage "load") naming the field.
Profiler::MeasureOptions measureOptionsFrom(const Protocol::Json &request);

/// The request's `out` as an absolute, normalised folder, created. Throws JobFailed(bad_request)
/// at `stage` naming the folder and why ("choose a writable --out").
std::filesystem::path makeOutputFolder(std::string_view stage, const std::string &out);

/// The package at `package` loaded with LibTorch on `device`, with `job`'s example inputs set:
/// a job's load_package step. Throws JobFailed(load_failed, stage "load_package") with the
/// runtime's message and `hint` (what the user can do about it).
std::unique_ptr<Runtime::AotiRunner> loadPackage(Python::CompileJob &job, const std::string &package,
                                                 const std::string &device, const std::string &hint);

/// The one verify of a package against eager (FORMAT.md, "verify"), used by compile, profile and
/// quantize: the frontend plans the calls (the example, a second one for a stateful model, seeded
/// inputs of the same shapes and layout), `runner` runs each from C++ and the frontend compares
/// its outputs with eager's, output by output (against a higher-precision reference for
/// bf16/fp16). Returns the frontend's verify result; throws Python::FrontendException (mismatch)
/// or JobFailed (the package failed to run). Leaves the example inputs set for measuring.
Protocol::Json verifyPackage(Python::CompileJob &job, Runtime::AotiRunner &runner);

/// How a point's package call runs.
struct PointOptions {
    bool isolate = false; ///< in a child aotstudio-run (a crash or hang cannot take the engine down)
    double timeoutSeconds = 60; ///< isolated calls only: a call running longer is killed and recorded as hung
    std::filesystem::path scratch; ///< isolated calls: where input and output files go
    /// Isolated calls of a bundle's bucket: `aotstudio-run BUNDLE --bucket NAME`, which verifies the
    /// bundle and binds the bucket's shared weights as a deployed run does. Empty: the package
    /// alone (`aotstudio-run --package`).
    std::filesystem::path bundle;
    std::string bucket;
    bool allowUnsigned = false; ///< passed on with `bundle` (the sweep's own allow_unsigned)
    std::string device = "cpu";
};

/// Verify one planned point (core/bundle/sweepplan.h) of the package loaded in `runner` against
/// the eager model of `job` (job.load() and the frontend's `sweep_begin` have run): a sweep's
/// points and compile's verify beyond the example. Inside the guards: eager runs on seeded inputs
/// of the point's shapes, then the package, then the outputs are compared per output (outcome
/// "match", "mismatch", or "eager_error" when eager itself fails: the model's failure, not the
/// compiler's; "refused", "error", "crashed", "hung" when the package does not answer). Outside:
/// the runner must refuse the call (outcome "refused"; "not_refused" when the package ran it).
/// Returns FORMAT.md's "sweep point" object with `ok` (the outcome is what the guards promise).
/// Never throws for the package's own failures; FrontendException for the frontend's.
Protocol::Json runPoint(Python::CompileJob &job, Runtime::AotiRunner &runner, int index,
                        const Bundle::SweepPoint &point, const Bundle::SweepPlan &plan,
                        const Bundle::InputGuards &guards, const PointOptions &options);

/// The shapes a capture recorded (issue 39), for planSweep()'s SweepBudget::recorded: the
/// request's `from_capture` (a folder aotstudio-cli capture wrote) and `capture_shapes` (most
/// distinct shapes, default 32: FORMAT.md "compile"), read by the front end against `job`'s input
/// names (sweep_begin has run). Empty, and `summary` null, without `from_capture`. `summary`
/// gets {"folder", "distinct", "calls", "left_out", "chosen", "notes"}. Throws JobFailed
/// (bad_request) for a mistyped field or a folder without a record.
std::vector<Bundle::RecordedShape> recordedShapes(Python::CompileJob &job, const Protocol::Json &request,
                                                  Protocol::Json &summary);

/// One row of a sweep's points: FORMAT.md "sweep point" without the run's outcome (values named
/// by each symbol's label, shapes, reasons, expected).
Protocol::Json pointJson(const Bundle::SweepPoint &point, const Bundle::SweepPlan &plan,
                         const Bundle::InputGuards &guards);

} // namespace AotStudio::Pipeline
