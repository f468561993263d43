// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweepview.h"

#include "sweeppointmodel.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace AotStudio::Widgets {

using Client::SweepPoint;

namespace {
constexpr qreal kMargin = 8;
constexpr qreal kTitleHeight = 18;
constexpr qreal kCell = 22;
constexpr qreal kLabelHeight = 14;
constexpr qreal kRowGap = 10;
} // namespace

SweepView::SweepView(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void SweepView::setTarget(const Client::SweepTarget &target)
{
    m_target = target;
    layoutRows();
    updateGeometry();
    update();
}

void SweepView::clear()
{
    setTarget({});
}

void SweepView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    layoutRows();
}

void SweepView::layoutRows()
{
    m_rows.clear();
    const auto indexOf = [&](const SweepPoint &p) {
        for (int i = 0; i < m_target.points.size(); ++i)
            if (m_target.points.at(i).index == p.index)
                return i;
        return -1;
    };
    const qreal width = std::max<qreal>(this->width() - 2 * kMargin, 100);
    // Rows without a symbol (a static package, broken relations): the size that differs from the
    // example's under each cell.
    const QList<QList<qint64>> exampleShapes = m_target.points.isEmpty() ? QList<QList<qint64>>() : m_target.points.first().shapes;
    const auto changedSize = [&](const SweepPoint &p) -> qint64 {
        for (qsizetype i = 0; i < p.shapes.size(); ++i)
            for (qsizetype d = 0; d < p.shapes.at(i).size(); ++d)
                if (i >= exampleShapes.size() || d >= exampleShapes.at(i).size() || p.shapes.at(i).at(d) != exampleShapes.at(i).at(d))
                    return p.shapes.at(i).at(d);
        return p.shapes.isEmpty() || p.shapes.first().isEmpty() ? 0 : p.shapes.first().first();
    };
    qreal y = kMargin;
    const auto addStrip = [&](const QString &title, const QList<SweepPoint> &points, const QString &symbol) {
        Row row;
        row.title = title;
        row.titleRect = QRectF(kMargin, y, width, kTitleHeight);
        y += kTitleHeight;
        const qreal cell = std::clamp(width / std::max<qsizetype>(points.size(), 1), 6.0, kCell);
        qreal x = kMargin;
        for (const auto &p : points) {
            row.cells << Cell { indexOf(p), QRectF(x, y, cell - 2, kCell - 4) };
            row.labels << (symbol.isEmpty() ? changedSize(p) : p.values.value(symbol));
            x += cell;
        }
        y += kCell + kLabelHeight + kRowGap;
        m_rows << row;
    };
    if (m_target.symbols.isEmpty()) {
        addStrip(tr("static shapes (no dynamic dimension)"), m_target.points, QString());
    } else {
        for (const auto &s : m_target.symbols)
            addStrip(tr("%1: range %2, example %3").arg(s.label, s.rangeText()).arg(s.example), m_target.strip(s.label),
                s.label);
        // Relations broken on purpose: one strip of their own.
        QList<SweepPoint> relations;
        for (const auto &p : m_target.points)
            if (p.relation)
                relations << p;
        if (!relations.isEmpty())
            addStrip(tr("relations between dimensions, broken on purpose"), relations, QString());
    }
    if (m_target.symbols.size() >= 2) {
        const QString a = m_target.symbols.at(0).label, b = m_target.symbols.at(1).label;
        const auto points = m_target.grid(a, b);
        if (!points.isEmpty()) {
            Row row;
            row.grid = true;
            row.title = tr("%1 × %2 together").arg(a, b);
            row.titleRect = QRectF(kMargin, y, width, kTitleHeight);
            y += kTitleHeight;
            for (const auto &p : points) {
                row.xs << p.values.value(a);
                row.ys << p.values.value(b);
            }
            std::sort(row.xs.begin(), row.xs.end());
            row.xs.erase(std::unique(row.xs.begin(), row.xs.end()), row.xs.end());
            std::sort(row.ys.begin(), row.ys.end());
            row.ys.erase(std::unique(row.ys.begin(), row.ys.end()), row.ys.end());
            const qreal left = kMargin + 48; // room for the y labels
            for (const auto &p : points) {
                const qreal cx = left + row.xs.indexOf(p.values.value(a)) * kCell;
                const qreal cy = y + row.ys.indexOf(p.values.value(b)) * kCell;
                row.cells << Cell { indexOf(p), QRectF(cx, cy, kCell - 2, kCell - 2) };
            }
            y += row.ys.size() * kCell + kLabelHeight + kRowGap;
            m_rows << row;
        }
    }
}

