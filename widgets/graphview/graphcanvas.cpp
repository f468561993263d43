// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphview/graphcanvas.h"
#include "graphview/errorscale.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QResizeEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace AotStudio::Widgets {

namespace {

QColor categoryColour(const std::string &category)
{
    if (category == "matmul")
        return QColor(0x8e, 0xb8, 0xe5);
    if (category == "conv")
        return QColor(0x7f, 0xa7, 0xd9);
    if (category == "pointwise")
        return QColor(0xb5, 0xdd, 0xa4);
    if (category == "reduction")
        return QColor(0xf2, 0xc1, 0x80);
    if (category == "view")
        return QColor(0xe2, 0xe2, 0xe2);
    if (category == "input")
        return QColor(0xf7, 0xe3, 0x8b);
    if (category == "output")
        return QColor(0xf7, 0xb2, 0xa6);
    if (category == "param")
        return QColor(0xf3, 0xed, 0xd9);
    return QColor(0xd9, 0xc8, 0xe8);
}

/// A stable, well-spread colour per name (golden-ratio hues).
QColor nameColour(const QString &name)
{
    const quint32 h = qHash(name, 0x5eed);
    const double hue = std::fmod((h % 1000) * 0.618033988749895, 1.0);
    return QColor::fromHsvF(hue, 0.42 + 0.2 * ((h >> 12) % 3) / 2.0, 0.95);
}

QColor dtypeColour(const std::string &dtype)
{
    if (dtype.empty())
        return QColor(0xe6, 0xe6, 0xe6);
    if (dtype == "float32")
        return QColor(0xa9, 0xcc, 0xf0);
    if (dtype == "float16")
        return QColor(0xa4, 0xe0, 0xc0);
    if (dtype == "bfloat16")
        return QColor(0xc6, 0xe6, 0x9a);
    if (dtype == "int8" || dtype == "uint8")
        return QColor(0xf5, 0xa6, 0x7a);
    if (dtype.rfind("float8", 0) == 0)
        return QColor(0xef, 0x8f, 0xb0);
    if (dtype == "int64" || dtype == "int32")
        return QColor(0xd8, 0xc3, 0xf0);
    if (dtype == "bool")
        return QColor(0xee, 0xe0, 0x90);
    return nameColour(QString::fromStdString(dtype));
}

/// Light yellow to dark red over [0, 1].
QColor heat(double t)
{
    t = std::clamp(t, 0.0, 1.0);
    return QColor::fromHsvF((55.0 - 55.0 * t) / 360.0, 0.25 + 0.7 * t, 1.0 - 0.25 * t);
}

QString shortTarget(const std::string &target)
{
    QString t = QString::fromStdString(target);
    if (t.startsWith(QLatin1String("aten.")))
        t = t.mid(5);
    if (t.endsWith(QLatin1String(".default")))
        t.chop(8);
    return t;
}

/// Text in a scene rectangle, drawn in device pixels with a whole-pixel font size: a scaled
/// painter would rasterize glyphs anew at every zoom step, and that dominates frame times.
/// Returns false when the text would be under 4 pixels and was skipped.
bool drawLabel(QPainter &p, const QRectF &sceneRect, int flags, const QString &text, double sceneSize, bool bold,
    Qt::TextElideMode elide, const QString &prefix = QString())
{
    const QTransform t = p.worldTransform();
    const int px = qRound(sceneSize * t.m11());
    if (px < 4)
        return false;
    const QRectF r = t.mapRect(sceneRect);
    QFont f = p.font();
    f.setPixelSize(px);
    f.setBold(bold);
    p.setWorldTransform(QTransform());
    p.setFont(f);
    const QFontMetrics fm(f);
    p.drawText(r, flags, prefix + fm.elidedText(text, elide, int(r.width() - fm.horizontalAdvance(prefix))));
    p.setWorldTransform(t);
    return true;
}

const QColor AddedColour(0x2e, 0x9e, 0x44);
const QColor RemovedColour(0xd0, 0x3b, 0x3b);
const QColor ChangedColour(0xe0, 0x8e, 0x0b);
const QColor HighlightColour(0xff, 0x6d, 0x00);
const QColor SelectedColour(0x1e, 0x5b, 0xd6);
const QColor SearchColour(0xb0, 0x2e, 0xc9);

} // namespace

