// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-run: what a short-lived worker does with a bundle (core/runtime/BUNDLE.md), in C++ with
// LibTorch only (no Python): verify every hash and the signature, check that the bundle can run here, choose the
// bucket for the batch, load its AOTInductor package, run it, and report latency, throughput,
// cold start and a summary of the outputs. Results on stdout (one JSON object with --json),
// refusals and failures as one line on stderr.
#include "bundlerun.h"
#include "serve.h"

#include "bundle/bundle.h"
#include "bundle/compat.h"
#include "bundle/guards.h"
#include "bundle/signing.h"
#include "bundle/text.h"
#include "profiler/coldclock.h"
#include "profiler/machine.h"
#include "protocol/envelope.h"
#include "profiler/measure.h"
#include "runtime/aotirunner.h"
#include "runtime/libraries.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <latch>
#include <limits>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include <time.h>
#include <unistd.h>

using namespace AotStudio;
using nlohmann::json;

namespace {

// core/protocol/envelope.h: 1 refused (invalid bundle, wrong device or torch, no bucket) or failed,
// 2 bad command line, 130 Ctrl-C.
constexpr int kExitRefused = Protocol::kExitFailed;
constexpr int kExitUsage = Protocol::kExitUsage;

extern "C" void onInterrupt(int)
{
    // A one-shot run has nothing to finish cleanly: leave at once with the cancel status (128 + SIGINT).
    static const char msg[] = "\naotstudio-run: interrupted\n";
    (void)!::write(STDERR_FILENO, msg, sizeof msg - 1);
    ::_exit(Protocol::kExitCancelled);
}

using Clock = std::chrono::steady_clock;

using Profiler::ColdClock; // profiler/coldclock.h: the cold-start clock both runtimes share

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

json summaryJson(const Profiler::Summary &s)
{
    // The key names of every other timed figure (compile's `eager`, profile's `statistics`).
    return {{"runs", s.runs},         {"median_ms", s.medianMs}, {"p10_ms", s.p10Ms}, {"p90_ms", s.p90Ms},
            {"p99_ms", s.p99Ms},      {"mean_ms", s.meanMs},     {"stddev_ms", s.stddevMs},
            {"min_ms", s.minMs},      {"max_ms", s.maxMs}};
}

std::string shapeString(const std::vector<long long> &shape)
{
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

/// One-line failure: on stderr always, and as the error envelope on stdout with --json. The
/// message may quote bytes of the bundle (a manifest's parse error, a file name): it is made valid
/// UTF-8 and kept on one line.
int refuse(bool asJson, const std::string &stage, const std::string &message, const std::string &code = "")
{
    const std::string line = RunApp::oneLine(message);
    std::fprintf(stderr, "aotstudio-run: %s: %s\n", stage.c_str(), line.c_str());
    if (asJson)
        Protocol::printEnvelope(stdout, Protocol::errorEnvelope(RunApp::errorJson(stage, line, "", code)));
    std::fflush(nullptr);
    return kExitRefused;
}

/// A malformed command line: the reason on stderr, and with --json the envelope on stdout too.
int usage(bool asJson, const std::string &message)
{
    std::fprintf(stderr, "aotstudio-run: %s\n", message.c_str());
    if (asJson)
        Protocol::printEnvelope(stdout, Protocol::usageEnvelope(message));
    return kExitUsage;
}

/// The run of an isolated call (`--package`, `--bucket`): `runner` on the tensors of `inputPath`
/// (a dict arranged by the guards' input names), the outputs saved to `saveTo` for the caller.
/// `head` starts the --json result; `label` names the package in the text output. Exit 1 with
/// stage "refused" when the guards refuse the inputs, "failed" when reading or running fails.
int runOnInputs(Runtime::AotiRunner &runner, const std::string &inputPath, const std::string &saveTo, bool asJson, json head,
                const std::string &label)
{
    std::shared_ptr<const Runtime::InputFile> inputs;
    try {
        std::vector<std::string> names; // a dict of named tensors is arranged by the guards' input names
        if (const auto &guards = runner.guards())
            for (std::size_t i = 0; i < guards->inputCount(); ++i)
                names.push_back(guards->inputName(i));
        inputs = Runtime::InputFile::read(inputPath, names);
    } catch (const Runtime::RuntimeError &e) {
        return refuse(asJson, "failed", e.what());
    }
    double runMs = 0;
    try {
        runner.setInputs(*inputs);
    } catch (const Runtime::InputRefused &e) {
        return refuse(asJson, "refused", e.what());
    } catch (const Runtime::RuntimeError &e) {
        return refuse(asJson, "failed", e.what());
    }
    try {
        const auto t0 = Clock::now();
        runner.run();
        runMs = msSince(t0);
        if (!saveTo.empty())
            runner.saveOutputs(saveTo);
    } catch (const Runtime::RuntimeError &e) {
        return refuse(asJson, "failed", e.what());
    }
    json outs = json::array();
    for (const auto &o : runner.outputSummary())
        outs.push_back({{"shape", o.shape}, {"dtype", o.dtype}, {"sum", o.sum}, {"non_finite", o.nonFinite}});
    head["run_ms"] = runMs;
    head["outputs"] = outs;
    head["saved"] = saveTo.empty() ? json() : json(saveTo);
    head["layout_conversions"] = RunApp::conversionsJson(runner.layoutConversions());
    if (asJson) {
        Protocol::printEnvelope(stdout, Protocol::okEnvelope(Bundle::validUtf8Json(head)));
    } else {
        std::printf("package:  %s\nrun:      %.3f ms\noutputs:  %zu\n", label.c_str(), runMs, outs.size());
        for (const auto &c : runner.layoutConversions())
            std::printf("layout:   %s\n", Bundle::validUtf8(c.message).c_str());
    }
    std::fflush(nullptr);
    return 0;
}

/// `--package`: one package on the inputs of `inputPath`, checked by its guards sidecar (or the
/// `--guards` file); the outputs saved for the caller (a sweep's isolated call).
int runPackage(const std::string &package, const std::string &device, const std::string &inputPath, const std::string &saveTo,
               const std::string &guardsPath, bool convertLayout, bool asJson)
{
  try {
    if (inputPath.empty())
        return usage(asJson, "--package needs --input FILE (torch.save of the input tensors)");
    std::unique_ptr<Runtime::AotiRunner> runner;
    try {
        // What the package was built for (its metadata and kernel images: bundle/compat.h), checked
        // before its native code is loaded: another machine, missing CPU instructions, no kernel
        // for this GPU are refusals, not an illegal instruction or a CUDA error later.
        const bool cuda = device == "cuda" && Runtime::cudaAvailable();
        const Bundle::PackageTarget target = Bundle::readPackageTarget(package, 1ull << 30, /*sharedObjects=*/false);
        if (target.found) {
            const auto why = Bundle::checkCompat(Bundle::packageCompat(target, ""),
                                                 Bundle::Host::current(Runtime::libtorchVersion(), cuda,
                                                                       cuda ? Runtime::cudaComputeCapability(0) : ""));
            if (!why.empty())
                return refuse(asJson, "refused", "package '" + package + "': " + why.front(), Protocol::Code::Incompatible);
        }
        Runtime::AotiRunner::LoadOptions options;
        options.extractionCache = true;
        options.convertLayout = convertLayout;
        runner = Runtime::AotiRunner::load(package, device, options);
        if (!guardsPath.empty()) { // a bundle's bucket guards, written out by the caller
            std::ifstream in(guardsPath);
            const json g = json::parse(in, nullptr, false);
            if (g.is_discarded())
                return refuse(asJson, "failed", "--guards '" + guardsPath + "' is not JSON");
            runner->setGuards(std::make_shared<Bundle::InputGuards>(Bundle::InputGuards::parse(g, guardsPath)));
        }
    } catch (const Runtime::RuntimeError &e) {
        return refuse(asJson, "failed", e.what());
    } catch (const Bundle::BundleError &e) {
        return refuse(asJson, "failed", e.what());
    }
    return runOnInputs(*runner, inputPath, saveTo, asJson, {{"package", package}, {"device", device}}, package);
  } catch (const std::exception &e) { // a c10::Error from LibTorch outside the runner's own wrapping
    return refuse(asJson, "failed", e.what());
  }
}

/// `BUNDLE --bucket NAME`: that bucket's package loaded as a deployed run loads it (the weights
/// the buckets share bound from the bundle's weights/, the manifest's guards checking every input
/// set), on the inputs of `inputPath`; the outputs saved for the caller (a sweep's isolated call
/// of a bundle). No bucket choice and no padding: the caller names the bucket and gives inputs of
/// the shapes it is to run.
int runBucket(const RunApp::VerifiedBundle &verified, const std::string &bucketName, const std::string &inputPath,
              const std::string &saveTo, bool convertLayout, bool asJson)
{
  try {
    const Bundle::Manifest &m = verified.bundle.manifest;
    const auto it = std::find_if(m.buckets.begin(), m.buckets.end(), [&](const Bundle::Bucket &b) { return b.name == bucketName; });
    if (it == m.buckets.end()) {
        std::string names;
        for (const auto &b : m.buckets)
            names += (names.empty() ? "" : ", ") + b.name;
        return refuse(asJson, "refused", "bundle '" + verified.path + "' has no bucket '" + bucketName + "' (its buckets: " + names + ")");
    }
    std::unique_ptr<Runtime::AotiRunner> runner;
    try {
        runner = RunApp::loadBucket(verified, *it, 1, convertLayout);
    } catch (const RunApp::Refusal &e) {
        return refuse(asJson, e.stage(), e.what(), e.code());
    }
    return runOnInputs(*runner, inputPath, saveTo, asJson,
                       {{"bundle", verified.bundle.source.string()}, {"bucket", it->name}, {"package", it->package}, {"device", m.device}},
                       it->package);
  } catch (const std::exception &e) {
    return refuse(asJson, "failed", e.what());
  }
}

/// CLI::PositiveNumber's message prints the whole range of a double; this one says what it wants.
CLI::Validator positiveNumber()
{
    return CLI::Validator(
        [](std::string &value) {
            char *end = nullptr;
            const double v = std::strtod(value.c_str(), &end);
            return end != value.c_str() && *end == '\0' && v > 0 && std::isfinite(v)
                ? std::string()
                : "'" + value + "' is not a number above 0";
        },
        "NUMBER > 0");
}

/// `--request-timeout S` (SERVING.md: the per-request deadline of --serve) into `seconds`.
CLI::Option *addRequestTimeout(CLI::App &app, double &seconds)
{
    return app
        .add_option("--request-timeout", seconds,
                    "With --serve: seconds a worker may take to answer one request; past it the request is "
                    "answered with an error naming the deadline and the worker is killed and replaced (0: none)")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 86400.0));
}

} // namespace

