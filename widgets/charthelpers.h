// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QJsonValue>
#include <QList>
#include <QSharedPointer>
#include <QStackedWidget>
#include <QString>
#include <QVector>

#include <functional>

class QCPAbstractPlottable;
class QCPAxisTicker;
class QCPBars;
class QCustomPlot;
class QLabel;

namespace AotStudio::Widgets {

/// A JSON number as a double; NaN for null, absent or non-numeric values.
double jsonNumber(const QJsonValue &value);

/// A latency in milliseconds with its unit ("0.034 ms"), or "—" for NaN.
QString formatMs(double ms);

/// A size in bytes in IEC units ("1.5 MiB"), or "—" for NaN or negative values.
QString formatBytes(double bytes);

/// @p text cut in the middle to at most @p maxChars characters ("triton_per_…norm_1").
QString elideMiddle(const QString &text, int maxChars);

/**
 * A QCustomPlot set up like every chart of the studio: the palette's base colour, a title row
 * (kept in saved PNGs, so a chart explains itself in a report), @p objectName for tests and
 * report file names.
 */
QCustomPlot *createChart(const QString &objectName, const QString &title, QWidget *parent = nullptr);

/// Replaces the title set by createChart().
void setChartTitle(QCustomPlot *plot, const QString &title);

/// A log axis's ticks at 1, 2 and 5 times the powers of ten in [lower, upper] (decades only over
/// ranges wider than four decades): QCPAxisTickerLog labels only the decades.
QSharedPointer<QCPAxisTicker> logTicker(double lower, double upper);

/// A category label for a narrow axis: a line break before its parenthesis ("Eager (Python)" ->
/// "Eager\n(Python)", "即时执行（Python）" likewise), so neighbouring labels do not run together;
/// a label without one is returned as it is.
QString stackedTickLabel(const QString &label);

/// Text for the data point @p dataIndex of @p plottable; empty for none.
using PointToolTip = std::function<QString(QCPAbstractPlottable *plottable, int dataIndex)>;

/**
 * Shows a tooltip for the data point under the mouse (the nearest plottable within the plot's
 * selection tolerance, by QCPAbstractPlottable::selectTest), with text from @p toolTip.
 * Installing again replaces the callback.
 */
void installPointToolTips(QCustomPlot *plot, PointToolTip toolTip);

/// The text installPointToolTips() would show at @p pos (widget pixels); empty when none.
QString pointToolTipAt(QCustomPlot *plot, const QPointF &pos);

/// A unit for bytes on a chart axis: values are divided by @p divisor and labelled @p name.
struct ByteUnit {
    double divisor = 1;
    QString name;
};
/// The IEC unit (B, KiB, MiB, GiB) that keeps @p maxBytes between 1 and 1024.
ByteUnit byteUnitFor(double maxBytes);

/// One series of horizontal bars: one value per category, NaN for no bar.
struct BarSeries {
    QString name;
    QColor color;
    QVector<double> values;
};

/**
 * Horizontal bars, one row per category (the first at the top), one bar per series in each row
 * (grouped when there are several, with a legend), the value axis from 0 to a bit past the largest
 * value. Rows whose @p rowNotes entry is not empty show that text instead of bars (e.g. "failed").
 * @p valueText formats a value for the label at the end of each bar (none when empty).
 * Rows whose @p greyedRows entry is true (figures of an unreliable measurement) are drawn in grey
 * shades of their series' colours, as extra bars of the series' name with the property `greyed`
 * true, left out of the legend.
 * Returns the bars, one QCPBars per series, in @p series order; their data keys are
 * `categories.size() - row`.
 */
QList<QCPBars *> drawHorizontalBars(QCustomPlot *plot, const QStringList &categories, const QList<BarSeries> &series,
    const QString &valueAxisLabel, const QStringList &rowNotes = {},
    const std::function<QString(double)> &valueText = {}, const QList<bool> &greyedRows = {});

/// @p color as the grey of the same lightness, paler (how greyed figures are drawn in charts).
QColor greyedColor(const QColor &color);

/// The category row of a bar drawn by drawHorizontalBars() from its data key.
inline int barRow(int categoryCount, double key)
{
    return categoryCount - int(key + 0.5);
}

/**
 * A chart or, when its data was not measured, a short note in its place (never an empty or
 * broken chart). The note label is named `<plot's objectName>Note`.
 */
class ChartBox : public QStackedWidget
{
    Q_OBJECT
public:
    explicit ChartBox(QCustomPlot *plot, QWidget *parent = nullptr);
    /// A box whose chart page is @p content (holding @p plot and its controls).
    ChartBox(QWidget *content, QCustomPlot *plot, QWidget *parent = nullptr);

    QCustomPlot *plot() const { return m_plot; }
    QLabel *noteLabel() const { return m_note; }
    /// Shows the chart.
    void showChart();
    /// Shows @p note (already translated) instead of the chart.
    void showNote(const QString &note);
    /// True while the chart (not the note) is shown.
    bool isMeasured() const;

private:
    QWidget *m_content;
    QCustomPlot *m_plot;
    QLabel *m_note;
};

} // namespace AotStudio::Widgets
