// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/measurement.h"

#include <QColor>
#include <QString>

namespace AotStudio::Widgets {

/**
 * The words every view uses for a ratio with its interval and for the machine's verdict, so that
 * the result panel, the Profile and Quantization docks and the report say the same thing the
 * same way: "2.38× (95% CI 2.31–2.44)", "0.81× (95% CI 0.78–0.84), compiled is slower",
 * "2.38× (no interval: 2 blocks)".
 */
class MeasurementText
{
public:
    /// Who is slower when the ratio is under 1: the words ratioWithInterval() adds. RegionalThanWhole:
    /// a whole package's median over a regional compile's.
    enum class Slower { Compiled, ThanFp32Eager, Bundle, RegionalThanWhole, None };

    /// "2.38×" alone (for chart labels that have the interval beside them); "—" when invalid;
    /// "no reliable ratio" when the interval is wider than the estimate
    /// (RatioInterval::isUnreliableWidth(): high − low > estimate, the rule every view follows).
    static QString ratio(const Client::RatioInterval &r);
    /// "(95% CI 2.31–2.44)", "(no interval: 2 blocks)" or "(no interval)".
    static QString interval(const Client::RatioInterval &r);
    /// ratio() and interval(), then in words when the ratio says the compiled side is slower
    /// (or that the interval holds 1: no clear difference). A ratio whose interval is wider than
    /// itself: "no reliable ratio: its 95% interval 0.010–3.14 is wider than the estimate 2.44×".
    static QString ratioWithInterval(const Client::RatioInterval &r, Slower slower = Slower::Compiled);
    /// A figure that is not a ratio with its interval, @p decimals after the point:
    /// "1234 (95% CI 1200–1270)", "1234 (no interval)"; "—" when invalid.
    static QString valueWithInterval(const Client::RatioInterval &r, int decimals);
    /// "1.2 ms (95% CI 1.1–1.3)" for a cold-start phase.
    static QString phase(const Client::PhaseStats &p);

    /// "ok", "noisy", "unreliable", "unknown" in the UI language; "not assessed" when missing.
    static QString verdictName(const Client::Measurement &m);
    /// One line: "Measurement: unreliable: REASON; REASON" (or what an unknown verdict means).
    static QString verdictLine(const Client::Measurement &m);
    /// The same as HTML (escaped), the verdict word in bold.
    static QString verdictHtml(const Client::Measurement &m);
    /**
     * The verdict as one line, for views (issue 35: "unreliable" is one line, its details on
     * demand): "unreliable: oversubscribed (+1 more)", the first reason up to its own first colon
     * and at most 80 characters; verdictDetails() is the rest, shown as the line's tooltip.
     */
    static QString verdictSummary(const Client::Measurement &m);
    /// verdictSummary() as HTML (escaped), the verdict word in bold.
    static QString verdictSummaryHtml(const Client::Measurement &m);
    /// Every reason and note of the verdict, one per line ("" when there are none): the details
    /// verdictSummary() leaves out.
    static QString verdictDetails(const Client::Measurement &m);
    /**
     * The engine's verdict log line ("measurement: unreliable: REASON; REASON …", a paragraph
     * the command line prints) as one line for the studio's log: the verdict and the first
     * reason's name; the view's Measurement line has every reason. Other lines unchanged.
     */
    static QString logLine(const QString &engineLine);
    /// "2 (of 2 usable CPUs)"; "not stated" when unknown.
    static QString threads(int threads, int usableCpus);
    /// Text colour of a verdict (ok green, noisy amber, unreliable and unknown grey).
    static QColor verdictColor(const Client::Measurement &m);
    /// Background of the verdict line (noisy: the warning yellow); invalid for none.
    static QColor verdictBackground(const Client::Measurement &m);
    /// The colour of figures the verdict says not to trust.
    static QColor greyedText();
    /// A chart's title, marked when the verdict is "unreliable" (its bars and boxes are greyed):
    /// "Latency distribution (greyed: unreliable)"; the view's one Measurement line says why.
    static QString chartTitle(const QString &title, const Client::Measurement &m);
};

} // namespace AotStudio::Widgets
