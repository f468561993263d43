// SPDX-License-Identifier: GPL-3.0-or-later
#include "inputsdialog.h"

#include "client/engineclient.h"
#include "client/engineerror.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace AotStudio::Widgets {

namespace {

constexpr int kMaxSize = 1 << 24;

/// An input name `dynamic` takes as INPUT (options.py _INPUT_NAME); others go by index.
bool usableName(const QString &name)
{
    static const QRegularExpression form(QStringLiteral(R"(^[A-Za-z_][A-Za-z0-9_.\[\]']*$)"));
    return form.match(name).hasMatch();
}

QString shapeText(const QJsonArray &shape)
{
    QStringList sizes;
    for (const QJsonValue &d : shape)
        sizes.append(QString::number(d.toInteger()));
    return QLatin1Char('[') + sizes.join(QStringLiteral(", ")) + QLatin1Char(']');
}

/// "101..29215" or "-3.08..2.43 (mean 0.0187, std 1.03)"; empty when the engine gave no range.
QString rangeText(const QJsonObject &input)
{
    const QJsonValue lo = input.value(QLatin1String("min")), hi = input.value(QLatin1String("max"));
    if (!lo.isDouble() || !hi.isDouble())
        return {};
    QString text = QStringLiteral("%1..%2").arg(lo.toDouble(), 0, 'g', 4).arg(hi.toDouble(), 0, 'g', 4);
    if (input.value(QLatin1String("mean")).isDouble())
        text += QStringLiteral(" (mean %1, std %2)")
                    .arg(input.value(QLatin1String("mean")).toDouble(), 0, 'g', 3)
                    .arg(input.value(QLatin1String("std")).toDouble(), 0, 'g', 3);
    return text;
}

/// One "INPUT:DIM[:MIN:MAX][=NAME]" entry read back (the parts the dialog shows); false when it
/// cannot be read.
bool parseDynamic(const QString &spec, QString &input, int &dim, int &lo, int &hi, QString &tie)
{
    static const QRegularExpression form(
        QStringLiteral(R"(^([^:=]+):(\d+)(?::(\d+):(\d+))?(?:=([A-Za-z_][A-Za-z0-9_]*))?$)"));
    const auto m = form.match(spec.trimmed());
    if (!m.hasMatch())
        return false;
    input = m.captured(1);
    dim = m.captured(2).toInt();
    lo = m.captured(3).isEmpty() ? -1 : m.captured(3).toInt();
    hi = m.captured(4).isEmpty() ? -1 : m.captured(4).toInt();
    tie = m.captured(5);
    return true;
}

} // namespace

