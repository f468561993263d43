// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelinechart.h"

#include "charthelpers.h"
#include "numberformat.h"

#include <QComboBox>
#include <QFile>
#include <QHBoxLayout>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMap>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace AotStudio::Widgets {

// ---------------------------------------------------------------------------------------------
// Trace parsing

TimelineData TimelineData::fromJson(const QJsonObject &trace)
{
    TimelineData data;
    struct Event {
        double start;
        double end;
        int name;
        int category;
        int details;
    };
    QMap<QPair<qint64, qint64>, std::vector<Event>> byTrack; // sorted by pid, tid
    QHash<qint64, QString> processNames;
    QHash<QPair<qint64, qint64>, QString> threadNames;
    QHash<QString, int> nameIds, categoryIds, detailIds;
    const auto intern = [](QHash<QString, int> &ids, QStringList &list, const QString &text) {
        auto it = ids.constFind(text);
        if (it != ids.constEnd())
            return *it;
        ids.insert(text, int(list.size()));
        list << text;
        return int(list.size() - 1);
    };

    const QJsonArray events = trace.value(QLatin1String("traceEvents")).toArray();
    for (const QJsonValue &value : events) {
        const QJsonObject event = value.toObject();
        const QString phase = event.value(QLatin1String("ph")).toString();
        const qint64 pid = event.value(QLatin1String("pid")).toVariant().toLongLong();
        const qint64 tid = event.value(QLatin1String("tid")).toVariant().toLongLong();
        if (phase == QLatin1String("M")) {
            const QString name = event.value(QLatin1String("args")).toObject().value(QLatin1String("name")).toString();
            if (event.value(QLatin1String("name")).toString() == QLatin1String("process_name"))
                processNames.insert(pid, name);
            else if (event.value(QLatin1String("name")).toString() == QLatin1String("thread_name"))
                threadNames.insert({ pid, tid }, name);
            continue;
        }
        if (phase != QLatin1String("X"))
            continue;
        const double ts = event.value(QLatin1String("ts")).toDouble() / 1000.0;
        const double dur = qMax(0.0, event.value(QLatin1String("dur")).toDouble() / 1000.0);
        const QJsonObject args = event.value(QLatin1String("args")).toObject();
        QString details = args.value(QLatin1String("kind")).toString();
        QStringList covered;
        for (const QJsonValue &node : args.value(QLatin1String("covered_nodes")).toArray())
            covered << node.toString();
        if (!covered.isEmpty())
            details += QLatin1Char('\n')
                + QCoreApplication::translate("AotStudio::Widgets::TimelineChart", "covers %1")
                      .arg(covered.join(QStringLiteral(", ")));
        byTrack[{ pid, tid }].push_back(
            { ts, ts + dur, intern(nameIds, data.names, event.value(QLatin1String("name")).toString()),
                intern(categoryIds, data.categories, event.value(QLatin1String("cat")).toString()),
                intern(detailIds, data.details, details) });
    }

    bool first = true;
    for (auto it = byTrack.begin(); it != byTrack.end(); ++it) {
        std::vector<Event> &list = it.value();
        // Enclosing ranges first at equal starts, so nesting is seen from the outside in.
        std::sort(list.begin(), list.end(),
            [](const Event &a, const Event &b) { return a.start < b.start || (a.start == b.start && a.end > b.end); });
        const int track = int(data.trackLabels.size());
        const qint64 pid = it.key().first;
        const qint64 tid = it.key().second;
        const QString process = processNames.value(
            pid, QCoreApplication::translate("AotStudio::Widgets::TimelineChart", "process %1").arg(pid));
        const QString thread = threadNames.value(
            it.key(), QCoreApplication::translate("AotStudio::Widgets::TimelineChart", "thread %1").arg(tid));
        data.trackLabels << QStringLiteral("%1 · %2").arg(process, thread);
        const size_t firstLane = data.lanes.size();
        std::vector<double> openEnds; // the stack of enclosing ranges' ends
        for (const Event &event : list) {
            while (!openEnds.empty() && openEnds.back() <= event.start)
                openEnds.pop_back();
            const int depth = int(openEnds.size());
            openEnds.push_back(event.end);
            while (data.lanes.size() <= firstLane + size_t(depth))
                data.lanes.push_back({ track, int(data.lanes.size() - firstLane), {}, {} });
            Lane &lane = data.lanes[firstLane + size_t(depth)];
            lane.ranges.push_back({ event.start, event.end, event.name, event.category, event.details });
            lane.maxEndMs.push_back(lane.maxEndMs.empty() ? event.end : qMax(lane.maxEndMs.back(), event.end));
            data.startMs = first ? event.start : qMin(data.startMs, event.start);
            data.endMs = first ? event.end : qMax(data.endMs, event.end);
            first = false;
            ++data.rangeCount;
        }
    }
    return data;
}

