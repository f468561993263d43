// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/fanout.h"
#include "pipeline/jobutil.h"

#include "python/frontend.h"

#include <unistd.h>

#include <chrono>
#include <set>

namespace AotStudio::Pipeline {

using Protocol::Json;
namespace fs = std::filesystem;

namespace {

/// A task's part of the bar: the mean of every task's progress (they run at once).
constexpr StageSpan kRemoteStages[] = {{"remote", 0.0, 1.0}};

/// How long one poll of the tasks waits for something to happen; a cancel is seen within it.
constexpr double kPollSeconds = 0.25;

Json call(const char *function, const Json &args, const char *stage = "load")
{
    return Python::callFunction("fanout", function, args, stage);
}

Protocol::Error errorFrom(const Json &e)
{
    return {e.value("stage", std::string("engine")), e.value("code", std::string(Protocol::Code::Internal)),
            e.value("message", std::string("the Ray task failed")), e.value("hint", std::string())};
}

std::string hostName()
{
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0)
        return "";
    return buf;
}

} // namespace

std::string rayAddress(const Json &request)
{
    if (!request.contains("ray") || request["ray"].is_null())
        return {};
    if (!request["ray"].is_string())
        throw JobFailed(
            {"load", Protocol::Code::BadRequest, "'ray' must be a Ray head address HOST:PORT", "e.g. 10.0.0.5:6379"});
    return request["ray"].get<std::string>();
}

std::string absoluteModelSpec(const std::string &spec)
{
    const auto colon = spec.rfind(':');
    const std::string file = colon == std::string::npos ? spec : spec.substr(0, colon);
    std::error_code ec;
    if (file.empty() || !fs::path(file).is_relative() || !fs::is_regular_file(file, ec))
        return spec;
    return fs::absolute(file, ec).lexically_normal().string() + (colon == std::string::npos ? "" : spec.substr(colon));
}

Json localOrigin(const std::string &device)
{
    std::string name = device;
    try {
        for (const auto &d : Python::engineInfo().value("devices", Json::array())) {
            if (d.value("type", "") == device) {
                name = d.value("name", device);
                break;
            }
        }
    } catch (const Python::FrontendException &) { }
    return Json{{"host", hostName()}, {"device_name", name}, {"node", nullptr}};
}

bool severalHosts(const Json &rows)
{
    std::set<std::string> hosts;
    for (const auto &r : rows)
        if (r.is_object() && r.contains("host") && r["host"].is_string())
            hosts.insert(r["host"].get<std::string>());
    return hosts.size() > 1;
}

void labelOrigin(Json &row, const Json &origin)
{
    for (const char *key : {"host", "device_name", "node"})
        row[key] = origin.value(key, Json());
}

std::vector<SubOutcome> runOnRay(const Job &parent, double begin, double share, const std::string &address,
                                 const std::vector<SubRequest> &subs, const std::string &device, bool *cancelledOut)
{
    std::vector<SubOutcome> outcomes(subs.size());
    if (subs.empty())
        return outcomes;
    std::error_code ec;
    const fs::path engine = selfDir() / "aotstudio-engine";
    if (selfDir().empty() || !fs::exists(engine, ec))
        throw JobFailed({"load", Protocol::Code::RayUnavailable,
                         "--ray runs each trial in aotstudio-engine on a worker node, and there is none next to this "
                         "program ("
                             + engine.string() + ")",
                         "install aotstudio-engine beside aotstudio-cli, at the same path on every node"});
    Json list = Json::array();
    for (const auto &s : subs) {
        Json send = Json::array();
        for (const auto &p : s.send)
            send.push_back(p.string());
        list.push_back(
            Json{{"request", s.request}, {"collect", s.collect}, {"target", s.target.string()}, {"send", send}});
    }
    std::string torch;
    torch = Python::engineInfo().value("torch_version", std::string());
    parent.log("info", "joining the Ray cluster at " + address + " (" + std::to_string(subs.size()) + " tasks)");
    const auto t0 = std::chrono::steady_clock::now();
    const int handle = call("start", Json::array({address, engine.string(), torch, list, device})).get<int>();
    struct Close {
        int handle;
        ~Close()
        {
            try {
                Python::callFunction("fanout", "close", Json::array({handle}));
            } catch (...) { }
        }
    } close{handle};

    std::vector<Job> jobs;
    for (const auto &s : subs)
        jobs.push_back(parent.sub(begin, share, kRemoteStages, s.fields));
    std::vector<double> fractions(subs.size(), 0.0);
    const auto mean = [&] {
        double sum = 0;
        for (double f : fractions)
            sum += f;
        return sum / static_cast<double>(fractions.size());
    };
    std::size_t left = subs.size();
    bool cancelled = false;
    while (left > 0) {
        if (!cancelled && parent.stopRequested()) {
            parent.log("info", "cancelling the Ray tasks");
            call("cancel", Json::array({handle}));
            cancelled = true;
        }
        const Json answers = call("poll", Json::array({handle, kPollSeconds}), "engine");
        for (const auto &a : answers) {
            const std::size_t i = a.value("index", std::size_t{0});
            if (i >= subs.size())
                continue;
            const Job &job = jobs[i];
            if (a.contains("event")) {
                Json ev = a["event"];
                const std::string type = ev.value("type", "");
                if (type == "fanout_hello") {
                    job.log("info",
                            "on Ray node " + ev.value("node", std::string()).substr(0, 12) + " of host "
                                + ev.value("host", std::string()) + " (" + ev.value("device_name", std::string())
                                + ")");
                } else if (type == "progress") {
                    fractions[i] = std::clamp(ev.value("fraction", 0.0), 0.0, 1.0);
                    ev["fraction"] = mean();
                    job.sendEvent(std::move(ev));
                } else if (type == "log") {
                    job.sendEvent(std::move(ev));
                } else if (type == "stage_done") {
                    ev["artifacts"] = Json::object(); // worker paths: the files land with the task's result
                    job.sendEvent(std::move(ev));
                }
                continue;
            }
            --left;
            fractions[i] = 1.0;
            SubOutcome &o = outcomes[i];
            o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            o.origin = a.value("origin", Json::object());
            if (a.contains("result") && !a["result"].is_null())
                o.result = a["result"];
            else
                o.error = errorFrom(a.value("error", Json::object()));
            if (o.error && o.error->code == Protocol::Code::RayUnavailable) {
                // A node without the engine or with another torch: nothing of this job can be
                // trusted to run alike; stop everything rather than mix.
                if (!cancelled)
                    call("cancel", Json::array({handle}));
                throw JobFailed(*o.error);
            }
        }
    }
    if (cancelled && cancelledOut)
        *cancelledOut = true;
    else if (cancelled)
        throw JobFailed({"remote", Protocol::Code::Cancelled, "cancelled while the Ray tasks ran", ""});
    return outcomes;
}

} // namespace AotStudio::Pipeline
