// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-cli: the headless twin of the studio for terminals and CI. Runs the engine library in
// process; progress goes to stderr, results to stdout (one JSON object with --json).
#include "graph/graphdiff.h"
#include "pipeline/engine.h"
#include "protocol/linewriter.h"

#include <CLI/CLI.hpp>

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
#include <vector>
#include <pthread.h>
#include <unistd.h>

using namespace AotStudio;
using Protocol::Json;

namespace {

constexpr int kExitFailed = 1; // the job ran and failed (error event): export, compile, mismatch...
constexpr int kExitUsage = 2;  // the command line was wrong
constexpr int kExitInterrupted = 130; // cancelled with Ctrl-C (128 + SIGINT), as shells expect

std::atomic<int> g_interrupts{0};

extern "C" void onSigint(int)
{
    // Async-signal-safe: count, and leave at once on the second Ctrl-C.
    if (g_interrupts.fetch_add(1) >= 1) {
        static const char msg[] = "\naotstudio-cli: interrupted\n";
        (void)!::write(STDERR_FILENO, msg, sizeof msg - 1);
        std::_Exit(kExitInterrupted);
    }
}

struct Outcome {
    std::optional<Json> result;
    std::optional<Json> error;
};

/// Human-readable rendering of engine events on stderr; every event also goes, as one JSON line,
/// to OUT/aotstudio.log (with the debug tracebacks that stderr leaves out without -v).
class ProgressPrinter {
public:
    explicit ProgressPrinter(bool verbose) : m_verbose(verbose) {}
    ~ProgressPrinter()
    {
        if (m_log)
            std::fclose(m_log);
    }
    void setLogFile(const std::string &path) { m_logPath = path; }
    bool hasLog() const { return m_log != nullptr; }