QColor fusionStatusColour(const QString &status)
{
    // Green: fused; red: considered and refused; pale orange: considered, another pair won;
    // blue-grey: never a candidate; light grey: no decision (not scheduled, e.g. a placeholder).
    if (status == QLatin1String("fused"))
        return QColor(0x8f, 0xd1, 0x8a);
    if (status == QLatin1String("refused"))
        return QColor(0xee, 0x7d, 0x6e);
    if (status == QLatin1String("not_chosen"))
        return QColor(0xf6, 0xc8, 0x7e);
    if (status == QLatin1String("never_candidate"))
        return QColor(0xb9, 0xc6, 0xd8);
    return QColor(0xee, 0xee, 0xee);
}

GraphCanvas::GraphCanvas(GraphLayout *layout, QWidget *parent)
    : QWidget(parent)
    , m_layout(layout)
    , m_minimap(new GraphMinimap(this))
{
    setObjectName(QStringLiteral("graphCanvas"));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(false);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(200, 150);
}

void GraphCanvas::layoutChanged()
{
    const int n = m_layout->snapshot() ? static_cast<int>(m_layout->snapshot()->nodes.size()) : 0;
    if (m_selected >= n)
        m_selected = -1;
    m_searchHit.resize(n, false);
    m_edgeBounds.clear();
    m_edgeBounds.reserve(m_layout->edges().size());
    for (const auto &e : m_layout->edges())
        m_edgeBounds.push_back(
            e.route.boundingRect().adjusted(-m_layout->metrics().nodeWidth, -2, m_layout->metrics().nodeWidth, 2));
    recomputeColours();
    m_minimap->invalidate();
    update();
}

void GraphCanvas::setColourMode(ColourMode mode)
{
    m_mode = mode;
    recomputeColours();
    m_minimap->invalidate();
    update();
}

void GraphCanvas::setKernelOfNode(QHash<QString, QString> kernelOfNode)
{
    m_kernelOfNode = std::move(kernelOfNode);
    recomputeColours();
    update();
}

void GraphCanvas::setNodeTimes(QHash<QString, double> times)
{
    m_times = std::move(times);
    recomputeColours();
    update();
}

void GraphCanvas::setNodeErrors(QHash<QString, double> errors, double tolerance)
{
    m_errors = std::move(errors);
    m_tolerance = tolerance;
    recomputeColours();
    m_minimap->invalidate();
    update();
}

void GraphCanvas::setNodeFusion(QHash<QString, QString> status, QHash<QString, QString> tips)
{
    m_fusion = std::move(status);
    m_fusionTips = std::move(tips);
    recomputeColours();
    m_minimap->invalidate();
    update();
}

QString GraphCanvas::nodeToolTip(int node) const
{
    const auto snapshot = m_layout->snapshot();
    if (m_mode != ColourMode::FusionStatus || !snapshot || node < 0 || node >= static_cast<int>(snapshot->nodes.size()))
        return {};
    return m_fusionTips.value(QString::fromStdString(snapshot->nodes[node].id));
}

bool GraphCanvas::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const GraphLayout::ItemRef item = itemAt(mapToScene(help->pos()));
        const QString tip = item.valid() && !item.isGroup ? nodeToolTip(item.index) : QString();
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }
    return QWidget::event(event);
}

void GraphCanvas::setDiffStates(QHash<QString, NodeDiffState> states)
{
    m_diffByName = std::move(states);
    recomputeColours();
    m_minimap->invalidate();
    update();
}

void GraphCanvas::setHighlighted(const QStringList &nodes)
{
    m_highlightNames = QSet<QString>(nodes.begin(), nodes.end());
    recomputeColours();
    update();
}

void GraphCanvas::setSearchMatches(const std::vector<int> &nodes)
{
    std::fill(m_searchHit.begin(), m_searchHit.end(), false);
    for (int i : nodes) {
        if (i >= 0 && i < static_cast<int>(m_searchHit.size()))
            m_searchHit[i] = true;
    }
    recomputeMarks();
    update();
}

void GraphCanvas::setSelectedNode(int node)
{
    m_selected = node;
    update();
}

NodeDiffState GraphCanvas::diffState(int node) const
{
    return node >= 0 && node < static_cast<int>(m_diff.size()) ? m_diff[node] : NodeDiffState::None;
}

bool GraphCanvas::isHighlighted(int node) const
{
    return node >= 0 && node < static_cast<int>(m_highlight.size()) && m_highlight[node];
}

