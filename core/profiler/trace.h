// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace AotStudio::Profiler {

/// One timed range of a profile, on one clock in ns (the collector's steady_clock).
struct TimedRange {
    std::string name;
    std::string category; ///< the variant: "eager", "aoti", "nativert"
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    int pid = 1;              ///< 1: CPU side; 2: CUDA device side
    std::uint64_t tid = 0;    ///< thread number (pid 1) or CUDA stream (pid 2)
    int depth = 0;            ///< nesting on its thread (0 = outermost)
    nlohmann::json args = nlohmann::json::object();
};

/// Chrome trace-event JSON (the "JSON object format" of Google's Trace Event Format document,
/// which Perfetto and chrome://tracing read): {"traceEvents":[...],"displayTimeUnit":"ms",
/// "otherData":otherData}. Every range becomes a complete event ("ph":"X") with `ts` and `dur` in
/// microseconds (floating point, ns precision) relative to `originNs`, sorted by `ts` (ties: the
/// longer, enclosing range first, so viewers nest them); ranges that end before they start get
/// dur 0. Metadata events ("ph":"M") name each pid (`processNames`) and each (pid, tid)
/// (`threadNames`) and come first.
nlohmann::json chromeTrace(std::vector<TimedRange> ranges, std::int64_t originNs, const std::map<int, std::string> &processNames,
                           const std::map<std::pair<int, std::uint64_t>, std::string> &threadNames,
                           const nlohmann::json &otherData = nlohmann::json::object());

/// Time of the ranges of one name within one variant (kernels, ops).
struct RangeStats {
    std::string variant;
    std::string name;
    long long calls = 0;
    double totalMs = 0;
    double meanMs = 0;  ///< totalMs / calls
    double share = 0;   ///< totalMs / wallMs given to aggregateRanges
};

/// Group `ranges` of depth 0 (nested ranges are not counted twice) by (category, name) and sum
/// their durations. `wallMs[category]` is the wall time the ranges were collected over (the sum of
/// the traced calls' durations): share = total / wall (0 when the wall is unknown). Sorted by
/// category, then total time descending, then name.
std::vector<RangeStats> aggregateRanges(const std::vector<TimedRange> &ranges, const std::map<std::string, double> &wallMs);

/// One CSV field per RFC 4180: quoted (with doubled quotes) when it holds a comma, a quote, CR or LF.
std::string csvField(const std::string &s);

/// The engine's one CSV writer (profile.csv, profile_kernels.csv, quantize.csv, sweep.csv): a header
/// and rows of fields already turned into text (each job keeps its own number format), every field
/// quoted by csvField, LF line ends. The caller writes text() with Pipeline::writeFileAtomic.
class CsvTable
{
public:
    explicit CsvTable(const std::vector<std::string> &header);
    /// Appends a row; throws std::invalid_argument when it has not one field per column.
    void addRow(const std::vector<std::string> &fields);
    const std::string &text() const { return m_text; }

private:
    void append(const std::vector<std::string> &fields);
    std::size_t m_columns;
    std::string m_text;
};

} // namespace AotStudio::Profiler
