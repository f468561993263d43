// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace AotStudio::Widgets {

/**
 * A number in the default locale's digits and separators, but with a lowercase "e" exponent in
 * every language: some locales (zh_CN among them) write "5.96E-08" where English writes
 * "5.96e-08", and errors and latencies are compared across screenshots and bug reports.
 * format and precision as for QLocale::toString(double, char, int).
 */
QString formatNumber(double value, char format = 'g', int precision = 3);

/// `fraction` (0.987) as a percentage with `decimals` decimals ("98.7%"), digits as formatNumber.
QString formatPercent(double fraction, int decimals = 1);

} // namespace AotStudio::Widgets
