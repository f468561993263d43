// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "connectdialog.h"
#include "exportdialog.h"
#include "graphpanel.h"
#include "inspectorpanel.h"
#include "kernelspanel.h"
#include "kerneltablemodel.h"
#include "logview.h"
#include "measurementtext.h"
#include "pipelinemodel.h"
#include "pipelinepanel.h"
#include "profilepanel.h"
#include "quantizationpanel.h"
#include "reportwriter.h"
#include "resultpanel.h"
#include "schemetablemodel.h"
#include "selectionhub.h"
#include "sweeppanel.h"
#include "throughputmodel.h"
#include "verifyoutputmodel.h"
#include "trustdialog.h"
#include "verifytext.h"

#include "client/artifactstore.h"
#include "client/measurement.h"
#include "client/session.h"
#include "client/stagenames.h"
#include "client/sweepresult.h"
#include "client/verifyresult.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <qcustomplot.h>

// Q_INIT_RESOURCE must be called from the global namespace; the widgets library is static, so
// the linker would drop the unreferenced resource object otherwise.
static void initStudioResources()
{
    Q_INIT_RESOURCE(aotstudio);
}

namespace AotStudio::Widgets {

namespace {
constexpr auto KeyGeometry = "window/geometry";
constexpr auto KeyState = "window/state";
constexpr auto KeyModel = "compile/model";
constexpr auto KeyDevice = "compile/device";
constexpr auto KeyOutput = "compile/output";
constexpr auto KeyLanguage = "ui/language";
constexpr auto KeyRecentSessions = "sessions/recent";
constexpr int MaxRecentSessions = 8;
/// The engine locks its output folder with this file (core/python job.py); it is not output.
constexpr auto LockFileName = ".aotstudio.lock";
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_client(new Client::EngineClient(this))
    , m_hub(new SelectionHub(this))
    , m_liveSession(new Client::Session(this))
    , m_runSettings(RunSettings::load())
{
    initStudioResources();
    setWindowTitle(tr("AOT Studio"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/aotstudio.svg")));
    setObjectName(QStringLiteral("mainWindow"));
    resize(1400, 900);
    setDockNestingEnabled(true);

    createActions();
    createToolBar();
    createCentral();
    createDocks();
    createMenus();

    m_engineStatus = new QLabel(this);
    m_engineStatus->setObjectName(QStringLiteral("engineStatus"));
    statusBar()->addPermanentWidget(m_engineStatus);

    using Client::EngineClient;
    connect(m_client, &EngineClient::stateChanged, this, [this] {
        updateEngineStatus();
        updateActions();
    });
    connect(m_client, &EngineClient::handshakeCompleted, this, &MainWindow::onHandshake);
    // Everything the engine says goes into the live session first (recorded, replayable); the
    // typed signals below drive the window's own state.
    connect(m_client, &EngineClient::eventReceived, m_liveSession, &Client::Session::apply);
    connect(m_client, &EngineClient::requestSent, m_liveSession, &Client::Session::recordRequest);
    connect(m_client, &EngineClient::stderrLine, m_liveSession,
            [this](const QString &line) { m_liveSession->recordLog(0, QStringLiteral("debug"), line); });
    connect(m_client, &EngineClient::errorReceived, m_liveSession, &Client::Session::recordError);
    connect(m_client, &EngineClient::progress, this, &MainWindow::onProgress);
    connect(m_client, &EngineClient::logMessage, m_log, &LogView::append);
    connect(m_client, &EngineClient::stageDone, this,
            [this](qint64 id, const QString &stage, double seconds) {
                onStageDone(id, stage, seconds);
            });
    connect(m_client, &EngineClient::snapshotTaken, this,
            [this](qint64 id, const QString &stage, const QString &pass, int nodes) {
                onSnapshot(id, stage, pass, nodes);
            });
    connect(m_client, &EngineClient::resultReceived, this, &MainWindow::onResult);
    connect(m_client, &EngineClient::errorReceived, this, &MainWindow::onError);
    connect(m_client, &EngineClient::engineFailed, this, &MainWindow::onEngineFailed);

    // Job files are read through the hub's store; a remote engine's come through `read`, and
    // every file of a finished job is fetched into the session's cache at once, so the session
    // reopens later without the engine.
    m_hub->store()->setClient(m_client);
    connect(m_liveSession, &Client::Session::jobFinished, this, [this](qint64 id) {
        if (const auto *job = m_liveSession->job(id); job && m_client->isRemote())
            m_hub->store()->prefetch(Client::ArtifactStore::artifactsOf(*job));
    });
    connect(m_hub->store(), &Client::ArtifactStore::fetchFailed, this,
            [this](const QString &, const QString &message) { m_log->append(0, QStringLiteral("warning"), message); });

    m_defaultLayout = saveState(LayoutVersion);
    m_hub->setSession(m_liveSession);
    connectSession();
    restoreSettings();
    m_modelCombo->setFocus();
    updateEngineStatus();
    updateActions();
}

MainWindow::~MainWindow() = default;

QString MainWindow::jobsDirectory()
{
    // Not AppLocalDataLocation: with organization and application both "AOTStudio" that is
    // ~/.local/share/AOTStudio/AOTStudio, and the settings rely on those names.
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
           + QStringLiteral("/aotstudio/jobs");
}

QString MainWindow::sessionsDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
           + QStringLiteral("/aotstudio/sessions");
}

Client::Session *MainWindow::session() const
{
    return m_openedSession ? m_openedSession : m_liveSession;
}

QString MainWindow::languageSetting()
{
    return QSettings().value(QLatin1String(KeyLanguage)).toString();
}

void MainWindow::createActions()
{
    m_compileAction = new QAction(QIcon::fromTheme(QStringLiteral("media-playback-start")),
                                  tr("&Compile"), this);
    m_compileAction->setObjectName(QStringLiteral("compileAction"));
    m_compileAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_compileAction->setToolTip(tr("Export, compile with AOTInductor, verify and measure (Ctrl+R)"));
    connect(m_compileAction, &QAction::triggered, this, &MainWindow::compile);

    m_cancelAction = new QAction(QIcon::fromTheme(QStringLiteral("process-stop")), tr("C&ancel"),
                                 this);
    m_cancelAction->setObjectName(QStringLiteral("cancelAction"));
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancelAction->setToolTip(tr("Cancel the running job (Esc)"));
    connect(m_cancelAction, &QAction::triggered, this, &MainWindow::cancel);

    m_exportAction = new QAction(QIcon::fromTheme(QStringLiteral("document-save-as")),
                                 tr("&Export Bundle…"), this);
    m_exportAction->setObjectName(QStringLiteral("exportAction"));
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportAction->setToolTip(
        tr("Package the last compile's model as a bundle of batch-size packages (Ctrl+E)"));
    connect(m_exportAction, &QAction::triggered, this, &MainWindow::showExportDialog);

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
    connect(m_restartAction, &QAction::triggered, this, &MainWindow::restartEngine);
    m_connectAction = new QAction(QIcon::fromTheme(QStringLiteral("network-connect")), tr("&Connect to Remote Engine…"), this);
    m_connectAction->setObjectName(QStringLiteral("connectAction"));
    m_connectAction->setToolTip(tr("Run the engine on another machine over SSH"));
    connect(m_connectAction, &QAction::triggered, this, &MainWindow::connectRemoteDialog);
    m_localEngineAction = new QAction(tr("Use &Local Engine"), this);
    m_localEngineAction->setObjectName(QStringLiteral("localEngineAction"));
    connect(m_localEngineAction, &QAction::triggered, this, &MainWindow::useLocalEngine);

    m_profileAction = new QAction(QIcon::fromTheme(QStringLiteral("utilities-system-monitor")), tr("&Profile"), this);
    m_profileAction->setObjectName(QStringLiteral("profileAction"));
    m_profileAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    m_profileAction->setToolTip(tr("Compile, then measure eager against compiled: latency, kernels, memory, "
                                   "cold start and throughput (Ctrl+P)"));
    connect(m_profileAction, &QAction::triggered, this, &MainWindow::profile);

    m_quantizeAction = new QAction(QIcon::fromTheme(QStringLiteral("view-statistics")), tr("&Quantize"), this);
    m_quantizeAction->setObjectName(QStringLiteral("quantizeAction"));
    m_quantizeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q | Qt::SHIFT));
    m_quantizeAction->setToolTip(tr("Compare quantization schemes: latency, memory, size and accuracy against "
                                    "fp32 eager (Ctrl+Shift+Q)"));
    connect(m_quantizeAction, &QAction::triggered, this, &MainWindow::quantize);

