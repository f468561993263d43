// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "graph/graph.h"

#include <QHash>
#include <QList>
#include <QMutex>
#include <QString>

#include <future>
#include <memory>

namespace AotStudio::Widgets {

/**
 * Graph snapshots parsed once (core/graph, off the UI thread) and shared by every view of a
 * session: the selection hub's current snapshot, the node table, the inspector, the graph and
 * the diff view all hold the same `shared_ptr<const Graph::Snapshot>`. Keyed by path, size and
 * modification time (a job run again into the same folder rewrites its snapshots); keeps the
 * `capacity` files used last. Thread-safe: load() may run on worker threads, and two loads of
 * one file wait for one parse.
 */
class SnapshotCache
{
public:
    struct Loaded {
        std::shared_ptr<const Graph::Snapshot> snapshot;
        QString error; ///< names the file and what is wrong; empty when loaded
    };

    explicit SnapshotCache(int capacity = 24)
        : m_capacity(capacity)
    { }

    /// The snapshot at `path`, parsed now unless cached. Blocks: call it off the UI thread.
    Loaded load(const QString &path);
    /// The snapshot at `path` when it is cached and the file unchanged; null otherwise. Cheap.
    std::shared_ptr<const Graph::Snapshot> cached(const QString &path) const;
    void clear();
    /// Files parsed so far (for tests: a snapshot is parsed once).
    int parseCount() const;

private:
    static QString keyOf(const QString &path);

    mutable QMutex m_mutex;
    QHash<QString, std::shared_ptr<const Graph::Snapshot>> m_cache;
    QList<QString> m_order; ///< least recently used first
    QHash<QString, std::shared_future<Loaded>> m_pending;
    int m_capacity;
    int m_parses = 0;
};

} // namespace AotStudio::Widgets
