// SPDX-License-Identifier: GPL-3.0-or-later
#include "latencychart.h"

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
    m_plot->replot();
}

void LatencyChart::setResult(const Client::CompileResult &result)
{
    m_plot->clearPlottables();
    // Keys on the vertical axis make horizontal bars, so the labels stay readable.
    QCPAxis *keyAxis = m_plot->yAxis;
    QCPAxis *valueAxis = m_plot->xAxis;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->addTick(1, tr("Compiled"));
    ticker->addTick(2, tr("Eager"));
    keyAxis->setTicker(ticker);
    keyAxis->setRange(0.4, 2.6);
    keyAxis->grid()->setVisible(false);
    valueAxis->setLabel(tr("Median latency per call (ms); whiskers p10–p90"));

    const struct
    {
        double key;
        const Client::LatencyStats &stats;
        double median;
        QColor color;
    } rows[] = {{1, result.compiled, result.compiledMs, QColor(0x2e, 0x7d, 0x32)},
                {2, result.eager, result.eagerMs, QColor(0x75, 0x75, 0x75)}};
    double maxValue = 0;
    for (const auto &row : rows) {
        if (qIsNaN(row.median))
            continue;
        auto *bars = new QCPBars(keyAxis, valueAxis);
        bars->setWidth(0.6);
        bars->setPen(Qt::NoPen);
        bars->setBrush(row.color);
        bars->setData({row.key}, {row.median});
        maxValue = qMax(maxValue, row.median);
        if (!qIsNaN(row.stats.p10Ms) && !qIsNaN(row.stats.p90Ms)) {
            auto *whiskers = new QCPErrorBars(keyAxis, valueAxis);
            whiskers->setDataPlottable(bars);
            whiskers->setErrorType(QCPErrorBars::etValueError);
            whiskers->setData({qMax(0.0, row.median - row.stats.p10Ms)},
                              {qMax(0.0, row.stats.p90Ms - row.median)});
            maxValue = qMax(maxValue, row.stats.p90Ms);
        }
    }
    valueAxis->setRange(0, maxValue > 0 ? maxValue * 1.15 : 1);
    m_plot->replot();
}

} // namespace AotStudio::Widgets
