// SPDX-License-Identifier: GPL-3.0-or-later
// `aotstudio-cli memory JOB_DIR`: where a compiled package's memory peaks and which nodes cause it,
// from the compile's memory.json (FORMAT.md "Memory plan"), with the measured peak of a profile.json
// beside it. Files only: no engine, no torch import.
#include "command.h"
#include "options.h"

#include "protocol/envelope.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>

namespace AotStudio::Cli {

using Protocol::Json;

namespace {

namespace fs = std::filesystem;

struct MemoryOptions {
    std::string job;
    int top = 10;
    bool json = false;
};

std::optional<Json> readJson(const fs::path &path, std::string *error)
{
    std::ifstream in(path);
    if (!in) {
        *error = "cannot open " + path.string();
        return std::nullopt;
    }
    try {
        return Json::parse(in);
    } catch (const std::exception &e) {
        *error = path.string() + " is not JSON: " + e.what();
        return std::nullopt;
    }
}

std::string bytesText(const Json &value)
{
    if (!value.is_number())
        return "-";
    return humanBytes(value.get<double>());
}

std::string joined(const Json &list, std::size_t most = 6)
{
    std::string out;
    std::size_t n = 0;
    for (const auto &v : list) {
        if (n++ == most) {
            out += ", … (" + std::to_string(list.size()) + ")";
            break;
        }
        out += (out.empty() ? "" : ", ") + (v.is_string() ? v.get<std::string>() : v.dump());
    }
    return out.empty() ? "-" : out;
}

/// The measured peak of the package: profile.json's `aoti` variant (core/profiler/PROFILE.md
/// `memory.peak_bytes`), null when there is no profile or it measured none.
Json measuredPeak(const fs::path &dir)
{
    const fs::path path = dir / "profile.json";
    if (!fs::exists(path))
        return Json();
    std::string error;
    const auto profile = readJson(path, &error);
    if (!profile || !profile->is_object())
        return Json();
    for (const auto &v : profile->value("variants", Json::array())) {
        if (v.value("name", std::string()) != "aoti")
            continue;
        const Json memory = v.value("memory", Json::object());
        if (!memory.is_object() || !memory.contains("peak_bytes") || !memory["peak_bytes"].is_number())
            return Json();
        return Json{{"peak_bytes", memory["peak_bytes"]},
                    {"method", memory.value("method", std::string())},
                    {"source", path.string()}};
    }
    return Json();
}

int fail(const MemoryOptions &o, const char *code, const std::string &message, const std::string &hint)
{
    std::fprintf(stderr, "aotstudio-cli: memory: %s. Hint: %s\n", message.c_str(), hint.c_str());
    if (o.json)
        Protocol::printEnvelope(stdout, Protocol::errorEnvelope(Protocol::Error{"memory", code, message, hint}));
    return Protocol::kExitFailed;
}

int runMemory(const MemoryOptions &o)
{
    const fs::path dir(o.job);
    if (!fs::exists(dir))
        return fail(o, Protocol::Code::NotFound, o.job + " does not exist", "give a compile's --out folder");
    const fs::path path = dir / "memory.json";
    if (!fs::exists(path)) {
        const bool package = fs::exists(dir / "model.pt2") || fs::exists(dir / "model.unverified.pt2");
        return fail(o, Protocol::Code::NotFound,
                    package ? o.job
                            + " has a package but no memory plan (memory.json): it was compiled before plans "
                              "were recorded, or by another tool"
                            : o.job + " is not a compile's folder (no memory.json)",
                    package ? "compile it again with this aotstudio-cli: memory.json is written beside model.pt2"
                            : "give a compile's --out folder");
    }
    std::string error;
    const auto doc = readJson(path, &error);
    if (!doc || !doc->is_object() || doc->value("format", std::string()) != "aotstudio.memory")
        return fail(o, Protocol::Code::BadRequest, doc ? path.string() + " is not a memory plan" : error,
                    "memory.json is written by a compile (FORMAT.md \"Memory plan\")");
    const Json partial = doc->value("partial", Json::array());
    if (!doc->value("available", false))
        return fail(o, Protocol::Code::NotFound, "no memory plan for " + o.job + ": " + joined(partial, 3),
                    "compile it again without the compile cache (--no-cache) to record the plan");

    const Json peaks = doc->value("peak", Json::object());
    const Json planned = peaks.value("planned", Json::object());
    const Json predicted = peaks.value("predicted", Json::object());
    const Json measured = measuredPeak(dir);
    Json comparison;
    if (measured.is_object() && peaks.value("planned_bytes", Json()).is_number()) {
        const double m = measured["peak_bytes"].get<double>();
        const double p = peaks["planned_bytes"].get<double>(), e = peaks.value("predicted_bytes", 0.0);
        comparison = {{"planned_over_measured", m > 0 ? Json(p / m) : Json()},
                      {"predicted_over_measured", m > 0 ? Json(e / m) : Json()},
                      {"measured_minus_planned_bytes", m - p}};
    }
    Json top = Json::array();
    for (const auto &b : planned.value("live_buffers", Json::array()))
        if (static_cast<int>(top.size()) < o.top)
            top.push_back(b);
    const Json steps = doc->value("steps", Json::array());

    if (o.json) {
        Json result = {{"job", dir.string()},
                       {"memory_json", path.string()},
                       {"complete", doc->value("complete", false)},
                       {"partial", partial},
                       {"device", doc->value("device", Json())},
                       {"steps", steps.size()},
                       {"buffers", doc->value("buffers", Json::array()).size()},
                       {"constants_bytes", doc->value("constants_bytes", Json())},
                       {"predicted_peak_bytes", peaks.value("predicted_bytes", Json())},
                       {"planned_peak_bytes", peaks.value("planned_bytes", Json())},
                       {"predicted_peak", predicted},
                       {"planned_peak", planned},
                       {"measured", measured},
                       {"comparison", comparison},
                       {"top_buffers", top}};
        Protocol::printEnvelope(stdout, Protocol::okEnvelope(result));
        return Protocol::kExitOk;
    }

    std::printf("memory plan of %s (%s): %zu steps, %zu buffers; weights and constants %s (not in the peaks)\n",
                o.job.c_str(), doc->value("device", std::string("?")).c_str(), steps.size(),
                doc->value("buffers", Json::array()).size(), bytesText(doc->value("constants_bytes", Json())).c_str());
    if (!doc->value("complete", false))
        std::printf("PARTIAL: %s\n", joined(partial, 5).c_str());
    auto peakLine = [&](const char *what, const Json &p) {
        if (!p.is_object() || p.empty()) {
            std::printf("%-30s -\n", what);
            return;
        }
        std::printf("%-30s %-10s at step %d %s (%s)\n", what, bytesText(p.value("bytes", Json())).c_str(),
                    p.value("step", -1), p.value("scheduler_node", std::string()).c_str(),
                    p.value("kernel", Json()).is_string() ? p["kernel"].get<std::string>().c_str() : "no kernel");
    };
    peakLine("predicted peak (Inductor):", predicted);
    peakLine("planned peak (generated code):", planned);
    if (measured.is_object()) {
        std::printf("%-30s %-10s (%s, profile.json)\n", "measured peak:", bytesText(measured["peak_bytes"]).c_str(),
                    measured.value("method", std::string()).c_str());
        if (comparison.is_object() && comparison["planned_over_measured"].is_number())
            std::printf("%-30s planned/measured %.2f, predicted/measured %.2f\n", "",
                        comparison["planned_over_measured"].get<double>(),
                        comparison["predicted_over_measured"].get<double>());
    } else {
        std::printf("%-30s - (no profile.json with a memory figure in %s; run `aotstudio-cli profile`)\n",
                    "measured peak:", o.job.c_str());
    }
    std::printf("\nbuffers live at the planned peak (largest first):\n");
    std::printf("  %-12s %-10s %-12s %s\n", "buffer", "bytes", "kind", "nodes");
    for (const auto &b : top)
        std::printf("  %-12s %-10s %-12s %s\n", b.value("name", std::string()).c_str(),
                    bytesText(b.value("bytes", Json())).c_str(), b.value("kind", std::string()).c_str(),
                    joined(b.value("nodes", Json::array())).c_str());
    std::printf("nodes responsible: %s\n", joined(planned.value("live_nodes", Json::array()), 12).c_str());
    return Protocol::kExitOk;
}

} // namespace

Command memoryCommand()
{
    auto o = std::make_shared<MemoryOptions>();
    return {"memory",
            "A compiled package's memory plan (memory.json): predicted, planned and measured peak, and the "
            "buffers and nodes live at the peak",
            [o](CLI::App &cmd) {
                cmd.add_option("job", o->job,
                               "A compile's --out folder (memory.json; profile.json beside it adds the "
                               "measured peak)")
                    ->required();
                cmd.add_option("--top", o->top, "How many buffers at the peak to list")
                    ->check(CLI::Range(1, 100000))
                    ->capture_default_str();
                cmd.add_flag("--json", o->json, "Print the JSON envelope: {\"ok\": true, \"result\": SUMMARY}");
                cmd.footer("Exit status: 0 shown, 1 no memory plan in the folder (not_found) or not a plan "
                           "(bad_request), 2 bad command line.");
            },
            [] { return std::string(); },
            [o](const Globals &) { return runMemory(*o); },
            [o] { return o->json; }};
}

} // namespace AotStudio::Cli
