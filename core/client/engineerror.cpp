// SPDX-License-Identifier: GPL-3.0-or-later
#include "engineerror.h"

namespace AotStudio::Client {

EngineError EngineError::fromJson(const QJsonObject &event)
{
    return EngineError{event.value(QLatin1String("stage")).toString(),
                       event.value(QLatin1String("code")).toString(),
                       event.value(QLatin1String("message")).toString(),
                       event.value(QLatin1String("hint")).toString()};
}

} // namespace AotStudio::Client
