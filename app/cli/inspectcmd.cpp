// SPDX-License-Identifier: GPL-3.0-or-later
// `aotstudio-cli inspect PATH`: a bundle (directory or .zip) or a .pt2, read without loading any
// native code. No engine, no torch import.
#include "command.h"
#include "options.h"
#include "signcmd.h"

#include "bundle/bundle.h"
#include "bundle/compat.h"
#include "bundle/inspect.h"
#include "bundle/preflight.h"
#include "bundle/signing.h"
#include "bundle/text.h"
#include "protocol/envelope.h"
#include "runtime/aotirunner.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

namespace AotStudio::Cli {

using Protocol::Json;
using Protocol::kExitFailed;
using Protocol::kExitUsage;

namespace {

struct InspectOptions {
    std::string path;
    bool json = false, allowUnsigned = false;
    std::vector<std::string> trust;
};

std::string specsLine(const Json &specs)
{
    std::string out;
    for (const auto &s : specs) {
        std::string shape;
        for (const auto &d : s.value("shape", Json::array()))
            shape += (shape.empty() ? "" : ", ") + (d.is_string() ? d.get<std::string>() : d.dump());
        const std::string name = s.value("name", std::string());
        out += (out.empty() ? "" : "; ") + (name.empty() ? std::string() : name + " ") + "[" + shape + "] "
            + s.value("dtype", "");
    }
    return out.empty() ? "-" : out;
}

/// A failure: one line on stderr, and with --json the envelope (with what was read, if anything).
int inspectFailed(bool asJson, const std::string &code, const std::string &message, const Json &info = Json())
{
    std::fprintf(stderr, "aotstudio-cli: inspect: %s\n", Bundle::validUtf8(message).c_str());
    if (asJson)
        Protocol::printEnvelope(stdout, Protocol::errorEnvelope(Protocol::Error{"inspect", code, message, ""}, info));
    return kExitFailed;
}

/// Exit 0 when readable (and, for a bundle, intact and runnable here), 1 when not. .pt2 archives
/// are read with libzip (core/bundle/inspect.h): entries and JSON records only, never the
/// package's shared objects.
int runInspect(const std::string &path, bool asJson, const std::vector<std::string> &trustPaths, bool allowUnsigned)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const bool isDir = fs::is_directory(path, ec);
    if (!fs::exists(path, ec))
        return inspectFailed(asJson, Protocol::Code::NotFound, "'" + path + "' does not exist");
    const bool isBundle = isDir || fs::path(path).extension() == ".zip";
    // Whether this machine's LibTorch and GPU could run the bundle (aotstudio-run's checks).
    const auto runsHere = [](const Bundle::Manifest &m) {
        const bool cuda = Runtime::cudaAvailable();
        return Bundle::checkCompatible(m, Runtime::libtorchVersion(), cuda,
                                       cuda ? Runtime::cudaComputeCapability(0) : "");
    };
    std::optional<Bundle::TrustStore> trust;
    if (isBundle && !(trust = loadTrustStore(trustPaths, "inspect"))) {
        if (asJson)
            Protocol::printEnvelope(stdout,
                                    Protocol::usageEnvelope("--trust: the trust store cannot be read (see stderr)"));
        return kExitUsage;
    }
    Json info;
    try {
        info = isBundle ? Bundle::inspectBundle(path, runsHere, &*trust, allowUnsigned) : Bundle::inspectPt2(path);
    } catch (const Bundle::BundleError &e) {
        return inspectFailed(asJson, Protocol::Code::BadRequest, e.what());
    }
    if (isBundle) {
        std::vector<std::string> why = info["runs_here"].value("reasons", std::vector<std::string>{});
        info["runs_here"]["runtime_torch_version"] = Runtime::libtorchVersion();
        const Json signature = info.value("signature", Json::object());
        // What makes the bundle fail: the first problem, the signature's refusal, why it cannot run here.
        std::string failure;
        const char *code = Protocol::Code::Refused;
        if (!info.value("ok", false)) {
            const Json problems = info.value("problems", Json::array());
            failure = problems.empty() ? std::string("the bundle is not intact")
                                       : "the bundle is not intact: " + problems.front().get<std::string>();
        } else if (const Json refused = signature.value("refused", Json()); refused.is_string()) {
            failure = refused.get<std::string>();
            if (signature.value("refused_by_trust", false))
                code = Protocol::Code::Untrusted; // as the engine and aotstudio-run say for it
        } else if (!why.empty()) {
            failure = "does not run here: " + why.front();
            code = Protocol::Code::Incompatible;
        }
        if (asJson) {
            if (failure.empty())
                Protocol::printEnvelope(stdout, Protocol::okEnvelope(info));
            else
                Protocol::printEnvelope(stdout,
                                        Protocol::errorEnvelope(Protocol::Error{"inspect", code, failure, ""}, info));
            return failure.empty() ? 0 : kExitFailed;
        }
        const int rc = failure.empty() ? 0 : kExitFailed;
        std::printf("bundle:       %s%s\n", info.value("path", "").c_str(), info.value("zip", false) ? " (zip)" : "");
        std::printf("model:        %s\n", info.value("model", "").c_str());
        const Json cc = info.value("compute_capability", Json());
        std::printf("device:       %s%s\n", info.value("device", "").c_str(),
                    cc.is_string() ? (" (compute capability " + cc.get<std::string>() + ")").c_str() : "");
        std::printf("built with:   torch %s%s%s, quantization %s\n", info.value("torch_version", "").c_str(),
                    info.value("cuda_version", "").empty() ? "" : ", CUDA ", info.value("cuda_version", "").c_str(),
                    info.value("quantization", "none").c_str());
        if (const Json compat = info.value("compat", Json()); compat.is_object()) {
            std::printf("compat key:   %s\n", compat.value("key", "").c_str());
            std::printf("  built for:  %s\n", Bundle::describeCompat(compat).c_str());
            std::printf("  precision:  %s, %s shapes, runtime %s\n", compat.value("precision", "?").c_str(),
                        compat.value("shape_mode", "?").c_str(), compat.value("runtime", "libtorch").c_str());
            const Json model = compat.value("model_sha256", Json()), options = compat.value("options_sha256", Json());
            std::printf("  hashes:     model %s, Inductor options %s\n",
                        model.is_string() ? model.get<std::string>().substr(0, 16).c_str() : "unknown",
                        options.is_string() ? options.get<std::string>().substr(0, 16).c_str() : "unknown");
            for (const auto &n : compat.value("notes", Json::array()))
                std::printf("  note:       %s\n", n.is_string() ? n.get<std::string>().c_str() : n.dump().c_str());
        } else {
            std::printf(
                "compat key:   none (made before format 3's compatibility key; only torch and device are checked)\n");
        }
        std::printf("made by:      %s, %s (format version %d)\n", info.value("producer", "?").c_str(),
                    info.value("created", "?").c_str(), info.value("format_version", 0));
        std::printf("inputs:       %s\n", specsLine(info.value("inputs", Json::array())).c_str());
        std::printf("outputs:      %s\n", specsLine(info.value("outputs", Json::array())).c_str());
        std::printf("pad_safe:     %s\n",
                    info.value("pad_safe", false) ? "yes (smaller batches run padded in larger buckets)" : "no");
        for (const auto &b : info.value("buckets", Json::array())) {
            const std::string range = b.contains("batch")
                ? "batch " + b["batch"].dump()
                : "batch " + b["batch_min"].dump() + ".." + b["batch_max"].dump();
            std::printf("bucket:       %-10s %-14s %s%s\n", b.value("name", "").c_str(), range.c_str(),
                        b.value("package", "").c_str(),
                        b.contains("bytes") ? ("  " + humanBytes(b["bytes"].get<double>())).c_str() : "");
        }
        const auto problems = info.value("problems", Json::array());
        std::printf("files:        %zu, %s: %s\n", info.value("files", std::size_t(0)),
                    humanBytes(info.value("bytes", 0.0)).c_str(),
                    problems.empty() ? "every SHA-256 and size matches"
                                     : (std::to_string(problems.size()) + " problem(s)").c_str());
        for (const auto &p : problems)
            std::printf("  problem:    %s\n", p.get<std::string>().c_str());
        std::printf("signature:    %s\n", signature.value("summary", "").c_str());
        if (const Json refused = signature.value("refused", Json()); refused.is_string())
            std::printf("  refused:    %s\n", refused.get<std::string>().c_str());
        if (why.empty())
            std::printf("runs here:    yes (LibTorch %s)\n", Runtime::libtorchVersion().c_str());
        for (const auto &w : why)
            std::printf("runs here:    no: %s\n", w.c_str());
        return rc;
    }

