// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphview/graphview.h"

#include "graph/dot.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QSignalBlocker>
#include <QSplitter>
#include <QSvgGenerator>
#include <QTextBrowser>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace AotStudio::Widgets {

GraphView::GraphView(QWidget *parent)
    : QWidget(parent)
    , m_canvas(new GraphCanvas(&m_layout, this))
    , m_layoutJob(new JobTracker(this))
    , m_search(new QLineEdit(this))
    , m_matchLabel(new QLabel(this))
    , m_mode(new QComboBox(this))
    , m_legend(new QLabel(this))
    , m_details(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("graphView"));
    m_search->setObjectName(QStringLiteral("graphSearch"));
    m_search->setPlaceholderText(tr("Search name, op, module, source line"));
    m_search->setClearButtonEnabled(true);
    m_matchLabel->setObjectName(QStringLiteral("graphSearchMatches"));
    m_mode->setObjectName(QStringLiteral("graphColourMode"));
    m_mode->addItem(tr("Colour: op category"), int(ColourMode::OpCategory));
    m_mode->addItem(tr("Colour: fused kernel"), int(ColourMode::FusedKernel));
    m_mode->addItem(tr("Colour: measured time"), int(ColourMode::MeasuredTime));
    m_mode->addItem(tr("Colour: dtype"), int(ColourMode::Dtype));
    m_mode->addItem(tr("Colour: numeric error"), int(ColourMode::NumericError));
    m_mode->setItemData(m_mode->count() - 1, tr("Each node's error against the float64 reference (a numerics job)"),
                        Qt::ToolTipRole);
    m_mode->addItem(tr("Colour: fusion status"), int(ColourMode::FusionStatus));
    m_mode->setItemData(m_mode->count() - 1,
                        tr("Whether Inductor fused each node, considered it and refused (hover a node for the reason), "
                           "or never considered it (a compile's fusion decisions; post-grad snapshots)"),
                        Qt::ToolTipRole);
    m_legend->setObjectName(QStringLiteral("graphLegend"));
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    m_legend->setContentsMargins(6, 2, 6, 2);
    m_legend->hide();
    m_details->setObjectName(QStringLiteral("graphNodeDetails"));
    m_details->setOpenLinks(false);

    const auto button = [this](const QString &text, const QString &tip) {
        auto *b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        return b;
    };
    auto *fit = button(tr("Fit"), tr("Fit the whole graph in the view (0)"));
    auto *expand = button(tr("Expand all"), tr("Expand every module group"));
    auto *collapse = button(tr("Collapse all"), tr("Collapse every module group"));
    auto *exportButton = button(tr("Export"), tr("Export the view as SVG or PNG, or the graph as DOT"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(exportButton);
    const auto exportAs
        = [this](const QString &filter, const QString &suffix, bool (GraphView::*write)(const QString &)) {
              const QString path = QFileDialog::getSaveFileName(this, tr("Export graph"), QString(), filter);
              if (path.isEmpty())
                  return;
              (this->*write)(QFileInfo(path).suffix().isEmpty() ? path + suffix : path);
          };
    menu->addAction(tr("View as SVG…"), this,
        [exportAs] { exportAs(tr("SVG images (*.svg)"), QStringLiteral(".svg"), &GraphView::exportSvg); });
    menu->addAction(tr("View as PNG…"), this,
        [exportAs] { exportAs(tr("PNG images (*.png)"), QStringLiteral(".png"), &GraphView::exportPng); });
    menu->addAction(tr("Graph as DOT…"), this,
        [exportAs] { exportAs(tr("Graphviz DOT (*.dot *.gv)"), QStringLiteral(".dot"), &GraphView::exportDot); });
    exportButton->setMenu(menu);

    // A tool bar, not a row layout: when the view is narrow (a Diff pane, a 1366 px screen) the
    // controls that do not fit go into its extension menu instead of widening the window.
    auto *bar = new QToolBar(this);
    bar->setObjectName(QStringLiteral("graphToolBar"));
    bar->setIconSize(QSize(16, 16));
    bar->setContentsMargins(4, 0, 4, 0);
    m_search->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_search->setMinimumWidth(120);
    bar->addWidget(m_search);
    bar->addWidget(m_matchLabel);
    bar->addWidget(m_mode);
    bar->addWidget(fit);
    bar->addWidget(expand);
    bar->addWidget(collapse);
    bar->addWidget(exportButton);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_canvas);
    split->addWidget(m_details);
    split->setStretchFactor(0, 5);
    split->setStretchFactor(1, 1);
    m_details->hide();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(bar);
    layout->addWidget(m_legend);
    layout->addWidget(split, 1);

    connect(fit, &QToolButton::clicked, this, &GraphView::fitToView);
    connect(expand, &QToolButton::clicked, this, &GraphView::expandAll);
    connect(collapse, &QToolButton::clicked, this, &GraphView::collapseAll);
    connect(m_mode, &QComboBox::currentIndexChanged, this,
        [this](int) {
            m_canvas->setColourMode(ColourMode(m_mode->currentData().toInt()));
            updateLegend();
        });
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString &text) { search(text); });
    connect(m_search, &QLineEdit::returnPressed, this, &GraphView::findNext);
    connect(m_canvas, &GraphCanvas::nodeClicked, this,
        [this](int node) { selectNode(QString::fromStdString(m_layout.snapshot()->nodes[node].id)); });
    connect(m_canvas, &GraphCanvas::groupToggled, this, [this](int g) {
        // Keep the toggled group where it was on screen.
        const QPointF before = m_canvas->mapFromScene(m_layout.groups()[g].rect.topLeft());
        m_layout.setExpanded(g, !m_layout.groups()[g].expanded);
        afterLayout();
        const QPointF after = m_canvas->mapFromScene(m_layout.groups()[g].rect.topLeft());
        m_canvas->centerOn(m_canvas->sceneCentre() + (after - before) / m_canvas->scale());
    });
    connect(m_canvas, &GraphCanvas::viewChanged, this, &GraphView::viewChanged);
}

