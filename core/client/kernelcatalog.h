// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "profileresult.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QtNumeric>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>

namespace AotStudio::Client {

/**
 * One generated kernel or library call of a compiled package, from the pipeline's kernels.json
 * (schema "aotstudio.kernels", core/graph/SCHEMA.md), joined with measured times when a profile
 * supplies them.
 */
struct KernelInfo
{
    QString id;                 ///< unique within the package: "name:debug_handle"
    QString name;               ///< kernel name as Inductor emitted it (the RecordFunction range name)
    QString kind;               ///< cpp, triton, library
    QString source;             ///< generated source (C++ or Triton); empty for library calls
    QString libraryOp;          ///< for kind library: the ATen op called (e.g. addmm_out)
    QStringList postGradNodes;  ///< nodes of the post-grad graph it covers (Inductor provenance)
    QStringList preGradNodes;   ///< nodes of the pre-grad graph they came from
    // Measured (from a profile; NaN/0 when not measured):
    int calls = 0;
    double totalMs = qQNaN();   ///< summed time over all calls, ms
    double meanMs = qQNaN();    ///< totalMs / calls, ms
    double share = qQNaN();     ///< totalMs over the sum of all kernels' totalMs, 0..1
};

/// The kernels of one package, immutable once built; shared between panels with
/// std::shared_ptr<const KernelCatalog>.
class KernelCatalog
{
public:
    /**
     * Reads kernels.json at `path`. Returns nullptr and sets `error` (file and reason) when the
     * file is missing, not JSON or not an "aotstudio.kernels" document.
     */
    static std::shared_ptr<KernelCatalog> load(const QString &path, QString *error = nullptr);
    /// Builds from a parsed kernels.json object (tests, sessions).
    static std::shared_ptr<KernelCatalog> fromJson(const QJsonObject &document);

    /**
     * Adds measured times from a profile's kernel list (core/profiler/PROFILE.md: objects with
     * name, calls, total_ms, mean_ms, share); kernels are matched by name, and Inductor's
     * "graph_N_" RecordFunction prefix is ignored. Kernels sharing one name (a library call made
     * from several places) split that name's calls and time evenly. Shares are recomputed over
     * the kernels of this catalog when the profile gives none.
     */
    void setMeasurements(const QList<ProfileKernel> &kernels);
    /// The same from the JSON rows (tests, older callers).
    void setMeasurements(const QJsonArray &kernels);

    const QList<KernelInfo> &kernels() const { return m_kernels; }
    const KernelInfo *find(const QString &nameOrId) const;
    /// Kernels covering post-grad node `node` (reverse provenance).
    QList<const KernelInfo *> kernelsForNode(const QString &node) const;
    /// Pre-grad node -> the post-grad nodes it became (kernels.json "pre_to_post").
    const QHash<QString, QStringList> &preToPost() const { return m_preToPost; }
    QString device() const { return m_device; }
    bool hasMeasurements() const { return m_measured; }

private:
    QList<KernelInfo> m_kernels;
    QHash<QString, QStringList> m_preToPost;
    QString m_device;
    bool m_measured = false;
};

} // namespace AotStudio::Client
