// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/job.h"

#include <cmath>
#include <utility>

namespace AotStudio::Pipeline {

using Protocol::Json;

Job::Job(std::int64_t id, EventFn target, std::stop_token stop, std::span<const StageSpan> stages)
    : m_shared(std::make_shared<Shared>())
    , m_id(id)
    , m_stop(std::move(stop))
    , m_stages(stages)
{
    m_shared->target = std::move(target);
}

Job::Job(std::shared_ptr<Shared> shared, std::int64_t id, std::stop_token stop, std::span<const StageSpan> stages, double begin,
         double share, Json fields)
    : m_shared(std::move(shared))
    , m_id(id)
    , m_stop(std::move(stop))
    , m_stages(stages)
    , m_begin(begin)
    , m_share(share)
    , m_fields(std::move(fields))
{
}

void Job::deliver(Json event) const
{
    event["id"] = m_id;
    for (const auto &[k, v] : m_fields.items())
        if (!event.contains(k))
            event[k] = v;
    if (event.value("type", "") == "progress") {
        // Monotonic over the whole tree: never below what any job of it already sent.
        std::lock_guard lock(m_shared->mutex);
        const double f = std::max(m_shared->last, std::clamp(event.value("fraction", 0.0), 0.0, 1.0));
        m_shared->last = f;
        event["fraction"] = f;
        if (m_shared->target)
            m_shared->target(event);
        return;
    }
    if (m_shared->target)
        m_shared->target(event);
}

void Job::sendEvent(Json event) const
{
    if (event.value("type", "") == "progress")
        event["fraction"] = toTop(event.value("fraction", 0.0));
    deliver(std::move(event));
}

void Job::log(std::string_view level, const std::string &message, const Protocol::Json &msg) const
{
    deliver(Protocol::makeLog(m_id, level, message, msg));
}

void Job::log(std::string_view level, const Protocol::Text &message) const
{
    deliver(Protocol::makeLog(m_id, level, message.english, message.msg()));
}

void Job::progress(std::string_view stage, double within, const std::string &message) const
{
    double f = -1;
    for (const auto &s : m_stages)
        if (s.name == stage) {
            f = s.begin + (s.end - s.begin) * std::clamp(within, 0.0, 1.0);
            break;
        }
    // An unknown stage reports where the bar stands (deliver() keeps it from going back).
    deliver(Protocol::makeProgress(m_id, stage, f < 0 ? 0.0 : toTop(f), message));
}

void Job::checkStop(std::string_view stage) const
{
    if (m_stop.stop_requested())
        throw JobFailed(Protocol::error(stage, Protocol::Code::Cancelled,
                                        Protocol::text("cancel.during_stage", {{"stage", stage}})));
}

void Job::part(std::string_view name, double seconds) const
{
    if (std::isfinite(seconds) && seconds >= 0)
        m_state->parts.push_back(Json{{"name", name}, {"seconds", seconds}});
}

void Job::finish(std::string_view name, std::chrono::steady_clock::time_point t0, const Json &artifacts) const
{
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    m_state->seconds[std::string(name)] = s;
    Json parts = std::exchange(m_state->parts, Json::array());
    deliver(Protocol::makeStageDone(m_id, name, s, artifacts, parts));
    progress(name, 1.0, std::string(name) + " done");
}

Job Job::sub(double begin, double share, std::span<const StageSpan> stages, Json fields) const
{
    Json merged = m_fields;
    for (const auto &[k, v] : fields.items())
        merged[k] = v;
    const double b = toTop(begin);
    const double e = toTop(begin + share);
    return Job(m_shared, m_id, m_stop, stages, b, std::max(0.0, e - b), std::move(merged));
}

EventFn Job::sink() const
{
    return [job = *this](const Json &event) { job.sendEvent(event); };
}

double Job::seconds(std::string_view stage) const
{
    const auto it = m_state->seconds.find(stage);
    return it == m_state->seconds.end() ? 0.0 : it->second;
}

double Job::fraction() const
{
    std::lock_guard lock(m_shared->mutex);
    return m_shared->last;
}

} // namespace AotStudio::Pipeline
