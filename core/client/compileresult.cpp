// SPDX-License-Identifier: GPL-3.0-or-later
#include "compileresult.h"

#include <QJsonArray>
#include <QtNumeric>

namespace AotStudio::Client {

namespace {
double number(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? v.toDouble() : qQNaN();
}

} // namespace

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
