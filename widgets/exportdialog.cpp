// SPDX-License-Identifier: GPL-3.0-or-later
#include "exportdialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

namespace AotStudio::Widgets {

namespace {
QString defaultBundlePath(const QString &from)
{
    const QString base = QDir::cleanPath(from) + QStringLiteral("-bundle");
    QString path = base;
    for (int n = 2; QFileInfo::exists(path) || QFileInfo::exists(path + QStringLiteral(".zip"));
         ++n)
        path = base + QStringLiteral("-%1").arg(n);
    return path;
}
} // namespace

ExportDialog::ExportDialog(const QString &fromDirectory, QWidget *parent)
    : QDialog(parent)
    , m_from(fromDirectory)
{
    setObjectName(QStringLiteral("exportDialog"));
    setWindowTitle(tr("Export Bundle"));

    auto *intro = new QLabel(
        tr("Compiles one package per batch size from <b>%1</b> and writes them, with a manifest "
           "and a report, into a new bundle folder that aotstudio-run can load.")
            .arg(QDir::toNativeSeparators(fromDirectory).toHtmlEscaped()),
        this);
    intro->setObjectName(QStringLiteral("exportIntro"));
    intro->setWordWrap(true);

    m_outEdit = new QLineEdit(QDir::toNativeSeparators(defaultBundlePath(fromDirectory)), this);
    m_outEdit->setObjectName(QStringLiteral("exportOutEdit"));
    m_outEdit->setMinimumWidth(360);
    m_outEdit->setToolTip(tr("A new folder: the engine never overwrites an existing bundle."));
    auto *browseButton = new QPushButton(tr("Browse…"), this);
    browseButton->setObjectName(QStringLiteral("exportBrowseButton"));
    connect(browseButton, &QPushButton::clicked, this, &ExportDialog::browse);
    auto *outRow = new QHBoxLayout;
    outRow->addWidget(m_outEdit, 1);
    outRow->addWidget(browseButton);

    m_bucketsEdit = new QLineEdit(QStringLiteral("1,4,16"), this);
    m_bucketsEdit->setObjectName(QStringLiteral("exportBucketsEdit"));
    m_bucketsEdit->setPlaceholderText(tr("e.g. 1,4,16"));
    m_bucketsEdit->setToolTip(tr("Batch sizes, separated by commas: one compiled package each."));

    m_dynamicCheck = new QCheckBox(tr("Dynamic batch from"), this);
    m_dynamicCheck->setObjectName(QStringLiteral("exportDynamicCheck"));
    m_dynamicCheck->setToolTip(
        tr("Adds one package whose batch dimension may be any size in this range."));
    m_dynamicMin = new QSpinBox(this);
    m_dynamicMin->setObjectName(QStringLiteral("exportDynamicMin"));
    m_dynamicMin->setRange(1, MaxBatch);
    m_dynamicMin->setValue(1);
    m_dynamicMax = new QSpinBox(this);
    m_dynamicMax->setObjectName(QStringLiteral("exportDynamicMax"));
    m_dynamicMax->setRange(1, MaxBatch);
    m_dynamicMax->setValue(64);
    m_dynamicMin->setEnabled(false);
    m_dynamicMax->setEnabled(false);
    connect(m_dynamicCheck, &QCheckBox::toggled, m_dynamicMin, &QWidget::setEnabled);
    connect(m_dynamicCheck, &QCheckBox::toggled, m_dynamicMax, &QWidget::setEnabled);
    auto *dynamicRow = new QHBoxLayout;
    dynamicRow->addWidget(m_dynamicCheck);
    dynamicRow->addWidget(m_dynamicMin);
    dynamicRow->addWidget(new QLabel(tr("to"), this));
    dynamicRow->addWidget(m_dynamicMax);
    dynamicRow->addStretch(1);

    m_padSafeCheck = new QCheckBox(tr("Rows are independent (padding is safe)"), this);
    m_padSafeCheck->setObjectName(QStringLiteral("exportPadSafeCheck"));
    m_padSafeCheck->setToolTip(
        tr("Lets the runtime answer a batch of 3 with the batch-4 package by padding with zeros. "
           "Leave it off if rows influence each other (e.g. batch normalization in training "
           "mode)."));
    m_zipCheck = new QCheckBox(tr("Also write a .zip"), this);
    m_zipCheck->setObjectName(QStringLiteral("exportZipCheck"));
    m_zipCheck->setChecked(true);

    m_coldStartRuns = new QSpinBox(this);
    m_coldStartRuns->setObjectName(QStringLiteral("exportColdStartRuns"));
    m_coldStartRuns->setRange(0, 50);
    m_coldStartRuns->setValue(3);
    m_coldStartRuns->setSpecialValueText(tr("Do not measure"));
    m_coldStartRuns->setToolTip(
        tr("Fresh processes timed from spawn to first output, bundle against eager PyTorch."));

    auto *form = new QFormLayout;
    form->addRow(tr("Bundle folder:"), outRow);
    form->addRow(tr("Batch buckets:"), m_bucketsEdit);
    form->addRow(QString(), dynamicRow);
    form->addRow(QString(), m_padSafeCheck);
    form->addRow(QString(), m_zipCheck);
    auto *coldRow = new QHBoxLayout; // a count, not a text: keep the box narrow
    coldRow->addWidget(m_coldStartRuns);
    coldRow->addStretch(1);
    form->addRow(tr("Cold-start runs:"), coldRow);

    // Red like the result panel's error box, inside the dialog: no second window for a typo.
    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("exportProblem"));
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral(
        "#exportProblem { background: #fdecea; border: 1px solid #e0a4a0; border-radius: 4px;"
        " color: #611a15; padding: 4px 6px; }"));
    m_problem->hide();

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &ExportDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addSpacing(4);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addStretch(1);
    layout->addWidget(m_buttons);

    connect(m_outEdit, &QLineEdit::textChanged, this, &ExportDialog::validate);
    connect(m_bucketsEdit, &QLineEdit::textChanged, this, &ExportDialog::validate);
    connect(m_dynamicCheck, &QCheckBox::toggled, this, &ExportDialog::validate);
    connect(m_dynamicMin, &QSpinBox::valueChanged, this, &ExportDialog::validate);
    connect(m_dynamicMax, &QSpinBox::valueChanged, this, &ExportDialog::validate);
    validate();
}

