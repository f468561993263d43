// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobcontroller.h"

#include "connectdialog.h"
#include "exportdialog.h"
#include "capturedialog.h"
#include "inputsdialog.h"
#include "measurementtext.h"
#include "selectionhub.h"
#include "sessioncontroller.h"
#include "trustdialog.h"

#include "client/artifactstore.h"
#include "client/numericsresult.h"
#include "client/session.h"
#include "client/stagenames.h"
#include "client/sweepresult.h"

#include <QDateTime>
#include <QJsonArray>
#include <QDir>
#include <QDirIterator>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>

namespace AotStudio::Widgets {

namespace {
/// The engine locks its output folder with this file (core/python job.py); it is not output.
constexpr auto LockFileName = ".aotstudio.lock";
/// The last tune budget asked for, minutes (QSettings).
constexpr auto KeyTuneBudget = "run/tuneBudgetMinutes";
constexpr int DefaultTuneBudgetMinutes = 10;

QString requestType(JobController::JobKind kind)
{
    using Kind = JobController::JobKind;
    switch (kind) {
    case Kind::Profile:
        return QStringLiteral("profile");
    case Kind::Quantize:
        return QStringLiteral("quantize");
    case Kind::Numerics:
        return QStringLiteral("numerics");
    case Kind::Tune:
        return QStringLiteral("tune");
    case Kind::Export:
        return QStringLiteral("export");
    case Kind::Sweep:
        return QStringLiteral("sweep");
    case Kind::Repro:
        return QStringLiteral("repro");
    case Kind::Compile:
        break;
    }
    return QStringLiteral("compile");
}
} // namespace

JobController::JobController(SessionController *sessions, QWidget *dialogParent, QObject *parent)
    : QObject(parent)
    , m_sessions(sessions)
    , m_dialogParent(dialogParent)
    , m_client(new Client::EngineClient(this))
    , m_runSettings(RunSettings::load())
{
    using Client::EngineClient;
    Client::Session *live = m_sessions->liveSession();
    connect(m_client, &EngineClient::stateChanged, this, &JobController::engineStateChanged);
    connect(m_client, &EngineClient::handshakeCompleted, this, &JobController::onHandshake);
    // Everything the engine says goes into the live session (recorded, replayable), and the
    // session is the one consumer of engine events: this controller, the log and the panels
    // observe it, never the client's events (so a job's state is one record, read by all).
    connect(m_client, &EngineClient::eventReceived, live, &Client::Session::apply);
    connect(m_client, &EngineClient::requestSent, live, &Client::Session::recordRequest);
    connect(m_client, &EngineClient::stderrLine, live,
            [live](const QString &line) { live->recordLog(0, QStringLiteral("debug"), line); });
    connect(m_client, &EngineClient::clientMessage, live,
            [live](const QString &level, const QString &message) { live->recordLog(0, level, message); });
    // Client-side failures (the engine crashed or was killed mid-job) end the job in the session;
    // an engine's own `error` reached it through eventReceived first (recordError then ignores
    // the ended job). Engine-wide failures come as engineFailed.
    connect(m_client, &EngineClient::errorReceived, live, [live](qint64 id, const Client::EngineError &error) {
        if (id > 0)
            live->recordError(id, error);
    });
    connect(live, &Client::Session::logAppended, this,
            [this](const Client::LogRecord &record) {
                // The verdict's paragraph is said once, in the view's Measurement line: one line here.
                Q_EMIT logMessage(record.job, record.level, MeasurementText::logLine(record.message));
            });
    connect(live, &Client::Session::progressed, this, &JobController::onProgress);
    connect(live, &Client::Session::stageFinished, this, [this](qint64 id, const Client::StageRecord &stage) {
        Q_EMIT logMessage(id, QStringLiteral("info"),
                          tr("%1: done in %2 s")
                              .arg(Client::StageNames::displayName(stage.name), QLocale().toString(stage.seconds, 'f', 2)));
    });
    connect(live, &Client::Session::snapshotAdded, this, [this, live](qint64 id, int index) {
        const auto *job = live->job(id);
        if (!job || index >= job->snapshots.size())
            return;
        const auto &snapshot = job->snapshots.at(index);
        // Graph stages (capture, post_grad, …) and pass names are Inductor's own words: kept raw.
        const QString where = snapshot.pass.isEmpty() ? snapshot.stage : QStringLiteral("%1 / %2").arg(snapshot.stage, snapshot.pass);
        Q_EMIT logMessage(id, QStringLiteral("info"), tr("Snapshot %1: %2 nodes").arg(where, QLocale().toString(snapshot.nodes)));
    });
    connect(live, &Client::Session::jobFinished, this, [this, live](qint64 id) {
        const auto *job = live->job(id);
        if (!job)
            return;
        if (job->error)
            onError(id, *job->error);
        else if (job->succeeded())
            onResult(id, job->result);
    });
    connect(live, &Client::Session::engineError, this, [this](const Client::EngineError &error) {
        // An engine-wide error (e.g. its Python frontend did not start): every job will fail. The
        // session logged it.
        Q_EMIT engineProblem(tr("The engine reported a problem: %1").arg(error.message), false);
    });
    connect(m_client, &EngineClient::engineFailed, this, &JobController::onEngineFailed);
    connectRemoteLink(live);
    // Job files are read through the hub's store; a remote engine's come through `read`, and
    // every file of a finished job is fetched into the session's cache at once, so the session
    // reopens later without the engine.
    Client::ArtifactStore *store = m_sessions->selectionHub()->store();
    store->setClient(m_client);
    connect(live, &Client::Session::jobFinished, this, [this, live, store](qint64 id) {
        if (const auto *job = live->job(id); job && m_client->isRemote())
            store->prefetch(Client::ArtifactStore::artifactsOf(*job));
    });
    connect(store, &Client::ArtifactStore::fetchFailed, this,
            [this](const QString &, const QString &message) { Q_EMIT logMessage(0, QStringLiteral("warning"), message); });
}

JobController::~JobController() = default;

QString JobController::jobsDirectory()
{
    // Not AppLocalDataLocation: with organization and application both "AOTStudio" that is
    // ~/.local/share/AOTStudio/AOTStudio, and the settings rely on those names.
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
           + QStringLiteral("/aotstudio/jobs");
}

void JobController::setRequestedDevice(const QString &device)
{
    m_requestedDevice = device;
    if (m_client->isReady()) {
        const QString reason = deviceUnavailableReason(device);
        if (!reason.isEmpty())
            refuseCompile(reason, false);
    }
}

void JobController::compileWhenReady()
{
    if (m_client->isReady())
        compile();
    else
        m_compileWhenReady = true;
}

void JobController::startEngine()
{
    m_client->start();
    Q_EMIT engineStateChanged();
}

bool JobController::setTarget(const QString &name)
{
    if (name == m_client->target())
        return true;
    if (isBusy()) {
        Q_EMIT failed(tr("The target cannot change while a job runs: cancel it or wait for it to finish."));
        return false;
    }
    const bool running = m_client->state() != Client::EngineClient::State::NotRunning;
    m_client->setTarget(name);
    Q_EMIT logMessage(0, QStringLiteral("info"),
                      name.isEmpty() ? tr("Jobs run in the studio's own engine from now on.")
                                     : tr("Jobs run in the engine of target %1 from now on.").arg(name));
    if (running) {
        Q_EMIT engineRestarting();
        m_client->restart();
        Q_EMIT engineStateChanged();
    }
    return true;
}

void JobController::restartEngine()
{
    Q_EMIT engineRestarting();
    Q_EMIT logMessage(0, QStringLiteral("info"), tr("Restarting the engine."));
    m_client->restart();
    Q_EMIT engineStateChanged();
}

void JobController::connectRemoteDialog()
{
    auto *dialog = new ConnectDialog(m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (m_client->isRemote())
        dialog->setRemote(m_client->remote());
    connect(dialog, &QDialog::accepted, this, [this, dialog] { connectRemote(dialog->remote()); });
    dialog->open();
}

void JobController::connectRemote(const Client::RemoteEngine &remote)
{
    Q_EMIT engineRestarting();
    m_client->stop();
    m_client->setRemote(remote);
    Q_EMIT logMessage(0, QStringLiteral("info"),
                      m_client->isRemote() ? tr("Connecting to the engine on %1.").arg(remote.displayName())
                                           : tr("Starting the local engine."));
    m_client->start();
    Q_EMIT engineStateChanged();
}

void JobController::useLocalEngine()
{
    connectRemote(Client::RemoteEngine{});
}

void JobController::chooseEngineVenvDialog()
{
    const QString current = QSettings().value(Client::EngineClient::engineVenvKey()).toString();
    auto *dialog = new QFileDialog(m_dialogParent, tr("Choose the Venv of the Engine"),
                                   current.isEmpty() ? Client::EngineClient::defaultEngineVenv() : current);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &venv) {
        if (useEngineVenv(venv))
            return;
        auto *box = new QMessageBox(QMessageBox::Warning, tr("No engine in this venv"),
                                    tr("%1 has no %2. Install the engine into it with: %3")
                                        .arg(QDir::toNativeSeparators(venv),
                                             QDir::toNativeSeparators(Client::EngineClient::engineInVenv(venv)),
                                             Client::EngineClient::pipInstallCommand(venv)),
                                    QMessageBox::Ok, m_dialogParent);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setTextInteractionFlags(Qt::TextSelectableByMouse);
        box->open();
    });
    dialog->open();
}

