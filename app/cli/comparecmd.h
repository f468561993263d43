// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "compare/compare.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>

namespace AotStudio::Cli {

/// Options of `aotstudio-cli compare` (core/compare/compare.h; FORMAT.md "compare").
struct CompareCommandOptions {
    std::string a, b; ///< the two job folders
    std::string stage; ///< only this stage's graph diff, node by node
    bool json = false; ///< one JSON object on stdout
    bool full = false; ///< every changed kernel's whole source diff and every node (text output)
};

/// Add the options of `compare` to its subcommand; their values land in `options`.
void addCompareOptions(CLI::App &cmd, CompareCommandOptions &options);

/// Run `aotstudio-cli compare`: no engine, files only. Prints the comparison (text, or JSON with
/// --json) on stdout; returns 0 when compared, 1 when refused (not a job folder, different models,
/// an unknown --stage: the reason on stderr, and the error envelope on stdout with --json).
int runCompare(const CompareCommandOptions &options);

/// The comparison as text: versions and options side by side, graph diff per stage, kernel diff
/// (source diffs cut to 40 lines each unless `full`), time per kernel and module group, verdict.
void printCompare(std::FILE *out, const Compare::Comparison &c, bool full, const std::string &stage);

} // namespace AotStudio::Cli
