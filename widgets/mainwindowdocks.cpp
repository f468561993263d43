// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's central widget and docks: which panel each dock holds, the jobs each shows (every
// view of one job headed by the selected job, JobView), the default layout, and the result panel
// following the selected or opened job. The rest of MainWindow is in mainwindow.cpp.
#include "mainwindow.h"

#include "graphpanel.h"
#include "inspectorpanel.h"
#include "jobspanel.h"
#include "jobview.h"
#include "kernelspanel.h"
#include "logview.h"
#include "memorypanel.h"
#include "pipelinepanel.h"
#include "profilepanel.h"
#include "quantizationpanel.h"
#include "resultpanel.h"
#include "selectionhub.h"
#include "sessioncontroller.h"
#include "sweeppanel.h"
#include "tunepanel.h"

#include "client/session.h"
#include "client/verifyresult.h"

#include <QDockWidget>
#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>

#include <algorithm>

namespace AotStudio::Widgets {

namespace {

/// A scroll area that scrolls only vertically: never narrower than its content's minimum width, so
/// nothing is cut at its right edge (zh_CN at 1366 px: the summary's values were cut under a
/// horizontal scroll bar), and it tells the layout when that width changes.
class VerticalScrollArea : public QScrollArea
{
public:
    explicit VerticalScrollArea(QWidget *parent) : QScrollArea(parent)
    {
        setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    }
    QSize minimumSizeHint() const override
    {
        QSize s = QScrollArea::minimumSizeHint();
        if (widget())
            s.setWidth(std::max(s.width(), widget()->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width()
                                               + 2 * frameWidth()));
        return s;
    }

protected:
    bool eventFilter(QObject *o, QEvent *e) override
    {
        if (o == widget() && e->type() == QEvent::LayoutRequest)
            updateGeometry();
        return QScrollArea::eventFilter(o, e);
    }
};

} // namespace

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
    connect(restart, &QPushButton::clicked, m_jobs, &JobController::restartEngine);
    auto *bannerLayout = new QHBoxLayout(m_banner);
    bannerLayout->addWidget(m_bannerText, 1);
    bannerLayout->addWidget(restart, 0, Qt::AlignVCenter);
    m_banner->hide();

