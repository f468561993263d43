// SPDX-License-Identifier: GPL-3.0-or-later
// The burst replay (replay.h): traces, and each configuration serving one through a worker pool in
// this process. The report is replayreport.cpp.
#include "serve/replay.h"

#include "profiler/gpubusy.h"
#include "protocol/envelope.h"
#include "serve/replay_p.h"
#include "serve/serveerror.h"
#include "serve/stopsignals_p.h"
#include "serve/workerpool.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>

#include <sys/resource.h>

namespace AotStudio::Serve {

using nlohmann::json;

std::vector<Arrival> readTrace(const std::string &path, std::optional<long long> batch)
{
    std::ifstream in(path);
    if (!in)
        throw UsageError("--replay '" + path + "': cannot read it");
    std::vector<Arrival> out;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        const json j = json::parse(line, nullptr, false);
        const std::string where = "--replay '" + path + "', line " + std::to_string(lineNo) + ": ";
        if (!j.is_object() || !j.contains("t_ms") || !j["t_ms"].is_number() || j["t_ms"].get<double>() < 0)
            throw UsageError(where + "expected {\"t_ms\": arrival offset in ms (>= 0), \"batch\": rows}");
        for (const auto &[key, value] : j.items())
            if (key != "t_ms" && key != "batch")
                throw UsageError(where + "unknown field \"" + key + "\" (a trace line has t_ms and batch)");
        Arrival a{j["t_ms"].get<double>(), batch};
        if (j.contains("batch")) {
            if (!j["batch"].is_number_integer() || j["batch"].get<long long>() < 1)
                throw UsageError(where + "\"batch\" must be an integer of at least 1");
            a.batch = j["batch"].get<long long>();
        }
        out.push_back(a);
    }
    if (out.empty())
        throw UsageError("--replay '" + path + "': no arrivals");
    std::stable_sort(out.begin(), out.end(), [](const Arrival &a, const Arrival &b) { return a.tMs < b.tMs; });
    return out;
}

std::vector<Arrival> poissonTrace(double rate, double seconds, std::uint64_t seed, std::optional<long long> batch)
{
    std::mt19937_64 rng(seed);
    std::exponential_distribution<double> gap(rate);
    std::vector<Arrival> out;
    for (double t = gap(rng); t < seconds; t += gap(rng))
        out.push_back({t * 1000.0, batch});
    return out;
}

namespace {

/// CPU time of this process and its reaped children (user + system), s.
double cpuSeconds()
{
    double s = 0;
    for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
        rusage u{};
        ::getrusage(who, &u);
        s += static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec)
            + static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
    }
    return s;
}

/// Submit each request of `trace` at its offset from now and collect the answers into `r`, until
/// every request is answered or a stop signal arrives.
void serveTrace(WorkerPool &pool, const std::vector<Arrival> &trace, std::uint64_t seed,
                Profiler::MachineMonitor &monitor, const sigset_t *waitMask, ModeResult &r)
{
    const auto t0 = Clock::now();
    Clock::time_point firstSubmit, lastSubmit, lastDone = t0;
    std::size_t next = 0, done = 0;
    std::vector<pollfd> none;
    while (done < trace.size() && stopSignal() == 0) {
        const auto now = Clock::now();
        for (; next < trace.size() && msBetween(t0, now) >= trace[next].tMs; ++next) {
            Job job;
            job.id = static_cast<std::uint64_t>(next);
            job.index = next;
            job.request.batch = trace[next].batch;
            job.request.seed = seed;
            job.arrival = t0
                + std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double, std::milli>(trace[next].tMs));
            (next == 0 ? firstSubmit : lastSubmit) = now;
            pool.submit(std::move(job));
        }
        int timeoutMs = 1000;
        if (next < trace.size())
            timeoutMs = std::max(0, static_cast<int>(std::ceil(trace[next].tMs - msBetween(t0, Clock::now()))));
        for (auto &c : pool.poll(none, timeoutMs, waitMask)) {
            ++done;
            lastDone = Clock::now();
            if (c.response.value("ok", false)) {
                ++r.ok;
                const json &timing = c.response["timing"];
                r.latencyMs[c.job.index] = timing.value("total_ms", 0.0);
                r.serviceMs.push_back(timing.value("total_ms", 0.0) - timing.value("queue_ms", 0.0));
            } else {
                ++r.errors;
                if (r.firstError.empty())
                    r.firstError = c.response["error"].value("message", "");
            }
            monitor.round();
        }
    }
    r.wallS = msBetween(t0, lastDone) / 1000.0;
    r.submitSpanS = trace.size() > 1 ? msBetween(firstSubmit, lastSubmit) / 1000.0 : 0.0;
}

