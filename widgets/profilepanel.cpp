// SPDX-License-Identifier: GPL-3.0-or-later
#include "profilepanel.h"

#include "selectionhub.h"

#include "charthelpers.h"
#include "graphview/jobtracker.h"
#include "measurementtext.h"
#include "numberformat.h"
#include "tableutil.h"
#include "throughputmodel.h"
#include "timelinechart.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QShowEvent>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <string_view>

namespace AotStudio::Widgets {

namespace {
constexpr int TopKernels = 15;
constexpr double MaxWhiskerRatio = 3.0;

QColor variantColor(const QString &name)
{
    if (name == QLatin1String("eager"))
        return QColor(0x75, 0x75, 0x75);
    if (name == QLatin1String("nativert"))
        return QColor(0x15, 0x65, 0xc0);
    return QColor(0x2e, 0x7d, 0x32);
}

/// A burst replay's mode as the legend names it.
QString replayModeLabel(const QString &mode)
{
    if (mode == QLatin1String("worker"))
        return ProfilePanel::tr("worker isolation");
    if (mode == QLatin1String("request"))
        return ProfilePanel::tr("request isolation");
    if (mode == QLatin1String("spawn"))
        return ProfilePanel::tr("spawn baseline");
    if (mode == QLatin1String("eager"))
        return ProfilePanel::tr("Python eager server");
    return mode;
}

/// What a mode does, for the tooltip.
QString replayModeWhat(const QString &mode)
{
    if (mode == QLatin1String("worker"))
        return ProfilePanel::tr("warm workers that keep the package loaded");
    if (mode == QLatin1String("request"))
        return ProfilePanel::tr("a worker forked per request from the prepared server");
    if (mode == QLatin1String("spawn"))
        return ProfilePanel::tr("a fresh aotstudio-run process per request");
    if (mode == QLatin1String("eager"))
        return ProfilePanel::tr("resident Python processes running the eager model");
    return QString();
}

QColor replayModeColor(const QString &mode)
{
    if (mode == QLatin1String("worker"))
        return QColor(0x2e, 0x7d, 0x32);
    if (mode == QLatin1String("request"))
        return QColor(0x15, 0x65, 0xc0);
    if (mode == QLatin1String("eager"))
        return QColor(0xe6, 0x51, 0x00);
    return QColor(0x75, 0x75, 0x75);
}

/// Baselines are dashed (spawn) or dash-dotted (eager); the modes under test are solid.
Qt::PenStyle replayModePen(const QString &mode)
{
    if (mode == QLatin1String("spawn"))
        return Qt::DashLine;
    if (mode == QLatin1String("eager"))
        return Qt::DashDotLine;
    return Qt::SolidLine;
}

QString variantLabel(const QString &name)
{
    if (name == QLatin1String("eager"))
        return ProfilePanel::tr("Eager (Python)");
    if (name == QLatin1String("aoti"))
        return ProfilePanel::tr("AOTInductor");
    if (name == QLatin1String("nativert"))
        return ProfilePanel::tr("NativeRT");
    return name;
}

QString percent(double fraction)
{
    return std::isnan(fraction) ? QStringLiteral("—")
                                : ProfilePanel::tr("%1%").arg(formatNumber(fraction * 100, 'f', 1));
}

void resetPlot(QCustomPlot *plot)
{
    plot->clearPlottables();
    plot->clearItems();
    plot->legend->setVisible(false);
    for (QCPAxis *axis : { plot->xAxis, plot->yAxis, plot->yAxis2 }) {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        axis->setLabel(QString());
        axis->grid()->setVisible(axis != plot->yAxis2);
    }
    plot->yAxis2->setVisible(false);
}
} // namespace

ProfilePanel::ProfilePanel(QWidget *parent)
    : QWidget(parent)
    , m_tabs(new QTabWidget(this))
    , m_summary(new QLabel(this))
    , m_gpuSummary(new QLabel(this))
    , m_kernelSourceBox(new QComboBox(this))
    , m_throughputModel(new ThroughputModel(this))
    , m_traceJob(new JobTracker(this))
    , m_throughputView(new QTableView(this))
{
    m_tabs->setObjectName(QStringLiteral("profileTabs"));
    m_summary->setObjectName(QStringLiteral("profileSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_gpuSummary->setObjectName(QStringLiteral("gpuSummary"));
    m_gpuSummary->setWordWrap(true);
    m_gpuSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_latency = new ChartBox(createChart(QStringLiteral("profileLatencyChart"), tr("Median latency per call")), this);
    m_distribution
        = new ChartBox(createChart(QStringLiteral("profileDistributionChart"), tr("Latency distribution")), this);
    m_memory = new ChartBox(createChart(QStringLiteral("profileMemoryChart"), tr("Peak memory per variant")), this);
    m_timeline = new TimelineChart(this);
    m_timelineBox = new ChartBox(m_timeline, m_timeline->plot(), this);
    m_coldStart = new ChartBox(createChart(QStringLiteral("profileColdStartChart"), tr("Cold start")), this);
    m_replay = new ChartBox(createChart(QStringLiteral("profileReplayChart"), tr("Burst replay")), this);
    {
        // Its legend in a row below the axes, one line: the lines run across the whole plot.
        QCustomPlot *plot = m_replay->plot();
        plot->plotLayout()->addElement(2, 0, plot->legend);
        plot->plotLayout()->setRowStretchFactor(2, 0.001);
        plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        plot->legend->setWrap(3);
        plot->legend->setMargins(QMargins(4, 2, 4, 2));
        plot->legend->setBorderPen(Qt::NoPen); // a frame at the widget's edge reads as cut off
    }
    m_throughput = new ChartBox(
        createChart(QStringLiteral("profileThroughputChart"), tr("Throughput and p99 latency against runners")), this);

    auto *kernelsPage = new QWidget(this);
    m_kernels = new ChartBox(createChart(QStringLiteral("profileKernelsChart"), tr("Top kernels by total time")), this);
    m_kernelSourceBox->setObjectName(QStringLiteral("kernelSource"));
    auto *kernelsLayout = new QVBoxLayout(kernelsPage);
    kernelsLayout->setContentsMargins(0, 0, 0, 0);
    auto *sourceRow = new QHBoxLayout;
    sourceRow->addWidget(new QLabel(tr("Kernels of:"), kernelsPage));
    sourceRow->addWidget(m_kernelSourceBox);
    sourceRow->addStretch(1);
    kernelsLayout->addLayout(sourceRow);
    kernelsLayout->addWidget(m_kernels, 1);
    connect(m_kernelSourceBox, &QComboBox::activated, this,
        [this](int index) { setKernelSource(m_kernelSourceBox->itemData(index).toString()); });

    auto *latencyPage = new QWidget(this);
    auto *latencyLayout = new QGridLayout(latencyPage);
    latencyLayout->setContentsMargins(0, 0, 0, 0);
    latencyLayout->addWidget(m_summary, 0, 0, 1, 2);
    latencyLayout->addWidget(m_latency, 1, 0);
    latencyLayout->addWidget(m_distribution, 1, 1);
    latencyLayout->setRowStretch(1, 1);
    latencyLayout->setColumnStretch(0, 1);
    latencyLayout->setColumnStretch(1, 1);

    auto *memoryPage = new QWidget(this);
    auto *memoryLayout = new QVBoxLayout(memoryPage);
    memoryLayout->setContentsMargins(0, 0, 0, 0);
    memoryLayout->addWidget(m_memory, 1);
    memoryLayout->addWidget(m_gpuSummary);

    auto *startPage = new QWidget(this);
    auto *startLayout = new QHBoxLayout(startPage);
    startLayout->setContentsMargins(0, 0, 0, 0);
    auto *coldColumn = new QVBoxLayout;
    coldColumn->addWidget(m_coldStart, 1);
    coldColumn->addWidget(m_replay, 1);
    startLayout->addLayout(coldColumn, 1);
    auto *throughputColumn = new QVBoxLayout;
    throughputColumn->addWidget(m_throughput, 1);
    m_throughputView->setObjectName(QStringLiteral("throughputTable"));
    auto *throughputProxy = new QSortFilterProxyModel(this);
    throughputProxy->setSourceModel(m_throughputModel);
    throughputProxy->setSortRole(ThroughputModel::SortRole);
    setUpTableView(m_throughputView, throughputProxy);
    m_throughputView->sortByColumn(ThroughputModel::RunnersColumn, Qt::AscendingOrder);
    m_throughputView->setMaximumHeight(m_throughputView->verticalHeader()->defaultSectionSize() * 6);
    throughputColumn->addWidget(m_throughputView);
    startLayout->addLayout(throughputColumn, 1);

    m_tabs->addTab(latencyPage, tr("Latency"));
    m_tabs->addTab(memoryPage, tr("Memory"));
    m_tabs->addTab(m_timelineBox, tr("Timeline"));
    m_tabs->addTab(kernelsPage, tr("Top kernels"));
    m_tabs->addTab(startPage, tr("Cold start && throughput"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_tabs);

    connect(m_timeline, &TimelineChart::rangeActivated, this, [this](const QString &name) {
        if (name != QLatin1String("call"))
            Q_EMIT kernelActivated(name);
    });
    connect(m_kernels->plot(), &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable *plottable, int index) {
        auto *bars = qobject_cast<QCPBars *>(plottable);
        if (!bars || index < 0 || index >= bars->dataCount())
            return;
        const int row = barRow(int(m_kernelNames.size()), bars->data()->at(index)->key);
        if (row >= 0 && row < m_kernelNames.size())
            Q_EMIT kernelActivated(m_kernelNames.at(row));
    });
    installPointToolTips(m_kernels->plot(), [this](QCPAbstractPlottable *plottable, int index) {
        auto *bars = qobject_cast<QCPBars *>(plottable);
        if (!bars || index < 0 || index >= bars->dataCount())
            return QString();
        const int row = barRow(int(m_kernelNames.size()), bars->data()->at(index)->key);
        for (const Client::ProfileKernel &k : std::as_const(m_kernelRows)) {
            if (k.source != m_kernelSource || k.name != m_kernelNames.value(row))
                continue;
            QString text
                = tr("%1\nkind %2 · %3 calls\ntotal %4, mean %5 · %6 of wall time")
                      .arg(k.name, k.kind)
                      .arg(k.calls)
                      .arg(formatMs(k.totalMs), formatMs(k.meanMs), percent(k.share));
            if (!k.coveredNodes.isEmpty())
                text += QLatin1Char('\n') + tr("covers %1").arg(k.coveredNodes.join(QStringLiteral(", ")));
            if (k.hasCuda) {
                const auto dims = [](const QList<int> &v) {
                    QStringList parts;
                    for (int d : v)
                        parts << QString::number(d);
                    return parts.join(QStringLiteral("×"));
                };
                QStringList streams;
                for (int stream : k.streams)
                    streams << QString::number(stream);
                text += QLatin1Char('\n')
                    + tr("grid %1, block %2, %3 registers, stream %4")
                          .arg(dims(k.grid), dims(k.block))
                          .arg(k.registers)
                          .arg(streams.join(QStringLiteral(", ")));
            }
            return text;
        }
        return QString();
    });
    clear();
}

void ProfilePanel::clear()
{
    reset(false);
}

void ProfilePanel::reset(bool keepTimeline)
{
    m_shown.reset();
    if (!keepTimeline) {
        m_traceJob->cancel();
        m_tracePath.clear();
        m_traceMissing = false;
        m_timeline->clear();
    }
    m_kernelRows.clear();
    m_kernelNames.clear();
    m_kernelSource.clear();
    m_kernelSourceBox->clear();
    m_highlighted.clear();
    m_throughputModel->clear();
    m_throughputView->hide();
    m_summary->setText(tr("No profile yet: run Profile (or Compile) to measure the model."));
    m_summary->setToolTip(QString());
    m_gpuSummary->clear();
    const QString note = tr("Not measured: no profile result.");
    for (ChartBox *box : { m_latency, m_distribution, m_memory, m_timelineBox, m_kernels, m_coldStart, m_replay, m_throughput }) {
        if (box != m_timelineBox) // the timeline owns its plottable and axes
            resetPlot(box->plot());
        box->showNote(note);
    }
}

QList<QCustomPlot *> ProfilePanel::charts() const
{
    QList<QCustomPlot *> result;
    for (ChartBox *box : { m_latency, m_distribution, m_memory, m_timelineBox, m_kernels, m_coldStart, m_replay, m_throughput }) {
        if (box->isMeasured())
            result << box->plot();
    }
    return result;
}

void ProfilePanel::follow(SelectionHub *hub)
{
    m_hub = hub;
    hub->addViewer(this, this);
    connect(this, &ProfilePanel::kernelActivated, hub, &SelectionHub::selectKernel);
    onResultsChanged();
}

void ProfilePanel::onResultsChanged()
{
    if (!m_hub)
        return;
    // Behind another dock's tab in a shown window: draw when shown (a compile ends with several
    // panels refreshing at once; the charts of a hidden one need not cost the UI thread then).
    if (window()->isVisible() && !isVisible()) {
        m_stale = true;
        return;
    }
    if (window()->isVisible()) {
        // On screen: redraw in an event-loop pass of its own, so that the end of a job (the
        // session, the hub and several panels refreshing at once) is not one long stall.
        m_stale = true;
        if (!m_redrawQueued) {
            m_redrawQueued = true;
            QTimer::singleShot(0, this, [this] {
                m_redrawQueued = false;
                flush();
            });
        }
        return;
    }
    showHubProfile();
}

void ProfilePanel::flush()
{
    if (m_stale)
        showHubProfile();
}

void ProfilePanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    flush();
}

void ProfilePanel::showHubProfile()
{
    m_stale = false;
    const auto profile = m_hub->profile();
    if (!profile) {
        clear();
        if (const QString error = m_hub->resultError(QStringLiteral("profile")); !error.isEmpty())
            m_summary->setText(tr("The profile result cannot be shown: %1").arg(error.toHtmlEscaped()));
        return;
    }
    if (profile == m_shown && (!m_traceMissing || m_traceJob->isRunning()))
        return; // the same result, parsed once (and its trace read or being read): nothing to redraw
    setProfile(profile, [hub = m_hub](const QString &path) { return hub->resolve(path); });
}

void ProfilePanel::onKernelChanged(const QString &nameOrId)
{
    highlightKernel(nameOrId);
}

void ProfilePanel::setProfile(std::shared_ptr<const Client::ProfileResult> profile, PathResolver resolvePath)
{
    // The timeline survives a redraw of the same trace: trace.json is read again only when its
    // path changes (or when it could not be read, e.g. still on its way from a remote engine).
    const bool keepTimeline = profile && profile->isProfile() && !m_traceMissing && !m_tracePath.isEmpty()
        && profile->tracePath == m_tracePath && !(profile->collectorPresent && !profile->collectorAvailable);
    reset(keepTimeline);
    if (!profile)
        return;
    m_shown = profile;
    if (!resolvePath)
        resolvePath = [](const QString &path) { return path; };
    const Client::ProfileResult &result = *profile;
    const bool isProfile = result.isProfile();
    const QList<Variant> &variants = result.variants;
    m_measurement = result.measurement;

    m_summary->setText(summaryText(result, variants));
    // The verdict is one line of the summary; its reasons in full on demand.
    m_summary->setToolTip(MeasurementText::verdictDetails(m_measurement));
    showLatency(variants);
    showDistribution(variants);
    if (!isProfile) {
        const QString note = tr("Not measured: a compile result has only latency. Run Profile for memory, "
                                "kernels, the timeline, cold start and throughput.");
        for (ChartBox *box : { m_memory, m_timelineBox, m_kernels, m_coldStart, m_replay, m_throughput })
            box->showNote(note);
        m_gpuSummary->clear();
        return;
    }
    showMemory(variants, result.gpu);
    if (keepTimeline) {
        m_timelineBox->showChart();
    } else {
        showTimeline(result, resolvePath);
    }
    // On CUDA `kernels` has eager's CUDA kernels too; eager's ATen `ops` are a source of their own.
    m_kernelRows = result.kernels;
    showKernels();
    showColdStart(result.coldStart);
    showReplay(result.replay);
    showThroughput(result.throughput);
}

QString ProfilePanel::summaryText(const Client::ProfileResult &result, const QList<Variant> &variants) const
{
    QString deviceText = result.device;
    if (!result.deviceName.isEmpty())
        deviceText += QStringLiteral(" (%1)").arg(result.deviceName);
    QStringList lines;
    lines << tr("<b>%1</b> · %2 · %3")
                 .arg(result.model.toHtmlEscaped(), deviceText.toHtmlEscaped(), result.dtype.toHtmlEscaped());
    const QDateTime &created = result.created;
    if (created.isValid())
        lines.first() += QStringLiteral(" · ") + tr("profiled at %1").arg(QLocale().toString(created, QLocale::ShortFormat));
    QStringList speedups, overheads;
    for (const Variant &v : variants) {
        if (v.speedupInterval.isValid())
            speedups << tr("%1: %2 the speed of eager")
                            .arg(variantLabel(v.name), MeasurementText::ratioWithInterval(v.speedupInterval).toHtmlEscaped());
        if (v.overhead.isValid())
            overheads << tr("%1 %2").arg(variantLabel(v.name),
                                         MeasurementText::ratioWithInterval(v.overhead, MeasurementText::Slower::None));
        bool warned = false;
        for (const QString &warning : result.warnings)
            warned = warned || (!v.reason.isEmpty() && warning.contains(v.reason));
        if (!v.available && !v.reason.isEmpty() && !warned)
            lines << tr("%1 not available: %2").arg(variantLabel(v.name), v.reason.toHtmlEscaped());
    }
    if (!speedups.isEmpty()) {
        // Figures an unreliable measurement produced stay readable, greyed; the verdict says why.
        const QString joined = speedups.join(QStringLiteral(" · "));
        lines.insert(1, m_measurement.isUnreliable()
                            ? QStringLiteral("<span style=\"color:%1\">%2</span>")
                                  .arg(MeasurementText::greyedText().name(), joined)
                            : joined);
    }
    {
        // The verdict on its own line, in its colours, and the threads every variant ran with.
        const QColor background = MeasurementText::verdictBackground(m_measurement);
        QString verdict = QStringLiteral("<span style=\"color:%1;%2\">%3</span>")
                              .arg(MeasurementText::verdictColor(m_measurement).name(),
                                   background.isValid() ? QStringLiteral("background-color:%1").arg(background.name())
                                                        : QString(),
                                   tr("Measurement: %1").arg(MeasurementText::verdictSummaryHtml(m_measurement)));
        lines.insert(speedups.isEmpty() ? 1 : 2, verdict);
        lines.insert(speedups.isEmpty() ? 2 : 3,
                     tr("Threads: %1").arg(MeasurementText::threads(m_measurement.threads, m_measurement.usableCpus)));
    }
    if (result.collectorPresent) {
        if (result.collectorAvailable)
            lines << tr("Collector %1, its overhead: %2")
                         .arg(result.collectorName,
                             overheads.isEmpty() ? QStringLiteral("—") : overheads.join(QStringLiteral(", ")));
        else
            lines << tr("Collector %1 did not start: %2")
                         .arg(result.collectorName, result.collectorReason.toHtmlEscaped());
    }
    for (const QString &warning : result.warnings) {
        if (m_measurement.isPresent() && warning.startsWith(QLatin1String("measurement: ")))
            continue; // the verdict line says it
        lines << tr("⚠ %1").arg(warning.toHtmlEscaped());
    }
    return lines.join(QStringLiteral("<br>"));
}

void ProfilePanel::showLatency(const QList<Variant> &variants)
{
    QCustomPlot *plot = m_latency->plot();
    resetPlot(plot);
    QCPAxis *keyAxis = plot->yAxis;
    QCPAxis *valueAxis = plot->xAxis;
    const int count = int(variants.size());
    double maxMedian = 0;
    for (const Variant &v : variants) {
        if (v.available)
            maxMedian = qMax(maxMedian, v.stats.median);
    }
    if (maxMedian <= 0) {
        m_latency->showNote(tr("Not measured: no variant has a latency."));
        return;
    }
    setChartTitle(plot, MeasurementText::chartTitle(tr("Median latency per call"), m_measurement));
    // The axis follows the medians; spreads widen it while they stay comparable, else they are
    // cut at the edge and labelled (one noisy run must not squash every bar into a sliver).
    double upper = maxMedian * 1.2;
    for (const Variant &v : variants) {
        for (double x : { v.stats.p90, v.stats.p99 }) {
            if (v.available && !std::isnan(x) && x <= MaxWhiskerRatio * maxMedian)
                upper = qMax(upper, x * 1.08);
        }
    }

    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    auto *p99 = new QCPGraph(keyAxis, valueAxis);
    p99->setName(tr("p99"));
    p99->setLineStyle(QCPGraph::lsNone);
    p99->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QColor(0xc6, 0x28, 0x28), 8));
    for (int i = 0; i < count; ++i) {
        const Variant &v = variants.at(i);
        const double key = count - i;
        if (!v.available) {
            ticker->addTick(key, tr("%1\nnot available").arg(variantLabel(v.name)));
            continue;
        }
        QString label = tr("%1\n%2").arg(variantLabel(v.name), formatMs(v.stats.median));
        if (v.speedupInterval.isValid())
            label += tr(" · %1\n%2").arg(MeasurementText::ratio(v.speedupInterval), MeasurementText::interval(v.speedupInterval));
        ticker->addTick(key, label);
        auto *bars = new QCPBars(keyAxis, valueAxis);
        bars->setName(v.name);
        bars->setProperty("variant", i);
        bars->setWidth(0.55);
        bars->setPen(Qt::NoPen);
        bars->setBrush(m_measurement.isUnreliable() ? MeasurementText::greyedText() : variantColor(v.name));
        bars->setData({ key }, { v.stats.median });
        QStringList clipped;
        if (!std::isnan(v.stats.p10) && !std::isnan(v.stats.p90)) {
            auto *whiskers = new QCPErrorBars(keyAxis, valueAxis);
            whiskers->setDataPlottable(bars);
            whiskers->setErrorType(QCPErrorBars::etValueError);
            whiskers->setData({ qMax(0.0, v.stats.median - v.stats.p10) },
                { qBound(0.0, v.stats.p90 - v.stats.median, upper - v.stats.median) });
            if (v.stats.p90 > upper)
                clipped << tr("p90 %1").arg(formatMs(v.stats.p90));
        }
        if (!std::isnan(v.stats.p99)) {
            if (v.stats.p99 <= upper)
                p99->addData(key, v.stats.p99);
            else
                clipped << tr("p99 %1").arg(formatMs(v.stats.p99));
        }
        if (!clipped.isEmpty()) {
            auto *text = new QCPItemText(plot);
            text->position->setAxes(valueAxis, keyAxis);
            text->position->setCoords(upper, key + 0.4);
            text->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
            text->setPadding(QMargins(4, 1, 4, 1));
            text->setText(clipped.join(QStringLiteral(", ")) + QStringLiteral(" ▸"));
            text->setColor(QColor(0x66, 0x3c, 0x00));
            text->setBrush(QColor(0xff, 0xf4, 0xe5));
        }
    }
    keyAxis->setTicker(ticker);
    keyAxis->setRange(0.35, count + 0.75);
    keyAxis->grid()->setVisible(false);
    keyAxis->setSubTicks(false);
    valueAxis->setRange(0, upper);
    valueAxis->setLabel(tr("ms per call\nbar median, whiskers p10–p90, ◆ p99")); // one line was cut when narrow
    installPointToolTips(plot, [variants](QCPAbstractPlottable *plottable, int index) {
        int i = plottable->property("variant").toInt();
        if (qobject_cast<QCPGraph *>(plottable)) {
            // p99 markers: find the variant by key.
            const double key = static_cast<QCPGraph *>(plottable)->data()->at(index)->key;
            i = int(variants.size()) - int(key + 0.5);
        }
        if (i < 0 || i >= variants.size())
            return QString();
        const Variant &v = variants.at(i);
        QString text
            = tr("%1: median %2\np10 %3, p90 %4, p99 %5\nmean %6 ± %7, %8 runs")
                  .arg(variantLabel(v.name), formatMs(v.stats.median), formatMs(v.stats.p10), formatMs(v.stats.p90),
                      formatMs(v.stats.p99), formatMs(v.stats.mean), formatMs(v.stats.stddev))
                  .arg(v.stats.runs);
        if (v.traced.isValid())
            text += QLatin1Char('\n')
                + tr("traced median %1 (collector overhead %2%)")
                      .arg(formatMs(v.traced.median), formatNumber(v.overheadPct, 'f', 1));
        if (v.overhead.isValid())
            text += QLatin1Char('\n')
                + tr("traced / untraced %1")
                      .arg(MeasurementText::ratioWithInterval(v.overhead, MeasurementText::Slower::None));
        if (!std::isnan(v.cudaEventMs))
            text += QLatin1Char('\n') + tr("CUDA events: %1").arg(formatMs(v.cudaEventMs));
        return text;
    });
    m_latency->showChart();
    plot->replot();
}

