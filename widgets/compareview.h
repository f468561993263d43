// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "compare/compare.h"

#include <QWidget>

#include <memory>

class QCustomPlot;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QTextBrowser;

namespace AotStudio::Widgets {

class ChartBox;
class CompareFieldModel;
class CompareKernelModel;
class GraphDiffView;
class JobTracker;
class SnapshotCache;

/**
 * Two finished jobs side by side (File → Compare With…): what core/compare computed
 * (Compare::compareFolders, the same as `aotstudio-cli compare A B`), drawn in three tabs:
 * **Summary** (the fields of A and B, differing ones marked; compiled latency, speedup and the
 * latency ratio with its 95% interval, the verdict and notes), **Kernels** (only in A, only in B,
 * changed with the source diff, renamed, unchanged; time per call in each job, B − A and B / A
 * when both were profiled, "not profiled" otherwise) and **Graph** (per stage both jobs have: A's
 * snapshot against B's in a GraphDiffView, with the nodes only in A or B and the op counts that
 * differ), **Memory** (issue 40: each compile's predicted, planned and measured peak and its weights
 * as bars of A and B, the buffers only in A and only in B (paired by the nodes they hold), and
 * the refused fusions counted per Inductor reason and the nodes per fusion status side by side;
 * from memory.json and fusion.json, said plainly when a side has none). The view computes nothing itself; a refusal (two jobs of different models, a folder
 * that is not a job) is shown as its message.
 *
 * @code
 *   auto *view = new CompareView;
 *   view->compareFolders(dirA, dirB); // read off the UI thread; comparisonChanged() follows
 * @endcode
 */
class CompareView : public QWidget
{
    Q_OBJECT
public:
    enum Tab { SummaryTab, KernelsTab, GraphTab, MemoryTab };

    explicit CompareView(QWidget *parent = nullptr);
    ~CompareView() override;

    /// Reads and compares the job folders `a` and `b` on a worker thread (a later call drops an
    /// earlier one still in flight); the result or the refusal is shown when it is there.
    void compareFolders(const QString &a, const QString &b);
    /// Shows a computed comparison (nullptr clears).
    void setComparison(std::shared_ptr<const Compare::Comparison> comparison);
    /// Shows why the two jobs cannot be compared (the CompareError's message) instead of tabs.
    void showRefusal(const QString &message);
    std::shared_ptr<const Compare::Comparison> comparison() const { return m_comparison; }
    /// The refusal shown; empty when a comparison (or nothing) is shown.
    QString refusal() const { return m_refusal; }
    /// The background comparison (isRunning(), waitForIdle() for tests).
    JobTracker *compareJob() const { return m_compareJob; }
    /// The background read of the selected stage's two snapshots (for tests).
    JobTracker *stageJob() const { return m_stageJob; }

    /// Shows the graph diff of `stage` (one both jobs have); false when there is no such stage.
    bool selectStage(const QString &stage);
    QString currentStage() const;
    /// Selects the kernel named `name` (in A or B) in the kernel table and shows its source diff.
    bool selectKernel(const QString &name);
    void setCurrentTab(Tab tab);

    CompareFieldModel *fieldModel() const { return m_fields; }
    CompareKernelModel *kernelModel() const { return m_kernels; }
    GraphDiffView *graphDiffView() const { return m_graph; }
    /// The source diff shown for the selected kernel.
    QString sourceDiffText() const;
    /// The time summary (latency, ratio with interval, verdict) as plain text.
    QString timeSummaryText() const;
    /// The selected stage's summary line (nodes only in A / B, changed, op counts).
    QString stageSummaryText() const;
    /// The Memory tab's text (buffers only in A / B, fusion counts) as plain text.
    QString memoryText() const;
    /// The Memory tab's peak chart (or its note when neither side has a plan).
    ChartBox *memoryChart() const { return m_memoryChart; }

Q_SIGNALS:
    /// A comparison or a refusal is shown.
    void comparisonChanged();

private:
    void showKernelRow(int sourceRow);
    void showStage(int index);
    void updateHeader();
    QString timeHtml() const;
    QString memoryHtml() const;
    void drawMemoryPeaks();

    std::shared_ptr<const Compare::Comparison> m_comparison;
    QString m_refusal;
    QLabel *m_header;
    QLabel *m_refusalLabel;
    QTabWidget *m_tabs;
    CompareFieldModel *m_fields;
    QTableView *m_fieldView;
    QTextBrowser *m_time;
    CompareKernelModel *m_kernels;
    QSortFilterProxyModel *m_kernelProxy;
    QTableView *m_kernelView;
    QLabel *m_kernelSummary;
    QLabel *m_diffTitle;
    QPlainTextEdit *m_diff;
    QComboBox *m_stage;
    QLabel *m_stageSummary;
    GraphDiffView *m_graph;
    ChartBox *m_memoryChart;
    QTextBrowser *m_memory;
    JobTracker *m_compareJob;
    JobTracker *m_stageJob;
    std::shared_ptr<SnapshotCache> m_snapshots;
};

} // namespace AotStudio::Widgets
