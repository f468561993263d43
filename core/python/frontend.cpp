// SPDX-License-Identifier: GPL-3.0-or-later
#include "python/frontend.h"

#include <ATen/dlpack.h>
#include <pybind11/embed.h>
#include <pybind11/stl.h>

#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace py = pybind11;

namespace AotStudio::Python {

namespace {

std::string envOr(const char *name, const std::string &fallback)
{
    const char *v = std::getenv(name);
    return v && *v ? std::string(v) : fallback;
}

std::filesystem::path selfDir()
{
    std::error_code ec;
    auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : p.parent_path();
}

/**
 * The interpreter of the venv an installed wheel lives in: the executables are
 * PREFIX/lib/pythonX.Y/site-packages/aotstudio_engine/bin/ (pyproject.toml), so PREFIX/bin/python3
 * is the venv's. Empty when this executable is not inside a package in site-packages (a build tree,
 * an install prefix) or that prefix has no python3 (a --user install; its console scripts name the
 * interpreter through AOTSTUDIO_PYTHON).
 */
std::string wheelPython()
{
    const auto package = selfDir().parent_path();
    const auto sitePackages = package.parent_path();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(package / "__init__.py", ec)
        || (sitePackages.filename() != "site-packages" && sitePackages.filename() != "dist-packages"))
        return {};
    const auto python = sitePackages.parent_path().parent_path().parent_path() / "bin" / "python3";
    return access(python.c_str(), X_OK) == 0 ? python.string() : std::string();
}

std::string defaultPython()
{
    const std::string fromWheel = wheelPython();
    return fromWheel.empty() ? std::string(AOTSTUDIO_PYTHON_EXECUTABLE) : fromWheel;
}

std::string defaultFrontendDir()
{
    const auto installed = selfDir() / ".." / AOTSTUDIO_PYTHON_INSTALL_SUBDIR;
    std::error_code ec;
    if (std::filesystem::is_directory(installed / "aotstudio_frontend", ec))
        return installed.lexically_normal().string();
    return AOTSTUDIO_PYTHON_SOURCE_DIR;
}

Protocol::Json toJson(const py::object &obj);

/// `{"id", "args"}` of a messages.Text (a str carrying `msg_id` and `msg_args`), null for a plain
/// str (FORMAT.md "Message ids").
Protocol::Json msgOf(const py::object &text)
{
    if (!text || !py::hasattr(text, "msg_id"))
        return nullptr;
    try {
        return Protocol::Json{{"id", py::str(text.attr("msg_id")).cast<std::string>()},
                              {"args", toJson(text.attr("msg_args"))}};
    } catch (...) { // a malformed Text: the English text still goes out
        return nullptr;
    }
}

/// Turn the Python exception being handled into a FrontendException.
[[noreturn]] void rethrow(py::error_already_set &e, const char *stage)
{
    std::string details;
    try {
        py::list lines = py::module_::import("traceback").attr("format_exception")(e.type(), e.value(), e.trace());
        for (auto l : lines)
            details += l.cast<std::string>();
    } catch (...) {
        details = e.what();
    }
    Protocol::Error err;
    py::object value = e.value();
    if (e.matches(PyExc_KeyboardInterrupt)) {
        // SIGINT reached Python (some library installed Python's handler): that is a cancel.
        throw FrontendException(Protocol::error(stage, Protocol::Code::Cancelled, Protocol::text("cancel.interrupted")),
                                std::move(details));
    }
    if (value && py::hasattr(value, "code") && py::hasattr(value, "hint") && py::hasattr(value, "stage")) {
        err.code = py::str(value.attr("code"));
        err.stage = py::str(value.attr("stage"));
        err.message = py::str(value.attr("message"));
        err.hint = py::str(value.attr("hint"));
        err.messageMsg = msgOf(value.attr("message"));
        err.hintMsg = msgOf(value.attr("hint"));
        // The user's frames and the source around the failing line (errors.user_where()).
        if (py::hasattr(value, "where") && !value.attr("where").is_none())
            err.where = toJson(value.attr("where"));
    } else {
        err.code = Protocol::Code::Internal;
        err.stage = stage;
        std::string what = e.what();
        if (const auto nl = what.find('\n'); nl != std::string::npos)
            what.resize(nl);
        err.message = what;
        err.hint = "this is a bug in AOT Studio's frontend or in torch; see the engine log for the traceback";
    }
    throw FrontendException(std::move(err), std::move(details));
}

Protocol::Json toJson(const py::object &obj)
{
    static py::object dumps = py::module_::import("json").attr("dumps");
    return Protocol::Json::parse(dumps(obj, py::arg("default") = py::str(py::module_::import("builtins").attr("str"))).cast<std::string>());
}

py::object fromJson(const Protocol::Json &j)
{
    return py::module_::import("json").attr("loads")(j.dump());
}

py::object g_frontend; // the aotstudio_frontend module; never released (no finalization)
std::string g_interpreter;
std::string g_frontendDir;

py::object frontend()
{
    if (!g_frontend)
        throw FrontendException({"engine", Protocol::Code::FrontendUnavailable, "the Python frontend is not initialized", ""});
    return g_frontend;
}

void capsuleDestructor(PyObject *capsule)
{
    // Called when the capsule dies; a consumer (torch.from_dlpack) renames it "used_dltensor".
    if (PyCapsule_IsValid(capsule, "dltensor")) {
        auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
        if (t && t->deleter)
            t->deleter(t);
    }
}

} // namespace

