// SPDX-License-Identifier: GPL-3.0-or-later
#include "measurement.h"

#include "enginetext.h"

#include "session.h"

#include <QJsonArray>

namespace AotStudio::Client {

namespace {
double number(const QJsonValue &v)
{
    return v.isDouble() ? v.toDouble() : qQNaN();
}

} // namespace

RatioInterval RatioInterval::fromJson(const QJsonValue &interval, const QJsonValue &bare)
{
    RatioInterval r;
    const QJsonObject o = interval.toObject();
    r.fromObject = interval.isObject();
    r.estimate = number(o.value(QLatin1String("estimate")));
    if (qIsNaN(r.estimate))
        r.estimate = number(bare);
    r.low = number(o.value(QLatin1String("low")));
    r.high = number(o.value(QLatin1String("high")));
    if (qIsNaN(r.low) || qIsNaN(r.high)) // one bound alone is no interval
        r.low = r.high = qQNaN();
    const double level = number(o.value(QLatin1String("level")));
    if (level > 0 && level < 1)
        r.level = level;
    r.blocks = o.value(QLatin1String("blocks")).toInt();
    r.resamples = o.value(QLatin1String("resamples")).toInt();
    r.method = o.value(QLatin1String("method")).toString();
    return r;
}

Measurement Measurement::fromJson(const QJsonValue &value, const QJsonValue &threads)
{
    Measurement m;
    const QJsonObject o = value.toObject();
    m.verdictName = o.value(QLatin1String("verdict")).toString();
    if (m.verdictName == QLatin1String("ok"))
        m.verdict = Verdict::Ok;
    else if (m.verdictName == QLatin1String("noisy"))
        m.verdict = Verdict::Noisy;
    else if (m.verdictName == QLatin1String("unreliable"))
        m.verdict = Verdict::Unreliable;
    else if (!m.verdictName.isEmpty()) // "unknown", or a word a newer engine added: not trusted
        m.verdict = Verdict::Unknown;
    m.reasons = EngineText::list(o, QStringLiteral("reasons"));
    m.notes = EngineText::list(o, QStringLiteral("notes"));
    m.threads = o.value(QLatin1String("threads")).toInt();
    if (m.threads <= 0)
        m.threads = threads.toInt();
    m.usableCpus = o.value(QLatin1String("usable_cpus")).toInt();
    return m;
}

LatencyStats LatencyStats::fromJson(const QJsonValue &value)
{
    const QJsonObject o = value.toObject();
    return LatencyStats { number(o.value(QLatin1String("median_ms"))), number(o.value(QLatin1String("p10_ms"))),
        number(o.value(QLatin1String("p90_ms"))), number(o.value(QLatin1String("p99_ms"))),
        o.value(QLatin1String("runs")).toInt() };
}

PhaseStats PhaseStats::fromJson(const QJsonValue &value)
{
    const QJsonObject o = value.toObject();
    PhaseStats p;
    p.medianMs = number(o.value(QLatin1String("median_ms")));
    p.lowMs = number(o.value(QLatin1String("low_ms")));
    p.highMs = number(o.value(QLatin1String("high_ms")));
    p.runs = o.value(QLatin1String("runs")).toInt();
    return p;
}

bool ColdStart::hasPhases() const
{
    for (const PhaseStats &p : phases) {
        if (p.isValid())
            return true;
    }
    return false;
}

QLatin1String ColdStart::phaseKey(Phase phase)
{
    switch (phase) {
    case ToMain:
        return QLatin1String("to_main_ms");
    case Verify:
        return QLatin1String("verify_ms");
    case Load:
        return QLatin1String("load_ms");
    case FirstRun:
    case PhaseCount:
        break;
    }
    return QLatin1String("first_run_ms");
}

ColdStart ColdStart::fromJson(const QJsonValue &value)
{
    const QJsonObject o = value.toObject();
    ColdStart c;
    c.bundleMs = number(o.value(QLatin1String("bundle_ms")));
    if (qIsNaN(c.bundleMs))
        c.bundleMs = number(o.value(QLatin1String("aoti_run_ms")));
    c.eagerMs = number(o.value(QLatin1String("eager_ms")));
    c.ratio = number(o.value(QLatin1String("ratio")));
    c.ratioInterval
        = RatioInterval::fromJson(o.value(QLatin1String("ratio_interval")), o.value(QLatin1String("ratio")));
    if (qIsNaN(c.ratio))
        c.ratio = c.ratioInterval.estimate;
    c.runs = o.value(QLatin1String("runs")).toInt();
    for (const char *key : { "bundle_runs_ok", "aoti_runs_ok" }) {
        if (o.value(QLatin1String(key)).isDouble()) {
            c.bundleRunsOk = o.value(QLatin1String(key)).toInt();
            break;
        }
    }
    if (o.value(QLatin1String("eager_runs_ok")).isDouble())
        c.eagerRunsOk = o.value(QLatin1String("eager_runs_ok")).toInt();
    const QJsonObject phases = o.value(QLatin1String("phases")).toObject();
    for (int i = 0; i < PhaseCount; ++i)
        c.phases[i] = PhaseStats::fromJson(phases.value(phaseKey(Phase(i))));
    return c;
}

SpeedupFigure SpeedupFigure::fromCompile(const QJsonObject &r, qint64 job)
{
    SpeedupFigure f;
    f.source = Source::Compile;
    f.job = job;
    f.model = r.value(QLatin1String("model")).toString();
    f.device = r.value(QLatin1String("device")).toString();
    f.eagerMs = number(r.value(QLatin1String("eager_ms")));
    f.compiledMs = number(r.value(QLatin1String("compiled_ms")));
    f.eager = LatencyStats::fromJson(r.value(QLatin1String("eager")));
    f.compiled = LatencyStats::fromJson(r.value(QLatin1String("compiled")));
    f.speedup = RatioInterval::fromJson(r.value(QLatin1String("speedup_interval")), r.value(QLatin1String("speedup")));
    f.measurement = Measurement::fromJson(r.value(QLatin1String("measurement")), r.value(QLatin1String("threads")));
    return f;
}

SpeedupFigure SpeedupFigure::fromProfile(const QJsonObject &r, qint64 job)
{
    SpeedupFigure f;
    f.source = Source::Profile;
    f.job = job;
    f.model = r.value(QLatin1String("model")).toString();
    f.device = r.value(QLatin1String("device")).toString();
    f.measuredAt = QDateTime::fromString(r.value(QLatin1String("created")).toString(), Qt::ISODate).toLocalTime();
    for (const QJsonValue &value : r.value(QLatin1String("variants")).toArray()) {
        const QJsonObject v = value.toObject();
        const LatencyStats stats = LatencyStats::fromJson(v.value(QLatin1String("statistics")));
        if (v.value(QLatin1String("name")).toString() == QLatin1String("eager")) {
            f.eager = stats;
            f.eagerMs = stats.medianMs;
        } else if (v.value(QLatin1String("name")).toString() == QLatin1String("aoti")) {
            f.compiled = stats;
            f.compiledMs = stats.medianMs;
        }
    }
    f.speedup
        = RatioInterval::fromJson(r.value(QLatin1String("speedup_interval")).toObject().value(QLatin1String("aoti")),
            r.value(QLatin1String("speedup")).toObject().value(QLatin1String("aoti")));
    f.measurement = Measurement::fromJson(r.value(QLatin1String("measurement")), r.value(QLatin1String("threads")));
    return f;
}

bool SpeedupFigure::sameSubject(const QJsonObject &compile, const QJsonObject &profile)
{
    const auto same = [&](const char *key, bool required) {
        const QString a = compile.value(QLatin1String(key)).toString();
        const QString b = profile.value(QLatin1String(key)).toString();
        if (a.isEmpty() || b.isEmpty())
            return !required;
        return a == b;
    };
    return same("model", true) && same("device", true) && same("dtype", false);
}

SpeedupFigure SpeedupFigure::current(const Session &session)
{
    const JobRecord *compile = session.latestSucceeded(QStringLiteral("compile"));
    if (!compile)
        return {};
    const JobRecord *profile = session.latestSucceeded(QStringLiteral("profile"));
    if (profile && profile->id > compile->id && sameSubject(compile->result, profile->result)) {
        SpeedupFigure f = fromProfile(profile->result, profile->id);
        if (f.speedup.isValid())
            return f;
    }
    return fromCompile(compile->result, compile->id);
}

} // namespace AotStudio::Client
