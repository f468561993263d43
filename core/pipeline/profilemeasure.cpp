// SPDX-License-Identifier: GPL-3.0-or-later
// The measuring steps of a profile (profilesteps.h): the variants timed together, untraced and
// traced with the collector on sampled calls; peak memory; the one-bucket bundle that cold start
// and the burst replay run.
#include "pipeline/jobutil.h"
#include "pipeline/profilesteps.h"

#include "bundle/bundle.h"
#include "python/frontend.h"
#include "runtime/aotirunner.h"

#include <algorithm>

namespace AotStudio::Pipeline::ProfileSteps {

using Protocol::Json;
namespace fs = std::filesystem;

namespace {

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

/// The RecordFunction collector traces the first call of every traced block and every
/// kTraceEvery-th call after it (PROFILE.md "collector"): the kernel breakdown comes from those
/// calls, the rest of a traced block runs untraced, so the traced blocks' statistics stay within
/// about 1/kTraceEvery of a sampled call's cost of the untraced ones.
constexpr int kTraceEvery = 10;

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

} // namespace

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

} // namespace AotStudio::Pipeline::ProfileSteps