InputsDialog::InputsDialog(Client::EngineClient *client, const QString &model, const QString &device,
                           const RunSettings &settings, QWidget *parent)
    : QDialog(parent)
    , m_client(client)
    , m_model(model)
    , m_device(device)
    , m_dtype(settings.dtype)
    , m_settings(settings)
    , m_summary(new QLabel(this))
    , m_signature(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_stage(new QLabel(this))
    , m_cancelRequest(new QPushButton(tr("Cancel"), this))
    , m_error(new QLabel(this))
    , m_table(new QTableWidget(0, ColumnCount, this))
    , m_outputs(new QLabel(this))
    , m_check(new QPushButton(tr("Check Shapes"), this))
    , m_ok(nullptr)
{
    setObjectName(QStringLiteral("inputsDialog"));
    setWindowTitle(tr("Inputs of %1").arg(model));
    m_summary->setObjectName(QStringLiteral("inputsSummary"));
    m_summary->setText(tr("%1 on %2, %3").arg(model, device, m_dtype));
    m_signature->setObjectName(QStringLiteral("inputsSignature"));
    m_signature->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress->setObjectName(QStringLiteral("inputsProgress"));
    m_progress->setRange(0, 0); // the load stage has no steps of its own: busy until it answers
    m_cancelRequest->setObjectName(QStringLiteral("inputsCancelRequest"));
    m_cancelRequest->setToolTip(tr("Stop building the model"));
    connect(m_cancelRequest, &QPushButton::clicked, this, &InputsDialog::cancelRequest);
    m_error->setObjectName(QStringLiteral("inputsError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("color: #a40000;"));
    m_error->hide();

    m_table->setObjectName(QStringLiteral("inputsTable"));
    m_table->setHorizontalHeaderLabels({tr("Input"), tr("Type"), tr("Dim"), tr("Size"), tr("Dynamic"), tr("Min"),
                                        tr("Max"), tr("Tie name")});
    m_table->horizontalHeaderItem(TieColumn)
        ->setToolTip(tr("Dynamic dimensions of one name are one dimension (e.g. the batch of every input)"));
    m_table->verticalHeader()->hide();
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);

    m_outputs->setObjectName(QStringLiteral("inputsOutputs"));
    m_outputs->setWordWrap(true);
    m_outputs->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *hint = new QLabel(tr("Sizes change the example inputs every job of this model starts from (their values "
                               "are repeated or cut, so token ids and masks keep their range). Inputs that share a "
                               "dimension, such as ids and their attention mask, must be changed together. A "
                               "dynamic range must hold the example's size; dimensions of one tie name share one "
                               "range."),
                            this);
    hint->setWordWrap(true);

    m_check->setObjectName(QStringLiteral("checkShapesButton"));
    m_check->setToolTip(tr("Build the inputs again at the edited shapes and run the model once"));
    m_check->setEnabled(false);
    connect(m_check, &QPushButton::clicked, this, &InputsDialog::checkShapes);
    auto *reset = new QPushButton(tr("Model's Shapes"), this);
    reset->setObjectName(QStringLiteral("resetShapesButton"));
    reset->setToolTip(tr("Put every size back to the model's own example"));
    connect(reset, &QPushButton::clicked, this, [this] {
        for (int row = 0; row < m_table->rowCount(); ++row) {
            const int input = m_table->item(row, DimColumn)->data(Qt::UserRole).toInt();
            const int dim = m_table->item(row, DimColumn)->data(Qt::UserRole + 1).toInt();
            const auto shape = m_example.at(input).toObject().value(QLatin1String("shape")).toArray();
            static_cast<QSpinBox *>(m_table->cellWidget(row, SizeColumn))->setValue(shape.at(dim).toInt());
        }
    });

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setEnabled(false);
    buttons->addButton(m_check, QDialogButtonBox::ActionRole);
    buttons->addButton(reset, QDialogButtonBox::ResetRole);
    connect(buttons, &QDialogButtonBox::accepted, this, &InputsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &InputsDialog::reject);

    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_stage);
    progressRow->addWidget(m_cancelRequest);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_signature);
    layout->addLayout(progressRow);
    layout->addWidget(m_error);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_outputs);
    layout->addWidget(hint);
    layout->addWidget(buttons);
    resize(760, 420);

    connect(client, &Client::EngineClient::progress, this,
            [this](qint64 id, const QString &, double, const QString &message) {
                if (id == m_requestId && id != 0)
                    m_stage->setText(message);
            });
    connect(client, &Client::EngineClient::resultReceived, this, &InputsDialog::onResult);
    connect(client, &Client::EngineClient::errorReceived, this, &InputsDialog::onError);
    // The model's own example first: the saved shapes are filled in over it.
    send(QJsonObject());
}

InputsDialog::~InputsDialog()
{
    cancelRequest();
}

