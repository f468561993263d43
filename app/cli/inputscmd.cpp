// SPDX-License-Identifier: GPL-3.0-or-later
// `aotstudio-cli inputs`: the example inputs a model spec gives (names, shapes, dtypes, value
// ranges) and forward's signature, built as a compile's load stage builds them (FORMAT.md "inputs").
#include "command.h"
#include "enginejob.h"
#include "options.h"

#include <algorithm>
#include <memory>

namespace AotStudio::Cli {

using nlohmann::json;

namespace {

struct InputsOptions {
    std::string model, device = "cpu", dtype = "fp32";
    std::vector<std::string> shapes;
    bool json = false, verbose = false;
};

json inputsRequest(const InputsOptions &o)
{
    json r{{"type", "inputs"}, {"id", 1}, {"model", o.model}, {"device", o.device}, {"dtype", o.dtype}};
    setShapes(r, o.shapes);
    return r;
}

/// "[4, 23]" for a shape.
std::string shapeText(const json &shape)
{
    std::string text = "[";
    for (const auto &d : shape)
        text += (text.size() > 1 ? ", " : "") + d.dump();
    return text + "]";
}

/// "101..29215" for integers, "-3.08..2.43 (mean 0.0187, std 1.03)" for floating inputs, "-" when
/// the engine did not read the range (a large tensor).
std::string rangeText(const json &in)
{
    const json lo = in.value("min", json()), hi = in.value("max", json());
    if (!lo.is_number() || !hi.is_number())
        return "-";
    if (lo.is_number_integer() && hi.is_number_integer())
        return lo.dump() + ".." + hi.dump();
    std::string text = formatNumber(lo, "%.4g") + ".." + formatNumber(hi, "%.4g");
    if (in.value("mean", json()).is_number())
        text += " (mean " + formatNumber(in["mean"], "%.3g") + ", std " + formatNumber(in.value("std", json()), "%.3g")
            + ")";
    return text;
}

void printInputs(std::FILE *out, const json &r)
{
    std::fprintf(out, "model:      %s (%s, %s; %s parameters)\n", r.value("model", "").c_str(),
                 r.value("device", "").c_str(), r.value("dtype", "").c_str(),
                 r.value("parameters", json()).is_number() ? r["parameters"].dump().c_str() : "?");
    std::fprintf(out, "signature:  %s\n", r.value("signature", "").c_str());
    std::size_t width = 5;
    for (const auto &in : r.value("inputs", json::array()))
        width = std::max(width, in.value("name", "").size());
    for (const auto &o : r.value("outputs", json::array()))
        width = std::max(width, o.value("name", "").size());
    const int w = static_cast<int>(width);
    std::fprintf(out, "%-*s  %-18s %-9s %-8s %s\n", w, "input", "shape", "dtype", "kind", "range");
    for (const auto &in : r.value("inputs", json::array()))
        std::fprintf(out, "%-*s  %-18s %-9s %-8s %s\n", w, in.value("name", "").c_str(),
                     shapeText(in.value("shape", json::array())).c_str(), in.value("dtype", "").c_str(),
                     in.value("kind", "").c_str(), rangeText(in).c_str());
    for (const auto &c : r.value("constants", json::array()))
        if (c.is_string())
            std::fprintf(out, "%-*s  (not a tensor: a constant of the program)\n", w, c.get<std::string>().c_str());
    for (const auto &o : r.value("outputs", json::array()))
        std::fprintf(out, "%-*s  %-18s %-9s (output)\n", w, o.value("name", "").c_str(),
                     shapeText(o.value("shape", json::array())).c_str(), o.value("dtype", "").c_str());
}

} // namespace

Command inputsCommand()
{
    auto o = std::make_shared<InputsOptions>();
    return {"inputs",
            "Show the example inputs a model gives, as a compile builds them: each input's name (as --dynamic and "
            "--shape take it), shape, dtype, kind and value range, forward's signature, and the outputs of one "
            "eager forward. No export, no compile",
            [o](CLI::App &cmd) {
                cmd.add_option("-m,--model", o->model,
                               "Model: sample:NAME, path/to/file.py:factory, hf:FOLDER, timm:NAME, torchvision:NAME or "
                               "a torch.export.save .pt2; SPEC#PATH takes the sub-module PATH")
                    ->required();
                cmd.add_option("-d,--device", o->device, "cpu or cuda")->capture_default_str()->check(deviceName());
                cmd.add_option("--dtype", o->dtype, "fp32, bf16 or fp16 (floating inputs are cast to it)")
                    ->capture_default_str()
                    ->check(dtypeName());
                addShapeOption(&cmd, o->shapes);
                cmd.add_flag("--json", o->json,
                             "Print the JSON envelope on stdout, the inputs request's result (FORMAT.md \"inputs\")");
                cmd.add_flag("-v,--verbose", o->verbose, "Also print debug logs (Python tracebacks) to stderr");
                cmd.footer("Exit status: 0 success, 1 the model could not be built or run (or a --shape was refused), "
                           "2 bad command line, 130 cancelled.\n"
                           "Example: aotstudio-cli inputs --model sample:minilm --shape input_ids=2x16 "
                           "--shape attention_mask=2x16");
            },
            [o] {
                json shapes;
                return parseShapes(o->shapes, shapes);
            },
            [o](const Globals &g) -> int {
                runEngineJob({inputsRequest(*o), o->json, g.verbose || o->verbose, std::string(), printInputs, {}});
            },
            [o] { return o->json; }};
}

} // namespace AotStudio::Cli
