// SPDX-License-Identifier: GPL-3.0-or-later
#include "engineerror.h"

#include "enginetext.h"

namespace AotStudio::Client {

EngineError EngineError::fromJson(const QJsonObject &event)
{
    return EngineError{event.value(QLatin1String("stage")).toString(),
                       event.value(QLatin1String("code")).toString(),
                       EngineText::field(event, QStringLiteral("message")),
                       EngineText::field(event, QStringLiteral("hint")),
                       event.value(QLatin1String("where")).toObject()};
}

} // namespace AotStudio::Client
