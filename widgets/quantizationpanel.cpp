// SPDX-License-Identifier: GPL-3.0-or-later
#include "quantizationpanel.h"

#include "selectionhub.h"

#include "charthelpers.h"
#include "layererrormodel.h"
#include "measurementtext.h"
#include "numberformat.h"
#include "schemetablemodel.h"
#include "tablecopy.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace AotStudio::Widgets {

namespace {
const QColor EagerColor(0x9e, 0x9e, 0x9e);
const QColor CompiledColor(0x2e, 0x7d, 0x32);
const QColor PointColor(0x15, 0x65, 0xc0);
const QColor BestColor(0xe6, 0x51, 0x00);

void setUpTable(QTableView *view, QSortFilterProxyModel *proxy, int sortRole)
{
    proxy->setSortRole(sortRole);
    proxy->setDynamicSortFilter(true);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(-1, Qt::AscendingOrder);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->setVisible(false);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setHighlightSections(false);
    installCopyAction(view);
}

QString statusNote(const SchemeRow &row)
{
    if (row.status == QLatin1String("unsupported"))
        return QuantizationPanel::tr("unsupported");
    if (row.status == QLatin1String("failed"))
        return QuantizationPanel::tr("failed");
    return row.isOk() ? QString() : row.status;
}
} // namespace

