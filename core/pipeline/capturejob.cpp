// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/capturejob.h"

#include "pipeline/jobutil.h"
#include "python/frontend.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace AotStudio::Pipeline {

using Protocol::Json;
namespace fs = std::filesystem;

namespace {

constexpr StageSpan kCaptureStages[] = {{"record", 0.00, 0.90}, {"propose", 0.90, 1.00}};

/// Bytes of the script's output kept in out/script.log.
constexpr std::size_t kScriptLogBytes = 64 * 1024;

JobFailed badRequest(const std::string &message, const std::string &hint)
{
    return JobFailed({"record", Protocol::Code::BadRequest, message, hint});
}

/// `request[key]` as a positive number of `T`, or `fallback` when absent.
template<typename T>
std::optional<T> positive(const Json &request, const char *key)
{
    const auto it = request.find(key);
    if (it == request.end() || it->is_null())
        return std::nullopt;
    if (!it->is_number() || it->get<double>() <= 0 || (std::is_integral_v<T> && !it->is_number_integer()))
        throw badRequest(std::string("'") + key + "' must be a positive "
                             + (std::is_integral_v<T> ? "integer" : "number"),
                         "send a JSON number, or leave it out");
    return it->get<T>();
}

/// Counts the lines of a file that grows (calls.jsonl, written by the child), reading only what
/// was added since the last call.
class LineCounter
{
public:
    explicit LineCounter(fs::path path)
        : m_path(std::move(path))
    { }
    std::int64_t count()
    {
        std::ifstream in(m_path, std::ios::binary);
        if (!in)
            return m_lines;
        in.seekg(static_cast<std::streamoff>(m_offset));
        char buf[65536];
        while (in.read(buf, sizeof buf) || in.gcount() > 0) {
            const auto got = static_cast<std::size_t>(in.gcount());
            m_offset += got;
            m_lines += std::count(buf, buf + got, '\n');
        }
        return m_lines;
    }

private:
    fs::path m_path;
    std::size_t m_offset = 0;
    std::int64_t m_lines = 0;
};

} // namespace

