// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-run --serve's pool against a fresh process per request (issue 15, "burst replay"): for
// each model (default sample:mlp) a CPU bundle with buckets batch=1,4, then `aotstudio-run --poisson
// RATE --seconds S --json` at three arrival rates, both isolation modes and the spawn baseline.
// Prints per rate and mode: median and p99 latency (arrival to answer) with their 95% intervals, the
// median service time (dispatch to answer; in request isolation that is request -> first output of
// a fresh forked worker), throughput, CPU busy share, and the spawn/server ratio with its interval.
// Arguments: models (sample:NAME ...); AOTSTUDIO_BENCH_RATES ("2,5,10") and AOTSTUDIO_BENCH_SECONDS
// (10) change the rates and the length. The machine's verdict is printed with the figures.
#include "benchutil.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include <unistd.h>

using namespace AotStudio::Bench;
using nlohmann::json;
namespace fs = std::filesystem;

int main(int argc, char **argv)
{
    const auto models = modelsFrom(argc, argv, {"sample:mlp"});
    const char *ratesEnv = std::getenv("AOTSTUDIO_BENCH_RATES");
    const char *secondsEnv = std::getenv("AOTSTUDIO_BENCH_SECONDS");
    std::vector<std::string> rates;
    std::stringstream list(ratesEnv ? ratesEnv : "2,5,10");
    for (std::string r; std::getline(list, r, ',');)
        rates.push_back(r);
    const std::string seconds = secondsEnv ? secondsEnv : "10";
    const fs::path dir = fs::temp_directory_path() / ("aotstudio-bench-serve-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    int status = 0;
    for (const auto &model : models) {
        const std::string name = slug(model);
        const fs::path bundle = dir / (name + "-bundle");
        const json e = cliJson("export --model '" + model
                + "' --buckets batch=1,4 --pad-safe --cold-start-runs 1 --out '" + bundle.string() + "'",
            (dir / (name + "-export.log")).string());
        if (!e.is_object() || !e.value("ok", true) || !fs::exists(bundle / "manifest.json")) {
            std::printf("%s_export: failed (see %s)\n", name.c_str(), (dir / (name + "-export.log")).c_str());
            status = 1;
            continue;
        }
        for (const auto &rate : rates) {
            const std::string log = (dir / (name + "-replay-" + rate + ".log")).string();
            const json r = AotStudio::Bench::result(
                json::parse(lastLine(run(std::string("'") + AOTSTUDIO_RUN_PATH + "' --poisson " + rate + " --seconds "
                                         + seconds + " '" + bundle.string() + "' --batch 1 --json 2>'" + log + "'")),
                            nullptr, false));
            const std::string prefix = name + "_rate" + rate + "_";
            if (!r.is_object() || !r.contains("modes")) {
                std::printf("%sreplay: failed (see %s)\n", prefix.c_str(), log.c_str());
                status = 1;
                continue;
            }
            for (const auto &m : r["modes"]) {
                const std::string p = prefix + m.value("mode", "?") + "_";
                for (const char *q : {"median_ms", "p99_ms", "service_median_ms"})
                    std::printf("%s%s: %.3f ms [%.3f, %.3f]\n", p.c_str(), q,
                        num(m, json::json_pointer(std::string("/") + q + "/estimate")),
                        num(m, json::json_pointer(std::string("/") + q + "/low")),
                        num(m, json::json_pointer(std::string("/") + q + "/high")));
                std::printf("%sthroughput: %.2f req/s\n", p.c_str(), num(m, json::json_pointer("/throughput_per_s")));
                std::printf("%scpu_busy: %.1f %%\n", p.c_str(), 100.0 * num(m, json::json_pointer("/cpu_busy_share")));
                std::printf("%serrors: %.0f\n", p.c_str(), num(m, json::json_pointer("/errors")));
            }
            for (const auto &q : r["ratios"]) {
                std::string n = q.value("name", "?");
                for (char &c : n)
                    if (c == '/' || c == ' ')
                        c = '_';
                std::printf("%s%s: %.2fx [%.2f, %.2f]\n", prefix.c_str(), n.c_str(),
                    num(q, json::json_pointer("/estimate")), num(q, json::json_pointer("/low")),
                    num(q, json::json_pointer("/high")));
            }
            std::printf("%smeasurement: %s\n", prefix.c_str(), r["measurement"].value("verdict", "?").c_str());
        }
    }
    std::error_code ec;
    if (status == 0)
        fs::remove_all(dir, ec); // kept with its logs when something failed
    return status;
}