QuantizationPanel::QuantizationPanel(QWidget *parent)
    : QWidget(parent)
    , m_schemeModel(new SchemeTableModel(this))
    , m_schemeProxy(new QSortFilterProxyModel(this))
    , m_layerModel(new LayerErrorModel(this))
    , m_layerProxy(new QSortFilterProxyModel(this))
    , m_summary(new QLabel(this))
    , m_schemeView(new QTableView(this))
    , m_layerView(new QTableView(this))
    , m_layerTitle(new QLabel(this))
    , m_metricBox(new QComboBox(this))
{
    m_summary->setObjectName(QStringLiteral("quantizationSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_schemeView->setObjectName(QStringLiteral("schemeTable"));
    m_layerView->setObjectName(QStringLiteral("layerTable"));
    m_layerTitle->setObjectName(QStringLiteral("layerTitle"));
    m_schemeProxy->setSourceModel(m_schemeModel);
    m_layerProxy->setSourceModel(m_layerModel);
    setUpTable(m_schemeView, m_schemeProxy, SchemeTableModel::SortRole);
    setUpTable(m_layerView, m_layerProxy, LayerErrorModel::SortRole);
    m_schemeView->setSelectionMode(QAbstractItemView::ExtendedSelection);

    m_scatter = new ChartBox(createChart(QStringLiteral("quantAccuracyChart"), tr("Latency against accuracy")), this);
    m_latency = new ChartBox(createChart(QStringLiteral("quantLatencyChart"), tr("Median latency per scheme")), this);
    m_memory = new ChartBox(createChart(QStringLiteral("quantMemoryChart"), tr("Peak memory per scheme")), this);
    m_size = new ChartBox(createChart(QStringLiteral("quantSizeChart"), tr("Package size per scheme")), this);

    m_metricBox->setObjectName(QStringLiteral("accuracyMetric"));
    m_metricBox->addItem(tr("Max abs error"));
    m_metricBox->addItem(tr("1 − cosine"));
    m_metricBox->setToolTip(tr("Accuracy against fp32 eager on the evaluation set"));
    connect(m_metricBox, &QComboBox::currentIndexChanged, this, [this](int index) {
        setAccuracyMetric(index == 1 ? AccuracyMetric::OneMinusCosine : AccuracyMetric::MaxAbsError);
    });

    auto *scatterPage = new QWidget(this);
    auto *scatterLayout = new QVBoxLayout(scatterPage);
    scatterLayout->setContentsMargins(0, 0, 0, 0);
    auto *metricRow = new QHBoxLayout;
    metricRow->addWidget(new QLabel(tr("Accuracy:"), scatterPage));
    metricRow->addWidget(m_metricBox);
    metricRow->addStretch(1);
    scatterLayout->addLayout(metricRow);
    scatterLayout->addWidget(m_scatter, 1);

    auto *tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("quantizationTabs"));
    tabs->addTab(scatterPage, tr("Latency vs accuracy"));
    tabs->addTab(m_latency, tr("Latency"));
    tabs->addTab(m_memory, tr("Memory"));
    tabs->addTab(m_size, tr("Package size"));

    auto *layerBox = new QWidget(this);
    auto *layerLayout = new QVBoxLayout(layerBox);
    layerLayout->setContentsMargins(0, 0, 0, 0);
    layerLayout->addWidget(m_layerTitle);
    layerLayout->addWidget(m_layerView, 1);

    auto *bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(tabs);
    bottom->addWidget(layerBox);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_schemeView);
    split->addWidget(bottom);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

    connect(m_schemeView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &QuantizationPanel::onCurrentRowChanged);
    connect(m_scatter->plot(), &QCustomPlot::afterLayout, this, &QuantizationPanel::placeScatterLabels);
    installPointToolTips(m_scatter->plot(), [this](QCPAbstractPlottable *plottable, int) {
        const int row = m_schemeModel->rowOf(plottable->name());
        if (row < 0)
            return QString();
        const SchemeRow &r = m_schemeModel->rows().at(row);
        return tr("%1\ncompiled median %2\nmax abs error %3\ncosine %4\n%5 vs fp32 eager\nmeasurement %6")
            .arg(r.scheme, formatMs(r.compiledMs), formatNumber(r.maxAbsError, 'g', 3), formatNumber(r.cosine, 'f', 6),
                MeasurementText::ratioWithInterval(r.speedupVsFp32EagerInterval, MeasurementText::Slower::ThanFp32Eager),
                MeasurementText::verdictLine(r.measurement));
    });
    const auto barTip = [this](QCPAbstractPlottable *plottable, int index) {
        auto *bars = qobject_cast<QCPBars *>(plottable);
        if (!bars || index < 0 || index >= bars->dataCount())
            return QString();
        const auto it = bars->data()->at(index);
        const int row = barRow(int(m_schemeModel->rows().size()), it->key);
        if (row < 0 || row >= m_schemeModel->rows().size())
            return QString();
        const SchemeRow &r = m_schemeModel->rows().at(row);
        QString text = tr("%1 — %2\neager %3, compiled %4\npeak memory: eager %5, compiled %6\npackage %7")
            .arg(r.scheme, bars->name(), formatMs(r.eagerMs), formatMs(r.compiledMs), formatBytes(r.peakEagerBytes),
                formatBytes(r.peakCompiledBytes), formatBytes(r.packageBytes));
        if (r.measurement.isUnreliable())
            text += QLatin1Char('\n') + MeasurementText::verdictLine(r.measurement);
        return text;
    };
    installPointToolTips(m_latency->plot(), barTip);
    installPointToolTips(m_memory->plot(), barTip);
    installPointToolTips(m_size->plot(), barTip);
    clear();
}

void QuantizationPanel::clear()
{
    m_shown.reset();
    m_schemeModel->clear();
    m_layerModel->clear();
    m_selectedScheme.clear();
    m_summary->setText(tr("No quantization result yet: run Quantize to compare schemes."));
    m_layerTitle->setText(tr("Per-layer error"));
    const QString note = tr("Not measured: no quantization result.");
    for (ChartBox *box : { m_scatter, m_latency, m_memory, m_size }) {
        box->plot()->clearPlottables();
        box->plot()->clearItems();
        m_scatterLabels.clear();
        m_maxErrorLabel = nullptr;
        box->showNote(note);
    }
}

