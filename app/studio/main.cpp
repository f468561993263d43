// SPDX-License-Identifier: GPL-3.0-or-later
// The studio's main: parse the command line, install the translation, show the window, start
// the engine. Everything else lives in aotstudio_widgets and aotstudio_client.
#include "client/remoteengine.h"
#include "widgets/language.h"
#include "widgets/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLocale>
#include <QTimer>
#include <QTranslator>

#include <cstdio>
#include <memory>

using AotStudio::Widgets::MainWindow;

namespace {

/// The languages shipped in translations/ (English is the source language).
const QStringList &availableLanguages()
{
    static const QStringList languages{QStringLiteral("en"), QStringLiteral("zh_CN")};
    return languages;
}

/// The studio's options. Built after the translation is installed so their help is translated.
struct Options
{
    QCommandLineOption model{
        QStringLiteral("model"),
        QCoreApplication::translate("main", "Model to select: sample:NAME or file.py:factory."),
        QCoreApplication::translate("main", "spec")};
    QCommandLineOption device{QStringLiteral("device"),
                              QCoreApplication::translate("main", "Device to select: cpu or cuda."),
                              QCoreApplication::translate("main", "device")};
    QCommandLineOption target{
        QStringLiteral("target"),
        QCoreApplication::translate("main",
                                    "Run jobs in the engine of this target environment (aotstudio-cli target "
                                    "list names them; \"\" for the studio's own), as the Target selector."),
        QCoreApplication::translate("main", "name")};
    QCommandLineOption out{QStringLiteral("out"),
                           QCoreApplication::translate("main", "Output folder for the job."),
                           QCoreApplication::translate("main", "dir")};
    QCommandLineOption compile{
        QStringLiteral("compile"),
        QCoreApplication::translate("main", "Start compiling as soon as the engine is ready.")};
    QCommandLineOption screenshot{
        QStringLiteral("screenshot"),
        QCoreApplication::translate(
            "main", "After the first result or error, save the window as PNG to FILE and quit."),
        QCoreApplication::translate("main", "FILE")};
    QCommandLineOption screenshotAfter{
        QStringLiteral("screenshot-after-ms"),
        QCoreApplication::translate(
            "main", "With --screenshot: take it after this many milliseconds at the latest."),
        QCoreApplication::translate("main", "ms")};
    QCommandLineOption engine{
        QStringLiteral("engine"),
        QCoreApplication::translate("main", "Run the engine on another machine: \"ssh [-p PORT] [-i KEY] [USER@]HOST "
                                            "PATH-OF-aotstudio-engine --serve [--jobs DIR]\" (as Engine → Connect…)."),
        QCoreApplication::translate("main", "command")};
    QCommandLineOption dock{QStringLiteral("dock"),
                            QCoreApplication::translate("main",
                                                        "Bring this dock to the front at start: graph, kernels, "
                                                        "memory, profile, quantization, sweep or tune."),
                            QCoreApplication::translate("main", "name")};
    QCommandLineOption lang{QStringLiteral("lang"),
                            QCoreApplication::translate("main", "Interface language: en or zh_CN."),
                            QCoreApplication::translate("main", "language")};

