// SPDX-License-Identifier: GPL-3.0-or-later
#include "selectionhub.h"

#include <QFile>
#include <QFileInfo>
#include <QTimer>
#include <QJsonArray>

#include <algorithm>

namespace AotStudio::Widgets {

SelectionHub::SelectionHub(QObject *parent)
    : QObject(parent)
{
    setStore(new Client::ArtifactStore(this));
    m_snapshotJob = new JobTracker(this);
    m_kernelsJob = new JobTracker(this);
    // Viewers hear what the signals say, in the order they registered.
    connect(this, &SelectionHub::sessionChanged, this, [this](Client::Session *s) { notify([s](HubViewer *v) { v->onSessionChanged(s); }); });
    connect(this, &SelectionHub::jobChanged, this, [this](qint64 id) { notify([id](HubViewer *v) { v->onJobChanged(id); }); });
    connect(this, &SelectionHub::jobUpdated, this, [this](qint64 id) { notify([id](HubViewer *v) { v->onJobUpdated(id); }); });
    connect(this, &SelectionHub::snapshotChanged, this, [this](int i) { notify([i](HubViewer *v) { v->onSnapshotChanged(i); }); });
    connect(this, &SelectionHub::nodeChanged, this, [this](const QString &n) { notify([&n](HubViewer *v) { v->onNodeChanged(n); }); });
    connect(this, &SelectionHub::kernelChanged, this, [this](const QString &k) { notify([&k](HubViewer *v) { v->onKernelChanged(k); }); });
    connect(this, &SelectionHub::dataChanged, this, [this] { notify([](HubViewer *v) { v->onResultsChanged(); }); });
}

void SelectionHub::addViewer(HubViewer *viewer, QObject *owner)
{
    m_viewers.append({viewer, owner});
    connect(owner, &QObject::destroyed, this, [this, owner] {
        m_viewers.removeIf([owner](const Viewer &v) { return v.owner == owner; });
    });
}

template <class F>
void SelectionHub::notify(F &&call) const
{
    // A copy: a viewer may add another (or be destroyed) while it is called.
    const QList<Viewer> viewers = m_viewers;
    for (const Viewer &v : viewers) {
        if (std::any_of(m_viewers.cbegin(), m_viewers.cend(), [&v](const Viewer &w) { return w.viewer == v.viewer; }))
            call(v.viewer);
    }
}

void SelectionHub::setStore(Client::ArtifactStore *store)
{
    if (m_store)
        disconnect(m_store, nullptr, this, nullptr);
    m_store = store;
    m_store->setSession(m_session);
    connect(m_store, &Client::ArtifactStore::fetched, this, &SelectionHub::onFetched);
    connect(m_store, &Client::ArtifactStore::fetchFailed, this, [this](const QString &path, const QString &message) {
        if (m_waiting.remove(m_store->cachePath(path)) && !m_graph && currentSnapshotRecord() &&
            m_store->cachePath(currentSnapshotRecord()->path) == m_store->cachePath(path)) {
            m_snapshotError = message;
            Q_EMIT snapshotChanged(m_snapshot);
        }
    });
}

void SelectionHub::onFetched(const QString &enginePath)
{
    if (!m_waiting.remove(m_store->cachePath(enginePath)))
        return; // a prefetch nobody looks at yet
    if (const auto *s = currentSnapshotRecord();
        s && s->graph && !m_graph && m_store->cachePath(s->path) == m_store->cachePath(enginePath)) {
        m_snapshotError.clear();
        loadSnapshot(resolve(s->path));
    }
    // Many files arrive together (a job's snapshots for the diff view): one reload for all.
    if (m_reloadPending)
        return;
    m_reloadPending = true;
    QTimer::singleShot(0, this, [this] {
        m_reloadPending = false;
        if (!m_kernels && !m_kernelsJob->isRunning())
            loadKernels();
        Q_EMIT dataChanged(); // the profile's trace (kernels say so themselves when read)
    });
}

const Client::JobRecord *SelectionHub::currentJobRecord() const
{
    return m_session ? m_session->job(m_job) : nullptr;
}

const Client::SnapshotRecord *SelectionHub::currentSnapshotRecord() const
{
    const auto *job = currentJobRecord();
    if (!job || m_snapshot < 0 || m_snapshot >= job->snapshots.size())
        return nullptr;
    return &job->snapshots[m_snapshot];
}

std::shared_ptr<const Client::FusionDecisions> SelectionHub::fusionDecisions() const
{
    const Client::JobRecord *job = currentJobRecord();
    const QString path = job ? job->result.value(QLatin1String("fusion")).toObject().value(QLatin1String("path")).toString()
                             : QString();
    if (path.isEmpty())
        return nullptr;
    const QString local = resolve(path);
    if (local != m_fusionPath) {
        QFile file(local);
        if (!file.open(QIODevice::ReadOnly))
            return nullptr; // being fetched: dataChanged() follows when it is here
        auto parsed = Client::FusionDecisions::parse(file.readAll());
        if (parsed.value) {
            m_fusion = parsed.value;
        } else {
            auto refused = std::make_shared<Client::FusionDecisions>();
            refused->reason = local + QStringLiteral(": ") + parsed.error;
            m_fusion = refused;
        }
        m_fusionPath = local;
    }
    return m_fusion;
}

QString SelectionHub::resolve(const QString &path) const
{
    if (path.isEmpty())
        return path;
    const QString local = m_store->localPath(path);
    if (!local.isEmpty())
        return local;
    const QString cached = m_store->cachePath(path);
    if (cached.isEmpty() || m_store->readsDirectly(path)) // the path as the engine wrote it
        return m_session ? m_session->resolvePath(path) : path;
    if (!m_waiting.contains(cached)) {
        m_waiting.insert(cached);
        m_store->fetch(path);
    }
    return cached;
}

std::shared_ptr<const Client::ProfileResult> SelectionHub::latestProfile() const
{
    const auto *job = m_session ? m_session->latestSucceeded(QStringLiteral("profile")) : nullptr;
    return job ? job->profile : nullptr;
}

const Client::JobRecord *SelectionHub::currentJobOf(std::initializer_list<const char *> kinds) const
{
    const Client::JobRecord *job = currentJobRecord();
    if (!job)
        return nullptr;
    for (const char *kind : kinds) {
        if (job->kind == QLatin1String(kind))
            return job;
    }
    return nullptr;
}

std::shared_ptr<const Client::ProfileResult> SelectionHub::profile() const
{
    // A profile job's result, or a compile's latency view (ProfileResult::Kind::Compile).
    const auto *job = currentJobOf({"profile", "compile"});
    return job ? job->profile : nullptr;
}

std::shared_ptr<const Client::QuantizeResult> SelectionHub::quantize() const
{
    const auto *job = currentJobOf({"quantize"});
    return job ? job->quantize : nullptr;
}

QString SelectionHub::resultError(const QString &kind) const
{
    const auto *job = currentJobRecord();
    return job && job->kind == kind ? job->resultError : QString();
}

std::shared_ptr<const Client::NumericsResult> SelectionHub::numerics() const
{
    const Client::JobRecord *job = currentJobRecord();
    return job ? job->numerics : nullptr;
}

std::shared_ptr<const Client::TuneResult> SelectionHub::tune() const
{
    const auto *job = currentJobOf({"tune"});
    return job ? job->tune : nullptr;
}

std::shared_ptr<const Client::SweepResult> SelectionHub::sweep() const
{
    const auto *job = currentJobOf({"sweep"});
    return job ? job->sweep : nullptr;
}

void SelectionHub::setSession(Client::Session *session)
{
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    m_session = session;
    m_store->setSession(session);
    m_waiting.clear();
    m_job = 0;
    m_snapshot = -1;
    m_node.clear();
    m_kernel.clear();
    m_kernels.reset();
    m_kernelsJob->cancel();
    m_snapshotJob->cancel();
    m_graph.reset();
    m_snapshotPath.clear();
    m_snapshots->clear();
    m_live = 0;
    if (session) {
        connect(session, &Client::Session::jobFinished, this, &SelectionHub::refresh);
        connect(session, &Client::Session::jobChanged, this, &SelectionHub::followLive);
    }
    Q_EMIT sessionChanged(session);
    refresh();
}

void SelectionHub::refresh()
{
    if (!m_session)
        return;
    // Follow the newest job that has something to show, unless the user picked one that still
    // exists and has data.
    const auto *current = currentJobRecord();
    const auto *latest = m_session->latestWithSnapshots();
    // A session without graphs (a tune or numerics job folder, a bundle): its latest job, so the
    // views are headed by it and its own dock shows it.
    if (!latest && !current && !m_session->jobs().isEmpty())
        latest = &m_session->jobs().constLast();
    // A job followed live stays shown when it ends, even without snapshots (a compile that failed
    // at load): its views say how far it got and why it stopped.
    const bool followed = current && current->id == m_live;
    // A finished job (a quantize, sweep or tune the window selected for its result, an export that
    // failed) stays shown too, though it has no snapshots: its docks show it or say why it failed.
    const bool empty = current && current->snapshots.isEmpty() && !current->finished();
    if (latest && !followed && (!current || empty || latest->id > current->id)) {
        const bool changed = latest->id != m_job;
        selectJob(latest->id);
        if (changed)
            return; // selectJob() said dataChanged() already
    } else {
        loadKernels(true); // the same job gained data (its profile's kernel times)
    }
    Q_EMIT dataChanged();
}

void SelectionHub::replay()
{
    notify([this](HubViewer *v) {
        v->onSessionChanged(m_session);
        v->onJobChanged(m_job);
        v->onSnapshotChanged(m_snapshot);
        if (!m_node.isEmpty())
            v->onNodeChanged(m_node);
        if (!m_kernel.isEmpty())
            v->onKernelChanged(m_kernel);
        v->onResultsChanged();
    });
}

void SelectionHub::followLive(qint64 id)
{
    const auto *job = m_session && id > 0 ? m_session->job(id) : nullptr;
    if (!job || job->finished())
        return; // refresh() takes over at the end
    if (id == m_job) {
        Q_EMIT jobUpdated(id);
        return;
    }
    // Jobs with one pipeline to show: a compile from its first event, a profile or numerics job
    // once it took a graph snapshot. Quantize, export, tune and sweep jobs hold several graphs
    // (schemes, buckets, trials): they never take the views.
    const bool pipeline = job->kind == QLatin1String("compile")
                          || (!job->snapshots.isEmpty()
                              && (job->kind == QLatin1String("profile") || job->kind == QLatin1String("numerics")));
    if (!pipeline || id < m_job)
        return;
    m_live = id;
    selectJob(id);
}

void SelectionHub::selectJob(qint64 id)
{
    if (id == m_job && (m_kernels || m_kernelsJob->isRunning()))
        return;
    const bool changed = id != m_job;
    m_job = id;
    loadKernels(!changed);
    if (changed) {
        m_snapshot = -1;
        Q_EMIT jobChanged(id);
        const auto *job = currentJobRecord();
        // Start on the last graph snapshot (post-grad: what the kernels were generated from); a
        // numerics job on its capture graph, whose nodes its errors name.
        int last = -1;
        if (job) {
            for (int i = 0; i < job->snapshots.size(); ++i) {
                const auto &s = job->snapshots[i];
                if (s.graph && !s.path.isEmpty() && (!job->numerics || s.stage == QLatin1String("capture")))
                    last = i;
            }
        }
        selectSnapshot(last);
        Q_EMIT dataChanged();
    }
}

void SelectionHub::loadKernels(bool keepShown)
{
    m_kernelsJob->cancel();
    if (!keepShown)
        m_kernels.reset();
    const auto *job = currentJobRecord();
    if (!job)
        return;
    // compile results: {"kernels": {"path": ...}}; profile results: "kernels_json" (PROFILE.md).
    QString path = job->profile ? job->profile->kernelsJson : QString();
    if (path.isEmpty()) // a compile without timings has no latency view
        path = job->result.value(QLatin1String("kernels")).toObject().value(QLatin1String("path")).toString();
    if (path.isEmpty()) {
        for (const auto &stage : job->stages) {
            if (stage.artifacts.contains(QLatin1String("kernels")))
                path = stage.artifacts.value(QLatin1String("kernels")).toString();
        }
    }
    if (path.isEmpty() && !job->outputDirectory().isEmpty())
        path = job->outputDirectory() + QStringLiteral("/kernels.json");
    path = path.isEmpty() ? path : resolve(path);
    if (path.isEmpty() || !QFileInfo::exists(path))
        return; // not there, or still on its way from a remote engine (onFetched() comes back)
    // Measured kernel times of the compiled variant: the job's own profile, else the session's
    // latest profile (PROFILE.md: "kernels", one entry per variant and name).
    const auto profile = job->profile && job->profile->isProfile() ? job->profile : latestProfile();
    QList<Client::ProfileKernel> measured;
    if (profile) {
        for (const Client::ProfileKernel &k : profile->kernels) {
            if (!k.source.startsWith(QLatin1String("ops:")) && (k.variant.isEmpty() || k.variant == QLatin1String("aoti")))
                measured << k;
        }
    }
    // kernels.json (the generated sources of every kernel: megabytes for a large model) is read
    // on a worker thread; dataChanged() says when it is there.
    m_kernelsJob->start(
        [path, measured] {
            auto catalog = Client::KernelCatalog::load(path);
            if (catalog && !measured.isEmpty())
                catalog->setMeasurements(measured);
            return catalog;
        },
        [this](std::shared_ptr<Client::KernelCatalog> catalog) {
            m_kernels = std::move(catalog);
            Q_EMIT dataChanged();
        });
}

void SelectionHub::selectSnapshot(int index)
{
    if (index == m_snapshot)
        return;
    m_snapshot = index;
    m_snapshotJob->cancel(); // a snapshot still being read for an earlier pick is dropped
    m_graph.reset();
    m_snapshotPath.clear();
    m_snapshotError.clear();
    if (const auto *s = currentSnapshotRecord(); s && s->graph) {
        if (s->path.isEmpty()) {
            m_snapshotError = tr("No snapshot file for %1 (snapshots were off).").arg(s->label());
        } else if (const QString local = resolve(s->path); m_store->isFetching(s->path)) {
            m_snapshotError = tr("Fetching %1 from the engine…").arg(s->path);
        } else {
            loadSnapshot(local);
            return;
        }
    }
    Q_EMIT snapshotChanged(index);
}

void SelectionHub::loadSnapshot(const QString &local)
{
    const int index = m_snapshot;
    const auto done = [this, index, local](SnapshotCache::Loaded loaded) {
        if (index != m_snapshot)
            return;
        m_graph = std::move(loaded.snapshot);
        m_snapshotPath = m_graph ? local : QString();
        // core/graph's message names the file and what is wrong (not translated: it is the
        // engine side's too); the sentence around it is.
        m_snapshotError = loaded.error.isEmpty() ? QString() : tr("The snapshot cannot be read: %1").arg(loaded.error);
        Q_EMIT snapshotChanged(index);
    };
    if (auto cached = m_snapshots->cached(local)) { // stepping back to a pass seen a moment ago
        m_snapshotJob->cancel();
        done({std::move(cached), {}});
        return;
    }
    m_snapshotJob->start([cache = m_snapshots, local] { return cache->load(local); }, done);
}

void SelectionHub::selectNode(const QString &name)
{
    if (name == m_node)
        return;
    m_node = name;
    Q_EMIT nodeChanged(name);
}

void SelectionHub::selectKernel(const QString &nameOrId)
{
    if (nameOrId == m_kernel)
        return;
    m_kernel = nameOrId;
    Q_EMIT kernelChanged(nameOrId);
}

} // namespace AotStudio::Widgets
