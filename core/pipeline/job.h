// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one job context every pipeline job runs in (compile, profile, and the jobs built on them):
// its id, where its events go, its stop token, its stages with their share of the progress bar,
// and nested jobs that fill part of a parent's bar (FORMAT.md "progress").

#include "protocol/messages.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <type_traits>

namespace AotStudio::Pipeline {

/// Where a job's events go (progress, log, stage_done); result and error are returned/thrown.
using EventFn = std::function<void(const Protocol::Json &event)>;

/// Thrown when a job ends early (core/protocol/messages.h); Python::FrontendException is one.
using JobFailed = Protocol::JobFailed;

/// A stage of a job and the part of the job's progress bar it covers, [begin, end] in [0, 1].
/// Each job keeps its stages in a `constexpr StageSpan kStages[]` table, in order.
struct StageSpan {
    std::string_view name;
    double begin;
    double end;
};

/**
 * A running job. Cheap to copy (the progress high-water mark is shared by a job and its sub-jobs).
 *
 * Progress: progress(stage, within, message) maps `within` (0..1 of the stage) through the
 * stage's span, then through the job's own place in its parent ([begin, begin + share] of the
 * top-level bar), and never goes back: every job of one tree reports the highest fraction so far
 * (a sub-job that ends early, a stage skipped), so progress events are monotonic in [0, 1].
 * Fields: every event a job emits carries its fields (a quantize scheme's `scheme`, an export
 * bucket's `bucket`), so readers get structure instead of a prefix in the message.
 */
class Job {
public:
    /// A top-level job `id` whose events go to `target`, cancelled through `stop`, with `stages`
    /// (a static table: the span must outlive the job).
    Job(std::int64_t id, EventFn target, std::stop_token stop, std::span<const StageSpan> stages);

    std::int64_t id() const { return m_id; }
    const std::stop_token &stopToken() const { return m_stop; }
    bool stopRequested() const { return m_stop.stop_requested(); }

    /// Send `event` with this job's id and fields added (named so because Qt defines `emit`).
    void sendEvent(Protocol::Json event) const;
    /// A log event ("debug", "info", "warning", "error"); `msg`: the message by id, or null.
    void log(std::string_view level, const std::string &message, const Protocol::Json &msg = nullptr) const;
    /// A log event of a catalog text (FORMAT.md "Message ids").
    void log(std::string_view level, const Protocol::Text &message) const;
    /// Progress at `within` (clamped to 0..1) of stage `stage`; an unknown stage reports where the
    /// bar stands. The fraction sent is max(computed, the highest sent so far in this job tree).
    void progress(std::string_view stage, double within, const std::string &message) const;
    /// Throws JobFailed(cancelled) naming `stage` when a stop was requested.
    void checkStop(std::string_view stage) const;

    /// Run `body(artifacts)` as stage `name`: checkStop, progress at the stage's start with
    /// `message`, then a stage_done event (seconds, the artifacts the body filled) and progress at
    /// the stage's end. Returns what `body` returns. The stage's seconds are kept (seconds()); a
    /// JobFailed from `body` leaves its code in failedCode() and propagates.
    template<typename F>
    auto stage(std::string_view name, const std::string &message, F &&body) const
    {
        checkStop(name);
        m_state->parts = Protocol::Json::array();
        progress(name, 0.0, message);
        const auto t0 = std::chrono::steady_clock::now();
        Protocol::Json artifacts = Protocol::Json::object();
        try {
            if constexpr (std::is_void_v<std::invoke_result_t<F, Protocol::Json &>>) {
                body(artifacts);
                finish(name, t0, artifacts);
            } else {
                auto r = body(artifacts);
                finish(name, t0, artifacts);
                return r;
            }
        } catch (const JobFailed &e) {
            m_state->failedCode = e.error().code;
            throw;
        }
    }

    /// A nested job with the same id, sink and stop token whose `stages` fill [begin, begin +
    /// share] of this job's bar (fractions of this job), its events carrying `fields` besides
    /// this job's.
    Job sub(double begin, double share, std::span<const StageSpan> stages, Protocol::Json fields = Protocol::Json::object()) const;
    /// An EventFn that sends through this job (id, fields and, for progress events, this job's
    /// share of the bar applied to their `fraction`): for code that takes a plain EventFn.
    EventFn sink() const;

    /// A measured part of the stage running now (`seconds` of wall time inside it, e.g. the native
    /// C++ build inside `compile`): sent in that stage's stage_done as `parts` (FORMAT.md), so a
    /// reader can account for the stage's time. Call from inside the stage's body.
    void part(std::string_view name, double seconds) const;

    /// Seconds stage() measured for `stage` in this job (0 when it did not run).
    double seconds(std::string_view stage) const;
    /// The code of the last JobFailed a stage() of this job threw ("" when none).
    std::string failedCode() const { return m_state->failedCode; }
    /// The highest fraction sent so far by this job tree.
    double fraction() const;

private:
    struct Shared {
        EventFn target;
        std::mutex mutex;
        double last = 0;
    };
    struct Local {
        std::map<std::string, double, std::less<>> seconds;
        std::string failedCode;
        Protocol::Json parts = Protocol::Json::array(); ///< of the stage running now (part())
    };
    Job(std::shared_ptr<Shared> shared, std::int64_t id, std::stop_token stop, std::span<const StageSpan> stages, double begin,
        double share, Protocol::Json fields);
    void finish(std::string_view name, std::chrono::steady_clock::time_point t0, const Protocol::Json &artifacts) const;
    double toTop(double fraction) const { return m_begin + m_share * std::clamp(fraction, 0.0, 1.0); }
    void deliver(Protocol::Json event) const;

    std::shared_ptr<Shared> m_shared;
    std::shared_ptr<Local> m_state = std::make_shared<Local>();
    std::int64_t m_id;
    std::stop_token m_stop;
    std::span<const StageSpan> m_stages;
    double m_begin = 0;
    double m_share = 1;
    Protocol::Json m_fields = Protocol::Json::object();
};

} // namespace AotStudio::Pipeline
