// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/profilejob.h"
#include "pipeline/coldstart.h"
#include "pipeline/jobutil.h"
#include "pipeline/measurement.h"
#include "pipeline/throughput.h"
#include "pipeline/versions.h"

#include "bundle/bundle.h"
#include "bundle/guards.h"
#include "profiler/cupti.h"
#include "profiler/trace.h"
#include "python/frontend.h"
#include "runtime/aotirunner.h"
#include "runtime/collector.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace AotStudio::Pipeline {

using Protocol::Json;
namespace fs = std::filesystem;

namespace {

std::string num(double v)
{
    std::ostringstream s;
    s.precision(9);
    s << v;
    return s.str();
}

/// The name under which kernels.json knows a range: Inductor prefixes profiled kernel names with
/// `graph_<id>_` when the graph has an id; the AOTI C shim's library calls appear as ATen ops.
std::string kernelKey(const std::string &rangeName)
{
    static const std::regex graphPrefix("^graph_[0-9]+_");
    return std::regex_replace(rangeName, graphPrefix, "");
}

/// Provenance of kernels.json by the names ranges carry: generated kernels by name, library calls
/// by their ATen op ("aten::addmm" for `aoti_torch_cpu_addmm_out`; several calls of one op merge).
struct Provenance {
    struct Entry {
        std::string kind;
        std::set<std::string> post, pre;
    };
    std::map<std::string, Entry> byName;

    static Provenance load(const fs::path &path)
    {
        Provenance p;
        std::ifstream in(path);
        if (!in)
            return p;
        const Json j = Json::parse(in, nullptr, false);
        if (!j.is_object())
            return p;
        for (const auto &k : j.value("kernels", Json::array())) {
            const std::string name = k.value("name", "");
            const std::string kind = k.value("kind", "");
            std::vector<std::string> names{name};
            if (kind == "library") {
                // The shim function is a range of its own ("aoti_torch_cpu_addmm_out"); eager-style
                // names ("aten::addmm") match too.
                std::string op = k.value("library_op", name);
                if (op.size() > 4 && op.compare(op.size() - 4, 4, "_out") == 0)
                    op.resize(op.size() - 4);
                names.push_back("aten::" + op);
            }
            for (const auto &n : names) {
                auto &e = p.byName[n];
                e.kind = kind;
                for (const auto &x : k.value("post_grad_nodes", Json::array()))
                    if (x.is_string())
                        e.post.insert(x.get<std::string>());
                for (const auto &x : k.value("pre_grad_nodes", Json::array()))
                    if (x.is_string())
                        e.pre.insert(x.get<std::string>());
            }
        }
        return p;
    }
    const Entry *find(const std::string &rangeName) const
    {
        const auto it = byName.find(kernelKey(rangeName));
        return it == byName.end() ? nullptr : &it->second;
    }
};

/// A forward call wrapped so that each call's start and end land in `log` (the `call` ranges of
/// the trace). Used for the untraced and the traced pass alike, so both pay the same.
struct CallLog {
    std::vector<std::pair<std::int64_t, std::int64_t>> calls;
    std::function<void()> wrap(std::function<void()> fn)
    {
        return [this, fn = std::move(fn)] {
            const auto a = Runtime::RangeCollector::nowNs();
            fn();
            calls.emplace_back(a, Runtime::RangeCollector::nowNs());
        };
    }
};

struct Variant {
    std::string name;
    bool available = false;
    std::string reason;
    std::function<void()> call;
    Profiler::Summary plain, traced;
    bool hasTraced = false;
    double tracedWallMs = 0;
    Runtime::MemoryPeak memory;
    std::optional<double> cudaEventMs;
    std::optional<double> busyShare;
};

/// Profile's stages and their share of the bar; a compile for the profile fills "compile".
constexpr StageSpan kProfileStages[] = {
    {"compile", 0.00, 0.50},    {"load", 0.50, 0.52},       {"load_package", 0.52, 0.55}, {"measure", 0.55, 0.75},
    {"memory", 0.75, 0.78},     {"throughput", 0.78, 0.87}, {"cold_start", 0.87, 0.97},   {"write", 0.97, 1.00},
};

/// The RecordFunction collector traces the first call of every traced block and every
/// kTraceEvery-th call after it (PROFILE.md "collector"): the kernel breakdown comes from those
/// calls, the rest of a traced block runs untraced, so the traced blocks' statistics stay within
/// about 1/kTraceEvery of a sampled call's cost of the untraced ones.
constexpr int kTraceEvery = 10;

Json optNum(const std::optional<double> &v)
{
    return v ? Json(*v) : Json();
}

} // namespace

