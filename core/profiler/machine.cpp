// SPDX-License-Identifier: GPL-3.0-or-later
#include "profiler/machine.h"

#include "protocol/messages.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

namespace AotStudio::Profiler {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> readFile(const fs::path &path)
{
    std::ifstream in(path);
    if (!in)
        return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// The cgroup this process is in (v2: the "0::" line of /proc/self/cgroup).
std::optional<double> cgroupQuota(std::string &source)
{
    std::string rel;
    if (const auto cg = readFile("/proc/self/cgroup")) {
        std::istringstream lines(*cg);
        for (std::string line; std::getline(lines, line);)
            if (line.rfind("0::", 0) == 0)
                rel = line.substr(3);
    }
    // v2: "max 100000" or "200000 100000"; look in our cgroup and its parents.
    for (fs::path dir = fs::path("/sys/fs/cgroup") / fs::path(rel).relative_path();; dir = dir.parent_path()) {
        if (const auto max = readFile(dir / "cpu.max")) {
            std::istringstream s(*max);
            std::string quota;
            double period = 0;
            if (s >> quota >> period && quota != "max" && period > 0) {
                source = "cgroup v2 cpu.max";
                return std::stod(quota) / period;
            }
        }
        if (dir == "/sys/fs/cgroup" || dir == dir.parent_path() || dir.string().size() <= 14)
            break;
    }
    // v1
    const auto q = readFile("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"), p = readFile("/sys/fs/cgroup/cpu/cpu.cfs_period_us");
    if (q && p) {
        const double quota = std::atof(q->c_str()), period = std::atof(p->c_str());
        if (quota > 0 && period > 0) {
            source = "cgroup v1 cpu.cfs_quota_us";
            return quota / period;
        }
    }
    return std::nullopt;
}

double mean(const std::vector<int> &v)
{
    return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

} // namespace

CpuBudget usableCpus()
{
    CpuBudget b;
    cpu_set_t set;
    CPU_ZERO(&set);
    b.affinity = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
    if (b.affinity <= 0)
        b.affinity = 1;
    b.usable = b.affinity;
    b.online = std::max(1, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)));
    b.source = "affinity mask";
    std::string source;
    b.quota = cgroupQuota(source);
    if (b.quota && std::ceil(*b.quota - 1e-9) < b.usable) {
        b.usable = std::max(1, static_cast<int>(std::ceil(*b.quota - 1e-9)));
        b.source = source;
    }
    return b;
}

MachineSample sampleMachine()
{
    MachineSample s;
    if (const auto la = readFile("/proc/loadavg")) {
        double v = 0;
        if (std::sscanf(la->c_str(), "%lf", &v) == 1)
            s.loadavg1 = v;
    }
    if (const auto st = readFile("/proc/stat")) {
        std::istringstream lines(*st);
        for (std::string line; std::getline(lines, line);) {
            if (line.rfind("cpu ", 0) == 0) {
                std::istringstream f(line.substr(4));
                std::uint64_t v = 0, total = 0;
                std::vector<std::uint64_t> fields;
                while (f >> v)
                    fields.push_back(v);
                // user nice system idle iowait irq softirq steal guest guest_nice; guest time is
                // already counted in user, so the total is the first eight.
                for (std::size_t i = 0; i < fields.size() && i < 8; ++i)
                    total += fields[i];
                s.cpuTicks = total;
                if (fields.size() > 7)
                    s.stealTicks = fields[7];
            } else if (line.rfind("procs_running ", 0) == 0) {
                s.procsRunning = std::atoi(line.c_str() + 14);
            }
        }
    }
    std::error_code ec;
    std::uint64_t run = 0, delay = 0;
    bool any = false;
    for (const auto &task : fs::directory_iterator("/proc/self/task", ec)) {
        if (const auto ss = readFile(task.path() / "schedstat")) {
            unsigned long long a = 0, b = 0;
            if (std::sscanf(ss->c_str(), "%llu %llu", &a, &b) == 2) {
                run += a;
                delay += b;
                any = true;
            }
        }
    }
    if (any) {
        s.runNs = run;
        s.runDelayNs = delay;
    }
    std::uint64_t throttle = 0;
    bool anyThrottle = false;
    for (const auto &cpu : fs::directory_iterator("/sys/devices/system/cpu", ec)) {
        for (const char *f : {"core_throttle_count", "package_throttle_count"}) {
            if (const auto t = readFile(cpu.path() / "thermal_throttle" / f)) {
                throttle += std::strtoull(t->c_str(), nullptr, 10);
                anyThrottle = true;
            }
        }
    }
    if (anyThrottle)
        s.throttleCount = throttle;
    return s;
}

