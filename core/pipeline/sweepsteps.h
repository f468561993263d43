// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The steps of a sweep below runSweep (sweepjob.cpp): engine-internal, not part of the job API.
// The point-level steps compile's verify shares (runPoint, pointJson, recordedShapes) are in
// steps.h.

#include "pipeline/steps.h"
#include "protocol/messages.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace AotStudio::Bundle {
struct BucketWeight;
struct Manifest;
struct OpenedBundle;
} // namespace AotStudio::Bundle

namespace AotStudio::Pipeline::SweepSteps {

/// "[2,3] [4]": shapes as the log and sweep.csv write them.
std::string shapesText(const std::vector<std::vector<std::int64_t>> &shapes);
/// "batch=2 seq=8": a point's values by symbol label.
std::string valuesText(const Protocol::Json &values);

/// The layout rows of one target (FORMAT.md "sweep result", `layout`): at `shapes`, each tensor
/// input in each other layout the front end makes of it (contiguous, channels-last, a transpose,
/// a slice of a wider tensor, a misaligned view: sweep.py layout_variants()), the same values.
/// The runner must refuse each by default, or run it when its strides happen to be the package's
/// and then match eager; with convert_layout it must copy it and match eager. `index`: the
/// frontend's slot for the inputs. Rows: {input, variant, strides, refused, converted, message, ok}.
Protocol::Json layoutRows(Python::CompileJob &job, Runtime::AotiRunner &runner,
                          const std::vector<std::vector<std::int64_t>> &shapes, int index);

/// Load a package as the runtime would: with its bucket's shared weights (BUNDLE.md "Shared
/// weights"; empty for a package alone). Throws Runtime::RuntimeError.
std::unique_ptr<Runtime::AotiRunner> loadTarget(const std::string &package, const std::string &device,
                                                const std::map<std::string, Bundle::BucketWeight> &weights);

/// sweep.csv: one row per point of every target in `targets` (sweep.json's `targets`), written
/// atomically through Profiler::CsvTable. Throws JobFailed when the file cannot be written.
void writeSweepCsv(const std::filesystem::path &path, const Protocol::Json &targets);

/// A sweep's counts and verdict from its rows: every target's `points` (each target's `counts`
/// is filled here) and a bundle's bucket-policy rows. The one way they are made, for a sweep run
/// here and for the shards of one run on Ray, merged. Returns {passed, failures, points, counts,
/// verdict}.
Protocol::Json summarizeSweep(Protocol::Json &targets, const Protocol::Json &policy, bool bundle);

/// The batch sizes a bundle's bucket policy is checked at: 1 and each bucket's edges and their
/// neighbours (an exact bucket's batch ±1; a range's min−1, min, max, max+1), those ≥ 1.
std::set<long long> policyBatches(const Bundle::Manifest &m);

/// One bucket-policy row (BUNDLE.md "Choosing a bucket"): the bucket aotstudio-run would pick for
/// `batch`, padded as it would pad, run against eager at the real batch (padding must not change
/// the real rows' outputs). `runners` caches each bucket's loaded package. Row: {batch, bucket,
/// padded, pad_to, outcome, message, max_abs_error, ok}; never throws for the package's failures.
Protocol::Json policyRow(Python::CompileJob &job, const Bundle::OpenedBundle &bundle, const std::string &device,
                         long long batch, int index, const std::vector<std::vector<std::int64_t>> &exampleShapes,
                         std::map<std::string, std::unique_ptr<Runtime::AotiRunner>> &runners);

} // namespace AotStudio::Pipeline::SweepSteps
