// SPDX-License-Identifier: GPL-3.0-or-later
#include "exportresult.h"

#include <QJsonArray>

namespace AotStudio::Client {

ExportResult ExportResult::fromJson(const QJsonObject &o)
{
    ExportResult r;
    r.raw = o;
    r.bundle = o.value(QLatin1String("bundle")).toString();
    r.zip = o.value(QLatin1String("zip")).toString();
    r.model = o.value(QLatin1String("model")).toString();
    r.device = o.value(QLatin1String("device")).toString();
    // The engine sends the manifest's path; an object (the manifest itself) is tolerated.
    const QJsonValue manifest = o.value(QLatin1String("manifest"));
    r.manifest = manifest.isString() ? manifest.toString() : QString();
    const QJsonArray buckets = o.value(QLatin1String("buckets")).toArray();
    for (const QJsonValue &value : buckets) {
        ExportBucket b;
        if (value.isDouble()) { // a bare batch size
            b.batch = value.toInt();
            b.name = QStringLiteral("batch%1").arg(b.batch);
        } else {
            const QJsonObject bo = value.toObject();
            b.name = bo.value(QLatin1String("name")).toString();
            b.batch = bo.value(QLatin1String("batch")).toInt();
            b.batchMin = bo.value(QLatin1String("batch_min")).toInt();
            b.batchMax = bo.value(QLatin1String("batch_max")).toInt();
            b.package = bo.value(QLatin1String("package")).toString();
        }
        r.buckets.append(b);
    }
    r.coldStart = ColdStart::fromJson(o.value(QLatin1String("cold_start")));
    return r;
}

} // namespace AotStudio::Client