GraphView::~GraphView() = default;

GraphView::Anchor GraphView::anchorFor(const std::shared_ptr<const Graph::Snapshot> &snapshot) const
{
    // Anchor the view on the node nearest its centre that the new snapshot still has, so a pass
    // step shows the same part of the graph even where the drawing grew or shrank around it.
    Anchor anchor;
    if (m_canvas->viewMoved() && m_layout.snapshot() && snapshot) {
        const QPointF centre = m_canvas->sceneCentre();
        const QRectF visible = m_canvas->visibleSceneRect();
        double best = std::numeric_limits<double>::max();
        for (int i = 0; i < static_cast<int>(m_layout.snapshot()->nodes.size()); ++i) {
            const QRectF r = m_layout.nodeRect(i);
            if (r.isEmpty() || !visible.intersects(r))
                continue;
            const QPointF d = r.center() - centre;
            const double dist = d.x() * d.x() + d.y() * d.y();
            const std::string &id = m_layout.snapshot()->nodes[i].id;
            if (dist < best && snapshot->find(id)) {
                best = dist;
                anchor.node = QString::fromStdString(id);
                anchor.offset = centre - r.center();
            }
        }
    }
    return anchor;
}

void GraphView::setSnapshot(std::shared_ptr<const Graph::Snapshot> snapshot)
{
    m_layoutJob->cancel();
    const Anchor anchor = anchorFor(snapshot);
    m_layout.setSnapshot(std::move(snapshot));
    finishSnapshot(anchor);
}

void GraphView::setSnapshotInBackground(std::shared_ptr<const Graph::Snapshot> snapshot)
{
    if (!snapshot || snapshot == m_layout.snapshot()) {
        setSnapshot(std::move(snapshot)); // nothing to lay out
        return;
    }
    m_layoutJob->start(
        [layout = m_layout, snapshot = std::move(snapshot)]() mutable {
            layout.setSnapshot(snapshot);
            return layout;
        },
        [this](GraphLayout laid) {
            const Anchor anchor = anchorFor(laid.snapshot());
            m_layout = std::move(laid);
            finishSnapshot(anchor);
        });
}

