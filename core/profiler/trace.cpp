// SPDX-License-Identifier: GPL-3.0-or-later
#include "profiler/trace.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace AotStudio::Profiler {

using nlohmann::json;

json chromeTrace(std::vector<TimedRange> ranges, std::int64_t originNs, const std::map<int, std::string> &processNames,
                 const std::map<std::pair<int, std::uint64_t>, std::string> &threadNames, const json &otherData)
{
    std::stable_sort(ranges.begin(), ranges.end(), [](const TimedRange &a, const TimedRange &b) {
        // Same start: the longer (enclosing) range first, so viewers stack them correctly.
        return std::make_tuple(a.startNs, -(a.endNs - a.startNs)) < std::make_tuple(b.startNs, -(b.endNs - b.startNs));
    });
    json events = json::array();
    for (const auto &[pid, name] : processNames)
        events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", pid}, {"tid", 0}, {"args", {{"name", name}}}});
    for (const auto &[key, name] : threadNames)
        events.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", key.first}, {"tid", key.second}, {"args", {{"name", name}}}});
    for (const auto &r : ranges) {
        const double ts = static_cast<double>(r.startNs - originNs) / 1000.0;
        const double dur = r.endNs > r.startNs ? static_cast<double>(r.endNs - r.startNs) / 1000.0 : 0.0;
        json e{{"ph", "X"}, {"name", r.name}, {"cat", r.category}, {"ts", ts}, {"dur", dur}, {"pid", r.pid}, {"tid", r.tid}};
        if (!r.args.empty())
            e["args"] = r.args;
        events.push_back(std::move(e));
    }
    return json{{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}, {"otherData", otherData}};
}

std::vector<RangeStats> aggregateRanges(const std::vector<TimedRange> &ranges, const std::map<std::string, double> &wallMs)
{
    std::map<std::pair<std::string, std::string>, RangeStats> byKey;
    for (const auto &r : ranges) {
        if (r.depth != 0)
            continue;
        auto &s = byKey[{r.category, r.name}];
        s.variant = r.category;
        s.name = r.name;
        ++s.calls;
        s.totalMs += r.endNs > r.startNs ? static_cast<double>(r.endNs - r.startNs) / 1e6 : 0.0;
    }
    std::vector<RangeStats> out;
    out.reserve(byKey.size());
    for (auto &[key, s] : byKey) {
        s.meanMs = s.calls > 0 ? s.totalMs / static_cast<double>(s.calls) : 0.0;
        const auto wall = wallMs.find(s.variant);
        s.share = wall != wallMs.end() && wall->second > 0 ? s.totalMs / wall->second : 0.0;
        out.push_back(std::move(s));
    }
    std::sort(out.begin(), out.end(), [](const RangeStats &a, const RangeStats &b) {
        return std::make_tuple(a.variant, -a.totalMs, a.name) < std::make_tuple(b.variant, -b.totalMs, b.name);
    });
    return out;
}

std::string csvField(const std::string &s)
{
    if (s.find_first_of(",\"\r\n") == std::string::npos)
        return s;
    std::string q = "\"";
    for (char c : s)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

CsvTable::CsvTable(const std::vector<std::string> &header)
    : m_columns(header.size())
{
    append(header);
}

void CsvTable::addRow(const std::vector<std::string> &fields)
{
    if (fields.size() != m_columns)
        throw std::invalid_argument("CSV row of " + std::to_string(fields.size()) + " fields in a table of "
                                    + std::to_string(m_columns) + " columns");
    append(fields);
}

void CsvTable::append(const std::vector<std::string> &fields)
{
    for (std::size_t i = 0; i < fields.size(); ++i)
        m_text += (i ? "," : "") + csvField(fields[i]);
    m_text += '\n';
}

} // namespace AotStudio::Profiler