void ProfilePanel::showDistribution(const QList<Variant> &variants)
{
    QCustomPlot *plot = m_distribution->plot();
    resetPlot(plot);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double lower = qInf(), upper = 0;
    int shown = 0;
    struct Box {
        int variant;
        bool traced;
    };
    QList<Box> boxes;
    bool anyTraced = false;
    const bool greyed = m_measurement.isUnreliable();
    for (int i = 0; i < variants.size(); ++i) {
        const Variant &v = variants.at(i);
        const double key = i + 1;
        ticker->addTick(key, v.available ? stackedTickLabel(variantLabel(v.name)) : tr("%1\nnot available").arg(variantLabel(v.name)));
        if (!v.available)
            continue;
        for (const bool traced : { false, true }) {
            const Stats &s = traced ? v.traced : v.stats;
            if (!s.isValid())
                continue;
            anyTraced = anyTraced || traced;
            const double p10 = std::isnan(s.p10) ? s.median : s.p10;
            const double p90 = std::isnan(s.p90) ? s.median : s.p90;
            const double low = std::isnan(s.min) ? p10 : s.min;
            const double high = std::isnan(s.p99) ? p90 : s.p99;
            auto *box = new QCPStatisticalBox(plot->xAxis, plot->yAxis);
            box->setName(traced ? tr("%1, collector on").arg(v.name) : v.name);
            box->setProperty("box", int(boxes.size()));
            boxes << Box { i, traced };
            box->setWidth(0.28);
            box->setWhiskerWidth(0.14);
            // An unreliable measurement: the boxes greyed like its figures (the title says why).
            const QColor base = greyed ? MeasurementText::greyedText() : variantColor(v.name);
            QColor color = base;
            if (traced)
                color.setAlpha(90);
            box->setBrush(color.lighter(traced ? 100 : 160));
            box->setPen(QPen(base.darker(120)));
            box->setMedianPen(QPen(traced ? color.darker(150) : base.darker(160), 2));
            QVector<double> outliers;
            if (!std::isnan(s.max) && s.max > high)
                outliers << s.max;
            box->addData(
                key + (traced ? 0.17 : -0.17) * (v.traced.isValid() ? 1 : 0), low, p10, s.median, p90, high, outliers);
            box->setOutlierStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color.darker(130), 5));
            lower = qMin(lower, low);
            upper = qMax(upper, outliers.isEmpty() ? high : s.max);
            ++shown;
        }
    }
    if (shown == 0 || !(lower > 0)) {
        m_distribution->showNote(tr("Not measured: no variant has latency percentiles."));
        return;
    }
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setRange(0.4, variants.size() + 0.6);
    plot->xAxis->grid()->setVisible(false);
    plot->xAxis->setSubTicks(false);
    plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    double low = lower / 1.6, high = upper * 1.6;
    if (high / low > 1e4) { // decade ticks only: whole decades, so both ends are labelled
        low = std::pow(10.0, std::floor(std::log10(low)));
        high = std::pow(10.0, std::ceil(std::log10(high)));
    }
    plot->yAxis->setRange(low, high);
    plot->yAxis->setTicker(logTicker(low, high));
    plot->yAxis->setLabel(tr("ms per call (log)"));
    setChartTitle(plot,
        MeasurementText::chartTitle(
            anyTraced ? tr("Latency distribution: box p10–p90, whiskers min–p99, ○ max; pale: collector on")
                      : tr("Latency distribution: box p10–p90, whiskers min–p99, ○ max"),
            m_measurement));
    installPointToolTips(plot, [variants, boxes](QCPAbstractPlottable *plottable, int) {
        const int b = plottable->property("box").toInt();
        if (b < 0 || b >= boxes.size())
            return QString();
        const Variant &v = variants.at(boxes.at(b).variant);
        const Stats &s = boxes.at(b).traced ? v.traced : v.stats;
        return tr("%1%2\nmin %3, p10 %4, median %5\np90 %6, p99 %7, max %8")
            .arg(variantLabel(v.name), boxes.at(b).traced ? tr(" (collector on)") : QString(), formatMs(s.min),
                formatMs(s.p10), formatMs(s.median), formatMs(s.p90), formatMs(s.p99), formatMs(s.max));
    });
    m_distribution->showChart();
    plot->replot();
}