    void addTo(QCommandLineParser &parser) const
    {
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOptions({model, device, target, out, compile, screenshot, screenshotAfter, engine, dock, lang});
        parser.addPositionalArgument(
            QStringLiteral("session"),
            QCoreApplication::translate(
                "main",
                "A saved session (.aotsession), or a job folder of aotstudio-cli numerics or tune, "
                "to open without running anything."),
            QStringLiteral("[session]"));
    }
};

bool isKnownDevice(const QString &device)
{
    return device == QLatin1String("cpu") || device == QLatin1String("cuda");
}

bool isValidMilliseconds(const QString &text)
{
    bool ok = false;
    return text.toInt(&ok) >= 0 && ok;
}

/// Options that QGuiApplication and QApplication take out of the command line themselves
/// (their documentation, X11 ones included); the studio's parser never sees them.
bool hasQtGuiOption(const QStringList &arguments)
{
    static const QStringList names{
        QStringLiteral("platform"),     QStringLiteral("platformpluginpath"),
        QStringLiteral("platformtheme"), QStringLiteral("plugin"),
        QStringLiteral("qwindowgeometry"), QStringLiteral("qwindowicon"),
        QStringLiteral("qwindowtitle"), QStringLiteral("reverse"),
        QStringLiteral("session"),      QStringLiteral("style"),
        QStringLiteral("stylesheet"),   QStringLiteral("widgetcount"),
        QStringLiteral("display"),      QStringLiteral("geometry"),
        QStringLiteral("name"),         QStringLiteral("title"),
        QStringLiteral("visual"),       QStringLiteral("ncols"),
        QStringLiteral("cmap"),         QStringLiteral("nograb"),
        QStringLiteral("dograb"),       QStringLiteral("sync"),
        QStringLiteral("fn"),           QStringLiteral("font"),
        QStringLiteral("bg"),           QStringLiteral("background"),
        QStringLiteral("fg"),           QStringLiteral("foreground"),
        QStringLiteral("btn"),          QStringLiteral("button"),
        QStringLiteral("im"),           QStringLiteral("inputstyle"),
        QStringLiteral("qmljsdebugger")};
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString &arg = arguments.at(i);
        if (arg == QLatin1String("--"))
            break;
        if (!arg.startsWith(QLatin1Char('-')))
            continue;
        QString name = arg.mid(arg.startsWith(QLatin1String("--")) ? 2 : 1);
        name = name.left(name.indexOf(QLatin1Char('='))); // left(-1) is the whole string
        if (names.contains(name))
            return true;
    }
    return false;
}

/**
 * Whether this command line ends in a window. --help, --version and command-line errors must
 * work without a display (over ssh, in CI), and QApplication aborts without one, so they run
 * under a QCoreApplication. A line with Qt's own GUI options (-platform, -style) does not parse
 * here, as only QApplication removes them: it gets a window app, and the real parse below
 * reports anything else that is wrong.
 */
bool needsWindow(const QStringList &arguments)
{
    QCommandLineParser parser;
    Options options;
    options.addTo(parser);
    if (!parser.parse(arguments))
        return hasQtGuiOption(arguments);
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"))
        || parser.isSet(QStringLiteral("version")))
        return false;
    if (parser.isSet(options.device) && !isKnownDevice(parser.value(options.device).toLower()))
        return false;
    if (parser.isSet(options.screenshotAfter)
        && !isValidMilliseconds(parser.value(options.screenshotAfter)))
        return false;
    return true;
}

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

void installTranslations(const QString &language)
{
    // The .qm files are compiled into the widgets library by qt_add_translations (/i18n).
    if (!AotStudio::Widgets::Language::install(language)) {
        // Asked for by name, so say that it is not there instead of quietly showing English;
        // numbers follow the language shown, not the one asked for.
        std::fprintf(stderr, "%s\n",
                     qPrintable(QCoreApplication::translate("main",
                                                            "aotstudio: language \"%1\" is not available, using "
                                                            "English. Available languages: %2.")
                                    .arg(language, availableLanguages().join(QStringLiteral(", ")))));
    }
}

/// Prints a command-line error the way QCommandLineParser does and returns the exit code 2.
int usageError(const QString &message)
{
    std::fprintf(stderr, "%s: %s\n", qPrintable(QCoreApplication::applicationName().toLower()),
                 qPrintable(message));
    return 2;
}

} // namespace