void initialize(InterpreterConfig config)
{
    if (Py_IsInitialized())
        return;
    if (config.pythonExecutable.empty())
        config.pythonExecutable = envOr("AOTSTUDIO_PYTHON", defaultPython());
    if (config.frontendDir.empty())
        config.frontendDir = envOr("AOTSTUDIO_PYTHONPATH", defaultFrontendDir());

    if (config.pythonExecutable.empty()) {
        throw FrontendException({"engine", Protocol::Code::FrontendUnavailable,
                                 "no Python interpreter to embed: this engine is not inside a venv's site-packages",
                                 "start it through the console scripts pip installed (VENV/bin/aotstudio-cli, "
                                 "VENV/bin/aotstudio-engine), or set AOTSTUDIO_PYTHON to the python of its venv"});
    }
    if (access(config.pythonExecutable.c_str(), X_OK) != 0) {
        throw FrontendException(
            {"engine", Protocol::Code::FrontendUnavailable,
             "Python interpreter '" + config.pythonExecutable + "' not found",
             "run tools/setup.sh to create .venv, or set AOTSTUDIO_PYTHON to a python with torch (from the "
             "aotstudio-engine wheel: start the console scripts pip installed in the venv's bin)"});
    }

    g_interpreter = config.pythonExecutable;
    g_frontendDir = config.frontendDir;
    PyConfig pc;
    PyConfig_InitPythonConfig(&pc);
    pc.install_signal_handlers = 0; // SIGINT/SIGTERM stay with the engine
    pc.parse_argv = 0;
    PyConfig_SetBytesString(&pc, &pc.executable, config.pythonExecutable.c_str());
    PyConfig_SetBytesString(&pc, &pc.program_name, config.pythonExecutable.c_str());
    wchar_t *argv[] = {const_cast<wchar_t *>(L"aotstudio-engine")};
    PyConfig_SetArgv(&pc, 1, argv);
    const PyStatus status = Py_InitializeFromConfig(&pc);
    PyConfig_Clear(&pc);
    if (PyStatus_Exception(status)) {
        throw FrontendException({"engine", Protocol::Code::FrontendUnavailable,
                                 std::string("cannot start Python: ") + (status.err_msg ? status.err_msg : "unknown error"),
                                 "check AOTSTUDIO_PYTHON and the venv made by tools/setup.sh"});
    }
    try {
        py::module_::import("sys").attr("path").attr("insert")(0, config.frontendDir);
        g_frontend = py::module_::import("aotstudio_frontend");
    } catch (py::error_already_set &e) {
        std::string what = e.what();
        if (const auto nl = what.find('\n'); nl != std::string::npos)
            what.resize(nl);
        throw FrontendException({"engine", Protocol::Code::FrontendUnavailable,
                                 "cannot import the Python frontend from '" + config.frontendDir + "' with '" +
                                     config.pythonExecutable + "': " + what,
                                 "run tools/setup.sh (installs torch into .venv), or set AOTSTUDIO_PYTHON / AOTSTUDIO_PYTHONPATH"});
    }
}

std::string interpreterPath()
{
    return g_interpreter;
}

std::string frontendDirectory()
{
    return g_frontendDir;
}

Protocol::Json engineInfo()
{
    try {
        return toJson(frontend().attr("engine_info")());
    } catch (py::error_already_set &e) {
        rethrow(e, "engine");
    }
}

Protocol::Json callFunction(const std::string &module, const std::string &function, const Protocol::Json &args,
                            const char *stage)
{
    try {
        py::object fn = py::module_::import(("aotstudio_frontend." + module).c_str()).attr(function.c_str());
        return toJson(fn(*py::tuple(fromJson(args))));
    } catch (py::error_already_set &e) {
        rethrow(e, stage);
    }
}

