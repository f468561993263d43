// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobrequest.h"

#include <QJsonArray>

namespace AotStudio::Client {

namespace {
QJsonObject common(const CompileRequest &compile, const char *type, qint64 id, double maxSeconds, int threads)
{
    QJsonObject o = compile.toJson(id);
    o.insert(QLatin1String("type"), QLatin1String(type));
    o.insert(QLatin1String("max_seconds"), maxSeconds);
    if (threads > 0) // else the engine uses every CPU this process may use, and says how many
        o.insert(QLatin1String("threads"), threads);
    return o;
}
} // namespace

QJsonObject ProfileRequest::toJson(qint64 id) const
{
    QJsonObject o = common(compile, "profile", id, maxSeconds, threads);
    o.insert(QLatin1String("dtype"), dtype);
    o.insert(QLatin1String("freezing"), freezing);
    o.insert(QLatin1String("max_autotune"), maxAutotune);
    QJsonArray runners;
    for (int n : throughputRunners)
        runners.append(n);
    o.insert(QLatin1String("throughput"), runners);
    o.insert(QLatin1String("cold_start_runs"), coldStartRuns);
    if (!replayRates.isEmpty()) {
        QJsonArray rates;
        for (double r : replayRates)
            rates.append(r);
        o.insert(QLatin1String("replay"),
            QJsonObject{{QLatin1String("rates"), rates}, {QLatin1String("seconds"), replaySeconds}});
    }
    if (!package.isEmpty())
        o.insert(QLatin1String("package"), package);
    return o;
}

QJsonObject QuantizeRequest::toJson(qint64 id) const
{
    QJsonObject o = common(compile, "quantize", id, maxSeconds, threads);
    o.remove(QLatin1String("tolerance")); // per scheme, chosen by the engine
    o.insert(QLatin1String("schemes"), QJsonArray::fromStringList(schemes));
    o.insert(QLatin1String("calibration_samples"), calibrationSamples);
    o.insert(QLatin1String("eval_samples"), evalSamples);
    if (maxError > 0)
        o.insert(QLatin1String("max_error"), maxError);
    if (!ray.isEmpty())
        o.insert(QLatin1String("ray"), ray);
    return o;
}

} // namespace AotStudio::Client