bool JobController::useEngineVenv(const QString &venv)
{
    if (!QFileInfo(Client::EngineClient::engineInVenv(venv)).isExecutable())
        return false;
    QSettings().setValue(Client::EngineClient::engineVenvKey(), venv);
    connectRemote(Client::RemoteEngine{}); // stops the running engine, starts the venv's
    return true;
}

bool JobController::forgetEngineVenv()
{
    QSettings settings;
    const QString venv = settings.value(Client::EngineClient::engineVenvKey()).toString();
    if (venv.isEmpty())
        return false;
    settings.remove(Client::EngineClient::engineVenvKey());
    Q_EMIT statusMessage(tr("No longer using the engine in %1").arg(QDir::toNativeSeparators(venv)), 8000);
    connectRemote(Client::RemoteEngine{}); // stops the running engine, starts the one found now
    return true;
}

QString JobController::newJobDirectory() const
{
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    if (m_client->isRemote()) // a folder on the host: the engine creates it
        return (m_client->remote().jobFolder.isEmpty() ? Client::RemoteEngine().jobFolder : m_client->remote().jobFolder)
               + QLatin1Char('/') + stamp;
    const QString base = jobsDirectory() + QLatin1Char('/') + stamp;
    QString path = base;
    for (int n = 2; QFileInfo::exists(path); ++n)
        path = base + QStringLiteral("-%1").arg(n);
    return path;
}

bool JobController::compile()
{
    return startJob(JobKind::Compile);
}

bool JobController::profile()
{
    return startJob(JobKind::Profile);
}

