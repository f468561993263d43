// SPDX-License-Identifier: GPL-3.0-or-later
// bench_compile: the cost of AOT Studio's instrumentation (pass snapshots, Inductor debug trace,
// provenance, kernel list) against a bare aoti_compile_and_package of the same exported model, both
// with Inductor's caches disabled, each in a fresh process. Target (issue "Compile pipeline"):
// instrumented / bare <= 1.15. Prints "name: value unit" lines.
//
// Usage: bench_compile [sample:NAME ...]   (default: sample:resnet18 sample:minilm)
#include <nlohmann/json.hpp>

#include <array>
#include <cctype>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include "benchutil.h"

using AotStudio::Bench::lastLine;
using AotStudio::Bench::run;
using AotStudio::Bench::slug;

int main(int argc, char **argv)
{
    namespace fs = std::filesystem;
    std::vector<std::string> models;
    for (int i = 1; i < argc; ++i)
        models.emplace_back(argv[i]);
    if (models.empty())
        models = {"sample:resnet18", "sample:minilm"};

    const fs::path work = fs::temp_directory_path() / ("aotstudio-bench-compile-" + std::to_string(::getpid()));
    for (const auto &model : models) {
        const std::string name = slug(model);
        const fs::path out = work / name;
        fs::create_directories(out);
        // Fresh cache directories on top of force_disable_caches: nothing carries over.
        const std::string bare = run("TORCHINDUCTOR_CACHE_DIR=" + (work / (name + "-cache-bare")).string() + " " +
                                     AOTSTUDIO_PYTHON_EXECUTABLE " " AOTSTUDIO_BENCH_DIR "/bare_compile.py " + model + " " +
                                     AOTSTUDIO_FRONTEND_DIR " 2>/dev/null");
        const std::string instrumented =
            run("TORCHINDUCTOR_CACHE_DIR=" + (work / (name + "-cache-ours")).string() + " " AOTSTUDIO_CLI_PATH " compile --model " +
                model + " --out " + out.string() + " --json --runs 1 --min-runs 1 --warmup 0 --max-seconds 0 2>/dev/null");
        const double bareSeconds = std::atof(lastLine(bare).c_str());
        const auto j = AotStudio::Bench::result(nlohmann::json::parse(instrumented, nullptr, false));
        if (bareSeconds <= 0 || j.is_discarded() || !j.contains("compile_seconds")) {
            std::fprintf(stderr, "bench_compile: %s failed (bare output '%s')\n", model.c_str(), lastLine(bare).c_str());
            continue;
        }
        const double ours = j.value("compile_seconds", 0.0);
        std::uintmax_t snapshotBytes = 0;
        int snapshots = 0;
        for (const auto &e : fs::directory_iterator(out / "snapshots")) {
            snapshotBytes += e.file_size();
            ++snapshots;
        }
        std::uintmax_t traceBytes = 0;
        for (const auto &e : fs::recursive_directory_iterator(out / "trace"))
            if (e.is_regular_file())
                traceBytes += e.file_size();
        std::printf("compile_bare_%s: %.2f s\n", name.c_str(), bareSeconds);
        std::printf("compile_instrumented_%s: %.2f s\n", name.c_str(), ours);
        std::printf("compile_overhead_%s: %.2fx\n", name.c_str(), ours / bareSeconds);
        std::printf("snapshots_%s: %d\n", name.c_str(), snapshots);
        std::printf("snapshot_bytes_%s: %ju bytes\n", name.c_str(), snapshotBytes);
        std::printf("trace_bytes_%s: %ju bytes\n", name.c_str(), traceBytes);
        std::printf("kernels_%s: %d\n", name.c_str(), j.value("/kernels/count"_json_pointer, 0));
        std::fflush(stdout);
    }
    std::error_code ec;
    fs::remove_all(work, ec);
    return 0;
}
