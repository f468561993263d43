// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/memoryplan.h"
#include "hubviewer.h"

#include <QWidget>

#include <memory>

class QCPItemStraightLine;
class QCustomPlot;
class QLabel;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;

namespace AotStudio::Widgets {

class ChartBox;
class SelectionHub;

/**
 * The Memory dock (headed by the job, JobView): how the current compile's package plans its memory (FORMAT.md "Memory plan",
 * memory.json beside the package). A summary line (Inductor's predicted peak and the planned
 * peak, where each is, the weights apart), the live bytes along the kernel order (both curves,
 * the peak marked) above a Gantt of every buffer's lifetime on the same step axis (coloured by
 * how its storage is obtained: allocated, reused, returned by an extern call, none), and every
 * buffer in a table. Picking a buffer selects its first node in every view (the hub); a node
 * picked elsewhere highlights the buffers that hold it.
 */
class MemoryPanel : public QWidget, public HubViewer
{
    Q_OBJECT
public:
    explicit MemoryPanel(SelectionHub *hub, QWidget *parent = nullptr);

    void onSessionChanged(Client::Session *) override { reload(); }
    void onJobChanged(qint64) override { reload(); }
    void onJobUpdated(qint64) override { reload(); }
    void onResultsChanged() override { reload(); }
    void onNodeChanged(const QString &node) override;

    /// Shows `plan` (tests; reload() reads the current job's memory.json).
    void setPlan(std::shared_ptr<const Client::MemoryPlan> plan);
    /// Shows `note` (already translated) instead of the plan.
    void showNote(const QString &note);
    std::shared_ptr<const Client::MemoryPlan> plan() const { return m_plan; }
    QString summaryText() const;
    QTableView *table() const { return m_table; }
    QCustomPlot *plot() const;
    /// Rows of the table highlighted for the node picked elsewhere.
    QList<int> highlightedBuffers() const { return m_highlighted; }

private:
    void reload();
    void draw();
    void bufferPicked(int row);

    SelectionHub *m_hub;
    QString m_shownPath; ///< the memory.json shown ("" when none)
    std::shared_ptr<const Client::MemoryPlan> m_plan;
    QLabel *m_summary;
    ChartBox *m_chart;
    QStandardItemModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QList<int> m_highlighted;
};

} // namespace AotStudio::Widgets
