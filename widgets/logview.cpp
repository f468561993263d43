// SPDX-License-Identifier: GPL-3.0-or-later
#include "logview.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace AotStudio::Widgets {

namespace {
constexpr int MaxEntries = 5000; // a long job logs a lot; the session file keeps everything
}

LogView::LogView(QWidget *parent)
    : QWidget(parent)
    , m_filter(new QComboBox(this))
    , m_search(new QLineEdit(this))
    , m_text(new QPlainTextEdit(this))
{
    m_filter->setObjectName(QStringLiteral("logLevelFilter"));
    m_filter->addItem(tr("All messages"), 0);
    m_filter->addItem(tr("Info and above"), 1);
    m_filter->addItem(tr("Warnings and errors"), 2);
    m_filter->addItem(tr("Errors only"), 3);
    m_filter->setCurrentIndex(1);
    m_text->setObjectName(QStringLiteral("logText"));
    m_text->setReadOnly(true);
    m_text->setMaximumBlockCount(MaxEntries);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlaceholderText(tr("Engine messages appear here."));

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Show:"), this));
    top->addWidget(m_filter);
    top->addWidget(m_search, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_text);
    m_search->setObjectName(QStringLiteral("logSearch"));
    m_search->setPlaceholderText(tr("Filter messages…"));
    m_search->setClearButtonEnabled(true);
    connect(m_filter, &QComboBox::currentIndexChanged, this, &LogView::refilter);
    connect(m_search, &QLineEdit::textChanged, this, &LogView::refilter);
}

bool LogView::accepts(const Entry &e) const
{
    const QString needle = m_search->text();
    return e.level >= m_filter->currentData().toInt()
           && (needle.isEmpty() || e.message.contains(needle, Qt::CaseInsensitive));
}

void LogView::clear()
{
    m_entries.clear();
    m_text->clear();
}

void LogView::setTextFilter(const QString &text)
{
    m_search->setText(text);
}

void LogView::adopt(const LogView &other)
{
    m_entries = other.m_entries;
    m_filter->setCurrentIndex(other.m_filter->currentIndex());
    m_search->setText(other.m_search->text());
    refilter();
}

int LogView::levelRank(const QString &level)
{
    if (level == QLatin1String("debug"))
        return 0;
    if (level == QLatin1String("warning"))
        return 2;
    if (level == QLatin1String("error"))
        return 3;
    return 1;
}

QString LogView::levelLabel(int rank)
{
    switch (rank) {
    case 0:
        return tr("debug");
    case 2:
        return tr("warning");
    case 3:
        return tr("error");
    default:
        return tr("info");
    }
}

QString LogView::format(const Entry &e) const
{
    const QString job = e.id > 0 ? tr("job %1").arg(e.id) : tr("engine");
    return QStringLiteral("%1  %2  %3  %4")
        .arg(e.time.toString(QStringLiteral("HH:mm:ss")), levelLabel(e.level).leftJustified(7), job,
             e.message);
}

void LogView::append(qint64 id, const QString &level, const QString &message)
{
    Entry e{QDateTime::currentDateTime(), id, levelRank(level), message};
    if (m_entries.size() >= MaxEntries)
        m_entries.removeFirst();
    m_entries.append(e);
    if (accepts(e))
        m_text->appendPlainText(format(e));
}

QString LogView::visibleText() const
{
    return m_text->toPlainText();
}

void LogView::refilter()
{
    QStringList lines;
    for (const Entry &e : std::as_const(m_entries)) {
        if (accepts(e))
            lines << format(e);
    }
    m_text->setPlainText(lines.join(QLatin1Char('\n')));
    m_text->moveCursor(QTextCursor::End);
}

} // namespace AotStudio::Widgets
