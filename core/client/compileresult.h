// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "measurement.h"
#include "verifyresult.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QtNumeric>

namespace AotStudio::Client {

/// The typed view of a `compile` result object (FORMAT.md, "compile result").
/// Missing numbers stay NaN so a panel can show "—" instead of a made-up zero.
/// One tensor the package takes or gives: its name (forward's parameter or the pytree path, e.g.
/// "attention_mask", "cfg.scale", "logits"), shape (sizes; symbolic sizes as -1) and dtype.
struct TensorInfo
{
    QString name;
    QList<qint64> shape;
    QString dtype;
    /// "attention_mask [2, 16] int64"
    QString text() const;
    static QList<TensorInfo> listFromJson(const QJsonValue &array);
};

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
    RatioInterval speedupInterval; ///< speedup with its 95% interval (bare estimate in older results)
    Measurement measurement;       ///< the machine's verdict (Missing in older results)
    int threads = 0;               ///< intra-op threads of eager and compiled; 0 when not stated
    int runs = 0;                ///< the smaller of the two variants' counts
    LatencyStats eager;
    LatencyStats compiled;
    VerifyResult verify;   ///< per-output verification (isPresent() false in older results)
    QList<TensorInfo> inputs;  ///< the package's inputs in its order (names empty in older results)
    QStringList warnings;  ///< e.g. noisy timings; empty when the engine sent none
    /// warnings without the "measurement: …" line that repeats the verdict (shown on its own)
    QStringList otherWarnings() const;
    QJsonObject raw;       ///< the whole object, for fields this struct does not know yet

    static CompileResult fromJson(const QJsonObject &result);
};

} // namespace AotStudio::Client
