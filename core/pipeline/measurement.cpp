// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/measurement.h"
#include "pipeline/job.h"

#include "runtime/aotirunner.h"

#include <cstdio>

namespace AotStudio::Pipeline {

using Protocol::Json;

int applyThreads(const Json &request)
{
    const auto cpus = Profiler::usableCpus();
    int n = cpus.usable;
    if (request.contains("threads") && !request["threads"].is_null()) {
        const Json &t = request["threads"];
        if (!t.is_number_integer() || t.get<long long>() < 1 || t.get<long long>() > cpus.usable)
            throw JobFailed({"load", Protocol::Code::BadRequest,
                             "'threads' must be an integer from 1 to " + std::to_string(cpus.usable) + " (the CPUs this process may use, " +
                                 cpus.source + "), not " + t.dump(),
                             "omit it to use all " + std::to_string(cpus.usable) + " usable CPUs"});
        n = t.get<int>();
    }
    Runtime::setIntraOpThreads(n);
    return n;
}

Comparison::Comparison(std::vector<Profiler::PairedVariant> variants, const Profiler::MeasureOptions &budget, int threads,
                       std::stop_token stop)
    : m_monitor(threads)
{
    Profiler::PairedOptions o;
    o.budget = budget;
    m_seed = o.seed;
    o.afterRound = [this](int) { m_monitor.round(); };
    m_monitor.begin();
    m_paired = Profiler::measurePaired(variants, o, std::move(stop));
    m_monitor.end();
}

Profiler::RatioInterval Comparison::ratio(std::size_t num, std::size_t den) const
{
    return Profiler::ratioInterval(m_paired.variants.at(num).blocksMs, m_paired.variants.at(den).blocksMs);
}

Json Comparison::measurement(const std::vector<Profiler::RatioInterval> &ratios)
{
    std::vector<Profiler::VariantSpread> spreads;
    for (const auto &v : m_paired.variants) {
        const auto s = v.summary();
        if (s.runs > 0)
            spreads.push_back({v.name, s.p10Ms, s.medianMs, s.p90Ms});
    }
    std::vector<double> widths;
    for (const auto &r : ratios)
        if (r.low && r.high && r.estimate > 0)
            widths.push_back((*r.high - *r.low) / r.estimate);
    Json j = m_monitor.json(std::move(spreads), std::move(widths));
    j["pairing"] = pairing();
    return j;
}

Json Comparison::pairing() const
{
    Json calls = Json::object();
    for (const auto &v : m_paired.variants)
        calls[v.name] = v.callsPerBlock;
    return {{"method", "variants timed alternately in blocks, block order shuffled per round (seeded)"},
            {"rounds", m_paired.rounds},
            {"calls_per_block", calls},
            {"seed", m_seed},
            {"seconds", m_paired.seconds}};
}

Json ratioJson(const Profiler::RatioInterval &r)
{
    return {{"estimate", r.estimate},
            {"low", r.low ? Json(*r.low) : Json()},
            {"high", r.high ? Json(*r.high) : Json()},
            {"level", r.level},
            {"blocks", r.blocks},
            {"resamples", r.resamples},
            {"method", "ratio of medians; percentile bootstrap over paired blocks"}};
}

Profiler::RatioInterval ratioFromJson(const Json &j)
{
    Profiler::RatioInterval r;
    if (!j.is_object())
        return r;
    r.estimate = j.contains("estimate") && j["estimate"].is_number() ? j["estimate"].get<double>() : 0.0;
    if (j.contains("low") && j["low"].is_number())
        r.low = j["low"].get<double>();
    if (j.contains("high") && j["high"].is_number())
        r.high = j["high"].get<double>();
    r.level = j.value("level", 0.95);
    r.blocks = j.value("blocks", 0);
    r.resamples = j.value("resamples", 0);
    return r;
}

std::string ratioText(const Profiler::RatioInterval &r, const char *slowerWords)
{
    char buf[160];
    // The studio's rule (widgets/measurementtext.h, RatioInterval::isUnreliableWidth): an interval
    // wider than the estimate leaves no figure to print, so the log and the CLI say the same.
    if (r.low && r.high && *r.high - *r.low > r.estimate) {
        std::snprintf(buf, sizeof buf,
                      "no reliable ratio: its 95%% interval %.3g–%.3g is wider than the estimate %.3g×", *r.low,
                      *r.high, r.estimate);
        return buf;
    }
    if (r.low && r.high)
        std::snprintf(buf, sizeof buf, "%.3g× (95%% CI %.3g–%.3g)", r.estimate, *r.low, *r.high);
    else
        std::snprintf(buf, sizeof buf, "%.3g× (no interval: %d blocks)", r.estimate, r.blocks);
    std::string s = buf;
    if (r.estimate > 0 && r.estimate < 1 && (!r.high || *r.high < 1) && slowerWords && *slowerWords)
        s += std::string(": ") + slowerWords;
    return s;
}

std::string verdictLine(const Json &measurement)
{
    if (!measurement.is_object())
        return {};
    const std::string v = measurement.value("verdict", "");
    if (v.empty() || v == "ok")
        return {};
    std::string line = "measurement: " + v;
    const char *sep = ": ";
    for (const auto &r : measurement.value("reasons", Json::array())) {
        if (r.is_string()) {
            line += sep + r.get<std::string>();
            sep = "; ";
        }
    }
    return line;
}

} // namespace AotStudio::Pipeline
