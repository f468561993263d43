// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-cli: the headless twin of the studio for terminals and CI. Runs the engine library in
// process; progress goes to stderr, results to stdout (one JSON object with --json).
#include "graph/graphdiff.h"
#include "pipeline/engine.h"
#include "protocol/linewriter.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>

using namespace AotStudio;
using Protocol::Json;

namespace {

constexpr int kExitFailed = 1; // the job ran and failed (error event): export, compile, mismatch...
constexpr int kExitUsage = 2;  // the command line was wrong

struct Outcome {
    std::optional<Json> result;
    std::optional<Json> error;
};

/// Human-readable rendering of engine events on stderr.
class ProgressPrinter {
public:
    explicit ProgressPrinter(bool verbose) : m_verbose(verbose) {}

    void operator()(const Json &event, Outcome &outcome)
    {
        std::lock_guard lock(m_mutex);
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
    std::fprintf(out, "runs:           %d per variant, after %d warm-up\n", r.value("runs", 0),
                 r.value("/eager/warmup"_json_pointer, 0));
}

} // namespace

int main(int argc, char **argv)
{
    CLI::App app{"AOT Studio command line: export, AOTInductor-compile, run and measure PyTorch models.\n"
                 "Runs the same engine as the studio, in this process (no GUI, no display needed).",
                 "aotstudio-cli"};
    app.require_subcommand(0, 1);
    app.footer("Exit status: 0 success, 1 the job failed (export, compile, accuracy, device), 2 bad command line.\n"
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
    compile->add_option("-m,--model", model, "Model: sample:mlp, sample:minilm, or path/to/file.py:factory "
                                             "(factory returns (model, example_inputs))")->required();
    compile->add_option("-d,--device", device, "Device to compile for and run on: cpu or cuda")->capture_default_str();
    compile->add_option("-o,--out", out, "Output directory (created; the package is OUT/model.pt2)")->capture_default_str();
    compile->add_option("--runs", runs, "Most timed runs per variant")->capture_default_str()->check(CLI::PositiveNumber);
    compile->add_option("--min-runs", minRuns, "Fewest timed runs per variant")->capture_default_str()->check(CLI::PositiveNumber);
    compile->add_option("--warmup", warmup, "Untimed warm-up runs per variant")->capture_default_str()->check(CLI::NonNegativeNumber);
    compile->add_option("--max-seconds", maxSeconds, "Time cap for timing one variant, in seconds")->capture_default_str();
    compile->add_option("--tolerance", toleranceOpt, "Largest accepted max abs difference between compiled and eager "
                                                     "outputs; above it the command fails (default 1e-3 for fp32, 5e-2 bf16, 1e-2 fp16)");
    compile->add_flag("--json", json, "Print one JSON object on stdout (progress stays on stderr)");
    std::string dtype = "fp32";
    bool freezing = false, maxAutotune = false, allowCache = false, noSnapshots = false;
    compile->add_option("--dtype", dtype, "Model and input dtype: fp32, bf16 or fp16")->capture_default_str();
    compile->add_flag("--freezing", freezing, "Inductor freezing: fold weights into the graph as constants");
    compile->add_flag("--max-autotune", maxAutotune, "Inductor max-autotune (benchmarks kernel choices; slow to compile)");
    compile->add_flag("--allow-cache", allowCache, "Let Inductor reuse its compile cache (faster; a cache hit runs no "
                                                   "passes, so pass snapshots and the kernel list may be missing)");
    compile->add_flag("--no-snapshots", noSnapshots, "Do not write graph snapshots (OUT/snapshots/*.json)");

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

    std::FILE *stdoutStream = Protocol::takeStdoutForProtocol();
    Outcome outcome;
    ProgressPrinter printer(verbose);
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
                         {"allow_cache", allowCache}, {"snapshots", !noSnapshots}};
            if (toleranceOpt)
                request["tolerance"] = *toleranceOpt; // else the frontend's default for the dtype
            engine.handle(Protocol::Request{"compile", 1, request});
            engine.waitIdle();
            if (outcome.result) {
                if (json)
                    std::fprintf(stdoutStream, "%s\n", Protocol::toLine(*outcome.result).c_str());
                else
                    printHuman(stdoutStream, *outcome.result);
            } else {
                const Json error = outcome.error.value_or(Protocol::makeError(
                    1, {"engine", Protocol::Code::Internal, "the engine ended without a result", "see the log above"}));
                std::fprintf(stderr, "%s\n", errorLine(error).c_str());
                if (json)
                    std::fprintf(stdoutStream, "%s\n", Protocol::toLine(Json{{"error", error}}).c_str());
                rc = kExitFailed;
            }
        }
        std::fflush(nullptr);
        // Leave without running torch's and Python's static destructors (Python is never finalized).
        std::_Exit(rc);
    }
}
