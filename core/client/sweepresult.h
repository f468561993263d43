// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QtNumeric>

#include <optional>

namespace AotStudio::Client {

/// One dynamic dimension of a swept package (FORMAT.md "sweep result", `targets[].symbols`).
struct SweepSymbol {
    QString label; ///< the user's name, or "x.shape[0]"
    std::optional<qint64> min;
    std::optional<qint64> max; ///< unset: unbounded
    qint64 example = 0;
    qint64 upperTried = 0;
    /// "2..32", "2..∞".
    QString rangeText() const;
};

/// One shape a sweep verified.
struct SweepPoint {
    enum class Outcome { Match, Mismatch, EagerError, Refused, NotRefused, Error, Crashed, Hung, Unknown };

    int index = 0;
    QMap<QString, qint64> values; ///< symbol label -> size
    QStringList varied; ///< the symbols changed from the example (0, 1 or 2)
    QList<QList<qint64>> shapes; ///< one per input
    QStringList reasons; ///< why it was chosen ("range end", "guard x % 2 == 0: fails", …)
    bool relation = false; ///< shapes that break a relation between dimensions
    bool expectedMatch = true; ///< false: the guards refuse it
    QString refusal; ///< the guards' message when they refuse it
    Outcome outcome = Outcome::Unknown;
    QString outcomeName; ///< as sent
    bool ok = false; ///< the outcome is what the guards promise
    QString message;
    double maxAbsError = qQNaN();

    /// "[8, 64] [8, 64]".
    QString shapesText() const;
    static Outcome outcomeFromName(const QString &name);
};

/// One package of a sweep (a bundle has one per bucket).
struct SweepTarget {
    QString name;
    QString package;
    QString guards; ///< InputGuards::describe()
    QString guardsOrigin; ///< where the guards came from
    QList<SweepSymbol> symbols;
    QList<SweepPoint> points;
    int single = 0, pairs = 0, leftOut = 0;
    QStringList notes;

    /// The points varying `symbol` alone (relation points left out), by size.
    QList<SweepPoint> strip(const QString &symbol) const;
    /// The points varying exactly `a` and `b`.
    QList<SweepPoint> grid(const QString &a, const QString &b) const;
};

/// One row of a bundle's bucket policy check.
struct SweepPolicyRow {
    qint64 batch = 0;
    QString bucket; ///< empty: no bucket answers it
    bool padded = false;
    qint64 padTo = 0;
    QString outcome;
    bool ok = false;
    QString message;
};

/**
 * A `sweep` result (FORMAT.md "sweep result"), parsed once: the verdict, per package its
 * dimensions and points, and a bundle's bucket policy rows. Immutable once parsed; views share it.
 */
struct SweepResult {
    QString kind; ///< `package`, `bundle` or `model`
    QString model;
    QString device;
    bool passed = false;
    int points = 0;
    int failures = 0;
    QString verdict;
    QList<SweepTarget> targets;
    QList<SweepPolicyRow> policy;
    QString sweepJson; ///< OUT/sweep.json

    bool isEmpty() const { return targets.isEmpty(); }
    static SweepResult fromJson(const QJsonObject &json);
};

} // namespace AotStudio::Client
