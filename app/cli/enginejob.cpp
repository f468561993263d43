// SPDX-License-Identifier: GPL-3.0-or-later
#include "enginejob.h"

#include "pipeline/engine.h"
#include "protocol/envelope.h"
#include "protocol/linewriter.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>
#include <unistd.h>
#include <vector>

namespace AotStudio::Cli {

using Protocol::Json;

namespace {

std::atomic<int> g_interrupts{0};

extern "C" void onSigint(int)
{
    // Async-signal-safe: count, and leave at once on the second Ctrl-C.
    if (g_interrupts.fetch_add(1) >= 1) {
        static const char msg[] = "\naotstudio-cli: interrupted\n";
        (void)!::write(STDERR_FILENO, msg, sizeof msg - 1);
        std::_Exit(Protocol::kExitCancelled);
    }
}

/// A nested job's fields as a prefix of its progress and log lines (FORMAT.md: `scheme` of a quantize
/// scheme, `bucket` of an export bucket, `trial` of a tune trial): "[int8-dynamic] ", "bucket b4: ",
/// "trial freezing: ".
std::string jobFields(const Json &event)
{
    std::string prefix;
    if (event.contains("scheme") && event["scheme"].is_string())
        prefix += "[" + event["scheme"].get<std::string>() + "] ";
    if (event.contains("bucket") && event["bucket"].is_string())
        prefix += "bucket " + event["bucket"].get<std::string>() + ": ";
    if (event.contains("trial") && event["trial"].is_string())
        prefix += "trial " + event["trial"].get<std::string>() + ": ";
    return prefix;
}

struct Outcome {
    std::optional<Json> result;
    std::optional<Json> error;
};

/// Human-readable rendering of engine events on stderr; every event also goes, as one JSON line,
/// to OUT/aotstudio.log (with the debug tracebacks that stderr leaves out without -v).
class ProgressPrinter
{
public:
    explicit ProgressPrinter(bool verbose)
        : m_verbose(verbose)
    { }
    ~ProgressPrinter()
    {
        if (m_log)
            std::fclose(m_log);
    }
    void setLogFile(const std::string &path) { m_logPath = path; }
    const std::string &logFile() const { return m_logPath; }
    bool hasLog() const { return m_log != nullptr; }

