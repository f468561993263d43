// SPDX-License-Identifier: GPL-3.0-or-later
// bench_memory (issue 38 item 4, "peak memory no worse than eager"): `aotstudio-cli profile` on the
// CPU for each sample, in a fresh process each, reduced to what peak memory needs (no trace, no
// throughput, no cold start, few timed runs), then profile.json's `memory_vs_eager`: eager's and
// the package's peak bytes of one call (median over the profile's paired memory rounds), the ratio
// with its 95% interval, whether it is within the 1.1 target, and the cause read from the compile's
// memory.json (core/profiler/PROFILE.md). Prints "name: value unit" lines, then the table.
//
// Usage: bench_memory [sample:NAME ...]  (default: mlp, convnet, transformer, resnet18, minilm)
// Environment: BENCH_MEMORY_ARGS adds options to every profile (e.g. "--threads 1").
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "benchutil.h"

namespace {

using AotStudio::Bench::cliJson;
using AotStudio::Bench::modelsFrom;
using AotStudio::Bench::num;
using AotStudio::Bench::slug;

std::string mb(double bytes)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.2f MB", bytes / 1e6);
    return b;
}

} // namespace

int main(int argc, char **argv)
{
    namespace fs = std::filesystem;
    const auto models = modelsFrom(
        argc, argv, {"sample:mlp", "sample:convnet", "sample:transformer", "sample:resnet18", "sample:minilm"});
    const char *extra = std::getenv("BENCH_MEMORY_ARGS");
    const fs::path root = fs::temp_directory_path() / ("bench_memory-" + std::to_string(::getpid()));
    int failures = 0;
    std::vector<std::string> table;
    for (const auto &model : models) {
        const std::string s = slug(model);
        const fs::path out = root / s;
        fs::create_directories(root);
        const auto j
            = cliJson("profile --model '" + model + "' --device cpu --out '" + out.string()
                          + "' --runs 20 --min-runs 5 --max-seconds 1 --runners 0 --cold-start-runs 0 --no-trace "
                          + (extra ? extra : ""),
                      (root / (s + ".log")).string());
        const nlohmann::json m
            = j.is_object() ? j.value("/memory_vs_eager/aoti"_json_pointer, nlohmann::json()) : nlohmann::json();
        if (!m.is_object()) {
            std::printf("%s_failed: 1 (see %s)\n", s.c_str(), (root / (s + ".log")).c_str());
            ++failures;
            continue;
        }
        const double eager = num(m, "/eager_peak_bytes"_json_pointer), aoti = num(m, "/peak_bytes"_json_pointer);
        const double r = num(m, "/ratio/estimate"_json_pointer), lo = num(m, "/ratio/low"_json_pointer),
                     hi = num(m, "/ratio/high"_json_pointer);
        std::printf("%s_peak_eager: %.0f bytes\n", s.c_str(), eager);
        std::printf("%s_peak_compiled: %.0f bytes\n", s.c_str(), aoti);
        std::printf("%s_peak_ratio: %.3fx\n%s_peak_ratio_low: %.3fx\n%s_peak_ratio_high: %.3fx\n", s.c_str(), r,
                    s.c_str(), lo, s.c_str(), hi);
        std::printf("%s_peak_spread: %.0f bytes\n", s.c_str(), num(m, "/spread_bytes"_json_pointer));
        std::printf("%s_peak_planned: %.0f bytes\n", s.c_str(), num(m, "/planned_peak_bytes"_json_pointer));
        std::printf("%s_constants: %.0f bytes\n", s.c_str(), num(m, "/constants_bytes"_json_pointer));
        std::printf("%s_peak_within_target: %s\n", s.c_str(), m.value("within_target", false) ? "yes" : "NO");
        std::printf("%s_peak_cause: %s\n", s.c_str(), m.value("cause", std::string()).c_str());
        char row[256];
        std::snprintf(row, sizeof row, "| %s | %s | %s | %.2fx (95%% CI %.2f-%.2f) | %s |", model.c_str(),
                      mb(eager).c_str(), mb(aoti).c_str(), r, lo, hi, m.value("within_target", false) ? "yes" : "no");
        table.push_back(row);
        std::fflush(stdout);
    }
    std::printf("\n| model | eager peak | compiled peak | compiled / eager | within 1.1 |\n|---|---|---|---|---|\n");
    for (const auto &row : table)
        std::printf("%s\n", row.c_str());
    std::error_code ec;
    if (failures == 0)
        fs::remove_all(root, ec); // logs of failed profiles stay for reading
    return failures == 0 ? 0 : 1;
}
