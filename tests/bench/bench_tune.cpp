// SPDX-License-Identifier: GPL-3.0-or-later
// bench_tune: recipe search on the CPU (issue 16 item 3). For each model, one `aotstudio-cli tune`
// over every option set that applies; prints the best recipe's speedup over AOTInductor's defaults
// and over torch.compile's defaults, each with its 95% interval from the paired measurement, the
// trials run, failed and skipped, and the time spent, as "name: value unit" lines, then the rows as
// a table (lines starting with '#'). The goal: the studio's default recipe at least as fast as the
// better baseline on every sample (a "default_vs_best_baseline" below 1 with an interval entirely
// under 1 says it is not).
//
// Usage: bench_tune [sample:NAME ...]   (default: sample:resnet18 sample:minilm sample:transformer)
// Environment: BENCH_TUNE_BUDGET (default 20m), BENCH_TUNE_TRIALS (default: all that apply),
// BENCH_TUNE_OUT (default a temporary directory).
#include "benchutil.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <unistd.h>

namespace {

using AotStudio::Bench::cliJson;
using AotStudio::Bench::num;
using nlohmann::json;

std::string interval(const json &iv)
{
    if (!iv.is_object() || !iv.value("low", json()).is_number())
        return "no interval";
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.3fx [%.3f, %.3f]", iv.value("estimate", 0.0), iv["low"].get<double>(),
                  iv["high"].get<double>());
    return buf;
}

} // namespace

int main(int argc, char **argv)
{
    namespace fs = std::filesystem;
    const auto models
        = AotStudio::Bench::modelsFrom(argc, argv, {"sample:resnet18", "sample:minilm", "sample:transformer"});
    const char *budgetEnv = std::getenv("BENCH_TUNE_BUDGET");
    const char *trialsEnv = std::getenv("BENCH_TUNE_TRIALS");
    const char *outEnv = std::getenv("BENCH_TUNE_OUT");
    const std::string budget = budgetEnv && *budgetEnv ? budgetEnv : "20m";
    const fs::path root
        = outEnv && *outEnv ? fs::path(outEnv) : fs::temp_directory_path() / ("bench_tune." + std::to_string(getpid()));
    fs::create_directories(root);
    int failures = 0;
    for (const auto &model : models) {
        const std::string name = AotStudio::Bench::slug(model);
        const std::string log = (root / (name + ".log")).string();
        std::string args = "tune --model '" + model + "' --budget " + budget
            + " --runs 100 --min-runs 20 --max-seconds 3 --out '" + (root / name).string() + "'";
        if (trialsEnv && *trialsEnv)
            args += std::string(" --trials ") + trialsEnv;
        const json r = cliJson(args, log);
        if (!r.is_object() || !r.contains("rows")) {
            std::printf("%s.failed: 1 (see %s)\n", name.c_str(), log.c_str());
            ++failures;
            continue;
        }
        int ok = 0, failed = 0, skipped = 0;
        for (const auto &row : r["rows"]) {
            const std::string status = row.value("status", "");
            ok += status == "ok";
            failed += status == "failed";
            skipped += status == "skipped";
        }
        std::printf("%s.trials_ok: %d\n%s.trials_failed: %d\n%s.trials_skipped: %d\n", name.c_str(), ok, name.c_str(),
                    failed, name.c_str(), skipped);
        std::printf("%s.seconds: %.0f s\n", name.c_str(), r.value("seconds", 0.0));
        std::printf("%s.measurement: %s\n", name.c_str(),
                    r.value("/measurement/verdict"_json_pointer, std::string("?")).c_str());
        json best;
        for (const auto &row : r["rows"])
            if (row.contains("median_ms")
                && (best.is_null() || row["median_ms"].get<double>() < best["median_ms"].get<double>()))
                best = row;
        const json recipe = r.value("recipe", json());
        std::printf("%s.chosen: %s\n", name.c_str(), recipe.is_object() ? recipe.value("name", "").c_str() : "none");
        if (best.is_object()) {
            std::printf("%s.fastest: %s (%.4f ms)\n", name.c_str(), best.value("name", "").c_str(),
                        best["median_ms"].get<double>());
            std::printf("%s.fastest_vs_defaults: %s\n", name.c_str(),
                        interval(best.value("speedup_vs_defaults_interval", json())).c_str());
            std::printf("%s.fastest_vs_torch_compile: %s\n", name.c_str(),
                        interval(best.value("speedup_vs_torch_compile_interval", json())).c_str());
        }
        for (const auto &row : r["rows"])
            if (row.value("name", "") == "defaults")
                std::printf("%s.defaults_vs_torch_compile: %s\n", name.c_str(),
                            interval(row.value("speedup_vs_torch_compile_interval", json())).c_str());
        std::printf("# %s (%s, %s threads, budget %s)\n", model.c_str(), r.value("device", "").c_str(),
                    std::to_string(r.value("threads", 0)).c_str(), budget.c_str());
        std::printf("# %-32s %-8s %10s %26s %26s %10s %9s\n", "trial", "status", "median ms", "vs defaults",
                    "vs torch.compile", "max err", "compile s");
        const auto line = [&](const json &row) {
            std::printf("# %-32s %-8s %10.4f %26s %26s %10.3g %9.1f %s\n", row.value("name", "").c_str(),
                        row.value("status", "").c_str(), num(row, "/median_ms"_json_pointer),
                        interval(row.value("speedup_vs_defaults_interval", json())).c_str(),
                        interval(row.value("speedup_vs_torch_compile_interval", json())).c_str(),
                        num(row, "/max_abs_error"_json_pointer), num(row, "/compile_seconds"_json_pointer),
                        row.value("reason", "").substr(0, 80).c_str());
        };
        for (const auto &row : r.value("baselines", json::array()))
            line(row);
        for (const auto &row : r["rows"])
            line(row);
        std::fflush(stdout);
    }
    return failures ? 1 : 0;
}
