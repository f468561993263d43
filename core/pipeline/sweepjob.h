// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bundle/sweepplan.h"
#include "pipeline/compilejob.h"

#include <filesystem>
#include <stop_token>
#include <string>

namespace AotStudio::Python {
class CompileJob;
}
namespace AotStudio::Runtime {
class AotiRunner;
}

namespace AotStudio::Pipeline {

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
/// the eager model of `job` (job.load() and the frontend's `sweep_begin` have run). Inside the
/// guards: eager runs on seeded inputs of the point's shapes, then the package, then the outputs
/// are compared per output (outcome "match", "mismatch", or "eager_error" when eager itself fails:
/// the model's failure, not the compiler's; "refused", "error", "crashed", "hung" when the package
/// does not answer). Outside: the runner must refuse the call (outcome "refused"; "not_refused"
/// when the package ran it). Returns FORMAT.md's "sweep point" object with `ok` (the outcome is
/// what the guards promise). Never throws for the package's own failures; FrontendException for
/// the frontend's.
Protocol::Json runPoint(Python::CompileJob &job, Runtime::AotiRunner &runner, int index,
    const Bundle::SweepPoint &point, const Bundle::SweepPlan &plan, const Bundle::InputGuards &guards,
    const PointOptions &options);

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
Protocol::Json pointJson(
    const Bundle::SweepPoint &point, const Bundle::SweepPlan &plan, const Bundle::InputGuards &guards);

/// Run one `sweep` request (FORMAT.md "sweep"): a package (`package`, with the model from its
/// result.json unless `model` is given), a bundle (`bundle`: every bucket's package, and the
/// bucket policy across batch sizes with padding checked against eager), or a model compiled first
/// into OUT/compile (`model` alone, the compile request's fields apply). Writes OUT/sweep.json and
/// OUT/sweep.csv; returns the same object, `passed` false when any point's outcome is not what the
/// guards promise (the CLI then exits 1). Throws JobFailed for a bad request, a package that cannot
/// be loaded, or a cancel.
Protocol::Json runSweep(std::int64_t id, const Protocol::Json &request, const EventFn &emit, std::stop_token stop);

} // namespace AotStudio::Pipeline
