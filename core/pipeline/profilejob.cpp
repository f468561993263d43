// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/profilejob.h"
#include "pipeline/compilejob.h"
#include "pipeline/coldstart.h"
#include "pipeline/jobutil.h"
#include "pipeline/measurement.h"
#include "pipeline/steps.h"
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
        const Json j = readJsonFile(path);
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
    Runtime::MemoryPeak memory; ///< peakBytes: the median of memorySamples
    std::vector<double> memorySamples; ///< one call's peak bytes per memory round
    std::optional<double> cudaEventMs;
    std::optional<double> busyShare;
};

/// Profile's stages and their share of the bar; a compile for the profile fills "compile".
constexpr StageSpan kProfileStages[] = {
    {"compile", 0.00, 0.50},    {"load", 0.50, 0.52},   {"load_package", 0.52, 0.55},
    {"measure", 0.55, 0.75},    {"memory", 0.75, 0.78}, {"throughput", 0.78, 0.87},
    {"cold_start", 0.87, 0.92}, {"replay", 0.92, 0.97}, {"write", 0.97, 1.00},
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

using WarnFn = std::function<void(const std::string &)>;

/// A profile request, validated (FORMAT.md "profile").
struct ProfileRequest {
    Profiler::MeasureOptions options;
    int threads = 1; ///< intra-op threads in effect (applyThreads)
    std::string model;
    std::string device = "cpu";
    std::string shapes; ///< the request's `shapes` as JSON text, "" when none (the cold start's eager side)
    fs::path out; ///< absolute, created
    std::vector<int> runnerCounts{1, 2, 4};
    std::set<std::string> wanted{"eager", "aoti", "nativert"};
    bool trace = true;
    double throughputSeconds = 1.0; ///< s per runner count
    int coldRuns = 3;
    std::optional<ReplaySpec> replay; ///< the burst replay; absent: none (the default)
    std::optional<std::string> package; ///< a given package (absolute); absent: compile here
    bool convertLayout = false; ///< `convert_layout`: inputs copied into the package's layout, not refused
};

/// The request's `replay` (FORMAT.md "profile"): absent, null or false: none; true: the defaults
/// (rates 5, 20, 50 requests/s, 3 s each, 1 worker, worker and request isolation); an object: those
/// fields overridden. Throws JobFailed(bad_request) naming the field.
std::optional<ReplaySpec> parseReplay(const Json &request)
{
    const Json &j = request.contains("replay") ? request["replay"] : Json();
    const auto bad = [](const std::string &message, const std::string &hint) {
        return JobFailed({"load", Protocol::Code::BadRequest, message, hint});
    };
    if (j.is_null() || (j.is_boolean() && !j.get<bool>()))
        return std::nullopt;
    ReplaySpec spec;
    spec.rates = {5, 20, 50};
    if (j.is_boolean())
        return spec;
    if (!j.is_object())
        throw bad("'replay' must be an object, true or false", "e.g. {\"rates\": [5, 20, 50], \"seconds\": 3}");
    for (const auto &[key, value] : j.items())
        if (key != "rates" && key != "seconds" && key != "workers" && key != "modes" && key != "seed" && key != "eager")
            throw bad("'replay." + key + "' is not a field of replay",
                      "replay has rates, seconds, workers, modes, seed and eager");
    if (j.contains("rates")) {
        if (!j["rates"].is_array() || j["rates"].empty())
            throw bad("'replay.rates' must be a non-empty list of arrival rates (requests/s)", "e.g. [5, 20, 50]");
        spec.rates.clear();
        for (const auto &r : j["rates"]) {
            if (!r.is_number() || !(r.get<double>() > 0) || r.get<double>() > 10000)
                throw bad("'replay.rates' holds " + r.dump()
                              + ": each rate must be a number of requests/s in (0, 10000]",
                          "e.g. [5, 20, 50]");
            spec.rates.push_back(r.get<double>());
        }
    }
    if (j.contains("seconds")) {
        if (!j["seconds"].is_number() || !(j["seconds"].get<double>() > 0) || j["seconds"].get<double>() > 600)
            throw bad("'replay.seconds' must be a number of seconds in (0, 600]", "e.g. 3");
        spec.seconds = j["seconds"].get<double>();
    }
    if (j.contains("workers")) {
        if (!j["workers"].is_number_integer() || j["workers"].get<int>() < 1 || j["workers"].get<int>() > 256)
            throw bad("'replay.workers' must be an integer in 1..256", "e.g. 1");
        spec.workers = j["workers"].get<int>();
    }
    if (j.contains("seed")) {
        if (!j["seed"].is_number_unsigned())
            throw bad("'replay.seed' must be a non-negative integer", "e.g. 0");
        spec.seed = j["seed"].get<std::uint64_t>();
    }
    if (j.contains("eager")) {
        if (!j["eager"].is_boolean())
            throw bad("'replay.eager' must be true or false", "false leaves out the Python eager server baseline");
        spec.eager = j["eager"].get<bool>();
    }
    if (j.contains("modes")) {
        if (!j["modes"].is_array() || j["modes"].empty())
            throw bad("'replay.modes' must be a non-empty list of isolation modes", "e.g. [\"worker\", \"request\"]");
        spec.modes.clear();
        for (const auto &m : j["modes"]) {
            if (!m.is_string() || (m != "worker" && m != "request"))
                throw bad("'replay.modes' holds " + m.dump()
                              + ": the modes are worker and request (the spawn "
                                "baseline is always run)",
                          "e.g. [\"worker\", \"request\"]");
            if (std::find(spec.modes.begin(), spec.modes.end(), m.get<std::string>()) == spec.modes.end())
                spec.modes.push_back(m.get<std::string>());
        }
    }
    return spec;
}

/// Validate `request` (every field before any work), apply its thread count and create `out`.
/// Throws JobFailed: bad_request naming the field, no_device for cuda without a usable GPU (an
/// absent device is an error, not a silent move to the CPU: the figures would answer another
/// question than the one asked).
ProfileRequest parseRequest(const Json &request)
{
    ProfileRequest r;
    r.options = measureOptionsFrom(request); // validates the common fields too
    r.threads = applyThreads(request);
    if (request.contains("package") && !request["package"].is_string())
        throw JobFailed({"load", Protocol::Code::BadRequest, "'package' must be a string", "send a JSON string"});
    r.model = request.value("model", std::string());
    r.device = request.value("device", std::string("cpu"));
    if (request.contains("shapes") && request["shapes"].is_object())
        r.shapes = request["shapes"].dump();
    const std::string outString = request.value("out", std::string());
    if (r.model.empty())
        throw JobFailed({"load", Protocol::Code::BadRequest, "profile needs a model", "pass --model SPEC (e.g. sample:mlp)"});
    if (outString.empty())
        throw JobFailed({"load", Protocol::Code::BadRequest, "profile needs an output directory", "pass --out DIR"});
    if (r.device != "cpu" && r.device != "cuda")
        throw JobFailed({"load", Protocol::Code::BadRequest, "unknown device '" + r.device + "'", "use cpu or cuda"});
    if (request.contains("throughput")) {
        if (!request["throughput"].is_array())
            throw JobFailed({"load", Protocol::Code::BadRequest, "'throughput' must be a list of runner counts", "e.g. [1,2,4]"});
        r.runnerCounts.clear();
        for (const auto &n : request["throughput"]) {
            if (!n.is_number_integer() || n.get<int>() < 1 || n.get<int>() > 256)
                throw JobFailed({"load", Protocol::Code::BadRequest, "runner counts must be integers in 1..256", "e.g. [1,2,4]"});
            r.runnerCounts.push_back(n.get<int>());
        }
    }
    if (request.contains("variants")) {
        if (!request["variants"].is_array())
            throw JobFailed({"load", Protocol::Code::BadRequest, "'variants' must be a list", "e.g. [\"eager\",\"aoti\"]"});
        r.wanted.clear();
        for (const auto &v : request["variants"]) {
            if (!v.is_string() || (v != "eager" && v != "aoti" && v != "nativert"))
                throw JobFailed({"load", Protocol::Code::BadRequest, "unknown variant " + v.dump(), "use eager, aoti, nativert"});
            r.wanted.insert(v.get<std::string>());
        }
    }
    r.trace = request.value("trace", true);
    r.throughputSeconds = std::max(0.05, request.value("throughput_seconds", 1.0));
    r.coldRuns = std::max(0, request.value("cold_start_runs", 3));
    r.replay = parseReplay(request);
    if (request.contains("package"))
        r.package = fs::absolute(request["package"].get<std::string>()).lexically_normal().string();
    if (request.contains("convert_layout") && !request["convert_layout"].is_boolean())
        throw JobFailed(
            {"load", Protocol::Code::BadRequest, "'convert_layout' must be true or false", "send a JSON boolean"});
    r.convertLayout = request.value("convert_layout", false);

    if (r.device == "cuda" && !Runtime::cudaAvailable())
        throw JobFailed({"load", Protocol::Code::NoDevice, "no CUDA device: LibTorch sees no usable GPU or driver on this machine",
                         "profile with --device cpu, or run the engine on a machine with an NVIDIA GPU"});
    r.out = fs::absolute(outString).lexically_normal();
    std::error_code ec;
    fs::create_directories(r.out, ec);
    if (ec)
        throw JobFailed({"load", Protocol::Code::BadRequest, "cannot create '" + r.out.string() + "': " + ec.message(),
                         "choose a writable --out"});
    return r;
}

/// The package profiled: compiled by this job (stage "compile", half the bar), or given.
struct PackageSource {
    std::string package; ///< absolute path of the .pt2
    fs::path kernelsJson; ///< kernels.json next to it; empty when there is none
    std::string source = "compiled"; ///< "compiled" or "given"
    Json stages = Json::array(); ///< the compile's stages and passes (FORMAT.md compile result)
    Json options; ///< and its options (null for a given package)
};

/// Compile the request's model into `req.out` (a sub-job of `ctx`), or check the given package
/// exists. Throws JobFailed (load_failed for a missing package; the compile's own failures).
PackageSource obtainPackage(const Job &ctx, const Json &request, const ProfileRequest &req)
{
    PackageSource p;
    std::error_code ec;
    if (req.package) {
        p.source = "given";
        p.package = *req.package;
        if (!fs::is_regular_file(p.package, ec))
            throw JobFailed({"load_package", Protocol::Code::LoadFailed, "package '" + p.package + "' does not exist",
                             "pass --package the .pt2 written by compile or export"});
        p.kernelsJson = fs::path(p.package).parent_path() / "kernels.json";
    } else {
        Json r = request;
        for (const char *k :
             {"variants", "trace", "throughput", "throughput_seconds", "cold_start_runs", "replay", "package"})
            r.erase(k);
        r["out"] = req.out.string();
        r["measure"] = false;
        const Json compiled = runCompileAsPart(ctx, r, 0.5);
        p.package = compiled.value("package", "");
        p.stages = compiled.value("stages", Json::array());
        p.options = compiled.value("options", Json());
        p.kernelsJson = req.out / "kernels.json";
    }
    if (!fs::exists(p.kernelsJson, ec))
        p.kernelsJson.clear();
    return p;
}

/// Load the package with LibTorch on the model's inputs and run it once. A given package reads
/// its inputs by the sizes it was compiled for: when its result.json (written by our compile next
/// to it) names other input shapes than the model's (`loaded.inputs`), running it would read past
/// them; with a guards sidecar the runner checks the inputs itself, range by range. Throws
/// JobFailed(load_failed) naming the package and what to do.
std::unique_ptr<Runtime::AotiRunner> loadPackage(const ProfileRequest &req, const PackageSource &src,
                                                 Python::CompileJob &job, const Json &loaded)
{
    std::error_code ec;
    if (src.source == "given" && !fs::exists(Bundle::InputGuards::sidecarPath(src.package), ec)) {
        const Json compiledFor = readJsonFile(fs::path(src.package).parent_path() / "result.json");
        const Json want = compiledFor.is_object() ? compiledFor.value("inputs", Json()) : Json();
        const Json have = loaded.value("inputs", Json());
        if (want.is_array() && have.is_array() && want != have)
            throw JobFailed({"load_package", Protocol::Code::LoadFailed,
                             "package '" + src.package + "' was compiled for inputs " + want.dump()
                                 + " (its result.json); " + req.model + " gives " + have.dump(),
                             "profile the package with the model it was compiled from, or compile this model "
                             "(omit --package)"});
    }
    try {
        auto runner = Runtime::AotiRunner::load(src.package, req.device);
        runner->setConvertLayout(req.convertLayout);
        runner->setInputs(job.inputs());
        runner->run();
        return runner;
    } catch (const Runtime::InputRefused &e) {
        throw JobFailed(
            {"load_package", Protocol::Code::LoadFailed, e.what(),
             e.violation().layout
                 ? "the model's example inputs have another memory layout than the package was compiled for; "
                   "give inputs in that layout, or profile with --convert-layout (a copy before every call)"
                 : "the model's inputs are outside what the package was compiled for (its model.guards.json); "
                   "give inputs it accepts, or compile the model with the range you need (--dynamic)"});
    } catch (const Runtime::RuntimeError &e) {
        const bool program
            = src.source == "given" && Bundle::pt2Kind(fs::path(src.package)) == Bundle::Pt2Kind::ExportedProgram;
        throw JobFailed({"load_package", Protocol::Code::LoadFailed, e.what(),
                         program ? "profile the model itself (omit --package: it is compiled first), or compile the "
                                   "program and profile its model.pt2"
                             : src.source == "given"
                             ? "the package may be built for another device, another torch or another "
                               "model; compile it here with aotstudio-cli compile"
                             : "see the engine log"});
    }
}

/// The variants asked for, in the order eager, aoti, nativert; nativert is listed unavailable
/// with its reason (AOT Studio does not drive NativeRT yet). The calls hold `job` and `runner`
/// by reference.
std::vector<Variant> makeVariants(const ProfileRequest &req, Python::CompileJob &job, Runtime::AotiRunner &runner,
                                  const WarnFn &warn)
{
    std::vector<Variant> variants;
    if (req.wanted.count("eager"))
        variants.push_back({"eager", true, "", [&job] { job.runEager(); }});
    if (req.wanted.count("aoti"))
        variants.push_back({"aoti", true, "", [&runner] { runner.run(); }});
    if (req.wanted.count("nativert")) {
        Variant v{"nativert", false, "", {}};
        if (Runtime::nativeRtAvailable(v.reason))
            v.reason = "this torch exports NativeRT's ModelRunnerHandle, but AOT Studio does not drive it yet";
        warn("variant nativert not measured: " + v.reason);
        variants.push_back(std::move(v));
    }
    return variants;
}

/// How the collector works and what its overhead touches, stated in the result (PROFILE.md).
std::string recordFunctionMethod()
{
    return "the package's kernel and library-call ranges taken at AOTInductor's C ABI (aoti_record_function_start/end "
           "interposed: two clock reads a range, no RecordFunction; collector.aoti_ranges), eager's top-level ops by "
           "RecordFunction callbacks on the calling thread (outermost ranges timestamped into a per-thread buffer, "
           "nested ranges only counted); on for the first call of every traced block and every "
        + std::to_string(kTraceEvery)
        + "th after it (switched outside the timer), so the kernel breakdown comes from those sampled calls and "
          "latency "
          "and speedup from the untraced blocks";
}

constexpr const char *kCuptiMethod
    = "CUPTI activity records (kernels, memcpy, memset) from a dedicated subscriber, enabled "
      "around the traced blocks; RecordFunction ranges on sampled calls as on the CPU; "
      "latency and speedup come from untraced calls (CUDA events)";

/// Step 4's timing of every variant, untraced and traced.
struct Measured {
    std::optional<Comparison> comparison;
    std::vector<std::pair<std::size_t, std::size_t>>
        slots; ///< per variant: its plain and traced index in the comparison (SIZE_MAX: none)
    std::int64_t origin = 0; ///< trace time zero (RangeCollector::nowNs)
    std::vector<Profiler::TimedRange> ranges; ///< CPU ranges of the sampled calls, and their call frames (depth -1)
    std::map<std::string, double> wallMs; ///< per variant, wall time of the kept sampled calls (ms)
    std::map<std::string, Json> overheadIntervals, sampledOverhead;
    Json collector; ///< PROFILE.md "collector"
    std::unique_ptr<Profiler::CuptiCollector> cupti; ///< null on CPU or when CUPTI could not start
    std::vector<Profiler::CuptiRecord> gpuRecords;
};

/// Time every available variant untraced and traced, all together in alternating blocks
/// (measurement.h): a drift of machine load hits every variant and both passes alike; the speedups
/// and the collector's overhead are ratios of paired medians with intervals. The collector is on
/// for a sample of the traced calls only: the first of every block and every kTraceEvery-th after
/// it, switched on and off outside the timer (PairedVariant::beforeCall/afterCall) and on this
/// thread only, so the other calls of a traced block run as untraced ones do. The sampled calls
/// fill kernels, ops and the trace; sampled_call_overhead says how much each of them was slowed.
/// Fills each variant's plain/traced summaries and GPU busy share. Throws JobFailed(cancelled).
Measured measureVariants(const Job &ctx, const ProfileRequest &req, std::vector<Variant> &variants, const WarnFn &warn)
{
    Measured m;
    m.collector = Json{{"name", req.device == "cuda" ? "cupti" : "record_function"},
                       {"available", req.trace},
                       {"reason", req.trace ? "" : "trace: false"},
                       {"method", req.device == "cuda" ? std::string(kCuptiMethod) : recordFunctionMethod()},
                       {"sample_every", kTraceEvery},
                       {"overhead_applies_to",
                        "the traced blocks' statistics (overhead, overhead_pct); each sampled call, "
                        "i.e. the per-kernel times, carries sampled_call_overhead"}};
    if (req.device == "cuda" && req.trace) {
        std::string why;
        m.cupti = Profiler::CuptiCollector::create(why);
        if (!m.cupti) {
            warn("CUPTI unavailable (" + why + "): kernels come from RecordFunction ranges only");
            m.collector["name"] = "record_function";
            m.collector["reason"] = why;
            m.collector["method"] = recordFunctionMethod();
        }
    }
    m.origin = Runtime::RangeCollector::nowNs();
    Runtime::RangeCollector rc;
    struct Traced {
        CallLog calls;
        bool sampling = false;
        std::int64_t t0 = 0, busyNs = 0, tracedNs = 0;
    };
    // The package ran during verify: if its kernel ranges reached our shim hook, use it.
    const bool shimHook = req.device == "cpu" && Runtime::aotiShimHookReached();
    m.collector["aoti_ranges"] = shimHook ? "aoti_shim" : "record_function";
    std::vector<Traced> tracedState(variants.size());
    std::vector<Profiler::PairedVariant> timed;
    m.slots.assign(variants.size(), {SIZE_MAX, SIZE_MAX});
    auto &cupti = m.cupti;
    for (std::size_t vi = 0; vi < variants.size(); ++vi) {
        auto &v = variants[vi];
        if (!v.available)
            continue;
        m.slots[vi].first = timed.size();
        timed.push_back({v.name, v.call, {}, {}, {}, {}});
        if (!req.trace)
            continue;
        auto &st = tracedState[vi];
        m.slots[vi].second = timed.size();
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
            m.gpuRecords.insert(m.gpuRecords.end(), std::make_move_iterator(recs.begin()),
                                std::make_move_iterator(recs.end()));
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
                m.ranges.push_back(
                    {std::move(r.name), v.name, r.startNs, r.endNs, 1, r.thread, r.depth, Json::object()});
        };
        timed.push_back(std::move(traced));
    }
    ctx.progress("measure", 0,
                 "timing " + std::to_string(timed.size()) + " variants in alternating blocks"
                     + (req.trace ? " (untraced and traced)" : ""));
    try {
        m.comparison.emplace(std::move(timed), req.options, req.threads, ctx.stopToken());
    } catch (...) {
        if (rc.running())
            rc.stop();
        if (cupti)
            cupti->stop();
        throw;
    }
    ctx.checkStop("measure");
    Json droppedCalls = Json::object();
    const auto &comparison = *m.comparison;
    for (std::size_t vi = 0; vi < variants.size(); ++vi) {
        auto &v = variants[vi];
        if (!v.available)
            continue;
        v.plain = comparison.summary(m.slots[vi].first);
        if (m.slots[vi].second == SIZE_MAX)
            continue;
        auto &st = tracedState[vi];
        v.traced = comparison.summary(m.slots[vi].second);
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
                std::erase_if(m.ranges, [&, a = a, b = b](const Profiler::TimedRange &r) {
                    return r.category == v.name && r.startNs >= a && r.startNs <= b;
                });
                continue;
            }
            v.tracedWallMs += static_cast<double>(b - a) / 1e6;
            m.ranges.push_back({"call", v.name, a, b, 1, 0, -1, Json{{"kind", "call"}}});
        }
        droppedCalls[v.name] = {{"sampled", st.calls.calls.size()}, {"dropped", dropped}};
        m.wallMs[v.name] = v.tracedWallMs;
        if (cupti && st.tracedNs > 0)
            v.busyShare = static_cast<double>(st.busyNs) / static_cast<double>(st.tracedNs);
        m.overheadIntervals[v.name] = ratioJson(comparison.ratio(m.slots[vi].second, m.slots[vi].first));
        // What each sampled call paid: the sampled calls of every traced block against the
        // untraced block of the same round (paired by round; works for one-call blocks too).
        const auto &plainBlocks = comparison.paired().variants.at(m.slots[vi].first).blocksMs;
        const auto &tracedBlocks = comparison.paired().variants.at(m.slots[vi].second).blocksMs;
        std::vector<std::vector<double>> sampled;
        for (const auto &block : tracedBlocks) {
            sampled.emplace_back();
            for (std::size_t c = 0; c < block.size(); c += kTraceEvery)
                sampled.back().push_back(block[c]);
        }
        m.sampledOverhead[v.name] = ratioJson(Profiler::ratioInterval(sampled, plainBlocks));
    }
    m.collector["sampled_calls"] = droppedCalls;
    return m;
}

