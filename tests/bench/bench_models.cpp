// SPDX-License-Identifier: GPL-3.0-or-later
// bench_models (issue "Models as users bring them"): for models with repeated blocks, compile time
// whole against regional (one package per block class, reused by every instance) and the latency
// of eager, the regional model and the whole package, paired in one process (`compile --regional
// --compare-whole`). Target: regional compile time at most 1/3 of whole for 8 or more identical
// blocks. Prints "name: value unit" lines.
//
// Usage: bench_models [SPEC ...]   (default: the 8-block transformer stack of shared case C33 when
// present, else tests/fixtures/repeated_blocks_factory.py:make)
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "benchutil.h"

using AotStudio::Bench::modelsFrom;
using AotStudio::Bench::num;
using AotStudio::Bench::run;
using AotStudio::Bench::slug;

int main(int argc, char **argv)
{
    namespace fs = std::filesystem;
    const fs::path c33 = fs::path(AOTSTUDIO_SOURCE_DIR) / ".." / "shared" / "cases" / "c33_repeated_blocks.py";
    const std::vector<std::string> models =
        modelsFrom(argc, argv, {fs::exists(c33) ? c33.lexically_normal().string() + ":make"
                                                : std::string(AOTSTUDIO_SOURCE_DIR "/tests/fixtures/repeated_blocks_factory.py:make")});
    const fs::path work = fs::temp_directory_path() / ("aotstudio-bench-models-" + std::to_string(::getpid()));
    for (const auto &model : models) {
        const std::string name = slug(model);
        const fs::path out = work / name;
        fs::create_directories(out);
        const std::string text = run(std::string(AOTSTUDIO_CLI_PATH) + " compile --model '" + model + "' --regional --compare-whole --out " +
                                     out.string() + " --json --max-seconds 3 2>/dev/null");
        const auto j = AotStudio::Bench::result(nlohmann::json::parse(text, nullptr, false));
        if (j.is_discarded() || !j.contains("regional")) {
            std::fprintf(stderr, "bench_models: %s failed\n", model.c_str());
            continue;
        }
        const auto &g = j["regional"];
        const auto &w = j["whole"];
        std::size_t instances = 0;
        for (const auto &b : g.value("blocks", nlohmann::json::array()))
            instances += b.value("instances", nlohmann::json::array()).size();
        const auto interval = [](const nlohmann::json &r) { // a missing bound prints as nan, never as a figure
            char buf[96];
            std::snprintf(buf, sizeof buf, "%.3f [%.3f, %.3f]", num(r, "/estimate"_json_pointer), num(r, "/low"_json_pointer),
                          num(r, "/high"_json_pointer));
            return std::string(buf);
        };
        std::printf("%s.block_instances: %zu\n", name.c_str(), instances);
        std::printf("%s.compile_whole: %.2f s\n", name.c_str(), w.value("compile_seconds", 0.0));
        std::printf("%s.compile_regional: %.2f s\n", name.c_str(), g.value("compile_seconds", 0.0));
        std::printf("%s.compile_ratio_regional_over_whole: %.3f (one compile each, no spread; target <= 0.333 for >= 8 blocks)\n", name.c_str(),
                    num(g, "/compile_time_ratio"_json_pointer));
        std::printf("%s.eager_median: %.4f ms\n", name.c_str(), j.value("eager_ms", 0.0));
        std::printf("%s.regional_median: %.4f ms\n", name.c_str(), j.value("compiled_ms", 0.0));
        std::printf("%s.whole_median: %.4f ms\n", name.c_str(), w.value("median_ms", 0.0));
        std::printf("%s.regional_speedup_vs_eager: %s x (95%%)\n", name.c_str(), interval(j.value("speedup_interval", nlohmann::json::object())).c_str());
        std::printf("%s.whole_over_regional: %s x (95%%; > 1: regional faster)\n", name.c_str(),
                    interval(w.value("regional_speedup_vs_whole", nlohmann::json::object())).c_str());
        std::printf("%s.verdict: %s\n", name.c_str(), j.value("/measurement/verdict"_json_pointer, std::string("?")).c_str());
    }
    std::error_code ec;
    fs::remove_all(work, ec);
    return 0;
}
