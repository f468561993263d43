// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// aotstudio-run --serve's front ends (app/run/SERVING.md): JSON-lines requests on stdin (or the
// descriptors ServeOptions names) or on a Unix socket in a private folder, answered by the worker
// pool (workerpool.h) in completion order. Torch-free: what a worker does is its WorkerBody.
#include "serve/serveoptions.h"
#include "serve/workerbody.h"
#include "serve/workerpool.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace AotStudio::Serve {

/// A request line, parsed (SERVING.md "Requests"): a job, a shutdown, a stats request, or an error
/// response when the line is refused here (id null when the line is not a JSON object).
struct ParsedLine {
    std::optional<Job> job; ///< its arrival is the time of parsing
    bool shutdown = false;
    bool stats = false;
    nlohmann::json id;
    nlohmann::json error; ///< a response line ({"id", "ok": false, "error": {stage "request"}}) or null
};

/// Parse one request line: {"id", "batch" (integer >= 1), "seed" (integer >= 0), "input" (a
/// path)} or {"id", "shutdown": true} or {"id", "stats": true}. Unknown fields are refused, not
/// ignored: a misspelt "seed" would otherwise run with seed 0.
ParsedLine parseRequest(const std::string &line);

/// Serve requests until end of input or a shutdown request (SERVING.md: request and response
/// lines), `body` answering them in the pool's workers. Returns the exit status: 0 after a clean
/// shutdown or SIGTERM/SIGHUP, 130 after SIGINT (the workers killed and the socket folder removed
/// either way). Prints one "serving" line on stderr. Throws UsageError when the socket cannot be
/// made (its folder exists, the path is too long), Refusal("failed") when the workers cannot start.
int serve(WorkerBody &body, const ServeOptions &options);

} // namespace AotStudio::Serve
