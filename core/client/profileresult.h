// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "measurement.h"
#include "resultparse.h"

#include <QDateTime>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QtNumeric>

namespace AotStudio::Client {

/// Latency statistics of one variant in ms (PROFILE.md `statistics`); NaN when absent.
struct ProfileStats {
    double median = qQNaN(), p10 = qQNaN(), p90 = qQNaN(), p99 = qQNaN(), mean = qQNaN(), stddev = qQNaN(),
           min = qQNaN(), max = qQNaN();
    int runs = 0;
    bool isValid() const { return !qIsNaN(median); }
};

/// One variant of a profile (eager, aoti, nativert), or of a compile result (eager, aoti).
struct ProfileVariant {
    QString name;
    bool available = false; ///< measured: listed available and with a median
    QString reason; ///< why it is not available
    ProfileStats stats;
    ProfileStats traced;
    double overheadPct = qQNaN();
    RatioInterval overhead; ///< traced / untraced (bare from overhead_pct in older results)
    double peakBytes = qQNaN();
    QString memoryMethod;
    double cudaEventMs = qQNaN();
    double gpuBusyShare = qQNaN();
    double speedup = qQNaN(); ///< eager median over this variant's
    RatioInterval speedupInterval; ///< speedup with its interval (bare in older results)
};

/// One measured kernel or ATen op (PROFILE.md `kernels`, `ops`).
struct ProfileKernel {
    QString source; ///< the variant for `kernels`, "ops:<variant>" for `ops`
    QString variant;
    QString name;
    QString kind;
    int calls = 0;
    double totalMs = qQNaN();
    double meanMs = qQNaN();
    double share = qQNaN();
    QStringList coveredNodes;
    bool hasCuda = false; ///< launch configuration below is present
    QList<int> grid;
    QList<int> block;
    int registers = 0;
    QList<int> streams;
};

/// A GPU copy or fill total (PROFILE.md `gpu.memcpy`, `gpu.memset`).
struct GpuTransfer {
    QString variant;
    QString kind;
    int count = 0;
    double bytes = qQNaN();
    double totalMs = qQNaN();
};

/// The CUDA activity summary of a profile; `present` false on CPU.
struct ProfileGpu {
    bool present = false;
    QList<QPair<QString, double>> busyShare; ///< variant -> kernel time / wall time
    QList<GpuTransfer> memcpy;
    QList<GpuTransfer> memset;
    int droppedRecords = 0;
};

/// One throughput row (PROFILE.md "Throughput").
struct ThroughputRow {
    int runners = 0;
    int intraOpThreads = 0; ///< torch threads of each runner; 0 when not stated
    int threads = 0; ///< `threads` as sent (older results)
    double callsPerSecond = qQNaN(); ///< counted calls / counted seconds
    RatioInterval rate; ///< median per-window rate (calls/s) with its interval; invalid in older results
    RatioInterval scaling; ///< this rate over one runner's; invalid for one runner or older results
    double medianMs = qQNaN();
    double meanMs = qQNaN(); ///< of the counted calls; NaN in results before it
    double p10Ms = qQNaN();
    double p90Ms = qQNaN();
    double p99Ms = qQNaN();
    int consistent = -1; ///< 1 true, 0 false, -1 not stated (several runners, older results)
};

/// An estimate with its 95% interval (a replay's latency percentiles, ms); NaN when absent.
struct EstimateInterval {
    double estimate = qQNaN();
    double low = qQNaN(); ///< NaN when there were too few samples for an interval
    double high = qQNaN();
    double level = 0.95;

