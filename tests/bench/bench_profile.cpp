// SPDX-License-Identifier: GPL-3.0-or-later
// bench_profile: `aotstudio-cli profile` on the CPU for each model, in a fresh process each: eager
// and compiled (AOTI) medians and their ratio, the RecordFunction collector's overhead (traced
// against untraced runs, interleaved; target under 2% of the median on compiled runs), peak bytes,
// cold-start ratio (python eager / aotstudio-run) and throughput with 1 and 2 runners.
// Prints "name: value unit" lines.
//
// Usage: bench_profile [sample:NAME ...]   (default: sample:mlp sample:resnet18 sample:minilm)
// Environment: BENCH_PROFILE_ARGS adds options to every profile (e.g. "--runs 400").
#include <nlohmann/json.hpp>

#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include "benchutil.h"

namespace {

using AotStudio::Bench::cliJson;
using AotStudio::Bench::modelsFrom;
using AotStudio::Bench::num;
using AotStudio::Bench::slug;

} // namespace

int main(int argc, char **argv)
{
    namespace fs = std::filesystem;
    const auto models = modelsFrom(argc, argv, {"sample:mlp", "sample:resnet18", "sample:minilm"});
    const char *extra = std::getenv("BENCH_PROFILE_ARGS");
    const fs::path root = fs::temp_directory_path() / ("bench_profile-" + std::to_string(::getpid()));
    int failures = 0;
    for (const auto &model : models) {
        const std::string s = slug(model);
        const fs::path out = root / s;
        fs::create_directories(root);
        const auto j = cliJson("profile --model '" + model + "' --device cpu --out '" + out.string() +
                                   "' --runners 1,2 --throughput-seconds 1 --cold-start-runs 3 " + (extra ? extra : ""),
                               (root / (s + ".log")).string());
        if (!j.is_object() || j.contains("error")) {
            std::printf("%s_failed: 1 (see %s)\n", s.c_str(), (root / (s + ".log")).c_str());
            ++failures;
            continue;
        }
        double eager = -1, aoti = -1, eagerOverhead = 0, aotiOverhead = 0, eagerPeak = -1, aotiPeak = -1;
        for (const auto &v : j.value("variants", nlohmann::json::array())) {
            if (!v.value("available", false))
                continue;
            const double median = num(v, "/statistics/median_ms"_json_pointer);
            const double overhead = num(v, "/overhead_pct"_json_pointer);
            const double peak = num(v, "/memory/peak_bytes"_json_pointer);
            if (v.value("name", "") == "eager")
                eager = median, eagerOverhead = overhead, eagerPeak = peak;
            else if (v.value("name", "") == "aoti")
                aoti = median, aotiOverhead = overhead, aotiPeak = peak;
        }
        std::printf("%s_eager_median: %.4f ms\n", s.c_str(), eager);
        std::printf("%s_compiled_median: %.4f ms\n", s.c_str(), aoti);
        // Every ratio with its 95% interval (issue 13): "name: 1.23x" then "_low"/"_high" lines.
        const auto ratio = [&](const std::string &name, const nlohmann::json &r) {
            std::printf("%s_%s: %.3fx\n", s.c_str(), name.c_str(), num(r, "/estimate"_json_pointer));
            std::printf("%s_%s_low: %.3fx\n", s.c_str(), name.c_str(), num(r, "/low"_json_pointer));
            std::printf("%s_%s_high: %.3fx\n", s.c_str(), name.c_str(), num(r, "/high"_json_pointer));
        };
        ratio("speedup", j.value("/speedup_interval/aoti"_json_pointer, nlohmann::json::object()));
        std::printf("%s_verdict: %s\n", s.c_str(), j.value("/measurement/verdict"_json_pointer, std::string("?")).c_str());
        std::printf("%s_collector_overhead_eager: %.2f %%\n", s.c_str(), eagerOverhead);
        std::printf("%s_collector_overhead_compiled: %.2f %%\n", s.c_str(), aotiOverhead);
        std::printf("%s_peak_eager: %.0f bytes\n", s.c_str(), eagerPeak);
        std::printf("%s_peak_compiled: %.0f bytes\n", s.c_str(), aotiPeak);
        const auto &cold = j.value("cold_start", nlohmann::json::object());
        std::printf("%s_cold_start_bundle: %.0f ms\n", s.c_str(), num(cold, "/bundle_ms"_json_pointer));
        std::printf("%s_cold_start_eager: %.0f ms\n", s.c_str(), num(cold, "/eager_ms"_json_pointer));
        ratio("cold_start_ratio", cold.value("ratio_interval", nlohmann::json::object()));
        for (const auto &t : j.value("throughput", nlohmann::json::array())) {
            const std::string n = std::to_string(t.value("runners", 0));
            std::printf("%s_throughput_%srunners: %.1f calls/s\n", s.c_str(), n.c_str(), t.value("throughput_per_s", 0.0));
            std::printf("%s_throughput_%srunners_low: %.1f calls/s\n", s.c_str(), n.c_str(), num(t, "/throughput_interval/low"_json_pointer));
            std::printf("%s_throughput_%srunners_high: %.1f calls/s\n", s.c_str(), n.c_str(), num(t, "/throughput_interval/high"_json_pointer));
            if (t.contains("scaling"))
                ratio("throughput_scaling_" + n + "runners", t["scaling"]);
            if (t.contains("consistent"))
                std::printf("%s_throughput_%srunners_consistent: %s\n", s.c_str(), n.c_str(), t.value("consistent", false) ? "yes" : "NO");
        }
        std::printf("%s_kernels: %zu\n", s.c_str(), j.value("kernels", nlohmann::json::array()).size());
        std::fflush(stdout);
    }
    std::error_code ec;
    if (failures == 0)
        fs::remove_all(root, ec); // logs of failed profiles stay for reading
    return failures == 0 ? 0 : 1;
}