void GraphView::finishSnapshot(const Anchor &anchor)
{
    afterLayout();
    if (!anchor.node.isEmpty()) {
        const QRectF r = m_layout.itemRect(m_layout.visibleItem(m_layout.nodeIndex(anchor.node)));
        if (!r.isEmpty())
            m_canvas->setView(m_canvas->scale(), r.center() + anchor.offset);
        else
            fitToView();
    }
    refreshNodeTimes();
    updateLegend(); // the counts are over this snapshot's nodes
    m_canvas->setHighlighted(m_highlighted);
    updateMatches(); // indices of the old snapshot mean nothing now; do not move the view
    const int selected = m_layout.nodeIndex(m_selected);
    m_canvas->setSelectedNode(selected);
    if (selected < 0)
        m_selected.clear();
    updateDetails();
    // Fitted until the user moves the view; after that a pass step keeps the view where it is.
    if (!m_canvas->viewMoved())
        fitToView();
}

std::shared_ptr<const Graph::Snapshot> GraphView::snapshot() const
{
    return m_layout.snapshot();
}

void GraphView::afterLayout()
{
    m_canvas->layoutChanged();
    Q_EMIT expansionChanged();
}

void GraphView::setExpansionStates(const QHash<QString, bool> &states)
{
    m_layout.setExpansionStates(states);
    m_canvas->layoutChanged();
}

void GraphView::setNodeErrors(const QHash<QString, double> &errors, double tolerance)
{
    m_canvas->setNodeErrors(errors, tolerance);
}

void GraphView::setNodeFusion(const QHash<QString, QString> &status, const QHash<QString, QString> &tips,
                              const QString &note)
{
    m_fusion = status;
    m_fusionNote = note;
    m_canvas->setNodeFusion(status, tips);
    updateLegend();
}

void GraphView::updateLegend()
{
    if (m_canvas->colourMode() != ColourMode::FusionStatus) {
        m_legend->hide();
        return;
    }
    // Counts over the nodes this snapshot has (fusion.json names post-grad nodes; an earlier
    // stage's snapshot shares only some of them).
    QHash<QString, int> counts;
    int shown = 0;
    if (const auto snapshot = m_layout.snapshot()) {
        for (const auto &node : snapshot->nodes) {
            const auto it = m_fusion.constFind(QString::fromStdString(node.id));
            if (it != m_fusion.constEnd()) {
                ++counts[*it];
                ++shown;
            }
        }
    }
    const auto swatch = [&counts](const QString &status, const QString &label) {
        return QStringLiteral("<span style=\"background-color:%1\">&nbsp;&nbsp;&nbsp;&nbsp;</span>&nbsp;%2 (%3)")
            .arg(fusionStatusColour(status).name(), label.toHtmlEscaped())
            .arg(counts.value(status));
    };
    QStringList parts;
    if (!m_fusionNote.isEmpty())
        parts << m_fusionNote.toHtmlEscaped();
    if (!m_fusion.isEmpty()) {
        parts << swatch(QStringLiteral("fused"), tr("fused"))
              << swatch(QStringLiteral("refused"), tr("considered and refused"))
              << swatch(QStringLiteral("not_chosen"), tr("considered, another pair fused"))
              << swatch(QStringLiteral("never_candidate"), tr("never a candidate"));
        const int n = m_layout.snapshot() ? static_cast<int>(m_layout.snapshot()->nodes.size()) : 0;
        parts << QStringLiteral("<span style=\"background-color:%1\">&nbsp;&nbsp;&nbsp;&nbsp;</span>&nbsp;%2 (%3)")
                     .arg(fusionStatusColour(QString()).name(), tr("no decision").toHtmlEscaped())
                     .arg(n - shown);
    }
    m_legend->setText(parts.join(QStringLiteral(" &nbsp; ")));
    m_legend->setToolTip(tr("Hover a node for the pairs Inductor refused to fuse it in, with its reason"));
    m_legend->show();
}

