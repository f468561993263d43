// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bundle/bundle.h"
#include "bundle/guards.h"

#include <cstdint>
#include <filesystem>
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

/// Inputs the package's guards refuse (core/bundle/guards.h): the message names the input, the
/// dimension, the size and the range, relation or guard; violation() has them one by one.
class InputRefused : public RuntimeError {
public:
    InputRefused(const std::string &message, Bundle::GuardViolation violation)
        : RuntimeError(message)
        , m_violation(std::move(violation))
    {
    }
    const Bundle::GuardViolation &violation() const { return m_violation; }

private:
    Bundle::GuardViolation m_violation;
};

/// An input the runner copied into the package's layout (AotiRunner::setConvertLayout): which,
/// the strides it came with and those it was given (elements), and one line saying so. The one
/// type of core/bundle/guards.h, which the lite runtime reports too.
using LayoutConversion = Bundle::LayoutConversion;

/// Shape and dtype of one tensor, for reports ("float32", {8, 10}).
struct TensorInfo {
    std::vector<long long> shape;
    std::string dtype;
};

/// What one output holds, for a quick look without torch (aotstudio-run): shape and dtype of the
/// rows summarised, sum and mean over them (in float64), the first few values in flattened order,
/// and how many values are NaN or infinite.
struct OutputSummary {
    std::vector<long long> shape;
    std::string dtype;          ///< "float32", "int64", ... (as in a bundle manifest)
    double sum = 0;
    double mean = 0;
    std::vector<double> first;  ///< the first values, flattened row-major
    long long nonFinite = 0;
};

/// Input tensors read from a file written by Python's `torch.save(tensor_or_list_or_tuple, FILE)`
/// (read with LibTorch's torch::pickle_load: tensors and containers only, no Python objects or
/// code). Opaque so that callers stay free of torch headers.
class InputFile {
public:
    /// Throws RuntimeError naming the file when it is missing, not a torch.save archive, or holds
    /// something other than tensors. The file holds a tensor, a list/tuple of tensors in the
    /// package's order, or a dict of named tensors ({"input_ids": t, "attention_mask": m}): then
    /// `order` (the model's input names, e.g. a bundle manifest's) arranges them, and a missing or
    /// unknown name is a RuntimeError listing the names the model takes. Without `order` a dict's
    /// tensors keep the file's order.
    static std::shared_ptr<const InputFile> read(const std::string &path, const std::vector<std::string> &order = {});
    ~InputFile();
    /// Shape and dtype of each tensor, in order.
    std::vector<TensorInfo> info() const;

private:
    InputFile();
    friend class AotiRunner;
    struct Private;
    std::unique_ptr<Private> d;
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
    /// another device, or built by an incompatible torch. The package's input guards are read from
    /// its sidecar (`model.pt2` -> `model.guards.json`, FORMAT.md "guards") when there is one; a
    /// sidecar that cannot be read or parsed is a RuntimeError too.
    static std::unique_ptr<AotiRunner> load(const std::string &packagePath, const std::string &device, int numRunners = 1);

    /// How load() finds and extracts a package.
    struct LoadOptions {
        int numRunners = 1;
        /// Extract once per content into the package cache (bundle/packagecache.h) and load from
        /// there (aotstudio-run). Without, the package is extracted into a private temporary
        /// folder for this runner and removed with it (the engine's one-off loads).
        bool extractionCache = false;
        /// The package's verified hex SHA-256 (a bundle's manifest); empty: computed when needed.
        std::string sha256;
        /// The package's external weight files a bundle shares (BUNDLE.md "Shared weights"): file
        /// name in its weights_config.json -> the raw storage bytes ({absolute path, dtype,
        /// numel}). Each is mapped with mmap() once per process (MAP_PRIVATE: pages shared with
        /// every process and forked worker that maps it, copy-on-write should the model write)
        /// and shared by every runner that names it. A file not named here is read from the
        /// package's own data/weights/ (torch.save format).
        std::map<std::string, Bundle::BucketWeight> weightFiles;
        /// setConvertLayout(): copy inputs into the package's layout instead of refusing them.
        bool convertLayout = false;
    };
    /// As above. A package with external weights (weights_config.json, compiled with
    /// `package_constants_in_so=False`) gets them bound with load_constants(user_managed): the
    /// runner keeps the tensors; a missing or unreadable weight file is a RuntimeError naming it.
    static std::unique_ptr<AotiRunner> load(const std::string &packagePath, const std::string &device, const LoadOptions &options);
    ~AotiRunner();
    AotiRunner(const AotiRunner &) = delete;
    AotiRunner &operator=(const AotiRunner &) = delete;

    /// The guards every input set is checked against (null: none, inputs are not checked). A
    /// bundle's runner sets its bucket's guards from the manifest.
    void setGuards(std::shared_ptr<const Bundle::InputGuards> guards);
    const std::shared_ptr<const Bundle::InputGuards> &guards() const;

    /// What the setters do with an input whose shape fits but whose strides are not the ones the
    /// package was compiled for (or whose data starts at an address not aligned to 16 bytes):
    /// refuse it (false, the default) or copy it into the package's layout and say so in
    /// layoutConversions() (true). AOTInductor indexes inputs with its compiled strides, so
    /// passing another layout would return a wrong result without an error.
    void setConvertLayout(bool convert);
    bool convertLayout() const;
    /// The inputs the last setter copied into the package's layout (empty when none was, and
    /// always for setGeneratedInputs(), whose tensors are drawn in the package's layout).
    const std::vector<LayoutConversion> &layoutConversions() const;

