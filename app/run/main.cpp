// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-run: what a short-lived worker does with a bundle (core/runtime/BUNDLE.md), in C++ with
// LibTorch only (no Python): verify every hash and the signature, check that the bundle can run here, choose the
// bucket for the batch, load its AOTInductor package, run it, and report latency, throughput,
// cold start and a summary of the outputs. Results on stdout (one JSON object with --json),
// refusals and failures as one line on stderr.
#include "bundle/bundle.h"
#include "bundle/guards.h"
#include "bundle/signing.h"
#include "bundle/text.h"
#include "profiler/machine.h"
#include "profiler/measure.h"
#include "runtime/aotirunner.h"
#include "runtime/libraries.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
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

constexpr int kExitRefused = 1; // refused (invalid bundle, wrong device or torch, no bucket) or failed
constexpr int kExitUsage = 2;

using Clock = std::chrono::steady_clock;

/// Cold-start clock. The process's start comes from /proc/self/stat (field 22, starttime, in clock
/// ticks since boot), compared with CLOCK_BOOTTIME, the clock the kernel measures it on. So the
/// figures include exec, the dynamic linking of LibTorch and static initialisers, which a clock
/// started in main() would miss. Resolution: one clock tick (1/sysconf(_SC_CLK_TCK) s, 10 ms on
/// Linux); starttime is rounded down, so figures can read up to one tick high. Without /proc the
/// clock falls back to the top of main() and says so.
class ColdClock {
public:
    ColdClock()
        : m_mainEntered(nowBoot())
    {
        std::ifstream in("/proc/self/stat");
        std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto paren = stat.rfind(')'); // the command name may contain spaces and ')'
        const long tick = ::sysconf(_SC_CLK_TCK);
        if (paren != std::string::npos && tick > 0) {
            std::istringstream fields(stat.substr(paren + 1));
            std::string field;
            unsigned long long startTicks = 0;
            for (int i = 3; i <= 22 && fields >> field; ++i)
                if (i == 22)
                    startTicks = std::stoull(field);
            const double start = static_cast<double>(startTicks) / static_cast<double>(tick);
            if (startTicks > 0 && start <= m_mainEntered) {
                m_start = start;
                m_resolutionMs = 1000.0 / static_cast<double>(tick);
                m_source = "proc_starttime";
            }
        }
        if (m_source.empty()) {
            m_start = m_mainEntered;
            m_source = "main";
        }
    }
    /// Milliseconds since the process started (or since main(), see source()).
    double sinceStartMs() const { return (nowBoot() - m_start) * 1000.0; }
    double mainEnteredMs() const { return (m_mainEntered - m_start) * 1000.0; }
    const std::string &source() const { return m_source; }
    double resolutionMs() const { return m_resolutionMs; }

private:
    static double nowBoot()
    {
        timespec ts{};
        ::clock_gettime(CLOCK_BOOTTIME, &ts);
        return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
    }
    double m_mainEntered;
    double m_start = 0;
    double m_resolutionMs = 0;
    std::string m_source;
};

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

json summaryJson(const Profiler::Summary &s)
{
    return {{"runs", s.runs},     {"median", s.medianMs}, {"p10", s.p10Ms}, {"p90", s.p90Ms}, {"p99", s.p99Ms},
            {"mean", s.meanMs},   {"stddev", s.stddevMs}, {"min", s.minMs}, {"max", s.maxMs}};
}

