// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-run-lite's runs (literun.h): a CPU bundle whose buckets were exported with `--runtime
// lite` (link_libtorch=False), run with no libtorch, c10 or Python in the process (BUNDLE.md "The
// libtorch-free runtime"). The same steps, flags and --json shape as aotstudio-run where they
// apply: verify every hash and the signature, choose the bucket, load its package (the shim in
// core/runtime/lite answers its aoti_torch_* calls), run it, report cold start and the outputs.
#include "literun.h"

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

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>

using nlohmann::json;

namespace AotStudio::RunLite {

std::string oneLine(const std::string &message)
{
    std::string line = Bundle::validUtf8(message);
    std::replace_if(
        line.begin(), line.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return line;
}

int usage(bool asJson, const std::string &message)
{
    std::fprintf(stderr, "aotstudio-run-lite: %s\n", message.c_str());
    if (asJson)
        Protocol::printEnvelope(stdout, Protocol::usageEnvelope(message));
    return Protocol::kExitUsage;
}

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

/// A refusal or failure of the bundle run, thrown by its steps and printed once by refuse().
class Refusal : public std::runtime_error
{
public:
    Refusal(std::string stage, const std::string &message, std::string code = {})
        : std::runtime_error(message)
        , m_stage(std::move(stage))
        , m_code(std::move(code))
    { }
    const std::string &stage() const { return m_stage; }
    const std::string &code() const { return m_code; }

private:
    std::string m_stage, m_code;
};

/// A bundle's run, step by step: verify, plan the request, make its inputs, load, run, report.
/// Each step throws Refusal with the message a refusal prints.
class BundleRun
{
public:
    BundleRun(const LiteOptions &o, const ColdClock &cold)
        : m_o(o)
        , m_cold(cold)
    { }

    /// Open, verify hashes and signature against `trust`, then what aotstudio-run checks before
    /// loading (core/serve/bundlerun.cpp checkRunsHere): the compatibility key against this machine
    /// and the lite runtime, then the shared weights' binding, before any package's native code runs.
    void verify(const Bundle::TrustStore &trust);
    /// The request's batch, its input file's tensors (a dict arranged by the manifest's names) and
    /// the bucket that answers it, which must be a lite bucket.
    void plan();
    /// The request's tensors at the bucket's batch: the file's (padded with zero rows where the
    /// bucket is larger, in the file's own layout as aotstudio-run pads them, so that padding alone
    /// never makes an input the package refuses), or generated ones (contiguous, copied into the
    /// package's layout by setInputs); their shapes against the bucket's guards.
    void makeInputs();
    /// Load the bucket's package (this runs its native code) and admit the inputs: the bucket's
    /// guards (shapes, strides, dtypes) and alignment, as aotstudio-run checks them.
    void load();
    /// The first output, then the timed runs; the outputs saved with --save-outputs.
    void run();
    /// The result on stdout: one envelope with --json, else text.
    void report() const;

private:
    void readInputFile();
    json latencyJson() const;
    json outputsJson() const;
    void printText(const json &latency, const json &coldJson, const json &outs) const;

    const LiteOptions &m_o;
    const ColdClock &m_cold;
    Bundle::OpenedBundle m_bundle;
    Bundle::SignatureCheck m_signature;
    std::string m_signatureLine;
    double m_verifyMs = 0, m_toVerifiedMs = 0;
    Lite::TensorFile m_file;
    long long m_batch = 0;
    Bundle::BucketChoice m_choice;
    std::vector<std::shared_ptr<const Lite::Tensor>> m_inputs;
    std::unique_ptr<Lite::Package> m_package;
    double m_loadMs = 0, m_toLoadedMs = 0, m_firstRunMs = 0, m_toFirstOutputMs = 0;
    std::vector<std::unique_ptr<Lite::Tensor>> m_outputs;
    std::vector<double> m_samples;
};

void BundleRun::verify(const Bundle::TrustStore &trust)
{
    const std::string &bundlePath = m_o.bundlePath;
    const auto tVerify = Clock::now();
    try {
        m_bundle = Bundle::openBundle(bundlePath);
        m_signature = Bundle::checkSignature(m_bundle, trust);
    } catch (const Bundle::BundleError &e) {
        throw Refusal("refused", e.what());
    }
    if (const auto why = Bundle::signatureRefusal(m_signature, trust, m_o.allowUnsigned, bundlePath))
        throw Refusal("refused", *why, Bundle::refusalIsTrust(m_signature) ? Protocol::Code::Untrusted : "");
    m_signatureLine = Bundle::describeSignature(m_signature, trust, m_o.allowUnsigned);
    m_verifyMs = msSince(tVerify);
    m_toVerifiedMs = m_cold.sinceStartMs();
    const Bundle::Manifest &m = m_bundle.manifest;
    if (m.device != "cpu")
        throw Refusal("refused",
                      "bundle '" + bundlePath + "' is for device " + m.device
                          + "; the lite runtime runs CPU bundles only (use aotstudio-run)");
    // No torch comparison for lite packages; a bundle with no lite bucket is refused, naming its buckets.
    Bundle::Host host = Bundle::Host::current(kAbiTorchVersion, false, "");
    host.runtime = "lite";
    if (const auto why = Bundle::checkCompatible(m, host); !why.empty()) {
        std::string all;
        for (const auto &w : why)
            all += (all.empty() ? "" : "; ") + w;
        throw Refusal("refused", "bundle '" + bundlePath + "': " + all, Protocol::Code::Incompatible);
    }
    std::vector<std::string> unbound;
    try {
        unbound = Bundle::checkBundleWeights(m_bundle.root, m);
    } catch (const Bundle::BundleError &e) {
        throw Refusal("refused", "bundle '" + bundlePath + "': " + e.what());
    }
    if (!unbound.empty()) {
        std::string all;
        for (const auto &w : unbound)
            all += (all.empty() ? "" : "; ") + w;
        throw Refusal("refused",
                      "bundle '" + bundlePath + "': its weights do not bind: " + all
                          + " (export it again; nothing of it was loaded)");
    }
}

void BundleRun::readInputFile()
{
    const Bundle::Manifest &m = m_bundle.manifest;
    const std::string &inputPath = m_o.inputPath;
    m_file = Lite::readTensorFile(inputPath);
    // A dict is arranged by the manifest's input names.
    if (std::any_of(m_file.names.begin(), m_file.names.end(), [](const std::string &n) { return !n.empty(); })) {
        Lite::TensorFile arranged;
        for (const auto &in : m.inputs) {
            const auto it = std::find(m_file.names.begin(), m_file.names.end(), in.name);
            if (it == m_file.names.end())
                throw Refusal("refused", "input file '" + inputPath + "' has no tensor named '" + in.name + "'");
            arranged.tensors.push_back(m_file.tensors[static_cast<std::size_t>(it - m_file.names.begin())]);
            arranged.names.push_back(in.name);
        }
        m_file = std::move(arranged);
    }
    if (m_file.tensors.size() != m.inputs.size())
        throw Refusal("refused",
                      "input file '" + inputPath + "' has " + std::to_string(m_file.tensors.size())
                          + " tensors; the bundle's model takes " + std::to_string(m.inputs.size()));
    for (std::size_t i = 0; i < m_file.tensors.size(); ++i)
        if (Lite::dtypeName(m_file.tensors[i]->dtype) != Bundle::normalizeDtype(m.inputs[i].dtype))
            throw Refusal("refused",
                          "input file '" + inputPath + "': tensor " + std::to_string(i) + " is "
                              + Lite::dtypeName(m_file.tensors[i]->dtype) + "; the bundle's model takes "
                              + m.inputs[i].dtype);
    if (m_file.tensors.front()->sizes.empty())
        throw Refusal("refused", "input file '" + inputPath + "': the first tensor has no batch dimension");
    m_batch = m_file.tensors.front()->sizes.front();
    if (m_o.batch && *m_o.batch != m_batch)
        throw Refusal("refused",
                      "batch " + std::to_string(*m_o.batch) + " (--batch) differs from the input file's batch "
                          + std::to_string(m_batch) + "; give one of them");
}

void BundleRun::plan()
{
    const Bundle::Manifest &m = m_bundle.manifest;
    const std::string &bundlePath = m_o.bundlePath;
    try {
        if (!m_o.inputPath.empty()) {
            readInputFile();
        } else if (m_o.batch) {
            m_batch = *m_o.batch;
        } else {
            for (const auto &b : m.buckets)
                if (b.batch) {
                    m_batch = *b.batch;
                    break;
                }
            if (m_batch == 0)
                m_batch = m.buckets.front().batchMin;
        }
        if (!m_o.bucketName.empty()) {
            const auto it = std::find_if(m.buckets.begin(), m.buckets.end(),
                                         [&](const Bundle::Bucket &b) { return b.name == m_o.bucketName; });
            if (it == m.buckets.end())
                throw Refusal("refused", "bundle '" + bundlePath + "' has no bucket '" + m_o.bucketName + "'");
            m_choice = {*it, m_batch, false};
        } else {
            m_choice = Bundle::chooseBucket(m, m_batch);
        }
    } catch (const Refusal &) {
        throw;
    } catch (const Bundle::BundleError &e) {
        throw Refusal("refused", "bundle '" + bundlePath + "': " + e.what());
    } catch (const std::exception &e) {
        throw Refusal("refused", e.what());
    }
    // A mixed bundle (lite and libtorch buckets) runs here when the request lands on a lite bucket.
    if (const auto runtime = Bundle::bucketRuntime(m, m_choice.bucket.name); runtime != "lite") {
        std::string lite;
        for (const auto &b : m.buckets)
            if (Bundle::bucketRuntime(m, b.name) == "lite")
                lite += (lite.empty() ? "" : ", ") + b.describe();
        throw Refusal("refused",
                      "bundle '" + bundlePath + "', bucket " + m_choice.bucket.name + " was exported for the " + runtime
                          + " runtime; buckets needing libtorch: " + Bundle::libtorchBuckets(m)
                          + "; this runtime is lite: run it with aotstudio-run, or export with --runtime lite"
                          + (lite.empty() ? std::string()
                                          : " (lite buckets here: " + lite + "; choose one with --batch or --bucket)"),
                      Protocol::Code::Incompatible);
    }
}

void BundleRun::makeInputs()
{
    const Bundle::Manifest &m = m_bundle.manifest;
    const bool generated = m_file.tensors.empty();
    try {
        std::mt19937_64 rng(m_o.seed);
        std::normal_distribution<float> normal;
        for (std::size_t i = 0; i < m.inputs.size(); ++i) {
            const auto &spec = m.inputs[i];
            const bool batched = !spec.shape.empty() && spec.shape.front() == Bundle::kBatchDim;
            const std::int32_t dtype = Lite::dtypeCode(spec.dtype);
            if (dtype < 0)
                throw Refusal("refused",
                              "input " + std::to_string(i) + " has dtype " + spec.dtype
                                  + ", unknown to the lite runtime");
            if (!generated) {
                const auto &src = m_file.tensors[i];
                if (!batched || src->sizes.empty() || src->sizes[0] >= m_choice.padTo) {
                    m_inputs.push_back(src); // as the file holds it: setInputs checks its layout
                    continue;
                }
                Lite::Tensor like = *src;
                like.sizes[0] = m_choice.padTo;
                auto t = Lite::emptyTensor(like.sizes, src->dtype, Lite::preservedStrides(like));
                std::memset(t->data(), 0, static_cast<std::size_t>(t->numel()) * t->itemSize());
                Lite::Tensor dst = *t;
                dst.sizes = src->sizes; // the file's rows; padding rows stay zero
                Lite::copyInto(dst, *src);
                m_inputs.push_back(std::move(t));
                continue;
            }
            std::vector<std::int64_t> shape;
            for (auto d : spec.withBatch(m_choice.padTo))
                shape.push_back(d);
            auto t = Lite::emptyTensor(shape, dtype);
            std::memset(t->data(), 0, static_cast<std::size_t>(t->numel()) * t->itemSize());
            if (dtype == 6 || dtype == 7) {
                const std::int64_t rowElems = batched && m_choice.padTo > 0 ? t->numel() / m_choice.padTo : t->numel();
                const std::int64_t n = batched ? rowElems * m_batch : t->numel();
                for (std::int64_t k = 0; k < n; ++k) {
                    if (dtype == 6)
                        static_cast<float *>(t->data())[k] = normal(rng);
                    else
                        static_cast<double *>(t->data())[k] = normal(rng);
                }
            }
            m_inputs.push_back(std::move(t));
        }
        if (m_choice.bucket.guards) { // shapes before any native code runs; strides and dtypes at setInputs
            std::vector<std::vector<std::int64_t>> shapes;
            for (const auto &t : m_inputs)
                shapes.push_back(t->sizes);
            if (const auto v = m_choice.bucket.guards->check(shapes))
                throw Refusal("refused",
                              "bundle '" + m_o.bundlePath + "', bucket " + m_choice.bucket.name + ": " + v->message);
        }
    } catch (const Refusal &) {
        throw;
    } catch (const std::exception &e) {
        throw Refusal("refused", e.what());
    }
}

void BundleRun::load()
{
    const Bundle::Manifest &m = m_bundle.manifest;
    const auto tLoad = Clock::now();
    try {
        Lite::Package::LoadOptions options;
        if (const auto entry = m.files.find(m_choice.bucket.package); entry != m.files.end())
            options.sha256 = entry->second.sha256;
        options.weightFiles = m_choice.bucket.weightsUnder(m_bundle.root);
        options.guards = m_choice.bucket.guards;
        options.convertLayout = m_o.convertLayout;
        m_package = Lite::Package::load(m_bundle.root / m_choice.bucket.package, options);
    } catch (const Lite::LiteError &e) {
        throw Refusal(e.missing().empty() ? "failed" : "refused", e.what());
    }
    m_loadMs = msSince(tLoad);
    m_toLoadedMs = m_cold.sinceStartMs();
    const bool generated = m_file.tensors.empty();
    try {
        m_package->setInputs(std::move(m_inputs), generated);
    } catch (const Lite::InputRefused &e) {
        throw Refusal("refused", "bundle '" + m_o.bundlePath + "', bucket " + m_choice.bucket.name + ": " + e.what());
    } catch (const Lite::LiteError &e) {
        throw Refusal("failed", e.what());
    }
}

void BundleRun::run()
{
    try {
        const auto tFirst = Clock::now();
        m_outputs = m_package->run();
        m_firstRunMs = msSince(tFirst);
        m_toFirstOutputMs = m_cold.sinceStartMs();
        for (int i = 0; i < (m_o.iters > 0 ? m_o.warmup : 0); ++i)
            m_package->run();
        for (int i = 0; i < m_o.iters; ++i) {
            const auto t0 = Clock::now();
            m_package->run();
            m_samples.push_back(msSince(t0));
        }
    } catch (const std::exception &e) {
        throw Refusal("failed", e.what());
    }
    if (m_o.saveOutputs.empty())
        return;
    const long long rows = m_choice.padded ? m_batch : -1;
    try {
        std::vector<Lite::Tensor> sliced;
        for (const auto &out : m_outputs) {
            Lite::Tensor v = *out;
            if (rows >= 0 && !v.sizes.empty() && rows < v.sizes[0])
                v.sizes[0] = rows;
            sliced.push_back(v);
        }
        std::vector<const Lite::Tensor *> ptrs;
        for (const auto &s : sliced)
            ptrs.push_back(&s);
        Lite::writeTensorFile(m_o.saveOutputs, ptrs);
    } catch (const std::exception &e) {
        throw Refusal("failed", e.what());
    }
}

json BundleRun::latencyJson() const
{
    if (m_samples.empty())
        return nullptr;
    std::vector<double> s = m_samples;
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
    return {{"runs", s.size()},  {"median_ms", q(0.5)}, {"p10_ms", q(0.1)},    {"p90_ms", q(0.9)},
            {"p99_ms", q(0.99)}, {"mean_ms", mean},     {"min_ms", s.front()}, {"max_ms", s.back()}};
}

json BundleRun::outputsJson() const
{
    const Bundle::Manifest &m = m_bundle.manifest;
    const long long rows = m_choice.padded ? m_batch : -1;
    json outs = json::array();
    for (std::size_t i = 0; i < m_outputs.size(); ++i) {
        const std::string name
            = i < m.outputs.size() && !m.outputs[i].name.empty() ? m.outputs[i].name : "output " + std::to_string(i);
        outs.push_back(outputJson(name, *m_outputs[i], rows));
    }
    return outs;
}

void BundleRun::report() const
{
    const Bundle::Manifest &m = m_bundle.manifest;
    const json latency = latencyJson();
    const json coldJson{{"clock", m_cold.source()},
                        {"resolution_ms", m_cold.resolutionMs()},
                        {"to_main_ms", m_cold.mainEnteredMs()},
                        {"to_verified_ms", m_toVerifiedMs},
                        {"to_loaded_ms", m_toLoadedMs},
                        {"to_first_output_ms", m_toFirstOutputMs},
                        {"verify_ms", m_verifyMs},
                        {"load_ms", m_loadMs},
                        {"first_run_ms", m_firstRunMs},
                        {"libraries", mappedLibraries()}};
    const json outs = outputsJson();
    if (!m_o.asJson) {
        printText(latency, coldJson, outs);
        return;
    }
    json sig = m_signature.toJson();
    sig["summary"] = m_signatureLine;
    const json out{{"bundle", m_bundle.source.string()},
                   {"zip", static_cast<bool>(m_bundle.extracted)},
                   {"model", m.model},
                   {"device", "cpu"},
                   {"runtime", "lite"},
                   {"bundle_torch_version", m.torchVersion},
                   {"runtime_torch_version", kAbiTorchVersion},
                   {"producer", m.producer},
                   {"created", m.created},
                   {"files_verified", m.files.size()},
                   {"signature", sig},
                   {"bucket", m_choice.bucket.name},
                   {"package", m_choice.bucket.package},
                   {"batch", m_batch},
                   {"run_batch", m_choice.padTo},
                   {"padded", m_choice.padded},
                   {"runners", 1},
                   {"iters", m_o.iters},
                   {"warmup", m_o.warmup},
                   {"seed", m_o.seed},
                   {"latency", latency},
                   {"cold_start", coldJson},
                   {"saved", m_o.saveOutputs.empty() ? json() : json(m_o.saveOutputs)},
                   {"layout_conversions", Bundle::conversionsJson(m_package->layoutConversions())},
                   {"outputs", outs}};
    Protocol::printEnvelope(stdout, Protocol::okEnvelope(Bundle::validUtf8Json(out)));
}

void BundleRun::printText(const json &latency, const json &coldJson, const json &outs) const
{
    const Bundle::Manifest &m = m_bundle.manifest;
    std::printf("bundle:      %s%s\n", m_bundle.source.c_str(), m_bundle.extracted ? " (zip)" : "");
    std::printf("model:       %s on cpu, torch %s (lite runtime, no libtorch; AOTI ABI of torch %s)\n", m.model.c_str(),
                m.torchVersion.c_str(), kAbiTorchVersion);
    std::printf("signature:   %s\n", Bundle::validUtf8(m_signatureLine).c_str());
    std::printf("bucket:      %s for batch %lld%s\n", m_choice.bucket.describe().c_str(), m_batch,
                m_choice.padded ? (", padded to " + std::to_string(m_choice.padTo) + " rows").c_str() : "");
    if (latency.is_object())
        std::printf("latency:     median %.4f ms, p10 %.4f, p90 %.4f (%d runs after %d warm-up)\n",
                    latency["median_ms"].get<double>(), latency["p10_ms"].get<double>(),
                    latency["p90_ms"].get<double>(), m_o.iters, m_o.warmup);
    std::printf("cold start:  loaded %.1f ms, first output %.1f ms after process start (main() at %.1f ms,\n"
                "             verify %.1f ms, load %.1f ms, first run %.2f ms)\n",
                m_toLoadedMs, m_toFirstOutputMs, m_cold.mainEnteredMs(), m_verifyMs, m_loadMs, m_firstRunMs);
    std::printf("libraries:   %d shared libraries mapped, %.0f MB on disk%s\n",
                coldJson["libraries"]["count"].get<int>(), coldJson["libraries"]["bytes"].get<double>() / 1e6,
                coldJson["libraries"]["libtorch"].get<bool>() ? ", libtorch among them" : ", no libtorch");
    for (const auto &c : m_package->layoutConversions())
        std::printf("layout:      %s\n", Bundle::validUtf8(c.message).c_str());
    for (const auto &o : outs) {
        std::string first;
        for (double v : o["first"]) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%s%.5g", first.empty() ? "" : ", ", v);
            first += buf;
        }
        std::printf("%s:\n             %s %s  sum %.6g  mean %.6g  first [%s]\n", o["name"].get<std::string>().c_str(),
                    shapeText(o["shape"].get<std::vector<std::int64_t>>()).c_str(),
                    o["dtype"].get<std::string>().c_str(), o["sum"].get<double>(), o["mean"].get<double>(),
                    first.c_str());
    }
}

/// --abi: the functions this runtime provides and the libraries it opens on demand.
int printAbi()
{
    json libs = json::array();
    for (const auto &[lib, what] : Lite::providerLibraries())
        libs.push_back({{"library", lib}, {"for", what}});
    Protocol::printEnvelope(
        stdout,
        Protocol::okEnvelope(
            {{"torch_abi", kAbiTorchVersion}, {"functions", Lite::providedFunctions()}, {"libraries", libs}}));
    return 0;
}

/// The bundle run: the trust store (unreadable: a usage error), then the steps.
int runBundle(const LiteOptions &o, const ColdClock &cold)
{
    Bundle::TrustStore trust;
    try {
        trust = Bundle::TrustStore::fromCommandLine(o.trustPaths);
    } catch (const Bundle::BundleError &e) {
        return usage(o.asJson, e.what());
    }
    BundleRun run(o, cold);
    try {
        run.verify(trust);
        run.plan();
        run.makeInputs();
        run.load();
        run.run();
    } catch (const Refusal &e) {
        return refuse(o.asJson, e.stage(), e.what(), e.code());
    }
    run.report();
    std::fflush(nullptr);
    return 0;
}

} // namespace

