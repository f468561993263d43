// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QWidget>

namespace AotStudio::Widgets {

/**
 * The sequential colour scale of numerical error (ColourMode::NumericError): ColorBrewer's
 * YlOrRd on a log scale anchored at the run's tolerance, from tolerance / 1000 (pale yellow) to
 * 10 × tolerance and above (dark red), so "past the tolerance" is the red end whatever the dtype.
 * NaN (a node whose value is not a number) is dark purple; a node without a value is grey.
 */
namespace ErrorScale {
/// Position 0..1 of `normError` on the scale (NaN for NaN, 1 for infinity).
double position(double normError, double tolerance);
/// The fill of a node with this error.
QColor colour(double normError, double tolerance);
/// The fill of a node that has no value on this side.
QColor missingColour();
/// The fill of a node whose error is NaN.
QColor nanColour();
/// Decades below the tolerance where the scale starts (3), and above it where it ends (1).
inline constexpr double DecadesBelow = 3, DecadesAbove = 1;
} // namespace ErrorScale

/// The legend of ErrorScale: the gradient with the tolerance marked, NaN and "no value" swatches.
class ErrorScaleLegend : public QWidget
{
    Q_OBJECT
public:
    explicit ErrorScaleLegend(QWidget *parent = nullptr);
    void setTolerance(double tolerance);
    double tolerance() const { return m_tolerance; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    double m_tolerance = 1e-4;
};

} // namespace AotStudio::Widgets