std::string scalingGovernor()
{
    auto g = readFile("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor").value_or("");
    while (!g.empty() && (g.back() == '\n' || g.back() == ' '))
        g.pop_back();
    return g;
}

Verdict classify(const VerdictInput &in)
{
    Verdict v;
    int severity = 0; // 0 ok, 1 noisy, 2 unreliable
    // Every reason and note is a catalog text (FORMAT.md "Message ids"): English in `reasons`,
    // its id and args in `reasonsMsg`, index for index.
    const auto flag = [&](int level, const Protocol::Text &reason) {
        severity = std::max(severity, level);
        v.reasons.push_back(reason.english);
        v.reasonsMsg.push_back(reason.msg());
    };
    const auto note = [&](const Protocol::Text &text) {
        v.notes.push_back(text.english);
        v.notesMsg.push_back(text.msg());
    };
    using Protocol::text;
    bool loadKnown = false;
    const int usable = std::max(1, in.cpus.usable);
    const int threads = std::max(1, in.threads);

    // Others runnable at once, from procs_running samples (which count our own running threads:
    // assume all `threads` of ours were, so this underestimates the others rather than blames them).
    std::vector<int> running = in.procsRunning;
    for (const auto *s : {&in.before, &in.after})
        if (s->procsRunning)
            running.push_back(*s->procsRunning);
    const bool wholeHost = in.cpus.affinity >= in.cpus.online && !in.cpus.quota;
    if (!running.empty() && !wholeHost)
        note(text("machine.host_cpus", {{"online", in.cpus.online}, {"usable", usable}}));
    if (!running.empty() && wholeHost) {
        loadKnown = true;
        const double others = std::max(0.0, mean(running) - threads);
        v.figures["procs_running_mean"] = mean(running);
        v.figures["other_runnable_mean"] = others;
        const int free = std::max(0, usable - threads);
        if (threads >= usable && others >= 0.75)
            flag(2, text("machine.oversubscribed", {{"others", others}, {"usable", usable}, {"threads", threads}}));
        else if (others >= free + 0.5)
            flag(1, text("machine.busy", {{"others", others}, {"free", free}, {"threads", threads}}));
    }
    if (in.before.runNs && in.after.runNs && in.before.runDelayNs && in.after.runDelayNs && *in.after.runNs > *in.before.runNs) {
        loadKnown = true;
        const double ran = static_cast<double>(*in.after.runNs - *in.before.runNs);
        const double waited = static_cast<double>(*in.after.runDelayNs - std::min(*in.after.runDelayNs, *in.before.runDelayNs));
        const double share = waited / (ran + waited);
        v.figures["run_delay_share"] = share;
        const auto what
            = text("machine.run_delay", {{"share", share * 100.0}, {"waited", waited / 1e6}, {"ran", ran / 1e6}});
        if (share > 0.25)
            flag(2, what);
        else if (share > 0.10)
            flag(1, what);
    }
    if (in.before.cpuTicks && in.after.cpuTicks && in.before.stealTicks && in.after.stealTicks &&
        *in.after.cpuTicks > *in.before.cpuTicks) {
        const double steal = static_cast<double>(*in.after.stealTicks - std::min(*in.after.stealTicks, *in.before.stealTicks)) /
                             static_cast<double>(*in.after.cpuTicks - *in.before.cpuTicks);
        v.figures["steal_share"] = steal;
        const auto what = text("machine.steal", {{"share", steal * 100.0}});
        if (steal > 0.10)
            flag(2, what);
        else if (steal > 0.02)
            flag(1, what);
    }
    if (in.before.throttleCount && in.after.throttleCount && *in.after.throttleCount > *in.before.throttleCount)
        flag(1, text("machine.throttled", {{"count", *in.after.throttleCount - *in.before.throttleCount}}));
    for (const auto &s : in.spreads) {
        if (s.p10Ms > 0 && s.p90Ms > 2.0 * s.p10Ms)
            flag(1,
                 text("machine.spread",
                      {{"variant", s.name}, {"p10", s.p10Ms}, {"median", s.medianMs}, {"p90", s.p90Ms}}));
    }
    for (double w : in.ratioRelWidths) {
        if (w > 0.25) {
            flag(1, text("machine.ratio_wide", {{"width", w * 100.0}}));
            break;
        }
    }
    if (in.before.loadavg1)
        v.figures["loadavg1"] = *in.before.loadavg1;
    if (!in.governor.empty() && in.governor != "performance")
        note(text("machine.governor", {{"governor", in.governor}}));
    if (in.governor.empty())
        note(text("machine.governor_unreadable"));
    if (!in.before.throttleCount)
        note(text("machine.throttle_unreadable"));

    if (severity == 0 && !loadKnown) {
        v.verdict = "unknown";
        const auto unknown = text("machine.load_unknown");
        v.reasons.push_back(unknown.english);
        v.reasonsMsg.push_back(unknown.msg());
        return v;
    }
    v.verdict = severity == 2 ? "unreliable" : severity == 1 ? "noisy" : "ok";
    return v;
}

