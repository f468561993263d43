// SPDX-License-Identifier: GPL-3.0-or-later
// bench_trust: whether the studio's speedups can be trusted on a busy machine (issue 13). For each
// model: compile once, then `aotstudio-cli profile --package` twice in fresh processes, on an idle
// machine and with every usable CPU kept busy by spinning threads of this benchmark (one more than
// the CPUs: another build's load). Prints the speedup (eager / compiled median) with its 95%
// interval, the verdict on the machine for each, whether the busy interval contains the idle
// estimate, and the collector's overhead on compiled and eager calls (traced / untraced, paired;
// target under 2% of the compiled median).
//
// Usage: bench_trust [sample:NAME ...]   (default: sample:mlp sample:resnet18 sample:minilm)
// Environment: BENCH_TRUST_ARGS adds options to every profile (e.g. "--runs 400 --threads 1").
#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <sched.h>
#include <unistd.h>

#include "benchutil.h"
#include "busycpus.h"

namespace {

using AotStudio::Bench::cliJson;
using AotStudio::Bench::modelsFrom;
using AotStudio::Bench::num;
using AotStudio::Bench::run;
using AotStudio::Bench::slug;
using TestSupport::BusyCpus;
using nlohmann::json;

json profile(const std::string &model, const std::string &package, const std::filesystem::path &out, const std::filesystem::path &log)
{
    const char *extra = std::getenv("BENCH_TRUST_ARGS");
    return cliJson("profile --model '" + model + "' --package '" + package + "' --device cpu --out '" + out.string() +
                       "' --runners 0 --cold-start-runs 0 " + (extra ? extra : ""),
                   log.string());
}

} // namespace

int main(int argc, char **argv)
{
    namespace fs = std::filesystem;
    const auto models = modelsFrom(argc, argv, {"sample:mlp", "sample:resnet18", "sample:minilm"});
    const fs::path root = fs::temp_directory_path() / ("bench_trust-" + std::to_string(::getpid()));
    fs::create_directories(root);
    int failures = 0;
    for (const auto &model : models) {
        const std::string s = slug(model);
        const fs::path compiled = root / (s + "-compile");
        run(std::string("'") + AOTSTUDIO_CLI_PATH + "' compile --model '" + model + "' --out '" + compiled.string() +
            "' --runs 20 --max-seconds 1 --no-snapshots --json 2>'" + (root / (s + "-compile.log")).string() + "'");
        const std::string package = (compiled / "model.pt2").string();
        if (!fs::exists(package)) {
            std::printf("%s_failed: 1 (compile; see %s)\n", s.c_str(), (root / (s + "-compile.log")).c_str());
            ++failures;
            continue;
        }
        json idle = profile(model, package, root / (s + "-idle"), root / (s + "-idle.log"));
        json busy;
        {
            BusyCpus load;
            busy = profile(model, package, root / (s + "-busy"), root / (s + "-busy.log"));
        }
        bool ok = true;
        for (const auto &[name, j] : {std::pair<const char *, const json &>{"idle", idle}, {"busy", busy}}) {
            if (!j.is_object() || j.contains("error")) {
                std::printf("%s_%s_failed: 1 (see %s)\n", s.c_str(), name, (root / (s + "-" + name + ".log")).c_str());
                ok = false;
                continue;
            }
            std::printf("%s_speedup_%s: %.3fx\n", s.c_str(), name, num(j, "/speedup_interval/aoti/estimate"_json_pointer));
            std::printf("%s_speedup_%s_low: %.3fx\n", s.c_str(), name, num(j, "/speedup_interval/aoti/low"_json_pointer));
            std::printf("%s_speedup_%s_high: %.3fx\n", s.c_str(), name, num(j, "/speedup_interval/aoti/high"_json_pointer));
            std::printf("%s_eager_%s: %.4f ms\n", s.c_str(), name, num(j, "/variants/0/statistics/median_ms"_json_pointer));
            std::printf("%s_compiled_%s: %.4f ms\n", s.c_str(), name, num(j, "/variants/1/statistics/median_ms"_json_pointer));
            std::printf("%s_verdict_%s: %s\n", s.c_str(), name, j.value("/measurement/verdict"_json_pointer, std::string("?")).c_str());
            for (const auto &r : j.value("/measurement/reasons"_json_pointer, json::array()))
                std::printf("  # %s\n", r.get<std::string>().c_str());
            std::printf("%s_threads_%s: %d\n", s.c_str(), name, j.value("threads", 0));
            std::printf("%s_kernel_ranges_%s: %s (1 call in %d traced)\n", s.c_str(), name,
                        j.value("/collector/aoti_ranges"_json_pointer, std::string("?")).c_str(),
                        j.value("/collector/sample_every"_json_pointer, 1));
            for (const auto &v : j.value("variants", json::array())) {
                if (!v.value("available", false) || !v.value("overhead", json()).is_object())
                    continue;
                // The traced blocks against the untraced ones (target < 2% of the compiled median),
                // then what each sampled call paid (the per-kernel times carry it).
                std::printf("%s_collector_overhead_%s_%s: %.2f %% (95%% CI %.2f to %.2f)\n", s.c_str(), v.value("name", "").c_str(), name,
                            (num(v, "/overhead/estimate"_json_pointer) - 1.0) * 100.0, (num(v, "/overhead/low"_json_pointer) - 1.0) * 100.0,
                            (num(v, "/overhead/high"_json_pointer) - 1.0) * 100.0);
                std::printf("%s_sampled_call_overhead_%s_%s: %.2f %% (95%% CI %.2f to %.2f)\n", s.c_str(), v.value("name", "").c_str(), name,
                            (num(v, "/sampled_call_overhead/estimate"_json_pointer) - 1.0) * 100.0,
                            (num(v, "/sampled_call_overhead/low"_json_pointer) - 1.0) * 100.0,
                            (num(v, "/sampled_call_overhead/high"_json_pointer) - 1.0) * 100.0);
            }
        }
        if (ok) {
            const double idleEst = num(idle, "/speedup_interval/aoti/estimate"_json_pointer);
            const double lo = num(busy, "/speedup_interval/aoti/low"_json_pointer), hi = num(busy, "/speedup_interval/aoti/high"_json_pointer);
            const bool contains = lo > 0 && lo <= idleEst && idleEst <= hi;
            const std::string verdict = busy.value("/measurement/verdict"_json_pointer, std::string());
            // Trustworthy: the busy interval contains the idle figure, or the busy result says it is not to be trusted.
            std::printf("%s_busy_interval_contains_idle: %s\n", s.c_str(), contains ? "yes" : "no");
            std::printf("%s_busy_trustworthy: %s\n", s.c_str(), contains || verdict == "unreliable" || verdict == "noisy" ? "yes" : "NO");
        } else {
            ++failures;
        }
        std::fflush(stdout);
    }
    return failures ? 1 : 0;
}
