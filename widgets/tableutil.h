// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QAbstractItemModel;
class QTableView;

namespace AotStudio::Widgets {

/**
 * Sets up every table of the studio the same way (hotspot's habit): rows selected whole,
 * alternating colours, compact rows, sortable through the model's sort role (a proxy's
 * sortRole), last column stretched, Ctrl+C copies the selected rows as tab-separated text.
 */
void setUpTableView(QTableView *view, QAbstractItemModel *model);

} // namespace AotStudio::Widgets