void InputsDialog::send(const QJsonObject &shapes)
{
    QJsonObject body{{QLatin1String("model"), m_model},
                     {QLatin1String("device"), m_device},
                     {QLatin1String("dtype"), m_dtype}};
    if (!shapes.isEmpty())
        body.insert(QLatin1String("shapes"), shapes);
    m_error->hide();
    m_requestId = m_client ? m_client->submitJob(QStringLiteral("inputs"), body) : 0;
    if (m_requestId == 0) {
        m_error->setText(tr("The engine is not running: start it (Engine → Restart engine) and open this again."));
        m_error->show();
        setBusy(false);
        return;
    }
    m_stage->setText(tr("Building the model and its example inputs…"));
    setBusy(true);
}

void InputsDialog::cancelRequest()
{
    if (m_requestId == 0)
        return;
    const qint64 id = m_requestId;
    m_requestId = 0;
    if (m_client)
        m_client->cancel(id);
    setBusy(false);
    m_stage->setText(tr("Cancelled"));
}

void InputsDialog::setBusy(bool busy)
{
    m_progress->setVisible(busy);
    m_cancelRequest->setVisible(busy);
    m_stage->setVisible(busy || !m_filled);
    m_check->setEnabled(!busy && m_filled);
    m_ok->setEnabled(!busy && m_filled);
    m_table->setEnabled(!busy);
}

void InputsDialog::onResult(qint64 id, const QJsonObject &result)
{
    if (id == 0 || id != m_requestId)
        return;
    m_requestId = 0;
    m_signature->setText(result.value(QLatin1String("signature")).toString());
    const qint64 parameters = result.value(QLatin1String("parameters")).toInteger(-1);
    if (parameters >= 0)
        m_summary->setText(
            tr("%1 on %2, %3; parameters: %4").arg(m_model, m_device, m_dtype, QLocale().toString(parameters)));
    if (!m_filled) {
        m_example = result.value(QLatin1String("inputs")).toArray();
        fillTable(m_example);
        applySettings(m_settings);
        m_filled = true;
    }
    showOutputs(result);
    setBusy(false);
}

void InputsDialog::onError(qint64 id, const Client::EngineError &error)
{
    if (id == 0 || id != m_requestId)
        return;
    m_requestId = 0;
    m_error->setText(error.hint.isEmpty() ? error.message : tr("%1\nHint: %2").arg(error.message, error.hint));
    m_error->show();
    if (!m_filled)
        m_stage->setText(tr("The engine could not build the inputs."));
    setBusy(false);
}

