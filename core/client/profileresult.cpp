// SPDX-License-Identifier: GPL-3.0-or-later
#include "profileresult.h"

#include <algorithm>
#include <string_view>

namespace AotStudio::Client {

namespace {

ProfileStats readStats(ResultReader &r, const QJsonObject &o, QLatin1String key, const QString &at)
{
    const QString where = fieldPath(at, key);
    const QJsonObject s = r.object(o, key, at);
    ProfileStats stats;
    stats.median = r.number(s, QLatin1String("median_ms"), where);
    stats.p10 = r.number(s, QLatin1String("p10_ms"), where);
    stats.p90 = r.number(s, QLatin1String("p90_ms"), where);
    stats.p99 = r.number(s, QLatin1String("p99_ms"), where);
    stats.mean = r.number(s, QLatin1String("mean_ms"), where);
    stats.stddev = r.number(s, QLatin1String("stddev_ms"), where);
    stats.min = r.number(s, QLatin1String("min_ms"), where);
    stats.max = r.number(s, QLatin1String("max_ms"), where);
    stats.runs = r.count(s, QLatin1String("runs"), where);
    return stats;
}

QList<int> readInts(ResultReader &r, const QJsonObject &o, QLatin1String key, const QString &at)
{
    QList<int> out;
    const QJsonArray a = r.array(o, key, at);
    for (qsizetype i = 0; i < a.size() && !r.failed(); ++i) {
        const QJsonObject wrapped{{QStringLiteral("v"), a.at(i)}};
        out << r.integer(wrapped, QLatin1String("v"), QStringLiteral("%1[%2]").arg(fieldPath(at, key)).arg(i));
    }
    return out;
}

EstimateInterval readEstimate(ResultReader &r, const QJsonObject &o, QLatin1String key, const QString &at)
{
    const QString where = fieldPath(at, key);
    const QJsonObject i = r.object(o, key, at);
    EstimateInterval e;
    e.estimate = r.number(i, QLatin1String("estimate"), where);
    e.low = r.number(i, QLatin1String("low"), where);
    e.high = r.number(i, QLatin1String("high"), where);
    if (!e.hasBounds()) // one bound alone is no interval
        e.low = e.high = qQNaN();
    const double level = r.number(i, QLatin1String("level"), where);
    if (level > 0 && level < 1)
        e.level = level;
    return e;
}

QList<double> readNumbers(ResultReader &r, const QJsonObject &o, QLatin1String key, const QString &at)
{
    QList<double> out;
    const QJsonArray a = r.array(o, key, at);
    for (qsizetype i = 0; i < a.size() && !r.failed(); ++i) {
        if (!a.at(i).isDouble()) {
            r.fail(QStringLiteral("%1[%2]").arg(fieldPath(at, key)).arg(i), QStringLiteral("expected a number"));
            break;
        }
        out << a.at(i).toDouble();
    }
    return out;
}

ProfileReplay readReplay(ResultReader &r, const QJsonObject &o)
{
    ProfileReplay p;
    const QString at = QStringLiteral("replay");
    const QJsonObject replay = r.object(o, QLatin1String("replay"));
    p.present = !replay.isEmpty();
    if (!p.present)
        return p;
    p.seconds = r.number(replay, QLatin1String("seconds"), at);
    p.workers = r.count(replay, QLatin1String("workers"), at);
    p.batch = r.count(replay, QLatin1String("batch"), at);
    p.rates = readNumbers(r, replay, QLatin1String("rates"), at);
    r.strings(replay, QLatin1String("modes"), at);
    const QString satAt = QStringLiteral("replay.saturation");
    const QJsonObject saturation = r.object(replay, QLatin1String("saturation"), at);
    p.saturationShare = r.number(saturation, QLatin1String("below_share"), satAt);
    p.saturationMinRequests = r.count(saturation, QLatin1String("min_requests"), satAt);

    const QJsonArray rows = r.array(replay, QLatin1String("rows"), at);
    for (qsizetype i = 0; i < rows.size() && !r.failed(); ++i) {
        const QString rowAt = QStringLiteral("replay.rows[%1]").arg(i);
        const QJsonObject j = r.element(rows, i, QStringLiteral("replay.rows"));
        ReplayRow row;
        row.mode = r.string(j, QLatin1String("mode"), rowAt);
        row.baseline = r.boolean(j, QLatin1String("baseline"), row.mode == QLatin1String("spawn"), rowAt);
        row.rate = r.number(j, QLatin1String("rate"), rowAt);
        row.offeredRate = r.number(j, QLatin1String("offered_rate_per_s"), rowAt);
        row.achievedRate = r.number(j, QLatin1String("achieved_rate_per_s"), rowAt);
        row.throughput = r.number(j, QLatin1String("throughput_per_s"), rowAt);
        row.cpuBusyShare = r.number(j, QLatin1String("cpu_busy_share"), rowAt);
        row.gpuBusyShare = r.number(j, QLatin1String("gpu_busy_share"), rowAt);
        row.gpuBusyWhy = r.string(r.object(j, QLatin1String("gpu_busy"), rowAt), QLatin1String("why"),
            fieldPath(rowAt, QLatin1String("gpu_busy")));
        row.wallSeconds = r.number(j, QLatin1String("wall_s"), rowAt);
        r.number(j, QLatin1String("cpu_s"), rowAt);
        row.median = readEstimate(r, j, QLatin1String("median_ms"), rowAt);
        row.p99 = readEstimate(r, j, QLatin1String("p99_ms"), rowAt);
        row.serviceMedian = readEstimate(r, j, QLatin1String("service_median_ms"), rowAt);
        row.workers = r.count(j, QLatin1String("workers"), rowAt);
        row.requests = r.count(j, QLatin1String("requests"), rowAt);
        row.ok = r.count(j, QLatin1String("ok"), rowAt);
        row.errors = r.count(j, QLatin1String("errors"), rowAt);
        row.firstError = r.string(j, QLatin1String("first_error"), rowAt);
        row.saturated = r.boolean(j, QLatin1String("saturated"), false, rowAt);
        if (!row.mode.isEmpty() && !qIsNaN(row.rate))
            p.rows << row;
    }
    const QJsonArray ratios = r.array(replay, QLatin1String("ratios"), at);
    for (qsizetype i = 0; i < ratios.size() && !r.failed(); ++i) {
        const QString ratioAt = QStringLiteral("replay.ratios[%1]").arg(i);
        const QJsonObject j = r.element(ratios, i, QStringLiteral("replay.ratios"));
        ReplayRatio ratio;
        ratio.rate = r.number(j, QLatin1String("rate"), ratioAt);
        ratio.name = r.string(j, QLatin1String("name"), ratioAt);
        r.number(j, QLatin1String("estimate"), ratioAt);
        r.number(j, QLatin1String("low"), ratioAt);
        r.number(j, QLatin1String("high"), ratioAt);
        ratio.ratio = RatioInterval::fromJson(j);
        ratio.pairs = r.count(j, QLatin1String("pairs"), ratioAt);
        ratio.comparable = r.boolean(j, QLatin1String("comparable"), true, ratioAt);
        ratio.whyNot = r.string(j, QLatin1String("why_not"), ratioAt);
        p.ratios << ratio;
    }
    const QJsonArray runs = r.array(replay, QLatin1String("runs"), at);
    for (qsizetype i = 0; i < runs.size() && !r.failed(); ++i) {
        const QString runAt = QStringLiteral("replay.runs[%1]").arg(i);
        const QJsonObject j = r.element(runs, i, QStringLiteral("replay.runs"));
        ReplayRun run;
        run.rate = r.number(j, QLatin1String("rate"), runAt);
        run.exit = r.string(j, QLatin1String("exit"), runAt);
        run.error = r.string(j, QLatin1String("error"), runAt);
        run.requests = r.count(r.object(j, QLatin1String("trace"), runAt), QLatin1String("requests"),
            fieldPath(runAt, QLatin1String("trace")));
        run.usableCpus = r.count(j, QLatin1String("usable_cpus"), runAt);
        r.object(j, QLatin1String("measurement"), runAt);
        run.measurement = Measurement::fromJson(j.value(QLatin1String("measurement")));
        p.runs << run;
    }
    return p;
}

void readKernels(ResultReader &r, const QJsonObject &o, QLatin1String key, ProfileResult &p)
{
    const bool ops = key == QLatin1String("ops");
    const QJsonArray rows = r.array(o, key);
    for (qsizetype i = 0; i < rows.size() && !r.failed(); ++i) {
        const QString at = QStringLiteral("%1[%2]").arg(key).arg(i);
        const QJsonObject k = r.element(rows, i, QString(key));
        ProfileKernel kernel;
        kernel.variant = r.string(k, QLatin1String("variant"), at);
        kernel.source = ops ? QStringLiteral("ops:") + kernel.variant : kernel.variant;
        kernel.name = r.string(k, QLatin1String("name"), at);
        kernel.kind = r.string(k, QLatin1String("kind"), at);
        kernel.calls = r.count(k, QLatin1String("calls"), at);
        kernel.totalMs = r.number(k, QLatin1String("total_ms"), at);
        kernel.meanMs = r.number(k, QLatin1String("mean_ms"), at);
        kernel.share = r.number(k, QLatin1String("share"), at);
        kernel.coveredNodes = r.strings(k, QLatin1String("covered_nodes"), at);
        const QString cudaAt = fieldPath(at, QLatin1String("cuda"));
        const QJsonObject cuda = r.object(k, QLatin1String("cuda"), at);
        kernel.hasCuda = !cuda.isEmpty();
        kernel.grid = readInts(r, cuda, QLatin1String("grid"), cudaAt);
        kernel.block = readInts(r, cuda, QLatin1String("block"), cudaAt);
        kernel.registers = r.count(cuda, QLatin1String("registers"), cudaAt);
        kernel.streams = readInts(r, cuda, QLatin1String("streams"), cudaAt);
        p.kernels << kernel;
    }
}

void readProfile(ResultReader &r, const QJsonObject &o, ProfileResult &p)
{
    const QJsonObject speedup = r.object(o, QLatin1String("speedup"));
    const QJsonObject speedupInterval = r.object(o, QLatin1String("speedup_interval"));
    const QJsonArray variants = r.array(o, QLatin1String("variants"));
    for (qsizetype i = 0; i < variants.size() && !r.failed(); ++i) {
        const QString at = QStringLiteral("variants[%1]").arg(i);
        const QJsonObject v = r.element(variants, i, QStringLiteral("variants"));
        ProfileVariant variant;
        variant.name = r.string(v, QLatin1String("name"), at);
        variant.available = r.boolean(v, QLatin1String("available"), true, at);
        variant.reason = r.string(v, QLatin1String("reason"), at);
        variant.stats = readStats(r, v, QLatin1String("statistics"), at);
        variant.traced = readStats(r, v, QLatin1String("traced"), at);
        variant.overheadPct = r.number(v, QLatin1String("overhead_pct"), at);
        const QJsonObject memory = r.object(v, QLatin1String("memory"), at);
        variant.peakBytes = r.number(memory, QLatin1String("peak_bytes"), fieldPath(at, QLatin1String("memory")));
        variant.memoryMethod = r.string(memory, QLatin1String("method"), fieldPath(at, QLatin1String("memory")));
        variant.cudaEventMs = r.number(v, QLatin1String("cuda_event_ms"), at);
        variant.gpuBusyShare = r.number(v, QLatin1String("gpu_busy_share"), at);
        variant.speedup = r.number(speedup, QLatin1String(variant.name.toUtf8()), QStringLiteral("speedup"));
        r.object(speedupInterval, QLatin1String(variant.name.toUtf8()), QStringLiteral("speedup_interval"));
        variant.speedupInterval
            = RatioInterval::fromJson(speedupInterval.value(variant.name), speedup.value(variant.name));
        // Older results have only the percentage: 2.4% is a ratio of 1.024 without an interval.
        r.object(v, QLatin1String("overhead"), at);
        variant.overhead = RatioInterval::fromJson(
            v.value(QLatin1String("overhead")),
            qIsNaN(variant.overheadPct) ? QJsonValue() : QJsonValue(1 + variant.overheadPct / 100));
        variant.available = variant.available && variant.stats.isValid();
        p.variants << variant;
    }
    readKernels(r, o, QLatin1String("kernels"), p);
    readKernels(r, o, QLatin1String("ops"), p);

    const QJsonObject gpu = r.object(o, QLatin1String("gpu"));
    p.gpu.present = !gpu.isEmpty();
    const QJsonObject busy = r.object(gpu, QLatin1String("busy_share"), QStringLiteral("gpu"));
    for (auto it = busy.constBegin(); it != busy.constEnd(); ++it) {
        const QJsonObject wrapped{{QStringLiteral("v"), it.value()}};
        p.gpu.busyShare << qMakePair(
            it.key(), r.number(wrapped, QLatin1String("v"), QStringLiteral("gpu.busy_share.") + it.key()));
    }
    for (const char *kind : {"memcpy", "memset"}) {
        const QString at = QStringLiteral("gpu.") + QLatin1String(kind);
        const QJsonArray rows = r.array(gpu, QLatin1String(kind), QStringLiteral("gpu"));
        for (qsizetype i = 0; i < rows.size() && !r.failed(); ++i) {
            const QJsonObject t = r.element(rows, i, at);
            const QString tat = QStringLiteral("%1[%2]").arg(at).arg(i);
            GpuTransfer transfer;
            transfer.variant = r.string(t, QLatin1String("variant"), tat);
            transfer.kind = r.string(t, QLatin1String("kind"), tat);
            transfer.count = r.count(t, QLatin1String("count"), tat);
            transfer.bytes = r.number(t, QLatin1String("bytes"), tat);
            transfer.totalMs = r.number(t, QLatin1String("total_ms"), tat);
            (kind == std::string_view("memcpy") ? p.gpu.memcpy : p.gpu.memset) << transfer;
        }
    }
    p.gpu.droppedRecords = r.count(gpu, QLatin1String("dropped_records"), QStringLiteral("gpu"));

    r.object(o, QLatin1String("cold_start"));
    p.coldStart = ColdStart::fromJson(o.value(QLatin1String("cold_start")));
    p.replay = readReplay(r, o);

    const QJsonArray throughput = r.array(o, QLatin1String("throughput"));
    for (qsizetype i = 0; i < throughput.size() && !r.failed(); ++i) {
        const QString at = QStringLiteral("throughput[%1]").arg(i);
        const QJsonObject t = r.element(throughput, i, QStringLiteral("throughput"));
        ThroughputRow row;
        row.runners = r.count(t, QLatin1String("runners"), at);
        row.intraOpThreads = r.count(t, QLatin1String("intra_op_threads"), at);
        row.threads = r.count(t, QLatin1String("threads"), at);
        row.callsPerSecond = r.number(t, QLatin1String("throughput_per_s"), at);
        if (!r.object(t, QLatin1String("throughput_interval"), at).isEmpty())
            row.rate = RatioInterval::fromJson(t.value(QLatin1String("throughput_interval")));
        if (!r.object(t, QLatin1String("scaling"), at).isEmpty())
            row.scaling = RatioInterval::fromJson(t.value(QLatin1String("scaling")));
        row.medianMs = r.number(t, QLatin1String("median_ms"), at);
        row.meanMs = r.number(t, QLatin1String("mean_ms"), at);
        row.p10Ms = r.number(t, QLatin1String("p10_ms"), at);
        row.p90Ms = r.number(t, QLatin1String("p90_ms"), at);
        row.p99Ms = r.number(t, QLatin1String("p99_ms"), at);
        row.consistent = r.tristate(t, QLatin1String("consistent"), at);
        if (row.runners > 0)
            p.throughput << row;
    }

    const QJsonObject collector = r.object(o, QLatin1String("collector"));
    p.collectorPresent = !collector.isEmpty();
    p.collectorName = r.string(collector, QLatin1String("name"), QStringLiteral("collector"));
    p.collectorAvailable
        = r.boolean(collector, QLatin1String("available"), !p.collectorPresent, QStringLiteral("collector"));
    p.collectorReason = r.string(collector, QLatin1String("reason"), QStringLiteral("collector"));
    p.tracePath = r.string(r.object(o, QLatin1String("files")), QLatin1String("trace"), QStringLiteral("files"));
    p.kernelsJson = r.string(o, QLatin1String("kernels_json"));
}

void readCompile(ResultReader &r, const QJsonObject &o, ProfileResult &p)
{
    ProfileVariant eager;
    eager.name = QStringLiteral("eager");
    eager.stats = readStats(r, o, QLatin1String("eager"), {});
    eager.available = eager.stats.isValid();
    ProfileVariant compiled;
    compiled.name = QStringLiteral("aoti");
    compiled.stats = readStats(r, o, QLatin1String("compiled"), {});
    compiled.available = compiled.stats.isValid();
    compiled.speedup = r.number(o, QLatin1String("speedup"));
    r.object(o, QLatin1String("speedup_interval"));
    compiled.speedupInterval
        = RatioInterval::fromJson(o.value(QLatin1String("speedup_interval")), o.value(QLatin1String("speedup")));
    p.variants << eager << compiled;
    p.kernelsJson = r.string(r.object(o, QLatin1String("kernels")), QLatin1String("path"), QStringLiteral("kernels"));
}

} // namespace

QStringList ProfileReplay::modes() const
{
    QStringList out;
    for (const ReplayRow &row : rows) {
        if (!out.contains(row.mode) && !row.baseline)
            out << row.mode;
    }
    for (const ReplayRow &row : rows) {
        if (!out.contains(row.mode) && row.baseline)
            out << row.mode;
    }
    return out;
}

QList<ReplayRow> ProfileReplay::rowsOf(const QString &mode) const
{
    QList<ReplayRow> out;
    for (const ReplayRow &row : rows) {
        if (row.mode == mode)
            out << row;
    }
    std::stable_sort(out.begin(), out.end(), [](const ReplayRow &a, const ReplayRow &b) { return a.rate < b.rate; });
    return out;
}

QList<ProfileKernel> ProfileResult::kernelsOf(const QString &variant) const
{
    QList<ProfileKernel> out;
    for (const ProfileKernel &k : kernels) {
        if (k.source == variant)
            out << k;
    }
    return out;
}

Parsed<ProfileResult> parseProfileResult(const QJsonObject &o)
{
    ResultReader r(QStringLiteral("profile result"));
    ProfileResult p;
    const bool isProfile = r.string(o, QLatin1String("format")) == QLatin1String("aotstudio.profile")
        || o.contains(QLatin1String("variants"));
    if (!isProfile && !(o.contains(QLatin1String("eager")) && o.contains(QLatin1String("compiled"))))
        return Parsed<ProfileResult>::refused(QStringLiteral(
            "profile result: neither a profile (no variants) nor a compile result (no eager and compiled statistics)"));
    p.kind = isProfile ? ProfileResult::Kind::Profile : ProfileResult::Kind::Compile;
    p.model = r.string(o, QLatin1String("model"));
    p.device = r.string(o, QLatin1String("device"));
    p.deviceName
        = r.string(r.object(o, QLatin1String("device_info")), QLatin1String("name"), QStringLiteral("device_info"));
    p.dtype = r.string(o, QLatin1String("dtype"));
    p.out = r.string(o, QLatin1String("out"));
    const QString created = r.string(o, QLatin1String("created"));
    if (!created.isEmpty())
        p.created = QDateTime::fromString(created, Qt::ISODate).toLocalTime();
    p.warnings = r.strings(o, QLatin1String("warnings"));
    r.object(o, QLatin1String("measurement"));
    r.count(o, QLatin1String("threads"));
    p.measurement = Measurement::fromJson(o.value(QLatin1String("measurement")), o.value(QLatin1String("threads")));
    if (isProfile)
        readProfile(r, o, p);
    else
        readCompile(r, o, p);
    if (r.failed())
        return Parsed<ProfileResult>::refused(r.error());
    return {std::make_shared<const ProfileResult>(std::move(p)), {}};
}

Parsed<ProfileResult> parseProfileResult(const QByteArray &json)
{
    return parseDocument<ProfileResult>(json, QStringLiteral("profile result"), [](const QJsonObject &o) { return parseProfileResult(o); });
}

} // namespace AotStudio::Client
