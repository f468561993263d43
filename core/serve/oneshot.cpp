// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-run's runs that answer once (oneshot.h): --package, --bucket, and a bundle's one-shot
// run with its timing, cold start and report.
#include "serve/oneshot.h"

#include "bundle/compat.h"
#include "bundle/guards.h"
#include "bundle/text.h"
#include "profiler/machine.h"
#include "profiler/measure.h"
#include "profiler/statistics.h"
#include "protocol/envelope.h"
#include "protocol/messages.h"
#include "runtime/libraries.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <latch>
#include <limits>
#include <thread>

namespace AotStudio::Serve {

using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// The run of an isolated call (`--package`, `--bucket`): `runner` on the tensors of the input
/// file (a dict arranged by the guards' input names), the outputs saved for the caller. `head`
/// starts the --json result; `label` names the package in the text output. Exit 1 with stage
/// "refused" when the guards refuse the inputs, "failed" when reading or running fails.
int runOnInputs(Runtime::AotiRunner &runner, const RunOptions &o, json head, const std::string &label)
{
    std::shared_ptr<const Runtime::InputFile> inputs;
    try {
        std::vector<std::string> names; // a dict of named tensors is arranged by the guards' input names
        if (const auto &guards = runner.guards())
            for (std::size_t i = 0; i < guards->inputCount(); ++i)
                names.push_back(guards->inputName(i));
        inputs = Runtime::InputFile::read(o.inputPath, names);
    } catch (const Runtime::RuntimeError &e) {
        return printRefusal(o.asJson, "failed", e.what());
    }
    double runMs = 0;
    try {
        runner.setInputs(*inputs);
    } catch (const Runtime::InputRefused &e) {
        return printRefusal(o.asJson, "refused", e.what());
    } catch (const Runtime::RuntimeError &e) {
        return printRefusal(o.asJson, "failed", e.what());
    }
    try {
        const auto t0 = Clock::now();
        runner.run();
        runMs = msSince(t0);
        if (!o.saveOutputsPath.empty())
            runner.saveOutputs(o.saveOutputsPath);
    } catch (const Runtime::RuntimeError &e) {
        return printRefusal(o.asJson, "failed", e.what());
    }
    json outs = json::array();
    for (const auto &out : runner.outputSummary())
        outs.push_back({{"shape", out.shape}, {"dtype", out.dtype}, {"sum", out.sum}, {"non_finite", out.nonFinite}});
    head["run_ms"] = runMs;
    head["outputs"] = outs;
    head["saved"] = o.saveOutputsPath.empty() ? json() : json(o.saveOutputsPath);
    head["layout_conversions"] = Bundle::conversionsJson(runner.layoutConversions());
    if (o.asJson) {
        Protocol::printEnvelope(stdout, Protocol::okEnvelope(Bundle::validUtf8Json(head)));
    } else {
        std::printf("package:  %s\nrun:      %.3f ms\noutputs:  %zu\n", label.c_str(), runMs, outs.size());
        for (const auto &c : runner.layoutConversions())
            std::printf("layout:   %s\n", Bundle::validUtf8(c.message).c_str());
    }
    std::fflush(nullptr);
    return 0;
}

/// A package loaded for --package after its compatibility key is checked against this machine
/// (its metadata and kernel images: bundle/compat.h) before its native code is loaded: another
/// machine, missing CPU instructions, no kernel for this GPU are refusals, not an illegal
/// instruction or a CUDA error later. Null after printing the refusal (`status`).
std::unique_ptr<Runtime::AotiRunner> loadPackage(const RunOptions &o, int &status)
{
    const std::string &package = o.packagePath;
    const bool cuda = o.packageDevice == "cuda" && Runtime::cudaAvailable();
    const Bundle::PackageTarget target = Bundle::readPackageTarget(package, 1ull << 30, /*sharedObjects=*/false);
    if (target.found) {
        const auto why = Bundle::checkCompat(
            Bundle::packageCompat(target, ""),
            Bundle::Host::current(Runtime::libtorchVersion(), cuda, cuda ? Runtime::cudaComputeCapability(0) : ""));
        if (!why.empty()) {
            status = printRefusal(o.asJson, "refused", "package '" + package + "': " + why.front(),
                                  Protocol::Code::Incompatible);
            return nullptr;
        }
    }
    Runtime::AotiRunner::LoadOptions options;
    options.extractionCache = true;
    options.convertLayout = o.convertLayout;
    auto runner = Runtime::AotiRunner::load(package, o.packageDevice, options);
    if (!o.guardsPath.empty()) { // a bundle's bucket guards, written out by the caller
        std::ifstream in(o.guardsPath);
        const json g = json::parse(in, nullptr, false);
        if (g.is_discarded()) {
            status = printRefusal(o.asJson, "failed", "--guards '" + o.guardsPath + "' is not JSON");
            return nullptr;
        }
        runner->setGuards(std::make_shared<Bundle::InputGuards>(Bundle::InputGuards::parse(g, o.guardsPath)));
    }
    return runner;
}

} // namespace

