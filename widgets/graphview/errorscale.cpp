// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphview/errorscale.h"

#include <QLinearGradient>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace AotStudio::Widgets {

namespace {
// ColorBrewer YlOrRd, 6 classes (Cynthia Brewer, Apache-2.0 licensed colour specifications).
const QColor Stops[] = {QColor(0xff, 0xff, 0xb2), QColor(0xfe, 0xd9, 0x76), QColor(0xfe, 0xb2, 0x4c),
                        QColor(0xfd, 0x8d, 0x3c), QColor(0xf0, 0x3b, 0x20), QColor(0xbd, 0x00, 0x26)};
constexpr int StopCount = int(std::size(Stops));

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t), float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

QColor at(double t)
{
    t = std::clamp(t, 0.0, 1.0) * (StopCount - 1);
    const int i = std::min(int(t), StopCount - 2);
    return mix(Stops[i], Stops[i + 1], t - i);
}
} // namespace

double ErrorScale::position(double normError, double tolerance)
{
    if (std::isnan(normError))
        return normError;
    if (std::isinf(normError))
        return 1;
    if (normError <= 0 || !(tolerance > 0))
        return 0;
    const double decades = std::log10(normError / tolerance);
    return std::clamp((decades + DecadesBelow) / (DecadesBelow + DecadesAbove), 0.0, 1.0);
}

QColor ErrorScale::colour(double normError, double tolerance)
{
    const double t = position(normError, tolerance);
    return std::isnan(t) ? nanColour() : at(t);
}

QColor ErrorScale::missingColour()
{
    return QColor(0xe4, 0xe4, 0xe4);
}

QColor ErrorScale::nanColour()
{
    return QColor(0x54, 0x27, 0x8f);
}

ErrorScaleLegend::ErrorScaleLegend(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("errorScaleLegend"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void ErrorScaleLegend::setTolerance(double tolerance)
{
    m_tolerance = tolerance;
    update();
}

QSize ErrorScaleLegend::sizeHint() const
{
    return {460, fontMetrics().height() * 2 + 14};
}

QSize ErrorScaleLegend::minimumSizeHint() const
{
    return {300, sizeHint().height()};
}

void ErrorScaleLegend::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm = fontMetrics();
    const int barHeight = 12;
    // Right: the two swatches that are not on the gradient.
    const QString nanText = tr("NaN");
    const QString missingText = tr("no value");
    const int swatch = barHeight;
    const int right = width() - 4;
    const int missingX = right - fm.horizontalAdvance(missingText) - swatch - 4;
    const int nanX = missingX - 12 - fm.horizontalAdvance(nanText) - swatch - 4;
    const int top = 3;
    p.setPen(QColor(0x70, 0x70, 0x70));
    p.setBrush(ErrorScale::nanColour());
    p.drawRect(nanX, top, swatch, swatch);
    p.setBrush(ErrorScale::missingColour());
    p.drawRect(missingX, top, swatch, swatch);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(nanX + swatch + 4, top - 2, fm.horizontalAdvance(nanText) + 2, fm.height()), Qt::AlignLeft, nanText);
    p.drawText(QRect(missingX + swatch + 4, top - 2, fm.horizontalAdvance(missingText) + 2, fm.height()), Qt::AlignLeft,
               missingText);
    // Left: the gradient, a tick per decade, the tolerance in bold.
    const int x0 = 4 + fontMetrics().horizontalAdvance(QStringLiteral("3e-05")) / 2;
    const int x1 = std::max(x0 + 80, nanX - 24);
    QLinearGradient gradient(x0, 0, x1, 0);
    for (int i = 0; i < StopCount; ++i)
        gradient.setColorAt(double(i) / (StopCount - 1), Stops[i]);
    p.setPen(QColor(0x70, 0x70, 0x70));
    p.setBrush(gradient);
    p.drawRect(x0, top, x1 - x0, barHeight);
    const int decades = int(ErrorScale::DecadesBelow + ErrorScale::DecadesAbove);
    QFont bold = font();
    bold.setBold(true);
    for (int d = 0; d <= decades; ++d) {
        const int x = x0 + (x1 - x0) * d / decades;
        const double value = m_tolerance * std::pow(10.0, d - ErrorScale::DecadesBelow);
        const bool isTolerance = d == int(ErrorScale::DecadesBelow);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawLine(x, top + barHeight, x, top + barHeight + 3);
        QString label = QString::number(value, 'g', 2); // C locale: "1e-05" in every language
        if (isTolerance)
            label = tr("%1 (tolerance)").arg(label);
        if (d == decades)
            label.prepend(QStringLiteral("≥ "));
        p.setFont(isTolerance ? bold : font());
        const int w = QFontMetrics(p.font()).horizontalAdvance(label);
        const int lx = std::clamp(x - w / 2, 0, std::max(0, nanX - 6 - w));
        p.drawText(QRect(lx, top + barHeight + 3, w + 2, fm.height()), Qt::AlignLeft, label);
    }
}

} // namespace AotStudio::Widgets
