// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/aotirunner.h"

#include <ATen/DLConvertor.h>
#include <c10/core/Device.h>
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>
#include <torch/cuda.h>
#include <torch/version.h>

#include <filesystem>

namespace AotStudio::Runtime {

struct AotiRunner::Private {
    std::string path;
    c10::Device device{c10::kCPU};
    std::unique_ptr<torch::inductor::AOTIModelPackageLoader> loader;
    std::vector<at::Tensor> inputs;
    std::vector<at::Tensor> outputs;
};

AotiRunner::AotiRunner()
    : d(std::make_unique<Private>())
{
}

AotiRunner::~AotiRunner() = default;

std::unique_ptr<AotiRunner> AotiRunner::load(const std::string &packagePath, const std::string &device, int numRunners)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_regular_file(packagePath, ec))
        throw RuntimeError("package '" + packagePath + "' does not exist or is not a file");

    std::unique_ptr<AotiRunner> runner(new AotiRunner);
    try {
        runner->d->device = c10::Device(device);
    } catch (const std::exception &) {
        throw RuntimeError("unknown device '" + device + "' (use cpu or cuda)");
    }
    if (runner->d->device.is_cuda() && !torch::cuda::is_available())
        throw RuntimeError("package '" + packagePath + "' was asked to run on CUDA, but no CUDA device is available");
    runner->d->path = packagePath;
    try {
        const c10::DeviceIndex index = runner->d->device.has_index() ? runner->d->device.index() : -1;
        runner->d->loader = std::make_unique<torch::inductor::AOTIModelPackageLoader>(
            packagePath, "model", /*run_single_threaded=*/false, static_cast<size_t>(std::max(1, numRunners)), index);
    } catch (const std::exception &e) {
        std::string what = e.what();
        if (const auto nl = what.find('\n'); nl != std::string::npos)
            what.resize(nl); // c10 errors append a C++ backtrace
        throw RuntimeError("cannot load AOTInductor package '" + packagePath + "': " + what);
    }
    return runner;
}

void AotiRunner::setInputs(const std::vector<DLManagedTensor *> &inputs)
{
    std::vector<at::Tensor> tensors;
    tensors.reserve(inputs.size());
    for (DLManagedTensor *t : inputs)
        tensors.push_back(at::fromDLPack(t)); // takes ownership before anything can throw
    for (auto &t : tensors) {
        if (t.device() != d->device)
            t = t.to(d->device);
    }
    d->inputs = std::move(tensors);
}

void AotiRunner::run()
{
    try {
        d->outputs = d->loader->run(d->inputs);
        if (d->device.is_cuda())
            torch::cuda::synchronize(d->device.index());
    } catch (const std::exception &e) {
        std::string what = e.what();
        if (const auto nl = what.find('\n'); nl != std::string::npos)
            what.resize(nl);
        throw RuntimeError("running package '" + d->path + "' failed: " + what);
    }
}

std::vector<DLManagedTensor *> AotiRunner::outputs() const
{
    std::vector<DLManagedTensor *> out;
    out.reserve(d->outputs.size());
    for (const auto &t : d->outputs)
        out.push_back(at::toDLPack(t));
    return out;
}

std::vector<TensorInfo> AotiRunner::outputInfo() const
{
    std::vector<TensorInfo> info;
    for (const auto &t : d->outputs) {
        TensorInfo i;
        for (auto s : t.sizes())
            i.shape.push_back(s);
        i.dtype = std::string(c10::toString(t.scalar_type()));
        info.push_back(std::move(i));
    }
    return info;
}

std::map<std::string, std::string> AotiRunner::metadata() const
{
    const auto m = d->loader->get_metadata();
    return {m.begin(), m.end()};
}

const std::string &AotiRunner::packagePath() const
{
    return d->path;
}

std::string libtorchVersion()
{
    return TORCH_VERSION;
}

} // namespace AotStudio::Runtime
