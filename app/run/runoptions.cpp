// SPDX-License-Identifier: GPL-3.0-or-later
#include "runoptions.h"

#include <cmath>
#include <cstdlib>
#include <map>

namespace AotStudio::RunApp {

namespace {

void describe(CLI::App &app)
{
    app.description(
        "Run a deployable AOT Studio bundle (a directory or its .zip) with LibTorch, no Python: verify the\n"
        "SHA-256 of every file, check device and torch, pick the shape bucket for --batch, load its\n"
        "AOTInductor package, run it on generated inputs and report latency, cold start and outputs.");
    app.footer(
        "Inputs are generated (unless --input): floating inputs N(0, 1) from --seed, integer and bool inputs zeros. A "
        "batch\n"
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
        "  {\"id\": 1, \"batch\": 4, \"seed\": 0}   {\"id\": 2, \"input\": \"/path/x.pt\"}   {\"id\": 3, \"shutdown\": "
        "true}\n"
        "with one line each, in completion order: {\"id\", \"ok\": true, \"bucket\", \"outputs\" (as --json prints "
        "them),\n"
        "\"timing\": {\"queue_ms\", \"worker_start_ms\", \"setup_ms\", \"load_ms\", \"inputs_ms\", \"run_ms\", "
        "\"total_ms\"}, "
        "\"worker_pid\"} or\n"
        "{\"id\", \"ok\": false, \"error\": {\"stage\", \"code\", \"message\", \"hint\"}}. Workers are fork()ed from "
        "the "
        "parent, which never\n"
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

/// The one-shot run's options, --package and --bucket, the trust options. Returns --package and
/// --bucket (the serving options exclude them) and --device.
struct RunHandles {
    CLI::Option *package, *bucket, *device;
};

RunHandles addBundleOptions(CLI::App &app, Serve::RunOptions &o)
{
    auto *bundleOpt = app.add_option("bundle", o.bundlePath, "Bundle directory or .zip (from aotstudio-cli export)");
    auto *packageOpt = app.add_option("--package", o.packagePath,
                                      "Run one AOTInductor .pt2 instead of a bundle (its model.guards.json "
                                      "beside it checks the inputs; needs --input). For sweeps (aotstudio-cli "
                                      "sweep --isolate): no hashes, no buckets, no timing")
                           ->check(CLI::ExistingFile);
    bundleOpt->excludes(packageOpt);
    auto *deviceOpt = app.add_option("--device", o.packageDevice, "With --package: cpu or cuda")
                          ->capture_default_str()
                          ->check(CLI::IsMember({"cpu", "cuda"}));
    app.add_option("--save-outputs", o.saveOutputsPath,
                   "With --package or --bucket: write the outputs with torch.save's format (a tuple of tensors; "
                   "torch.load(FILE) reads it)");
    auto *bucketOpt = app.add_option("--bucket", o.bucketName,
                                     "With a bundle: run this bucket's package on --input (no bucket choice, no "
                                     "padding; its shared weights bound and its guards checked as in "
                                     "deployment). For sweeps (aotstudio-cli sweep --bundle --isolate): no timing");
    bucketOpt->excludes(packageOpt);
    app.add_option("--guards", o.guardsPath,
                   "With --package: check the inputs against this guards file (FORMAT.md \"guards\") "
                   "instead of the package's model.guards.json")
        ->check(CLI::ExistingFile);
    app.add_option("-b,--batch", o.batch, "Batch size of the request (default: the first exact bucket's batch)")
        ->check(CLI::Range(1LL, 1LL << 40));
    app.add_option("--runners", o.runners,
                   "Concurrent threads and model instances (num_runners); above 1 also reports throughput")
        ->capture_default_str()
        ->check(CLI::Range(1, 1024));
    app.add_option("--iters", o.iters, "Timed runs (per runner); 0 runs once for the output only")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000000));
    app.add_option("--warmup", o.warmup, "Untimed runs before timing")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000000));
    app.add_option("--seed", o.seed, "Seed of the generated inputs")->capture_default_str();
    app.add_option("--threads", o.threads,
                   "Intra-op threads (OpenMP and ATen's pool) for the package's kernels (default: "
                   "LibTorch's, every usable CPU); fewer makes figures steadier on a busy machine")
        ->check(CLI::Range(1, 4096));
    app.add_option("-i,--input", o.inputPath,
                   "Inputs from a file written by torch.save(tensor, [tensors] or {name: tensor}, "
                   "FILE) instead of generated ones; a dict is matched to the bundle's input names "
                   "(aotstudio-cli inspect lists them); the batch is the first tensor's first dimension")
        ->check(CLI::ExistingFile);
    auto *trustOpt = app.add_option("--trust", o.trustPaths,
                                    "Trust store: an Ed25519 public key file (KEYFILE.pub from aotstudio-cli "
                                    "keygen) or a folder of *.pub files; repeatable. Default: $AOTSTUDIO_TRUST")
                         ->check(CLI::ExistingPath);
    trustOpt->excludes(packageOpt);
    app.add_flag("--allow-unsigned", o.allowUnsigned,
                 "Run an unsigned bundle, or one signed by a key outside the trust store "
                 "(an invalid signature is refused all the same)");
    app.add_flag("--json", o.asJson, "Print one JSON object on stdout");
    app.add_flag(
        "--convert-layout", o.convertLayout,
        "Copy an --input tensor (or a served request's) whose strides are not the ones the package was compiled "
        "for (channels-last, a transpose, a slice, an expanded or misaligned view) into the package's layout, "
        "and say so in the output; without it such an input is refused (AOTInductor would read the wrong "
        "elements and return a wrong result)");
    return {packageOpt, bucketOpt, deviceOpt};
}

