// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessionreport.h"

#include "kernelspanel.h"
#include "kerneltablemodel.h"
#include "measurementtext.h"
#include "pipelinemodel.h"
#include "pipelinepanel.h"
#include "profilepanel.h"
#include "quantizationpanel.h"
#include "reportwriter.h"
#include "schemetablemodel.h"
#include "selectionhub.h"
#include "sessioncontroller.h"
#include "throughputmodel.h"
#include "verifyoutputmodel.h"
#include "verifytext.h"

#include "client/compileresult.h"
#include "client/measurement.h"
#include "client/session.h"
#include "client/verifyresult.h"

#include <QLocale>
#include <qcustomplot.h>

namespace AotStudio::Widgets {

bool SessionReport::write(const QString &folder, const Client::Session &session, const SelectionHub &hub,
                          const Panels &panels, QString *error)
{
    ReportWriter report(tr("AOT Studio report"));
    VerifyOutputModel verifyOutputs; // the report reads its tables when written, below
    VerifyOutputModel failedOutputs;
    if (const auto *compile = session.latestSucceeded(QStringLiteral("compile"))) {
        using Tone = ReportWriter::Tone;
        const auto r = Client::CompileResult::fromJson(compile->result);
        // The same figure as the result panel: the compile's, or a later profile's of the same model.
        const Client::SpeedupFigure f = Client::SpeedupFigure::current(session);
        const Client::Measurement &m = f.measurement;
        const Tone figures = m.isUnreliable() ? Tone::Greyed : Tone::Plain;
        using V = Client::Measurement::Verdict;
        const Tone verdict = m.verdict == V::Ok           ? Tone::Ok
                             : m.verdict == V::Noisy      ? Tone::Noisy
                             : m.verdict == V::Unreliable ? Tone::Unreliable
                             : m.verdict == V::Unknown    ? Tone::Unknown
                                                          : Tone::Plain;
        report.addSummary(tr("Model"), r.model);
        report.addSummary(tr("Device"), r.device);
        report.addSummary(tr("torch"), r.torchVersion);
        report.addSummary(tr("Measured by"),
                          f.source == Client::SpeedupFigure::Source::Profile
                              ? (f.measuredAt.isValid()
                                     ? tr("Profile at %1 (it supersedes the compile's quick measurement)")
                                           .arg(QLocale().toString(f.measuredAt, QLocale::ShortFormat))
                                     : tr("Profile (it supersedes the compile's quick measurement)"))
                              : tr("Compile (its quick measurement)"));
        report.addSummary(tr("Eager median"), tr("%1 ms").arg(f.eagerMs), figures);
        report.addSummary(tr("Compiled median"), tr("%1 ms").arg(f.compiledMs), figures);
        report.addSummary(tr("Speed-up"), MeasurementText::ratioWithInterval(f.speedup), figures);
        report.addSummary(tr("Measurement"), MeasurementText::verdictLine(m), verdict);
        report.addSummary(tr("Threads"), MeasurementText::threads(m.threads, m.usableCpus));
        report.addSummary(tr("Max abs error"), QString::number(r.maxAbsError, 'g', 3));
        if (r.verify.isPresent()) {
            const bool passed = r.verify.passed && r.verify.failedOutputs().isEmpty();
            report.addSummary(tr("Verification"), VerifyText::headline(r.verify),
                              passed ? Tone::Passed : Tone::Failed);
            report.addSummary(tr("Verified as"), VerifyText::mode(r.verify));
            report.addSummary(tr("Verified on"), VerifyText::inputs(r.verify));
            report.addSummary(tr("Stateful"), VerifyText::stateful(r.verify));
            verifyOutputs.setOutputs(r.verify.outputs, r.verify.tolerance, r.verify.referenceDtype);
        }
    }
    // A later compile that failed its verification: what failed, by output.
    if (const auto *failed = SessionController::latestFailedCompile(session);
        failed && failed->error->code == QLatin1String("mismatch")
        && (!session.latestSucceeded(QStringLiteral("compile"))
            || session.latestSucceeded(QStringLiteral("compile"))->id < failed->id)) {
        const auto failure = Client::VerifyFailure::fromError(*failed->error, session.logs(), failed->id);
        const QString names = VerifyText::failure(failure);
        report.addSummary(tr("Last compile"),
                          tr("%1 failed verification: %2")
                              .arg(failed->request.value(QLatin1String("model")).toString(),
                                   names.isEmpty() ? failed->error->message : names + QStringLiteral(". ") + failed->error->message),
                          ReportWriter::Tone::Failed);
        failedOutputs.setOutputs(failure.outputs);
    }
    const auto profile = hub.latestProfile();
    const Client::ColdStart cold = profile ? profile->coldStart : Client::ColdStart();
    if (cold.isMeasured()) {
        report.addSummary(tr("Cold start"),
                          tr("bundle %1 ms vs eager %2 ms: eager / bundle %3")
                              .arg(cold.bundleMs)
                              .arg(cold.eagerMs)
                              .arg(MeasurementText::ratioWithInterval(cold.ratioInterval,
                                                                      MeasurementText::Slower::Bundle)));
        const char *const names[] = {QT_TR_NOOP("spawn to main"), QT_TR_NOOP("verify"), QT_TR_NOOP("load"),
                                     QT_TR_NOOP("first run")};
        for (int i = 0; i < Client::ColdStart::PhaseCount; ++i) {
            if (cold.phases[i].isValid())
                report.addSummary(tr("Cold start: %1").arg(tr(names[i])), MeasurementText::phase(cold.phases[i]));
        }
    }
    panels.profile->flush(); // drawn when shown: a hidden dock may not be yet
    panels.profile->waitForTrace(10000); // the timeline is read off the UI thread
    for (QCustomPlot *chart : panels.profile->charts())
        report.addChart(QStringLiteral("profile-") + chart->objectName(), chart->objectName(), chart);
    for (QCustomPlot *chart : panels.quantization->charts())
        report.addChart(QStringLiteral("quantization-") + chart->objectName(), chart->objectName(), chart);
    if (verifyOutputs.rowCount() > 0)
        report.addTable(QStringLiteral("verify"), tr("Verification per output"), &verifyOutputs);
    if (failedOutputs.rowCount() > 0)
        report.addTable(QStringLiteral("verify-failed"), tr("Failed verification per output"), &failedOutputs);
    if (panels.profile->throughputModel()->rowCount() > 0)
        report.addTable(QStringLiteral("throughput"), tr("Throughput"), panels.profile->throughputModel());
    report.addTable(QStringLiteral("pipeline"), tr("Pipeline"), panels.pipeline->model());
    report.addTable(QStringLiteral("kernels"), tr("Kernels"), panels.kernels->model());
    if (panels.quantization->schemeModel()->rowCount() > 0)
        report.addTable(QStringLiteral("schemes"), tr("Quantization schemes"), panels.quantization->schemeModel());
    return report.write(folder, error);
}

} // namespace AotStudio::Widgets
