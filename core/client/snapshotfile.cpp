// SPDX-License-Identifier: GPL-3.0-or-later
#include "snapshotfile.h"

#include "readlimit.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>

namespace AotStudio::Client {

std::shared_ptr<const SnapshotFile> SnapshotFile::load(const QString &path, QString *error, qint64 maxBytes)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QCoreApplication::translate("AotStudio::Client::SnapshotFile", "Cannot read %1: %2")
                         .arg(QDir::toNativeSeparators(path), file.errorString());
        return nullptr;
    }
    const QByteArray data = readAtMost(file, maxBytes); // never more, whatever size the file claims
    if (data.size() > maxBytes) {
        if (error)
            *error = QCoreApplication::translate("AotStudio::Client::SnapshotFile",
                                                 "%1 is larger than %2 MiB, the limit for a graph snapshot; it was not read.")
                         .arg(QDir::toNativeSeparators(path))
                         .arg(double(maxBytes) / double(1 << 20), 0, 'g', 4);
        return nullptr;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()
        || !doc.object().value(QLatin1String("nodes")).isArray()) {
        if (error)
            *error = QCoreApplication::translate("AotStudio::Client::SnapshotFile",
                                                 "%1 is not a graph snapshot (%2)")
                         .arg(QDir::toNativeSeparators(path),
                              parseError.error != QJsonParseError::NoError ? parseError.errorString()
                                                                           : QStringLiteral("no \"nodes\" array"));
        return nullptr;
    }
    auto snapshot = std::make_shared<SnapshotFile>();
    snapshot->m_path = path;
    snapshot->m_document = doc.object();
    snapshot->m_nodes = snapshot->m_document.value(QLatin1String("nodes")).toArray();
    snapshot->m_document.remove(QLatin1String("nodes"));
    for (int i = 0; i < snapshot->m_nodes.size(); ++i)
        snapshot->m_index.insert(snapshot->m_nodes[i].toObject().value(QLatin1String("id")).toString(), i);
    return snapshot;
}

QJsonObject SnapshotFile::node(const QString &name) const
{
    const auto it = m_index.constFind(name);
    return it == m_index.cend() ? QJsonObject() : m_nodes[*it].toObject();
}

} // namespace AotStudio::Client
