// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QString>

namespace AotStudio::Client {
class Session;
}

namespace AotStudio::Widgets {

class KernelsPanel;
class PipelinePanel;
class ProfilePanel;
class QuantizationPanel;
class SelectionHub;

/**
 * What File → Export Report… writes for a session (ReportWriter): the latest compile's figures
 * and verification (the same figure as the result panel), a later compile that failed its
 * verification, the cold start, and every chart and table of the Profile, Quantization, Pipeline
 * and Kernels docks.
 */
class SessionReport
{
    Q_DECLARE_TR_FUNCTIONS(AotStudio::Widgets::SessionReport)

public:
    /// The docks whose charts and tables go into the report (all of them required).
    struct Panels {
        ProfilePanel *profile;
        QuantizationPanel *quantization;
        PipelinePanel *pipeline;
        KernelsPanel *kernels;
    };

    /// Writes the report of `session` (shown through `hub`) into the new folder `folder`.
    /// Returns false and sets `error` on failure; nothing half-written is left.
    static bool write(const QString &folder, const Client::Session &session, const SelectionHub &hub,
                      const Panels &panels, QString *error);
};

} // namespace AotStudio::Widgets