    m_sweepAction = new QAction(QIcon::fromTheme(QStringLiteral("view-grid")), tr("S&weep Shapes"), this);
    m_sweepAction->setObjectName(QStringLiteral("sweepAction"));
    m_sweepAction->setToolTip(tr("Verify the last compiled package across the shapes it accepts: every dynamic dimension's "
                                 "range ends, guards and interior sizes must match eager, sizes outside must be refused"));
    connect(m_sweepAction, &QAction::triggered, this, &MainWindow::sweep);

    m_sweepBundleAction = new QAction(tr("Sweep a &Bundle…"), this);
    m_sweepBundleAction->setObjectName(QStringLiteral("sweepBundleAction"));
    m_sweepBundleAction->setToolTip(tr("Verify an exported bundle (a folder or a .zip) across its shapes and its bucket "
                                       "policy; its signature is checked against the engine's trust store first"));
    connect(m_sweepBundleAction, &QAction::triggered, this, &MainWindow::chooseBundleToSweep);

    m_settingsAction = new QAction(QIcon::fromTheme(QStringLiteral("configure")), tr("Run &Settings…"), this);
    m_settingsAction->setObjectName(QStringLiteral("settingsAction"));
    m_settingsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    m_settingsAction->setToolTip(tr("Data type, Inductor options, dynamic dimensions, measuring and schemes"));
    connect(m_settingsAction, &QAction::triggered, this, &MainWindow::showRunSettings);

    m_openSessionAction = new QAction(QIcon::fromTheme(QStringLiteral("document-open-recent")),
                                      tr("Open &Session…"), this);
    m_openSessionAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_openSessionAction->setToolTip(tr("Show a saved session (.aotsession) without running anything"));
    connect(m_openSessionAction, &QAction::triggered, this, &MainWindow::openSessionDialog);

    m_saveSessionAction = new QAction(QIcon::fromTheme(QStringLiteral("document-save")), tr("&Save Session As…"), this);
    m_saveSessionAction->setShortcut(QKeySequence::Save);
    m_saveSessionAction->setToolTip(tr("Copy this session and its job folders into a new folder"));
    connect(m_saveSessionAction, &QAction::triggered, this, &MainWindow::saveSessionDialog);

    m_reportAction = new QAction(QIcon::fromTheme(QStringLiteral("text-html")), tr("Export &Report…"), this);
    m_reportAction->setObjectName(QStringLiteral("reportAction"));
    m_reportAction->setToolTip(tr("Write an HTML report with the charts as PNG and the tables as CSV"));
    connect(m_reportAction, &QAction::triggered, this, &MainWindow::exportReportDialog);

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
    bar->addSeparator();

    m_deviceCombo = new QComboBox(bar);
    m_deviceCombo->setObjectName(QStringLiteral("deviceCombo"));
    m_deviceCombo->addItem(tr("CPU"), QStringLiteral("cpu"));
    m_deviceCombo->addItem(tr("CUDA"), QStringLiteral("cuda"));
    // Picking a device by hand replaces the one asked for on the command line.
    connect(m_deviceCombo, &QComboBox::activated, this, [this] { m_requestedDevice.clear(); });
    bar->addWidget(new QLabel(tr("Device:"), bar));
    bar->addWidget(m_deviceCombo);
    bar->addSeparator();

