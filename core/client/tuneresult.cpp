// SPDX-License-Identifier: GPL-3.0-or-later
#include "tuneresult.h"

namespace AotStudio::Client {

namespace {

TuneRow readRow(ResultReader &r, const QJsonObject &s, const QString &at, bool baseline)
{
    TuneRow row;
    row.baseline = baseline;
    row.name = r.string(s, QLatin1String("name"), at);
    row.kind = r.string(s, QLatin1String("kind"), at);
    row.options = r.object(s, QLatin1String("options"), at);
    row.note = r.string(s, QLatin1String("note"), at);
    row.status = r.string(s, QLatin1String("status"), at);
    row.reason = r.string(s, QLatin1String("reason"), at);
    row.dtype = r.string(s, QLatin1String("dtype"), at);
    row.package = r.string(s, QLatin1String("package"), at);
    row.packageBytes = r.number(s, QLatin1String("package_bytes"), at);
    row.compileSeconds = r.number(s, QLatin1String("compile_seconds"), at);
    row.maxAbsError = r.number(s, QLatin1String("max_abs_error"), at);
    row.medianMs = r.number(s, QLatin1String("median_ms"), at);
    row.pareto = r.boolean(s, QLatin1String("pareto"), false, at);
    for (const char *key : {"speedup_vs_defaults", "speedup_vs_torch_compile", "speedup_vs_eager"}) {
        r.number(s, QLatin1String(key), at);
        r.object(s, QLatin1String((QByteArray(key) + "_interval").constData()), at);
    }
    const auto interval = [&](const char *key) {
        return RatioInterval::fromJson(s.value(QLatin1String(key) + QLatin1String("_interval")), s.value(QLatin1String(key)));
    };
    row.speedupVsDefaults = interval("speedup_vs_defaults");
    row.speedupVsTorchCompile = interval("speedup_vs_torch_compile");
    row.speedupVsEager = interval("speedup_vs_eager");
    if (row.name.isEmpty())
        r.fail(at, QStringLiteral("has no name"));
    return row;
}

TuneResult read(const QJsonObject &o, ResultReader &r)
{
    TuneResult t;
    const QString format = r.string(o, QLatin1String("format"));
    if (!format.isEmpty() && format != QLatin1String("aotstudio.tune"))
        r.fail(QStringLiteral("format"), QStringLiteral("expected \"aotstudio.tune\", got \"%1\"").arg(format));
    t.model = r.string(o, QLatin1String("model"));
    t.device = r.string(o, QLatin1String("device"));
    t.dtype = r.string(o, QLatin1String("dtype"));
    t.torchVersion = r.string(o, QLatin1String("torch_version"));
    t.out = r.string(o, QLatin1String("out"));
    t.recipePath = r.string(o, QLatin1String("recipe_path"));
    t.budgetSeconds = r.number(o, QLatin1String("budget_seconds"));
    t.maxError = r.number(o, QLatin1String("max_error"));
    t.front = r.strings(o, QLatin1String("front"));
    t.warnings = r.strings(o, QLatin1String("warnings"));
    t.recipe = r.object(o, QLatin1String("recipe"));
    t.recipeName = r.string(t.recipe, QLatin1String("name"), QStringLiteral("recipe"));
    r.object(o, QLatin1String("measurement"));
    r.count(o, QLatin1String("threads"));
    t.measurement = Measurement::fromJson(o.value(QLatin1String("measurement")), o.value(QLatin1String("threads")));
    for (const auto &[key, baseline] : {std::pair{QLatin1String("rows"), false}, std::pair{QLatin1String("baselines"), true}}) {
        const QJsonArray list = r.array(o, key);
        for (qsizetype i = 0; i < list.size() && !r.failed(); ++i) {
            const QString at = QStringLiteral("%1[%2]").arg(key).arg(i);
            (baseline ? t.baselines : t.rows) << readRow(r, r.element(list, i, key), at, baseline);
        }
    }
    return t;
}

QJsonValue number(double v)
{
    return qIsNaN(v) ? QJsonValue() : QJsonValue(v);
}

QJsonValue interval(const RatioInterval &i)
{
    if (!i.isValid())
        return {};
    return QJsonObject{{QLatin1String("estimate"), i.estimate}, {QLatin1String("low"), number(i.low)},
                       {QLatin1String("high"), number(i.high)}, {QLatin1String("level"), i.level}};
}

} // namespace

const TuneRow *TuneResult::find(const QString &name) const
{
    for (const TuneRow &row : rows)
        if (row.name == name)
            return &row;
    for (const TuneRow &row : baselines)
        if (row.name == name)
            return &row;
    return nullptr;
}

QJsonObject TuneResult::recipeFor(const TuneRow &row, const QString &created) const
{
    // The recipe's options are the four keys FORMAT.md "Recipe" allows, from the trial's set.
    QJsonObject options;
    options.insert(QLatin1String("dtype"), row.dtype.isEmpty() ? row.options.value(QLatin1String("dtype")).toString(dtype) : row.dtype);
    for (const char *key : {"freezing", "max_autotune"})
        if (row.options.value(QLatin1String(key)).toBool())
            options.insert(QLatin1String(key), true);
    const QJsonObject inductor = row.options.value(QLatin1String("inductor")).toObject();
    if (!inductor.isEmpty())
        options.insert(QLatin1String("inductor"), inductor);
    const QJsonObject measured{{QLatin1String("median_ms"), number(row.medianMs)},
                               {QLatin1String("speedup_vs_defaults"), interval(row.speedupVsDefaults)},
                               {QLatin1String("speedup_vs_torch_compile"), interval(row.speedupVsTorchCompile)},
                               {QLatin1String("max_abs_error"), number(row.maxAbsError)},
                               {QLatin1String("measurement"), measurement.verdictName}};
    return QJsonObject{{QLatin1String("format"), QLatin1String("aotstudio.recipe")},
                       {QLatin1String("format_version"), 1},
                       {QLatin1String("name"), row.name},
                       {QLatin1String("model"), model},
                       {QLatin1String("device"), device},
                       {QLatin1String("torch_version"), torchVersion},
                       {QLatin1String("created"), created},
                       {QLatin1String("options"), options},
                       {QLatin1String("measured"), measured}};
}

Parsed<TuneResult> parseTuneResult(const QJsonObject &result)
{
    ResultReader r(QStringLiteral("tune result"));
    TuneResult t = read(result, r);
    if (r.failed())
        return Parsed<TuneResult>::refused(r.error());
    return {std::make_shared<const TuneResult>(std::move(t)), {}};
}

Parsed<TuneResult> parseTuneResult(const QByteArray &json)
{
    return parseDocument<TuneResult>(json, QStringLiteral("tune result"),
                                     [](const QJsonObject &o) { return parseTuneResult(o); });
}

} // namespace AotStudio::Client