/// One configuration: a pool in `isolation` serving the whole trace.
ModeResult replayOnce(WorkerBody &body, ServeOptions options, Isolation isolation, const std::vector<Arrival> &trace,
                      std::uint64_t seed, Profiler::MachineMonitor &monitor, const sigset_t *waitMask)
{
    options.isolation = isolation;
    ModeResult r;
    r.isolation = isolation;
    r.workers = options.workers;
    r.latencyMs.assign(trace.size(), std::nan(""));
    const double cpu0 = cpuSeconds();
    double startupCpuS = 0; // the workers' start (an eager server's import of torch): not serving
    {
        WorkerPool pool(body, options);
        // An eager server that does not start fails its own mode, not the replay: every request of
        // the mode is an error carrying why.
        std::string notReady;
        try {
            pool.start();
            notReady = pool.waitReady(WorkerPool::kEagerReadyTimeoutMs, waitMask);
        } catch (const Refusal &e) {
            if (isolation != Isolation::Eager)
                throw;
            notReady = e.what();
        }
        if (!notReady.empty()) {
            pool.stop();
            r.errors = static_cast<int>(trace.size());
            r.firstError = notReady;
            r.cpuS = cpuSeconds() - cpu0;
            return r;
        }
        startupCpuS = pool.liveWorkersCpuSeconds();
        // The GPU's busy share over the trace, every worker's kernels together (NVML, no CUDA here).
        std::optional<Profiler::GpuBusyMeter> gpu;
        if (body.subject().cuda()) {
            gpu.emplace(0);
            gpu->begin();
        }
        serveTrace(pool, trace, seed, monitor, waitMask, r);
        if (gpu)
            r.gpuBusy = gpu->end().toJson();
        pool.stop(); // reaps the warm workers, so their CPU time is counted
    }
    r.cpuS = std::max(0.0, cpuSeconds() - cpu0 - startupCpuS);
    return r;
}

} // namespace

int replay(WorkerBody &body, const ServeOptions &options, const ReplayOptions &ro)
{
    const std::vector<Arrival> trace = ro.poissonRate > 0 ? poissonTrace(ro.poissonRate, ro.seconds, ro.seed, ro.batch)
                                                          : readTrace(ro.tracePath, ro.batch);
    if (trace.empty())
        throw UsageError("--poisson " + std::to_string(ro.poissonRate) + " for " + std::to_string(ro.seconds)
                         + " s: no arrivals");
    StopSignals signals;
    std::vector<Isolation> modes;
    if (ro.isolationGiven)
        modes.push_back(options.isolation);
    else
        modes = {Isolation::Request, Isolation::Worker};
    modes.push_back(Isolation::Spawn);
    if (!options.eagerServer.empty())
        modes.push_back(Isolation::Eager);

    const auto cpus = Profiler::usableCpus();
    Profiler::MachineMonitor monitor(cpus.usable);
    monitor.begin();
    std::vector<ModeResult> results;
    for (Isolation mode : modes)
        results.push_back(replayOnce(body, options, mode, trace, ro.seed, monitor, signals.waitMask()));
    monitor.end();
    if (stopSignal() != 0)
        return stopSignal() == SIGINT ? Protocol::kExitCancelled : Protocol::kExitFailed;
    return reportReplay(body.subject(), ro, trace, results, monitor, cpus.usable);
}

} // namespace AotStudio::Serve
