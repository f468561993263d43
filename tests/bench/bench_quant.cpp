// SPDX-License-Identifier: GPL-3.0-or-later
// bench_quant: quantization schemes side by side on the CPU (issue 5): for each model, one
// `aotstudio-cli quantize` run over every scheme; prints per scheme eager and compiled medians,
// speedup, package size, max abs error and cosine against fp32 eager as "name: value unit" lines,
// then the same as a table (lines starting with '#').
//
// Usage: bench_quant [sample:NAME ...]   (default: sample:minilm sample:resnet18)
// Environment: BENCH_QUANT_SCHEMES (default all), BENCH_QUANT_OUT (default a temporary directory).
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

using AotStudio::Bench::lastLine;
using AotStudio::Bench::run;
using AotStudio::Bench::slug;

double num(const nlohmann::json &v)
{
    return v.is_number() ? v.get<double>() : std::nan("");
}

} // namespace

int main(int argc, char **argv)
{
    namespace fs = std::filesystem;
    std::vector<std::string> models;
    for (int i = 1; i < argc; ++i)
        models.emplace_back(argv[i]);
    if (models.empty())
        models = {"sample:minilm", "sample:resnet18"};
    const char *schemesEnv = std::getenv("BENCH_QUANT_SCHEMES");
    const std::string schemes = schemesEnv && *schemesEnv ? schemesEnv
                                                          : "fp32,bf16,int8-weight-only,int8-dynamic,int4-weight-only,fp8-dynamic,int8-static";
    const char *outEnv = std::getenv("BENCH_QUANT_OUT");
    const fs::path root = outEnv && *outEnv ? fs::path(outEnv) : fs::temp_directory_path() / ("bench_quant." + std::to_string(getpid()));
    fs::create_directories(root);
    int failures = 0;
    for (const auto &model : models) {
        const std::string name = slug(model);
        const fs::path out = root / name;
        const std::string command = std::string("'") + AOTSTUDIO_CLI_PATH + "' quantize --model '" + model + "' --schemes " + schemes +
                                    " --out '" + out.string() + "' --runs 50 --min-runs 10 --max-seconds 2 --eval-samples 8"
                                    " --calibration-samples 8 --no-snapshots --json 2>'" + root.string() + "/" + name + ".log'";
        const std::string line = lastLine(run(command));
        const auto r = AotStudio::Bench::result(nlohmann::json::parse(line, nullptr, false));
        if (r.is_discarded() || !r.contains("schemes")) {
            std::printf("%s.failed: 1 (see %s/%s.log)\n", name.c_str(), root.string().c_str(), name.c_str());
            ++failures;
            continue;
        }
        std::string table = "# " + model + " (" + r.value("device", "") + ", " +
                            std::to_string(r.value("/evaluation/samples"_json_pointer, 0)) + " evaluation samples)\n";
        char buf[512];
        std::snprintf(buf, sizeof buf, "# %-17s %-11s %10s %11s %8s %10s %10s %10s\n", "scheme", "status", "eager ms", "compiled ms",
                      "speedup", "size MiB", "max err", "cosine");
        table += buf;
        for (const auto &row : r["schemes"]) {
            const std::string scheme = row.value("scheme", "");
            const std::string key = name + "." + scheme;
            if (row.value("status", "") != "ok") {
                std::printf("%s.status: %s\n", key.c_str(), row.value("status", "").c_str());
                std::snprintf(buf, sizeof buf, "# %-17s %-11s %s\n", scheme.c_str(), row.value("status", "").c_str(),
                              row.value("reason", "").substr(0, 120).c_str());
                table += buf;
                continue;
            }
            const auto &acc = row["accuracy"];
            const double eager = num(row["eager_ms"]), compiled = num(row["compiled_ms"]);
            const double bytes = num(row["package_bytes"]);
            const double err = acc.is_object() ? num(acc["max_abs_error"]) : std::nan("");
            const double cosine = acc.is_object() ? num(acc["cosine"]) : std::nan("");
            std::printf("%s.eager_ms: %.4f ms\n", key.c_str(), eager);
            std::printf("%s.compiled_ms: %.4f ms\n", key.c_str(), compiled);
            std::printf("%s.speedup: %.2fx\n", key.c_str(), compiled > 0 ? eager / compiled : 0.0);
            if (row["speedup_vs_fp32_eager"].is_number())
                std::printf("%s.speedup_vs_fp32_eager: %.2fx\n", key.c_str(), row["speedup_vs_fp32_eager"].get<double>());
            std::printf("%s.package_bytes: %.0f bytes\n", key.c_str(), bytes);
            std::printf("%s.peak_compiled_bytes: %.0f bytes\n", key.c_str(), num(row.value("/peak_bytes/compiled"_json_pointer, nlohmann::json())));
            std::printf("%s.max_abs_error: %.4g\n", key.c_str(), err);
            std::printf("%s.cosine: %.6f\n", key.c_str(), cosine);
            std::snprintf(buf, sizeof buf, "# %-17s %-11s %10.4f %11.4f %7.2fx %10.2f %10.3g %10.6f\n", scheme.c_str(), "ok", eager,
                          compiled, compiled > 0 ? eager / compiled : 0.0, bytes / (1024.0 * 1024.0), err, cosine);
            table += buf;
        }
        std::printf("%s", table.c_str());
        std::fflush(stdout);
    }
    return failures ? 1 : 0;
}
