// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-run-lite: a CPU bundle whose buckets were exported with `--runtime lite`
// (link_libtorch=False), run with no libtorch, c10 or Python in the process (BUNDLE.md "The
// libtorch-free runtime"). The same steps, flags and --json shape as aotstudio-run where they
// apply: verify every hash and the signature, choose the bucket, load its package (the shim in
// core/runtime/lite answers its aoti_torch_* calls), run it, report cold start and the outputs.
#include "bundle/bundle.h"
#include "bundle/compat.h"
#include "bundle/guards.h"
#include "bundle/signing.h"
#include "bundle/text.h"
#include "bundle/weights.h"
#include "profiler/coldclock.h"
#include "protocol/envelope.h"
#include "runtime/lite/litepackage.h"
#include "runtime/lite/shim.h"
#include "runtime/lite/tensorio.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>

#include <time.h>
#include <unistd.h>

using namespace AotStudio;
using nlohmann::json;

namespace {

/// The torch whose AOTInductor C ABI the shim implements (the pinned one): a bundle's major.minor
/// must match, as aotstudio-run requires of its LibTorch.
constexpr const char *kAbiTorchVersion = "2.14.1";

using Clock = std::chrono::steady_clock;

using Profiler::ColdClock; // profiler/coldclock.h: the cold-start clock both runtimes share

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string oneLine(const std::string &message)
{
    std::string line = Bundle::validUtf8(message);
    std::replace_if(
        line.begin(), line.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return line;
}

int refuse(bool asJson, const std::string &stage, const std::string &message, const std::string &code = "")
{
    const std::string line = oneLine(message);
    std::fprintf(stderr, "aotstudio-run-lite: %s: %s\n", stage.c_str(), line.c_str());
    if (asJson) {
        const std::string c = !code.empty() ? code
            : stage == "refused"            ? Protocol::Code::Refused
                                            : Protocol::Code::Failed;
        Protocol::printEnvelope(
            stdout, Protocol::errorEnvelope({{"stage", stage}, {"code", c}, {"message", line}, {"hint", ""}}));
    }
    std::fflush(nullptr);
    return Protocol::kExitFailed;
}

int usage(bool asJson, const std::string &message)
{
    std::fprintf(stderr, "aotstudio-run-lite: %s\n", message.c_str());
    if (asJson)
        Protocol::printEnvelope(stdout, Protocol::usageEnvelope(message));
    return Protocol::kExitUsage;
}

/// What the loader mapped: shared objects in /proc/self/maps, and whether any is libtorch or c10.
json mappedLibraries()
{
    std::ifstream in("/proc/self/maps");
    std::string line;
    std::vector<std::string> seen;
    bool torch = false;
    while (std::getline(in, line)) {
        const auto slash = line.find('/');
        if (slash == std::string::npos)
            continue;
        const std::string path = line.substr(slash);
        if (path.find(".so") == std::string::npos || std::find(seen.begin(), seen.end(), path) != seen.end())
            continue;
        seen.push_back(path);
        const std::string base = path.substr(path.rfind('/') + 1);
        torch = torch || base.rfind("libtorch", 0) == 0 || base.rfind("libc10", 0) == 0
            || base.rfind("libpython", 0) == 0;
    }
    double bytes = 0;
    for (const auto &p : seen) {
        std::error_code ec;
        const auto n = std::filesystem::file_size(p, ec);
        bytes += ec ? 0 : static_cast<double>(n);
    }
    return {{"count", seen.size()}, {"bytes", bytes}, {"cuda_stack", false}, {"libtorch", torch}};
}

/// Summary of one output as aotstudio-run --json prints it: shape, dtype, sum, mean, the first
/// six values (row-major), non-finite count; `rows` < 0 keeps every row.
json outputJson(const std::string &name, const Lite::Tensor &t, long long rows)
{
    Lite::Tensor v = t;
    if (rows >= 0 && !v.sizes.empty() && rows < v.sizes[0])
        v.sizes[0] = rows;
    auto dense = Lite::emptyTensor(v.sizes, v.dtype);
    Lite::copyInto(*dense, v);
    const std::int64_t n = dense->numel();
    double sum = 0;
    long long nonFinite = 0;
    std::vector<double> first;
    const auto value = [&](std::int64_t i) -> double {
        const char *p = static_cast<const char *>(dense->data()) + i * static_cast<std::int64_t>(dense->itemSize());
        switch (dense->dtype) {
        case 6:
            return *reinterpret_cast<const float *>(p);
        case 7:
            return *reinterpret_cast<const double *>(p);
        case 4:
            return static_cast<double>(*reinterpret_cast<const std::int64_t *>(p));
        case 3:
            return *reinterpret_cast<const std::int32_t *>(p);
        case 2:
            return *reinterpret_cast<const std::int16_t *>(p);
        case 1:
            return *reinterpret_cast<const std::int8_t *>(p);
        case 0:
        case 11:
            return *reinterpret_cast<const std::uint8_t *>(p);
        default:
            return std::nan("");
        }
    };
    for (std::int64_t i = 0; i < n; ++i) {
        const double x = value(i);
        if (!std::isfinite(x))
            ++nonFinite;
        else
            sum += x;
        if (i < 6)
            first.push_back(x);
    }
    return {{"name", name},
            {"shape", v.sizes},
            {"dtype", Lite::dtypeName(v.dtype)},
            {"sum", sum},
            {"mean", n ? sum / static_cast<double>(n) : 0.0},
            {"first", first},
            {"non_finite", nonFinite}};
}

std::string shapeText(const std::vector<std::int64_t> &s)
{
    std::string t = "[";
    for (std::size_t i = 0; i < s.size(); ++i)
        t += (i ? ", " : "") + std::to_string(s[i]);
    return t + "]";
}

/// --check PACKAGE: which symbols the package's .so needs from the process and which of those
/// this runtime lacks (what export asks before it keeps a lite package).
int checkPackage(const std::string &pt2)
{
    json out;
    try {
        Bundle::TempDir tmp("aotstudio-lite-check-");
        const auto root = Bundle::extractZip(pt2, tmp.path());
        const auto so = Lite::findPackageLibrary(root);
        const auto needed = Lite::processSymbols(so);
        const auto missing = Lite::unresolvedSymbols(needed);
        out = {{"package", pt2}, {"needed", needed}, {"missing", missing}, {"runs", missing.empty()}};
    } catch (const std::exception &e) {
        return refuse(true, "failed", e.what());
    }
    Protocol::printEnvelope(stdout, Protocol::okEnvelope(out));
    return 0;
}

/// --package PKG --input FILE: one package on the file's tensors, outputs saved with
/// --save-outputs; no bundle, no hashes (export's verify of a lite package, as aotstudio-run
/// --package serves a sweep).
int runPackage(const std::string &pt2, const std::string &inputPath, const std::string &saveTo,
               const std::string &guardsPath, bool convertLayout, bool asJson)
{
    try {
        Lite::Package::LoadOptions options;
        options.convertLayout = convertLayout;
        // What the package accepts (aotstudio-run --package's rule): the --guards file (a bundle
        // bucket's, written out by the caller), else its model.guards.json sidecar.
        if (!guardsPath.empty()) {
            std::ifstream in(guardsPath);
            const json g = json::parse(in, nullptr, false);
            if (g.is_discarded())
                return refuse(asJson, "failed", "--guards '" + guardsPath + "' is not JSON");
            options.guards = std::make_shared<Bundle::InputGuards>(Bundle::InputGuards::parse(g, guardsPath));
        } else if (auto sidecar = Bundle::InputGuards::loadSidecar(pt2)) {
            options.guards = std::make_shared<Bundle::InputGuards>(std::move(*sidecar));
        }
        auto file = Lite::readTensorFile(inputPath);
        if (options.guards
            && std::any_of(file.names.begin(), file.names.end(), [](const std::string &n) { return !n.empty(); })) {
            // A dict of named tensors is arranged by the guards' input names.
            Lite::TensorFile arranged;
            for (std::size_t i = 0; i < options.guards->inputCount(); ++i) {
                const auto &name = options.guards->inputName(i);
                const auto it = std::find(file.names.begin(), file.names.end(), name);
                if (it == file.names.end())
                    return refuse(asJson, "refused",
                                  "input file '" + inputPath + "' has no tensor named '" + name + "'");
                arranged.tensors.push_back(file.tensors[static_cast<std::size_t>(it - file.names.begin())]);
                arranged.names.push_back(name);
            }
            file = std::move(arranged);
        }
        auto package = Lite::Package::load(pt2, options);
        package->setInputs({file.tensors.begin(), file.tensors.end()});
        const auto t0 = Clock::now();
        const auto outputs = package->run();
        const double runMs = msSince(t0);
        std::vector<const Lite::Tensor *> outs;
        json summary = json::array();
        for (std::size_t i = 0; i < outputs.size(); ++i) {
            outs.push_back(outputs[i].get());
            summary.push_back(outputJson("output " + std::to_string(i), *outputs[i], -1));
        }
        if (!saveTo.empty())
            Lite::writeTensorFile(saveTo, outs);
        const json out{{"package", pt2},
                       {"device", "cpu"},
                       {"runtime", "lite"},
                       {"run_ms", runMs},
                       {"outputs", summary},
                       {"saved", saveTo.empty() ? json() : json(saveTo)},
                       {"layout_conversions", Bundle::conversionsJson(package->layoutConversions())}};
        if (asJson) {
            Protocol::printEnvelope(stdout, Protocol::okEnvelope(Bundle::validUtf8Json(out)));
        } else {
            std::printf("package:  %s\nrun:      %.3f ms\noutputs:  %zu\n", pt2.c_str(), runMs, outputs.size());
            for (const auto &c : package->layoutConversions())
                std::printf("layout:   %s\n", Bundle::validUtf8(c.message).c_str());
        }
    } catch (const Lite::InputRefused &e) {
        return refuse(asJson, "refused", e.what());
    } catch (const Bundle::BundleError &e) {
        return refuse(asJson, "failed", e.what());
    } catch (const Lite::LiteError &e) {
        return refuse(asJson, e.missing().empty() ? "failed" : "refused", e.what());
    } catch (const std::exception &e) {
        return refuse(asJson, "failed", e.what());
    }
    std::fflush(nullptr);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    const ColdClock cold;
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
    std::string bundlePath, inputPath, saveOutputs, bucketName, checkPath, packagePath, guardsPath;
    std::optional<long long> batchOpt;
    int iters = 100, warmup = 10, threads = 0;
    std::uint64_t seed = 0;
    bool asJson = false, allowUnsigned = false, abi = false, convertLayout = false;
    std::vector<std::string> trustPaths;
    app.add_option("bundle", bundlePath, "Bundle directory or .zip (from aotstudio-cli export --runtime lite)");
    app.add_option("-b,--batch", batchOpt, "Batch size of the request (default: the first exact bucket's batch)")
        ->check(CLI::Range(1LL, 1LL << 40));
    app.add_option("-i,--input", inputPath,
                   "Inputs from a torch.save file (a tensor, a list or tuple of tensors, or a "
                   "dict of name -> tensor matched to the bundle's input names)")
        ->check(CLI::ExistingFile);
    app.add_option("--save-outputs", saveOutputs,
                   "Write the outputs (the batch's rows) with torch.save's format (a tuple "
                   "of tensors; torch.load(FILE) reads it)");
    app.add_option("--bucket", bucketName, "Run this bucket (no bucket choice, no padding; needs --input)");
    app.add_option("--iters", iters, "Timed runs after the first output; 0 runs once")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000000));
    app.add_option("--warmup", warmup, "Untimed runs before timing")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000000));
    app.add_option("--seed", seed, "Seed of the generated inputs")->capture_default_str();
    app.add_option("--threads", threads, "OpenMP and OpenBLAS threads (default: every usable CPU)")
        ->check(CLI::Range(1, 4096));
    app.add_option("--trust", trustPaths,
                   "Trust store: an Ed25519 public key file or a folder of *.pub files; repeatable. "
                   "Default: $AOTSTUDIO_TRUST")
        ->check(CLI::ExistingPath);
    app.add_flag("--allow-unsigned", allowUnsigned,
                 "Run an unsigned bundle, or one signed by a key outside the trust store");
    app.add_flag("--json", asJson, "Print one JSON object on stdout");
    app.add_flag("--abi", abi, "Print the aoti_torch_* functions this runtime provides (JSON) and exit");
    app.add_option("--package", packagePath,
                   "Run one AOTInductor .pt2 (compiled with link_libtorch=False) on --input "
                   "instead of a bundle; no hashes, no timing (export's verify)")
        ->check(CLI::ExistingFile);
    app.add_option("--guards", guardsPath,
                   "With --package: check the inputs against this guards file (FORMAT.md \"guards\") "
                   "instead of the package's model.guards.json")
        ->check(CLI::ExistingFile);
    app.add_flag("--convert-layout", convertLayout,
                 "Copy an --input tensor whose strides are not the ones the package was compiled for (or "
                 "whose data is not 16-byte aligned) into the package's layout instead of refusing it; "
                 "the copies are reported (layout_conversions)");
    app.add_option("--check", checkPath,
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
        return usage(asJson
                         || std::any_of(argv, argv + argc, [](const char *a) { return std::strcmp(a, "--json") == 0; }),
                     oneLine(e.what()) + "; see --help");
    }
    if (abi) {
        json libs = json::array();
        for (const auto &[lib, what] : Lite::providerLibraries())
            libs.push_back({{"library", lib}, {"for", what}});
        Protocol::printEnvelope(
            stdout,
            Protocol::okEnvelope(
                {{"torch_abi", kAbiTorchVersion}, {"functions", Lite::providedFunctions()}, {"libraries", libs}}));
        return 0;
    }
    if (!checkPath.empty())
        return checkPackage(checkPath);
    if (!packagePath.empty()) {
        if (inputPath.empty())
            return usage(asJson, "--package needs --input FILE (torch.save of the input tensors)");
        return runPackage(packagePath, inputPath, saveOutputs, guardsPath, convertLayout, asJson);
    }
    if (bundlePath.empty())
        return usage(asJson, "give a bundle (directory or .zip); see --help");
    if (!guardsPath.empty())
        return usage(asJson, "--guards goes with --package (a bundle's guards come from its manifest); see --help");
    if (!bucketName.empty() && inputPath.empty())
        return usage(asJson, "--bucket needs --input FILE (torch.save of the input tensors of the bucket's shapes)");
    if (threads > 0) {
        ::setenv("OMP_NUM_THREADS", std::to_string(threads).c_str(), 1); // read when libgomp loads with the package
        // OpenBLAS starts its thread pool when it loads (the first GEMM): sized here, not resized after.
        ::setenv("OPENBLAS_NUM_THREADS", std::to_string(threads).c_str(), 1);
        Lite::setBlasThreads(threads);
    }

    // 1. Trust store, open, verify hashes and signature: nothing of the bundle is loaded before.
    Bundle::TrustStore trust;
    try {
        trust = Bundle::TrustStore::fromCommandLine(trustPaths);
    } catch (const Bundle::BundleError &e) {
        return usage(asJson, e.what());
    }
    const auto tVerify = Clock::now();
    Bundle::OpenedBundle bundle;
    Bundle::SignatureCheck signature;
    try {
        bundle = Bundle::openBundle(bundlePath);
        signature = Bundle::checkSignature(bundle, trust);
    } catch (const Bundle::BundleError &e) {
        return refuse(asJson, "refused", e.what());
    }
    if (const auto why = Bundle::signatureRefusal(signature, trust, allowUnsigned, bundlePath))
        return refuse(asJson, "refused", *why, Bundle::refusalIsTrust(signature) ? Protocol::Code::Untrusted : "");
    const std::string signatureLine = Bundle::describeSignature(signature, trust, allowUnsigned);
    const double verifyMs = msSince(tVerify);
    const double toVerifiedMs = cold.sinceStartMs();
    const Bundle::Manifest &m = bundle.manifest;
    if (m.device != "cpu")
        return refuse(asJson, "refused",
                      "bundle '" + bundlePath + "' is for device " + m.device
                          + "; the lite runtime runs CPU bundles only (use aotstudio-run)");
    // The checks aotstudio-run makes before loading (app/run/bundlerun.cpp checkRunsHere): the
    // compatibility key against this machine and the lite runtime (no torch comparison for lite
    // packages; a bundle with no lite bucket is refused, naming its buckets), then the shared
    // weights' binding, torch-free, before any package's native code runs.
    Bundle::Host host = Bundle::Host::current(kAbiTorchVersion, false, "");
    host.runtime = "lite";
    if (const auto why = Bundle::checkCompatible(m, host); !why.empty()) {
        std::string all;
        for (const auto &w : why)
            all += (all.empty() ? "" : "; ") + w;
        return refuse(asJson, "refused", "bundle '" + bundlePath + "': " + all, Protocol::Code::Incompatible);
    }
    try {
        if (const auto unbound = Bundle::checkBundleWeights(bundle.root, m); !unbound.empty()) {
            std::string all;
            for (const auto &w : unbound)
                all += (all.empty() ? "" : "; ") + w;
            return refuse(asJson, "refused",
                          "bundle '" + bundlePath + "': its weights do not bind: " + all
                              + " (export it again; nothing of it was loaded)");
        }
    } catch (const Bundle::BundleError &e) {
        return refuse(asJson, "refused", "bundle '" + bundlePath + "': " + e.what());
    }

    // 2. Inputs and bucket.
    Lite::TensorFile file;
    long long batch = 0;
    Bundle::BucketChoice choice;
    try {
        if (!inputPath.empty()) {
            file = Lite::readTensorFile(inputPath);
            // A dict is arranged by the manifest's input names.
            if (std::any_of(file.names.begin(), file.names.end(), [](const std::string &n) { return !n.empty(); })) {
                Lite::TensorFile arranged;
                for (const auto &in : m.inputs) {
                    const auto it = std::find(file.names.begin(), file.names.end(), in.name);
                    if (it == file.names.end())
                        return refuse(asJson, "refused",
                                      "input file '" + inputPath + "' has no tensor named '" + in.name + "'");
                    arranged.tensors.push_back(file.tensors[static_cast<std::size_t>(it - file.names.begin())]);
                    arranged.names.push_back(in.name);
                }
                file = std::move(arranged);
            }
            if (file.tensors.size() != m.inputs.size())
                return refuse(asJson, "refused",
                              "input file '" + inputPath + "' has " + std::to_string(file.tensors.size())
                                  + " tensors; the bundle's model takes " + std::to_string(m.inputs.size()));
            for (std::size_t i = 0; i < file.tensors.size(); ++i)
                if (Lite::dtypeName(file.tensors[i]->dtype) != Bundle::normalizeDtype(m.inputs[i].dtype))
                    return refuse(asJson, "refused",
                                  "input file '" + inputPath + "': tensor " + std::to_string(i) + " is "
                                      + Lite::dtypeName(file.tensors[i]->dtype) + "; the bundle's model takes "
                                      + m.inputs[i].dtype);
            if (file.tensors.front()->sizes.empty())
                return refuse(asJson, "refused",
                              "input file '" + inputPath + "': the first tensor has no batch dimension");
            batch = file.tensors.front()->sizes.front();
            if (batchOpt && *batchOpt != batch)
                return refuse(asJson, "refused",
                              "batch " + std::to_string(*batchOpt) + " (--batch) differs from the input file's batch "
                                  + std::to_string(batch) + "; give one of them");
        } else if (batchOpt) {
            batch = *batchOpt;
        } else {
            for (const auto &b : m.buckets)
                if (b.batch) {
                    batch = *b.batch;
                    break;
                }
            if (batch == 0)
                batch = m.buckets.front().batchMin;
        }
        if (!bucketName.empty()) {
            const auto it = std::find_if(m.buckets.begin(), m.buckets.end(),
                                         [&](const Bundle::Bucket &b) { return b.name == bucketName; });
            if (it == m.buckets.end())
                return refuse(asJson, "refused", "bundle '" + bundlePath + "' has no bucket '" + bucketName + "'");
            choice = {*it, batch, false};
        } else {
            choice = Bundle::chooseBucket(m, batch);
        }
    } catch (const Bundle::BundleError &e) {
        return refuse(asJson, "refused", "bundle '" + bundlePath + "': " + e.what());
    } catch (const std::exception &e) {
        return refuse(asJson, "refused", e.what());
    }
    // A mixed bundle (lite and libtorch buckets) runs here when the request lands on a lite bucket.
    if (const auto runtime = Bundle::bucketRuntime(m, choice.bucket.name); runtime != "lite") {
        std::string lite;
        for (const auto &b : m.buckets)
            if (Bundle::bucketRuntime(m, b.name) == "lite")
                lite += (lite.empty() ? "" : ", ") + b.describe();
        return refuse(asJson, "refused",
                      "bundle '" + bundlePath + "', bucket " + choice.bucket.name + " was exported for the " + runtime
                          + " runtime; buckets needing libtorch: " + Bundle::libtorchBuckets(m)
                          + "; this runtime is lite: run it with aotstudio-run, or export with --runtime lite"
                          + (lite.empty() ? std::string()
                                          : " (lite buckets here: " + lite + "; choose one with --batch or --bucket)"),
                      Protocol::Code::Incompatible);
    }

    // The request's tensors at the bucket's batch: the file's (padded with zero rows where the
    // bucket is larger, in the file's own layout as aotstudio-run pads them, so that padding alone
    // never makes an input the package refuses), or generated ones (contiguous, copied into the
    // package's layout by setInputs).
    std::vector<std::shared_ptr<const Lite::Tensor>> inputs;
    const bool generated = file.tensors.empty();
    try {
        std::mt19937_64 rng(seed);
        std::normal_distribution<float> normal;
        for (std::size_t i = 0; i < m.inputs.size(); ++i) {
            const auto &spec = m.inputs[i];
            const bool batched = !spec.shape.empty() && spec.shape.front() == Bundle::kBatchDim;
            const std::int32_t dtype = Lite::dtypeCode(spec.dtype);
            if (dtype < 0)
                return refuse(asJson, "refused",
                              "input " + std::to_string(i) + " has dtype " + spec.dtype
                                  + ", unknown to the lite runtime");
            if (!generated) {
                const auto &src = file.tensors[i];
                if (!batched || src->sizes.empty() || src->sizes[0] >= choice.padTo) {
                    inputs.push_back(src); // as the file holds it: setInputs checks its layout
                    continue;
                }
                Lite::Tensor like = *src;
                like.sizes[0] = choice.padTo;
                auto t = Lite::emptyTensor(like.sizes, src->dtype, Lite::preservedStrides(like));
                std::memset(t->data(), 0, static_cast<std::size_t>(t->numel()) * t->itemSize());
                Lite::Tensor dst = *t;
                dst.sizes = src->sizes; // the file's rows; padding rows stay zero
                Lite::copyInto(dst, *src);
                inputs.push_back(std::move(t));
                continue;
            }
            std::vector<std::int64_t> shape;
            for (auto d : spec.withBatch(choice.padTo))
                shape.push_back(d);
            auto t = Lite::emptyTensor(shape, dtype);
            std::memset(t->data(), 0, static_cast<std::size_t>(t->numel()) * t->itemSize());
            if (dtype == 6 || dtype == 7) {
                const std::int64_t rowElems = batched && choice.padTo > 0 ? t->numel() / choice.padTo : t->numel();
                const std::int64_t n = batched ? rowElems * batch : t->numel();
                for (std::int64_t k = 0; k < n; ++k) {
                    if (dtype == 6)
                        static_cast<float *>(t->data())[k] = normal(rng);
                    else
                        static_cast<double *>(t->data())[k] = normal(rng);
                }
            }
            inputs.push_back(std::move(t));
        }
        if (choice.bucket.guards) { // shapes before any native code runs; strides and dtypes at setInputs
            std::vector<std::vector<std::int64_t>> shapes;
            for (const auto &t : inputs)
                shapes.push_back(t->sizes);
            if (const auto v = choice.bucket.guards->check(shapes))
                return refuse(asJson, "refused",
                              "bundle '" + bundlePath + "', bucket " + choice.bucket.name + ": " + v->message);
        }
    } catch (const std::exception &e) {
        return refuse(asJson, "refused", e.what());
    }

    // 3. Load the bucket's package (this runs its native code) and admit the inputs: the bucket's
    // guards (shapes, strides, dtypes) and alignment, as aotstudio-run checks them.
    std::unique_ptr<Lite::Package> package;
    const auto tLoad = Clock::now();
    try {
        Lite::Package::LoadOptions options;
        if (const auto entry = m.files.find(choice.bucket.package); entry != m.files.end())
            options.sha256 = entry->second.sha256;
        options.weightFiles = choice.bucket.weightsUnder(bundle.root);
        options.guards = choice.bucket.guards;
        options.convertLayout = convertLayout;
        package = Lite::Package::load(bundle.root / choice.bucket.package, options);
    } catch (const Lite::LiteError &e) {
        return refuse(asJson, e.missing().empty() ? "failed" : "refused", e.what());
    }
    const double loadMs = msSince(tLoad);
    const double toLoadedMs = cold.sinceStartMs();
    try {
        package->setInputs(std::move(inputs), generated);
    } catch (const Lite::InputRefused &e) {
        return refuse(asJson, "refused", "bundle '" + bundlePath + "', bucket " + choice.bucket.name + ": " + e.what());
    } catch (const Lite::LiteError &e) {
        return refuse(asJson, "failed", e.what());
    }

    // 4. First output, then the timed runs.
    std::vector<std::unique_ptr<Lite::Tensor>> outputs;
    double firstRunMs = 0, toFirstOutputMs = 0;
    std::vector<double> samples;
    try {
        const auto tFirst = Clock::now();
        outputs = package->run();
        firstRunMs = msSince(tFirst);
        toFirstOutputMs = cold.sinceStartMs();
        for (int i = 0; i < (iters > 0 ? warmup : 0); ++i)
            package->run();
        for (int i = 0; i < iters; ++i) {
            const auto t0 = Clock::now();
            package->run();
            samples.push_back(msSince(t0));
        }
    } catch (const std::exception &e) {
        return refuse(asJson, "failed", e.what());
    }
    const long long rows = choice.padded ? batch : -1;
    if (!saveOutputs.empty()) {
        try {
            std::vector<Lite::Tensor> sliced;
            for (const auto &o : outputs) {
                Lite::Tensor v = *o;
                if (rows >= 0 && !v.sizes.empty() && rows < v.sizes[0])
                    v.sizes[0] = rows;
                sliced.push_back(v);
            }
            std::vector<const Lite::Tensor *> ptrs;
            for (const auto &s : sliced)
                ptrs.push_back(&s);
            Lite::writeTensorFile(saveOutputs, ptrs);
        } catch (const std::exception &e) {
            return refuse(asJson, "failed", e.what());
        }
    }

    // 5. Report.
    json latency;
    if (!samples.empty()) {
        std::vector<double> s = samples;
        std::sort(s.begin(), s.end());
        const auto q = [&](double p) {
            const double pos = p * static_cast<double>(s.size() - 1);
            const auto lo = static_cast<std::size_t>(pos);
            const auto hi = std::min(lo + 1, s.size() - 1);
            return s[lo] + (s[hi] - s[lo]) * (pos - static_cast<double>(lo));
        };
        double mean = 0;
        for (double x : s)
            mean += x;
        mean /= static_cast<double>(s.size());
        latency = {{"runs", s.size()},  {"median_ms", q(0.5)}, {"p10_ms", q(0.1)},    {"p90_ms", q(0.9)},
                   {"p99_ms", q(0.99)}, {"mean_ms", mean},     {"min_ms", s.front()}, {"max_ms", s.back()}};
    }
    json coldJson{{"clock", cold.source()},
                  {"resolution_ms", cold.resolutionMs()},
                  {"to_main_ms", cold.mainEnteredMs()},
                  {"to_verified_ms", toVerifiedMs},
                  {"to_loaded_ms", toLoadedMs},
                  {"to_first_output_ms", toFirstOutputMs},
                  {"verify_ms", verifyMs},
                  {"load_ms", loadMs},
                  {"first_run_ms", firstRunMs},
                  {"libraries", mappedLibraries()}};
    json outs = json::array();
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const std::string name
            = i < m.outputs.size() && !m.outputs[i].name.empty() ? m.outputs[i].name : "output " + std::to_string(i);
        outs.push_back(outputJson(name, *outputs[i], rows));
    }
    if (asJson) {
        json sig = signature.toJson();
        sig["summary"] = signatureLine;
        json out{{"bundle", bundle.source.string()},
                 {"zip", static_cast<bool>(bundle.extracted)},
                 {"model", m.model},
                 {"device", "cpu"},
                 {"runtime", "lite"},
                 {"bundle_torch_version", m.torchVersion},
                 {"runtime_torch_version", kAbiTorchVersion},
                 {"producer", m.producer},
                 {"created", m.created},
                 {"files_verified", m.files.size()},
                 {"signature", sig},
                 {"bucket", choice.bucket.name},
                 {"package", choice.bucket.package},
                 {"batch", batch},
                 {"run_batch", choice.padTo},
                 {"padded", choice.padded},
                 {"runners", 1},
                 {"iters", iters},
                 {"warmup", warmup},
                 {"seed", seed},
                 {"latency", latency},
                 {"cold_start", coldJson},
                 {"saved", saveOutputs.empty() ? json() : json(saveOutputs)},
                 {"layout_conversions", Bundle::conversionsJson(package->layoutConversions())},
                 {"outputs", outs}};
        Protocol::printEnvelope(stdout, Protocol::okEnvelope(Bundle::validUtf8Json(out)));
    } else {
        std::printf("bundle:      %s%s\n", bundle.source.c_str(), bundle.extracted ? " (zip)" : "");
        std::printf("model:       %s on cpu, torch %s (lite runtime, no libtorch; AOTI ABI of torch %s)\n",
                    m.model.c_str(), m.torchVersion.c_str(), kAbiTorchVersion);
        std::printf("signature:   %s\n", Bundle::validUtf8(signatureLine).c_str());
        std::printf("bucket:      %s for batch %lld%s\n", choice.bucket.describe().c_str(), batch,
                    choice.padded ? (", padded to " + std::to_string(choice.padTo) + " rows").c_str() : "");
        if (latency.is_object())
            std::printf("latency:     median %.4f ms, p10 %.4f, p90 %.4f (%d runs after %d warm-up)\n",
                        latency["median_ms"].get<double>(), latency["p10_ms"].get<double>(),
                        latency["p90_ms"].get<double>(), iters, warmup);
        std::printf("cold start:  loaded %.1f ms, first output %.1f ms after process start (main() at %.1f ms,\n"
                    "             verify %.1f ms, load %.1f ms, first run %.2f ms)\n",
                    toLoadedMs, toFirstOutputMs, cold.mainEnteredMs(), verifyMs, loadMs, firstRunMs);
        std::printf("libraries:   %d shared libraries mapped, %.0f MB on disk%s\n",
                    coldJson["libraries"]["count"].get<int>(), coldJson["libraries"]["bytes"].get<double>() / 1e6,
                    coldJson["libraries"]["libtorch"].get<bool>() ? ", libtorch among them" : ", no libtorch");
        for (const auto &c : package->layoutConversions())
            std::printf("layout:      %s\n", Bundle::validUtf8(c.message).c_str());
        for (const auto &o : outs) {
            std::string first;
            for (double v : o["first"]) {
                char buf[32];
                std::snprintf(buf, sizeof buf, "%s%.5g", first.empty() ? "" : ", ", v);
                first += buf;
            }
            std::printf(
                "%s:\n             %s %s  sum %.6g  mean %.6g  first [%s]\n", o["name"].get<std::string>().c_str(),
                shapeText(o["shape"].get<std::vector<std::int64_t>>()).c_str(), o["dtype"].get<std::string>().c_str(),
                o["sum"].get<double>(), o["mean"].get<double>(), first.c_str());
        }
    }
    std::fflush(nullptr);
    return 0;
}
