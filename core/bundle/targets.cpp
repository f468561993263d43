// SPDX-License-Identifier: GPL-3.0-or-later
#include "targets.h"

#include "process/childprocess.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <unistd.h>

namespace AotStudio::Bundle {

namespace fs = std::filesystem;

namespace {

constexpr int kTargetFormat = 1; // tools/target.py TARGET_FORMAT

std::string env(const char *name)
{
    const char *v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

} // namespace

std::string targetsDir()
{
    if (const std::string dir = env("AOTSTUDIO_TARGETS_DIR"); !dir.empty())
        return fs::absolute(dir).lexically_normal().string();
    std::string data = env("XDG_DATA_HOME");
    if (data.empty())
        data = (fs::path(env("HOME")) / ".local" / "share").string();
    return (fs::path(data) / "aotstudio" / "targets").string();
}

std::string checkTargetName(const std::string &name)
{
    static const std::regex form(R"(^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$)");
    if (std::regex_match(name, form))
        return {};
    return "'" + name
        + "' is not a target name: use letters, digits, '.', '_' and '-' (at most 64), starting with a letter or "
          "digit";
}

std::string readTarget(const std::string &folder, Target &out)
{
    const std::string path = (fs::path(folder) / "target.json").string();
    const std::string redo = "; remove the target (aotstudio-cli target remove) and add it again";
    std::ifstream in(path);
    if (!in)
        return path + " does not exist: not a target (aotstudio-cli target add makes one)";
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_object())
        return path + " is not a JSON object" + redo;
    if (j.value("format", 0) != kTargetFormat)
        return path + " is not a target.json of format " + std::to_string(kTargetFormat) + redo;
    Target t;
    t.raw = j;
    t.path = folder;
    t.name = fs::path(folder).lexically_normal().filename().string();
    if (t.name.empty()) // a folder given with a trailing slash
        t.name = fs::path(folder).lexically_normal().parent_path().filename().string();
    const struct {
        const char *key;
        std::string *field;
        bool required;
    } fields[] = {{"python", &t.python, true},
                  {"torch", &t.torch, true},
                  {"cli", &t.cli, true},
                  {"engine", &t.engine, true},
                  {"venv_python", &t.venvPython, true},
                  {"torchao", &t.torchao, false},
                  {"cuda", &t.cuda, false},
                  {"libpython_dir", &t.libpythonDir, false},
                  {"created", &t.created, false}};
    for (const auto &f : fields) {
        const auto it = j.find(f.key);
        if (it == j.end() || it->is_null()) {
            if (f.required)
                return path + " has no '" + f.key + "'" + redo;
            continue;
        }
        if (!it->is_string())
            return path + ": '" + f.key + "' is not a string" + redo;
        *f.field = it->get<std::string>();
    }
    if (j.contains("engine_start_s") && j["engine_start_s"].is_number())
        t.engineStartSeconds = j["engine_start_s"].get<double>();
    out = std::move(t);
    return {};
}

std::vector<Target> listTargets(const std::string &dir)
{
    std::vector<Target> out;
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.empty() || name[0] == '.' || !entry.is_directory(ec))
            continue; // .partial-<pid> and .removing-<pid>: a target add or remove under way
        Target t;
        if (const std::string why = readTarget(entry.path().string(), t); !why.empty()) {
            t = Target{};
            t.name = name;
            t.path = entry.path().string();
            t.raw = {{"error", why}};
        }
        out.push_back(std::move(t));
    }
    std::sort(out.begin(), out.end(), [](const Target &a, const Target &b) { return a.name < b.name; });
    return out;
}

std::vector<std::string> withoutTargetOption(int argc, char **argv)
{
    std::vector<std::string> out;
    for (int i = 0; i < argc; ++i) {
        const std::string a = argv[i];
        if (i > 0 && a == "--target") {
            ++i; // and its value
            continue;
        }
        if (i > 0 && a.rfind("--target=", 0) == 0)
            continue;
        out.push_back(a);
    }
    return out;
}

std::string findTarget(const std::string &name, Target &out)
{
    if (const std::string why = checkTargetName(name); !why.empty())
        return "--target " + why;
    const std::string folder = (fs::path(targetsDir()) / name).string();
    if (!fs::is_directory(folder))
        return "--target " + name + ": no such target in " + targetsDir()
            + " (aotstudio-cli target list names them; target add makes one)";
    if (const std::string why = readTarget(folder, out); !why.empty())
        return "--target " + name + ": " + why;
    return {};
}

std::vector<std::string> targetEnvironment(const Target &t, const std::vector<std::string> &base)
{
    std::vector<std::string> envs;
    std::string ld;
    for (const std::string &kv : base) {
        const std::string key = kv.substr(0, kv.find('='));
        if (key == "LD_LIBRARY_PATH")
            ld = kv.size() > key.size() ? kv.substr(key.size() + 1) : std::string();
        if (key == "PYTHONHOME" || key == "PYTHONPATH" || key == "VIRTUAL_ENV" || key == "AOTSTUDIO_PYTHON"
            || key == "AOTSTUDIO_TARGET" || key == "LD_LIBRARY_PATH")
            continue;
        envs.push_back(kv);
    }
    envs.push_back("AOTSTUDIO_PYTHON=" + t.venvPython);
    envs.push_back("AOTSTUDIO_TARGET=" + t.name);
    const bool system = t.libpythonDir.rfind("/usr/lib", 0) == 0 || t.libpythonDir.rfind("/lib", 0) == 0;
    if (!t.libpythonDir.empty() && !system)
        ld = t.libpythonDir + (ld.empty() ? "" : ":" + ld);
    if (!ld.empty())
        envs.push_back("LD_LIBRARY_PATH=" + ld);
    return envs;
}

std::string execInTarget(const std::string &name, const std::vector<std::string> &args, TargetExecutable which)
{
    Target t;
    if (const std::string why = findTarget(name, t); !why.empty())
        return why;
    const std::string &exe = which == TargetExecutable::Cli ? t.cli : t.engine;
    const char *what = which == TargetExecutable::Cli ? "aotstudio-cli" : "aotstudio-engine";
    if (::access(exe.c_str(), X_OK) != 0)
        return "--target " + name + ": its " + what + " " + exe + " is missing or not executable; remove the "
            + "target and add it again";
    // The one child-process mechanism builds argv and envp (process/childprocess.h).
    const std::vector<std::string> env = targetEnvironment(t, Process::childEnvironment({}));
    return "--target " + name + ": cannot run " + Process::execReplacing(exe, args, env);
}

} // namespace AotStudio::Bundle
