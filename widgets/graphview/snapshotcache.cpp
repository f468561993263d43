// SPDX-License-Identifier: GPL-3.0-or-later
#include "snapshotcache.h"

#include <QFileInfo>

namespace AotStudio::Widgets {

QString SnapshotCache::keyOf(const QString &path)
{
    const QFileInfo info(path);
    return QStringLiteral("%1\n%2\n%3").arg(path).arg(info.size()).arg(info.lastModified().toMSecsSinceEpoch());
}

std::shared_ptr<const Graph::Snapshot> SnapshotCache::cached(const QString &path) const
{
    const QString key = keyOf(path);
    QMutexLocker lock(&m_mutex);
    return m_cache.value(key);
}

SnapshotCache::Loaded SnapshotCache::load(const QString &path)
{
    const QString key = keyOf(path);
    std::promise<Loaded> promise;
    {
        QMutexLocker lock(&m_mutex);
        if (auto hit = m_cache.value(key)) {
            m_order.removeOne(key);
            m_order.append(key);
            return {hit, {}};
        }
        if (m_pending.contains(key)) {
            auto pending = m_pending.value(key);
            lock.unlock();
            return pending.get(); // another thread parses it
        }
        m_pending.insert(key, promise.get_future().share());
        ++m_parses;
    }
    Loaded loaded;
    try {
        loaded.snapshot = std::make_shared<const Graph::Snapshot>(Graph::loadSnapshot(path.toStdString()));
    } catch (const std::exception &e) { // GraphError, or a JSON type error inside a node
        loaded.error = QString::fromStdString(e.what());
    }
    {
        QMutexLocker lock(&m_mutex);
        m_pending.remove(key);
        if (loaded.snapshot) {
            m_cache.insert(key, loaded.snapshot);
            m_order.append(key);
            while (m_order.size() > m_capacity)
                m_cache.remove(m_order.takeFirst());
        }
    }
    promise.set_value(loaded);
    return loaded;
}

void SnapshotCache::clear()
{
    QMutexLocker lock(&m_mutex);
    m_cache.clear();
    m_order.clear();
}

int SnapshotCache::parseCount() const
{
    QMutexLocker lock(&m_mutex);
    return m_parses;
}

} // namespace AotStudio::Widgets