/// Memory rounds: each round measures one call of every variant in turn, so that compiled/eager is
/// a ratio over paired rounds (Profiler::ratioInterval) like the latency ratios.
constexpr int kMemoryRounds = 5;

/// Step 5: peak memory per variant over kMemoryRounds rounds of one untimed call each, the
/// variants in turn within a round (the median is `memory.peakBytes`), and, on CUDA, the median
/// CUDA-event latency of 5..50 calls. Throws JobFailed(cancelled) between calls.
void measureMemory(const Job &ctx, std::vector<Variant> &variants, const std::string &device)
{
    ctx.progress("memory", 0, "peak memory of one call per variant, " + std::to_string(kMemoryRounds) + " rounds");
    for (int round = 0; round < kMemoryRounds; ++round) {
        for (auto &v : variants) {
            if (!v.available)
                continue;
            const Runtime::MemoryPeak peak = Runtime::measurePeakMemory(v.call, device);
            if (peak.peakBytes)
                v.memorySamples.push_back(static_cast<double>(*peak.peakBytes));
            v.memory.method = peak.method;
            ctx.checkStop("memory");
        }
        ctx.progress("memory", (round + 1.0) / kMemoryRounds, "peak memory round " + std::to_string(round + 1));
    }
    for (auto &v : variants) {
        if (!v.available || v.memorySamples.size() != static_cast<std::size_t>(kMemoryRounds))
            continue; // a method that failed once: no peak (null), never a median of some rounds
        std::vector<double> sorted = v.memorySamples;
        std::sort(sorted.begin(), sorted.end());
        v.memory.peakBytes = static_cast<long long>(Profiler::percentile(sorted, 50.0));
    }
    if (device != "cuda")
        return;
    for (auto &v : variants) {
        if (!v.available)
            continue;
        std::vector<double> ms;
        for (int i = 0; i < std::max(5, std::min<int>(50, static_cast<int>(v.plain.runs))); ++i)
            if (auto e = Runtime::cudaEventMs(v.call))
                ms.push_back(*e);
        if (!ms.empty())
            v.cudaEventMs = Profiler::summarize(ms).medianMs;
        ctx.checkStop("memory");
    }
}