QColor GraphCanvas::nodeColour(int node) const
{
    return node >= 0 && node < static_cast<int>(m_colours.size()) ? m_colours[node] : QColor(Qt::lightGray);
}

void GraphCanvas::recomputeColours()
{
    const auto snapshot = m_layout->snapshot();
    const int n = snapshot ? static_cast<int>(snapshot->nodes.size()) : 0;
    m_colours.assign(n, QColor());
    m_diff.assign(n, NodeDiffState::None);
    m_highlight.assign(n, false);
    m_anyHighlight = false;
    m_anyDiff = !m_diffByName.isEmpty();
    m_minTime = m_maxTime = 0;
    bool first = true;
    for (int i = 0; i < n; ++i) {
        const QString id = QString::fromStdString(snapshot->nodes[i].id);
        const auto t = m_times.constFind(id);
        if (t != m_times.constEnd() && *t > 0) {
            m_minTime = first ? *t : std::min(m_minTime, *t);
            m_maxTime = first ? *t : std::max(m_maxTime, *t);
            first = false;
        }
    }
    for (int i = 0; i < n; ++i) {
        const Graph::Node &node = snapshot->nodes[i];
        const QString id = QString::fromStdString(node.id);
        QColor c;
        switch (m_mode) {
        case ColourMode::OpCategory:
            c = categoryColour(node.category);
            break;
        case ColourMode::FusedKernel: {
            const auto k = m_kernelOfNode.constFind(id);
            c = k == m_kernelOfNode.constEnd() ? QColor(0xee, 0xee, 0xee) : nameColour(*k);
            break;
        }
        case ColourMode::MeasuredTime: {
            const auto t = m_times.constFind(id);
            if (t == m_times.constEnd() || *t <= 0) {
                c = QColor(0xee, 0xee, 0xee);
            } else {
                const double span = std::log(m_maxTime) - std::log(m_minTime);
                c = heat(span > 0 ? (std::log(*t) - std::log(m_minTime)) / span : 1.0);
            }
            break;
        }
        case ColourMode::Dtype:
            c = dtypeColour(node.dtype());
            break;
        case ColourMode::NumericError: {
            const auto e = m_errors.constFind(id);
            c = e == m_errors.constEnd() ? ErrorScale::missingColour() : ErrorScale::colour(*e, m_tolerance);
            break;
        }
        case ColourMode::FusionStatus:
            c = fusionStatusColour(m_fusion.value(id));
            break;
        }
        m_colours[i] = c;
        m_diff[i] = m_diffByName.value(id, m_anyDiff ? NodeDiffState::Unchanged : NodeDiffState::None);
        m_highlight[i] = m_highlightNames.contains(id);
        m_anyHighlight = m_anyHighlight || m_highlight[i];
    }
    recomputeMarks();
}

void GraphCanvas::recomputeMarks()
{
    const auto &groups = m_layout->groups();
    m_marks.assign(groups.size(), {});
    const int n = static_cast<int>(m_colours.size());
    for (int i = 0; i < n; ++i) {
        const bool searched = i < static_cast<int>(m_searchHit.size()) && m_searchHit[i];
        const NodeDiffState d = m_diff[i];
        const bool interesting = m_highlight[i] || searched || d == NodeDiffState::Added || d == NodeDiffState::Removed
            || d == NodeDiffState::Changed || m_mode == ColourMode::MeasuredTime;
        if (!interesting)
            continue;
        const double t = m_times.value(QString::fromStdString(m_layout->snapshot()->nodes[i].id), 0.0);
        for (int g = m_layout->groupOfNode(i); g >= 0; g = groups[g].parent) {
            GroupMarks &m = m_marks[g];
            m.highlighted = m.highlighted || m_highlight[i];
            m.searched = m.searched || searched;
            m.added = m.added || d == NodeDiffState::Added;
            m.removed = m.removed || d == NodeDiffState::Removed;
            m.changed = m.changed || d == NodeDiffState::Changed;
            m.time += t;
        }
    }
}

QPointF GraphCanvas::mapToScene(QPointF p) const
{
    return m_origin + p / m_scale;
}

QPointF GraphCanvas::mapFromScene(QPointF p) const
{
    return (p - m_origin) * m_scale;
}

QRectF GraphCanvas::visibleSceneRect() const
{
    return QRectF(m_origin, QSizeF(width() / m_scale, height() / m_scale));
}

QPointF GraphCanvas::sceneCentre() const
{
    return visibleSceneRect().center();
}

