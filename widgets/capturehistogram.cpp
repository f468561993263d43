// SPDX-License-Identifier: GPL-3.0-or-later
#include "capturehistogram.h"

#include "charthelpers.h"

#include <QJsonArray>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>

namespace AotStudio::Widgets {

namespace {

const QColor kInside(0x42, 0x7f, 0xc1);
const QColor kOutside(0xc6, 0x28, 0x28);
const QColor kRange(0x2e, 0x7d, 0x32);
const QColor kBucket(0xef, 0x6c, 0x00);

QCPItemStraightLine *verticalLine(QCustomPlot *plot, double x, const QPen &pen)
{
    auto *line = new QCPItemStraightLine(plot);
    line->point1->setCoords(x, 0);
    line->point2->setCoords(x, 1);
    line->setPen(pen);
    return line;
}

} // namespace

CaptureHistogram::CaptureHistogram(const QJsonObject &dim, QWidget *parent)
    : QWidget(parent)
    , m_name(dim.value(QLatin1String("name")).toString())
{
    const QJsonObject hist = dim.value(QLatin1String("histogram")).toObject();
    for (auto it = hist.begin(); it != hist.end(); ++it)
        m_histogram.insert(it.key().toLongLong(), it.value().toInteger());
    QStringList members;
    for (const auto &m : dim.value(QLatin1String("members")).toArray())
        members << m.toString();
    m_plot = createChart(QStringLiteral("captureHistogram_") + m_name,
                         tr("%1 (%2)").arg(m_name, members.join(QStringLiteral(", "))), this);
    m_plot->setMinimumHeight(170);
    m_inside = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_inside->setName(tr("calls in the range"));
    m_inside->setPen(Qt::NoPen);
    m_inside->setBrush(kInside);
    m_outside = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_outside->setName(tr("calls outside the range"));
    m_outside->setPen(Qt::NoPen);
    m_outside->setBrush(kOutside);
    m_plot->xAxis->setLabel(tr("size"));
    m_plot->yAxis->setLabel(tr("calls"));
    m_plot->yAxis->ticker()->setTickCount(3);
    const QJsonValue lo = dim.value(QLatin1String("spec_min")), hi = dim.value(QLatin1String("spec_max"));
    if (lo.isDouble() && hi.isDouble()) {
        m_lo = lo.toInteger();
        m_hi = hi.toInteger();
    }
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    redraw();
}

void CaptureHistogram::setRange(long long lo, long long hi)
{
    m_lo = lo;
    m_hi = hi;
    redraw();
}

void CaptureHistogram::setBuckets(const QList<long long> &buckets)
{
    m_buckets = buckets;
    std::sort(m_buckets.begin(), m_buckets.end());
    redraw();
}

long long CaptureHistogram::callsOutsideRange() const
{
    long long n = 0;
    for (auto it = m_histogram.begin(); it != m_histogram.end(); ++it)
        if (m_lo <= m_hi && (it.key() < m_lo || it.key() > m_hi))
            n += it.value();
    return n;
}

void CaptureHistogram::redraw()
{
    QVector<double> inKeys, inValues, outKeys, outValues;
    double top = 1;
    for (auto it = m_histogram.begin(); it != m_histogram.end(); ++it) {
        const bool inside = m_lo > m_hi || (it.key() >= m_lo && it.key() <= m_hi);
        (inside ? inKeys : outKeys) << double(it.key());
        (inside ? inValues : outValues) << double(it.value());
        top = std::max(top, double(it.value()));
    }
    m_inside->setData(inKeys, inValues, true);
    m_outside->setData(outKeys, outValues, true);
    const double first = m_histogram.isEmpty() ? 0 : double(m_histogram.firstKey());
    const double last = m_histogram.isEmpty() ? 1 : double(m_histogram.lastKey());
    // Bars one size wide at most, narrower when the sizes are spread (a visible bar each).
    const double width = std::max(0.6, std::min(0.8, (last - first + 1) / 120.0));
    m_inside->setWidth(width);
    m_outside->setWidth(width);
    for (auto *line : std::as_const(m_lines))
        m_plot->removeItem(line);
    m_lines.clear();
    double lo = first, hi = last;
    if (m_lo <= m_hi) {
        const QPen pen(kRange, 2, Qt::DashLine);
        m_lines << verticalLine(m_plot, double(m_lo) - 0.5, pen) << verticalLine(m_plot, double(m_hi) + 0.5, pen);
        lo = std::min(lo, double(m_lo));
        hi = std::max(hi, double(m_hi));
    }
    for (const long long b : std::as_const(m_buckets)) {
        m_lines << verticalLine(m_plot, double(b) + 0.5, QPen(kBucket, 2, Qt::SolidLine));
        hi = std::max(hi, double(b));
    }
    const double margin = std::max(1.0, (hi - lo) * 0.05);
    m_plot->xAxis->setRange(lo - margin, hi + margin);
    m_plot->yAxis->setRange(0, top * 1.15);
    m_plot->replot();
}

} // namespace AotStudio::Widgets
