// SPDX-License-Identifier: GPL-3.0-or-later
#include "graphview/graphdiffview.h"

#include <QFileInfo>
#include <QShowEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include <limits>

namespace AotStudio::Widgets {

namespace {

QString snapshotTitle(const Graph::Snapshot &s)
{
    return QString::fromStdString(s.pass.empty() ? s.stage : s.stage + " / " + s.pass);
}

} // namespace

GraphDiffView::GraphDiffView(QWidget *parent)
    : QWidget(parent)
    , m_before(new GraphView(this))
    , m_after(new GraphView(this))
    , m_header(new QLabel(this))
    , m_previous(new QToolButton(this))
    , m_next(new QToolButton(this))
{
    m_diffJob = new JobTracker(this);
    setObjectName(QStringLiteral("graphDiffView"));
    m_before->setObjectName(QStringLiteral("graphDiffBefore"));
    m_after->setObjectName(QStringLiteral("graphDiffAfter"));
    m_header->setObjectName(QStringLiteral("graphDiffSummary"));
    m_header->setTextFormat(Qt::RichText);
    m_previous->setText(tr("◀ Previous pass"));
    m_next->setText(tr("Next pass ▶"));
    m_previous->setToolTip(tr("Show the step into the previous pass"));
    m_next->setToolTip(tr("Show the step into the next pass"));

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_previous);
    bar->addWidget(m_header, 1);
    bar->addWidget(m_next);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_before);
    split->addWidget(m_after);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(m_previous, &QToolButton::clicked, this, &GraphDiffView::showPreviousPass);
    connect(m_next, &QToolButton::clicked, this, &GraphDiffView::showNextPass);
    connect(m_before, &GraphView::viewChanged, this, [this] { follow(m_before, m_after); });
    connect(m_after, &GraphView::viewChanged, this, [this] { follow(m_after, m_before); });
    const auto select = [this](GraphView *other, const QString &name) {
        if (m_syncing)
            return;
        m_syncing = true;
        if (other->snapshot() && other->snapshot()->find(name.toStdString()))
            other->selectNode(name);
        m_syncing = false;
        Q_EMIT nodeSelected(name);
    };
    // Both sides open and close the same groups.
    connect(m_before, &GraphView::expansionChanged, this, [this] {
        if (!m_syncing)
            m_after->setExpansionStates(m_before->expansionStates());
    });
    connect(m_after, &GraphView::expansionChanged, this, [this] {
        if (!m_syncing)
            m_before->setExpansionStates(m_after->expansionStates());
    });
    connect(m_before, &GraphView::nodeSelected, this, [this, select](const QString &n) { select(m_after, n); });
    connect(m_after, &GraphView::nodeSelected, this, [this, select](const QString &n) { select(m_before, n); });
    m_previous->setEnabled(false);
    m_next->setEnabled(false);
}

GraphDiffView::~GraphDiffView()
{
    for (auto &[index, pending] : m_prefetch)
        pending.wait();
}

QHash<QString, NodeDiffState> GraphDiffView::beforeStates(const Graph::GraphDiff &diff)
{
    QHash<QString, NodeDiffState> out;
    for (const auto &r : diff.removed)
        out.insert(QString::fromStdString(r), NodeDiffState::Removed);
    for (const auto &c : diff.changed)
        out.insert(QString::fromStdString(c.before), NodeDiffState::Changed);
    return out;
}

QHash<QString, NodeDiffState> GraphDiffView::afterStates(const Graph::GraphDiff &diff)
{
    QHash<QString, NodeDiffState> out;
    for (const auto &a : diff.added)
        out.insert(QString::fromStdString(a), NodeDiffState::Added);
    for (const auto &c : diff.changed)
        out.insert(QString::fromStdString(c.after), NodeDiffState::Changed);
    return out;
}

void GraphDiffView::setDeferred(std::shared_ptr<SnapshotCache> cache)
{
    m_cache = std::move(cache);
}

void GraphDiffView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_dirty)
        scheduleStep();
}