    /// Set the inputs for run(), flattened in pytree order. Takes ownership of every tensor (their
    /// deleters run when replaced or on destruction). Tensors on another device are copied over.
    /// Every setter checks shapes, dtypes and strides against guards() (strides against
    /// contiguous ones when the guards record none) and throws InputRefused, keeping the previous
    /// inputs, when they do not fit: the kernels never see a size or a layout the package
    /// refuses. A layout violation's message names the input, its strides and the expected ones.
    void setInputs(const std::vector<DLManagedTensor *> &inputs);
    /// One forward on the stored inputs. On CUDA it synchronizes the device before returning, so a
    /// wall-clock timer around it covers the kernels. Throws RuntimeError on failure.
    void run();
    /// The last run's outputs as new DLPack tensors (zero-copy; the caller owns each and must call
    /// its deleter, e.g. by handing it to torch.from_dlpack). Empty before the first run().
    std::vector<DLManagedTensor *> outputs() const;
    std::vector<TensorInfo> outputInfo() const;
    /// Write the last run's outputs to `path` as a tuple of CPU tensors that Python's `torch.load`
    /// reads with its defaults (weights_only; torch::jit::pickle_save, no type tags), atomically. Throws
    /// RuntimeError naming the file when it cannot be written or before the first run().
    void saveOutputs(const std::string &path) const;

    /// Make the inputs for run() without Python, one tensor per spec (`shape` with the batch the
    /// package was compiled for as dimension 0; `dtype` "float32", "float16", "bfloat16",
    /// "float64", "int64", "int32", "int16", "int8", "uint8" or "bool", a "torch." prefix allowed).
    /// Floating tensors are drawn from N(0, 1) by a CPU generator seeded with `seed` (one stream, in
    /// input order); integer and bool tensors are zeros (valid indices for embeddings). When
    /// `validRows` >= 0 and smaller than dimension 0, only that many rows are drawn and the rest are
    /// zero padding, so the real rows are the same whatever bucket they are padded into. Tensors are
    /// made on the CPU and moved to the package's device. Throws RuntimeError on an unknown dtype or
    /// a negative size.
    void setGeneratedInputs(const std::vector<TensorInfo> &specs, long long validRows = -1, std::uint64_t seed = 0);
    /// Summaries of the last run's outputs, each limited to its first `rows` rows along dimension 0
    /// (rows < 0: all; to drop the padding of a padded batch), with up to `firstValues` values.
    /// Empty before the first run().
    std::vector<OutputSummary> outputSummary(long long rows = -1, int firstValues = 6) const;
    /// Use the tensors of `file` as inputs, padded with zero rows along dimension 0 up to `padTo`
    /// rows when that is larger (a bucket's batch). Throws RuntimeError when the count of tensors
    /// differs from `expectedInputs` (when >= 0).
    /// `batched[i]` false: input i has no batch dimension and is never padded (empty: all have one).
    void setInputs(const InputFile &file, long long padTo = -1, long long expectedInputs = -1,
                   const std::vector<bool> &batched = {});
    /// One forward on the stored inputs that keeps no outputs, safe to call from several threads at
    /// once (the loader's num_runners model instances serve them; with more threads than runners,
    /// callers wait for a free one). On CUDA each calling thread runs on its own stream from
    /// LibTorch's pool and waits for that stream before returning. Call run() once first (it
    /// synchronizes the inputs' copy to the device), and never overlap setInputs() or
    /// setGeneratedInputs(). Throws RuntimeError on failure.
    void runConcurrent() const;
    /// Package metadata recorded by AOTInductor (e.g. "AOTI_DEVICE_KEY").
    std::map<std::string, std::string> metadata() const;
    const std::string &packagePath() const;

private:
    AotiRunner();
    struct Private;
    std::unique_ptr<Private> d;
};

/// Export side of BUNDLE.md "Shared weights" (Bundle::RawWeightWriter): read the tensor that
/// `torchSaveFile` holds (torch.save format, LibTorch's unpickler) and write the bytes of its whole
/// storage to `raw` (native byte order). Returns {"", dtype, numel of the storage}. Throws
/// Bundle::BundleError naming the file when it is not a torch.save'd tensor, its dtype has no name
/// in the manifest's vocabulary, or `raw` cannot be written.
Bundle::BucketWeight writeRawWeight(const std::filesystem::path &torchSaveFile, const std::filesystem::path &raw);

/// Set LibTorch's intra-op thread count for this process (`at::set_num_threads`: OpenMP and
/// ATen's pool; Python's torch in the engine shares it, one copy of c10), so eager and compiled
/// run with the same count. n >= 1; smaller values are taken as 1.
void setIntraOpThreads(int n);
/// The intra-op thread count in effect on the calling thread (`at::get_num_threads`).
int intraOpThreads();
/// Apply the process's thread count to a new std::thread that calls into torch or a package
/// (`at::init_num_threads`; OpenMP's count is per thread, so without it a new thread uses all CPUs).
void initThreadForTorch();

/// LibTorch's version string as compiled in (e.g. "2.14.1"), without loading Python.
std::string libtorchVersion();

/// Whether LibTorch sees a usable CUDA device.
bool cudaAvailable();

/// Compute capability of CUDA device `index` as "major.minor" ("9.0"); empty without CUDA.
std::string cudaComputeCapability(int index = 0);

} // namespace AotStudio::Runtime
