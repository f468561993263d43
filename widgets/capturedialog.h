// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QJsonObject>
#include <QList>
#include <QPointer>
#include <QStringList>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QVBoxLayout;

namespace AotStudio::Client {
class EngineClient;
struct EngineError;
} // namespace AotStudio::Client

namespace AotStudio::Widgets {

class CaptureHistogram;

/**
 * Model → Capture From Script… (issue 39): runs the user's own script under the engine's
 * `capture` request (FORMAT.md "capture": script, args, module or module_class, calls,
 * keep_inputs, max_seconds, out) with live "N calls recorded" counts and Cancel (what was
 * recorded stays in the folder), then shows each dynamic dimension of the proposal as a size
 * histogram (CaptureHistogram) with the proposed range and, for the batch, the bucket sizes drawn
 * on it. The range (min/max) and the buckets are editable; the share of the recorded calls each
 * bucket serves and its padding waste follow each edit (Bundle::bucketTraffic: the bucket policy
 * aotstudio-run applies). "Compile from Capture" and "Export from Capture" emit the edited spec for
 * JobController to start the job (the window's model); the engine verifies the package on the
 * recorded shapes (`from_capture`).
 *
 * The request runs through the window's EngineClient while the dialog is open, as InputsDialog's
 * does; closing the dialog cancels a capture still running.
 */
class CaptureDialog : public QDialog
{
    Q_OBJECT
public:
    /// `model`: the window's model, which the compile and export use; `out`: the folder offered for
    /// the record.
    CaptureDialog(Client::EngineClient *client, const QString &model, const QString &out, QWidget *parent = nullptr);
    ~CaptureDialog() override;

    /// The `capture` request's fields from the form; empty with problem() set when it is incomplete.
    QJsonObject request() const;
    /// Why Record is refused (no script, no module); empty when the form is complete.
    QString problem() const;
    /// The record's folder (after a result).
    QString folder() const { return m_folder; }
    /// The proposal shown (proposal.json); empty before a result.
    QJsonObject proposal() const { return m_proposal; }
    /// The proposal's `compile.dynamic` with each dimension's edited range.
    QStringList dynamic() const;
    /// The proposal's `export.dynamic` (dimensions besides the batch) with the edited ranges.
    QStringList exportDynamic() const;
    /// The edited bucket sizes (ascending); empty when the proposal has none.
    QList<int> buckets() const;
    bool padSafe() const;
    /// "batch8: 40.0% of the calls, waste 12.5%; …": what the edited buckets serve.
    QString bucketSummary() const { return m_bucketText; }
    /// The histograms shown, one per dynamic dimension.
    QList<CaptureHistogram *> histograms() const { return m_histograms; }
    /// The running request's id; 0 when none runs.
    qint64 requestId() const { return m_requestId; }
    /// Sets the form (tests, and a capture started from elsewhere).
    void setScript(const QString &script, const QString &module, bool moduleIsClass = false);

public Q_SLOTS:
    /// Sends the capture request (Record).
    void record();
    /// Shows a finished capture's result ({"out", "summary", "proposal"}) as the engine answers it.
    void showResult(const QJsonObject &result);
    void reject() override;

Q_SIGNALS:
    /// "Compile from Capture": compile the window's model with `dynamic`, verified on `folder`'s shapes.
    void compileRequested(const QString &folder, const QStringList &dynamic);
    /// "Export from Capture": a bundle of the window's model with these buckets.
    void exportRequested(const QString &folder, const QList<int> &buckets, bool padSafe, const QStringList &dynamic);

private:
    void cancelRequest();
    void setBusy(bool busy);
    void onError(qint64 id, const Client::EngineError &error);
    void clearResult();
    void updateBuckets();
    /// `entries` ("INPUT:DIM:MIN:MAX=NAME") with each NAME's range as edited.
    QStringList withEditedRanges(const QStringList &entries) const;

    QPointer<Client::EngineClient> m_client;
    QString m_model;
    qint64 m_requestId = 0;
    QString m_folder;
    QJsonObject m_proposal;
    QString m_bucketText;
    QLineEdit *m_script;
    QLineEdit *m_args;
    QComboBox *m_moduleKind;
    QLineEdit *m_module;
    QSpinBox *m_calls;
    QSpinBox *m_keep;
    QDoubleSpinBox *m_maxSeconds;
    QLineEdit *m_out;
    QPushButton *m_record;
    QProgressBar *m_progress;
    QLabel *m_count;
    QPushButton *m_cancel;
    QLabel *m_error;
    QLabel *m_summary;
    QScrollArea *m_scroll;
    QVBoxLayout *m_dims;
    QLabel *m_warnings;
    QPushButton *m_compile;
    QPushButton *m_export;
    QList<CaptureHistogram *> m_histograms;
    QList<QPair<QSpinBox *, QSpinBox *>> m_ranges; ///< per histogram: min, max
    CaptureHistogram *m_batch = nullptr;           ///< the histogram the buckets are drawn on
    QLineEdit *m_bucketEdit = nullptr;
    QCheckBox *m_padSafe = nullptr;
    QLabel *m_bucketLabel = nullptr;
};

} // namespace AotStudio::Widgets
