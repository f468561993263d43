// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QString>

namespace AotStudio::Client {

/// Display names of the engine's job stages (FORMAT.md: load, export, decompose, compile,
/// load_package, verify, measure; an export job adds cold_start and package). The one place that
/// turns a protocol word into words for people, so a stage reads the same in the progress label,
/// the log and the error panel.
class StageNames
{
    Q_DECLARE_TR_FUNCTIONS(AotStudio::Client::StageNames)
public:
    /// The translated name of a known stage; an unknown stage (a newer engine's) is returned as is.
    static QString displayName(const QString &stage);
};

} // namespace AotStudio::Client
