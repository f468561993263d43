// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "measurement.h"
#include "resultparse.h"
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

/// One repeated block class of a regional compile (FORMAT.md "Regional compile"): one weightless
/// package that every instance runs with its own weights bound at run time.
struct RegionalBlock
{
    QString className;           ///< the module class, e.g. "Block"
    QString module;              ///< the Python module that defines it
    QStringList instances;       ///< module paths in model order, e.g. "blocks.0"
    qint64 parametersPerInstance = 0;
    QString package;             ///< path of the block's `.pt2` on the engine's machine
    double packageBytes = qQNaN(); ///< size of the package (no weights), bytes
    double exportSeconds = qQNaN();  ///< torch.export of the first instance, s
    double compileSeconds = qQNaN(); ///< AOTInductor compile of it, s
    /// export + compile, s (what the regional compile time adds up); NaN when neither is known
    double totalSeconds() const;
};

/**
 * The regional part of a compile result (`mode: "regional"`, FORMAT.md "Regional compile"): the
 * blocks, their compile time and size, the model with compiled blocks timed against eager and,
 * when the whole model was compiled too (`compare_whole`), against it. Missing numbers are NaN.
 */
struct RegionalResult
{
    QList<RegionalBlock> blocks;
    QString layout;                 ///< the folder holding one sub-folder per block class
    double parameterShare = qQNaN(); ///< share of the model's parameters inside compiled blocks, 0..1
    double compileSeconds = qQNaN(); ///< export + compile of every block, s
    double packageBytes = qQNaN();   ///< all block packages together, bytes
    double eagerMs = qQNaN();        ///< eager median, ms
    double medianMs = qQNaN();       ///< the model with compiled blocks, median, ms
    RatioInterval speedupVsEager;   ///< eager median / regional median, with its interval
    /// regional compile seconds / whole compile seconds (one compile each: no interval); NaN
    /// without the whole model
    double compileTimeRatio = qQNaN();

    bool hasWhole = false;               ///< the whole model was compiled to compare (`whole` not null)
    QString wholePackage;                ///< its `.pt2` on the engine's machine
    double wholePackageBytes = qQNaN();  ///< bytes, weights included
    double wholeCompileSeconds = qQNaN(); ///< export + compile of the whole model, s
    double wholeMedianMs = qQNaN();      ///< ms
    RatioInterval speedupVsWhole; ///< whole median / regional median (> 1: regional is faster)

    /// Instances over every block class.
    int instanceCount() const;
};

/**
 * The `regional` and `whole` objects of a regional compile result, with `eager_ms`. Refuses,
 * naming the field ("regional compile result: regional.blocks[0].instances: expected an array"),
 * an object whose fields have the wrong JSON types; absent and null fields are missing. Never
 * throws.
 */
Parsed<RegionalResult> parseRegionalResult(const QJsonObject &result);

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
    /// `mode: "regional"`: no package of its own (package is empty), its blocks in `regional`.
    bool regionalMode = false;
    /// A regional result's blocks and comparisons; null for a whole compile and when
    /// parseRegionalResult() refused it (then regionalError says why).
    std::shared_ptr<const RegionalResult> regional;
    QString regionalError;
    bool isRegional() const { return regionalMode; }

    static CompileResult fromJson(const QJsonObject &result);
};

} // namespace AotStudio::Client
