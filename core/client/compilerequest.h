// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QString>

namespace AotStudio::Client {

/// Parameters of a `compile` request (FORMAT.md, Requests).
struct CompileRequest
{
    QString model;                 ///< "sample:NAME" or "path/file.py:factory"
    QString device = QStringLiteral("cpu"); ///< "cpu" or "cuda"
    QString out;                   ///< job directory, absolute path on the engine's machine
    int warmup = 5;                ///< untimed runs before measuring
    int runs = 200;                ///< most timed runs per variant (the engine stops earlier once the median is stable)
    double tolerance = 1e-3;       ///< max abs error allowed between compiled and eager outputs
    /// Example inputs at other shapes (FORMAT.md "shapes"): input name or index -> [d0, d1, ...];
    /// empty: the model's own shapes, not sent. Every request built on this one carries it.
    QJsonObject shapes;

    /// The request line's object, with the given request id.
    QJsonObject toJson(qint64 id) const;
};

} // namespace AotStudio::Client