    m_outputEdit = new QLineEdit(bar);
    m_outputEdit->setObjectName(QStringLiteral("outputEdit"));
    m_outputEdit->setClearButtonEnabled(true);
    m_outputEdit->setPlaceholderText(tr("New folder per job"));
    m_outputEdit->setToolTip(
        tr("Output folder. Empty: a new folder under %1 for every job.")
            .arg(QDir::toNativeSeparators(jobsDirectory())));
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
    m_progress->setTextVisible(false);
    m_progress->setFixedWidth(160);
    m_stageLabel = new QLabel(tr("Idle"), progressBar);
    m_stageLabel->setObjectName(QStringLiteral("stageLabel"));
    m_stageLabel->setMinimumWidth(240);
    m_stageLabel->setContentsMargins(6, 0, 6, 0);
    progressBar->addWidget(m_progress);
    progressBar->addWidget(m_stageLabel);
}

void MainWindow::createCentral()
{
    auto *central = new QWidget(this);
    m_banner = new QFrame(central);
    m_banner->setObjectName(QStringLiteral("engineBanner"));
    m_banner->setStyleSheet(QStringLiteral(
        "#engineBanner { background: #fff4e5; border: 1px solid #f0b35a; border-radius: 4px; }"
        "#engineBanner QLabel { color: #663c00; }"));
    m_bannerText = new QLabel(m_banner);
    m_bannerText->setObjectName(QStringLiteral("engineBannerText"));
    m_bannerText->setWordWrap(true);
    m_bannerText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *restart = new QPushButton(tr("Restart engine"), m_banner);
    restart->setObjectName(QStringLiteral("restartEngineButton"));
    m_restartButton = restart;
    connect(restart, &QPushButton::clicked, this, &MainWindow::restartEngine);
    auto *bannerLayout = new QHBoxLayout(m_banner);
    bannerLayout->addWidget(m_bannerText, 1);
    bannerLayout->addWidget(restart, 0, Qt::AlignVCenter);
    m_banner->hide();

    // The summary scrolls rather than claim width: the docks around it (graph, kernels) need it.
    auto *scroll = new QScrollArea(central);
    scroll->setObjectName(QStringLiteral("summaryScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(220);
    m_resultPanel = new ResultPanel(scroll);
    m_resultPanel->setObjectName(QStringLiteral("resultPanel"));
    scroll->setWidget(m_resultPanel);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_banner);
    layout->addWidget(scroll, 1);
    setCentralWidget(central);
}

QDockWidget *MainWindow::addPanelDock(QWidget *panel, const QString &title, const QString &name,
                                      Qt::DockWidgetArea area)
{
    auto *dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    panel->setParent(dock);
    dock->setWidget(panel);
    addDockWidget(area, dock);
    m_docks.append(dock);
    return dock;
}

void MainWindow::createDocks()
{
    // The default layout: the pipeline and the inspector on the left, the big views (graph,
    // kernels, profile, quantization) tabbed on the right, the log along the bottom.
    m_pipelinePanel = new PipelinePanel(m_hub);
    m_graphPanel = new GraphPanel(m_hub);
    m_inspectorPanel = new InspectorPanel(m_hub);
    m_kernelsPanel = new KernelsPanel(m_hub);
    m_profilePanel = new ProfilePanel;
    m_profilePanel->follow(m_hub);
    m_quantPanel = new QuantizationPanel;
    m_quantPanel->follow(m_hub);
    m_sweepPanel = new SweepPanel;
    m_sweepPanel->follow(m_hub);
    m_log = new LogView;
    auto *pipeline = addPanelDock(m_pipelinePanel, tr("Pipeline"), QStringLiteral("pipelineDock"), Qt::LeftDockWidgetArea);
    auto *inspector = addPanelDock(m_inspectorPanel, tr("Inspector"), QStringLiteral("inspectorDock"), Qt::LeftDockWidgetArea);
    splitDockWidget(pipeline, inspector, Qt::Vertical);
    auto *graph = addPanelDock(m_graphPanel, tr("Graph"), QStringLiteral("graphDock"), Qt::RightDockWidgetArea);
    m_graphDock = graph;
    auto *kernels = addPanelDock(m_kernelsPanel, tr("Kernels"), QStringLiteral("kernelsDock"), Qt::RightDockWidgetArea);
    auto *profile = addPanelDock(m_profilePanel, tr("Profile"), QStringLiteral("profileDock"), Qt::RightDockWidgetArea);
    auto *quant = addPanelDock(m_quantPanel, tr("Quantization"), QStringLiteral("quantizationDock"), Qt::RightDockWidgetArea);
    auto *sweep = addPanelDock(m_sweepPanel, tr("Sweep"), QStringLiteral("sweepDock"), Qt::RightDockWidgetArea);
    m_profileDock = profile;
    m_quantDock = quant;
    m_sweepDock = sweep;
    tabifyDockWidget(graph, kernels);
    tabifyDockWidget(kernels, profile);
    tabifyDockWidget(profile, quant);
    tabifyDockWidget(quant, sweep);
    graph->raise();
    addPanelDock(m_log, tr("Log"), QStringLiteral("logDock"), Qt::BottomDockWidgetArea);
    resizeDocks({pipeline, graph}, {330, 760}, Qt::Horizontal);
    pipeline->setMinimumWidth(260);
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultLayout, LayoutVersion);
    for (auto *dock : std::as_const(m_docks))
        dock->show();
    m_graphDock->raise();
}

void MainWindow::connectSession()
{
    // The panels follow the hub themselves (HubViewer); the summary in the middle follows here.
    connect(m_hub, &SelectionHub::dataChanged, this, &MainWindow::showSessionResults);
}

void MainWindow::showSessionResults()
{
    // One truth per screen: a later profile of the compiled model supersedes the compile's quick
    // measurement in the result panel too, which says which one it shows.
    const Client::SpeedupFigure figure = Client::SpeedupFigure::current(*session());
    if (figure.source == Client::SpeedupFigure::Source::Profile && m_resultPanel->hasResult()
        && m_resultPanel->figure().model == figure.model && m_resultPanel->figure().device == figure.device)
        m_resultPanel->showFigure(figure);
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
    file->addAction(m_saveSessionAction);
    file->addSeparator();
    file->addAction(m_exportAction);
    file->addAction(m_reportAction);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *engine = menuBar()->addMenu(tr("&Engine"));
    engine->addAction(m_compileAction);
    engine->addAction(m_profileAction);
    engine->addAction(m_quantizeAction);
    engine->addAction(m_sweepAction);
    engine->addAction(m_sweepBundleAction);
    engine->addAction(m_cancelAction);
    engine->addSeparator();
    engine->addAction(m_settingsAction);
    engine->addSeparator();
    engine->addAction(m_connectAction);
    engine->addAction(m_localEngineAction);
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
        connect(action, &QAction::triggered, this, [this, code = code] {
            QSettings().setValue(QLatin1String(KeyLanguage), code);
            statusBar()->showMessage(
                tr("The language will change the next time AOT Studio starts."), 10000);
        });
    }

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About AOT Studio"), this, [this] {
        const auto &info = m_client->engineInfo();
        QMessageBox::about(
            this, tr("About AOT Studio"),
            tr("<h3>AOT Studio %1</h3><p>A studio for PyTorch ahead-of-time compilation "
               "(torch.export and AOTInductor).</p><p>Engine: %2</p>"
               "<p>Licensed under the GNU GPL, version 3 or later.</p>")
                .arg(QStringLiteral(AOTSTUDIO_VERSION),
                     info.engineVersion.isEmpty() ? tr("not connected") : info.engineVersion));
    });
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(QLatin1String(KeyGeometry)).toByteArray());
    restoreState(settings.value(QLatin1String(KeyState)).toByteArray(), LayoutVersion);
    const QString model = settings.value(QLatin1String(KeyModel)).toString();
    if (!model.isEmpty())
        setModel(model);
    selectDevice(settings.value(QLatin1String(KeyDevice), QStringLiteral("cpu")).toString());
    m_outputEdit->setText(settings.value(QLatin1String(KeyOutput)).toString());
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QLatin1String(KeyGeometry), saveGeometry());
    settings.setValue(QLatin1String(KeyState), saveState(LayoutVersion));
    settings.setValue(QLatin1String(KeyModel), m_modelCombo->currentText().trimmed());
    settings.setValue(QLatin1String(KeyDevice), m_deviceCombo->currentData().toString());
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
    m_requestedDevice = device;
    selectDevice(device);
    if (m_client->isReady()) {
        const QString reason = deviceUnavailableReason(device);
        if (!reason.isEmpty())
            refuseCompile(reason, false);
    }
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

void MainWindow::compileWhenReady()
{
    if (m_client->isReady())
        compile();
    else
        m_compileWhenReady = true;
}

