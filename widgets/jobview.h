// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/session.h"
#include "hubviewer.h"

#include <QWidget>

#include <functional>

class QLabel;

namespace AotStudio::Widgets {

class SelectionHub;

/**
 * One job per view (issue 35): the one header every dock and the result panel carry. It wraps
 * a panel, names the hub's selected job above it as every view names it (JobHeading: "job 3 ·
 * compile · sample:mlp · cpu — done in 28.1 s") and, when the panel has nothing for that job (a
 * profile job in the Memory dock), hides the panel and says so ("Nothing for job 4 (profile): this
 * dock shows a compile's memory plan") rather than emptying silently or keeping another job's rows.
 *
 * MainWindow wraps each panel in one (MainWindow::addPanelDock); a panel itself shows the
 * selected job's data only (SelectionHub::profile(), quantize(), … are the selected job's).
 */
class JobView : public QWidget, public HubViewer
{
    Q_OBJECT
public:
    /// Whether the panel has something to show for a job.
    using Accepts = std::function<bool(const Client::JobRecord &)>;

    /**
     * Heads `panel` (reparented into this view) with the hub's selected job. `accepts` says which
     * jobs the panel shows (null: every job); `shows` is what it shows, untranslated
     * (QT_TRANSLATE_NOOP("AotStudio::Widgets::JobView", "…"): translated whenever it is shown, so
     * a language switch applies to it).
     */
    JobView(SelectionHub *hub, QWidget *panel, Accepts accepts = {}, const char *shows = nullptr,
            QWidget *parent = nullptr);

    QWidget *panel() const { return m_panel; }
    /// What the panel shows once a job has ended (untranslated, as `shows`): a job it does not
    /// accept while it runs is "Nothing for job 5 (compile) yet: …" with this text.
    void setPendingText(const char *pending) { m_pending = pending; }
    /// The job shown (0: none).
    qint64 job() const { return m_job; }
    /// JobHeading::heading() of the selected job ("" when none).
    QString headingText() const;
    /// JobHeading::state() of the selected job, first line ("" when none).
    QString stateText() const;
    /// False while the panel is hidden because it has nothing for the selected job.
    bool showsPanel() const { return m_showsPanel; }
    /// "Nothing for job 4 (profile): …" while the panel is hidden, else "".
    QString noteText() const;

    void onSessionChanged(Client::Session *) override { update(); }
    void onJobChanged(qint64) override { update(); }
    void onJobUpdated(qint64) override { update(); }
    void onResultsChanged() override { update(); }

    /// Reads the selected job again (also on a language change).
    void update();

protected:
    void changeEvent(QEvent *event) override;

private:
    SelectionHub *m_hub;
    QWidget *m_panel;
    Accepts m_accepts;
    const char *m_shows;
    const char *m_pending = nullptr;
    QLabel *m_heading; ///< "job 3 · compile · … — done in 1.2 s"
    QLabel *m_note;    ///< "Nothing for job 4 (profile): …"
    qint64 m_job = 0;
    bool m_showsPanel = true;
};

} // namespace AotStudio::Widgets
