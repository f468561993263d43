// SPDX-License-Identifier: GPL-3.0-or-later
#include "verifyresult.h"

#include "engineerror.h"
#include "session.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace AotStudio::Client {

namespace {
double number(const QJsonValue &v)
{
    return v.isDouble() ? v.toDouble() : qQNaN();
}

/// A number as the engine logs it with Python's `:.3g` / `:.6f` ("2.4e-07", "nan", "inf").
double loggedNumber(const QString &text)
{
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (ok)
        return v;
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("inf"))
        return qInf();
    if (t == QLatin1String("-inf"))
        return -qInf();
    return qQNaN(); // "nan", or something unreadable: not a figure
}

VerifyOutput outputFromJson(const QJsonObject &o)
{
    VerifyOutput out;
    out.name = o.value(QLatin1String("name")).toString();
    for (const QJsonValue &d : o.value(QLatin1String("shape")).toArray())
        out.shape << qint64(d.toDouble());
    out.dtype = o.value(QLatin1String("dtype")).toString();
    out.maxAbsError = number(o.value(QLatin1String("max_abs_error")));
    out.maxRelError = number(o.value(QLatin1String("max_rel_error")));
    out.cosine = number(o.value(QLatin1String("cosine")));
    if (o.value(QLatin1String("passed")).isBool())
        out.passed = o.value(QLatin1String("passed")).toBool();
    out.compiledReferenceError = number(o.value(QLatin1String("compiled_reference_error")));
    out.eagerReferenceError = number(o.value(QLatin1String("eager_reference_error")));
    return out;
}
} // namespace

QString VerifyOutput::shapeText() const
{
    if (shape.isEmpty())
        return dtype.isEmpty() && name.isEmpty() ? QStringLiteral("—") : QStringLiteral("[]");
    QStringList dims;
    for (qint64 d : shape)
        dims << QString::number(d);
    return QLatin1Char('[') + dims.join(QStringLiteral(", ")) + QLatin1Char(']');
}

int VerifyResult::comparedCalls() const
{
    int n = 0;
    for (const VerifyCall &c : calls)
        n += c.skipped.isEmpty() ? 1 : 0;
    return n;
}

QStringList VerifyResult::failedOutputs() const
{
    QStringList names;
    for (const VerifyOutput &o : outputs) {
        if (o.passed.has_value() && !*o.passed)
            names << o.name;
    }
    return names;
}

VerifyResult VerifyResult::fromJson(const QJsonObject &compileResult)
{
    VerifyResult r;
    const QJsonValue value = compileResult.value(QLatin1String("verify"));
    if (!value.isObject())
        return r;
    const QJsonObject v = value.toObject();
    r.present = true;
    r.passed = v.value(QLatin1String("passed")).toBool(true); // a result is only sent when it passed
    r.modeName = v.value(QLatin1String("mode")).toString();
    r.mode = r.modeName == QLatin1String("reduced_precision") ? Mode::ReducedPrecision : Mode::Eager;
    r.tolerance = number(v.value(QLatin1String("tolerance")));
    if (qIsNaN(r.tolerance))
        r.tolerance = number(compileResult.value(QLatin1String("tolerance")));
    r.verdict = v.value(QLatin1String("verdict")).toString().trimmed();
    const QJsonValue reference = v.value(QLatin1String("reference"));
    r.referenceDtype = reference.isObject() ? reference.toObject().value(QLatin1String("dtype")).toString()
                                            : reference.toString();
    r.referenceNote = v.value(QLatin1String("reference_note")).toString();
    r.stateful = v.value(QLatin1String("stateful")).toBool();
    for (const QJsonValue &s : v.value(QLatin1String("mutated_state")).toArray())
        r.mutatedState << s.toString();
    r.seededInputs = v.value(QLatin1String("seeded_inputs")).toInt();
    for (const QJsonValue &c : v.value(QLatin1String("calls")).toArray()) {
        const QJsonObject o = c.toObject();
        VerifyCall call;
        call.index = o.value(QLatin1String("index")).toInt(int(r.calls.size()));
        call.source = o.value(QLatin1String("source")).toString();
        call.seed = o.value(QLatin1String("seed")).isDouble() ? o.value(QLatin1String("seed")).toInt() : -1;
        call.maxAbsError = number(o.value(QLatin1String("max_abs_error")));
        call.skipped = o.value(QLatin1String("skipped")).toString();
        r.calls << call;
    }
    for (const QJsonValue &o : v.value(QLatin1String("outputs")).toArray())
        r.outputs << outputFromJson(o.toObject());
    for (const QJsonValue &i : v.value(QLatin1String("inputs")).toArray())
        r.memoryFormats << i.toObject().value(QLatin1String("memory_format")).toString();
    return r;
}