/// Issue 38 item 4's target: a compiled variant's peak may exceed eager's by this factor at most.
constexpr double kMemoryTarget = 1.1;

/// Step 8c: each compiled variant's peak memory against eager's (PROFILE.md "memory_vs_eager"):
/// the ratio of the medians over the paired rounds with its interval, whether it is within
/// kMemoryTarget, and why, from the compile's memory plan (`memory.json` beside the package,
/// FORMAT.md "Memory plan": Inductor's planned peak, the buffers live there, the buffers extern
/// calls allocate themselves, the constants the package holds). Null without an eager peak.
Json memoryVsEager(const std::vector<Variant> &variants, const std::string &package, bool freezing, const WarnFn &warn)
{
    const auto eager = std::find_if(variants.begin(), variants.end(), [](const Variant &v) {
        return v.name == "eager" && v.available && v.memory.peakBytes;
    });
    if (eager == variants.end())
        return nullptr;
    Json plan;
    const fs::path planPath = fs::path(package).parent_path() / "memory.json";
    std::error_code ec;
    if (fs::exists(planPath, ec)) {
        plan = readJsonFile(planPath);
        if (!plan.is_object() || !plan.value("available", false))
            plan = nullptr;
    }
    const auto num = [](const Json &j, const char *key) -> std::optional<double> {
        return j.is_object() && j.contains(key) && j[key].is_number() ? std::optional<double>(j[key].get<double>())
                                                                      : std::nullopt;
    };
    const auto mb = [](double bytes) {
        char b[32];
        std::snprintf(b, sizeof b, "%.2f MB", bytes / 1e6);
        return std::string(b);
    };
    Json out = Json::object();
    for (const auto &v : variants) {
        if (&v == &*eager || !v.available || !v.memory.peakBytes)
            continue;
        const Profiler::RatioInterval r = Profiler::ratioInterval(std::span<const double>(v.memorySamples),
                                                                  std::span<const double>(eager->memorySamples));
        const double e = static_cast<double>(*eager->memory.peakBytes), c = static_cast<double>(*v.memory.peakBytes);
        const bool within = r.estimate <= kMemoryTarget;
        Json row{{"eager_peak_bytes", *eager->memory.peakBytes},
                 {"peak_bytes", *v.memory.peakBytes},
                 {"ratio", ratioJson(r)},
                 {"target", kMemoryTarget},
                 {"within_target", within},
                 {"rounds", kMemoryRounds},
                 {"spread_bytes",
                  v.memorySamples.empty() ? Json()
                                          : Json(*std::max_element(v.memorySamples.begin(), v.memorySamples.end())
                                                 - *std::min_element(v.memorySamples.begin(), v.memorySamples.end()))},
                 {"memory_json", plan.is_null() ? Json() : Json(planPath.string())}};
        // What the plan says (aoti only: the plan is this package's).
        std::optional<double> planned, constants;
        double externBytes = 0;
        int externCount = 0;
        std::string peakKernel, liveAtPeak;
        if (v.name == "aoti" && plan.is_object()) {
            planned = num(plan.value("peak", Json::object()), "planned_bytes");
            constants = num(plan, "constants_bytes");
            for (const auto &b : plan.value("buffers", Json::array()))
                if (b.value("allocation", "") == "extern") {
                    externBytes += b.value("bytes", 0.0);
                    ++externCount;
                }
            const Json at = plan.value("peak", Json::object()).value("planned", Json::object());
            peakKernel = at.value("kernel", Json()).is_string() ? at["kernel"].get<std::string>() : "";
            std::vector<std::pair<double, std::string>> live;
            for (const auto &b : at.value("live_buffers", Json::array())) {
                std::string nodes; // the first three post-grad nodes it holds
                const Json held = b.value("nodes", Json::array());
                for (std::size_t k = 0; k < held.size() && k < 3; ++k)
                    if (held[k].is_string())
                        nodes += (nodes.empty() ? "" : ",") + held[k].get<std::string>();
                if (held.size() > 3)
                    nodes += ", +" + std::to_string(held.size() - 3) + " more";
                live.emplace_back(b.value("bytes", 0.0),
                                  b.value("name", std::string("?")) + " (" + nodes + ", " + mb(b.value("bytes", 0.0))
                                      + ")");
            }
            std::sort(live.begin(), live.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
            for (std::size_t i = 0; i < live.size() && i < 3; ++i)
                liveAtPeak += (i ? "; " : "") + live[i].second;
        }
        row["planned_peak_bytes"] = planned ? Json(*planned) : Json();
        row["constants_bytes"] = constants ? Json(*constants) : Json();
        row["extern_buffers"]
            = v.name == "aoti" && plan.is_object() ? Json{{"count", externCount}, {"bytes", externBytes}} : Json();
        std::string cause;
        if (within) {
            cause = r.estimate <= 1 ? "at or below eager's peak" : "within 10% of eager's peak";
        } else if (!planned) {
            cause = "no memory plan (memory.json) for this variant to say why";
        } else if (c <= *planned * kMemoryTarget) {
            // The measured peak is what Inductor planned: the generated code holds these buffers at once.
            cause = "Inductor's memory plan: the generated code holds " + mb(*planned) + " at its planned peak"
                + (peakKernel.empty() ? "" : " (at " + peakKernel + ")") + (liveAtPeak.empty() ? "" : ": " + liveAtPeak)
                + "; eager holds " + mb(e) + " at its peak";
        } else {
            // More than planned: allocations the plan does not make.
            cause = mb(c - *planned) + " above Inductor's planned peak of " + mb(*planned)
                + ": allocations outside the plan (extern kernels' own outputs and workspace, e.g. oneDNN convolutions "
                + "and MKL/OpenBLAS GEMM"
                + (externCount ? ": " + std::to_string(externCount) + " buffers of " + mb(externBytes)
                           + " returned by extern calls"
                               : std::string())
                + ")";
            // Measured on sample:resnet18 (PROFILE.md): without freezing its convolutions are
            // ATen calls returning tensors they allocate (1.94x eager); frozen, Inductor lowers them
            // to oneDNN calls writing into its plan (0.40x), at the cost of resident constant copies.
            if (externCount > 0 && !freezing)
                cause
                    += "; compiling with --freezing lowers convolutions to oneDNN calls that write into the plan "
                       "(sample:resnet18: 1.94x eager without, 0.40x with), at the cost of the frozen weights' copies";
        }
        if (constants && *constants > 0)
            cause += "; besides the per-call peak the package keeps " + mb(*constants) + " of constants resident"
                + (freezing ? " (frozen: its own folded copies of the weights, beside the model's)"
                            : " (the weights it was compiled with)");
        row["cause"] = cause;
        if (!within) {
            char target[16];
            std::snprintf(target, sizeof target, "%.2g", kMemoryTarget);
            warn(v.name + "'s peak memory is " + ratioText(r, "") + " eager's (target at most " + target
                 + "×): " + cause);
        }
        out[v.name] = std::move(row);
    }
    return out;
}

/// The one-bucket bundle that cold start and the burst replay run: the package hard-linked into
/// `out/coldstart`, the manifest built as export builds it (Bundle::newManifest).
struct ProfileBundle {
    fs::path dir;
    long long batch = 1; ///< the example inputs' batch: the bucket's
};

/// Step 7a: write `out/coldstart` for the package. Empty when it cannot be written (`warn` says why).
std::optional<ProfileBundle> writeProfileBundle(const ProfileRequest &req, const std::string &package,
                                                const Json &loaded, const Json &verified, const WarnFn &warn)
{
    const Json inputs = loaded.value("inputs", Json::array());
    ProfileBundle b;
    for (const auto &t : inputs)
        if (t.value("batched", true) && !t.value("shape", Json::array()).empty()) {
            b.batch = t["shape"][0].get<long long>();
            break;
        }
    std::error_code ec;
    b.dir = req.out / "coldstart";
    fs::remove_all(b.dir, ec);
    const std::string rel = std::string(Bundle::kPackagesDir) + "/model.pt2";
    fs::create_directories(b.dir / Bundle::kPackagesDir, ec);
    fs::create_hard_link(package, b.dir / rel, ec);
    if (ec)
        fs::copy_file(package, b.dir / rel, fs::copy_options::overwrite_existing, ec);
    Bundle::ManifestDraft draft;
    draft.created = isoNow();
    draft.producer = std::string("aotstudio ") + std::string(Protocol::kEngineVersion) + " profile";
    draft.model = req.model;
    draft.torchVersion = loaded.value("torch_version", Runtime::libtorchVersion());
    draft.cudaVersion = loaded.value("cuda_version", std::string());
    draft.device = req.device;
    draft.computeCapability = loaded.value("compute_capability", Json());
    draft.inputs = inputs;
    draft.outputs = verified.value("outputs", Json::array());
    draft.buckets = Json::array({Json{{"name", "default"}, {"batch", b.batch}, {"package", rel}}});
    try {
        Bundle::writeManifest(b.dir, Bundle::newManifest(draft));
        return b;
    } catch (const Bundle::BundleError &e) {
        warn(std::string("no bundle for cold start and replay: ") + e.what());
        return std::nullopt;
    }
}

/// Step 7b: cold start (coldstart.h) of aotstudio-run on the profile's bundle against Python
/// eager. Returns FORMAT.md's "cold start" object, empty when not measured (`warn` says why).
Json measureProfileColdStart(const Job &ctx, const ProfileRequest &req, const std::optional<ProfileBundle> &bundle,
                             const WarnFn &warn)
{
    if (req.coldRuns <= 0)
        return Json::object();
    ctx.progress("cold_start", 0, "timing cold start (fresh processes)");
    if (!bundle) {
        warn("cold start not measured: the profile's bundle could not be written");
        return Json::object();
    }
    return measureColdStart({bundle->dir, bundle->batch, req.model, req.device, req.coldRuns, req.shapes},
                            ctx.stopToken(), warn);
}

/// Step 7c: the burst replay (coldstart.h) on the same bundle, when the request asks for it.
/// Returns PROFILE.md's "replay" object, null when not asked; its failures are warnings.
Json measureProfileReplay(const Job &ctx, const ProfileRequest &req, const std::optional<ProfileBundle> &bundle,
                          const WarnFn &warn)
{
    if (!req.replay)
        return Json();
    ctx.progress("replay", 0, "burst replay (aotstudio-run --poisson)");
    if (!bundle) {
        warn("burst replay not measured: the profile's bundle could not be written");
        return Json();
    }
    ReplaySpec spec = *req.replay;
    spec.model = req.model;
    spec.device = req.device;
    spec.shapes = req.shapes;
    return measureBurstReplay(spec, bundle->dir, bundle->batch, ctx.stopToken(), warn,
                              [&](double f, const std::string &message) { ctx.progress("replay", f, message); });
}

/// Step 8a: the variants as PROFILE.md's "variants" rows, the speedups against eager with their
/// intervals, and the measurement verdict (a line in `warn` when it is not ok).
struct VariantReport {
    Json variants = Json::array();
    Json speedup = Json::object();
    Json speedupIntervals = Json::object();
    Json measurement;
};

VariantReport reportVariants(const Job &ctx, const std::vector<Variant> &variants, Measured &m,
                             const Profiler::MeasureOptions &options, const WarnFn &warn)
{
    VariantReport r;
    std::size_t eagerSlot = SIZE_MAX;
    for (std::size_t vi = 0; vi < variants.size(); ++vi)
        if (variants[vi].name == "eager" && variants[vi].available)
            eagerSlot = m.slots[vi].first;
    std::vector<Profiler::RatioInterval> shownRatios;
    for (std::size_t vi = 0; vi < variants.size(); ++vi) {
        const auto &v = variants[vi];
        Json j{{"name", v.name}, {"available", v.available}, {"reason", v.reason}};
        if (!v.available) {
            for (const char *k : {"statistics", "traced", "overhead_pct", "overhead", "sampled_call_overhead", "memory",
                                  "cuda_event_ms", "gpu_busy_share"})
                j[k] = nullptr;
        } else {
            j["statistics"] = summaryJson(v.plain, options.warmup);
            j["traced"] = v.hasTraced ? summaryJson(v.traced, 0) : Json();
            j["overhead_pct"] = v.hasTraced && v.plain.medianMs > 0
                ? Json((v.traced.medianMs - v.plain.medianMs) / v.plain.medianMs * 100.0)
                : Json();
            j["overhead"] = m.overheadIntervals.count(v.name) ? m.overheadIntervals[v.name] : Json();
            j["sampled_call_overhead"] = m.sampledOverhead.count(v.name) ? m.sampledOverhead[v.name] : Json();
            j["memory"] = {{"peak_bytes", v.memory.peakBytes ? Json(*v.memory.peakBytes) : Json()},
                           {"method", v.memory.method},
                           {"samples", v.memorySamples}};
            j["cuda_event_ms"] = optNum(v.cudaEventMs);
            j["gpu_busy_share"] = optNum(v.busyShare);
            if (eagerSlot != SIZE_MAX && m.slots[vi].first != eagerSlot) {
                const auto ratio = m.comparison->ratio(eagerSlot, m.slots[vi].first);
                r.speedup[v.name] = ratio.estimate;
                r.speedupIntervals[v.name] = ratioJson(ratio);
                shownRatios.push_back(ratio);
                ctx.log("info", v.name + " against eager: " + ratioText(ratio));
            }
        }
        r.variants.push_back(std::move(j));
    }
    r.measurement = m.comparison->measurement(shownRatios);
    if (const std::string line = verdictLine(r.measurement); !line.empty())
        warn(line);
    return r;
}

/// Step 8b: kernels (compiled variants) and ops (eager) from the sampled calls, CUDA kernels from
/// CUPTI, each row joined to kernels.json's provenance; the GPU summary; the trace's ranges with
/// kind and covered nodes, and its thread names.
struct KernelReport {
    Json kernels = Json::array();
    Json ops = Json::array();
    Json gpu; ///< null on CPU
    std::vector<Profiler::TimedRange> trace;
    std::map<std::pair<int, std::uint64_t>, std::string> threadNames;
    bool hasGpuRanges = false;
};

KernelReport reportKernels(Measured &m, const std::vector<Variant> &variants, const Provenance &provenance,
                           const std::string &device)
{
    KernelReport r;
    std::vector<Profiler::TimedRange> cpuRanges;
    for (const auto &range : m.ranges)
        if (range.depth >= 0)
            cpuRanges.push_back(range);
    std::vector<Profiler::TimedRange> gpuRanges;
    std::map<std::string, const Profiler::CuptiRecord *> firstKernel;
    for (const auto &g : m.gpuRecords) {
        Profiler::TimedRange t{g.name, g.variant, g.startNs, g.endNs,
                               2,      g.stream,  0,         Json{{"kind", Profiler::kindName(g.kind)}}};
        if (g.kind == Profiler::CuptiRecord::Kind::Kernel && !firstKernel.count(g.name))
            firstKernel[g.name] = &g;
        gpuRanges.push_back(std::move(t));
    }
    const auto addRow = [&](const Profiler::RangeStats &s, bool gpuKernel) {
        const auto *p = provenance.find(s.name);
        Json row{{"variant", s.variant},  {"name", s.name},      {"calls", s.calls},
                 {"total_ms", s.totalMs}, {"mean_ms", s.meanMs}, {"share", s.share}};
        row["kind"] = p                                              ? p->kind
            : gpuKernel                                              ? "cuda"
            : s.name.rfind("aoti_torch_", 0) == 0                    ? "library"
            : s.variant == "eager" || s.name.rfind("aten::", 0) == 0 ? "op"
                                                                     : "other";
        row["covered_nodes"] = p ? Json(std::vector<std::string>(p->post.begin(), p->post.end())) : Json::array();
        row["pre_grad_nodes"] = p ? Json(std::vector<std::string>(p->pre.begin(), p->pre.end())) : Json::array();
        row["in_kernels_json"] = p != nullptr;
        row["cuda"] = nullptr;
        if (gpuKernel) {
            if (const auto it = firstKernel.find(s.name); it != firstKernel.end()) {
                const auto &k = *it->second;
                row["cuda"] = {{"grid", {k.grid[0], k.grid[1], k.grid[2]}},
                               {"block", {k.block[0], k.block[1], k.block[2]}},
                               {"registers", k.registers},
                               {"shared_static_bytes", k.staticShared},
                               {"shared_dynamic_bytes", k.dynamicShared},
                               {"streams", {k.stream}},
                               {"device", k.device}};
            }
        }
        (s.variant == "eager" && !gpuKernel ? r.ops : r.kernels).push_back(std::move(row));
    };
    if (gpuRanges.empty()) {
        for (const auto &s : Profiler::aggregateRanges(cpuRanges, m.wallMs))
            addRow(s, false);
    } else {
        std::vector<Profiler::TimedRange> kernelRanges;
        for (const auto &g : gpuRanges)
            if (g.args.value("kind", "") == "kernel")
                kernelRanges.push_back(g);
        for (const auto &s : Profiler::aggregateRanges(kernelRanges, m.wallMs))
            addRow(s, true);
        for (const auto &s : Profiler::aggregateRanges(cpuRanges, m.wallMs))
            if (s.variant == "eager")
                addRow(s, false);
    }
    std::stable_sort(r.kernels.begin(), r.kernels.end(), [](const Json &a, const Json &b) {
        return a["total_ms"].get<double>() > b["total_ms"].get<double>();
    });
    if (device == "cuda") {
        Json busy = Json::object();
        for (const auto &v : variants)
            if (v.busyShare)
                busy[v.name] = *v.busyShare;
        r.gpu = Profiler::gpuSummary(m.gpuRecords);
        r.gpu["busy_share"] = busy;
        r.gpu["dropped_records"] = m.cupti ? m.cupti->droppedRecords() : 0;
    }
    // Names on trace ranges: kind and covered nodes for generated kernels.
    for (auto &range : m.ranges) {
        if (range.depth < 0)
            continue;
        if (const auto *p = provenance.find(range.name)) {
            range.args["kind"] = p->kind;
            range.args["covered_nodes"] = std::vector<std::string>(p->post.begin(), p->post.end());
        }
    }
    for (const auto &range : m.ranges)
        r.threadNames[{1, range.tid}] = range.tid == 0 ? "forward calls" : "thread " + std::to_string(range.tid);
    for (const auto &g : gpuRanges)
        r.threadNames[{2, g.tid}] = "stream " + std::to_string(g.tid);
    r.hasGpuRanges = !gpuRanges.empty();
    r.trace = m.ranges;
    r.trace.insert(r.trace.end(), gpuRanges.begin(), gpuRanges.end());
    return r;
}

/// FORMAT.md "device_info": the engine's description of `device` and the threads in effect.
Json deviceInfo(const std::string &device, int threads, const Profiler::CuptiCollector *cupti)
{
    Json info = Json::object();
    try {
        for (const auto &d : Python::engineInfo().value("devices", Json::array()))
            if (d.value("type", "") == device) {
                info = d;
                break;
            }
    } catch (const std::exception &) { }
    info["threads"] = threads;
    info["hardware_threads"] = std::thread::hardware_concurrency();
    if (cupti)
        info["cupti_library"] = cupti->libraryPath();
    return info;
}

/// Where a profile's files go in `out` (FORMAT.md "profile" files).
struct ProfileFiles {
    fs::path json, csv, kernelsCsv, trace;
    explicit ProfileFiles(const fs::path &out)
        : json(out / "profile.json")
        , csv(out / "profile.csv")
        , kernelsCsv(out / "profile_kernels.csv")
        , trace(out / "trace.json")
    { }
};

/// Step 8c: profile.csv (a row per variant), profile_kernels.csv (a row per kernel and op),
/// trace.json (Chrome trace format, when traced), then profile.json last, each written atomically.
void writeProfileFiles(const ProfileFiles &files, const Json &result, const KernelReport &k, std::int64_t origin,
                       bool trace)
{
    Profiler::CsvTable csv({"variant", "available", "median_ms", "p10_ms", "p90_ms", "p99_ms", "mean_ms", "stddev_ms",
                            "runs", "warmup", "traced_median_ms", "overhead_pct", "peak_bytes", "cuda_event_ms",
                            "gpu_busy_share"});
    for (const auto &v : result["variants"]) {
        const auto field = [](const Json &j) {
            return j.is_null() ? std::string() : (j.is_string() ? j.get<std::string>() : j.dump());
        };
        const Json &s = v["statistics"];
        std::vector<std::string> row{v["name"].get<std::string>(), v["available"].get<bool>() ? "true" : "false"};
        for (const char *key : {"median_ms", "p10_ms", "p90_ms", "p99_ms", "mean_ms", "stddev_ms", "runs", "warmup"})
            row.push_back(s.is_object() ? field(s[key]) : "");
        row.push_back(v["traced"].is_object() ? field(v["traced"]["median_ms"]) : "");
        row.push_back(field(v["overhead_pct"]));
        row.push_back(v["memory"].is_object() ? field(v["memory"]["peak_bytes"]) : "");
        row.push_back(field(v["cuda_event_ms"]));
        row.push_back(field(v["gpu_busy_share"]));
        csv.addRow(row);
    }
    Profiler::CsvTable kcsv({"variant", "name", "kind", "calls", "total_ms", "mean_ms", "share", "covered_nodes"});
    for (const Json *list : {&k.kernels, &k.ops}) {
        for (const auto &row : *list) {
            std::string nodes;
            for (const auto &n : row["covered_nodes"])
                nodes += (nodes.empty() ? "" : ";") + n.get<std::string>();
            kcsv.addRow({row["variant"].get<std::string>(), row["name"].get<std::string>(),
                         row["kind"].get<std::string>(), row["calls"].dump(), num(row["total_ms"].get<double>()),
                         num(row["mean_ms"].get<double>()), num(row["share"].get<double>()), nodes});
        }
    }
    writeFileAtomic(files.csv, csv.text());
    writeFileAtomic(files.kernelsCsv, kcsv.text());
    if (trace) {
        const auto processes = k.hasGpuRanges ? std::map<int, std::string>{{1, "engine (CPU)"}, {2, "CUDA device"}}
                                              : std::map<int, std::string>{{1, "engine (CPU)"}};
        const Json traceJson = Profiler::chromeTrace(
            k.trace, origin, processes, k.threadNames,
            {{"model", result["model"]}, {"device", result["device"]}, {"producer", "aotstudio profile"}});
        writeFileAtomic(files.trace, traceJson.dump(-1, ' ', false, Json::error_handler_t::replace));
    }
    writeJsonAtomic(files.json, result);
}

} // namespace