void GraphDiffView::scheduleStep()
{
    if (!isVisible()) {
        m_dirty = true; // nobody looks: read and diff when the tab is shown
        return;
    }
    m_dirty = false;
    if (m_paths.isEmpty()) {
        m_diffJob->cancel();
        setSnapshots(nullptr, nullptr);
        return;
    }
    struct Step {
        std::shared_ptr<const Graph::Snapshot> before, after;
        Graph::GraphDiff diff;
        QString error;
    };
    const int index = m_index;
    const QString beforePath = m_paths.at(index > 0 ? index - 1 : 0);
    const QString afterPath = m_paths.at(index > 0 ? index : 0);
    m_diffJob->start(
        [cache = m_cache, beforePath, afterPath] {
            Step step;
            auto before = cache->load(beforePath);
            auto after = before.snapshot ? cache->load(afterPath) : before;
            step.error = before.snapshot ? after.error : before.error;
            if (before.snapshot && after.snapshot) {
                step.before = before.snapshot;
                step.after = after.snapshot;
                step.diff = Graph::diffSnapshots(*step.before, *step.after);
            }
            return step;
        },
        [this, index](Step step) {
            if (!step.before) {
                m_header->setText(tr("Cannot show this step: %1").arg(step.error.toHtmlEscaped()));
                return;
            }
            m_index = index;
            m_beforeSnapshot = std::move(step.before);
            m_afterSnapshot = std::move(step.after);
            m_diff = std::move(step.diff);
            showPair();
        });
}

void GraphDiffView::setSnapshotPaths(const QStringList &paths)
{
    m_paths = paths;
    m_loaded.clear();
    for (auto &[index, pending] : m_prefetch)
        pending.wait();
    m_prefetch.clear();
    m_index = -1;
    if (m_cache) {
        m_index = paths.size() > 1 ? 1 : -1;
        scheduleStep();
        return;
    }
    if (paths.size() == 1) {
        QString error;
        auto only = load(0, &error);
        setSnapshots(only, only);
        if (!only)
            m_header->setText(error.toHtmlEscaped());
        return;
    }
    setPassIndex(1);
}

namespace {

GraphDiffView::Loaded readSnapshot(const std::string &path)
{
    GraphDiffView::Loaded out;
    try {
        out.snapshot = std::make_shared<const Graph::Snapshot>(Graph::loadSnapshot(path));
    } catch (const std::exception &e) { // GraphError, or a JSON type error inside a node
        out.error = e.what();
    }
    return out;
}

} // namespace

std::shared_ptr<const Graph::Snapshot> GraphDiffView::load(int index, QString *error)
{
    auto it = m_loaded.find(index);
    if (it == m_loaded.end()) {
        Loaded loaded;
        const auto pending = m_prefetch.find(index);
        if (pending != m_prefetch.end()) {
            loaded = pending->second.get(); // usually done already
            m_prefetch.erase(pending);
        } else {
            loaded = readSnapshot(m_paths.at(index).toStdString());
        }
        if (!loaded.snapshot) {
            *error = QString::fromStdString(loaded.error);
            return nullptr;
        }
        // Keep the neighbours only: a long pass list of big graphs must not pile up in memory.
        for (auto k = m_loaded.begin(); k != m_loaded.end();)
            k = std::abs(k->first - index) > 2 ? m_loaded.erase(k) : std::next(k);
        it = m_loaded.emplace(index, loaded.snapshot).first;
    }
    return it->second;
}

void GraphDiffView::prefetch(int index)
{
    if (index < 0 || index >= m_paths.size() || m_loaded.count(index) || m_prefetch.count(index))
        return;
    // Read the next snapshot while the user looks at this one (a 50k-node file takes over a
    // second to parse); load() picks it up, waiting if it is not finished yet.
    m_prefetch.emplace(index, std::async(std::launch::async, readSnapshot, m_paths.at(index).toStdString()).share());
}

bool GraphDiffView::setPassIndex(int index)
{
    if (index < 1 || index >= m_paths.size())
        return false;
    if (m_cache) {
        m_index = index;
        scheduleStep();
        Q_EMIT passChanged(index);
        return true;
    }
    QString error;
    auto before = load(index - 1, &error);
    auto after = before ? load(index, &error) : nullptr;
    if (!before || !after) {
        m_header->setText(tr("Cannot show this step: %1").arg(error.toHtmlEscaped()));
        return false;
    }
    m_index = index;
    setSnapshots(before, after);
    prefetch(index + 1);
    Q_EMIT passChanged(index);
    return true;
}