void GraphView::setColourMode(ColourMode mode)
{
    m_mode->setCurrentIndex(m_mode->findData(int(mode)));
    m_canvas->setColourMode(mode);
    updateLegend();
}

ColourMode GraphView::colourMode() const
{
    return m_canvas->colourMode();
}

void GraphView::setKernelCoverage(const QHash<QString, QStringList> &coverage)
{
    m_coverage = coverage;
    m_kernelsOfNode.clear();
    QHash<QString, QString> first;
    // Sorted, so the colour of a node covered by two kernels does not depend on hash order.
    QStringList kernels = coverage.keys();
    kernels.sort();
    for (const QString &k : kernels) {
        for (const QString &n : coverage.value(k)) {
            m_kernelsOfNode[n].append(k);
            if (!first.contains(n))
                first.insert(n, k);
        }
    }
    m_canvas->setKernelOfNode(first);
    refreshNodeTimes();
    updateDetails();
}

void GraphView::setKernelTimes(const QHash<QString, double> &ms)
{
    m_kernelTimes = ms;
    refreshNodeTimes();
    updateDetails();
}

void GraphView::setNodeTimes(const QHash<QString, double> &ms)
{
    m_nodeTimes = ms;
    refreshNodeTimes();
    updateDetails();
}

void GraphView::refreshNodeTimes()
{
    m_canvas->setNodeTimes(m_nodeTimes.isEmpty() ? nodeTimesFromKernels(m_coverage, m_kernelTimes) : m_nodeTimes);
}

QHash<QString, double> GraphView::nodeTimesFromKernels(
    const QHash<QString, QStringList> &coverage, const QHash<QString, double> &kernelMs)
{
    QHash<QString, double> out;
    for (auto it = kernelMs.constBegin(); it != kernelMs.constEnd(); ++it) {
        const QStringList nodes = coverage.value(it.key());
        for (const QString &n : nodes)
            out[n] += it.value() / nodes.size();
    }
    return out;
}

void GraphView::setDiffStates(const QHash<QString, NodeDiffState> &states)
{
    m_canvas->setDiffStates(states);
}

void GraphView::highlightNodes(const QStringList &nodes)
{
    m_highlighted = nodes;
    m_canvas->setHighlighted(nodes);
}

void GraphView::selectNode(const QString &name)
{
    const int node = m_layout.nodeIndex(name);
    m_selected = node >= 0 ? name : QString();
    if (node >= 0) {
        const bool hidden = m_layout.visibleItem(node).isGroup;
        if (hidden) {
            m_layout.revealNode(node);
            afterLayout();
        }
        if (hidden || !m_canvas->visibleSceneRect().contains(m_layout.nodeRect(node)))
            m_canvas->centerOn(m_layout.nodeRect(node).center());
    }
    m_canvas->setSelectedNode(node);
    updateDetails();
    Q_EMIT nodeSelected(m_selected);
}

QString GraphView::selectedNode() const
{
    return m_selected;
}

QList<GraphView::KernelUse> GraphView::kernelsOfNode(const QString &name) const
{
    QList<KernelUse> out;
    for (const QString &k : m_kernelsOfNode.value(name))
        out.append({ k, m_kernelTimes.value(k, std::nan("")) });
    std::stable_sort(out.begin(), out.end(), [](const KernelUse &a, const KernelUse &b) {
        const double x = std::isnan(a.ms) ? -1 : a.ms, y = std::isnan(b.ms) ? -1 : b.ms;
        return x > y;
    });
    return out;
}

QStringList GraphView::passesOfNode(const QString &name) const
{
    QStringList out;
    const auto snapshot = m_layout.snapshot();
    const Graph::Node *node = snapshot ? snapshot->find(name.toStdString()) : nullptr;
    if (node) {
        for (const std::string &p : node->provenancePasses())
            out << QString::fromStdString(p);
    }
    return out;
}