void GraphCanvas::setView(double scale, QPointF centre)
{
    m_scale = std::clamp(scale, 0.002, 8.0);
    m_origin = centre - QPointF(width() / 2.0, height() / 2.0) / m_scale;
    m_viewMoved = true;
    update();
    m_minimap->update();
    Q_EMIT viewChanged();
}

void GraphCanvas::fitToView()
{
    if (m_layout->bounds().isEmpty() || width() <= 0 || height() <= 0)
        return;
    const QRectF b = m_layout->bounds().adjusted(-20, -20, 20, 20);
    setView(std::min({ width() / b.width(), height() / b.height(), 1.5 }), b.center());
    m_viewMoved = false;
}

void GraphCanvas::zoomBy(double factor, QPointF anchor)
{
    const QPointF scenePoint = mapToScene(anchor);
    m_scale = std::clamp(m_scale * factor, 0.002, 8.0);
    m_origin = scenePoint - anchor / m_scale;
    m_viewMoved = true;
    update();
    m_minimap->update();
    Q_EMIT viewChanged();
}

void GraphCanvas::centerOn(QPointF p)
{
    setView(m_scale, p);
}

void GraphCanvas::resizeEvent(QResizeEvent *event)
{
    if (!m_viewMoved) {
        fitToView();
    } else if (event->oldSize().isValid()) {
        // Keep the centre where it was (the origin is the top-left corner).
        const QSizeF delta = QSizeF(event->size() - event->oldSize()) / (2 * m_scale);
        m_origin -= QPointF(delta.width(), delta.height());
    }
    const QSize s(std::min(200, width() / 3), std::min(150, height() / 3));
    m_minimap->setGeometry(width() - s.width() - 8, height() - s.height() - 8, s.width(), s.height());
    m_minimap->setVisible(s.width() > 60 && s.height() > 40);
}

void GraphCanvas::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), QColor(0xfb, 0xfb, 0xfc));
    if (!m_layout->snapshot()) {
        p.setPen(QColor(0x80, 0x80, 0x80));
        p.drawText(rect(), Qt::AlignCenter, tr("No graph loaded."));
        return;
    }
    p.setRenderHint(QPainter::Antialiasing, m_scale > ArrowScale);
    p.scale(m_scale, m_scale);
    p.translate(-m_origin);
    paintScene(p, visibleSceneRect(), m_scale);
}

void GraphCanvas::markFrame(int g, const QRectF &sceneRect, double scale) const
{
    m_frameState[g] = 2;
    const auto &groups = m_layout->groups();
    for (const auto &item : groups[g].items) {
        if (!item.isGroup)
            continue;
        const auto &child = groups[item.index];
        if (!child.rect.intersects(sceneRect))
            continue;
        if (!child.expanded || child.rect.height() * scale < SummaryPixels
            || child.rect.width() * scale < SummaryPixels)
            m_frameState[item.index] = 1;
        else
            markFrame(item.index, sceneRect, scale);
    }
}

void GraphCanvas::paintScene(QPainter &p, const QRectF &sceneRect, double scale) const
{
    if (!m_layout->snapshot() || m_layout->groups().empty())
        return;
    m_lastFrameItems = 0;
    m_frameState.assign(m_layout->groups().size(), 0);
    markFrame(0, sceneRect, scale);
    paintGroup(p, 0, sceneRect, scale);
}