bool TimelineData::load(const QString &path, TimelineData *data, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = parseError.errorString();
        return false;
    }
    // The JSON array form of the format is a bare list of events.
    *data = document.isArray() ? fromJson(QJsonObject { { QStringLiteral("traceEvents"), document.array() } })
                               : fromJson(document.object());
    return true;
}

// ---------------------------------------------------------------------------------------------
// The plottable: draws only the visible part of each lane.

namespace {
QColor colorFor(const QString &name)
{
    static const QColor palette[] = { QColor(0x42, 0x85, 0xf4), QColor(0x34, 0xa8, 0x53), QColor(0xfb, 0xbc, 0x04),
        QColor(0xab, 0x47, 0xbc), QColor(0x00, 0xac, 0xc1), QColor(0xff, 0x70, 0x43), QColor(0x9e, 0x9d, 0x24),
        QColor(0x5c, 0x6b, 0xc0), QColor(0xf0, 0x62, 0x92), QColor(0x26, 0xa6, 0x9a) };
    return palette[qHash(name) % (sizeof(palette) / sizeof(palette[0]))];
}
} // namespace

class TimelineRanges : public QCPAbstractPlottable
{
public:
    TimelineRanges(QCPAxis *timeAxis, QCPAxis *laneAxis, const TimelineData *data)
        : QCPAbstractPlottable(timeAxis, laneAxis)
        , m_data(data)
    {
        setSelectable(QCP::stNone);
        setAntialiasedFill(false);
    }

    int highlighted = -1; ///< name index drawn highlighted
    mutable int drawn = 0;

    double selectTest(const QPointF &, bool, QVariant *) const override { return -1; }
    QCPRange getKeyRange(bool &found, QCP::SignDomain) const override
    {
        found = !m_data->isEmpty();
        return { m_data->startMs, m_data->endMs };
    }
    QCPRange getValueRange(bool &found, QCP::SignDomain, const QCPRange &) const override
    {
        found = !m_data->lanes.empty();
        return { 0, double(m_data->lanes.size()) };
    }

    /// The first range of @p lane that may end after @p timeMs.
    static size_t firstEndingAfter(const TimelineData::Lane &lane, double timeMs)
    {
        return size_t(std::lower_bound(lane.maxEndMs.begin(), lane.maxEndMs.end(), timeMs) - lane.maxEndMs.begin());
    }

protected:
    void draw(QCPPainter *painter) override
    {
        drawn = 0;
        QCPAxis *time = keyAxis();
        QCPAxis *lanes = valueAxis();
        const QCPRange visible = time->range();
        const QFontMetrics metrics(painter->font());
        const QColor textColor(0x20, 0x20, 0x20);
        const QColor callColor(0xe0, 0xe0, 0xe0);
        painter->setPen(Qt::NoPen);
        for (size_t li = 0; li < m_data->lanes.size(); ++li) {
            const TimelineData::Lane &lane = m_data->lanes[li];
            const double top = lanes->coordToPixel(double(li) + 0.1);
            const double bottom = lanes->coordToPixel(double(li) + 0.9);
            const double y = qMin(top, bottom);
            const double height = qAbs(bottom - top);
            double runStart = -1, runEnd = -1; // a run of sub-pixel ranges, merged
            const auto flushRun = [&] {
                if (runStart < 0)
                    return;
                painter->setBrush(QColor(0x78, 0x78, 0x78));
                painter->drawRect(QRectF(runStart, y, qMax(1.0, runEnd - runStart), height));
                ++drawn;
                runStart = runEnd = -1;
            };
            for (size_t i = firstEndingAfter(lane, visible.lower); i < lane.ranges.size(); ++i) {
                const TimelineData::Range &range = lane.ranges[i];
                if (range.startMs > visible.upper)
                    break;
                const double x0 = time->coordToPixel(range.startMs);
                const double x1 = time->coordToPixel(range.endMs);
                const bool isHighlighted = range.name == highlighted;
                if (x1 - x0 < 2 && !isHighlighted) {
                    if (runStart >= 0 && x0 <= runEnd + 1) {
                        runEnd = qMax(runEnd, x1);
                    } else {
                        flushRun();
                        runStart = x0;
                        runEnd = x1;
                    }
                    continue;
                }
                flushRun();
                const QString &name = m_data->names.at(range.name);
                const bool isCall = name == QLatin1String("call");
                QColor color = isCall ? callColor : colorFor(name);
                if (highlighted >= 0 && !isHighlighted)
                    color.setAlpha(70);
                painter->setBrush(color);
                painter->setPen(isHighlighted ? QPen(QColor(0xd5, 0x00, 0x00), 2) : QPen(color.darker(130), 0));
                const QRectF rect(x0, y, qMax(1.0, x1 - x0), height);
                painter->drawRect(rect);
                painter->setPen(Qt::NoPen);
                ++drawn;
                if (rect.width() > 30) {
                    const QRectF visibleRect = rect.intersected(QRectF(time->axisRect()->rect()));
                    painter->setPen(textColor);
                    painter->drawText(visibleRect.adjusted(3, 0, -3, 0), Qt::AlignLeft | Qt::AlignVCenter,
                        metrics.elidedText(name, Qt::ElideRight, int(visibleRect.width()) - 6));
                    painter->setPen(Qt::NoPen);
                }
            }
            flushRun();
        }
    }
    void drawLegendIcon(QCPPainter *painter, const QRectF &rect) const override
    {
        painter->fillRect(rect, colorFor(QString()));
    }

private:
    const TimelineData *m_data;
};