bool JobController::quantize()
{
    return startJob(JobKind::Quantize);
}

bool JobController::numerics()
{
    return startJob(JobKind::Numerics);
}

int JobController::tuneBudgetMinutes()
{
    return std::max(1, QSettings().value(QLatin1String(KeyTuneBudget), DefaultTuneBudgetMinutes).toInt());
}

void JobController::showTuneDialog()
{
    if (!canStart())
        return;
    const QString model = m_inputs ? m_inputs().model : QString();
    if (model.isEmpty()) {
        Q_EMIT statusMessage(tr("Pick a model first."), 5000);
        return;
    }
    auto *dialog = new QInputDialog(m_dialogParent);
    dialog->setObjectName(QStringLiteral("tuneBudgetDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Tune Compile Recipe"));
    dialog->setLabelText(tr("Compile %1 under several option sets (freezing, max-autotune, fusion, bf16, …), verify "
                            "each against eager and time them all.\n\nTime budget (no trial starts after it):")
                             .arg(model));
    dialog->setInputMode(QInputDialog::IntInput);
    dialog->setIntRange(1, 24 * 60);
    dialog->setIntValue(tuneBudgetMinutes());
    dialog->setOkButtonText(tr("Tune"));
    if (auto *spin = dialog->findChild<QSpinBox *>())
        spin->setSuffix(tr(" min"));
    if (auto *label = dialog->findChild<QLabel *>())
        label->setWordWrap(true);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        QSettings().setValue(QLatin1String(KeyTuneBudget), dialog->intValue());
        tune(dialog->intValue() * 60.0);
    });
    dialog->open(); // not exec(): the window (and tests) keep running
}

bool JobController::tune(double budgetSeconds)
{
    return startJob(JobKind::Tune, QJsonObject{{QLatin1String("budget_seconds"), budgetSeconds}});
}

bool JobController::sweep()
{
    if (!canStart())
        return false;
    if (m_lastResult && m_lastResult->isRegional()) {
        Q_EMIT statusMessage(tr("The last compile was regional: it has no package of the whole model to sweep."), 8000);
        return false;
    }
    if (!m_lastResult || m_lastResult->package.isEmpty() || m_lastCompileDirectory.isEmpty()) {
        Q_EMIT statusMessage(tr("Compile a model first: Sweep Shapes verifies the last compiled package."), 8000);
        return false;
    }
    const QString out = QDir(m_lastCompileDirectory).filePath(QStringLiteral("sweep"));
    return submitSweep(QJsonObject{{QLatin1String("package"), m_lastResult->package}, {QLatin1String("out"), out}},
                       m_lastResult->model, tr("Sweeping %1 across its shapes…").arg(m_lastResult->model),
                       tr("Sweeping the package %1 into %2").arg(m_lastResult->package, out));
}

void JobController::setReproCandidate(const QString &folder, const QString &text)
{
    if (folder == m_reproCandidate && text == m_reproCandidateText)
        return;
    m_reproCandidate = folder;
    m_reproCandidateText = text;
    Q_EMIT reproCandidateChanged();
}

bool JobController::makeRepro()
{
    if (!canStart())
        return false;
    if (m_reproCandidate.isEmpty()) {
        Q_EMIT statusMessage(tr("Nothing to reproduce: Make Repro needs a compile that failed to compile or verify, "
                                "or a numerics job that found a divergent node."),
                             8000);
        return false;
    }
    m_sessions->showLiveSession();
    m_sessions->ensureRecording(m_client->engineInfo());
    const QString folder = m_reproCandidate;
    const QJsonObject body{{QLatin1String("job"), folder}, {QLatin1String("run"), true}};
    m_currentJob = m_client->submitJob(QStringLiteral("repro"), body);
    if (m_currentJob == 0)
        return false;
    m_jobDirectory.clear();
    m_sweptBundle.clear();
    jobSubmitted(JobKind::Repro, m_reproCandidateText, QDir(folder).filePath(QStringLiteral("repro")),
                 tr("Making a repro of %1…").arg(m_reproCandidateText),
                 tr("Making a standalone repro of %1 (%2) and running it once in a fresh process")
                     .arg(m_reproCandidateText, folder));
    return true;
}

bool JobController::submitSweep(QJsonObject body, const QString &model, const QString &status, const QString &logLine)
{
    m_sessions->showLiveSession();
    m_sessions->ensureRecording(m_client->engineInfo());
    const QJsonObject fields = m_runSettings.requestFields(QStringLiteral("sweep"));
    for (const auto key : {QLatin1String("threads"), QLatin1String("ray")})
        if (fields.contains(key))
            body.insert(key, fields.value(key));
    m_currentJob = m_client->submitJob(QStringLiteral("sweep"), body);
    if (m_currentJob == 0)
        return false;
    m_jobDirectory.clear();
    m_sweptBundle = body.value(QLatin1String("bundle")).toString();
    jobSubmitted(JobKind::Sweep, model, body.value(QLatin1String("out")).toString(), status, logLine);
    return true;
}

void JobController::jobSubmitted(JobKind kind, const QString &model, const QString &out, const QString &status,
                                 const QString &logLine)
{
    m_currentKind = kind;
    m_currentModel = model;
    m_currentOut = out;
    Q_EMIT jobStarted(m_currentJob, kind);
    Q_EMIT statusMessage(status, 0);
    Q_EMIT progressChanged(0.0);
    Q_EMIT stageChanged(tr("Starting…"));
    Q_EMIT logMessage(m_currentJob, QStringLiteral("info"), logLine);
    Q_EMIT busyChanged(true);
}