    bool isValid() const { return !qIsNaN(estimate); }
    bool hasBounds() const { return !qIsNaN(low) && !qIsNaN(high); }
};

/// One arrival rate and mode of a profile's burst replay (PROFILE.md "Burst replay").
struct ReplayRow {
    QString mode; ///< "worker", "request", "spawn" or "eager"
    bool baseline = false; ///< spawn (a fresh aotstudio-run per request) or eager (a Python eager server)
    double rate = qQNaN(); ///< the arrival rate asked for, requests/s
    double offeredRate = qQNaN(); ///< what the seeded trace offered, requests/s
    double achievedRate = qQNaN(); ///< the rate requests were submitted at, requests/s
    double throughput = qQNaN(); ///< answers per second of the run
    double cpuBusyShare = qQNaN(); ///< CPU time of server and children / (wall × usable CPUs)
    double gpuBusyShare = qQNaN(); ///< CUDA: share of the run with a kernel on the GPU (NVML); NaN otherwise
    QString gpuBusyWhy; ///< CUDA: why there is no GPU busy share
    double wallSeconds = qQNaN();
    EstimateInterval median; ///< arrival to answer, ms
    EstimateInterval p99; ///< ms
    EstimateInterval serviceMedian; ///< dispatch to answer, ms
    int workers = 0;
    int requests = 0;
    int ok = 0;
    int errors = 0;
    QString firstError;
    bool saturated = false; ///< aotstudio-run's flag: its queue grew for the whole run
};

/// The spawn baseline's median latency over a mode's, at one rate.
struct ReplayRatio {
    double rate = qQNaN();
    QString name; ///< "spawn/worker median latency", "eager/request median latency"
    RatioInterval ratio;
    int pairs = 0;
    bool comparable = true; ///< false when either side was saturated
    QString whyNot;
};

/// One rate's aotstudio-run process: how it ended and the machine's verdict around it.
struct ReplayRun {
    double rate = qQNaN();
    QString exit; ///< "exit status 0", "timed out", ...
    QString error; ///< why it gave no rows (or fewer); empty when it ran
    int requests = 0;
    int usableCpus = 0;
    Measurement measurement;
};

/// A profile's burst replay (PROFILE.md "Burst replay"); `present` false when it was not asked.
struct ProfileReplay {
    bool present = false;
    double seconds = qQNaN(); ///< of arrivals per rate
    int workers = 0;
    int batch = 0;
    QList<double> rates; ///< asked, in the order run
    double saturationShare = qQNaN(); ///< saturated below this share of the offered rate
    int saturationMinRequests = 0;
    QList<ReplayRow> rows;
    QList<ReplayRatio> ratios;
    QList<ReplayRun> runs;

    /// The modes among the rows, in the order they first appear (spawn last when present).
    QStringList modes() const;
    /// The rows of `mode`, by rate.
    QList<ReplayRow> rowsOf(const QString &mode) const;
};

/**
 * A `profile` result (core/profiler/PROFILE.md), or the latency part of a `compile` result (kind
 * Compile: variants eager and aoti only), parsed once by the Session and shared by the profile
 * panel, the kernel catalog and the report. Immutable once parsed.
 */
struct ProfileResult {
    enum class Kind { Profile, Compile };
    Kind kind = Kind::Profile;
    QString model;
    QString device;
    QString deviceName; ///< `device_info.name`
    QString dtype;
    QDateTime created; ///< local time; invalid when absent
    QStringList warnings;
    Measurement measurement;
    QList<ProfileVariant> variants;
    QList<ProfileKernel> kernels; ///< `kernels` then `ops` (source "ops:<variant>")
    ProfileGpu gpu;
    ColdStart coldStart;
    ProfileReplay replay;
    QList<ThroughputRow> throughput; ///< rows with runners > 0
    bool collectorPresent = false;
    QString collectorName;
    bool collectorAvailable = true;
    QString collectorReason;
    QString tracePath; ///< `files.trace` on the engine's disk; empty without a trace
    QString kernelsJson; ///< `kernels_json`, or a compile result's `kernels.path`
    QString out;

    bool isProfile() const { return kind == Kind::Profile; }
    /// The kernels measured for `variant` (`kernels` rows only, not `ops`).
    QList<ProfileKernel> kernelsOf(const QString &variant) const;
};

/**
 * Parses a `profile` result, or a `compile` result as its latency view (a result with `eager`
 * and `compiled` statistics and no `variants`). Refuses, naming the field, an object whose fields
 * have the wrong JSON types and one with neither variants nor compile statistics. Never throws.
 */
Parsed<ProfileResult> parseProfileResult(const QJsonObject &result);
/// The same from the bytes of `profile.json` (anything: not JSON, not an object, … is refused).
Parsed<ProfileResult> parseProfileResult(const QByteArray &json);

} // namespace AotStudio::Client