void ProfilePanel::showMemory(const QList<Variant> &variants, const Client::ProfileGpu &gpu)
{
    QCustomPlot *plot = m_memory->plot();
    resetPlot(plot);
    QStringList categories, notes, methods;
    QVector<double> values;
    double maxBytes = 0;
    for (const Variant &v : variants) {
        categories << variantLabel(v.name);
        values << v.peakBytes;
        notes << (!v.available ? tr("not available") : std::isnan(v.peakBytes) ? tr("not measured") : QString());
        if (!std::isnan(v.peakBytes))
            maxBytes = qMax(maxBytes, v.peakBytes);
        if (!v.memoryMethod.isEmpty() && !methods.contains(v.memoryMethod))
            methods << v.memoryMethod;
    }
    if (maxBytes > 0) {
        const ByteUnit unit = byteUnitFor(maxBytes);
        for (double &v : values)
            v /= unit.divisor;
        const QList<QCPBars *> bars
            = drawHorizontalBars(plot, categories, { { tr("Peak"), QColor(0x6a, 0x1b, 0x9a), values } },
                tr("Peak bytes in use above the level before the call (%1) · %2")
                    .arg(unit.name, methods.join(QStringLiteral(", "))),
                notes, [unit](double v) { return QStringLiteral("%1 %2").arg(formatNumber(v, 'g', 3), unit.name); });
        installPointToolTips(plot, [variants, count = int(categories.size())](QCPAbstractPlottable *p, int i) {
            auto *b = qobject_cast<QCPBars *>(p);
            const int row = b ? barRow(count, b->data()->at(i)->key) : -1;
            if (row < 0 || row >= variants.size())
                return QString();
            const Variant &v = variants.at(row);
            return tr("%1: peak %2 (%L3 bytes)\nmethod %4")
                .arg(variantLabel(v.name), formatBytes(v.peakBytes))
                .arg(qint64(v.peakBytes))
                .arg(v.memoryMethod);
        });
        m_memory->showChart();
        plot->replot();
    } else {
        m_memory->showNote(tr("Not measured: no variant has a peak memory figure."));
    }

    if (!gpu.present) {
        m_gpuSummary->setText(tr("GPU: not measured (a CPU profile)."));
        return;
    }
    QStringList lines;
    QStringList busy;
    for (const auto &[variant, share] : gpu.busyShare)
        busy << tr("%1 %2").arg(variantLabel(variant), percent(share));
    if (!busy.isEmpty())
        lines << tr("<b>GPU busy</b> (kernel time over wall time): %1").arg(busy.join(QStringLiteral(", ")));
    for (const char *kind : { "memcpy", "memset" }) {
        QStringList parts;
        for (const Client::GpuTransfer &o : kind == std::string_view("memcpy") ? gpu.memcpy : gpu.memset) {
            parts << tr("%1%2: %3× %4 in %5")
                         .arg(variantLabel(o.variant), o.kind.isEmpty() ? QString() : QLatin1Char(' ') + o.kind)
                         .arg(o.count)
                         .arg(formatBytes(o.bytes), formatMs(o.totalMs));
        }
        if (!parts.isEmpty())
            lines << QStringLiteral("<b>%1</b>: %2").arg(QLatin1String(kind), parts.join(QStringLiteral("; ")));
    }
    const int dropped = gpu.droppedRecords;
    if (dropped > 0)
        lines << tr("⚠ %n activity record(s) dropped by CUPTI", nullptr, dropped);
    m_gpuSummary->setText(lines.join(QStringLiteral("<br>")));
}

