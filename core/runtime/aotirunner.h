// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

struct DLManagedTensor; // ATen/dlpack.h; the C struct of the DLPack standard

namespace AotStudio::Runtime {

/// A failure to load or run a package; the message names the file and what to do.
class RuntimeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Shape and dtype of one tensor, for reports ("float32", {8, 10}).
struct TensorInfo {
    std::vector<long long> shape;
    std::string dtype;
};

/// An AOTInductor package (`.pt2` from `aoti_compile_and_package`) loaded in C++ with LibTorch's
/// `torch::inductor::AOTIModelPackageLoader`, no Python involved. Inputs and outputs cross this
/// interface as DLPack tensors so that callers never include torch headers.
///
/// Loading a `.pt2` runs native code from it: only load packages you trust (DESIGN.md §6).
class AotiRunner {
public:
    /// Load `packagePath` for `device` ("cpu" or "cuda[:N]") with `numRunners` concurrent runners.
    /// Throws RuntimeError naming the package when it is missing, not an AOTI package, built for
    /// another device, or built by an incompatible torch.
    static std::unique_ptr<AotiRunner> load(const std::string &packagePath, const std::string &device, int numRunners = 1);
    ~AotiRunner();
    AotiRunner(const AotiRunner &) = delete;
    AotiRunner &operator=(const AotiRunner &) = delete;

    /// Set the inputs for run(), flattened in pytree order. Takes ownership of every tensor (their
    /// deleters run when replaced or on destruction). Tensors on another device are copied over.
    void setInputs(const std::vector<DLManagedTensor *> &inputs);
    /// One forward on the stored inputs. On CUDA it synchronizes the device before returning, so a
    /// wall-clock timer around it covers the kernels. Throws RuntimeError on failure.
    void run();
    /// The last run's outputs as new DLPack tensors (zero-copy; the caller owns each and must call
    /// its deleter, e.g. by handing it to torch.from_dlpack). Empty before the first run().
    std::vector<DLManagedTensor *> outputs() const;
    std::vector<TensorInfo> outputInfo() const;
    /// Package metadata recorded by AOTInductor (e.g. "AOTI_DEVICE_KEY").
    std::map<std::string, std::string> metadata() const;
    const std::string &packagePath() const;

private:
    AotiRunner();
    struct Private;
    std::unique_ptr<Private> d;
};

/// LibTorch's version string as compiled in (e.g. "2.14.1"), without loading Python.
std::string libtorchVersion();

} // namespace AotStudio::Runtime
