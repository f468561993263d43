// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-run-lite: a CPU bundle whose buckets were exported with `--runtime lite`
// (link_libtorch=False), run with no libtorch, c10 or Python in the process (BUNDLE.md "The
// libtorch-free runtime"). The same steps, flags and --json shape as aotstudio-run where they
// apply. This file parses the command line into RunLite::LiteOptions; literun.h runs them.
#include "literun.h"

#include "profiler/coldclock.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstring>

using namespace AotStudio;

int main(int argc, char **argv)
{
    const Profiler::ColdClock cold; // first thing in main: everything before is exec, linking and static init
    CLI::App app{"Run a deployable AOT Studio CPU bundle exported with --runtime lite, without libtorch, c10 or\n"
                 "Python: verify every file's SHA-256 and the signature, choose the shape bucket for --batch, load\n"
                 "its package (its aoti_torch_* calls answered by this program's shim), run it, report cold start\n"
                 "and outputs.",
                 "aotstudio-run-lite"};
    app.footer(
        "Generated inputs (without --input): floating N(0, 1) from --seed (not the same numbers as aotstudio-run's),\n"
        "integers and bools zero. A bucket exported for libtorch (no \"runtime\": \"lite\" in the manifest) is\n"
        "refused: run it with aotstudio-run. A package that needs a function this runtime lacks is refused\n"
        "before it is loaded, naming the functions. Exit status: 0 success, 1 refused or failed, 2 bad\n"
        "command line. --json: one line, {\"ok\": true, \"result\": {...}} or {\"ok\": false, \"error\": {...}}.\n"
        "--abi: the functions this runtime provides, and the libraries it opens on demand (JSON).\n"
        "--check PACKAGE.pt2: the symbols the package needs from the process, and those missing here (JSON).");
    RunLite::LiteOptions o;
    app.add_option("bundle", o.bundlePath, "Bundle directory or .zip (from aotstudio-cli export --runtime lite)");
    app.add_option("-b,--batch", o.batch, "Batch size of the request (default: the first exact bucket's batch)")
        ->check(CLI::Range(1LL, 1LL << 40));
    app.add_option("-i,--input", o.inputPath,
                   "Inputs from a torch.save file (a tensor, a list or tuple of tensors, or a "
                   "dict of name -> tensor matched to the bundle's input names)")
        ->check(CLI::ExistingFile);
    app.add_option("--save-outputs", o.saveOutputs,
                   "Write the outputs (the batch's rows) with torch.save's format (a tuple "
                   "of tensors; torch.load(FILE) reads it)");
    app.add_option("--bucket", o.bucketName, "Run this bucket (no bucket choice, no padding; needs --input)");
    app.add_option("--iters", o.iters, "Timed runs after the first output; 0 runs once")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000000));
    app.add_option("--warmup", o.warmup, "Untimed runs before timing")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000000));
    app.add_option("--seed", o.seed, "Seed of the generated inputs")->capture_default_str();
    app.add_option("--threads", o.threads, "OpenMP and OpenBLAS threads (default: every usable CPU)")
        ->check(CLI::Range(1, 4096));
    app.add_option("--trust", o.trustPaths,
                   "Trust store: an Ed25519 public key file or a folder of *.pub files; repeatable. "
                   "Default: $AOTSTUDIO_TRUST")
        ->check(CLI::ExistingPath);
    app.add_flag("--allow-unsigned", o.allowUnsigned,
                 "Run an unsigned bundle, or one signed by a key outside the trust store");
    app.add_flag("--json", o.asJson, "Print one JSON object on stdout");
    app.add_flag("--abi", o.abi, "Print the aoti_torch_* functions this runtime provides (JSON) and exit");
    app.add_option("--package", o.packagePath,
                   "Run one AOTInductor .pt2 (compiled with link_libtorch=False) on --input "
                   "instead of a bundle; no hashes, no timing (export's verify)")
        ->check(CLI::ExistingFile);
    app.add_option("--guards", o.guardsPath,
                   "With --package: check the inputs against this guards file (FORMAT.md \"guards\") "
                   "instead of the package's model.guards.json")
        ->check(CLI::ExistingFile);
    app.add_flag("--convert-layout", o.convertLayout,
                 "Copy an --input tensor whose strides are not the ones the package was compiled for (or "
                 "whose data is not 16-byte aligned) into the package's layout instead of refusing it; "
                 "the copies are reported (layout_conversions)");
    app.add_option("--check", o.checkPath,
                   "Print the symbols PACKAGE.pt2 needs from the process and those this runtime "
                   "lacks (JSON) and exit")
        ->check(CLI::ExistingFile);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        if (e.get_exit_code() == 0)
            return app.exit(e);
        return RunLite::usage(
            o.asJson || std::any_of(argv, argv + argc, [](const char *a) { return std::strcmp(a, "--json") == 0; }),
            RunLite::oneLine(e.what()) + "; see --help");
    }
    return RunLite::runLite(o, cold);
}
