// SPDX-License-Identifier: GPL-3.0-or-later
#include "serve/bundlerun.h"

#include "bundle/text.h"
#include "bundle/weights.h"
#include "protocol/messages.h"

#include <algorithm>
#include <chrono>

namespace AotStudio::Serve {

using nlohmann::json;

Bundle::TrustStore loadTrustStore(const std::vector<std::string> &trustPaths)
{
    try {
        return Bundle::TrustStore::fromCommandLine(trustPaths);
    } catch (const Bundle::BundleError &e) {
        throw UsageError(e.what());
    }
}

VerifiedBundle openVerified(const std::string &path, const Bundle::TrustStore &trust, bool allowUnsigned)
{
    // A zip is extracted to a private temporary directory first; the signature is checked on the
    // manifest that lists the hashes; nothing of the bundle is loaded before both pass.
    VerifiedBundle vb;
    vb.path = path;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        vb.bundle = Bundle::openBundle(path);
        vb.signature = Bundle::checkSignature(vb.bundle, trust);
    } catch (const Bundle::BundleError &e) {
        throw Refusal("refused", e.what());
    }
    if (const auto why = Bundle::signatureRefusal(vb.signature, trust, allowUnsigned, path))
        throw Refusal("refused", *why, Bundle::refusalIsTrust(vb.signature) ? Protocol::Code::Untrusted : "");
    vb.signatureLine = Bundle::describeSignature(vb.signature, trust, allowUnsigned);
    vb.verifyMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return vb;
}

void checkRunsHere(const VerifiedBundle &vb, bool cudaAvailable, const std::string &capability)
{
    if (const auto why
        = Bundle::checkCompatible(vb.bundle.manifest, Runtime::libtorchVersion(), cudaAvailable, capability);
        !why.empty()) {
        std::string all;
        for (const auto &w : why)
            all += (all.empty() ? "" : "; ") + w;
        throw Refusal("refused", "bundle '" + vb.path + "': " + all, Protocol::Code::Incompatible);
    }
    // Weights that bind or refuse (BUNDLE.md "Shared weights"): every constant of each package that
    // shares weights binds to exactly one listed weight that holds it, none left over, before any
    // package's native code is loaded.
    try {
        if (const auto unbound = Bundle::checkBundleWeights(vb.bundle.root, vb.bundle.manifest); !unbound.empty()) {
            std::string all;
            for (const auto &w : unbound)
                all += (all.empty() ? "" : "; ") + w;
            throw Refusal("refused",
                          "bundle '" + vb.path + "': its weights do not bind: " + all
                              + " (export it again; nothing of it was loaded)");
        }
    } catch (const Bundle::BundleError &e) {
        throw Refusal("refused", "bundle '" + vb.path + "': " + e.what());
    }
}