QList<QCustomPlot *> QuantizationPanel::charts() const
{
    QList<QCustomPlot *> result;
    for (ChartBox *box : { m_scatter, m_latency, m_memory, m_size }) {
        if (box->isMeasured())
            result << box->plot();
    }
    return result;
}

void QuantizationPanel::follow(SelectionHub *hub)
{
    m_hub = hub;
    hub->addViewer(this, this);
    onResultsChanged();
}

void QuantizationPanel::onResultsChanged()
{
    const auto result = m_hub ? m_hub->quantize() : nullptr;
    if (result == m_shown && result)
        return; // the same result, parsed once: nothing to redraw
    setQuantization(result);
    if (const QString error = m_hub ? m_hub->resultError(QStringLiteral("quantize")) : QString(); !result && !error.isEmpty())
        m_summary->setText(tr("The quantization result cannot be shown: %1").arg(error.toHtmlEscaped()));
}

void QuantizationPanel::setQuantization(std::shared_ptr<const Client::QuantizeResult> shared)
{
    clear();
    if (!shared)
        return;
    m_shown = shared;
    const Client::QuantizeResult &result = *shared;
    m_schemeModel->setResult(shared);
    m_peakMethod = result.peakMethod;
    m_schemeView->resizeColumnsToContents();
    // The reason column can be long: it stretches, and the tooltip has the whole text.
    m_schemeView->horizontalHeader()->resizeSection(SchemeTableModel::ReasonColumn, 200);
    // Where each row ran matters only when they ran in more than one place (a Ray fan-out).
    m_schemeView->setColumnHidden(SchemeTableModel::HostColumn, !result.severalHosts);

    QString summary = tr("<b>%1</b> on %2 · baseline %3 · calibration %4 samples, evaluation %5 samples")
                          .arg(result.model.toHtmlEscaped(), result.device.toHtmlEscaped(),
                              result.baseline.toHtmlEscaped())
                          .arg(result.calibrationSamples)
                          .arg(result.evaluationSamples);
    if (!std::isnan(m_schemeModel->maxError())) {
        summary += QStringLiteral("<br>");
        summary += m_schemeModel->bestScheme().isEmpty()
            ? tr("No scheme within max abs error %1.").arg(formatNumber(m_schemeModel->maxError(), 'g', 3))
            : tr("★ Best within max abs error %1: <b>%2</b>")
                  .arg(formatNumber(m_schemeModel->maxError(), 'g', 3), m_schemeModel->bestScheme().toHtmlEscaped());
    }
    if (result.severalHosts)
        summary += QStringLiteral("<br>")
            + tr("The schemes ran on several hosts of the Ray cluster %1: compare them by “vs fp32 eager”, a ratio "
                 "each row took on its own host; their medians are not comparable.")
                  .arg(result.rayAddress.toHtmlEscaped());
    // Threads, and each row's verdict counted: the Measurement column has them one by one.
    using V = Client::Measurement::Verdict;
    int counts[5] = {};
    int threads = result.threads;
    int usable = 0;
    for (const SchemeRow &row : m_schemeModel->rows()) {
        if (!row.isOk())
            continue;
        ++counts[int(row.measurement.verdict)];
        if (threads <= 0)
            threads = row.measurement.threads;
        usable = qMax(usable, row.measurement.usableCpus);
    }
    QStringList verdicts;
    for (V v : {V::Ok, V::Noisy, V::Unreliable, V::Unknown}) {
        if (counts[int(v)] == 0)
            continue;
        Client::Measurement m;
        m.verdict = v;
        verdicts << QStringLiteral("<span style=\"color:%1\">%2</span>")
                        .arg(MeasurementText::verdictColor(m).name(),
                             tr("%1 in %n row(s)", nullptr, counts[int(v)]).arg(MeasurementText::verdictName(m)));
    }
    summary += QStringLiteral("<br>")
        + tr("Threads: %1 · Measurements: %2")
              .arg(MeasurementText::threads(threads, usable),
                  verdicts.isEmpty() ? MeasurementText::verdictLine(Client::Measurement())
                                     : verdicts.join(QStringLiteral(", ")));
    m_summary->setText(summary);
    rebuildCharts();

    QString initial = m_schemeModel->bestScheme();
    if (initial.isEmpty()) {
        for (const SchemeRow &row : m_schemeModel->rows()) {
            if (row.isOk() && !row.layers.isEmpty()) {
                initial = row.scheme;
                break;
            }
        }
    }
    if (!initial.isEmpty())
        selectScheme(initial);
}

