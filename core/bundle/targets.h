// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Target environments (issue 37 item 1; README "Target environments"): a venv with another torch
// and an engine built against it, made by tools/target.py (`aotstudio-cli target add`). This is
// the C++ side that needs no Python, shared by the CLI (`--target NAME` runs the command with the
// target's own aotstudio-cli: the CLI runs the engine in process, and a process holds one torch),
// the engine (`aotstudio-engine --target NAME`, what a remote studio runs over ssh) and the studio
// (its Target selector starts the target's engine): where targets live, their target.json, and
// the environment a target's executables run in.

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace AotStudio::Bundle {

/// A target as its target.json describes it (TARGET_FORMAT 1 of tools/target.py).
struct Target {
    std::string name; ///< its folder's name
    std::string path; ///< its folder
    std::string python; ///< "3.11"
    std::string torch; ///< the torch its engine reports, e.g. "2.11.0+cu130"
    std::string torchao; ///< empty when none was installed
    std::string cuda; ///< "cu130" or "cpu"
    std::string cli; ///< the target's aotstudio-cli executable
    std::string engine; ///< the target's aotstudio-engine executable
    std::string venvPython; ///< the target venv's interpreter (AOTSTUDIO_PYTHON of its executables)
    std::string libpythonDir; ///< the folder of the interpreter's libpython (LD_LIBRARY_PATH when not a system one)
    std::string created; ///< ISO 8601 UTC
    double engineStartSeconds = -1; ///< spawn to hello, measured by target add; -1 when not recorded
    nlohmann::json raw; ///< the whole file
};

/// The folder that holds the targets: $AOTSTUDIO_TARGETS_DIR, else $XDG_DATA_HOME/aotstudio/targets,
/// else ~/.local/share/aotstudio/targets (tools/target.py targets_dir() says the same).
std::string targetsDir();

/// "" when `name` can name a target (letters, digits, '.', '_', '-'; at most 64; starting with a
/// letter or digit), else the problem in one line.
std::string checkTargetName(const std::string &name);

/// Read `folder`/target.json into `out`; returns "" or the problem in one line naming the file and
/// what to do (missing, not JSON, another format, a field missing or of another type).
std::string readTarget(const std::string &folder, Target &out);

/// Every target under `dir` (folders whose name does not start with '.'), by name; a folder whose
/// target.json does not read is returned with `raw["error"]` set to the problem.
std::vector<Target> listTargets(const std::string &dir);

/// Find the target `name` in targetsDir() and read it into `out`. Returns "" or the problem in one
/// line, led by "--target NAME: " (a bad name, no such target, an unreadable target.json).
std::string findTarget(const std::string &name, Target &out);

/// The environment a target's executables (its aotstudio-cli and aotstudio-engine) run in: `base`
/// (KEY=VALUE strings, e.g. the caller's environ) without PYTHONHOME, PYTHONPATH, VIRTUAL_ENV,
/// AOTSTUDIO_PYTHON, AOTSTUDIO_TARGET and LD_LIBRARY_PATH, plus AOTSTUDIO_PYTHON=the target's
/// interpreter, AOTSTUDIO_TARGET=its name (the engine puts it in its `hello`, FORMAT.md
/// "Handshake"), and LD_LIBRARY_PATH with the interpreter's libpython folder first when that is not
/// a system folder (the rest of the caller's LD_LIBRARY_PATH kept after it).
std::vector<std::string> targetEnvironment(const Target &target, const std::vector<std::string> &base);

/// `argv` without `--target NAME` / `--target=NAME` (every occurrence).
std::vector<std::string> withoutTargetOption(int argc, char **argv);

/// Which executable of a target execInTarget() runs.
enum class TargetExecutable { Cli, Engine };

/// Replace this process with the target `name`'s aotstudio-cli or aotstudio-engine run with
/// `args` (argv without the --target option; args[0] is the program name), in
/// targetEnvironment(). Returns only on failure, with the problem in one line (no such target, an
/// unreadable target.json, the executable missing, execve's error).
std::string execInTarget(const std::string &name, const std::vector<std::string> &args,
                         TargetExecutable which = TargetExecutable::Cli);

} // namespace AotStudio::Bundle
