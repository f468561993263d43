// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QWidget>

class QCustomPlot;
class QCPBars;
class QCPItemStraightLine;

namespace AotStudio::Widgets {

/**
 * One dynamic dimension of a capture's proposal (FORMAT.md "capture", proposal.json `dims[i]`:
 * name, members, histogram {size: calls}, spec_min, spec_max) as a bar chart of the recorded
 * sizes (x: the size, y: calls), with the dynamic range drawn as two green lines (its min and max,
 * half a size outside the bars they hold) and, for the batch, each bucket's size as an orange
 * line; sizes outside the range are drawn red, sizes the buckets leave without one grey.
 * setRange() and setBuckets() redraw the lines after an edit (the dialog's spin boxes and bucket
 * list). No editing of its own.
 */
class CaptureHistogram : public QWidget
{
    Q_OBJECT
public:
    /// `dim` is one entry of proposal.json's `dims`.
    explicit CaptureHistogram(const QJsonObject &dim, QWidget *parent = nullptr);

    QString name() const { return m_name; }
    /// Recorded size -> calls.
    const QMap<long long, long long> &histogram() const { return m_histogram; }
    QCustomPlot *plot() const { return m_plot; }
    /// The dynamic range drawn ([lo, hi], sizes); lo > hi: none (a static dimension).
    void setRange(long long lo, long long hi);
    long long rangeMin() const { return m_lo; }
    long long rangeMax() const { return m_hi; }
    /// The bucket sizes drawn (ascending); empty: none.
    void setBuckets(const QList<long long> &buckets);
    const QList<long long> &buckets() const { return m_buckets; }
    /// Calls of recorded sizes outside the range.
    long long callsOutsideRange() const;

private:
    void redraw();

    QString m_name;
    QMap<long long, long long> m_histogram;
    long long m_lo = 1, m_hi = 0;
    QList<long long> m_buckets;
    QCustomPlot *m_plot;
    QCPBars *m_inside = nullptr;
    QCPBars *m_outside = nullptr;
    QList<QCPItemStraightLine *> m_lines;
};

} // namespace AotStudio::Widgets
