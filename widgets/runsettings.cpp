// SPDX-License-Identifier: GPL-3.0-or-later
#include "runsettings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QListWidget>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace AotStudio::Widgets {

QStringList RunSettings::allSchemes()
{
    return {QStringLiteral("fp32"),          QStringLiteral("bf16"),         QStringLiteral("int8-weight-only"),
            QStringLiteral("int8-dynamic"),  QStringLiteral("int4-weight-only"), QStringLiteral("fp8-dynamic"),
            QStringLiteral("int8-static")};
}

QStringList RunSettings::defaultSchemes()
{
    return {QStringLiteral("fp32"), QStringLiteral("bf16"), QStringLiteral("int8-weight-only"),
            QStringLiteral("int8-dynamic"), QStringLiteral("int8-static")};
}

RunSettings RunSettings::load()
{
    QSettings s;
    RunSettings r;
    s.beginGroup(QStringLiteral("run"));
    r.dtype = s.value(QStringLiteral("dtype"), r.dtype).toString();
    r.recipe = s.value(QStringLiteral("recipe"), r.recipe).toString();
    r.freezing = s.value(QStringLiteral("freezing"), r.freezing).toBool();
    r.maxAutotune = s.value(QStringLiteral("maxAutotune"), r.maxAutotune).toBool();
    r.regional = s.value(QStringLiteral("regional"), r.regional).toBool();
    r.compareWhole = s.value(QStringLiteral("compareWhole"), r.compareWhole).toBool();
    r.inductor = QJsonDocument::fromJson(s.value(QStringLiteral("inductor")).toByteArray()).object();
    // One JSON object each: model specs hold ':' and '/', which QSettings keys do not keep. (The
    // former "dynamic" key, one list for every model, is not read: its input names belonged to
    // whichever model was open then.)
    r.shapesByModel = QJsonDocument::fromJson(s.value(QStringLiteral("shapes")).toByteArray()).object();
    r.dynamicByModel = QJsonDocument::fromJson(s.value(QStringLiteral("dynamicByModel")).toByteArray()).object();
    r.warmup = s.value(QStringLiteral("warmup"), r.warmup).toInt();
    r.runs = s.value(QStringLiteral("runs"), r.runs).toInt();
    r.maxSeconds = s.value(QStringLiteral("maxSeconds"), r.maxSeconds).toDouble();
    r.schemes = s.value(QStringLiteral("schemes"), r.schemes).toStringList();
    r.calibrationSamples = s.value(QStringLiteral("calibrationSamples"), r.calibrationSamples).toInt();
    r.evalSamples = s.value(QStringLiteral("evalSamples"), r.evalSamples).toInt();
    r.maxError = s.value(QStringLiteral("maxError"), r.maxError).toDouble();
    const QStringList runners = s.value(QStringLiteral("throughputRunners")).toStringList();
    if (!runners.isEmpty()) {
        r.throughputRunners.clear();
        for (const auto &n : runners)
            r.throughputRunners.append(n.toInt());
    }
    r.coldStartRuns = s.value(QStringLiteral("coldStartRuns"), r.coldStartRuns).toInt();
    r.replayRates.clear();
    for (const QString &rate : s.value(QStringLiteral("replayRates")).toStringList()) {
        bool ok = false;
        const double v = rate.toDouble(&ok);
        if (ok && v > 0)
            r.replayRates.append(v);
    }
    r.replaySeconds = s.value(QStringLiteral("replaySeconds"), r.replaySeconds).toDouble();
    if (!(r.replaySeconds > 0))
        r.replaySeconds = 3;
    r.threads = std::max(0, s.value(QStringLiteral("threads"), r.threads).toInt());
    r.ray = s.value(QStringLiteral("ray")).toString().trimmed();
    if (!isRayAddress(r.ray))
        r.ray.clear();
    return r;
}

