// SPDX-License-Identifier: GPL-3.0-or-later
#include "charthelpers.h"

#include "numberformat.h"

#include <QLabel>
#include <QRegularExpression>
#include <QLocale>
#include <QMouseEvent>
#include <QToolTip>
#include <qcustomplot.h>

#include <cmath>
#include <limits>

namespace AotStudio::Widgets {

double jsonNumber(const QJsonValue &value)
{
    return value.isDouble() ? value.toDouble() : std::numeric_limits<double>::quiet_NaN();
}

QString formatMs(double ms)
{
    if (std::isnan(ms))
        return QStringLiteral("—");
    // Three significant digits, but never an exponent for seconds-long figures ("2,900 ms").
    const QString number = std::abs(ms) >= 100 ? formatNumber(ms, 'f', 0) : formatNumber(ms, 'g', 3);
    return QCoreApplication::translate("AotStudio::Widgets::Charts", "%1 ms").arg(number);
}

QString formatBytes(double bytes)
{
    if (std::isnan(bytes) || bytes < 0)
        return QStringLiteral("—");
    return QLocale().formattedDataSize(qint64(bytes), bytes < 1024 ? 0 : 1);
}

QString elideMiddle(const QString &text, int maxChars)
{
    if (text.size() <= maxChars || maxChars < 5)
        return text;
    const int head = (maxChars - 1) / 2;
    const int tail = maxChars - 1 - head;
    return text.left(head) + QChar(0x2026) + text.right(tail);
}

namespace {

/// A chart's title that wraps at the chart's width rather than being cut at both edges (a
/// distribution's "box p10–p90, whiskers min–p99, …" in a 370 px chart at 1366×768, zh_CN).
/// QCPTextElement asks for its whole text's width on one line.
class WrappingTitle : public QCPTextElement
{
public:
    WrappingTitle(QCustomPlot *plot, const QString &text, const QFont &font)
        : QCPTextElement(plot, text, font)
    {
        setTextFlags(Qt::AlignCenter | Qt::TextWordWrap);
    }

protected:
    QSize minimumOuterSizeHint() const override
    {
        // As tall as the text wrapped at the plot's width needs; as narrow as the plot.
        const int horizontal = mMargins.left() + mMargins.right();
        const int width = qMax(40, mParentPlot->viewport().width() - horizontal);
        const QRect text = QFontMetrics(mFont).boundingRect(0, 0, width, 0, mTextFlags, mText);
        return {horizontal, text.height() + mMargins.top() + mMargins.bottom()};
    }
    QSize maximumOuterSizeHint() const override
    {
        return {QWIDGETSIZE_MAX, minimumOuterSizeHint().height()};
    }
};
/// Owns the tooltip callback of one plot; found again by pointToolTipAt().
class PointToolTips : public QObject
{
public:
    PointToolTips(QCustomPlot *plot, PointToolTip toolTip)
        : QObject(plot)
        , m_toolTip(std::move(toolTip))
    {
        setObjectName(QStringLiteral("pointToolTips"));
        connect(plot, &QCustomPlot::mouseMove, this, [this, plot](QMouseEvent *event) {
            const QString text = textAt(plot, event->position());
            if (text.isEmpty())
                QToolTip::hideText();
            else
                QToolTip::showText(event->globalPosition().toPoint(), text, plot);
        });
    }