void InputsDialog::fillTable(const QJsonArray &inputs)
{
    int rows = 0;
    for (const QJsonValue &v : inputs)
        rows += std::max<int>(1, v.toObject().value(QLatin1String("shape")).toArray().size());
    m_table->setRowCount(rows);
    int row = 0;
    for (int i = 0; i < inputs.size(); ++i) {
        const QJsonObject input = inputs.at(i).toObject();
        const QString name = input.value(QLatin1String("name")).toString();
        const QJsonArray shape = input.value(QLatin1String("shape")).toArray();
        const QString dtype = input.value(QLatin1String("dtype")).toString();
        const QString kind = input.value(QLatin1String("kind")).toString();
        const QString range = rangeText(input);
        const int dims = std::max<int>(1, shape.size());
        for (int d = 0; d < dims; ++d, ++row) {
            auto *nameItem = new QTableWidgetItem(d == 0 ? name : QString());
            nameItem->setFlags(Qt::ItemIsEnabled);
            nameItem->setToolTip(tr("%1 %2 %3").arg(name, shapeText(shape), dtype));
            m_table->setItem(row, InputColumn, nameItem);
            auto *typeItem = new QTableWidgetItem(d == 0 ? (kind.isEmpty() ? dtype : tr("%1 (%2)").arg(dtype, kind)) : QString());
            typeItem->setFlags(Qt::ItemIsEnabled);
            typeItem->setToolTip(range.isEmpty() ? QString() : tr("Values %1").arg(range));
            m_table->setItem(row, TypeColumn, typeItem);
            auto *dimItem = new QTableWidgetItem(shape.isEmpty() ? tr("scalar") : QString::number(d));
            dimItem->setFlags(Qt::ItemIsEnabled);
            dimItem->setData(Qt::UserRole, i);
            dimItem->setData(Qt::UserRole + 1, d);
            dimItem->setData(Qt::UserRole + 2, name);
            m_table->setItem(row, DimColumn, dimItem);
            if (shape.isEmpty())
                continue; // a scalar: nothing to resize or make dynamic
            const int example = shape.at(d).toInt();
            auto *size = new QSpinBox(m_table);
            size->setRange(1, kMaxSize);
            size->setValue(example);
            size->setToolTip(tr("Size of dimension %1 of %2 (the model's example: %3)").arg(d).arg(name).arg(example));
            m_table->setCellWidget(row, SizeColumn, size);
            auto *dynamicBox = new QCheckBox(m_table);
            dynamicBox->setToolTip(tr("Make dimension %1 of %2 dynamic in the exported program").arg(d).arg(name));
            m_table->setCellWidget(row, DynamicColumn, dynamicBox);
            auto *lo = new QSpinBox(m_table);
            lo->setRange(0, kMaxSize);
            lo->setValue(1);
            lo->setEnabled(false);
            m_table->setCellWidget(row, MinColumn, lo);
            auto *hi = new QSpinBox(m_table);
            hi->setRange(1, kMaxSize);
            hi->setValue(std::min(kMaxSize, 2 * example));
            hi->setEnabled(false);
            m_table->setCellWidget(row, MaxColumn, hi);
            auto *tie = new QLineEdit(m_table);
            tie->setValidator(new QRegularExpressionValidator(
                QRegularExpression(QStringLiteral("[A-Za-z_][A-Za-z0-9_]*")), tie));
            tie->setPlaceholderText(d == 0 ? QStringLiteral("batch") : QString());
            tie->setEnabled(false);
            m_table->setCellWidget(row, TieColumn, tie);
            connect(dynamicBox, &QCheckBox::toggled, this, [this, row, size, lo, hi, tie, d](bool on) {
                lo->setEnabled(on);
                hi->setEnabled(on);
                tie->setEnabled(on);
                if (!on)
                    return;
                // Dimension 0 of every input is one batch; a dimension joins the range its name
                // already has, else 1 to twice its size.
                if (d == 0 && tie->text().isEmpty())
                    tie->setText(QStringLiteral("batch"));
                int from = -1;
                for (int other = 0; other < m_table->rowCount() && !tie->text().isEmpty(); ++other) {
                    const auto *box = qobject_cast<QCheckBox *>(m_table->cellWidget(other, DynamicColumn));
                    if (other != row && box && box->isChecked()
                        && static_cast<QLineEdit *>(m_table->cellWidget(other, TieColumn))->text() == tie->text()) {
                        from = other;
                        break;
                    }
                }
                m_syncing = true;
                lo->setValue(from < 0 ? 1 : static_cast<QSpinBox *>(m_table->cellWidget(from, MinColumn))->value());
                hi->setValue(from < 0 ? std::min(kMaxSize, std::max(2, 2 * size->value()))
                                      : static_cast<QSpinBox *>(m_table->cellWidget(from, MaxColumn))->value());
                m_syncing = false;
            });
            connect(lo, &QSpinBox::valueChanged, this, [this, row] { syncTie(row); });
            connect(hi, &QSpinBox::valueChanged, this, [this, row] { syncTie(row); });
        }
    }
    m_table->resizeColumnsToContents();
}

int InputsDialog::rowOf(const QString &input, int dim) const
{
    bool isIndex = false;
    const int index = input.toInt(&isIndex);
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QTableWidgetItem *item = m_table->item(row, DimColumn);
        if (item->data(Qt::UserRole + 1).toInt() != dim)
            continue;
        if ((isIndex && item->data(Qt::UserRole).toInt() == index) || item->data(Qt::UserRole + 2).toString() == input)
            return row;
    }
    return -1;
}

