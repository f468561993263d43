// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/sweepresult.h"
#include "hubviewer.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace AotStudio::Widgets {

class SweepPointModel;
class SweepView;

/**
 * The Sweep dock: a package verified across its shapes (FORMAT.md "sweep result"). The verdict
 * line on top (red when some shape broke the guards' promise), the package to show (a bundle has
 * one per bucket) with its guards, a strip per dynamic dimension and a grid for two (SweepView),
 * the bundle's bucket policy in one line per batch, and every point in a table (SweepPointModel);
 * clicking a cell selects its row.
 */
class SweepPanel : public QWidget, public HubViewer
{
    Q_OBJECT
public:
    explicit SweepPanel(QWidget *parent = nullptr);

    /// Shows the hub's sweep() result from now on (HubViewer).
    void follow(SelectionHub *hub);
    void onResultsChanged() override;

    void setResult(const Client::SweepResult &result);
    void clear();
    const Client::SweepResult &result() const { return m_result; }
    /// The package shown (an index into result().targets).
    void showTarget(int index);

    SweepView *view() const { return m_view; }
    SweepPointModel *pointModel() const { return m_model; }
    QTableView *table() const { return m_table; }
    QString verdictText() const;

private:
    void selectPoint(int index);

    SelectionHub *m_hub = nullptr;
    std::shared_ptr<const Client::SweepResult> m_shown; ///< the hub's result shown; null when none
    Client::SweepResult m_result;
    QLabel *m_verdict = nullptr;
    QComboBox *m_targets = nullptr;
    QLabel *m_guards = nullptr;
    QLabel *m_policy = nullptr;
    SweepView *m_view = nullptr;
    SweepPointModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_table = nullptr;
};

} // namespace AotStudio::Widgets