void ProfilePanel::showTimeline(const Client::ProfileResult &result, const PathResolver &resolvePath)
{
    if (result.collectorPresent && !result.collectorAvailable) {
        m_timelineBox->showNote(tr("Not measured: the collector did not start (%1).").arg(result.collectorReason));
        return;
    }
    const QString &trace = result.tracePath;
    if (trace.isEmpty()) {
        m_timelineBox->showNote(tr("Not measured: the profile has no trace (it ran with trace off)."));
        return;
    }
    // Read on a worker thread (a trace of 10,000 launches is megabytes of JSON); a later
    // profile, or clear(), drops a read still in flight.
    const QString local = resolvePath(trace);
    m_tracePath = trace;
    m_traceMissing = true;
    struct Read {
        TimelineData data;
        QString error;
        bool ok = false;
    };
    m_traceJob->start(
        [local] {
            Read read;
            read.ok = TimelineData::load(local, &read.data, &read.error);
            return read;
        },
        [this, local](Read read) {
            if (!read.ok) {
                m_timelineBox->showNote(tr("Not available: the trace %1 cannot be read (%2).").arg(local, read.error));
                return;
            }
            if (read.data.isEmpty()) {
                m_timelineBox->showNote(tr("Not measured: the trace %1 has no ranges.").arg(local));
                return;
            }
            m_traceMissing = false;
            m_timeline->setData(std::move(read.data));
            m_timeline->highlight(m_highlighted);
            m_timelineBox->showChart();
        });
}

