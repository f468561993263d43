// SPDX-License-Identifier: GPL-3.0-or-later
#include "tunepanel.h"

#include "charthelpers.h"
#include "numberformat.h"
#include "selectionhub.h"
#include "tableutil.h"
#include "tunetablemodel.h"

#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace AotStudio::Widgets {

namespace {
const QColor FrontColor(0xe6, 0x55, 0x0d); // orange: on the Pareto front
const QColor PointColor(0x60, 0x7d, 0x8b); // blue grey: dominated
const QColor BaselineColor(0x37, 0x47, 0x4f);
} // namespace

TunePanel::TunePanel(QWidget *parent)
    : QWidget(parent)
    , m_summary(new QLabel(this))
    , m_model(new TuneTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_plot(createChart(QStringLiteral("tuneScatter"), tr("Latency against error: the Pareto front"), this))
    , m_use(new QPushButton(tr("Use This Recipe"), this))
    , m_save(new QPushButton(tr("Save Recipe…"), this))
{
    setObjectName(QStringLiteral("tunePanel"));
    // Powers of ten as 10⁻⁷ in every language: QCustomPlot reads the exponent only after a lower
    // case "e", which zh_CN's locale does not write ("1E-07").
    m_plot->setLocale(QLocale::c());
    m_summary->setObjectName(QStringLiteral("tuneSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(TuneTableModel::SortRole);
    setUpTableView(m_view, m_proxy);
    m_view->setObjectName(QStringLiteral("tuneTable"));
    m_view->sortByColumn(-1, Qt::AscendingOrder); // trials in the order they ran, then the baselines, until the user sorts
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_use->setObjectName(QStringLiteral("useRecipeButton"));
    m_use->setToolTip(tr("The next compile uses the selected trial's options: freezing, max-autotune, dtype and "
                         "Inductor options (Run Settings)"));
    m_save->setObjectName(QStringLiteral("saveRecipeButton"));
    m_save->setToolTip(tr("Write the selected trial's options as recipe.json, for aotstudio-cli compile --recipe"));

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_summary, 1);
    buttons->addWidget(m_use);
    buttons->addWidget(m_save);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_view);
    split->addWidget(m_plot);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    m_plot->setMinimumWidth(320);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(buttons);
    layout->addWidget(split, 1);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        updateButtons();
        drawScatter();
    });
    connect(m_use, &QPushButton::clicked, this, [this] {
        const QJsonObject recipe = selectedRecipe();
        if (!recipe.isEmpty())
            Q_EMIT recipeChosen(recipe.value(QLatin1String("options")).toObject(), selectedTrial());
    });
    connect(m_save, &QPushButton::clicked, this, &TunePanel::saveRecipeDialog);
    installPointToolTips(m_plot, [this](QCPAbstractPlottable *plottable, int) {
        const Client::TuneRow *row = m_result ? m_result->find(plottable->name()) : nullptr;
        if (!row)
            return QString();
        return tr("%1: %2 ms, max abs error %3")
            .arg(row->name, formatNumber(row->medianMs, 'f', 4),
                 qIsNaN(row->maxAbsError) ? QStringLiteral("—") : formatNumber(row->maxAbsError, 'g', 3));
    });
    m_plot->installEventFilter(this);
    setResult(nullptr);
}

void TunePanel::follow(SelectionHub *hub)
{
    m_hub = hub;
    hub->addViewer(this, this);
    onResultsChanged();
}

void TunePanel::onResultsChanged()
{
    const auto result = m_hub ? m_hub->tune() : nullptr;
    if (result != m_result)
        setResult(result);
}

void TunePanel::setResult(std::shared_ptr<const Client::TuneResult> result)
{
    m_result = std::move(result);
    m_model->setResult(m_result);
    if (!m_result) {
        m_summary->setText(tr("No tune yet: Engine → Tune Compile Recipe… runs one; a folder of aotstudio-cli tune "
                              "--out DIR opens with File → Open Job Folder…."));
    } else {
        QString text = tr("%1 on %2, %3: %n trial(s)", nullptr, int(m_result->rows.size()))
                           .arg(m_result->model, m_result->device, m_result->dtype);
        text += QStringLiteral(" · ")
            + (m_result->recipeName.isEmpty() ? tr("no recipe qualified")
                                              : tr("recipe: %1").arg(m_result->recipeName));
        text = text.toHtmlEscaped();
        if (m_result->measurement.isPresent()) {
            const QString verdict = tr("measurement: %1").arg(m_result->measurement.verdictName).toHtmlEscaped();
            // An unreliable measurement is said in the colour of a warning (DESIGN.md §5).
            text += QStringLiteral(" · ")
                + (m_result->measurement.isUnreliable() ? QStringLiteral("<span style=\"color:#b26a00\"><b>%1</b></span>").arg(verdict)
                                                        : verdict);
        }
        m_summary->setText(text);
        m_summary->setToolTip(m_result->measurement.reasons.join(QLatin1Char('\n')));
    }
    // The chosen recipe selected first: "Use This Recipe" then does what the tune advises.
    if (m_result && !selectTrial(m_result->recipeName) && m_model->rowCount() > 0)
        m_view->selectRow(0);
    updateButtons();
    drawScatter();
}