void MainWindow::startEngine()
{
    m_client->start();
    updateEngineStatus();
}

void MainWindow::restartEngine()
{
    m_failureShown = false;
    m_banner->hide();
    m_log->append(0, QStringLiteral("info"), tr("Restarting the engine."));
    m_client->restart();
    updateEngineStatus();
}

void MainWindow::connectRemoteDialog()
{
    auto *dialog = new ConnectDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (m_client->isRemote())
        dialog->setRemote(m_client->remote());
    connect(dialog, &QDialog::accepted, this, [this, dialog] { connectRemote(dialog->remote()); });
    dialog->open();
}

void MainWindow::connectRemote(const Client::RemoteEngine &remote)
{
    m_failureShown = false;
    m_banner->hide();
    m_client->stop();
    m_client->setRemote(remote);
    m_log->append(0, QStringLiteral("info"),
                  m_client->isRemote() ? tr("Connecting to the engine on %1.").arg(remote.displayName())
                                       : tr("Starting the local engine."));
    m_client->start();
    updateEngineStatus();
    updateActions();
}

void MainWindow::useLocalEngine()
{
    connectRemote(Client::RemoteEngine{});
}

QString MainWindow::newJobDirectory() const
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

bool MainWindow::compile()
{
    return startJob(JobKind::Compile);
}

bool MainWindow::profile()
{
    return startJob(JobKind::Profile);
}

bool MainWindow::quantize()
{
    return startJob(JobKind::Quantize);
}

bool MainWindow::sweep()
{
    if (!m_client->isReady() || m_currentJob != 0)
        return false;
    if (!m_lastResult || m_lastResult->package.isEmpty() || m_lastCompileDirectory.isEmpty()) {
        statusBar()->showMessage(tr("Compile a model first: Sweep Shapes verifies the last compiled package."), 8000);
        return false;
    }
    const QString out = QDir(m_lastCompileDirectory).filePath(QStringLiteral("sweep"));
    return submitSweep(QJsonObject{{QLatin1String("package"), m_lastResult->package}, {QLatin1String("out"), out}},
                       m_lastResult->model, tr("Sweeping %1 across its shapes…").arg(m_lastResult->model),
                       tr("Sweeping the package %1 into %2").arg(m_lastResult->package, out));
}

bool MainWindow::submitSweep(QJsonObject body, const QString &model, const QString &status, const QString &logLine)
{
    if (m_openedSession) {
        m_hub->setSession(m_liveSession);
        m_openedSession->deleteLater();
        m_openedSession = nullptr;
        setWindowTitle(tr("AOT Studio"));
    }
    ensureRecording();
    const QJsonObject fields = m_runSettings.requestFields(QStringLiteral("sweep"));
    if (fields.contains(QLatin1String("threads")))
        body.insert(QLatin1String("threads"), fields.value(QLatin1String("threads")));
    m_currentJob = m_client->submitJob(QStringLiteral("sweep"), body);
    if (m_currentJob == 0)
        return false;
    m_jobDirectory.clear();
    m_currentKind = JobKind::Sweep;
    m_sweptBundle = body.value(QLatin1String("bundle")).toString();
    m_currentModel = model;
    m_currentOut = body.value(QLatin1String("out")).toString();
    m_failureShown = false;
    statusBar()->showMessage(status);
    m_resultPanel->clearError();
    m_progress->setValue(0);
    m_stageLabel->setText(tr("Starting…"));
    m_log->append(m_currentJob, QStringLiteral("info"), logLine);
    updateActions();
    return true;
}

void MainWindow::chooseBundleToSweep()
{
    QString bundle;
    if (m_client->isRemote()) { // a path on the engine's host: nothing here to browse
        bool ok = false;
        bundle = QInputDialog::getText(this, tr("Sweep a Bundle"),
                                       tr("Bundle on %1 (a folder holding manifest.json, or a .zip):").arg(m_client->remote().host),
                                       QLineEdit::Normal, QString(), &ok)
                     .trimmed();
        if (!ok)
            return;
    } else {
        bundle = QFileDialog::getOpenFileName(this, tr("Sweep a Bundle"), QString(),
                                              tr("Bundles (manifest.json *.zip);;All files (*)"));
        if (QFileInfo(bundle).fileName() == QLatin1String("manifest.json"))
            bundle = QFileInfo(bundle).absolutePath();
    }
    if (!bundle.isEmpty())
        startBundleSweep(bundle);
}

bool MainWindow::startBundleSweep(const QString &bundle, bool allowUnsigned)
{
    if (!m_client->isReady() || m_currentJob != 0)
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

void MainWindow::showRunSettings()
{
    auto *dialog = new RunSettingsDialog(m_runSettings, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        m_runSettings = dialog->settings();
        m_runSettings.save();
    });
    dialog->open();
}

bool MainWindow::startJob(JobKind kind)
{
    if (!m_client->isReady() || m_currentJob != 0)
        return false;
    Client::CompileRequest request;
    request.model = m_modelCombo->currentText().trimmed();
    if (request.model.isEmpty()) {
        statusBar()->showMessage(tr("Pick a model first."), 5000);
        return false;
    }
    request.device = m_deviceCombo->currentData().toString();
    // An explicit request the engine cannot serve is refused, not swapped for another device.
    const QString deviceProblem =
        deviceUnavailableReason(m_requestedDevice.isEmpty() ? request.device : m_requestedDevice);
    if (!deviceProblem.isEmpty()) {
        refuseCompile(deviceProblem);
        return false;
    }
    if (kind == JobKind::Quantize && m_runSettings.schemes.isEmpty()) {
        statusBar()->showMessage(tr("Choose at least one scheme in Run Settings."), 8000);
        return false;
    }
    const QString chosen = m_outputEdit->text().trimmed();
    request.out = QDir::cleanPath(chosen.isEmpty() ? newJobDirectory() : chosen);
    const bool created = !m_client->isRemote() && !QFileInfo::exists(request.out);
    if (!m_client->isRemote() && !QDir().mkpath(request.out)) {
        statusBar()->showMessage(tr("Cannot create the output folder %1.").arg(request.out), 10000);
        return false;
    }
    // A job started while a saved session is shown goes back to the live session.
    if (m_openedSession) {
        m_hub->setSession(m_liveSession);
        m_openedSession->deleteLater();
        m_openedSession = nullptr;
        setWindowTitle(tr("AOT Studio"));
    }
    ensureRecording();
    const QString type = kind == JobKind::Profile ? QStringLiteral("profile")
                       : kind == JobKind::Quantize ? QStringLiteral("quantize")
                                                   : QStringLiteral("compile");
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
                && same("max_autotune", profile.maxAutotune, false);
            if (reused)
                profile.package = m_lastResult->package;
        }
        body = profile.toJson(0);
    } else if (kind == JobKind::Quantize) {
        body = m_runSettings.quantizeRequest(request).toJson(0);
    } else {
        body = request.toJson(0);
        const QJsonObject fields = m_runSettings.requestFields(type);
        for (auto it = fields.begin(); it != fields.end(); ++it)
            body.insert(it.key(), it.value());
    }
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
    m_currentKind = kind;
    m_currentModel = request.model;
    m_currentOut = request.out;
    m_failureShown = false;
    const QString what = kind == JobKind::Profile ? tr("Profiling %1…")
                       : kind == JobKind::Quantize ? tr("Quantizing %1…")
                                                   : tr("Compiling %1…");
    statusBar()->showMessage(what.arg(request.model));
    m_resultPanel->clearError();
    m_progress->setValue(0);
    m_stageLabel->setText(tr("Starting…"));
    const QString line = kind == JobKind::Profile ? tr("Profiling %1 on %2 into %3")
                       : kind == JobKind::Quantize ? tr("Quantizing %1 on %2 into %3 (schemes: %4)")
                                                   : tr("Compiling %1 on %2 into %3");
    m_log->append(m_currentJob, QStringLiteral("info"),
                  kind == JobKind::Quantize
                      ? line.arg(request.model, request.device, request.out, m_runSettings.schemes.join(QStringLiteral(", ")))
                      : line.arg(request.model, request.device, request.out));
    if (reused)
        m_log->append(m_currentJob, QStringLiteral("info"),
                      tr("Profiling the package of the last compile (%1): same model, device and options, so it is not "
                         "compiled again").arg(m_lastResult->package));
    updateActions();
    return true;
}

