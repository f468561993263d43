// SPDX-License-Identifier: GPL-3.0-or-later
// `aotstudio-cli numerics`: where compiled and eager diverge from a high-precision reference, node
// by node (FORMAT.md "numerics result"; python/aotstudio_frontend/numerics.py).
#include "command.h"
#include "enginejob.h"
#include "options.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>

namespace AotStudio::Cli {

using nlohmann::json;

namespace {

struct NumericsOptions {
    std::string model, device = "cpu", out = "aotstudio-numerics", dtype = "fp32", submodule;
    double tolerance = 0; ///< 0: the dtype's default (numerics.py DEFAULT_TOLERANCE)
    int batch = 0; ///< 0: the model's example batch
    std::vector<std::string> shapes;
    bool freezing = false, json = false, verbose = false, all = false;
};

json numericsRequest(const NumericsOptions &o)
{
    json r{{"type", "numerics"},
           {"id", 1},
           {"model", o.submodule.empty() ? o.model : o.model + "#" + o.submodule},
           {"device", o.device},
           {"dtype", o.dtype},
           {"freezing", o.freezing},
           {"out", std::filesystem::absolute(o.out).lexically_normal().string()}};
    if (o.tolerance > 0)
        r["tolerance"] = o.tolerance;
    if (o.batch > 0)
        r["batch"] = o.batch;
    setShapes(r, o.shapes);
    return r;
}

/// "3.2e-05", "nan" (numerics.json writes non-finite errors as strings), "-" for none.
std::string errorText(const json &side)
{
    if (!side.is_object())
        return "-";
    const json v = side.value("norm_error", json());
    if (v.is_string())
        return v.get<std::string>();
    if (!v.is_number())
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v.get<double>());
    return buf;
}

void printNumerics(std::FILE *out, const json &r, bool all)
{
    std::fprintf(
        out, "numerics of %s on %s, %s against a %s reference; tolerance %g (norm_error = max|x - ref| / max|ref|)\n",
        r.value("model", "").c_str(), r.value("device", "").c_str(), r.value("dtype", "").c_str(),
        r.value("reference_dtype", "").c_str(), r.value("tolerance", 0.0));
    const json nodes = r.value("nodes", json::array());
    std::fprintf(out, "%-28s %-26s %10s %10s  %s\n", "node", "op", "eager", "compiled", "source");
    int shown = 0, hidden = 0;
    for (const auto &n : nodes) {
        const bool diverges
            = n.value("/eager/diverges"_json_pointer, false) || n.value("/compiled/diverges"_json_pointer, false);
        if (!all && !diverges && nodes.size() > 40) {
            ++hidden;
            continue;
        }
        ++shown;
        std::fprintf(out, "%-28s %-26s %10s %10s  %s%s\n", n.value("name", "").c_str(),
                     n.value("target", "").substr(0, 26).c_str(), errorText(n.value("eager", json())).c_str(),
                     errorText(n.value("compiled", json())).c_str(), n.value("source", "").c_str(),
                     diverges ? "  <- over tolerance" : "");
    }
    if (hidden)
        std::fprintf(out, "(%d nodes within the tolerance on both sides not listed; --all lists them)\n", hidden);
    for (const auto &o : r.value("outputs", json::array()))
        std::fprintf(out, "output %-20s eager %s, compiled %s%s\n", o.value("name", "").c_str(),
                     errorText(o.value("eager", json())).c_str(), errorText(o.value("compiled", json())).c_str(),
                     o.value("closer", json()).is_string() ? (": closer: " + o["closer"].get<std::string>()).c_str()
                                                           : "");
    for (const auto &w : r.value("warnings", json::array()))
        if (w.is_string())
            std::fprintf(out, "warning: %s\n", w.get<std::string>().c_str());
    std::fprintf(out, "verdict: %s\nresult: %s\n", r.value("verdict", "").c_str(),
                 r.value("/files/numerics_json"_json_pointer, std::string()).c_str());
}

} // namespace

Command numericsCommand()
{
    auto o = std::make_shared<NumericsOptions>();
    return {
        "numerics",
        "Find where compiled and eager diverge: the exported graph run node by node against a float64 reference "
        "(eager, op by op in the run's dtype) and compiled by AOTInductor with every intermediate as an output "
        "(compiled); per node the error of each side, the first node past the tolerance with its source line, "
        "and which side is closer on the outputs. Writes OUT/numerics.json and the capture snapshot",
        [o](CLI::App &cmd) {
            cmd.add_option("-m,--model", o->model,
                           "Model: sample:NAME, path/to/file.py:factory or a torch.export.save .pt2")
                ->required();
            cmd.add_option("--submodule", o->submodule,
                           "Run numerics on this sub-module alone (dotted path, e.g. encoder)");
            cmd.add_option("-d,--device", o->device, "cpu or cuda")->capture_default_str()->check(deviceName());
            cmd.add_option("--dtype", o->dtype, "fp32, bf16 or fp16: the run's precision (the reference is float64)")
                ->capture_default_str()
                ->check(dtypeName());
            cmd.add_option("-o,--out", o->out, "Output directory (created)")->capture_default_str();
            cmd.add_option("--tolerance", o->tolerance,
                           "Largest norm_error (max|x - ref| / max|ref|) a node may have; default 1e-4 for fp32, 3e-2 "
                           "for bf16, "
                           "5e-3 for fp16")
                ->check(CLI::PositiveNumber);
            cmd.add_option("--batch", o->batch,
                           "Resize the example inputs' batch dimension (a smaller batch keeps fewer intermediates)")
                ->check(CLI::Range(1, 1 << 20));
            addShapeOption(&cmd, o->shapes);
            cmd.add_flag("--freezing", o->freezing, "Compile with Inductor's freezing, as compile --freezing does");
            cmd.add_flag("--all", o->all,
                         "List every node, not only those over the tolerance (on a graph of more than 40)");
            cmd.add_flag("--json", o->json, "Print the JSON envelope on stdout, numerics.json as its result");
            cmd.add_flag("-v,--verbose", o->verbose, "Also print debug logs to stderr");
            cmd.footer("Exit status: 0 done (whatever the errors found), 1 the job failed (model, export or compile), "
                       "2 bad command line, 130 cancelled.");
        },
        [o] {
            json shapes;
            return parseShapes(o->shapes, shapes);
        },
        [o](const Globals &g) -> int {
            const json request = numericsRequest(*o);
            runEngineJob({request,
                          o->json,
                          g.verbose || o->verbose,
                          request.value("out", std::string()) + "/aotstudio.log",
                          [o](std::FILE *out, const json &r) { printNumerics(out, r, o->all); },
                          {}});
        },
        [o] { return o->json; }};
}

} // namespace AotStudio::Cli
