// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobheading.h"

#include "client/stagenames.h"

#include <QFileInfo>
#include <QHash>
#include <QLocale>
#include <QStringList>

namespace AotStudio::Widgets {

QString JobHeading::kindName(const QString &kind)
{
    static const QHash<QString, const char *> names{
        {QStringLiteral("compile"), QT_TR_NOOP("compile")},   {QStringLiteral("profile"), QT_TR_NOOP("profile")},
        {QStringLiteral("quantize"), QT_TR_NOOP("quantize")}, {QStringLiteral("export"), QT_TR_NOOP("export")},
        {QStringLiteral("sweep"), QT_TR_NOOP("sweep")},       {QStringLiteral("numerics"), QT_TR_NOOP("numerics")},
        {QStringLiteral("tune"), QT_TR_NOOP("tune")},         {QStringLiteral("inputs"), QT_TR_NOOP("inputs")},
    };
    if (kind.isEmpty())
        return tr("job");
    const char *name = names.value(kind, nullptr);
    return name ? tr(name) : kind;
}

QString JobHeading::heading(const Client::JobRecord &job)
{
    const QJsonObject &r = job.request;
    QStringList parts{tr("job %1").arg(job.id), kindName(job.kind)};
    const auto text = [&r](const char *key) { return r.value(QLatin1String(key)).toString(); };
    if (!text("model").isEmpty())
        parts << text("model");
    else if (!text("package").isEmpty())
        parts << QFileInfo(text("package")).fileName();
    else if (!text("bundle").isEmpty())
        parts << QFileInfo(text("bundle")).fileName();
    else if (!text("from").isEmpty())
        parts << QFileInfo(text("from")).fileName();
    if (!text("device").isEmpty())
        parts << text("device");
    if (!job.target.isEmpty())
        parts << (job.torchVersion.isEmpty() ? job.target : tr("%1 (torch %2)").arg(job.target, job.torchVersion));
    if (!text("dtype").isEmpty() && text("dtype") != QLatin1String("fp32"))
        parts << text("dtype");
    if (r.value(QLatin1String("regional")).toBool())
        parts << tr("regional");
    if (r.value(QLatin1String("max_autotune")).toBool())
        parts << tr("max-autotune");
    return parts.join(QStringLiteral(" · "));
}

QString JobHeading::state(const Client::JobRecord &job)
{
    const auto stage = [](const QString &name) { return Client::StageNames::displayName(name); };
    if (job.error) {
        if (job.error->isCancellation())
            return tr("cancelled during %1").arg(stage(job.error->stage));
        return tr("failed at %1: %2").arg(stage(job.error->stage), job.error->message);
    }
    if (job.succeeded()) {
        double seconds = 0;
        for (const auto &s : job.stages)
            seconds += s.seconds;
        return seconds > 0 ? tr("done in %1 s").arg(QLocale().toString(seconds, 'f', 1)) : tr("done");
    }
    if (job.currentStage.isEmpty())
        return tr("starting");
    return tr("running: %1 (%2%)").arg(stage(job.currentStage)).arg(qRound(job.fraction * 100));
}

QString JobHeading::briefState(const Client::JobRecord &job)
{
    if (job.error && !job.error->isCancellation()) {
        //: %1 the stage, %2 the error code (model_error)
        return tr("failed at %1 (%2)").arg(Client::StageNames::displayName(job.error->stage), job.error->code);
    }
    return state(job);
}

} // namespace AotStudio::Widgets
