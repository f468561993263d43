// SPDX-License-Identifier: GPL-3.0-or-later
#include "memorypanel.h"

#include "charthelpers.h"
#include "selectionhub.h"

#include <qcustomplot.h>

#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace AotStudio::Widgets {

namespace {

enum Column { BufferColumn, SizeColumn, LifetimeColumn, StorageColumn, ShapeColumn, NodesColumn, ColumnCount };
constexpr int SortRole = Qt::UserRole + 1;
constexpr int RowRole = Qt::UserRole + 2; ///< index into plan->buffers

/// How a buffer's storage is obtained (FORMAT.md "Memory plan", `allocation`), in words.
QString storageText(const Client::MemoryBuffer &b)
{
    if (b.removed)
        return MemoryPanel::tr("none: lives inside its kernel");
    if (b.allocation == QLatin1String("wrapper"))
        return MemoryPanel::tr("allocated");
    if (b.allocation == QLatin1String("reuse"))
        return MemoryPanel::tr("reuses %1").arg(b.reuses);
    if (b.allocation == QLatin1String("extern"))
        return MemoryPanel::tr("returned by the extern call");
    return MemoryPanel::tr("none (a view or alias)");
}

QColor storageColor(const Client::MemoryBuffer &b)
{
    if (b.removed || b.allocation == QLatin1String("none"))
        return QColor(0xb0, 0xb0, 0xb0);
    if (b.allocation == QLatin1String("reuse"))
        return QColor(0x2e, 0x7d, 0x32); // green: no new allocation
    if (b.allocation == QLatin1String("extern"))
        return QColor(0xef, 0x6c, 0x00);
    return QColor(0x15, 0x65, 0xc0);
}

QString shapeText(const Client::MemoryBuffer &b)
{
    QStringList dims;
    for (qint64 d : b.shape)
        dims << QLocale().toString(d);
    return QStringLiteral("%1 [%2]").arg(b.dtype, dims.join(QStringLiteral("×")));
}

} // namespace

MemoryPanel::MemoryPanel(SelectionHub *hub, QWidget *parent)
    : QWidget(parent)
    , m_hub(hub)
{
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("memorySummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);

    auto *plot = createChart(QStringLiteral("memoryChart"), tr("Live memory along the kernel order"));
    plot->setMinimumHeight(220);
    // The legend in a row of its own under the title, laid out across: inside the axes it covers
    // the curves of a small dock.
    plot->legend->setVisible(true);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->axisRect()->insetLayout()->take(plot->legend);
    plot->plotLayout()->insertRow(1);
    plot->plotLayout()->addElement(1, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(1, 0.001);
    m_chart = new ChartBox(plot, this);

    m_model = new QStandardItemModel(0, ColumnCount, this);
    m_model->setHorizontalHeaderLabels(
        {tr("Buffer"), tr("Size"), tr("Lifetime (steps)"), tr("Storage"), tr("Shape"), tr("Graph nodes")});
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SortRole);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("memoryTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex &index) {
        bufferPicked(m_proxy->data(index.siblingAtColumn(BufferColumn), RowRole).toInt());
    });

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_chart);
    split->addWidget(m_table);
    // The chart is what the dock is for; the table gets what is left (at least a few rows).
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setSizes({700, 160});
    m_table->setMinimumHeight(90);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

    if (m_hub)
        m_hub->addViewer(this, this);
    showNote(tr("Compile a model to see how its package plans memory: every buffer's lifetime, "
                "which ones reuse storage, and where the peak is."));
}

QCustomPlot *MemoryPanel::plot() const
{
    return m_chart->plot();
}

QString MemoryPanel::summaryText() const
{
    return m_summary->text();
}

void MemoryPanel::showNote(const QString &note)
{
    m_plan.reset();
    m_shownPath.clear();
    m_summary->setText(QString());
    m_summary->hide();
    m_model->removeRows(0, m_model->rowCount());
    m_table->hide();
    m_chart->showNote(note);
}

