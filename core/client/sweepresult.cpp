// SPDX-License-Identifier: GPL-3.0-or-later
#include "client/sweepresult.h"

#include <QJsonArray>

#include <algorithm>

namespace AotStudio::Client {

namespace {

std::optional<qint64> optionalInt(const QJsonValue &v)
{
    return v.isDouble() ? std::optional<qint64>(v.toInteger()) : std::nullopt;
}

QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const auto &x : v.toArray())
        out << x.toString();
    return out;
}

} // namespace

QString SweepSymbol::rangeText() const
{
    return (min ? QString::number(*min) : QStringLiteral("0")) + QStringLiteral("..")
        + (max ? QString::number(*max) : QStringLiteral("∞"));
}

QString SweepPoint::shapesText() const
{
    QStringList parts;
    for (const auto &s : shapes) {
        QStringList dims;
        for (const auto d : s)
            dims << QString::number(d);
        parts << QLatin1Char('[') + dims.join(QStringLiteral(", ")) + QLatin1Char(']');
    }
    return parts.join(QLatin1Char(' '));
}

SweepPoint::Outcome SweepPoint::outcomeFromName(const QString &name)
{
    static const QMap<QString, Outcome> names { { QStringLiteral("match"), Outcome::Match },
        { QStringLiteral("mismatch"), Outcome::Mismatch }, { QStringLiteral("eager_error"), Outcome::EagerError },
        { QStringLiteral("refused"), Outcome::Refused }, { QStringLiteral("not_refused"), Outcome::NotRefused },
        { QStringLiteral("error"), Outcome::Error }, { QStringLiteral("crashed"), Outcome::Crashed },
        { QStringLiteral("hung"), Outcome::Hung } };
    return names.value(name, Outcome::Unknown);
}

QList<SweepPoint> SweepTarget::strip(const QString &symbol) const
{
    QList<SweepPoint> out;
    for (const auto &p : points)
        if (!p.relation && p.varied.size() == 1 && p.varied.first() == symbol)
            out << p;
    std::stable_sort(out.begin(), out.end(),
        [&](const SweepPoint &a, const SweepPoint &b) { return a.values.value(symbol) < b.values.value(symbol); });
    return out;
}

QList<SweepPoint> SweepTarget::grid(const QString &a, const QString &b) const
{
    QList<SweepPoint> out;
    for (const auto &p : points)
        if (!p.relation && p.varied.size() == 2 && p.varied.contains(a) && p.varied.contains(b))
            out << p;
    return out;
}

SweepResult SweepResult::fromJson(const QJsonObject &j)
{
    SweepResult r;
    r.kind = j.value(QLatin1String("kind")).toString();
    r.model = j.value(QLatin1String("model")).toString();
    r.device = j.value(QLatin1String("device")).toString();
    r.passed = j.value(QLatin1String("passed")).toBool();
    r.points = j.value(QLatin1String("points")).toInt();
    r.failures = j.value(QLatin1String("failures")).toInt();
    r.verdict = j.value(QLatin1String("verdict")).toString();
    r.sweepJson = j.value(QLatin1String("sweep_json")).toString();
    for (const auto &tv : j.value(QLatin1String("targets")).toArray()) {
        const QJsonObject t = tv.toObject();
        SweepTarget target;
        target.name = t.value(QLatin1String("name")).toString();
        target.package = t.value(QLatin1String("package")).toString();
        target.guards = t.value(QLatin1String("guards")).toString();
        target.guardsOrigin = t.value(QLatin1String("guards_origin")).toString();
        const QJsonObject plan = t.value(QLatin1String("plan")).toObject();
        target.single = plan.value(QLatin1String("single")).toInt();
        target.pairs = plan.value(QLatin1String("pairs")).toInt();
        target.leftOut = plan.value(QLatin1String("left_out")).toInt();
        target.notes = strings(plan.value(QLatin1String("notes")));
        for (const auto &sv : t.value(QLatin1String("symbols")).toArray()) {
            const QJsonObject s = sv.toObject();
            SweepSymbol sym;
            sym.label = s.value(QLatin1String("label")).toString();
            sym.min = optionalInt(s.value(QLatin1String("min")));
            sym.max = optionalInt(s.value(QLatin1String("max")));
            sym.example = s.value(QLatin1String("example")).toInteger();
            sym.upperTried = s.value(QLatin1String("upper_tried")).toInteger();
            target.symbols << sym;
        }
        for (const auto &pv : t.value(QLatin1String("points")).toArray()) {
            const QJsonObject p = pv.toObject();
            SweepPoint point;
            point.index = p.value(QLatin1String("index")).toInt();
            const QJsonObject values = p.value(QLatin1String("values")).toObject();
            for (auto it = values.begin(); it != values.end(); ++it)
                point.values.insert(it.key(), it.value().toInteger());
            point.varied = strings(p.value(QLatin1String("varied")));
            for (const auto &shape : p.value(QLatin1String("shapes")).toArray()) {
                QList<qint64> dims;
                for (const auto &d : shape.toArray())
                    dims << d.toInteger();
                point.shapes << dims;
            }
            point.reasons = strings(p.value(QLatin1String("reasons")));
            point.relation = p.value(QLatin1String("relation")).toBool();
            point.expectedMatch = p.value(QLatin1String("expected")).toString() != QLatin1String("refused");
            point.refusal = p.value(QLatin1String("refusal")).toString();
            point.outcomeName = p.value(QLatin1String("outcome")).toString();
            point.outcome = SweepPoint::outcomeFromName(point.outcomeName);
            point.ok = p.value(QLatin1String("ok")).toBool();
            point.message = p.value(QLatin1String("message")).toString();
            const QJsonValue err = p.value(QLatin1String("max_abs_error"));
            point.maxAbsError = err.isDouble() ? err.toDouble() : qQNaN();
            target.points << point;
        }
        r.targets << target;
    }
    for (const auto &rv : j.value(QLatin1String("policy")).toArray()) {
        const QJsonObject p = rv.toObject();
        r.policy << SweepPolicyRow { p.value(QLatin1String("batch")).toInteger(),
            p.value(QLatin1String("bucket")).toString(), p.value(QLatin1String("padded")).toBool(),
            p.value(QLatin1String("pad_to")).toInteger(), p.value(QLatin1String("outcome")).toString(),
            p.value(QLatin1String("ok")).toBool(), p.value(QLatin1String("message")).toString() };
    }
    return r;
}

} // namespace AotStudio::Client
