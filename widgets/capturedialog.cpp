// SPDX-License-Identifier: GPL-3.0-or-later
#include "capturedialog.h"

#include "capturehistogram.h"
#include "numberformat.h"

#include "bundle/bundle.h"
#include "client/engineclient.h"
#include "client/engineerror.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace AotStudio::Widgets {

namespace {

constexpr int kMaxSize = 1 << 24;

/// "INPUT:DIM:MIN:MAX=NAME" (the proposal's `dynamic` entries), split; false when it is not one.
bool splitEntry(const QString &entry, QString &head, long long &lo, long long &hi, QString &name)
{
    static const QRegularExpression form(QStringLiteral(R"(^(.+:\d+):(\d+):(\d+)=([A-Za-z_][A-Za-z0-9_]*)$)"));
    const auto m = form.match(entry);
    if (!m.hasMatch())
        return false;
    head = m.captured(1);
    lo = m.captured(2).toLongLong();
    hi = m.captured(3).toLongLong();
    name = m.captured(4);
    return true;
}

QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const auto &x : v.toArray())
        out << x.toString();
    return out;
}

} // namespace

CaptureDialog::CaptureDialog(Client::EngineClient *client, const QString &model, const QString &out, QWidget *parent)
    : QDialog(parent)
    , m_client(client)
    , m_model(model)
    , m_script(new QLineEdit(this))
    , m_args(new QLineEdit(this))
    , m_moduleKind(new QComboBox(this))
    , m_module(new QLineEdit(this))
    , m_calls(new QSpinBox(this))
    , m_keep(new QSpinBox(this))
    , m_maxSeconds(new QDoubleSpinBox(this))
    , m_out(new QLineEdit(out, this))
    , m_record(new QPushButton(tr("Record"), this))
    , m_progress(new QProgressBar(this))
    , m_count(new QLabel(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_error(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_scroll(new QScrollArea(this))
    , m_dims(nullptr)
    , m_warnings(new QLabel(this))
    , m_compile(new QPushButton(tr("Compile from Capture"), this))
    , m_export(new QPushButton(tr("Export from Capture"), this))
{
    setObjectName(QStringLiteral("captureDialog"));
    setWindowTitle(tr("Capture From Script"));
    m_script->setObjectName(QStringLiteral("captureScript"));
    m_script->setPlaceholderText(tr("the Python script that serves the model, e.g. app.py"));
    auto *browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Script to Run"), m_script->text(),
                                                          tr("Python scripts (*.py);;All files (*)"));
        if (!path.isEmpty())
            m_script->setText(path);
    });
    auto *scriptRow = new QHBoxLayout;
    scriptRow->addWidget(m_script, 1);
    scriptRow->addWidget(browse);
    m_args->setObjectName(QStringLiteral("captureArgs"));
    m_args->setPlaceholderText(tr("the script's arguments, as on a command line"));
    m_moduleKind->setObjectName(QStringLiteral("captureModuleKind"));
    m_moduleKind->addItem(tr("Attribute path"), QStringLiteral("module"));
    m_moduleKind->addItem(tr("Class"), QStringLiteral("module_class"));
    m_moduleKind->setToolTip(tr("Attribute path: from a global of the script (model, pipe.unet). Class: the one "
                                "instance of a qualified class that is called (pkg.mod.Encoder)."));
    m_module->setObjectName(QStringLiteral("captureModule"));
    m_module->setPlaceholderText(tr("model"));
    auto *moduleRow = new QHBoxLayout;
    moduleRow->addWidget(m_moduleKind);
    moduleRow->addWidget(m_module, 1);
    m_calls->setObjectName(QStringLiteral("captureCalls"));
    m_calls->setRange(0, 100000000);
    m_calls->setSpecialValueText(tr("all"));
    m_calls->setToolTip(tr("Stop recording after this many calls (the script keeps running)"));
    m_keep->setObjectName(QStringLiteral("captureKeep"));
    m_keep->setRange(0, 1000);
    m_keep->setValue(2);
    m_keep->setToolTip(tr("Calls kept per input signature (reservoir-sampled over the run): verify runs the "
                          "package on them"));
    m_maxSeconds->setObjectName(QStringLiteral("captureMaxSeconds"));
    m_maxSeconds->setRange(0, 86400);
    m_maxSeconds->setDecimals(0);
    m_maxSeconds->setSpecialValueText(tr("no limit"));
    m_maxSeconds->setSuffix(tr(" s"));
    m_maxSeconds->setToolTip(tr("Stop the script after this many seconds; what was recorded is kept"));
    m_out->setObjectName(QStringLiteral("captureOut"));
    auto *outBrowse = new QPushButton(tr("Browse…"), this);
    connect(outBrowse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getExistingDirectory(this, tr("Folder for the Record"), m_out->text());
        if (!path.isEmpty())
            m_out->setText(path);
    });
    auto *outRow = new QHBoxLayout;
    outRow->addWidget(m_out, 1);
    outRow->addWidget(outBrowse);

    auto *form = new QFormLayout;
    form->addRow(tr("Script:"), scriptRow);
    form->addRow(tr("Arguments:"), m_args);
    form->addRow(tr("Module:"), moduleRow);
    form->addRow(tr("Calls:"), m_calls);
    form->addRow(tr("Keep inputs:"), m_keep);
    form->addRow(tr("Max time:"), m_maxSeconds);
    form->addRow(tr("Record folder:"), outRow);

    m_record->setObjectName(QStringLiteral("captureRecord"));
    m_record->setToolTip(tr("Run the script with the engine's Python and record every call of the module"));
    connect(m_record, &QPushButton::clicked, this, &CaptureDialog::record);
    m_progress->setObjectName(QStringLiteral("captureProgress"));
    m_progress->setRange(0, 0);
    m_count->setObjectName(QStringLiteral("captureCount"));
    m_cancel->setObjectName(QStringLiteral("captureCancel"));
    m_cancel->setToolTip(tr("Stop the script; the calls recorded so far are kept"));
    connect(m_cancel, &QPushButton::clicked, this, &CaptureDialog::cancelRequest);
    auto *runRow = new QHBoxLayout;
    runRow->addWidget(m_record);
    runRow->addWidget(m_progress, 1);
    runRow->addWidget(m_count);
    runRow->addWidget(m_cancel);

    m_error->setObjectName(QStringLiteral("captureError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("color: #a40000;"));
    m_error->hide();
    m_summary->setObjectName(QStringLiteral("captureSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warnings->setObjectName(QStringLiteral("captureWarnings"));
    m_warnings->setWordWrap(true);
    m_warnings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warnings->hide();

    m_scroll->setObjectName(QStringLiteral("captureDims"));
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->hide();

    m_compile->setObjectName(QStringLiteral("captureCompile"));
    m_compile->setToolTip(tr("Compile %1 with these dynamic ranges; verify runs the package on every recorded shape")
                              .arg(model));
    m_export->setObjectName(QStringLiteral("captureExport"));
    m_export->setToolTip(tr("Export a bundle of %1 with these buckets").arg(model));
    connect(m_compile, &QPushButton::clicked, this, [this] {
        Q_EMIT compileRequested(m_folder, dynamic());
        accept();
    });
    connect(m_export, &QPushButton::clicked, this, [this] {
        Q_EMIT exportRequested(m_folder, buckets(), padSafe(), exportDynamic());
        accept();
    });
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_compile, QDialogButtonBox::ActionRole);
    buttons->addButton(m_export, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &CaptureDialog::reject);
    auto *modelNote = new QLabel(tr("Compile and export use the window's model: %1").arg(model), this);
    modelNote->setObjectName(QStringLiteral("captureModel"));
    modelNote->setWordWrap(true);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(runRow);
    layout->addWidget(m_error);
    layout->addWidget(m_summary);
    layout->addWidget(m_scroll, 1);
    layout->addWidget(m_warnings);
    layout->addWidget(modelNote);
    layout->addWidget(buttons);
    resize(760, 640);
    clearResult();
    setBusy(false);

    if (client) {
        connect(client, &Client::EngineClient::progress, this,
                [this](qint64 id, const QString &, double, const QString &message) {
                    if (id == 0 || id != m_requestId)
                        return;
                    // The engine says "N calls recorded" while the script runs, in English: the count, translated.
                    static const QRegularExpression count(QStringLiteral(R"(^(\d+) calls recorded)"));
                    const auto m = count.match(message);
                    m_count->setText(m.hasMatch() ? tr("%n call(s) recorded", nullptr, m.captured(1).toInt()) : message);
                });
        connect(client, &Client::EngineClient::resultReceived, this, [this](qint64 id, const QJsonObject &result) {
            if (id == 0 || id != m_requestId)
                return;
            m_requestId = 0;
            setBusy(false);
            showResult(result);
        });
        connect(client, &Client::EngineClient::errorReceived, this, &CaptureDialog::onError);
    }
}

CaptureDialog::~CaptureDialog()
{
    cancelRequest();
}

void CaptureDialog::setScript(const QString &script, const QString &module, bool moduleIsClass)
{
    m_script->setText(script);
    m_module->setText(module);
    m_moduleKind->setCurrentIndex(moduleIsClass ? 1 : 0);
}

QString CaptureDialog::problem() const
{
    if (m_script->text().trimmed().isEmpty())
        return tr("Choose the script to run.");
    if (m_module->text().trimmed().isEmpty())
        return tr("Name the module to record: an attribute path from a global of the script, or its class.");
    if (m_out->text().trimmed().isEmpty())
        return tr("Choose a folder for the record.");
    return {};
}

QJsonObject CaptureDialog::request() const
{
    if (!problem().isEmpty())
        return {};
    QJsonObject body{{QLatin1String("script"), m_script->text().trimmed()},
                     {m_moduleKind->currentData().toString(), m_module->text().trimmed()},
                     {QLatin1String("out"), m_out->text().trimmed()},
                     {QLatin1String("keep_inputs"), std::max(1, m_keep->value())}};
    const QStringList args = QProcess::splitCommand(m_args->text());
    if (!args.isEmpty())
        body.insert(QLatin1String("args"), QJsonArray::fromStringList(args));
    if (m_calls->value() > 0)
        body.insert(QLatin1String("calls"), m_calls->value());
    if (m_maxSeconds->value() > 0)
        body.insert(QLatin1String("max_seconds"), m_maxSeconds->value());
    return body;
}

void CaptureDialog::record()
{
    const QString why = problem();
    if (!why.isEmpty()) {
        m_error->setText(why);
        m_error->show();
        return;
    }
    m_error->hide();
    clearResult();
    m_requestId = m_client ? m_client->submitJob(QStringLiteral("capture"), request()) : 0;
    if (m_requestId == 0) {
        m_error->setText(tr("The engine is not running: start it (Engine → Restart engine) and try again."));
        m_error->show();
        return;
    }
    m_count->setText(tr("Starting the script…"));
    setBusy(true);
}

void CaptureDialog::cancelRequest()
{
    if (m_requestId == 0)
        return;
    const qint64 id = m_requestId;
    m_requestId = 0;
    if (m_client)
        m_client->cancel(id);
    setBusy(false);
    m_count->setText(tr("Cancelled: the calls recorded so far are in %1").arg(m_out->text()));
}

void CaptureDialog::reject()
{
    cancelRequest();
    QDialog::reject();
}

void CaptureDialog::setBusy(bool busy)
{
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    m_record->setEnabled(!busy);
    const bool ready = !busy && !m_proposal.isEmpty();
    m_compile->setEnabled(ready && m_proposal.value(QLatin1String("compile")).isObject());
    m_export->setEnabled(ready && !buckets().isEmpty());
}

void CaptureDialog::onError(qint64 id, const Client::EngineError &error)
{
    if (id == 0 || id != m_requestId)
        return;
    m_requestId = 0;
    setBusy(false);
    m_error->setText(error.hint.isEmpty() ? error.message : tr("%1\nHint: %2").arg(error.message, error.hint));
    m_error->show();
    m_count->clear();
}

void CaptureDialog::clearResult()
{
    m_proposal = {};
    m_folder.clear();
    m_histograms.clear();
    m_ranges.clear();
    m_batch = nullptr;
    m_bucketEdit = nullptr;
    m_padSafe = nullptr;
    m_bucketLabel = nullptr;
    m_bucketText.clear();
    auto *content = new QWidget;
    m_dims = new QVBoxLayout(content);
    m_scroll->setWidget(content); // deletes the previous result's widgets
    m_scroll->hide();
    m_summary->clear();
    m_warnings->clear();
    m_warnings->hide();
}

void CaptureDialog::showResult(const QJsonObject &result)
{
    clearResult();
    m_folder = result.value(QLatin1String("out")).toString();
    m_proposal = result.value(QLatin1String("proposal")).toObject();
    const QJsonObject summary = result.value(QLatin1String("summary")).toObject();
    m_summary->setText(tr("%n call(s) recorded, %1 distinct input signature(s), in %2.", nullptr,
                          summary.value(QLatin1String("calls")).toInt())
                           .arg(summary.value(QLatin1String("signatures")).toInt())
                           .arg(m_folder)
                       + QLatin1Char(' ') + summary.value(QLatin1String("message")).toString());
    m_count->setText(tr("%n call(s) recorded", nullptr, summary.value(QLatin1String("calls")).toInt()));

    const QJsonObject buckets = m_proposal.value(QLatin1String("buckets")).toObject();
    const QString batchName = buckets.value(QLatin1String("dimension")).toString();
    for (const auto &v : m_proposal.value(QLatin1String("dims")).toArray()) {
        const QJsonObject dim = v.toObject();
        auto *hist = new CaptureHistogram(dim);
        auto *lo = new QSpinBox;
        auto *hi = new QSpinBox;
        const bool inSpec = dim.value(QLatin1String("in_spec")).toBool(true);
        for (auto *box : {lo, hi}) {
            box->setRange(1, kMaxSize);
            box->setEnabled(inSpec);
        }
        lo->setObjectName(QStringLiteral("captureMin_") + hist->name());
        hi->setObjectName(QStringLiteral("captureMax_") + hist->name());
        lo->setValue(int(inSpec ? hist->rangeMin() : dim.value(QLatin1String("min")).toInteger()));
        hi->setValue(int(inSpec ? hist->rangeMax() : dim.value(QLatin1String("max")).toInteger()));
        lo->setToolTip(tr("Smallest size the package takes (torch.export specialises 0 and 1: at least 2)"));
        hi->setToolTip(tr("Largest size the package takes"));
        const auto update = [this, hist, lo, hi] {
            hist->setRange(lo->value(), hi->value());
            updateBuckets();
        };
        connect(lo, &QSpinBox::valueChanged, this, update);
        connect(hi, &QSpinBox::valueChanged, this, update);
        auto *controls = new QHBoxLayout;
        controls->addWidget(new QLabel(tr("Range:")));
        controls->addWidget(lo);
        controls->addWidget(new QLabel(QStringLiteral("–")));
        controls->addWidget(hi);
        if (!inSpec)
            controls->addWidget(new QLabel(tr("(left static: %1)").arg(strings(dim.value(QLatin1String("notes"))).join(QLatin1Char(' ')))));
        controls->addStretch(1);
        m_dims->addWidget(hist);
        m_dims->addLayout(controls);
        if (hist->name() == batchName && m_proposal.value(QLatin1String("export")).isObject()) {
            m_batch = hist;
            m_bucketEdit = new QLineEdit;
            m_bucketEdit->setObjectName(QStringLiteral("captureBuckets"));
            QStringList sizes;
            for (const auto &b : buckets.value(QLatin1String("buckets")).toArray())
                sizes << QString::number(b.toObject().value(QLatin1String("batch")).toInteger());
            m_bucketEdit->setText(sizes.join(QLatin1Char(',')));
            m_bucketEdit->setToolTip(tr("Batch sizes of the bundle's packages, comma-separated"));
            m_padSafe = new QCheckBox(tr("Pad-safe"));
            m_padSafe->setObjectName(QStringLiteral("capturePadSafe"));
            m_padSafe->setChecked(m_proposal.value(QLatin1String("export")).toObject().value(QLatin1String("pad_safe")).toBool());
            m_padSafe->setToolTip(tr("Rows are independent: a smaller batch may run zero-padded in a larger bucket"));
            m_bucketLabel = new QLabel;
            m_bucketLabel->setObjectName(QStringLiteral("captureBucketShares"));
            m_bucketLabel->setWordWrap(true);
            auto *row = new QHBoxLayout;
            row->addWidget(new QLabel(tr("Buckets:")));
            row->addWidget(m_bucketEdit, 1);
            row->addWidget(m_padSafe);
            m_dims->addLayout(row);
            m_dims->addWidget(m_bucketLabel);
            connect(m_bucketEdit, &QLineEdit::textChanged, this, &CaptureDialog::updateBuckets);
            connect(m_padSafe, &QCheckBox::toggled, this, &CaptureDialog::updateBuckets);
        }
        m_histograms << hist;
        m_ranges << qMakePair(lo, hi);
    }
    m_dims->addStretch(1);
    if (m_histograms.isEmpty())
        m_dims->insertWidget(0, new QLabel(tr("Every dimension was the same in every call: the package is static.")));
    m_scroll->show();
    QStringList lines = strings(m_proposal.value(QLatin1String("warnings")));
    if (!lines.isEmpty()) {
        m_warnings->setText(tr("Warnings:") + QLatin1Char('\n') + lines.join(QLatin1Char('\n')));
        m_warnings->show();
    }
    updateBuckets();
    setBusy(false);
}

QList<int> CaptureDialog::buckets() const
{
    QList<int> out;
    if (!m_bucketEdit)
        return out;
    for (const QString &part : m_bucketEdit->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int v = part.trimmed().toInt(&ok);
        if (ok && v >= 1 && !out.contains(v))
            out << v;
    }
    std::sort(out.begin(), out.end());
    return out;
}

bool CaptureDialog::padSafe() const
{
    return m_padSafe && m_padSafe->isChecked();
}

void CaptureDialog::updateBuckets()
{
    if (!m_batch || !m_bucketLabel) {
        setBusy(m_requestId != 0);
        return;
    }
    const QList<int> sizes = buckets();
    QList<long long> drawn;
    for (int b : sizes)
        drawn << b;
    m_batch->setBuckets(drawn);
    // The bundle's own bucket choice over the recorded batch sizes (what aotstudio-run would do).
    Bundle::Manifest manifest;
    manifest.padSafe = padSafe();
    for (int b : sizes) {
        Bundle::Bucket bucket;
        bucket.name = QStringLiteral("batch%1").arg(b).toStdString();
        bucket.batch = b;
        manifest.buckets.push_back(bucket);
    }
    std::map<long long, long long> histogram;
    for (auto it = m_batch->histogram().begin(); it != m_batch->histogram().end(); ++it)
        histogram[it.key()] = it.value();
    const Bundle::BucketTraffic t = Bundle::bucketTraffic(manifest, histogram);
    QStringList parts;
    for (const auto &row : t.buckets)
        parts << tr("%1: %2 of the calls, padding waste %3")
                     .arg(QString::fromStdString(row.name), formatPercent(row.share), formatPercent(row.waste));
    if (t.unservedCalls > 0) {
        QStringList unserved;
        for (long long s : t.unservedSizes)
            unserved << QString::number(s);
        parts << tr("no bucket for %n call(s) (sizes %1)", nullptr, int(t.unservedCalls))
                     .arg(unserved.join(QStringLiteral(", ")));
    }
    m_bucketText = parts.join(QStringLiteral("; "));
    m_bucketLabel->setText(sizes.isEmpty() ? tr("No buckets: give at least one batch size.")
                                           : m_bucketText + QLatin1Char('.'));
    setBusy(m_requestId != 0);
}

QStringList CaptureDialog::withEditedRanges(const QStringList &entries) const
{
    QStringList out;
    for (const QString &e : entries) {
        QString head, name;
        long long lo = 0, hi = 0;
        if (!splitEntry(e, head, lo, hi, name)) {
            out << e;
            continue;
        }
        for (int i = 0; i < m_histograms.size(); ++i)
            if (m_histograms.at(i)->name() == name) {
                lo = m_ranges.at(i).first->value();
                hi = std::max(lo, (long long)m_ranges.at(i).second->value());
            }
        out << QStringLiteral("%1:%2:%3=%4").arg(head).arg(lo).arg(hi).arg(name);
    }
    return out;
}

QStringList CaptureDialog::dynamic() const
{
    return withEditedRanges(strings(m_proposal.value(QLatin1String("compile")).toObject().value(QLatin1String("dynamic"))));
}

QStringList CaptureDialog::exportDynamic() const
{
    return withEditedRanges(strings(m_proposal.value(QLatin1String("export")).toObject().value(QLatin1String("dynamic"))));
}

} // namespace AotStudio::Widgets
