// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "hubviewer.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QTableView;

namespace AotStudio::Widgets {

class PipelineFilterModel;
class PipelineModel;
class SelectionHub;

/**
 * The Pipeline dock: the current job's stages and passes in order with node-count change and
 * time. Passes that changed nothing are hidden unless "Show unchanged passes" is ticked.
 * Selecting a row selects that snapshot in the hub (the Graph dock shows it). Live: a running
 * job's rows appear as its passes finish, with a last row for the stage in progress; the heading
 * names the job shown ("job 3 · compile · sample:mlp · cpu") and the line below says where it
 * stands (running, failed at a stage and why, done).
 */
class PipelinePanel : public QWidget, public HubViewer
{
    Q_OBJECT
public:
    // HubViewer: what the hub changed
    void onSessionChanged(Client::Session *) override { reload(); }
    void onJobChanged(qint64) override { reload(); }
    void onJobUpdated(qint64) override { reload(); }
    void onSnapshotChanged(int index) override { followSnapshot(index); }
    void onResultsChanged() override { reload(); }

    explicit PipelinePanel(SelectionHub *hub, QWidget *parent = nullptr);
    PipelineModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    void setShowUnchanged(bool show);

private:
    void reload();
    void followSnapshot(int index);

    SelectionHub *m_hub;
    PipelineModel *m_model;
    PipelineFilterModel *m_proxy;
    QTableView *m_view;
    QCheckBox *m_showUnchanged;
    QLabel *m_summary;
};

} // namespace AotStudio::Widgets