void JobController::chooseBundleToSweep()
{
    QString bundle;
    if (m_client->isRemote()) { // a path on the engine's host: nothing here to browse
        bool ok = false;
        bundle = QInputDialog::getText(m_dialogParent, tr("Sweep a Bundle"),
                                       tr("Bundle on %1 (a folder holding manifest.json, or a .zip):").arg(m_client->remote().host),
                                       QLineEdit::Normal, QString(), &ok)
                     .trimmed();
        if (!ok)
            return;
    } else {
        bundle = QFileDialog::getOpenFileName(m_dialogParent, tr("Sweep a Bundle"), QString(),
                                              tr("Bundles (manifest.json *.zip);;All files (*)"));
        if (QFileInfo(bundle).fileName() == QLatin1String("manifest.json"))
            bundle = QFileInfo(bundle).absolutePath();
    }
    if (!bundle.isEmpty())
        startBundleSweep(bundle);
}

bool JobController::startBundleSweep(const QString &bundle, bool allowUnsigned)
{
    if (!canStart())
        return false;
    const QString out = newJobDirectory();
    QJsonObject body{{QLatin1String("bundle"), bundle}, {QLatin1String("out"), out}};
    if (allowUnsigned)
        body.insert(QLatin1String("allow_unsigned"), true);
    return submitSweep(
        body, QFileInfo(bundle).fileName(), tr("Sweeping the bundle %1 across its shapes…").arg(bundle),
        allowUnsigned ? tr("Sweeping the bundle %1 into %2 (loaded without a trusted signature, as you chose)").arg(bundle, out)
                      : tr("Sweeping the bundle %1 into %2").arg(bundle, out));
}

void JobController::showRunSettings()
{
    auto *dialog = new RunSettingsDialog(m_runSettings, m_inputs ? m_inputs().model : QString(),
                                         m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        m_runSettings = dialog->settings();
        m_runSettings.save();
    });
    dialog->open();
}

void JobController::showInputsDialog()
{
    const Inputs inputs = m_inputs ? m_inputs() : Inputs();
    if (inputs.model.isEmpty()) {
        Q_EMIT statusMessage(tr("Pick a model first."), 5000);
        return;
    }
    if (!m_client->isReady()) {
        Q_EMIT statusMessage(tr("The engine is not ready yet."), 5000);
        return;
    }
    auto *dialog = new InputsDialog(m_client, inputs.model, inputs.device, m_runSettings, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this,
            [this, dialog] { setInputShapes(dialog->model(), dialog->shapes(), dialog->dynamic()); });
    dialog->open();
}

void JobController::showCaptureDialog()
{
    if (!m_client->isReady()) {
        Q_EMIT statusMessage(tr("The engine is not ready yet."), 5000);
        return;
    }
    const Inputs inputs = m_inputs ? m_inputs() : Inputs();
    const QString out = newJobDirectory() + QStringLiteral("-capture");
    auto *dialog = new CaptureDialog(m_client, inputs.model, out, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &CaptureDialog::compileRequested, this, &JobController::compileFromCapture);
    connect(dialog, &CaptureDialog::exportRequested, this, &JobController::exportFromCapture);
    dialog->open();
}

bool JobController::compileFromCapture(const QString &folder, const QStringList &dynamic)
{
    return startJob(JobKind::Compile, {{QLatin1String("from_capture"), folder},
                                       {QLatin1String("dynamic"), QJsonArray::fromStringList(dynamic)}});
}

bool JobController::exportFromCapture(const QString &folder, const QList<int> &buckets, bool padSafe,
                                      const QStringList &dynamic)
{
    const Inputs inputs = m_inputs ? m_inputs() : Inputs();
    if (inputs.model.isEmpty()) {
        Q_EMIT statusMessage(tr("Pick a model first."), 5000);
        return false;
    }
    Client::ExportRequest request;
    request.model = inputs.model;
    request.device = inputs.device;
    request.dtype = m_runSettings.dtype;
    request.out = newJobDirectory() + QStringLiteral("-bundle");
    request.buckets = buckets;
    request.padSafe = padSafe;
    request.dynamic = dynamic;
    request.fromCapture = folder;
    request.coldStartRuns = m_runSettings.coldStartRuns;
    return exportBundle(request);
}

void JobController::setInputShapes(const QString &model, const QJsonObject &shapes, const QStringList &dynamic)
{
    m_runSettings.setShapes(model, shapes);
    m_runSettings.setDynamic(model, dynamic);
    m_runSettings.save();
    Q_EMIT statusMessage(shapes.isEmpty() ? tr("Jobs of %1 use its own example shapes.").arg(model)
                                          : tr("Jobs of %1 use the shapes %2.").arg(model, RunSettings::shapesText(shapes)),
                         10000);
}

void JobController::applyRecipeOptions(const QJsonObject &options, const QString &name)
{
    m_runSettings.applyRecipeOptions(options);
    m_runSettings.save();
    Q_EMIT statusMessage(tr("The next compile uses the recipe “%1” (Run Settings shows its options).").arg(name), 10000);
}