    // The summary scrolls vertically rather than claim height; its width is what its content needs.
    auto *scroll = new VerticalScrollArea(central);
    scroll->setObjectName(QStringLiteral("summaryScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_resultPanel = new ResultPanel(scroll);
    m_resultPanel->setObjectName(QStringLiteral("resultPanel"));
    scroll->setWidget(m_resultPanel);
    // Headed by the selected job like every dock: a compile's result, an export's bundle, or why
    // a job failed; other jobs' results are in their docks.
    m_resultView = new JobView(
        m_hub, scroll,
        [](const Client::JobRecord &job) {
            return job.finished() && (job.error || job.kind == QLatin1String("compile") || job.kind == QLatin1String("export"));
        },
        QT_TRANSLATE_NOOP("AotStudio::Widgets::JobView",
                          "this view shows a compile's result, an exported bundle or why a job failed; the "
                          "job's own dock shows its results"),
        central);
    m_resultView->setPendingText(QT_TRANSLATE_NOOP("AotStudio::Widgets::JobView", "its result appears here when it ends"));
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_banner);
    layout->addWidget(m_resultView, 1);
    setCentralWidget(central);
}

namespace {

bool isKind(const Client::JobRecord &job, std::initializer_list<const char *> kinds)
{
    return std::any_of(kinds.begin(), kinds.end(), [&job](const char *k) { return job.kind == QLatin1String(k); });
}

/// A job with one graph to show: a compile, profile or numerics job. Quantize, export, tune and
/// sweep jobs hold several (schemes, buckets, trials): no one of them is the job's graph.
bool hasGraph(const Client::JobRecord &job)
{
    return isKind(job, {"compile", "profile", "numerics"});
}

} // namespace

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

QDockWidget *MainWindow::addJobDock(QWidget *panel, const QString &title, const QString &name, Qt::DockWidgetArea area,
                                    JobView::Accepts accepts, const char *shows)
{
    return addPanelDock(new JobView(m_hub, panel, std::move(accepts), shows), title, name, area);
}

void MainWindow::createDocks()
{
    // The default layout: the pipeline and the inspector on the left, the big views (graph,
    // kernels, profile, quantization) tabbed on the right, the log along the bottom. Every view
    // of one job is headed by the selected job (JobView); the Jobs and Log docks are the session's.
    m_pipelinePanel = new PipelinePanel(m_hub);
    m_graphPanel = new GraphPanel(m_hub);
    m_inspectorPanel = new InspectorPanel(m_hub);
    m_kernelsPanel = new KernelsPanel(m_hub);
    m_memoryPanel = new MemoryPanel(m_hub);
    m_profilePanel = new ProfilePanel;
    m_profilePanel->follow(m_hub);
    m_quantPanel = new QuantizationPanel;
    m_quantPanel->follow(m_hub);
    m_sweepPanel = new SweepPanel;
    m_sweepPanel->follow(m_hub);
    m_tunePanel = new TunePanel;
    m_tunePanel->follow(m_hub);
    connect(m_tunePanel, &TunePanel::recipeChosen, m_jobs, &JobController::applyRecipeOptions);
    m_log = new LogView;
    const auto kinds = [](std::initializer_list<const char *> list) {
        const QList<const char *> copy(list);
        return [copy](const Client::JobRecord &job) {
            return std::any_of(copy.cbegin(), copy.cend(), [&job](const char *k) { return job.kind == QLatin1String(k); });
        };
    };
    auto *pipeline = addJobDock(m_pipelinePanel, tr("Pipeline"), QStringLiteral("pipelineDock"), Qt::LeftDockWidgetArea);
    auto *inspector = addJobDock(m_inspectorPanel, tr("Inspector"), QStringLiteral("inspectorDock"), Qt::LeftDockWidgetArea,
                                   hasGraph,
                                   QT_TRANSLATE_NOOP("AotStudio::Widgets::JobView",
                                                     "this dock shows the nodes and kernels of a compile, profile or "
                                                     "numerics job"));
    splitDockWidget(pipeline, inspector, Qt::Vertical);
    auto *graph = addJobDock(m_graphPanel, tr("Graph"), QStringLiteral("graphDock"), Qt::RightDockWidgetArea, hasGraph,
                               QT_TRANSLATE_NOOP("AotStudio::Widgets::JobView",
                                                 "this dock shows the graph of a compile, profile or numerics job"));
    m_graphDock = graph;
    auto *kernels = addJobDock(m_kernelsPanel, tr("Kernels"), QStringLiteral("kernelsDock"), Qt::RightDockWidgetArea,
                                 kinds({"compile", "profile"}),
                                 QT_TRANSLATE_NOOP("AotStudio::Widgets::JobView",
                                                   "this dock shows the kernels a compile generated and a profile timed"));
    auto *memory = addJobDock(m_memoryPanel, tr("Memory"), QStringLiteral("memoryDock"), Qt::RightDockWidgetArea,
                                kinds({"compile"}),
                                QT_TRANSLATE_NOOP("AotStudio::Widgets::JobView", "this dock shows a compile's memory plan"));
    auto *profile = addJobDock(m_profilePanel, tr("Profile"), QStringLiteral("profileDock"), Qt::RightDockWidgetArea,
                                 kinds({"profile", "compile"}),
                                 QT_TRANSLATE_NOOP("AotStudio::Widgets::JobView",
                                                   "this dock shows a profile, or a compile's quick measurement"));
    auto *quant = addJobDock(m_quantPanel, tr("Quantization"), QStringLiteral("quantizationDock"), Qt::RightDockWidgetArea,
                               kinds({"quantize"}),
                               QT_TRANSLATE_NOOP("AotStudio::Widgets::JobView", "this dock shows a quantize job's schemes"));
    auto *sweep = addJobDock(m_sweepPanel, tr("Sweep"), QStringLiteral("sweepDock"), Qt::RightDockWidgetArea,
                               kinds({"sweep"}),
                               QT_TRANSLATE_NOOP("AotStudio::Widgets::JobView", "this dock shows a sweep's shapes"));
    m_profileDock = profile;
    m_quantDock = quant;
    m_sweepDock = sweep;
    m_tuneDock = addJobDock(m_tunePanel, tr("Tune"), QStringLiteral("tuneDock"), Qt::RightDockWidgetArea, kinds({"tune"}),
                              QT_TRANSLATE_NOOP("AotStudio::Widgets::JobView", "this dock shows a tune job's trials"));
    tabifyDockWidget(graph, kernels);
    tabifyDockWidget(kernels, memory);
    tabifyDockWidget(memory, profile);
    tabifyDockWidget(profile, quant);
    tabifyDockWidget(quant, sweep);
    tabifyDockWidget(sweep, m_tuneDock);
    graph->raise();
    addPanelDock(m_log, tr("Log"), QStringLiteral("logDock"), Qt::BottomDockWidgetArea);
    // Widths in proportion to the window (1366 px: 360 | ~250 summary | ~750 graph; 1920 px:
    // 500 | ~350 | ~1070), so a large screen gives the Pipeline's columns room too.
    const int width = this->width();
    resizeDocks({pipeline, graph}, {qMax(360, width * 26 / 100), qMax(600, width * 55 / 100)}, Qt::Horizontal);
    // The Pipeline's rows are what a compile is followed by: two thirds of the height above the Inspector.
    resizeDocks({pipeline, inspector}, {2, 1}, Qt::Vertical);
    // The session's jobs, tabbed with the Inspector: picking one shows it in every dock. Tabbed
    // after the sizes are set: resizeDocks() on a tabbed Inspector grew the window to 1927 px high.
    m_jobsPanel = new JobsPanel(m_hub);
    auto *jobs = addPanelDock(m_jobsPanel, tr("Jobs"), QStringLiteral("jobsDock"), Qt::LeftDockWidgetArea);
    tabifyDockWidget(inspector, jobs);
    inspector->raise();
    pipeline->setMinimumWidth(260);
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultLayout, LayoutVersion);
    for (auto *dock : std::as_const(m_docks))
        dock->show();
    m_graphDock->raise();
}