bool QuantizationPanel::selectScheme(const QString &scheme)
{
    const int row = m_schemeModel->rowOf(scheme);
    if (row < 0)
        return false;
    const QModelIndex index = m_schemeProxy->mapFromSource(m_schemeModel->index(row, 0));
    m_schemeView->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    return true;
}

void QuantizationPanel::onCurrentRowChanged()
{
    const QModelIndex current = m_schemeView->selectionModel()->currentIndex();
    if (!current.isValid())
        return;
    const QString scheme = current.data(SchemeTableModel::SchemeNameRole).toString();
    if (scheme == m_selectedScheme)
        return;
    m_selectedScheme = scheme;
    const SchemeRow &row = m_schemeModel->rows().at(m_schemeModel->rowOf(scheme));
    m_layerModel->setLayers(row.layers);
    m_layerView->resizeColumnsToContents();
    if (!row.isOk())
        m_layerTitle->setText(tr("Per-layer error of %1: not measured (%2)").arg(scheme, statusNote(row)));
    else if (row.layers.isEmpty())
        m_layerTitle->setText(tr("Per-layer error of %1: no quantized layers").arg(scheme));
    else
        m_layerTitle->setText(tr("Per-layer error of %1 (%n layer(s), each against its fp32 layer on the same input)",
            nullptr, int(row.layers.size()))
                                  .arg(scheme));
    rebuildScatter();
    Q_EMIT schemeSelected(scheme);
}

void QuantizationPanel::setAccuracyMetric(AccuracyMetric metric)
{
    m_metric = metric;
    const int index = metric == AccuracyMetric::OneMinusCosine ? 1 : 0;
    if (m_metricBox->currentIndex() != index)
        m_metricBox->setCurrentIndex(index);
    rebuildScatter();
}