    if (asJson) {
        if (info.value("kind", "") == "unknown")
            Protocol::printEnvelope(stdout,
                                    Protocol::errorEnvelope(Protocol::Error{"inspect", Protocol::Code::BadRequest,
                                                                            "'" + path
                                                                                + "' is neither an AOTInductor "
                                                                                  "package nor an ExportedProgram",
                                                                            ""},
                                                            info));
        else
            Protocol::printEnvelope(stdout, Protocol::okEnvelope(info));
        return info.value("kind", "") == "unknown" ? kExitFailed : 0;
    }
    const int rc = info.value("kind", "") == "unknown" ? kExitFailed : 0;
    const std::string kind = info.value("kind", "");
    std::printf("file:         %s\n", info.value("path", "").c_str());
    std::printf("kind:         %s\n",
                kind == "aoti_package"           ? "AOTInductor package (native code; not loaded by inspect)"
                    : kind == "exported_program" ? "ExportedProgram (torch.export.save)"
                                                 : "unknown (neither an AOTInductor package nor an ExportedProgram)");
    std::printf("archive:      '%s', format %s, version %s, data version %s, byte order %s\n",
                info.value("archive", "").c_str(), info.value("archive_format", "?").c_str(),
                info.value("archive_version", "?").c_str(), info.value("data_version", "?").c_str(),
                info.value("byteorder", "?").c_str());
    if (kind == "aoti_package") {
        for (const auto &[name, model] : info["aoti"]["models"].items()) {
            std::printf("model:        %s: %zu files, %zu shared object(s)", name.c_str(),
                        model.value("files", std::size_t(0)), model.value("shared_objects", Json::array()).size());
            if (model.contains("kernels"))
                std::printf(", %d kernel(s)", model.value("kernels", 0));
            std::printf("\n");
            if (const Json compat = info.value("compat", Json()); compat.is_object()) {
                std::printf("  built for:  %s\n", Bundle::describeCompat(compat).c_str());
                std::printf("  key:        %s\n", compat.value("key", "").c_str());
                for (const auto &n : compat.value("notes", Json::array()))
                    std::printf("  note:       %s\n", n.is_string() ? n.get<std::string>().c_str() : n.dump().c_str());
            }
            const Json metadata = model.value("metadata", Json::object());
            for (const auto &[k, v] : metadata.items())
                std::printf("  %-26s %s\n", k.c_str(), v.is_string() ? v.get<std::string>().c_str() : v.dump().c_str());
        }
    } else if (kind == "exported_program") {
        for (const auto &[name, model] : info["exported_program"]["models"].items()) {
            if (!model.value("readable", true)) {
                std::printf("model:        %s: graph not readable\n", name.c_str());
                continue;
            }
            std::printf("model:        %s: %d nodes, %d inputs, %d outputs (schema %s, torch %s)\n", name.c_str(),
                        model.value("nodes", 0), model.value("inputs", 0), model.value("outputs", 0),
                        model.value("schema_version", "?").c_str(), model.value("torch_version", "?").c_str());
            std::vector<std::pair<int, std::string>> ops;
            const Json histogram = model.value("ops", Json::object());
            for (const auto &[op, n] : histogram.items())
                ops.emplace_back(n.get<int>(), op);
            std::sort(ops.begin(), ops.end(), [](const auto &a, const auto &b) {
                return a.first != b.first ? a.first > b.first : a.second < b.second;
            });
            for (const auto &[n, op] : ops)
                std::printf("  %5d  %s\n", n, op.c_str());
        }
    }
    const auto entries = info.value("entries", Json::array());
    std::printf("entries:      %zu, %s uncompressed\n", entries.size(), humanBytes(info.value("bytes", 0.0)).c_str());
    for (const auto &e : entries)
        std::printf("  %12llu  %s\n", e.value("bytes", 0ULL), e.value("name", "").c_str());
    return rc;
}

} // namespace