QSize SweepView::sizeHint() const
{
    qreal h = kMargin;
    for (const auto &r : m_rows)
        h = std::max(h,
            (r.cells.isEmpty() ? r.titleRect.bottom()
                               : std::max_element(r.cells.begin(), r.cells.end(),
                                   [](const Cell &a, const Cell &b) {
                                       return a.rect.bottom() < b.rect.bottom();
                                   })->rect.bottom())
                + kLabelHeight + kRowGap);
    return QSize(480, int(std::max<qreal>(h, 80)));
}

QSize SweepView::minimumSizeHint() const
{
    return QSize(200, sizeHint().height());
}

int SweepView::pointAt(const QPointF &pos) const
{
    for (const auto &r : m_rows)
        for (const auto &c : r.cells)
            if (c.rect.contains(pos))
                return c.point;
    return -1;
}

QRectF SweepView::cellRect(int index) const
{
    for (const auto &r : m_rows)
        for (const auto &c : r.cells)
            if (c.point == index)
                return c.rect;
    return {};
}

void SweepView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), palette().base());
    if (m_target.points.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter,
            tr("No sweep yet: Engine → Sweep Shapes verifies the last compiled package across its shapes."));
        return;
    }
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.8));
    for (const auto &r : m_rows) {
        painter.setPen(palette().color(QPalette::Text));
        painter.setFont(font());
        painter.drawText(r.titleRect, Qt::AlignLeft | Qt::AlignVCenter, r.title);
        painter.setFont(small);
        for (qsizetype i = 0; i < r.cells.size(); ++i) {
            const Cell &c = r.cells.at(i);
            if (c.point < 0)
                continue;
            const SweepPoint &p = m_target.points.at(c.point);
            painter.setPen(Qt::NoPen);
            painter.setBrush(SweepPointModel::outcomeColor(p));
            painter.drawRoundedRect(c.rect, 2, 2);
            if (!p.expectedMatch) { // outside the range: hatched, whatever happened
                painter.setBrush(QBrush(palette().color(QPalette::Base), Qt::BDiagPattern));
                painter.drawRoundedRect(c.rect, 2, 2);
            }
            if (!p.ok) {
                painter.setPen(QPen(palette().color(QPalette::Text), 1.5));
                painter.drawLine(c.rect.topLeft() + QPointF(3, 3), c.rect.bottomRight() - QPointF(3, 3));
                painter.drawLine(c.rect.topRight() + QPointF(-3, 3), c.rect.bottomLeft() + QPointF(3, -3));
            }
            if (!r.grid && i < r.labels.size() && c.rect.width() >= 14) {
                painter.setPen(palette().color(QPalette::Text));
                painter.drawText(QRectF(c.rect.left() - 6, c.rect.bottom() + 1, c.rect.width() + 12, kLabelHeight),
                    Qt::AlignHCenter | Qt::AlignTop, QString::number(r.labels.at(i)));
            }
        }
        if (r.grid && !r.cells.isEmpty()) {
            painter.setPen(palette().color(QPalette::Text));
            const qreal left = kMargin + 48, top = r.titleRect.bottom();
            for (qsizetype x = 0; x < r.xs.size(); ++x)
                painter.drawText(QRectF(left + x * kCell - 6, top + r.ys.size() * kCell, kCell + 12, kLabelHeight),
                    Qt::AlignHCenter, QString::number(r.xs.at(x)));
            for (qsizetype y = 0; y < r.ys.size(); ++y)
                painter.drawText(QRectF(kMargin, top + y * kCell, 44, kCell - 2), Qt::AlignRight | Qt::AlignVCenter,
                    QString::number(r.ys.at(y)));
        }
    }
}

bool SweepView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int i = pointAt(help->pos());
        if (i >= 0)
            QToolTip::showText(help->globalPos(), SweepPointModel::toolTip(m_target.points.at(i)), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void SweepView::mousePressEvent(QMouseEvent *event)
{
    const int i = pointAt(event->position());
    if (i >= 0)
        Q_EMIT pointClicked(i);
    QWidget::mousePressEvent(event);
}

} // namespace AotStudio::Widgets
