// SPDX-License-Identifier: GPL-3.0-or-later
// Cold start of a bundle (issue 15): spawn -> first output and peak RSS of aotstudio-run, the lean
// runtime against the whole torch stack (the same binary with LD_PRELOAD of the wheel's
// libtorch.so, which maps libtorch_cuda, cuDNN, cuBLAS, NCCL, ... as the runtime did before it
// was split), with a warm and an evicted page cache; the package cache's first (extracting) run
// against later ones; bundle size and load time with shared weights against weights per package;
// then the serving mode's burst replay (app/run/SERVING.md "The burst replay") at three arrival
// rates: a fresh forked worker per request and a warm worker against a fresh process per request
// and a Python eager server (python -m aotstudio_frontend.eager_serve MODEL cpu), whose request
// isolation row at the lowest rate is the request -> first output of a forked worker.
//
//   bench_coldstart [MODEL ...]            default: sample:mlp sample:resnet18 sample:minilm
//   env: BENCH_ROUNDS (default 10), BENCH_DIR (default /tmp/aotstudio-bench-coldstart),
//        BENCH_REPLAY_RATES (requests/s, default "2,10,50": the spawn baseline, about 200 ms a
//        request here, is unsaturated only at the first; "" skips the replay),
//        BENCH_REPLAY_SECONDS (per rate and mode, default 4)
//
// Beside them: the same run with every file hashed (AOTSTUDIO_VERIFY_FULL=1, no hash cache), and the
// floor, bench_libtorch_floor: libtorch_cpu and c10 linked, main() leaves at once.
// The libtorch-free runtime (issue 38, BUNDLE.md "The libtorch-free runtime"): aotstudio-run-lite
// on the same buckets exported with --runtime lite, and its floor, bench_dlopen_floor: a bare C++
// process (the shim's symbols, which the package's initialisers call, and nothing else of ours) that
// only dlopen()s that bundle's first package's .so. Each in the same shuffled rounds:
// first output (the runtimes' own cold_start.to_first_output_ms, one clock tick = 10 ms), spawn to
// exit (wall, measured here), peak RSS (wait4's ru_maxrss of that child alone), medians with
// 95% intervals (Profiler::percentileInterval), and the targets (mlp <= 15 ms and <= 30 MB,
// within 3x of the bare process) said met or not. A model whose lite export keeps no lite bucket
// (convolution: no oneDNN in the shim yet) says so and is measured without it.
// Each round runs every variant once as a fresh process, in a shuffled order (seeded), so load
// drifts hit all alike; ratios are of medians with a paired percentile-bootstrap interval
// (Profiler::ratioInterval). Figures are printed, never asserted.
#include "benchutil.h"
#include "profiler/paired.h"
#include "profiler/statistics.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace fs = std::filesystem;
using nlohmann::json;
using namespace AotStudio;

namespace {

struct Run {
    double firstOutputMs = std::nan("");
    double loadMs = std::nan("");
    double maxRssMb = std::nan("");
    double wallMs = std::nan(""); ///< spawn to exit, measured here
    bool cudaStack = false;
    bool libtorch = false; ///< cold_start.libraries.libtorch (aotstudio-run-lite): libtorch, c10 or Python mapped
    int exitCode = -1;
};

/// Spawn `exe` with `args` (argv, no shell) and `extraEnv` added; its JSON (when it prints one),
/// spawn-to-exit wall time and wait4()'s peak RSS of that child alone.
Run spawnProgram(const std::string &exe, const std::vector<std::string> &args, const std::vector<std::string> &extraEnv)
{
    Run r;
    int pipeFd[2];
    if (::pipe(pipeFd) != 0)
        return r;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipeFd[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(&actions, pipeFd[0]);
    std::vector<std::string> env(extraEnv);
    for (char **e = environ; *e; ++e)
        env.emplace_back(*e);
    std::vector<char *> argv, envp;
    std::string exeCopy = exe;
    argv.push_back(exeCopy.data());
    std::vector<std::string> copy(args);
    for (auto &a : copy)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    for (auto &e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    pid_t pid = 0;
    const auto t0 = std::chrono::steady_clock::now();
    const int rc = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipeFd[1]);
    std::string out;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(pipeFd[0], buf, sizeof buf)) > 0)
        out.append(buf, static_cast<std::size_t>(n));
    ::close(pipeFd[0]);
    if (rc != 0)
        return r;
    int status = 0;
    rusage usage{};
    ::wait4(pid, &status, 0, &usage);
    r.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.maxRssMb = static_cast<double>(usage.ru_maxrss) / 1024.0; // KiB on Linux
    const json j = Bench::result(json::parse(Bench::lastLine(out), nullptr, false));
    r.firstOutputMs = Bench::num(j, "/cold_start/to_first_output_ms"_json_pointer);
    r.loadMs = Bench::num(j, "/cold_start/load_ms"_json_pointer);
    const auto flag
        = [&](const json::json_pointer &p) { return j.contains(p) && j.at(p).is_boolean() && j.at(p).get<bool>(); };
    r.cudaStack = flag("/cold_start/libraries/cuda_stack"_json_pointer);
    r.libtorch = flag("/cold_start/libraries/libtorch"_json_pointer);
    return r;
}