void GraphView::updateDetails()
{
    const auto snapshot = m_layout.snapshot();
    const Graph::Node *node = snapshot && !m_selected.isEmpty() ? snapshot->find(m_selected.toStdString()) : nullptr;
    m_details->setVisible(node != nullptr);
    if (!node)
        return;
    const auto esc = [](const std::string &s) { return QString::fromStdString(s).toHtmlEscaped(); };
    QString html = QStringLiteral("<b>%1</b> &nbsp; <code>%2</code><br>").arg(esc(node->id), esc(node->target));
    html += tr("Module: %1").arg(node->module.empty() ? tr("(top level)") : esc(node->module)) + QStringLiteral("<br>");
    QStringList outs;
    for (const auto &o : node->outputs) {
        if (o.is_object())
            outs << QString::fromStdString(o.value("dtype", std::string()))
                    + QString::fromStdString(o.value("shape", nlohmann::json::array()).dump());
    }
    if (!outs.isEmpty())
        html += tr("Outputs: %1").arg(outs.join(QStringLiteral(", ")).toHtmlEscaped()) + QStringLiteral("<br>");
    if (node->source.line > 0) {
        html += tr("Source: %1:%2 in %3")
                    .arg(esc(node->source.file))
                    .arg(node->source.line)
                    .arg(esc(node->source.function));
        if (!node->source.code.empty())
            html += QStringLiteral(" &nbsp; <code>%1</code>").arg(esc(node->source.code));
        html += QStringLiteral("<br>");
    }
    const auto kernels = kernelsOfNode(m_selected);
    if (!kernels.isEmpty()) {
        QStringList items;
        for (const auto &k : kernels) {
            items << (std::isnan(k.ms) ? k.kernel.toHtmlEscaped()
                                       : tr("%1 (%2 ms)").arg(k.kernel.toHtmlEscaped()).arg(k.ms, 0, 'g', 3));
        }
        html += tr("Kernels: %1").arg(items.join(QStringLiteral(", "))) + QStringLiteral("<br>");
    } else if (!m_coverage.isEmpty()) {
        html += tr("Kernels: none covers this node") + QStringLiteral("<br>");
    }
    const QStringList passes = passesOfNode(m_selected);
    if (!passes.isEmpty())
        html += tr("Passes: %1").arg(passes.join(QStringLiteral(" → ")).toHtmlEscaped()) + QStringLiteral("<br>");
    m_details->setHtml(html);
}

int GraphView::search(const QString &text)
{
    if (m_search->text() != text) {
        const QSignalBlocker blocker(m_search);
        m_search->setText(text);
    }
    updateMatches();
    if (!m_matches.empty())
        goToMatch(0);
    return static_cast<int>(m_matches.size());
}

void GraphView::updateMatches()
{
    m_matches.clear();
    m_currentMatch = -1;
    const auto snapshot = m_layout.snapshot();
    const QString needle = m_search->text().trimmed();
    if (snapshot && !needle.isEmpty()) {
        const auto has = [&needle](const std::string &s) {
            return QString::fromStdString(s).contains(needle, Qt::CaseInsensitive);
        };
        for (int i = 0; i < static_cast<int>(snapshot->nodes.size()); ++i) {
            const Graph::Node &n = snapshot->nodes[i];
            bool hit = has(n.id) || has(n.target) || has(n.module) || has(n.source.code);
            if (!hit && n.source.line > 0) {
                const QString where = QFileInfo(QString::fromStdString(n.source.file)).fileName() + QLatin1Char(':')
                    + QString::number(n.source.line);
                hit = where.contains(needle, Qt::CaseInsensitive);
            }
            if (hit)
                m_matches.push_back(i);
        }
    }
    m_canvas->setSearchMatches(m_matches);
    m_matchLabel->setText(needle.isEmpty() ? QString() : tr("%n match(es)", "", int(m_matches.size())));
}