void GraphCanvas::paintGroup(QPainter &p, int g, const QRectF &sceneRect, double scale) const
{
    const auto &groups = m_layout->groups();
    const auto &group = groups[g];
    const auto &marks = m_marks[g];
    // Frame
    if (g > 0) {
        static const QColor tints[] = { QColor(0xf1, 0xf4, 0xf9), QColor(0xe9, 0xee, 0xf6), QColor(0xf4, 0xf1, 0xf8),
            QColor(0xee, 0xf5, 0xf0) };
        QColor border(0xb4, 0xbf, 0xcf);
        double width = 1.0;
        if (marks.highlighted && m_anyHighlight) {
            border = HighlightColour;
            width = 2.5;
        }
        p.setPen(QPen(border, width / std::max(scale, 0.05) * std::min(scale, 1.0)));
        p.setBrush(tints[group.depth % 4]);
        p.drawRoundedRect(group.rect, 8, 8);
        ++m_lastFrameItems;
        if (group.rect.width() * scale > 40) {
            p.setPen(QColor(0x3c, 0x47, 0x57));
            const QString parentPath = group.parent >= 0 ? groups[group.parent].path : QString();
            QString title = group.path;
            if (!parentPath.isEmpty() && title.startsWith(parentPath + QLatin1Char('.')))
                title = title.mid(parentPath.size() + 1);
            if (!group.type.isEmpty())
                title += QStringLiteral("  (%1)").arg(group.type);
            const QRectF titleRect(group.rect.left() + 8, group.rect.top() + 2, group.rect.width() - 16, 18);
            drawLabel(p, titleRect, Qt::AlignLeft | Qt::AlignVCenter, title, 12, true, Qt::ElideMiddle,
                QStringLiteral("\u25be "));
        }
    }
    // Edges of this piece
    p.setBrush(Qt::NoBrush);
    for (int e : group.edges) {
        if (!m_edgeBounds[e].intersects(sceneRect))
            continue;
        paintEdge(p, m_layout->edges()[e], scale);
    }
    // Items
    for (const auto &item : group.items) {
        if (item.isGroup) {
            const auto &child = groups[item.index];
            if (!child.rect.intersects(sceneRect))
                continue;
            if (m_frameState[item.index] == 2)
                paintGroup(p, item.index, sceneRect, scale);
            else
                paintCollapsed(p, item.index, scale, child.expanded);
        } else {
            if (m_layout->nodeRect(item.index).intersects(sceneRect))
                paintNode(p, item.index, scale);
        }
    }
}

void GraphCanvas::paintCollapsed(QPainter &p, int g, double scale, bool summary) const
{
    const auto &groups = m_layout->groups();
    const auto &group = groups[g];
    const auto &marks = m_marks[g];
    ++m_lastFrameItems;
    QColor fill = summary ? QColor(0xe3, 0xe8, 0xf0) : QColor(0xd6, 0xde, 0xea);
    if (m_mode == ColourMode::MeasuredTime && marks.time > 0 && m_maxTime > 0)
        fill = heat(std::log1p(marks.time / m_maxTime) / std::log(2.0));
    QColor border(0x70, 0x80, 0x98);
    double width = 1.2;
    if (marks.changed) {
        border = ChangedColour;
        width = 3;
    }
    if (marks.removed) {
        border = RemovedColour;
        width = 3;
    }
    if (marks.added) {
        border = AddedColour;
        width = 3;
    }
    if (marks.searched) {
        border = SearchColour;
        width = 3;
    }
    if (marks.highlighted && m_anyHighlight) {
        border = HighlightColour;
        width = 3.5;
    }
    if (m_anyHighlight && !marks.highlighted)
        fill.setAlpha(110);
    const double minWidth = 1.0 / scale;
    p.setPen(QPen(border, std::max(width, minWidth)));
    p.setBrush(fill);
    p.drawRoundedRect(group.rect, 6, 6);
    if (scale < LabelScale * 0.6 && group.rect.height() * scale < 14)
        return;
    const QString parentPath = group.parent >= 0 ? groups[group.parent].path : QString();
    QString title = group.path;
    if (!parentPath.isEmpty() && title.startsWith(parentPath + QLatin1Char('.')))
        title = title.mid(parentPath.size() + 1);
    p.setPen(QColor(0x25, 0x2d, 0x3a));
    const QRectF r = group.rect.adjusted(8, 3, -8, -3);
    if (summary) {
        // About 12 pixels on screen, smaller when the name would not fit.
        double size = std::min(12.0 / scale, group.rect.height() * 0.45);
        QFont f = p.font();
        f.setPixelSize(std::max(1, qRound(size * scale)));
        f.setBold(true);
        const double textWidth = QFontMetricsF(f).horizontalAdvance(title) / scale;
        if (textWidth > r.width())
            size *= r.width() / textWidth;
        drawLabel(p, r, Qt::AlignCenter, title, size, true, Qt::ElideMiddle);
        return;
    }
    if (!drawLabel(p, QRectF(r.left(), r.top(), r.width(), r.height() / 2), Qt::AlignLeft | Qt::AlignVCenter, title,
            12.5, true, Qt::ElideMiddle, QStringLiteral("\u25b8 ")))
        return;
    p.setPen(QColor(0x50, 0x5a, 0x6a));
    const QString sub = group.type.isEmpty() ? tr("%n node(s)", "", group.totalNodes)
                                             : tr("%1 · %n node(s)", "", group.totalNodes).arg(group.type);
    drawLabel(p, QRectF(r.left() + 14, r.center().y(), r.width() - 14, r.height() / 2),
        Qt::AlignLeft | Qt::AlignVCenter, sub, 10.5, false, Qt::ElideRight);
}

