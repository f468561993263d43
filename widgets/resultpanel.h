// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/compileresult.h"
#include "client/engineerror.h"
#include "client/exportresult.h"
#include "client/measurement.h"
#include "client/verifyresult.h"

#include <QWidget>

class QComboBox;
class QFormLayout;
class QFrame;
class QLabel;
class QPushButton;
class QStackedWidget;
class QStandardItemModel;
class QTableView;

namespace AotStudio::Widgets {

class JobTracker;
class LatencyChart;
class VerifyOutputModel;

/// Shows the latest compile result (selectable text, a latency chart) or, before the first one,
/// an empty-state hint; a bundle exported from it adds a bundle section; a failed job adds an
/// error box with its message and hint.
class ResultPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ResultPanel(QWidget *parent = nullptr);

    void showResult(const Client::CompileResult &result);
    /**
     * Shows @p figure's medians, speedup with its interval, verdict and threads, and says where
     * they come from: the compile's quick measurement, or a later profile of the same model that
     * supersedes it (SpeedupFigure::current()). Ignored before a result is shown.
     */
    void showFigure(const Client::SpeedupFigure &figure);
    /// The figure shown now.
    const Client::SpeedupFigure &figure() const { return m_figure; }
    /// True while the verdict is "unreliable": the figures are drawn greyed.
    bool figuresGreyed() const { return m_greyed; }
    /**
     * A failed compile. For a failed verification (code `mismatch`) @p failure names the output
     * that failed and, when the job's log has them, every output's figures (shown as a table).
     */
    void showError(const QString &model, const Client::EngineError &error,
                   const Client::VerifyFailure &failure = {});
    /// Shows a bundle exported from the current result below its numbers (replacing an
    /// earlier one); a new showResult() hides it.
    void showBundle(const Client::ExportResult &result);
    /// An export that failed or was cancelled; bundle: the folder it was to create.
    void showExportError(const QString &bundle, const Client::EngineError &error);
    bool hasBundle() const;
    /// Hides the previous error while a new job runs.
    void clearError();
    /// Shows or hides the result below the error box: hidden while the job shown is a failure of
    /// its own (one job per view: not the previous compile's numbers under it); showResult() and
    /// showBundle() show it again.
    void setResultVisible(bool visible);
    bool hasResult() const;
    /// True while the result's per-output verification is shown (false for older results).
    bool showsVerification() const;
    /// The per-output table of the shown result, and of a failed verification in the error box.
    VerifyOutputModel *verifyModel() const { return m_verifyModel; }
    VerifyOutputModel *failedVerifyModel() const { return m_errorVerifyModel; }
    /// True while a regional compile's section (blocks, compile times, latencies) is shown.
    bool showsRegional() const;
    /// The shown regional compile's blocks: class, instances, parameters each, compile time (s),
    /// package size; one row per block class in the engine's order.
    QStandardItemModel *regionalBlocksModel() const { return m_regionalModel; }
    /// An error's `where` (FORMAT.md "Where it failed") as HTML: the user's frames, then the
    /// source around the failing line with it marked; "" when there is none. The one rendering:
    /// the error box here and the failure dialog's details (as plain text) use it.
    static QString whereHtml(const QJsonObject &where);
    /// Everything shown, as "Label: value" lines (what the Copy button puts on the clipboard).
    QString summaryText() const;

private:
    QLabel *addRow(QFormLayout *form, const QString &label, const char *objectName);
    /// The error box above the result, hidden (resulterror.cpp, as the error functions).
    void createErrorBox();
    void setErrorText(QString headline, const QString &stageName, const Client::EngineError &e);
    void copyToClipboard();
    void showVerify(const Client::VerifyResult &verify);
    /// The regional section of @p r (hidden for a whole compile).
    void showRegional(const Client::CompileResult &r);
    static void fitTableHeight(QTableView *view);

    QStackedWidget *m_stack;
    QLabel *m_title;
    QLabel *m_package;
    QLabel *m_device;
    QLabel *m_torch;
    QLabel *m_recipe; ///< which recipe and why (the result's `recipe`), hidden without one
    QLabel *m_inputs;
    QLabel *m_maxAbsError;
    QLabel *m_verify;
    QLabel *m_verifyMode;
    QLabel *m_verifyInputs;
    QLabel *m_verifyStateful;
    VerifyOutputModel *m_verifyModel;
    QTableView *m_verifyTable;
    VerifyOutputModel *m_errorVerifyModel;
    QTableView *m_errorVerifyTable;
    QLabel *m_eager;
    QLabel *m_compiled;
    QLabel *m_speedup;
    QLabel *m_verdict;
    QLabel *m_threads;
    QLabel *m_source;
    QLabel *m_runs;
    LatencyChart *m_chart;
    QFrame *m_regionalFrame;
    QFormLayout *m_regionalForm;
    QLabel *m_regionalBlocks;
    QStandardItemModel *m_regionalModel;
    QTableView *m_regionalTable;
    QLabel *m_regionalCompileTime;
    QLabel *m_regionalLatency;
    QLabel *m_regionalVsEager;
    QLabel *m_regionalVsWhole;
    QLabel *m_regionalSize;
    QFrame *m_bundleFrame;
    QFormLayout *m_bundleForm;
    QLabel *m_bundlePath;
    QLabel *m_bundleZip;
    QLabel *m_bundleBuckets;
    QLabel *m_bundleColdStart;
    QLabel *m_bundlePhases;
    QLabel *m_bundleBuiltFor;   ///< the compatibility key in words (BUNDLE.md)
    QLabel *m_bundlePreflight;  ///< the export's preflight against the default GPU profile
    /// The GPU profile the preflight is against: a local bundle is checked again on a change.
    QComboBox *m_bundleProfile;
    QPushButton *m_bundleOpenFolder;
    JobTracker *m_preflightReader; ///< Bundle::preflight off the UI thread
    QString m_bundleFolder; ///< the shown bundle's folder; empty when none
    void showPreflight(const Client::Preflight &preflight);
    /// Shows or hides the compile rows, the verify table and the latency chart (hidden for a
    /// bundle shown on its own, with no compile result).
    void setCompileSectionVisible(bool visible);
    bool m_bundleAlone = false; ///< the page shows a bundle without a compile result
    QFrame *m_warningFrame;
    QLabel *m_warningText;
    QFrame *m_errorFrame;
    QLabel *m_errorText;
    QPushButton *m_copy;
    QFormLayout *m_form;
    Client::CompileResult m_compile;
    Client::SpeedupFigure m_figure;
    bool m_greyed = false;
};

} // namespace AotStudio::Widgets