    QString textAt(QCustomPlot *plot, const QPointF &pos) const
    {
        QCPAbstractPlottable *nearest = nullptr;
        int nearestIndex = -1;
        double nearestDistance = plot->selectionTolerance();
        for (int i = 0; i < plot->plottableCount(); ++i) {
            QCPAbstractPlottable *plottable = plot->plottable(i);
            if (!plottable->visible() || qobject_cast<QCPErrorBars *>(plottable))
                continue;
            QVariant details;
            const double distance = plottable->selectTest(pos, false, &details);
            if (distance < 0 || distance > nearestDistance)
                continue;
            const auto selection = details.value<QCPDataSelection>();
            if (selection.isEmpty())
                continue;
            nearest = plottable;
            nearestIndex = selection.dataRange().begin();
            nearestDistance = distance;
        }
        return nearest ? m_toolTip(nearest, nearestIndex) : QString();
    }

private:
    PointToolTip m_toolTip;
};
} // namespace

ByteUnit byteUnitFor(double maxBytes)
{
    static const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    ByteUnit unit { 1, QString::fromLatin1(names[0]) };
    for (int i = 1; i < 5 && maxBytes >= unit.divisor * 1024; ++i)
        unit = { unit.divisor * 1024, QString::fromLatin1(names[i]) };
    return unit;
}

QColor greyedColor(const QColor &color)
{
    const int g = qGray(color.rgb());
    const int pale = g + (255 - g) / 2;
    return QColor(pale, pale, pale, color.alpha());
}

QList<QCPBars *> drawHorizontalBars(QCustomPlot *plot, const QStringList &categories, const QList<BarSeries> &series,
    const QString &valueAxisLabel, const QStringList &rowNotes, const std::function<QString(double)> &valueText,
    const QList<bool> &greyedRows)
{
    QCPAxis *keyAxis = plot->yAxis;
    QCPAxis *valueAxis = plot->xAxis;
    const int count = int(categories.size());
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int row = 0; row < count; ++row)
        ticker->addTick(count - row, categories.at(row));
    keyAxis->setTicker(ticker);
    keyAxis->setRange(0.4, count + 0.6);
    keyAxis->grid()->setVisible(false);
    keyAxis->setSubTicks(false);
    keyAxis->setTickLength(0, 4);
    valueAxis->setLabel(valueAxisLabel);

    double maxValue = 0;
    for (const BarSeries &s : series) {
        for (double v : s.values) {
            if (!std::isnan(v))
                maxValue = qMax(maxValue, v);
        }
    }
    // Room for the value labels right of the longest bar.
    const double upper = maxValue > 0 ? maxValue * (valueText ? 1.3 : 1.1) : 1;
    valueAxis->setRange(0, upper);

    QCPBarsGroup *group = series.size() > 1 ? new QCPBarsGroup(plot) : nullptr;
    if (group)
        group->setSpacing(1);
    const double width = series.size() > 1 ? 0.8 / double(series.size()) : 0.6;
    QList<QCPBars *> result;
    QList<QCPBars *> greyed; // per series: its greyed rows (nullptr when none), keys already offset
    for (int si = 0; si < series.size(); ++si) {
        const BarSeries &s = series.at(si);
        auto *bars = new QCPBars(keyAxis, valueAxis);
        bars->setName(s.name);
        bars->setWidth(width);
        bars->setPen(Qt::NoPen);
        bars->setBrush(s.color);
        if (group)
            bars->setBarsGroup(group);
        // QCPBarsGroup centres the group on the key, series side by side in the key direction.
        const double offset = group ? (si - (series.size() - 1) / 2.0) * width : 0;
        QVector<double> keys, values, greyKeys, greyValues;
        for (int row = 0; row < count && row < s.values.size(); ++row) {
            if (std::isnan(s.values.at(row)) || (row < rowNotes.size() && !rowNotes.at(row).isEmpty()))
                continue;
            if (greyedRows.value(row)) {
                greyKeys << count - row + offset;
                greyValues << s.values.at(row);
                continue;
            }
            keys << count - row;
            values << s.values.at(row);
        }
        bars->setData(keys, values);
        result << bars;
        QCPBars *grey = nullptr;
        if (!greyKeys.isEmpty()) {
            // Outside the group (it would make room for another series): placed by hand instead.
            grey = new QCPBars(keyAxis, valueAxis);
            grey->setName(s.name);
            grey->setProperty("greyed", true);
            grey->setWidth(width);
            grey->setPen(QPen(greyedColor(s.color).darker(130)));
            grey->setBrush(greyedColor(s.color));
            grey->setData(greyKeys, greyValues);
            grey->removeFromLegend();
        }
        greyed << grey;
    }
    // Labels after the bars exist, so a group's offsets are known.
    for (int si = 0; valueText && si < series.size(); ++si) {
        const double offset = group ? (si - (series.size() - 1) / 2.0) * width : 0;
        QList<std::pair<double, double>> points; // value, key (offset)
        for (auto it = result.at(si)->data()->constBegin(); it != result.at(si)->data()->constEnd(); ++it)
            points.append({it->value, it->key + offset});
        if (const QCPBars *grey = greyed.at(si)) {
            for (auto it = grey->data()->constBegin(); it != grey->data()->constEnd(); ++it)
                points.append({it->value, it->key});
        }
        for (const auto &[value, key] : points) {
            auto *text = new QCPItemText(plot);
            text->setClipToAxisRect(true);
            text->position->setAxes(valueAxis, keyAxis);
            text->position->setCoords(value, key);
            text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            text->setPadding(QMargins(4, 0, 0, 0));
            text->setText(valueText(value));
            text->setColor(plot->palette().color(QPalette::Text));
        }
    }
    for (int row = 0; row < count && row < rowNotes.size(); ++row) {
        if (rowNotes.at(row).isEmpty())
            continue;
        auto *text = new QCPItemText(plot);
        text->setClipToAxisRect(true);
        text->position->setAxes(valueAxis, keyAxis);
        text->position->setCoords(0, count - row);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        text->setPadding(QMargins(6, 0, 0, 0));
        text->setText(rowNotes.at(row));
        text->setColor(plot->palette().color(QPalette::Disabled, QPalette::Text));
    }
    plot->legend->setVisible(series.size() > 1);
    if (series.size() > 1) {
        plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
        plot->legend->setBrush(QColor(255, 255, 255, 220));
    }
    return result;
}

