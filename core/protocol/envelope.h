// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one shape of what the command-line tools print with --json (FORMAT.md "Command-line tools"):
// aotstudio-cli (every subcommand) and aotstudio-run build and print it here, and here only, and
// exit with one of these statuses. No Qt, no torch: aotstudio-run links this without the pipeline.

#include "messages.h"

#include <cstdio>
#include <string>

namespace AotStudio::Protocol {

/// Exit statuses of aotstudio-cli and aotstudio-run.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1; ///< the job ran and failed, or its input was refused
inline constexpr int kExitUsage = 2; ///< malformed command line (nothing was started)
inline constexpr int kExitCancelled = 130; ///< cancelled with Ctrl-C (128 + SIGINT), as shells expect

/// `{"ok": true, "result": result}`.
Json okEnvelope(const Json &result);
/// `{"ok": false, "error": {"stage", "code", "message", "hint"}}`; `result`, when an object, is
/// kept beside the error (a job that failed its check but still has its report: a sweep with
/// failing shapes, a tampered bundle's inspection).
Json errorEnvelope(const Error &error, const Json &result = Json());
/// The same from an `error` event or any object with those fields: the four keys always present
/// (strings), further fields of the event kept, `type` and `id` dropped.
Json errorEnvelope(const Json &errorEvent, const Json &result = Json());

/// One line of JSON for the envelope: invalid UTF-8 replaced, never throws.
std::string envelopeLine(const Json &envelope);
/// Print the envelope as one line on `out` and flush it.
void printEnvelope(std::FILE *out, const Json &envelope);

/// Whether argv asks for JSON (`--json` anywhere): a command line CLI11 rejects still answers in
/// the envelope then.
bool wantsJson(int argc, const char *const *argv);
/// The envelope of a malformed command line: stage "command_line", code "usage".
Json usageEnvelope(const std::string &message, const std::string &hint = "see --help");

} // namespace AotStudio::Protocol