int main(int argc, char *argv[])
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    const bool gui = needsWindow(arguments);
    const std::unique_ptr<QCoreApplication> app =
        gui ? std::make_unique<QApplication>(argc, argv)
            : std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("AOTStudio"));
    QCoreApplication::setOrganizationDomain(QStringLiteral("aotstudio.github.io"));
    QCoreApplication::setApplicationName(QStringLiteral("AOTStudio"));
    QCoreApplication::setApplicationVersion(QStringLiteral(AOTSTUDIO_VERSION));

    installTranslations(requestedLanguage(QCoreApplication::arguments()));
    if (gui) {
        QApplication::setDesktopFileName(QStringLiteral("io.github.aotstudio.AOTStudio"));
        QApplication::setApplicationDisplayName(QCoreApplication::translate("main", "AOT Studio"));
    }

    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "main", "AOT Studio: compile PyTorch models ahead of time with AOTInductor."));
    const Options options;
    options.addTo(parser);
    parser.process(*app); // --help, --version and unknown options end here

    // Checked before any window: a device nobody offers must not turn into a silent CPU job.
    const QString device = parser.value(options.device).toLower();
    if (parser.isSet(options.device) && !isKnownDevice(device))
        return usageError(QCoreApplication::translate("main", "unknown device \"%1\": use cpu or cuda.")
                              .arg(parser.value(options.device)));
    if (parser.isSet(options.screenshotAfter)
        && !isValidMilliseconds(parser.value(options.screenshotAfter)))
        return usageError(QCoreApplication::translate("main", "--screenshot-after-ms needs a number"));
    if (!gui)
        return usageError(QStringLiteral("internal error: no window for this command line"));
    AotStudio::Client::RemoteEngine remote;
    if (parser.isSet(options.engine) && !AotStudio::Client::RemoteEngine::fromCommandLine(parser.value(options.engine), &remote))
        return usageError(QCoreApplication::translate("main", "--engine takes an ssh command: \"ssh [-p PORT] [USER@]HOST "
                                                              "PATH-OF-aotstudio-engine --serve\", not \"%1\"")
                              .arg(parser.value(options.engine)));

    MainWindow window;
    if (parser.isSet(options.model))
        window.setModel(parser.value(options.model));
    if (parser.isSet(options.device))
        window.setDevice(device);
    if (parser.isSet(options.target))
        window.setTarget(parser.value(options.target));
    if (parser.isSet(options.out))
        window.setOutputDirectory(parser.value(options.out));
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1)
        return usageError(QCoreApplication::translate("main", "give at most one session file"));

    int exitCode = 0;
    if (parser.isSet(options.screenshot)) {
        const QString file = parser.value(options.screenshot);
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
        QObject::connect(&window, &MainWindow::compileBlocked, &window, shoot);
        QObject::connect(window.engineClient(), &AotStudio::Client::EngineClient::engineFailed,
                         &window, shoot);
        if (parser.isSet(options.screenshotAfter)) {
            QTimer::singleShot(parser.value(options.screenshotAfter).toInt(), &window, shoot);
        } else if (!parser.isSet(options.compile)) {
            // Nothing will finish on its own: shoot once the engine answered.
            QObject::connect(window.engineClient(),
                             &AotStudio::Client::EngineClient::handshakeCompleted, &window, shoot);
        }
    }

    // Why the engine did not start or died goes to stderr as well as into the window: a terminal,
    // the journal or a CI log (tests/packaging/check-deb.sh) sees it.
    QObject::connect(window.engineClient(), &AotStudio::Client::EngineClient::engineFailed, &window,
                     [](const QString &reason) { std::fprintf(stderr, "aotstudio: %s\n", qPrintable(reason)); });

    window.show();
    if (parser.isSet(options.dock)) {
        if (auto *d = window.findChild<QDockWidget *>(parser.value(options.dock) + QStringLiteral("Dock")))
            d->raise();
        else
            std::fprintf(stderr, "aotstudio: --dock: no dock named '%s'\n", qPrintable(parser.value(options.dock)));
    }
    // A session opened from the command line (or the file manager, through the MIME type) is
    // shown as soon as the window is; a bad file is reported in the window, which stays open.
    if (!positional.isEmpty()) {
        if (QFileInfo(positional.first()).isDir())
            window.openJobFolder(positional.first());
        else
            window.openSession(positional.first());
    }
    if (remote.isValid())
        window.connectRemote(remote);
    else
        window.startEngine();
    if (parser.isSet(options.compile))
        window.compileWhenReady();
    const int rc = app->exec();
    return exitCode != 0 ? exitCode : rc;
}