void InputsDialog::syncTie(int row)
{
    const auto *box = qobject_cast<QCheckBox *>(m_table->cellWidget(row, DynamicColumn));
    const QString tie = qobject_cast<QLineEdit *>(m_table->cellWidget(row, TieColumn))->text().trimmed();
    if (!box || !box->isChecked() || tie.isEmpty() || m_syncing)
        return;
    m_syncing = true;
    const int lo = static_cast<QSpinBox *>(m_table->cellWidget(row, MinColumn))->value();
    const int hi = static_cast<QSpinBox *>(m_table->cellWidget(row, MaxColumn))->value();
    for (int other = 0; other < m_table->rowCount(); ++other) {
        const auto *otherBox = qobject_cast<QCheckBox *>(m_table->cellWidget(other, DynamicColumn));
        if (other == row || !otherBox || !otherBox->isChecked()
            || static_cast<QLineEdit *>(m_table->cellWidget(other, TieColumn))->text().trimmed() != tie)
            continue;
        static_cast<QSpinBox *>(m_table->cellWidget(other, MinColumn))->setValue(lo);
        static_cast<QSpinBox *>(m_table->cellWidget(other, MaxColumn))->setValue(hi);
    }
    m_syncing = false;
}

void InputsDialog::applySettings(const RunSettings &settings)
{
    const QJsonObject shapes = settings.shapes(m_model);
    for (auto it = shapes.begin(); it != shapes.end(); ++it) {
        const QJsonArray sizes = it.value().toArray();
        for (int d = 0; d < sizes.size(); ++d) {
            const int row = rowOf(it.key(), d);
            if (row >= 0 && m_table->cellWidget(row, SizeColumn))
                static_cast<QSpinBox *>(m_table->cellWidget(row, SizeColumn))->setValue(sizes.at(d).toInt());
        }
    }
    for (const QString &spec : settings.dynamic(m_model)) {
        QString input, tie;
        int dim = 0, lo = -1, hi = -1;
        if (!parseDynamic(spec, input, dim, lo, hi, tie))
            continue;
        const int row = rowOf(input, dim);
        if (row < 0 || !m_table->cellWidget(row, DynamicColumn))
            continue;
        static_cast<QLineEdit *>(m_table->cellWidget(row, TieColumn))->setText(tie); // before the check's defaults
        static_cast<QCheckBox *>(m_table->cellWidget(row, DynamicColumn))->setChecked(true);
        if (lo >= 0) {
            static_cast<QSpinBox *>(m_table->cellWidget(row, MinColumn))->setValue(lo);
            static_cast<QSpinBox *>(m_table->cellWidget(row, MaxColumn))->setValue(hi);
        }
    }
}

void InputsDialog::showOutputs(const QJsonObject &result)
{
    QStringList parts;
    for (const QJsonValue &v : result.value(QLatin1String("outputs")).toArray()) {
        const QJsonObject o = v.toObject();
        parts.append(tr("%1 %2 %3")
                         .arg(o.value(QLatin1String("name")).toString(), shapeText(o.value(QLatin1String("shape")).toArray()),
                              o.value(QLatin1String("dtype")).toString()));
    }
    const QJsonObject asked = result.value(QLatin1String("shapes")).toObject();
    m_outputs->setText(parts.isEmpty() ? QString()
                       : asked.isEmpty()
                           ? tr("Outputs of one eager forward: %1").arg(parts.join(QStringLiteral(", ")))
                           : tr("At the edited shapes the model ran: %1").arg(parts.join(QStringLiteral(", "))));
}