void MemoryPanel::reload()
{
    const Client::JobRecord *job = m_hub ? m_hub->currentJobRecord() : nullptr;
    // The job whose plan this is is named above the dock (JobView), which also says when the
    // selected job is not a compile: nothing of another job is kept here.
    if (!job || job->kind != QLatin1String("compile")) {
        showNote(tr("Compile a model to see how its package plans memory: every buffer's lifetime, "
                 "which ones reuse storage, and where the peak is."));
        return;
    }
    if (job->result.isEmpty()) {
        showNote(job->error ? tr("The compile failed: it has no memory plan.")
                            : tr("The memory plan appears when the compile has generated its code."));
        return;
    }
    const QJsonObject memory = job->result.value(QLatin1String("memory")).toObject();
    const QString path = memory.value(QLatin1String("path")).toString();
    if (path.isEmpty()) {
        showNote(memory.isEmpty() ? tr("This compile has no memory plan (an engine from before plans).")
                                  : tr("No memory plan: %1").arg(memory.value(QLatin1String("reason")).toString()));
        return;
    }
    const QString local = m_hub->resolve(path);
    if (local == m_shownPath && m_plan)
        return;
    QFile file(local);
    if (!file.open(QIODevice::ReadOnly)) {
        showNote(QFileInfo::exists(local) ? tr("%1 cannot be read: %2").arg(local, file.errorString())
                                          : tr("Fetching %1…").arg(QFileInfo(path).fileName()));
        return;
    }
    const auto parsed = Client::MemoryPlan::parse(file.readAll());
    if (!parsed.ok()) {
        showNote(tr("%1 cannot be shown: %2").arg(local, parsed.error));
        return;
    }
    if (!parsed.value->available) {
        showNote(tr("No memory plan: %1").arg(parsed.value->reason));
        return;
    }
    setPlan(parsed.value);
    m_shownPath = local;
}

void MemoryPanel::setPlan(std::shared_ptr<const Client::MemoryPlan> plan)
{
    m_plan = std::move(plan);
    m_shownPath.clear();
    m_highlighted.clear();
    if (!m_plan) {
        showNote(tr("No memory plan."));
        return;
    }
    const auto &p = *m_plan;
    const auto peakText = [](const Client::MemoryPeak &peak) {
        if (qIsNaN(peak.bytes))
            return tr("not recorded");
        QString text = formatBytes(peak.bytes);
        if (peak.step >= 0)
            text += QLatin1Char(' ') + tr("at step %1").arg(peak.step)
                + (peak.kernel.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(peak.kernel.toHtmlEscaped()));
        return text;
    };
    QStringList lines;
    lines << tr("<b>Peak</b>: %1 predicted by Inductor; %2 planned (what the generated code allocates, reused storage counted once)")
                 .arg(peakText(p.predicted), peakText(p.planned));
    QString weights = tr("Weights and constants: %1, held for the whole run (not in the curves).").arg(formatBytes(p.constantsBytes));
    if (!qIsNaN(p.measuredBytes))
        weights += QLatin1Char(' ') + tr("Measured peak: %1.").arg(formatBytes(p.measuredBytes));
    lines << weights;
    if (!p.complete)
        lines << tr("<b>Partial</b>: %1").arg(p.partial.join(QStringLiteral("; ")).toHtmlEscaped());
    // The Gantt's colours, said once (the bars carry no text).
    Client::MemoryBuffer sample;
    const auto swatch = [&](const QString &allocation, const QString &text) {
        sample.allocation = allocation;
        return QStringLiteral("<span style=\"color:%1\">&#9632;</span> %2").arg(storageColor(sample).name(), text.toHtmlEscaped());
    };
    lines << tr("Bars: %1").arg(QStringList{swatch(QStringLiteral("wrapper"), tr("allocated")),
                                            swatch(QStringLiteral("reuse"), tr("reuses a freed buffer's storage")),
                                            swatch(QStringLiteral("extern"), tr("returned by an extern call")),
                                            swatch(QStringLiteral("none"), tr("no storage of its own"))}
                                    .join(QStringLiteral("&nbsp;&nbsp;")));
    m_summary->setText(lines.join(QStringLiteral("<br>")));
    m_summary->show();

    m_model->removeRows(0, m_model->rowCount());
    const int lastStep = p.steps.isEmpty() ? 0 : int(p.steps.size()) - 1;
    for (int i = 0; i < p.buffers.size(); ++i) {
        const auto &b = p.buffers[i];
        const int end = b.lastStep < 0 ? lastStep : b.lastStep;
        QList<QStandardItem *> row;
        auto *name = new QStandardItem(b.name);
        name->setData(b.name, SortRole);
        name->setData(i, RowRole);
        name->setData(storageColor(b), Qt::DecorationRole);
        auto *size = new QStandardItem(formatBytes(b.bytes));
        size->setData(b.bytes, SortRole);
        size->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        auto *life = new QStandardItem(b.lastStep < 0 ? tr("%1 – end (output)").arg(b.firstStep) : tr("%1 – %2").arg(b.firstStep).arg(end));
        life->setData(b.firstStep * 100000 + end, SortRole);
        life->setToolTip(tr("Written by %1, last read by %2").arg(b.writerKernel, b.lastReaderKernel.isEmpty() ? tr("the caller") : b.lastReaderKernel));
        auto *storage = new QStandardItem(storageText(b));
        storage->setData(storage->text(), SortRole);
        auto *shape = new QStandardItem(shapeText(b));
        shape->setData(shape->text(), SortRole);
        auto *nodes = new QStandardItem(b.nodes.join(QStringLiteral(", ")));
        nodes->setData(nodes->text(), SortRole);
        row << name << size << life << storage << shape << nodes;
        m_model->appendRow(row);
    }
    m_table->sortByColumn(LifetimeColumn, Qt::AscendingOrder); // in kernel order, as the bars
    m_table->resizeColumnsToContents();
    m_table->show();
    draw();
    m_chart->showChart();
}

