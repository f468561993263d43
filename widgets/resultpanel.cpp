// SPDX-License-Identifier: GPL-3.0-or-later
#include "resultpanel.h"

#include "latencychart.h"
#include "measurementtext.h"
#include "numberformat.h"
#include "recipetext.h"
#include "tableutil.h"
#include "verifyoutputmodel.h"
#include "verifytext.h"

#include "graphview/jobtracker.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTableView>
#include <QTextDocumentFragment>
#include <QUrl>

#include <QVBoxLayout>
#include <utility>

namespace AotStudio::Widgets {

namespace {
QString orDash(double value, const QString &text)
{
    return qIsNaN(value) ? QStringLiteral("—") : text;
}

QString medianText(const Client::LatencyStats &s, double median)
{
    if (qIsNaN(median))
        return QStringLiteral("—");
    if (qIsNaN(s.p10Ms) || qIsNaN(s.p90Ms))
        return ResultPanel::tr("%1 ms").arg(formatNumber(median, 'f', 3));
    return ResultPanel::tr("%1 ms (p10 %2, p90 %3)")
        .arg(formatNumber(median, 'f', 3), formatNumber(s.p10Ms, 'f', 3), formatNumber(s.p90Ms, 'f', 3));
}

QString colorCss(const QColor &c)
{
    return c.isValid() ? c.name() : QStringLiteral("transparent");
}

/// A table as tab-separated lines (header first), for the Copy button.
QString tableText(const QAbstractItemModel *model)
{
    QStringList lines;
    QStringList cells;
    for (int c = 0; c < model->columnCount(); ++c)
        cells << model->headerData(c, Qt::Horizontal).toString();
    lines << cells.join(QLatin1Char('\t'));
    for (int r = 0; r < model->rowCount(); ++r) {
        cells.clear();
        for (int c = 0; c < model->columnCount(); ++c)
            cells << model->index(r, c).data().toString();
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n'));
}

/// A preflight check's name (BUNDLE.md "Preflight") in the user's language.
QString preflightCheckName(const QString &name)
{
    if (name == QLatin1String("architectures"))
        return ResultPanel::tr("GPU architectures");
    if (name == QLatin1String("torch"))
        return ResultPanel::tr("torch version");
    if (name == QLatin1String("kernels"))
        return ResultPanel::tr("kernels");
    if (name == QLatin1String("memory"))
        return ResultPanel::tr("memory");
    if (name == QLatin1String("cold_start"))
        return ResultPanel::tr("cold start");
    if (name == QLatin1String("economics"))
        return ResultPanel::tr("requests per worker");
    return name;
}

/// What a compatibility key says, in the user's language: "torch 2.14, CPU x86_64 AVX2
/// (-march=znver3), fp32, static shapes" or "torch 2.14, CUDA 13.0, sm_90, PTX compute_90, ...".
QString describeCompat(const Client::BundleCompat &c)
{
    QStringList parts;
    parts << ResultPanel::tr("torch %1").arg(c.torch.section(QLatin1Char('.'), 0, 1));
    if (c.device == QLatin1String("cuda")) {
        parts << (c.cuda.isEmpty() ? ResultPanel::tr("CUDA") : ResultPanel::tr("CUDA %1").arg(c.cuda));
        QStringList sass, ptx;
        for (int sm : c.sass)
            sass << QStringLiteral("sm_%1").arg(sm);
        for (int sm : c.ptx)
            ptx << QStringLiteral("compute_%1").arg(sm);
        parts << (sass.isEmpty() ? ResultPanel::tr("no SASS") : sass.join(QLatin1Char(' ')));
        parts << (ptx.isEmpty() ? ResultPanel::tr("no PTX") : ResultPanel::tr("PTX %1").arg(ptx.join(QLatin1Char(' '))));
    } else {
        QString cpu = ResultPanel::tr("CPU %1").arg(c.machine);
        if (!c.cpuIsa.isEmpty())
            cpu += QLatin1Char(' ') + c.cpuIsa;
        if (!c.march.isEmpty())
            cpu += QStringLiteral(" (-march=%1)").arg(c.march);
        parts << cpu;
    }
    if (!c.precision.isEmpty())
        parts << c.precision;
    if (c.shapeMode == QLatin1String("dynamic"))
        parts << ResultPanel::tr("dynamic shapes");
    else if (c.shapeMode == QLatin1String("static"))
        parts << ResultPanel::tr("static shapes");
    if (!c.runtime.isEmpty() && c.runtime != QLatin1String("libtorch"))
        parts << ResultPanel::tr("runtime %1").arg(c.runtime);
    return parts.join(ResultPanel::tr(", "));
}

QString phaseName(int phase)
{
    switch (phase) {
    case Client::ColdStart::ToMain:
        return ResultPanel::tr("spawn to main");
    case Client::ColdStart::Verify:
        return ResultPanel::tr("verify");
    case Client::ColdStart::Load:
        return ResultPanel::tr("load");
    default:
        break;
    }
    return ResultPanel::tr("first run");
}
} // namespace

ResultPanel::ResultPanel(QWidget *parent)
    : QWidget(parent)
    , m_stack(new QStackedWidget(this))
    , m_verifyModel(new VerifyOutputModel(this))
    , m_errorVerifyModel(new VerifyOutputModel(this))
    , m_regionalModel(new QStandardItemModel(this))
{
    auto *empty = new QLabel(tr("No result yet.\n\nPick a model and a device in the toolbar, "
                                "then press Compile (Ctrl+R).\nThe package path, accuracy and "
                                "latency of the compiled model will appear here."),
                             m_stack);
    empty->setObjectName(QStringLiteral("emptyState"));
    empty->setAlignment(Qt::AlignCenter);
    empty->setWordWrap(true);
    empty->setEnabled(false); // greyed: it is a hint, not content
    m_stack->addWidget(empty);

    auto *page = new QWidget(m_stack);
    m_title = new QLabel(page);
    m_title->setObjectName(QStringLiteral("resultTitle"));
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setWordWrap(true);
    m_copy = new QPushButton(tr("Copy"), page);
    m_copy->setObjectName(QStringLiteral("copyResultButton"));
    m_copy->setToolTip(tr("Copy the result as text"));
    connect(m_copy, &QPushButton::clicked, this, &ResultPanel::copyToClipboard);

    m_form = new QFormLayout;
    m_form->setLabelAlignment(Qt::AlignRight);
    m_package = addRow(m_form, tr("Package:"), "resultPackage");
    m_device = addRow(m_form, tr("Device:"), "resultDevice");
    m_torch = addRow(m_form, tr("Torch version:"), "resultTorch");
    m_recipe = addRow(m_form, tr("Recipe:"), "resultRecipe"); // which recipe and why (RecipeText)
    m_inputs = addRow(m_form, tr("Inputs:"), "resultInputs");
    m_maxAbsError = addRow(m_form, tr("Max abs error:"), "resultMaxAbsError");
    // Verification per output (absent from older results: the rows are hidden then).
    m_verify = addRow(m_form, tr("Verification:"), "resultVerify");
    m_verify->setTextFormat(Qt::RichText);
    m_verifyMode = addRow(m_form, tr("Verified as:"), "resultVerifyMode");
    m_verifyInputs = addRow(m_form, tr("Verified on:"), "resultVerifyInputs");
    m_verifyStateful = addRow(m_form, tr("Stateful:"), "resultVerifyStateful");
    m_verifyStateful->setToolTip(tr("Whether forward() changes a buffer of the model (e.g. a running "
                                    "statistic): then eager and the package are checked to advance alike"));
    m_eager = addRow(m_form, tr("Eager median:"), "resultEager");
    m_compiled = addRow(m_form, tr("Compiled median:"), "resultCompiled");
    m_speedup = addRow(m_form, tr("Speedup:"), "resultSpeedup"); // addRow's labels wrap
    // The verdict on its own line: whether the machine allowed a fair measurement, and why not.
    m_verdict = addRow(m_form, tr("Measurement:"), "resultVerdict");
    m_verdict->setTextFormat(Qt::RichText);
    m_threads = addRow(m_form, tr("Threads:"), "resultThreads");
    m_threads->setToolTip(tr("Intra-op threads of eager and compiled alike"));
    m_source = addRow(m_form, tr("Measured by:"), "resultSource");
    m_runs = addRow(m_form, tr("Timed runs:"), "resultRuns");
    // Paths have no break points: they are cut at the edge (the tooltip has them whole).
    m_package->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_chart = new LatencyChart(page);
    m_verifyTable = new QTableView(page);
    m_verifyTable->setObjectName(QStringLiteral("resultVerifyTable"));
    setUpTableView(m_verifyTable, m_verifyModel);
    m_verifyTable->setSortingEnabled(false); // the forward's output order
    m_verifyTable->hide();
    connect(m_verifyTable->horizontalScrollBar(), &QScrollBar::rangeChanged, this,
            [view = m_verifyTable] { fitTableHeight(view); });

    // A regional compile: its blocks and how it compares with eager and the whole model, framed
    // as the bundle below so the section reads as one thing.
    m_regionalFrame = new QFrame(page);
    m_regionalFrame->setObjectName(QStringLiteral("resultRegional"));
    m_regionalFrame->setFrameShape(QFrame::StyledPanel);
    m_regionalFrame->setStyleSheet(QStringLiteral(
        "#resultRegional { background: #eef3fb; border: 1px solid #9db6d9; border-radius: 4px; }"));
    auto *regionalTitle = new QLabel(tr("Regional compile"), m_regionalFrame);
    regionalTitle->setObjectName(QStringLiteral("resultRegionalTitle"));
    QFont regionalFont = regionalTitle->font();
    regionalFont.setBold(true);
    regionalTitle->setFont(regionalFont);
    m_regionalForm = new QFormLayout;
    m_regionalForm->setLabelAlignment(Qt::AlignRight);
    m_regionalBlocks = addRow(m_regionalForm, tr("Blocks:"), "resultRegionalBlocks");
    m_regionalCompileTime = addRow(m_regionalForm, tr("Compile time:"), "resultRegionalCompileTime");
    m_regionalCompileTime->setToolTip(tr("Export and compile, in seconds; one compile each, so no interval"));
    m_regionalLatency = addRow(m_regionalForm, tr("Latency (median):"), "resultRegionalLatency");
    m_regionalVsEager = addRow(m_regionalForm, tr("Regional vs eager:"), "resultRegionalVsEager");
    m_regionalVsEager->setToolTip(tr("Eager median over the regional model's median, paired"));
    m_regionalVsWhole = addRow(m_regionalForm, tr("Regional vs whole:"), "resultRegionalVsWhole");
    m_regionalVsWhole->setToolTip(
        tr("The whole package's median over the regional model's, paired: above 1 the regional model is faster"));
    m_regionalSize = addRow(m_regionalForm, tr("Package size:"), "resultRegionalSize");
    m_regionalModel->setHorizontalHeaderLabels(
        {tr("Block class"), tr("Instances"), tr("Parameters each"), tr("Compile time (s)"), tr("Package size")});
    m_regionalModel->horizontalHeaderItem(3)->setToolTip(tr("Export and compile of the block's first instance"));
    m_regionalModel->horizontalHeaderItem(4)->setToolTip(tr("The block's package, without weights"));
    m_regionalTable = new QTableView(m_regionalFrame);
    m_regionalTable->setObjectName(QStringLiteral("resultRegionalTable"));
    setUpTableView(m_regionalTable, m_regionalModel);
    m_regionalTable->setSortingEnabled(false); // the engine's order: largest block class first
    connect(m_regionalTable->horizontalScrollBar(), &QScrollBar::rangeChanged, this,
            [view = m_regionalTable] { fitTableHeight(view); });
    auto *regionalLayout = new QVBoxLayout(m_regionalFrame);
    regionalLayout->addWidget(regionalTitle);
    regionalLayout->addWidget(m_regionalTable);
    regionalLayout->addLayout(m_regionalForm);
    m_regionalFrame->hide();

    // The bundle exported from this result: its own framed section, so it reads as a second
    // step on the same model rather than more compile numbers.
    m_bundleFrame = new QFrame(page);
    m_bundleFrame->setObjectName(QStringLiteral("resultBundle"));
    m_bundleFrame->setFrameShape(QFrame::StyledPanel);
    m_bundleFrame->setStyleSheet(QStringLiteral(
        "#resultBundle { background: #eef6ee; border: 1px solid #9cc79c; border-radius: 4px; }"));
    auto *bundleTitle = new QLabel(tr("Bundle exported"), m_bundleFrame);
    bundleTitle->setObjectName(QStringLiteral("resultBundleTitle"));
    QFont bundleFont = bundleTitle->font();
    bundleFont.setBold(true);
    bundleTitle->setFont(bundleFont);
    m_bundleForm = new QFormLayout;
    m_bundleForm->setLabelAlignment(Qt::AlignRight);
    m_bundlePath = addRow(m_bundleForm, tr("Bundle:"), "resultBundlePath");
    m_bundleZip = addRow(m_bundleForm, tr("Zip:"), "resultBundleZip");
    m_bundlePath->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_bundleZip->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_bundleBuckets = addRow(m_bundleForm, tr("Buckets:"), "resultBundleBuckets");
    m_bundleColdStart = addRow(m_bundleForm, tr("Cold start:"), "resultBundleColdStart");
    m_bundleColdStart->setWordWrap(true);
    m_bundlePhases = addRow(m_bundleForm, tr("Bundle phases:"), "resultBundlePhases");
    m_bundlePhases->setWordWrap(true);
    m_bundleBuiltFor = addRow(m_bundleForm, tr("Built for:"), "resultBundleBuiltFor");
    m_bundleBuiltFor->setWordWrap(true);
    m_bundlePreflight = addRow(m_bundleForm, tr("Preflight:"), "resultBundlePreflight");
    m_bundlePreflight->setWordWrap(true);
    m_bundlePreflight->setTextFormat(Qt::RichText);
    // Another GPU worker than the default: the preflight again from the bundle's files, when the
    // bundle is on this machine (aotstudio-cli preflight BUNDLE --gpu PROFILE does the same).
    m_bundleProfile = new QComboBox(m_bundleFrame);
    m_bundleProfile->setObjectName(QStringLiteral("resultBundleProfile"));
    m_bundleProfile->addItems(Client::ExportResult::gpuProfileNames());
    m_bundleProfile->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_preflightReader = new JobTracker(this);
    connect(m_bundleProfile, &QComboBox::activated, this, [this] {
        if (m_bundleFolder.isEmpty())
            return;
        m_bundlePreflight->setText(tr("checking…"));
        m_preflightReader->start(
            [folder = m_bundleFolder, profile = m_bundleProfile->currentText()] {
                QString error;
                Client::Preflight p = Client::ExportResult::preflightFolder(folder, profile, &error);
                return std::make_pair(p, error);
            },
            [this](std::pair<Client::Preflight, QString> done) {
                if (done.first.isValid())
                    showPreflight(done.first);
                else
                    m_bundlePreflight->setText(tr("cannot be made: %1").arg(done.second.toHtmlEscaped()));
            });
    });
    m_bundleForm->addRow(tr("GPU worker:"), m_bundleProfile);
    m_bundleOpenFolder = new QPushButton(tr("Open Folder"), m_bundleFrame);
    m_bundleOpenFolder->setObjectName(QStringLiteral("resultBundleOpenFolder"));
    m_bundleOpenFolder->setToolTip(tr("Show the bundle folder in the file manager"));
    connect(m_bundleOpenFolder, &QPushButton::clicked, this,
            [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(m_bundleFolder)); });
    auto *bundleLayout = new QVBoxLayout(m_bundleFrame);
    bundleLayout->addWidget(bundleTitle);
    bundleLayout->addLayout(m_bundleForm);
    auto *bundleButtons = new QHBoxLayout;
    bundleButtons->addWidget(m_bundleOpenFolder);
    bundleButtons->addStretch(1);
    bundleLayout->addLayout(bundleButtons);
    m_bundleFrame->hide();

