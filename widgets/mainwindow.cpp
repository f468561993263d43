// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "charthelpers.h"
#include "compareview.h"
#include "graphpanel.h"
#include "graphview/graphview.h"
#include "helpwindows.h"
#include "jobheading.h"
#include "jobview.h"
#include "language.h"
#include "logview.h"
#include "numberformat.h"
#include "profilepanel.h"
#include "resultpanel.h"
#include "selectionhub.h"
#include "sessionreport.h"

#include "client/engineclient.h"
#include "client/measurement.h"
#include "client/session.h"

#include <QAction>
#include <QActionGroup>
#include <QCloseEvent>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QTimer>
#include <QUrl>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

// Q_INIT_RESOURCE must be called from the global namespace; the widgets library is static, so
// the linker would drop the unreferenced resource object otherwise.
static void initStudioResources()
{
    Q_INIT_RESOURCE(aotstudio);
}

namespace AotStudio::Widgets {

namespace {
constexpr auto KeyGeometry = "window/%1/geometry";
constexpr auto KeyState = "window/%1/state";
constexpr auto KeyModel = "compile/model";
constexpr auto KeyDevice = "compile/device";
constexpr auto KeyOutput = "compile/output";
constexpr auto KeyLanguage = "ui/language";
constexpr auto KeyTarget = "engine/target";
/// A combo box that calls `beforePopup` before it opens, so its items are read fresh (targets
/// are added and removed by aotstudio-cli target, outside the studio).
class RefreshingComboBox : public QComboBox
{
public:
    RefreshingComboBox(QWidget *parent, std::function<void()> beforePopup)
        : QComboBox(parent)
        , m_beforePopup(std::move(beforePopup))
    { }
    void showPopup() override
    {
        m_beforePopup();
        QComboBox::showPopup();
    }

private:
    std::function<void()> m_beforePopup;
};

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_hub(new SelectionHub(this))
{
    initStudioResources();
    setObjectName(QStringLiteral("mainWindow"));
    m_sessions = new SessionController(m_hub, this, this);
    m_jobs = new JobController(m_sessions, this, this);
    setWindowTitle(m_sessions->windowTitle());
    setWindowIcon(QIcon(QStringLiteral(":/icons/aotstudio.svg")));
    // The default size: the screen's whole available area up to 1600 px wide (a 1366×768 laptop),
    // 90% of it on larger screens (1920×1080: 1728×972, so the docks get room, not a fixed
    // 1400×900 beside an empty desktop); the minimum fits 1366×728 (tests/widgets/tst_layout.cpp).
    if (const QScreen *s = screen()) {
        const QSize available = s->availableGeometry().size();
        resize(available.width() < 1600 ? available : available * 0.9);
    } else {
        resize(1400, 900);
    }
    setDockNestingEnabled(true);

    createWidgets();
    m_defaultLayout = saveState(LayoutVersion);
    m_sessions->showLiveSession();
    restoreSettings();
    m_modelCombo->setFocus();
    updateEngineStatus();
    updateActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::createWidgets()
{
    createActions();
    createToolBar();
    createCentral();
    createDocks();
    createMenus();

    m_engineStatus = new QLabel(this);
    m_engineStatus->setObjectName(QStringLiteral("engineStatus"));
    statusBar()->addPermanentWidget(m_engineStatus);

    connectControllers();
    // The panels follow the hub themselves (HubViewer); the summary in the middle follows here.
    connect(m_hub, &SelectionHub::dataChanged, this, &MainWindow::showSessionResults);
}

void MainWindow::changeEvent(QEvent *event)
{
    // A translator installed or removed (View → Language): every string of the window is made
    // again in the new language, once for the several events one switch sends.
    if (event->type() == QEvent::LanguageChange && !m_rebuildPending && m_modelCombo) {
        m_rebuildPending = true;
        QTimer::singleShot(0, this, [this] {
            m_rebuildPending = false;
            rebuildWidgets();
        });
    }
    QMainWindow::changeEvent(event);
}

void MainWindow::rebuildWidgets()
{
    // What the user set up in this window, kept: the layout, the toolbar's inputs, the log, the
    // progress. The session, the engine and its jobs, and the selection live in the controllers
    // and the hub, which stay as they are; the new panels read them from the hub.
    const QByteArray state = saveState(LayoutVersion);
    const QString model = m_modelCombo->currentText();
    const QString device = m_deviceCombo->currentData().toString();
    const QString output = m_outputEdit->text();
    const int progress = m_progress->value();
    const bool elapsedTicking = m_elapsedTick && m_elapsedTick->isActive();
    std::unique_ptr<LogView> oldLog(m_log);
    oldLog->setParent(nullptr);
    m_log = nullptr;

    // Nothing may call into the old widgets from now on.
    disconnect(m_jobs, nullptr, this, nullptr);
    disconnect(m_sessions, nullptr, this, nullptr);
    disconnect(m_hub, nullptr, this, nullptr);
    disconnect(m_jobs, nullptr, oldLog.get(), nullptr);
    disconnect(m_sessions, nullptr, oldLog.get(), nullptr);
    delete m_elapsedTick;
    m_elapsedTick = nullptr;
    for (QDockWidget *dock : std::as_const(m_docks)) {
        removeDockWidget(dock);
        delete dock;
    }
    m_docks.clear();
    for (QToolBar *bar : findChildren<QToolBar *>(Qt::FindDirectChildrenOnly)) {
        removeToolBar(bar);
        delete bar;
    }
    delete takeCentralWidget();
    setMenuBar(new QMenuBar(this)); // deletes the old one and its menus
    setStatusBar(new QStatusBar(this));
    qDeleteAll(findChildren<QAction *>(Qt::FindDirectChildrenOnly));
    m_recentMenu = nullptr;

    createWidgets();
    m_log->adopt(*oldLog);
    restoreState(state, LayoutVersion);
    setModel(model);
    selectDevice(device);
    selectTarget(m_jobs->client()->target());
    m_outputEdit->setText(output);
    m_progress->setValue(progress);
    if (elapsedTicking)
        m_elapsedTick->start();
    showElapsed();
    setWindowTitle(m_sessions->windowTitle());
    m_hub->replay(); // the new panels show the selection as it is
    showSelectedJob();
    showSessionResults();
    updateRecentMenu();
    updateEngineStatus();
    updateActions();
}

void MainWindow::connectControllers()
{
    m_jobs->setInputs([this] {
        return JobController::Inputs{m_modelCombo->currentText().trimmed(), m_deviceCombo->currentData().toString(),
                                     m_outputEdit->text().trimmed()};
    });
    using Jobs = JobController;
    connect(m_jobs, &Jobs::engineStateChanged, this, [this] {
        updateEngineStatus();
        updateActions();
    });
    connect(m_jobs, &Jobs::engineConnected, this, [this](const Client::EngineInfo &info) {
        m_banner->hide();
        updateEngineStatus();
        setCudaAvailable(info.cudaAvailable, tr("The engine reports no CUDA device."));
        updateActions();
    });
    connect(m_jobs, &Jobs::engineReady, this, [this] {
        if (!m_failureShown) // e.g. after a cancel that restarted the engine: keep saying so
            statusBar()->showMessage(tr("Engine ready."), 5000);
    });
    connect(m_jobs, &Jobs::engineRestarting, this, [this] {
        m_failureShown = false;
        m_banner->hide();
    });
    connect(m_jobs, &Jobs::engineProblem, this, [this](const QString &text, bool stopped) {
        if (stopped) // a lost connection is an engine crash: the banner offers to reconnect
            m_restartButton->setText(m_jobs->client()->isRemote() ? tr("Reconnect") : tr("Restart engine"));
        showBanner(text);
    });
    connect(m_jobs, &Jobs::jobStarted, this, [this] {
        m_failureShown = false;
        m_resultPanel->clearError();
    });
    connect(m_jobs, &Jobs::busyChanged, this, &MainWindow::updateActions);
    // The running job's wall time beside its stage, ticking once a second; kept when it ends.
    m_elapsedTick = new QTimer(this);
    m_elapsedTick->setInterval(1000);
    connect(m_elapsedTick, &QTimer::timeout, this, &MainWindow::showElapsed);
    connect(m_jobs, &Jobs::busyChanged, this, [this](bool busy) {
        if (busy) {
            m_elapsed.start();
            m_elapsedTick->start();
        } else {
            m_elapsedTick->stop();
        }
        showElapsed();
    });
    connect(m_jobs, &Jobs::progressChanged, this,
            [this](double fraction) { m_progress->setValue(qRound(fraction * m_progress->maximum())); });
    connect(m_jobs, &Jobs::stageChanged, m_stageLabel, &QLabel::setText);
    connect(m_jobs, &Jobs::stageDetailsChanged, m_stageLabel, &QLabel::setToolTip);
    connect(m_jobs, &Jobs::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(m_jobs, &Jobs::failed, this, &MainWindow::showFailure);
    connect(m_jobs, &Jobs::logMessage, m_log, &LogView::append);
    // One job per view: a job that ends with an error or a bundle of its own is what the views
    // show (a compile is followed from its start, SelectionHub::followLive).
    const auto selectEnded = [this] {
        if (const qint64 id = m_jobs->currentJob())
            m_hub->selectJob(id);
    };
    connect(m_jobs, &Jobs::exported, this, selectEnded);
    connect(m_jobs, &Jobs::jobFailed, this, selectEnded);
    connect(m_jobs, &Jobs::exportFailed, this, selectEnded);
    connect(m_hub, &SelectionHub::jobChanged, this, &MainWindow::showSelectedJob);
    connect(m_jobs, &Jobs::compiled, m_resultPanel, &ResultPanel::showResult);
    connect(m_jobs, &Jobs::exported, m_resultPanel, &ResultPanel::showBundle);
    connect(m_jobs, &Jobs::jobFailed, this, [this] { m_resultPanel->setResultVisible(false); });
    connect(m_jobs, &Jobs::jobFailed, m_resultPanel, &ResultPanel::showError);
    connect(m_jobs, &Jobs::exportFailed, m_resultPanel, &ResultPanel::showExportError);
    connect(m_jobs, &Jobs::resultsReady, this, [this, selectEnded](Jobs::JobKind kind) {
        using Kind = Jobs::JobKind;
        selectEnded(); // its dock shows it, headed by it

        // A numerics job is read on its graph: the hub selected its capture snapshot, coloured by error.
        QDockWidget *dock = kind == Kind::Sweep      ? m_sweepDock
                          : kind == Kind::Profile  ? m_profileDock
                          : kind == Kind::Numerics ? m_graphDock
                          : kind == Kind::Tune     ? m_tuneDock
                                                   : m_quantDock;
        dock->show();
        dock->raise();
    });
    connect(m_jobs, &Jobs::jobFinished, this, &MainWindow::jobFinished);
    connect(m_jobs, &Jobs::compileBlocked, this, &MainWindow::compileBlocked);

    connect(m_sessions, &SessionController::windowTitleChanged, this, &QWidget::setWindowTitle);
    connect(m_sessions, &SessionController::recentSessionsChanged, this, &MainWindow::updateRecentMenu);
    connect(m_sessions, &SessionController::logCleared, m_log, &LogView::clear);
    connect(m_sessions, &SessionController::logMessage, m_log, &LogView::append);
    connect(m_sessions, &SessionController::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(m_sessions, &SessionController::failed, this, &MainWindow::showFailure);
    connect(m_sessions, &SessionController::sessionOpened, this, &MainWindow::showOpenedSession);
}

QString MainWindow::languageSetting()
{
    return QSettings().value(QLatin1String(KeyLanguage)).toString();
}

void MainWindow::setLanguage(const QString &code)
{
    QSettings().setValue(QLatin1String(KeyLanguage), code);
    Language::install(code); // every widget hears LanguageChange: changeEvent() rebuilds the window
}

void MainWindow::createActions()
{
    m_compileAction = new QAction(QIcon::fromTheme(QStringLiteral("media-playback-start")),
                                  tr("&Compile"), this);
    m_compileAction->setObjectName(QStringLiteral("compileAction"));
    m_compileAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_compileAction->setToolTip(tr("Export, compile with AOTInductor, verify and measure (Ctrl+R)"));
    connect(m_compileAction, &QAction::triggered, m_jobs, &JobController::compile);

    m_cancelAction = new QAction(QIcon::fromTheme(QStringLiteral("process-stop")), tr("C&ancel"),
                                 this);
    m_cancelAction->setObjectName(QStringLiteral("cancelAction"));
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancelAction->setToolTip(tr("Cancel the running job (Esc)"));
    connect(m_cancelAction, &QAction::triggered, m_jobs, &JobController::cancel);

    m_exportAction = new QAction(QIcon::fromTheme(QStringLiteral("document-save-as")),
                                 tr("&Export Bundle…"), this);
    m_exportAction->setObjectName(QStringLiteral("exportAction"));
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportToolTip = tr("Package the last compile's model as a bundle of batch-size packages (Ctrl+E)");
    m_exportAction->setToolTip(m_exportToolTip);
    connect(m_exportAction, &QAction::triggered, m_jobs, &JobController::showExportDialog);

    m_openFactoryAction = new QAction(QIcon::fromTheme(QStringLiteral("document-open")),
                                      tr("Open &factory…"), this);
    m_openFactoryAction->setShortcut(QKeySequence::Open);
    m_openFactoryAction->setToolTip(
        tr("Pick a Python file with a function returning (model, example_inputs)"));
    connect(m_openFactoryAction, &QAction::triggered, this, &MainWindow::openFactory);

    m_openHfAction = new QAction(QIcon::fromTheme(QStringLiteral("folder-open")), tr("Open &Hugging Face folder…"), this);
    m_openHfAction->setObjectName(QStringLiteral("openHfAction"));
    m_openHfAction->setToolTip(tr("Pick a local Hugging Face model folder (config.json, weights optional): its example "
                                  "inputs are built from the config and forward's signature; nothing is downloaded"));
    connect(m_openHfAction, &QAction::triggered, this, &MainWindow::openHfFolder);

    m_restartAction = new QAction(QIcon::fromTheme(QStringLiteral("view-refresh")),
                                  tr("&Restart engine"), this);
    connect(m_restartAction, &QAction::triggered, m_jobs, &JobController::restartEngine);
    m_connectAction = new QAction(QIcon::fromTheme(QStringLiteral("network-connect")), tr("&Connect to Remote Engine…"), this);
    m_connectAction->setObjectName(QStringLiteral("connectAction"));
    m_connectAction->setToolTip(tr("Run the engine on another machine over SSH"));
    connect(m_connectAction, &QAction::triggered, m_jobs, &JobController::connectRemoteDialog);
    m_localEngineAction = new QAction(tr("Use &Local Engine"), this);
    m_localEngineAction->setObjectName(QStringLiteral("localEngineAction"));
    connect(m_localEngineAction, &QAction::triggered, m_jobs, &JobController::useLocalEngine);
    m_chooseEngineAction = new QAction(tr("C&hoose Local Engine…"), this);
    m_chooseEngineAction->setObjectName(QStringLiteral("chooseEngineAction"));
    m_chooseEngineAction->setToolTip(tr("Pick the venv the aotstudio-engine wheel is installed in"));
    connect(m_chooseEngineAction, &QAction::triggered, m_jobs, &JobController::chooseEngineVenvDialog);
    m_forgetEngineAction = new QAction(tr("&Forget Chosen Engine"), this);
    m_forgetEngineAction->setObjectName(QStringLiteral("forgetEngineAction"));
    m_forgetEngineAction->setToolTip(tr("Stop using the venv chosen with Choose Local Engine…: the engine is then looked "
                                        "for in AOTSTUDIO_ENGINE, next to the studio, on PATH and in "
                                        "~/.local/share/aotstudio/engine-venv"));
    connect(m_forgetEngineAction, &QAction::triggered, m_jobs, &JobController::forgetEngineVenv);

    m_profileAction = new QAction(QIcon::fromTheme(QStringLiteral("utilities-system-monitor")), tr("&Profile"), this);
    m_profileAction->setObjectName(QStringLiteral("profileAction"));
    m_profileAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    m_profileAction->setToolTip(tr("Compile, then measure eager against compiled: latency, kernels, memory, "
                                   "cold start and throughput (Ctrl+P)"));
    connect(m_profileAction, &QAction::triggered, m_jobs, &JobController::profile);

    m_quantizeAction = new QAction(QIcon::fromTheme(QStringLiteral("view-statistics")), tr("&Quantize"), this);
    m_quantizeAction->setObjectName(QStringLiteral("quantizeAction"));
    m_quantizeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Q));
    m_quantizeAction->setToolTip(tr("Compare quantization schemes: latency, memory, size and accuracy against "
                                    "fp32 eager (Ctrl+Shift+Q)"));
    connect(m_quantizeAction, &QAction::triggered, m_jobs, &JobController::quantize);

    // No ellipsis: it starts at once with the toolbar's model and the run settings, as Profile does.
    m_numericsAction = new QAction(QIcon::fromTheme(QStringLiteral("dialog-warning")), tr("Find Numerical &Divergence"), this);
    m_numericsAction->setObjectName(QStringLiteral("numericsAction"));
    m_numericsAction->setToolTip(tr("Run every node of the captured graph against a float64 reference, eager and "
                                    "compiled, and colour the graph by each node's error: where do they first diverge?"));
    connect(m_numericsAction, &QAction::triggered, m_jobs, &JobController::numerics);

    // No ellipsis: it starts at once on the last failure (a failed compile, a verify mismatch or a
    // numerics divergence), as Find Numerical Divergence does.
    m_reproAction = new QAction(QIcon::fromTheme(QStringLiteral("tools-report-bug")), tr("Make &Repro"), this);
    m_reproAction->setObjectName(QStringLiteral("reproAction"));
    connect(m_reproAction, &QAction::triggered, m_jobs, &JobController::makeRepro);
    connect(m_jobs, &JobController::reproCandidateChanged, this, &MainWindow::updateActions);
    connect(m_jobs, &JobController::reproMade, this, &MainWindow::showRepro);

    m_tuneAction = new QAction(QIcon::fromTheme(QStringLiteral("preferences-system")), tr("&Tune Compile Recipe…"), this);
    m_tuneAction->setObjectName(QStringLiteral("tuneAction"));
    m_tuneAction->setToolTip(tr("Compile the model under several option sets within a time budget, verify and time "
                                "each, and pick the fastest recipe within the error bound (the Tune dock)"));
    connect(m_tuneAction, &QAction::triggered, m_jobs, &JobController::showTuneDialog);

    m_sweepAction = new QAction(QIcon::fromTheme(QStringLiteral("view-grid")), tr("S&weep Shapes"), this);
    m_sweepAction->setObjectName(QStringLiteral("sweepAction"));
    m_sweepToolTip = tr("Verify the last compiled package across the shapes it accepts: every dynamic dimension's "
                        "range ends, guards and interior sizes must match eager, sizes outside must be refused");
    m_sweepAction->setToolTip(m_sweepToolTip);
    connect(m_sweepAction, &QAction::triggered, m_jobs, &JobController::sweep);

    m_sweepBundleAction = new QAction(tr("Sweep a &Bundle…"), this);
    m_sweepBundleAction->setObjectName(QStringLiteral("sweepBundleAction"));
    m_sweepBundleAction->setToolTip(tr("Verify an exported bundle (a folder or a .zip) across its shapes and its bucket "
                                       "policy; its signature is checked against the engine's trust store first"));
    connect(m_sweepBundleAction, &QAction::triggered, m_jobs, &JobController::chooseBundleToSweep);

    m_inputsAction = new QAction(QIcon::fromTheme(QStringLiteral("view-list-details")), tr("&Inputs…"), this);
    m_inputsAction->setObjectName(QStringLiteral("inputsAction"));
    m_inputsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    m_inputsAction->setToolTip(tr("The model's example inputs (names, shapes, dtypes): edit their shapes and mark "
                                  "dimensions dynamic (Ctrl+I)"));
    connect(m_inputsAction, &QAction::triggered, m_jobs, &JobController::showInputsDialog);

    m_settingsAction = new QAction(QIcon::fromTheme(QStringLiteral("configure")), tr("Run &Settings…"), this);
    m_settingsAction->setObjectName(QStringLiteral("settingsAction"));
    m_settingsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    m_settingsAction->setToolTip(tr("Data type, Inductor options, dynamic dimensions, measuring and schemes"));
    connect(m_settingsAction, &QAction::triggered, m_jobs, &JobController::showRunSettings);

    m_openSessionAction = new QAction(QIcon::fromTheme(QStringLiteral("document-open-recent")),
                                      tr("Open &Session…"), this);
    m_openSessionAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_openSessionAction->setToolTip(tr("Show a saved session (.aotsession) without running anything"));
    connect(m_openSessionAction, &QAction::triggered, m_sessions, &SessionController::openSessionDialog);

    m_openJobFolderAction = new QAction(QIcon::fromTheme(QStringLiteral("folder-open")), tr("Open &Job Folder…"), this);
    m_openJobFolderAction->setObjectName(QStringLiteral("openJobFolderAction"));
    m_openJobFolderAction->setToolTip(tr("Show the folder of a command-line job: aotstudio-cli numerics --out DIR (the "
                                         "capture graph coloured by each node's numerical error) or tune --out DIR (the "
                                         "trials, their Pareto front and the recipe)"));
    connect(m_openJobFolderAction, &QAction::triggered, m_sessions, &SessionController::openJobFolderDialog);

    m_saveSessionAction = new QAction(QIcon::fromTheme(QStringLiteral("document-save")), tr("&Save Session As…"), this);
    m_saveSessionAction->setShortcut(QKeySequence::Save);
    m_saveSessionAction->setToolTip(tr("Copy this session and its job folders into a new folder"));
    connect(m_saveSessionAction, &QAction::triggered, m_sessions, &SessionController::saveSessionDialog);

    m_reportAction = new QAction(QIcon::fromTheme(QStringLiteral("text-html")), tr("Export &Report…"), this);
    m_reportAction->setObjectName(QStringLiteral("reportAction"));
    m_reportAction->setToolTip(tr("Write an HTML report with the charts as PNG and the tables as CSV"));
    connect(m_reportAction, &QAction::triggered, this, &MainWindow::exportReportDialog);

    m_compareAction = new QAction(QIcon::fromTheme(QStringLiteral("document-compare")), tr("Compare &With…"), this);
    m_compareAction->setObjectName(QStringLiteral("compareAction"));
    m_compareAction->setToolTip(tr("Two finished jobs side by side: options, versions, package size, kernels with "
                                   "their source diffs and times, and the graph of each stage"));
    connect(m_compareAction, &QAction::triggered, this, &MainWindow::compareWithDialog);

    m_resetLayoutAction = new QAction(tr("Reset &Layout"), this);
    connect(m_resetLayoutAction, &QAction::triggered, this, &MainWindow::resetLayout);
}

void MainWindow::createToolBar()
{
    auto *bar = addToolBar(tr("Compile"));
    bar->setObjectName(QStringLiteral("compileToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

    m_modelCombo = new QComboBox(bar);
    m_modelCombo->setObjectName(QStringLiteral("modelCombo"));
    m_modelCombo->setEditable(true);
    m_modelCombo->setInsertPolicy(QComboBox::NoInsert);
    // The built-in samples (core/python/aotstudio_frontend/samples.py), smallest first.
    m_modelCombo->addItems({QStringLiteral("sample:mlp"), QStringLiteral("sample:convnet"), QStringLiteral("sample:transformer"),
                            QStringLiteral("sample:espcn"), QStringLiteral("sample:unet"), QStringLiteral("sample:resnet18"),
                            QStringLiteral("sample:minilm"), QStringLiteral("timm:resnet50?size=160"),
                            QStringLiteral("torchvision:mobilenet_v3_small")});
    m_modelCombo->setMinimumContentsLength(18);
    m_modelCombo->setToolTip(tr("sample:NAME, path/to/file.py:factory, hf:FOLDER, timm:NAME or torchvision:NAME "
                                "(options after ?: class, batch, seq, size, weights); SPEC#PATH compiles the "
                                "sub-module PATH"));
    bar->addWidget(new QLabel(tr("Model:"), bar));
    bar->addWidget(m_modelCombo);
    bar->addAction(m_openFactoryAction);
    bar->addAction(m_inputsAction);
    bar->addSeparator();

    m_deviceCombo = new QComboBox(bar);
    m_deviceCombo->setObjectName(QStringLiteral("deviceCombo"));
    m_deviceCombo->addItem(tr("CPU"), QStringLiteral("cpu"));
    m_deviceCombo->addItem(tr("CUDA"), QStringLiteral("cuda"));
    // Picking a device by hand replaces the one asked for on the command line.
    connect(m_deviceCombo, &QComboBox::activated, this, [this] { m_jobs->setRequestedDevice(QString()); });
    bar->addWidget(new QLabel(tr("Device:"), bar));
    bar->addWidget(m_deviceCombo);

    m_targetCombo = new RefreshingComboBox(bar, [this] { populateTargets(); });
    m_targetCombo->setObjectName(QStringLiteral("targetCombo"));
    m_targetCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_targetCombo->setToolTip(
        tr("The Python + torch the jobs are built with: the studio's own, or a target environment made with "
           "aotstudio-cli target add (e.g. the torch a GPU service runs). Targets live in %1.")
            .arg(QDir::toNativeSeparators(Client::EngineClient::targetsDirectory())));
    populateTargets();
    connect(m_targetCombo, &QComboBox::activated, this, [this] {
        if (!m_jobs->setTarget(m_targetCombo->currentData().toString()))
            selectTarget(m_jobs->client()->target()); // refused while a job runs: show what is in use
    });
    bar->addWidget(new QLabel(tr("Target:"), bar));
    bar->addWidget(m_targetCombo);
    bar->addSeparator();

    m_outputEdit = new QLineEdit(bar);
    m_outputEdit->setObjectName(QStringLiteral("outputEdit"));
    m_outputEdit->setClearButtonEnabled(true);
    m_outputEdit->setPlaceholderText(tr("New folder per job"));
    m_outputEdit->setToolTip(
        tr("Output folder. Empty: a new folder under %1 for every job.")
            .arg(QDir::toNativeSeparators(JobController::jobsDirectory())));
    m_outputEdit->setMinimumWidth(160);
    auto *browse = new QToolButton(bar);
    browse->setText(tr("…"));
    browse->setToolTip(tr("Choose the output folder"));
    connect(browse, &QToolButton::clicked, this, &MainWindow::chooseOutputDirectory);
    bar->addWidget(new QLabel(tr("Output:"), bar));
    bar->addWidget(m_outputEdit);
    bar->addWidget(browse);
    bar->addSeparator();

    bar->addAction(m_compileAction);
    bar->addAction(m_profileAction);
    bar->addAction(m_quantizeAction);
    bar->addAction(m_cancelAction);
    bar->addAction(m_settingsAction);

    // Progress gets its own row: the inputs fill a normal window's width, and a stage name
    // pushed into the toolbar's overflow menu would be invisible.
    addToolBarBreak();
    auto *progressBar = addToolBar(tr("Progress"));
    progressBar->setObjectName(QStringLiteral("progressToolBar"));
    m_progress = new QProgressBar(progressBar);
    m_progress->setObjectName(QStringLiteral("progressBar"));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    m_progress->setFormat(QStringLiteral("%p%"));
    m_progress->setFixedWidth(160);
    m_stageLabel = new QLabel(tr("Idle"), progressBar);
    m_stageLabel->setObjectName(QStringLiteral("stageLabel"));
    m_stageLabel->setMinimumWidth(240);
    m_stageLabel->setContentsMargins(6, 0, 6, 0);
    m_elapsedLabel = new QLabel(progressBar);
    m_elapsedLabel->setObjectName(QStringLiteral("elapsedLabel"));
    m_elapsedLabel->setToolTip(tr("Wall time of the running job (of the last one when none runs)"));
    m_elapsedLabel->setContentsMargins(6, 0, 0, 0);
    progressBar->addWidget(m_progress);
    progressBar->addWidget(m_elapsedLabel);
    progressBar->addWidget(m_stageLabel);
}

void MainWindow::showElapsed()
{
    if (!m_elapsed.isValid()) {
        m_elapsedLabel->clear();
        return;
    }
    const qint64 seconds = m_elapsed.elapsed() / 1000;
    m_elapsedLabel->setText(seconds < 60 ? tr("%1 s").arg(seconds)
                                         : tr("%1:%2 min").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0')));
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openFactoryAction);
    file->addAction(m_openHfAction);
    file->addSeparator();
    file->addAction(m_openSessionAction);
    m_recentMenu = file->addMenu(tr("Recent Sessions"));
    m_recentMenu->setObjectName(QStringLiteral("recentSessionsMenu"));
    updateRecentMenu();
    file->addAction(m_openJobFolderAction);
    file->addAction(m_saveSessionAction);
    file->addSeparator();
    file->addAction(m_compareAction);
    file->addSeparator();
    file->addAction(m_exportAction);
    file->addAction(m_reportAction);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *model = menuBar()->addMenu(tr("&Model"));
    model->setObjectName(QStringLiteral("modelMenu"));
    model->addAction(m_inputsAction);
    // Issue 39: shapes from real traffic (the dialog checks the engine and the model itself).
    auto *captureAction = new QAction(tr("&Capture From Script…"), this);
    captureAction->setObjectName(QStringLiteral("captureAction"));
    captureAction->setToolTip(tr("Run your own serving script, record every call of one module, and compile or export "
                                 "with the dynamic ranges and buckets its traffic needs"));
    connect(captureAction, &QAction::triggered, m_jobs, &JobController::showCaptureDialog);
    model->addAction(captureAction);
    model->addSeparator();
    model->addAction(m_openFactoryAction);
    model->addAction(m_openHfAction);

    QMenu *engine = menuBar()->addMenu(tr("&Engine"));
    engine->addAction(m_compileAction);
    engine->addAction(m_profileAction);
    engine->addAction(m_quantizeAction);
    engine->addAction(m_numericsAction);
    engine->addAction(m_tuneAction);
    engine->addAction(m_reproAction);
    engine->addAction(m_sweepAction);
    engine->addAction(m_sweepBundleAction);
    engine->addAction(m_cancelAction);
    engine->addSeparator();
    engine->addAction(m_settingsAction);
    engine->addSeparator();
    engine->addAction(m_connectAction);
    engine->addAction(m_localEngineAction);
    engine->addAction(m_chooseEngineAction);
    engine->addAction(m_forgetEngineAction);
    connect(engine, &QMenu::aboutToShow, this, [this] {
        m_forgetEngineAction->setEnabled(
            !QSettings().value(Client::EngineClient::engineVenvKey()).toString().isEmpty());
    });
    engine->addAction(m_restartAction);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget *dock : std::as_const(m_docks))
        view->addAction(dock->toggleViewAction());
    view->addAction(m_resetLayoutAction);
    view->addSeparator();
    QMenu *language = view->addMenu(tr("&Language"));
    auto *group = new QActionGroup(language);
    const QString current = languageSetting();
    // Language names are shown in their own language, so anyone can find theirs.
    const std::pair<QString, QString> choices[] = {
        {QString(), tr("System")},
        {QStringLiteral("en"), QStringLiteral("English")},
        {QStringLiteral("zh_CN"), QStringLiteral("简体中文")}};
    for (const auto &[code, name] : choices) {
        QAction *action = language->addAction(name);
        action->setCheckable(true);
        action->setChecked(code == current);
        action->setData(code);
        group->addAction(action);
        action->setObjectName(QStringLiteral("languageAction_%1").arg(code.isEmpty() ? QStringLiteral("system") : code));
        connect(action, &QAction::triggered, this, [this, code = code] { setLanguage(code); });
    }

    // Issue 35 item 10: pass stepping and fit from anywhere in the window (the canvas keys work
    // only while it has focus).
    view->addSeparator();
    QAction *nextPass = view->addAction(tr("&Next Pass"), this, [this] { stepPass(+1); });
    nextPass->setObjectName(QStringLiteral("nextPassAction"));
    nextPass->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Down));
    nextPass->setToolTip(tr("Show the graph after the next pass of the job shown (Alt+Down)"));
    QAction *previousPass = view->addAction(tr("&Previous Pass"), this, [this] { stepPass(-1); });
    previousPass->setObjectName(QStringLiteral("previousPassAction"));
    previousPass->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Up));
    QAction *fitGraph = view->addAction(tr("&Fit Graph"), this, [this] {
        m_graphDock->raise();
        m_graphPanel->graphView()->fitToView();
    });
    fitGraph->setObjectName(QStringLiteral("fitGraphAction"));
    fitGraph->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *docs = help->addAction(tr("&Documentation"), this, [this] { HelpWindows::showDocumentation(this); });
    docs->setObjectName(QStringLiteral("documentationAction"));
    docs->setShortcut(QKeySequence::HelpContents);
    QAction *keys = help->addAction(tr("&Keyboard Shortcuts"), this, [this] { HelpWindows::showShortcuts(this); });
    keys->setObjectName(QStringLiteral("shortcutsAction"));
    keys->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    help->addSeparator();
    help->addAction(tr("&About AOT Studio"), this, [this] {
        const auto &info = m_jobs->client()->engineInfo();
        QMessageBox::about(
            this, tr("About AOT Studio"),
            tr("<h3>AOT Studio %1</h3><p>A studio for PyTorch ahead-of-time compilation "
               "(torch.export and AOTInductor).</p><p>Engine: %2</p>"
               "<p>Licensed under the GNU GPL, version 3 or later.</p>")
                .arg(QStringLiteral(AOTSTUDIO_VERSION),
                     info.engineVersion.isEmpty() ? tr("not connected") : info.engineVersion));
    });
}

