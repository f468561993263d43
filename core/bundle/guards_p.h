// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to core/bundle: what the guards' reader (guardsparse.cpp: the JSON and its expressions
// compiled) and their checker (guards.cpp: the per-call check, the sweep's queries, admission)
// share: the limits, the instruction set and the field readers.

#include "bundle/bundle.h"
#include "bundle/guards.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace AotStudio::Bundle::GuardsDetail {

inline constexpr std::size_t kMaxInputs = 4096;
inline constexpr std::size_t kMaxRank = 64;
inline constexpr std::size_t kMaxSymbols = 1024;
inline constexpr std::size_t kMaxNodes = 512;
inline constexpr int kMaxDepth = 32;
inline constexpr std::size_t kMaxStack = 64;
inline constexpr std::size_t kStackSymbols = 64; ///< symbol values live on the stack up to this many

/// The operations of a compiled expression (InputGuards::Instr::op), in postfix order.
enum Op : std::uint8_t { Const, Sym, Add, Mul, FloorDiv, Mod, Eq, Ne, Lt, Le, Gt, Ge, And, Or, Not, Max, Min };

/// Throws BundleError "ORIGIN: FIELD: PROBLEM".
[[noreturn]] inline void fail(const std::string &origin, const std::string &field, const std::string &problem)
{
    throw BundleError(origin + ": " + field + ": " + problem);
}

/// `j[key]` as an integer, nullopt when absent or null. Throws BundleError naming `where.key` when it
/// is not an integer or out of the int64 range.
inline std::optional<std::int64_t> optionalInt(const nlohmann::json &j, const char *key, const std::string &origin,
                                               const std::string &where)
{
    if (!j.contains(key) || j.at(key).is_null())
        return std::nullopt;
    if (!j.at(key).is_number_integer())
        fail(origin, where + "." + key, "must be an integer or null");
    if (j.at(key).is_number_unsigned() && j.at(key).get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
        fail(origin, where + "." + key, "is out of range");
    return j.at(key).get<std::int64_t>();
}

/// `j[key]` when it is a string, else "".
inline std::string optionalText(const nlohmann::json &j, const char *key)
{
    return j.contains(key) && j.at(key).is_string() ? j.at(key).get<std::string>() : std::string();
}

/// The strides of a named dense layout ("contiguous", "channels_last" for rank 4,
/// "channels_last_3d" for rank 5) at `sizes` into `out`; false for any other name or rank.
bool namedLayoutStrides(const std::string &layout, const std::int64_t *sizes, std::size_t rank, std::int64_t *out);

} // namespace AotStudio::Bundle::GuardsDetail
