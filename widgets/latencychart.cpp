// SPDX-License-Identifier: GPL-3.0-or-later
#include "latencychart.h"

#include "numberformat.h"

#include <QVBoxLayout>
#include <qcustomplot.h>

namespace AotStudio::Widgets {

LatencyChart::LatencyChart(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    m_plot->setObjectName(QStringLiteral("latencyPlot"));
    m_plot->setMinimumHeight(140);
    m_plot->setBackground(palette().base());
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    clear();
}

void LatencyChart::clear()
{
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_clippedLabels.clear();
    m_plot->replot();
}

std::pair<double, double> LatencyChart::valueRange() const
{
    const QCPRange range = m_plot->xAxis->range();
    return {range.lower, range.upper};
}

void LatencyChart::setResult(const Client::CompileResult &result, bool greyed)
{
    m_greyed = greyed;
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_clippedLabels.clear();
    // Keys on the vertical axis make horizontal bars, so the labels stay readable.
    QCPAxis *keyAxis = m_plot->yAxis;
    QCPAxis *valueAxis = m_plot->xAxis;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->addTick(1, result.isRegional() ? tr("Regional") : tr("Compiled"));
    ticker->addTick(2, tr("Eager"));
    keyAxis->setTicker(ticker);
    keyAxis->setRange(0.4, 2.6);
    keyAxis->grid()->setVisible(false);
    valueAxis->setLabel(greyed ? tr("Median latency per call (ms); whiskers p10–p90 (greyed: unreliable)")
                               : tr("Median latency per call (ms); whiskers p10–p90"));
    valueAxis->setLabelColor(greyed ? QColor(0x75, 0x75, 0x75) : palette().color(QPalette::Text));

    const struct
    {
        double key;
        const Client::LatencyStats &stats;
        double median;
        QColor color;
    } rows[] = {{1, result.compiled, result.compiledMs, QColor(0x2e, 0x7d, 0x32)},
                {2, result.eager, result.eagerMs, QColor(0x75, 0x75, 0x75)}};

    // The axis is sized from the medians; whiskers only widen it while they stay comparable.
    double maxMedian = 0;
    double maxP90 = 0;
    for (const auto &row : rows) {
        if (qIsNaN(row.median))
            continue;
        maxMedian = qMax(maxMedian, row.median);
        if (!qIsNaN(row.stats.p90Ms))
            maxP90 = qMax(maxP90, row.stats.p90Ms);
    }
    double upper = 1;
    if (maxMedian > 0) {
        upper = maxP90 < MaxWhiskerRatio * maxMedian ? qMax(maxMedian, maxP90) * 1.15
                                                     : maxMedian * ClippedAxisRatio;
    }

    for (const auto &row : rows) {
        if (qIsNaN(row.median))
            continue;
        auto *bars = new QCPBars(keyAxis, valueAxis);
        bars->setWidth(0.6);
        bars->setPen(Qt::NoPen);
        bars->setBrush(greyed ? QColor(0xbd, 0xbd, 0xbd) : row.color);
        bars->setData({row.key}, {row.median});
        if (qIsNaN(row.stats.p10Ms) || qIsNaN(row.stats.p90Ms))
            continue;
        auto *whiskers = new QCPErrorBars(keyAxis, valueAxis);
        whiskers->setDataPlottable(bars);
        whiskers->setErrorType(QCPErrorBars::etValueError);
        // Drawn to the edge at most: the axis rect clips the rest, the label says how far it goes.
        whiskers->setData({qMax(0.0, row.median - row.stats.p10Ms)},
                          {qBound(0.0, row.stats.p90Ms - row.median, upper - row.median)});
        if (row.stats.p90Ms <= upper)
            continue;
        const QString label =
            tr("p90 %1 ms ▸").arg(formatNumber(row.stats.p90Ms, 'g', 3));
        m_clippedLabels << label;
        auto *text = new QCPItemText(m_plot);
        text->setClipToAxisRect(true);
        text->position->setAxes(valueAxis, keyAxis);
        text->position->setCoords(upper, row.key + 0.38);
        text->setPositionAlignment(Qt::AlignRight | Qt::AlignVCenter);
        text->setPadding(QMargins(4, 1, 4, 1));
        text->setText(label);
        text->setColor(QColor(0x66, 0x3c, 0x00));
        text->setBrush(QColor(0xff, 0xf4, 0xe5));
        text->setPen(QPen(QColor(0xf0, 0xb3, 0x5a)));
    }
    valueAxis->setRange(0, upper);
    m_plot->replot();
}

} // namespace AotStudio::Widgets
