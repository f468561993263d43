// SPDX-License-Identifier: GPL-3.0-or-later
#include "numericsresult.h"

#include <QHash>

#include <limits>

namespace AotStudio::Client {

namespace {

/// A number, or a non-finite one written as a string ("nan", "inf", "-inf").
double errorNumber(ResultReader &r, const QJsonObject &o, QLatin1String key, const QString &at)
{
    const QJsonValue v = o.value(key);
    if (v.isString()) {
        const QString s = v.toString();
        if (s == QLatin1String("nan"))
            return qQNaN();
        if (s == QLatin1String("inf"))
            return std::numeric_limits<double>::infinity();
        if (s == QLatin1String("-inf"))
            return -std::numeric_limits<double>::infinity();
        r.fail(fieldPath(at, key), QStringLiteral("expected a number, \"nan\" or \"inf\", got \"%1\"").arg(s));
        return qQNaN();
    }
    return r.number(o, key, at);
}

std::optional<NumericsError> readError(ResultReader &r, const QJsonObject &parent, QLatin1String key, const QString &at)
{
    const QJsonValue v = parent.value(key);
    if (v.isNull() || v.isUndefined())
        return std::nullopt;
    const QJsonObject o = r.object(parent, key, at);
    const QString here = fieldPath(at, key);
    NumericsError e;
    e.maxAbs = errorNumber(r, o, QLatin1String("max_abs"), here);
    e.normError = errorNumber(r, o, QLatin1String("norm_error"), here);
    e.maxRel = errorNumber(r, o, QLatin1String("max_rel"), here);
    e.cosine = errorNumber(r, o, QLatin1String("cosine"), here);
    e.growth = errorNumber(r, o, QLatin1String("growth"), here);
    e.diverges = r.boolean(o, QLatin1String("diverges"), false, here);
    return e;
}

std::optional<NumericsDivergence> readDivergence(ResultReader &r, const QJsonObject &parent, QLatin1String key,
                                                 const QString &at)
{
    const QJsonValue v = parent.value(key);
    if (v.isNull() || v.isUndefined())
        return std::nullopt;
    const QJsonObject o = r.object(parent, key, at);
    const QString here = fieldPath(at, key);
    NumericsDivergence d;
    d.node = r.string(o, QLatin1String("node"), here);
    d.target = r.string(o, QLatin1String("target"), here);
    d.module = r.string(o, QLatin1String("module"), here);
    d.source = r.string(o, QLatin1String("source"), here);
    d.normError = errorNumber(r, o, QLatin1String("norm_error"), here);
    if (d.node.isEmpty()) {
        r.fail(here, QStringLiteral("names no node"));
        return std::nullopt;
    }
    return d;
}

NumericsResult read(const QJsonObject &o, ResultReader &r)
{
    NumericsResult n;
    const QString format = r.string(o, QLatin1String("format"));
    if (!format.isEmpty() && format != QLatin1String("aotstudio.numerics"))
        r.fail(QStringLiteral("format"), QStringLiteral("expected \"aotstudio.numerics\", got \"%1\"").arg(format));
    n.model = r.string(o, QLatin1String("model"));
    n.device = r.string(o, QLatin1String("device"));
    n.dtype = r.string(o, QLatin1String("dtype"));
    n.referenceDtype = r.string(o, QLatin1String("reference_dtype"));
    n.stage = r.string(o, QLatin1String("stage"));
    n.tolerance = r.number(o, QLatin1String("tolerance"));
    n.verdict = r.string(o, QLatin1String("verdict"));
    n.warnings = r.strings(o, QLatin1String("warnings"));
    n.out = r.string(o, QLatin1String("out"));
    const QJsonArray nodes = r.array(o, QLatin1String("nodes"));
    for (qsizetype i = 0; i < nodes.size() && !r.failed(); ++i) {
        const QString at = QStringLiteral("nodes[%1]").arg(i);
        const QJsonObject j = r.element(nodes, i, QStringLiteral("nodes"));
        NumericsNode node;
        node.name = r.string(j, QLatin1String("name"), at);
        node.target = r.string(j, QLatin1String("target"), at);
        node.module = r.string(j, QLatin1String("module"), at);
        node.source = r.string(j, QLatin1String("source"), at);
        node.dtype = r.string(j, QLatin1String("dtype"), at);
        node.inputs = r.strings(j, QLatin1String("inputs"), at);
        const QJsonArray shape = r.array(j, QLatin1String("shape"), at);
        for (const QJsonValue &d : shape)
            node.shape << qint64(d.toDouble());
        node.eager = readError(r, j, QLatin1String("eager"), at);
        node.compiled = readError(r, j, QLatin1String("compiled"), at);
        if (node.name.isEmpty())
            r.fail(at, QStringLiteral("has no name"));
        n.nodes << node;
    }
    const QJsonObject first = r.object(o, QLatin1String("first_divergent"));
    n.firstEager = readDivergence(r, first, QLatin1String("eager"), QStringLiteral("first_divergent"));
    n.firstCompiled = readDivergence(r, first, QLatin1String("compiled"), QStringLiteral("first_divergent"));
    const QJsonArray outputs = r.array(o, QLatin1String("outputs"));
    for (qsizetype i = 0; i < outputs.size() && !r.failed(); ++i) {
        const QString at = QStringLiteral("outputs[%1]").arg(i);
        const QJsonObject j = r.element(outputs, i, QStringLiteral("outputs"));
        NumericsOutput out;
        out.name = r.string(j, QLatin1String("name"), at);
        out.node = r.string(j, QLatin1String("node"), at);
        out.eager = readError(r, j, QLatin1String("eager"), at);
        out.compiled = readError(r, j, QLatin1String("compiled"), at);
        out.closer = r.string(j, QLatin1String("closer"), at);
        n.outputs << out;
    }
    return n;
}

} // namespace

const NumericsNode *NumericsResult::find(const QString &name) const
{
    for (const NumericsNode &node : nodes)
        if (node.name == name)
            return &node;
    return nullptr;
}

QHash<QString, double> NumericsResult::normErrors(Side side) const
{
    QHash<QString, double> out;
    for (const NumericsNode &node : nodes) {
        const auto &e = side == Side::Eager ? node.eager : node.compiled;
        if (e)
            out.insert(node.name, e->normError);
    }
    return out;
}

Parsed<NumericsResult> parseNumericsResult(const QJsonObject &result)
{
    ResultReader r(QStringLiteral("numerics result"));
    NumericsResult n = read(result, r);
    if (r.failed())
        return Parsed<NumericsResult>::refused(r.error());
    return {std::make_shared<const NumericsResult>(std::move(n)), {}};
}

Parsed<NumericsResult> parseNumericsResult(const QByteArray &json)
{
    return parseDocument<NumericsResult>(json, QStringLiteral("numerics result"),
                                         [](const QJsonObject &o) { return parseNumericsResult(o); });
}

} // namespace AotStudio::Client
