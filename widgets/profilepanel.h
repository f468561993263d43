// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/measurement.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QWidget>

#include <functional>

class QComboBox;
class QCustomPlot;
class QLabel;
class QTabWidget;
class QTableView;

namespace AotStudio::Widgets {

class ChartBox;
class ThroughputModel;
class TimelineChart;

/**
 * A profile result (core/profiler/PROFILE.md) as charts: median latency per variant with its
 * p10–p90 spread and p99, the latency distribution, peak memory per variant, the kernel timeline
 * per stream and thread (from the profile's trace.json), the top kernels by total time, cold
 * start (package against eager) and throughput and p99 latency against the number of runners.
 * A plain `compile` result (core/protocol/FORMAT.md) shows its latency and distribution only.
 * Every section that was not measured shows a short note instead of its chart.
 */
class ProfilePanel : public QWidget
{
    Q_OBJECT
public:
    /// Maps a path as the engine wrote it to a readable local one (a remote engine's job directory).
    using PathResolver = std::function<QString(const QString &enginePath)>;

    explicit ProfilePanel(QWidget *parent = nullptr);

    /**
     * Shows @p result: the `result` of a `profile` request, or of a `compile` request. Files the
     * result references (the trace) are read through @p resolvePath (identity when empty).
     */
    void setProfile(const QJsonObject &result, PathResolver resolvePath = {});
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
    /// The timeline, for tests and the lead's selection hub.
    TimelineChart *timeline() const { return m_timeline; }

Q_SIGNALS:
    /// A kernel bar or a timeline range named @p kernelName was clicked.
    void kernelActivated(const QString &kernelName);

public Q_SLOTS:
    /// Marks the kernel @p name in the top-kernel bars and the timeline (empty: none).
    void highlightKernel(const QString &name);

private:
    struct Stats;
    struct Variant;

    void showLatency(const QList<Variant> &variants);
    void showDistribution(const QList<Variant> &variants);
    void showMemory(const QList<Variant> &variants, const QJsonValue &gpu);
    void showTimeline(const QJsonObject &result, const PathResolver &resolvePath);
    void showKernels();
    void showColdStart(const QJsonValue &coldStart);
    void showColdStartPhases(const Client::ColdStart &cold);
    void showThroughput(const QJsonArray &throughput);
    QString summaryText(const QJsonObject &result, const QList<Variant> &variants) const;

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
    ChartBox *m_throughput;
    ThroughputModel *m_throughputModel;
    QTableView *m_throughputView;
    QJsonArray m_kernelRows; ///< `kernels` then `ops` of the result
    QStringList m_kernelNames;
    QString m_kernelSource;
    QString m_highlighted;
    Client::Measurement m_measurement;
};

} // namespace AotStudio::Widgets
