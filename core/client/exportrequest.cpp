// SPDX-License-Identifier: GPL-3.0-or-later
#include "exportrequest.h"

#include <QJsonArray>

namespace AotStudio::Client {

QJsonObject ExportRequest::toJson(qint64 id) const
{
    QJsonArray bucketList;
    for (int b : buckets)
        bucketList.append(b);
    QJsonObject o{{QLatin1String("type"), QLatin1String("export")},
                  {QLatin1String("id"), id},
                  {QLatin1String("out"), out},
                  {QLatin1String("buckets"), bucketList},
                  {QLatin1String("pad_safe"), padSafe},
                  {QLatin1String("zip"), zip},
                  {QLatin1String("cold_start_runs"), coldStartRuns}};
    if (!from.isEmpty()) {
        o.insert(QLatin1String("from"), from);
    } else {
        o.insert(QLatin1String("model"), model);
        if (!device.isEmpty())
            o.insert(QLatin1String("device"), device);
        if (!dtype.isEmpty())
            o.insert(QLatin1String("dtype"), dtype);
    }
    if (!ray.isEmpty())
        o.insert(QLatin1String("ray"), ray);
    if (!fromCapture.isEmpty())
        o.insert(QLatin1String("from_capture"), fromCapture);
    if (!dynamic.isEmpty())
        o.insert(QLatin1String("dynamic"), QJsonArray::fromStringList(dynamic));
    if (hasDynamicBatch())
        o.insert(QLatin1String("dynamic_batch"), QJsonArray{dynamicBatchMin, dynamicBatchMax});
    return o;
}

} // namespace AotStudio::Client
