// SPDX-License-Identifier: GPL-3.0-or-later
// `aotstudio-cli repro JOB_DIR`: a standalone folder that reproduces a failed compile or a numerics
// divergence with plain torch (FORMAT.md "Repro"), run once to confirm it does.
#include "command.h"
#include "enginejob.h"

#include <memory>

namespace AotStudio::Cli {

using nlohmann::json;

namespace {

struct ReproOptions {
    std::string job, out;
    bool json = false, verbose = false, noRun = false;
    double timeout = 900;
};

void printRepro(std::FILE *out, const json &r)
{
    const json failure = r.value("failure", json::object());
    std::fprintf(out, "repro:        %s (%s bytes)\n", r.value("folder", "").c_str(),
                 r.value("bytes", json()).is_number() ? r["bytes"].dump().c_str() : "?");
    std::fprintf(out, "failure:      %s at %s: %s\n", failure.value("code", "").c_str(),
                 failure.value("stage", "").c_str(), failure.value("message", "").substr(0, 300).c_str());
    if (r.value("kind", "") == "numerics")
        std::fprintf(out, "subgraph:     node %s (%s, %s), %s side, tolerance %g\n", r.value("node", "").c_str(),
                     r.value("target", "").c_str(), r.value("dtype", "").c_str(), r.value("side", "").c_str(),
                     r.value("tolerance", 0.0));
    std::fprintf(out, "command:      cd %s && python repro.py\n", r.value("folder", "").c_str());
    const json run = r.value("run", json());
    if (!run.is_object()) {
        std::fprintf(out, "reproduced:   not run (--no-run)\n");
        return;
    }
    const json reproduced = r.value("reproduced", json());
    std::fprintf(out, "reproduced:   %s in %.1f s%s%s\n",
                 reproduced.is_boolean() ? (reproduced.get<bool>() ? "yes" : "NO") : "unknown",
                 run.value("seconds", 0.0), run.value("line", "").empty() ? "" : ": ",
                 run.value("line", run.value("outcome", "")).c_str());
    if (reproduced.is_boolean() && !reproduced.get<bool>())
        std::fprintf(out,
                     "note:         it did not fail in a fresh process: the failure may be flaky or depend on "
                     "this machine, its settings or the engine process\n");
}

} // namespace

Command reproCommand()
{
    auto o = std::make_shared<ReproOptions>();
    return {"repro",
            "Make a standalone folder that reproduces a failed compile (compile error or verify mismatch) or a "
            "numerics divergence (its first divergent node alone) with plain torch: the exported program, its inputs, "
            "the Inductor options, repro.py and a README; run once in a fresh process to confirm it reproduces",
            [o](CLI::App &cmd) {
                cmd.add_option(
                       "job", o->job,
                       "The --out folder of a compile that failed (error.json) or of a numerics job (numerics.json)")
                    ->required();
                cmd.add_option("-o,--out", o->out, "Where to write the repro (default JOB/repro)");
                cmd.add_flag("--no-run", o->noRun, "Write the folder without running it");
                cmd.add_option("--timeout", o->timeout, "Seconds the confirming run may take")
                    ->check(CLI::Range(1.0, 86400.0))
                    ->capture_default_str();
                cmd.add_flag("--json", o->json,
                             "Print the JSON envelope on stdout, the repro record (FORMAT.md "
                             "\"Repro\")");
                cmd.add_flag("-v,--verbose", o->verbose, "Also print debug logs (Python tracebacks) to stderr");
                cmd.footer(
                    "Exit status: 0 the repro was written (and run: `reproduced` says whether it failed "
                    "again), 1 the folder holds no failed compile or divergence it can reproduce (bad_request) or the "
                    "model could not be built again, 2 bad command line, 130 cancelled.");
            },
            [] { return std::string(); },
            [o](const Globals &g) -> int {
                json r{{"type", "repro"}, {"id", 1}, {"job", o->job}, {"run", !o->noRun}, {"timeout_s", o->timeout}};
                if (!o->out.empty())
                    r["out"] = o->out;
                runEngineJob({r, o->json, g.verbose || o->verbose, std::string(), printRepro, {}});
            },
            [o] { return o->json; }};
}

} // namespace AotStudio::Cli