QString MainWindow::screenSizeKey() const
{
    // Layouts are kept per screen size: a layout made on a 2560×1440 monitor would not fit the
    // laptop the same user opens the studio on later.
    const QScreen *s = screen();
    const QSize size = s ? s->size() : QSize();
    return QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    const QString screenKey = screenSizeKey();
    restoreGeometry(settings.value(QString::fromLatin1(KeyGeometry).arg(screenKey)).toByteArray());
    restoreState(settings.value(QString::fromLatin1(KeyState).arg(screenKey)).toByteArray(), LayoutVersion);
    const QString model = settings.value(QLatin1String(KeyModel)).toString();
    if (!model.isEmpty())
        setModel(model);
    selectDevice(settings.value(QLatin1String(KeyDevice), QStringLiteral("cpu")).toString());
    setTarget(settings.value(QLatin1String(KeyTarget)).toString());
    m_outputEdit->setText(settings.value(QLatin1String(KeyOutput)).toString());
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    const QString screenKey = screenSizeKey();
    settings.setValue(QString::fromLatin1(KeyGeometry).arg(screenKey), saveGeometry());
    settings.setValue(QString::fromLatin1(KeyState).arg(screenKey), saveState(LayoutVersion));
    settings.setValue(QLatin1String(KeyModel), m_modelCombo->currentText().trimmed());
    settings.setValue(QLatin1String(KeyDevice), m_deviceCombo->currentData().toString());
    settings.setValue(QLatin1String(KeyTarget), m_jobs->client()->target());
    settings.setValue(QLatin1String(KeyOutput), m_outputEdit->text().trimmed());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveSettings();
    QMainWindow::closeEvent(event);
}

