// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// aotstudio-run-lite's runs (BUNDLE.md "The libtorch-free runtime"): --abi, --check, --package and a
// bundle's run, each from LiteOptions (main.cpp parses the command line into them, as aotstudio-run's
// main parses into Serve::RunOptions). Results on stdout, refusals as one line on stderr; the exit
// statuses of core/protocol/envelope.h.
#include "profiler/coldclock.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace AotStudio::RunLite {

/// Everything `aotstudio-run-lite --help` lists, as parsed.
struct LiteOptions {
    std::string bundlePath, inputPath, saveOutputs, bucketName, checkPath, packagePath, guardsPath;
    std::optional<long long> batch;
    int iters = 100, warmup = 10;
    int threads = 0; ///< --threads: OpenMP and OpenBLAS threads; 0: every usable CPU
    std::uint64_t seed = 0;
    bool asJson = false, allowUnsigned = false, abi = false, convertLayout = false;
    std::vector<std::string> trustPaths;
};

/// Run what `options` ask for: --abi, --check, --package, or the bundle (verified, its bucket
/// chosen, loaded, run, timed, reported with cold start from `cold`). Returns the exit status.
int runLite(const LiteOptions &options, const Profiler::ColdClock &cold);

/// A malformed command line: "aotstudio-run-lite: MESSAGE" on stderr, and with `asJson` the usage
/// envelope on stdout. Returns 2.
int usage(bool asJson, const std::string &message);

/// One line, valid UTF-8, no newlines.
std::string oneLine(const std::string &message);

} // namespace AotStudio::RunLite
