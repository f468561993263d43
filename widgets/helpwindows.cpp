// SPDX-License-Identifier: GPL-3.0-or-later
#include "helpwindows.h"

#include "graphview/graphcanvas.h"
#include "tablecopy.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QListWidget>
#include <QShortcut>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace AotStudio::Widgets::HelpWindows {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("AotStudio::Widgets::HelpWindows", text);
}

/// The documents in the order Help → Documentation lists them, with their titles.
struct Document {
    const char *path; ///< relative to the documentation folder (as in the source tree)
    const char *title; ///< QT_TRANSLATE_NOOP'd
};
constexpr Document kDocuments[] = {
    {"README.md", QT_TRANSLATE_NOOP("AotStudio::Widgets::HelpWindows", "Getting started (README)")},
    {"core/protocol/FORMAT.md",
     QT_TRANSLATE_NOOP("AotStudio::Widgets::HelpWindows", "Engine protocol and job folders")},
    {"core/runtime/BUNDLE.md", QT_TRANSLATE_NOOP("AotStudio::Widgets::HelpWindows", "Bundles and aotstudio-run")},
    {"core/profiler/PROFILE.md", QT_TRANSLATE_NOOP("AotStudio::Widgets::HelpWindows", "Profiles and measuring")},
    {"app/run/SERVING.md", QT_TRANSLATE_NOOP("AotStudio::Widgets::HelpWindows", "Serving")},
    {"core/graph/SCHEMA.md", QT_TRANSLATE_NOOP("AotStudio::Widgets::HelpWindows", "Graph snapshots")},
    {"core/client/SESSION.md", QT_TRANSLATE_NOOP("AotStudio::Widgets::HelpWindows", "Session files")},
    {"HACKING.md", QT_TRANSLATE_NOOP("AotStudio::Widgets::HelpWindows", "Hacking on AOT Studio")},
    {"docs/DESIGN.md", QT_TRANSLATE_NOOP("AotStudio::Widgets::HelpWindows", "Design")},
    {"docs/STYLE.md", QT_TRANSLATE_NOOP("AotStudio::Widgets::HelpWindows", "Code style")},
};

QString cleanText(QString text)
{
    text.remove(QLatin1Char('&'));
    if (text.endsWith(QStringLiteral("…")))
        text.chop(1);
    return text;
}

} // namespace

QWidget *secondaryWindow(QWidget *parent, const QString &name, const QString &title)
{
    auto *window = new QWidget(parent, Qt::Window);
    window->setObjectName(name);
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->setWindowTitle(title);
    // Esc, Ctrl+W and the platform's other Close bindings (Ctrl+F4 on X11): each its own shortcut,
    // since a QShortcut takes only the first binding of a standard key.
    QList<QKeySequence> keys = QKeySequence::keyBindings(QKeySequence::Close);
    keys << QKeySequence(Qt::Key_Escape) << QKeySequence(Qt::CTRL | Qt::Key_W);
    QList<QKeySequence> seen;
    for (const QKeySequence &key : std::as_const(keys)) {
        if (seen.contains(key))
            continue;
        seen << key;
        auto *close = new QShortcut(key, window);
        close->setContext(Qt::WindowShortcut);
        QObject::connect(close, &QShortcut::activated, window, &QWidget::close);
    }
    return window;
}

QList<QPair<QString, QString>> shortcuts(const QWidget *window)
{
    QList<QPair<QString, QString>> out;
    QStringList seen;
    for (const QAction *action : window->findChildren<QAction *>()) {
        if (action->shortcut().isEmpty() || action->text().isEmpty())
            continue;
        const QString key = action->shortcut().toString(QKeySequence::NativeText);
        const QString what = cleanText(action->text());
        if (seen.contains(key + what))
            continue;
        seen << key + what;
        out.append({key, what});
    }
    std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
    for (const auto &binding : GraphCanvas::keyBindings())
        out.append({binding.first, tr("Graph: %1").arg(binding.second)});
    return out;
}