void MainWindow::setModel(const QString &model)
{
    m_modelCombo->setCurrentText(model);
}

void MainWindow::setDevice(const QString &device)
{
    selectDevice(device);
    m_jobs->setRequestedDevice(device);
}

void MainWindow::stepPass(int step)
{
    const Client::JobRecord *job = m_hub->currentJobRecord();
    if (!job || job->snapshots.isEmpty())
        return;
    const int count = int(job->snapshots.size());
    const int current = m_hub->currentSnapshot();
    const int next = current < 0 ? (step > 0 ? 0 : count - 1) : std::clamp(current + step, 0, count - 1);
    if (next != current) {
        m_hub->selectSnapshot(next);
        m_graphDock->raise();
    }
}

void MainWindow::setTarget(const QString &name)
{
    if (m_jobs->setTarget(name))
        selectTarget(name);
}

void MainWindow::populateTargets()
{
    const QString current = m_jobs->client()->target();
    m_targetCombo->clear();
    m_targetCombo->addItem(tr("Studio's own"), QString());
    m_targetCombo->setItemData(0, tr("The engine installed with the studio"), Qt::ToolTipRole);
    auto *model = qobject_cast<QStandardItemModel *>(m_targetCombo->model());
    bool found = current.isEmpty();
    for (const auto &t : Client::EngineClient::availableTargets()) {
        m_targetCombo->addItem(t.error.isEmpty() ? tr("%1 (torch %2, Python %3)").arg(t.name, t.torch, t.python)
                                                 : tr("%1 (unusable)").arg(t.name),
                               t.name);
        const int index = m_targetCombo->count() - 1;
        m_targetCombo->setItemData(index, t.error.isEmpty() ? tr("CUDA: %1").arg(t.cuda) : t.error, Qt::ToolTipRole);
        if (!t.error.isEmpty() && model)
            model->item(index)->setEnabled(false);
        found = found || t.name == current;
    }
    if (!found) // chosen earlier, since removed: still what the client runs until another is picked
        m_targetCombo->addItem(tr("%1 (missing)").arg(current), current);
    selectTarget(current);
}

