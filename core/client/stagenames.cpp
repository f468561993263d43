// SPDX-License-Identifier: GPL-3.0-or-later
#include "stagenames.h"

namespace AotStudio::Client {

QString StageNames::displayName(const QString &stage)
{
    if (stage == QLatin1String("load"))
        return tr("Loading the model");
    if (stage == QLatin1String("export"))
        return tr("Exporting the graph");
    if (stage == QLatin1String("decompose"))
        return tr("Decomposing to core ATen");
    if (stage == QLatin1String("compile"))
        return tr("Compiling with AOTInductor");
    if (stage == QLatin1String("load_package"))
        return tr("Loading the package");
    if (stage == QLatin1String("verify"))
        return tr("Verifying outputs");
    if (stage == QLatin1String("measure"))
        return tr("Measuring latency");
    // Stages of an `export` job after its buckets' compiles.
    if (stage == QLatin1String("cold_start"))
        return tr("Measuring cold start");
    if (stage == QLatin1String("package"))
        return tr("Writing the bundle");
    return stage;
}

} // namespace AotStudio::Client
