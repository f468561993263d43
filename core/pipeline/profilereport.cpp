// SPDX-License-Identifier: GPL-3.0-or-later
// The reporting steps of a profile (profilesteps.h): the variants' rows and speedups, memory
// against eager with its cause, kernels and ops with kernels.json's provenance, the device, and
// profile.json, the CSVs and trace.json.
#include "pipeline/jobutil.h"
#include "pipeline/profilesteps.h"

#include "python/frontend.h"

#include <algorithm>
#include <cstdio>
#include <regex>
#include <sstream>
#include <thread>

namespace AotStudio::Pipeline::ProfileSteps {

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

Json optNum(const std::optional<double> &v)
{
    return v ? Json(*v) : Json();
}

/// Issue 38 item 4's target: a compiled variant's peak may exceed eager's by this factor at most.
constexpr double kMemoryTarget = 1.1;

} // namespace

Provenance Provenance::load(const fs::path &path)
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

const Provenance::Entry *Provenance::find(const std::string &rangeName) const
{
    const auto it = byName.find(kernelKey(rangeName));
    return it == byName.end() ? nullptr : &it->second;
}

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

} // namespace AotStudio::Pipeline::ProfileSteps
