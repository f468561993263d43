// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobview.h"

#include "jobheading.h"
#include "selectionhub.h"

#include <QEvent>
#include <QLabel>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace AotStudio::Widgets {

namespace {

/// The state's first line, at most `max` characters (a failure's message can be a paragraph:
/// the tooltip and the result panel have all of it).
QString shortState(const QString &state, int max = 120)
{
    QString line = state.section(QLatin1Char('\n'), 0, 0).trimmed();
    if (line.size() > max)
        line = line.left(max - 1).trimmed() + QChar(0x2026);
    return line;
}

/// `text` as HTML that a narrow dock wraps between words but not inside a short phrase: a number
/// stays with its neighbours ("job 3", "0.1 s": a no-break space) and a short part ("done in 6.2 s",
/// "完成，用时 6.2 秒", "性能分析") is one unit, since Chinese may otherwise break between any two
/// characters ("用" | "时 6.2 秒"). A long part (a path, a failure) wraps as usual.
QString unbroken(const QString &text)
{
    static const QRegularExpression besideDigit(QStringLiteral("(?<=\\d) (?=\\S)|(?<=\\S) (?=\\d)"));
    QString glued = text;
    glued.replace(besideDigit, QString(QChar::Nbsp));
    constexpr int ShortPart = 24;
    return glued.size() <= ShortPart
               ? QStringLiteral("<span style=\"white-space:nowrap\">%1</span>").arg(glued.toHtmlEscaped())
               : glued.toHtmlEscaped();
}

/// The heading's parts ("job 3 · compile · sample:mlp · cpu"), each kept together, the state after.
QString headingHtml(const QString &heading, const QString &state)
{
    QStringList parts = heading.split(QStringLiteral(" · "));
    for (QString &part : parts)
        part = unbroken(part);
    return QStringLiteral("<b>%1</b> —&nbsp;%2").arg(parts.join(QStringLiteral(" · ")), unbroken(state));
}

} // namespace

JobView::JobView(SelectionHub *hub, QWidget *panel, Accepts accepts, const char *shows, QWidget *parent)
    : QWidget(parent)
    , m_hub(hub)
    , m_panel(panel)
    , m_accepts(std::move(accepts))
    , m_shows(shows)
    , m_heading(new QLabel(this))
    , m_note(new QLabel(this))
{
    // Named after the panel, so a test (or a person with a style sheet) finds each dock's header.
    const QString name = panel->objectName().isEmpty() ? QString::fromLatin1(panel->metaObject()->className())
                                                       : panel->objectName();
    setObjectName(name + QStringLiteral("JobView"));
    m_heading->setObjectName(QStringLiteral("jobViewHeading"));
    m_heading->setWordWrap(true);
    m_heading->setTextFormat(Qt::RichText);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_heading->setContentsMargins(4, 2, 4, 2);
    m_note->setObjectName(QStringLiteral("jobViewNote"));
    m_note->setWordWrap(true);
    m_note->setAlignment(Qt::AlignCenter);
    m_note->setContentsMargins(12, 12, 12, 12);
    m_note->setForegroundRole(QPalette::PlaceholderText);

    panel->setParent(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_heading);
    layout->addWidget(m_note, 1);
    layout->addWidget(panel, 1);
    m_hub->addViewer(this, this);
    update();
}

QString JobView::headingText() const
{
    const auto *job = m_hub->currentJobRecord();
    return job ? JobHeading::heading(*job) : QString();
}

QString JobView::stateText() const
{
    const auto *job = m_hub->currentJobRecord();
    return job ? shortState(JobHeading::briefState(*job)) : QString();
}

QString JobView::noteText() const
{
    return m_showsPanel ? QString() : m_note->text();
}

void JobView::update()
{
    const Client::JobRecord *job = m_hub->currentJobRecord();
    m_job = job ? job->id : 0;
    m_heading->setVisible(job != nullptr);
    if (job) {
        const QString state = JobHeading::state(*job);
        m_heading->setText(headingHtml(JobHeading::heading(*job), shortState(JobHeading::briefState(*job))));
        m_heading->setToolTip(JobHeading::heading(*job) + QLatin1Char('\n') + state);
    }
    m_showsPanel = !job || !m_accepts || m_accepts(*job);
    if (!m_showsPanel && m_pending && !job->finished()) {
        //: %1 the job's number, %2 its kind ("compile"), %3 what the view shows when it has ended
        m_note->setText(tr("Nothing for job %1 (%2) yet: %3").arg(job->id).arg(JobHeading::kindName(job->kind), tr(m_pending)));
    } else if (!m_showsPanel) {
        //: %1 the job's number, %2 its kind ("profile"), %3 what the dock shows
        m_note->setText(tr("Nothing for job %1 (%2): %3")
                            .arg(job->id)
                            .arg(JobHeading::kindName(job->kind), m_shows ? tr(m_shows) : QString()));
    }
    m_note->setVisible(!m_showsPanel);
    m_panel->setVisible(m_showsPanel);
}

void JobView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        update();
    QWidget::changeEvent(event);
}

} // namespace AotStudio::Widgets
