// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QtNumeric>

#include <optional>

namespace AotStudio::Client {

struct EngineError;
struct LogRecord;

/// One output of the forward as verify compared it (FORMAT.md `verify.outputs`).
struct VerifyOutput {
    QString name; ///< pytree path: `logits`, `0`, `extra.hidden.1`; `output` for a single tensor
    QList<qint64> shape;
    QString dtype;
    double maxAbsError = qQNaN();
    double maxRelError = qQNaN();
    double cosine = qQNaN();
    std::optional<bool> passed; ///< unset when the source did not say
    /// Reduced precision: max abs against the higher-precision reference (NaN otherwise).
    double compiledReferenceError = qQNaN();
    double eagerReferenceError = qQNaN();

    bool hasReferenceErrors() const { return !qIsNaN(compiledReferenceError) || !qIsNaN(eagerReferenceError); }
    /// "[8, 10]"; "—" when the shape is unknown.
    QString shapeText() const;
};

/// One verify call: the example input, its second call (stateful) or a seeded input.
struct VerifyCall {
    int index = 0;
    QString source; ///< `example`, `example, second call`, `seeded`
    int seed = -1; ///< -1 when none
    double maxAbsError = qQNaN();
    QString skipped; ///< why eager itself raised on it (then not compared); empty when compared
};

/**
 * The `verify` object of a compile result (FORMAT.md, "verify"): the verdict line, the mode
 * (compiled against eager, or for bf16/fp16 against a higher-precision reference), the calls and
 * every output's figures. Results before per-output verification have none: isPresent() is false
 * and a view shows the overall max abs error as it did.
 */
struct VerifyResult {
    enum class Mode { Eager, ReducedPrecision };

    bool present = false;
    bool passed = false;
    Mode mode = Mode::Eager;
    QString modeName; ///< as sent
    double tolerance = qQNaN();
    QString verdict; ///< the engine's sentence ("passed: 2 outputs within 0.001 of eager …")
    QString referenceDtype; ///< reduced precision: `float64` or `float32`; empty without a reference
    QString referenceNote; ///< why no reference was usable (the eager rule applied)
    bool stateful = false;
    QStringList mutatedState; ///< buffers forward() changes
    int seededInputs = 0;
    QList<VerifyCall> calls;
    QList<VerifyOutput> outputs;
    QStringList memoryFormats; ///< each example input's `memory_format`

    bool isPresent() const { return present; }
    bool isReducedPrecision() const { return mode == Mode::ReducedPrecision; }
    /// Calls actually compared (skipped seeded inputs left out).
    int comparedCalls() const;
    int skippedCalls() const { return int(calls.size()) - comparedCalls(); }
    /// Outputs whose `passed` is false.
    QStringList failedOutputs() const;

    /// Parses `result.verify`; without it present() is false.
    static VerifyResult fromJson(const QJsonObject &compileResult);
};

/**
 * What is known about a failed verification (an `error` with code `mismatch`): the output its
 * message names and every output's figures from the job's log ("verify output 'NAME' [8, 10]
 * float32: max abs …"), the failed ones logged as warnings.
 */
struct VerifyFailure {
    QString failedOutput; ///< the output the message names; empty when it names none
    QList<VerifyOutput> outputs; ///< from the log; empty when it had no such lines

    bool isEmpty() const { return failedOutput.isEmpty() && outputs.isEmpty(); }

    /// The output named in a mismatch message ("compiled output 'logits' differs …"); empty when
    /// @p error is not a mismatch or names none.
    static QString failedOutputOf(const EngineError &error);
    /// One log line of verify's per-output table, or nullopt when @p message is not one.
    static std::optional<VerifyOutput> parseLogLine(const QString &level, const QString &message);
    /// @p error's failed output and the per-output lines of job @p job in @p logs.
    static VerifyFailure fromError(const EngineError &error, const QList<LogRecord> &logs, qint64 job);
};

} // namespace AotStudio::Client