nlohmann::json toJson(const Verdict &v, const VerdictInput &in)
{
    nlohmann::json load = nlohmann::json::object();
    if (in.before.loadavg1)
        load["loadavg1"] = *in.before.loadavg1;
    for (const char *k : {"procs_running_mean", "other_runnable_mean", "run_delay_share", "steal_share"})
        if (v.figures.contains(k))
            load[k] = v.figures[k];
    return {{"verdict", v.verdict},
            {"reasons", v.reasons},
            {"notes", v.notes},
            {"reasons_msg", v.reasonsMsg},
            {"notes_msg", v.notesMsg},
            {"threads", in.threads},
            {"usable_cpus", in.cpus.usable},
            {"affinity_cpus", in.cpus.affinity},
            {"online_cpus", in.cpus.online},
            {"cpu_quota", in.cpus.quota ? nlohmann::json(*in.cpus.quota) : nlohmann::json()},
            {"cpu_source", in.cpus.source},
            {"governor", in.governor.empty() ? nlohmann::json() : nlohmann::json(in.governor)},
            {"load", load}};
}

MachineMonitor::MachineMonitor(int threads)
{
    m_in.threads = threads;
    m_in.cpus = usableCpus();
    m_in.governor = scalingGovernor();
}

void MachineMonitor::begin()
{
    m_in.before = sampleMachine();
    m_in.procsRunning.clear();
}

void MachineMonitor::round()
{
    // procs_running only: reading schedstat of every thread each round would cost more.
    if (const auto st = readFile("/proc/stat")) {
        const auto at = st->find("procs_running ");
        if (at != std::string::npos)
            m_in.procsRunning.push_back(std::atoi(st->c_str() + at + 14));
    }
}

void MachineMonitor::end()
{
    m_in.after = sampleMachine();
}

Verdict MachineMonitor::verdict(std::vector<VariantSpread> spreads, std::vector<double> ratioRelWidths)
{
    m_in.spreads = std::move(spreads);
    m_in.ratioRelWidths = std::move(ratioRelWidths);
    return classify(m_in);
}

nlohmann::json MachineMonitor::json(std::vector<VariantSpread> spreads, std::vector<double> ratioRelWidths)
{
    const Verdict v = verdict(std::move(spreads), std::move(ratioRelWidths));
    return toJson(v, m_in);
}

} // namespace AotStudio::Profiler