void MainWindow::selectTarget(const QString &name)
{
    int index = m_targetCombo->findData(name);
    if (index < 0) {
        populateTargets();
        index = m_targetCombo->findData(name);
    }
    m_targetCombo->setCurrentIndex(std::max(index, 0));
}

void MainWindow::selectDevice(const QString &device)
{
    const int index = m_deviceCombo->findData(device);
    if (index < 0)
        return;
    auto *model = qobject_cast<QStandardItemModel *>(m_deviceCombo->model());
    if (model && !model->item(index)->isEnabled())
        return;
    m_deviceCombo->setCurrentIndex(index);
}

void MainWindow::setOutputDirectory(const QString &path)
{
    m_outputEdit->setText(path);
}

void MainWindow::updateRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList recent = SessionController::recentSessions();
    for (const QString &path : recent) {
        QAction *a = m_recentMenu->addAction(QDir::toNativeSeparators(path));
        connect(a, &QAction::triggered, this, [this, path] { m_sessions->openSession(path); });
    }
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("No recent sessions"))->setEnabled(false);
}

bool MainWindow::exportReport(const QString &folder)
{
    QString error;
    if (!SessionReport::write(folder, *session(), *m_hub, {m_profilePanel, m_quantPanel, m_pipelinePanel, m_kernelsPanel},
                              &error)) {
        m_log->append(0, QStringLiteral("error"), tr("Exporting the report failed: %1").arg(error));
        showFailure(tr("Exporting the report failed: %1").arg(error));
        return false;
    }
    statusBar()->showMessage(tr("Report written to %1.").arg(folder), 10000);
    m_log->append(0, QStringLiteral("info"), tr("Report written to %1").arg(folder));
    return true;
}

