// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/artifactstore.h"
#include "client/kernelcatalog.h"
#include "client/memoryplan.h"
#include "client/session.h"
#include "client/sweepresult.h"
#include "graphview/jobtracker.h"
#include "graphview/snapshotcache.h"
#include "hubviewer.h"

#include <QObject>
#include <QPointer>
#include <QList>
#include <QSet>

#include <memory>

namespace AotStudio::Widgets {

/**
 * The one place that knows what is selected (STYLE.md "one selection hub", after RenderDoc's
 * capture viewers): the session shown, its current job, the snapshot (pass) of that job, a graph
 * node and a kernel. Panels call the select*() slots when the user picks something and listen to
 * the signals to follow picks made elsewhere, so selecting a node, kernel or pass in any panel
 * updates every panel. Selecting the value already selected emits nothing (no feedback loops).
 *
 * The hub also owns the data shared by panels for the current job: its kernel catalog
 * (kernels.json joined with the latest profile's kernel times). Every job file a panel opens is
 * found through resolve(), which asks the session's ArtifactStore: a file of a remote engine
 * that is not cached yet is fetched, and the hub reloads what it shows when it arrives.
 */
class SelectionHub : public QObject
{
    Q_OBJECT
public:
    explicit SelectionHub(QObject *parent = nullptr);