    // Yellow, like the engine banner: the numbers are there but deserve doubt (e.g. noisy timings).
    m_warningFrame = new QFrame(page);
    m_warningFrame->setObjectName(QStringLiteral("resultWarnings"));
    m_warningFrame->setFrameShape(QFrame::StyledPanel);
    m_warningFrame->setStyleSheet(QStringLiteral(
        "#resultWarnings { background: #fff8d6; border: 1px solid #e6c84f; border-radius: 4px; }"
        "#resultWarnings QLabel { color: #5c4700; }"));
    m_warningText = new QLabel(m_warningFrame);
    m_warningText->setObjectName(QStringLiteral("resultWarningsText"));
    m_warningText->setWordWrap(true);
    m_warningText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *warningLayout = new QVBoxLayout(m_warningFrame);
    warningLayout->addWidget(m_warningText);
    m_warningFrame->hide();

    auto *header = new QHBoxLayout;
    header->addWidget(m_title, 1);
    header->addWidget(m_copy);
    auto *pageLayout = new QVBoxLayout(page);
    pageLayout->addLayout(header);
    pageLayout->addLayout(m_form);
    pageLayout->addWidget(m_verifyTable);
    pageLayout->addWidget(m_regionalFrame);
    pageLayout->addWidget(m_bundleFrame);
    pageLayout->addWidget(m_warningFrame);
    pageLayout->addWidget(m_chart, 1);
    m_stack->addWidget(page);

