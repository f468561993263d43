// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "resultparse.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <QtNumeric>

#include <optional>

namespace AotStudio::Client {

/// One side's error at a node or output against the float64 reference (FORMAT.md "numerics
/// result"). Non-finite errors sent as "nan"/"inf" read as NaN/infinity; absent ones as NaN.
struct NumericsError {
    double maxAbs = qQNaN();
    double normError = qQNaN(); ///< max |x − reference| / max |reference|
    double maxRel = qQNaN();
    double cosine = qQNaN();
    double growth = qQNaN(); ///< norm_error over the largest of its inputs'; NaN without inputs in error
    bool diverges = false; ///< norm_error above the tolerance (NaN diverges)
};

/// One node of the capture graph with the errors of eager and compiled.
struct NumericsNode {
    QString name; ///< the capture snapshot's node name
    QString target, module, source, dtype;
    QList<qint64> shape;
    QStringList inputs;
    std::optional<NumericsError> eager;
    std::optional<NumericsError> compiled; ///< empty where the node has no exposed value
};

/// The first node past the tolerance on one side (its inputs are within it: the error starts there).
struct NumericsDivergence {
    QString node, target, module, source;
    double normError = qQNaN();
};

/// One output of the model: each side's error and which one is closer to the reference.
struct NumericsOutput {
    QString name, node;
    std::optional<NumericsError> eager, compiled;
    QString closer; ///< compiled, eager, tie or empty
};

/**
 * A `numerics` result (FORMAT.md "numerics result", also OUT/numerics.json), parsed once: per
 * node of the capture snapshot the errors of eager and compiled against a float64 reference, the
 * first divergent node of each side, the outputs and the verdict. Immutable once parsed.
 */
struct NumericsResult {
    enum class Side { Eager, Compiled };

    QString model, device, dtype, referenceDtype, stage;
    double tolerance = qQNaN();
    QList<NumericsNode> nodes;
    std::optional<NumericsDivergence> firstEager, firstCompiled;
    QList<NumericsOutput> outputs;
    QString verdict;
    QStringList warnings;
    QString out; ///< the job folder

    /// The node named `name`; nullptr when the result has none.
    const NumericsNode *find(const QString &name) const;
    /// `side`'s first divergent node, if any.
    const std::optional<NumericsDivergence> &firstDivergent(Side side) const
    {
        return side == Side::Eager ? firstEager : firstCompiled;
    }
    /// Node name -> `side`'s norm_error, for nodes that have one.
    QHash<QString, double> normErrors(Side side) const;
};

/// Reads a numerics result object; refused (naming the field) when a field has the wrong type.
Parsed<NumericsResult> parseNumericsResult(const QJsonObject &result);
/// The same from the bytes of OUT/numerics.json.
Parsed<NumericsResult> parseNumericsResult(const QByteArray &json);

} // namespace AotStudio::Client