    void operator()(const Json &event, Outcome &outcome)
    {
        std::lock_guard lock(m_mutex);
        // The log file opens with the first progress event: by then the job holds the output
        // directory's lock, so a second compile refused for a busy directory cannot clobber it.
        const std::string type = event.value("type", "");
        if (!m_log && !m_logPath.empty() && type == "progress") {
            // The previous run's log is kept for the output folder's commit or move aside
            // (outdir.py PREVIOUS_LOG: removed with a success, into previous-*/ after a failure).
            const std::string previous
                = (std::filesystem::path(m_logPath).parent_path() / ".aotstudio.previous.log").string();
            if (std::filesystem::exists(m_logPath))
                std::rename(m_logPath.c_str(), previous.c_str());
            m_log = std::fopen(m_logPath.c_str(), "w");
            for (const auto &line : m_pending)
                std::fprintf(m_log ? m_log : stderr, "%s\n", line.c_str());
            m_pending.clear();
        }
        if (m_log) {
            std::fprintf(m_log, "%s\n", Protocol::toLine(event).c_str());
            std::fflush(m_log);
        } else if (!m_logPath.empty()) {
            m_pending.push_back(Protocol::toLine(event));
        }
        if (type == "progress") {
            const int pct = static_cast<int>(std::lround(100.0 * event.value("fraction", 0.0)));
            std::fprintf(stderr, "[%3d%%] %s%s: %s\n", pct, jobFields(event).c_str(), event.value("stage", "").c_str(),
                         event.value("message", "").c_str());
        } else if (type == "log") {
            const std::string level = event.value("level", "info");
            if (level != "debug" || m_verbose)
                std::fprintf(stderr, "       %s: %s%s\n", level.c_str(), jobFields(event).c_str(),
                             event.value("message", "").c_str());
        } else if (type == "stage_done") {
            std::fprintf(stderr, "       %s took %.2f s\n", event.value("stage", "").c_str(),
                         event.value("seconds", 0.0));
        } else if (type == "result") {
            outcome.result = event.value("result", Json::object());
        } else if (type == "error") {
            outcome.error = event;
        }
    }

private:
    bool m_verbose;
    std::FILE *m_log = nullptr;
    std::string m_logPath;
    std::vector<std::string> m_pending;
    std::mutex m_mutex;
};

} // namespace

std::string errorLine(const Json &e)
{
    std::string line = "aotstudio-cli: " + e.value("stage", std::string("engine")) + " failed ("
        + e.value("code", std::string("internal")) + "): " + e.value("message", std::string());
    const std::string hint = e.value("hint", std::string());
    if (!hint.empty())
        line += ". Hint: " + hint;
    return line;
}

void runEngineJob(const EngineJob &job)
{
    std::FILE *stdoutStream = Protocol::takeStdoutForProtocol();
    Outcome outcome;
    ProgressPrinter printer(job.verbose);
    printer.setLogFile(job.logFile);
    int rc = Protocol::kExitOk;
    {
        Pipeline::Engine engine([&](const Json &event) { printer(event, outcome); });
        engine.start();
        // Ctrl-C cancels cooperatively (between stages); a second Ctrl-C leaves at once.
        struct sigaction sa {
        };
        sa.sa_handler = onSigint;
        sigemptyset(&sa.sa_mask);
        ::sigaction(SIGINT, &sa, nullptr);
        std::atomic<bool> done{false};
        std::jthread watcher([&] {
            bool sent = false;
            while (!done.load()) {
                if (!sent && g_interrupts.load() > 0) {
                    std::fprintf(stderr,
                                 "\naotstudio-cli: cancelling after the current stage (Ctrl-C again to quit now)\n");
                    engine.handle(Protocol::Request{"cancel", 2, Json{{"type", "cancel"}, {"id", 2}, {"target", 1}}});
                    sent = true;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
        });
        engine.handle(Protocol::Request{job.request.value("type", ""), 1, job.request});
        engine.waitIdle();
        done = true;
        if (outcome.result) {
            const std::string why = job.failure ? job.failure(*outcome.result) : std::string();
            if (job.json) {
                const std::string stage = job.request.value("type", "");
                Protocol::printEnvelope(
                    stdoutStream,
                    why.empty() ? Protocol::okEnvelope(*outcome.result)
                                : Protocol::errorEnvelope(Protocol::Error{stage, Protocol::Code::Failed, why, ""},
                                                          *outcome.result));
            } else {
                job.print(stdoutStream, *outcome.result);
            }
            if (!why.empty()) {
                std::fprintf(stderr, "aotstudio-cli: %s: %s\n", job.request.value("type", "").c_str(), why.c_str());
                rc = Protocol::kExitFailed;
            }
        } else {
            Json error = outcome.error.value_or(Protocol::makeError(
                1, {"engine", Protocol::Code::Internal, "the engine ended without a result", "see the log above"}));
            // Ctrl-C reaches the whole process group: a compiler child (g++) that dies of it
            // makes the stage fail before the cooperative cancel is seen. That is a cancel.
            if (g_interrupts.load() > 0 && error.value("code", std::string()) != Protocol::Code::Cancelled) {
                error["message"] = "cancelled with Ctrl-C during stage '" + error.value("stage", std::string()) + "' ("
                    + error.value("message", std::string()) + ")";
                error["code"] = Protocol::Code::Cancelled;
                error["hint"] = "";
            }
            if (printer.hasLog())
                std::fprintf(stderr, "aotstudio-cli: full log: %s\n", printer.logFile().c_str());
            std::fprintf(stderr, "%s\n", errorLine(error).c_str()); // last line: what failed and what to do
            if (job.json)
                Protocol::printEnvelope(stdoutStream, Protocol::errorEnvelope(error));
            rc = error.value("code", std::string()) == Protocol::Code::Cancelled ? Protocol::kExitCancelled
                                                                                 : Protocol::kExitFailed;
        }
        std::fflush(nullptr);
        // Leave without running torch's and Python's static destructors (Python is never finalized).
        std::_Exit(rc);
    }
}

void printVersion(bool verbose, bool json)
{
    std::FILE *stdoutStream = Protocol::takeStdoutForProtocol();
    Outcome outcome;
    ProgressPrinter printer(verbose);
    int rc = Protocol::kExitOk;
    {
        Pipeline::Engine engine([&](const Json &event) { printer(event, outcome); });
        const Json hello = engine.start();
        if (json) {
            // The handshake's facts (FORMAT.md "Handshake"), without the message type.
            Json result = hello;
            result.erase("type");
            result.erase("id");
            if (auto e = engine.startupError()) {
                Protocol::printEnvelope(stdoutStream, Protocol::errorEnvelope(*e, result));
                rc = Protocol::kExitFailed;
            } else {
                Protocol::printEnvelope(stdoutStream, Protocol::okEnvelope(result));
            }
            std::fflush(nullptr);
            std::_Exit(rc);
        }
        std::fprintf(stdoutStream, "aotstudio %s (engine protocol %d)\n", hello.value("engine_version", "").c_str(),
                     hello.value("protocol", 0));
        std::fprintf(stdoutStream, "torch %s, CUDA %s, Python %s\n",
                     hello.value("torch_version", "unavailable").c_str(), hello.value("cuda_version", "none").c_str(),
                     hello.value("python_version", "?").c_str());
        if (hello.contains("target") && hello["target"].is_string())
            std::fprintf(stdoutStream, "target: %s (aotstudio-cli target list)\n",
                         hello["target"].get<std::string>().c_str());
        for (const auto &d : hello.value("devices", Json::array())) {
            std::string line = "device: " + d.value("type", "");
            if (d.contains("index"))
                line += ":" + std::to_string(d.value("index", 0));
            line += "  " + d.value("name", "");
            if (d.contains("capability"))
                line += "  (compute capability " + d.value("capability", "") + ")";
            std::fprintf(stdoutStream, "%s\n", line.c_str());
        }
        if (!hello.value("cuda_available", false))
            std::fprintf(stdoutStream, "device: no CUDA device (CPU only)\n");
        if (auto e = engine.startupError()) {
            std::fprintf(stderr, "%s\n", errorLine(Protocol::makeError(0, *e)).c_str());
            rc = Protocol::kExitFailed;
        }
        std::fflush(nullptr);
        std::_Exit(rc);
    }
}

} // namespace AotStudio::Cli
