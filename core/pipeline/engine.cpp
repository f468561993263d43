// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/engine.h"

#include "pipeline/capturejob.h"
#include "pipeline/compilejob.h"
#include "pipeline/exportjob.h"
#include "pipeline/inputsjob.h"
#include "pipeline/reprojob.h"
#include "pipeline/jobutil.h"
#include "pipeline/numericsjob.h"
#include "pipeline/tunejob.h"
#include "pipeline/profilejob.h"
#include "pipeline/quantizejob.h"
#include "pipeline/reaper.h"
#include "pipeline/sweepjob.h"
#include "python/frontend.h"

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <unistd.h>

namespace AotStudio::Pipeline {

using Protocol::Json;

namespace {

/// The request types that are jobs (queued, run one at a time on the worker) and what runs them.
struct JobKind {
    std::string_view type;
    Json (*run)(std::int64_t id, const Json &request, const EventFn &emit, std::stop_token stop);
    bool writesResultFile; ///< result.json beside the package (compile); other jobs write their own
};

constexpr JobKind kJobKinds[] = {
    {"compile", runCompile, true}, {"export", runExport, false},     {"profile", runProfile, false},
    {"quantize", runQuantize, false}, {"sweep", runSweep, false},     {"numerics", runNumerics, false},
    {"tune", runTune, false},         {"inputs", runInputs, false},   {"capture", runCapture, false},
    {"repro", runRepro, false},
};

const JobKind *findJobKind(std::string_view type)
{
    for (const JobKind &k : kJobKinds)
        if (k.type == type)
            return &k;
    return nullptr;
}

} // namespace

Engine::Engine(Sink sink)
    : m_sink(std::move(sink))
{
}

Engine::~Engine()
{
    {
        std::lock_guard lock(m_mutex);
        for (auto &job : m_queue)
            job.stop.request_stop();
        if (m_running)
            m_running->stop.request_stop();
    }
    {
        std::jthread buildEnder;
        {
            std::lock_guard lock(m_mutex);
            buildEnder = std::move(m_buildEnder);
        }
    }
    if (m_worker.joinable()) {
        m_worker.request_stop();
        m_wake.notify_all();
        m_worker.join();
    }
}

void Engine::emit(const Json &event)
{
    m_sink(event);
}

Json Engine::start()
{
    std::unique_lock lock(m_mutex);
    if (!m_started) {
        m_started = true;
        // Before Python and its threads: whatever the jobs start dies with this process.
        startDescendantReaper();
        m_worker = std::jthread([this](std::stop_token stop) { workerLoop(stop); });
    }
    m_idle.wait(lock, [this] { return m_ready; });
    return m_hello;
}

std::optional<Protocol::Error> Engine::startupError() const
{
    std::lock_guard lock(m_mutex);
    return m_startupError;
}

bool Engine::handle(const Protocol::Request &request)
{
    if (request.type == "ping") {
        emit(Protocol::makePong(request.id));
        return true;
    }
    if (request.type == "cancel") {
        const auto t = request.body.find("target");
        if (t == request.body.end() || !t->is_number_integer()) {
            emit(Protocol::makeError(request.id, {"protocol", Protocol::Code::BadRequest, "cancel has no integer \"target\"",
                                                  "send {\"type\":\"cancel\",\"id\":N,\"target\":ID of the job}"}));
            return true;
        }
        const auto target = t->get<std::int64_t>();
        std::optional<Job> removed;
        bool found = false;
        {
            std::lock_guard lock(m_mutex);
            found = m_running && m_running->request.id == target;
            if (found) {
                m_running->stop.request_stop();
                // Python polls the stop token between passes, but a native compiler does not:
                // end it, so the cancel takes effect within about a second (FORMAT.md "cancel").
                if (!m_buildEnder.joinable())
                    m_buildEnder = std::jthread(
                        [this, target](std::stop_token stop) { endBuildsUntilJobEnds(stop, target); });
            } else {
                for (auto it = m_queue.begin(); it != m_queue.end(); ++it) {
                    if (it->request.id == target) {
                        removed = std::move(*it);
                        m_queue.erase(it);
                        found = true;
                        break;
                    }
                }
            }
        }
        if (!found) {
            emit(Protocol::makeError(request.id, {"protocol", Protocol::Code::BadRequest,
                                                  "no queued or running job has id " + std::to_string(target),
                                                  "it may have finished already"}));
            return true;
        }
        if (removed)
            emit(Protocol::makeError(target, Protocol::error("queued", Protocol::Code::Cancelled, Protocol::text("cancel.queued"))));
        return true;
    }
    if (request.type == "read") {
        Json log;
        const Json answer = m_reader.serve(request, &log);
        if (!log.is_null()) { // a refusal: in the engine log for whoever looks after the machine
            std::fprintf(stderr, "aotstudio-engine: %s\n", log.value("message", std::string()).c_str());
            emit(log);
        }
        emit(answer);
        return true;
    }
    if (request.type == "shutdown") {
        std::lock_guard lock(m_mutex);
        for (auto &job : m_queue)
            job.stop.request_stop();
        return false;
    }
    if (findJobKind(request.type)) {
        bool inUse = false;
        {
            std::lock_guard lock(m_mutex);
            inUse = m_running && m_running->request.id == request.id;
            for (const auto &job : m_queue)
                inUse = inUse || job.request.id == request.id;
            if (!inUse)
                m_queue.push_back(Job{request, {}, std::chrono::steady_clock::now(), {}});
        }
        // The job's out folder may be read through `read` from now on (FORMAT.md "read").
        if (!inUse) {
            const auto out = request.body.find("out");
            if (out != request.body.end() && out->is_string())
                m_reader.addFolder(std::filesystem::absolute(out->get<std::string>()));
        }
        if (inUse) {
            // id 0: the error belongs to no job (the active job with this id goes on).
            emit(Protocol::makeError(0, {"protocol", Protocol::Code::BadRequest,
                                         "id " + std::to_string(request.id) + " is already used by an active job",
                                         "give every request its own id"}));
            return true;
        }
        m_wake.notify_all();
        return true;
    }
    // Unknown types are skipped, not fatal (FORMAT.md); say so in the log for whoever debugs it.
    emit(Protocol::makeLog(request.id, "debug", "skipped unknown request type '" + request.type + "'"));
    return true;
}

void Engine::waitIdle()
{
    std::unique_lock lock(m_mutex);
    m_idle.wait(lock, [this] { return m_ready && m_queue.empty() && !m_running; });
}

void Engine::workerLoop(std::stop_token stop)
{
    // The interpreter lives on this thread for the life of the process (it holds the GIL).
    Json info;
    std::optional<Protocol::Error> error;
    try {
        Python::initialize();
        info = Python::engineInfo();
    } catch (const Python::FrontendException &e) {
        error = e.error();
        info = Json{{"torch_version", ""}, {"cuda_version", ""}, {"devices", Json::array({Json{{"type", "cpu"}}})},
                    {"cuda_available", false}};
    }
    // An engine of a target environment (aotstudio-cli --target NAME, tools/target.py) says which.
    if (const char *target = std::getenv("AOTSTUDIO_TARGET"); target && *target)
        info["target"] = target;
    {
        std::lock_guard lock(m_mutex);
        m_hello = Protocol::makeHello(info);
        m_startupError = error;
        m_ready = true;
    }
    m_idle.notify_all();

    while (!stop.stop_requested()) {
        Job job;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, stop, [this] { return !m_queue.empty(); });
            if (stop.stop_requested())
                break;
            job = std::move(m_queue.front());
            m_queue.pop_front();
            m_running = &job;
        }
        runJob(job);
        std::jthread buildEnder;
        {
            std::lock_guard lock(m_mutex);
            m_running = nullptr;
            buildEnder = std::move(m_buildEnder);
        }
        buildEnder = {}; // stop and join it before the next job starts
        m_idle.notify_all();
    }
}