std::string shapeString(const std::vector<long long> &shape)
{
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

/// One-line failure: on stderr always, and as {"ok": false, ...} on stdout with --json. The
/// message may quote bytes of the bundle (a manifest's parse error, a file name): it is made valid
/// UTF-8 and kept on one line.
int refuse(bool asJson, const std::string &stage, const std::string &message)
{
    std::string line = Bundle::validUtf8(message);
    std::replace_if(line.begin(), line.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    std::fprintf(stderr, "aotstudio-run: %s: %s\n", stage.c_str(), line.c_str());
    if (asJson)
        std::printf("%s\n", Bundle::dumpJson(json{{"ok", false}, {"stage", stage}, {"error", line}}).c_str());
    std::fflush(nullptr);
    return kExitRefused;
}

/// `--package`: one package on the inputs of `inputPath`, checked by its guards sidecar; the
/// outputs saved for the caller (a sweep's isolated call). Exit 1 with stage "refused" when the
/// guards refuse the inputs, "failed" when loading or running fails.
int runPackage(const std::string &package, const std::string &device, const std::string &inputPath, const std::string &saveTo,
               const std::string &guardsPath, bool asJson)
{
  try {
    if (inputPath.empty()) {
        std::fprintf(stderr, "aotstudio-run: --package needs --input FILE (torch.save of the input tensors)\n");
        return kExitUsage;
    }
    std::shared_ptr<const Runtime::InputFile> inputs;
    std::unique_ptr<Runtime::AotiRunner> runner;
    try {
        Runtime::AotiRunner::LoadOptions options;
        options.extractionCache = true;
        runner = Runtime::AotiRunner::load(package, device, options);
        if (!guardsPath.empty()) { // a bundle's bucket guards, written out by the caller
            std::ifstream in(guardsPath);
            const json g = json::parse(in, nullptr, false);
            if (g.is_discarded())
                return refuse(asJson, "failed", "--guards '" + guardsPath + "' is not JSON");
            runner->setGuards(std::make_shared<Bundle::InputGuards>(Bundle::InputGuards::parse(g, guardsPath)));
        }
        std::vector<std::string> names; // a dict of named tensors is arranged by the guards' input names
        if (const auto &guards = runner->guards())
            for (std::size_t i = 0; i < guards->inputCount(); ++i)
                names.push_back(guards->inputName(i));
        inputs = Runtime::InputFile::read(inputPath, names);
    } catch (const Runtime::RuntimeError &e) {
        return refuse(asJson, "failed", e.what());
    } catch (const Bundle::BundleError &e) {
        return refuse(asJson, "failed", e.what());
    }
    double runMs = 0;
    try {
        runner->setInputs(*inputs);
    } catch (const Runtime::InputRefused &e) {
        return refuse(asJson, "refused", e.what());
    } catch (const Runtime::RuntimeError &e) {
        return refuse(asJson, "failed", e.what());
    }
    try {
        const auto t0 = Clock::now();
        runner->run();
        runMs = msSince(t0);
        if (!saveTo.empty())
            runner->saveOutputs(saveTo);
    } catch (const Runtime::RuntimeError &e) {
        return refuse(asJson, "failed", e.what());
    }
    json outs = json::array();
    for (const auto &o : runner->outputSummary())
        outs.push_back({{"shape", o.shape}, {"dtype", o.dtype}, {"sum", o.sum}, {"non_finite", o.nonFinite}});
    const json r{{"ok", true}, {"package", package}, {"device", device}, {"run_ms", runMs}, {"outputs", outs},
                 {"saved", saveTo.empty() ? json() : json(saveTo)}};
    if (asJson)
        std::printf("%s\n", Bundle::dumpJson(r).c_str());
    else
        std::printf("package:  %s\nrun:      %.3f ms\noutputs:  %zu\n", package.c_str(), runMs, outs.size());
    std::fflush(nullptr);
    return 0;
  } catch (const std::exception &e) { // a c10::Error from LibTorch outside the runner's own wrapping
    return refuse(asJson, "failed", e.what());
  }
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
               "torch) or failed (load, run), 2 bad command line (or an unreadable trust store).\n"
               "Examples:\n"
               "  aotstudio-run build/convnet-bundle\n"
               "  aotstudio-run build/convnet-bundle.zip --batch 3 --iters 200 --json\n"
               "  aotstudio-run build/convnet-bundle --batch 8 --runners 4\n"
               "  aotstudio-run build/convnet-bundle.zip --trust ~/.config/aotstudio/trusted-keys/");
    std::string bundlePath;
    std::optional<long long> batchOpt;
    int runners = 1, iters = 100, warmup = 10;
    std::uint64_t seed = 0;
    bool asJson = false;
    std::string packagePath, packageDevice = "cpu", saveOutputsPath, guardsPath;
    auto *bundleOpt = app.add_option("bundle", bundlePath, "Bundle directory or .zip (from aotstudio-cli export)");
    auto *packageOpt = app.add_option("--package", packagePath, "Run one AOTInductor .pt2 instead of a bundle (its model.guards.json "
                                                                "beside it checks the inputs; needs --input). For sweeps (aotstudio-cli "
                                                                "sweep --isolate): no hashes, no buckets, no timing")
                           ->check(CLI::ExistingFile);
    bundleOpt->excludes(packageOpt);
    app.add_option("--device", packageDevice, "With --package: cpu or cuda")->capture_default_str()->check(CLI::IsMember({"cpu", "cuda"}));
    app.add_option("--save-outputs", saveOutputsPath, "With --package: write the outputs with torch.save's format (a list of tensors)");
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
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        const int rc = app.exit(e);
        return rc == 0 ? 0 : kExitUsage;
    }

    if (!packagePath.empty())
        return runPackage(packagePath, packageDevice, inputPath, saveOutputsPath, guardsPath, asJson);
    if (bundlePath.empty()) {
        std::fprintf(stderr, "aotstudio-run: give a bundle (directory or .zip) or --package FILE.pt2; see --help\n");
        return kExitUsage;
    }

    // The trust store first: a store that cannot be read is a configuration error, never an empty store.
    Bundle::TrustStore trust;
    {
        const bool fromEnvironment = trustPaths.empty();
        std::vector<std::filesystem::path> sources(trustPaths.begin(), trustPaths.end());
        if (fromEnvironment)
            sources = Bundle::TrustStore::sourcesFromEnvironment();
        try {
            trust = Bundle::TrustStore::load(sources);
        } catch (const Bundle::BundleError &e) {
            std::fprintf(stderr, "aotstudio-run: %s: %s\n", fromEnvironment ? Bundle::kTrustEnvironment : "--trust",
                         Bundle::validUtf8(e.what()).c_str());
            return kExitUsage;
        }
    }

    // 1. Open and verify the hashes (a zip is extracted to a private temporary directory first),
    // then the signature of the manifest that lists them; nothing of the bundle is loaded before.
    Bundle::OpenedBundle bundle;
    Bundle::SignatureCheck signature;
    const auto tVerify = Clock::now();
    try {
        bundle = Bundle::openBundle(bundlePath);
        signature = Bundle::checkSignature(bundle, trust);
    } catch (const Bundle::BundleError &e) {
        return refuse(asJson, "refused", e.what());
    }
    if (const auto why = Bundle::signatureRefusal(signature, trust, allowUnsigned, bundlePath))
        return refuse(asJson, "refused", *why);
    const std::string signatureLine = Bundle::describeSignature(signature, trust, allowUnsigned);
    const double verifyMs = msSince(tVerify);
    const double toVerifiedMs = cold.sinceStartMs();
    const Bundle::Manifest &m = bundle.manifest;

    // 2. Can it run here, and in which bucket?
    // CUDA is asked about only for a CUDA bundle: the question loads libtorch_cuda (libraries.h).
    const bool cudaBundle = m.device.rfind("cuda", 0) == 0;
    const bool cuda = cudaBundle && Runtime::cudaAvailable();
    const std::string capability = cuda ? Runtime::cudaComputeCapability(0) : std::string();
    if (const auto why = Bundle::checkCompatible(m, Runtime::libtorchVersion(), cuda, capability); !why.empty()) {
        std::string all;
        for (const auto &w : why)
            all += (all.empty() ? "" : "; ") + w;
        return refuse(asJson, "refused", "bundle '" + bundlePath + "': " + all);
    }
    long long batch = 0;
    std::shared_ptr<const Runtime::InputFile> inputFile;
    if (!inputPath.empty()) {
        try {
            std::vector<std::string> names; // a dict of named tensors is arranged by the manifest's names
            for (const auto &in : m.inputs)
                names.push_back(in.name);
            inputFile = Runtime::InputFile::read(inputPath, names);
        } catch (const Runtime::RuntimeError &e) {
            return refuse(asJson, "refused", e.what());
        }
        const auto info = inputFile->info();
        if (info.size() != m.inputs.size())
            return refuse(asJson, "refused", "input file '" + inputPath + "' has " + std::to_string(info.size()) +
                                                 " tensors; the bundle's model takes " + std::to_string(m.inputs.size()));
        if (info.front().shape.empty())
            return refuse(asJson, "refused", "input file '" + inputPath + "': the first tensor has no batch dimension");
        batch = info.front().shape.front();
        // Shapes and dtypes must be the bundle's (the batch dimension aside): a package reads its
        // inputs by the sizes it was compiled for, so a smaller tensor would be read past its end.
        const auto dims = [](const std::vector<long long> &shape) {
            std::string t = "[";
            for (std::size_t d = 0; d < shape.size(); ++d)
                t += (d ? ", " : "") + (shape[d] == Bundle::kBatchDim ? std::string("batch") : std::to_string(shape[d]));
            return t + "]";
        };
        // With guards in the manifest, the bucket's guards judge the sizes (dynamic dimensions
        // besides the batch); without, every size but the batch must be the manifest's.
        const bool guarded = std::all_of(m.buckets.begin(), m.buckets.end(), [](const Bundle::Bucket &b) { return b.guards != nullptr; });
        for (std::size_t i = 0; i < info.size(); ++i) {
            const auto &want = m.inputs[i];
            const auto &got = info[i];
            bool same = guarded || want.shape.size() == got.shape.size();
            for (std::size_t d = 0; same && !guarded && d < want.shape.size(); ++d)
                same = want.shape[d] == Bundle::kBatchDim ? got.shape[d] == batch : want.shape[d] == got.shape[d];
            if (!same || Bundle::normalizeDtype(want.dtype) != Bundle::normalizeDtype(got.dtype))
                return refuse(asJson, "refused",
                              "input file '" + inputPath + "': tensor " + std::to_string(i) +
                                  (want.name.empty() ? std::string() : " (" + want.name + ")") + " is " + got.dtype + dims(got.shape) +
                                  "; the bundle's model takes " + want.dtype + dims(want.shape) +
                                  " (batch " + std::to_string(batch) + " from the first tensor)");
        }
        if (batchOpt && *batchOpt != batch)
            return refuse(asJson, "refused", "--batch " + std::to_string(*batchOpt) + " differs from the input file's batch " +
                                                 std::to_string(batch));
    } else if (batchOpt) {
        batch = *batchOpt;
    } else {
        for (const auto &b : m.buckets)
            if (b.batch) {
                batch = *b.batch;
                break;
            }
        if (batch == 0)
            batch = m.buckets.front().batchMin; // only a dynamic bucket
    }
    Bundle::BucketChoice choice;
    try {
        choice = Bundle::chooseBucket(m, batch);
    } catch (const Bundle::BundleError &e) {
        return refuse(asJson, "refused", "bundle '" + bundlePath + "': " + e.what());
    }
    if (m.inputs.empty())
        return refuse(asJson, "refused", "bundle '" + bundlePath + "': manifest.json lists no inputs to generate");
    // The inputs' shapes against the chosen bucket's guards; sizes an exact bucket was not compiled
    // for (a longer sequence) go to the dynamic bucket when its guards take them.
    if (inputFile) {
        std::vector<std::vector<std::int64_t>> shapes;
        for (const auto &t : inputFile->info()) {
            std::vector<std::int64_t> s(t.shape.begin(), t.shape.end());
            if (!s.empty() && s[0] < choice.padTo)
                s[0] = choice.padTo;
            shapes.push_back(std::move(s));
        }
        if (choice.bucket.guards) {
            if (auto v = choice.bucket.guards->check(shapes)) {
                const auto dyn = std::find_if(m.buckets.begin(), m.buckets.end(), [](const Bundle::Bucket &b) { return b.isDynamic(); });
                bool moved = false;
                if (dyn != m.buckets.end() && dyn->name != choice.bucket.name && dyn->guards) {
                    for (std::size_t i = 0; i < shapes.size(); ++i)
                        if (!shapes[i].empty())
                            shapes[i][0] = inputFile->info()[i].shape[0];
                    if (!dyn->guards->check(shapes)) {
                        choice = {*dyn, batch, false};
                        moved = true;
                    }
                }
                if (!moved)
                    return refuse(asJson, "refused", "bundle '" + bundlePath + "', bucket " + choice.bucket.name + ": " + v->message);
            }
        }
    }

    // 3. Load the bucket's package (this runs its native code) and make the inputs.
    const std::string package = (bundle.root / choice.bucket.package).string();
    const std::string device = m.device;
    std::unique_ptr<Runtime::AotiRunner> runner;
    const auto tLoad = Clock::now();
    try {
        // Extracted once per package hash (the manifest's, verified above) into the package cache.
        Runtime::AotiRunner::LoadOptions options;
        options.numRunners = runners;
        options.extractionCache = true;
        if (const auto entry = m.files.find(choice.bucket.package); entry != m.files.end())
            options.sha256 = entry->second.sha256;
        for (const auto &[file, rel] : choice.bucket.weights) // shared by the buckets (BUNDLE.md "Shared weights")
            options.weightFiles[file] = (bundle.root / rel).string();
        runner = Runtime::AotiRunner::load(package, device, options);
        runner->setGuards(choice.bucket.guards); // every input set is checked before a call
    } catch (const Runtime::RuntimeError &e) {
        return refuse(asJson, "failed", e.what());
    }
    const double loadMs = msSince(tLoad);
    const double toLoadedMs = cold.sinceStartMs();
    std::vector<Runtime::TensorInfo> specs;
    for (const auto &in : m.inputs)
        specs.push_back({in.withBatch(choice.padTo), in.dtype});

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
        if (inputFile)
        {
            std::vector<bool> batched; // inputs without a batch dimension (a per-feature scale) are not padded
            for (const auto &in : m.inputs)
                batched.push_back(!in.shape.empty() && in.shape.front() == Bundle::kBatchDim);
            runner->setInputs(*inputFile, choice.padTo, static_cast<long long>(m.inputs.size()), batched);
        }
        else
            runner->setGeneratedInputs(specs, batch, seed);
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
    json outputsJson = json::array();
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const auto &o = outputs[i];
        const std::string name = i < m.outputs.size() && !m.outputs[i].name.empty() ? m.outputs[i].name
                                                                                      : "output " + std::to_string(i);
        outputsJson.push_back({{"name", name}, {"shape", o.shape}, {"dtype", o.dtype}, {"sum", o.sum}, {"mean", o.mean},
                               {"first", o.first}, {"non_finite", o.nonFinite}});
    }
    if (asJson) {
        json out{{"ok", true},
                 {"bundle", bundle.source.string()},
                 {"zip", static_cast<bool>(bundle.extracted)},
                 {"model", m.model},
                 {"device", device},
                 {"bundle_torch_version", m.torchVersion},
                 {"runtime_torch_version", Runtime::libtorchVersion()},
                 {"producer", m.producer},
                 {"created", m.created},
                 {"files_verified", m.files.size()},
                 {"signature", [&] {
                      json sig = signature.toJson();
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
                 {"latency_ms", latency.runs > 0 ? summaryJson(latency) : json()},
                 {"throughput", throughput.is_null() ? json() : throughput},
                 {"cold_start", coldJson},
                 {"outputs", outputsJson}};
        if (measurement.is_object())
            out["measurement"] = measurement;
        std::printf("%s\n", Bundle::dumpJson(out).c_str()); // paths and names may hold any bytes
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
