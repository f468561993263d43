// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// aotstudio-run's command line (CLI11): its --help text and every option with its own check,
// parsed into Serve::RunOptions (core/serve/runcommand.h), which runs them.
#include "serve/runcommand.h"

#include <CLI/CLI.hpp>

namespace AotStudio::RunApp {

/// The options whose presence a default cannot tell (RunOptions::given).
struct GivenOptions {
    CLI::Option *device = nullptr;
    CLI::Option *isolation = nullptr;
    CLI::Option *workers = nullptr;
    CLI::Option *requestTimeout = nullptr;
    CLI::Option *eagerServer = nullptr;

    /// After parsing: which of them the command line gave, into `options.given`.
    void record(Serve::RunOptions &options) const;
};

/// aotstudio-run's description, footer (SERVING, examples) and options on `app`, each parsed into
/// `options` when app.parse() runs. `app` and `options` must outlive the parse.
GivenOptions addRunOptions(CLI::App &app, Serve::RunOptions &options);

} // namespace AotStudio::RunApp
