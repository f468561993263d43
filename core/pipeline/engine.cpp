// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/engine.h"

#include "pipeline/compilejob.h"
#include "python/frontend.h"

#include <optional>

namespace AotStudio::Pipeline {

using Protocol::Json;

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
        const auto target = request.body.value("target", std::int64_t(0));
        std::optional<Job> removed;
        {
            std::lock_guard lock(m_mutex);
            if (m_running && m_running->request.id == target) {
                m_running->stop.request_stop();
            } else {
                for (auto it = m_queue.begin(); it != m_queue.end(); ++it) {
                    if (it->request.id == target) {
                        removed = std::move(*it);
                        m_queue.erase(it);
                        break;
                    }
                }
            }
        }
        if (removed)
            emit(Protocol::makeError(target, {"queued", Protocol::Code::Cancelled, "cancelled before it started", ""}));
        return true;
    }
    if (request.type == "shutdown") {
        std::lock_guard lock(m_mutex);
        for (auto &job : m_queue)
            job.stop.request_stop();
        return false;
    }
    if (request.type == "compile") {
        {
            std::lock_guard lock(m_mutex);
            m_queue.push_back(Job{request, {}});
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
        {
            std::lock_guard lock(m_mutex);
            m_running = nullptr;
        }
        m_idle.notify_all();
    }
}

void Engine::runJob(Job &job)
{
    const auto id = job.request.id;
    if (m_startupError) {
        emit(Protocol::makeError(id, *m_startupError));
        return;
    }
    try {
        const Json result = runCompile(id, job.request.body, [this](const Json &e) { emit(e); }, job.stop.get_token());
        emit(Protocol::makeResult(id, result));
    } catch (const JobFailed &e) {
        emit(Protocol::makeError(id, e.error()));
    } catch (const std::exception &e) {
        emit(Protocol::makeError(id, {"engine", Protocol::Code::Internal, e.what(),
                                      "this is a bug in AOT Studio; please report it with the engine log"}));
    }
}

} // namespace AotStudio::Pipeline
