// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "measurement.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QtNumeric>

namespace AotStudio::Client {

/// One package of a bundle: an exact batch size, or a dynamic batch range (BUNDLE.md, buckets).
struct ExportBucket
{
    QString name;       ///< "batch4", "dynamic", …
    int batch = 0;      ///< exact bucket; 0 for the dynamic one
    int batchMin = 0;   ///< dynamic bucket only
    int batchMax = 0;   ///< dynamic bucket only
    QString package;    ///< path inside the bundle, e.g. "packages/batch4.pt2"

    bool isDynamic() const { return batch == 0 && batchMax > 0; }
};

/// The typed view of an `export` result object (FORMAT.md, Requests, `export`).
struct ExportResult
{
    QString bundle;           ///< the bundle folder on the engine's machine
    QString zip;              ///< its zip; empty when none was written
    QString manifest;         ///< path of manifest.json
    QString model;
    QString device;
    QList<ExportBucket> buckets;
    ColdStart coldStart;
    QJsonObject raw;          ///< the whole object, for fields this struct does not know yet

    static ExportResult fromJson(const QJsonObject &result);
};

} // namespace AotStudio::Client
