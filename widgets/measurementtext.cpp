// SPDX-License-Identifier: GPL-3.0-or-later
#include "measurementtext.h"

#include "numberformat.h"

#include <QCoreApplication>

namespace AotStudio::Widgets {

namespace {
QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("AotStudio::Widgets::MeasurementText", text, disambiguation, n);
}

QString figure(double v)
{
    // Three significant digits, two decimals at least below 10: 2.38, 0.812, 13.3, 327.
    return formatNumber(v, 'f', v >= 100 ? 0 : v >= 10 ? 1 : v >= 1 ? 2 : 3);
}
} // namespace

QString MeasurementText::ratio(const Client::RatioInterval &r)
{
    if (!r.isValid())
        return QStringLiteral("—");
    if (r.isUnreliableWidth())
        return tr("no reliable ratio");
    return tr("%1×").arg(figure(r.estimate));
}

QString MeasurementText::interval(const Client::RatioInterval &r)
{
    if (r.hasBounds())
        return tr("(%1% CI %2–%3)").arg(formatNumber(r.level * 100, 'f', 0), figure(r.low), figure(r.high));
    if (r.hasObject())
        return tr("(no interval: %n block(s))", nullptr, r.blocks);
    return tr("(no interval)");
}

QString MeasurementText::ratioWithInterval(const Client::RatioInterval &r, Slower slower)
{
    if (!r.isValid())
        return QStringLiteral("—");
    if (r.isUnreliableWidth())
        return tr("no reliable ratio: its %1% interval %2–%3 is wider than the estimate %4×")
            .arg(formatNumber(r.level * 100, 'f', 0), figure(r.low), figure(r.high), figure(r.estimate));
    QString text = ratio(r) + QLatin1Char(' ') + interval(r);
    if (slower == Slower::None)
        return text;
    if (r.isSlower()) {
        switch (slower) {
        case Slower::Compiled:
            return tr("%1: compiled is slower than eager").arg(text);
        case Slower::ThanFp32Eager:
            return tr("%1: slower than fp32 eager").arg(text);
        case Slower::Bundle:
            return tr("%1: the bundle starts slower than eager").arg(text);
        case Slower::RegionalThanWhole:
            return tr("%1: the regional model is slower than the whole one").arg(text);
        case Slower::None:
            break;
        }
    } else if (r.straddlesOne()) {
        return tr("%1: no clear difference (the interval holds 1)").arg(text);
    }
    return text;
}

QString MeasurementText::valueWithInterval(const Client::RatioInterval &r, int decimals)
{
    if (!r.isValid())
        return QStringLiteral("—");
    const QString value = formatNumber(r.estimate, 'f', decimals);
    if (!r.hasBounds())
        return value + QLatin1Char(' ') + interval(r);
    return tr("%1 (%2% CI %3–%4)")
        .arg(value, formatNumber(r.level * 100, 'f', 0), formatNumber(r.low, 'f', decimals), formatNumber(r.high, 'f', decimals));
}

QString MeasurementText::phase(const Client::PhaseStats &p)
{
    if (!p.isValid())
        return QStringLiteral("—");
    if (!p.hasBounds())
        return tr("%1 ms (no interval)").arg(formatNumber(p.medianMs, 'f', 1));
    return tr("%1 ms (95% CI %2–%3)")
        .arg(formatNumber(p.medianMs, 'f', 1), formatNumber(p.lowMs, 'f', 1), formatNumber(p.highMs, 'f', 1));
}

QString MeasurementText::verdictName(const Client::Measurement &m)
{
    using V = Client::Measurement::Verdict;
    switch (m.verdict) {
    case V::Ok:
        return tr("ok");
    case V::Noisy:
        return tr("noisy");
    case V::Unreliable:
        return tr("unreliable");
    case V::Unknown:
        return tr("unknown");
    case V::Missing:
        break;
    }
    return tr("not assessed");
}

QString MeasurementText::verdictLine(const Client::Measurement &m)
{
    using V = Client::Measurement::Verdict;
    QString reasons = m.reasons.join(QStringLiteral("; "));
    switch (m.verdict) {
    case V::Missing:
        return tr("not assessed: the result predates machine verdicts");
    case V::Ok:
        return reasons.isEmpty() ? tr("ok: the machine allowed a fair measurement") : tr("ok: %1").arg(reasons);
    case V::Noisy:
        return reasons.isEmpty() ? tr("noisy: use these figures with care") : tr("noisy: %1").arg(reasons);
    case V::Unreliable:
        return reasons.isEmpty() ? tr("unreliable: the machine did not allow a fair measurement")
                                 : tr("unreliable: %1").arg(reasons);
    case V::Unknown:
        return reasons.isEmpty() ? tr("unknown: the machine load could not be read")
                                 : tr("unknown: the machine load could not be read (%1)").arg(reasons);
    }
    return reasons;
}