void QuantizationPanel::rebuildCharts()
{
    const QList<SchemeRow> &rows = m_schemeModel->rows();
    bool anyOk = false;
    QStringList categories, notes, latencyCategories;
    QList<bool> unreliable; // timings greyed, like the table's (memory and size are not timings)
    QVector<double> eager, compiled, peakEager, peakCompiled, size;
    double maxPeak = 0, maxSize = 0;
    for (const SchemeRow &row : rows) {
        anyOk = anyOk || row.isOk();
        categories << (row.best ? tr("★ %1").arg(row.scheme) : row.scheme);
        unreliable << row.measurement.isUnreliable();
        latencyCategories << (unreliable.last() ? tr("%1\n(unreliable)").arg(categories.last()) : categories.last());
        notes << statusNote(row);
        eager << row.eagerMs;
        compiled << row.compiledMs;
        peakEager << row.peakEagerBytes;
        peakCompiled << row.peakCompiledBytes;
        size << row.packageBytes;
        for (double v : { row.peakEagerBytes, row.peakCompiledBytes })
            if (!std::isnan(v))
                maxPeak = qMax(maxPeak, v);
        if (!std::isnan(row.packageBytes))
            maxSize = qMax(maxSize, row.packageBytes);
    }
    if (!anyOk) {
        const QString note = rows.isEmpty() ? tr("Not measured: the result lists no schemes.")
                                            : tr("Not measured: no scheme ran (see the table for the reasons).");
        for (ChartBox *box : { m_scatter, m_latency, m_memory, m_size })
            box->showNote(note);
        return;
    }

    const auto msText = [](double v) { return formatNumber(v, 'g', 3); };
    drawHorizontalBars(m_latency->plot(), latencyCategories,
        { { tr("Eager"), EagerColor, eager }, { tr("Compiled"), CompiledColor, compiled } },
        unreliable.contains(true) ? tr("Median latency per call (ms); grey: unreliable measurement")
                                  : tr("Median latency per call (ms)"),
        notes, msText, unreliable);
    m_latency->showChart();
    m_latency->plot()->replot();

    const ByteUnit peakUnit = byteUnitFor(maxPeak);
    const auto scaled = [](QVector<double> values, double divisor) {
        for (double &v : values)
            v /= divisor;
        return values;
    };
    const auto unitText = [](const ByteUnit &unit) {
        return [unit](double v) { return QStringLiteral("%1 %2").arg(formatNumber(v, 'g', 3), unit.name); };
    };
    if (maxPeak > 0) {
        drawHorizontalBars(m_memory->plot(), categories,
            { { tr("Eager"), EagerColor, scaled(peakEager, peakUnit.divisor) },
                { tr("Compiled"), CompiledColor, scaled(peakCompiled, peakUnit.divisor) } },
            tr("Peak memory of one forward above resident (%1)").arg(peakUnit.name), notes, unitText(peakUnit));
        m_memory->showChart();
        m_memory->plot()->replot();
    } else {
        bool anyZero = false;
        for (const SchemeRow &row : rows)
            anyZero = anyZero || row.peakCompiledBytes == 0 || row.peakEagerBytes == 0;
        m_memory->showNote(anyZero ? tr("Not measured: every peak memory figure is 0 bytes, below what the "
                                        "method (%1) resolves.")
                                         .arg(m_peakMethod)
                                   : tr("Not measured: the result has no peak memory figures."));
    }

    const ByteUnit sizeUnit = byteUnitFor(maxSize);
    if (maxSize > 0) {
        drawHorizontalBars(m_size->plot(), categories,
            { { tr("Package"), QColor(0x6a, 0x1b, 0x9a), scaled(size, sizeUnit.divisor) } },
            tr("Package size on disk (%1)").arg(sizeUnit.name), notes, unitText(sizeUnit));
        m_size->showChart();
        m_size->plot()->replot();
    } else {
        m_size->showNote(tr("Not measured: the result has no package sizes."));
    }
    rebuildScatter();
}

void QuantizationPanel::placeScatterLabels()
{
    // Runs after each layout, before drawing: labels go beside their point where they overlap
    // neither another label nor a point and stay inside the axis rect.
    QCustomPlot *plot = m_scatter->plot();
    const QRectF area = plot->axisRect()->rect();
    QList<QRectF> taken;
    if (m_maxErrorLabel)
        taken << QRectF(m_maxErrorLabel->topLeft->pixelPosition(), m_maxErrorLabel->bottomRight->pixelPosition());
    for (const ScatterLabel &label : std::as_const(m_scatterLabels)) {
        const QPointF p(plot->xAxis->coordToPixel(label.coords.x()), plot->yAxis->coordToPixel(label.coords.y()));
        taken << QRectF(p - QPointF(6, 6), QSizeF(12, 12));
    }
    for (const ScatterLabel &label : std::as_const(m_scatterLabels)) {
        const QPointF p(plot->xAxis->coordToPixel(label.coords.x()), plot->yAxis->coordToPixel(label.coords.y()));
        const QSizeF size = QFontMetricsF(label.text->font()).size(0, label.text->text()) + QSizeF(4, 2);
        struct Candidate {
            QPointF offset;
            Qt::Alignment alignment;
        };
        QList<Candidate> candidates;
        for (int k = 0; k < 6; ++k) {
            const double up = -4 - k * size.height();
            const double down = 4 + k * size.height();
            candidates << Candidate { { 8, up }, Qt::AlignLeft | Qt::AlignBottom }
                       << Candidate { { -8, up }, Qt::AlignRight | Qt::AlignBottom }
                       << Candidate { { 8, down }, Qt::AlignLeft | Qt::AlignTop }
                       << Candidate { { -8, down }, Qt::AlignRight | Qt::AlignTop };
        }
        const auto rectFor = [&](const Candidate &c) {
            const double left
                = c.alignment & Qt::AlignLeft ? p.x() + c.offset.x() : p.x() + c.offset.x() - size.width();
            const double top
                = c.alignment & Qt::AlignBottom ? p.y() + c.offset.y() - size.height() : p.y() + c.offset.y();
            return QRectF(left, top, size.width(), size.height());
        };
        const Candidate *chosen = nullptr;
        for (const Candidate &c : std::as_const(candidates)) {
            const QRectF r = rectFor(c);
            if (!area.contains(r))
                continue;
            const bool free = std::none_of(
                taken.begin(), taken.end(), [&](const QRectF &t) { return t.intersects(r) && !t.contains(p); });
            if (free) {
                chosen = &c;
                break;
            }
        }
        if (!chosen) {
            for (const Candidate &c : std::as_const(candidates)) {
                if (area.contains(rectFor(c))) {
                    chosen = &c;
                    break;
                }
            }
        }
        if (!chosen)
            chosen = &candidates.first();
        label.text->setPositionAlignment(chosen->alignment);
        label.text->position->setCoords(chosen->offset);
        taken << rectFor(*chosen);
    }
}