void GraphDiffView::setSnapshots(
    std::shared_ptr<const Graph::Snapshot> before, std::shared_ptr<const Graph::Snapshot> after)
{
    m_beforeSnapshot = std::move(before);
    m_afterSnapshot = std::move(after);
    m_diff = m_beforeSnapshot && m_afterSnapshot ? Graph::diffSnapshots(*m_beforeSnapshot, *m_afterSnapshot)
                                                 : Graph::GraphDiff {};
    showPair();
}

void GraphDiffView::showPair()
{
    m_syncing = true;
    m_before->setSnapshot(m_beforeSnapshot);
    m_after->setSnapshot(m_afterSnapshot);
    m_after->setExpansionStates(m_before->expansionStates());
    m_before->setDiffStates(beforeStates(m_diff));
    m_after->setDiffStates(afterStates(m_diff));
    m_syncing = false;
    m_previous->setEnabled(m_index > 1);
    m_next->setEnabled(m_index >= 1 && m_index + 1 < m_paths.size());
    m_header->setText(summary());
}

void GraphDiffView::setPassButtonsVisible(bool visible)
{
    m_previous->setVisible(visible);
    m_next->setVisible(visible);
}

QString GraphDiffView::summary() const
{
    if (!m_beforeSnapshot || !m_afterSnapshot)
        return tr("No snapshots.");
    const QString step = m_index >= 1 ? tr("Step %1 of %2: ").arg(m_index).arg(m_paths.size() - 1) : QString();
    return step
        + tr("%1 → %2: <span style=\"color:#2e9e44\">+%3 added</span>, <span style=\"color:#d03b3b\">−%4 "
             "removed</span>, "
             "<span style=\"color:#e08e0b\">~%5 changed</span>, %6 unchanged")
              .arg(snapshotTitle(*m_beforeSnapshot).toHtmlEscaped(), snapshotTitle(*m_afterSnapshot).toHtmlEscaped())
              .arg(m_diff.added.size())
              .arg(m_diff.removed.size())
              .arg(m_diff.changed.size())
              .arg(m_diff.unchanged);
}

void GraphDiffView::follow(GraphView *from, GraphView *to)
{
    if (m_syncing || !from->snapshot() || !to->snapshot())
        return;
    m_syncing = true;
    // Anchor on the node nearest the centre that both sides have, so both show the same part of
    // the graph even where the drawings differ.
    const QPointF centre = from->canvas()->sceneCentre();
    const QRectF visible = from->canvas()->visibleSceneRect();
    int bestNode = -1;
    double best = std::numeric_limits<double>::max();
    const auto &layout = from->graphLayout();
    for (int i = 0; i < static_cast<int>(from->snapshot()->nodes.size()); ++i) {
        const QRectF r = layout.nodeRect(i);
        if (r.isEmpty() || !visible.intersects(r))
            continue;
        const QPointF d = r.center() - centre;
        const double dist = d.x() * d.x() + d.y() * d.y();
        if (dist < best && to->graphLayout().nodeIndex(QString::fromStdString(from->snapshot()->nodes[i].id)) >= 0) {
            best = dist;
            bestNode = i;
        }
    }
    QPointF target = centre;
    if (bestNode >= 0) {
        const int other = to->graphLayout().nodeIndex(QString::fromStdString(from->snapshot()->nodes[bestNode].id));
        const QRectF r = to->graphLayout().nodeRect(other);
        if (!r.isEmpty())
            target = r.center() + (centre - layout.nodeRect(bestNode).center());
    }
    to->canvas()->setView(from->canvas()->scale(), target);
    m_syncing = false;
}

void GraphDiffView::highlightNodes(const QStringList &nodes)
{
    m_before->highlightNodes(nodes);
    m_after->highlightNodes(nodes);
}

void GraphDiffView::setKernelCoverage(const QHash<QString, QStringList> &coverage)
{
    m_before->setKernelCoverage(coverage);
    m_after->setKernelCoverage(coverage);
}

void GraphDiffView::setKernelTimes(const QHash<QString, double> &ms)
{
    m_before->setKernelTimes(ms);
    m_after->setKernelTimes(ms);
}

void GraphDiffView::setColourMode(ColourMode mode)
{
    m_before->setColourMode(mode);
    m_after->setColourMode(mode);
}

} // namespace AotStudio::Widgets