/// aotstudio-run with `args`.
Run spawnRun(const std::vector<std::string> &args, const std::vector<std::string> &extraEnv)
{
    return spawnProgram(AOTSTUDIO_RUN_PATH, args, extraEnv);
}

/// Drop the page cache of `file` where it is not mapped by another process (no root needed).
void evict(const fs::path &file)
{
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    ::fdatasync(fd);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
}

void evictTree(const fs::path &dir)
{
    std::error_code ec;
    for (const auto &e : fs::recursive_directory_iterator(dir, ec))
        if (e.is_regular_file(ec))
            evict(e.path());
}

std::uintmax_t treeBytes(const fs::path &dir, const std::string &under = {})
{
    std::uintmax_t total = 0;
    std::error_code ec;
    for (const auto &e : fs::recursive_directory_iterator(dir / under, ec))
        if (e.is_regular_file(ec))
            total += e.file_size(ec);
    return total;
}

std::string ratioText(const Profiler::RatioInterval &r)
{
    char buf[128];
    if (r.low && r.high)
        std::snprintf(buf, sizeof buf, "%.2fx (95%% CI %.2f-%.2f, %d rounds)", r.estimate, *r.low, *r.high, r.blocks);
    else
        std::snprintf(buf, sizeof buf, "%.2fx (no interval: %d rounds)", r.estimate, r.blocks);
    return buf;
}

/// "12.3 (11.9-12.8)" of a replay interval object ({estimate, low, high}); "n/a" when absent.
std::string intervalText(const json &j)
{
    if (!j.is_object() || !j.value("estimate", json()).is_number())
        return "n/a";
    char buf[96];
    if (j.value("low", json()).is_number() && j.value("high", json()).is_number())
        std::snprintf(buf, sizeof buf, "%.2f (%.2f-%.2f)", j["estimate"].get<double>(), j["low"].get<double>(),
                      j["high"].get<double>());
    else
        std::snprintf(buf, sizeof buf, "%.2f (no interval)", j["estimate"].get<double>());
    return buf;
}

/// BENCH_REPLAY_RATES as numbers (comma separated requests/s); {2, 10, 50} when unset.
std::vector<double> replayRates()
{
    const char *env = std::getenv("BENCH_REPLAY_RATES");
    if (!env)
        return {2, 10, 50};
    std::vector<double> rates;
    std::string text(env);
    for (std::size_t from = 0; from < text.size();) {
        const std::size_t comma = std::min(text.find(',', from), text.size());
        const double r = std::atof(text.substr(from, comma - from).c_str());
        if (r > 0)
            rates.push_back(r);
        from = comma + 1;
    }
    return rates;
}

