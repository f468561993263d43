// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace AotStudio::Client {

/**
 * Parameters of an `export` request (FORMAT.md, Requests; the bundle: core/runtime/BUNDLE.md).
 * The engine compiles one package per batch bucket, writes them with a manifest into a new
 * bundle folder and, unless told otherwise, a `.zip` of it next to the folder.
 */
struct ExportRequest
{
    /// A compile output directory: model, device and dtype come from its result.json.
    /// When empty, model and device (and dtype, if set) are sent instead.
    QString from;
    QString model;                 ///< "sample:NAME" or "path/file.py:factory"; ignored with `from`
    QString device;                ///< "cpu" or "cuda"; ignored with `from`
    QString dtype;                 ///< "fp32", "bf16" or "fp16"; empty: the engine's default
    QString out;                   ///< bundle folder to create; the engine refuses an existing one
    QList<int> buckets{1};         ///< exact batch sizes, one package each
    /// Inclusive batch range of one extra package with a dynamic batch dimension;
    /// 0 for both means no dynamic bucket (the field is left out of the request).
    int dynamicBatchMin = 0;
    int dynamicBatchMax = 0;
    bool padSafe = false;          ///< rows are independent: a smaller batch may be zero-padded
    bool zip = true;               ///< also write `<out>.zip`
    int coldStartRuns = 3;         ///< fresh-process cold-start timings; 0 skips them
    /// HOST:PORT of a Ray cluster's head: each bucket's compile a Ray task (FORMAT.md "Fan-out on a
    /// Ray cluster"); empty: compiled here, and not sent.
    QString ray;
    /// A folder `capture` wrote (FORMAT.md "export" `from_capture`): the result then says what
    /// share of the recorded calls each bucket serves and its padding waste; empty: not sent.
    QString fromCapture;
    /// Dynamic dimensions besides the batch ("INPUT:DIM[:MIN:MAX][=NAME]"); empty: not sent.
    QStringList dynamic;

    bool hasDynamicBatch() const { return dynamicBatchMin > 0 && dynamicBatchMax > 0; }

    /// The request line's object, with the given request id.
    QJsonObject toJson(qint64 id) const;
};

} // namespace AotStudio::Client
