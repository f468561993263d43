// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// aotstudio-run's runs that answer once and exit (runcommand.h dispatches to them): a bundle's
// bucket chosen, loaded, run and timed with its cold start; a bundle's named bucket (--bucket) or a
// lone package (--package) on an input file, the outputs saved for the caller (a sweep's isolated
// call). Each prints its result and returns the exit status.
#include "serve/bundlerun.h"
#include "serve/runcommand.h"

#include "profiler/coldclock.h"

namespace AotStudio::Serve {

/// `--package`: one package on the inputs of options.inputPath, checked by its guards sidecar (or
/// the --guards file) after its compatibility key; no hashes, no buckets, no timing.
int runPackage(const RunOptions &options);

/// `BUNDLE --bucket NAME`: that bucket's package loaded as a deployed run loads it (its shared
/// weights bound, the manifest's guards checking every input set), on the inputs of
/// options.inputPath; no bucket choice and no padding.
int runBucket(const VerifiedBundle &verified, const RunOptions &options);

/// The one-shot run of a verified bundle that can run here: the bucket for the batch, its package
/// loaded, the first output, options.iters timed runs (per runner), the report with cold start
/// (`cold`; `toVerifiedMs`: when verification ended) and outputs.
int runBundle(const VerifiedBundle &verified, const RunOptions &options, const Profiler::ColdClock &cold,
              double toVerifiedMs);

} // namespace AotStudio::Serve
