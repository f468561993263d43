// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QList>
#include <QWidget>

class QComboBox;
class QLineEdit;
class QPlainTextEdit;

namespace AotStudio::Widgets {

/// The engine log: every `log` event and engine stderr line, filtered by a minimum level.
class LogView : public QWidget
{
    Q_OBJECT
public:
    explicit LogView(QWidget *parent = nullptr);

    /// level: debug, info, warning or error (unknown levels count as info); id 0 = engine-wide.
    void append(qint64 id, const QString &level, const QString &message);
    /// The text currently shown (after filtering).
    QString visibleText() const;
    /// Removes every entry (a session was opened in place of the live one).
    void clear();
    /// Shows only lines containing `text` (case-insensitive); empty shows all.
    void setTextFilter(const QString &text);
    /// Takes `other`'s lines, level filter and search text (a window rebuilt for another
    /// language keeps its log; the lines are formatted in the new one).
    void adopt(const LogView &other);

private:
    struct Entry
    {
        QDateTime time;
        qint64 id;
        int level;
        QString message;
    };
    static int levelRank(const QString &level);
    static QString levelLabel(int rank);
    QString format(const Entry &entry) const;
    void refilter();

    bool accepts(const Entry &entry) const;
    QComboBox *m_filter;
    QLineEdit *m_search;
    QPlainTextEdit *m_text;
    QList<Entry> m_entries;
};

} // namespace AotStudio::Widgets
