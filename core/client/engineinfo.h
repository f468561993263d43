// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

namespace AotStudio::Client {

/// One compute device the engine reported in its `hello` (FORMAT.md, Handshake).
struct EngineDevice
{
    QString type;           ///< "cpu" or "cuda"
    int index = -1;         ///< CUDA ordinal; -1 for the CPU
    QString name;           ///< human-readable, e.g. "NVIDIA H200"
    QString capability;     ///< CUDA compute capability "9.0"; empty for the CPU
    qint64 memoryBytes = 0; ///< device memory in bytes; 0 when unknown

    /// Short label such as "cpu" or "cuda:0 (NVIDIA H200)".
    QString label() const;
};

/// What the engine told us in its `hello` line. Immutable once received.
struct EngineInfo
{
    int protocol = 0;
    QString engineVersion;
    QString torchVersion;  ///< empty when the engine's Python frontend failed to start
    QString cudaVersion;   ///< empty when torch was built without CUDA
    QString pythonVersion;
    /// The target environment the engine runs in (`target` in hello; EngineClient::setTarget());
    /// empty for the studio's own engine.
    QString target;
    QList<EngineDevice> devices;
    bool cudaAvailable = false;

    /// Parses a `hello` object; missing fields keep their defaults.
    static EngineInfo fromJson(const QJsonObject &hello);
};

} // namespace AotStudio::Client