// ---------------------------------------------------------------------------------------------

TimelineChart::TimelineChart(QWidget *parent)
    : QWidget(parent)
    , m_plot(createChart(QStringLiteral("profileTimelineChart"), tr("Kernel timeline per stream and thread"), this))
    , m_zoomBox(new QComboBox(this))
{
    m_zoomBox->setObjectName(QStringLiteral("timelineZoom"));
    m_zoomBox->setToolTip(tr("Zoom to the traced calls of one variant"));
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Show:"), this));
    row->addWidget(m_zoomBox);
    auto *hint = new QLabel(tr("Drag to pan, wheel to zoom, click a range to select its kernel."), this);
    hint->setForegroundRole(QPalette::PlaceholderText);
    row->addWidget(hint, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_plot, 1);

    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->xAxis->setLabel(tr("Time from the start of the traced pass (ms)"));
    m_plot->yAxis->setRangeReversed(true);
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->yAxis->setSubTicks(false);
    m_plot->yAxis->setTickLength(0, 0);
    m_ranges = new TimelineRanges(m_plot->xAxis, m_plot->yAxis, &m_data);

    // Keep the view inside the trace, and never narrower than a nanosecond.
    connect(m_plot->xAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, [this](const QCPRange &range) {
        if (m_data.isEmpty())
            return;
        const double span = m_data.endMs - m_data.startMs;
        const double margin = span * 0.02;
        QCPRange bounded = range;
        if (bounded.size() < 1e-6)
            bounded = QCPRange(bounded.center() - 5e-7, bounded.center() + 5e-7);
        if (bounded.size() > span + 2 * margin)
            bounded = QCPRange(m_data.startMs - margin, m_data.endMs + margin);
        if (bounded.lower < m_data.startMs - margin)
            bounded += m_data.startMs - margin - bounded.lower;
        if (bounded.upper > m_data.endMs + margin)
            bounded -= bounded.upper - (m_data.endMs + margin);
        if (!qFuzzyCompare(bounded.lower, range.lower) || !qFuzzyCompare(bounded.upper, range.upper))
            m_plot->xAxis->setRange(bounded);
    });
    connect(m_plot, &QCustomPlot::mouseMove, this, &TimelineChart::onMouseMove);
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent *event) { m_pressPos = event->position(); });
    connect(m_plot, &QCustomPlot::mouseRelease, this, [this](QMouseEvent *event) {
        // A click, not the end of a drag.
        if ((event->position() - m_pressPos).manhattanLength() > 4)
            return;
        const QString name = rangeNameAt(event->position());
        if (!name.isEmpty())
            Q_EMIT rangeActivated(name);
    });
    connect(m_zoomBox, &QComboBox::activated, this,
        [this](int index) { zoomToCategory(m_zoomBox->itemData(index).toString()); });
}

TimelineChart::~TimelineChart() = default;

void TimelineChart::clear()
{
    setData({});
}

void TimelineChart::setData(TimelineData data)
{
    m_data = std::move(data);
    m_ranges->highlighted = -1;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    int lastTrack = -1;
    for (size_t li = 0; li < m_data.lanes.size(); ++li) {
        const int track = m_data.lanes[li].track;
        if (track != lastTrack)
            ticker->addTick(double(li) + 0.5, elideMiddle(m_data.trackLabels.at(track), 28));
        lastTrack = track;
    }
    m_plot->yAxis->setTicker(ticker);
    // At least eight rows of height, so that a trace with few lanes keeps bars of a readable height.
    m_plot->yAxis->setRange(0, qMax<double>(8, m_data.lanes.size()));
    m_zoomBox->clear();
    m_zoomBox->addItem(tr("All variants"), QString());
    for (const QString &category : std::as_const(m_data.categories)) {
        if (!category.isEmpty())
            m_zoomBox->addItem(category, category);
    }
    zoomToCategory(QString());
}

