// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernelcatalog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace AotStudio::Client {

namespace {
QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const auto &e : v.toArray())
        out.append(e.toString());
    return out;
}

/// Inductor names a kernel's RecordFunction range "graph_<N>_<kernel>" (cpp.enable_kernel_profile).
QString bareName(const QString &name)
{
    static const QRegularExpression prefix(QStringLiteral("^graph_\\d+_"));
    QString s = name;
    return s.remove(prefix);
}
} // namespace

std::shared_ptr<KernelCatalog> KernelCatalog::load(const QString &path, QString *error)
{
    const auto fail = [&](const QString &why) -> std::shared_ptr<KernelCatalog> {
        if (error)
            *error = why;
        return nullptr;
    };
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(QCoreApplication::translate("AotStudio::Client::KernelCatalog", "Cannot read %1: %2")
                        .arg(QDir::toNativeSeparators(path), file.errorString()));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()
        || doc.object().value(QLatin1String("schema")).toString() != QLatin1String("aotstudio.kernels"))
        return fail(QCoreApplication::translate("AotStudio::Client::KernelCatalog",
                                                "%1 is not a kernels.json written by the AOT Studio pipeline")
                        .arg(QDir::toNativeSeparators(path)));
    return fromJson(doc.object());
}

std::shared_ptr<KernelCatalog> KernelCatalog::fromJson(const QJsonObject &document)
{
    auto catalog = std::make_shared<KernelCatalog>();
    catalog->m_device = document.value(QLatin1String("device")).toString();
    const QJsonObject preToPost = document.value(QLatin1String("pre_to_post")).toObject();
    for (auto it = preToPost.begin(); it != preToPost.end(); ++it)
        catalog->m_preToPost.insert(it.key(), strings(it.value()));
    for (const auto &v : document.value(QLatin1String("kernels")).toArray()) {
        const QJsonObject k = v.toObject();
        KernelInfo info;
        info.name = k.value(QLatin1String("name")).toString();
        info.id = k.value(QLatin1String("id")).toString(info.name);
        info.kind = k.value(QLatin1String("kind")).toString();
        info.source = k.value(QLatin1String("source")).toString();
        info.libraryOp = k.value(QLatin1String("library_op")).toString();
        info.postGradNodes = strings(k.value(QLatin1String("post_grad_nodes")));
        info.preGradNodes = strings(k.value(QLatin1String("pre_grad_nodes")));
        catalog->m_kernels.append(info);
    }
    return catalog;
}

void KernelCatalog::setMeasurements(const QJsonArray &kernels)
{
    QList<ProfileKernel> rows;
    for (const auto &v : kernels) {
        const QJsonObject k = v.toObject();
        ProfileKernel row;
        row.name = k.value(QLatin1String("name")).toString();
        row.calls = k.value(QLatin1String("calls")).toInt();
        row.totalMs = k.value(QLatin1String("total_ms")).toDouble(qQNaN());
        row.meanMs = k.value(QLatin1String("mean_ms")).toDouble(qQNaN());
        if (k.contains(QLatin1String("share")))
            row.share = k.value(QLatin1String("share")).toDouble();
        rows << row;
    }
    setMeasurements(rows);
}

void KernelCatalog::setMeasurements(const QList<ProfileKernel> &kernels)
{
    QHash<QString, const ProfileKernel *> byName;
    for (const ProfileKernel &k : kernels)
        byName.insert(bareName(k.name), &k);
    // A library kernel (e.g. aoti_torch_cpu_addmm_out) is called from several places under one
    // range name; the profile sees only the name, so its time is split evenly among them.
    QHash<QString, int> sameName;
    for (const auto &info : m_kernels)
        ++sameName[bareName(info.name)];
    double total = 0;
    bool sharesGiven = false;
    for (auto &info : m_kernels) {
        const QString bare = bareName(info.name);
        const auto it = byName.constFind(bare);
        if (it == byName.cend())
            continue;
        const ProfileKernel &k = **it;
        const int n = sameName.value(bare, 1);
        m_measured = true;
        info.calls = k.calls / n;
        info.totalMs = k.totalMs / n;
        info.meanMs = info.calls > 0 ? info.totalMs / info.calls : k.meanMs;
        if (!qIsNaN(k.share)) {
            info.share = k.share / n;
            sharesGiven = true;
        }
        if (!qIsNaN(info.totalMs))
            total += info.totalMs;
    }
    if (!sharesGiven && total > 0) {
        for (auto &info : m_kernels) {
            if (!qIsNaN(info.totalMs))
                info.share = info.totalMs / total;
        }
    }
}

const KernelInfo *KernelCatalog::find(const QString &nameOrId) const
{
    for (const auto &k : m_kernels) {
        if (k.id == nameOrId || k.name == nameOrId)
            return &k;
    }
    const QString bare = bareName(nameOrId);
    for (const auto &k : m_kernels) {
        if (k.name == bare)
            return &k;
    }
    return nullptr;
}

QList<const KernelInfo *> KernelCatalog::kernelsForNode(const QString &node) const
{
    QList<const KernelInfo *> out;
    for (const auto &k : m_kernels) {
        if (k.postGradNodes.contains(node) || k.preGradNodes.contains(node))
            out.append(&k);
    }
    return out;
}

} // namespace AotStudio::Client
