// SPDX-License-Identifier: GPL-3.0-or-later
// bench_sweep (issue 12): verification across shapes. For sample:mlp (dynamic batch) and
// sample:transformer (dynamic batch and sequence length): compile once with aotstudio-cli, then
// `aotstudio-cli sweep --package` in a fresh process, timed from spawn to exit; prints the shapes
// verified per second (the sweep's own wall time; the engine's start and the model's load
// included) and the outcome counts. Then the runner's input check (core/bundle/guards.h) on the
// real model.guards.json of the mlp compile: ns per call, and its share of the compiled mlp's
// median call (target under 1 µs and under 1%).
//
// Usage: bench_sweep [WORKDIR]   (default: a folder under /tmp)
#include "bundle/guards.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "benchutil.h"
#include "guardsbench.h"

namespace {

using AotStudio::Bench::lastLine;
using AotStudio::Bench::run;
using nlohmann::json;
namespace fs = std::filesystem;

json cli(const std::string &args, const fs::path &log)
{
    return AotStudio::Bench::result(json::parse(
        lastLine(run(std::string("'") + AOTSTUDIO_CLI_PATH + "' " + args + " --json 2>'" + log.string() + "'")),
        nullptr, false));
}


} // namespace

int main(int argc, char **argv)
{
    const fs::path work
        = argc > 1 ? fs::path(argv[1]) : fs::temp_directory_path() / ("bench_sweep-" + std::to_string(::getpid()));
    fs::create_directories(work);
    struct Case {
        const char *name;
        const char *model;
        const char *dynamic;
    };
    const Case cases[] = {
        { "mlp", "sample:mlp", "--dynamic 0:0:1:64=batch" },
        { "transformer", "sample:transformer", "--dynamic 0:0:1:8=batch --dynamic 0:1:2:64=seq" },
    };
    double mlpCompiledMs = -1;
    for (const auto &c : cases) {
        const fs::path dir = work / c.name;
        const json compiled = cli(std::string("compile --model ") + c.model + " " + c.dynamic + " --device cpu --out '"
                + dir.string() + "' --no-snapshots",
            work / (std::string(c.name) + "-compile.log"));
        if (!compiled.is_object() || !compiled.contains("package")) {
            std::fprintf(stderr, "%s: compile failed (see %s)\n", c.name,
                (work / (std::string(c.name) + "-compile.log")).c_str());
            return 1;
        }
        if (std::string(c.name) == "mlp")
            mlpCompiledMs = compiled.value("compiled_ms", -1.0);
        const auto t0 = std::chrono::steady_clock::now();
        const json sweep = cli("sweep --package '" + compiled["package"].get<std::string>() + "' --out '"
                + (work / (std::string(c.name) + "-sweep")).string() + "'",
            work / (std::string(c.name) + "-sweep.log"));
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!sweep.is_object() || !sweep.contains("points")) {
            std::fprintf(
                stderr, "%s: sweep failed (see %s)\n", c.name, (work / (std::string(c.name) + "-sweep.log")).c_str());
            return 1;
        }
        const int points = sweep.value("points", 0);
        std::printf("sweep_%s_shapes: %d shapes\n", c.name, points);
        std::printf("sweep_%s_seconds: %.2f s\n", c.name, seconds);
        std::printf("sweep_%s_shapes_per_second: %.2f shapes/s\n", c.name, points / seconds);
        const json counts = sweep.value("counts", json::object()); // items() of a temporary would dangle
        for (const auto &[outcome, n] : counts.items())
            std::printf("sweep_%s_%s: %d shapes\n", c.name, outcome.c_str(), n.get<int>());
        std::printf("sweep_%s_passed: %s\n", c.name, sweep.value("passed", false) ? "yes" : "no");
    }

    // The runner's check on the mlp package's own guards, at its example shape [8, 64].
    const auto guards = AotStudio::Bundle::InputGuards::loadSidecar(work / "mlp" / "model.pt2");
    if (!guards) {
        std::fprintf(stderr, "mlp: no model.guards.json beside the package\n");
        return 1;
    }
    const double ns = AotStudio::Bench::nsPerCall(*guards, {{8, 64}}, true);
    std::printf("guards_check_mlp: %.1f ns/call\n", ns);
    if (mlpCompiledMs > 0)
        std::printf("guards_check_mlp_share_of_call: %.4f %% (compiled median %.4f ms)\n",
            100.0 * ns * 1e-6 / mlpCompiledMs, mlpCompiledMs);
    return 0;
}
