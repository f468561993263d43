// SPDX-License-Identifier: GPL-3.0-or-later
#include "engineinfo.h"

#include <QJsonArray>

namespace AotStudio::Client {

QString EngineDevice::label() const
{
    if (type == QLatin1String("cuda")) {
        const QString base = QStringLiteral("cuda:%1").arg(index < 0 ? 0 : index);
        return name.isEmpty() ? base : QStringLiteral("%1 (%2)").arg(base, name);
    }
    return type;
}

EngineInfo EngineInfo::fromJson(const QJsonObject &hello)
{
    EngineInfo info;
    info.protocol = hello.value(QLatin1String("protocol")).toInt();
    info.engineVersion = hello.value(QLatin1String("engine_version")).toString();
    info.torchVersion = hello.value(QLatin1String("torch_version")).toString();
    info.cudaVersion = hello.value(QLatin1String("cuda_version")).toString();
    info.pythonVersion = hello.value(QLatin1String("python_version")).toString();
    info.target = hello.value(QLatin1String("target")).toString();
    info.cudaAvailable = hello.value(QLatin1String("cuda_available")).toBool();
    const QJsonArray devices = hello.value(QLatin1String("devices")).toArray();
    for (const auto &value : devices) {
        const QJsonObject o = value.toObject();
        EngineDevice d;
        d.type = o.value(QLatin1String("type")).toString();
        d.index = o.value(QLatin1String("index")).toInt(-1);
        d.name = o.value(QLatin1String("name")).toString();
        d.capability = o.value(QLatin1String("capability")).toString();
        d.memoryBytes = o.value(QLatin1String("memory_bytes")).toInteger();
        info.devices.append(d);
    }
    return info;
}

} // namespace AotStudio::Client