struct CompileJob::Private {
    py::object job;
    py::object log;
    py::object emit;
};

CompileJob::CompileJob(const Protocol::Json &request, LogFn log, EventFn emit, std::stop_token stop)
    : d(std::make_unique<Private>())
{
    try {
        d->log = py::cpp_function([log = std::move(log)](const std::string &level, const py::object &message) {
            if (log)
                log(level, py::str(message).cast<std::string>(), msgOf(message));
        });
        d->emit = py::cpp_function([emit = std::move(emit)](const py::object &event) {
            if (emit)
                emit(toJson(event));
        });
        py::object shouldStop = py::none();
        if (stop.stop_possible())
            shouldStop = py::cpp_function([stop] { return stop.stop_requested(); });
        d->job = frontend().attr("CompileJob")(fromJson(request), d->log, d->emit, shouldStop);
    } catch (py::error_already_set &e) {
        rethrow(e, "load");
    }
}

CompileJob::~CompileJob()
{
    // Release the output folder's lock now rather than whenever Python collects the job.
    if (!d || !d->job)
        return;
    try {
        d->job.attr("close")();
    } catch (py::error_already_set &) { // a destructor never throws; the lock goes with the object
    }
}

#define AOTSTUDIO_PY_STAGE(stage, expr)                                                                                \
    try {                                                                                                              \
        expr;                                                                                                          \
    } catch (py::error_already_set & e) {                                                                              \
        rethrow(e, stage);                                                                                             \
    }

Protocol::Json CompileJob::load()
{
    AOTSTUDIO_PY_STAGE("load", return toJson(d->job.attr("load")()));
}

Protocol::Json CompileJob::exportGraph()
{
    AOTSTUDIO_PY_STAGE("export", return toJson(d->job.attr("export")()));
}

Protocol::Json CompileJob::decompose()
{
    AOTSTUDIO_PY_STAGE("decompose", return toJson(d->job.attr("decompose")()));
}

Protocol::Json CompileJob::compile()
{
    AOTSTUDIO_PY_STAGE("compile", return toJson(d->job.attr("compile")()));
}

std::vector<DLManagedTensor *> CompileJob::inputs()
{
    std::vector<DLManagedTensor *> out;
    AOTSTUDIO_PY_STAGE("load_package", {
        py::list capsules = d->job.attr("input_capsules")();
        for (auto c : capsules) {
            PyObject *cap = c.ptr();
            auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
            if (!t)
                throw py::error_already_set();
            PyCapsule_SetName(cap, "used_dltensor"); // we own it now; the capsule will not free it
            out.push_back(t);
        }
    });
    return out;
}

void CompileJob::runEager()
{
    AOTSTUDIO_PY_STAGE("measure", d->job.attr("run_eager")());
}

namespace {

py::object resolve(py::object obj, const std::string &path)
{
    std::size_t start = 0;
    while (start <= path.size()) {
        const auto dot = path.find('.', start);
        obj = obj.attr(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start).c_str());
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }
    return obj;
}

} // namespace

Protocol::Json CompileJob::call(const std::string &path, const Protocol::Json &args,
                                const std::vector<DLManagedTensor *> *tensors)
{
    py::list capsules;
    if (tensors) {
        for (DLManagedTensor *t : *tensors)
            capsules.append(py::reinterpret_steal<py::object>(PyCapsule_New(t, "dltensor", capsuleDestructor)));
    }
    AOTSTUDIO_PY_STAGE("measure", {
        py::list positional(py::tuple(fromJson(args)));
        if (tensors)
            positional.append(capsules);
        return toJson(resolve(d->job, path)(*py::tuple(positional)));
    });
}

std::function<void()> CompileJob::bind(const std::string &path)
{
    py::object fn;
    AOTSTUDIO_PY_STAGE("measure", fn = resolve(d->job, path));
    auto held = std::make_shared<py::object>(std::move(fn));
    return [held] { AOTSTUDIO_PY_STAGE("measure", (*held)()); };
}

std::vector<DLManagedTensor *> CompileJob::callTensors(const std::string &path, const Protocol::Json &args)
{
    std::vector<DLManagedTensor *> out;
    AOTSTUDIO_PY_STAGE("measure", {
        py::list capsules = resolve(d->job, path)(*py::tuple(fromJson(args)));
        for (auto c : capsules) {
            auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(c.ptr(), "dltensor"));
            if (!t)
                throw py::error_already_set();
            PyCapsule_SetName(c.ptr(), "used_dltensor");
            out.push_back(t);
        }
    });
    return out;
}

} // namespace AotStudio::Python
