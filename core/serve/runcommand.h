// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// aotstudio-run as a library: its options, the contradictions among them that a per-option check
// cannot see, and running them (the one-shot run, --package, --bucket, --serve, the replay). The
// executable's main() (app/run/main.cpp) parses the command line into RunOptions and calls
// runCommand(). Exit statuses are core/protocol/envelope.h's: 0, 1 refused or failed, 2 bad
// command line, 130 Ctrl-C.
#include "serve/serveoptions.h"

#include "profiler/coldclock.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace AotStudio::Serve {

/// Everything `aotstudio-run --help` lists, as parsed (units in the names).
struct RunOptions {
    std::string bundlePath; ///< a bundle directory or .zip
    std::string packagePath; ///< --package: one .pt2 instead of a bundle
    std::string packageDevice = "cpu"; ///< --device, with --package
    std::string bucketName; ///< --bucket, with a bundle and --input
    std::string inputPath; ///< --input: torch.save'd tensors instead of generated ones
    std::string saveOutputsPath; ///< --save-outputs, with --package or --bucket
    std::string guardsPath; ///< --guards, with --package
    std::optional<long long> batch;
    int runners = 1, iters = 100, warmup = 10;
    int threads = 0; ///< --threads: intra-op threads; 0: LibTorch's default
    std::uint64_t seed = 0;
    bool asJson = false;
    bool convertLayout = false;
    std::vector<std::string> trustPaths;
    bool allowUnsigned = false;

    bool serve = false;
    std::string replayPath, socketPath, eagerServerLine;
    double poissonRate = 0; ///< --poisson, requests/s
    double seconds = 10; ///< --seconds, the length of the Poisson trace, s
    Isolation isolation = Isolation::Worker;
    int workers = 1;
    double requestTimeoutSeconds = kDefaultRequestTimeoutMs / 1000.0;

    /// Which options the command line gave (what a default cannot tell).
    struct Given {
        bool device = false, isolation = false, workers = false, requestTimeout = false, eagerServer = false;
    } given;

    /// --serve, --replay or --poisson.
    bool serving() const { return serve || !replayPath.empty() || poissonRate > 0; }
    /// The first contradiction among the options (the usage message, ending "; see --help"), or
    /// "" when there is none: an option without the one it goes with, a bundle and a package both
    /// missing.
    std::string contradiction() const;
};

/// Run aotstudio-run with `options`: a contradiction is a usage error (2); then --package, or the
/// bundle's trust store, verification and signature, then --serve or the replay, --bucket, or the
/// one-shot run with its report on stdout. Installs a SIGINT handler that exits 130 at once
/// ("aotstudio-run: interrupted"; the server and the replay install their own while they run).
/// `cold`: the clock made first thing in main(). Returns the exit status; never throws.
int runCommand(const RunOptions &options, const Profiler::ColdClock &cold);

/// A refusal or failure: "aotstudio-run: STAGE: MESSAGE" (one line, valid UTF-8) on stderr, and
/// with `asJson` the error envelope on stdout. Returns 1.
int printRefusal(bool asJson, const std::string &stage, const std::string &message, const std::string &code = "");

/// A malformed command line: "aotstudio-run: MESSAGE" on stderr, and with `asJson` the usage
/// envelope on stdout. Returns 2.
int printUsage(bool asJson, const std::string &message);

} // namespace AotStudio::Serve
