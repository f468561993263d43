// SPDX-License-Identifier: GPL-3.0-or-later
#include "numberformat.h"

#include <QLocale>

namespace AotStudio::Widgets {

QString formatNumber(double value, char format, int precision)
{
    const QLocale locale;
    QString text = locale.toString(value, format, precision);
    const QString exponential = locale.exponential();
    if (!exponential.isEmpty() && exponential != QLatin1String("e"))
        text.replace(exponential, QStringLiteral("e"));
    return text;
}

QString formatPercent(double fraction, int decimals)
{
    return formatNumber(fraction * 100.0, 'f', decimals) + QLatin1Char('%');
}

} // namespace AotStudio::Widgets