void GraphCanvas::paintNode(QPainter &p, int i, double scale) const
{
    ++m_lastFrameItems;
    const QRectF r = m_layout->nodeRect(i);
    QColor fill = m_colours[i];
    QColor border = fill.darker(170);
    double width = 1.0;
    switch (m_diff[i]) {
    case NodeDiffState::Added:
        fill = QColor(0xc9, 0xef, 0xcf);
        border = AddedColour;
        width = 3;
        break;
    case NodeDiffState::Removed:
        fill = QColor(0xf7, 0xcd, 0xcd);
        border = RemovedColour;
        width = 3;
        break;
    case NodeDiffState::Changed:
        fill = QColor(0xfd, 0xe6, 0xb4);
        border = ChangedColour;
        width = 3;
        break;
    case NodeDiffState::Unchanged:
        fill = fill.lighter(112);
        fill.setHsvF(fill.hsvHueF(), fill.hsvSaturationF() * 0.45, fill.valueF());
        break;
    case NodeDiffState::None:
        break;
    }
    if (i < static_cast<int>(m_searchHit.size()) && m_searchHit[i]) {
        border = SearchColour;
        width = 3;
    }
    if (m_highlight[i]) {
        border = HighlightColour;
        width = 4;
    }
    if (i == m_selected) {
        border = SelectedColour;
        width = 4;
    }
    if (m_anyHighlight && !m_highlight[i] && i != m_selected) {
        fill.setAlpha(90);
        border.setAlpha(90);
    }
    p.setPen(QPen(border, std::max(width, 1.0 / scale)));
    p.setBrush(fill);
    if (scale < ArrowScale) {
        p.drawRect(r);
        return;
    }
    p.drawRoundedRect(r, 4, 4);
    if (scale < LabelScale)
        return;
    const Graph::Node &node = m_layout->snapshot()->nodes[i];
    // Dark fills (the red end of the error scale, NaN) get light text.
    const QColor text = fill.lightnessF() < 0.45 ? QColor(0xff, 0xff, 0xff) : QColor(0x1d, 0x23, 0x2c);
    p.setPen(QColor(text.red(), text.green(), text.blue(),
                    m_anyHighlight && !m_highlight[i] && i != m_selected ? 120 : 255));
    const QRectF top(r.left() + 6, r.top() + 2, r.width() - 12, r.height() / 2 - 1);
    QString op = QString::fromStdString(node.op);
    if (node.op == "call_function" || node.op == "call_module")
        op = shortTarget(node.target);
    else if (node.op == "get_attr" || node.category == "param" || node.id.rfind("p_", 0) == 0)
        op = tr("parameter");
    else if (node.id.rfind("b_", 0) == 0)
        op = tr("buffer");
    else if (node.id.rfind("c_", 0) == 0)
        op = tr("constant");
    else if (node.op == "placeholder")
        op = tr("input");
    drawLabel(p, top, Qt::AlignLeft | Qt::AlignVCenter, op, 11.5, true, Qt::ElideRight);
    const QRectF bottom(r.left() + 6, r.center().y(), r.width() - 12, r.height() / 2 - 2);
    drawLabel(p, bottom, Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(node.id), 10, false, Qt::ElideMiddle);
}

QRectF GraphCanvas::endRect(const GraphLayout::ItemRef &item, int routeGroup) const
{
    // The outermost group between the routing piece and the item that this frame drew as a box.
    const auto &groups = m_layout->groups();
    int g = item.isGroup ? groups[item.index].parent : m_layout->groupOfNode(item.index);
    int box = -1;
    while (g > 0 && g != routeGroup) {
        if (m_frameState[g] == 1)
            box = g;
        g = groups[g].parent;
    }
    return box >= 0 ? groups[box].rect : m_layout->itemRect(item);
}

