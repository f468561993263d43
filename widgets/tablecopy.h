// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QAbstractItemView;

namespace AotStudio::Widgets {

/**
 * The selected rows of @p view as tab-separated text: one line per selected row (in view order),
 * the visible columns in their visual order, each cell's display text with tabs and newlines
 * replaced by spaces. Empty when nothing is selected.
 */
QString selectedRowsAsTsv(const QAbstractItemView *view);

/**
 * Adds a Copy action (QKeySequence::Copy, Ctrl+C) to @p view, shown in its context menu, that
 * puts selectedRowsAsTsv() on the clipboard. The action is a child of the view.
 */
void installCopyAction(QAbstractItemView *view);

} // namespace AotStudio::Widgets
