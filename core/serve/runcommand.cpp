// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-run as a library (runcommand.h): the contradictions among its options, and what runs.
#include "serve/runcommand.h"

#include "bundle/text.h"
#include "protocol/envelope.h"
#include "serve/bundleworker.h"
#include "serve/oneshot.h"
#include "serve/replay.h"
#include "serve/server.h"

#include <cmath>
#include <csignal>
#include <cstdio>

#include <unistd.h>

namespace AotStudio::Serve {

namespace {

extern "C" void onInterrupt(int)
{
    // A one-shot run has nothing to finish cleanly: leave at once with the cancel status (128 + SIGINT).
    static const char msg[] = "\naotstudio-run: interrupted\n";
    (void)!::write(STDERR_FILENO, msg, sizeof msg - 1);
    ::_exit(Protocol::kExitCancelled);
}

/// --serve, --replay or --poisson on a verified bundle: the resident server and the replay never
/// initialise CUDA in the parent (SERVING.md "The fork rules").
int serveOrReplay(const VerifiedBundle &verified, const RunOptions &o)
{
    ServeOptions options;
    options.isolation = o.isolation;
    options.workers = o.workers;
    options.socketPath = o.socketPath;
    options.requestTimeoutMs = o.serve ? static_cast<int>(std::lround(o.requestTimeoutSeconds * 1000)) : 0;
    try {
        if (o.given.eagerServer)
            options.eagerServer = splitCommandLine(o.eagerServerLine);
        checkRunsHereWithoutCuda(verified);
        BundleWorker body(verified, {o.convertLayout, o.trustPaths, o.allowUnsigned});
        if (o.serve)
            return serve(body, options);
        ReplayOptions replayOptions;
        replayOptions.tracePath = o.replayPath;
        replayOptions.poissonRate = o.poissonRate;
        replayOptions.seconds = o.seconds;
        replayOptions.seed = o.seed;
        replayOptions.batch = o.batch;
        replayOptions.isolationGiven = o.given.isolation;
        replayOptions.asJson = o.asJson;
        return replay(body, options, replayOptions);
    } catch (const Refusal &e) {
        return printRefusal(o.asJson, e.stage(), e.what(), e.code());
    } catch (const UsageError &e) {
        return printUsage(o.asJson, oneLine(e.what()));
    }
}

} // namespace

std::string RunOptions::contradiction() const
{
    if (given.eagerServer && replayPath.empty() && !(poissonRate > 0))
        return "--eager-server goes with --replay or --poisson; see --help";
    if (!serve && given.requestTimeout)
        return "--request-timeout goes with --serve; see --help";
    if (!serving() && (given.isolation || given.workers))
        return "--isolation and --workers go with --serve, --replay or --poisson; see --help";
    if ((serve && batch) || (serving() && !inputPath.empty()))
        return "with --serve each request names its batch or input file (--replay and --poisson take "
               "--batch only); see --help";
    if (packagePath.empty()
        && ((!saveOutputsPath.empty() && bucketName.empty()) || !guardsPath.empty() || given.device))
        return "--guards and --device go with --package, --save-outputs with --package or --bucket (a "
               "bundle's outputs are summarised; its device and guards come from its manifest); see --help";
    if (!bucketName.empty() && inputPath.empty())
        return "--bucket needs --input FILE (torch.save of the input tensors of the bucket's shapes)";
    if (!packagePath.empty() && inputPath.empty())
        return "--package needs --input FILE (torch.save of the input tensors)";
    if (packagePath.empty() && bundlePath.empty())
        return "give a bundle (directory or .zip) or --package FILE.pt2; see --help";
    return {};
}

int printRefusal(bool asJson, const std::string &stage, const std::string &message, const std::string &code)
{
    // The message may quote bytes of the bundle (a manifest's parse error, a file name): it is made
    // valid UTF-8 and kept on one line.
    const std::string line = oneLine(message);
    std::fprintf(stderr, "aotstudio-run: %s: %s\n", stage.c_str(), line.c_str());
    if (asJson)
        Protocol::printEnvelope(stdout, Protocol::errorEnvelope(errorJson(stage, line, "", code)));
    std::fflush(nullptr);
    return Protocol::kExitFailed;
}

int printUsage(bool asJson, const std::string &message)
{
    std::fprintf(stderr, "aotstudio-run: %s\n", message.c_str());
    if (asJson)
        Protocol::printEnvelope(stdout, Protocol::usageEnvelope(message));
    return Protocol::kExitUsage;
}

int runCommand(const RunOptions &o, const Profiler::ColdClock &cold)
{
    // Ctrl-C: exit 130 (a --serve or replay loop installs its own handling while it runs).
    std::signal(SIGINT, onInterrupt);
    if (const std::string why = o.contradiction(); !why.empty())
        return printUsage(o.asJson, why);
    if (o.threads > 0)
        Runtime::setIntraOpThreads(o.threads); // before any package loads: its kernels use this count
    if (!o.packagePath.empty())
        return runPackage(o);

    // The trust store first: a store that cannot be read is a configuration error, never an empty store.
    Bundle::TrustStore trust;
    try {
        trust = loadTrustStore(o.trustPaths);
    } catch (const UsageError &e) {
        return printUsage(o.asJson, e.what());
    }
    // Open and verify the hashes, then the signature; nothing of the bundle is loaded before.
    VerifiedBundle verified;
    try {
        verified = openVerified(o.bundlePath, trust, o.allowUnsigned);
    } catch (const Refusal &e) {
        return printRefusal(o.asJson, e.stage(), e.what(), e.code());
    }
    const double toVerifiedMs = cold.sinceStartMs();
    if (o.serving())
        return serveOrReplay(verified, o);

    // Can it run here? CUDA is asked about only for a CUDA bundle: the question loads
    // libtorch_cuda (runtime/libraries.h).
    const bool cuda = verified.bundle.manifest.device.rfind("cuda", 0) == 0 && Runtime::cudaAvailable();
    try {
        checkRunsHere(verified, cuda, cuda ? Runtime::cudaComputeCapability(0) : std::string());
    } catch (const Refusal &e) {
        return printRefusal(o.asJson, e.stage(), e.what(), e.code());
    }
    if (!o.bucketName.empty())
        return runBucket(verified, o);
    return runBundle(verified, o, cold, toVerifiedMs);
}

} // namespace AotStudio::Serve
