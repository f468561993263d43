// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "measurement.h"
#include "resultparse.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QtNumeric>

namespace AotStudio::Client {

/// The error one quantized layer alone adds against its fp32 layer (`schemes[].layers[]`).
struct QuantizeLayer {
    QString name; ///< module path, e.g. `encoder.layers.0.linear1`
    QString type; ///< module class, e.g. `Linear`
    double maxAbsError = qQNaN();
    double meanAbsError = qQNaN();
    double cosine = qQNaN();
};

/// One scheme row of a `quantize` result (FORMAT.md "quantize result"). Missing or null numbers are NaN.
struct QuantizeScheme {
    QString scheme;
    QString status; ///< `ok`, `unsupported` or `failed`
    QString reason; ///< why a row is not `ok`, as sent
    QString stage; ///< the failing stage of a `failed` row
    QString hint;
    double eagerMs = qQNaN(); ///< median of the quantized eager model, ms
    double compiledMs = qQNaN(); ///< median of the scheme's package, ms
    double speedupVsFp32Eager = qQNaN(); ///< fp32 eager median / compiledMs
    RatioInterval speedupVsFp32EagerInterval; ///< with its interval (bare in older results)
    RatioInterval speedupInterval; ///< eagerMs / compiledMs of this scheme, with its interval
    double fp32EagerMs = qQNaN(); ///< fp32 eager median timed in the same rounds, ms
    Measurement measurement; ///< this row's verdict (Missing in older results)
    double peakEagerBytes = qQNaN(); ///< peak memory of one eager forward, bytes
    double peakCompiledBytes = qQNaN(); ///< peak memory of one package forward, bytes
    double packageBytes = qQNaN(); ///< the package's size on disk, bytes
    double maxAbsError = qQNaN(); ///< against fp32 eager
    double meanAbsError = qQNaN();
    double cosine = qQNaN();
    double top1Agreement = qQNaN(); ///< fraction 0..1, classifiers only
    double embeddingCosine = qQNaN();
    int quantizedLayers = 0;
    QStringList quantizedOps;
    QList<QuantizeLayer> layers; ///< the per-layer error table
    /// The error of each output alone against fp32 eager (`accuracy.outputs`), `name` the
    /// forward's output name (`logits`, `extra.mask`) and `type` empty; empty in older results.
    QList<QuantizeLayer> outputs;
    QString out; ///< OUT/<scheme>
    QString package;
    /// Where the row was measured (FORMAT.md "Fan-out on a Ray cluster"): the engine's host, the
    /// device's name (e.g. "NVIDIA H200", "cpu") and the Ray node id (empty when run locally).
    /// Empty in older results. Its ratios are its own, taken in one process on that host.
    QString host;
    QString deviceName;
    QString node;
    bool best = false; ///< the fastest `ok` scheme within the result's `best.max_error`

    bool isOk() const { return status == QLatin1String("ok"); }
};

/**
 * A `quantize` result (FORMAT.md "quantize result"), parsed once by the Session and shared by the
 * quantization panel, its models and the report. Immutable once parsed.
 */
struct QuantizeResult {
    QString model;
    QString device;
    QString baseline = QStringLiteral("fp32");
    int calibrationSamples = 0;
    int evaluationSamples = 0;
    QString peakMethod;
    int threads = 0; ///< intra-op threads of every scheme; 0 when not stated
    QList<QuantizeScheme> schemes;
    QString bestScheme; ///< empty when the result has none
    double maxError = qQNaN(); ///< `best.max_error`; NaN when absent
    /// `best.by`: `compiled_ms` (one host: the lowest median) or `speedup_vs_fp32_eager` (rows
    /// from several hosts: each row's own ratio, since medians of two hosts are never compared).
    QString bestBy;
    QString rayAddress; ///< `ray.address`: the Ray cluster the schemes ran on; empty when run here
    bool severalHosts = false; ///< rows were measured on more than one host (by `host`)
    QString csv;
    QString json;

    /// The row of `scheme`, or nullptr.
    const QuantizeScheme *find(const QString &scheme) const;
    /// Lenient: what could be read up to the first field of the wrong type (parseQuantizeResult() refuses it).
    static QuantizeResult fromJson(const QJsonObject &result);
};

/// Parses a `quantize` result; refuses (with the field named) an object whose fields have the
/// wrong JSON types. Never throws.
Parsed<QuantizeResult> parseQuantizeResult(const QJsonObject &result);
/// The same from the bytes of `quantize.json` (anything: not JSON, not an object, … is refused).
Parsed<QuantizeResult> parseQuantizeResult(const QByteArray &json);

} // namespace AotStudio::Client