int runPackage(const RunOptions &o)
{
    try {
        std::unique_ptr<Runtime::AotiRunner> runner;
        try {
            int status = 0;
            runner = loadPackage(o, status);
            if (!runner)
                return status;
        } catch (const Runtime::RuntimeError &e) {
            return printRefusal(o.asJson, "failed", e.what());
        } catch (const Bundle::BundleError &e) {
            return printRefusal(o.asJson, "failed", e.what());
        }
        return runOnInputs(*runner, o, {{"package", o.packagePath}, {"device", o.packageDevice}}, o.packagePath);
    } catch (const std::exception &e) { // a c10::Error from LibTorch outside the runner's own wrapping
        return printRefusal(o.asJson, "failed", e.what());
    }
}

int runBucket(const VerifiedBundle &verified, const RunOptions &o)
{
    try {
        const Bundle::Manifest &m = verified.bundle.manifest;
        const auto it = std::find_if(m.buckets.begin(), m.buckets.end(),
                                     [&](const Bundle::Bucket &b) { return b.name == o.bucketName; });
        if (it == m.buckets.end()) {
            std::string names;
            for (const auto &b : m.buckets)
                names += (names.empty() ? "" : ", ") + b.name;
            return printRefusal(o.asJson, "refused",
                                "bundle '" + verified.path + "' has no bucket '" + o.bucketName
                                    + "' (its buckets: " + names + ")");
        }
        std::unique_ptr<Runtime::AotiRunner> runner;
        try {
            runner = loadBucket(verified, *it, 1, o.convertLayout);
        } catch (const Refusal &e) {
            return printRefusal(o.asJson, e.stage(), e.what(), e.code());
        }
        return runOnInputs(*runner, o,
                           {{"bundle", verified.bundle.source.string()},
                            {"bucket", it->name},
                            {"package", it->package},
                            {"device", m.device}},
                           it->package);
    } catch (const std::exception &e) {
        return printRefusal(o.asJson, "failed", e.what());
    }
}

