// SPDX-License-Identifier: GPL-3.0-or-later
#include "memoryplan.h"

#include <QJsonArray>

namespace AotStudio::Client {

namespace {

MemoryPeak readPeak(ResultReader &r, const QJsonObject &o, const QString &at, double bytes)
{
    MemoryPeak p;
    p.bytes = bytes;
    p.step = r.integer(o, QLatin1String("step"), at, -1);
    p.kernel = r.string(o, QLatin1String("kernel"), at);
    p.liveNodes = r.strings(o, QLatin1String("live_nodes"), at);
    return p;
}

} // namespace

Parsed<MemoryPlan> MemoryPlan::parse(const QByteArray &json)
{
    return parseDocument<MemoryPlan>(json, QStringLiteral("memory.json"),
                                     [](const QJsonObject &o) { return MemoryPlan::parse(o); });
}

Parsed<MemoryPlan> MemoryPlan::parse(const QJsonObject &o)
{
    ResultReader r(QStringLiteral("memory.json"));
    auto plan = std::make_shared<MemoryPlan>();
    plan->available = r.boolean(o, QLatin1String("available"), false);
    plan->reason = r.string(o, QLatin1String("reason"));
    plan->complete = r.boolean(o, QLatin1String("complete"), true);
    plan->partial = r.strings(o, QLatin1String("partial"));
    const QJsonArray steps = r.array(o, QLatin1String("steps"));
    for (qsizetype i = 0; i < steps.size(); ++i) {
        const QString at = QStringLiteral("steps[%1]").arg(i);
        const QJsonObject s = r.element(steps, i, at);
        MemoryStep step;
        step.index = r.integer(s, QLatin1String("index"), at, static_cast<int>(i));
        step.kernel = r.string(s, QLatin1String("kernel"), at);
        step.nodes = r.strings(s, QLatin1String("nodes"), at);
        step.liveBytes = r.number(s, QLatin1String("live_bytes"), at);
        step.plannedLiveBytes = r.number(s, QLatin1String("planned_live_bytes"), at);
        plan->steps.append(step);
    }
    const QJsonArray buffers = r.array(o, QLatin1String("buffers"));
    for (qsizetype i = 0; i < buffers.size(); ++i) {
        const QString at = QStringLiteral("buffers[%1]").arg(i);
        const QJsonObject b = r.element(buffers, i, at);
        MemoryBuffer buf;
        buf.name = r.string(b, QLatin1String("name"), at);
        buf.bytes = r.number(b, QLatin1String("bytes"), at);
        buf.dtype = r.string(b, QLatin1String("dtype"), at);
        for (const QJsonValue &d : r.array(b, QLatin1String("shape"), at))
            buf.shape.append(static_cast<qint64>(d.toDouble()));
        buf.firstStep = r.integer(b, QLatin1String("first_step"), at, 0);
        buf.lastStep = r.integer(b, QLatin1String("last_step"), at, -1);
        buf.allocation = r.string(b, QLatin1String("allocation"), at);
        buf.reuses = r.string(b, QLatin1String("reuses"), at);
        buf.removed = r.boolean(b, QLatin1String("removed"), false, at);
        buf.isOutput = r.boolean(b, QLatin1String("is_output"), false, at);
        buf.nodes = r.strings(b, QLatin1String("nodes"), at);
        buf.writerKernel = r.string(b, QLatin1String("writer_kernel"), at);
        buf.lastReaderKernel = r.string(b, QLatin1String("last_reader_kernel"), at);
        if (buf.firstStep < 0 || (buf.lastStep >= 0 && buf.lastStep < buf.firstStep))
            r.fail(at, QStringLiteral("first_step %1 and last_step %2 are not a lifetime").arg(buf.firstStep).arg(buf.lastStep));
        plan->buffers.append(buf);
    }
    plan->constantsBytes = r.number(o, QLatin1String("constants_bytes"));
    const QJsonObject peak = r.object(o, QLatin1String("peak"));
    plan->predicted = readPeak(r, r.object(peak, QLatin1String("predicted"), QStringLiteral("peak")), QStringLiteral("peak.predicted"),
                               r.number(peak, QLatin1String("predicted_bytes"), QStringLiteral("peak")));
    plan->planned = readPeak(r, r.object(peak, QLatin1String("planned"), QStringLiteral("peak")), QStringLiteral("peak.planned"),
                             r.number(peak, QLatin1String("planned_bytes"), QStringLiteral("peak")));
    const QJsonValue measured = o.value(QLatin1String("measured"));
    if (measured.isObject())
        plan->measuredBytes = r.number(measured.toObject(), QLatin1String("peak_bytes"), QStringLiteral("measured"));
    else if (measured.isDouble())
        plan->measuredBytes = measured.toDouble();
    if (r.failed())
        return Parsed<MemoryPlan>::refused(r.error());
    return {plan, {}};
}

Parsed<FusionDecisions> FusionDecisions::parse(const QByteArray &json)
{
    return parseDocument<FusionDecisions>(json, QStringLiteral("fusion.json"), [](const QJsonObject &o) {
        ResultReader r(QStringLiteral("fusion.json"));
        auto d = std::make_shared<FusionDecisions>();
        d->available = r.boolean(o, QLatin1String("available"), false);
        d->reason = r.string(o, QLatin1String("reason"));
        const QJsonArray refused = r.array(o, QLatin1String("refused"));
        for (qsizetype i = 0; i < refused.size(); ++i) {
            const QString at = QStringLiteral("refused[%1]").arg(i);
            const QJsonObject e = r.element(refused, i, at);
            d->refused.append({r.strings(e, QLatin1String("nodes1"), at), r.strings(e, QLatin1String("nodes2"), at),
                               r.string(e, QLatin1String("reason"), at), r.string(e, QLatin1String("category"), at)});
        }
        const QJsonArray nodes = r.array(o, QLatin1String("nodes"));
        for (qsizetype i = 0; i < nodes.size(); ++i) {
            const QString at = QStringLiteral("nodes[%1]").arg(i);
            const QJsonObject n = r.element(nodes, i, at);
            FusionNode node;
            node.status = r.string(n, QLatin1String("status"), at);
            for (const QJsonValue &v : r.array(n, QLatin1String("refusals"), at)) {
                const int index = v.toInt(-1);
                if (index < 0 || index >= d->refused.size())
                    r.fail(at, QStringLiteral("refusal %1 is not in `refused`").arg(index));
                else
                    node.refusals.append(index);
            }
            d->nodes.insert(r.string(n, QLatin1String("node"), at), node);
        }
        if (r.failed())
            return Parsed<FusionDecisions>::refused(r.error());
        return Parsed<FusionDecisions>{d, {}};
    });
}

} // namespace AotStudio::Client
