// SPDX-License-Identifier: GPL-3.0-or-later
// `aotstudio-cli export`: a deployable bundle (core/runtime/BUNDLE.md).
#include "command.h"
#include "enginejob.h"
#include "options.h"
#include "profilecmd.h"
#include "signcmd.h"

#include "bundle/bundle.h"
#include "protocol/envelope.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <optional>
#include <utility>

namespace AotStudio::Cli {

using Protocol::Json;

namespace {

struct ExportOptions {
    std::string from, model, out, buckets, dynamicBatch, signKey, device, recipe, ray, layout = "buckets";
    std::optional<std::string> variant; ///< --variant (block layout; given even when empty, to refuse "")
    std::string fromCapture; ///< a capture folder whose proposal gives the buckets (issue 39)
    Json recipeOptions; ///< loadRecipe()'s, when --recipe named a file
    std::string recipeName; ///< --recipe NAME (readRecipeArgument); empty: a file or none (the engine's auto)
    std::vector<std::string> dynamic, shapes;
    bool padSafe = false, noZip = false, json = false, noSharedWeights = false, verbose = false;
    int coldStartRuns = 3;
    std::string runtime = "libtorch";
    std::vector<std::string> archs; ///< --arch (each bucket's compile)
};

/// `--buckets batch=1,4,16` (the "batch=" prefix names the dimension; version 1 knows only batch):
/// the batch sizes, or nullopt when the value cannot be read.
std::optional<std::vector<long>> parseBuckets(const std::string &spec)
{
    const std::string list = spec.rfind("batch=", 0) == 0 ? spec.substr(6) : spec;
    std::vector<long> buckets;
    std::size_t pos = 0;
    while (pos <= list.size()) {
        const auto comma = list.find(',', pos);
        const std::string item = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        char *end = nullptr;
        const long v = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || v < 1)
            return std::nullopt;
        buckets.push_back(v);
        if (comma == std::string::npos)
            break;
        pos = comma + 1;
    }
    return buckets;
}

/// `--dynamic-batch MIN:MAX`, or nullopt when the value cannot be read.
std::optional<std::pair<long, long>> parseDynamicBatch(const std::string &spec)
{
    long lo = 0, hi = 0;
    char tail = 0;
    if (std::sscanf(spec.c_str(), "%ld:%ld%c", &lo, &hi, &tail) != 2 || lo < 1 || lo > hi)
        return std::nullopt;
    return std::pair{lo, hi};
}

void addExportOptions(CLI::App &cmd, ExportOptions &o)
{
    cmd.add_option("--recipe", o.recipe,
                   "auto (the default: chosen per model after export as compile does; freezing keeps the weights in "
                   "every bucket's package, and the result says what that costs), defaults, a tune option set "
                   "(freezing, max_autotune, ...), or a recipe file (aotstudio-cli tune writes OUT/recipe.json): its "
                   "freezing, max-autotune, dtype and Inductor options for every bucket");
    cmd.add_option("--from", o.from, "A compile output directory (its result.json gives model, device, dtype)")
        ->check(CLI::ExistingDirectory);
    cmd.add_option("-m,--model", o.model, "Model spec, instead of or overriding --from");
    cmd.add_option("-o,--out", o.out, "Bundle directory to create (must not exist); BUNDLE.zip is written next to it")
        ->required();
    cmd.add_option("--buckets", o.buckets, "Batch buckets, e.g. batch=1,4,16 (default: the example batch)")
        ->check(CLI::Validator(
            [](std::string &v) {
                return parseBuckets(v) ? std::string() : "cannot read '" + v + "'; write batch=1,4,16";
            },
            "batch=N,N,..."));
    cmd.add_option("--dynamic-batch", o.dynamicBatch,
                   "Add a dynamic-batch package for MIN:MAX rows, the fallback "
                   "for batches without a bucket, e.g. 1:64")
        ->check(CLI::Validator(
            [](std::string &v) {
                return parseDynamicBatch(v) ? std::string() : "cannot read '" + v + "'; write MIN:MAX, e.g. 1:64";
            },
            "MIN:MAX"));
    cmd.add_option("--dynamic", o.dynamic,
                   "Dynamic dimension besides the batch, INPUT:DIM[:MIN:MAX][=NAME] "
                   "(repeatable; e.g. 0:1:1:512=seq): dynamic in every bucket, checked "
                   "by aotstudio-run against each bucket's guards (default with --from: "
                   "the compile's own)")
        ->check(dynamicSpec());
    addShapeOption(&cmd, o.shapes);
    cmd.add_option("--from-capture", o.fromCapture,
                   "A folder written by aotstudio-cli capture: its proposal's buckets, pad-safety and dynamic "
                   "dimensions besides the batch, unless --buckets, --dynamic-batch or --dynamic are given; the result "
                   "says what share of the recorded calls each bucket serves and its padding waste")
        ->check(CLI::ExistingDirectory);
    cmd.add_flag("--pad-safe", o.padSafe,
                 "Rows of a batch are independent: a smaller batch may run padded in a larger bucket");
    cmd.add_flag("--no-zip", o.noZip, "Do not write BUNDLE.zip");
    cmd.add_option("--layout", o.layout,
                   "buckets: a bundle aotstudio-run loads (packages per batch bucket, manifest, cold start); blocks: "
                   "compile each repeated block class once, without weights, as Hugging Face's "
                   "spaces.aoti_blocks_load reads it (OUT/<BlockClass>/package.pt2 + block.json, blocks.json with "
                   "hashes; BUNDLE.md \"Block layout\")")
        ->capture_default_str()
        ->check(CLI::IsMember({"buckets", "blocks"}));
    cmd.add_option("--variant", o.variant,
                   "With --layout blocks: the packages' variant, as spaces.aoti_blocks_load(model, REPO, "
                   "variant=NAME) reads it: folders <BlockClass>.NAME/ and config.NAME.json, so that several "
                   "builds (fp16, bf16-sm120, ...) share one repository (letters, digits, _ - .)");
    cmd.add_option("--runtime", o.runtime,
                   "What the packages are built for: 'libtorch' (aotstudio-run), 'lite' (link_libtorch=False: "
                   "aotstudio-run-lite runs them without libtorch, c10 or Python; a bucket needing a function it lacks "
                   "stays libtorch and the log names them), 'auto' (lite on the CPU)")
        ->capture_default_str()
        ->check(CLI::IsMember({"libtorch", "lite", "auto"}));
    cmd.add_option("--arch", o.archs,
                   "CUDA only: GPU architectures every bucket's kernels are built for besides the compile GPU's, "
                   "e.g. sm_90,sm_120 (as compile --arch; default with --from: the compile's)")
        ->delimiter(',');
    cmd.add_flag("--no-shared-weights", o.noSharedWeights,
                 "Keep each bucket's weights inside its package's .so (default with several buckets: every distinct "
                 "weight stored once in weights/ and bound at load, BUNDLE.md \"Shared weights\")");
    cmd.add_option("--cold-start-runs", o.coldStartRuns,
                   "Fresh processes timed for cold start (bundle and eager); 0 to skip")
        ->capture_default_str()
        ->check(CLI::Range(0, 100));
    cmd.add_option("--sign", o.signKey,
                   "Sign the bundle with this Ed25519 private key (aotstudio-cli keygen KEYFILE): "
                   "manifest.sig beside manifest.json, the key id in the manifest")
        ->check(CLI::ExistingFile);
    cmd.add_flag("--json", o.json, "Print the JSON envelope on stdout ({\"ok\", \"result\"} or {\"ok\", \"error\"})");
    cmd.add_option("-d,--device", o.device, "Device (overrides --from)")->check(deviceName());
    addRayOption(&cmd, o.ray);
    cmd.add_flag("-v,--verbose", o.verbose, "Also print debug logs to stderr");
    cmd.footer("Exit status: 0 success, 1 the export failed, 2 bad command line, 130 cancelled with Ctrl-C.");
}

/// What the engine would refuse only after starting Python: no model at all; a key that cannot
/// sign (which would fail after minutes of compiling).
std::string checkExport(ExportOptions &o)
{
    if (o.from.empty() && o.model.empty())
        return "needs a model: pass --from DIR (a compile's output) or --model SPEC";
    if (std::string problem = readRecipeArgument(o.recipe, o.recipeName, o.recipeOptions); !problem.empty())
        return problem;
    if (o.variant && o.layout != "blocks")
        return "--variant applies to --layout blocks only (it names the block folders CLASS.VARIANT/); add "
               "--layout blocks or drop --variant";
    if (o.variant) {
        if (const std::string why = Bundle::variantProblem(*o.variant); !why.empty())
            return "--variant '" + *o.variant + "': " + why;
    }
    if (o.layout == "blocks") {
        using Given = std::pair<bool, const char *>;
        for (const auto &[given, flag] : std::initializer_list<Given>{{!o.buckets.empty(), "--buckets"},
                                                                      {!o.dynamicBatch.empty(), "--dynamic-batch"},
                                                                      {!o.signKey.empty(), "--sign"},
                                                                      {!o.dynamic.empty(), "--dynamic"},
                                                                      {!o.ray.empty(), "--ray"}})
            if (given)
                return std::string(flag)
                    + " does not apply to --layout blocks (one package per block class at the "
                      "example's shapes, without weights); drop it, or export without --layout blocks";
    }
    if (Json parsed; !parseShapes(o.shapes, parsed).empty())
        return parseShapes(o.shapes, parsed);
    if (o.signKey.empty())
        return {};
    std::string why = checkSigningKey(o.signKey).value_or(std::string());
    if (const std::string prefix = "aotstudio-cli: export: "; why.rfind(prefix, 0) == 0)
        why = why.substr(prefix.size());
    return why;
}

Json exportRequest(const ExportOptions &o)
{
    Json request{{"type", "export"},      {"id", 1},         {"out", o.out},
                 {"pad_safe", o.padSafe}, {"zip", !o.noZip}, {"cold_start_runs", o.coldStartRuns}};
    if (!o.from.empty())
        request["from"] = std::filesystem::absolute(o.from).string();
    if (!o.model.empty())
        request["model"] = o.model;
    if (!o.device.empty())
        request["device"] = o.device;
    if (!o.dynamic.empty())
        request["dynamic"] = o.dynamic;
    setShapes(request, o.shapes);
    if (!o.signKey.empty())
        request["sign_key"] = std::filesystem::absolute(o.signKey).string();
    if (o.noSharedWeights)
        request["shared_weights"] = false;
    if (o.runtime != "libtorch")
        request["runtime"] = o.runtime;
    if (!o.archs.empty())
        request["cuda_archs"] = o.archs;
    if (!o.fromCapture.empty())
        request["from_capture"] = std::filesystem::absolute(o.fromCapture).lexically_normal().string();
    if (!o.buckets.empty())
        request["buckets"] = *parseBuckets(o.buckets); // checked by the option's validator
    if (!o.dynamicBatch.empty()) {
        const auto [lo, hi] = *parseDynamicBatch(o.dynamicBatch);
        request["dynamic_batch"] = Json::array({lo, hi});
    }
    if (o.layout != "buckets")
        request["layout"] = o.layout;
    if (o.variant)
        request["variant"] = *o.variant;
    applyRecipe(request, o.recipeOptions, false);
    if (!o.recipeName.empty())
        request["recipe"] = o.recipeName;
    setRay(request, o.ray);
    return request;
}

/// An `export --layout blocks` result (exportjob.cpp exportBlockLayout).
void printBlockLayout(std::FILE *out, const Json &r)
{
    std::fprintf(out, "block layout:   %s\n", r.value("bundle", "").c_str());
    if (!r.value("zip", std::string()).empty())
        std::fprintf(out, "zip:            %s\n", r.value("zip", "").c_str());
    for (const auto &b : r.value("blocks", Json::array()))
        std::fprintf(out, "block:          %-24s %zu instances, %zu weights bound at run time  %s\n",
                     b.value("class", "").c_str(), b.value("instances", Json::array()).size(),
                     b.value("constants", std::size_t{0}), b.value("package", "").c_str());
    if (const Json v = r.value("verify", Json::object()); v.value("verdict", Json()).is_string())
        std::fprintf(out, "verify:         %s\n", v["verdict"].get<std::string>().c_str());
    if (const Json c = r.value("config", Json::object()); c.value("path", Json()).is_string())
        std::fprintf(out, "loader config:  %s (no custom kernels to load)\n", c["path"].get<std::string>().c_str());
    std::fprintf(out, "index:          %s (SHA-256 of every file)\n", r.value("blocks_json", "").c_str());
    const Json variant = r.value("variant", Json());
    std::fprintf(out,
                 "load it:        spaces.aoti_blocks_load(model, REPO%s) after uploading the folder as REPO; "
                 "aotstudio-run does not run it (weightless packages)\n",
                 variant.is_string() ? (", variant=\"" + variant.get<std::string>() + "\"").c_str() : "");
}

void printExport(std::FILE *out, const Json &r)
{
    if (r.value("layout", std::string()) == "blocks")
        return printBlockLayout(out, r);
    std::fprintf(out, "bundle:         %s\n", r.value("bundle", "").c_str());
    if (!r.value("zip", std::string()).empty())
        std::fprintf(out, "zip:            %s\n", r.value("zip", "").c_str());
    for (const auto &b : r.value("buckets", Json::array())) {
        if (b.contains("batch_min"))
            std::fprintf(out, "bucket:         %-10s batch %ld..%ld  %s\n", b.value("name", "").c_str(),
                         b.value("batch_min", 0L), b.value("batch_max", 0L), b.value("package", "").c_str());
        else
            std::fprintf(out, "bucket:         %-10s batch %ld  %s\n", b.value("name", "").c_str(),
                         b.value("batch", 0L), b.value("package", "").c_str());
    }
    if (const std::string line = recipeLine(r.value("recipe", Json())); !line.empty())
        std::fprintf(out, "recipe:         %s\n", line.c_str());
    if (const Json c = r.value("capture", Json()); c.is_object()) {
        // Recorded traffic through the bucket policy (export --from-capture).
        std::fprintf(out, "recorded calls: %lld in %s; mean padding waste %.1f%%\n", c.value("calls", 0LL),
                     c.value("folder", "").c_str(), 100.0 * c.value("waste", 0.0));
        for (const auto &b : c.value("buckets", Json::array())) {
            std::string sizes;
            for (const auto &v : b.value("sizes", Json::array()))
                sizes += (sizes.empty() ? "" : ",") + v.dump();
            std::fprintf(out, "  %-12s serves %5.1f%% of the calls (%s %s), padding waste %.1f%%\n",
                         b.value("name", "").c_str(), 100.0 * b.value("share", 0.0), c.value("dimension", "").c_str(),
                         sizes.empty() ? "none" : sizes.c_str(), 100.0 * b.value("waste", 0.0));
        }
        const Json unserved = c.value("unserved", Json::object());
        if (unserved.value("calls", 0LL) > 0)
            std::fprintf(out, "  no bucket for %lld calls (%s %s): aotstudio-run refuses them\n",
                         unserved.value("calls", 0LL), c.value("dimension", "").c_str(),
                         unserved.value("sizes", Json::array()).dump().c_str());
    }
    if (r.value("ray", Json()).is_object())
        std::fprintf(out,
                     "compiled on:    the Ray cluster at %s (each bucket's host in its report; cold start "
                     "measured here)\n",
                     r["ray"].value("address", "").c_str());
    Cli::printColdStart(out, r.value("cold_start", Json::object()));
    if (const Json compat = r.value("compat", Json()); compat.is_object())
        std::fprintf(out, "compat key:     %s\n", compat.value("key", "").c_str());
    if (const Json pf = r.value("preflight", Json()); pf.is_object()) {
        const std::string verdict = pf.value("verdict", "");
        const Json reasons = pf.value("reasons", Json::array());
        std::fprintf(out, "preflight:      %s: %s%s\n", pf.value("profile", Json::object()).value("name", "").c_str(),
                     verdict == "ok"            ? "runs there"
                         : verdict == "refused" ? "does not run there: "
                                                : "not fully known",
                     verdict == "refused" && !reasons.empty() ? reasons[0].get<std::string>().c_str() : "");
        std::fprintf(out, "                (aotstudio-cli preflight %s --gpu PROFILE for every check and other GPUs)\n",
                     r.value("bundle", "").c_str());
    }
    if (const Json signer = r.value("signer", Json()); signer.is_string())
        std::fprintf(out,
                     "signed:         by key %s (manifest.sig; aotstudio-run checks it with --trust KEYFILE.pub)\n",
                     signer.get<std::string>().c_str());
    else
        std::fprintf(out, "signed:         no (export --sign KEYFILE signs a bundle)\n");
    std::fprintf(out, "run it:         aotstudio-run %s\n", r.value("bundle", "").c_str());
}

} // namespace

Command exportCommand()
{
    auto o = std::make_shared<ExportOptions>();
    return {"export",
            "Build a deployable bundle (core/runtime/BUNDLE.md): one AOTInductor package per batch bucket, a manifest "
            "with SHA-256 of every file, the report with cold start, and BUNDLE.zip",
            [o](CLI::App &cmd) { addExportOptions(cmd, *o); },
            [o] { return checkExport(*o); },
            [o](const Globals &g) -> int {
                runEngineJob({exportRequest(*o), o->json, g.verbose || o->verbose, {}, printExport, {}});
            },
            [o] { return o->json; }};
}

} // namespace AotStudio::Cli