void GraphCanvas::paintEdge(QPainter &p, const GraphLayout::Edge &edge, double scale) const
{
    const QPolygonF &route = edge.route;
    if (route.size() < 2)
        return;
    ++m_lastFrameItems;
    const bool down = route.first().y() <= route.last().y();
    const QRectF a = endRect(edge.from, edge.group), b = endRect(edge.to, edge.group);
    const QPointF start(a.center().x(), down ? a.bottom() : a.top());
    const QPointF end(b.center().x(), down ? b.top() : b.bottom());
    QPolygonF line;
    line.reserve(route.size() + 2);
    const auto add = [&line](QPointF q) {
        if (line.isEmpty() || line.last() != q)
            line << q;
    };
    add(start);
    add(QPointF(start.x(), route.first().y()));
    for (int i = 1; i + 1 < route.size(); ++i)
        add(route[i]);
    add(QPointF(end.x(), route.last().y()));
    add(end);

    bool highlighted = false;
    if (m_anyHighlight) {
        const auto lit = [this](const GraphLayout::ItemRef &r) {
            return r.isGroup ? m_marks[r.index].highlighted : m_highlight[r.index];
        };
        highlighted = lit(edge.from) && lit(edge.to);
    }
    QColor colour = highlighted ? HighlightColour : QColor(0x6b, 0x76, 0x86);
    if (m_anyHighlight && !highlighted)
        colour.setAlpha(70);
    const double w = (edge.count > 1 ? 1.6 : 1.1) * (highlighted ? 2 : 1);
    p.setPen(QPen(colour, std::max(w, 0.8 / scale), Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.setBrush(Qt::NoBrush);
    if (scale < ArrowScale) {
        p.drawPolyline(line);
        return;
    }
    // Bends as short quadratic curves; an arrow head at the target.
    QPainterPath path(line.first());
    for (int i = 1; i + 1 < line.size(); ++i) {
        const QPointF prev = line[i - 1], cur = line[i], next = line[i + 1];
        const QPointF d1 = cur - prev, d2 = next - cur;
        const double l1 = std::hypot(d1.x(), d1.y()), l2 = std::hypot(d2.x(), d2.y());
        const double r = std::min({ 10.0, l1 / 2, l2 / 2 });
        if (r < 0.5) {
            path.lineTo(cur);
            continue;
        }
        path.lineTo(cur - d1 * (r / l1));
        path.quadTo(cur, cur + d2 * (r / l2));
    }
    path.lineTo(line.last());
    p.drawPath(path);
    const QPointF tip = line.last(), from = line[line.size() - 2];
    const QPointF d = tip - from;
    const double len = std::hypot(d.x(), d.y());
    if (len > 0.1) {
        const QPointF u = d / len, n(-u.y(), u.x());
        const double s = 6;
        QPolygonF head;
        head << tip << tip - u * s * 1.6 + n * s * 0.7 << tip - u * s * 1.6 - n * s * 0.7;
        p.setBrush(colour);
        p.setPen(Qt::NoPen);
        p.drawPolygon(head);
    }
}

GraphLayout::ItemRef GraphCanvas::itemAtIn(int g, QPointF pt) const
{
    const auto &groups = m_layout->groups();
    for (const auto &item : groups[g].items) {
        if (!item.isGroup) {
            if (m_layout->nodeRect(item.index).contains(pt))
                return item;
            continue;
        }
        const auto &child = groups[item.index];
        if (!child.rect.contains(pt))
            continue;
        if (child.expanded && item.index < static_cast<int>(m_frameState.size()) && m_frameState[item.index] == 2) {
            const auto inner = itemAtIn(item.index, pt);
            return inner.valid() ? inner : item;
        }
        return item;
    }
    return {};
}

GraphLayout::ItemRef GraphCanvas::itemAt(QPointF pt) const
{
    if (m_layout->groups().empty())
        return {};
    // Recomputed: the minimap's coarse frame may have been the last one drawn.
    m_frameState.assign(m_layout->groups().size(), 0);
    markFrame(0, visibleSceneRect(), m_scale);
    return itemAtIn(0, pt);
}

void GraphCanvas::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    zoomBy(std::pow(1.2, steps), event->position());
    event->accept();
}

void GraphCanvas::mousePressEvent(QMouseEvent *event)
{
    setFocus();
    m_pressPos = event->pos();
    m_pressOrigin = m_origin;
    m_dragging = false;
}

void GraphCanvas::mouseMoveEvent(QMouseEvent *event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    const QPoint d = event->pos() - m_pressPos;
    if (!m_dragging && d.manhattanLength() < 4)
        return;
    m_dragging = true;
    m_origin = m_pressOrigin - QPointF(d) / m_scale;
    m_viewMoved = true;
    update();
    m_minimap->update();
    Q_EMIT viewChanged();
}

void GraphCanvas::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_dragging || event->button() != Qt::LeftButton) {
        m_dragging = false;
        return;
    }
    const QPointF pt = mapToScene(event->position());
    const auto item = itemAt(pt);
    if (!item.valid())
        return;
    if (!item.isGroup) {
        Q_EMIT nodeClicked(item.index);
        return;
    }
    // A click on the title bar of an expanded group, or anywhere on a collapsed box, toggles it.
    const auto &group = m_layout->groups()[item.index];
    if (!group.expanded || pt.y() < group.rect.top() + m_layout->metrics().groupTitle)
        Q_EMIT groupToggled(item.index);
}

