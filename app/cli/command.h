// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The command table of aotstudio-cli (the renderdoccmd pattern): one small struct per subcommand,
// each made in its own *cmd.cpp. main() builds the table, lets every entry add its options to its
// CLI11 subcommand, parses, runs the entry's own checks (still before any engine or Python starts:
// a typo never imports torch), then calls the chosen entry's run().

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace AotStudio::Cli {

/// Options given before the subcommand (or repeated after it): -v.
struct Globals {
    bool verbose = false;
};

struct Command {
    std::string name;
    std::string help;
    /// Add the command's options (and footer) to its subcommand; values land in the command's own
    /// options struct, which the lambdas share.
    std::function<void(CLI::App &cmd)> addOptions;
    /// What is wrong with the parsed command line that CLI11's per-option checks cannot see
    /// (contradictions, a key that cannot sign, a directory that cannot be made): empty when
    /// nothing is. A problem is exit 2 before anything starts.
    std::function<std::string()> check;
    /// Run the command; returns the exit status (Protocol::kExit*).
    std::function<int(const Globals &globals)> run;
    /// Whether --json was given (the usage error of check() is then printed as the envelope too).
    std::function<bool()> json;
};

// One factory per file.
Command captureCommand();
Command compileCommand();
Command diffCommand();
Command exportCommand();
Command inputsCommand();
Command inspectCommand();
Command keygenCommand();
Command memoryCommand();
Command preflightCommand();
Command reproCommand();
Command profileCommand();
Command quantizeCommand();
Command sweepCommand();
Command targetCommand();
Command compareCommand();
Command numericsCommand();
Command tuneCommand();

/// Every subcommand, in the order `--help` lists them.
std::vector<Command> commandTable();

/// Whether the subcommand `name` runs an engine job (and so takes `--target NAME`: the command is
/// run by that target's own aotstudio-cli, targets.h).
bool startsEngine(const std::string &name);

} // namespace AotStudio::Cli