Json runCapture(std::int64_t id, const Json &request, const EventFn &emit, std::stop_token stop)
{
    const Job ctx(id, emit, stop, kCaptureStages);
    const std::string script = request.value("script", std::string());
    if (script.empty())
        throw badRequest("capture needs a script",
                         "name the Python script that calls the model (its main module runs)");
    std::error_code ec;
    if (!fs::is_regular_file(script, ec))
        throw badRequest("no script at '" + script + "'", "give the path of a Python file on the engine's machine");
    const std::string module = request.value("module", std::string());
    const std::string moduleClass = request.value("module_class", std::string());
    if (module.empty() == moduleClass.empty())
        throw badRequest("capture needs exactly one of 'module' (an attribute path from a global of the script, "
                         "e.g. model.encoder) and 'module_class' (e.g. mypkg.model.Encoder)",
                         "name the module whose calls to record");
    const std::string out = request.value("out", std::string());
    if (out.empty())
        throw badRequest("capture needs an 'out' folder", "give a folder for the record");
    const auto calls = positive<std::int64_t>(request, "calls");
    const auto keep = positive<std::int64_t>(request, "keep_inputs");
    const auto maxBytes = positive<std::int64_t>(request, "max_bytes");
    const auto maxSeconds = positive<double>(request, "max_seconds");
    const double waste = positive<double>(request, "waste").value_or(0.25);
    const std::int64_t maxBuckets = positive<std::int64_t>(request, "max_buckets").value_or(4);
    std::vector<std::string> args;
    if (const auto a = request.find("args"); a != request.end() && !a->is_null()) {
        if (!a->is_array())
            throw badRequest("'args' must be a list of strings",
                             "send the script's arguments as [\"--flag\", \"value\"]");
        for (const Json &v : *a) {
            if (!v.is_string())
                throw badRequest("'args' must be a list of strings", "send the script's arguments as strings");
            args.push_back(v.get<std::string>());
        }
    }
    fs::create_directories(out, ec);
    if (ec)
        throw JobFailed({"record", Protocol::Code::BadRequest, "cannot make the folder '" + out + "': " + ec.message(),
                         "choose a writable folder"});

    const Json summary = ctx.stage("record", "running the script and recording the module's calls", [&](Json &a) {
        std::vector<std::string> argv{
            Python::interpreterPath(),     "-m",    "aotstudio_frontend.capture", "record", "--script",
            fs::absolute(script).string(), "--out", fs::absolute(out).string()};
        argv.insert(argv.end(),
                    {module.empty() ? "--module-class" : "--module", module.empty() ? moduleClass : module});
        if (calls)
            argv.insert(argv.end(), {"--calls", std::to_string(*calls)});
        if (keep)
            argv.insert(argv.end(), {"--keep-inputs", std::to_string(*keep)});
        if (maxBytes)
            argv.insert(argv.end(), {"--max-bytes", std::to_string(*maxBytes)});
        if (maxSeconds)
            argv.insert(argv.end(), {"--max-seconds", std::to_string(*maxSeconds)});
        argv.push_back("--");
        argv.insert(argv.end(), args.begin(), args.end());
        LineCounter counter(fs::path(out) / "calls.jsonl");
        const auto t0 = std::chrono::steady_clock::now();
        Process::ProcessOptions options;
        options.stop = ctx.stopToken();
        options.stdoutTail = kScriptLogBytes;
        options.onTick = [&] {
            const std::int64_t n = counter.count();
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            // The bar moves against the run's own bound when it has one (calls, seconds).
            const double within = calls ? double(n) / double(*calls) : maxSeconds ? s / *maxSeconds : 0.0;
            ctx.progress("record", within, std::to_string(n) + " calls recorded");
        };
        const Process::ProcessResult p
            = Process::runProcess(argv, {"PYTHONPATH=" + Python::frontendDirectory()}, options);
        {
            std::ofstream log(fs::path(out) / "script.log", std::ios::binary | std::ios::trunc);
            log << p.out;
        }
        Json s = readJsonFile(fs::path(out) / "summary.json");
        if (!s.is_object())
            throw JobFailed({"record", Protocol::Code::CaptureFailed,
                             "the capture process ended without a summary (" + p.describe()
                                 + (p.err.empty() ? "" : ": " + p.err) + ")",
                             "run the script alone with the engine's Python to see what fails: " + commandLine(argv)});
        const std::int64_t recorded = s.value("calls", std::int64_t(0));
        ctx.log("info",
                "recorded " + std::to_string(recorded) + " calls, " + std::to_string(s.value("signatures", 0))
                    + " distinct input signatures (" + s.value("outcome", std::string("?")) + ")");
        if (p.stopped)
            ctx.checkStop("record"); // the record so far stays in out/
        if (recorded == 0 || s.value("outcome", std::string()) == "several_instances")
            throw JobFailed({"record", Protocol::Code::CaptureFailed,
                             s.value("message", std::string("no call was recorded")),
                             "see out/summary.json and the script's output in out/script.log"});
        if (const std::string outcome = s.value("outcome", std::string()); outcome != "finished")
            ctx.log("warning", s.value("message", outcome) + " (the calls recorded before it are kept and used)");
        a["calls"] = (fs::path(out) / "calls.jsonl").string();
        a["summary"] = (fs::path(out) / "summary.json").string();
        return s;
    });
    const Json proposal = ctx.stage("propose", "proposing the dynamic shapes and buckets", [&](Json &a) {
        Json r = Python::callFunction("capture_propose", "propose",
                                      Json::array({fs::absolute(out).string(), waste, maxBuckets}), "propose");
        a["proposal"] = (fs::path(out) / "proposal.json").string();
        return r;
    });
    return Json{{"out", out}, {"summary", summary}, {"proposal", proposal}};
}

} // namespace AotStudio::Pipeline
