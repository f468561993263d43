// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/measurement.h"
#include "client/profileresult.h"
#include "hubviewer.h"

#include <QList>
#include <QWidget>

#include <functional>
#include <memory>

class QComboBox;
class QCustomPlot;
class QLabel;
class QTabWidget;
class QTableView;

namespace AotStudio::Widgets {

class ChartBox;
class JobTracker;
class SelectionHub;
class ThroughputModel;
class TimelineChart;

/**
 * A profile result (core/profiler/PROFILE.md) as charts: median latency per variant with its
 * p10–p90 spread and p99, the latency distribution, peak memory per variant, the kernel timeline
 * per stream and thread (from the profile's trace.json), the top kernels by total time, cold
 * start (package against eager) and throughput and p99 latency against the number of runners.
 * A plain `compile` result (core/protocol/FORMAT.md) shows its latency and distribution only.
 * Every section that was not measured shows a short note instead of its chart.
 *
 * Following a SelectionHub (follow()), it shows the hub's profile() whenever the results change
 * and redraws nothing when that is the result already shown; the trace is read again only when
 * its path changes.
 */
class ProfilePanel : public QWidget, public HubViewer
{
    Q_OBJECT
public:
    /// Maps a path as the engine wrote it to a readable local one (a remote engine's job directory).
    using PathResolver = std::function<QString(const QString &enginePath)>;

    explicit ProfilePanel(QWidget *parent = nullptr);

    /// Shows the hub's profile from now on (HubViewer), and marks the hub's kernel.
    void follow(SelectionHub *hub);

    /**
     * Shows @p result: a `profile` result, or a `compile` result's latency view (null: clear()).
     * Files the result references (the trace) are read through @p resolvePath (identity when empty).
     */
    void setProfile(std::shared_ptr<const Client::ProfileResult> result, PathResolver resolvePath = {});
    /// The result shown (null when none).
    std::shared_ptr<const Client::ProfileResult> profile() const { return m_shown; }
    /// Back to the empty state: every chart shows its "not measured" note.
    void clear();

    /// The charts that have data, for reports (each saved as a PNG; objectName names it).
    QList<QCustomPlot *> charts() const;

    /// The names of the top-kernel bars, longest total time first, for the current source.
    QStringList kernelBarNames() const { return m_kernelNames; }
    /// The kernel sources offered: a variant's name for its `kernels` (`aoti`, `nativert`, and on
    /// CUDA `eager`), `ops:eager` for eager's ATen `ops`; compiled variants first.
    QStringList kernelSources() const;
    /// Shows the top kernels of @p source (one of kernelSources()).
    void setKernelSource(const QString &source);
    /// The machine's verdict on the shown measurement (Missing before one, or for old results).
    const Client::Measurement &measurement() const { return m_measurement; }
    /// True while the verdict is "unreliable": figures and bars are drawn greyed.
    bool figuresGreyed() const { return m_measurement.isUnreliable(); }
    /// The throughput rows (with each one-runner row's `consistent` flag), for the table and reports.
    ThroughputModel *throughputModel() const { return m_throughputModel; }
    /// Processes events until the trace being read (off the UI thread) is on the timeline.
    bool waitForTrace(int timeoutMs = 30000);
    /// The timeline, for tests and the lead's selection hub.
    TimelineChart *timeline() const { return m_timeline; }

Q_SIGNALS:
    /// A kernel bar or a timeline range named @p kernelName was clicked.
    void kernelActivated(const QString &kernelName);

public Q_SLOTS:
    /// Marks the kernel @p name in the top-kernel bars and the timeline (empty: none).
    void highlightKernel(const QString &name);

public:
    // HubViewer
    void onResultsChanged() override;
    void onKernelChanged(const QString &nameOrId) override;
    /// Draws now what changed and is not drawn yet: while hidden behind another tab, or queued
    /// for the next event-loop pass (the report calls it).
    void flush();

protected:
    void showEvent(QShowEvent *event) override;

private:
    using Stats = Client::ProfileStats;
    using Variant = Client::ProfileVariant;

    void reset(bool keepTimeline);
    void showHubProfile();
    void showLatency(const QList<Variant> &variants);
    void showDistribution(const QList<Variant> &variants);
    void showMemory(const QList<Variant> &variants, const Client::ProfileGpu &gpu);
    void showTimeline(const Client::ProfileResult &result, const PathResolver &resolvePath);
    void showKernels();
    void showColdStart(const Client::ColdStart &cold);
    void showColdStartPhases(const Client::ColdStart &cold);
    void showThroughput(const QList<Client::ThroughputRow> &throughput);
    void showReplay(const Client::ProfileReplay &replay);
    QString summaryText(const Client::ProfileResult &result, const QList<Variant> &variants) const;

    QTabWidget *m_tabs;
    QLabel *m_summary;
    QLabel *m_gpuSummary;
    ChartBox *m_latency;
    ChartBox *m_distribution;
    ChartBox *m_memory;
    ChartBox *m_timelineBox;
    TimelineChart *m_timeline;
    ChartBox *m_kernels;
    QComboBox *m_kernelSourceBox;
    ChartBox *m_coldStart;
    ChartBox *m_replay;
    ChartBox *m_throughput;
    ThroughputModel *m_throughputModel;
    JobTracker *m_traceJob;
    QTableView *m_throughputView;
    SelectionHub *m_hub = nullptr;
    bool m_stale = false; ///< the hub's results changed and are not drawn yet
    bool m_redrawQueued = false;
    std::shared_ptr<const Client::ProfileResult> m_shown;
    QString m_tracePath; ///< the trace on the timeline (engine path); empty when none
    bool m_traceMissing = false; ///< the trace could not be read (yet): read it again next time
    QList<Client::ProfileKernel> m_kernelRows; ///< `kernels` then `ops` of the result
    QStringList m_kernelNames;
    QString m_kernelSource;
    QString m_highlighted;
    Client::Measurement m_measurement;
};

} // namespace AotStudio::Widgets
