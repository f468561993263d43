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

/// A bundle's compatibility key (core/runtime/BUNDLE.md "Compatibility key") as the export result
/// carries it: what the packages were built for, read from their files by the engine.
struct BundleCompat
{
    QString key;       ///< "torch2.14-cpu-x86_64-avx2-znver3-fp32-static-269b1f03"; empty: none (older engine)
    QString torch;     ///< "2.14.1+cu130"
    QString cuda;      ///< "13.0"; empty on a CPU-only torch
    QString device;    ///< "cpu" or "cuda"
    QString machine;   ///< "x86_64"
    QString cpuIsa;    ///< "AVX2"
    QString march;     ///< "znver3"; empty when unknown
    QList<int> sass;   ///< SM versions with machine code (90 = sm_90)
    QList<int> ptx;    ///< virtual architectures with PTX
    QString precision; ///< "fp32", "bf16", ...
    QString shapeMode; ///< "static" or "dynamic"
    QString runtime;   ///< "libtorch", "lite" or "mixed"
    QString modelSha256;
    bool isValid() const { return !key.isEmpty(); }
    static BundleCompat fromJson(const QJsonValue &value);
};

/// One check of a preflight (BUNDLE.md "Preflight"): `name` architectures, torch, kernels, memory,
/// cold_start or economics; `status` ok, fail, warn or unknown; `summary` the engine's sentence.
struct PreflightCheck
{
    QString name;
    QString status;
    QString summary;
};

/// A bundle's preflight against a GPU worker profile, as the export result carries it (the default
/// profile, ZeroGPU's half RTX Pro 6000).
struct Preflight
{
    QString profile;     ///< "rtx-pro-6000-half"
    QString description; ///< the profile's description (engine's words)
    QString verdict;     ///< "ok", "refused" or "unknown"; empty: none
    QList<PreflightCheck> checks;
    bool isValid() const { return !verdict.isEmpty(); }
    static Preflight fromJson(const QJsonValue &value);
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
    BundleCompat compat;
    Preflight preflight;
    QJsonObject raw;          ///< the whole object, for fields this struct does not know yet

    static ExportResult fromJson(const QJsonObject &result);

    /**
     * A bundle folder on this machine read as an export result (File → Open Job Folder on a
     * bundle; the same Bundle view as after an export): bundle, manifest, model, device, buckets
     * (with their package sizes), compat (the manifest's key), cold_start (report/cold_start.json,
     * measured at export), signature and problems (Bundle::inspectBundle: every file's SHA-256
     * checked, so it reads the whole bundle: call it off the UI thread), and preflight against the
     * GPU profile `profile` (Bundle::preflight; empty: the default, rtx-pro-6000-half). Returns an
     * empty object and sets `error` (naming the folder and what is wrong) when the folder holds no
     * readable manifest.json.
     */
    static QJsonObject readBundleFolder(const QString &folder, const QString &profile, QString *error);
    /// The preflight alone of the bundle folder `folder` against `profile` (Bundle::preflight):
    /// for the Bundle view's profile selector. Invalid with `error` set when it cannot be made.
    static Preflight preflightFolder(const QString &folder, const QString &profile, QString *error);
    /// The built-in GPU profiles' names (Bundle::gpuProfiles()), the default first.
    static QStringList gpuProfileNames();
};

} // namespace AotStudio::Client