void RunSettings::save() const
{
    QSettings s;
    s.beginGroup(QStringLiteral("run"));
    s.setValue(QStringLiteral("dtype"), dtype);
    s.setValue(QStringLiteral("recipe"), recipe);
    s.setValue(QStringLiteral("freezing"), freezing);
    s.setValue(QStringLiteral("maxAutotune"), maxAutotune);
    s.setValue(QStringLiteral("regional"), regional);
    s.setValue(QStringLiteral("compareWhole"), compareWhole);
    s.setValue(QStringLiteral("inductor"), QJsonDocument(inductor).toJson(QJsonDocument::Compact));
    s.remove(QStringLiteral("dynamic"));
    s.setValue(QStringLiteral("dynamicByModel"), QJsonDocument(dynamicByModel).toJson(QJsonDocument::Compact));
    s.setValue(QStringLiteral("shapes"), QJsonDocument(shapesByModel).toJson(QJsonDocument::Compact));
    s.setValue(QStringLiteral("warmup"), warmup);
    s.setValue(QStringLiteral("runs"), runs);
    s.setValue(QStringLiteral("maxSeconds"), maxSeconds);
    s.setValue(QStringLiteral("schemes"), schemes);
    s.setValue(QStringLiteral("calibrationSamples"), calibrationSamples);
    s.setValue(QStringLiteral("evalSamples"), evalSamples);
    s.setValue(QStringLiteral("maxError"), maxError);
    QStringList runners;
    for (int n : throughputRunners)
        runners.append(QString::number(n));
    s.setValue(QStringLiteral("throughputRunners"), runners);
    s.setValue(QStringLiteral("coldStartRuns"), coldStartRuns);
    QStringList rates;
    for (double v : replayRates)
        rates.append(QString::number(v));
    s.setValue(QStringLiteral("replayRates"), rates);
    s.setValue(QStringLiteral("replaySeconds"), replaySeconds);
    s.setValue(QStringLiteral("threads"), threads);
    s.setValue(QStringLiteral("ray"), ray);
}

bool RunSettings::isRayAddress(const QString &address)
{
    static const QRegularExpression re(
        QStringLiteral(R"(^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?):([0-9]{1,5})$)"));
    const auto m = re.match(address);
    if (!m.hasMatch())
        return false;
    const int port = m.captured(3).toInt();
    return port >= 1 && port <= 65535;
}

QJsonObject RunSettings::shapes(const QString &model) const
{
    return shapesByModel.value(model).toObject();
}

void RunSettings::setShapes(const QString &model, const QJsonObject &shapes)
{
    if (shapes.isEmpty())
        shapesByModel.remove(model);
    else
        shapesByModel.insert(model, shapes);
}

QStringList RunSettings::dynamic(const QString &model) const
{
    QStringList specs;
    for (const QJsonValue &v : dynamicByModel.value(model).toArray())
        specs.append(v.toString());
    return specs;
}

void RunSettings::setDynamic(const QString &model, const QStringList &dynamic)
{
    if (dynamic.isEmpty())
        dynamicByModel.remove(model);
    else
        dynamicByModel.insert(model, QJsonArray::fromStringList(dynamic));
}

QString RunSettings::shapesText(const QJsonObject &shapes)
{
    QStringList parts;
    for (auto it = shapes.begin(); it != shapes.end(); ++it) {
        QStringList sizes;
        for (const QJsonValue &d : it.value().toArray())
            sizes.append(QString::number(d.toInteger()));
        parts.append(it.key() + QLatin1Char(' ') + sizes.join(QChar(0x00D7)));
    }
    return parts.join(QStringLiteral(", "));
}

