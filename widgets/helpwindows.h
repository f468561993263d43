// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

class QWidget;

namespace AotStudio::Widgets {

/**
 * The studio's secondary windows and its Help menu (issue 35 item 10): one way to make a window
 * beside the main one (Esc and Ctrl+W close it, as in Qt Creator's and RenderDoc's tool windows),
 * the shortcut list read from the live actions, and the documentation shipped with the studio
 * rendered from its Markdown.
 */
namespace HelpWindows {

/// A top-level window owned by `parent` (closed with it), deleted when closed, closed by Esc and
/// by Ctrl+W (QKeySequence::Close); `name` is its object name. The caller adds the layout.
QWidget *secondaryWindow(QWidget *parent, const QString &name, const QString &title);

/// Every shortcut a user can press in `window`: its actions with a shortcut (text without the
/// mnemonic '&' and the trailing '…', the shortcut in the platform's native text) and the keys of
/// the graph canvas (GraphCanvas::keyBindings()), sorted by action text. Pairs of (shortcut, what).
QList<QPair<QString, QString>> shortcuts(const QWidget *window);

/// Help → Keyboard Shortcuts: the list above in a secondary window (a table, copyable).
QWidget *showShortcuts(QWidget *window);

/// Where the shipped Markdown documents are: `$AOTSTUDIO_DOCS`, else `share/doc/aotstudio` beside
/// the installed binary (`bin/../share/doc/aotstudio`), else the source checkout the studio was
/// built from (a developer build). Empty when none holds README.md.
QString documentationFolder();

/// The documents Help → Documentation lists, as paths under `folder`: README.md first, then
/// the protocol, bundle, profile and serving references that exist there.
QStringList documents(const QString &folder);

/// Help → Documentation: the documents in a secondary window, a list on the left and the chosen
/// one rendered (QTextBrowser's Markdown) on the right; links between them are followed. Says so
/// in the window when no documentation folder is found.
QWidget *showDocumentation(QWidget *window);

} // namespace HelpWindows

} // namespace AotStudio::Widgets
