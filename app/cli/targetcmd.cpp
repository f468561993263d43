// SPDX-License-Identifier: GPL-3.0-or-later
// `aotstudio-cli target add|list|remove` (README "Target environments"): the command line is
// checked here, before any Python starts; `add` and `remove` run tools/target.py (the venv, pip,
// tools/build-wheel.sh: work a script does with fewer lines and that needs the source tree anyway)
// through Process::runProcess, its progress lines passed on as they come; `list` reads the
// target.json files itself (targets.h).
#include "bundle/targets.h"
#include "command.h"

#include "pipeline/jobutil.h"
#include "protocol/envelope.h"
#include "protocol/messages.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <regex>
#include <stop_token>
#include <thread>

#ifndef AOTSTUDIO_SOURCE_DIR
#define AOTSTUDIO_SOURCE_DIR ""
#endif

namespace AotStudio::Cli {

using Bundle::checkTargetName;
using Bundle::listTargets;
using Bundle::readTarget;
using Bundle::Target;
using Bundle::targetsDir;

using nlohmann::json;

namespace {

struct TargetOptions {
    CLI::App *add = nullptr, *list = nullptr, *remove = nullptr;
    std::string name, torch, python, torchao, cuda;
    bool json = false, verbose = false;
};

std::atomic<bool> g_stop{false};

extern "C" void onTargetSigint(int)
{
    g_stop.store(true); // async-signal-safe; the waiting loop passes it on as the script's cancel
}

/// The problems of `target add`'s values that need no Python: the name, X.Y.Z, 3.N, cuNNN|cpu.
std::string checkAdd(const TargetOptions &o)
{
    if (const std::string why = checkTargetName(o.name); !why.empty())
        return why;
    static const std::regex version(R"(^\d+\.\d+\.\d+$)");
    if (o.torch.empty() && o.name != "zerogpu")
        return "--torch X.Y.Z is missing (e.g. --torch 2.11.0), or use the preset: target add zerogpu";
    if (!o.torch.empty() && !std::regex_match(o.torch, version))
        return "--torch '" + o.torch + "' is not a version X.Y.Z (e.g. 2.11.0)";
    if (!o.python.empty() && !std::regex_match(o.python, std::regex(R"(^3\.\d{1,2}$)")))
        return "--python '" + o.python + "' is not a version 3.N (e.g. 3.11)";
    if (!o.torchao.empty() && !std::regex_match(o.torchao, version))
        return "--torchao '" + o.torchao + "' is not a version X.Y.Z (e.g. 0.17.0)";
    if (!o.cuda.empty() && !std::regex_match(o.cuda, std::regex(R"(^(cu\d{3}|cpu)$)")))
        return "--cuda '" + o.cuda + "' is not a CUDA variant: write cuNNN (e.g. cu130) or cpu";
    return {};
}

/// tools/target.py: $AOTSTUDIO_TARGET_SCRIPT, else the checkout this executable was built from.
std::string scriptPath()
{
    if (const char *s = std::getenv("AOTSTUDIO_TARGET_SCRIPT"); s && *s)
        return s;
    return (std::filesystem::path(AOTSTUDIO_SOURCE_DIR) / "tools" / "target.py").string();
}

void printTarget(std::FILE *out, const Target &t)
{
    std::string extra;
    if (!t.torchao.empty())
        extra += ", torchao " + t.torchao;
    if (t.engineStartSeconds >= 0) {
        char buf[64];
        std::snprintf(buf, sizeof buf, ", engine starts in %.2f s", t.engineStartSeconds);
        extra += buf;
    }
    std::fprintf(out, "%-16s torch %s (%s), Python %s%s\n", t.name.c_str(), t.torch.c_str(),
                 t.cuda.empty() ? "?" : t.cuda.c_str(), t.python.c_str(), extra.c_str());
    std::fprintf(out, "%-16s %s  (created %s)\n", "", t.path.c_str(), t.created.c_str());
}

json targetJson(const Target &t)
{
    json j = t.raw;
    j["name"] = t.name;
    j["path"] = t.path;
    return j;
}

/// Run tools/target.py with `args`; progress lines on stderr as they come, Ctrl-C passed on as its
/// cancel (it removes what it made and exits 130). Returns the exit status.
int runScript(const TargetOptions &o, const std::vector<std::string> &args, const std::string &stage)
{
    const std::string script = scriptPath();
    auto fail = [&](const std::string &code, const std::string &message, const std::string &hint) {
        const Protocol::Error e{stage, code, message, hint};
        std::fprintf(stderr, "aotstudio-cli: target %s failed (%s): %s. Hint: %s\n", stage.c_str(), code.c_str(),
                     message.c_str(), hint.c_str());
        if (o.json)
            Protocol::printEnvelope(stdout, Protocol::errorEnvelope(e));
        return Protocol::kExitFailed;
    };
    if (!std::filesystem::is_regular_file(script))
        return fail(Protocol::Code::NotFound, "no " + script,
                    "target " + stage
                        + " builds the engine from the sources: run it from the checkout's build, or name "
                          "tools/target.py with AOTSTUDIO_TARGET_SCRIPT");
    std::vector<std::string> argv{"python3", script};
    argv.insert(argv.end(), args.begin(), args.end());
    struct sigaction sa {
    };
    sa.sa_handler = onTargetSigint;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
    std::stop_source stop;
    Process::ProcessOptions po;
    po.stop = stop.get_token();
    po.onTick = [&] {
        if (g_stop.load())
            stop.request_stop();
    };
    po.onStderrLine = [&](const std::string &line) {
        if (o.verbose || line.rfind("target:", 0) == 0)
            std::fprintf(stderr, "%s\n", line.c_str());
        else
            std::fprintf(stderr, "target: %s\n", line.c_str());
    };
    // The script stops its own children and removes its partial folder on SIGINT; runProcess sends it
    // on the stop and SIGKILLs after 5 s, and the next target command sweeps what a kill left.
    const Process::ProcessResult r = Process::runProcess(argv, {}, po);
    const std::string line = r.out.substr(0, r.out.find('\n'));
    const json envelope = json::parse(line, nullptr, false);
    if (!r.error.empty() || !envelope.is_object())
        return fail(Protocol::Code::Internal,
                    Pipeline::commandLine(argv) + " ended without its result (" + r.describe() + ")",
                    "run it by hand to see why");
    if (envelope.value("ok", false)) {
        const json result = envelope.value("result", json::object());
        if (o.json) {
            Protocol::printEnvelope(stdout, Protocol::okEnvelope(result));
        } else if (stage == "add") {
            Target t;
            if (readTarget(result.value("path", std::string()), t).empty())
                printTarget(stdout, t);
            std::printf("use it: aotstudio-cli compile --target %s ...\n", result.value("name", "").c_str());
        } else {
            std::printf("removed target %s (%s)\n", result.value("name", "").c_str(), result.value("path", "").c_str());
        }
        return Protocol::kExitOk;
    }
    json error = envelope.value("error", json::object());
    error["stage"] = "target " + stage;
    std::fprintf(stderr, "aotstudio-cli: target %s failed (%s): %s%s%s\n", stage.c_str(),
                 error.value("code", "").c_str(), error.value("message", "").c_str(),
                 error.value("hint", "").empty() ? "" : ". Hint: ", error.value("hint", "").c_str());
    if (o.json)
        Protocol::printEnvelope(stdout, json{{"ok", false}, {"error", error}});
    if (r.exitCode == Protocol::kExitCancelled || error.value("code", "") == Protocol::Code::Cancelled)
        return Protocol::kExitCancelled;
    return r.exitCode == Protocol::kExitUsage ? Protocol::kExitUsage : Protocol::kExitFailed;
}

} // namespace

Command targetCommand()
{
    auto o = std::make_shared<TargetOptions>();
    return {"target",
            "Target environments: a venv with another torch (e.g. the one a GPU service runs) and an engine built "
            "against it; jobs run there with --target NAME",
            [o](CLI::App &cmd) {
                cmd.require_subcommand(1);
                o->add = cmd.add_subcommand(
                    "add",
                    "Create a target: a venv with that torch from PyPI and this engine built against it "
                    "(downloads several GB and builds for minutes); `target add zerogpu` is the preset");
                o->add->add_option("name", o->name, "The target's name (zerogpu: the preset)")->required();
                o->add->add_option("--torch", o->torch, "torch version from PyPI, X.Y.Z (e.g. 2.11.0)");
                o->add->add_option("--python", o->python,
                                   "Python version 3.N (default 3.11; zerogpu: 3.12); one with a shared libpython "
                                   "must be on this machine");
                o->add->add_option("--torchao", o->torchao, "torchao version to install too (default none)");
                o->add->add_option("--cuda", o->cuda,
                                   "The CUDA variant the torch must be (cu130, cpu); PyPI has one per torch release: "
                                   "a mismatch is refused");
                o->list = cmd.add_subcommand("list", "List the targets (their target.json)");
                o->remove = cmd.add_subcommand("remove", "Remove a target (its folder)");
                o->remove->add_option("name", o->name, "The target's name")->required();
                for (CLI::App *sub : {o->add, o->list, o->remove}) {
                    sub->add_flag("--json", o->json, "Print the JSON envelope on stdout");
                    sub->add_flag("-v,--verbose", o->verbose, "Print every line of pip and the build");
                }
                cmd.footer("Targets live in $AOTSTUDIO_TARGETS_DIR, else $XDG_DATA_HOME/aotstudio/targets, else "
                           "~/.local/share/aotstudio/targets; one folder each (target.json, venv/). An interrupted "
                           "or failed add leaves nothing. Examples:\n"
                           "  aotstudio-cli target add t211 --torch 2.11.0 --python 3.11\n"
                           "  aotstudio-cli target add zerogpu\n"
                           "  aotstudio-cli compile --target t211 --model sample:mlp --out /tmp/mlp211\n"
                           "  aotstudio-cli target list --json");
            },
            [o] {
                if (*o->add)
                    return checkAdd(*o);
                if (*o->remove)
                    return checkTargetName(o->name);
                return std::string();
            },
            [o](const Globals &g) -> int {
                o->verbose = o->verbose || g.verbose;
                if (*o->list) {
                    json all = json::array();
                    const std::vector<Target> targets = listTargets(targetsDir());
                    for (const Target &t : targets)
                        all.push_back(targetJson(t));
                    if (o->json) {
                        Protocol::printEnvelope(
                            stdout, Protocol::okEnvelope({{"targets_dir", targetsDir()}, {"targets", all}}));
                        return Protocol::kExitOk;
                    }
                    if (targets.empty())
                        std::printf("no targets in %s (aotstudio-cli target add NAME --torch X.Y.Z makes one)\n",
                                    targetsDir().c_str());
                    for (const Target &t : targets) {
                        if (t.raw.contains("error"))
                            std::printf("%-16s unreadable: %s\n", t.name.c_str(),
                                        t.raw["error"].get<std::string>().c_str());
                        else
                            printTarget(stdout, t);
                    }
                    return Protocol::kExitOk;
                }
                if (*o->remove)
                    return runScript(*o, {"remove", o->name}, "remove");
                std::vector<std::string> args{"add", o->name};
                const std::pair<const char *, const std::string *> values[] = {
                    {"--torch", &o->torch}, {"--python", &o->python}, {"--torchao", &o->torchao}, {"--cuda", &o->cuda}};
                for (const auto &[flag, value] : values)
                    if (!value->empty())
                        args.insert(args.end(), {flag, *value});
                return runScript(*o, args, "add");
            },
            [o] { return o->json; }};
}

} // namespace AotStudio::Cli