namespace {

/// What the one-shot run measured.
struct Figures {
    double loadMs = 0, toLoadedMs = 0, firstRunMs = 0, toFirstOutputMs = 0;
    std::vector<Runtime::OutputSummary> outputs;
    Profiler::Summary latency;
    json throughput; ///< null with one runner
};

/// `runners` threads, each `iters` timed runConcurrent() calls after the warm-up, started together:
/// every sample's latency, and the throughput over the wall time of all of them.
void measureConcurrent(Runtime::AotiRunner &runner, const RunOptions &o, long long batch, Figures &f)
{
    const int runners = o.runners;
    for (int i = 0; i < o.warmup; ++i)
        runner.runConcurrent();
    std::vector<std::vector<double>> samples(static_cast<std::size_t>(runners));
    std::vector<std::string> errors(static_cast<std::size_t>(runners));
    std::latch ready(runners + 1);
    Clock::time_point start;
    {
        std::vector<std::jthread> threads;
        for (int t = 0; t < runners; ++t) {
            threads.emplace_back([&, t] {
                auto &mine = samples[static_cast<std::size_t>(t)];
                mine.reserve(static_cast<std::size_t>(o.iters));
                ready.arrive_and_wait();
                try {
                    for (int i = 0; i < o.iters; ++i) {
                        const auto t0 = Clock::now();
                        runner.runConcurrent();
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
    f.latency = Profiler::summarize(all);
    f.throughput = {{"runners", runners},
                    {"runs", all.size()},
                    {"wall_s", wallS},
                    {"runs_per_s", wallS > 0 ? static_cast<double>(all.size()) / wallS : 0.0},
                    {"rows_per_s", wallS > 0 ? static_cast<double>(all.size() * batch) / wallS : 0.0},
                    {"p99_ms", f.latency.p99Ms}};
}

/// The first output (timed from the process's start), then the timed runs.
void runAndMeasure(Runtime::AotiRunner &runner, const VerifiedBundle &verified, const RequestPlan &plan,
                   const RunOptions &o, const Profiler::ColdClock &cold, Figures &f)
{
    setRequestInputs(runner, verified, plan, o.seed);
    const auto tFirst = Clock::now();
    runner.run();
    f.firstRunMs = msSince(tFirst);
    f.toFirstOutputMs = cold.sinceStartMs();
    f.outputs = runner.outputSummary(plan.batch);
    if (o.runners > 1) {
        measureConcurrent(runner, o, plan.batch, f);
    } else if (o.iters > 0) {
        Profiler::MeasureOptions options;
        options.warmup = o.warmup;
        options.minRuns = o.iters;
        options.maxRuns = o.iters;
        options.maxSeconds = std::numeric_limits<double>::infinity();
        options.stableRel = -1; // exactly --iters timed runs
        f.latency = Profiler::measure([&] { runner.run(); }, options);
    }
}

json summaryJson(const Profiler::Summary &s)
{
    // The key names of every other timed figure (compile's `eager`, profile's `statistics`).
    return {{"runs", s.runs},          {"median_ms", s.medianMs}, {"p10_ms", s.p10Ms},
            {"p90_ms", s.p90Ms},       {"p99_ms", s.p99Ms},       {"mean_ms", s.meanMs},
            {"stddev_ms", s.stddevMs}, {"min_ms", s.minMs},       {"max_ms", s.maxMs}};
}

std::string shapeString(const std::vector<long long> &shape)
{
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

/// The --json result of the one-shot run.
json resultJson(const VerifiedBundle &verified, const RunOptions &o, const Bundle::BucketChoice &choice,
                long long batch, const Figures &f, const json &coldJson, const json &measurement,
                const Runtime::AotiRunner &runner)
{
    const Bundle::OpenedBundle &bundle = verified.bundle;
    const Bundle::Manifest &m = bundle.manifest;
    json sig = verified.signature.toJson();
    sig["summary"] = verified.signatureLine;
    json out{{"bundle", bundle.source.string()},
             {"zip", static_cast<bool>(bundle.extracted)},
             {"model", m.model},
             {"device", m.device},
             {"bundle_torch_version", m.torchVersion},
             {"runtime_torch_version", Runtime::libtorchVersion()},
             {"producer", m.producer},
             {"created", m.created},
             {"files_verified", m.files.size()},
             {"signature", sig},
             {"bucket", choice.bucket.name},
             {"package", choice.bucket.package},
             {"batch", batch},
             {"run_batch", choice.padTo},
             {"padded", choice.padded},
             {"runners", o.runners},
             {"iters", o.iters},
             {"warmup", o.warmup},
             {"seed", o.seed},
             {"latency", f.latency.runs > 0 ? summaryJson(f.latency) : json()},
             {"throughput", f.throughput.is_null() ? json() : f.throughput},
             {"cold_start", coldJson},
             {"layout_conversions", Bundle::conversionsJson(runner.layoutConversions())},
             {"outputs", outputsJson(m, f.outputs)}};
    if (measurement.is_object())
        out["measurement"] = measurement;
    return out;
}

/// The text report's output lines: per output its shape, dtype, sum, mean and first values.
void printOutputs(const Bundle::Manifest &m, const std::vector<Runtime::OutputSummary> &outputs)
{
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const auto &out = outputs[i];
        std::string first;
        for (double v : out.first) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%s%.5g", first.empty() ? "" : ", ", v);
            first += buf;
        }
        const std::string name
            = i < m.outputs.size() && !m.outputs[i].name.empty() ? m.outputs[i].name : "output " + std::to_string(i);
        std::printf("%s:\n             %s %s  sum %.6g  mean %.6g  first [%s]%s\n", name.c_str(),
                    shapeString(out.shape).c_str(), out.dtype.c_str(), out.sum, out.mean, first.c_str(),
                    out.nonFinite ? ("  (" + std::to_string(out.nonFinite) + " NaN/inf)").c_str() : "");
    }
}

/// The text report of the one-shot run.
void printText(const VerifiedBundle &verified, const RunOptions &o, const Bundle::BucketChoice &choice, long long batch,
               const Figures &f, const json &coldJson, const json &measurement, const Profiler::ColdClock &cold,
               const Runtime::AotiRunner &runner)
{
    const Bundle::OpenedBundle &bundle = verified.bundle;
    const Bundle::Manifest &m = bundle.manifest;
    std::printf("bundle:      %s%s\n", bundle.source.c_str(), bundle.extracted ? " (zip)" : "");
    std::printf("model:       %s on %s, torch %s (runtime LibTorch %s)\n", m.model.c_str(), m.device.c_str(),
                m.torchVersion.c_str(), Runtime::libtorchVersion().c_str());
    std::printf("provenance:  %s, created %s; %zu files verified by SHA-256\n",
                m.producer.empty() ? "unknown producer" : m.producer.c_str(),
                m.created.empty() ? "?" : m.created.c_str(), m.files.size());
    std::printf("signature:   %s\n", Bundle::validUtf8(verified.signatureLine).c_str());
    if (choice.padded)
        std::printf("bucket:      %s for batch %lld, padded to %lld rows (outputs sliced back)\n",
                    choice.bucket.describe().c_str(), batch, choice.padTo);
    else
        std::printf("bucket:      %s for batch %lld\n", choice.bucket.describe().c_str(), batch);
    const Profiler::Summary &latency = f.latency;
    if (latency.runs > 0)
        std::printf("latency:     median %.4f ms, p10 %.4f, p90 %.4f, p99 %.4f (%zu runs%s after %d warm-up)\n",
                    latency.medianMs, latency.p10Ms, latency.p90Ms, latency.p99Ms, latency.runs,
                    o.runners > 1 ? " over all runners" : "", o.warmup);
    if (measurement.is_object() && measurement.value("verdict", "") != "ok") {
        std::string reasons;
        for (const auto &r : measurement.value("reasons", json::array()))
            reasons += (reasons.empty() ? "" : "; ") + r.get<std::string>();
        std::printf("measurement: %s%s%s\n", measurement.value("verdict", "").c_str(), reasons.empty() ? "" : ": ",
                    reasons.c_str());
    }
    if (!f.throughput.is_null())
        std::printf("throughput:  %.1f runs/s (%.1f rows/s) with %d runners, p99 %.4f ms\n",
                    f.throughput["runs_per_s"].get<double>(), f.throughput["rows_per_s"].get<double>(), o.runners,
                    latency.p99Ms);
    std::printf("cold start:  loaded %.1f ms, first output %.1f ms after process start (%s; main() at %.1f ms,\n"
                "             verify %.1f ms, load %.1f ms, first run %.2f ms)\n",
                f.toLoadedMs, f.toFirstOutputMs,
                cold.source() == "main" ? "clock from main()" : "clock from /proc starttime", cold.mainEnteredMs(),
                verified.verifyMs, f.loadMs, f.firstRunMs);
    std::printf("libraries:   %d shared libraries mapped, %.0f MB on disk%s\n",
                coldJson["libraries"]["count"].get<int>(), coldJson["libraries"]["bytes"].get<double>() / 1e6,
                coldJson["libraries"]["cuda_stack"].get<bool>() ? ", CUDA stack included" : ", no CUDA stack");
    for (const auto &c : runner.layoutConversions())
        std::printf("layout:      %s\n", Bundle::validUtf8(c.message).c_str());
    printOutputs(m, f.outputs);
}

} // namespace

int runBundle(const VerifiedBundle &verified, const RunOptions &o, const Profiler::ColdClock &cold, double toVerifiedMs)
{
    RequestPlan plan;
    try {
        plan = planRequest(verified, o.batch, o.inputPath);
    } catch (const Refusal &e) {
        return printRefusal(o.asJson, e.stage(), e.what(), e.code());
    }
    // Load the bucket's package (this runs its native code).
    Figures f;
    std::unique_ptr<Runtime::AotiRunner> runner;
    const auto tLoad = Clock::now();
    try {
        runner = loadBucket(verified, plan.choice.bucket, o.runners, o.convertLayout);
    } catch (const Refusal &e) {
        return printRefusal(o.asJson, e.stage(), e.what(), e.code());
    }
    f.loadMs = msSince(tLoad);
    f.toLoadedMs = cold.sinceStartMs();
    // Whether the machine allowed a fair measurement (FORMAT.md "measurement"): sampled around
    // the timed runs, judged with their spread, as every other job's figures are.
    Profiler::MachineMonitor monitor(std::max(1, Runtime::intraOpThreads()) * std::max(1, o.runners));
    monitor.begin();
    try {
        runAndMeasure(*runner, verified, plan, o, cold, f);
    } catch (const Runtime::InputRefused &e) {
        return printRefusal(o.asJson, "refused", e.what());
    } catch (const Runtime::RuntimeError &e) {
        return printRefusal(o.asJson, "failed", e.what());
    }
    monitor.end();
    json measurement;
    if (f.latency.runs > 0)
        measurement = monitor.json({{"package", f.latency.p10Ms, f.latency.medianMs, f.latency.p90Ms}});
    json coldJson{{"clock", cold.source()},
                  {"resolution_ms", cold.resolutionMs()},
                  {"to_main_ms", cold.mainEnteredMs()},
                  {"to_verified_ms", toVerifiedMs},
                  {"to_loaded_ms", f.toLoadedMs},
                  {"to_first_output_ms", f.toFirstOutputMs},
                  {"verify_ms", verified.verifyMs},
                  {"load_ms", f.loadMs},
                  {"first_run_ms", f.firstRunMs}};
    const auto libs = Runtime::Libraries::mappedLibraries(); // what the loader had to map by the first output
    coldJson["libraries"]
        = {{"count", libs.count}, {"bytes", libs.bytes}, {"cuda_stack", libs.cudaStack}, {"largest", libs.largest}};
    if (o.asJson) // paths and names may hold any bytes
        Protocol::printEnvelope(stdout,
                                Protocol::okEnvelope(Bundle::validUtf8Json(resultJson(
                                    verified, o, plan.choice, plan.batch, f, coldJson, measurement, *runner))));
    else
        printText(verified, o, plan.choice, plan.batch, f, coldJson, measurement, cold, *runner);
    std::fflush(nullptr);
    runner.reset(); // unloads the package and removes LibTorch's extraction of it
    return 0;
}

} // namespace AotStudio::Serve