QJsonObject RunSettings::requestFields(const QString &type, const QString &model) const
{
    // Profile and quantize requests are typed (profileRequest(), quantizeRequest()). A numerics
    // request measures nothing; a tune's trials are option sets of their own (FORMAT.md, Requests).
    const bool compile = type == QLatin1String("compile");
    const bool numerics = type == QLatin1String("numerics");
    const bool tune = type == QLatin1String("tune");
    QJsonObject o;
    if (!numerics) {
        o.insert(QLatin1String("warmup"), warmup);
        o.insert(QLatin1String("runs"), runs);
        o.insert(QLatin1String("max_seconds"), maxSeconds);
        if (threads > 0) // else the engine uses every CPU this process may use, and says how many
            o.insert(QLatin1String("threads"), threads);
    }
    o.insert(QLatin1String("dtype"), dtype);
    if (!tune) {
        // A compile's freezing is left to its recipe unless ticked (the engine's "auto" decides it).
        if (!compile || freezing)
            o.insert(QLatin1String("freezing"), freezing);
        o.insert(QLatin1String("max_autotune"), maxAutotune);
    }
    if (compile && !recipe.isEmpty() && recipe != QLatin1String("auto"))
        o.insert(QLatin1String("recipe"), recipe);
    if (const QStringList d = dynamic(model); (compile || tune) && !d.isEmpty())
        o.insert(QLatin1String("dynamic"), QJsonArray::fromStringList(d));
    // Only the compile job knows regional compiles (profile, quantize, export and tune do not).
    if (compile && regional) {
        o.insert(QLatin1String("regional"), true);
        if (compareWhole)
            o.insert(QLatin1String("compare_whole"), true);
    }
    if ((compile || numerics) && !inductor.isEmpty())
        o.insert(QLatin1String("inductor"), inductor);
    if ((tune || type == QLatin1String("sweep")) && !ray.isEmpty())
        o.insert(QLatin1String("ray"), ray);
    if (const QJsonObject s = shapes(model); !s.isEmpty() && type != QLatin1String("sweep"))
        o.insert(QLatin1String("shapes"), s);
    return o;
}

void RunSettings::applyRecipeOptions(const QJsonObject &options)
{
    recipe = QStringLiteral("defaults"); // the recipe's own options, as they are
    freezing = options.value(QLatin1String("freezing")).toBool();
    maxAutotune = options.value(QLatin1String("max_autotune")).toBool();
    const QString recipeDtype = options.value(QLatin1String("dtype")).toString();
    if (!recipeDtype.isEmpty())
        dtype = recipeDtype;
    inductor = options.value(QLatin1String("inductor")).toObject();
}

Client::ProfileRequest RunSettings::profileRequest(const Client::CompileRequest &compile) const
{
    Client::ProfileRequest r;
    r.compile = compile;
    r.compile.shapes = shapes(compile.model);
    r.compile.warmup = warmup;
    r.compile.runs = runs;
    r.maxSeconds = maxSeconds;
    r.threads = threads;
    r.dtype = dtype;
    r.freezing = freezing;
    r.maxAutotune = maxAutotune;
    r.throughputRunners = throughputRunners;
    r.coldStartRuns = coldStartRuns;
    r.replayRates = replayRates;
    r.replaySeconds = replaySeconds;
    return r;
}

Client::QuantizeRequest RunSettings::quantizeRequest(const Client::CompileRequest &compile) const
{
    Client::QuantizeRequest r;
    r.compile = compile;
    r.compile.shapes = shapes(compile.model);
    r.compile.warmup = warmup;
    r.compile.runs = runs;
    r.maxSeconds = maxSeconds;
    r.threads = threads;
    r.schemes = schemes;
    r.calibrationSamples = calibrationSamples;
    r.evalSamples = evalSamples;
    r.maxError = maxError;
    r.ray = ray;
    return r;
}

