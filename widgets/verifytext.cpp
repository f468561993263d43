// SPDX-License-Identifier: GPL-3.0-or-later
#include "verifytext.h"

#include "numberformat.h"

#include <QStringList>

#include <cmath>

namespace AotStudio::Widgets {

namespace {
QString g3(double v)
{
    return std::isnan(v) ? QStringLiteral("—") : formatNumber(v, 'g', 3);
}

double largest(const Client::VerifyResult &v, double Client::VerifyOutput::*field)
{
    double worst = qQNaN();
    for (const Client::VerifyOutput &o : v.outputs) {
        const double x = o.*field;
        if (std::isnan(x))
            continue;
        worst = std::isnan(worst) ? x : std::max(worst, x);
    }
    return worst;
}
} // namespace

QString VerifyText::headline(const Client::VerifyResult &v)
{
    const int n = int(v.outputs.size());
    const QStringList failed = v.failedOutputs();
    if (!v.passed || !failed.isEmpty())
        return tr("failed: %1").arg(failed.isEmpty() ? tr("see the error") : failed.join(QStringLiteral(", ")));
    if (v.isReducedPrecision() && !v.referenceDtype.isEmpty())
        return tr("passed (reduced precision): against the %1 reference the package is off by %2 and eager by %3 "
                  "(tolerance %4 on the difference), %n output(s)",
                  nullptr, n)
            .arg(v.referenceDtype, g3(largest(v, &Client::VerifyOutput::compiledReferenceError)),
                 g3(largest(v, &Client::VerifyOutput::eagerReferenceError)), g3(v.tolerance));
    if (v.tolerance >= 1e29) // a quantize scheme's verify bounds only NaN (verify.py NO_TOLERANCE)
        return tr("compared: %n output(s) with the scheme's eager model, largest difference %1 (no tolerance)", nullptr,
                  n)
            .arg(g3(largest(v, &Client::VerifyOutput::maxAbsError)));
    return tr("passed: %n output(s) within %1 of eager (largest %2)", nullptr, n)
        .arg(g3(v.tolerance), g3(largest(v, &Client::VerifyOutput::maxAbsError)));
}

QString VerifyText::mode(const Client::VerifyResult &v)
{
    if (v.isReducedPrecision() && !v.referenceDtype.isEmpty())
        return tr("reduced precision: compiled and eager against a %1 reference").arg(v.referenceDtype);
    if (v.isReducedPrecision())
        return v.referenceNote.isEmpty()
            ? tr("reduced precision without a reference: compiled against eager")
            : tr("reduced precision without a reference (%1): compiled against eager").arg(v.referenceNote);
    return tr("compiled against eager");
}

QString VerifyText::inputs(const Client::VerifyResult &v)
{
    const int calls = v.comparedCalls();
    QString text = v.seededInputs > 0
        ? tr("the example input and %n seeded input(s)", nullptr, v.seededInputs)
        : tr("the example input only");
    if (!v.calls.isEmpty())
        text += QLatin1Char(' ') + tr("(%n call(s))", nullptr, calls);
    if (v.skippedCalls() > 0)
        text += QStringLiteral("; ")
            + tr("%n seeded input(s) skipped: eager itself raised on them", nullptr, v.skippedCalls());
    return text;
}

QString VerifyText::stateful(const Client::VerifyResult &v)
{
    if (!v.stateful)
        return tr("no");
    return v.mutatedState.isEmpty()
        ? tr("yes: forward() changes a buffer; both sides were checked to advance alike")
        : tr("yes: forward() updates %1; both sides were checked to advance alike")
              .arg(v.mutatedState.join(QStringLiteral(", ")));
}

QString VerifyText::failure(const Client::VerifyFailure &f)
{
    QStringList names;
    if (!f.failedOutput.isEmpty())
        names << f.failedOutput;
    for (const Client::VerifyOutput &o : f.outputs) {
        if (o.passed.has_value() && !*o.passed && !names.contains(o.name))
            names << o.name;
    }
    if (names.isEmpty())
        return {};
    return tr("%n output(s) failed verification: %1", nullptr, int(names.size()))
        .arg(names.join(QStringLiteral(", ")));
}

} // namespace AotStudio::Widgets