void MainWindow::exportReportDialog()
{
    const QString folder = QFileDialog::getSaveFileName(this, tr("Export Report (a new folder)"),
                                                        QDir::homePath() + QStringLiteral("/aotstudio-report"));
    if (!folder.isEmpty())
        exportReport(folder);
}

CompareView *MainWindow::compareJobs(const QString &a, const QString &b)
{
    QWidget *window
        = HelpWindows::secondaryWindow(this, QStringLiteral("compareWindow"),
                                       tr("Compare %1 with %2").arg(QFileInfo(a).fileName(), QFileInfo(b).fileName()));
    auto *view = new CompareView(window);
    auto *layout = new QVBoxLayout(window);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view);
    window->resize(1200, 820);
    window->show();
    view->compareFolders(a, b);
    return view;
}

void MainWindow::compareWithDialog()
{
    // The session's finished compile and profile jobs whose folders are readable here (a remote
    // engine's folders are not: pick a fetched or copied folder instead).
    struct Candidate {
        qint64 id;
        QString folder, label;
    };
    QList<Candidate> candidates;
    if (Client::Session *s = session())
        for (const auto &job : s->jobs()) {
            if (!job.succeeded() || (job.kind != QLatin1String("compile") && job.kind != QLatin1String("profile")))
                continue;
            const QString folder = s->resolvePath(job.outputDirectory());
            if (folder.isEmpty() || !QFileInfo(folder).isDir())
                continue;
            candidates.append({job.id, folder,
                               tr("Job %1: %2 %3 — %4")
                                   .arg(job.id)
                                   .arg(job.kind, job.request.value(QLatin1String("model")).toString(),
                                        QDir::toNativeSeparators(folder))});
        }
    QString a;
    for (const auto &c : std::as_const(candidates))
        if (c.id == m_hub->currentJob())
            a = c.folder;
    if (a.isEmpty()) {
        a = QFileDialog::getExistingDirectory(this, tr("Compare: the first job folder (A)"));
        if (a.isEmpty())
            return;
    }
    QStringList items;
    QStringList folders;
    for (const auto &c : std::as_const(candidates))
        if (QDir(c.folder) != QDir(a)) {
            items << c.label;
            folders << c.folder;
        }
    const QString other = tr("Another job folder…");
    items << other;
    bool ok = false;
    const QString picked = QInputDialog::getItem(
        this, tr("Compare With"), tr("Compare %1 (A) with (B):").arg(QDir::toNativeSeparators(a)), items, 0, false, &ok);
    if (!ok)
        return;
    QString b = picked == other ? QString() : folders.value(items.indexOf(picked));
    if (b.isEmpty()) {
        b = QFileDialog::getExistingDirectory(this, tr("Compare with: the second job folder (B)"),
                                              QFileInfo(a).absolutePath());
        if (b.isEmpty())
            return;
    }
    compareJobs(a, b);
}

