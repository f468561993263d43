// SPDX-License-Identifier: GPL-3.0-or-later
#include "language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QPointer>
#include <QTranslator>

namespace AotStudio::Widgets {

namespace {
QPointer<QTranslator> g_studio; ///< the studio's translation install() installed
QPointer<QTranslator> g_qt;     ///< Qt's own (standard dialog buttons), when installed
QString g_current;
} // namespace

bool Language::install(const QString &code)
{
    auto *app = QCoreApplication::instance();
    // The previous language's translators go first: translators installed later take precedence,
    // but a string the new one lacks must not show in the old language.
    for (QPointer<QTranslator> *old : {&g_studio, &g_qt}) {
        if (*old) {
            QCoreApplication::removeTranslator(*old);
            delete old->data();
        }
    }
    QLocale locale = code.isEmpty() ? QLocale::system() : QLocale(code);
    bool found = true;
    auto *studio = new QTranslator(app);
    if (studio->load(locale, QStringLiteral("aotstudio"), QStringLiteral("_"), QStringLiteral(":/i18n"))) {
        QCoreApplication::installTranslator(studio);
        g_studio = studio;
    } else {
        delete studio;
        found = code.isEmpty(); // the system's language without a translation: English, as asked
        if (!found)
            locale = QLocale(QLocale::English, QLocale::UnitedStates);
    }
    QLocale::setDefault(locale);
    auto *qt = new QTranslator(app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
        g_qt = qt;
    } else {
        delete qt;
    }
    g_current = code;
    return found;
}

QString Language::current()
{
    return g_current;
}

} // namespace AotStudio::Widgets
