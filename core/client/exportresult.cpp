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
    r.compat = BundleCompat::fromJson(o.value(QLatin1String("compat")));
    r.preflight = Preflight::fromJson(o.value(QLatin1String("preflight")));
    return r;
}

BundleCompat BundleCompat::fromJson(const QJsonValue &value)
{
    BundleCompat c;
    const QJsonObject o = value.toObject();
    const auto str = [&](const char *key) { return o.value(QLatin1String(key)).toString(); };
    c.key = str("key");
    c.torch = str("torch");
    c.cuda = str("cuda");
    c.device = str("device");
    c.machine = str("machine");
    c.cpuIsa = str("cpu_isa");
    c.march = str("march");
    c.precision = str("precision");
    c.shapeMode = str("shape_mode");
    c.runtime = str("runtime");
    c.modelSha256 = str("model_sha256");
    const QJsonObject archs = o.value(QLatin1String("cuda_archs")).toObject();
    for (const QJsonValue &v : archs.value(QLatin1String("sass")).toArray())
        c.sass.append(v.toInt());
    for (const QJsonValue &v : archs.value(QLatin1String("ptx")).toArray())
        c.ptx.append(v.toInt());
    return c;
}

Preflight Preflight::fromJson(const QJsonValue &value)
{
    Preflight p;
    const QJsonObject o = value.toObject();
    const QJsonObject profile = o.value(QLatin1String("profile")).toObject();
    p.profile = profile.value(QLatin1String("name")).toString();
    p.description = profile.value(QLatin1String("description")).toString();
    p.verdict = o.value(QLatin1String("verdict")).toString();
    for (const QJsonValue &v : o.value(QLatin1String("checks")).toArray()) {
        const QJsonObject c = v.toObject();
        p.checks.append({c.value(QLatin1String("name")).toString(), c.value(QLatin1String("status")).toString(),
                         c.value(QLatin1String("summary")).toString()});
    }
    return p;
}

} // namespace AotStudio::Client