    Client::Session *session() const { return m_session; }
    /// The job whose graph, kernels and profile are shown; 0 when none.
    qint64 currentJob() const { return m_job; }
    const Client::JobRecord *currentJobRecord() const;
    /// Index into the current job's snapshots; -1 when none.
    int currentSnapshot() const { return m_snapshot; }
    const Client::SnapshotRecord *currentSnapshotRecord() const;
    QString currentNode() const { return m_node; }
    QString currentKernel() const { return m_kernel; }
    /// Kernels of the current job (nullptr before one with kernels.json, and while it is read off
    /// the UI thread: dataChanged() follows when it is there).
    std::shared_ptr<const Client::KernelCatalog> kernels() const { return m_kernels; }
    /**
     * The current snapshot, parsed once off the UI thread when it is selected (through
     * snapshots(), shared with every view). snapshotChanged() is emitted when it is there, or
     * when it is not (null: no file, not readable, still fetching; snapshotError() says why).
     */
    std::shared_ptr<const Graph::Snapshot> snapshot() const { return m_graph; }
    /// The local file the current snapshot was read from ("" when none).
    QString snapshotPath() const { return m_snapshotPath; }
    QString snapshotError() const { return m_snapshotError; }
    /// True while the selected snapshot is being read.
    bool isLoadingSnapshot() const { return m_snapshotJob->isRunning(); }
    /// Processes events until the selected snapshot is read (tests, benchmarks).
    bool waitForSnapshot(int timeoutMs = 30000) { return m_snapshotJob->waitForIdle(timeoutMs); }
    /// Processes events until the snapshot and the kernels are read (tests, benchmarks).
    bool waitForIdle(int timeoutMs = 30000)
    {
        return m_snapshotJob->waitForIdle(timeoutMs) && m_kernelsJob->waitForIdle(timeoutMs);
    }
    /// The parsed snapshots of the session, shared by the hub, the graph and the diff view.
    std::shared_ptr<SnapshotCache> snapshots() const { return m_snapshots; }
    /// The selected job's profile: a `profile` job's result or a compile's latency view
    /// (ProfileResult::Kind::Compile); null for other jobs or none (one job per view: no dock
    /// shows another job's rows under the selected job's heading). Parsed once by the session.
    std::shared_ptr<const Client::ProfileResult> profile() const;
    /// The latest successful `profile` job's result only (null when none).
    std::shared_ptr<const Client::ProfileResult> latestProfile() const;
    /// The selected job's quantize result (null for other jobs or none).
    std::shared_ptr<const Client::QuantizeResult> quantize() const;
    /// Why the selected job, when of `kind`, has no typed result (its result was refused by the
    /// reader); empty when it has one, or is of another kind, or none is selected.
    QString resultError(const QString &kind) const;
    /// The current job's numerics result (a `numerics` job; null for other jobs or none): the
    /// graph panel colours the capture snapshot's nodes by their error, the inspector shows them.
    std::shared_ptr<const Client::NumericsResult> numerics() const;
    /// The selected job's tune result (null for other jobs or none).
    std::shared_ptr<const Client::TuneResult> tune() const;
    /// The current job's fusion decisions (its result's `fusion.path`, fusion.json, FORMAT.md
    /// "Fusion decisions"), read through resolve() once per file and shared by the Inspector and
    /// the Graph view's fusion colouring. Null when the job has none or the file is not here yet
    /// (being fetched: dataChanged() follows); a file that does not parse gives an object with
    /// `available` false and `reason` naming the file and the field.
    std::shared_ptr<const Client::FusionDecisions> fusionDecisions() const;
    /// The selected job's sweep result (null for other jobs or none).
    std::shared_ptr<const Client::SweepResult> sweep() const;
    /// Registers `viewer`, called from now on for every change (see HubViewer) until `owner`
    /// (the viewer's QObject) is destroyed. It is not called for the current state: a viewer
    /// reads that itself.
    void addViewer(HubViewer *viewer, QObject *owner);
    /// The engine path `path` as a readable local file (ArtifactStore::localPath(): the file
    /// itself, a moved session folder's copy or the remote cache). When it is not here yet it is
    /// fetched (fetched files reload the hub's data: snapshotChanged(), dataChanged()) and the
    /// path it will have is returned, so a reader's message names it.
    QString resolve(const QString &path) const;
    /// The store every job file is read through (never null).
    Client::ArtifactStore *store() const { return m_store; }
    /// Use `store` (kept by the caller) instead of the hub's own.
    void setStore(Client::ArtifactStore *store);

public Q_SLOTS:
    /// Shows `session` (nullptr: none); selects its latest job with snapshots or kernels.
    void setSession(AotStudio::Client::Session *session);
    void selectJob(qint64 id);
    void selectSnapshot(int index);
    void selectNode(const QString &name);
    void selectKernel(const QString &nameOrId);
    /// Re-reads kernels and results after the session gained data (a job finished).
    void refresh();
    /// Calls every viewer with the selection as it is (session, job, snapshot, node, kernel,
    /// results) without changing it: panels made anew (a language switch) show it.
    void replay();
    /// Job `id` of the session changed while it runs: a newer compile (or a job that took its
    /// first graph snapshot) takes the views at once, so no view shows the previous job's rows
    /// as current; an update of the shown job goes to the viewers' onJobUpdated().
    void followLive(qint64 id);

Q_SIGNALS:
    void sessionChanged(AotStudio::Client::Session *session);
    void jobChanged(qint64 id);
    /// The shown job gained events while it runs (HubViewer::onJobUpdated).
    void jobUpdated(qint64 id);
    void snapshotChanged(int index);
    void nodeChanged(const QString &name);
    void kernelChanged(const QString &nameOrId);
    /// Kernel catalog, profile or quantize results changed (reload tables and charts).
    void dataChanged();

private:
    /// The selected job when it is of one of `kinds`, else nullptr.
    const Client::JobRecord *currentJobOf(std::initializer_list<const char *> kinds) const;
    void loadKernels(bool keepShown = false);
    void onFetched(const QString &enginePath);
    template <class F>
    void notify(F &&call) const;

    struct Viewer {
        HubViewer *viewer;
        QObject *owner;
    };
    QList<Viewer> m_viewers;

    QPointer<Client::Session> m_session;
    qint64 m_job = 0;
    qint64 m_live = 0; ///< the running job followLive() selected; kept when it ends, whatever it holds
    int m_snapshot = -1;
    QString m_node;
    QString m_kernel;
    std::shared_ptr<Client::KernelCatalog> m_kernels;
    mutable QString m_fusionPath; ///< the local fusion.json m_fusion was read from
    mutable std::shared_ptr<const Client::FusionDecisions> m_fusion;
    void loadSnapshot(const QString &local);

    std::shared_ptr<SnapshotCache> m_snapshots = std::make_shared<SnapshotCache>();
    JobTracker *m_snapshotJob = nullptr;
    JobTracker *m_kernelsJob = nullptr;
    std::shared_ptr<const Graph::Snapshot> m_graph;
    QString m_snapshotPath;
    QString m_snapshotError;
    Client::ArtifactStore *m_store = nullptr;
    mutable QSet<QString> m_waiting; ///< cache paths of files resolve() asked the store to fetch
    bool m_reloadPending = false;    ///< a reload after fetched files is queued
};

} // namespace AotStudio::Widgets
