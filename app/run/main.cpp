// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-run: what a short-lived worker does with a bundle (core/runtime/BUNDLE.md), in C++ with
// LibTorch only (no Python): verify every hash and the signature, check that the bundle can run here, choose the
// bucket for the batch, load its AOTInductor package, run it, and report latency, throughput,
// cold start and a summary of the outputs; or serve requests from forked workers (SERVING.md).
// Results on stdout (one JSON object with --json), refusals and failures as one line on stderr.
// This file parses the command line (runoptions.h); core/serve (runcommand.h) does the rest.
#include "runoptions.h"

#include "profiler/coldclock.h"
#include "protocol/envelope.h"
#include "runtime/libraries.h"
#include "serve/runcommand.h"

#include <CLI/CLI.hpp>

#include <iostream>

using namespace AotStudio;

int main(int argc, char **argv)
{
    const Profiler::ColdClock cold; // first thing in main: everything before is exec, linking and static init
    Runtime::Libraries::useCpuStandIn(true); // no Python here: a CPU package maps no CUDA library (libraries.h)

    CLI::App app{"", "aotstudio-run"};
    Serve::RunOptions options;
    const RunApp::GivenOptions given = RunApp::addRunOptions(app, options);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        if (e.get_exit_code() == 0) // --help
            return app.exit(e);
        if (Protocol::wantsJson(argc, argv)) {
            Protocol::printEnvelope(stdout, Protocol::usageEnvelope(e.what()));
            app.exit(e, std::cerr, std::cerr);
        } else {
            app.exit(e);
        }
        return Protocol::kExitUsage;
    }
    given.record(options);
    return Serve::runCommand(options, cold);
}