/// The burst replay of `bundle` at every rate: `aotstudio-run BUNDLE --poisson RATE --seconds S
/// --json --eager-server "PYTHON -m aotstudio_frontend.eager_serve MODEL cpu"` (both isolation
/// modes with one worker, then the spawn and eager baselines, on one seeded trace), printed as one
/// row per mode with the 95% intervals the run computed, and the baseline/server ratios.
void replayTable(const fs::path &bundle, const std::string &model, const std::string &cacheEnv, const fs::path &log)
{
    const auto rates = replayRates();
    if (rates.empty())
        return;
    const double seconds
        = std::max(1.0, std::atof(std::getenv("BENCH_REPLAY_SECONDS") ? std::getenv("BENCH_REPLAY_SECONDS") : "4"));
    std::printf("burst replay (aotstudio-run --poisson RATE --seconds %g, 1 worker; ms: median with 95%% CI):\n",
                seconds);
    std::printf("  %-7s %-8s %-26s %-26s %-26s %8s %7s\n", "rate/s", "mode", "latency p50", "latency p99",
                "service p50", "answers/s", "CPU");
    for (const double rate : rates) {
        char cmd[2048];
        std::snprintf(cmd, sizeof cmd,
                      "%s PYTHONPATH='%s' '%s' '%s' --poisson %g --seconds %g --seed 1 --json "
                      "--eager-server \"'%s' -m aotstudio_frontend.eager_serve '%s' cpu\" 2>>'%s'",
                      cacheEnv.c_str(), AOTSTUDIO_FRONTEND_DIR, AOTSTUDIO_RUN_PATH, bundle.c_str(), rate, seconds,
                      AOTSTUDIO_PYTHON_EXECUTABLE, model.c_str(), log.c_str());
        const json r = Bench::result(json::parse(Bench::lastLine(Bench::run(cmd)), nullptr, false));
        if (!r.is_object() || !r.contains("modes")) {
            std::printf("  %-7g replay failed (see %s)\n", rate, log.c_str());
            continue;
        }
        for (const auto &m : r["modes"])
            std::printf("  %-7g %-8s %-26s %-26s %-26s %8.1f %6.0f%%%s\n", rate, m.value("mode", "?").c_str(),
                        intervalText(m.value("median_ms", json())).c_str(),
                        intervalText(m.value("p99_ms", json())).c_str(),
                        intervalText(m.value("service_median_ms", json())).c_str(), m.value("throughput_per_s", 0.0),
                        100.0 * m.value("cpu_busy_share", 0.0), m.value("saturated", false) ? "  saturated" : "");
        for (const auto &q : r.value("ratios", json::array()))
            std::printf("  %-7g %s: %sx%s\n", rate, q.value("name", "?").c_str(), intervalText(q).c_str(),
                        q.value("comparable", true) ? "" : "  (not comparable: a mode was saturated)");
        const std::string verdict = r.value("/measurement/verdict"_json_pointer, std::string("?"));
        if (verdict != "ok")
            std::printf("  %-7g machine verdict: %s (figures at this rate are not a fair measurement)\n", rate,
                        verdict.c_str());
    }
}

/// /proc/loadavg's first three fields ("5.32 5.87 6.24"): how busy the machine was, printed with
/// the figures (cold starts on a shared 2-CPU machine move with it).
std::string loadAverage()
{
    std::ifstream in("/proc/loadavg");
    std::string one, five, fifteen;
    in >> one >> five >> fifteen;
    return in ? one + " " + five + " " + fifteen : std::string("unknown");
}

double median(std::vector<double> v)
{
    v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return std::isnan(x); }), v.end());
    return v.empty() ? std::nan("") : Profiler::summarize(std::move(v)).medianMs;
}

#ifdef AOTSTUDIO_RUN_LITE_PATH
/// The median of `v` (NaNs left out) with its 95% percentile-bootstrap interval.
Profiler::RatioInterval medianInterval(std::vector<double> v)
{
    v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return std::isnan(x); }), v.end());
    return Profiler::percentileInterval(v, 50);
}

/// "12.3 ms (95% CI 11.9-12.8)"; "n/a" without samples.
std::string medianText(const std::vector<double> &v, const char *unit)
{
    const auto m = medianInterval(v);
    if (m.blocks == 0)
        return "n/a";
    char buf[128];
    if (m.low && m.high)
        std::snprintf(buf, sizeof buf, "%.1f %s (95%% CI %.1f-%.1f)", m.estimate, unit, *m.low, *m.high);
    else
        std::snprintf(buf, sizeof buf, "%.1f %s (no interval: %d runs)", m.estimate, unit, m.blocks);
    return buf;
}

/// The .so of the package that bucket `bucket` of `bundle` runs, as aotstudio-run-lite extracted it
/// into the package cache `cacheRoot` (packages/<sha256>/); empty when it is not there.
fs::path cachedLibrary(const fs::path &bundle, const fs::path &cacheRoot)
{
    std::ifstream in(bundle / "manifest.json");
    const json m = json::parse(in, nullptr, false);
    if (!m.is_object() || !m.contains("buckets") || !m["buckets"].is_array() || m["buckets"].empty())
        return {};
    const std::string package = m["buckets"][0].value("package", "");
    const std::string sha = m.value("files", json::object()).value(package, json::object()).value("sha256", "");
    if (sha.empty())
        return {};
    std::error_code ec;
    for (const auto &e : fs::recursive_directory_iterator(cacheRoot / "packages" / sha, ec))
        if (e.is_regular_file(ec) && e.path().extension() == ".so")
            return e.path();
    return {};
}

