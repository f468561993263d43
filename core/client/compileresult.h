// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QtNumeric>

namespace AotStudio::Client {

/// Latency statistics of one variant (eager or compiled), in milliseconds per forward call.
struct LatencyStats
{
    double medianMs = 0;
    double p10Ms = 0;
    double p90Ms = 0;
    double p99Ms = 0;
    int runs = 0;
};

/// The typed view of a `compile` result object (FORMAT.md, "compile result").
/// Missing numbers stay NaN so a panel can show "—" instead of a made-up zero.
struct CompileResult
{
    QString model;
    QString device;
    QString package;       ///< path of the `.pt2` on the engine's machine
    QString torchVersion;
    double maxAbsError = qQNaN();
    double maxRelError = qQNaN();
    double tolerance = qQNaN();
    double eagerMs = qQNaN();    ///< median wall time of eager forward, ms
    double compiledMs = qQNaN(); ///< median wall time of the AOTI package forward, ms
    double speedup = qQNaN();    ///< eagerMs / compiledMs
    int runs = 0;                ///< the smaller of the two variants' counts
    LatencyStats eager;
    LatencyStats compiled;
    QStringList warnings;  ///< e.g. noisy timings; empty when the engine sent none
    QJsonObject raw;       ///< the whole object, for fields this struct does not know yet

    static CompileResult fromJson(const QJsonObject &result);
};

} // namespace AotStudio::Client