    createErrorBox();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_errorFrame);
    layout->addWidget(m_stack, 1);
    layout->addStretch(); // the error box at the top while the result under it is hidden
}

QLabel *ResultPanel::addRow(QFormLayout *form, const QString &label, const char *objectName)
{
    auto *value = new QLabel(QStringLiteral("—"));
    value->setObjectName(QLatin1String(objectName));
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The panel sits in a narrow scroll area between docks: values wrap rather than widen it
    // past the view, where the interval and the verdict after a figure would be cut off.
    value->setWordWrap(true);
    form->addRow(label, value);
    return value;
}

void ResultPanel::setResultVisible(bool visible)
{
    m_stack->setVisible(visible);
}

void ResultPanel::showResult(const Client::CompileResult &r)
{
    m_stack->show();
    setCompileSectionVisible(true);
    // A regional result's compiled side is the model with its blocks' packages bound in.
    if (auto *label = qobject_cast<QLabel *>(m_form->labelForField(m_compiled)))
        label->setText(r.isRegional() ? tr("Regional median:") : tr("Compiled median:"));
    if (r.isRegional()) {
        m_title->setText(tr("Compiled %1 regionally").arg(r.model));
        const QString layout = r.regional ? r.regional->layout : QString();
        m_package->setText(layout.isEmpty() ? tr("none of the whole model: one per block class")
                                            : tr("none of the whole model: one per block class in %1").arg(layout));
        m_package->setToolTip(layout);
    } else {
        m_title->setText(tr("Compiled %1").arg(r.model));
        m_package->setText(r.package);
        m_package->setToolTip(r.package);
    }
    m_device->setText(r.device);
    m_torch->setText(r.torchVersion);
    m_recipe->setText(RecipeText::describe(r.raw.value(QLatin1String("recipe")).toObject()));
    m_form->setRowVisible(m_recipe, !m_recipe->text().isEmpty()); // older results and regional compiles have none
    QStringList inputs;
    for (const auto &t : r.inputs)
        inputs << t.text();
    m_inputs->setText(inputs.isEmpty() ? QStringLiteral("–") : inputs.join(QLatin1String("; ")));
    m_inputs->setToolTip(tr("The package's inputs in its order: names from forward's parameters and their place in "
                            "nested arguments (--dynamic takes these names)"));
    m_maxAbsError->setText(
        orDash(r.maxAbsError, qIsNaN(r.tolerance)
                                  ? formatNumber(r.maxAbsError, 'g', 3)
                                  : tr("%1 (tolerance %2)")
                                        .arg(formatNumber(r.maxAbsError, 'g', 3),
                                             formatNumber(r.tolerance, 'g', 3))));
    showVerify(r.verify);
    showRegional(r);
    // Medians, speedup, verdict and run counts (each variant stops once its median is stable, so
    // the counts differ: both are shown) come from showFigure() below.
    const QStringList warnings = r.otherWarnings(); // the verdict has its own line
    if (warnings.isEmpty()) {
        m_warningFrame->hide();
        m_warningText->clear();
    } else {
        QStringList items;
        for (const QString &w : warnings)
            items << w.toHtmlEscaped();
        m_warningText->setText(tr("<b>Warning:</b> %1").arg(items.join(QStringLiteral("<br>"))));
        m_warningFrame->show();
    }
    m_compile = r;
    m_bundleFrame->hide(); // a bundle belongs to the result it was exported from
    m_stack->setCurrentIndex(1);
    showFigure(Client::SpeedupFigure::fromCompile(r.raw));
}