/// "met" / "not met" of `value <= limit`, by the median and by the interval's upper end.
std::string verdict(const Profiler::RatioInterval &m, double limit)
{
    if (m.blocks == 0)
        return "unknown (no runs)";
    if (m.high && *m.high <= limit)
        return "met (the whole 95% interval)";
    if (m.estimate <= limit)
        return "met by the median, not by the whole 95% interval";
    return "not met";
}
#endif

} // namespace

int main(int argc, char **argv)
{
    const auto models = Bench::modelsFrom(argc, argv, {"sample:mlp", "sample:resnet18", "sample:minilm"});
    const int rounds = std::max(3, std::atoi(std::getenv("BENCH_ROUNDS") ? std::getenv("BENCH_ROUNDS") : "10"));
    const fs::path root = std::getenv("BENCH_DIR") ? std::getenv("BENCH_DIR") : "/tmp/aotstudio-bench-coldstart";
    const fs::path torchLib = fs::path(AOTSTUDIO_TORCH_DIR) / "lib";
    std::error_code ec;
    fs::create_directories(root, ec);
    std::printf("bench_coldstart: %d rounds per figure, variants shuffled per round; aotstudio-run %s\n", rounds, AOTSTUDIO_RUN_PATH);
    std::printf("'full stack' = the same aotstudio-run with LD_PRELOAD=%s/libtorch.so (libtorch_cuda and the CUDA libraries mapped, as before the lean runtime)\n",
                torchLib.c_str());
    std::mt19937_64 rng(0xc01d);
    for (const auto &model : models) {
        const std::string slug = Bench::slug(model);
        const fs::path shared = root / (slug + "-shared"), perPackage = root / (slug + "-per-package");
        for (const auto &[dir, extra] : {std::pair{shared, std::string()}, std::pair{perPackage, std::string(" --no-shared-weights")}}) {
            if (fs::exists(dir / "manifest.json"))
                continue;
            fs::remove_all(dir, ec);
            fs::remove(dir.string() + ".zip", ec);
            const json e = Bench::cliJson("export --model '" + model + "' --out '" + dir.string() + "' --buckets batch=1,4,16 --cold-start-runs 0 --no-zip" + extra,
                                          (root / (slug + "-export.log")).string());
            if (!fs::exists(dir / "manifest.json")) {
                std::printf("%s: export failed (see %s)\n", model.c_str(), (root / (slug + "-export.log")).c_str());
                break;
            }
        }
        if (!fs::exists(shared / "manifest.json") || !fs::exists(perPackage / "manifest.json"))
            continue;
#ifdef AOTSTUDIO_RUN_LITE_PATH
        // The same buckets for the libtorch-free runtime.
        const fs::path liteBundle = root / (slug + "-lite");
        if (!fs::exists(liteBundle / "manifest.json")) {
            fs::remove_all(liteBundle, ec);
            (void)Bench::cliJson("export --model '" + model + "' --out '" + liteBundle.string()
                                     + "' --buckets batch=1,4,16 --cold-start-runs 0 --no-zip --runtime lite",
                                 (root / (slug + "-lite-export.log")).string());
        }
#endif
        std::printf("\n== %s (bundle of 3 buckets: batch 1, 4, 16)\n", model.c_str());
        const double sharedMb = static_cast<double>(treeBytes(shared)) / 1e6, perMb = static_cast<double>(treeBytes(perPackage)) / 1e6;
        std::printf("bundle size: shared weights %.1f MB (packages %.1f MB, weights %.1f MB); weights per package %.1f MB; %.2fx\n",
                    sharedMb, static_cast<double>(treeBytes(shared, "packages")) / 1e6, static_cast<double>(treeBytes(shared, "weights")) / 1e6,
                    perMb, sharedMb / perMb);

        const std::vector<std::string> args{shared.string(), "--iters", "0", "--json"};
        const std::string cache = "AOTSTUDIO_CACHE_DIR=" + (root / "cache").string();
        const std::string preload = "LD_PRELOAD=" + (torchLib / "libtorch.so").string();
        // Package cache: the first run extracts, later ones reuse.
        fs::remove_all(root / "cache-first", ec);
        const Run first = spawnRun(args, {"AOTSTUDIO_CACHE_DIR=" + (root / "cache-first").string()});
        const Run again = spawnRun(args, {"AOTSTUDIO_CACHE_DIR=" + (root / "cache-first").string()});
        std::printf("package cache: load %.1f ms on the first run (extracts), %.1f ms once cached\n", first.loadMs, again.loadMs);
        (void)spawnRun(args, {cache}); // warm the shared cache and the page cache

        enum Variant { Lean, Full, LeanCold, FullCold, PerPackage, FullVerify, Floor, Lite, Bare, Count };
        const char *names[] = {"lean, warm cache",
                               "full stack, warm cache",
                               "lean, evicted",
                               "full stack, evicted",
                               "lean, weights per package",
                               "lean, every file hashed",
                               "floor: libtorch_cpu, exit at main",
                               "aotstudio-run-lite",
                               "bare process: dlopen the .so"};
        std::vector<std::vector<double>> ms(Count), rss(Count), load(Count), wall(Count);
        bool leanMapsCuda = false, liteMapsLibtorch = false;
        std::vector<int> order{Lean, Full, LeanCold, FullCold, PerPackage, FullVerify, Floor};
        std::printf("load average before the rounds (1, 5, 15 min): %s\n", loadAverage().c_str());
#ifdef AOTSTUDIO_RUN_LITE_PATH
        const std::vector<std::string> liteArgs{liteBundle.string(), "--iters", "0", "--json"};
        fs::path liteSo;
        if (fs::exists(liteBundle / "manifest.json")) {
            const Run probe
                = spawnProgram(AOTSTUDIO_RUN_LITE_PATH, liteArgs, {cache}); // extracts, warms the page cache
            liteSo = cachedLibrary(liteBundle, root / "cache");
            if (probe.exitCode != 0 || std::isnan(probe.firstOutputMs))
                std::printf("aotstudio-run-lite: does not run the lite export's first bucket (exit %d; see `%s %s "
                            "--iters 0`): measured without it\n",
                            probe.exitCode, AOTSTUDIO_RUN_LITE_PATH, liteBundle.c_str());
            else
                order.push_back(Lite);
            if (!liteSo.empty() && spawnProgram(AOTSTUDIO_DLOPEN_FLOOR_PATH, {liteSo.string()}, {}).exitCode == 0)
                order.push_back(Bare);
            else if (!liteSo.empty())
                std::printf("bare process: %s cannot dlopen %s: measured without it\n", AOTSTUDIO_DLOPEN_FLOOR_PATH,
                            liteSo.c_str());
        } else {
            std::printf("aotstudio-run-lite: the --runtime lite export failed (see %s): measured without it\n",
                        (root / (slug + "-lite-export.log")).c_str());
        }
#endif
        for (int r = 0; r < rounds; ++r) {
            std::shuffle(order.begin(), order.end(), rng);
            for (int v : order) {
                if (v == Floor) {
                    const Run run = spawnProgram(AOTSTUDIO_FLOOR_PATH, {}, {});
                    ms[v].push_back(run.wallMs);
                    wall[v].push_back(run.wallMs);
                    rss[v].push_back(run.maxRssMb);
                    continue;
                }
#ifdef AOTSTUDIO_RUN_LITE_PATH
                if (v == Lite || v == Bare) {
                    const Run run = v == Lite ? spawnProgram(AOTSTUDIO_RUN_LITE_PATH, liteArgs, {cache})
                                              : spawnProgram(AOTSTUDIO_DLOPEN_FLOOR_PATH, {liteSo.string()}, {});
                    ms[v].push_back(v == Lite ? run.firstOutputMs : run.wallMs);
                    wall[v].push_back(run.wallMs);
                    rss[v].push_back(run.maxRssMb);
                    liteMapsLibtorch = liteMapsLibtorch || (v == Lite && run.libtorch);
                    continue;
                }
#endif
                std::vector<std::string> env{cache};
                if (v == FullVerify)
                    env.push_back("AOTSTUDIO_VERIFY_FULL=1"); // no hash cache: every file read and hashed
                if (v == Full || v == FullCold)
                    env.push_back(preload);
                if (v == LeanCold || v == FullCold) {
                    for (const auto &e : fs::directory_iterator(torchLib, ec))
                        evict(e.path());
                    evictTree(shared);
                    evictTree(root / "cache");
                }
                const Run run = spawnRun(v == PerPackage ? std::vector<std::string>{perPackage.string(), "--iters", "0", "--json"} : args, env);
                ms[v].push_back(run.firstOutputMs);
                rss[v].push_back(run.maxRssMb);
                load[v].push_back(run.loadMs);
                wall[v].push_back(run.wallMs);
                if (v == Lean && run.cudaStack)
                    leanMapsCuda = true;
            }
        }
        for (int v = 0; v < Floor; ++v)
            std::printf("%-28s first output %7.1f ms (median), load %6.1f ms, peak RSS %6.1f MB\n", names[v], median(ms[v]), median(load[v]),
                        median(rss[v]));
        std::printf("%-28s spawn to exit %7.1f ms (median): what LibTorch costs before main(); lean first output "
                    "over it: %s\n",
                    names[Floor], median(ms[Floor]), ratioText(Profiler::ratioInterval(ms[Lean], ms[Floor])).c_str());
        std::printf("first output, hash cache / every file hashed: %s\n",
                    ratioText(Profiler::ratioInterval(ms[Lean], ms[FullVerify])).c_str());
        std::printf("lean maps CUDA libraries: %s\n", leanMapsCuda ? "YES (unexpected)" : "no");
        std::printf("first output, lean / full stack, warm: %s\n", ratioText(Profiler::ratioInterval(ms[Lean], ms[Full])).c_str());
        std::printf("first output, lean / full stack, evicted: %s\n", ratioText(Profiler::ratioInterval(ms[LeanCold], ms[FullCold])).c_str());
        std::printf("peak RSS, lean / full stack: %s\n", ratioText(Profiler::ratioInterval(rss[Lean], rss[Full])).c_str());
        std::printf("load, shared weights / weights per package: %s\n", ratioText(Profiler::ratioInterval(load[Lean], load[PerPackage])).c_str());
        std::printf("first output, shared weights / weights per package: %s\n",
                    ratioText(Profiler::ratioInterval(ms[Lean], ms[PerPackage])).c_str());
#ifdef AOTSTUDIO_RUN_LITE_PATH
        if (!ms[Lite].empty()) {
            std::printf("libtorch-free runtime (same rounds; medians with 95%% intervals; first output by the "
                        "runtime's own clock, one tick = 10 ms):\n");
            const auto row = [&](int v, const char *first) {
                std::printf("  %-34s first output %-32s spawn to exit %-32s peak RSS %s\n", names[v], first,
                            medianText(wall[v], "ms").c_str(), medianText(rss[v], "MB").c_str());
            };
            row(Lite, medianText(ms[Lite], "ms").c_str());
            row(Lean, medianText(ms[Lean], "ms").c_str());
            row(Floor, "-");
            if (!wall[Bare].empty())
                row(Bare, "-");
            std::printf("  aotstudio-run-lite maps libtorch, c10 or Python: %s\n",
                        liteMapsLibtorch ? "YES (unexpected)" : "no");
            std::printf("  first output, aotstudio-run-lite / aotstudio-run: %s\n",
                        ratioText(Profiler::ratioInterval(ms[Lite], ms[Lean])).c_str());
            std::printf("  spawn to exit, aotstudio-run-lite / libtorch floor: %s\n",
                        ratioText(Profiler::ratioInterval(wall[Lite], wall[Floor])).c_str());
            std::printf("  peak RSS, aotstudio-run-lite / aotstudio-run: %s\n",
                        ratioText(Profiler::ratioInterval(rss[Lite], rss[Lean])).c_str());
            const auto first = medianInterval(ms[Lite]), peak = medianInterval(rss[Lite]);
            std::printf("  targets (issue 38, sample:mlp): first output <= 15 ms: %s; peak RSS <= 30 MB: %s",
                        verdict(first, 15).c_str(), verdict(peak, 30).c_str());
            if (!wall[Bare].empty()) {
                const auto overBare = Profiler::ratioInterval(wall[Lite], wall[Bare]);
                const auto rssOverBare = Profiler::ratioInterval(rss[Lite], rss[Bare]);
                std::printf("; within 3x of the bare process: spawn to exit %s, %s; peak RSS %s, %s",
                            ratioText(overBare).c_str(), verdict(overBare, 3).c_str(), ratioText(rssOverBare).c_str(),
                            verdict(rssOverBare, 3).c_str());
            }
            std::printf("%s\n", model == "sample:mlp" ? "" : " (the targets are sample:mlp's; this is another model)");
        }
#endif
        std::printf("load average after the rounds (1, 5, 15 min): %s\n", loadAverage().c_str());
        replayTable(shared, model, cache, root / (slug + "-replay.log"));
    }
    std::printf("\n'evicted': posix_fadvise(DONTNEED) on torch/lib, the bundle and the package cache before the run (no root needed;\n"
                "pages that another process has mapped stay cached, so this is an upper bound of a truly cold worker's speed).\n");
    return 0;
}