void GraphView::goToMatch(int index)
{
    if (m_matches.empty())
        return;
    m_currentMatch = (index % int(m_matches.size()) + int(m_matches.size())) % int(m_matches.size());
    const int node = m_matches[m_currentMatch];
    selectNode(QString::fromStdString(m_layout.snapshot()->nodes[node].id));
    m_canvas->centerOn(m_layout.nodeRect(node).center());
    m_matchLabel->setText(tr("%1 of %2").arg(m_currentMatch + 1).arg(m_matches.size()));
}

void GraphView::findNext()
{
    goToMatch(m_currentMatch + 1);
}

void GraphView::findPrevious()
{
    goToMatch(m_currentMatch - 1);
}

QStringList GraphView::searchMatches() const
{
    QStringList out;
    for (int i : m_matches)
        out << QString::fromStdString(m_layout.snapshot()->nodes[i].id);
    return out;
}

void GraphView::fitToView()
{
    m_canvas->fitToView();
}

void GraphView::zoomBy(double factor)
{
    m_canvas->zoomBy(factor, QPointF(m_canvas->width() / 2.0, m_canvas->height() / 2.0));
}

void GraphView::centerOnNode(const QString &name)
{
    const int node = m_layout.nodeIndex(name);
    if (node < 0)
        return;
    m_layout.revealNode(node);
    afterLayout();
    m_canvas->centerOn(m_layout.nodeRect(node).center());
}

void GraphView::setGroupExpanded(const QString &modulePath, bool expanded)
{
    if (m_layout.setExpanded(m_layout.groupByPath(modulePath), expanded))
        afterLayout();
}

void GraphView::expandAll()
{
    m_layout.expandAll();
    afterLayout();
}

void GraphView::collapseAll()
{
    m_layout.collapseAll();
    afterLayout();
}

QImage GraphView::renderImage(const QSize &size, bool wholeGraph) const
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(QColor(0xfb, 0xfb, 0xfc));
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    QRectF scene = m_canvas->visibleSceneRect();
    double scale = m_canvas->scale();
    if (wholeGraph) {
        const QRectF b = m_layout.bounds().adjusted(-20, -20, 20, 20);
        scale = std::min(size.width() / b.width(), size.height() / b.height());
        scene = QRectF(b.center() - QPointF(size.width(), size.height()) / (2 * scale),
            QSizeF(size.width() / scale, size.height() / scale));
    } else {
        scale *= double(size.width()) / std::max(1, m_canvas->width());
    }
    p.scale(scale, scale);
    p.translate(-scene.topLeft());
    m_canvas->paintScene(p, scene, scale);
    return image;
}

bool GraphView::exportPng(const QString &path)
{
    return renderImage(m_canvas->size()).save(path, "PNG");
}

bool GraphView::exportSvg(const QString &path)
{
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(m_canvas->size());
    svg.setViewBox(QRect(QPoint(0, 0), m_canvas->size()));
    svg.setTitle(tr("AOT Studio graph"));
    const auto snapshot = m_layout.snapshot();
    if (snapshot)
        svg.setDescription(QString::fromStdString(snapshot->stage + " " + snapshot->pass));
    QPainter p;
    if (!p.begin(&svg))
        return false;
    p.fillRect(QRect(QPoint(0, 0), m_canvas->size()), QColor(0xfb, 0xfb, 0xfc));
    p.scale(m_canvas->scale(), m_canvas->scale());
    p.translate(-m_canvas->visibleSceneRect().topLeft());
    m_canvas->paintScene(p, m_canvas->visibleSceneRect(), m_canvas->scale());
    return p.end() && QFileInfo(path).size() > 0;
}

bool GraphView::exportDot(const QString &path)
{
    const auto snapshot = m_layout.snapshot();
    if (!snapshot)
        return false;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    const std::string dot = Graph::toDot(*snapshot);
    return f.write(dot.data(), qint64(dot.size())) == qint64(dot.size());
}

} // namespace AotStudio::Widgets
