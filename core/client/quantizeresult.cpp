// SPDX-License-Identifier: GPL-3.0-or-later
#include "quantizeresult.h"

#include <QSet>

namespace AotStudio::Client {

namespace {

/// The list `key` of `o` (at `at`): per-layer rows (`layers[]`: name, type, errors) and per-output
/// rows (`accuracy.outputs[]`: name, errors; no type) share this shape.
QList<QuantizeLayer> readErrors(const QJsonObject &o, QLatin1String key, const QString &at, ResultReader &r)
{
    QList<QuantizeLayer> list;
    const QString listAt = fieldPath(at, key);
    const QJsonArray items = r.array(o, key, at);
    for (qsizetype j = 0; j < items.size() && !r.failed(); ++j) {
        const QString itemAt = QStringLiteral("%1[%2]").arg(listAt).arg(j);
        const QJsonObject item = r.element(items, j, listAt);
        QuantizeLayer e;
        e.name = r.string(item, QLatin1String("name"), itemAt);
        e.type = r.string(item, QLatin1String("type"), itemAt);
        e.maxAbsError = r.number(item, QLatin1String("max_abs_error"), itemAt);
        e.meanAbsError = r.number(item, QLatin1String("mean_abs_error"), itemAt);
        e.cosine = r.number(item, QLatin1String("cosine"), itemAt);
        list << e;
    }
    return list;
}

QuantizeResult read(const QJsonObject &o, ResultReader &r)
{
    QuantizeResult q;
    q.model = r.string(o, QLatin1String("model"));
    q.device = r.string(o, QLatin1String("device"));
    const QString baseline = r.string(o, QLatin1String("baseline"));
    if (!baseline.isEmpty())
        q.baseline = baseline;
    q.calibrationSamples
        = r.count(r.object(o, QLatin1String("calibration")), QLatin1String("samples"), QStringLiteral("calibration"));
    q.evaluationSamples
        = r.count(r.object(o, QLatin1String("evaluation")), QLatin1String("samples"), QStringLiteral("evaluation"));
    q.peakMethod = r.string(o, QLatin1String("peak_method"));
    q.threads = r.count(o, QLatin1String("threads"));
    q.csv = r.string(o, QLatin1String("csv"));
    q.json = r.string(o, QLatin1String("json"));
    const QJsonObject best = r.object(o, QLatin1String("best"));
    q.bestScheme = r.string(best, QLatin1String("scheme"), QStringLiteral("best"));
    q.maxError = r.number(best, QLatin1String("max_error"), QStringLiteral("best"));
    q.bestBy = r.string(best, QLatin1String("by"), QStringLiteral("best"));
    const QJsonObject ray = r.object(o, QLatin1String("ray"));
    q.rayAddress = r.string(ray, QLatin1String("address"), QStringLiteral("ray"));
    const QJsonArray schemes = r.array(o, QLatin1String("schemes"));
    for (qsizetype i = 0; i < schemes.size() && !r.failed(); ++i) {
        const QString at = QStringLiteral("schemes[%1]").arg(i);
        const QJsonObject s = r.element(schemes, i, QStringLiteral("schemes"));
        QuantizeScheme row;
        row.scheme = r.string(s, QLatin1String("scheme"), at);
        row.status = r.string(s, QLatin1String("status"), at);
        row.reason = r.string(s, QLatin1String("reason"), at);
        row.stage = r.string(s, QLatin1String("stage"), at);
        row.hint = r.string(s, QLatin1String("hint"), at);
        row.out = r.string(s, QLatin1String("out"), at);
        row.package = r.string(s, QLatin1String("package"), at);
        row.eagerMs = r.number(s, QLatin1String("eager_ms"), at);
        row.compiledMs = r.number(s, QLatin1String("compiled_ms"), at);
        row.speedupVsFp32Eager = r.number(s, QLatin1String("speedup_vs_fp32_eager"), at);
        r.number(s, QLatin1String("speedup"), at);
        r.object(s, QLatin1String("speedup_interval"), at);
        r.object(s, QLatin1String("speedup_vs_fp32_eager_interval"), at);
        row.speedupVsFp32EagerInterval = RatioInterval::fromJson(
            s.value(QLatin1String("speedup_vs_fp32_eager_interval")), s.value(QLatin1String("speedup_vs_fp32_eager")));
        row.speedupInterval
            = RatioInterval::fromJson(s.value(QLatin1String("speedup_interval")), s.value(QLatin1String("speedup")));
        row.fp32EagerMs = r.number(s, QLatin1String("fp32_eager_ms"), at);
        r.object(s, QLatin1String("measurement"), at);
        r.count(s, QLatin1String("threads"), at);
        row.measurement
            = Measurement::fromJson(s.value(QLatin1String("measurement")), s.value(QLatin1String("threads")));
        const QString peakAt = fieldPath(at, QLatin1String("peak_bytes"));
        const QJsonObject peak = r.object(s, QLatin1String("peak_bytes"), at);
        row.peakEagerBytes = r.number(peak, QLatin1String("eager"), peakAt);
        row.peakCompiledBytes = r.number(peak, QLatin1String("compiled"), peakAt);
        row.packageBytes = r.number(s, QLatin1String("package_bytes"), at);
        const QString accAt = fieldPath(at, QLatin1String("accuracy"));
        const QJsonObject accuracy = r.object(s, QLatin1String("accuracy"), at);
        row.maxAbsError = r.number(accuracy, QLatin1String("max_abs_error"), accAt);
        row.meanAbsError = r.number(accuracy, QLatin1String("mean_abs_error"), accAt);
        row.cosine = r.number(accuracy, QLatin1String("cosine"), accAt);
        row.top1Agreement = r.number(accuracy, QLatin1String("top1_agreement"), accAt);
        row.embeddingCosine = r.number(accuracy, QLatin1String("embedding_cosine"), accAt);
        if (accuracy.contains(QLatin1String("outputs")))
            row.outputs = readErrors(accuracy, QLatin1String("outputs"), accAt, r);
        row.quantizedLayers = r.count(s, QLatin1String("quantized_layers"), at);
        row.quantizedOps = r.strings(s, QLatin1String("quantized_ops"), at);
        row.layers = readErrors(s, QLatin1String("layers"), at, r);
        row.host = r.string(s, QLatin1String("host"), at);
        row.deviceName = r.string(s, QLatin1String("device_name"), at);
        row.node = r.string(s, QLatin1String("node"), at);
        row.best = !q.bestScheme.isEmpty() && row.scheme == q.bestScheme;
        q.schemes << row;
    }
    QSet<QString> hosts;
    for (const QuantizeScheme &row : std::as_const(q.schemes))
        if (!row.host.isEmpty())
            hosts.insert(row.host);
    q.severalHosts = hosts.size() > 1;
    return q;
}

} // namespace

const QuantizeScheme *QuantizeResult::find(const QString &scheme) const
{
    for (const QuantizeScheme &s : schemes) {
        if (s.scheme == scheme)
            return &s;
    }
    return nullptr;
}

QuantizeResult QuantizeResult::fromJson(const QJsonObject &result)
{
    ResultReader r(QStringLiteral("quantize result"));
    return read(result, r); // what was read up to the first wrong field
}

Parsed<QuantizeResult> parseQuantizeResult(const QJsonObject &result)
{
    ResultReader r(QStringLiteral("quantize result"));
    QuantizeResult q = read(result, r);
    if (r.failed())
        return Parsed<QuantizeResult>::refused(r.error());
    return {std::make_shared<const QuantizeResult>(std::move(q)), {}};
}

Parsed<QuantizeResult> parseQuantizeResult(const QByteArray &json)
{
    return parseDocument<QuantizeResult>(json, QStringLiteral("quantize result"), [](const QJsonObject &o) { return parseQuantizeResult(o); });
}

} // namespace AotStudio::Client
