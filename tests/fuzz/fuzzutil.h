// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared by the fuzz targets (tests/fuzz/README.md): a scratch folder for targets that must go
// through files (zips, bundles), and the oracles every target checks besides the sanitizers.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <unistd.h>

namespace FuzzUtil {

/// A finding that is not a sanitizer report: print why, then abort (libFuzzer saves the input).
[[noreturn]] inline void fail(const std::string &why)
{
    std::fprintf(stderr, "fuzz oracle failed: %s\n", why.c_str());
    std::fflush(stderr);
    std::abort();
}

/// A private folder under $TMPDIR (or /tmp) for this process, created on first use and removed at
/// exit. Targets reuse it for every input (emptying what they wrote), so no input leaves files.
inline const std::filesystem::path &scratch()
{
    static const std::filesystem::path dir = [] {
        const char *env = std::getenv("TMPDIR");
        std::string templ = std::string(env && *env ? env : "/tmp") + "/aotstudio-fuzz-XXXXXX";
        if (!::mkdtemp(templ.data()))
            fail("cannot create a scratch folder under $TMPDIR");
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove_all(scratch(), ec);
        });
        return std::filesystem::path(templ);
    }();
    return dir;
}

inline void writeFile(const std::filesystem::path &path, std::string_view data)
{
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out)
        fail("cannot write " + path.string());
}

/// What a tool would print with --json: it must dump with nlohmann's strict (default) handler,
/// i.e. hold only valid UTF-8 (issue 19's crash class: type_error.316 aborted the tools).
inline void requireStrictJson(const nlohmann::json &j, const char *what)
{
    try {
        (void)j.dump();
    } catch (const nlohmann::json::exception &e) {
        fail(std::string(what) + " does not dump as JSON: " + e.what());
    }
}

} // namespace FuzzUtil