/// Serving (app/run/SERVING.md): a resident parent with the bundle verified, a pool of forked
/// workers; the burst replay.
GivenOptions addServeOptions(CLI::App &app, Serve::RunOptions &o, const RunHandles &run)
{
    GivenOptions given;
    given.device = run.device;
    const CLI::Validator positive = positiveNumber();
    auto *serveOpt = app.add_flag("--serve", o.serve,
                                  "Serve requests (JSON lines on stdin, or on --socket) from a pool of worker "
                                  "processes forked from this verified, prepared process; see SERVING below");
    given.isolation = app.add_option("--isolation", o.isolation,
                                     "With --serve/--replay/--poisson: 'request' forks a fresh worker per request "
                                     "(the short-lived-worker model), 'worker' keeps --workers warm workers that keep "
                                     "their packages loaded (default)")
                          ->transform(CLI::CheckedTransformer(
                              std::map<std::string, Serve::Isolation>{{"request", Serve::Isolation::Request},
                                                                      {"worker", Serve::Isolation::Worker}},
                              CLI::ignore_case))
                          ->option_text("request|worker");
    given.workers = app.add_option("--workers", o.workers,
                                   "Workers: warm workers (worker isolation) or at most this many "
                                   "requests at once (request isolation); the replay's spawn baseline "
                                   "runs as many processes at once")
                        ->capture_default_str()
                        ->check(CLI::Range(1, 256));
    given.requestTimeout
        = app.add_option("--request-timeout", o.requestTimeoutSeconds,
                         "With --serve: seconds a worker may take to answer one request; past it the request is "
                         "answered with an error naming the deadline and the worker is killed and replaced (0: none)")
              ->capture_default_str()
              ->check(CLI::Range(0.0, 86400.0));
    auto *socketOpt = app.add_option("--socket", o.socketPath,
                                     "With --serve: listen on this Unix socket instead of stdin; its folder "
                                     "must not exist: it is made with mode 0700 and removed on exit");
    auto *replayOpt = app.add_option("--replay", o.replayPath,
                                     "Replay an arrival trace (JSON lines {\"t_ms\": 12.5, \"batch\": 1}) "
                                     "against the server in this process, per isolation mode, and "
                                     "against a fresh aotstudio-run process per request; report latency")
                          ->check(CLI::ExistingFile);
    auto *poissonOpt = app.add_option("--poisson", o.poissonRate,
                                      "Replay a Poisson arrival process of RATE requests/s (seeded by "
                                      "--seed) for --seconds, as --replay does")
                           ->check(positive);
    auto *secondsOpt = app.add_option("--seconds", o.seconds, "Length of the --poisson trace, s")
                           ->capture_default_str()
                           ->check(positive);
    given.eagerServer
        = app.add_option("--eager-server", o.eagerServerLine,
                         "With --replay/--poisson: also serve the trace by --workers resident processes of "
                         "this command (split as sh does, nothing substituted), which answer the request "
                         "lines on stdin after a first {\"ready\": true} line: the Python eager baseline, "
                         "e.g. \".venv/bin/python -m aotstudio_frontend.eager_serve sample:mlp cpu\" with "
                         "PYTHONPATH=core/python (SERVING.md)");
    replayOpt->excludes(poissonOpt);
    serveOpt->excludes(replayOpt)->excludes(poissonOpt);
    for (auto *opt : {serveOpt, replayOpt, poissonOpt}) {
        opt->excludes(run.package);
        opt->excludes(run.bucket);
    }
    socketOpt->needs(serveOpt);
    given.eagerServer->excludes(serveOpt);
    secondsOpt->needs(poissonOpt);
    return given;
}

} // namespace

void GivenOptions::record(Serve::RunOptions &options) const
{
    options.given.device = device->count() > 0;
    options.given.isolation = isolation->count() > 0;
    options.given.workers = workers->count() > 0;
    options.given.requestTimeout = requestTimeout->count() > 0;
    options.given.eagerServer = eagerServer->count() > 0;
}

GivenOptions addRunOptions(CLI::App &app, Serve::RunOptions &options)
{
    describe(app);
    return addServeOptions(app, options, addBundleOptions(app, options));
}

} // namespace AotStudio::RunApp
