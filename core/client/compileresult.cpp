// SPDX-License-Identifier: GPL-3.0-or-later
#include "compileresult.h"

#include <QJsonArray>
#include <QtNumeric>

#include <cmath>

namespace AotStudio::Client {

namespace {
double number(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? v.toDouble() : qQNaN();
}

/// `key` of `o` as a ratio with its interval, its numbers checked by `r`.
RatioInterval readRatio(ResultReader &r, const QJsonObject &o, QLatin1String key, const QString &at)
{
    const QString where = fieldPath(at, key);
    const QJsonObject i = r.object(o, key, at);
    for (const char *field : {"estimate", "low", "high", "level"})
        r.number(i, QLatin1String(field), where);
    r.count(i, QLatin1String("blocks"), where);
    r.count(i, QLatin1String("resamples"), where);
    r.string(i, QLatin1String("method"), where);
    return i.isEmpty() ? RatioInterval() : RatioInterval::fromJson(i);
}
} // namespace

double RegionalBlock::totalSeconds() const
{
    if (qIsNaN(exportSeconds) && qIsNaN(compileSeconds))
        return qQNaN();
    return (qIsNaN(exportSeconds) ? 0.0 : exportSeconds) + (qIsNaN(compileSeconds) ? 0.0 : compileSeconds);
}

int RegionalResult::instanceCount() const
{
    int n = 0;
    for (const RegionalBlock &b : blocks)
        n += int(b.instances.size());
    return n;
}

Parsed<RegionalResult> parseRegionalResult(const QJsonObject &result)
{
    ResultReader r(QStringLiteral("regional compile result"));
    auto out = std::make_shared<RegionalResult>();
    RegionalResult &g = *out;
    g.eagerMs = r.number(result, QLatin1String("eager_ms"));
    const QString at = QStringLiteral("regional");
    const QJsonObject regional = r.object(result, QLatin1String("regional"));
    const QJsonArray blocks = r.array(regional, QLatin1String("blocks"), at);
    for (qsizetype i = 0; i < blocks.size() && !r.failed(); ++i) {
        const QString blockAt = QStringLiteral("regional.blocks[%1]").arg(i);
        const QJsonObject j = r.element(blocks, i, QStringLiteral("regional.blocks"));
        RegionalBlock b;
        b.className = r.string(j, QLatin1String("class"), blockAt);
        b.module = r.string(j, QLatin1String("module"), blockAt);
        b.instances = r.strings(j, QLatin1String("instances"), blockAt);
        // A count of weights may pass 2^31: read as a number, refused when not a whole one.
        const double parameters = r.number(j, QLatin1String("parameters_per_instance"), blockAt);
        if (!qIsNaN(parameters) && (parameters < 0 || parameters != std::floor(parameters)))
            r.fail(fieldPath(blockAt, QLatin1String("parameters_per_instance")),
                   QStringLiteral("expected a count, got %1").arg(parameters));
        else if (!qIsNaN(parameters))
            b.parametersPerInstance = qint64(parameters);
        b.package = r.string(j, QLatin1String("package"), blockAt);
        b.packageBytes = r.number(j, QLatin1String("package_bytes"), blockAt);
        b.exportSeconds = r.number(j, QLatin1String("export_seconds"), blockAt);
        b.compileSeconds = r.number(j, QLatin1String("compile_seconds"), blockAt);
        g.blocks << b;
    }
    r.array(regional, QLatin1String("groups"), at);
    g.layout = r.string(regional, QLatin1String("layout"), at);
    g.parameterShare = r.number(regional, QLatin1String("parameter_share"), at);
    g.compileSeconds = r.number(regional, QLatin1String("compile_seconds"), at);
    g.packageBytes = r.number(regional, QLatin1String("package_bytes"), at);
    g.medianMs = r.number(regional, QLatin1String("median_ms"), at);
    g.speedupVsEager = readRatio(r, regional, QLatin1String("speedup_vs_eager"), at);
    g.compileTimeRatio = r.number(regional, QLatin1String("compile_time_ratio"), at);

    const QString wholeAt = QStringLiteral("whole");
    const QJsonObject whole = r.object(result, QLatin1String("whole"));
    g.hasWhole = !whole.isEmpty();
    g.wholePackage = r.string(whole, QLatin1String("package"), wholeAt);
    g.wholePackageBytes = r.number(whole, QLatin1String("package_bytes"), wholeAt);
    g.wholeCompileSeconds = r.number(whole, QLatin1String("compile_seconds"), wholeAt);
    g.wholeMedianMs = r.number(whole, QLatin1String("median_ms"), wholeAt);
    g.speedupVsWhole = readRatio(r, whole, QLatin1String("regional_speedup_vs_whole"), wholeAt);
    if (r.failed())
        return Parsed<RegionalResult>::refused(r.error());
    return {std::move(out), {}};
}

QString TensorInfo::text() const
{
    QStringList sizes;
    for (qint64 s : shape)
        sizes << (s < 0 ? QStringLiteral("?") : QString::number(s));
    const QString dims = QLatin1Char('[') + sizes.join(QLatin1String(", ")) + QLatin1Char(']');
    return (name.isEmpty() ? QString() : name + QLatin1Char(' ')) + dims + (dtype.isEmpty() ? QString() : QLatin1Char(' ') + dtype);
}

QList<TensorInfo> TensorInfo::listFromJson(const QJsonValue &array)
{
    QList<TensorInfo> out;
    for (const QJsonValue &v : array.toArray()) {
        const QJsonObject o = v.toObject();
        TensorInfo t;
        t.name = o.value(QLatin1String("name")).toString();
        t.dtype = o.value(QLatin1String("dtype")).toString();
        for (const QJsonValue &s : o.value(QLatin1String("shape")).toArray())
            t.shape << (s.isDouble() ? static_cast<qint64>(s.toDouble()) : qint64(-1));
        out << t;
    }
    return out;
}

CompileResult CompileResult::fromJson(const QJsonObject &result)
{
    CompileResult r;
    r.model = result.value(QLatin1String("model")).toString();
    r.device = result.value(QLatin1String("device")).toString();
    r.package = result.value(QLatin1String("package")).toString();
    r.torchVersion = result.value(QLatin1String("torch_version")).toString();
    r.maxAbsError = number(result, "max_abs_error");
    r.maxRelError = number(result, "max_rel_error");
    r.tolerance = number(result, "tolerance");
    r.eagerMs = number(result, "eager_ms");
    r.compiledMs = number(result, "compiled_ms");
    r.speedup = number(result, "speedup");
    r.speedupInterval = RatioInterval::fromJson(result.value(QLatin1String("speedup_interval")),
                                                result.value(QLatin1String("speedup")));
    r.threads = result.value(QLatin1String("threads")).toInt();
    r.measurement = Measurement::fromJson(result.value(QLatin1String("measurement")),
                                          result.value(QLatin1String("threads")));
    if (r.threads <= 0)
        r.threads = r.measurement.threads;
    r.runs = result.value(QLatin1String("runs")).toInt();
    r.eager = LatencyStats::fromJson(result.value(QLatin1String("eager")));
    r.compiled = LatencyStats::fromJson(result.value(QLatin1String("compiled")));
    // The engine stops each variant on its own once its median is stable, so the counts differ;
    // they are also at the top level, where an older engine may be the only one to have them.
    if (r.eager.runs <= 0)
        r.eager.runs = result.value(QLatin1String("eager_runs")).toInt();
    if (r.compiled.runs <= 0)
        r.compiled.runs = result.value(QLatin1String("compiled_runs")).toInt();
    r.verify = VerifyResult::fromJson(result);
    r.inputs = TensorInfo::listFromJson(result.value(QLatin1String("inputs")));
    const QJsonArray warnings = result.value(QLatin1String("warnings")).toArray();
    for (const QJsonValue &w : warnings) {
        if (w.isString() && !w.toString().trimmed().isEmpty())
            r.warnings << w.toString().trimmed();
    }
    r.raw = result;
    // A regional compile has no package of its own: its blocks' packages are in `regional`.
    r.regionalMode = result.value(QLatin1String("mode")).toString() == QLatin1String("regional");
    if (r.regionalMode) {
        const auto parsed = parseRegionalResult(result);
        r.regional = parsed.value;
        r.regionalError = parsed.error;
    }
    return r;
}

QStringList CompileResult::otherWarnings() const
{
    if (!measurement.isPresent())
        return warnings;
    QStringList out;
    for (const QString &w : warnings) {
        if (!w.startsWith(QLatin1String("measurement: ")))
            out << w;
    }
    return out;
}

} // namespace AotStudio::Client