void MainWindow::showFailure(const QString &message)
{
    // No timeout: it stays until the next compile or restart, so "Engine ready." or an
    // earlier success cannot hide that the last thing the user asked for did not happen.
    m_failureShown = true;
    statusBar()->showMessage(message);
}

void MainWindow::showRepro(const QJsonObject &record, const QString &host)
{
    const QString folder = record.value(QLatin1String("folder")).toString();
    const QJsonValue reproduced = record.value(QLatin1String("reproduced"));
    const QJsonObject run = record.value(QLatin1String("run")).toObject();
    const QString line = run.value(QLatin1String("line")).toString();
    QString text;
    QMessageBox::Icon icon = QMessageBox::Information;
    if (reproduced.isBool() && reproduced.toBool()) {
        text = tr("The repro reproduces the failure in a fresh process (%1 s).")
                   .arg(formatNumber(run.value(QLatin1String("seconds")).toDouble(), 'f', 1));
    } else if (reproduced.isBool()) {
        icon = QMessageBox::Warning;
        text = tr("The repro did NOT reproduce the failure in a fresh process: the failure may be flaky, or depend "
                  "on the engine's machine, its settings or the engine process.");
    } else {
        icon = QMessageBox::Warning;
        text = tr("Whether the repro reproduces is not known: %1.").arg(run.value(QLatin1String("outcome")).toString());
    }
    auto *box = new QMessageBox(icon, tr("Repro"), text, QMessageBox::Close, this);
    box->setObjectName(QStringLiteral("reproBox"));
    const double bytes = record.value(QLatin1String("bytes")).toDouble(qQNaN());
    QString info = host.isEmpty() ? tr("Folder: %1 (%2)").arg(folder, formatBytes(bytes))
                                  : tr("Folder on %1: %2 (%3)").arg(host, folder, formatBytes(bytes));
    info += QLatin1Char('\n') + tr("Run it again: cd %1 && python repro.py").arg(folder);
    if (record.value(QLatin1String("kind")).toString() == QLatin1String("numerics"))
        info += QLatin1Char('\n')
            + tr("Subgraph: node %1 (%2), %3 side")
                  .arg(record.value(QLatin1String("node")).toString(), record.value(QLatin1String("target")).toString(),
                       record.value(QLatin1String("side")).toString());
    box->setInformativeText(info);
    if (!line.isEmpty())
        box->setDetailedText(line + QStringLiteral("\n\n") + run.value(QLatin1String("output_tail")).toString());
    if (host.isEmpty() && !folder.isEmpty()) {
        QPushButton *open = box->addButton(tr("Open Folder"), QMessageBox::ActionRole);
        open->setObjectName(QStringLiteral("openReproFolderButton"));
        connect(open, &QPushButton::clicked, this, [folder] { QDesktopServices::openUrl(QUrl::fromLocalFile(folder)); });
    }
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open(); // not exec(): the window (and tests) keep running
}

