// SPDX-License-Identifier: GPL-3.0-or-later
// The burst replay's report (replay_p.h): a row per configuration, the baseline/mode ratios with
// their intervals, the machine's verdict; a table or one envelope.
#include "serve/replay_p.h"

#include "bundle/text.h"
#include "profiler/paired.h"
#include "profiler/statistics.h"
#include "protocol/envelope.h"
#include "serve/serveerror.h"

#include <cmath>
#include <cstdio>

namespace AotStudio::Serve {

using nlohmann::json;

namespace {

bool isBaseline(Isolation i)
{
    return i == Isolation::Spawn || i == Isolation::Eager;
}

/// A mode that answered clearly fewer requests per second than arrived had a queue that grew for
/// the whole run: its latencies measure the trace's length, not the mode, and no ratio with it
/// means anything (spawn baselines at 20 requests/s on 2 CPUs).
struct Saturation {
    static constexpr double kBelow = 0.8; ///< answers/s under this share of the offered rate
    static constexpr std::size_t kMinRequests = 10; ///< fewer: too few to tell a queue from a gap
    double offered = 0; ///< arrivals/s of the trace
    std::size_t requests = 0;
    bool operator()(const ModeResult &r) const
    {
        return offered > 0 && r.wallS > 0 && requests >= kMinRequests && r.ok / r.wallS < kBelow * offered;
    }
};

json intervalJson(const Profiler::RatioInterval &i)
{
    return {{"estimate", i.estimate},
            {"low", i.low ? json(*i.low) : json()},
            {"high", i.high ? json(*i.high) : json()},
            {"level", i.level}};
}

std::string intervalText(const Profiler::RatioInterval &i, const char *format)
{
    char buf[128];
    std::snprintf(buf, sizeof buf, format, i.estimate);
    std::string s = buf;
    if (i.low && i.high) {
        char lo[48], hi[48];
        std::snprintf(lo, sizeof lo, format, *i.low);
        std::snprintf(hi, sizeof hi, format, *i.high);
        s += std::string(" [") + lo + ", " + hi + "]";
    } else if (i.blocks > 0) {
        s += " (no interval, n=" + std::to_string(i.blocks) + ")";
    }
    return s;
}

/// What the report gathers: JSON rows, text lines, and what the verdict needs.
struct Report {
    json modes = json::array();
    json ratios = json::array();
    std::vector<std::string> lines;
    std::vector<Profiler::VariantSpread> spreads;
    std::vector<double> widths; ///< the ratios' relative interval widths
    int exitCode = 0;
    std::string failedModes; ///< modes with no request answered: the replay failed
};

/// The text lines under a mode's row: its first error, the GPU's busy share, saturation.
void modeNotes(const ModeResult &r, bool saturated, double throughput, double offered, Report &out)
{
    if (!r.firstError.empty())
        out.lines.push_back("          first error: " + oneLine(r.firstError));
    if (r.gpuBusy.is_object()) {
        char gpuLine[400];
        if (r.gpuBusy["share"].is_number())
            std::snprintf(gpuLine, sizeof gpuLine, "          gpu busy: %.0f%% (%s, %d NVML samples)",
                          100.0 * r.gpuBusy["share"].get<double>(), r.gpuBusy.value("device", "").c_str(),
                          r.gpuBusy.value("samples", 0));
        else
            std::snprintf(gpuLine, sizeof gpuLine, "          gpu busy: not measured (%s)",
                          r.gpuBusy.value("why", "").c_str());
        out.lines.push_back(gpuLine);
    }
    if (saturated) {
        char note[200];
        std::snprintf(note, sizeof note,
                      "          saturated: answered %.1f/s of the %.1f/s offered; its queue grew for the whole run",
                      throughput, offered);
        out.lines.push_back(note);
    }
}

/// One configuration's row: latency percentiles with intervals, throughput, rates, CPU share.
void addMode(const ModeResult &r, std::size_t requests, int usableCpus, const Saturation &saturated, Report &out)
{
    std::vector<double> ok;
    for (double v : r.latencyMs)
        if (!std::isnan(v))
            ok.push_back(v);
    const auto p50 = Profiler::percentileInterval(ok, 50);
    const auto p99 = Profiler::percentileInterval(ok, 99);
    const auto service = Profiler::percentileInterval(r.serviceMs, 50);
    const auto s = Profiler::summarize(ok);
    out.spreads.push_back({isolationName(r.isolation), s.p10Ms, s.medianMs, s.p90Ms});
    const double throughput = r.wallS > 0 ? r.ok / r.wallS : 0.0;
    const double achieved = r.submitSpanS > 0 ? static_cast<double>(requests - 1) / r.submitSpanS : 0.0;
    const double busy = r.wallS > 0 ? r.cpuS / (r.wallS * usableCpus) : 0.0;
    if (r.ok == 0) {
        out.exitCode = Protocol::kExitFailed;
        out.failedModes += (out.failedModes.empty() ? "" : ", ") + std::string(isolationName(r.isolation))
            + (r.firstError.empty() ? std::string() : " (" + r.firstError + ")");
    }
    // A mode that answered nothing has no latency: null, never a 0 ms that reads as a figure.
    const auto latency = [&](const Profiler::RatioInterval &i) { return ok.empty() ? json() : intervalJson(i); };
    out.modes.push_back({{"mode", isolationName(r.isolation)},
                         {"baseline", isBaseline(r.isolation)},
                         {"workers", r.workers},
                         {"requests", r.latencyMs.size()},
                         {"ok", r.ok},
                         {"errors", r.errors},
                         {"first_error", r.firstError.empty() ? json() : json(r.firstError)},
                         {"median_ms", latency(p50)},
                         {"p99_ms", latency(p99)},
                         {"service_median_ms", latency(service)},
                         {"throughput_per_s", throughput},
                         {"achieved_rate_per_s", achieved},
                         {"wall_s", r.wallS},
                         {"cpu_s", r.cpuS},
                         {"cpu_busy_share", busy},
                         {"gpu_busy_share", r.gpuBusy.is_object() ? r.gpuBusy.value("share", json()) : json()},
                         {"gpu_busy", r.gpuBusy},
                         {"saturated", saturated(r)}});
    char line[512];
    const auto text
        = [&](const Profiler::RatioInterval &i) { return ok.empty() ? std::string("-") : intervalText(i, "%.2f"); };
    std::snprintf(line, sizeof line, "%-9s %3d  %-30s %-30s %-30s %8.1f %8.1f %8.0f%%  %d/%zu",
                  isolationName(r.isolation), r.workers, text(p50).c_str(), text(p99).c_str(), text(service).c_str(),
                  throughput, achieved, busy * 100.0, r.errors, r.latencyMs.size());
    out.lines.push_back(line);
    modeNotes(r, saturated(r), throughput, saturated.offered, out);
}

/// What the resident server buys: each baseline's latency (spawn, eager) over each pool mode's,
/// paired by request (request i arrived at the same offset in both runs).
void addRatio(const ModeResult &base, const ModeResult &mode, const Saturation &saturated, Report &out)
{
    std::vector<double> num, den;
    for (std::size_t i = 0; i < base.latencyMs.size() && i < mode.latencyMs.size(); ++i)
        if (!std::isnan(base.latencyMs[i]) && !std::isnan(mode.latencyMs[i])) {
            num.push_back(base.latencyMs[i]);
            den.push_back(mode.latencyMs[i]);
        }
    const std::string name
        = std::string(isolationName(base.isolation)) + "/" + isolationName(mode.isolation) + " median latency";
    if (num.empty()) { // one side answered nothing: no ratio, and no 0.00x that reads as one
        out.lines.push_back(name + ": none (no request answered by both)");
        return;
    }
    const auto ratio = Profiler::ratioInterval(num, den);
    if (ratio.low && ratio.high && ratio.estimate > 0)
        out.widths.push_back((*ratio.high - *ratio.low) / ratio.estimate);
    json j = intervalJson(ratio);
    j["name"] = name;
    j["baseline"] = isolationName(base.isolation);
    j["mode"] = isolationName(mode.isolation);
    j["pairs"] = num.size();
    j["method"] = "ratio of medians; percentile bootstrap over requests paired by arrival";
    const bool comparable = !saturated(base) && !saturated(mode);
    j["comparable"] = comparable;
    if (!comparable)
        j["why_not"] = "a saturated mode's latency grows with the trace's length; replay a lower rate";
    out.ratios.push_back(j);
    out.lines.push_back(
        name + ": " + intervalText(ratio, "%.2fx") + " (" + std::to_string(num.size()) + " paired requests)"
        + (comparable ? "" : "; NOT comparable: a mode was saturated (its queue grew), replay a lower rate"));
}

void printText(const Subject &subject, const std::string &source, std::size_t requests, double spanS, int usableCpus,
               const Report &report, const json &measurement)
{
    std::printf("replay:      %s: %zu requests over %.2f s against '%s' (%s, %d usable CPUs)\n",
                Bundle::validUtf8(source).c_str(), requests, spanS, Bundle::validUtf8(subject.name).c_str(),
                subject.device.c_str(), usableCpus);
    std::printf("latency:     arrival to response (p50, p99) and dispatch to response (service: worker start, load,\n"
                "             run), ms, with 95%% bootstrap intervals; done/s: answers per second of the run; rate/s:\n"
                "             arrivals per second achieved; cpu busy: CPU time of server and workers / (wall x CPUs)\n"
                "baselines:   spawn: a fresh aotstudio-run per request; eager (--eager-server): N resident eager\n"
                "             server processes\n");
    std::printf("%-9s %3s  %-30s %-30s %-30s %8s %8s %9s  %s\n", "mode", "N", "p50 ms", "p99 ms", "service p50 ms",
                "done/s", "rate/s", "cpu busy", "errors");
    for (const auto &l : report.lines)
        std::printf("%s\n", l.c_str());
    const std::string verdict = measurement.value("verdict", "");
    if (verdict != "ok") {
        std::string reasons;
        for (const auto &r : measurement.value("reasons", json::array()))
            reasons += (reasons.empty() ? "" : "; ") + r.get<std::string>();
        std::printf("measurement: %s%s%s\n", verdict.c_str(), reasons.empty() ? "" : ": ", reasons.c_str());
    }
}

} // namespace

int reportReplay(const Subject &subject, const ReplayOptions &ro, const std::vector<Arrival> &trace,
                 const std::vector<ModeResult> &results, Profiler::MachineMonitor &monitor, int usableCpus)
{
    const double spanS = trace.size() > 1 ? (trace.back().tMs - trace.front().tMs) / 1000.0 : 0.0;
    const double offered = spanS > 0 ? static_cast<double>(trace.size() - 1) / spanS : 0.0;
    const Saturation saturated{offered, trace.size()};
    Report report;
    for (const auto &r : results)
        addMode(r, trace.size(), usableCpus, saturated, report);
    for (const ModeResult &base : results)
        for (const ModeResult &mode : results)
            if (isBaseline(base.isolation) && !isBaseline(mode.isolation))
                addRatio(base, mode, saturated, report);
    const json measurement = monitor.json(report.spreads, report.widths);

    char poisson[128];
    std::snprintf(poisson, sizeof poisson, "poisson %g/s for %g s, seed %llu", ro.poissonRate, ro.seconds,
                  static_cast<unsigned long long>(ro.seed));
    const std::string source = ro.poissonRate > 0 ? std::string(poisson) : ro.tracePath;
    if (!ro.asJson) {
        printText(subject, source, trace.size(), spanS, usableCpus, report, measurement);
        std::fflush(nullptr);
        return report.exitCode;
    }
    const json out{
        {"bundle", subject.source},
        {"model", subject.model},
        {"device", subject.device},
        {"trace", {{"source", source}, {"requests", trace.size()}, {"span_s", spanS}, {"offered_rate_per_s", offered}}},
        {"saturation",
         {{"below_share", Saturation::kBelow},
          {"min_requests", Saturation::kMinRequests},
          {"rule",
           "a mode is saturated when it answered fewer than below_share x the offered arrivals "
           "per second (throughput_per_s < below_share x trace.offered_rate_per_s), with at "
           "least min_requests requests: its queue grew for the whole run"}}},
        {"usable_cpus", usableCpus},
        {"modes", report.modes},
        {"ratios", report.ratios},
        {"measurement", measurement}};
    Protocol::printEnvelope(
        stdout,
        report.exitCode == 0
            ? Protocol::okEnvelope(Bundle::validUtf8Json(out))
            : Protocol::errorEnvelope(errorJson("replay", "no request was answered in mode " + report.failedModes),
                                      Bundle::validUtf8Json(out)));
    std::fflush(nullptr);
    return report.exitCode;
}

} // namespace AotStudio::Serve