void Engine::endBuildsUntilJobEnds(std::stop_token stop, std::int64_t id)
{
    std::mutex sleepMutex;
    std::condition_variable_any sleeper;
    while (!stop.stop_requested()) {
        for (const EndedProcess &p : endNativeBuilds()) {
            const Protocol::Text t = Protocol::text("cancel.native_build", {{"tool", p.tool}, {"pid", p.pid}});
            emit(Protocol::makeLog(id, "info", t.english, t.msg()));
        }
        std::unique_lock lock(sleepMutex);
        sleeper.wait_for(lock, stop, std::chrono::milliseconds(100), [] { return false; });
    }
}

namespace {

/// Write `j` to `dir/name` through a temporary file and a rename (never a half-written file);
/// remove `dir/stale` if given. Best effort: the protocol events already carried the data.
void writeJobFile(const std::string &dir, const char *name, const Json &j, const char *stale)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (dir.empty() || !fs::is_directory(dir, ec))
        return;
    try {
        writeJsonAtomic(fs::path(dir) / name, j);
    } catch (const JobFailed &) {
        return;
    }
    if (stale)
        fs::remove(fs::path(dir) / stale, ec);
}

} // namespace


void Engine::runJob(Job &job)
{
    job.started = std::chrono::steady_clock::now();
    const auto id = job.request.id;
    if (m_startupError) {
        emit(Protocol::makeError(id, *m_startupError));
        return;
    }
    try {
        const EventFn forward = [this](const Json &e) { emit(e); };
        const JobKind *kind = findJobKind(job.request.type);
        const Json result = kind->run(id, job.request.body, forward, job.stop.get_token());
        // result.json sits next to the package it describes; a failed later run leaves the pair
        // as it was and writes error.json instead.
        if (kind->writesResultFile)
            writeJobFile(result.value("out", std::string()), "result.json", result, "error.json");
        // Every second from the request's arrival to its result (FORMAT.md "result" event): what
        // the studio's time accounting divides among the stages.
        const auto now = std::chrono::steady_clock::now();
        const Json timing{{"wall_seconds", std::chrono::duration<double>(now - job.received).count()},
                          {"queued_seconds", std::chrono::duration<double>(job.started - job.received).count()}};
        emit(Protocol::makeResult(id, result, timing));
    } catch (const JobFailed &e) {
        // The frontend's traceback (or other details) for whoever reads the engine log.
        if (!e.details().empty())
            emit(Protocol::makeLog(id, "debug", e.details()));
        // Not for a bad request: the directory may belong to another job (e.g. "in use").
        const auto &out = job.request.body.value("out", Json());
        if (job.request.type == "compile" && out.is_string() && e.error().code != Protocol::Code::BadRequest) {
            // With the request that failed, so that `repro` can build the same program again.
            Json failed = Protocol::makeError(id, e.error());
            failed["request"] = job.request.body;
            writeJobFile(out.get<std::string>(), "error.json", failed, nullptr);
        }
        emit(Protocol::makeError(id, e.error()));
    } catch (const std::exception &e) {
        emit(Protocol::makeError(id, {"engine", Protocol::Code::Internal, e.what(),
                                      "this is a bug in AOT Studio; please report it with the engine log"}));
    }
}

} // namespace AotStudio::Pipeline
