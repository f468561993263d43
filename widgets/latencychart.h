// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/compileresult.h"

#include <QStringList>
#include <QWidget>

#include <utility>

class QCustomPlot;

namespace AotStudio::Widgets {

/**
 * Eager vs compiled median latency as horizontal bars, with the p10–p90 spread as error bars.
 *
 * The value axis follows the medians, not the whiskers: one noisy run (a median of 0.05 ms with
 * a p90 of 32 ms) would otherwise squash both bars into slivers. A whisker longer than the axis
 * is cut at the edge and labelled with its p90.
 */
class LatencyChart : public QWidget
{
    Q_OBJECT
public:
    /// The axis may hold whiskers up to this many times the larger median; beyond, it clips them.
    static constexpr double MaxWhiskerRatio = 3.0;
    /// Room right of the longer bar when whiskers are clipped, as a multiple of its median.
    static constexpr double ClippedAxisRatio = 1.5;

    explicit LatencyChart(QWidget *parent = nullptr);
    /// Shows the result's two variants; NaN medians draw nothing. @p greyed (an "unreliable"
    /// verdict) draws the bars grey and marks the axis label, like the figures beside the chart.
    void setResult(const Client::CompileResult &result, bool greyed = false);
    /// True while the bars are drawn greyed.
    bool isGreyed() const { return m_greyed; }
    void clear();

    /// The value (latency) axis range in ms, lower and upper.
    std::pair<double, double> valueRange() const;
    /// The labels drawn for whiskers cut at the axis edge (e.g. "p90 32 ms ▸"), one per variant.
    QStringList clippedLabels() const { return m_clippedLabels; }

private:
    QCustomPlot *m_plot;
    QStringList m_clippedLabels;
    bool m_greyed = false;
};

} // namespace AotStudio::Widgets
