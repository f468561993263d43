// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Target environments (issue 37 item 1; README "Target environments"): a venv with another torch
// and an engine built against it, made by tools/target.py (`aotstudio-cli target add`). This is
// the C++ side that needs no Python: where targets live, their target.json, and `--target NAME`,
// which runs the command with the target's own aotstudio-cli (the CLI runs the engine in process,
// and a process holds one torch).

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace AotStudio::Cli {

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

/// `argv` without `--target NAME` / `--target=NAME` (every occurrence).
std::vector<std::string> withoutTargetOption(int argc, char **argv);

/// Replace this process with the target `name`'s aotstudio-cli run with `args` (argv without the
/// --target option), its interpreter as AOTSTUDIO_PYTHON, its libpython folder on LD_LIBRARY_PATH
/// when that is not a system folder, AOTSTUDIO_TARGET=name, and PYTHONHOME/PYTHONPATH/VIRTUAL_ENV
/// of the caller removed. Returns only on failure, with the problem in one line (no such target,
/// an unreadable target.json, the executable missing, execv's error).
std::string execInTarget(const std::string &name, const std::vector<std::string> &args);

} // namespace AotStudio::Cli