QString MeasurementText::verdictHtml(const Client::Measurement &m)
{
    const QString line = verdictLine(m);
    const int colon = line.indexOf(QLatin1Char(':'));
    if (colon <= 0)
        return line.toHtmlEscaped();
    return QStringLiteral("<b>%1</b>%2").arg(line.left(colon).toHtmlEscaped(), line.mid(colon).toHtmlEscaped());
}

QString MeasurementText::verdictSummary(const Client::Measurement &m)
{
    if (m.reasons.isEmpty())
        return verdictLine(m); // the verdict's own short sentence
    constexpr int kMax = 80;
    QString first = m.reasons.first().trimmed();
    // "oversubscribed: on average 3.1 other runnable tasks …": the name before the colon (a
    // full-width one in a Chinese reason).
    int colon = first.indexOf(QLatin1String(": "));
    if (const int wide = first.indexOf(QChar(0xFF1A)); wide > 0 && (colon < 0 || wide < colon))
        colon = wide;
    if (colon > 0 && colon <= kMax)
        first = first.left(colon);
    if (first.size() > kMax)
        first = first.left(kMax - 1).trimmed() + QChar(0x2026);
    Client::Measurement one = m;
    one.reasons = QStringList{first};
    QString line = verdictLine(one);
    if (m.reasons.size() > 1)
        line = tr("%1 (+%n more)", nullptr, int(m.reasons.size() - 1)).arg(line);
    return line;
}

QString MeasurementText::verdictSummaryHtml(const Client::Measurement &m)
{
    const QString line = verdictSummary(m);
    const int colon = line.indexOf(QLatin1Char(':'));
    if (colon <= 0)
        return line.toHtmlEscaped();
    return QStringLiteral("<b>%1</b>%2").arg(line.left(colon).toHtmlEscaped(), line.mid(colon).toHtmlEscaped());
}

QString MeasurementText::logLine(const QString &engineLine)
{
    static const QLatin1String prefix("measurement: ");
    if (!engineLine.startsWith(prefix))
        return engineLine;
    const QString rest = engineLine.mid(prefix.size());
    const int colon = rest.indexOf(QLatin1String(": "));
    if (colon <= 0)
        return engineLine; // a verdict without reasons: already one line
    const QString verdict = rest.left(colon);
    QString first = rest.mid(colon + 2);
    if (const int end = first.indexOf(QLatin1String(": ")); end > 0 && end <= 80)
        first = first.left(end);
    else if (first.size() > 80)
        first = first.left(79).trimmed() + QChar(0x2026);
    //: %1 the verdict word (unreliable, noisy), %2 its first reason's name
    return tr("measurement: %1: %2 (every reason: the view's Measurement line)").arg(verdict, first);
}

QString MeasurementText::verdictDetails(const Client::Measurement &m)
{
    QStringList lines;
    if (!m.reasons.isEmpty()) {
        lines << tr("Measurement %1 because:").arg(verdictName(m));
        for (const QString &r : m.reasons)
            lines << QStringLiteral("• ") + r;
    }
    if (!m.notes.isEmpty()) {
        lines << tr("Notes:");
        for (const QString &n : m.notes)
            lines << QStringLiteral("• ") + n;
    }
    return lines.join(QLatin1Char('\n'));
}

QString MeasurementText::threads(int threads, int usableCpus)
{
    if (threads <= 0)
        return tr("not stated");
    if (usableCpus <= 0)
        return QLocale().toString(threads);
    return tr("%1 (of %n usable CPU(s))", nullptr, usableCpus).arg(QLocale().toString(threads));
}

QColor MeasurementText::verdictColor(const Client::Measurement &m)
{
    using V = Client::Measurement::Verdict;
    switch (m.verdict) {
    case V::Ok:
        return QColor(0x1b, 0x5e, 0x20);
    case V::Noisy:
        return QColor(0x5c, 0x47, 0x00);
    case V::Unreliable:
        return QColor(0x8e, 0x24, 0x1c);
    case V::Unknown:
    case V::Missing:
        break;
    }
    return QColor(0x61, 0x61, 0x61);
}

QColor MeasurementText::verdictBackground(const Client::Measurement &m)
{
    using V = Client::Measurement::Verdict;
    switch (m.verdict) {
    case V::Noisy:
        return QColor(0xff, 0xf8, 0xd6);
    case V::Unreliable:
        return QColor(0xfd, 0xec, 0xea);
    case V::Unknown:
        return QColor(0xee, 0xee, 0xee);
    case V::Ok:
    case V::Missing:
        break;
    }
    return {};
}

QColor MeasurementText::greyedText()
{
    return QColor(0x9e, 0x9e, 0x9e);
}

QString MeasurementText::chartTitle(const QString &title, const Client::Measurement &m)
{
    if (!m.isUnreliable())
        return title;
    // Short: the view's Measurement line says why (once per view); a chart only says it is greyed.
    return tr("%1 (greyed: unreliable)").arg(title);
}

} // namespace AotStudio::Widgets