bool JobController::startJob(JobKind kind, const QJsonObject &extra)
{
    if (!canStart())
        return false;
    const Inputs inputs = m_inputs ? m_inputs() : Inputs();
    Client::CompileRequest request;
    request.model = inputs.model;
    if (request.model.isEmpty()) {
        Q_EMIT statusMessage(tr("Pick a model first."), 5000);
        return false;
    }
    request.device = inputs.device;
    // An explicit request the engine cannot serve is refused, not swapped for another device.
    const QString deviceProblem =
        deviceUnavailableReason(m_requestedDevice.isEmpty() ? request.device : m_requestedDevice);
    if (!deviceProblem.isEmpty()) {
        refuseCompile(deviceProblem);
        return false;
    }
    if (kind == JobKind::Quantize && m_runSettings.schemes.isEmpty()) {
        Q_EMIT statusMessage(tr("Choose at least one scheme in Run Settings."), 8000);
        return false;
    }
    const QString chosen = inputs.output;
    request.out = QDir::cleanPath(chosen.isEmpty() ? newJobDirectory() : chosen);
    const bool created = !m_client->isRemote() && !QFileInfo::exists(request.out);
    if (!m_client->isRemote() && !QDir().mkpath(request.out)) {
        Q_EMIT statusMessage(tr("Cannot create the output folder %1.").arg(request.out), 10000);
        return false;
    }
    // A job started while a saved session is shown goes back to the live session.
    m_sessions->showLiveSession();
    m_sessions->ensureRecording(m_client->engineInfo());
    const QString type = requestType(kind);
    // Profile the package the last compile made when it is of this model, device and options,
    // instead of compiling the same thing again (the profile checks it against the model first).
    bool reused = false;
    QJsonObject body;
    if (kind == JobKind::Profile) {
        Client::ProfileRequest profile = m_runSettings.profileRequest(request);
        if (m_lastResult && !m_lastResult->package.isEmpty() && QFileInfo::exists(m_lastResult->package)) {
            const QJsonObject options = m_lastResult->raw.value(QLatin1String("options")).toObject();
            const auto same = [&](const char *key, const QJsonValue &wanted, const QJsonValue &fallback) {
                return options.value(QLatin1String(key)).toVariant() == wanted.toVariant()
                    || (!options.contains(QLatin1String(key)) && wanted == fallback);
            };
            reused = m_lastResult->model == request.model && m_lastResult->device == request.device
                && same("dtype", profile.dtype, QStringLiteral("fp32")) && same("freezing", profile.freezing, false)
                && same("max_autotune", profile.maxAutotune, false)
                && same("shapes", profile.compile.shapes.isEmpty() ? QJsonValue() : QJsonValue(profile.compile.shapes),
                        QJsonValue());
            if (reused)
                profile.package = m_lastResult->package;
        }
        body = profile.toJson(0);
    } else if (kind == JobKind::Quantize) {
        body = m_runSettings.quantizeRequest(request).toJson(0);
    } else if (kind == JobKind::Numerics || kind == JobKind::Tune) {
        // Only the fields FORMAT.md gives these requests (no compile defaults such as tolerance).
        body = QJsonObject{{QLatin1String("model"), request.model},
                           {QLatin1String("device"), request.device},
                           {QLatin1String("out"), request.out}};
        const QJsonObject fields = m_runSettings.requestFields(type, request.model);
        for (auto it = fields.begin(); it != fields.end(); ++it)
            body.insert(it.key(), it.value());
    } else {
        body = request.toJson(0);
        const QJsonObject fields = m_runSettings.requestFields(type, request.model);
        for (auto it = fields.begin(); it != fields.end(); ++it)
            body.insert(it.key(), it.value());
    }
    for (auto it = extra.begin(); it != extra.end(); ++it)
        body.insert(it.key(), it.value());
    body.remove(QLatin1String("id"));
    body.remove(QLatin1String("type"));
    m_currentJob = m_client->submitJob(type, body);
    if (m_currentJob == 0) {
        if (created)
            QDir().rmdir(request.out);
        return false;
    }
    // Only a folder made here may be removed again, and only while the job left nothing in it.
    m_jobDirectory = chosen.isEmpty() && created ? request.out : QString();
    const QString what = kind == JobKind::Profile  ? tr("Profiling %1…")
                       : kind == JobKind::Quantize ? tr("Quantizing %1…")
                       : kind == JobKind::Numerics ? tr("Finding where %1 diverges numerically…")
                       : kind == JobKind::Tune     ? tr("Tuning the compile recipe of %1…")
                                                   : tr("Compiling %1…");
    QString line;
    if (kind == JobKind::Quantize)
        line = tr("Quantizing %1 on %2 into %3 (schemes: %4)")
                   .arg(request.model, request.device, request.out, m_runSettings.schemes.join(QStringLiteral(", ")));
    else if (kind == JobKind::Numerics)
        line = tr("Finding the numerical divergence of %1 on %2 in %3 into %4 (each node against a float64 reference)")
                   .arg(request.model, request.device, m_runSettings.dtype, request.out);
    else if (kind == JobKind::Tune)
        line = tr("Tuning the compile recipe of %1 on %2 into %3 (budget %4)")
                   .arg(request.model, request.device, request.out,
                        tr("%n min", nullptr, qRound(body.value(QLatin1String("budget_seconds")).toDouble() / 60.0)));
    else
        line = (kind == JobKind::Profile ? tr("Profiling %1 on %2 into %3") : tr("Compiling %1 on %2 into %3"))
                   .arg(request.model, request.device, request.out);
    if (const QString ray = body.value(QLatin1String("ray")).toString(); !ray.isEmpty())
        line += QLatin1Char(' ') + tr("on the Ray cluster %1").arg(ray);
    jobSubmitted(kind, request.model, request.out, what.arg(request.model), line);
    if (reused)
        Q_EMIT logMessage(m_currentJob, QStringLiteral("info"),
                          tr("Profiling the package of the last compile (%1): same model, device and options, so it is not "
                             "compiled again").arg(m_lastResult->package));
    return true;
}