void MainWindow::showOpenedSession(Client::Session *loaded)
{
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
    if (const auto *failed = SessionController::latestFailedCompile(*loaded))
        m_resultPanel->showError(failed->request.value(QLatin1String("model")).toString(), *failed->error,
                                 Client::VerifyFailure::fromError(*failed->error, loaded->logs(), failed->id));
    // A bundle folder opened (or a session that exported): the Bundle view with its preflight.
    if (const auto *exported = loaded->latestSucceeded(QStringLiteral("export")))
        m_resultPanel->showBundle(Client::ExportResult::fromJson(exported->result));
    // A numerics job is read on its graph: the capture snapshot coloured by error.
    if (const auto *job = m_hub->currentJobRecord(); job && job->numerics)
        m_graphDock->raise();
    else if (m_hub->tune())
        m_tuneDock->raise();
    showSelectedJob(); // the views name the selected job: the result panel shows that one
    showSessionResults();
    updateActions();
}

void MainWindow::showSelectedJob()
{
    const Client::JobRecord *job = m_hub->currentJobRecord();
    if (!job || !job->finished() || !session())
        return;
    if (job->error) {
        m_resultPanel->setResultVisible(false);
        if (job->kind == QLatin1String("export"))
            m_resultPanel->showExportError(job->request.value(QLatin1String("out")).toString(), *job->error);
        else
            m_resultPanel->showError(job->request.value(QLatin1String("model")).toString(), *job->error,
                                     Client::VerifyFailure::fromError(*job->error, session()->logs(), job->id));
        return;
    }
    if (job->kind == QLatin1String("compile")) {
        m_resultPanel->clearError();
        m_resultPanel->showResult(Client::CompileResult::fromJson(job->result));
        showSessionResults();
    } else if (job->kind == QLatin1String("export")) {
        m_resultPanel->clearError();
        m_resultPanel->showBundle(Client::ExportResult::fromJson(job->result));
    }
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

} // namespace AotStudio::Widgets