void ResultPanel::showVerify(const Client::VerifyResult &v)
{
    const bool shown = v.isPresent();
    for (QLabel *label : {m_verify, m_verifyMode, m_verifyInputs, m_verifyStateful})
        m_form->setRowVisible(label, shown);
    m_verifyTable->setVisible(shown && !v.outputs.isEmpty());
    if (!shown) {
        m_verifyModel->clear();
        return;
    }
    const bool passed = v.passed && v.failedOutputs().isEmpty();
    m_verify->setText(QStringLiteral("<span style=\"color:%1\"><b>%2</b></span>")
                          .arg(passed ? QStringLiteral("#1b5e20") : QStringLiteral("#b71c1c"),
                               VerifyText::headline(v).toHtmlEscaped()));
    m_verify->setProperty("passed", passed);
    // The engine's own sentence (English, with every figure) for whoever wants it verbatim.
    m_verify->setToolTip(v.verdict);
    m_verifyMode->setText(VerifyText::mode(v));
    m_verifyInputs->setText(VerifyText::inputs(v));
    m_verifyStateful->setText(VerifyText::stateful(v));
    m_verifyModel->setOutputs(v.outputs, v.tolerance, v.referenceDtype);
    m_verifyTable->resizeColumnsToContents();
    fitTableHeight(m_verifyTable);
}