QWidget *showShortcuts(QWidget *parent)
{
    QWidget *window = secondaryWindow(parent, QStringLiteral("shortcutsWindow"), tr("Keyboard Shortcuts"));
    auto *model = new QStandardItemModel(0, 2, window);
    model->setHorizontalHeaderLabels({tr("Shortcut"), tr("Action")});
    for (const auto &[key, what] : shortcuts(parent))
        model->appendRow({new QStandardItem(key), new QStandardItem(what)});
    auto *view = new QTableView(window);
    view->setObjectName(QStringLiteral("shortcutsTable"));
    view->setModel(model);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    view->resizeColumnsToContents();
    installCopyAction(view);
    auto *layout = new QVBoxLayout(window);
    layout->addWidget(view);
    window->resize(560, 520);
    window->show();
    return window;
}

QString documentationFolder()
{
    QStringList candidates;
    if (const QString env = qEnvironmentVariable("AOTSTUDIO_DOCS"); !env.isEmpty())
        candidates << env;
    candidates << QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../share/doc/aotstudio"));
#ifdef AOTSTUDIO_SOURCE_DIR
    candidates << QStringLiteral(AOTSTUDIO_SOURCE_DIR);
#endif
    for (const QString &c : std::as_const(candidates))
        if (QFileInfo::exists(QDir(c).filePath(QStringLiteral("README.md"))))
            return QDir(c).canonicalPath();
    return {};
}

QStringList documents(const QString &folder)
{
    QStringList out;
    if (folder.isEmpty())
        return out;
    for (const Document &d : kDocuments)
        if (QFileInfo::exists(QDir(folder).filePath(QLatin1String(d.path))))
            out << QDir(folder).filePath(QLatin1String(d.path));
    return out;
}

QWidget *showDocumentation(QWidget *parent)
{
    QWidget *window = secondaryWindow(parent, QStringLiteral("documentationWindow"), tr("AOT Studio Documentation"));
    auto *layout = new QVBoxLayout(window);
    const QString folder = documentationFolder();
    const QStringList paths = documents(folder);
    if (paths.isEmpty()) {
        auto *none = new QLabel(
            tr("No documentation was found: looked in $AOTSTUDIO_DOCS and in %1. Install the "
               "studio with its documentation (cmake --install) or set AOTSTUDIO_DOCS to a "
               "folder holding README.md.")
                .arg(QDir::toNativeSeparators(
                    QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../share/doc/aotstudio")))),
            window);
        none->setObjectName(QStringLiteral("documentationMissing"));
        none->setWordWrap(true);
        layout->addWidget(none);
        window->resize(520, 160);
        window->show();
        return window;
    }
    auto *splitter = new QSplitter(window);
    auto *list = new QListWidget(splitter);
    list->setObjectName(QStringLiteral("documentationList"));
    auto *browser = new QTextBrowser(splitter);
    browser->setObjectName(QStringLiteral("documentationBrowser"));
    browser->setOpenExternalLinks(true); // web links in the browser; links between the documents here
    browser->setSearchPaths({folder});
    for (const QString &path : paths) {
        const QString relative = QDir(folder).relativeFilePath(path);
        const auto it = std::find_if(std::begin(kDocuments), std::end(kDocuments),
                                     [&](const Document &d) { return relative == QLatin1String(d.path); });
        auto *item = new QListWidgetItem(tr(it->title), list);
        item->setData(Qt::UserRole, path);
        item->setToolTip(relative);
    }
    QObject::connect(list, &QListWidget::currentRowChanged, browser, [list, browser](int row) {
        if (row >= 0)
            browser->setSource(QUrl::fromLocalFile(list->item(row)->data(Qt::UserRole).toString()),
                               QTextDocument::MarkdownResource);
    });
    splitter->addWidget(list);
    splitter->addWidget(browser);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({220, 760});
    layout->addWidget(splitter);
    list->setCurrentRow(0);
    window->resize(1000, 720);
    window->show();
    return window;
}

} // namespace AotStudio::Widgets::HelpWindows
