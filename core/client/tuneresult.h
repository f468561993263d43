// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "measurement.h"
#include "resultparse.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QtNumeric>

namespace AotStudio::Client {

/// One trial of a tune (FORMAT.md "tune result", `rows`), or a baseline (eager, torch.compile).
struct TuneRow {
    QString name; ///< defaults, freezing, max_autotune, ... (a baseline: eager, torch.compile)
    QString kind; ///< aoti, eager, torch.compile
    QJsonObject options; ///< the option set: freezing, max_autotune, dtype, inductor
    QString note;
    QString status; ///< ok, failed, skipped, cancelled
    QString reason;
    QString dtype;
    QString package;
    double packageBytes = qQNaN();
    double compileSeconds = qQNaN();
    double maxAbsError = qQNaN(); ///< against eager (compile's verify); NaN for a baseline
    double medianMs = qQNaN();
    RatioInterval speedupVsDefaults; ///< > 1: faster than the `defaults` trial
    RatioInterval speedupVsTorchCompile;
    RatioInterval speedupVsEager;
    bool pareto = false;
    bool baseline = false; ///< from `baselines`

    bool ok() const { return status.isEmpty() || status == QLatin1String("ok"); }
    bool measured() const { return ok() && !qIsNaN(medianMs); }
};

/**
 * A `tune` result (FORMAT.md "tune result", also OUT/tune.json), parsed once: the trials, the
 * baselines, the Pareto front and the chosen recipe. Immutable once parsed.
 */
struct TuneResult {
    QString model, device, dtype, torchVersion, out, recipePath;
    double budgetSeconds = qQNaN();
    double maxError = qQNaN();
    QList<TuneRow> rows;
    QList<TuneRow> baselines;
    QStringList front;
    QJsonObject recipe; ///< the chosen recipe (empty when none qualified)
    QString recipeName; ///< its trial's name
    Measurement measurement;
    QStringList warnings;

    /// The trial or baseline named `name`; nullptr when none.
    const TuneRow *find(const QString &name) const;
    /**
     * A recipe (FORMAT.md "Recipe", format aotstudio.recipe) of trial `row`: its options
     * (freezing, max_autotune, dtype, inductor) and what the tune measured. `created` is an ISO
     * 8601 time.
     */
    QJsonObject recipeFor(const TuneRow &row, const QString &created) const;
};

/// Reads a tune result object; refused (naming the field) when a field has the wrong type.
Parsed<TuneResult> parseTuneResult(const QJsonObject &result);
/// The same from the bytes of OUT/tune.json.
Parsed<TuneResult> parseTuneResult(const QByteArray &json);

} // namespace AotStudio::Client