void ResultPanel::showRegional(const Client::CompileResult &r)
{
    m_regionalModel->removeRows(0, m_regionalModel->rowCount());
    m_regionalFrame->setVisible(r.isRegional());
    if (!r.isRegional())
        return;
    const QLocale locale;
    const auto seconds = [](double s) { return qIsNaN(s) ? QStringLiteral("—") : formatNumber(s, 'f', 1); };
    const auto bytes = [&locale](double b) {
        return qIsNaN(b) ? QStringLiteral("—") : locale.formattedDataSize(qint64(b));
    };
    const auto cell = [](const QString &text, const QVariant &sort = {}) {
        auto *item = new QStandardItem(text);
        item->setEditable(false);
        item->setData(sort.isValid() ? sort : QVariant(text), Qt::UserRole + 1);
        if (sort.isValid())
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        return item;
    };
    if (!r.regional) {
        // The engine wrote fields this studio cannot read: say so rather than show made-up numbers.
        m_regionalBlocks->setText(tr("cannot be shown: %1").arg(r.regionalError));
        for (QLabel *label : {m_regionalCompileTime, m_regionalLatency, m_regionalVsEager, m_regionalVsWhole,
                              m_regionalSize})
            m_regionalForm->setRowVisible(label, false);
        m_regionalTable->hide();
        return;
    }
    const Client::RegionalResult &g = *r.regional;
    for (QLabel *label : {m_regionalCompileTime, m_regionalLatency, m_regionalVsEager, m_regionalSize})
        m_regionalForm->setRowVisible(label, true);
    m_regionalForm->setRowVisible(m_regionalVsWhole, g.hasWhole);
    m_regionalTable->setVisible(!g.blocks.isEmpty());
    for (const Client::RegionalBlock &b : g.blocks) {
        QList<QStandardItem *> row{cell(b.className),
                                   cell(locale.toString(b.instances.size()), qlonglong(b.instances.size())),
                                   cell(locale.toString(b.parametersPerInstance), b.parametersPerInstance),
                                   cell(seconds(b.totalSeconds()), b.totalSeconds()),
                                   cell(bytes(b.packageBytes), b.packageBytes)};
        row[0]->setToolTip(b.module.isEmpty() ? QString() : tr("%1 in %2").arg(b.className, b.module));
        row[1]->setToolTip(b.instances.join(QStringLiteral(", ")));
        row[3]->setToolTip(tr("export %1 s, compile %2 s").arg(seconds(b.exportSeconds), seconds(b.compileSeconds)));
        m_regionalModel->appendRow(row);
    }
    m_regionalTable->resizeColumnsToContents();
    fitTableHeight(m_regionalTable);

    const QString classes = tr("%n block class(es)", nullptr, int(g.blocks.size()));
    const QString instances = tr("%n instance(s)", nullptr, g.instanceCount());
    m_regionalBlocks->setText(qIsNaN(g.parameterShare)
                                  ? tr("%1, %2").arg(classes, instances)
                                  : tr("%1, %2, holding %3% of the parameters")
                                        .arg(classes, instances, formatNumber(g.parameterShare * 100, 'f', 0)));
    m_regionalBlocks->setToolTip(g.layout.isEmpty() ? QString() : tr("Block packages in %1").arg(g.layout));

    QString compileTime = tr("regional %1 s").arg(seconds(g.compileSeconds));
    if (g.hasWhole) {
        compileTime = tr("regional %1 s, whole %2 s").arg(seconds(g.compileSeconds), seconds(g.wholeCompileSeconds));
        if (!qIsNaN(g.compileTimeRatio))
            compileTime += QStringLiteral(": ")
                           + tr("regional / whole %1× (one compile each: no interval)")
                                 .arg(formatNumber(g.compileTimeRatio, 'f', 2));
    }
    m_regionalCompileTime->setText(compileTime);

    const auto ms = [](double v) {
        return qIsNaN(v) ? QStringLiteral("—") : ResultPanel::tr("%1 ms").arg(formatNumber(v, 'f', 3));
    };
    m_regionalLatency->setText(g.hasWhole ? tr("eager %1, regional %2, whole %3")
                                                .arg(ms(g.eagerMs), ms(g.medianMs), ms(g.wholeMedianMs))
                                          : tr("eager %1, regional %2").arg(ms(g.eagerMs), ms(g.medianMs)));
    m_regionalVsEager->setText(g.speedupVsEager.isValid()
                                   ? MeasurementText::ratioWithInterval(g.speedupVsEager)
                                   : tr("not measured"));
    m_regionalVsWhole->setText(g.speedupVsWhole.isValid()
                                   ? MeasurementText::ratioWithInterval(g.speedupVsWhole,
                                                                        MeasurementText::Slower::RegionalThanWhole)
                                   : tr("not measured"));
    // As the compile's own figures: an unreliable measurement stays readable but greyed.
    const bool greyed = r.measurement.isUnreliable();
    for (QLabel *label : {m_regionalLatency, m_regionalVsEager, m_regionalVsWhole}) {
        label->setStyleSheet(greyed ? QStringLiteral("QLabel { color: %1; }").arg(MeasurementText::greyedText().name())
                                    : QString());
        label->setProperty("greyed", greyed);
    }
    m_regionalSize->setText(g.hasWhole ? tr("blocks %1 (no weights), whole %2 (with weights)")
                                             .arg(bytes(g.packageBytes), bytes(g.wholePackageBytes))
                                       : tr("blocks %1 (no weights)").arg(bytes(g.packageBytes)));
}

