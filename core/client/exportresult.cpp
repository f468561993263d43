// SPDX-License-Identifier: GPL-3.0-or-later
#include "exportresult.h"

#include "bundle/bundle.h"
#include "bundle/inspect.h"
#include "bundle/preflight.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>

#include <filesystem>
#include <fstream>

namespace AotStudio::Client {

ExportResult ExportResult::fromJson(const QJsonObject &o)
{
    ExportResult r;
    r.raw = o;
    r.bundle = o.value(QLatin1String("bundle")).toString();
    r.zip = o.value(QLatin1String("zip")).toString();
    r.model = o.value(QLatin1String("model")).toString();
    r.device = o.value(QLatin1String("device")).toString();
    // The engine sends the manifest's path; an object (the manifest itself) is tolerated.
    const QJsonValue manifest = o.value(QLatin1String("manifest"));
    r.manifest = manifest.isString() ? manifest.toString() : QString();
    const QJsonArray buckets = o.value(QLatin1String("buckets")).toArray();
    for (const QJsonValue &value : buckets) {
        ExportBucket b;
        if (value.isDouble()) { // a bare batch size
            b.batch = value.toInt();
            b.name = QStringLiteral("batch%1").arg(b.batch);
        } else {
            const QJsonObject bo = value.toObject();
            b.name = bo.value(QLatin1String("name")).toString();
            b.batch = bo.value(QLatin1String("batch")).toInt();
            b.batchMin = bo.value(QLatin1String("batch_min")).toInt();
            b.batchMax = bo.value(QLatin1String("batch_max")).toInt();
            b.package = bo.value(QLatin1String("package")).toString();
        }
        r.buckets.append(b);
    }
    r.coldStart = ColdStart::fromJson(o.value(QLatin1String("cold_start")));
    r.compat = BundleCompat::fromJson(o.value(QLatin1String("compat")));
    r.preflight = Preflight::fromJson(o.value(QLatin1String("preflight")));
    return r;
}

namespace {

QJsonValue toQt(const nlohmann::json &j)
{
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(nlohmann::json::array({j}).dump()));
    return doc.array().first();
}

QString translated(const char *text)
{
    return QCoreApplication::translate("AotStudio::Client::ExportResult", text);
}

} // namespace

QStringList ExportResult::gpuProfileNames()
{
    QStringList names{QString::fromLatin1(Bundle::kDefaultGpuProfile)};
    for (const auto &p : Bundle::gpuProfiles())
        if (QString::fromStdString(p.name) != names.first())
            names << QString::fromStdString(p.name);
    return names;
}

Preflight ExportResult::preflightFolder(const QString &folder, const QString &profile, QString *error)
{
    try {
        const std::string name = profile.isEmpty() ? std::string(Bundle::kDefaultGpuProfile) : profile.toStdString();
        return Preflight::fromJson(toQt(Bundle::preflight(folder.toStdString(), Bundle::gpuProfile(name))));
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return {};
    }
}

QJsonObject ExportResult::readBundleFolder(const QString &folder, const QString &profile, QString *error)
{
    namespace fs = std::filesystem;
    const fs::path root = fs::absolute(folder.toStdString()).lexically_normal();
    if (!fs::exists(root / Bundle::kManifestName)) {
        if (error)
            *error = translated(
                         "%1 holds no manifest.json: not a bundle folder (aotstudio-cli export --out DIR writes one).")
                         .arg(QDir::toNativeSeparators(folder));
        return {};
    }
    nlohmann::json described;
    try {
        described = Bundle::inspectBundle(root);
    } catch (const std::exception &e) {
        if (error)
            *error = translated("%1 cannot be read as a bundle: %2")
                         .arg(QDir::toNativeSeparators(folder), QString::fromStdString(e.what()));
        return {};
    }
    QJsonObject out = toQt(described).toObject();
    out.insert(QLatin1String("bundle"), QString::fromStdString(root.string()));
    out.insert(QLatin1String("manifest"), QString::fromStdString((root / Bundle::kManifestName).string()));
    const fs::path zip = root.string() + ".zip";
    out.insert(QLatin1String("zip"), fs::exists(zip) ? QString::fromStdString(zip.string()) : QString());
    // report/cold_start.json: the export's measurement, the same object its result carried.
    std::ifstream cold(root / Bundle::kReportDir / Bundle::kColdStartName);
    if (cold) {
        const nlohmann::json j = nlohmann::json::parse(cold, nullptr, false);
        if (j.is_object())
            out.insert(QLatin1String("cold_start"), toQt(j));
    }
    try { // without a preflight the view says "not made"; the rest of the bundle still shows
        const std::string name = profile.isEmpty() ? std::string(Bundle::kDefaultGpuProfile) : profile.toStdString();
        out.insert(QLatin1String("preflight"), toQt(Bundle::preflight(root, Bundle::gpuProfile(name))));
    } catch (const std::exception &) { }
    return out;
}

BundleCompat BundleCompat::fromJson(const QJsonValue &value)
{
    BundleCompat c;
    const QJsonObject o = value.toObject();
    const auto str = [&](const char *key) { return o.value(QLatin1String(key)).toString(); };
    c.key = str("key");
    c.torch = str("torch");
    c.cuda = str("cuda");
    c.device = str("device");
    c.machine = str("machine");
    c.cpuIsa = str("cpu_isa");
    c.march = str("march");
    c.precision = str("precision");
    c.shapeMode = str("shape_mode");
    c.runtime = str("runtime");
    c.modelSha256 = str("model_sha256");
    const QJsonObject archs = o.value(QLatin1String("cuda_archs")).toObject();
    for (const QJsonValue &v : archs.value(QLatin1String("sass")).toArray())
        c.sass.append(v.toInt());
    for (const QJsonValue &v : archs.value(QLatin1String("ptx")).toArray())
        c.ptx.append(v.toInt());
    return c;
}

Preflight Preflight::fromJson(const QJsonValue &value)
{
    Preflight p;
    const QJsonObject o = value.toObject();
    const QJsonObject profile = o.value(QLatin1String("profile")).toObject();
    p.profile = profile.value(QLatin1String("name")).toString();
    p.description = profile.value(QLatin1String("description")).toString();
    p.verdict = o.value(QLatin1String("verdict")).toString();
    for (const QJsonValue &v : o.value(QLatin1String("checks")).toArray()) {
        const QJsonObject c = v.toObject();
        p.checks.append({c.value(QLatin1String("name")).toString(), c.value(QLatin1String("status")).toString(),
                         c.value(QLatin1String("summary")).toString()});
    }
    return p;
}

} // namespace AotStudio::Client
