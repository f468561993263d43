// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>
#include <QWidget>

#include <vector>

class QComboBox;
class QJsonObject;
class QMouseEvent;
class QCustomPlot;
class QLabel;

namespace AotStudio::Widgets {

class TimelineRanges;

/**
 * Ranges of a Chrome trace-event file (core/profiler/PROFILE.md, "trace.json"), for the timeline.
 * Times in milliseconds from the start of the traced pass. One track per (pid, tid): CPU threads
 * and CUDA streams; nested ranges (a `call` enclosing its kernels) go one lane deeper.
 */
struct TimelineData {
    struct Range {
        double startMs = 0;
        double endMs = 0;
        int name = 0; ///< index into names
        int category = 0; ///< index into categories (the variant)
        int details = 0; ///< index into details (kind, covered nodes)
    };
    struct Lane {
        int track = 0;
        int depth = 0;
        std::vector<Range> ranges; ///< sorted by start
        std::vector<double> maxEndMs; ///< running maximum of end, for the binary search
    };
    QStringList trackLabels; ///< "CPU · thread 1", "CUDA 0 · stream 7"
    std::vector<Lane> lanes; ///< by track, then depth
    QStringList names;
    QStringList categories;
    QStringList details;
    double startMs = 0;
    double endMs = 0;
    int rangeCount = 0;

    bool isEmpty() const { return rangeCount == 0; }
    /// Parses a trace file; false with @p error set when it cannot be read or parsed.
    static bool load(const QString &path, TimelineData *data, QString *error);
    /// Builds the lanes from a parsed trace object (`{"traceEvents":[...]}`).
    static TimelineData fromJson(const QJsonObject &trace);
};

/**
 * A kernel timeline: one row per track (CUDA stream or CPU thread), ranges drawn from sorted lanes
 * with a binary search for the visible span; ranges thinner than a pixel are merged. Drag pans and
 * the wheel zooms the time axis; hovering shows a range's details, clicking one emits
 * rangeActivated().
 */
class TimelineChart : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineChart(QWidget *parent = nullptr);
    ~TimelineChart() override;

    void setData(TimelineData data);
    void clear();
    const TimelineData &data() const { return m_data; }
    QCustomPlot *plot() const { return m_plot; }

    /// Number of tracks (streams and threads) shown.
    int trackCount() const { return int(m_data.trackLabels.size()); }
    /// Ranges named @p name are drawn highlighted (empty: none); returns how many there are.
    int highlight(const QString &name);
    /// Shows [lowerMs, upperMs] on the time axis (clamped to the trace).
    void zoomTo(double lowerMs, double upperMs);
    /// Shows the whole span of @p category (a variant), or everything for an empty one.
    void zoomToCategory(const QString &category);
    /// The range at @p pos (widget pixels of the plot), or -1/-1.
    std::pair<int, int> rangeAt(const QPointF &pos) const;
    /// The name of the range at @p pos, empty when none.
    QString rangeNameAt(const QPointF &pos) const;
    /// How many ranges (or merged runs) the last replot drew: small when zoomed in.
    int drawnCount() const;

Q_SIGNALS:
    void rangeActivated(const QString &name);

private:
    void onMouseMove(QMouseEvent *event);
    QString toolTip(int lane, int index) const;

    TimelineData m_data;
    QCustomPlot *m_plot;
    QComboBox *m_zoomBox;
    TimelineRanges *m_ranges = nullptr;
    QPointF m_pressPos;
};

} // namespace AotStudio::Widgets