bool ResultPanel::showsRegional() const
{
    return hasResult() && m_regionalFrame->isVisibleTo(this);
}

void ResultPanel::fitTableHeight(QTableView *view)
{
    // Compact: every row visible up to a handful, then it scrolls.
    const int rows = qMin(view->model()->rowCount(), 6);
    int height = view->horizontalHeader()->sizeHint().height()
                 + rows * view->verticalHeader()->defaultSectionSize() + 2 * view->frameWidth() + 2;
    // In a narrow dock the columns scroll sideways: the scroll bar must not cover the last row.
    if (view->horizontalScrollBar()->maximum() > 0)
        height += view->horizontalScrollBar()->sizeHint().height();
    view->setFixedHeight(height);
}

bool ResultPanel::showsVerification() const
{
    return hasResult() && m_form->isRowVisible(m_verify);
}

void ResultPanel::showFigure(const Client::SpeedupFigure &f)
{
    if (!hasResult() || !f.isValid())
        return;
    m_figure = f;
    m_eager->setText(medianText(f.eager, f.eagerMs));
    m_compiled->setText(medianText(f.compiled, f.compiledMs));
    m_speedup->setText(MeasurementText::ratioWithInterval(f.speedup));
    m_speedup->setToolTip(f.speedup.hasObject()
                              ? tr("Ratio of the eager median to the compiled median; %1 over %n paired "
                                   "block(s), %2 resamples",
                                   nullptr, f.speedup.blocks)
                                    .arg(f.speedup.method.isEmpty() ? tr("interval") : f.speedup.method)
                                    .arg(f.speedup.resamples)
                              : tr("This result predates paired timing: it has no interval."));

    const Client::Measurement &m = f.measurement;
    // One line; the reasons in full and the notes on demand (the tooltip).
    m_verdict->setText(MeasurementText::verdictSummaryHtml(m));
    m_verdict->setToolTip(MeasurementText::verdictDetails(m));
    m_verdict->setProperty("verdict", m.verdictName);
    m_verdict->setStyleSheet(QStringLiteral("QLabel { color: %1; background: %2; padding: 1px 3px; }")
                                 .arg(colorCss(MeasurementText::verdictColor(m)),
                                      colorCss(MeasurementText::verdictBackground(m))));
    m_threads->setText(MeasurementText::threads(m.threads, m.usableCpus));

    if (f.source == Client::SpeedupFigure::Source::Profile) {
        m_source->setText(f.measuredAt.isValid()
                              ? tr("Profile at %1 (it supersedes the compile's quick measurement)")
                                    .arg(QLocale().toString(f.measuredAt.time(), QLocale::ShortFormat))
                              : tr("Profile (it supersedes the compile's quick measurement)"));
        m_source->setToolTip(f.measuredAt.isValid() ? QLocale().toString(f.measuredAt, QLocale::LongFormat)
                                                    : QString());
        const QLocale locale;
        if (f.eager.runs > 0 && f.compiled.runs > 0)
            m_runs->setText(tr("eager %1, compiled %2")
                                .arg(locale.toString(f.eager.runs), locale.toString(f.compiled.runs)));
        Client::CompileResult shown = m_compile;
        shown.eager = f.eager;
        shown.compiled = f.compiled;
        shown.eagerMs = f.eagerMs;
        shown.compiledMs = f.compiledMs;
        m_chart->setResult(shown, f.measurement.isUnreliable());
    } else {
        m_source->setText(tr("Compile (its quick measurement)"));
        m_source->setToolTip(QString());
        const QLocale locale;
        if (m_compile.eager.runs > 0 && m_compile.compiled.runs > 0)
            m_runs->setText(tr("eager %1, compiled %2")
                                .arg(locale.toString(m_compile.eager.runs), locale.toString(m_compile.compiled.runs)));
        else
            m_runs->setText(m_compile.runs > 0 ? locale.toString(m_compile.runs) : QStringLiteral("—"));
        m_chart->setResult(m_compile, f.measurement.isUnreliable());
    }

    // An unreliable measurement stays readable but is greyed: the reasons above say why.
    m_greyed = m.isUnreliable();
    const QString figureStyle = m_greyed ? QStringLiteral("QLabel { color: %1; }").arg(MeasurementText::greyedText().name())
                                         : QString();
    for (QLabel *label : {m_eager, m_compiled, m_speedup, m_runs}) {
        label->setStyleSheet(figureStyle);
        label->setProperty("greyed", m_greyed);
    }
    m_chart->setEnabled(!m_greyed);
}

