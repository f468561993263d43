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
    // A `profile` job's burst replay (after its cold start).
    if (stage == QLatin1String("replay"))
        return tr("Replaying a burst of requests");
    if (stage == QLatin1String("package"))
        return tr("Writing the bundle");
    // Stages of a `numerics` job (the graph op by op, then the exposed compile).
    if (stage == QLatin1String("reference"))
        return tr("Running the float64 reference");
    if (stage == QLatin1String("eager"))
        return tr("Running eager op by op");
    if (stage == QLatin1String("compiled"))
        return tr("Running the compiled graph");
    // Stages of a `tune` job around its trials' compiles.
    if (stage == QLatin1String("plan"))
        return tr("Planning the trials");
    if (stage == QLatin1String("trials"))
        return tr("Compiling the trials");
    if (stage == QLatin1String("baseline"))
        return tr("Compiling the torch.compile baseline");
    if (stage == QLatin1String("workload"))
        return tr("Checking recompiles on the workload");
    if (stage == QLatin1String("write"))
        return tr("Writing the results");
    return stage;
}

} // namespace AotStudio::Client