QCustomPlot *createChart(const QString &objectName, const QString &title, QWidget *parent)
{
    auto *plot = new QCustomPlot(parent);
    plot->setObjectName(objectName);
    plot->setMinimumSize(260, 180);
    plot->setBackground(plot->palette().base());
    plot->setAntialiasedElements(QCP::aePlottables | QCP::aeItems);
    plot->plotLayout()->insertRow(0);
    QFont font = plot->font();
    font.setBold(true);
    auto *element = new WrappingTitle(plot, title, font);
    element->setObjectName(QStringLiteral("chartTitle"));
    plot->plotLayout()->addElement(0, 0, element);
    return plot;
}

void setChartTitle(QCustomPlot *plot, const QString &title)
{
    if (auto *element = dynamic_cast<QCPTextElement *>(plot->plotLayout()->element(0, 0)))
        element->setText(title);
}

QSharedPointer<QCPAxisTicker> logTicker(double lower, double upper)
{
    if (!(lower > 0) || upper / lower > 1e4) {
        auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
        ticker->setLogBase(10);
        return ticker;
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (double decade = std::pow(10.0, std::floor(std::log10(lower))); decade <= upper; decade *= 10) {
        for (double m : { 1.0, 2.0, 5.0 }) {
            const double v = m * decade;
            if (v >= lower && v <= upper)
                ticker->addTick(v, formatNumber(v, 'g', 3));
        }
    }
    ticker->setSubTickCount(0);
    return ticker;
}

void installPointToolTips(QCustomPlot *plot, PointToolTip toolTip)
{
    delete plot->findChild<PointToolTips *>(QStringLiteral("pointToolTips"), Qt::FindDirectChildrenOnly);
    new PointToolTips(plot, std::move(toolTip));
}

QString pointToolTipAt(QCustomPlot *plot, const QPointF &pos)
{
    const auto *tips = plot->findChild<PointToolTips *>(QStringLiteral("pointToolTips"), Qt::FindDirectChildrenOnly);
    return tips ? tips->textAt(plot, pos) : QString();
}

ChartBox::ChartBox(QCustomPlot *plot, QWidget *parent)
    : ChartBox(plot, plot, parent)
{ }

ChartBox::ChartBox(QWidget *content, QCustomPlot *plot, QWidget *parent)
    : QStackedWidget(parent)
    , m_content(content)
    , m_plot(plot)
    , m_note(new QLabel(this))
{
    m_note->setObjectName(plot->objectName() + QStringLiteral("Note"));
    m_note->setAlignment(Qt::AlignCenter);
    m_note->setWordWrap(true);
    m_note->setMargin(12);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    addWidget(content);
    addWidget(m_note);
}

void ChartBox::showChart()
{
    setCurrentWidget(m_content);
}

void ChartBox::showNote(const QString &note)
{
    m_note->setText(note);
    setCurrentWidget(m_note);
}

bool ChartBox::isMeasured() const
{
    return currentWidget() == m_content;
}

QString stackedTickLabel(const QString &label)
{
    static const QRegularExpression parenthesis(QStringLiteral("\\s*[(\uFF08]"));
    const QRegularExpressionMatch m = parenthesis.match(label);
    if (!m.hasMatch() || m.capturedStart() == 0)
        return label;
    return label.left(m.capturedStart()) + QLatin1Char('\n') + label.mid(m.capturedEnd() - 1);
}

} // namespace AotStudio::Widgets
