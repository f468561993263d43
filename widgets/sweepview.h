// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/sweepresult.h"

#include <QRectF>
#include <QWidget>

namespace AotStudio::Widgets {

/**
 * One swept package drawn as a strip per dynamic dimension (every size tried with the other
 * dimensions at the example's, one cell each in size order, the declared range marked), and a
 * grid for the first two dimensions tried together; each cell coloured by outcome
 * (SweepPointModel::outcomeColor) with the point's sizes, guard and message on hover. A package
 * without dynamic dimensions gets one strip of its static checks. Emits pointClicked() with the
 * point's index in the target.
 */
class SweepView : public QWidget
{
    Q_OBJECT
public:
    explicit SweepView(QWidget *parent = nullptr);

    void setTarget(const Client::SweepTarget &target);
    void clear();
    const Client::SweepTarget &target() const { return m_target; }

    /// The point drawn at @p pos (widget coordinates), or -1.
    int pointAt(const QPointF &pos) const;
    /// Where point @p index (its position in target().points) is drawn; empty when it is not.
    QRectF cellRect(int index) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void pointClicked(int index);

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    struct Cell {
        int point = -1;
        QRectF rect;
    };
    struct Row {
        QString title; ///< "batch 1..64 (example 8)"
        QRectF titleRect;
        QList<Cell> cells;
        QList<qint64> labels; ///< the size under each cell (strips)
        bool grid = false;
        QList<qint64> xs, ys; ///< grid axes
    };
    void layoutRows();

    Client::SweepTarget m_target;
    QList<Row> m_rows;
};

} // namespace AotStudio::Widgets
