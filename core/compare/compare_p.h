// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Private to core/compare: the field readers the comparison's parts share, and the time part
// (comparetime.cpp) that compareJobs() calls.

#include "compare/compare.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace AotStudio::Compare {

/// `j[key]` as a string ("" when absent or not a string: jobfolder.h stringField).
inline std::string str(const nlohmann::json &j, const char *key)
{
    return stringField(j, key);
}

/// `j[key]` as a number; nullopt when `j` is not an object or the field is absent or not a number.
inline std::optional<double> num(const nlohmann::json &j, const char *key)
{
    if (!j.is_object())
        return std::nullopt;
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? std::optional<double>(it->get<double>()) : std::nullopt;
}

/// The time part of a comparison (FORMAT.md "compare" `time`): each side's latency from its
/// profile.json or result.json, the ratio through each run's eager with its interval, and, where
/// profiled, time per kernel and per module group with the largest contributors.
TimeDiff diffTime(const JobFolder &a, const JobFolder &b);

} // namespace AotStudio::Compare