bool ProfilePanel::waitForTrace(int timeoutMs)
{
    return m_traceJob->waitForIdle(timeoutMs);
}

QStringList ProfilePanel::kernelSources() const
{
    QStringList sources;
    for (const Client::ProfileKernel &k : std::as_const(m_kernelRows)) {
        if (!sources.contains(k.source))
            sources << k.source;
    }
    // Compiled variants' kernels first, then eager's kernels (CUDA), then eager's ops.
    const auto rank = [](const QString &source) {
        return source.startsWith(QLatin1String("ops:")) ? 2 : source == QLatin1String("eager") ? 1 : 0;
    };
    std::stable_sort(
        sources.begin(), sources.end(), [rank](const QString &a, const QString &b) { return rank(a) < rank(b); });
    return sources;
}

void ProfilePanel::showKernels()
{
    const QStringList sources = kernelSources();
    m_kernelSourceBox->clear();
    for (const QString &source : sources) {
        m_kernelSourceBox->addItem(source.startsWith(QLatin1String("ops:"))
                ? tr("%1: ATen ops").arg(variantLabel(source.mid(4)))
                : tr("%1: kernels").arg(variantLabel(source)),
            source);
    }
    if (sources.isEmpty()) {
        m_kernels->showNote(tr("Not measured: the profile has no kernel ranges (the collector was off)."));
        return;
    }
    // Compiled kernels first: they are what the profile is about.
    setKernelSource(sources.first());
}

void ProfilePanel::setKernelSource(const QString &variant)
{
    QCustomPlot *plot = m_kernels->plot();
    resetPlot(plot);
    m_kernelSource = variant;
    m_kernelSourceBox->setCurrentIndex(m_kernelSourceBox->findData(variant));
    QList<Client::ProfileKernel> rows;
    for (const Client::ProfileKernel &k : std::as_const(m_kernelRows)) {
        if (k.source == variant)
            rows << k;
    }
    const auto total = [](const Client::ProfileKernel &k) { return std::isnan(k.totalMs) ? 0.0 : k.totalMs; };
    std::stable_sort(rows.begin(), rows.end(), [total](const Client::ProfileKernel &a, const Client::ProfileKernel &b) {
        return total(a) > total(b);
    });
    if (rows.size() > TopKernels)
        rows.resize(TopKernels);
    m_kernelNames.clear();
    QStringList categories;
    QVector<double> totals;
    QList<double> shares;
    for (const Client::ProfileKernel &k : std::as_const(rows)) {
        m_kernelNames << k.name;
        categories << elideMiddle(k.name, 44);
        totals << k.totalMs;
        shares << k.share;
    }
    if (rows.isEmpty()) {
        m_kernels->showNote(tr("Not measured: no kernels for %1.").arg(variant));
        return;
    }
    QHash<double, double> shareOf;
    for (int i = 0; i < totals.size(); ++i)
        shareOf.insert(totals.at(i), shares.at(i));
    drawHorizontalBars(plot, categories,
        { { tr("Total"), variantColor(variant.section(QLatin1Char(':'), -1)), totals } },
        tr("Total time in the traced pass (ms) · share of the variant's wall time"), {}, [shareOf](double v) {
            const double share = shareOf.value(v, qQNaN());
            return std::isnan(share) ? formatMs(v) : tr("%1 · %2").arg(formatMs(v), percent(share));
        });
    setChartTitle(plot, tr("Top kernels by total time: %1").arg(m_kernelSourceBox->currentText()));
    m_kernels->showChart();
    highlightKernel(m_highlighted);
}