std::optional<QList<int>> ExportDialog::parseBuckets(const QString &text)
{
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    QList<int> sizes;
    const QStringList parts = text.split(separators, Qt::SkipEmptyParts);
    for (const QString &part : parts) {
        bool ok = false;
        const int size = part.toInt(&ok);
        if (!ok || size < 1 || size > MaxBatch)
            return std::nullopt;
        if (!sizes.contains(size))
            sizes.append(size);
    }
    std::sort(sizes.begin(), sizes.end());
    return sizes;
}

Client::ExportRequest ExportDialog::request() const
{
    Client::ExportRequest r;
    r.from = m_from;
    r.out = QDir::cleanPath(QDir::fromNativeSeparators(m_outEdit->text().trimmed()));
    r.buckets = parseBuckets(m_bucketsEdit->text()).value_or(QList<int>{});
    if (m_dynamicCheck->isChecked()) {
        r.dynamicBatchMin = m_dynamicMin->value();
        r.dynamicBatchMax = m_dynamicMax->value();
    }
    r.padSafe = m_padSafeCheck->isChecked();
    r.zip = m_zipCheck->isChecked();
    r.coldStartRuns = m_coldStartRuns->value();
    return r;
}

QString ExportDialog::problem() const
{
    const QString out = m_outEdit->text().trimmed();
    if (out.isEmpty())
        return tr("Choose a folder for the bundle.");
    const QString path = QDir::cleanPath(QDir::fromNativeSeparators(out));
    if (QFileInfo::exists(path))
        return tr("%1 already exists. The engine never overwrites a bundle: choose a new folder.")
            .arg(QDir::toNativeSeparators(path));
    if (m_zipCheck->isChecked() && QFileInfo::exists(path + QStringLiteral(".zip")))
        return tr("%1 already exists. Choose another bundle folder or do not write a .zip.")
            .arg(QDir::toNativeSeparators(path + QStringLiteral(".zip")));
    const auto buckets = parseBuckets(m_bucketsEdit->text());
    if (!buckets)
        return tr("Batch buckets must be whole numbers from 1 to %1, separated by commas "
                  "(e.g. 1,4,16).")
            .arg(MaxBatch);
    if (buckets->isEmpty() && !m_dynamicCheck->isChecked())
        return tr("Give at least one batch bucket or a dynamic batch range.");
    if (m_dynamicCheck->isChecked() && m_dynamicMin->value() > m_dynamicMax->value())
        return tr("The dynamic batch range must run from a smaller to a larger size.");
    return QString();
}

void ExportDialog::validate()
{
    const QString text = problem();
    m_problem->setText(text);
    m_problem->setVisible(!text.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(text.isEmpty());
}

void ExportDialog::accept()
{
    validate(); // the folder may have appeared since the last edit
    if (!problem().isEmpty())
        return;
    QDialog::accept();
}

void ExportDialog::browse()
{
    // The bundle folder must not exist yet: pick its parent, keep the name typed so far.
    const QFileInfo current(QDir::fromNativeSeparators(m_outEdit->text().trimmed()));
    const QString parent = QFileDialog::getExistingDirectory(
        this, tr("Folder to create the bundle in"), current.absolutePath());
    if (parent.isEmpty())
        return;
    const QString name = current.fileName().isEmpty() ? QFileInfo(m_from).fileName()
                                                             + QStringLiteral("-bundle")
                                                       : current.fileName();
    m_outEdit->setText(QDir::toNativeSeparators(QDir(parent).filePath(name)));
}

} // namespace AotStudio::Widgets
