// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <memory>

namespace AotStudio::Client {

/**
 * A graph snapshot file (core/graph/SCHEMA.md) read for display: the nodes as JSON objects in
 * graph order and an index by node name. Immutable once loaded; shared between panels. (The
 * engine side's core/graph does the structural work; this is the GUI's light reader.)
 */
class SnapshotFile
{
public:
    /// Reads `path`; nullptr with `error` set (file and reason) when missing, not a snapshot, or
    /// larger than `maxBytes` (counted on the bytes read; the message names the limit).
    static std::shared_ptr<const SnapshotFile> load(const QString &path, QString *error = nullptr,
                                                    qint64 maxBytes = MaxFileBytes);
    /// Largest snapshot file read (bytes): 256 MiB, as the engine side's Graph::kMaxSnapshotBytes.
    static constexpr qint64 MaxFileBytes = qint64(256) << 20;

    QString path() const { return m_path; }
    QString stage() const { return m_document.value(QLatin1String("stage")).toString(); }
    QString pass() const { return m_document.value(QLatin1String("pass")).toString(); }
    const QJsonArray &nodes() const { return m_nodes; }
    /// The node named `name` (its "id"); an empty object when absent.
    QJsonObject node(const QString &name) const;
    bool contains(const QString &name) const { return m_index.contains(name); }

private:
    QString m_path;
    QJsonObject m_document;
    QJsonArray m_nodes;
    QHash<QString, int> m_index;
};

} // namespace AotStudio::Client
