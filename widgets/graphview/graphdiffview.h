// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "graph/graphdiff.h"
#include "graphview/graphview.h"
#include "graphview/snapshotcache.h"

#include <QHash>
#include <QStringList>
#include <QWidget>

#include <future>
#include <map>
#include <memory>
#include <string>

class QLabel;
class QToolButton;

namespace AotStudio::Widgets {

/**
 * Two snapshots side by side, "before" left and "after" right, with the diff from core's
 * diffSnapshots highlighted (removed and changed nodes on the left, added and changed on the
 * right), synchronized navigation (pan, zoom and selection follow each other, matched by node
 * name) and previous/next pass buttons over a list of snapshot files.
 *
 * @code
 *   diffView->setSnapshotPaths(snapshotFilesInOrder); // e.g. OUT/snapshots/*.json sorted
 *   diffView->setPassIndex(3);                         // shows 2 -> 3
 *   diffView->highlightNodes(coveredNodesOfSelectedKernel);  // both sides
 * @endcode
 */
class GraphDiffView : public QWidget
{
    Q_OBJECT
public:
    /// A snapshot file read (or why not), off the UI thread when prefetched.
    struct Loaded {
        std::shared_ptr<const Graph::Snapshot> snapshot;
        std::string error;
    };

    explicit GraphDiffView(QWidget *parent = nullptr);
    ~GraphDiffView() override;

    /// Snapshot files in pipeline order; shows the first step (0 -> 1), or the single file.
    void setSnapshotPaths(const QStringList &paths);
    QStringList snapshotPaths() const { return m_paths; }
    /// Shows step `index` - 1 -> `index` of the path list (1 <= index < count). False when out
    /// of range or when a file cannot be read (the header then says why).
    bool setPassIndex(int index);
    int passIndex() const { return m_index; }
    bool showNextPass() { return setPassIndex(m_index + 1); }
    bool showPreviousPass() { return setPassIndex(m_index - 1); }

    /**
     * The graph panel's mode: snapshots are read through `cache` (parsed once, shared with the
     * selection hub), and setSnapshotPaths()/setPassIndex() only note the step while the view is
     * hidden; when it is (or becomes) visible the two snapshots are read and diffed on a worker
     * thread and drawn when that is done (a later step drops a diff still in flight).
     */
    void setDeferred(std::shared_ptr<SnapshotCache> cache);
    /// The background reads and diffs (for tests).
    JobTracker *diffJob() const { return m_diffJob; }

    /// Shows one pair directly (no pass list).
    void setSnapshots(std::shared_ptr<const Graph::Snapshot> before, std::shared_ptr<const Graph::Snapshot> after);

    /// The diff on screen, from Graph::diffSnapshots.
    const Graph::GraphDiff &diff() const { return m_diff; }
    /// The states each side draws: removed/changed for "before", added/changed for "after".
    static QHash<QString, NodeDiffState> beforeStates(const Graph::GraphDiff &diff);
    static QHash<QString, NodeDiffState> afterStates(const Graph::GraphDiff &diff);

    /// Forwarded to both sides.
    void highlightNodes(const QStringList &nodes);
    void setKernelCoverage(const QHash<QString, QStringList> &coverage);
    void setKernelTimes(const QHash<QString, double> &ms);
    void setColourMode(ColourMode mode);

    GraphView *beforeView() const { return m_before; }
    GraphView *afterView() const { return m_after; }
    /// The header text ("pass a -> pass b: +3 -1 ~2").
    QString summary() const;
    /// Shows or hides the previous/next pass buttons (hidden for a single pair, e.g. two jobs).
    void setPassButtonsVisible(bool visible);

Q_SIGNALS:
    void passChanged(int index);
    /// A node was selected on either side (its name; the other side follows when it has it).
    void nodeSelected(const QString &nodeName);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void scheduleStep();
    std::shared_ptr<const Graph::Snapshot> load(int index, QString *error);
    void prefetch(int index);
    void showPair();
    void follow(GraphView *from, GraphView *to);

    GraphView *m_before;
    GraphView *m_after;
    QLabel *m_header;
    QToolButton *m_previous;
    QToolButton *m_next;
    QStringList m_paths;
    int m_index = -1;
    std::map<int, std::shared_ptr<const Graph::Snapshot>> m_loaded;
    std::map<int, std::shared_future<Loaded>> m_prefetch;
    std::shared_ptr<const Graph::Snapshot> m_beforeSnapshot;
    std::shared_ptr<const Graph::Snapshot> m_afterSnapshot;
    Graph::GraphDiff m_diff;
    bool m_syncing = false;
    std::shared_ptr<SnapshotCache> m_cache; ///< set: deferred mode
    JobTracker *m_diffJob;
    bool m_dirty = false; ///< a step was asked for while hidden
};

} // namespace AotStudio::Widgets
