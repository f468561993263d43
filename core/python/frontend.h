// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "protocol/messages.h"

#include <functional>
#include <memory>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <vector>

struct DLManagedTensor;

/// The engine's embedded CPython and the `aotstudio_frontend` package (DESIGN.md §2).
/// Everything here must be called from the one thread that called initialize(): it holds the GIL
/// for the life of the process. The interpreter is never finalized (torch does not survive it).
namespace AotStudio::Python {

/// A failure reported by the frontend (a FrontendError raised in Python, or any other exception,
/// reported with code "internal"). `details()` holds the full Python traceback for the log. A
/// Protocol::JobFailed, so it ends a job as it is: jobs catch it only to handle it, never to
/// translate it (Engine::runJob logs the details).
class FrontendException : public Protocol::JobFailed
{
public:
    using Protocol::JobFailed::JobFailed;
};

/// Where the interpreter and the frontend come from. Empty fields take the defaults below.
struct InterpreterConfig {
    /// The venv's python: `AOTSTUDIO_PYTHON` if set, else the configure-time Python_EXECUTABLE.
    /// Setting it as PyConfig.executable makes sys.prefix the venv (site-packages found) and makes
    /// Inductor's compile workers, started with sys.executable, use the same venv.
    std::string pythonExecutable;
    /// Directory holding `aotstudio_frontend/`: `AOTSTUDIO_PYTHONPATH` if set, else the installed
    /// share/aotstudio/python next to the binary, else the source tree.
    std::string frontendDir;
};

/// Start the interpreter, import torch and the frontend. Throws FrontendException
/// (code frontend_unavailable) with a hint when Python or torch cannot be imported.
void initialize(InterpreterConfig config = {});

/// The python executable and the frontend directory initialize() used (empty before it), for
/// child processes that must run the same Python (e.g. the eager cold-start baseline).
std::string interpreterPath();
std::string frontendDirectory();

/// Versions and devices for `hello` (torch_version, cuda_version, python_version, devices,
/// cuda_available). Requires initialize().
Protocol::Json engineInfo();

/// Call `function` of the frontend's submodule `module` (e.g. "quant", "peak_begin") with the JSON
/// array `args`; returns its result as JSON. Throws FrontendException (stage `stage`).
Protocol::Json callFunction(const std::string &module, const std::string &function,
                            const Protocol::Json &args = Protocol::Json::array(), const char *stage = "engine");

/// One `compile` request on the Python side (aotstudio_frontend.job.CompileJob). Each stage
/// returns the frontend's dict as JSON, or throws FrontendException.
class CompileJob {
public:
    /// level, the English message, and the message by id (FORMAT.md "Message ids") or null.
    using LogFn = std::function<void(const std::string &level, const std::string &message, const Protocol::Json &msg)>;
    /// Any other event the frontend announces (e.g. `snapshot`), without `id`.
    using EventFn = std::function<void(const Protocol::Json &event)>;
    /// `stop`: the job's stop token, polled by the Python side at every Inductor pass and between
    /// long steps (CompileJob.check_stop), so that a cancel during compile ends within seconds
    /// without killing the engine (native C++ compilation of the generated code still runs to
    /// its end). The front end then raises FrontendError(cancelled).
    CompileJob(const Protocol::Json &request, LogFn log, EventFn emit = {}, std::stop_token stop = {});
    ~CompileJob();

    Protocol::Json load();
    Protocol::Json exportGraph();
    Protocol::Json decompose();
    Protocol::Json compile();
    /// Example inputs as DLPack tensors; the caller owns them (hand them to AotiRunner::setInputs).
    std::vector<DLManagedTensor *> inputs();
    /// One eager forward (synchronized on CUDA).
    void runEager();

    /// Call the job's attribute at `path` (dotted, e.g. "quant.accuracy") with the JSON array
    /// `args` as positional arguments; optional `tensors` (ownership taken) are appended as one
    /// list of DLPack capsules. Returns the result as JSON. Throws FrontendException.
    Protocol::Json call(const std::string &path, const Protocol::Json &args = Protocol::Json::array(),
                        const std::vector<DLManagedTensor *> *tensors = nullptr);
    /// The job's method at `path` (dotted) taking no arguments, resolved once, as a callable for
    /// timing loops (no JSON conversion per call; exceptions as FrontendException, stage measure).
    /// Call it, and let it go, on this job's thread only; it must not outlive the job.
    std::function<void()> bind(const std::string &path);
    /// Like call(), for a method returning a list of DLPack capsules; the caller owns the tensors.
    std::vector<DLManagedTensor *> callTensors(const std::string &path, const Protocol::Json &args = Protocol::Json::array());

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace AotStudio::Python
