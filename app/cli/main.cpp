// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-cli: the headless twin of the studio for terminals and CI. Runs the engine library in
// process; progress goes to stderr, results to stdout (the JSON envelope with --json,
// core/protocol/envelope.h). Each subcommand lives in its own *cmd.cpp and is one entry of the
// command table (command.h); this file builds the table, parses and dispatches.
#include "bundle/targets.h"
#include "command.h"
#include "enginejob.h"

#include "protocol/envelope.h"

#include <CLI/CLI.hpp>

#include <csignal>
#include <cstdio>
#include <iostream>
#include <pthread.h>
#include <set>

using namespace AotStudio;

namespace AotStudio::Cli {

std::vector<Command> commandTable()
{
    return {captureCommand(), compileCommand(),   diffCommand(),     exportCommand(),  inputsCommand(),
            inspectCommand(), preflightCommand(), keygenCommand(),   profileCommand(), quantizeCommand(),
            sweepCommand(),   compareCommand(),   numericsCommand(), tuneCommand(),    memoryCommand(),
            reproCommand(),   targetCommand()};
}

bool startsEngine(const std::string &name)
{
    static const std::set<std::string> engine{"capture",  "compile", "export",   "inputs", "profile",
                                              "quantize", "sweep",   "numerics", "tune",   "repro"};
    return engine.count(name) > 0;
}

} // namespace AotStudio::Cli

namespace {

/// A malformed command line: the reason on stderr, and with --json the envelope on stdout too.
int usageError(bool asJson, const std::string &message)
{
    std::fprintf(stderr, "aotstudio-cli: %s\n", message.c_str());
    if (asJson)
        Protocol::printEnvelope(stdout, Protocol::usageEnvelope(message));
    return Protocol::kExitUsage;
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
    app.footer(
        "Exit status (every subcommand): 0 success, 1 the job failed (export, compile, accuracy, device) or its\n"
        "input was refused, 2 bad command line (nothing started), 130 cancelled with Ctrl-C.\n"
        "--json (every subcommand): one line on stdout, {\"ok\": true, \"result\": {...}} or\n"
        "{\"ok\": false, \"error\": {\"stage\", \"code\", \"message\", \"hint\"}} (README \"Scripting\").\n"
        "Examples:\n"
        "  aotstudio-cli compile --model sample:mlp --device cpu --out /tmp/mlp --json\n"
        "  aotstudio-cli compile --model sample:minilm --out /tmp/minilm\n"
        "  aotstudio-cli inputs --model sample:minilm\n"
        "  aotstudio-cli compile --model ./my_model.py:make --device cuda --out build/my\n"
        "  aotstudio-cli diff /tmp/mlp/snapshots/002_decompose.json /tmp/mlp/snapshots/005_post_grad.json\n"
        "  aotstudio-cli inspect build/convnet-bundle.zip\n"
        "  aotstudio-cli export --from /tmp/mlp --buckets batch=1,4,16 --dynamic-batch 1:64 --out /tmp/mlp-bundle\n"
        "  aotstudio-cli inspect /tmp/mlp-bundle.zip\n"
        "  aotstudio-cli keygen ~/.config/aotstudio/me.key\n"
        "  aotstudio-cli export --from /tmp/mlp --sign ~/.config/aotstudio/me.key --out /tmp/mlp-signed\n"
        "  aotstudio-cli --version");
    bool showVersion = false;
    app.add_flag("--version", showVersion, "Print studio, torch and CUDA versions and the devices found");
    bool versionJson = false;
    app.add_flag("--json", versionJson, "With --version: the engine's handshake as the JSON envelope on stdout");
    std::string target;
    app.add_option("--target", target,
                   "With --version: the versions of the target environment NAME (aotstudio-cli target list)");
    Cli::Globals globals;
    app.add_flag("-v,--verbose", globals.verbose, "Also print debug logs (Python tracebacks) to stderr");

    std::vector<Cli::Command> table = Cli::commandTable();
    std::vector<CLI::App *> subcommands;
    for (auto &command : table) {
        CLI::App *sub = app.add_subcommand(command.name, command.help);
        command.addOptions(*sub);
        if (Cli::startsEngine(command.name))
            sub->add_option("--target", target,
                            "Run the job in the target environment NAME (aotstudio-cli target add): its torch, "
                            "Python and engine; results and bundles carry its torch");
        subcommands.push_back(sub);
    }

    const bool asJson = Protocol::wantsJson(argc, argv);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        if (e.get_exit_code() == 0) // --help
            return app.exit(e);
        if (asJson) {
            Protocol::printEnvelope(stdout, Protocol::usageEnvelope(e.what()));
            app.exit(e, std::cerr, std::cerr); // the usual text on stderr
        } else {
            app.exit(e);
        }
        return Protocol::kExitUsage;
    }

    for (std::size_t i = 0; i < table.size(); ++i) {
        if (!*subcommands[i])
            continue;
        // Contradictions CLI11's per-option checks cannot see: exit 2 before the engine starts.
        if (const std::string why = table[i].check(); !why.empty())
            return usageError(table[i].json(), table[i].name + ": " + why);
        // The engine runs in this process, and a process holds one torch: the target's own
        // aotstudio-cli runs the command (nothing of this process's torch or Python has started).
        if (!target.empty())
            return usageError(table[i].json(),
                              table[i].name + ": "
                                  + Bundle::execInTarget(target, Bundle::withoutTargetOption(argc, argv)));
        return table[i].run(globals);
    }
    if (showVersion && !target.empty())
        return usageError(asJson, Bundle::execInTarget(target, Bundle::withoutTargetOption(argc, argv)));
    if (showVersion)
        Cli::printVersion(globals.verbose, asJson);
    std::fputs(app.help().c_str(), stdout);
    return Protocol::kExitUsage;
}
