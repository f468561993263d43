// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runsettings.h"

#include <QDialog>
#include <QJsonArray>
#include <QJsonObject>
#include <QPointer>
#include <QStringList>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace AotStudio::Client {
class EngineClient;
struct EngineError;
} // namespace AotStudio::Client

namespace AotStudio::Widgets {

/**
 * Model → Inputs…: the example inputs the engine builds for a model (the `inputs` request,
 * FORMAT.md "inputs result": names, shapes, dtypes, value ranges, forward's signature, outputs),
 * one table row per dimension of each input. The user edits each dimension's size and marks
 * dimensions dynamic with a range and an optional tie name (dimensions of one name are one
 * dimension; dimension 0 is offered as `batch`). "Check Shapes" asks the engine again with the
 * edited shapes (its eager forward tells whether tied inputs agree). On OK, shapes() and dynamic()
 * are what RunSettings takes.
 *
 * The request runs through the window's EngineClient while the dialog is open (progress and
 * Cancel); an engine error is shown in the dialog. Closing the dialog cancels a request still
 * running.
 */
class InputsDialog : public QDialog
{
    Q_OBJECT
public:
    /// Columns of the table (one row per dimension of each input).
    enum Column { InputColumn, TypeColumn, DimColumn, SizeColumn, DynamicColumn, MinColumn, MaxColumn, TieColumn, ColumnCount };

    /// Sends the `inputs` request of `model` on `device` (dtype from `settings`) at once; the
    /// shapes and dynamic dimensions `settings` has for the model are filled in when it answers.
    InputsDialog(Client::EngineClient *client, const QString &model, const QString &device,
                 const RunSettings &settings, QWidget *parent = nullptr);
    ~InputsDialog() override;

    QString model() const { return m_model; }
    /// The inputs whose edited shape differs from the model's example, {name: [d0, d1, ...]}.
    QJsonObject shapes() const;
    /// The dynamic dimensions checked, "INPUT:DIM:MIN:MAX[=NAME]" with INPUT the input's name (its
    /// index when the name is not one `dynamic` takes); dimensions of one tie name share the range
    /// of the first of them.
    QStringList dynamic() const;
    /// The running request's id; 0 when none runs.
    qint64 requestId() const { return m_requestId; }
    /// Why OK is refused (a dynamic range that excludes its example size, a tie name that is not
    /// an identifier); empty when the table is fine.
    QString problem() const;

public Q_SLOTS:
    /// Asks the engine again with the edited shapes (the table keeps the edits; outputs and any
    /// error show what the engine made of them).
    void checkShapes();
    void accept() override;
    void reject() override;

private:
    void send(const QJsonObject &shapes);
    void cancelRequest();
    void setBusy(bool busy);
    void onResult(qint64 id, const QJsonObject &result);
    void onError(qint64 id, const Client::EngineError &error);
    /// Builds the table from the first answer (the model's own example inputs).
    void fillTable(const QJsonArray &inputs);
    void applySettings(const RunSettings &settings);
    void showOutputs(const QJsonObject &result);
    int rowOf(const QString &input, int dim) const;
    /// Gives every other dynamic row tied to `row`'s name `row`'s range (one name, one dimension).
    void syncTie(int row);

    QPointer<Client::EngineClient> m_client; ///< the window's; may go before the dialog at shutdown
    QString m_model;
    QString m_device;
    QString m_dtype;
    RunSettings m_settings;
    qint64 m_requestId = 0;
    bool m_filled = false;
    bool m_syncing = false; ///< syncTie() is copying a range: the copies do not sync back
    QJsonArray m_example; ///< the first answer's inputs: the model's own shapes
    QLabel *m_summary;
    QLabel *m_signature;
    QProgressBar *m_progress;
    QLabel *m_stage;
    QPushButton *m_cancelRequest;
    QLabel *m_error;
    QTableWidget *m_table;
    QLabel *m_outputs;
    QPushButton *m_check;
    QPushButton *m_ok;
};

} // namespace AotStudio::Widgets