void MemoryPanel::draw()
{
    QCustomPlot *plot = m_chart->plot();
    plot->clearPlottables();
    plot->clearItems();
    // Two rows of axes sharing the step axis: the live-bytes curves above, the Gantt below.
    // Rows: the title, the legend, the curves, the Gantt (made here, again on every draw).
    while (plot->plotLayout()->rowCount() > 3)
        plot->plotLayout()->removeAt(plot->plotLayout()->rowColToIndex(3, 0));
    plot->plotLayout()->simplify();
    QCPAxisRect *curves = plot->axisRect(0);
    auto *gantt = new QCPAxisRect(plot);
    plot->plotLayout()->addElement(3, 0, gantt);
    plot->plotLayout()->setRowStretchFactor(2, 2);
    plot->plotLayout()->setRowStretchFactor(3, 3);
    auto *group = new QCPMarginGroup(plot);
    curves->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    gantt->setMarginGroup(QCP::msLeft | QCP::msRight, group);

    const auto &p = *m_plan;
    double maxBytes = 0;
    for (const auto &s : p.steps)
        maxBytes = std::max({maxBytes, s.liveBytes, s.plannedLiveBytes});
    const ByteUnit unit = byteUnitFor(maxBytes);
    QVector<double> x, predicted, planned;
    for (const auto &s : p.steps) {
        x << s.index;
        predicted << (qIsNaN(s.liveBytes) ? qQNaN() : s.liveBytes / unit.divisor);
        planned << (qIsNaN(s.plannedLiveBytes) ? qQNaN() : s.plannedLiveBytes / unit.divisor);
    }
    auto *pred = plot->addGraph(curves->axis(QCPAxis::atBottom), curves->axis(QCPAxis::atLeft));
    pred->setName(tr("predicted (Inductor)"));
    pred->setData(x, predicted, true);
    pred->setLineStyle(QCPGraph::lsStepCenter); // centred on the steps, as the bars below
    pred->setPen(QPen(QColor(0x15, 0x65, 0xc0), 2));
    auto *plan = plot->addGraph(curves->axis(QCPAxis::atBottom), curves->axis(QCPAxis::atLeft));
    plan->setName(tr("planned (allocated by the code)"));
    plan->setData(x, planned, true);
    plan->setLineStyle(QCPGraph::lsStepCenter);
    plan->setPen(QPen(QColor(0x2e, 0x7d, 0x32), 2, Qt::DashLine));
    curves->axis(QCPAxis::atLeft)->setLabel(tr("Live (%1)").arg(unit.name));
    curves->axis(QCPAxis::atLeft)->ticker()->setTickCount(3); // readable in a small dock
    curves->axis(QCPAxis::atLeft)->setRange(0, maxBytes / unit.divisor * 1.3 + 1e-12); // room for the peak's label
    curves->axis(QCPAxis::atBottom)->setRange(-0.5, std::max<double>(0.5, p.steps.size() - 0.5));
    curves->axis(QCPAxis::atBottom)->setTickLabels(false);
    plot->legend->setFont(font());
    if (p.predicted.step >= 0) {
        auto *line = new QCPItemStraightLine(plot);
        line->setClipAxisRect(curves);
        line->point1->setAxes(curves->axis(QCPAxis::atBottom), curves->axis(QCPAxis::atLeft));
        line->point2->setAxes(curves->axis(QCPAxis::atBottom), curves->axis(QCPAxis::atLeft));
        line->point1->setCoords(p.predicted.step, 0);
        line->point2->setCoords(p.predicted.step, 1);
        line->setPen(QPen(QColor(0xc6, 0x28, 0x28), 1, Qt::DotLine));
        auto *label = new QCPItemText(plot);
        label->setClipAxisRect(curves);
        label->position->setAxes(curves->axis(QCPAxis::atBottom), curves->axis(QCPAxis::atLeft));
        label->position->setCoords(p.predicted.step, p.predicted.bytes / unit.divisor);
        label->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
        label->setText(tr("peak %1").arg(formatBytes(p.predicted.bytes)));
        label->setColor(QColor(0xc6, 0x28, 0x28));
    }

    // The Gantt: one row per buffer, in order of first step, from its first step to its last read.
    QList<int> order;
    for (int i = 0; i < p.buffers.size(); ++i)
        order << i;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return p.buffers[a].firstStep < p.buffers[b].firstStep; });
    const int lastStep = p.steps.isEmpty() ? 0 : int(p.steps.size()) - 1;
    for (int row = 0; row < order.size(); ++row) {
        const auto &b = p.buffers[order[row]];
        auto *rect = new QCPItemRect(plot);
        rect->setClipAxisRect(gantt);
        rect->topLeft->setAxes(gantt->axis(QCPAxis::atBottom), gantt->axis(QCPAxis::atLeft));
        rect->bottomRight->setAxes(gantt->axis(QCPAxis::atBottom), gantt->axis(QCPAxis::atLeft));
        rect->topLeft->setCoords(b.firstStep - 0.4, row + 0.1);
        rect->bottomRight->setCoords((b.lastStep < 0 ? lastStep : b.lastStep) + 0.4, row + 0.9);
        const QColor color = storageColor(b);
        rect->setBrush(color);
        rect->setPen(m_highlighted.contains(order[row]) ? QPen(Qt::black, 2) : QPen(color.darker(130)));
        rect->setProperty("buffer", order[row]);
    }
    gantt->axis(QCPAxis::atBottom)->setRange(curves->axis(QCPAxis::atBottom)->range());
    gantt->axis(QCPAxis::atBottom)->setLabel(tr("Step (kernel order)"));
    gantt->axis(QCPAxis::atLeft)->setRange(0, std::max<int>(1, order.size()));
    gantt->axis(QCPAxis::atLeft)->setRangeReversed(true);
    gantt->axis(QCPAxis::atLeft)->setTickLabels(false);
    gantt->axis(QCPAxis::atLeft)->setLabel(tr("Buffers"));
    connect(curves->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::rangeChanged),
            gantt->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::setRange));
    plot->replot();
}

