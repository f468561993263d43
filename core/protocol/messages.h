// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "protocol/version.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <istream>
#include <optional>
#include <string>
#include <string_view>

/// Engine protocol messages (core/protocol/FORMAT.md): builders for events and a tolerant parser
/// for requests. No I/O here; framing is one JSON object per line.
namespace AotStudio::Protocol {

using Json = nlohmann::json;

/// The studio's version (from CMake's project()).
inline constexpr std::string_view kEngineVersion = AOTSTUDIO_VERSION;

/// Error codes of the `error` event (FORMAT.md, "Error codes").
namespace Code {
inline constexpr const char *BadRequest = "bad_request";
inline constexpr const char *UnknownModel = "unknown_model";
inline constexpr const char *ModelError = "model_error";
inline constexpr const char *NoDevice = "no_device";
inline constexpr const char *ExportFailed = "export_failed";
inline constexpr const char *CompileFailed = "compile_failed";
inline constexpr const char *LoadFailed = "load_failed";
inline constexpr const char *Mismatch = "mismatch";
inline constexpr const char *Cancelled = "cancelled";
inline constexpr const char *FrontendUnavailable = "frontend_unavailable";
inline constexpr const char *CaptureFailed = "capture_failed"; ///< a `capture` recorded no call
inline constexpr const char *Internal = "internal";
inline constexpr const char *Refused
    = "refused"; ///< `read` outside the job folders; aotstudio-run: a bundle or input it does not run
inline constexpr const char *NotFound = "not_found"; ///< `read` of a file that does not exist
/// A bundle the trust policy refuses (unsigned, or signed by a key outside the trust store): the
/// same request with `allow_unsigned` loads it (BUNDLE.md "Who may load a bundle"). An invalid
/// signature is `load_failed`, whatever the request says.
inline constexpr const char *Untrusted = "untrusted";
/// A bundle or package built for another torch, machine, CPU or GPU architecture than the one
/// about to load it (its compatibility key, BUNDLE.md): refused before any of its native code
/// runs; the message names both sides and what to rebuild.
inline constexpr const char *Incompatible = "incompatible";
/// `ray` (a fan-out on a Ray cluster, FORMAT.md): Ray is not installed, the address does not
/// answer, or a worker node lacks the engine or runs another torch. Before any work starts.
inline constexpr const char *RayUnavailable = "ray_unavailable";
/// A Ray task ended without its sub-request's result (the worker died, its engine crashed).
inline constexpr const char *RemoteFailed = "remote_failed";
// Command-line tools only (aotstudio-cli, aotstudio-run; FORMAT.md "Command-line tools"):
inline constexpr const char *Usage = "usage"; ///< malformed command line (exit 2)
inline constexpr const char *Failed = "failed"; ///< a check the command makes failed (exit 1)
} // namespace Code

/**
 * A user-visible text by message id (FORMAT.md "Message ids"; the ids are described once in
 * core/protocol/messages.json): `english` is the catalog's text with `args` filled in, what the
 * command-line tools and logs print; msg() is `{"id", "args"}`, the `*_msg` field the studio
 * translates.
 */
struct Text {
    std::string id;
    Json args = Json::object();
    std::string english;