void ResultPanel::showBundle(const Client::ExportResult &r)
{
    m_bundlePath->setText(r.bundle);
    m_bundlePath->setToolTip(r.manifest.isEmpty() ? QString() : tr("Manifest: %1").arg(r.manifest));
    m_bundleZip->setText(r.zip.isEmpty() ? tr("none") : r.zip);
    m_bundleZip->setToolTip(r.zip);
    const QLocale locale;
    QStringList buckets;
    for (const auto &b : r.buckets) {
        if (b.isDynamic())
            buckets << tr("dynamic %1–%2").arg(locale.toString(b.batchMin),
                                                locale.toString(b.batchMax));
        else
            buckets << tr("batch %1").arg(locale.toString(b.batch));
    }
    m_bundleBuckets->setText(buckets.isEmpty() ? QStringLiteral("—")
                                               : buckets.join(QStringLiteral(", ")));
    const auto &c = r.coldStart;
    QStringList phases;
    for (int i = 0; i < Client::ColdStart::PhaseCount; ++i) {
        if (c.phases[i].isValid())
            phases << tr("%1 %2").arg(phaseName(i), MeasurementText::phase(c.phases[i]));
    }
    m_bundlePhases->setText(phases.isEmpty() ? tr("not measured (an older result)") : phases.join(QStringLiteral("; ")));
    if (c.isMeasured()) {
        QString text = tr("bundle %1 ms vs eager %2 ms")
                           .arg(formatNumber(c.bundleMs, 'f', 0), formatNumber(c.eagerMs, 'f', 0));
        if (c.ratioInterval.isValid() && c.ratioInterval.estimate > 0)
            text += QStringLiteral(": ")
                    + tr("eager / bundle %1")
                          .arg(MeasurementText::ratioWithInterval(c.ratioInterval, MeasurementText::Slower::Bundle));
        m_bundleColdStart->setText(text);
        m_bundleColdStart->setToolTip(
            tr("Wall time of a fresh process from spawn to its first output, median of %1 runs "
               "each: the bundle with aotstudio-run, the model in eager PyTorch.")
                .arg(QLocale().toString(c.runs)));
    } else {
        m_bundleColdStart->setText(tr("not measured"));
        m_bundleColdStart->setToolTip(QString());
    }
    if (r.compat.isValid()) {
        m_bundleBuiltFor->setText(describeCompat(r.compat));
        m_bundleBuiltFor->setToolTip(tr("Compatibility key: %1\nEvery runtime checks it before loading the bundle and "
                                        "refuses another torch, machine, CPU or GPU architecture.")
                                         .arg(r.compat.key));
    } else {
        m_bundleBuiltFor->setText(tr("not recorded (an older engine)"));
        m_bundleBuiltFor->setToolTip(QString());
    }
    // The Open Folder button and another profile's preflight need the bundle on this machine (a
    // remote engine's bundle is on its host).
    const bool local = !r.bundle.isEmpty() && QFileInfo::exists(r.bundle + QStringLiteral("/manifest.json"));
    m_bundleFolder = local ? r.bundle : QString();
    m_preflightReader->cancel();
    m_bundleOpenFolder->setEnabled(local);
    m_bundleProfile->setEnabled(local);
    m_bundleProfile->setToolTip(local
                                    ? tr("Check the bundle against another GPU worker")
                                    : tr("The bundle is on the engine's machine: aotstudio-cli preflight BUNDLE --gpu "
                                         "PROFILE checks it there"));
    if (const int i = m_bundleProfile->findText(r.preflight.profile); i >= 0)
        m_bundleProfile->setCurrentIndex(i);
    if (r.preflight.isValid()) {
        showPreflight(r.preflight);
    } else {
        m_bundlePreflight->setText(tr("not made (an older engine)"));
        m_bundlePreflight->setToolTip(QString());
    }
    // A bundle opened on its own (File → Open Job Folder): no compile to show above it, so no
    // empty compile rows and chart, and the heading names the bundle.
    if (!hasResult() || m_bundleAlone) {
        m_bundleAlone = true;
        setCompileSectionVisible(false);
        m_title->setText(tr("Bundle %1").arg(QFileInfo(r.bundle).fileName()));
    }
    m_bundleFrame->show();
    m_stack->setCurrentIndex(1);
    m_stack->show();
}