void ProfilePanel::highlightKernel(const QString &name)
{
    m_highlighted = name;
    m_timeline->highlight(name);
    QCustomPlot *plot = m_kernels->plot();
    // The highlight is a second bar drawn over the kernel's own.
    for (int i = plot->plottableCount() - 1; i >= 0; --i) {
        if (plot->plottable(i)->objectName() == QLatin1String("highlight"))
            plot->removePlottable(i);
    }
    if (!name.isEmpty() && !m_kernelNames.contains(name)) {
        for (const QString &source : kernelSources()) {
            for (const Client::ProfileKernel &k : std::as_const(m_kernelRows)) {
                if (k.source == source && k.name == name && source != m_kernelSource) {
                    setKernelSource(source); // calls back here with the bars of that source
                    return;
                }
            }
        }
    }
    const int row = int(m_kernelNames.indexOf(name));
    if (row >= 0 && plot->plottableCount() > 0) {
        auto *bars = qobject_cast<QCPBars *>(plot->plottable(0));
        const double key = m_kernelNames.size() - row;
        auto it = bars->data()->findBegin(key - 0.1);
        if (it != bars->data()->constEnd()) {
            auto *highlight = new QCPBars(plot->yAxis, plot->xAxis);
            highlight->setObjectName(QStringLiteral("highlight"));
            highlight->setSelectable(QCP::stNone);
            highlight->setWidth(bars->width());
            highlight->setBrush(QColor(0xe6, 0x51, 0x00));
            highlight->setPen(QPen(QColor(0xbf, 0x36, 0x0c), 1.5));
            highlight->setData({ key }, { it->value });
        }
    }
    plot->replot();
}

void ProfilePanel::showColdStart(const Client::ColdStart &cold)
{
    QCustomPlot *plot = m_coldStart->plot();
    resetPlot(plot);
    if (std::isnan(cold.bundleMs) && std::isnan(cold.eagerMs)) {
        m_coldStart->showNote(
            tr("Cold start not measured: skipped (cold_start_runs 0) or aotstudio-run was not found."));
        return;
    }
    const QString title = cold.ratioInterval.isValid()
        ? tr("Cold start: eager / bundle %1")
              .arg(MeasurementText::ratioWithInterval(cold.ratioInterval, MeasurementText::Slower::Bundle))
        : tr("Cold start");
    if (cold.hasPhases()) {
        showColdStartPhases(cold);
        setChartTitle(plot, title);
        m_coldStart->showChart();
        plot->replot();
        return;
    }
    // Recordings before the phase breakdown: one bar each.
    drawHorizontalBars(plot, { tr("Package\n(aotstudio-run)"), tr("Eager\n(Python)") },
        { { tr("Cold start"), QColor(0x00, 0x83, 0x8f), { cold.bundleMs, cold.eagerMs } } },
        tr("Fresh process to first output (ms, median of %n run(s))", nullptr, cold.runs), {},
        [](double v) { return formatMs(v); });
    setChartTitle(plot, title);
    installPointToolTips(plot, [cold](QCPAbstractPlottable *p, int i) {
        auto *b = qobject_cast<QCPBars *>(p);
        const int row = b ? barRow(2, b->data()->at(i)->key) : -1;
        const bool isPackage = row == 0;
        return tr("%1: %2\n%3 of %4 runs succeeded")
            .arg(isPackage ? tr("Package (aotstudio-run, no Python)") : tr("Eager (import torch, build, run)"),
                formatMs(isPackage ? cold.bundleMs : cold.eagerMs))
            .arg(isPackage ? cold.bundleRunsOk : cold.eagerRunsOk)
            .arg(cold.runs);
    });
    m_coldStart->showChart();
    plot->replot();
}

void ProfilePanel::showColdStartPhases(const Client::ColdStart &cold)
{
    // The bundle as one bar stacked from its phases (each with its interval), eager beside it.
    QCustomPlot *plot = m_coldStart->plot();
    QCPAxis *keyAxis = plot->yAxis;
    QCPAxis *valueAxis = plot->xAxis;
    constexpr double BundleKey = 2, EagerKey = 1;
    const QString phaseNames[] = { tr("spawn to main"), tr("verify"), tr("load"), tr("first run") };
    const QColor phaseColors[] = { QColor(0x00, 0x60, 0x64), QColor(0x00, 0x83, 0x8f), QColor(0x26, 0xa6, 0x9a),
        QColor(0x80, 0xcb, 0xc4) };
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->addTick(BundleKey, tr("Bundle\n(aotstudio-run)"));
    ticker->addTick(EagerKey, tr("Eager\n(Python)"));
    keyAxis->setTicker(ticker);
    keyAxis->setRange(0.4, 2.6);
    keyAxis->grid()->setVisible(false);
    keyAxis->setSubTicks(false);
    QCPBars *below = nullptr;
    double stacked = 0, upper = 0;
    for (int i = 0; i < Client::ColdStart::PhaseCount; ++i) {
        const Client::PhaseStats &phase = cold.phases[i];
        if (!phase.isValid())
            continue;
        auto *bars = new QCPBars(keyAxis, valueAxis);
        bars->setName(phaseNames[i]);
        bars->setProperty("phase", i);
        bars->setWidth(0.5);
        bars->setPen(QPen(Qt::white, 1));
        bars->setBrush(phaseColors[i]);
        bars->setData({ BundleKey }, { phase.medianMs });
        if (below)
            bars->moveAbove(below);
        below = bars;
        stacked += phase.medianMs;
        if (phase.hasBounds()) {
            auto *whiskers = new QCPErrorBars(keyAxis, valueAxis);
            whiskers->setName(tr("%1 interval").arg(phaseNames[i]));
            whiskers->setDataPlottable(bars);
            whiskers->setErrorType(QCPErrorBars::etValueError);
            whiskers->setWhiskerWidth(6);
            whiskers->setPen(QPen(QColor(0x21, 0x21, 0x21), 1));
            whiskers->setData({ qMax(0.0, phase.medianMs - phase.lowMs) }, { qMax(0.0, phase.highMs - phase.medianMs) });
            whiskers->removeFromLegend();
            upper = qMax(upper, stacked - phase.medianMs + phase.highMs);
        }
    }
    // What the phases leave out of the median total (process exit, reading the inputs).
    const double rest = cold.bundleMs - stacked;
    if (!std::isnan(rest) && rest > 0.01 * cold.bundleMs) {
        auto *bars = new QCPBars(keyAxis, valueAxis);
        bars->setName(tr("other"));
        bars->setProperty("phase", int(Client::ColdStart::PhaseCount));
        bars->setWidth(0.5);
        bars->setPen(QPen(Qt::white, 1));
        bars->setBrush(QColor(0xb0, 0xbe, 0xc5));
        bars->setData({ BundleKey }, { rest });
        if (below)
            bars->moveAbove(below);
        stacked += rest;
    }
    if (!std::isnan(cold.eagerMs)) {
        auto *eager = new QCPBars(keyAxis, valueAxis);
        eager->setName(tr("eager"));
        eager->setProperty("phase", -1);
        eager->setWidth(0.5);
        eager->setPen(Qt::NoPen);
        eager->setBrush(variantColor(QStringLiteral("eager")));
        eager->setData({ EagerKey }, { cold.eagerMs });
        eager->removeFromLegend();
    }
    const double total = std::isnan(cold.bundleMs) ? stacked : qMax(stacked, cold.bundleMs);
    upper = qMax(upper, qMax(total, std::isnan(cold.eagerMs) ? 0.0 : cold.eagerMs)) * 1.3;
    for (const auto &[key, value] : { std::pair { BundleKey, total }, std::pair { EagerKey, cold.eagerMs } }) {
        if (std::isnan(value))
            continue;
        auto *text = new QCPItemText(plot);
        text->position->setAxes(valueAxis, keyAxis);
        text->position->setCoords(value, key);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        text->setTextAlignment(Qt::AlignLeft);
        text->setPadding(QMargins(6, 0, 0, 0));
        QString label = formatMs(value);
        if (key == BundleKey) {
            // The phases can be slivers beside eager's bar: their medians in legend order.
            QStringList parts;
            for (const QCPBars *b = below; b; b = b->barBelow())
                parts.prepend(formatNumber(b->data()->at(0)->value, 'f', 0));
            if (!std::isnan(rest) && rest > 0.01 * cold.bundleMs)
                parts << formatNumber(rest, 'f', 0);
            label += QLatin1Char('\n') + tr("phases: %1 ms").arg(parts.join(QStringLiteral(" + ")));
        }
        text->setText(label);
    }
    valueAxis->setRange(0, upper > 0 ? upper : 1);
    valueAxis->setLabel(tr("Fresh process to first output (ms, medians of %n run(s); whiskers: 95% CI)", nullptr,
        cold.runs));
    plot->legend->setVisible(true);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setWrap(3);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    installPointToolTips(plot, [cold, names = QStringList(std::begin(phaseNames), std::end(phaseNames))](
                                   QCPAbstractPlottable *p, int) {
        const int phase = p->property("phase").toInt();
        if (phase < 0)
            return tr("Eager (import torch, build, run): %1").arg(formatMs(cold.eagerMs));
        if (phase >= Client::ColdStart::PhaseCount)
            return tr("Other (outside the runtime's phases); the bundle's median total is %1").arg(formatMs(cold.bundleMs));
        const Client::PhaseStats &s = cold.phases[phase];
        return tr("%1: %2\nmedian of %n run(s)", nullptr, s.runs).arg(names.at(phase), MeasurementText::phase(s));
    });
}