void MainWindow::updateActions()
{
    const bool canStart = m_jobs->canStart();
    const auto lastResult = m_jobs->lastResult();
    m_compileAction->setEnabled(canStart);
    m_profileAction->setEnabled(canStart);
    m_quantizeAction->setEnabled(canStart);
    // A regional compile leaves one package per block class, no package of the whole model: the
    // sweep and the bundle export need one, so they say so instead of starting a job that fails.
    const bool regional = lastResult.has_value() && lastResult->isRegional();
    m_sweepAction->setEnabled(canStart && lastResult.has_value() && !lastResult->package.isEmpty());
    m_sweepAction->setToolTip(regional ? tr("The last compile was regional: it has no package of the whole model to "
                                            "sweep. Compile without “Regional compile” (Run Settings) first.")
                                       : m_sweepToolTip);
    m_sweepBundleAction->setEnabled(canStart);
    m_numericsAction->setEnabled(canStart);
    m_reproAction->setEnabled(canStart && !m_jobs->reproCandidate().isEmpty());
    m_reproAction->setToolTip(m_jobs->reproCandidate().isEmpty()
                                  ? tr("Write a folder that reproduces a failure with plain torch (after a compile that "
                                       "failed to compile or verify, or a numerics job that found a divergence)")
                                  : tr("Write a folder that reproduces %1 with plain torch and run it once in a fresh "
                                       "process (%2)")
                                        .arg(m_jobs->reproCandidateText(), m_jobs->reproCandidate()));
    m_inputsAction->setEnabled(canStart);
    m_tuneAction->setEnabled(canStart);
    m_exportAction->setEnabled(canStart && !m_jobs->lastCompileDirectory().isEmpty() && !regional);
    m_exportAction->setToolTip(regional ? tr("The last compile was regional: a bundle is exported from a compile of "
                                             "the whole model. Compile without “Regional compile” (Run Settings) first.")
                                        : m_exportToolTip);
    m_cancelAction->setEnabled(m_jobs->isBusy());
    m_targetCombo->setEnabled(!m_jobs->isBusy());
}