void ResultPanel::showPreflight(const Client::Preflight &preflight)
{
    const QString verdict = preflight.verdict == QLatin1String("ok") ? tr("runs there")
        : preflight.verdict == QLatin1String("refused")              ? tr("does not run there")
                                                                     : tr("not fully known");
    QStringList lines{tr("<b>%1</b>: %2").arg(preflight.profile.toHtmlEscaped(), verdict)};
    QStringList details{preflight.description};
    for (const auto &c : preflight.checks) {
        const QString mark = c.status == QLatin1String("ok") ? QStringLiteral("✓")
            : c.status == QLatin1String("fail")              ? QStringLiteral("✗")
            : c.status == QLatin1String("warn")              ? QStringLiteral("!")
                                                             : QStringLiteral("?");
        if (c.status == QLatin1String("fail")) // what failed, with the engine's reason
            lines << QStringLiteral("%1 %2: %3")
                         .arg(mark, preflightCheckName(c.name).toHtmlEscaped(), c.summary.toHtmlEscaped());
        else if (c.status != QLatin1String("ok"))
            lines << QStringLiteral("%1 %2").arg(mark, preflightCheckName(c.name).toHtmlEscaped());
        details << QStringLiteral("%1 %2: %3").arg(mark, preflightCheckName(c.name), c.summary);
    }
    m_bundlePreflight->setText(lines.join(QStringLiteral("<br>")));
    m_bundlePreflight->setToolTip(details.join(QLatin1Char('\n')) + QStringLiteral("\n\n")
                                  + tr("aotstudio-cli preflight BUNDLE --gpu PROFILE checks other GPUs."));
}

void ResultPanel::setCompileSectionVisible(bool visible)
{
    m_bundleAlone = !visible;
    for (int row = 0; row < m_form->rowCount(); ++row)
        m_form->setRowVisible(row, visible);
    m_chart->setVisible(visible);
    if (!visible)
        m_verifyTable->hide();
}

bool ResultPanel::hasBundle() const
{
    return hasResult() && m_bundleFrame->isVisibleTo(this);
}

bool ResultPanel::hasResult() const
{
    return m_stack->currentIndex() == 1;
}

QString ResultPanel::summaryText() const
{
    QStringList lines;
    if (hasResult()) {
        lines << m_title->text();
        for (int row = 0; row < m_form->rowCount(); ++row) {
            auto *label = qobject_cast<QLabel *>(
                m_form->itemAt(row, QFormLayout::LabelRole)->widget());
            auto *value = qobject_cast<QLabel *>(
                m_form->itemAt(row, QFormLayout::FieldRole)->widget());
            if (label && value && m_form->isRowVisible(row))
                lines << label->text() + QLatin1Char(' ')
                             + (value->textFormat() == Qt::RichText
                                    ? QTextDocumentFragment::fromHtml(value->text()).toPlainText()
                                    : value->text());
        }
        if (m_verifyTable->isVisibleTo(this))
            lines << tableText(m_verifyModel);
        if (m_regionalFrame->isVisibleTo(this)) {
            lines << tr("Regional compile");
            if (m_regionalTable->isVisibleTo(this))
                lines << tableText(m_regionalModel);
            for (int row = 0; row < m_regionalForm->rowCount(); ++row) {
                auto *label = qobject_cast<QLabel *>(m_regionalForm->itemAt(row, QFormLayout::LabelRole)->widget());
                auto *value = qobject_cast<QLabel *>(m_regionalForm->itemAt(row, QFormLayout::FieldRole)->widget());
                if (label && value && m_regionalForm->isRowVisible(row))
                    lines << label->text() + QLatin1Char(' ') + value->text();
            }
        }
        if (m_bundleFrame->isVisibleTo(this)) {
            lines << tr("Bundle exported");
            for (int row = 0; row < m_bundleForm->rowCount(); ++row) {
                auto *label = qobject_cast<QLabel *>(
                    m_bundleForm->itemAt(row, QFormLayout::LabelRole)->widget());
                auto *value = qobject_cast<QLabel *>(
                    m_bundleForm->itemAt(row, QFormLayout::FieldRole)->widget());
                if (label && value)
                    lines << label->text() + QLatin1Char(' ') + value->text();
            }
        }
        if (m_warningFrame->isVisibleTo(this))
            lines << QTextDocumentFragment::fromHtml(m_warningText->text()).toPlainText();
    }
    if (m_errorFrame->isVisibleTo(this)) {
        lines << QTextDocumentFragment::fromHtml(m_errorText->text()).toPlainText();
        if (m_errorVerifyTable->isVisibleTo(this))
            lines << tableText(m_errorVerifyModel);
    }
    return lines.join(QLatin1Char('\n'));
}

void ResultPanel::copyToClipboard()
{
    QApplication::clipboard()->setText(summaryText());
}

} // namespace AotStudio::Widgets