QJsonObject InputsDialog::shapes() const
{
    QJsonObject out;
    for (int i = 0; i < m_example.size(); ++i) {
        const QJsonObject input = m_example.at(i).toObject();
        const QJsonArray example = input.value(QLatin1String("shape")).toArray();
        const QString name = input.value(QLatin1String("name")).toString();
        QJsonArray edited;
        for (int d = 0; d < example.size(); ++d) {
            const int row = rowOf(QString::number(i), d);
            const auto *size = row >= 0 ? qobject_cast<QSpinBox *>(m_table->cellWidget(row, SizeColumn)) : nullptr;
            edited.append(size ? size->value() : example.at(d).toInt());
        }
        if (edited != example)
            out.insert(usableName(name) ? name : QString::number(i), edited);
    }
    return out;
}

QStringList InputsDialog::dynamic() const
{
    QStringList out;
    QHash<QString, QPair<int, int>> ranges; // a tie name's range: the first dimension's
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const auto *box = qobject_cast<QCheckBox *>(m_table->cellWidget(row, DynamicColumn));
        if (!box || !box->isChecked())
            continue;
        const QTableWidgetItem *item = m_table->item(row, DimColumn);
        const QString name = item->data(Qt::UserRole + 2).toString();
        const QString input = usableName(name) ? name : QString::number(item->data(Qt::UserRole).toInt());
        const int dim = item->data(Qt::UserRole + 1).toInt();
        QPair<int, int> range{static_cast<QSpinBox *>(m_table->cellWidget(row, MinColumn))->value(),
                              static_cast<QSpinBox *>(m_table->cellWidget(row, MaxColumn))->value()};
        const QString tie = static_cast<QLineEdit *>(m_table->cellWidget(row, TieColumn))->text().trimmed();
        if (!tie.isEmpty()) {
            range = ranges.value(tie, range);
            ranges.insert(tie, range);
        }
        out.append(QStringLiteral("%1:%2:%3:%4").arg(input).arg(dim).arg(range.first).arg(range.second)
                   + (tie.isEmpty() ? QString() : QLatin1Char('=') + tie));
    }
    return out;
}

QString InputsDialog::problem() const
{
    QHash<QString, QPair<int, int>> ranges;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const auto *box = qobject_cast<QCheckBox *>(m_table->cellWidget(row, DynamicColumn));
        if (!box || !box->isChecked())
            continue;
        const QTableWidgetItem *item = m_table->item(row, DimColumn);
        const QString name = item->data(Qt::UserRole + 2).toString();
        const int dim = item->data(Qt::UserRole + 1).toInt();
        const int size = static_cast<QSpinBox *>(m_table->cellWidget(row, SizeColumn))->value();
        QPair<int, int> range{static_cast<QSpinBox *>(m_table->cellWidget(row, MinColumn))->value(),
                              static_cast<QSpinBox *>(m_table->cellWidget(row, MaxColumn))->value()};
        const QString tie = static_cast<QLineEdit *>(m_table->cellWidget(row, TieColumn))->text().trimmed();
        if (!tie.isEmpty()) {
            range = ranges.value(tie, range);
            ranges.insert(tie, range);
        }
        if (range.first > range.second)
            return tr("Dimension %1 of %2: the minimum %3 is above the maximum %4.")
                .arg(dim)
                .arg(name)
                .arg(range.first)
                .arg(range.second);
        if (size < range.first || size > range.second)
            return tr("Dimension %1 of %2: its size %3 is outside its dynamic range %4..%5%6.")
                .arg(dim)
                .arg(name)
                .arg(size)
                .arg(range.first)
                .arg(range.second)
                .arg(tie.isEmpty() ? QString() : tr(" (the range of “%1”)").arg(tie));
    }
    return {};
}

void InputsDialog::checkShapes()
{
    send(shapes());
}

void InputsDialog::accept()
{
    if (const QString why = problem(); !why.isEmpty()) {
        m_error->setText(why);
        m_error->show();
        return;
    }
    cancelRequest();
    QDialog::accept();
}

void InputsDialog::reject()
{
    cancelRequest();
    QDialog::reject();
}

} // namespace AotStudio::Widgets