void MemoryPanel::bufferPicked(int index)
{
    if (!m_plan || index < 0 || index >= m_plan->buffers.size() || !m_hub)
        return;
    const auto &b = m_plan->buffers[index];
    // The kernel that writes it (kernels.json id): the Kernels panel shows it and the graph
    // outlines every node it computes; then its first node, which the graph centres and the
    // Inspector details.
    if (!b.writerKernel.isEmpty())
        m_hub->selectKernel(b.writerKernel);
    if (!b.nodes.isEmpty())
        m_hub->selectNode(b.nodes.first());
}

void MemoryPanel::onNodeChanged(const QString &node)
{
    if (!m_plan)
        return;
    QList<int> hits;
    for (int i = 0; i < m_plan->buffers.size(); ++i)
        if (!node.isEmpty() && m_plan->buffers[i].nodes.contains(node))
            hits << i;
    if (hits == m_highlighted)
        return;
    m_highlighted = hits;
    // The table's selection follows without picking anything back (the hub already has the node).
    QItemSelection selection;
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        if (hits.contains(m_proxy->data(m_proxy->index(r, BufferColumn), RowRole).toInt()))
            selection.select(m_proxy->index(r, 0), m_proxy->index(r, ColumnCount - 1));
    m_table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    if (!selection.isEmpty())
        m_table->scrollTo(selection.indexes().first());
    QCustomPlot *plot = m_chart->plot();
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *rect = qobject_cast<QCPItemRect *>(plot->item(i))) {
            const int buffer = rect->property("buffer").toInt();
            const QColor color = storageColor(m_plan->buffers[buffer]);
            rect->setPen(hits.contains(buffer) ? QPen(Qt::black, 2) : QPen(color.darker(130)));
        }
    plot->replot();
}

} // namespace AotStudio::Widgets
