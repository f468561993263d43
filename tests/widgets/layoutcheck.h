// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The layout check's walk over a widget tree (issue 35 item 5), shared by the tests that open
// windows and dialogs: what is on screen and does not fit.

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QProgressBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QStringList>
#include <QTextDocument>
#include <QWidget>

namespace LayoutCheck {

/// Widgets (by object name) that elide their text by design and show the whole of it in a
/// tooltip; the check skips their text width.
inline const QStringList &elideByDesign()
{
    static const QStringList names = {};
    return names;
}

/// "QLabel#name 'text'" with the names of its parents up to the window, for a failure message.
inline QString describe(const QWidget *w, const QString &text)
{
    QStringList path;
    for (const QWidget *p = w->parentWidget(); p && !p->isWindow(); p = p->parentWidget())
        if (!p->objectName().isEmpty() && !p->objectName().startsWith(QLatin1String("qt_")))
            path.prepend(p->objectName());
    QString shown = text.left(60);
    shown.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return QStringLiteral("%1#%2 '%3' in %4")
        .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName(), shown, path.join(QLatin1Char('/')));
}

/// Is `w` inside a scroll area's viewport (its content may extend past what is shown)?
inline bool inScrolledContent(const QWidget *w)
{
    for (const QWidget *p = w->parentWidget(); p; p = p->parentWidget())
        if (auto *area = qobject_cast<const QAbstractScrollArea *>(p->parentWidget()); area && area->viewport() == p)
            return true;
    return false;
}

/// The plain text a label shows (rich text without its tags).
inline QString labelText(const QLabel *label)
{
    if (Qt::mightBeRichText(label->text())) {
        QTextDocument doc;
        doc.setHtml(label->text());
        return doc.toPlainText();
    }
    return label->text();
}

/**
 * Every widget of `window` that is on screen (visible and not behind another tab) and clipped:
 * a label, button, check box, combo box or progress bar narrower than its size hint (2 px of
 * slack), a word-wrapped label shorter than its height for its width, or a widget that is not
 * inside the window (widgets in a scroll area's content are checked for their text only: they
 * scroll). One line per problem (describe()).
 */
inline QStringList clipped(QWidget *window)
{
    QStringList problems;
    const QRect bounds = window->rect();
    for (QWidget *w : window->findChildren<QWidget *>()) {
        if (!w->isVisibleTo(window) || w->visibleRegion().isEmpty() || w->window() != window)
            continue;
        if (elideByDesign().contains(w->objectName()))
            continue;
        const QRect at(w->mapTo(window, QPoint(0, 0)), w->size());
        if (!inScrolledContent(w) && !bounds.contains(at))
            problems << describe(w, QString())
                    + QStringLiteral(": outside the window (%1,%2 %3×%4)")
                          .arg(at.x())
                          .arg(at.y())
                          .arg(at.width())
                          .arg(at.height());
        // A panel of text in a scroll area (not a table) that needs a horizontal scroll bar shows
        // its right-hand side cut off until the user scrolls sideways.
        if (auto *area = qobject_cast<QScrollArea *>(w);
            area && area->widgetResizable() && area->widget() && area->horizontalScrollBar()->isVisible())
            problems << describe(w, QString())
                    + QStringLiteral(": its content is %1 px wide, %2 px are shown")
                          .arg(area->widget()->minimumSizeHint().width())
                          .arg(area->viewport()->width());
        QString text;
        int need = 0;
        if (auto *label = qobject_cast<QLabel *>(w)) {
            text = labelText(label);
            if (text.trimmed().isEmpty() || label->pixmap().cacheKey() != 0)
                continue;
            if (label->wordWrap()) {
                const int h = label->heightForWidth(label->width());
                if (h > label->height() + 2)
                    problems << describe(w, text)
                            + QStringLiteral(": %1 px high, its text needs %2").arg(label->height()).arg(h);
                continue;
            }
            need = label->minimumSizeHint().width();
        } else if (auto *button = qobject_cast<QAbstractButton *>(w)) {
            text = button->text();
            if (text.isEmpty())
                continue;
            need = button->sizeHint().width();
        } else if (auto *combo = qobject_cast<QComboBox *>(w)) {
            text = combo->currentText();
            if (combo->isEditable())
                continue;
            need = combo->minimumSizeHint().width();
        } else if (auto *bar = qobject_cast<QProgressBar *>(w)) {
            if (!bar->isTextVisible())
                continue;
            text = bar->text();
            need = bar->fontMetrics().horizontalAdvance(text) + 8;
        } else {
            continue;
        }
        if (w->width() + 2 < need)
            problems << describe(w, text) + QStringLiteral(": %1 px wide, its text needs %2").arg(w->width()).arg(need);
    }
    return problems;
}

} // namespace LayoutCheck
