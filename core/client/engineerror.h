// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QString>

namespace AotStudio::Client {

/// An `error` event: which stage failed, a machine-readable code (FORMAT.md lists them, plus
/// the client's own `engine_restarted`), what failed and what the user can do about it.
struct EngineError
{
    QString stage;
    QString code;
    QString message;
    QString hint;
    /// Where in the user's code it failed (FORMAT.md "Where it failed"): `frames` (the user's own
    /// frames, innermost last) and `excerpt` (the source around the failing line); empty when the
    /// failure is not in the user's code or the engine predates it.
    QJsonObject where = {};

    static EngineError fromJson(const QJsonObject &event);
    bool isCancellation() const { return code == QLatin1String("cancelled"); }
};

} // namespace AotStudio::Client