int runLite(const LiteOptions &o, const ColdClock &cold)
{
    if (o.abi)
        return printAbi();
    if (!o.checkPath.empty())
        return checkPackage(o.checkPath);
    if (!o.packagePath.empty()) {
        if (o.inputPath.empty())
            return usage(o.asJson, "--package needs --input FILE (torch.save of the input tensors)");
        return runPackage(o.packagePath, o.inputPath, o.saveOutputs, o.guardsPath, o.convertLayout, o.asJson);
    }
    if (o.bundlePath.empty())
        return usage(o.asJson, "give a bundle (directory or .zip); see --help");
    if (!o.guardsPath.empty())
        return usage(o.asJson, "--guards goes with --package (a bundle's guards come from its manifest); see --help");
    if (!o.bucketName.empty() && o.inputPath.empty())
        return usage(o.asJson, "--bucket needs --input FILE (torch.save of the input tensors of the bucket's shapes)");
    if (o.threads > 0) {
        ::setenv("OMP_NUM_THREADS", std::to_string(o.threads).c_str(), 1); // read when libgomp loads with the package
        // OpenBLAS starts its thread pool when it loads (the first GEMM): sized here, not resized after.
        ::setenv("OPENBLAS_NUM_THREADS", std::to_string(o.threads).c_str(), 1);
        Lite::setBlasThreads(o.threads);
    }
    return runBundle(o, cold);
}

} // namespace AotStudio::RunLite
