// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/tuneresult.h"
#include "hubviewer.h"

#include <QWidget>

#include <memory>

class QCustomPlot;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace AotStudio::Widgets {

class SelectionHub;
class TuneTableModel;

/**
 * The Tune dock: a recipe search (`aotstudio-cli tune`, FORMAT.md "tune result") as a table of
 * trials and baselines and a Pareto scatter (median latency against max abs error, the front
 * joined and highlighted, the baselines eager and torch.compile as vertical lines: they have no
 * error of their own), the chosen recipe in bold. "Use This Recipe" hands the selected trial's
 * options (freezing, max_autotune, dtype, inductor) to the next compile (recipeChosen());
 * "Save Recipe…" writes them as recipe.json (format aotstudio.recipe) for the command line's
 * --recipe.
 */
class TunePanel : public QWidget, public HubViewer
{
    Q_OBJECT
public:
    explicit TunePanel(QWidget *parent = nullptr);
    /// Shows the hub's tune() result from now on (HubViewer).
    void follow(SelectionHub *hub);
    void onSessionChanged(Client::Session *) override { onResultsChanged(); }
    void onResultsChanged() override;

    /// Shows `result` (nullptr: the "no tune" note).
    void setResult(std::shared_ptr<const Client::TuneResult> result);
    std::shared_ptr<const Client::TuneResult> result() const { return m_result; }
    /// Selects the trial named `name` in the table; false when there is none.
    bool selectTrial(const QString &name);
    /// The selected trial's name ("" when none).
    QString selectedTrial() const;
    /// The recipe of the selected trial (FORMAT.md "Recipe"); empty when it cannot be one.
    QJsonObject selectedRecipe() const;
    /// Writes selectedRecipe() to `path`; false with `error` set when there is none or it fails.
    bool saveRecipe(const QString &path, QString *error = nullptr) const;

    TuneTableModel *model() const { return m_model; }
    QTableView *tableView() const { return m_view; }
    QCustomPlot *scatter() const { return m_plot; }
    QPushButton *useButton() const { return m_use; }
    QPushButton *saveButton() const { return m_save; }
    /// The summary above the table.
    QString summaryText() const;

Q_SIGNALS:
    /// "Use This Recipe": `options` are the recipe's (freezing, max_autotune, dtype, inductor).
    void recipeChosen(const QJsonObject &options, const QString &name);

protected:
    /// Redraws the scatter after the plot is resized: label placement is in pixels.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updateButtons();
    void drawScatter();
    void saveRecipeDialog();

    SelectionHub *m_hub = nullptr;
    std::shared_ptr<const Client::TuneResult> m_result;
    QLabel *m_summary;
    TuneTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    QCustomPlot *m_plot;
    QPushButton *m_use;
    QPushButton *m_save;
};

} // namespace AotStudio::Widgets