void JobController::showExportDialog()
{
    if (!canStart() || m_lastCompileDirectory.isEmpty())
        return;
    if (m_lastResult && m_lastResult->isRegional()) { // the action is off then; a shortcut may still come here
        Q_EMIT statusMessage(tr("The last compile was regional: export a bundle from a compile of the whole model."),
                             8000);
        return;
    }
    auto *dialog = new ExportDialog(m_lastCompileDirectory, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { exportBundle(dialog->request()); });
    dialog->open(); // not exec(): the window (and tests) keep running
}

bool JobController::exportBundle(const Client::ExportRequest &request)
{
    if (!canStart())
        return false;
    // No folder is made here: the engine creates the bundle and refuses an existing one.
    Client::ExportRequest sent = request;
    if (sent.ray.isEmpty())
        sent.ray = m_runSettings.ray; // the buckets' compiles on the Run Settings' Ray cluster
    m_currentJob = m_client->exportBundle(sent);
    if (m_currentJob == 0)
        return false;
    QStringList buckets;
    for (int b : request.buckets)
        buckets << QString::number(b);
    if (request.hasDynamicBatch())
        buckets << QStringLiteral("%1..%2").arg(request.dynamicBatchMin).arg(request.dynamicBatchMax);
    jobSubmitted(JobKind::Export, m_lastResult ? m_lastResult->model : request.model, request.out,
                 tr("Exporting a bundle to %1…").arg(request.out),
                 tr("Exporting a bundle of %1 (batch %2) into %3")
                     .arg(request.from.isEmpty() ? request.model : request.from, buckets.join(QStringLiteral(", ")),
                          request.out));
    return true;
}

void JobController::cancel()
{
    if (m_currentJob == 0)
        return;
    Q_EMIT stageChanged(tr("Cancelling…"));
    m_cancelledJob = m_currentJob;
    m_client->cancel(m_currentJob);
}

void JobController::refuseCompile(const QString &reason, bool compileWasRequested)
{
    // The full reason goes to the log; the status bar gets what fits beside the engine status.
    Q_EMIT logMessage(0, QStringLiteral("warning"), reason);
    Q_EMIT stageChanged(tr("Not started: no CUDA device"));
    Q_EMIT stageDetailsChanged(reason);
    Q_EMIT failed(tr("Not compiled: CUDA was requested, but the engine has no CUDA device."));
    if (compileWasRequested)
        Q_EMIT compileBlocked(reason);
}

QString JobController::deviceUnavailableReason(const QString &device) const
{
    if (device != QLatin1String("cuda") || !m_client->isReady() || m_client->engineInfo().cudaAvailable)
        return QString();
    const auto &info = m_client->engineInfo();
    return tr("CUDA was requested, but the engine reports no CUDA device (torch %1, CUDA %2). "
              "Nothing was compiled; choose CPU to compile on the CPU.")
        .arg(info.torchVersion.isEmpty() ? tr("unavailable") : info.torchVersion,
             info.cudaVersion.isEmpty() ? tr("none") : info.cudaVersion);
}

void JobController::removeJobDirectoryIfEmpty()
{
    const QString dir = std::exchange(m_jobDirectory, QString());
    if (dir.isEmpty())
        return;
    // Empty sub-folders and the engine's lock file do not count as output.
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        if (it.next(), it.fileName() != QLatin1String(LockFileName))
            return;
    }
    QDir(dir).removeRecursively();
}

void JobController::finishJob(bool ok)
{
    if (ok)
        m_jobDirectory.clear(); // keep it: it holds the package
    else
        removeJobDirectoryIfEmpty();
    m_currentJob = 0;
    Q_EMIT progressChanged(ok ? 1.0 : 0.0);
    Q_EMIT busyChanged(false);
    Q_EMIT jobFinished(ok);
}

void JobController::onHandshake(const Client::EngineInfo &info)
{
    Q_EMIT engineConnected(info);
    const QString deviceProblem = deviceUnavailableReason(m_requestedDevice);
    if (!deviceProblem.isEmpty()) {
        const bool wanted = std::exchange(m_compileWhenReady, false);
        refuseCompile(deviceProblem, wanted);
        return;
    }
    Q_EMIT engineReady();
    if (std::exchange(m_compileWhenReady, false))
        compile();
}

void JobController::onProgress(qint64 id)
{
    const auto *job = m_sessions->liveSession()->job(id);
    if (id != m_currentJob || !job)
        return;
    const QString &stage = job->currentStage;
    const double fraction = job->fraction;
    const QString &message = job->progressMessage;
    Q_EMIT progressChanged(qBound(0.0, fraction, 1.0));
    QString label = Client::StageNames::displayName(stage);
    if (m_currentKind == JobKind::Export) {
        // The engine prefixes each bucket's compile events with its name ("batch4: …").
        const QString bucket = message.section(QLatin1String(": "), 0, 0);
        if (message.contains(QLatin1String(": ")) && !bucket.contains(QLatin1Char(' ')))
            label = tr("%1: %2").arg(bucket, label);
        label = tr("Export · %1").arg(label);
    } else if (m_currentKind == JobKind::Tune) {
        // A trial's compile events lead with its name ("[freezing] …", EngineClient).
        const qsizetype end = message.indexOf(QLatin1String("] "));
        if (message.startsWith(QLatin1Char('[')) && end > 1)
            label = tr("%1: %2").arg(message.mid(1, end - 1), label);
        label = tr("Tune · %1").arg(label);
    }
    Q_EMIT stageChanged(label);
    Q_EMIT stageDetailsChanged(message);
}

