// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/compileresult.h"

#include <QWidget>

class QCustomPlot;

namespace AotStudio::Widgets {

/// Eager vs compiled median latency as horizontal bars, with the p10–p90 spread as error bars.
class LatencyChart : public QWidget
{
    Q_OBJECT
public:
    explicit LatencyChart(QWidget *parent = nullptr);
    /// Shows the result's two variants; NaN medians draw nothing.
    void setResult(const Client::CompileResult &result);
    void clear();

private:
    QCustomPlot *m_plot;
};

} // namespace AotStudio::Widgets
