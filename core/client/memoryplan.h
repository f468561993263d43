// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "resultparse.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace AotStudio::Client {

/// One step of a compile's memory plan (FORMAT.md "Memory plan"): a scheduler node in execution
/// order, one generated kernel loop nest or extern call.
struct MemoryStep {
    int index = 0;
    QString kernel;      ///< kernels.json id ("cpp_fused_relu_0:2"); empty for a step without code
    QStringList nodes;   ///< post-grad FX nodes (graph snapshot ids)
    double liveBytes = 0;        ///< Inductor's predicted live memory at the step (bytes)
    double plannedLiveBytes = 0; ///< the same over what the generated code holds (bytes)
};

/// One buffer of the plan: its size (bytes), lifetime in steps and how its storage is obtained.
struct MemoryBuffer {
    QString name;       ///< Inductor's per-compile name ("buf12"): pair compiles by `nodes`
    double bytes = 0;
    QString dtype;
    QList<qint64> shape;
    int firstStep = 0;
    int lastStep = -1;  ///< -1: held to the end (an output)
    QString allocation; ///< wrapper, reuse, extern or none
    QString reuses;     ///< the buffer whose storage it takes over (allocation "reuse")
    bool removed = false; ///< lives only inside the kernel that computes it
    bool isOutput = false;
    QStringList nodes;  ///< post-grad FX nodes it holds
    QString writerKernel;
    QString lastReaderKernel;
};

/// Where a peak is: its bytes, step, kernel and the nodes live there.
struct MemoryPeak {
    double bytes = qQNaN();
    int step = -1;
    QString kernel;
    QStringList liveNodes;
};

/**
 * A compile's memory plan (memory.json beside the package, FORMAT.md "Memory plan"): Inductor's
 * steps with the live-bytes curves, every buffer's lifetime, the weights apart and the predicted
 * and planned peaks. `available` false (with `reason`) for a compile without a plan (restored from
 * a cache entry made before plans, another tool's package).
 */
struct MemoryPlan {
    bool available = false;
    QString reason;
    bool complete = true;       ///< false: `partial` lists what is missing
    QStringList partial;
    QList<MemoryStep> steps;
    QList<MemoryBuffer> buffers;
    double constantsBytes = 0;  ///< weights and constants (never in the curves)
    MemoryPeak predicted;       ///< Inductor's estimate_peak_memory
    MemoryPeak planned;         ///< over what the generated code materialises
    double measuredBytes = qQNaN(); ///< a profile's measured peak when the file carries one

    /// The plan in `o` (memory.json's object), or refused naming the field.
    static Parsed<MemoryPlan> parse(const QJsonObject &o);
    /// The same from the file's bytes.
    static Parsed<MemoryPlan> parse(const QByteArray &json);
};

/// One pair of scheduler nodes Inductor considered and did not fuse (FORMAT.md "Fusion decisions").
struct FusionRefusal {
    QStringList nodes1, nodes2; ///< post-grad FX nodes of each side
    QString reason;             ///< Inductor's own text with its arguments
    QString category;           ///< intermediate_nodes, memory_deps, backend, ...
};

/// A post-grad node's fusion status: fused, refused (with the refusals naming it), not_chosen
/// (considered, another pair won) or never_candidate.
struct FusionNode {
    QString status;
    QList<int> refusals; ///< indices into FusionDecisions::refused
};

/**
 * A compile's fusion decisions (fusion.json beside the package, FORMAT.md "Fusion decisions"):
 * the pairs Inductor's scheduler refused with its reason, and each node's status.
 */
struct FusionDecisions {
    bool available = false;
    QString reason; ///< why not available
    QList<FusionRefusal> refused;
    QHash<QString, FusionNode> nodes;

    static Parsed<FusionDecisions> parse(const QByteArray &json);
};

} // namespace AotStudio::Client