void JobController::onResult(qint64 id, const QJsonObject &json)
{
    if (id != m_currentJob)
        return;
    if (m_currentKind == JobKind::Export) {
        m_lastExport = Client::ExportResult::fromJson(json);
        Q_EMIT exported(*m_lastExport);
        Q_EMIT stageChanged(tr("Done"));
        Q_EMIT statusMessage(tr("Exported the bundle %1.").arg(m_lastExport->bundle), 10000);
        Q_EMIT logMessage(id, QStringLiteral("info"), tr("Bundle written to %1").arg(m_lastExport->bundle));
        finishJob(true);
        return;
    }
    if (m_currentKind == JobKind::Sweep) {
        // The session parsed it; the sweep panel shows it through the hub.
        const Client::Session *session = m_sessions->session();
        const auto *job = session ? session->job(id) : nullptr;
        const auto result = job && job->sweep ? *job->sweep : Client::SweepResult::fromJson(json);
        Q_EMIT resultsReady(JobKind::Sweep);
        Q_EMIT stageChanged(result.passed ? tr("Done") : tr("Sweep failed"));
        Q_EMIT statusMessage(result.passed ? tr("Swept %1: %2").arg(m_currentModel, result.verdict)
                                           : tr("Sweep of %1 FAILED: %2").arg(m_currentModel, result.verdict),
                             15000);
        Q_EMIT logMessage(id, result.passed ? QStringLiteral("info") : QStringLiteral("warning"), result.verdict);
        finishJob(true);
        return;
    }
    if (m_currentKind == JobKind::Numerics || m_currentKind == JobKind::Tune) {
        finishAnalysis(id);
        return;
    }
    if (m_currentKind == JobKind::Repro) {
        const QJsonValue reproduced = json.value(QLatin1String("reproduced"));
        const QString folder = json.value(QLatin1String("folder")).toString();
        const QString line = json.value(QLatin1String("run")).toObject().value(QLatin1String("line")).toString();
        const QString said = reproduced.isBool()
            ? (reproduced.toBool() ? tr("it reproduces the failure in a fresh process")
                                   : tr("it did NOT reproduce the failure in a fresh process (flaky, or it depends "
                                        "on the engine's machine or settings)"))
            : tr("whether it reproduces is not known (%1)")
                  .arg(json.value(QLatin1String("run")).toObject().value(QLatin1String("outcome")).toString());
        Q_EMIT stageChanged(tr("Done"));
        Q_EMIT statusMessage(tr("Repro written to %1: %2.").arg(folder, said), 15000);
        Q_EMIT logMessage(id, reproduced.isBool() && reproduced.toBool() ? QStringLiteral("info") : QStringLiteral("warning"),
                          line.isEmpty() ? tr("Repro %1: %2").arg(folder, said) : tr("Repro %1: %2").arg(folder, line));
        finishJob(true);
        Q_EMIT reproMade(json, m_client->isRemote() ? m_client->remote().host : QString());
        return;
    }
    if (m_currentKind == JobKind::Profile || m_currentKind == JobKind::Quantize) {
        const bool profiling = m_currentKind == JobKind::Profile;
        Q_EMIT resultsReady(m_currentKind);
        Q_EMIT stageChanged(tr("Done"));
        Q_EMIT statusMessage(profiling ? tr("Profiled %1.").arg(m_currentModel) : tr("Quantized %1.").arg(m_currentModel),
                             10000);
        finishJob(true);
        return;
    }
    m_lastResult = Client::CompileResult::fromJson(json);
    m_lastExport.reset();
    m_lastCompileDirectory = m_currentOut;
    Q_EMIT compiled(*m_lastResult);
    Q_EMIT stageChanged(tr("Done"));
    Q_EMIT statusMessage(tr("Compiled %1.").arg(m_lastResult->model), 10000);
    finishJob(true);
}

void JobController::finishAnalysis(qint64 id)
{
    // The session parsed the result (Session::parseResult); the graph panel and the Tune dock show
    // it through the hub.
    const bool numerics = m_currentKind == JobKind::Numerics;
    const Client::Session *session = m_sessions->liveSession();
    const Client::JobRecord *job = session->job(id);
    const bool parsed = job && (numerics ? bool(job->numerics) : bool(job->tune));
    if (!parsed) {
        const QString why = job && !job->resultError.isEmpty() ? job->resultError : tr("no result");
        const QString message = numerics ? tr("The numerics result of %1 cannot be shown: %2").arg(m_currentModel, why)
                                         : tr("The tune result of %1 cannot be shown: %2").arg(m_currentModel, why);
        Q_EMIT logMessage(id, QStringLiteral("error"), message);
        Q_EMIT stageChanged(tr("Result not readable"));
        Q_EMIT failed(message);
        finishJob(true); // the job ran: its folder stays
        return;
    }
    QString summary;
    if (numerics) {
        summary = job->numerics->verdict;
        const bool diverged = job->numerics->firstDivergent(Client::NumericsResult::Side::Compiled).has_value()
            || job->numerics->firstDivergent(Client::NumericsResult::Side::Eager).has_value();
        if (diverged && !m_currentOut.isEmpty())
            setReproCandidate(m_currentOut, tr("the numerics divergence of %1").arg(m_currentModel));
    } else {
        const auto &tune = *job->tune;
        summary = tune.recipeName.isEmpty() ? tr("%n trial(s), no recipe qualified", nullptr, int(tune.rows.size()))
                                            : tr("%n trial(s), recipe: %1", nullptr, int(tune.rows.size())).arg(tune.recipeName);
    }
    Q_EMIT resultsReady(m_currentKind);
    Q_EMIT stageChanged(tr("Done"));
    Q_EMIT statusMessage(numerics ? tr("Numerics of %1: %2").arg(m_currentModel, summary)
                                  : tr("Tuned %1: %2").arg(m_currentModel, summary),
                         15000);
    Q_EMIT logMessage(id, QStringLiteral("info"), summary);
    finishJob(true);
}