    void operator()(const Json &event, Outcome &outcome)
    {
        std::lock_guard lock(m_mutex);
        // The log file opens with the first progress event: by then the job holds the output
        // directory's lock, so a second compile refused for a busy directory cannot clobber it.
        const std::string type0 = event.value("type", "");
        if (!m_log && !m_logPath.empty() && type0 == "progress") {
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
        const std::string type = event.value("type", "");
        if (type == "progress") {
            const int pct = static_cast<int>(std::lround(100.0 * event.value("fraction", 0.0)));
            std::fprintf(stderr, "[%3d%%] %s: %s\n", pct, event.value("stage", "").c_str(), event.value("message", "").c_str());
        } else if (type == "log") {
            const std::string level = event.value("level", "info");
            if (level != "debug" || m_verbose)
                std::fprintf(stderr, "       %s: %s\n", level.c_str(), event.value("message", "").c_str());
        } else if (type == "stage_done") {
            std::fprintf(stderr, "       %s took %.2f s\n", event.value("stage", "").c_str(), event.value("seconds", 0.0));
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

std::string errorLine(const Json &e)
{
    std::string line = "aotstudio-cli: " + e.value("stage", std::string("engine")) + " failed (" +
                       e.value("code", std::string("internal")) + "): " + e.value("message", std::string());
    const std::string hint = e.value("hint", std::string());
    if (!hint.empty())
        line += ". Hint: " + hint;
    return line;
}

void printHuman(std::FILE *out, const Json &r)
{
    std::fprintf(out, "package:        %s\n", r.value("package", "").c_str());
    std::fprintf(out, "device:         %s (torch %s)\n", r.value("device", "").c_str(), r.value("torch_version", "").c_str());
    std::fprintf(out, "max abs error:  %.3g (tolerance %.3g)\n", r.value("max_abs_error", 0.0), r.value("tolerance", 0.0));
    std::fprintf(out, "eager median:   %.4f ms\n", r.value("eager_ms", 0.0));
    std::fprintf(out, "AOTI median:    %.4f ms  (%.2fx)\n", r.value("compiled_ms", 0.0), r.value("speedup", 0.0));
    std::fprintf(out, "runs:           eager %d, compiled %d (after %d warm-up each)\n",
                 r.value("/eager/runs"_json_pointer, 0), r.value("/compiled/runs"_json_pointer, 0),
                 r.value("/eager/warmup"_json_pointer, 0));
    const Json kernels = r.value("kernels", Json::object());
    std::fprintf(out, "graph stages:   %zu snapshots in %s/snapshots, %d kernels in %s\n", r.value("stages", Json::array()).size(),
                 r.value("out", "").c_str(), kernels.value("count", 0),
                 kernels.value("path", Json("")).is_string() ? kernels.value("path", "").c_str() : "-");
    std::fprintf(out, "result:         %s/result.json\n", r.value("out", "").c_str());
    for (const auto &w : r.value("warnings", Json::array()))
        std::fprintf(out, "warning:        %s\n", w.is_string() ? w.get<std::string>().c_str() : w.dump().c_str());
}

} // namespace

int main(int argc, char **argv)
{
    // A parent may hand us SIGINT blocked (signal masks are inherited); unblock it before any
    // thread starts, so Ctrl-C and `kill -INT` reach our handler.
    sigset_t interrupt;
    sigemptyset(&interrupt);
    sigaddset(&interrupt, SIGINT);
    ::pthread_sigmask(SIG_UNBLOCK, &interrupt, nullptr);

    CLI::App app{"AOT Studio command line: export, AOTInductor-compile, run and measure PyTorch models.\n"
                 "Runs the same engine as the studio, in this process (no GUI, no display needed).",
                 "aotstudio-cli"};
    app.require_subcommand(0, 1);
    app.footer("Exit status: 0 success, 1 the job failed (export, compile, accuracy, device), 2 bad command line,\n"
               "130 cancelled with Ctrl-C. A compile writes OUT/model.pt2, OUT/result.json (or OUT/error.json),\n"
               "OUT/snapshots/*.json, OUT/kernels.json, OUT/trace/ and OUT/aotstudio.log.\n"
               "Examples:\n"
               "  aotstudio-cli compile --model sample:mlp --device cpu --out /tmp/mlp --json\n"
               "  aotstudio-cli compile --model sample:minilm --out /tmp/minilm\n"
               "  aotstudio-cli compile --model ./my_model.py:make --device cuda --out build/my\n"
               "  aotstudio-cli diff /tmp/mlp/snapshots/002_decompose.json /tmp/mlp/snapshots/004_post_grad.json\n"
               "  aotstudio-cli --version");
    bool showVersion = false;
    app.add_flag("--version", showVersion, "Print studio, torch and CUDA versions and the devices found");
    bool verbose = false;
    app.add_flag("-v,--verbose", verbose, "Also print debug logs (Python tracebacks) to stderr");

    auto *compile = app.add_subcommand("compile", "Export a model, compile it with AOTInductor into a .pt2, load it "
                                                  "from C++ with LibTorch, check it against eager and time both");
    std::string model, device = "cpu", out = "aotstudio-out";
    int runs = 200, warmup = 5, minRuns = 20;
    double maxSeconds = 5;
    std::optional<double> toleranceOpt;
    bool json = false;
    compile->add_option("-m,--model", model, "Model: sample:NAME (mlp, convnet, resnet18, espcn, transformer, unet, "
                                             "minilm), path/to/file.py:factory (returns (model, example_inputs)), or a "
                                             "torch.export.save .pt2")
        ->required()
        ->check([](const std::string &v) { return v.empty() ? std::string("must not be empty") : std::string(); });
    compile->add_flag("-v,--verbose", verbose, "Also print debug logs (Python tracebacks) to stderr");
    compile->add_option("-d,--device", device, "Device to compile for and run on: cpu or cuda")->capture_default_str();
    compile->add_option("-o,--out", out, "Output directory (created; the package is OUT/model.pt2)")->capture_default_str();
    compile->add_option("--runs", runs, "Most timed runs per variant")->capture_default_str()->check(CLI::Range(1, 1000000));
    compile->add_option("--min-runs", minRuns, "Fewest timed runs per variant (taken even past --max-seconds)")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000000));
    compile->add_option("--warmup", warmup, "Untimed warm-up runs per variant")->capture_default_str()->check(CLI::Range(0, 100000));
    compile->add_option("--max-seconds", maxSeconds, "Stop timing a variant after this many seconds, once --min-runs "
                                                     "runs are done (warm-up is not capped)")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 86400.0));
    compile->add_option("--tolerance", toleranceOpt, "Largest accepted max abs difference between compiled and eager "
                                                     "outputs; above it the command fails (default 1e-3 for fp32, 5e-2 bf16, 1e-2 fp16)")
        ->check([](const std::string &v) {
            try {
                const double t = std::stod(v);
                return std::isfinite(t) && t >= 0 ? std::string() : std::string("must be a finite number >= 0");
            } catch (const std::exception &) {
                return std::string("must be a number");
            }
        });
    compile->add_flag("--json", json, "Print one JSON object on stdout (progress stays on stderr)");
    std::string dtype = "fp32";
    bool freezing = false, maxAutotune = false, allowCache = false, noSnapshots = false;
    compile->add_option("--dtype", dtype, "Model and input dtype: fp32, bf16 or fp16")->capture_default_str();
    compile->add_flag("--freezing", freezing, "Inductor freezing: fold weights into the graph as constants");
    compile->add_flag("--max-autotune", maxAutotune, "Inductor max-autotune (benchmarks kernel choices; slow to compile)");
    compile->add_flag("--allow-cache", allowCache, "Let Inductor reuse its compile cache (faster; a cache hit runs no "
                                                   "passes, so pass snapshots and the kernel list may be missing)");
    compile->add_flag("--no-snapshots", noSnapshots, "Do not write graph snapshots (OUT/snapshots/*.json)");
    std::vector<std::string> dynamic;
    compile->add_option("--dynamic", dynamic, "Dynamic dimension INPUT:DIM[:MIN:MAX] (repeatable), e.g. 0:0:1:64 for a "
                                              "batch of 1 to 64 on the first input; without a range torch.export infers it");