int main(int argc, char **argv)
{
    const ColdClock cold; // first thing in main: everything before is exec, linking and static init
    Runtime::Libraries::useCpuStandIn(true); // no Python here: a CPU package maps no CUDA library (libraries.h)

    CLI::App app{"Run a deployable AOT Studio bundle (a directory or its .zip) with LibTorch, no Python: verify the\n"
                 "SHA-256 of every file, check device and torch, pick the shape bucket for --batch, load its\n"
                 "AOTInductor package, run it on generated inputs and report latency, cold start and outputs.",
                 "aotstudio-run"};
    app.footer("Inputs are generated (unless --input): floating inputs N(0, 1) from --seed, integer and bool inputs zeros. A batch\n"
               "without an exact bucket runs padded with zero rows in the next larger bucket when the bundle is\n"
               "pad_safe (outputs are sliced back), else in the dynamic bucket. Loading a package runs native\n"
               "code from the bundle: hashes and the signature are verified first. With a trust store (--trust,\n"
               "or $AOTSTUDIO_TRUST: ':'-separated key files and folders of *.pub) only bundles signed by one of\n"
               "its keys run, unless --allow-unsigned; without one every bundle runs and the output says that\n"
               "nothing vouched for it. A signature that does not verify is always refused.\n"
               "Cold start is measured from the process's start (/proc/self/stat starttime, 10 ms ticks), so it\n"
               "includes loading LibTorch.\n"
               "Exit status: 0 success, 1 refused (invalid or tampered bundle, truncated zip, unsigned or foreign\n"
               "bundle with a trust store, invalid signature, no bucket for the batch, wrong device, incompatible\n"
               "torch) or failed (load, run), 2 bad command line (or an unreadable trust store), 130 Ctrl-C.\n"
               "--json: one line, {\"ok\": true, \"result\": {...}} or {\"ok\": false, \"error\": {\"stage\", \"code\",\n"
               "\"message\", \"hint\"}} (core/protocol/FORMAT.md \"Command-line tools\").\n"
               "SERVING (--serve): the parent verifies the bundle once (and extracts a zip), then answers JSON lines:\n"
               "  {\"id\": 1, \"batch\": 4, \"seed\": 0}   {\"id\": 2, \"input\": \"/path/x.pt\"}   {\"id\": 3, \"shutdown\": true}\n"
               "with one line each, in completion order: {\"id\", \"ok\": true, \"bucket\", \"outputs\" (as --json prints them),\n"
               "\"timing\": {\"queue_ms\", \"worker_start_ms\", \"setup_ms\", \"load_ms\", \"inputs_ms\", \"run_ms\", \"total_ms\"}, \"worker_pid\"} or\n"
               "{\"id\", \"ok\": false, \"error\": {\"stage\", \"code\", \"message\", \"hint\"}}. Workers are fork()ed from the parent, which never\n"
               "runs a forward or initialises CUDA (a forked child could not use them); a crashed worker's request\n"
               "gets an error naming the signal and the pool replaces it. End of input or a shutdown request\n"
               "finishes the requests in flight and exits. --replay/--poisson drive the same pool in process and\n"
               "compare it with a fresh aotstudio-run per request and, with --eager-server, with resident eager\n"
               "server processes (median/p99 latency with 95% intervals).\n"
               "Examples:\n"
               "  aotstudio-run build/convnet-bundle\n"
               "  aotstudio-run build/convnet-bundle.zip --batch 3 --iters 200 --json\n"
               "  aotstudio-run build/convnet-bundle --batch 8 --runners 4\n"
               "  aotstudio-run build/convnet-bundle.zip --trust ~/.config/aotstudio/trusted-keys/\n"
               "  aotstudio-run --serve build/mlp-bundle --isolation request --workers 2 < requests.jsonl\n"
               "  aotstudio-run --serve build/mlp-bundle --socket /run/user/1000/aotstudio-mlp/serve.sock\n"
               "  aotstudio-run --poisson 20 --seconds 10 build/mlp-bundle --batch 1\n"
               "  PYTHONPATH=core/python aotstudio-run --poisson 5 --seconds 4 build/mlp-bundle --batch 1 \\\n"
               "      --eager-server \".venv/bin/python -m aotstudio_frontend.eager_serve sample:mlp cpu\"\n"
               "  (from the source tree; the eager server needs a Python with torch)");
    std::string bundlePath;
    std::optional<long long> batchOpt;
    int runners = 1, iters = 100, warmup = 10;
    std::uint64_t seed = 0;
    bool asJson = false;
    bool convertLayout = false;
    std::string packagePath, packageDevice = "cpu", saveOutputsPath, guardsPath;
    auto *bundleOpt = app.add_option("bundle", bundlePath, "Bundle directory or .zip (from aotstudio-cli export)");
    auto *packageOpt = app.add_option("--package", packagePath, "Run one AOTInductor .pt2 instead of a bundle (its model.guards.json "
                                                                "beside it checks the inputs; needs --input). For sweeps (aotstudio-cli "
                                                                "sweep --isolate): no hashes, no buckets, no timing")
                           ->check(CLI::ExistingFile);
    bundleOpt->excludes(packageOpt);
    app.add_option("--device", packageDevice, "With --package: cpu or cuda")->capture_default_str()->check(CLI::IsMember({"cpu", "cuda"}));
    app.add_option("--save-outputs", saveOutputsPath, "With --package or --bucket: write the outputs with torch.save's format (a tuple of tensors; torch.load(FILE) reads it)");
    std::string bucketName;
    auto *bucketOpt = app.add_option("--bucket", bucketName, "With a bundle: run this bucket's package on --input (no bucket choice, no "
                                                             "padding; its shared weights bound and its guards checked as in "
                                                             "deployment). For sweeps (aotstudio-cli sweep --bundle --isolate): no timing");
    bucketOpt->excludes(packageOpt);
    app.add_option("--guards", guardsPath, "With --package: check the inputs against this guards file (FORMAT.md \"guards\") "
                                           "instead of the package's model.guards.json")
        ->check(CLI::ExistingFile);
    app.add_option("-b,--batch", batchOpt, "Batch size of the request (default: the first exact bucket's batch)")
        ->check(CLI::Range(1LL, 1LL << 40));
    app.add_option("--runners", runners, "Concurrent threads and model instances (num_runners); above 1 also "
                                         "reports throughput")
        ->capture_default_str()
        ->check(CLI::Range(1, 1024));
    app.add_option("--iters", iters, "Timed runs (per runner); 0 runs once for the output only")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000000));
    app.add_option("--warmup", warmup, "Untimed runs before timing")->capture_default_str()->check(CLI::Range(0, 100000000));
    app.add_option("--seed", seed, "Seed of the generated inputs")->capture_default_str();
    int threads = 0;
    app.add_option("--threads", threads, "Intra-op threads (OpenMP and ATen's pool) for the package's kernels (default: "
                                         "LibTorch's, every usable CPU); fewer makes figures steadier on a busy machine")
        ->check(CLI::Range(1, 4096));
    std::string inputPath;
    app.add_option("-i,--input", inputPath, "Inputs from a file written by torch.save(tensor, [tensors] or {name: tensor}, "
                                            "FILE) instead of generated ones; a dict is matched to the bundle's input names "
                                            "(aotstudio-cli inspect lists them); the batch is the first tensor's first dimension")
        ->check(CLI::ExistingFile);
    std::vector<std::string> trustPaths;
    bool allowUnsigned = false;
    auto *trustOpt = app.add_option("--trust", trustPaths, "Trust store: an Ed25519 public key file (KEYFILE.pub from aotstudio-cli "
                                                           "keygen) or a folder of *.pub files; repeatable. Default: $AOTSTUDIO_TRUST")
                         ->check(CLI::ExistingPath);
    trustOpt->excludes(packageOpt);
    app.add_flag("--allow-unsigned", allowUnsigned, "Run an unsigned bundle, or one signed by a key outside the trust store "
                                                    "(an invalid signature is refused all the same)");
    app.add_flag("--json", asJson, "Print one JSON object on stdout");
    app.add_flag("--convert-layout", convertLayout,
                 "Copy an --input tensor (or a served request's) whose strides are not the ones the package was compiled "
                 "for (channels-last, a transpose, a slice, an expanded or misaligned view) into the package's layout, "
                 "and say so in the output; without it such an input is refused (AOTInductor would read the wrong "
                 "elements and return a wrong result)");

    // Serving (app/run/SERVING.md): a resident parent with the bundle verified, a pool of forked workers.
    bool serve = false;
    std::string replayPath, socketPath, eagerServerLine;
    double poissonRate = 0, seconds = 10;
    RunApp::Isolation isolation = RunApp::Isolation::Worker;
    int workers = 1;
    double requestTimeout = RunApp::kDefaultRequestTimeoutMs / 1000.0;
    const CLI::Validator positive = positiveNumber();
    auto *serveOpt = app.add_flag("--serve", serve, "Serve requests (JSON lines on stdin, or on --socket) from a pool of worker "
                                                    "processes forked from this verified, prepared process; see SERVING below");
    auto *isolationOpt =
        app.add_option("--isolation", isolation, "With --serve/--replay/--poisson: 'request' forks a fresh worker per request "
                                                 "(the short-lived-worker model), 'worker' keeps --workers warm workers that keep "
                                                 "their packages loaded (default)")
            ->transform(CLI::CheckedTransformer(std::map<std::string, RunApp::Isolation>{{"request", RunApp::Isolation::Request},
                                                                                          {"worker", RunApp::Isolation::Worker}},
                                                CLI::ignore_case))
            ->option_text("request|worker");
    auto *workersOpt = app.add_option("--workers", workers, "Workers: warm workers (worker isolation) or at most this many "
                                                            "requests at once (request isolation); the replay's spawn baseline "
                                                            "runs as many processes at once")
                           ->capture_default_str()
                           ->check(CLI::Range(1, 256));
    auto *timeoutOpt = addRequestTimeout(app, requestTimeout);
    auto *socketOpt = app.add_option("--socket", socketPath, "With --serve: listen on this Unix socket instead of stdin; its folder "
                                                             "must not exist: it is made with mode 0700 and removed on exit");
    auto *replayOpt = app.add_option("--replay", replayPath, "Replay an arrival trace (JSON lines {\"t_ms\": 12.5, \"batch\": 1}) "
                                                             "against the server in this process, per isolation mode, and "
                                                             "against a fresh aotstudio-run process per request; report latency")
                          ->check(CLI::ExistingFile);
    auto *poissonOpt = app.add_option("--poisson", poissonRate, "Replay a Poisson arrival process of RATE requests/s (seeded by "
                                                                "--seed) for --seconds, as --replay does")
                           ->check(positive);
    auto *secondsOpt = app.add_option("--seconds", seconds, "Length of the --poisson trace, s")->capture_default_str()->check(positive);
    auto *eagerOpt = app.add_option("--eager-server", eagerServerLine,
                                    "With --replay/--poisson: also serve the trace by --workers resident processes of "
                                    "this command (split as sh does, nothing substituted), which answer the request "
                                    "lines on stdin after a first {\"ready\": true} line: the Python eager baseline, "
                                    "e.g. \".venv/bin/python -m aotstudio_frontend.eager_serve sample:mlp cpu\" with "
                                    "PYTHONPATH=core/python (SERVING.md)");
    replayOpt->excludes(poissonOpt);
    serveOpt->excludes(replayOpt)->excludes(poissonOpt);
    for (auto *o : {serveOpt, replayOpt, poissonOpt}) {
        o->excludes(packageOpt);
        o->excludes(bucketOpt);
    }
    socketOpt->needs(serveOpt);
    eagerOpt->excludes(serveOpt);
    secondsOpt->needs(poissonOpt);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        if (e.get_exit_code() == 0) // --help
            return app.exit(e);
        if (Protocol::wantsJson(argc, argv)) {
            Protocol::printEnvelope(stdout, Protocol::usageEnvelope(e.what()));
            app.exit(e, std::cerr, std::cerr);
        } else {
            app.exit(e);
        }
        return kExitUsage;
    }
    // Ctrl-C: exit 130 (a --serve or replay loop installs its own handling, serve.h).
    std::signal(SIGINT, onInterrupt);

    const bool serving = serve || !replayPath.empty() || poissonRate > 0;
    if (eagerOpt->count() > 0 && replayPath.empty() && !(poissonRate > 0))
        return usage(asJson, "--eager-server goes with --replay or --poisson; see --help");
    if (!serve && timeoutOpt->count() > 0)
        return usage(asJson, "--request-timeout goes with --serve; see --help");
    if (!serving && (isolationOpt->count() > 0 || workersOpt->count() > 0))
        return usage(asJson, "--isolation and --workers go with --serve, --replay or --poisson; see --help");
    if ((serve && batchOpt) || (serving && !inputPath.empty()))
        return usage(asJson, "with --serve each request names its batch or input file (--replay and --poisson take "
                             "--batch only); see --help");

    if (packagePath.empty() && ((!saveOutputsPath.empty() && bucketName.empty()) || !guardsPath.empty() || app.count("--device") > 0))
        return usage(asJson, "--guards and --device go with --package, --save-outputs with --package or --bucket (a "
                             "bundle's outputs are summarised; its device and guards come from its manifest); see --help");
    if (!bucketName.empty() && inputPath.empty())
        return usage(asJson, "--bucket needs --input FILE (torch.save of the input tensors of the bucket's shapes)");
    if (threads > 0)
        Runtime::setIntraOpThreads(threads); // before any package loads: its kernels use this count

    if (!packagePath.empty())
        return runPackage(packagePath, packageDevice, inputPath, saveOutputsPath, guardsPath, convertLayout, asJson);
    if (bundlePath.empty())
        return usage(asJson, "give a bundle (directory or .zip) or --package FILE.pt2; see --help");

    // The trust store first: a store that cannot be read is a configuration error, never an empty store.
    Bundle::TrustStore trust;
    try {
        trust = RunApp::loadTrustStore(trustPaths);
    } catch (const RunApp::TrustStoreError &e) {
        return usage(asJson, e.what());
    }

    // 1. Open and verify the hashes, then the signature; nothing of the bundle is loaded before.
    RunApp::VerifiedBundle verified;
    try {
        verified = RunApp::openVerified(bundlePath, trust, allowUnsigned);
    } catch (const RunApp::Refusal &e) {
        return refuse(asJson, e.stage(), e.what(), e.code());
    }
    const Bundle::OpenedBundle &bundle = verified.bundle;
    const std::string &signatureLine = verified.signatureLine;
    const double verifyMs = verified.verifyMs;
    const double toVerifiedMs = cold.sinceStartMs();
    const Bundle::Manifest &m = bundle.manifest;

    if (serving) {
        // The resident server and the replay never initialise CUDA in the parent (serve.h).
        RunApp::ServeOptions options;
        options.isolation = isolation;
        options.workers = workers;
        options.socketPath = socketPath;
        options.trustArgs = trustPaths;
        options.allowUnsigned = allowUnsigned;
        options.convertLayout = convertLayout;
        options.requestTimeoutMs = serve ? static_cast<int>(std::lround(requestTimeout * 1000)) : 0;
        try {
            if (eagerOpt->count() > 0)
                options.eagerServer = RunApp::splitCommandLine(eagerServerLine);
            RunApp::checkRunsHereWithoutCuda(verified);
            if (!replayPath.empty() || poissonRate > 0) {
                RunApp::ReplayOptions replay;
                replay.tracePath = replayPath;
                replay.poissonRate = poissonRate;
                replay.seconds = seconds;
                replay.seed = seed;
                replay.batch = batchOpt;
                replay.isolationGiven = isolationOpt->count() > 0;
                replay.asJson = asJson;
                return RunApp::replay(verified, options, replay);
            }
            return RunApp::serve(verified, options);
        } catch (const RunApp::Refusal &e) {
            return refuse(asJson, e.stage(), e.what(), e.code());
        } catch (const RunApp::UsageError &e) {
            return usage(asJson, RunApp::oneLine(e.what()));
        }
    }

    // 2. Can it run here, and in which bucket?
    // CUDA is asked about only for a CUDA bundle: the question loads libtorch_cuda (libraries.h).
    const bool cudaBundle = m.device.rfind("cuda", 0) == 0;
    const bool cuda = cudaBundle && Runtime::cudaAvailable();
    const std::string capability = cuda ? Runtime::cudaComputeCapability(0) : std::string();
    RunApp::RequestPlan plan;
    try {
        RunApp::checkRunsHere(verified, cuda, capability);
        if (!bucketName.empty())
            return runBucket(verified, bucketName, inputPath, saveOutputsPath, convertLayout, asJson);
        plan = RunApp::planRequest(verified, batchOpt, inputPath);
    } catch (const RunApp::Refusal &e) {
        return refuse(asJson, e.stage(), e.what(), e.code());
    }
    const long long batch = plan.batch;
    const Bundle::BucketChoice &choice = plan.choice;

    // 3. Load the bucket's package (this runs its native code).
    const std::string device = m.device;
    std::unique_ptr<Runtime::AotiRunner> runner;
    const auto tLoad = Clock::now();
    try {
        runner = RunApp::loadBucket(verified, choice.bucket, runners, convertLayout);
    } catch (const RunApp::Refusal &e) {
        return refuse(asJson, e.stage(), e.what(), e.code());
    }
    const double loadMs = msSince(tLoad);
    const double toLoadedMs = cold.sinceStartMs();

    // 4. First output, then warm-up and timing.
    std::vector<Runtime::OutputSummary> outputs;
    double firstRunMs = 0, toFirstOutputMs = 0;
    Profiler::Summary latency;
    json throughput;
    // Whether the machine allowed a fair measurement (FORMAT.md "measurement"): sampled around
    // the timed runs, judged with their spread, as every other job's figures are.
    Profiler::MachineMonitor monitor(std::max(1, Runtime::intraOpThreads()) * std::max(1, runners));
    monitor.begin();
    try {
        RunApp::setRequestInputs(*runner, verified, plan, seed);
        const auto tFirst = Clock::now();
        runner->run();
        firstRunMs = msSince(tFirst);
        toFirstOutputMs = cold.sinceStartMs();
        outputs = runner->outputSummary(batch);

        if (runners <= 1) {
            if (iters > 0) {
                Profiler::MeasureOptions options;
                options.warmup = warmup;
                options.minRuns = iters;
                options.maxRuns = iters;
                options.maxSeconds = std::numeric_limits<double>::infinity();
                options.stableRel = -1; // exactly --iters timed runs
                latency = Profiler::measure([&] { runner->run(); }, options);
            }
        } else {
            for (int i = 0; i < warmup; ++i)
                runner->runConcurrent();
            std::vector<std::vector<double>> samples(static_cast<std::size_t>(runners));
            std::vector<std::string> errors(static_cast<std::size_t>(runners));
            std::latch ready(runners + 1);
            Clock::time_point start;
            {
                std::vector<std::jthread> threads;
                for (int t = 0; t < runners; ++t) {
                    threads.emplace_back([&, t] {
                        auto &mine = samples[static_cast<std::size_t>(t)];
                        mine.reserve(static_cast<std::size_t>(iters));
                        ready.arrive_and_wait();
                        try {
                            for (int i = 0; i < iters; ++i) {
                                const auto t0 = Clock::now();
                                runner->runConcurrent();
                                mine.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
                            }
                        } catch (const std::exception &e) {
                            errors[static_cast<std::size_t>(t)] = e.what();
                        }
                    });
                }
                start = Clock::now();
                ready.arrive_and_wait();
            } // joins every runner thread
            const double wallS = std::chrono::duration<double>(Clock::now() - start).count();
            for (const auto &e : errors)
                if (!e.empty())
                    throw Runtime::RuntimeError(e);
            std::vector<double> all;
            for (const auto &s : samples)
                all.insert(all.end(), s.begin(), s.end());
            latency = Profiler::summarize(all);
            throughput = {{"runners", runners},
                          {"runs", all.size()},
                          {"wall_s", wallS},
                          {"runs_per_s", wallS > 0 ? static_cast<double>(all.size()) / wallS : 0.0},
                          {"rows_per_s", wallS > 0 ? static_cast<double>(all.size() * batch) / wallS : 0.0},
                          {"p99_ms", latency.p99Ms}};
        }
    } catch (const Runtime::InputRefused &e) {
        return refuse(asJson, "refused", e.what());
    } catch (const Runtime::RuntimeError &e) {
        return refuse(asJson, "failed", e.what());
    }

    // 5. Report.
    monitor.end();
    json measurement;
    if (latency.runs > 0)
        measurement = monitor.json({{"package", latency.p10Ms, latency.medianMs, latency.p90Ms}});
    json coldJson{{"clock", cold.source()},
                  {"resolution_ms", cold.resolutionMs()},
                  {"to_main_ms", cold.mainEnteredMs()},
                  {"to_verified_ms", toVerifiedMs},
                  {"to_loaded_ms", toLoadedMs},
                  {"to_first_output_ms", toFirstOutputMs},
                  {"verify_ms", verifyMs},
                  {"load_ms", loadMs},
                  {"first_run_ms", firstRunMs}};
    {
        const auto libs = Runtime::Libraries::mappedLibraries(); // what the loader had to map by the first output
        coldJson["libraries"] = {{"count", libs.count}, {"bytes", libs.bytes}, {"cuda_stack", libs.cudaStack}, {"largest", libs.largest}};
    }
    const json outputsJson = RunApp::outputsJson(m, outputs);
    if (asJson) {
        json out{{"bundle", bundle.source.string()},
                 {"zip", static_cast<bool>(bundle.extracted)},
                 {"model", m.model},
                 {"device", device},
                 {"bundle_torch_version", m.torchVersion},
                 {"runtime_torch_version", Runtime::libtorchVersion()},
                 {"producer", m.producer},
                 {"created", m.created},
                 {"files_verified", m.files.size()},
                 {"signature", [&] {
                      json sig = verified.signature.toJson();
                      sig["summary"] = signatureLine;
                      return sig;
                  }()},
                 {"bucket", choice.bucket.name},
                 {"package", choice.bucket.package},
                 {"batch", batch},
                 {"run_batch", choice.padTo},
                 {"padded", choice.padded},
                 {"runners", runners},
                 {"iters", iters},
                 {"warmup", warmup},
                 {"seed", seed},
                 {"latency", latency.runs > 0 ? summaryJson(latency) : json()},
                 {"throughput", throughput.is_null() ? json() : throughput},
                 {"cold_start", coldJson},
                 {"layout_conversions", RunApp::conversionsJson(runner->layoutConversions())},
                 {"outputs", outputsJson}};
        if (measurement.is_object())
            out["measurement"] = measurement;
        Protocol::printEnvelope(stdout, Protocol::okEnvelope(Bundle::validUtf8Json(out))); // paths and names may hold any bytes
    } else {
        std::printf("bundle:      %s%s\n", bundle.source.c_str(), bundle.extracted ? " (zip)" : "");
        std::printf("model:       %s on %s, torch %s (runtime LibTorch %s)\n", m.model.c_str(), device.c_str(),
                    m.torchVersion.c_str(), Runtime::libtorchVersion().c_str());
        std::printf("provenance:  %s, created %s; %zu files verified by SHA-256\n",
                    m.producer.empty() ? "unknown producer" : m.producer.c_str(), m.created.empty() ? "?" : m.created.c_str(),
                    m.files.size());
        std::printf("signature:   %s\n", Bundle::validUtf8(signatureLine).c_str());
        if (choice.padded)
            std::printf("bucket:      %s for batch %lld, padded to %lld rows (outputs sliced back)\n",
                        choice.bucket.describe().c_str(), batch, choice.padTo);
        else
            std::printf("bucket:      %s for batch %lld\n", choice.bucket.describe().c_str(), batch);
        if (latency.runs > 0)
            std::printf("latency:     median %.4f ms, p10 %.4f, p90 %.4f, p99 %.4f (%zu runs%s after %d warm-up)\n",
                        latency.medianMs, latency.p10Ms, latency.p90Ms, latency.p99Ms, latency.runs,
                        runners > 1 ? " over all runners" : "", warmup);
        if (measurement.is_object() && measurement.value("verdict", "") != "ok") {
            std::string reasons;
            for (const auto &r : measurement.value("reasons", json::array()))
                reasons += (reasons.empty() ? "" : "; ") + r.get<std::string>();
            std::printf("measurement: %s%s%s\n", measurement.value("verdict", "").c_str(), reasons.empty() ? "" : ": ", reasons.c_str());
        }
        if (!throughput.is_null())
            std::printf("throughput:  %.1f runs/s (%.1f rows/s) with %d runners, p99 %.4f ms\n",
                        throughput["runs_per_s"].get<double>(), throughput["rows_per_s"].get<double>(), runners, latency.p99Ms);
        std::printf("cold start:  loaded %.1f ms, first output %.1f ms after process start (%s; main() at %.1f ms,\n"
                    "             verify %.1f ms, load %.1f ms, first run %.2f ms)\n",
                    toLoadedMs, toFirstOutputMs, cold.source() == "main" ? "clock from main()" : "clock from /proc starttime",
                    cold.mainEnteredMs(), verifyMs, loadMs, firstRunMs);
        std::printf("libraries:   %d shared libraries mapped, %.0f MB on disk%s\n", coldJson["libraries"]["count"].get<int>(),
                    coldJson["libraries"]["bytes"].get<double>() / 1e6,
                    coldJson["libraries"]["cuda_stack"].get<bool>() ? ", CUDA stack included" : ", no CUDA stack");
        for (const auto &c : runner->layoutConversions())
            std::printf("layout:      %s\n", Bundle::validUtf8(c.message).c_str());
        for (std::size_t i = 0; i < outputs.size(); ++i) {
            const auto &o = outputs[i];
            std::string first;
            for (double v : o.first) {
                char buf[32];
                std::snprintf(buf, sizeof buf, "%s%.5g", first.empty() ? "" : ", ", v);
                first += buf;
            }
            const std::string name = i < m.outputs.size() && !m.outputs[i].name.empty() ? m.outputs[i].name : "output " + std::to_string(i);
            std::printf("%s:\n             %s %s  sum %.6g  mean %.6g  first [%s]%s\n", name.c_str(), shapeString(o.shape).c_str(),
                        o.dtype.c_str(), o.sum, o.mean, first.c_str(),
                        o.nonFinite ? ("  (" + std::to_string(o.nonFinite) + " NaN/inf)").c_str() : "");
        }
    }
    std::fflush(nullptr);
    runner.reset(); // unloads the package and removes LibTorch's extraction of it
    return 0;
}
