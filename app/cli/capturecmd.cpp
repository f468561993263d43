// SPDX-License-Identifier: GPL-3.0-or-later
// `aotstudio-cli capture`: run the user's own script and record every call one module gets, then
// propose the dynamic-shape spec, the buckets and the inputs to verify on (FORMAT.md "capture",
// issue 39).
#include "command.h"
#include "enginejob.h"
#include "options.h"

#include <filesystem>
#include <memory>

namespace AotStudio::Cli {

using nlohmann::json;

namespace {

struct CaptureOptions {
    std::string script, module, moduleClass, out;
    std::vector<std::string> args;
    long long calls = 0, keepInputs = 0, maxBytes = 0;
    double maxSeconds = 0, waste = 0.25;
    int maxBuckets = 4;
    bool json = false, verbose = false;
};

json captureRequest(const CaptureOptions &o)
{
    json r{{"type", "capture"}, {"id", 1},          {"script", o.script},         {"out", o.out},
           {"args", o.args},    {"waste", o.waste}, {"max_buckets", o.maxBuckets}};
    if (!o.module.empty())
        r["module"] = o.module;
    else
        r["module_class"] = o.moduleClass;
    if (o.calls > 0)
        r["calls"] = o.calls;
    if (o.keepInputs > 0)
        r["keep_inputs"] = o.keepInputs;
    if (o.maxBytes > 0)
        r["max_bytes"] = o.maxBytes;
    if (o.maxSeconds > 0)
        r["max_seconds"] = o.maxSeconds;
    return r;
}

/// "4..32 (multiple of 8)" for a proposed dimension.
std::string dimText(const json &d)
{
    std::string text = d.value("min", json()).dump() + ".." + d.value("max", json()).dump();
    if (d.value("multiple_of", json()).is_number_integer() && d["multiple_of"].get<long long>() > 1)
        text += " (multiple of " + d["multiple_of"].dump() + ")";
    if (const json derived = d.value("derived", json()); derived.is_object())
        text += " (= " + derived.value("factor", json()).dump() + " × " + derived.value("of", std::string()) + ")";
    return text;
}

void printCapture(std::FILE *out, const json &r)
{
    const json s = r.value("summary", json::object());
    const json p = r.value("proposal", json::object());
    std::fprintf(out, "record:     %s (%s calls, %s distinct signatures; %s)\n", r.value("out", "").c_str(),
                 s.value("calls", json()).dump().c_str(), s.value("signatures", json()).dump().c_str(),
                 s.value("outcome", std::string("?")).c_str());
    for (const auto &d : p.value("dims", json::array())) {
        std::string members;
        for (const auto &m : d.value("members", json::array()))
            members += (members.empty() ? "" : ", ") + m.get<std::string>();
        std::fprintf(out, "dynamic:    %-12s %-22s %s\n", d.value("name", "").c_str(), dimText(d).c_str(),
                     members.c_str());
    }
    const json compile = p.value("compile", json::object());
    std::string dynamic;
    for (const auto &d : compile.value("dynamic", json::array()))
        dynamic += " --dynamic " + d.get<std::string>();
    if (!dynamic.empty())
        std::fprintf(out, "compile:    aotstudio-cli compile --model MODEL%s\n", dynamic.c_str());
    if (const json e = p.value("export", json()); e.is_object() && !e.value("buckets", json::array()).empty()) {
        const json b = p.value("buckets", json::object());
        std::string edges;
        for (const auto &v : e["buckets"])
            edges += (edges.empty() ? "" : ",") + v.dump();
        std::fprintf(out, "export:     aotstudio-cli export --buckets batch=%s (mean padding waste %s, bound %s)\n",
                     edges.c_str(), formatNumber(b.value("expected_waste", json()), "%.3f").c_str(),
                     formatNumber(b.value("bound", json()), "%.2f").c_str());
    }
    for (const auto &w : p.value("warnings", json::array()))
        std::fprintf(out, "warning:    %s\n",
                     w.is_string() ? w.get<std::string>().c_str() : w.value("message", "").c_str());
    std::fprintf(out, "proposal:   %s\n",
                 (std::filesystem::path(r.value("out", "")) / "proposal.json").string().c_str());
}

} // namespace

Command captureCommand()
{
    auto o = std::make_shared<CaptureOptions>();
    return {"capture",
            "Run your own script and record every call one module receives (shapes, dtypes, strides, non-tensor "
            "arguments, a sample of real inputs), then propose the dynamic-shape spec for compile, bucket edges for "
            "export and the inputs to verify on, from the traffic the script produced",
            [o](CLI::App &cmd) {
                cmd.add_option("--script", o->script,
                               "The Python script to run (as __main__, with the engine's Python)")
                    ->required()
                    ->check(CLI::ExistingFile);
                auto *which = cmd.add_option_group("target", "The module whose calls are recorded");
                which->add_option("--module", o->module,
                                  "Attribute path from a global of the script's main module, e.g. model or pipe.unet");
                which->add_option("--module-class", o->moduleClass,
                                  "Qualified class of the one instance to record, e.g. mypkg.model.Encoder");
                which->require_option(1);
                cmd.add_option("-o,--out", o->out, "Folder for the record and the proposal")->required();
                cmd.add_option("--calls", o->calls, "Stop recording after this many calls (the script runs on)")
                    ->check(CLI::PositiveNumber);
                cmd.add_option("--keep-inputs", o->keepInputs, "Example calls kept per input signature (default 2)")
                    ->check(CLI::PositiveNumber);
                cmd.add_option("--max-bytes", o->maxBytes, "Most bytes of kept inputs (default 256 MiB)")
                    ->check(CLI::PositiveNumber);
                cmd.add_option("--max-seconds", o->maxSeconds, "Interrupt the script after this many seconds")
                    ->check(CLI::PositiveNumber);
                cmd.add_option("--waste", o->waste, "Bound on the buckets' mean padding waste (0..1)")
                    ->capture_default_str()
                    ->check(CLI::Range(0.0, 1.0));
                cmd.add_option("--max-buckets", o->maxBuckets, "Most buckets proposed")
                    ->capture_default_str()
                    ->check(CLI::Range(1, 64));
                cmd.add_option("args", o->args, "Arguments for the script (after --)");
                cmd.add_flag("--json", o->json, "Print the JSON envelope on stdout (FORMAT.md \"capture\")");
                cmd.add_flag("-v,--verbose", o->verbose, "Also print debug logs (Python tracebacks) to stderr");
                cmd.footer("Exit status: 0 calls were recorded and a proposal written, 1 none was recorded (the script "
                           "raised first, never called the module, or the module names nothing or several "
                           "instances: see OUT/summary.json and OUT/script.log), 2 bad command line, 130 cancelled "
                           "(the record so far is kept).\n"
                           "Example: aotstudio-cli capture --script serve.py --module model --max-seconds 60 "
                           "--out capture -- --port 0");
            },
            [] { return std::string(); },
            [o](const Globals &g) -> int {
                runEngineJob({captureRequest(*o),
                              o->json,
                              g.verbose || o->verbose,
                              (std::filesystem::path(o->out) / "aotstudio.log").string(),
                              printCapture,
                              {}});
            },
            [o] { return o->json; }};
}

} // namespace AotStudio::Cli