void ProfilePanel::showThroughput(const QList<Client::ThroughputRow> &rows)
{
    QCustomPlot *plot = m_throughput->plot();
    resetPlot(plot);
    QVector<double> runners, throughput, p99, below, above;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (const Client::ThroughputRow &o : rows) {
        const double n = o.runners;
        runners << n;
        const double rate = o.callsPerSecond;
        throughput << rate;
        // The rate's 95% interval as whiskers (none in results before windows).
        const auto &interval = o.rate;
        below << (interval.hasBounds() ? qMax(0.0, rate - interval.low) : 0.0);
        above << (interval.hasBounds() ? qMax(0.0, interval.high - rate) : 0.0);
        p99 << o.p99Ms;
        ticker->addTick(n, QString::number(int(n)));
    }
    if (runners.isEmpty()) {
        m_throughput->showNote(tr("Throughput not measured (throughput: [])."));
        return;
    }
    m_throughputModel->setRows(rows);
    m_throughputView->setVisible(m_throughputModel->rowCount() > 0);
    m_throughputView->resizeColumnsToContents();
    auto *calls = plot->addGraph(plot->xAxis, plot->yAxis);
    calls->setName(tr("calls/s"));
    calls->setPen(QPen(QColor(0x2e, 0x7d, 0x32), 2));
    calls->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 8));
    calls->setData(runners, throughput);
    if (std::any_of(above.cbegin(), above.cend(), [](double v) { return v > 0; })) {
        auto *whiskers = new QCPErrorBars(plot->xAxis, plot->yAxis);
        whiskers->setName(tr("calls/s 95% interval"));
        whiskers->setDataPlottable(calls);
        whiskers->setErrorType(QCPErrorBars::etValueError);
        whiskers->setWhiskerWidth(8);
        whiskers->setPen(QPen(QColor(0x2e, 0x7d, 0x32), 1));
        whiskers->setData(below, above);
        whiskers->removeFromLegend();
    }
    auto *tail = plot->addGraph(plot->xAxis, plot->yAxis2);
    tail->setName(tr("p99 latency (ms)"));
    tail->setPen(QPen(QColor(0xc6, 0x28, 0x28), 2, Qt::DashLine));
    tail->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, 8));
    tail->setData(runners, p99);
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setLabel(tr("Runners (threads calling the package at once)"));
    plot->xAxis->setRange(runners.first() - 0.5, runners.last() + 0.5);
    plot->xAxis->grid()->setVisible(false);
    plot->yAxis->setLabel(tr("Throughput (calls/s)"));
    plot->yAxis2->setVisible(true);
    plot->yAxis2->setLabel(tr("p99 latency per call (ms)"));
    bool found = false;
    const QCPRange callsRange = calls->getValueRange(found);
    plot->yAxis->setRange(0, found ? callsRange.upper * 1.2 : 1);
    const QCPRange tailRange = tail->getValueRange(found);
    plot->yAxis2->setRange(0, found ? tailRange.upper * 1.2 : 1);
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    // A rate that disagrees with its runner's latency is marked where it is drawn, as in the table.
    for (const ThroughputModel::Row &row : m_throughputModel->rows()) {
        if (row.consistent != 0 || std::isnan(row.callsPerSecond))
            continue;
        auto *mark = new QCPItemText(plot);
        mark->setObjectName(QStringLiteral("inconsistentMark"));
        mark->position->setAxes(plot->xAxis, plot->yAxis);
        mark->position->setCoords(row.runners, row.callsPerSecond);
        mark->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom); // from the point rightwards: never cut by the axis
        mark->setPadding(QMargins(3, 1, 3, 1));
        mark->setText(tr("⚠ time lost between calls"));
        mark->setColor(QColor(0x66, 0x3c, 0x00));
        mark->setBrush(QColor(0xff, 0xf4, 0xe5));
    }
    installPointToolTips(plot, [rows](QCPAbstractPlottable *p, int i) {
        auto *g = qobject_cast<QCPGraph *>(p);
        if (!g)
            return QString();
        const double n = g->data()->at(i)->key;
        for (const Client::ThroughputRow &o : rows) {
            if (o.runners != n)
                continue;
            QString text = tr("%n runner(s), %1 threads\n%2 calls/s\nmedian %3, p99 %4", nullptr, int(n))
                .arg(o.threads)
                .arg(formatNumber(o.callsPerSecond, 'f', 0), formatMs(o.medianMs), formatMs(o.p99Ms));
            if (o.consistent == 0)
                text += QLatin1Char('\n') + tr("⚠ calls/s disagrees with the mean latency: time went somewhere between calls");
            return text;
        }
        return QString();
    });
    m_throughput->showChart();
    plot->replot();
}

