// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/session.h"

#include <QCoreApplication>
#include <QString>

namespace AotStudio::Widgets {

/**
 * How a view names the job it shows (RenderDoc names its capture in every viewer): one heading
 * per job, the same in every dock, and one line for where the job stands.
 */
class JobHeading
{
    Q_DECLARE_TR_FUNCTIONS(AotStudio::Widgets::JobHeading)
public:
    /// A request type ("compile", "profile", …) in the UI language; an unknown one as given.
    static QString kindName(const QString &kind);
    /// "job 3 · compile · sample:mlp · cpu · zerogpu (torch 2.11.0) · bf16": the job's id, kind and
    /// what its request names (model or package or bundle, device), the target environment of the
    /// engine that ran it (only when not the studio's own), dtype when not fp32, regional, max-autotune.
    static QString heading(const Client::JobRecord &job);
    /// Where the job stands: "running: Compile (45%)", "failed at Load: <message>",
    /// "cancelled during Compile", "done in 28.1 s" (the stages' seconds added up).
    static QString state(const Client::JobRecord &job);
    /// state() in a few words, for a header beside the heading: a failure without its message
    /// ("failed at Load (model_error)"; the view under it, or the tooltip, has the message).
    static QString briefState(const Client::JobRecord &job);
};

} // namespace AotStudio::Widgets