void MainWindow::updateEngineStatus()
{
    using State = Client::EngineClient::State;
    const Client::EngineClient *client = m_jobs->client();
    const bool remote = client->isRemote();
    const QString host = client->remote().displayName();
    switch (client->state()) {
    case State::Ready: {
        const auto &info = client->engineInfo();
        QStringList devices;
        for (const auto &device : info.devices) devices << device.label();
        const QString text = tr("Engine %1 · torch %2 · CUDA %3 · %4")
                                 .arg(info.engineVersion,
                                      info.torchVersion.isEmpty() ? tr("unavailable") : info.torchVersion,
                                      info.cudaVersion.isEmpty() ? tr("none") : info.cudaVersion,
                                      devices.isEmpty() ? tr("no devices") : devices.join(QStringLiteral(", ")));
        const QString where = info.target.isEmpty() ? text : tr("target %1 · %2").arg(info.target, text);
        m_engineStatus->setText(remote ? tr("%1 (over SSH) · %2").arg(host, where) : where);
        break;
    }
    case State::Starting:
    case State::Reconnecting:
        m_engineStatus->setText(client->state() == State::Reconnecting ? tr("Reconnecting to %1…").arg(host) : remote ? tr("Connecting to %1…").arg(host) : tr("Starting engine…"));
        break;
    case State::NotRunning:
    case State::Failed:
        m_engineStatus->setText(remote ? tr("Not connected to %1").arg(host) : tr("Engine not running"));
        break;
    }
}

void MainWindow::showBanner(const QString &text)
{
    m_bannerText->setText(text);
    m_banner->show();
}

void MainWindow::setCudaAvailable(bool available, const QString &why)
{
    auto *model = qobject_cast<QStandardItemModel *>(m_deviceCombo->model());
    const int index = m_deviceCombo->findData(QStringLiteral("cuda"));
    if (!model || index < 0)
        return;
    model->item(index)->setEnabled(available);
    m_deviceCombo->setItemData(index, available ? QString() : why, Qt::ToolTipRole);
    if (!available && m_deviceCombo->currentIndex() == index)
        m_deviceCombo->setCurrentIndex(m_deviceCombo->findData(QStringLiteral("cpu")));
}

void MainWindow::openFactory()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Open model factory"), QString(),
                                                      tr("Python files (*.py)"));
    if (file.isEmpty())
        return;
    bool ok = false;
    const QString function = QInputDialog::getText(
        this, tr("Factory function"),
        tr("Function in %1 that returns (model, example_inputs):")
            .arg(QFileInfo(file).fileName()),
        QLineEdit::Normal, QStringLiteral("factory"), &ok);
    if (ok && !function.trimmed().isEmpty())
        setModel(file + QLatin1Char(':') + function.trimmed());
}

void MainWindow::openHfFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Hugging Face model folder"));
    if (dir.isEmpty())
        return;
    if (!QFileInfo::exists(QDir(dir).filePath(QStringLiteral("config.json")))) {
        QMessageBox::warning(this, tr("Not a model folder"),
                             tr("%1 has no config.json. Pick the folder that holds the model's config.json (for a "
                                "diffusers pipeline, one of its component folders such as unet/).")
                                 .arg(QDir::toNativeSeparators(dir)));
        return;
    }
    setModel(QStringLiteral("hf:") + dir);
}

void MainWindow::chooseOutputDirectory()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Output folder"),
                                                          m_outputEdit->text());
    if (!dir.isEmpty())
        m_outputEdit->setText(dir);
}

} // namespace AotStudio::Widgets