void GraphCanvas::mouseDoubleClickEvent(QMouseEvent *event)
{
    const auto item = itemAt(mapToScene(event->position()));
    if (item.valid() && item.isGroup && m_layout->groups()[item.index].expanded)
        Q_EMIT groupToggled(item.index);
}

QList<QPair<QString, QString>> GraphCanvas::keyBindings()
{
    return {{QStringLiteral("+ / ="), tr("zoom in")},
            {QStringLiteral("-"), tr("zoom out")},
            {tr("Arrow keys"), tr("pan")},
            {QStringLiteral("0"), tr("fit the whole graph")},
            {tr("Wheel"), tr("zoom at the pointer")}};
}

void GraphCanvas::keyPressEvent(QKeyEvent *event)
{
    const double step = 60 / m_scale;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.25, QPointF(width() / 2.0, height() / 2.0));
        break;
    case Qt::Key_Minus:
        zoomBy(0.8, QPointF(width() / 2.0, height() / 2.0));
        break;
    case Qt::Key_Left:
        centerOn(sceneCentre() - QPointF(step, 0));
        break;
    case Qt::Key_Right:
        centerOn(sceneCentre() + QPointF(step, 0));
        break;
    case Qt::Key_Up:
        centerOn(sceneCentre() - QPointF(0, step));
        break;
    case Qt::Key_Down:
        centerOn(sceneCentre() + QPointF(0, step));
        break;
    case Qt::Key_0:
        fitToView();
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

// --- minimap

GraphMinimap::GraphMinimap(GraphCanvas *canvas)
    : QWidget(canvas)
    , m_canvas(canvas)
{
    setObjectName(QStringLiteral("graphMinimap"));
    setToolTip(tr("Overview: click or drag to move the view"));
    setCursor(Qt::PointingHandCursor);
}

void GraphMinimap::invalidate()
{
    m_dirty = true;
    update();
}

QTransform GraphMinimap::sceneToMap() const
{
    const QRectF b = m_canvas->m_layout->bounds();
    if (b.isEmpty())
        return {};
    const double s = std::min((width() - 6) / b.width(), (height() - 6) / b.height());
    QTransform t;
    t.translate((width() - b.width() * s) / 2, (height() - b.height() * s) / 2);
    t.scale(s, s);
    t.translate(-b.left(), -b.top());
    return t;
}

void GraphMinimap::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), QColor(255, 255, 255, 225));
    p.setPen(QColor(0x9a, 0xa5, 0xb5));
    p.drawRect(rect().adjusted(0, 0, -1, -1));
    if (!m_canvas->m_layout->snapshot())
        return;
    const QTransform t = sceneToMap();
    if (m_dirty || m_image.size() != size()) {
        m_image = QImage(size(), QImage::Format_ARGB32_Premultiplied);
        m_image.fill(Qt::transparent);
        QPainter ip(&m_image);
        ip.setTransform(t);
        // Drawn coarsely on purpose: groups as boxes, a pixel or so per node.
        m_canvas->paintScene(ip, m_canvas->m_layout->bounds(), t.m11());
        m_dirty = false;
    }
    p.drawImage(0, 0, m_image);
    const QRectF view = t.mapRect(m_canvas->visibleSceneRect());
    p.setPen(QPen(QColor(0x1e, 0x5b, 0xd6), 1.5));
    p.setBrush(QColor(0x1e, 0x5b, 0xd6, 40));
    p.drawRect(view.intersected(QRectF(rect())));
}

void GraphMinimap::mousePressEvent(QMouseEvent *event)
{
    bool ok = false;
    const QTransform inv = sceneToMap().inverted(&ok);
    if (ok)
        m_canvas->centerOn(inv.map(event->position()));
}

void GraphMinimap::mouseMoveEvent(QMouseEvent *event)
{
    if (event->buttons() & Qt::LeftButton)
        mousePressEvent(event);
}

} // namespace AotStudio::Widgets
