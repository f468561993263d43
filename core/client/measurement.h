// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <QtNumeric>

namespace AotStudio::Client {

class Session;

/// Latency statistics of one variant (eager or compiled), in milliseconds per forward call.
struct LatencyStats {
    double medianMs = 0;
    double p10Ms = 0;
    double p90Ms = 0;
    double p99Ms = 0;
    int runs = 0;

    static LatencyStats fromJson(const QJsonValue &value);
};

/**
 * A ratio of medians with its confidence interval over the paired blocks (FORMAT.md, "Paired
 * timing, intervals and the machine verdict"). Results older than paired timing have no
 * interval object: fromJson() then keeps the bare estimate, hasObject() is false, and a view
 * says "no interval" instead of showing the figure as if it were certain.
 */
struct RatioInterval {
    double estimate = qQNaN();
    double low = qQNaN(); ///< NaN when there were too few blocks (or no interval at all)
    double high = qQNaN();
    double level = 0.95;
    int blocks = 0;
    int resamples = 0;
    QString method;
    bool fromObject = false; ///< the result carried an interval object (possibly with null bounds)

    bool isValid() const { return !qIsNaN(estimate); }
    bool hasBounds() const { return !qIsNaN(low) && !qIsNaN(high); }
    bool hasObject() const { return fromObject; }
    /// Slower: the whole interval (or, without one, the estimate) is under 1.
    bool isSlower() const { return isValid() && estimate < 1 && (!hasBounds() || high < 1); }
    /// The interval holds 1: no clear difference either way.
    bool straddlesOne() const { return hasBounds() && low <= 1 && high >= 1; }
    /// The interval is wider than the estimate itself (high - low > estimate): the figure says
    /// nothing reliable (issue 35's rule: "2.44× (95% CI 0.010–3.14)" is shown as no reliable
    /// ratio, with the interval as the reason).
    bool isUnreliableWidth() const { return hasBounds() && isValid() && high - low > estimate; }

    /**
     * Parses an interval object; @p bare is the plain ratio next to it (`speedup`, `ratio`),
     * used as the estimate when the object is absent or has none.
     */
    static RatioInterval fromJson(const QJsonValue &interval, const QJsonValue &bare = {});
};

/// The machine's verdict on a measurement (FORMAT.md `measurement`).
struct Measurement {
    enum class Verdict { Missing, Ok, Noisy, Unreliable, Unknown };

    Verdict verdict = Verdict::Missing; ///< Missing: the result predates verdicts
    QString verdictName; ///< as sent ("ok", "noisy", …); empty when missing
    QStringList reasons; ///< sentences naming what made it noisy or unreliable
    QStringList notes; ///< facts that did not change the verdict
    int threads = 0; ///< intra-op threads of every variant; 0 when unknown
    int usableCpus = 0; ///< CPUs the engine may use; 0 when unknown

    bool isPresent() const { return verdict != Verdict::Missing; }
    bool isUnreliable() const { return verdict == Verdict::Unreliable; }

    /// Parses `measurement`; @p threads is the result's own `threads` (used when the
    /// measurement lacks one).
    static Measurement fromJson(const QJsonValue &measurement, const QJsonValue &threads = {});
};

/// Median and interval of one cold-start phase over its runs.
struct PhaseStats {
    double medianMs = qQNaN();
    double lowMs = qQNaN();
    double highMs = qQNaN();
    int runs = 0;

    bool isValid() const { return !qIsNaN(medianMs); }
    bool hasBounds() const { return !qIsNaN(lowMs) && !qIsNaN(highMs); }
    static PhaseStats fromJson(const QJsonValue &value);
};

/**
 * Cold start of a bundle (a fresh aotstudio-run process) against eager PyTorch (a fresh Python
 * process), as `profile` and `export` carry it: medians of wall time from spawn to the first
 * output, in milliseconds, the ratio with its interval and the runtime's phases.
 */
struct ColdStart {
    enum Phase { ToMain, Verify, Load, FirstRun, PhaseCount };

    double bundleMs = qQNaN();
    double eagerMs = qQNaN();
    double ratio = qQNaN(); ///< eagerMs / bundleMs: how many times faster the bundle starts
    RatioInterval ratioInterval;
    PhaseStats phases[PhaseCount];
    int runs = 0;
    int bundleRunsOk = -1; ///< -1 when the result does not say
    int eagerRunsOk = -1;

    /// False when the engine did not measure it (no runs asked for, or no runner next to it).
    bool isMeasured() const { return !qIsNaN(bundleMs) && !qIsNaN(eagerMs); }
    bool hasPhases() const;
    /// The key of @p phase in `phases` ("to_main_ms", …).
    static QLatin1String phaseKey(Phase phase);

    /// Accepts `bundle_ms` and, from recordings before it, `aoti_run_ms`.
    static ColdStart fromJson(const QJsonValue &coldStart);
};

/**
 * The speedup a screen shows for a model: from the compile's quick measurement, or from a later
 * profile of the same model, device and dtype that supersedes it. Every view (result panel,
 * report) asks current() so that they show the same figure for the same job.
 */
struct SpeedupFigure {
    enum class Source { None, Compile, Profile };

    Source source = Source::None;
    qint64 job = 0; ///< the job it came from
    QDateTime measuredAt; ///< the profile's `created` (local time); invalid for a compile
    QString model;
    QString device;
    double eagerMs = qQNaN();
    double compiledMs = qQNaN();
    LatencyStats eager;
    LatencyStats compiled;
    RatioInterval speedup;
    Measurement measurement;

    bool isValid() const { return source != Source::None; }

    static SpeedupFigure fromCompile(const QJsonObject &compileResult, qint64 job = 0);
    /// The `aoti` variant of a profile result.
    static SpeedupFigure fromProfile(const QJsonObject &profileResult, qint64 job = 0);
    /// The latest succeeded compile, or a later succeeded profile of the same model, device and
    /// dtype; Source::None when the session has no compile.
    static SpeedupFigure current(const Session &session);
    /// True when @p profile measured what @p compile did (model, device and, when both say, dtype).
    static bool sameSubject(const QJsonObject &compile, const QJsonObject &profile);
};

} // namespace AotStudio::Client
