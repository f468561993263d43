// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QList>
#include <QWidget>

class QComboBox;
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

    QComboBox *m_filter;
    QPlainTextEdit *m_text;
    QList<Entry> m_entries;
};

} // namespace AotStudio::Widgets
