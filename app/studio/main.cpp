// SPDX-License-Identifier: GPL-3.0-or-later
// The studio's main: parse the command line, install the translation, show the window, start
// the engine. Everything else lives in aotstudio_widgets and aotstudio_client.
#include "widgets/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QLocale>
#include <QTimer>
#include <QTranslator>

#include <cstdio>
#include <memory>

using AotStudio::Widgets::MainWindow;

namespace {

/// The language must be known before the parser's own (translated) help text is built, so
/// `--lang` is looked up by hand first.
QString requestedLanguage(const QStringList &arguments)
{
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString &arg = arguments.at(i);
        if ((arg == QLatin1String("--lang") || arg == QLatin1String("-lang"))
            && i + 1 < arguments.size())
            return arguments.at(i + 1);
        if (arg.startsWith(QLatin1String("--lang=")))
            return arg.mid(7);
    }
    return MainWindow::languageSetting();
}

void installTranslations(QApplication &app, const QString &language)
{
    const QLocale locale = language.isEmpty() ? QLocale::system() : QLocale(language);
    QLocale::setDefault(locale);
    // The .qm files are compiled into the widgets library by qt_add_translations (/i18n).
    auto *studio = new QTranslator(&app);
    if (studio->load(locale, QStringLiteral("aotstudio"), QStringLiteral("_"),
                     QStringLiteral(":/i18n")))
        app.installTranslator(studio);
    auto *qt = new QTranslator(&app); // standard dialog buttons, when Qt's own are installed
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        app.installTranslator(qt);
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("AOTStudio"));
    QApplication::setOrganizationDomain(QStringLiteral("aotstudio.github.io"));
    QApplication::setApplicationName(QStringLiteral("AOTStudio"));
    QApplication::setApplicationVersion(QStringLiteral(AOTSTUDIO_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.github.aotstudio.AOTStudio"));

    installTranslations(app, requestedLanguage(QApplication::arguments()));
    QApplication::setApplicationDisplayName(QCoreApplication::translate("main", "AOT Studio"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "AOT Studio: compile PyTorch models ahead of time with AOTInductor."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption modelOption(
        QStringLiteral("model"), QCoreApplication::translate("main", "Model to select: sample:NAME or file.py:factory."),
        QCoreApplication::translate("main", "spec"));
    const QCommandLineOption deviceOption(QStringLiteral("device"),
                                          QCoreApplication::translate("main", "Device to select: cpu or cuda."),
                                          QCoreApplication::translate("main", "device"));
    const QCommandLineOption outOption(QStringLiteral("out"),
                                       QCoreApplication::translate("main", "Output folder for the job."),
                                       QCoreApplication::translate("main", "dir"));
    const QCommandLineOption compileOption(
        QStringLiteral("compile"), QCoreApplication::translate("main", "Start compiling as soon as the engine is ready."));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QCoreApplication::translate("main", "After the first result or error, save the window as PNG to FILE and quit."),
        QCoreApplication::translate("main", "FILE"));
    const QCommandLineOption screenshotAfterOption(
        QStringLiteral("screenshot-after-ms"),
        QCoreApplication::translate("main", "With --screenshot: take it after this many milliseconds at the latest."),
        QCoreApplication::translate("main", "ms"));
    const QCommandLineOption langOption(QStringLiteral("lang"),
                                        QCoreApplication::translate("main", "Interface language: en or zh_CN."),
                                        QCoreApplication::translate("main", "language"));
    parser.addOptions({modelOption, deviceOption, outOption, compileOption, screenshotOption,
                       screenshotAfterOption, langOption});
    parser.process(app);

    MainWindow window;
    if (parser.isSet(modelOption))
        window.setModel(parser.value(modelOption));
    if (parser.isSet(deviceOption))
        window.setDevice(parser.value(deviceOption));
    if (parser.isSet(outOption))
        window.setOutputDirectory(parser.value(outOption));

    int exitCode = 0;
    if (parser.isSet(screenshotOption)) {
        const QString file = parser.value(screenshotOption);
        // Queued so the window has laid out and painted the last change before the grab.
        auto shot = std::make_shared<bool>(false);
        auto shoot = [&window, &exitCode, file, shot] {
            if (std::exchange(*shot, true))
                return; // the first trigger wins
            QTimer::singleShot(300, &window, [&window, &exitCode, file] {
                if (!window.grab().save(file)) {
                    std::fprintf(stderr, "%s\n",
                                 qPrintable(QCoreApplication::translate("main", "Cannot write %1").arg(file)));
                    exitCode = 1;
                }
                window.close();
                QApplication::exit(exitCode);
            });
        };
        QObject::connect(&window, &MainWindow::jobFinished, &window, shoot);
        QObject::connect(window.engineClient(), &AotStudio::Client::EngineClient::engineFailed,
                         &window, shoot);
        if (parser.isSet(screenshotAfterOption)) {
            bool ok = false;
            const int ms = parser.value(screenshotAfterOption).toInt(&ok);
            if (!ok || ms < 0) {
                std::fprintf(stderr, "%s\n",
                             qPrintable(QCoreApplication::translate("main", "--screenshot-after-ms needs a number")));
                return 2;
            }
            QTimer::singleShot(ms, &window, shoot);
        } else if (!parser.isSet(compileOption)) {
            // Nothing will finish on its own: shoot once the engine answered.
            QObject::connect(window.engineClient(),
                             &AotStudio::Client::EngineClient::handshakeCompleted, &window, shoot);
        }
    }

    window.show();
    window.startEngine();
    if (parser.isSet(compileOption))
        window.compileWhenReady();
    const int rc = app.exec();
    return exitCode != 0 ? exitCode : rc;
}
