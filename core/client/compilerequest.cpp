// SPDX-License-Identifier: GPL-3.0-or-later
#include "compilerequest.h"

namespace AotStudio::Client {

QJsonObject CompileRequest::toJson(qint64 id) const
{
    QJsonObject o{{QLatin1String("type"), QLatin1String("compile")},
                       {QLatin1String("id"), id},
                       {QLatin1String("model"), model},
                       {QLatin1String("device"), device},
                       {QLatin1String("out"), out},
                       {QLatin1String("warmup"), warmup},
                       {QLatin1String("runs"), runs},
                       {QLatin1String("tolerance"), tolerance}};
    if (!shapes.isEmpty())
        o.insert(QLatin1String("shapes"), shapes);
    return o;
}

} // namespace AotStudio::Client
