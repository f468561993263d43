// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Text that came from outside (file and zip entry names, manifest bytes quoted by a parse error,
// libzip's messages) may hold bytes that are not UTF-8; nlohmann-json refuses to dump such a string
// (type_error.316) by default. Everything that prints JSON built from outside data goes through
// dumpJson(), and every message that quotes outside bytes through validUtf8().

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <string_view>

namespace AotStudio::Bundle {

/// A path as every core/bundle message quotes it: 'PATH' (bytes as they are; dumpJson() makes
/// them printable).
inline std::string quoted(const std::filesystem::path &p)
{
    return "'" + p.string() + "'";
}

/// `text` with each byte that does not start or continue a valid UTF-8 sequence replaced by U+FFFD
/// (nlohmann-json's replace handler decides what is valid: overlong forms and surrogates are not).
/// Valid text comes back unchanged. Never throws (std::bad_alloc aside).
std::string validUtf8(std::string_view text);

/// `j` as JSON text like j.dump(indent), but invalid UTF-8 inside strings and keys is written as
/// U+FFFD instead of throwing nlohmann::json::type_error 316. Never throws (std::bad_alloc aside).
std::string dumpJson(const nlohmann::json &j, int indent = -1);

/// A copy of `j` whose every string and key is valid UTF-8 (see validUtf8()), so that any later
/// dump() of it, strict or not, succeeds. Floating-point NaN and infinities become null, as in
/// any JSON text.
nlohmann::json validUtf8Json(const nlohmann::json &j);

} // namespace AotStudio::Bundle
