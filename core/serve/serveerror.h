// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The errors of aotstudio-run and its serving (app/run/SERVING.md): what a refusal, a failure and a
// bad command line are, and the one error object the one-shot envelope and a --serve response line
// share (FORMAT.md "Command-line tools"). Torch-free.
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace AotStudio::Serve {

/// A request or a bundle that aotstudio-run does not run: `stage` "refused" (the bundle, the
/// device, the inputs) or "failed" (loading or running, starting a worker), and a one-line
/// message. `code` is the FORMAT.md error code when it is not the stage's own (errorJson()):
/// `untrusted` for a bundle the trust store does not admit (Bundle::refusalIsTrust), as the engine
/// says for the same bundle; `incompatible` for one built for another machine or torch.
class Refusal : public std::runtime_error
{
public:
    Refusal(std::string stage, const std::string &message, std::string code = {})
        : std::runtime_error(message)
        , m_stage(std::move(stage))
        , m_code(std::move(code))
    { }
    const std::string &stage() const { return m_stage; }
    const std::string &code() const { return m_code; }

private:
    std::string m_stage;
    std::string m_code;
};

/// A bad command line found after parsing (exit 2): a --socket folder that exists, a trace that
/// does not read, an --eager-server line that does not split, a trust store that does not read.
class UsageError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// One line, valid UTF-8, no newlines: for refusals on stderr and in JSON.
std::string oneLine(const std::string &message);

/// The error object of aotstudio-run, in the one-shot envelope and on a --serve response line
/// alike (FORMAT.md "Command-line tools"): {"stage", "code", "message", "hint"}. `stage` is where
/// it ended: "refused" (the bundle, the input or the trust store said no), "failed" (loading or
/// running), "request" (a malformed --serve request), "worker" (a worker died or answered
/// garbage), "deadline" (a worker past --request-timeout), "replay"; `code` follows from it
/// (refused, failed, bad_request, internal) unless given (a Refusal's code(): untrusted).
nlohmann::json errorJson(const std::string &stage, const std::string &message, const std::string &hint = "",
                         const std::string &code = "");

} // namespace AotStudio::Serve
