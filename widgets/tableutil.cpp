// SPDX-License-Identifier: GPL-3.0-or-later
#include "tableutil.h"

#include "tablecopy.h"

#include <QHeaderView>
#include <QTableView>

namespace AotStudio::Widgets {

void setUpTableView(QTableView *view, QAbstractItemModel *model)
{
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setAlternatingRowColors(true);
    view->setSortingEnabled(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    view->horizontalHeader()->setHighlightSections(false);

    installCopyAction(view);
}

} // namespace AotStudio::Widgets