RequestPlan planRequest(const VerifiedBundle &vb, std::optional<long long> batch, const std::string &inputPath)
{
    const Bundle::Manifest &m = vb.bundle.manifest;
    const std::string &bundlePath = vb.path;
    RequestPlan plan;
    if (!inputPath.empty()) {
        try {
            std::vector<std::string> names; // a dict of named tensors is arranged by the manifest's names
            for (const auto &in : m.inputs)
                names.push_back(in.name);
            plan.inputFile = Runtime::InputFile::read(inputPath, names);
        } catch (const Runtime::RuntimeError &e) {
            throw Refusal("refused", e.what());
        }
        const auto info = plan.inputFile->info();
        if (info.size() != m.inputs.size())
            throw Refusal("refused",
                          "input file '" + inputPath + "' has " + std::to_string(info.size())
                              + " tensors; the bundle's model takes " + std::to_string(m.inputs.size()));
        if (info.front().shape.empty())
            throw Refusal("refused", "input file '" + inputPath + "': the first tensor has no batch dimension");
        plan.batch = info.front().shape.front();
        // Shapes and dtypes must be the bundle's (the batch dimension aside): a package reads its
        // inputs by the sizes it was compiled for, so a smaller tensor would be read past its end.
        const auto dims = [](const std::vector<long long> &shape) {
            std::string t = "[";
            for (std::size_t d = 0; d < shape.size(); ++d)
                t += (d ? ", " : "")
                    + (shape[d] == Bundle::kBatchDim ? std::string("batch") : std::to_string(shape[d]));
            return t + "]";
        };
        // With guards in the manifest, the bucket's guards judge the sizes (dynamic dimensions
        // besides the batch); without, every size but the batch must be the manifest's.
        const bool guarded = std::all_of(m.buckets.begin(), m.buckets.end(),
                                         [](const Bundle::Bucket &b) { return b.guards != nullptr; });
        for (std::size_t i = 0; i < info.size(); ++i) {
            const auto &want = m.inputs[i];
            const auto &got = info[i];
            bool same = guarded || want.shape.size() == got.shape.size();
            for (std::size_t d = 0; same && !guarded && d < want.shape.size(); ++d)
                same = want.shape[d] == Bundle::kBatchDim ? got.shape[d] == plan.batch : want.shape[d] == got.shape[d];
            if (!same || Bundle::normalizeDtype(want.dtype) != Bundle::normalizeDtype(got.dtype))
                throw Refusal("refused",
                              "input file '" + inputPath + "': tensor " + std::to_string(i)
                                  + (want.name.empty() ? std::string() : " (" + want.name + ")") + " is " + got.dtype
                                  + dims(got.shape) + "; the bundle's model takes " + want.dtype + dims(want.shape)
                                  + " (batch " + std::to_string(plan.batch) + " from the first tensor)");
        }
        if (batch && *batch != plan.batch)
            throw Refusal("refused",
                          "batch " + std::to_string(*batch)
                              + " (--batch, or a request's \"batch\") differs from the input file's batch "
                              + std::to_string(plan.batch) + "; give one of them");
    } else if (batch) {
        plan.batch = *batch;
    } else {
        for (const auto &b : m.buckets)
            if (b.batch) {
                plan.batch = *b.batch;
                break;
            }
        if (plan.batch == 0)
            plan.batch = m.buckets.front().batchMin; // only a dynamic bucket
    }
    try {
        plan.choice = Bundle::chooseBucket(m, plan.batch);
    } catch (const Bundle::BundleError &e) {
        throw Refusal("refused", "bundle '" + bundlePath + "': " + e.what());
    }
    if (m.inputs.empty())
        throw Refusal("refused", "bundle '" + bundlePath + "': manifest.json lists no inputs to generate");
    // The inputs' shapes against the chosen bucket's guards; sizes an exact bucket was not compiled
    // for (a longer sequence) go to the dynamic bucket when its guards take them.
    if (plan.inputFile) {
        std::vector<std::vector<std::int64_t>> shapes;
        for (const auto &t : plan.inputFile->info()) {
            std::vector<std::int64_t> s(t.shape.begin(), t.shape.end());
            if (!s.empty() && s[0] < plan.choice.padTo)
                s[0] = plan.choice.padTo;
            shapes.push_back(std::move(s));
        }
        if (plan.choice.bucket.guards) {
            if (auto v = plan.choice.bucket.guards->check(shapes)) {
                const auto dyn = std::find_if(m.buckets.begin(), m.buckets.end(),
                                              [](const Bundle::Bucket &b) { return b.isDynamic(); });
                bool moved = false;
                if (dyn != m.buckets.end() && dyn->name != plan.choice.bucket.name && dyn->guards) {
                    for (std::size_t i = 0; i < shapes.size(); ++i)
                        if (!shapes[i].empty())
                            shapes[i][0] = plan.inputFile->info()[i].shape[0];
                    if (!dyn->guards->check(shapes)) {
                        plan.choice = {*dyn, plan.batch, false};
                        moved = true;
                    }
                }
                if (!moved)
                    throw Refusal("refused",
                                  "bundle '" + bundlePath + "', bucket " + plan.choice.bucket.name + ": " + v->message);
            }
        }
    }

    return plan;
}

std::unique_ptr<Runtime::AotiRunner> loadBucket(const VerifiedBundle &vb, const Bundle::Bucket &bucket, int numRunners,
                                                bool convertLayout)
{
    try {
        // Extracted once per package hash (the manifest's, verified) into the package cache, and
        // the weights the buckets share bound from the bundle's weights/ (BUNDLE.md).
        Runtime::AotiRunner::LoadOptions options;
        options.numRunners = numRunners;
        options.extractionCache = true;
        if (const auto entry = vb.bundle.manifest.files.find(bucket.package); entry != vb.bundle.manifest.files.end())
            options.sha256 = entry->second.sha256;
        options.weightFiles = bucket.weightsUnder(vb.bundle.root);
        options.convertLayout = convertLayout;
        auto runner
            = Runtime::AotiRunner::load((vb.bundle.root / bucket.package).string(), vb.bundle.manifest.device, options);
        runner->setGuards(bucket.guards); // every input set is checked before a call
        return runner;
    } catch (const Runtime::RuntimeError &e) {
        throw Refusal("failed", e.what());
    }
}

void setRequestInputs(Runtime::AotiRunner &runner, const VerifiedBundle &vb, const RequestPlan &plan,
                      std::uint64_t seed)
{
    const Bundle::Manifest &m = vb.bundle.manifest;
    if (plan.inputFile) {
        std::vector<bool> batched; // inputs without a batch dimension (a per-feature scale) are not padded
        for (const auto &in : m.inputs)
            batched.push_back(!in.shape.empty() && in.shape.front() == Bundle::kBatchDim);
        runner.setInputs(*plan.inputFile, plan.choice.padTo, static_cast<long long>(m.inputs.size()), batched);
        return;
    }
    std::vector<Runtime::TensorInfo> specs;
    for (const auto &in : m.inputs)
        specs.push_back({in.withBatch(plan.choice.padTo), in.dtype});
    runner.setGeneratedInputs(specs, plan.batch, seed);
}

json outputsJson(const Bundle::Manifest &manifest, const std::vector<Runtime::OutputSummary> &outputs)
{
    json out = json::array();
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const auto &o = outputs[i];
        const std::string name = i < manifest.outputs.size() && !manifest.outputs[i].name.empty()
            ? manifest.outputs[i].name
            : "output " + std::to_string(i);
        out.push_back({{"name", name},
                       {"shape", o.shape},
                       {"dtype", o.dtype},
                       {"sum", o.sum},
                       {"mean", o.mean},
                       {"first", o.first},
                       {"non_finite", o.nonFinite}});
    }
    return out;
}

} // namespace AotStudio::Serve