QString VerifyFailure::failedOutputOf(const EngineError &error)
{
    if (error.code != QLatin1String("mismatch"))
        return {};
    // verify.py: "compiled output 'NAME' differs from eager …", "… is further from the …
    // reference …", "output 'NAME' has shape …". Names are pytree paths: no quote inside.
    static const QRegularExpression named(QStringLiteral("\\boutput '([^']+)'"));
    const QRegularExpressionMatch m = named.match(error.message);
    return m.hasMatch() ? m.captured(1) : QString();
}

std::optional<VerifyOutput> VerifyFailure::parseLogLine(const QString &level, const QString &message)
{
    // "verify output 'logits' [8, 10] float32: max abs 0.5, max rel 0.1, cosine 0.999000"
    // + "; against the reference: compiled 0.01, eager 0.002" in reduced precision.
    static const QRegularExpression line(QStringLiteral(
        "^verify output '([^']+)' \\[([^\\]]*)\\] (\\S+): max abs (\\S+), max rel (\\S+), cosine ([^;\\s]+)"
        "(?:; against the reference: compiled (\\S+), eager (\\S+))?\\s*$"));
    const QRegularExpressionMatch m = line.match(message.trimmed());
    if (!m.hasMatch())
        return std::nullopt;
    VerifyOutput out;
    out.name = m.captured(1);
    for (const QString &d : m.captured(2).split(QLatin1Char(','), Qt::SkipEmptyParts))
        out.shape << d.trimmed().toLongLong();
    out.dtype = m.captured(3);
    out.maxAbsError = loggedNumber(m.captured(4));
    out.maxRelError = loggedNumber(m.captured(5));
    out.cosine = loggedNumber(m.captured(6));
    if (m.hasCaptured(7)) {
        out.compiledReferenceError = loggedNumber(m.captured(7));
        out.eagerReferenceError = loggedNumber(m.captured(8));
    }
    // verify.py logs a failed output as a warning, a passed one as info.
    out.passed = level != QLatin1String("warning") && level != QLatin1String("error");
    return out;
}

VerifyFailure VerifyFailure::fromError(const EngineError &error, const QList<LogRecord> &logs, qint64 job)
{
    VerifyFailure f;
    f.failedOutput = failedOutputOf(error);
    if (error.code != QLatin1String("mismatch"))
        return f;
    for (const LogRecord &record : logs) {
        if (record.job != job)
            continue;
        if (auto out = parseLogLine(record.level, record.message)) {
            // One line per output; a later one (a second table) replaces the earlier.
            auto it = std::find_if(f.outputs.begin(), f.outputs.end(),
                                   [&](const VerifyOutput &o) { return o.name == out->name; });
            if (it != f.outputs.end())
                *it = *out;
            else
                f.outputs << *out;
        }
    }
    // The message names the output that failed even when its log line was lost.
    for (VerifyOutput &o : f.outputs) {
        if (o.name == f.failedOutput)
            o.passed = false;
    }
    return f;
}

} // namespace AotStudio::Client