void QuantizationPanel::rebuildScatter()
{
    QCustomPlot *plot = m_scatter->plot();
    plot->clearPlottables();
    plot->clearItems();
    m_scatterLabels.clear();
    m_maxErrorLabel = nullptr;
    const bool cosine = m_metric == AccuracyMetric::OneMinusCosine;
    struct Point {
        const SchemeRow *row;
        double x;
        double y;
    };
    QList<Point> points;
    double minPositive = qInf(), maxX = 0, maxY = 0;
    // Medians of two hosts are never put on one axis: rows from several hosts are placed by their
    // own speedup over fp32 eager (each a ratio taken in one process on its host).
    const bool speedupAxis = m_schemeModel->severalHosts();
    for (const SchemeRow &row : m_schemeModel->rows()) {
        const double x = cosine ? 1.0 - row.cosine : row.maxAbsError;
        const double yValue = speedupAxis ? row.speedupVsFp32Eager : row.compiledMs;
        if (!row.isOk() || std::isnan(x) || std::isnan(yValue))
            continue;
        points << Point { &row, x, yValue };
        if (x > 0)
            minPositive = qMin(minPositive, x);
        maxX = qMax(maxX, x);
        maxY = qMax(maxY, yValue);
    }
    if (points.isEmpty()) {
        if (!m_schemeModel->rows().isEmpty())
            m_scatter->showNote(tr("Not measured: no scheme has both a compiled latency and an accuracy figure."));
        return;
    }
    // A log axis cannot show 0 (fp32 against itself): such points sit a decade left of the
    // smallest error, and their tooltip and label say 0.
    const double floor = std::isinf(minPositive) ? 1e-9 : minPositive / 10;
    maxX = qMax(maxX, floor);

    QCPAxis *x = plot->xAxis;
    QCPAxis *y = plot->yAxis;
    x->setScaleType(QCPAxis::stLogarithmic);
    auto logTicker = QSharedPointer<QCPAxisTickerLog>::create();
    x->setTicker(logTicker);
    x->setNumberFormat(QStringLiteral("eb"));
    x->setNumberPrecision(0);
    x->setLabel(cosine ? tr("1 − cosine against fp32 eager (log)") : tr("Max abs error against fp32 eager (log)"));
    y->setLabel(speedupAxis ? tr("Speedup over fp32 eager, each on its own host (×)")
                            : tr("Compiled median latency (ms)"));
    const double maxError = m_schemeModel->maxError();
    const bool showMaxError = !cosine && !std::isnan(maxError) && maxError > 0;
    x->setRange(floor / 3, qMax(maxX, showMaxError ? maxError : 0.0) * 4);
    // One slow scheme (bf16 on a CPU without bf16 units: 200 ms against 0.2 ms) would squash
    // every other point onto the axis: a log axis then.
    double minY = qInf();
    for (const Point &p : std::as_const(points))
        minY = qMin(minY, p.y);
    if (minY > 0 && maxY / minY > 20) {
        y->setScaleType(QCPAxis::stLogarithmic);
        y->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        y->setNumberFormat(QStringLiteral("gb"));
        y->setRange(minY / 2, maxY * 2);
        y->setLabel(speedupAxis ? tr("Speedup over fp32 eager, each on its own host (×, log)")
                                : tr("Compiled median latency (ms, log)"));
    } else {
        y->setScaleType(QCPAxis::stLinear);
        y->setTicker(QSharedPointer<QCPAxisTicker>::create());
        y->setNumberFormat(QStringLiteral("gb"));
        y->setRange(0, maxY * 1.25);
    }

    m_scatterLabels.clear();
    for (const Point &p : points) {
        const double px = qMax(p.x, floor);
        auto *graph = plot->addGraph(x, y);
        graph->setName(p.row->scheme);
        graph->setLineStyle(QCPGraph::lsNone);
        const bool greyed = p.row->measurement.isUnreliable(); // its latency is not to be trusted
        const QColor color = greyed ? greyedColor(p.row->best ? BestColor : PointColor)
                                    : p.row->best ? BestColor : PointColor;
        graph->setScatterStyle(QCPScatterStyle(
            p.row->best ? QCPScatterStyle::ssStar : QCPScatterStyle::ssDisc, color, color, p.row->best ? 14 : 9));
        graph->setData({ px }, { p.y });
        const bool selected = p.row->scheme == m_selectedScheme;
        if (selected) {
            // A ring around the selected scheme's point (same name, so its tooltip still works).
            auto *ring = plot->addGraph(x, y);
            ring->setName(p.row->scheme);
            ring->setLineStyle(QCPGraph::lsNone);
            ring->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 1.5), Qt::NoBrush, 18));
            ring->setData({ px }, { p.y });
        }
        auto *tracer = new QCPItemTracer(plot);
        tracer->setStyle(QCPItemTracer::tsNone);
        tracer->position->setAxes(x, y);
        tracer->position->setCoords(px, p.y);
        auto *text = new QCPItemText(plot);
        text->position->setParentAnchor(tracer->position);
        QString label = p.row->scheme;
        if (p.x <= 0)
            label += tr(" (error 0)");
        if (greyed)
            label += tr(" (unreliable)");
        text->setText(label);
        QFont font = plot->font();
        font.setBold(selected || p.row->best);
        text->setFont(font);
        text->setColor(greyed ? MeasurementText::greyedText()
                       : p.row->best ? BestColor.darker(130) : plot->palette().color(QPalette::Text));
        graph->setProperty("greyed", greyed);
        m_scatterLabels.append({ text, QPointF(px, p.y) });
    }
    if (showMaxError) {
        auto *line = new QCPItemStraightLine(plot);
        line->point1->setCoords(maxError, 0);
        line->point2->setCoords(maxError, 1);
        line->setPen(QPen(BestColor, 1, Qt::DashLine));
        auto *text = new QCPItemText(plot);
        text->position->setTypeX(QCPItemPosition::ptPlotCoords);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(maxError, 0.02);
        text->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        text->setPadding(QMargins(0, 0, 4, 0));
        text->setText(tr("max error %1").arg(formatNumber(maxError, 'g', 3)));
        m_maxErrorLabel = text;
        text->setColor(BestColor.darker(130));
    }
    m_scatter->showChart();
    plot->replot();
}

} // namespace AotStudio::Widgets