void JobController::onError(qint64 id, const Client::EngineError &error)
{
    // A cancel the user asked for is not an error, nor is the engine stopped for it (a cancel past
    // its grace period ends as `engine_restarted`).
    const bool userStopped = error.isCancellation() || (id == m_cancelledJob && error.code == QLatin1String("engine_restarted"));
    Q_EMIT logMessage(id, userStopped ? QStringLiteral("info") : QStringLiteral("error"),
                      error.hint.isEmpty() ? error.message : tr("%1 Hint: %2").arg(error.message, error.hint));
    if (id != m_currentJob)
        return;
    if (m_currentKind == JobKind::Sweep && !m_sweptBundle.isEmpty() && TrustDialog::answers(error)) {
        // Refused by the engine's trust policy: the user decides (issue 19), nothing failed yet.
        const QString bundle = m_sweptBundle;
        Q_EMIT logMessage(id, QStringLiteral("warning"),
                          tr("The engine did not load the bundle %1: %2").arg(bundle, error.message));
        Q_EMIT stageChanged(tr("Waiting for your decision"));
        finishJob(false);
        const QString where = m_client->isRemote() ? m_client->remote().host : tr("this computer");
        auto *dialog = new TrustDialog(bundle, where, error, m_dialogParent);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QMessageBox::finished, this, [this, dialog, bundle] {
            if (dialog->loadAnyway())
                startBundleSweep(bundle, true);
            else
                Q_EMIT stageChanged(tr("Not loaded"));
        });
        dialog->open();
        return;
    }
    const bool exporting = m_currentKind == JobKind::Export;
    // A compile that failed to compile or to verify can be reproduced (its folder has error.json).
    const bool reproducible = m_currentKind == JobKind::Compile && !m_currentOut.isEmpty()
        && (error.code == QLatin1String("compile_failed") || error.code == QLatin1String("mismatch"));
    if (reproducible)
        setReproCandidate(m_currentOut, error.code == QLatin1String("mismatch")
                                            ? tr("the verify mismatch of %1").arg(m_currentModel)
                                            : tr("the failed compile of %1").arg(m_currentModel));
    const QString jobName = m_currentKind == JobKind::Profile  ? tr("Profiling")
                          : m_currentKind == JobKind::Repro    ? tr("Making a repro")
                          : m_currentKind == JobKind::Quantize ? tr("Quantizing")
                          : m_currentKind == JobKind::Sweep    ? tr("Sweeping")
                          : m_currentKind == JobKind::Numerics ? tr("Finding numerical divergence")
                          : m_currentKind == JobKind::Tune     ? tr("Tuning")
                                                               : tr("Compiling");
    Client::EngineError shown = error;
    if (error.code == QLatin1String("engine_crashed")) {
        // The banner above already quotes the engine's exit; do not repeat it word for word.
        shown.message = tr("The engine stopped during this job.");
    }
    if (exporting)
        Q_EMIT exportFailed(m_currentOut, shown);
    else // a failed verification: which output, and every output's figures from the job's log
        Q_EMIT jobFailed(m_currentModel, shown,
                         Client::VerifyFailure::fromError(error, m_sessions->liveSession()->logs(), id));
    Q_EMIT stageChanged(error.isCancellation() ? tr("Cancelled") : tr("Failed"));
    if (exporting)
        Q_EMIT failed(error.isCancellation() ? tr("Exporting the bundle %1 was cancelled.").arg(m_currentOut)
                                             : tr("Exporting the bundle %1 failed: %2").arg(m_currentOut, error.code));
    else if (m_currentKind == JobKind::Numerics)
        Q_EMIT failed(error.isCancellation()
                          ? tr("Finding the numerical divergence of %1 was cancelled.").arg(m_currentModel)
                          : tr("Finding the numerical divergence of %1 failed: %2").arg(m_currentModel, error.code));
    else
        Q_EMIT failed(error.isCancellation() ? tr("%1 %2 was cancelled.").arg(jobName, m_currentModel)
                                             : tr("%1 %2 failed: %3").arg(jobName, m_currentModel, error.code));
    // A dead engine already has its banner; a cancel was asked for. Neither needs a dialog.
    const bool engineGone = error.code == QLatin1String("engine_crashed")
                            || error.code == QLatin1String("engine_restarted");
    if (!error.isCancellation() && !engineGone)
        showFailureDialog(error, exporting ? tr("Export failed") : tr("%1 failed").arg(jobName), exporting, reproducible);
    finishJob(false);
}

void JobController::onEngineFailed(const QString &reason)
{
    // A lost connection is an engine crash: results stay, and the banner offers to reconnect.
    Q_EMIT engineProblem(tr("<b>The engine is not running.</b> %1").arg(reason.toHtmlEscaped()), true);
    Q_EMIT statusMessage(tr("Engine stopped: %1").arg(reason), 0);
    Q_EMIT logMessage(0, QStringLiteral("error"), reason);
    Q_EMIT progressChanged(0.0);
    Q_EMIT stageChanged(tr("Idle"));
    Q_EMIT engineStateChanged();
}

} // namespace AotStudio::Widgets
