// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QIODevice>

namespace AotStudio::Client {

/// Reads `device` to its end, but never more than `maxBytes` + 1 bytes (so a caller sees that the
/// limit was passed: result.size() > maxBytes), whatever size the file claims, in 1 MiB slices.
/// Why not device.read(maxBytes + 1): QIODevice::read(n) first allocates n bytes, i.e. the whole
/// limit (256 MiB for a snapshot, 512 MiB for a session) for a file of a few KB (issue 19's limits;
/// found by fuzz_session, where ASan touched all of it: 3 loads a second).
inline QByteArray readAtMost(QIODevice &device, qint64 maxBytes)
{
    QByteArray data;
    while (data.size() <= maxBytes) {
        const QByteArray slice = device.read(qMin<qint64>(qint64(1) << 20, maxBytes + 1 - data.size()));
        if (slice.isEmpty())
            break;
        data += slice;
    }
    return data;
}

} // namespace AotStudio::Client
