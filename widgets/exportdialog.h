// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/exportrequest.h"

#include <QDialog>
#include <optional>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace AotStudio::Widgets {

/**
 * Asks for the options of an `export` request from a compile's output directory: the bundle
 * folder, batch buckets, an optional dynamic batch range, padding, zip and cold-start runs.
 * Problems are shown inline and keep OK disabled; the engine never overwrites a bundle, so an
 * existing folder is refused here rather than after a long export.
 */
class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    /// fromDirectory: the compile output to export; the bundle folder defaults to
    /// "<fromDirectory>-bundle" (with "-2", "-3", … when that exists).
    explicit ExportDialog(const QString &fromDirectory, QWidget *parent = nullptr);

    /// The request for the current fields; valid when problem() is empty.
    Client::ExportRequest request() const;
    /// Why the fields cannot be sent as they are; empty when they can.
    QString problem() const;

    /// Parses "1, 4,16" (commas and/or spaces) into sorted, distinct positive batch sizes;
    /// std::nullopt for anything else. An empty text gives an empty list.
    static std::optional<QList<int>> parseBuckets(const QString &text);
    /// The largest batch size accepted in a bucket or the dynamic range.
    static constexpr int MaxBatch = 65536;

public Q_SLOTS:
    void accept() override;

private:
    void validate();
    void browse();

    QString m_from;
    QLineEdit *m_outEdit;
    QLineEdit *m_bucketsEdit;
    QCheckBox *m_dynamicCheck;
    QSpinBox *m_dynamicMin;
    QSpinBox *m_dynamicMax;
    QCheckBox *m_padSafeCheck;
    QCheckBox *m_zipCheck;
    QSpinBox *m_coldStartRuns;
    QLabel *m_problem;
    QDialogButtonBox *m_buttons;
};

} // namespace AotStudio::Widgets