Json runProfile(std::int64_t id, const Json &request, const EventFn &emit, std::stop_token stop)
{
    const Job ctx(id, emit, stop, kProfileStages);
    const auto log = [&](const std::string &level, const std::string &message) { ctx.log(level, message); };
    const auto progress = [&](std::string_view stage, double within, const std::string &message) { ctx.progress(stage, within, message); };
    const auto checkStop = [&](std::string_view stage) { ctx.checkStop(stage); };
    const auto options = measureOptionsFrom(request); // validates the common fields too
    const int threads = applyThreads(request);
    for (const char *field : {"package"}) {
        if (request.contains(field) && !request[field].is_string())
            throw JobFailed({"load", Protocol::Code::BadRequest, std::string("'") + field + "' must be a string", "send a JSON string"});
    }
    const std::string model = request.value("model", std::string());
    const std::string device = request.value("device", std::string("cpu"));
    const std::string outString = request.value("out", std::string());
    if (model.empty())
        throw JobFailed({"load", Protocol::Code::BadRequest, "profile needs a model", "pass --model SPEC (e.g. sample:mlp)"});
    if (outString.empty())
        throw JobFailed({"load", Protocol::Code::BadRequest, "profile needs an output directory", "pass --out DIR"});
    if (device != "cpu" && device != "cuda")
        throw JobFailed({"load", Protocol::Code::BadRequest, "unknown device '" + device + "'", "use cpu or cuda"});
    std::vector<int> runnerCounts{1, 2, 4};
    if (request.contains("throughput")) {
        if (!request["throughput"].is_array())
            throw JobFailed({"load", Protocol::Code::BadRequest, "'throughput' must be a list of runner counts", "e.g. [1,2,4]"});
        runnerCounts.clear();
        for (const auto &n : request["throughput"]) {
            if (!n.is_number_integer() || n.get<int>() < 1 || n.get<int>() > 256)
                throw JobFailed({"load", Protocol::Code::BadRequest, "runner counts must be integers in 1..256", "e.g. [1,2,4]"});
            runnerCounts.push_back(n.get<int>());
        }
    }
    std::set<std::string> wanted{"eager", "aoti", "nativert"};
    if (request.contains("variants")) {
        if (!request["variants"].is_array())
            throw JobFailed({"load", Protocol::Code::BadRequest, "'variants' must be a list", "e.g. [\"eager\",\"aoti\"]"});
        wanted.clear();
        for (const auto &v : request["variants"]) {
            if (!v.is_string() || (v != "eager" && v != "aoti" && v != "nativert"))
                throw JobFailed({"load", Protocol::Code::BadRequest, "unknown variant " + v.dump(), "use eager, aoti, nativert"});
            wanted.insert(v.get<std::string>());
        }
    }
    const bool trace = request.value("trace", true);
    const double throughputSeconds = std::max(0.05, request.value("throughput_seconds", 1.0));
    const int coldRuns = std::max(0, request.value("cold_start_runs", 3));

    // An absent device is an error, not a silent move to the CPU: the figures would answer
    // another question than the one asked.
    if (device == "cuda" && !Runtime::cudaAvailable())
        throw JobFailed({"load", Protocol::Code::NoDevice, "no CUDA device: LibTorch sees no usable GPU or driver on this machine",
                         "profile with --device cpu, or run the engine on a machine with an NVIDIA GPU"});

    const fs::path out = fs::absolute(outString).lexically_normal();
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec)
        throw JobFailed({"load", Protocol::Code::BadRequest, "cannot create '" + out.string() + "': " + ec.message(), "choose a writable --out"});
    Json warnings = Json::array();
    const auto warn = [&](const std::string &message) {
        warnings.push_back(message);
        log("warning", message);
    };

    // 1. The package: compiled here, or given.
    std::string package;
    fs::path kernelsJson;
    std::string packageSource = "compiled";
    Json compileStages = Json::array(); // the compile's stages and passes (FORMAT.md compile result)
    Json compileOptions;                // and its options (null for a given package)
    if (request.contains("package")) {
        packageSource = "given";
        package = fs::absolute(request["package"].get<std::string>()).lexically_normal().string();
        if (!fs::is_regular_file(package, ec))
            throw JobFailed({"load_package", Protocol::Code::LoadFailed, "package '" + package + "' does not exist",
                             "pass --package the .pt2 written by compile or export"});
        kernelsJson = fs::path(package).parent_path() / "kernels.json";
    } else {
        Json r = request;
        for (const char *k : {"variants", "trace", "throughput", "throughput_seconds", "cold_start_runs", "package"})
            r.erase(k);
        r["out"] = out.string();
        r["measure"] = false;
        const Json compiled = runCompileAsPart(ctx, r, 0.5);
        package = compiled.value("package", "");
        compileStages = compiled.value("stages", Json::array());
        compileOptions = compiled.value("options", Json());
        kernelsJson = out / "kernels.json";
    }
    if (!fs::exists(kernelsJson, ec))
        kernelsJson.clear();
    const Provenance provenance = Provenance::load(kernelsJson);

    try {
        Json jobRequest = request;
        jobRequest["out"] = out.string();
        Python::CompileJob job(jobRequest, log, ctx.sink(), ctx.stopToken());
        progress("load", 0, "building the model and example inputs");
        const Json loaded = job.load();
        checkStop("load");

        // 2. Load the package and check it computes what eager computes on these inputs. A given
        // package reads its inputs by the sizes it was compiled for: when its result.json (written
        // by our compile next to it) names other input shapes, running it would read past them.
        // With a guards sidecar the runner checks the inputs itself, range by range (other sizes
        // than the example may be fine).
        std::error_code sidecarEc;
        if (packageSource == "given" && !fs::exists(Bundle::InputGuards::sidecarPath(package), sidecarEc)) {
            std::ifstream in(fs::path(package).parent_path() / "result.json");
            const Json compiledFor = in ? Json::parse(in, nullptr, false) : Json();
            const Json want = compiledFor.is_object() ? compiledFor.value("inputs", Json()) : Json();
            const Json have = loaded.value("inputs", Json());
            if (want.is_array() && have.is_array() && want != have)
                throw JobFailed({"load_package", Protocol::Code::LoadFailed,
                                 "package '" + package + "' was compiled for inputs " + want.dump() + " (its result.json); " +
                                     request.value("model", std::string()) + " gives " + have.dump(),
                                 "profile the package with the model it was compiled from, or compile this model "
                                 "(omit --package)"});
        }
        progress("load_package", 0, "loading the package with LibTorch");
        std::unique_ptr<Runtime::AotiRunner> runner;
        Json verified;
        try {
            runner = Runtime::AotiRunner::load(package, device);
            runner->setInputs(job.inputs());
            runner->run();
        } catch (const Runtime::InputRefused &e) {
            throw JobFailed({"load_package", Protocol::Code::LoadFailed, e.what(),
                             "the model's inputs are outside what the package was compiled for (its model.guards.json); "
                             "give inputs it accepts, or compile the model with the range you need (--dynamic)"});
        } catch (const Runtime::RuntimeError &e) {
            throw JobFailed({"load_package", Protocol::Code::LoadFailed, e.what(),
                             packageSource == "given" ? "the package may be built for another device, another torch or another "
                                                        "model; compile it here with aotstudio-cli compile"
                                                      : "see the engine log"});
        }
        verified = verifyPackage(job, *runner); // per output, on the example and seeded inputs (compilejob.h)
        checkStop("load_package");

        // 3. Variants.
        std::vector<Variant> variants;
        if (wanted.count("eager"))
            variants.push_back({"eager", true, "", [&] { job.runEager(); }});
        if (wanted.count("aoti"))
            variants.push_back({"aoti", true, "", [&] { runner->run(); }});
        if (wanted.count("nativert")) {
            Variant v{"nativert", false, "", {}};
            if (Runtime::nativeRtAvailable(v.reason))
                v.reason = "this torch exports NativeRT's ModelRunnerHandle, but AOT Studio does not drive it yet";
            warn("variant nativert not measured: " + v.reason);
            variants.push_back(std::move(v));
        }

        // 4. Every variant untraced and traced, all timed together in alternating blocks
        // (measurement.h): a drift of machine load hits every variant and both passes alike; the
        // speedups and the collector's overhead are ratios of paired medians with intervals. The
        // sampled calls of the traced blocks fill kernels, ops and trace.json.
        std::vector<Profiler::TimedRange> ranges;
        std::map<std::string, double> wallMs;
        // How the collector works and what its overhead touches, stated in the result (PROFILE.md).
        const std::string kRecordFunctionMethod =
            "the package's kernel and library-call ranges taken at AOTInductor's C ABI (aoti_record_function_start/end "
            "interposed: two clock reads a range, no RecordFunction; collector.aoti_ranges), eager's top-level ops by "
            "RecordFunction callbacks on the calling thread (outermost ranges timestamped into a per-thread buffer, "
            "nested ranges only counted); on for the first call of "
            "every traced block and every " + std::to_string(kTraceEvery) + "th after it (switched outside the timer), so "
            "the kernel breakdown comes from those sampled calls and latency and speedup from the untraced blocks";
        const std::string kCuptiMethod = "CUPTI activity records (kernels, memcpy, memset) from a dedicated subscriber, enabled "
                                         "around the traced blocks; RecordFunction ranges on sampled calls as on the CPU; "
                                         "latency and speedup come from untraced calls (CUDA events)";
        Json collector{{"name", device == "cuda" ? "cupti" : "record_function"},
                       {"available", trace},
                       {"reason", trace ? "" : "trace: false"},
                       {"method", device == "cuda" ? kCuptiMethod : kRecordFunctionMethod},
                       {"sample_every", kTraceEvery},
                       {"overhead_applies_to", "the traced blocks' statistics (overhead, overhead_pct); each sampled call, "
                                               "i.e. the per-kernel times, carries sampled_call_overhead"}};
        std::unique_ptr<Profiler::CuptiCollector> cupti;
        Json gpu;
        if (device == "cuda" && trace) {
            std::string why;
            cupti = Profiler::CuptiCollector::create(why);
            if (!cupti) {
                warn("CUPTI unavailable (" + why + "): kernels come from RecordFunction ranges only");
                collector["name"] = "record_function";
                collector["reason"] = why;
                collector["method"] = kRecordFunctionMethod;
            }
        }
        const std::int64_t origin = Runtime::RangeCollector::nowNs();
        std::vector<Profiler::CuptiRecord> gpuRecords;
        Runtime::RangeCollector rc;
        // The RecordFunction collector is on for a sample of the traced calls only: the first of
        // every block and every kTraceEvery-th after it, switched on and off outside the timer
        // (PairedVariant::beforeCall/afterCall) and on this thread only, so the other calls of a
        // traced block run as untraced ones do. The sampled calls fill kernels, ops and the trace;
        // sampled_call_overhead (below) says how much each of them was slowed.
        struct Traced {
            CallLog calls;
            bool sampling = false;
            std::int64_t t0 = 0, busyNs = 0, tracedNs = 0;
        };
        // The package ran during verify: if its kernel ranges reached our shim hook, use it.
        const bool shimHook = device == "cpu" && Runtime::aotiShimHookReached();
        collector["aoti_ranges"] = shimHook ? "aoti_shim" : "record_function";
        std::vector<Traced> tracedState(variants.size());
        std::vector<Profiler::PairedVariant> timed;
        std::vector<std::pair<std::size_t, std::size_t>> slots(variants.size(), {SIZE_MAX, SIZE_MAX}); // plain, traced
        for (std::size_t vi = 0; vi < variants.size(); ++vi) {
            auto &v = variants[vi];
            if (!v.available)
                continue;
            slots[vi].first = timed.size();
            timed.push_back({v.name, v.call, {}, {}, {}, {}});
            if (!trace)
                continue;
            auto &st = tracedState[vi];
            slots[vi].second = timed.size();
            Profiler::PairedVariant traced;
            traced.name = v.name + " (traced)";
            traced.call = [&st, fn = v.call, logged = st.calls.wrap(v.call)] { st.sampling ? logged() : fn(); };
            traced.beginBlock = [&, &st = st] {
                if (cupti)
                    cupti->start();
                st.t0 = Runtime::RangeCollector::nowNs();
            };
            traced.endBlock = [&, &st = st, &v = v] {
                st.tracedNs += Runtime::RangeCollector::nowNs() - st.t0;
                if (!cupti)
                    return;
                auto recs = cupti->stop();
                for (auto &r : recs) {
                    r.variant = v.name;
                    if (r.kind == Profiler::CuptiRecord::Kind::Kernel)
                        st.busyNs += r.endNs - r.startNs;
                }
                gpuRecords.insert(gpuRecords.end(), std::make_move_iterator(recs.begin()), std::make_move_iterator(recs.end()));
            };
            // A CPU package's kernel ranges are taken at the AOTI shim when the hook is in place
            // (two clock reads a range, no RecordFunction); eager's ops through RecordFunction.
            const auto source = v.name == "aoti" && shimHook ? Runtime::RangeCollector::Source::AotiShim
                                                             : Runtime::RangeCollector::Source::RecordFunction;
            traced.beforeCall = [&, &st = st, source](int c) {
                st.sampling = c % kTraceEvery == 0;
                if (st.sampling)
                    rc.start(Runtime::RangeCollector::Threads::ThisOnly, source);
            };
            traced.afterCall = [&, &st = st, &v = v](int) {
                if (!st.sampling)
                    return;
                for (auto &r : rc.stop())
                    ranges.push_back({std::move(r.name), v.name, r.startNs, r.endNs, 1, r.thread, r.depth, Json::object()});
            };
            timed.push_back(std::move(traced));
        }
        progress("measure", 0, "timing " + std::to_string(timed.size()) + " variants in alternating blocks" +
                                      (trace ? " (untraced and traced)" : ""));
        std::optional<Comparison> comparison;
        try {
            comparison.emplace(timed, options, threads, stop);
        } catch (...) {
            if (rc.running())
                rc.stop();
            if (cupti)
                cupti->stop();
            throw;
        }
        checkStop("measure");
        std::map<std::string, Json> overheadIntervals, sampledOverhead;
        Json droppedCalls = Json::object();
        std::vector<Profiler::RatioInterval> shownRatios;
        for (std::size_t vi = 0; vi < variants.size(); ++vi) {
            auto &v = variants[vi];
            if (!v.available)
                continue;
            v.plain = comparison->summary(slots[vi].first);
            if (slots[vi].second == SIZE_MAX)
                continue;
            auto &st = tracedState[vi];
            v.traced = comparison->summary(slots[vi].second);
            v.hasTraced = true;
            // A sampled call that lost the CPU (3x the sampled calls' median or more) would drag
            // every kernel's share down: it is left out, with its ranges, and counted.
            std::vector<double> durations;
            for (const auto &[a, b] : st.calls.calls)
                durations.push_back(static_cast<double>(b - a));
            const double median = durations.empty() ? 0.0 : Profiler::summarize(durations).medianMs;
            int dropped = 0;
            for (const auto &[a, b] : st.calls.calls) {
                if (median > 0 && static_cast<double>(b - a) >= 3.0 * median) {
                    ++dropped;
                    std::erase_if(ranges, [&, a = a, b = b](const Profiler::TimedRange &r) {
                        return r.category == v.name && r.startNs >= a && r.startNs <= b;
                    });
                    continue;
                }
                v.tracedWallMs += static_cast<double>(b - a) / 1e6;
                ranges.push_back({"call", v.name, a, b, 1, 0, -1, Json{{"kind", "call"}}});
            }
            droppedCalls[v.name] = {{"sampled", st.calls.calls.size()}, {"dropped", dropped}};
            wallMs[v.name] = v.tracedWallMs;
            if (cupti && st.tracedNs > 0)
                v.busyShare = static_cast<double>(st.busyNs) / static_cast<double>(st.tracedNs);
            overheadIntervals[v.name] = ratioJson(comparison->ratio(slots[vi].second, slots[vi].first));
            // What each sampled call paid: the sampled calls of every traced block against the
            // untraced block of the same round (paired by round; works for one-call blocks too).
            const auto &plainBlocks = comparison->paired().variants.at(slots[vi].first).blocksMs;
            const auto &tracedBlocks = comparison->paired().variants.at(slots[vi].second).blocksMs;
            std::vector<std::vector<double>> sampled;
            for (const auto &block : tracedBlocks) {
                sampled.emplace_back();
                for (std::size_t c = 0; c < block.size(); c += kTraceEvery)
                    sampled.back().push_back(block[c]);
            }
            sampledOverhead[v.name] = ratioJson(Profiler::ratioInterval(sampled, plainBlocks));
        }
        collector["sampled_calls"] = droppedCalls;
        // The call ranges (depth -1, tid 0) only frame the trace; kernels and ops are depth 0.

        // 5. Memory and CUDA-event latency: one call each, untimed.
        progress("memory", 0, "peak memory of one call per variant");
        for (auto &v : variants) {
            if (!v.available)
                continue;
            v.memory = Runtime::measurePeakMemory(v.call, device);
            if (device == "cuda") {
                std::vector<double> ms;
                for (int i = 0; i < std::max(5, std::min<int>(50, static_cast<int>(v.plain.runs))); ++i)
                    if (auto e = Runtime::cudaEventMs(v.call))
                        ms.push_back(*e);
                if (!ms.empty())
                    v.cudaEventMs = Profiler::summarize(ms).medianMs;
            }
            checkStop("memory");
        }

        // 6. Throughput against N runners of the package, N threads (throughput.h: runner counts
        // take turns in rounds, each rate with its interval, scaling against one runner).
        Json throughput = Json::array();
        if (wanted.count("aoti") && !runnerCounts.empty()) {
            progress("throughput", 0, "throughput with " + std::to_string(runnerCounts.size()) + " runner count(s), in alternating windows");
            ThroughputOptions topt;
            topt.runnerCounts = runnerCounts;
            topt.seconds = throughputSeconds;
            topt.warmup = std::max(3, options.warmup);
            topt.threads = threads;
            throughput = measureThroughput(package, device, [&] { return job.inputs(); }, topt, stop, warn,
                                           [&](double f) { progress("throughput", f, "throughput windows"); });
            checkStop("throughput");
        }

        // 7. Cold start (coldstart.h): aotstudio-run on a one-package bundle against Python eager.
        Json cold = Json::object();
        const Json inputs = loaded.value("inputs", Json::array());
        const long batch = !inputs.empty() && !inputs[0].value("shape", Json::array()).empty() ? inputs[0]["shape"][0].get<long>() : 1;
        if (coldRuns > 0) {
            progress("cold_start", 0, "timing cold start (fresh processes)");
            const fs::path bundle = out / "coldstart";
            fs::remove_all(bundle, ec);
            const std::string rel = std::string(Bundle::kPackagesDir) + "/model.pt2";
            fs::create_directories(bundle / Bundle::kPackagesDir, ec);
            fs::create_hard_link(package, bundle / rel, ec);
            if (ec)
                fs::copy_file(package, bundle / rel, fs::copy_options::overwrite_existing, ec);
            const auto batchShapes = [](const Json &tensors) {
                Json r = Json::array();
                for (const auto &t : tensors) {
                    Json shape = t.value("shape", Json::array());
                    if (!shape.empty())
                        shape[0] = "batch";
                    r.push_back({{"shape", shape}, {"dtype", t.value("dtype", "")}});
                }
                return r;
            };
            const Json manifest{
                {"format", Bundle::kFormat},
                {"format_version", 1},
                {"created", isoNow()},
                {"producer", std::string("aotstudio ") + std::string(Protocol::kEngineVersion) + " profile"},
                {"model", model},
                {"torch_version", loaded.value("torch_version", Runtime::libtorchVersion())},
                {"cuda_version", loaded.value("cuda_version", std::string())},
                {"device", device},
                {"compute_capability", loaded.value("compute_capability", Json())},
                {"quantization", "none"},
                {"inputs", batchShapes(inputs)},
                {"outputs", batchShapes(verified.value("outputs", Json::array()))},
                {"batch", {{"pad_safe", false}}},
                {"buckets", Json::array({Json{{"name", "default"}, {"batch", batch}, {"package", rel}}})}};
            try {
                Bundle::writeManifest(bundle, manifest);
                cold = measureColdStart({bundle, batch, model, device, coldRuns}, stop, warn);
            } catch (const Bundle::BundleError &e) {
                warn(std::string("cold start not measured: ") + e.what());
            }
        }
        checkStop("cold_start");

        // 8. Report.
        progress("write", 0, "writing profile.json, CSV and trace.json");
        Json variantsJson = Json::array();
        Json speedup = Json::object();
        const Variant *eager = nullptr;
        for (const auto &v : variants)
            if (v.name == "eager" && v.available)
                eager = &v;
        Json speedupIntervals = Json::object();
        std::size_t eagerSlot = SIZE_MAX;
        for (std::size_t vi = 0; vi < variants.size(); ++vi)
            if (&variants[vi] == eager)
                eagerSlot = slots[vi].first;
        for (std::size_t vi = 0; vi < variants.size(); ++vi) {
            const auto &v = variants[vi];
            Json j{{"name", v.name}, {"available", v.available}, {"reason", v.reason}};
            if (!v.available) {
                for (const char *k : {"statistics", "traced", "overhead_pct", "overhead", "sampled_call_overhead", "memory", "cuda_event_ms",
                                      "gpu_busy_share"})
                    j[k] = nullptr;
            } else {
                j["statistics"] = summaryJson(v.plain, options.warmup);
                j["traced"] = v.hasTraced ? summaryJson(v.traced, 0) : Json();
                j["overhead_pct"] = v.hasTraced && v.plain.medianMs > 0 ? Json((v.traced.medianMs - v.plain.medianMs) / v.plain.medianMs * 100.0)
                                                                         : Json();
                j["overhead"] = overheadIntervals.count(v.name) ? overheadIntervals[v.name] : Json();
                j["sampled_call_overhead"] = sampledOverhead.count(v.name) ? sampledOverhead[v.name] : Json();
                j["memory"] = {{"peak_bytes", v.memory.peakBytes ? Json(*v.memory.peakBytes) : Json()}, {"method", v.memory.method}};
                j["cuda_event_ms"] = optNum(v.cudaEventMs);
                j["gpu_busy_share"] = optNum(v.busyShare);
                if (eager && &v != eager && eagerSlot != SIZE_MAX) {
                    const auto r = comparison->ratio(eagerSlot, slots[vi].first);
                    speedup[v.name] = r.estimate;
                    speedupIntervals[v.name] = ratioJson(r);
                    shownRatios.push_back(r);
                    log("info", v.name + " against eager: " + ratioText(r));
                }
            }
            variantsJson.push_back(std::move(j));
        }
        const Json measurement = comparison->measurement(shownRatios);
        if (const std::string line = verdictLine(measurement); !line.empty())
            warn(line);

        // Kernels (compiled variants) and ops (eager) from the traced pass; CUDA kernels from CUPTI.
        std::vector<Profiler::TimedRange> cpuRanges;
        for (const auto &r : ranges)
            if (r.depth >= 0)
                cpuRanges.push_back(r);
        std::vector<Profiler::TimedRange> gpuRanges;
        std::map<std::string, const Profiler::CuptiRecord *> firstKernel;
        for (const auto &g : gpuRecords) {
            Profiler::TimedRange t{g.name, g.variant, g.startNs, g.endNs, 2, g.stream, 0, Json{{"kind", Profiler::kindName(g.kind)}}};
            if (g.kind == Profiler::CuptiRecord::Kind::Kernel && !firstKernel.count(g.name))
                firstKernel[g.name] = &g;
            gpuRanges.push_back(std::move(t));
        }
        Json kernels = Json::array(), ops = Json::array();
        const auto addRow = [&](const Profiler::RangeStats &s, bool gpuKernel) {
            const auto *p = provenance.find(s.name);
            Json row{{"variant", s.variant}, {"name", s.name}, {"calls", s.calls}, {"total_ms", s.totalMs}, {"mean_ms", s.meanMs}, {"share", s.share}};
            row["kind"] = p                                     ? p->kind
                          : gpuKernel                             ? "cuda"
                          : s.name.rfind("aoti_torch_", 0) == 0   ? "library"
                          : s.variant == "eager" || s.name.rfind("aten::", 0) == 0 ? "op"
                                                                  : "other";
            row["covered_nodes"] = p ? Json(std::vector<std::string>(p->post.begin(), p->post.end())) : Json::array();
            row["pre_grad_nodes"] = p ? Json(std::vector<std::string>(p->pre.begin(), p->pre.end())) : Json::array();
            row["in_kernels_json"] = p != nullptr;
            row["cuda"] = nullptr;
            if (gpuKernel) {
                if (const auto it = firstKernel.find(s.name); it != firstKernel.end()) {
                    const auto &k = *it->second;
                    row["cuda"] = {{"grid", {k.grid[0], k.grid[1], k.grid[2]}}, {"block", {k.block[0], k.block[1], k.block[2]}},
                                   {"registers", k.registers}, {"shared_static_bytes", k.staticShared},
                                   {"shared_dynamic_bytes", k.dynamicShared}, {"streams", {k.stream}}, {"device", k.device}};
                }
            }
            (s.variant == "eager" && !gpuKernel ? ops : kernels).push_back(std::move(row));
        };
        if (gpuRanges.empty()) {
            for (const auto &s : Profiler::aggregateRanges(cpuRanges, wallMs))
                addRow(s, false);
        } else {
            std::vector<Profiler::TimedRange> kernelRanges;
            for (const auto &g : gpuRanges)
                if (g.args.value("kind", "") == "kernel")
                    kernelRanges.push_back(g);
            for (const auto &s : Profiler::aggregateRanges(kernelRanges, wallMs))
                addRow(s, true);
            for (const auto &s : Profiler::aggregateRanges(cpuRanges, wallMs))
                if (s.variant == "eager")
                    addRow(s, false);
        }
        std::stable_sort(kernels.begin(), kernels.end(), [](const Json &a, const Json &b) {
            return a["total_ms"].get<double>() > b["total_ms"].get<double>();
        });
        if (device == "cuda") {
            Json busy = Json::object();
            for (const auto &v : variants)
                if (v.busyShare)
                    busy[v.name] = *v.busyShare;
            gpu = Profiler::gpuSummary(gpuRecords);
            gpu["busy_share"] = busy;
            gpu["dropped_records"] = cupti ? cupti->droppedRecords() : 0;
        }
        // Names on trace ranges: kind and covered nodes for generated kernels.
        for (auto &r : ranges) {
            if (r.depth < 0)
                continue;
            if (const auto *p = provenance.find(r.name)) {
                r.args["kind"] = p->kind;
                r.args["covered_nodes"] = std::vector<std::string>(p->post.begin(), p->post.end());
            }
        }
        std::map<std::pair<int, std::uint64_t>, std::string> threadNames;
        for (const auto &r : ranges)
            threadNames[{1, r.tid}] = r.tid == 0 ? "forward calls" : "thread " + std::to_string(r.tid);
        for (const auto &g : gpuRanges)
            threadNames[{2, g.tid}] = "stream " + std::to_string(g.tid);
        std::vector<Profiler::TimedRange> all = ranges;
        all.insert(all.end(), gpuRanges.begin(), gpuRanges.end());

        const fs::path profilePath = out / "profile.json", csvPath = out / "profile.csv", kernelsCsvPath = out / "profile_kernels.csv",
                       tracePath = out / "trace.json";
        Json files{{"profile_json", profilePath.string()}, {"csv", csvPath.string()}, {"kernels_csv", kernelsCsvPath.string()},
                   {"trace", trace ? Json(tracePath.string()) : Json()}};
        Json deviceInfo = Json::object();
        try {
            for (const auto &d : Python::engineInfo().value("devices", Json::array()))
                if (d.value("type", "") == device) {
                    deviceInfo = d;
                    break;
                }
        } catch (const std::exception &) {
        }
        deviceInfo["threads"] = threads;
        deviceInfo["hardware_threads"] = std::thread::hardware_concurrency();
        if (cupti)
            deviceInfo["cupti_library"] = cupti->libraryPath();

        Json result{
            {"format", "aotstudio.profile"},
            {"format_version", 1},
            {"created", isoNow()},
            {"model", model},
            {"device", device},
            {"dtype", request.value("dtype", std::string("fp32"))},
            {"package", package},
            {"package_source", packageSource},
            {"kernels_json", kernelsJson.empty() ? Json() : Json(kernelsJson.string())},
            {"stages", compileStages},
            {"options", compileOptions},
            {"out", out.string()},
            {"torch_version", loaded.value("torch_version", Runtime::libtorchVersion())},
            {"torchao_version", torchaoVersion()},
            {"cuda_version", loaded.value("cuda_version", std::string())},
            {"device_info", deviceInfo},
            {"inputs", inputs},
            {"max_abs_error", verified.value("max_abs_error", Json())},
            {"verify", verified.value("verify", Json())},
            {"method",
             {{"timer", "std::chrono::steady_clock around each call, in the engine process"},
              {"warmup", options.warmup},
              {"min_runs", options.minRuns},
              {"max_runs", options.maxRuns},
              {"max_seconds", options.maxSeconds},
              {"stable_rel", options.stableRel},
              {"percentiles", "linear interpolation between order statistics (numpy default)"},
              {"pairing", comparison->pairing()},
              {"traced_runs", "untraced and traced runs of every variant timed together in alternating blocks, "
                              "the collector on for a sample of each traced block's calls (collector.sample_every)"}}},
            {"threads", threads},
            {"measurement", measurement},
            {"eager_baseline", loaded.value("eager_baseline", Json())},
            {"speedup_interval", speedupIntervals},
            {"collector", collector},
            {"variants", variantsJson},
            {"speedup", speedup},
            {"kernels", kernels},
            {"ops", ops},
            {"gpu", gpu},
            {"cold_start", cold},
            {"throughput", throughput},
            {"files", files},
            {"warnings", warnings},
        };

        // profile.csv: one row per variant.
        Profiler::CsvTable csv({"variant", "available", "median_ms", "p10_ms", "p90_ms", "p99_ms", "mean_ms",
                                "stddev_ms", "runs", "warmup", "traced_median_ms", "overhead_pct", "peak_bytes",
                                "cuda_event_ms", "gpu_busy_share"});
        for (const auto &v : variantsJson) {
            const auto field = [](const Json &j) { return j.is_null() ? std::string() : (j.is_string() ? j.get<std::string>() : j.dump()); };
            const Json &s = v["statistics"];
            std::vector<std::string> row{v["name"].get<std::string>(), v["available"].get<bool>() ? "true" : "false"};
            for (const char *k : {"median_ms", "p10_ms", "p90_ms", "p99_ms", "mean_ms", "stddev_ms", "runs", "warmup"})
                row.push_back(s.is_object() ? field(s[k]) : "");
            row.push_back(v["traced"].is_object() ? field(v["traced"]["median_ms"]) : "");
            row.push_back(field(v["overhead_pct"]));
            row.push_back(v["memory"].is_object() ? field(v["memory"]["peak_bytes"]) : "");
            row.push_back(field(v["cuda_event_ms"]));
            row.push_back(field(v["gpu_busy_share"]));
            csv.addRow(row);
        }
        Profiler::CsvTable kcsv({"variant", "name", "kind", "calls", "total_ms", "mean_ms", "share", "covered_nodes"});
        for (const Json *list : {&kernels, &ops}) {
            for (const auto &k : *list) {
                std::string nodes;
                for (const auto &n : k["covered_nodes"])
                    nodes += (nodes.empty() ? "" : ";") + n.get<std::string>();
                kcsv.addRow({k["variant"].get<std::string>(), k["name"].get<std::string>(),
                             k["kind"].get<std::string>(), k["calls"].dump(), num(k["total_ms"].get<double>()),
                             num(k["mean_ms"].get<double>()), num(k["share"].get<double>()), nodes});
            }
        }
        writeFileAtomic(csvPath, csv.text());
        writeFileAtomic(kernelsCsvPath, kcsv.text());
        if (trace) {
            const Json traceJson = Profiler::chromeTrace(all, origin, gpuRanges.empty() ? std::map<int, std::string>{{1, "engine (CPU)"}}
                                                                                    : std::map<int, std::string>{{1, "engine (CPU)"}, {2, "CUDA device"}},
                                                         threadNames,
                                                         {{"model", model}, {"device", device}, {"producer", "aotstudio profile"}});
            writeFileAtomic(tracePath, traceJson.dump(-1, ' ', false, Json::error_handler_t::replace));
        }
        writeJsonAtomic(profilePath, result);
        ctx.sendEvent(Protocol::makeStageDone(id, "write", 0, Json{{"profile", profilePath.string()}, {"csv", csvPath.string()},
                                                                 {"trace", trace ? Json(tracePath.string()) : Json()}}));
        progress("write", 1, "profile done");
        return result;
    } catch (const Python::FrontendException &e) {
        if (!e.details().empty())
            log("debug", e.details());
        throw JobFailed(e.error());
    }
}

} // namespace AotStudio::Pipeline