bool TunePanel::selectTrial(const QString &name)
{
    const int row = name.isEmpty() ? -1 : m_model->rowOf(name);
    if (row < 0)
        return false;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    m_view->setCurrentIndex(index);
    m_view->selectRow(index.row());
    return true;
}

QString TunePanel::selectedTrial() const
{
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? current.data(TuneTableModel::NameRole).toString() : QString();
}

QJsonObject TunePanel::selectedRecipe() const
{
    const QModelIndex current = m_view->currentIndex();
    if (!m_result || !current.isValid() || !current.data(TuneTableModel::UsableRole).toBool())
        return {};
    const Client::TuneRow &row = m_model->row(m_proxy->mapToSource(current).row());
    return m_result->recipeFor(row, QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
}

bool TunePanel::saveRecipe(const QString &path, QString *error) const
{
    const QJsonObject recipe = selectedRecipe();
    if (recipe.isEmpty()) {
        if (error)
            *error = tr("Select a trial that compiled (not a baseline) first.");
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    file.write(QJsonDocument(recipe).toJson(QJsonDocument::Indented));
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

void TunePanel::saveRecipeDialog()
{
    const QString start = m_result && !m_result->out.isEmpty() ? m_result->out : QDir::homePath();
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Recipe"), start + QStringLiteral("/recipe.json"),
                                                      tr("Recipes (*.json)"));
    if (path.isEmpty())
        return;
    if (QString error; !saveRecipe(path, &error))
        m_summary->setText(tr("The recipe was not saved: %1").arg(error).toHtmlEscaped());
}

QString TunePanel::summaryText() const
{
    return m_summary->text();
}

void TunePanel::updateButtons()
{
    const bool usable = !selectedRecipe().isEmpty();
    m_use->setEnabled(usable);
    m_save->setEnabled(usable);
}

bool TunePanel::eventFilter(QObject *watched, QEvent *event)
{
    // Queued: the plot lays itself out in its own resize handling, after this filter.
    if (watched == m_plot && event->type() == QEvent::Resize && m_result)
        QMetaObject::invokeMethod(this, &TunePanel::drawScatter, Qt::QueuedConnection);
    return QWidget::eventFilter(watched, event);
}

void TunePanel::drawScatter()
{
    QCustomPlot *plot = m_plot;
    plot->clearGraphs();
    plot->clearItems();
    if (!m_result) {
        plot->replot();
        return;
    }
    QList<const Client::TuneRow *> points;
    double minPositive = qInf(), maxError = 0, minX = qInf(), maxX = 0;
    for (const auto &row : m_result->rows) {
        if (!row.measured() || qIsNaN(row.maxAbsError))
            continue;
        points << &row;
        if (row.maxAbsError > 0)
            minPositive = std::min(minPositive, row.maxAbsError);
        maxError = std::max(maxError, row.maxAbsError);
        minX = std::min(minX, row.medianMs);
        maxX = std::max(maxX, row.medianMs);
    }
    for (const auto &b : m_result->baselines)
        if (b.measured()) {
            minX = std::min(minX, b.medianMs);
            maxX = std::max(maxX, b.medianMs);
        }
    if (points.isEmpty() || !(maxX > 0)) {
        plot->replot();
        return;
    }
    // A log axis cannot show 0 (a trial exact against eager): it sits a decade under the smallest
    // error, and its label says 0.
    const double floor = std::isinf(minPositive) ? 1e-9 : minPositive / 10;
    QCPAxis *x = plot->xAxis;
    QCPAxis *y = plot->yAxis;
    x->setLabel(tr("Median latency (ms)"));
    x->setScaleType(QCPAxis::stLinear);
    x->setTicker(QSharedPointer<QCPAxisTicker>::create());
    x->setNumberFormat(QStringLiteral("gb"));
    const double span = std::max(maxX - minX, maxX * 0.1);
    x->setRange(std::max(0.0, minX - span * 0.25), maxX + span * 0.35);
    y->setLabel(tr("Max abs error against eager (log)"));
    y->setScaleType(QCPAxis::stLogarithmic);
    y->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    y->setNumberFormat(QStringLiteral("eb"));
    y->setNumberPrecision(0);
    y->setRange(floor / 3, std::max(maxError, floor) * 10);

    const QString selected = selectedTrial();
    // The front, joined in latency order.
    QList<const Client::TuneRow *> front;
    for (const auto *p : std::as_const(points))
        if (m_result->front.contains(p->name) || p->pareto)
            front << p;
    std::sort(front.begin(), front.end(), [](auto *a, auto *b) { return a->medianMs < b->medianMs; });
    if (front.size() > 1) {
        auto *line = plot->addGraph(x, y);
        line->setName(QString());
        line->setPen(QPen(FrontColor, 1.5, Qt::DashLine));
        line->setLineStyle(QCPGraph::lsStepLeft);
        QVector<double> xs, ys;
        for (const auto *p : std::as_const(front)) {
            xs << p->medianMs;
            ys << std::max(p->maxAbsError, floor);
        }
        line->setData(xs, ys, true);
    }
    // Lay the axis rect out now, so that coordToPixel() below is right for placing labels.
    plot->replot();
    QList<QRectF> placedLabels; // in pixels
    for (const auto *p : std::as_const(points)) {
        const bool onFront = front.contains(p);
        const bool chosen = p->name == m_result->recipeName;
        const double py = std::max(p->maxAbsError, floor);
        auto *graph = plot->addGraph(x, y);
        graph->setName(p->name);
        graph->setLineStyle(QCPGraph::lsNone);
        const QColor color = onFront ? FrontColor : PointColor;
        graph->setScatterStyle(
            QCPScatterStyle(chosen ? QCPScatterStyle::ssStar : QCPScatterStyle::ssDisc, color, color, chosen ? 15 : 10));
        graph->setData({p->medianMs}, {py});
        if (p->name == selected) {
            auto *ring = plot->addGraph(x, y);
            ring->setName(p->name);
            ring->setLineStyle(QCPGraph::lsNone);
            ring->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 1.5), Qt::NoBrush, 20));
            ring->setData({p->medianMs}, {py});
        }
        auto *text = new QCPItemText(plot);
        text->position->setAxes(x, y);
        text->position->setCoords(p->medianMs, py);
        // Labels of points in the right half go to their left, so none is cut by the plot's edge.
        const bool rightHalf = p->medianMs > (x->range().lower + x->range().upper) / 2;
        const QString label = p->maxAbsError > 0 ? p->name : tr("%1 (error 0)").arg(p->name);
        QFont font = plot->font();
        font.setBold(chosen || p->name == selected);
        // Trials of nearly equal latency and error share a spot: each label takes the first place
        // free of the ones before it (above, below, then a line further out each time).
        const QFontMetricsF metrics(font);
        const QSizeF size(metrics.horizontalAdvance(label) + 8, metrics.height() + 4);
        const QPointF at(x->coordToPixel(p->medianMs), y->coordToPixel(py));
        bool below = false;
        int lift = 0;
        for (int k = 0; k < 8; ++k) {
            below = k % 2 == 1;
            lift = k / 2;
            const double top = below ? at.y() + lift * size.height() : at.y() - (lift + 1) * size.height();
            const QRectF rect(QPointF(rightHalf ? at.x() - size.width() : at.x(), top), size);
            const bool free = std::none_of(placedLabels.begin(), placedLabels.end(), [&](const QRectF &r) { return r.intersects(rect); });
            if (free || k == 7) {
                placedLabels << rect;
                break;
            }
        }
        const int offset = 4 + lift * static_cast<int>(size.height());
        text->setPositionAlignment((rightHalf ? Qt::AlignRight : Qt::AlignLeft) | (below ? Qt::AlignTop : Qt::AlignBottom));
        text->setPadding(QMargins(rightHalf ? 0 : 8, below ? offset : 0, rightHalf ? 8 : 0, below ? 0 : offset));
        text->setText(label);
        text->setFont(font);
        text->setColor(onFront ? FrontColor.darker(140) : plot->palette().color(QPalette::Text));
    }
    // The baselines have no error of their own (eager is the reference): a line at their latency,
    // labelled on the side with room, one label below the other so close lines stay readable.
    int labelRow = 0;
    for (const auto &b : m_result->baselines) {
        if (!b.measured())
            continue;
        auto *line = new QCPItemStraightLine(plot);
        line->point1->setCoords(b.medianMs, floor / 3);
        line->point2->setCoords(b.medianMs, std::max(maxError, floor) * 10);
        line->setPen(QPen(BaselineColor, 1, b.kind == QLatin1String("eager") ? Qt::DotLine : Qt::DashDotLine));
        auto *text = new QCPItemText(plot);
        text->position->setTypeX(QCPItemPosition::ptPlotCoords);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(b.medianMs, 0.02 + 0.06 * labelRow++);
        const bool rightHalf = b.medianMs > (x->range().lower + x->range().upper) / 2;
        text->setPositionAlignment((rightHalf ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
        text->setPadding(rightHalf ? QMargins(0, 0, 4, 0) : QMargins(4, 0, 0, 0));
        text->setText(b.name);
        text->setColor(BaselineColor);
        text->setProperty("baseline", b.name);
    }
    plot->replot();
}

} // namespace AotStudio::Widgets
