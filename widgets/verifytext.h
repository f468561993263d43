// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/verifyresult.h"

#include <QCoreApplication>
#include <QString>

namespace AotStudio::Widgets {

/**
 * The words the result panel and the report use for a verification, so both say the same thing:
 * "passed: 2 outputs within 0.001 of eager (largest 2.4e-07)", "compiled against eager",
 * "the example input and 2 seeded inputs (3 calls)".
 */
class VerifyText
{
    Q_DECLARE_TR_FUNCTIONS(AotStudio::Widgets::VerifyText)

public:
    /// The verdict in one line (translated; the engine's own sentence is in VerifyResult::verdict).
    static QString headline(const Client::VerifyResult &v);
    /// "compiled against eager, tolerance 0.001", or the reduced-precision rule with its reference.
    static QString mode(const Client::VerifyResult &v);
    /// Which inputs were compared: "the example input and 2 seeded inputs (3 calls)", skipped ones.
    static QString inputs(const Client::VerifyResult &v);
    /// "no", or "yes: forward() updates NAMES (both sides advanced alike)".
    static QString stateful(const Client::VerifyResult &v);
    /// "output 'logits' differs from eager" for a failed verify; empty when nothing names one.
    static QString failure(const Client::VerifyFailure &f);
};

} // namespace AotStudio::Widgets
