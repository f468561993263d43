// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the machine allowed while timing: the CPUs this process may use, what competed for them,
// and a verdict (ok / noisy / unreliable / unknown) with the reasons, carried by every result that
// shows a timing (FORMAT.md "measurement").

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace AotStudio::Profiler {

/// The CPUs this process may actually run on: the affinity mask (sched_getaffinity) limited by the
/// cgroup CPU quota (cgroup v2 `cpu.max`, v1 `cpu.cfs_quota_us / cpu.cfs_period_us`), rounded up.
/// Not the host's core count (`nproc` on a container with a quota overstates it).
struct CpuBudget {
    int usable = 1;                   ///< min(affinity, ceil(quota)), at least 1
    int affinity = 1;                 ///< CPUs in the affinity mask
    int online = 1;                   ///< CPUs online on the host (sysconf(_SC_NPROCESSORS_ONLN))
    std::optional<double> quota;      ///< cgroup quota in CPUs, when one is set
    std::string source;               ///< what decided `usable` ("affinity", "cgroup v2 cpu.max", ...)
};
CpuBudget usableCpus();

/// Raw counters at one instant; an empty optional where the file could not be read.
struct MachineSample {
    std::optional<double> loadavg1;             ///< /proc/loadavg, 1-minute load average
    std::optional<int> procsRunning;            ///< /proc/stat procs_running: runnable tasks system-wide, this thread included
    std::optional<std::uint64_t> cpuTicks;      ///< /proc/stat "cpu" line: sum of all fields (USER_HZ ticks)
    std::optional<std::uint64_t> stealTicks;    ///< /proc/stat "cpu" line: steal (time a hypervisor gave to others)
    std::optional<std::uint64_t> runNs;         ///< sum over /proc/self/task/*/schedstat field 1: time on a CPU
    std::optional<std::uint64_t> runDelayNs;    ///< the same, field 2: time runnable but waiting for a CPU
    std::optional<std::uint64_t> throttleCount; ///< sum of /sys/devices/system/cpu/cpu*/thermal_throttle/*_throttle_count
};

/// Read every counter now (about 50 µs; never throws: unreadable files leave fields empty).
MachineSample sampleMachine();

/// The scaling governor of cpu0 ("performance", "powersave", ...); empty when unreadable (most VMs).
std::string scalingGovernor();

/// The spread of one variant's timed calls, for the verdict.
struct VariantSpread {
    std::string name;
    double p10Ms = 0, medianMs = 0, p90Ms = 0;
};

/// Everything the verdict looks at; built by MachineMonitor, or by hand in tests.
struct VerdictInput {
    int threads = 1;                          ///< intra-op threads the measured code used
    CpuBudget cpus;
    std::string governor;
    MachineSample before, after;              ///< around the timed part
    std::vector<int> procsRunning;            ///< procs_running read during timing (between rounds)
    std::vector<VariantSpread> spreads;
    std::vector<double> ratioRelWidths;       ///< (high - low) / estimate of each ratio's interval
};

struct Verdict {
    std::string verdict = "unknown";          ///< "ok", "noisy", "unreliable" or "unknown"
    std::vector<std::string> reasons;         ///< why it is not "ok", one sentence each, naming the cause
    std::vector<std::string> notes;           ///< facts that did not change the verdict (governor, unreadable files)
    /// The same reasons and notes by message id (FORMAT.md "Message ids"), index for index.
    std::vector<nlohmann::json> reasonsMsg, notesMsg;
    nlohmann::json figures = nlohmann::json::object(); ///< the measured quantities the rules used
};

/// Classify a measurement. The worst rule wins (ok < noisy < unreliable):
/// - oversubscription: the mean of procs_running minus our `threads` (others runnable at once) is
///   at least 0.75 while threads >= usable CPUs: each other task takes a CPU from one of our
///   threads, and OpenMP's barrier waits for the slowest (the 327x "speedup" of a busy machine):
///   unreliable. Others above the CPUs left free (usable - threads) by 0.5 or more: noisy.
///   procs_running counts the whole host, so this rule applies only when the process may use every
///   online CPU (no smaller affinity mask, no quota); otherwise run delay alone judges the load.
/// - run delay: of the time our threads were runnable (schedstat fields 1 + 2), they waited for a
///   CPU (field 2) more than 25%: unreliable; more than 10%: noisy.
/// - steal: the hypervisor gave more than 10% of CPU time to others: unreliable; more than 2%: noisy.
/// - thermal throttling counters rose while timing: noisy.
/// - spread: a variant's p90 above twice its p10, or a ratio's interval wider than 25% of the
///   ratio: noisy.
/// When neither /proc/stat's procs_running nor schedstat could be read, and no other rule fired,
/// the verdict is "unknown" with that reason. Thresholds are ours; the causes are pyperf's
/// ("system load", "CPU frequency"), Google Benchmark's ("CPU scaling is enabled") and hyperfine's
/// (statistical outliers).
Verdict classify(const VerdictInput &in);

/// {verdict, reasons, notes, threads, usable_cpus, cpu_source, load, figures} as FORMAT.md's
/// "measurement" object.
nlohmann::json toJson(const Verdict &v, const VerdictInput &in);

/// Samples the machine around a paired measurement: begin() before timing, round() between rounds
/// (cheap: one read of /proc/stat), end() after; then verdict().
class MachineMonitor {
public:
    explicit MachineMonitor(int threads);
    void begin();
    void round();
    void end();
    /// The verdict with the spreads and interval widths of what was timed.
    Verdict verdict(std::vector<VariantSpread> spreads, std::vector<double> ratioRelWidths = {});
    nlohmann::json json(std::vector<VariantSpread> spreads, std::vector<double> ratioRelWidths = {});
    const VerdictInput &input() const { return m_in; }

private:
    VerdictInput m_in;
};

} // namespace AotStudio::Profiler