void MainWindow::ensureRecording()
{
    if (!m_liveSession->filePath().isEmpty())
        return;
    const QString dir = sessionsDirectory();
    QDir().mkpath(dir);
    const QString path = dir + QLatin1Char('/')
                         + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"))
                         + Client::Session::fileSuffix();
    QString error;
    if (!m_liveSession->startRecording(path, QString(), &error)) {
        m_log->append(0, QStringLiteral("warning"),
                      tr("This session is not being recorded: cannot write %1 (%2).").arg(path, error));
        return;
    }
    // What arrived before the recording started (the handshake) is written first.
    if (m_liveSession->hasEngineInfo())
        m_liveSession->apply(QJsonObject{{QLatin1String("type"), QLatin1String("hello")},
                                         {QLatin1String("id"), 0},
                                         {QLatin1String("protocol"), m_client->engineInfo().protocol},
                                         {QLatin1String("engine_version"), m_client->engineInfo().engineVersion},
                                         {QLatin1String("torch_version"), m_client->engineInfo().torchVersion},
                                         {QLatin1String("cuda_version"), m_client->engineInfo().cudaVersion},
                                         {QLatin1String("python_version"), m_client->engineInfo().pythonVersion},
                                         {QLatin1String("cuda_available"), m_client->engineInfo().cudaAvailable}});
    addRecentSession(path);
}

QStringList MainWindow::recentSessions()
{
    return QSettings().value(QLatin1String(KeyRecentSessions)).toStringList();
}

void MainWindow::addRecentSession(const QString &path)
{
    QStringList recent = recentSessions();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > MaxRecentSessions)
        recent.removeLast();
    QSettings().setValue(QLatin1String(KeyRecentSessions), recent);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList recent = recentSessions();
    for (const QString &path : recent) {
        QAction *a = m_recentMenu->addAction(QDir::toNativeSeparators(path));
        connect(a, &QAction::triggered, this, [this, path] { openSession(path); });
    }
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("No recent sessions"))->setEnabled(false);
}

namespace {
/// The session's last compile job when it failed (not cancelled); nullptr otherwise.
const Client::JobRecord *latestFailedCompile(const Client::Session &session)
{
    for (auto it = session.jobs().crbegin(); it != session.jobs().crend(); ++it) {
        if (it->kind != QLatin1String("compile"))
            continue;
        return it->error.has_value() && !it->error->isCancellation() ? &*it : nullptr;
    }
    return nullptr;
}
} // namespace

bool MainWindow::openSession(const QString &path)
{
    Client::Session *loaded = nullptr;
    try {
        loaded = Client::Session::load(path, this);
    } catch (const Client::SessionError &e) {
        m_log->append(0, QStringLiteral("error"), e.message());
        showFailure(tr("Could not open the session: %1").arg(e.message()));
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Open Session"), e.message(), QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("sessionErrorBox"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        return false;
    }
    if (m_openedSession)
        m_openedSession->deleteLater();
    m_openedSession = loaded;
    m_log->clear();
    for (const auto &record : loaded->logs())
        m_log->append(record.job, record.level, record.message);
    for (const QString &warning : loaded->warnings())
        m_log->append(0, QStringLiteral("warning"), warning);
    m_hub->setSession(loaded);
    // The toolbar follows what the session ran, so Compile repeats it rather than something else.
    for (auto it = loaded->jobs().crbegin(); it != loaded->jobs().crend(); ++it) {
        const QString model = it->request.value(QLatin1String("model")).toString();
        if (model.isEmpty())
            continue;
        setModel(model);
        selectDevice(it->request.value(QLatin1String("device")).toString());
        break;
    }
    m_resultPanel->clearError();
    if (const auto *compile = loaded->latestSucceeded(QStringLiteral("compile")))
        m_resultPanel->showResult(Client::CompileResult::fromJson(compile->result));
    // The session's last compile failed (e.g. verification): say so, as it was said live.
    if (const auto *failed = latestFailedCompile(*loaded))
        m_resultPanel->showError(failed->request.value(QLatin1String("model")).toString(), *failed->error,
                                 Client::VerifyFailure::fromError(*failed->error, loaded->logs(), failed->id));
    showSessionResults();
    setWindowTitle(tr("AOT Studio — %1").arg(QFileInfo(path).fileName()));
    statusBar()->showMessage(loaded->warnings().isEmpty()
                                 ? tr("Opened the session %1 (%n job(s)).", nullptr, int(loaded->jobs().size())).arg(path)
                                 : tr("Opened the session %1 with problems: see the log.").arg(path),
                             10000);
    addRecentSession(QFileInfo(path).absoluteFilePath());
    updateActions();
    return true;
}

void MainWindow::openSessionDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Session"), sessionsDirectory(),
                                                      tr("AOT Studio sessions (*.aotsession)"));
    if (!path.isEmpty())
        openSession(path);
}

bool MainWindow::saveSessionAs(const QString &folder)
{
    QString error;
    const QString file = session()->saveAs(folder, &error);
    if (file.isEmpty()) {
        m_log->append(0, QStringLiteral("error"), tr("Saving the session failed: %1").arg(error));
        showFailure(tr("Saving the session failed: %1").arg(error));
        return false;
    }
    addRecentSession(file);
    statusBar()->showMessage(tr("Saved the session to %1.").arg(file), 10000);
    m_log->append(0, QStringLiteral("info"), tr("Saved the session to %1").arg(file));
    return true;
}