void TimelineChart::zoomTo(double lowerMs, double upperMs)
{
    m_plot->xAxis->setRange(lowerMs, upperMs);
    m_plot->replot();
}

void TimelineChart::zoomToCategory(const QString &category)
{
    if (m_data.isEmpty()) {
        m_plot->xAxis->setRange(0, 1);
        m_plot->replot();
        return;
    }
    double lower = m_data.startMs, upper = m_data.endMs;
    const int id = category.isEmpty() ? -1 : int(m_data.categories.indexOf(category));
    if (id >= 0) {
        bool first = true;
        for (const TimelineData::Lane &lane : m_data.lanes) {
            for (const TimelineData::Range &range : lane.ranges) {
                if (range.category != id)
                    continue;
                lower = first ? range.startMs : qMin(lower, range.startMs);
                upper = first ? range.endMs : qMax(upper, range.endMs);
                first = false;
            }
        }
    }
    const double margin = (upper - lower) * 0.02;
    zoomTo(lower - margin, upper + margin);
}

int TimelineChart::highlight(const QString &name)
{
    m_ranges->highlighted = name.isEmpty() ? -1 : int(m_data.names.indexOf(name));
    int count = 0;
    if (m_ranges->highlighted >= 0) {
        for (const TimelineData::Lane &lane : m_data.lanes)
            count += int(std::count_if(lane.ranges.begin(), lane.ranges.end(),
                [this](const TimelineData::Range &r) { return r.name == m_ranges->highlighted; }));
    }
    m_plot->replot();
    return count;
}

std::pair<int, int> TimelineChart::rangeAt(const QPointF &pos) const
{
    if (!m_plot->axisRect()->rect().contains(pos.toPoint()))
        return { -1, -1 };
    const double laneCoord = m_plot->yAxis->pixelToCoord(pos.y());
    const int lane = int(std::floor(laneCoord));
    if (lane < 0 || lane >= int(m_data.lanes.size()))
        return { -1, -1 };
    const TimelineData::Lane &l = m_data.lanes[size_t(lane)];
    // Half a pixel either side, so that thin kernels can be hit.
    const double time = m_plot->xAxis->pixelToCoord(pos.x());
    const double slack = qAbs(m_plot->xAxis->pixelToCoord(pos.x() + 2) - time);
    int best = -1;
    double bestDistance = slack;
    for (size_t i = TimelineRanges::firstEndingAfter(l, time - slack); i < l.ranges.size(); ++i) {
        const TimelineData::Range &range = l.ranges[i];
        if (range.startMs > time + slack)
            break;
        const double distance = time < range.startMs ? range.startMs - time
            : time > range.endMs                     ? time - range.endMs
                                                     : 0;
        if (distance <= bestDistance) {
            best = int(i);
            bestDistance = distance;
        }
    }
    return best < 0 ? std::pair { -1, -1 } : std::pair { lane, best };
}

QString TimelineChart::rangeNameAt(const QPointF &pos) const
{
    const auto [lane, index] = rangeAt(pos);
    return lane < 0 ? QString() : m_data.names.at(m_data.lanes[size_t(lane)].ranges[size_t(index)].name);
}

int TimelineChart::drawnCount() const
{
    return m_ranges->drawn;
}

QString TimelineChart::toolTip(int lane, int index) const
{
    const TimelineData::Lane &l = m_data.lanes[size_t(lane)];
    const TimelineData::Range &range = l.ranges[size_t(index)];
    return tr("%1\n%2 · %3\nstart %4 ms, duration %5 µs\n%6")
        .arg(m_data.names.at(range.name), m_data.categories.at(range.category), m_data.trackLabels.at(l.track),
            formatNumber(range.startMs, 'f', 4), formatNumber((range.endMs - range.startMs) * 1000.0, 'g', 4),
            m_data.details.at(range.details))
        .trimmed();
}

void TimelineChart::onMouseMove(QMouseEvent *event)
{
    if (event->buttons() != Qt::NoButton)
        return;
    const auto [lane, index] = rangeAt(event->position());
    if (lane < 0)
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), toolTip(lane, index), m_plot);
}

} // namespace AotStudio::Widgets