Json runProfile(std::int64_t id, const Json &request, const EventFn &emit, std::stop_token stop)
{
    const Job ctx(id, emit, stop, kProfileStages);
    const ProfileRequest req = parseRequest(request);
    Json warnings = Json::array();
    const WarnFn warn = [&](const std::string &message) {
        warnings.push_back(message);
        ctx.log("warning", message);
    };

    // 1. The package: compiled here, or given.
    const PackageSource src = obtainPackage(ctx, request, req);
    const Provenance provenance = Provenance::load(src.kernelsJson);

    Json jobRequest = request;
    jobRequest["out"] = req.out.string();
    Python::CompileJob job(
        jobRequest,
        [&](const std::string &level, const std::string &message, const Json &msg = nullptr) {
            ctx.log(level, message, msg);
        },
        ctx.sink(), ctx.stopToken());
    ctx.progress("load", 0, "building the model and example inputs");
    const Json loaded = job.load();
    ctx.checkStop("load");

    // 2. Load the package and check it computes what eager computes on these inputs.
    ctx.progress("load_package", 0, "loading the package with LibTorch");
    const auto runner = loadPackage(req, src, job, loaded);
    for (const auto &c : runner->layoutConversions())
        ctx.log("warning",
                "layout: " + c.message + " (convert_layout; the copy is made once, outside the timed calls)");
    const Json verified = verifyPackage(job, *runner); // per output, on the example and seeded inputs (steps.h)
    ctx.checkStop("load_package");

    // 3.-7. Variants timed together, memory, throughput, cold start.
    std::vector<Variant> variants = makeVariants(req, job, *runner, warn);
    Measured measured = measureVariants(ctx, req, variants, warn);
    measureMemory(ctx, variants, req.device);
    // Throughput against N runners of the package, N threads (throughput.h: runner counts
    // take turns in rounds, each rate with its interval, scaling against one runner).
    Json throughput = Json::array();
    if (req.wanted.count("aoti") && !req.runnerCounts.empty()) {
        ctx.progress("throughput", 0,
                     "throughput with " + std::to_string(req.runnerCounts.size())
                         + " runner count(s), in alternating windows");
        ThroughputOptions topt;
        topt.runnerCounts = req.runnerCounts;
        topt.seconds = req.throughputSeconds;
        topt.warmup = std::max(3, req.options.warmup);
        topt.threads = req.threads;
        topt.convertLayout = req.convertLayout;
        throughput = measureThroughput(
            src.package, req.device, [&] { return job.inputs(); }, topt, stop, warn,
            [&](double f) { ctx.progress("throughput", f, "throughput windows"); });
        ctx.checkStop("throughput");
    }
    std::optional<ProfileBundle> bundle;
    if (req.coldRuns > 0 || req.replay)
        bundle = writeProfileBundle(req, src.package, loaded, verified, warn);
    const Json cold = measureProfileColdStart(ctx, req, bundle, warn);
    ctx.checkStop("cold_start");
    const Json replay = measureProfileReplay(ctx, req, bundle, warn);
    ctx.checkStop("replay");

    // 8. Report.
    ctx.progress("write", 0, "writing profile.json, CSV and trace.json");
    const VariantReport vr = reportVariants(ctx, variants, measured, req.options, warn);
    const Json memory
        = memoryVsEager(variants, src.package, src.options.is_object() && src.options.value("freezing", false), warn);
    const KernelReport kr = reportKernels(measured, variants, provenance, req.device);
    const ProfileFiles files(req.out);
    Json result{
        {"format", "aotstudio.profile"},
        {"format_version", 1},
        {"created", isoNow()},
        {"model", req.model},
        {"device", req.device},
        {"dtype", request.value("dtype", std::string("fp32"))},
        {"package", src.package},
        {"package_source", src.source},
        {"kernels_json", src.kernelsJson.empty() ? Json() : Json(src.kernelsJson.string())},
        {"stages", src.stages},
        {"options", src.options},
        {"out", req.out.string()},
        {"torch_version", loaded.value("torch_version", Runtime::libtorchVersion())},
        {"torchao_version", torchaoVersion()},
        {"cuda_version", loaded.value("cuda_version", std::string())},
        {"device_info", deviceInfo(req.device, req.threads, measured.cupti.get())},
        {"inputs", loaded.value("inputs", Json::array())},
        {"outputs", loaded.value("outputs", Json::array())},
        {"max_abs_error", verified.value("max_abs_error", Json())},
        {"verify", verified.value("verify", Json())},
        {"method",
         {{"timer", "std::chrono::steady_clock around each call, in the engine process"},
          {"warmup", req.options.warmup},
          {"min_runs", req.options.minRuns},
          {"max_runs", req.options.maxRuns},
          {"max_seconds", req.options.maxSeconds},
          {"stable_rel", req.options.stableRel},
          {"percentiles", "linear interpolation between order statistics (numpy default)"},
          {"pairing", measured.comparison->pairing()},
          {"traced_runs",
           "untraced and traced runs of every variant timed together in alternating blocks, "
           "the collector on for a sample of each traced block's calls (collector.sample_every)"}}},
        {"threads", req.threads},
        {"measurement", vr.measurement},
        {"eager_baseline", loaded.value("eager_baseline", Json())},
        {"speedup_interval", vr.speedupIntervals},
        {"collector", measured.collector},
        {"variants", vr.variants},
        {"speedup", vr.speedup},
        {"memory_vs_eager", memory},
        {"kernels", kr.kernels},
        {"ops", kr.ops},
        {"gpu", kr.gpu},
        {"cold_start", cold},
        {"replay", replay},
        {"throughput", throughput},
        {"files",
         {{"profile_json", files.json.string()},
          {"csv", files.csv.string()},
          {"kernels_csv", files.kernelsCsv.string()},
          {"trace", req.trace ? Json(files.trace.string()) : Json()}}},
        {"warnings", warnings},
    };
    writeProfileFiles(files, result, kr, measured.origin, req.trace);
    ctx.sendEvent(Protocol::makeStageDone(id, "write", 0,
                                          Json{{"profile", files.json.string()},
                                               {"csv", files.csv.string()},
                                               {"trace", req.trace ? Json(files.trace.string()) : Json()}}));
    ctx.progress("write", 1, "profile done");
    return result;
}

} // namespace AotStudio::Pipeline