Command inspectCommand()
{
    auto o = std::make_shared<InspectOptions>();
    return {"inspect",
            "Describe a bundle (directory or .zip: manifest, buckets, SHA-256 check, whether it runs here) or a .pt2 "
            "(entries, AOTInductor metadata or ExportedProgram op histogram) without loading native code",
            [o](CLI::App &cmd) {
                cmd.add_option("path", o->path, "Bundle directory, bundle .zip, or .pt2 file")->required();
                cmd.add_flag("--json", o->json,
                             "Print the JSON envelope: {\"ok\": true, \"result\": {...}}, or {\"ok\": "
                             "false, \"error\": {...}, \"result\": {...}} for a bundle that fails");
                cmd.add_option("--trust", o->trust,
                               "Check the signature against this public key file or folder of *.pub "
                               "files, as aotstudio-run does (repeatable; default $AOTSTUDIO_TRUST)")
                    ->check(CLI::ExistingPath);
                cmd.add_flag("--allow-unsigned", o->allowUnsigned,
                             "As aotstudio-run: an unsigned or foreign bundle is not "
                             "a failure even with a trust store");
                cmd.footer(
                    "Exit status: 0 readable (a bundle: intact, runnable here and admitted by the trust store), 1 "
                    "unreadable, tampered, not runnable here or refused by the trust store, 2 bad command line or an "
                    "unreadable trust store.");
            },
            [] { return std::string(); },
            [o](const Globals &) { return runInspect(o->path, o->json, o->trust, o->allowUnsigned); },
            [o] { return o->json; }};
}

