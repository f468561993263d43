// SPDX-License-Identifier: GPL-3.0-or-later
#include "tablecopy.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCoreApplication>
#include <QHeaderView>
#include <QTableView>
#include <QTreeView>

#include <algorithm>

namespace AotStudio::Widgets {

namespace {
QHeaderView *horizontalHeaderOf(const QAbstractItemView *view)
{
    if (const auto *table = qobject_cast<const QTableView *>(view))
        return table->horizontalHeader();
    if (const auto *tree = qobject_cast<const QTreeView *>(view))
        return tree->header();
    return nullptr;
}

QString cellText(const QModelIndex &index)
{
    QString text = index.data(Qt::DisplayRole).toString();
    text.replace(QLatin1Char('\t'), QLatin1Char(' '));
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text;
}
} // namespace

QString selectedRowsAsTsv(const QAbstractItemView *view)
{
    const QAbstractItemModel *model = view->model();
    const QItemSelectionModel *selection = view->selectionModel();
    if (!model || !selection)
        return {};

    // Rows touched by any selected cell, so both row and cell selection behaviours copy rows.
    QList<int> rows;
    const QModelIndexList selected = selection->selectedIndexes();
    for (const QModelIndex &index : selected) {
        if (!rows.contains(index.row()))
            rows << index.row();
    }
    std::sort(rows.begin(), rows.end());

    QList<int> columns;
    const QHeaderView *header = horizontalHeaderOf(view);
    for (int visual = 0; visual < model->columnCount(); ++visual) {
        const int logical = header ? header->logicalIndex(visual) : visual;
        if (logical < 0 || (header && header->isSectionHidden(logical)))
            continue;
        columns << logical;
    }

    QString text;
    for (int row : std::as_const(rows)) {
        QStringList cells;
        for (int column : std::as_const(columns))
            cells << cellText(model->index(row, column, view->rootIndex()));
        text += cells.join(QLatin1Char('\t')) + QLatin1Char('\n');
    }
    return text;
}

void installCopyAction(QAbstractItemView *view)
{
    auto *action = new QAction(QCoreApplication::translate("AotStudio::Widgets::TableCopy", "Copy Rows"), view);
    action->setObjectName(QStringLiteral("copyRowsAction"));
    action->setShortcut(QKeySequence::Copy);
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    view->addAction(action);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    QObject::connect(action, &QAction::triggered, view, [view] {
        const QString text = selectedRowsAsTsv(view);
        if (!text.isEmpty())
            QApplication::clipboard()->setText(text);
    });
}

} // namespace AotStudio::Widgets