void MainWindow::saveSessionDialog()
{
    const QString folder = QFileDialog::getSaveFileName(this, tr("Save Session As (a new folder)"),
                                                        QDir::homePath() + QStringLiteral("/aotstudio-session"));
    if (!folder.isEmpty())
        saveSessionAs(folder);
}

bool MainWindow::exportReport(const QString &folder)
{
    ReportWriter report(tr("AOT Studio report"));
    VerifyOutputModel verifyOutputs; // the report reads its tables when written, below
    VerifyOutputModel failedOutputs;
    if (const auto *compile = session()->latestSucceeded(QStringLiteral("compile"))) {
        using Tone = ReportWriter::Tone;
        const auto r = Client::CompileResult::fromJson(compile->result);
        // The same figure as the result panel: the compile's, or a later profile's of the same model.
        const Client::SpeedupFigure f = Client::SpeedupFigure::current(*session());
        const Client::Measurement &m = f.measurement;
        const Tone figures = m.isUnreliable() ? Tone::Greyed : Tone::Plain;
        using V = Client::Measurement::Verdict;
        const Tone verdict = m.verdict == V::Ok           ? Tone::Ok
                             : m.verdict == V::Noisy      ? Tone::Noisy
                             : m.verdict == V::Unreliable ? Tone::Unreliable
                             : m.verdict == V::Unknown    ? Tone::Unknown
                                                          : Tone::Plain;
        report.addSummary(tr("Model"), r.model);
        report.addSummary(tr("Device"), r.device);
        report.addSummary(tr("torch"), r.torchVersion);
        report.addSummary(tr("Measured by"),
                          f.source == Client::SpeedupFigure::Source::Profile
                              ? (f.measuredAt.isValid()
                                     ? tr("Profile at %1 (it supersedes the compile's quick measurement)")
                                           .arg(QLocale().toString(f.measuredAt, QLocale::ShortFormat))
                                     : tr("Profile (it supersedes the compile's quick measurement)"))
                              : tr("Compile (its quick measurement)"));
        report.addSummary(tr("Eager median"), tr("%1 ms").arg(f.eagerMs), figures);
        report.addSummary(tr("Compiled median"), tr("%1 ms").arg(f.compiledMs), figures);
        report.addSummary(tr("Speed-up"), MeasurementText::ratioWithInterval(f.speedup), figures);
        report.addSummary(tr("Measurement"), MeasurementText::verdictLine(m), verdict);
        report.addSummary(tr("Threads"), MeasurementText::threads(m.threads, m.usableCpus));
        report.addSummary(tr("Max abs error"), QString::number(r.maxAbsError, 'g', 3));
        if (r.verify.isPresent()) {
            const bool passed = r.verify.passed && r.verify.failedOutputs().isEmpty();
            report.addSummary(tr("Verification"), VerifyText::headline(r.verify),
                              passed ? Tone::Passed : Tone::Failed);
            report.addSummary(tr("Verified as"), VerifyText::mode(r.verify));
            report.addSummary(tr("Verified on"), VerifyText::inputs(r.verify));
            report.addSummary(tr("Stateful"), VerifyText::stateful(r.verify));
            verifyOutputs.setOutputs(r.verify.outputs, r.verify.tolerance, r.verify.referenceDtype);
        }
    }
    // A later compile that failed its verification: what failed, by output.
    if (const auto *failed = latestFailedCompile(*session());
        failed && failed->error->code == QLatin1String("mismatch")
        && (!session()->latestSucceeded(QStringLiteral("compile"))
            || session()->latestSucceeded(QStringLiteral("compile"))->id < failed->id)) {
        const auto failure = Client::VerifyFailure::fromError(*failed->error, session()->logs(), failed->id);
        const QString names = VerifyText::failure(failure);
        report.addSummary(tr("Last compile"),
                          tr("%1 failed verification: %2")
                              .arg(failed->request.value(QLatin1String("model")).toString(),
                                   names.isEmpty() ? failed->error->message : names + QStringLiteral(". ") + failed->error->message),
                          ReportWriter::Tone::Failed);
        failedOutputs.setOutputs(failure.outputs);
    }
    const auto profile = m_hub->latestProfile();
    const Client::ColdStart cold = profile ? profile->coldStart : Client::ColdStart();
    if (cold.isMeasured()) {
        report.addSummary(tr("Cold start"),
                          tr("bundle %1 ms vs eager %2 ms: eager / bundle %3")
                              .arg(cold.bundleMs)
                              .arg(cold.eagerMs)
                              .arg(MeasurementText::ratioWithInterval(cold.ratioInterval,
                                                                      MeasurementText::Slower::Bundle)));
        const char *const names[] = {QT_TR_NOOP("spawn to main"), QT_TR_NOOP("verify"), QT_TR_NOOP("load"),
                                     QT_TR_NOOP("first run")};
        for (int i = 0; i < Client::ColdStart::PhaseCount; ++i) {
            if (cold.phases[i].isValid())
                report.addSummary(tr("Cold start: %1").arg(tr(names[i])), MeasurementText::phase(cold.phases[i]));
        }
    }
    m_profilePanel->flush(); // drawn when shown: a hidden dock may not be yet
    m_profilePanel->waitForTrace(10000); // the timeline is read off the UI thread
    for (QCustomPlot *chart : m_profilePanel->charts())
        report.addChart(QStringLiteral("profile-") + chart->objectName(), chart->objectName(), chart);
    for (QCustomPlot *chart : m_quantPanel->charts())
        report.addChart(QStringLiteral("quantization-") + chart->objectName(), chart->objectName(), chart);
    if (verifyOutputs.rowCount() > 0)
        report.addTable(QStringLiteral("verify"), tr("Verification per output"), &verifyOutputs);
    if (failedOutputs.rowCount() > 0)
        report.addTable(QStringLiteral("verify-failed"), tr("Failed verification per output"), &failedOutputs);
    if (m_profilePanel->throughputModel()->rowCount() > 0)
        report.addTable(QStringLiteral("throughput"), tr("Throughput"), m_profilePanel->throughputModel());
    report.addTable(QStringLiteral("pipeline"), tr("Pipeline"), m_pipelinePanel->model());
    report.addTable(QStringLiteral("kernels"), tr("Kernels"), m_kernelsPanel->model());
    if (m_quantPanel->schemeModel()->rowCount() > 0)
        report.addTable(QStringLiteral("schemes"), tr("Quantization schemes"), m_quantPanel->schemeModel());
    QString error;
    if (!report.write(folder, &error)) {
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

void MainWindow::showExportDialog()
{
    if (!m_exportAction->isEnabled())
        return;
    auto *dialog = new ExportDialog(m_lastCompileDirectory, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { exportBundle(dialog->request()); });
    dialog->open(); // not exec(): the window (and tests) keep running
}

bool MainWindow::exportBundle(const Client::ExportRequest &request)
{
    if (!m_client->isReady() || m_currentJob != 0)
        return false;
    // No folder is made here: the engine creates the bundle and refuses an existing one.
    m_currentJob = m_client->exportBundle(request);
    if (m_currentJob == 0)
        return false;
    m_currentKind = JobKind::Export;
    m_currentModel = m_lastResult ? m_lastResult->model : request.model;
    m_currentOut = request.out;
    m_failureShown = false;
    statusBar()->showMessage(tr("Exporting a bundle to %1…").arg(request.out));
    m_resultPanel->clearError();
    m_progress->setValue(0);
    m_stageLabel->setText(tr("Starting…"));
    QStringList buckets;
    for (int b : request.buckets)
        buckets << QString::number(b);
    if (request.hasDynamicBatch())
        buckets << QStringLiteral("%1..%2").arg(request.dynamicBatchMin).arg(request.dynamicBatchMax);
    m_log->append(m_currentJob, QStringLiteral("info"),
                  tr("Exporting a bundle of %1 (batch %2) into %3")
                      .arg(request.from.isEmpty() ? request.model : request.from,
                           buckets.join(QStringLiteral(", ")), request.out));
    updateActions();
    return true;
}

void MainWindow::cancel()
{
    if (m_currentJob == 0)
        return;
    m_stageLabel->setText(tr("Cancelling…"));
    m_client->cancel(m_currentJob);
}

void MainWindow::showFailure(const QString &message)
{
    // No timeout: it stays until the next compile or restart, so "Engine ready." or an
    // earlier success cannot hide that the last thing the user asked for did not happen.
    m_failureShown = true;
    statusBar()->showMessage(message);
}

void MainWindow::refuseCompile(const QString &reason, bool compileWasRequested)
{
    // The full reason goes to the log; the status bar gets what fits beside the engine status.
    m_log->append(0, QStringLiteral("warning"), reason);
    m_stageLabel->setText(tr("Not started: no CUDA device"));
    m_stageLabel->setToolTip(reason);
    showFailure(tr("Not compiled: CUDA was requested, but the engine has no CUDA device."));
    if (compileWasRequested)
        Q_EMIT compileBlocked(reason);
}

QString MainWindow::deviceUnavailableReason(const QString &device) const
{
    if (device != QLatin1String("cuda") || !m_client->isReady() || m_client->engineInfo().cudaAvailable)
        return QString();
    const auto &info = m_client->engineInfo();
    return tr("CUDA was requested, but the engine reports no CUDA device (torch %1, CUDA %2). "
              "Nothing was compiled; choose CPU to compile on the CPU.")
        .arg(info.torchVersion.isEmpty() ? tr("unavailable") : info.torchVersion,
             info.cudaVersion.isEmpty() ? tr("none") : info.cudaVersion);
}

void MainWindow::removeJobDirectoryIfEmpty()
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

void MainWindow::finishJob(bool ok)
{
    if (ok)
        m_jobDirectory.clear(); // keep it: it holds the package
    else
        removeJobDirectoryIfEmpty();
    m_currentJob = 0;
    m_progress->setValue(ok ? m_progress->maximum() : 0);
    updateActions();
    Q_EMIT jobFinished(ok);
}

void MainWindow::updateActions()
{
    const bool busy = m_currentJob != 0;
    m_compileAction->setEnabled(m_client->isReady() && !busy);
    m_profileAction->setEnabled(m_client->isReady() && !busy);
    m_quantizeAction->setEnabled(m_client->isReady() && !busy);
    m_sweepAction->setEnabled(m_client->isReady() && !busy && m_lastResult.has_value() && !m_lastResult->package.isEmpty());
    m_sweepBundleAction->setEnabled(m_client->isReady() && !busy);
    m_exportAction->setEnabled(m_client->isReady() && !busy && !m_lastCompileDirectory.isEmpty());
    m_cancelAction->setEnabled(busy);
}

void MainWindow::updateEngineStatus()
{
    using State = Client::EngineClient::State;
    const bool remote = m_client->isRemote();
    const QString host = m_client->remote().displayName();
    switch (m_client->state()) {
    case State::Ready: {
        const auto &info = m_client->engineInfo();
        QStringList devices;
        for (const auto &device : info.devices)
            devices << device.label();
        const QString text = tr("Engine %1 · torch %2 · CUDA %3 · %4")
                                 .arg(info.engineVersion,
                                      info.torchVersion.isEmpty() ? tr("unavailable") : info.torchVersion,
                                      info.cudaVersion.isEmpty() ? tr("none") : info.cudaVersion,
                                      devices.isEmpty() ? tr("no devices") : devices.join(QStringLiteral(", ")));
        m_engineStatus->setText(remote ? tr("%1 (over SSH) · %2").arg(host, text) : text);
        break;
    }
    case State::Starting:
        m_engineStatus->setText(remote ? tr("Connecting to %1…").arg(host) : tr("Starting engine…"));
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

void MainWindow::onHandshake(const Client::EngineInfo &info)
{
    m_banner->hide();
    updateEngineStatus();
    setCudaAvailable(info.cudaAvailable, tr("The engine reports no CUDA device."));
    updateActions();
    const QString deviceProblem = deviceUnavailableReason(m_requestedDevice);
    if (!deviceProblem.isEmpty()) {
        const bool wanted = std::exchange(m_compileWhenReady, false);
        refuseCompile(deviceProblem, wanted);
        return;
    }
    if (!m_failureShown) // e.g. after a cancel that restarted the engine: keep saying so
        statusBar()->showMessage(tr("Engine ready."), 5000);
    if (std::exchange(m_compileWhenReady, false))
        compile();
}

void MainWindow::onProgress(qint64 id, const QString &stage, double fraction,
                            const QString &message)
{
    if (id != m_currentJob)
        return;
    m_progress->setValue(qRound(qBound(0.0, fraction, 1.0) * m_progress->maximum()));
    QString label = Client::StageNames::displayName(stage);
    if (m_currentKind == JobKind::Export) {
        // The engine prefixes each bucket's compile events with its name ("batch4: …").
        const QString bucket = message.section(QLatin1String(": "), 0, 0);
        if (message.contains(QLatin1String(": ")) && !bucket.contains(QLatin1Char(' ')))
            label = tr("%1: %2").arg(bucket, label);
        label = tr("Export · %1").arg(label);
    }
    m_stageLabel->setText(label);
    m_stageLabel->setToolTip(message);
}

void MainWindow::onStageDone(qint64 id, const QString &stage, double seconds)
{
    m_log->append(id, QStringLiteral("info"),
                  tr("%1: done in %2 s")
                      .arg(Client::StageNames::displayName(stage),
                           QLocale().toString(seconds, 'f', 2)));
}

void MainWindow::onSnapshot(qint64 id, const QString &stage, const QString &pass, int nodes)
{
    // Graph stages (capture, post_grad, …) and pass names are Inductor's own words: kept raw.
    const QString where = pass.isEmpty() ? stage : QStringLiteral("%1 / %2").arg(stage, pass);
    m_log->append(id, QStringLiteral("info"),
                  tr("Snapshot %1: %2 nodes").arg(where, QLocale().toString(nodes)));
}

void MainWindow::onResult(qint64 id, const QJsonObject &json)
{
    if (id != m_currentJob)
        return;
    if (m_currentKind == JobKind::Export) {
        m_lastExport = Client::ExportResult::fromJson(json);
        m_resultPanel->showBundle(*m_lastExport);
        m_stageLabel->setText(tr("Done"));
        statusBar()->showMessage(tr("Exported the bundle %1.").arg(m_lastExport->bundle), 10000);
        m_log->append(id, QStringLiteral("info"),
                      tr("Bundle written to %1").arg(m_lastExport->bundle));
        finishJob(true);
        return;
    }
    if (m_currentKind == JobKind::Sweep) {
        // The session parsed it; the sweep panel shows it through the hub.
        const auto *job = session() ? session()->job(id) : nullptr;
        const auto result = job && job->sweep ? *job->sweep : Client::SweepResult::fromJson(json);
        m_sweepDock->raise();
        m_stageLabel->setText(result.passed ? tr("Done") : tr("Sweep failed"));
        statusBar()->showMessage(result.passed ? tr("Swept %1: %2").arg(m_currentModel, result.verdict)
                                               : tr("Sweep of %1 FAILED: %2").arg(m_currentModel, result.verdict),
                                 15000);
        m_log->append(id, result.passed ? QStringLiteral("info") : QStringLiteral("warning"), result.verdict);
        finishJob(true);
        return;
    }
    if (m_currentKind == JobKind::Profile || m_currentKind == JobKind::Quantize) {
        const bool profiling = m_currentKind == JobKind::Profile;
        (profiling ? m_profileDock : m_quantDock)->raise();
        m_stageLabel->setText(tr("Done"));
        statusBar()->showMessage(profiling ? tr("Profiled %1.").arg(m_currentModel) : tr("Quantized %1.").arg(m_currentModel),
                                 10000);
        finishJob(true);
        return;
    }
    m_lastResult = Client::CompileResult::fromJson(json);
    m_lastExport.reset();
    m_lastCompileDirectory = m_currentOut;
    m_resultPanel->showResult(*m_lastResult);
    m_stageLabel->setText(tr("Done"));
    statusBar()->showMessage(tr("Compiled %1.").arg(m_lastResult->model), 10000);
    finishJob(true);
}

void MainWindow::onError(qint64 id, const Client::EngineError &error)
{
    m_log->append(id, QStringLiteral("error"),
                  error.hint.isEmpty() ? error.message
                                       : tr("%1 Hint: %2").arg(error.message, error.hint));
    if (id == 0) {
        // An engine-wide error (e.g. its Python frontend did not start): every job will fail.
        showBanner(tr("The engine reported a problem: %1").arg(error.message));
        return;
    }
    if (id != m_currentJob)
        return;
    if (m_currentKind == JobKind::Sweep && !m_sweptBundle.isEmpty() && TrustDialog::answers(error)) {
        // Refused by the engine's trust policy: the user decides (issue 19), nothing failed yet.
        const QString bundle = m_sweptBundle;
        m_log->append(id, QStringLiteral("warning"), tr("The engine did not load the bundle %1: %2").arg(bundle, error.message));
        m_stageLabel->setText(tr("Waiting for your decision"));
        finishJob(false);
        const QString where = m_client->isRemote() ? m_client->remote().host : tr("this computer");
        auto *dialog = new TrustDialog(bundle, where, error, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QMessageBox::finished, this, [this, dialog, bundle] {
            if (dialog->loadAnyway())
                startBundleSweep(bundle, true);
            else
                m_stageLabel->setText(tr("Not loaded"));
        });
        dialog->open();
        return;
    }
    const bool exporting = m_currentKind == JobKind::Export;
    const QString jobName = m_currentKind == JobKind::Profile ? tr("Profiling")
                          : m_currentKind == JobKind::Quantize ? tr("Quantizing")
                          : m_currentKind == JobKind::Sweep    ? tr("Sweeping")
                                                               : tr("Compiling");
    Client::EngineError shown = error;
    if (error.code == QLatin1String("engine_crashed")) {
        // The banner above already quotes the engine's exit; do not repeat it word for word.
        shown.message = tr("The engine stopped during this job.");
    }
    if (exporting)
        m_resultPanel->showExportError(m_currentOut, shown);
    else // a failed verification: which output, and every output's figures from the job's log
        m_resultPanel->showError(m_currentModel, shown,
                                 Client::VerifyFailure::fromError(error, m_liveSession->logs(), id));
    m_stageLabel->setText(error.isCancellation() ? tr("Cancelled") : tr("Failed"));
    if (exporting)
        showFailure(error.isCancellation()
                        ? tr("Exporting the bundle %1 was cancelled.").arg(m_currentOut)
                        : tr("Exporting the bundle %1 failed: %2").arg(m_currentOut, error.code));
    else
        showFailure(error.isCancellation() ? tr("%1 %2 was cancelled.").arg(jobName, m_currentModel)
                                           : tr("%1 %2 failed: %3").arg(jobName, m_currentModel, error.code));
    // A dead engine already has its banner; a cancel was asked for. Neither needs a dialog.
    const bool engineGone = error.code == QLatin1String("engine_crashed")
                            || error.code == QLatin1String("engine_restarted");
    if (!error.isCancellation() && !engineGone) {
        auto *box = new QMessageBox(QMessageBox::Warning,
                                    exporting ? tr("Export failed") : tr("%1 failed").arg(jobName),
                                    error.message.isEmpty() ? tr("The job failed.") : error.message,
                                    QMessageBox::Ok, this);
        box->setObjectName(exporting ? QStringLiteral("exportErrorBox")
                                     : QStringLiteral("compileErrorBox"));
        if (!error.hint.isEmpty())
            box->setInformativeText(error.hint);
        box->setDetailedText(tr("Stage: %1\nCode: %2")
                                 .arg(Client::StageNames::displayName(error.stage), error.code));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open(); // not exec(): the window (and tests) keep running
    }
    finishJob(false);
}

void MainWindow::onEngineFailed(const QString &reason)
{
    // A lost connection is an engine crash: results stay, and the banner offers to reconnect.
    m_restartButton->setText(m_client->isRemote() ? tr("Reconnect") : tr("Restart engine"));
    showBanner(tr("<b>The engine is not running.</b> %1").arg(reason.toHtmlEscaped()));
    statusBar()->showMessage(tr("Engine stopped: %1").arg(reason));
    m_log->append(0, QStringLiteral("error"), reason);
    m_progress->setValue(0);
    m_stageLabel->setText(tr("Idle"));
    updateEngineStatus();
    updateActions();
}

} // namespace AotStudio::Widgets
