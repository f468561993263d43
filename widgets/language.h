// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace AotStudio::Widgets {

/**
 * The studio's one way to set the UI language (`aotstudio --lang`, View → Language): installs the
 * studio's translation (compiled into the widgets library, /i18n) and Qt's own for `code` in
 * place of the ones installed before, and sets the default locale numbers follow. Installing sends
 * every widget a LanguageChange event; MainWindow rebuilds its widgets on it (a live switch).
 */
class Language
{
public:
    /// `code` "" (the system's), "en" or "zh_CN". Returns false, installing English and its
    /// locale, when there is no translation for it.
    static bool install(const QString &code);
    /// The language install() last installed ("" for the system's).
    static QString current();
};

} // namespace AotStudio::Widgets