void ProfilePanel::showReplay(const Client::ProfileReplay &replay)
{
    QCustomPlot *plot = m_replay->plot();
    resetPlot(plot);
    if (!replay.present) {
        m_replay->showNote(tr("Burst replay not measured: not asked for (Run Settings → Burst replay rates is empty)."));
        return;
    }
    const QStringList modes = replay.modes();
    if (modes.isEmpty()) {
        QString note = tr("Burst replay not measured: aotstudio-run answered no rate.");
        for (const Client::ReplayRun &run : replay.runs) {
            if (!run.error.isEmpty()) {
                note += QLatin1Char(' ') + tr("At %1 requests/s: %2").arg(formatNumber(run.rate), run.error);
                break;
            }
        }
        m_replay->showNote(note);
        return;
    }
    // p50 as the line's points, p99 as a whisker above each: both from the scheduled arrival to
    // the answer. A saturated point is hollow and labelled: its latency grew with the trace.
    double lowest = qInf(), highest = 0;
    QList<double> rates;
    for (const QString &mode : modes) {
        const QList<Client::ReplayRow> rows = replay.rowsOf(mode);
        QVector<double> x, p50, below, above;
        for (const Client::ReplayRow &row : rows) {
            if (!row.median.isValid())
                continue;
            x << row.rate;
            p50 << row.median.estimate;
            below << 0.0;
            above << (row.p99.isValid() ? qMax(0.0, row.p99.estimate - row.median.estimate) : 0.0);
            lowest = qMin(lowest, row.median.estimate);
            highest = qMax(highest, row.p99.isValid() ? row.p99.estimate : row.median.estimate);
            if (!rates.contains(row.rate))
                rates << row.rate;
        }
        const QColor color = replayModeColor(mode);
        QCPGraph *graph = plot->addGraph(plot->xAxis, plot->yAxis);
        graph->setName(replayModeLabel(mode));
        graph->setProperty("mode", mode);
        graph->setPen(QPen(color, 2, replayModePen(mode)));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
        graph->setData(x, p50, true);
        if (std::any_of(above.cbegin(), above.cend(), [](double v) { return v > 0; })) {
            auto *whiskers = new QCPErrorBars(plot->xAxis, plot->yAxis);
            whiskers->setObjectName(QStringLiteral("p99"));
            whiskers->setName(tr("%1 p99").arg(replayModeLabel(mode)));
            whiskers->setDataPlottable(graph);
            whiskers->setErrorType(QCPErrorBars::etValueError);
            whiskers->setWhiskerWidth(8);
            whiskers->setPen(QPen(color, 1));
            whiskers->setData(below, above);
            whiskers->removeFromLegend();
        }
        for (const Client::ReplayRow &row : rows) {
            if (!row.median.isValid())
                continue;
            auto *point = new QCPItemTracer(plot);
            point->setObjectName(QStringLiteral("replayPoint"));
            point->setProperty("mode", mode);
            point->setProperty("rate", row.rate);
            point->setProperty("saturated", row.saturated);
            point->setGraph(graph);
            point->setGraphKey(row.rate);
            point->setStyle(QCPItemTracer::tsCircle);
            point->setSize(9);
            point->setPen(QPen(color, 2));
            point->setBrush(row.saturated ? QBrush(Qt::white) : QBrush(color));
            point->setSelectable(false);
            if (row.saturated) {
                auto *mark = new QCPItemText(plot);
                mark->setObjectName(QStringLiteral("saturatedMark"));
                mark->setProperty("mode", mode);
                mark->position->setAxes(plot->xAxis, plot->yAxis);
                mark->position->setCoords(row.rate, row.median.estimate);
                mark->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
                mark->setPadding(QMargins(3, 1, 6, 3));
                mark->setText(tr("saturated"));
                mark->setColor(color.darker(130));
                mark->setSelectable(false);
            }
        }
    }
    if (rates.isEmpty() || !(highest > 0)) {
        m_replay->showNote(tr("Burst replay not measured: no request was answered (see the profile's warnings)."));
        return;
    }
    std::sort(rates.begin(), rates.end());
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (double rate : std::as_const(rates))
        ticker->addTick(rate, formatNumber(rate));
    // Rates such as 5, 20, 50 and latencies from a warm worker's milliseconds to a saturated
    // queue's seconds: logarithmic axes when the spread is wide, so neither end is a smear.
    const bool logX = rates.size() > 1 && rates.last() / rates.first() >= 5;
    if (logX) {
        plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
        plot->xAxis->setRange(rates.first() / 1.4, rates.last() * 1.4);
    } else {
        const double pad = rates.size() > 1 ? (rates.last() - rates.first()) * 0.15 : rates.first() * 0.5;
        plot->xAxis->setRange(rates.first() - pad, rates.last() + pad);
    }
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setLabel(tr("Offered arrival rate (requests/s, Poisson)"));
    plot->xAxis->grid()->setVisible(false);
    const bool logY = lowest > 0 && highest / lowest > 20;
    if (logY) {
        plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
        plot->yAxis->setTicker(logTicker(lowest / 1.5, highest * 2));
        plot->yAxis->setRange(lowest / 1.5, highest * 2);
    } else {
        plot->yAxis->setRange(0, highest * 1.25);
    }
    plot->yAxis->setLabel(logY ? tr("Latency, arrival to answer (ms, log): p50, whisker to p99")
                               : tr("Latency, arrival to answer (ms): p50, whisker to p99"));
    setChartTitle(plot,
        tr("Burst replay: %1 s of arrivals per rate, %n worker(s); hollow: saturated", nullptr, replay.workers)
            .arg(formatNumber(replay.seconds)));
    plot->legend->setVisible(true);
    installPointToolTips(plot, [replay](QCPAbstractPlottable *p, int i) {
        auto *g = qobject_cast<QCPGraph *>(p);
        if (!g || i < 0 || i >= g->dataCount())
            return QString();
        const QString mode = g->property("mode").toString();
        const double rate = g->data()->at(i)->key;
        const auto estimate = [](const Client::EstimateInterval &e) {
            if (!e.isValid())
                return QStringLiteral("—");
            if (!e.hasBounds())
                return tr("%1 (no interval)").arg(formatMs(e.estimate));
            return tr("%1 (95% CI %2–%3)").arg(formatMs(e.estimate), formatMs(e.low), formatMs(e.high));
        };
        for (const Client::ReplayRow &row : replay.rows) {
            if (row.mode != mode || row.rate != rate)
                continue;
            QString text = tr("%1 (%2) at %3 requests/s (the trace offered %4/s)\np50 %5\np99 %6\n"
                              "throughput %7 answers/s; CPU busy %8\n%9 of %10 answered")
                               .arg(replayModeLabel(mode), replayModeWhat(mode), formatNumber(row.rate),
                                   formatNumber(row.offeredRate),
                                   estimate(row.median), estimate(row.p99), formatNumber(row.throughput),
                                   percent(row.cpuBusyShare))
                               .arg(row.ok)
                               .arg(row.requests);
            if (row.saturated)
                text += QLatin1Char('\n')
                    + tr("saturated: answered %1/s of the %2/s offered (below %3 of it); its queue grew for the "
                         "whole run, so its latency measures the trace's length")
                          .arg(formatNumber(row.throughput), formatNumber(row.offeredRate),
                              percent(qIsNaN(replay.saturationShare) ? 0.8 : replay.saturationShare));
            for (const Client::ReplayRatio &ratio : replay.ratios) {
                // "spawn/worker median latency": the baseline before the slash, the mode after it.
                if (ratio.rate != rate || !ratio.name.endsWith(QLatin1Char('/') + mode + QLatin1String(" median latency")))
                    continue;
                const QString baseline = replayModeLabel(ratio.name.section(QLatin1Char('/'), 0, 0));
                text += QLatin1Char('\n')
                    + (ratio.comparable ? tr("%1 / this mode, median latency: %2")
                                              .arg(baseline,
                                                  MeasurementText::ratioWithInterval(
                                                      ratio.ratio, MeasurementText::Slower::None))
                                        : tr("%1 / this mode: not comparable (%2)").arg(baseline, ratio.whyNot));
            }
            if (!qIsNaN(row.gpuBusyShare))
                text += QLatin1Char('\n') + tr("GPU busy %1 (NVML)").arg(percent(row.gpuBusyShare));
            else if (!row.gpuBusyWhy.isEmpty())
                text += QLatin1Char('\n') + tr("GPU busy not measured: %1").arg(row.gpuBusyWhy);
            if (!row.firstError.isEmpty())
                text += QLatin1Char('\n') + tr("first error: %1").arg(row.firstError);
            return text;
        }
        return QString();
    });
    m_replay->showChart();
    plot->replot();
}

} // namespace AotStudio::Widgets