namespace {

struct PreflightOptions {
    std::string path;
    std::string gpu = "rtx-pro-6000-half";
    bool json = false;
};

/// `preflight BUNDLE --gpu PROFILE` (core/bundle/preflight.h): exit 0 when no check fails (a check
/// that cannot be made prints its reason, verdict "unknown"), 1 when one fails or the bundle
/// cannot be read.
int runPreflight(const PreflightOptions &o)
{
    namespace fs = std::filesystem;
    Json info;
    try {
        const Bundle::GpuProfile profile = Bundle::gpuProfile(o.gpu);
        std::vector<Bundle::Problem> problems;
        const Bundle::OpenedBundle b = Bundle::openBundleUnverified(o.path, problems);
        info = Bundle::preflight(b.root, profile);
        info["bundle"] = b.source.string();
        if (!problems.empty()) {
            info["verdict"] = "refused";
            info["reasons"].insert(info["reasons"].begin(), "the bundle is not intact: " + problems.front().message);
        }
    } catch (const Bundle::BundleError &e) {
        std::fprintf(stderr, "aotstudio-cli: preflight: %s\n", Bundle::validUtf8(e.what()).c_str());
        if (o.json)
            Protocol::printEnvelope(
                stdout,
                Protocol::errorEnvelope(Protocol::Error{"preflight", Protocol::Code::BadRequest, e.what(), ""}));
        return kExitFailed;
    }
    const bool refused = info.value("verdict", "") == "refused";
    if (o.json) {
        if (refused)
            Protocol::printEnvelope(
                stdout,
                Protocol::errorEnvelope(Protocol::Error{"preflight", Protocol::Code::Incompatible,
                                                        info["reasons"].front().get<std::string>(), ""},
                                        info));
        else
            Protocol::printEnvelope(stdout, Protocol::okEnvelope(info));
        return refused ? kExitFailed : 0;
    }
    const Json &p = info["profile"];
    std::printf("bundle:       %s\n", info.value("bundle", "").c_str());
    std::printf("compat key:   %s\n",
                info.value("compat_key", Json()).is_string() ? info["compat_key"].get<std::string>().c_str()
                                                             : "none (made before format 3)");
    std::printf("target:       %s: %s, compute capability %s, %s\n", p.value("name", "").c_str(),
                p.value("description", "").c_str(), p.value("compute_capability", "").c_str(),
                humanBytes(p.value("memory_bytes", 0.0)).c_str());
    for (const auto &c : info["checks"]) {
        const std::string status = c.value("status", "");
        const char *mark = status == "ok" ? "ok  " : status == "fail" ? "FAIL" : status == "warn" ? "warn" : "??  ";
        std::printf("  %s %-14s %s\n", mark, c.value("name", "").c_str(), c.value("summary", "").c_str());
    }
    const std::string verdict = info.value("verdict", "");
    std::printf("verdict:      %s\n",
                verdict == "ok"            ? "it will load, fit and run there"
                    : verdict == "refused" ? "it will not run there (see FAIL above)"
                                           : "no check failed, but some could not be made (see ?? above)");
    std::printf("source:       %s\n", p.value("source", "").c_str());
    return refused ? kExitFailed : 0;
}

} // namespace

Command preflightCommand()
{
    auto o = std::make_shared<PreflightOptions>();
    return {"preflight",
            "Will a bundle load, fit and run on a GPU worker? Architectures (SASS/PTX) against the GPU, the torch the "
            "worker offers, kernels known not to exist there, memory fit, cold start and requests per worker, from "
            "the bundle's files (nothing is loaded)",
            [o](CLI::App &cmd) {
                cmd.add_option("bundle", o->path, "Bundle directory or .zip")->required();
                std::string names;
                for (const auto &p : Bundle::gpuProfiles())
                    names += (names.empty() ? "" : ", ") + p.name;
                cmd.add_option("--gpu", o->gpu,
                               "Target GPU profile: " + names
                                   + ", or a JSON file {name, compute_capability, "
                                     "memory_gib, workspace_bytes, worker_seconds, torch_versions}")
                    ->capture_default_str();
                cmd.add_flag("--json", o->json, "Print the JSON envelope (the checks, for CI)");
                cmd.footer("Exit status: 0 every check passed or could not be made (verdict ok or unknown), 1 a check "
                           "failed or the bundle cannot be read, 2 bad command line.");
            },
            [] { return std::string(); },
            [o](const Globals &) { return runPreflight(*o); },
            [o] { return o->json; }};
}

} // namespace AotStudio::Cli