    Json msg() const { return Json{{"id", id}, {"args", args}}; }
    operator const std::string &() const { return english; }
};

/// The catalog message `id` with `args` (a JSON object: exactly the names the catalog lists).
/// Throws std::invalid_argument naming the id for an id the catalog lacks or other arg names: a
/// bug, which the tests catch.
Text text(std::string_view id, Json args = Json::object());

/// `templ` with its str.format placeholders filled from `args`: `{name}` (a string as is, an
/// integer in decimal, any other number as %g), `{name:.Nf}`, `{name:.Ng}`, `{name:d}` (rounded to
/// an integer); `{{` and `}}` are braces. A placeholder whose arg is missing stays as written.
std::string renderTemplate(std::string_view templ, const Json &args);

/// A failure that ends a request: which stage, a protocol code, what failed and what to do.
/// `messageMsg` / `hintMsg`: the same texts by message id (Text::msg()), null when they have none.
struct Error {
    std::string stage;
    std::string code;
    std::string message;
    std::string hint;
    Json messageMsg = nullptr;
    Json hintMsg = nullptr;
    /// Where in the user's code it failed (FORMAT.md "Where it failed"): `frames` (the traceback
    /// trimmed to the user's frames) and `excerpt` (the source around the failing line); null
    /// when the failure is not in the user's code.
    Json where = nullptr;
};

/// An Error whose message (and hint, when given) are catalog texts.
Error error(std::string_view stage, std::string_view code, const Text &message, const std::optional<Text> &hint = {});

/// Thrown when a job ends early; carries the protocol error (stage, code, message, hint) and,
/// when the failure came with one, `details` for the engine log at level debug (a Python
/// traceback). The one exception a job throws: the frontend's failures are this type too
/// (Python::FrontendException derives from it), so a job catches neither to translate it;
/// Engine::runJob sends the error event and logs the details once.
class JobFailed : public std::exception
{
public:
    explicit JobFailed(Error error, std::string details = {})
        : m_error(std::move(error))
        , m_details(std::move(details))
    { }
    const Error &error() const { return m_error; }
    /// The traceback or other text for the debug log; "" when none.
    const std::string &details() const { return m_details; }
    const char *what() const noexcept override { return m_error.message.c_str(); }

private:
    Error m_error;
    std::string m_details;
};

/// `hello`: frozen fields first (type, id, protocol, engine_version), then `info`'s fields
/// (torch_version, cuda_version, python_version, devices, cuda_available) merged in.
Json makeHello(const Json &info);
/// `progress`: `fraction` in [0, 1] over the whole job (clamped).
Json makeProgress(std::int64_t id, std::string_view stage, double fraction, std::string_view message);
/// `log` with level debug|info|warning|error; `msg`: the message by id (Text::msg()), or null.
Json makeLog(std::int64_t id, std::string_view level, std::string_view message, const Json &msg = nullptr);
/// `stage_done`: `seconds` is wall time of the stage; `artifacts` maps names to paths; `parts`
/// (optional) lists measured parts of the stage, `[{"name", "seconds"}]` (the C++ build inside
/// `compile`), each within `seconds`.
Json makeStageDone(std::int64_t id, std::string_view stage, double seconds, const Json &artifacts = Json::object(),
                   const Json &parts = nullptr);
/// `result`; `timing` (optional object: `wall_seconds`, `queued_seconds`) is merged into the event,
/// beside `result`, so that a job's result object stays what its files hold.
Json makeResult(std::int64_t id, const Json &result, const Json &timing = nullptr);
Json makeError(std::int64_t id, const Error &error);
Json makePong(std::int64_t id);
/// `data`, the answer to `read` (FORMAT.md "read"): `data` holds `length` bytes of the file at
/// `path` from `offset`, base64-encoded; `size` is the whole file's size (bytes), `eof` whether
/// the slice reaches its end, `sha256` the whole file's SHA-256 (hex) or empty when not computed.
Json makeData(std::int64_t id, std::string_view path, std::uint64_t offset, std::uint64_t length, std::uint64_t size,
              std::string_view sha256, std::string_view base64);

/// One line of the stream, serialised without a newline inside (the writer appends '\n').
std::string toLine(const Json &message);

/// A request as read from a line: `type` and `id` validated, the whole object kept.
struct Request {
    std::string type;
    std::int64_t id = 0;
    Json body;
};

/// Parse one line into a request. Returns std::nullopt and fills `error` (code bad_request) for a
/// line that is not a JSON object or lacks a string `type` / integer `id`. Unknown types are
/// returned as-is: skipping them is the caller's choice (FORMAT.md: unknown types are skipped).
std::optional<Request> parseRequest(std::string_view line, Error &error);

/// The longest protocol line either side reads (bytes, newline excluded): 16 MiB. Real lines are
/// at most a few hundred KiB (large data travels as files); a longer one is skipped whole, with an
/// error naming this limit, instead of being buffered without end. FORMAT.md "Limits".
inline constexpr std::size_t kMaxLineBytes = 16u << 20;

/// What readLine() found.
enum class LineRead {
    Line,    ///< a line (without its '\n'; a last line without one also counts)
    TooLong, ///< a line longer than the limit, read and discarded up to its '\n' (or the end)
    End,     ///< end of input, nothing read
};

/// Read one line from `in` into `line`, keeping at most `maxBytes` bytes in memory: a longer line
/// is consumed to its end and dropped (`line` is then empty) so the next call starts at the next
/// line. Never throws.
LineRead readLine(std::istream &in, std::string &line, std::size_t maxBytes = kMaxLineBytes);

} // namespace AotStudio::Protocol