    auto *diffCmd = app.add_subcommand("diff", "Structural diff of two graph snapshots (OUT/snapshots/*.json): added, "
                                               "removed and changed nodes, paired by provenance, then name, then structure");
    std::string beforePath, afterPath;
    bool diffJson = false;
    diffCmd->add_option("before", beforePath, "Snapshot before (JSON)")->required()->check(CLI::ExistingFile);
    diffCmd->add_option("after", afterPath, "Snapshot after (JSON)")->required()->check(CLI::ExistingFile);
    diffCmd->add_flag("--json", diffJson, "Print the diff as one JSON object");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        const int rc = app.exit(e);
        return rc == 0 ? 0 : kExitUsage;
    }
    if (*diffCmd) {
        try {
            const auto before = Graph::loadSnapshot(beforePath);
            const auto after = Graph::loadSnapshot(afterPath);
            const auto diff = Graph::diffSnapshots(before, after);
            if (diffJson) {
                std::printf("%s\n", Graph::toJson(diff).dump().c_str());
                return 0;
            }
            std::printf("%s%s%s -> %s%s%s: %zu added, %zu removed, %zu changed, %zu unchanged\n", before.stage.c_str(),
                        before.pass.empty() ? "" : "/", before.pass.c_str(), after.stage.c_str(),
                        after.pass.empty() ? "" : "/", after.pass.c_str(), diff.added.size(), diff.removed.size(),
                        diff.changed.size(), diff.unchanged);
            for (const auto &id : diff.removed)
                std::printf("- %-28s %s\n", id.c_str(), before.find(id)->target.c_str());
            for (const auto &id : diff.added)
                std::printf("+ %-28s %s\n", id.c_str(), after.find(id)->target.c_str());
            for (const auto &c : diff.changed) {
                std::string fields;
                for (const auto &f : c.fields)
                    fields += (fields.empty() ? "" : ",") + f;
                std::printf("~ %-28s -> %s  [%s; matched by %s]\n", c.before.c_str(), c.after.c_str(), fields.c_str(),
                            Graph::toString(c.via));
            }
            return 0;
        } catch (const Graph::GraphError &e) {
            std::fprintf(stderr, "aotstudio-cli: diff failed: %s. Hint: pass two snapshot files from OUT/snapshots/\n", e.what());
            return kExitFailed;
        }
    }
    if (!showVersion && !*compile) {
        std::fputs(app.help().c_str(), stdout);
        return kExitUsage;
    }

    if (*compile) {
        // Fail on an unusable output directory now, not after minutes of compiling.
        std::error_code ec;
        std::filesystem::create_directories(out, ec);
        if (ec || !std::filesystem::is_directory(out)) {
            std::fprintf(stderr, "aotstudio-cli: cannot create output directory '%s': %s. Hint: choose a writable directory for --out\n",
                         out.c_str(), ec ? ec.message().c_str() : "a file of that name exists");
            return kExitUsage;
        }
        out = std::filesystem::absolute(out).lexically_normal().string();
    }

    std::FILE *stdoutStream = Protocol::takeStdoutForProtocol();
    Outcome outcome;
    ProgressPrinter printer(verbose);
    if (*compile)
        printer.setLogFile(out + "/aotstudio.log");
    int rc = 0;
    {
        Pipeline::Engine engine([&](const Json &event) { printer(event, outcome); });
        const Json hello = engine.start();
        if (showVersion) {
            std::fprintf(stdoutStream, "aotstudio %s (engine protocol %d)\n", hello.value("engine_version", "").c_str(),
                         hello.value("protocol", 0));
            std::fprintf(stdoutStream, "torch %s, CUDA %s, Python %s\n", hello.value("torch_version", "unavailable").c_str(),
                         hello.value("cuda_version", "none").c_str(), hello.value("python_version", "?").c_str());
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
                rc = kExitFailed;
            }
        } else {
            Json request{{"type", "compile"}, {"id", 1},        {"model", model},        {"device", device},
                         {"out", out},        {"runs", runs},   {"min_runs", std::min(minRuns, runs)},
                         {"warmup", warmup},  {"max_seconds", maxSeconds},
                         {"dtype", dtype},    {"freezing", freezing}, {"max_autotune", maxAutotune},
                         {"allow_cache", allowCache}, {"snapshots", !noSnapshots}, {"dynamic", dynamic}};
            if (toleranceOpt)
                request["tolerance"] = *toleranceOpt; // else the frontend's default for the dtype
            // Ctrl-C cancels cooperatively (between stages); a second Ctrl-C leaves at once.
            struct sigaction sa {};
            sa.sa_handler = onSigint;
            sigemptyset(&sa.sa_mask);
            ::sigaction(SIGINT, &sa, nullptr);
            std::atomic<bool> done{false};
            std::jthread watcher([&] {
                bool sent = false;
                while (!done.load()) {
                    if (!sent && g_interrupts.load() > 0) {
                        std::fprintf(stderr, "\naotstudio-cli: cancelling after the current stage (Ctrl-C again to quit now)\n");
                        engine.handle(Protocol::Request{"cancel", 2, Json{{"type", "cancel"}, {"id", 2}, {"target", 1}}});
                        sent = true;
                    }
                    std::this_thread::sleep_for(std::chrono::milliseconds(50));
                }
            });
            engine.handle(Protocol::Request{"compile", 1, request});
            engine.waitIdle();
            done = true;
            if (outcome.result) {
                if (json)
                    std::fprintf(stdoutStream, "%s\n", Protocol::toLine(*outcome.result).c_str());
                else
                    printHuman(stdoutStream, *outcome.result);
            } else {
                const Json error = outcome.error.value_or(Protocol::makeError(
                    1, {"engine", Protocol::Code::Internal, "the engine ended without a result", "see the log above"}));
                if (printer.hasLog())
                    std::fprintf(stderr, "aotstudio-cli: full log: %s/aotstudio.log\n", out.c_str());
                std::fprintf(stderr, "%s\n", errorLine(error).c_str()); // last line: what failed and what to do
                if (json)
                    std::fprintf(stdoutStream, "%s\n", Protocol::toLine(Json{{"error", error}}).c_str());
                rc = error.value("code", std::string()) == Protocol::Code::Cancelled ? kExitInterrupted : kExitFailed;
            }
        }
        std::fflush(nullptr);
        // Leave without running torch's and Python's static destructors (Python is never finalized).
        std::_Exit(rc);
    }
}
