// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one way aotstudio-cli runs a job on the engine (compile, export, profile, quantize, sweep):
// the engine in this process, progress on stderr (and OUT/aotstudio.log), Ctrl-C as a cooperative
// cancel, the result as text or as the JSON envelope (core/protocol/envelope.h) on stdout.

#include <nlohmann/json.hpp>

#include <cstdio>
#include <functional>
#include <string>

namespace AotStudio::Cli {

struct EngineJob {
    nlohmann::json request; ///< the engine request (id 1)
    bool json = false; ///< print the envelope instead of text
    bool verbose = false; ///< debug logs (tracebacks) on stderr too
    std::string logFile; ///< the event log (OUT/aotstudio.log); empty for none
    /// The result as text.
    std::function<void(std::FILE *out, const nlohmann::json &result)> print;
    /// Why a result still fails the command (a sweep with shapes that broke the guards' promise, a
    /// quantize without its baseline): the error's message, or empty when it passes.
    std::function<std::string(const nlohmann::json &result)> failure;
};

/// Run the job and leave the process with its exit status (0, 1, or 130 for Ctrl-C) without
/// running torch's and Python's static destructors (Python is never finalized). Never returns.
[[noreturn]] void runEngineJob(const EngineJob &job);

/// `aotstudio-cli --version`: studio, torch, CUDA and Python versions and the devices. With `json`
/// (`--version --json`) one envelope on stdout whose result is the engine's handshake (FORMAT.md
/// "Handshake": engine_version, protocol, torch_version, cuda_version, python_version, devices,
/// cuda_available, ...); exit 1 with the error envelope when the engine could not start its Python
/// side. Never returns.
[[noreturn]] void printVersion(bool verbose, bool json = false);

/// "aotstudio-cli: STAGE failed (CODE): MESSAGE. Hint: HINT", the last line on stderr of a failure.
std::string errorLine(const nlohmann::json &error);

} // namespace AotStudio::Cli