namespace {
/// The compile recipe choice (RunSettings::recipe; FORMAT.md "compile" `recipe`): Auto, the
/// defaults, freezing, max-autotune, or the tune option set a recipe set, kept as it is.
QComboBox *recipeCombo(const QString &current, QWidget *parent)
{
    auto *combo = new QComboBox(parent);
    combo->setObjectName(QStringLiteral("compileRecipe"));
    combo->addItem(RunSettingsDialog::tr("Auto (chosen per model)"), QStringLiteral("auto"));
    combo->addItem(RunSettingsDialog::tr("AOTInductor defaults"), QStringLiteral("defaults"));
    combo->addItem(RunSettingsDialog::tr("Freezing"), QStringLiteral("freezing"));
    combo->addItem(RunSettingsDialog::tr("Max-autotune"), QStringLiteral("max_autotune"));
    if (combo->findData(current) < 0)
        combo->addItem(current, current);
    combo->setCurrentIndex(std::max(0, combo->findData(current)));
    combo->setToolTip(RunSettingsDialog::tr("Auto picks the recipe from the exported graph (on the CPU: freezing when "
                                            "convolutions carry most of the work) and the result says which and why; "
                                            "the boxes below add to any recipe"));
    return combo;
}
} // namespace

RunSettingsDialog::RunSettingsDialog(const RunSettings &settings, const QString &model, QWidget *parent)
    : QDialog(parent)
    , m_original(settings)
    , m_model(model)
    , m_shapes(settings.shapes(model))
    , m_shapesLabel(new QLabel(this))
    , m_dtype(new QComboBox(this))
    , m_recipe(recipeCombo(settings.recipe, this))
    , m_freezing(new QCheckBox(tr("Freezing (fold weights into constants)"), this))
    , m_maxAutotune(new QCheckBox(tr("Max-autotune (benchmark kernel choices; slow compile)"), this))
    , m_regional(new QCheckBox(tr("Regional compile (each repeated block compiled once, weights bound at run time)"), this))
    , m_compareWhole(new QCheckBox(tr("Also compile the whole model to compare"), this))
    , m_inductor(new QLineEdit(this))
    , m_dynamic(new QLineEdit(this))
    , m_warmup(new QSpinBox(this))
    , m_runs(new QSpinBox(this))
    , m_maxSeconds(new QDoubleSpinBox(this))
    , m_schemes(new QListWidget(this))
    , m_calibration(new QSpinBox(this))
    , m_eval(new QSpinBox(this))
    , m_maxError(new QDoubleSpinBox(this))
    , m_runners(new QLineEdit(this))
    , m_coldStart(new QSpinBox(this))
    , m_replayRates(new QLineEdit(this))
    , m_replaySeconds(new QDoubleSpinBox(this))
    , m_threads(new QSpinBox(this))
    , m_ray(new QLineEdit(this))
{
    setWindowTitle(tr("Run Settings"));
    setObjectName(QStringLiteral("runSettingsDialog"));
    m_dtype->addItem(tr("float32"), QStringLiteral("fp32"));
    m_dtype->addItem(tr("bfloat16"), QStringLiteral("bf16"));
    m_dtype->addItem(tr("float16"), QStringLiteral("fp16"));
    m_dtype->setCurrentIndex(std::max(0, m_dtype->findData(settings.dtype)));
    m_freezing->setChecked(settings.freezing);
    m_maxAutotune->setChecked(settings.maxAutotune);
    m_regional->setObjectName(QStringLiteral("regionalCompile"));
    m_regional->setChecked(settings.regional);
    m_regional->setToolTip(tr("Compile finds the model's repeated blocks (e.g. transformer layers), compiles one "
                              "package without weights per block class and runs every instance on it with its own "
                              "weights: a shorter compile than the whole model's. Profile, Quantize, Export and Tune "
                              "always compile the whole model."));
    m_compareWhole->setObjectName(QStringLiteral("compareWhole"));
    m_compareWhole->setChecked(settings.compareWhole);
    m_compareWhole->setToolTip(tr("Compiles the whole model too and times it against the model with compiled "
                                  "blocks: compile time and latency of both"));
    m_compareWhole->setEnabled(settings.regional);
    connect(m_regional, &QCheckBox::toggled, m_compareWhole, &QWidget::setEnabled);
    m_dynamic->setText(settings.dynamic(model).join(QStringLiteral(", ")));
    m_dynamic->setObjectName(QStringLiteral("dynamicDimensions"));
    m_dynamic->setEnabled(!model.isEmpty()); // the dimensions name one model's inputs
    m_inductor->setObjectName(QStringLiteral("inductorOptions"));
    m_inductor->setText(settings.inductor.isEmpty() ? QString()
                                                    : QString::fromUtf8(QJsonDocument(settings.inductor).toJson(QJsonDocument::Compact)));
    m_inductor->setPlaceholderText(tr("e.g. {\"epilogue_fusion\": false}"));
    m_inductor->setToolTip(tr("Further Inductor options of a compile as a JSON object (torch._inductor.config keys, "
                              "dotted, to values); a tune's “Use this recipe” fills it"));
    m_dynamic->setPlaceholderText(tr("e.g. 0:0:1:64 (input 0, dimension 0, from 1 to 64)"));
    m_dynamic->setToolTip(model.isEmpty() ? tr("Pick a model first: dynamic dimensions are kept per model")
                                          : tr("Dynamic dimensions of %1 for torch.export, comma-separated: INPUT:DIM or "
                                               "INPUT:DIM:MIN:MAX, each optionally =NAME; one name ties dimensions of "
                                               "several inputs (0:0=batch, 1:0=batch)")
                                                .arg(model));
    m_warmup->setRange(0, 1000);
    m_warmup->setValue(settings.warmup);
    m_runs->setRange(1, 100000);
    m_runs->setValue(settings.runs);
    m_maxSeconds->setRange(0.1, 3600);
    m_maxSeconds->setSuffix(tr(" s"));
    m_maxSeconds->setValue(settings.maxSeconds);
    for (const QString &scheme : RunSettings::allSchemes()) {
        auto *item = new QListWidgetItem(scheme, m_schemes);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(settings.schemes.contains(scheme) ? Qt::Checked : Qt::Unchecked);
        if (scheme == QLatin1String("fp8-dynamic"))
            item->setToolTip(tr("Needs a CUDA GPU of compute capability 8.9 or newer"));
    }
    m_schemes->setMaximumHeight(m_schemes->sizeHintForRow(0) * 7 + 6);
    m_calibration->setRange(1, 100000);
    m_calibration->setValue(settings.calibrationSamples);
    m_eval->setRange(1, 100000);
    m_eval->setValue(settings.evalSamples);
    m_maxError->setDecimals(6);
    m_maxError->setRange(0, 1e6);
    m_maxError->setSpecialValueText(tr("none"));
    m_maxError->setValue(settings.maxError);
    QStringList runners;
    for (int n : settings.throughputRunners)
        runners.append(QString::number(n));
    m_runners->setText(runners.join(QStringLiteral(", ")));
    m_runners->setToolTip(tr("Runner counts for the throughput test, comma-separated; empty skips it"));
    m_coldStart->setRange(0, 100);
    m_coldStart->setValue(settings.coldStartRuns);
    m_coldStart->setSpecialValueText(tr("skip"));
    m_replayRates->setObjectName(QStringLiteral("replayRates"));
    QStringList rates;
    for (double v : settings.replayRates)
        rates.append(QString::number(v));
    m_replayRates->setText(rates.join(QStringLiteral(", ")));
    m_replayRates->setPlaceholderText(tr("empty: skip (e.g. 5, 20, 50)"));
    m_replayRates->setToolTip(tr("Arrival rates for the burst replay after cold start, comma-separated: at each rate "
                                 "aotstudio-run serves a Poisson trace with warm workers, with a fresh worker per "
                                 "request and with a fresh process per request; empty skips it"));
    m_replaySeconds->setObjectName(QStringLiteral("replaySeconds"));
    m_replaySeconds->setRange(0.5, 600);
    m_replaySeconds->setDecimals(1);
    m_replaySeconds->setSuffix(tr(" s"));
    m_replaySeconds->setValue(settings.replaySeconds);
    m_replaySeconds->setToolTip(tr("Seconds of arrivals per rate; every request is answered, so a saturated mode "
                                   "takes longer"));
    m_threads->setRange(0, 4096);
    m_threads->setSpecialValueText(tr("all usable CPUs"));
    m_threads->setValue(settings.threads);
    m_threads->setToolTip(tr("Intra-op threads for eager and compiled alike; the engine refuses more than the CPUs it "
                             "may use (affinity and cgroup quota) and records the count in every result"));
    // The Inputs dialog (Model → Inputs…) edits the shapes; here they are shown and can be reset.
    m_shapesLabel->setObjectName(QStringLiteral("shapesLabel"));
    m_shapesLabel->setWordWrap(true);
    m_shapesLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *resetShapes = new QPushButton(tr("Reset Shapes"), this);
    resetShapes->setObjectName(QStringLiteral("resetShapesButton"));
    resetShapes->setToolTip(tr("Use the model's own example shapes again"));
    const auto showShapes = [this, resetShapes] {
        m_shapesLabel->setText(m_shapes.isEmpty() ? tr("the model's own") : RunSettings::shapesText(m_shapes));
        m_shapesLabel->setToolTip(m_model.isEmpty() ? QString() : tr("Example input shapes of %1 (Model → Inputs… "
                                                                      "edits them)").arg(m_model));
        resetShapes->setEnabled(!m_shapes.isEmpty());
    };
    showShapes();
    connect(resetShapes, &QPushButton::clicked, this, [this, showShapes] {
        m_shapes = QJsonObject();
        showShapes();
    });
    auto *shapesRow = new QHBoxLayout;
    shapesRow->addWidget(m_shapesLabel, 1);
    shapesRow->addWidget(resetShapes);
    auto *compile = new QGroupBox(tr("Compile"), this);
    auto *compileForm = new QFormLayout(compile);
    compileForm->addRow(tr("Data type:"), m_dtype);
    compileForm->addRow(tr("Recipe:"), m_recipe);
    compileForm->addRow(m_freezing);
    compileForm->addRow(m_maxAutotune);
    compileForm->addRow(m_regional);
    compileForm->addRow(m_compareWhole);
    compileForm->addRow(tr("Input shapes:"), shapesRow);
    compileForm->addRow(tr("Dynamic dimensions:"), m_dynamic);
    compileForm->addRow(tr("Inductor options:"), m_inductor);
    auto *measure = new QGroupBox(tr("Measure"), this);
    auto *measureForm = new QFormLayout(measure);
    measureForm->addRow(tr("Warm-up runs:"), m_warmup);
    measureForm->addRow(tr("Most timed runs:"), m_runs);
    measureForm->addRow(tr("Time cap per variant:"), m_maxSeconds);
    measureForm->addRow(tr("Threads:"), m_threads);
    measureForm->addRow(tr("Throughput runners:"), m_runners);
    measureForm->addRow(tr("Cold-start runs:"), m_coldStart);
    measureForm->addRow(tr("Burst replay rates (requests/s):"), m_replayRates);
    measureForm->addRow(tr("Seconds per replay rate:"), m_replaySeconds);
    auto *quant = new QGroupBox(tr("Quantize"), this);
    auto *quantForm = new QFormLayout(quant);
    quantForm->addRow(tr("Schemes:"), m_schemes);
    quantForm->addRow(tr("Calibration samples:"), m_calibration);
    quantForm->addRow(tr("Evaluation samples:"), m_eval);
    quantForm->addRow(tr("Max error for “best”:"), m_maxError);

    m_ray->setObjectName(QStringLiteral("rayAddress"));
    m_ray->setText(settings.ray);
    m_ray->setClearButtonEnabled(true);
    m_ray->setPlaceholderText(tr("none: run everything in the engine"));
    m_ray->setValidator(new QRegularExpressionValidator(
        QRegularExpression(QStringLiteral(R"([A-Za-z0-9.\-\[\]:]*)")), m_ray));
    m_ray->setToolTip(tr("HOST:PORT of a Ray cluster's head (what “ray start --head” printed). Quantize schemes, "
                         "export buckets, tune trials and sweep shards then run there as Ray tasks, each in an engine "
                         "on a worker node with the same torch; results come back into the job folder. Rows measured "
                         "on different hosts are never put into one ratio."));
    auto *cluster = new QGroupBox(tr("Cluster"), this);
    auto *clusterForm = new QFormLayout(cluster);
    clusterForm->addRow(tr("Ray cluster:"), m_ray);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        const QString address = m_ray->text().trimmed();
        if (!address.isEmpty() && !RunSettings::isRayAddress(address)) {
            m_ray->setFocus();
            m_ray->setStyleSheet(QStringLiteral("QLineEdit { border: 1px solid #c0392b; }"));
            m_ray->setToolTip(tr("“%1” is not HOST:PORT (e.g. 10.0.0.5:6379)").arg(address));
            return;
        }
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Two columns: in one, the dialog was 845 px high, taller than a 1366×768 screen.
    auto *left = new QVBoxLayout;
    left->addWidget(compile);
    left->addWidget(quant);
    left->addStretch(1);
    auto *right = new QVBoxLayout;
    right->addWidget(measure);
    right->addWidget(cluster);
    right->addStretch(1);
    auto *columns = new QHBoxLayout;
    columns->addLayout(left, 1);
    columns->addLayout(right, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(columns);
    layout->addWidget(buttons);
}

RunSettings RunSettingsDialog::settings() const
{
    RunSettings r = m_original;
    r.setShapes(m_model, m_shapes);
    r.dtype = m_dtype->currentData().toString();
    r.recipe = m_recipe->currentData().toString();
    r.freezing = m_freezing->isChecked();
    r.maxAutotune = m_maxAutotune->isChecked();
    r.regional = m_regional->isChecked();
    r.compareWhole = m_compareWhole->isChecked();
    r.inductor = QJsonDocument::fromJson(m_inductor->text().trimmed().toUtf8()).object(); // not an object: none
    if (!m_model.isEmpty()) {
        QStringList dynamic;
        for (const QString &d : m_dynamic->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
            dynamic.append(d.trimmed());
        r.setDynamic(m_model, dynamic);
    }
    r.warmup = m_warmup->value();
    r.runs = m_runs->value();
    r.maxSeconds = m_maxSeconds->value();
    r.schemes.clear();
    for (int i = 0; i < m_schemes->count(); ++i) {
        if (m_schemes->item(i)->checkState() == Qt::Checked)
            r.schemes.append(m_schemes->item(i)->text());
    }
    r.calibrationSamples = m_calibration->value();
    r.evalSamples = m_eval->value();
    r.maxError = m_maxError->value();
    r.throughputRunners.clear();
    for (const QString &n : m_runners->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int v = n.trimmed().toInt(&ok);
        if (ok && v > 0)
            r.throughputRunners.append(v);
    }
    r.coldStartRuns = m_coldStart->value();
    r.replayRates = parseRates(m_replayRates->text());
    r.replaySeconds = m_replaySeconds->value();
    r.threads = m_threads->value();
    r.ray = m_ray->text().trimmed();
    return r;
}

QList<double> RunSettingsDialog::parseRates(const QString &text)
{
    QList<double> rates;
    for (const QString &word : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const double v = word.trimmed().toDouble(&ok);
        if (ok && v > 0 && v <= 10000 && !rates.contains(v))
            rates.append(v);
    }
    return rates;
}

} // namespace AotStudio::Widgets
