// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/aotirunner.h"
#include "bundle/bundle.h"
#include "bundle/weights.h"
#include "bundle/packagecache.h"
#include "runtime/libraries.h"
#include "runtime/tensorfile_p.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/DLConvertor.h>
#include <ATen/Functions.h>
#include <ATen/Parallel.h>
#include <c10/core/Device.h>
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>
#include <torch/cuda.h>
#include <torch/version.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include <fstream>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <mutex>
#include <unordered_map>

#include <nlohmann/json.hpp>
#include <iterator>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>

namespace AotStudio::Runtime {

using Detail::dtypeName;
using Detail::firstLine;

namespace {

at::ScalarType scalarTypeOf(const std::string &name)
{
    const std::string n = name.rfind("torch.", 0) == 0 ? name.substr(6) : name;
    static const std::map<std::string, at::ScalarType> types{
        {"float32", at::kFloat}, {"float", at::kFloat},     {"float16", at::kHalf},  {"half", at::kHalf},
        {"bfloat16", at::kBFloat16}, {"float64", at::kDouble}, {"double", at::kDouble}, {"int64", at::kLong},
        {"long", at::kLong},     {"int32", at::kInt},       {"int", at::kInt},       {"int16", at::kShort},
        {"int8", at::kChar},     {"uint8", at::kByte},      {"bool", at::kBool}};
    const auto it = types.find(n);
    if (it == types.end())
        throw RuntimeError("unknown input dtype '" + name + "' (use float32, float16, bfloat16, float64, int64, int32, int16, int8, uint8 or bool)");
    return it->second;
}

/// How a user asks aotstudio-run or the engine to copy an input into the package's layout.
constexpr const char *kConvertHow = "aotstudio-run --convert-layout; request field convert_layout";

} // namespace

struct AotiRunner::Private {
    std::string path;
    c10::Device device{c10::kCPU};
    // Declared before the loader, so destroyed after it: the model reads them until it is gone.
    std::shared_ptr<Bundle::TempDir> extracted; ///< the package's private extraction (no package cache)
    std::unordered_map<std::string, at::Tensor> constants; ///< external weights, bound user-managed: kept alive here
    std::unique_ptr<torch::inductor::AOTIModelPackageLoader> loader;
    std::vector<at::Tensor> inputs;
    std::vector<at::Tensor> outputs;
    std::shared_ptr<const Bundle::InputGuards> guards;
    Bundle::InputAdmission admission{kConvertHow}; ///< the one input check (bundle/guards.h)
    std::vector<Bundle::InputRef> refs; // reused by admit()

    /// Bind the package's external weights (weights_config.json under `dir`, written by
    /// package_constants_on_disk_format="pickle_weights": FQN -> [file, shape, stride, offset]),
    /// each file from `shared` when named there (read once per process), else from the package's
    /// data/weights/. No weights_config.json: nothing to do (the weights are in the .so).
    void bindExternalWeights(const std::filesystem::path &dir, const std::map<std::string, Bundle::BucketWeight> &shared);

    bool convertLayout = false; ///< copy inputs into the package's layout instead of refusing them

    static Bundle::InputRef refOf(const at::Tensor &t)
    {
        return {{t.sizes().data(), t.sizes().size(), t.strides().data()},
                reinterpret_cast<std::uintptr_t>(t.data_ptr()),
                t.storage_offset(),
                t.numel(),
                dtypeName(t.scalar_type())};
    }

    /// Admit `tensors` (on the package's device, in the package's order) or throw InputRefused:
    /// Bundle::InputAdmission (alignment, guards with strides, dtypes), the check
    /// aotstudio-run-lite makes too. A misaligned input or one in another layout is copied into
    /// the package's layout when `convert` (noted in layoutConversions() when `report`).
    void admit(std::vector<at::Tensor> &tensors, bool convert, bool report)
    {
        refs.clear();
        for (const auto &t : tensors)
            refs.push_back(refOf(t));
        auto refused = admission.admit(guards.get(), refs, convert, report, [&](std::size_t i, const std::vector<std::int64_t> &strides) {
            at::Tensor &t = tensors[i];
            t = strides.empty() ? t.clone(at::MemoryFormat::Preserve) : at::empty_strided(t.sizes(), strides, t.options()).copy_(t);
            return refOf(t);
        });
        if (refused)
            throw InputRefused("the inputs do not fit package '" + path + "': " + refused->message, std::move(refused->violation));
    }
};

namespace {

/// One torch.save'd tensor file, loaded on the CPU. Throws RuntimeError naming the file.
at::Tensor loadWeightFile(const std::filesystem::path &file)
{
    const c10::IValue value = Detail::loadPickled(file.string(), "weight file");
    if (!value.isTensor())
        throw RuntimeError("weight file '" + file.string() + "' holds a " + value.tagKind() + ", not a tensor");
    return value.toTensor();
}

/// A raw weight file (BUNDLE.md "Shared weights") mapped into memory, as a CPU tensor over the
/// mapping; the mapping goes when the last tensor using it does.
at::Tensor mapRawWeight(const Bundle::BucketWeight &w)
{
    const at::ScalarType type = scalarTypeOf(w.dtype);
    const std::size_t bytes = static_cast<std::size_t>(w.numel) * c10::elementSize(type);
    const int fd = ::open(w.file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw RuntimeError("weight file '" + w.file + "' cannot be opened: " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || static_cast<std::size_t>(st.st_size) != bytes) {
        ::close(fd);
        throw RuntimeError("weight file '" + w.file + "' has " + std::to_string(st.st_size) + " bytes; the manifest says " +
                           std::to_string(w.numel) + " " + w.dtype + " (" + std::to_string(bytes) + " bytes)");
    }
    void *data = bytes ? ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0) : nullptr;
    ::close(fd);
    if (data == MAP_FAILED)
        throw RuntimeError("weight file '" + w.file + "' cannot be mapped: " + std::strerror(errno));
    return at::from_blob(data, {static_cast<int64_t>(w.numel)}, [bytes](void *p) { if (p) ::munmap(p, bytes); },
                         at::TensorOptions().dtype(type).device(at::kCPU));
}

/// Weight files a bundle shares between buckets, mapped once per process (and copied once per
/// device other than the CPU).
at::Tensor sharedWeightFile(const Bundle::BucketWeight &w, const c10::Device &device)
{
    static std::mutex mutex;
    static std::map<std::pair<std::string, std::string>, at::Tensor> loaded;
    const std::lock_guard lock(mutex);
    auto &t = loaded[{w.file, device.str()}];
    if (!t.defined())
        t = device.is_cpu() ? mapRawWeight(w) : mapRawWeight(w).to(device);
    return t;
}

} // namespace

void AotiRunner::Private::bindExternalWeights(const std::filesystem::path &dir, const std::map<std::string, Bundle::BucketWeight> &shared)
{
    namespace fs = std::filesystem;
    fs::path config, archive;
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(dir, ec)) {
        const fs::path candidate = e.path() / "data" / "aotinductor" / "model" / "weights_config.json";
        if (fs::is_regular_file(candidate, ec)) {
            config = candidate;
            archive = e.path();
            break;
        }
    }
    if (config.empty())
        return;
    std::map<std::string, Bundle::WeightView> views;
    std::vector<std::string> duplicated, malformed;
    try {
        std::ifstream in(config);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        views = Bundle::parseWeightsConfig(text, &duplicated, &malformed);
    } catch (const std::exception &e) {
        throw RuntimeError("package '" + path + "': its weights_config.json cannot be read: " + e.what());
    }
    std::map<std::string, at::Tensor> files; // this package's own files, read once each
    std::map<std::string, Bundle::BucketWeight> given; // what each file binds: dtype and elements
    try {
        for (const auto &[fqn, view] : views) {
            const std::string &file = view.file;
            if (given.count(file))
                continue;
            if (const auto it = shared.find(file); it != shared.end()) {
                given[file] = it->second;
                continue;
            }
            auto &own = files[file];
            const fs::path p = archive / "data" / "weights" / file;
            if (!fs::exists(p, ec))
                throw RuntimeError("package '" + path + "': its weight file '" + file + "' (for '" + fqn +
                                   "') is not inside it: it belongs to a bundle that shares its buckets' weights "
                                   "(BUNDLE.md \"Shared weights\"); run the bundle (aotstudio-run BUNDLE --batch N), "
                                   "or export it with --no-shared-weights to get self-contained packages");
            own = loadWeightFile(p).to(device);
            given[file] = {p.string(), dtypeName(own.scalar_type()), static_cast<long long>(own.storage().nbytes() / own.element_size())};
        }
        for (const auto &[file, w] : shared)
            if (!given.count(file))
                given[file] = w; // a shared weight no constant names: extra
    } catch (const RuntimeError &) {
        throw;
    } catch (const std::exception &e) {
        throw RuntimeError("package '" + path + "': cannot read its external weights: " + firstLine(e.what()));
    }
    // Weights that bind or refuse (BUNDLE.md): every constant the compiled model declares binds to
    // exactly one weight of its dtype whose storage holds its view, none left over; checked before
    // the first call, since AOTInductor would keep what it cannot match and read out of bounds.
    std::map<std::string, std::string> expected;
    if (auto *container = loader->get_runner()) {
        const auto fqns = container->getConstantNamesToOriginalFQNs();
        for (const auto &[name, dtype] : container->getConstantNamesToDtypes()) {
            const auto f = fqns.find(name);
            const std::string fqn = f == fqns.end() || f->second.empty() ? name : f->second;
            expected[fqn] = dtypeName(static_cast<at::ScalarType>(dtype));
        }
    }
    Bundle::BindingProblems problems = Bundle::checkWeightBinding(views, given, expected.empty() ? nullptr : &expected);
    problems.duplicated = duplicated;
    problems.mismatched.insert(problems.mismatched.end(), malformed.begin(), malformed.end());
    if (!problems.ok())
        throw RuntimeError("package '" + path + "': its weights do not bind: " + problems.describe());
    try {
        for (const auto &[fqn, view] : views) {
            at::Tensor whole;
            if (const auto it = shared.find(view.file); it != shared.end())
                whole = sharedWeightFile(it->second, device);
            else
                whole = files.at(view.file);
            const std::vector<int64_t> shape(view.shape.begin(), view.shape.end()), stride(view.stride.begin(), view.stride.end());
            constants[fqn] = whole.as_strided(shape, stride, view.offset);
        }
    } catch (const std::exception &e) {
        throw RuntimeError("package '" + path + "': cannot bind its external weights: " + firstLine(e.what()));
    }
    try {
        // user_managed: the model reads our tensors in place (no copy); they live in `constants`.
        loader->load_constants(constants, /*use_inactive=*/false, /*check_full_update=*/true, /*user_managed=*/true);
    } catch (const std::exception &e) {
        throw RuntimeError("package '" + path + "': its external weights do not fit it: " + firstLine(e.what()));
    }
}

AotiRunner::AotiRunner()
    : d(std::make_unique<Private>())
{
}

AotiRunner::~AotiRunner() = default;

std::unique_ptr<AotiRunner> AotiRunner::load(const std::string &packagePath, const std::string &device, int numRunners)
{
    LoadOptions options;
    options.numRunners = numRunners;
    return load(packagePath, device, options);
}

std::unique_ptr<AotiRunner> AotiRunner::load(const std::string &packagePath, const std::string &device, const LoadOptions &options)
{
    const int numRunners = options.numRunners;
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
    // The libraries this device's packages need (libraries.h: a CPU package maps no CUDA library).
    try {
        Libraries::prepareFor(device);
    } catch (const RuntimeError &e) {
        throw RuntimeError("cannot load AOTInductor package '" + packagePath + "': " + e.what());
    }
    if (runner->d->device.is_cuda() && Libraries::cuda().deviceCount() <= 0)
        throw RuntimeError("package '" + packagePath + "' was asked to run on CUDA, but no CUDA device is available");
    runner->d->path = packagePath;
    try {
        if (auto guards = Bundle::InputGuards::loadSidecar(packagePath))
            runner->d->guards = std::make_shared<const Bundle::InputGuards>(std::move(*guards));
        runner->d->convertLayout = options.convertLayout;
    } catch (const Bundle::BundleError &e) {
        throw RuntimeError("cannot load AOTInductor package '" + packagePath + "': " + e.what() +
                           " (recompile it, or remove the file to run without input checks)");
    }
    // Extracted by us, not by LibTorch's loader (which would extract it again on every load, into a
    // folder we cannot see): into the package cache, or a private folder that lives with the runner.
    fs::path source;
    try {
        if (options.extractionCache) {
            source = Bundle::cachedPackageDir(packagePath, options.sha256);
        } else {
            runner->d->extracted = std::make_shared<Bundle::TempDir>("aotstudio-package-");
            source = Bundle::extractZip(packagePath, runner->d->extracted->path());
        }
    } catch (const Bundle::BundleError &e) {
        throw RuntimeError(std::string("cannot load AOTInductor package: ") + e.what());
    }
    try {
        const c10::DeviceIndex index = runner->d->device.has_index() ? runner->d->device.index() : -1;
        const auto runners = static_cast<size_t>(std::max(1, numRunners));
        try {
            runner->d->loader = std::make_unique<torch::inductor::AOTIModelPackageLoader>(
                source.string(), "model", /*run_single_threaded=*/false, runners, index);
        } catch (const std::exception &e) {
            // An older LibTorch (2.11, a target environment's: README "Target environments") opens
            // only the .pt2 zip, not a folder ("Failed to initialize zip archive"): give it the
            // package itself, which it extracts once more into a folder of its own.
            if (std::string(e.what()).find("zip archive") == std::string::npos || !fs::is_directory(source))
                throw;
            runner->d->loader = std::make_unique<torch::inductor::AOTIModelPackageLoader>(
                packagePath, "model", /*run_single_threaded=*/false, runners, index);
        }
    } catch (const std::exception &e) {
        // LibTorch says "Failed to find a generated cpp file or so file" of a torch.export.save
        // archive (the same suffix and layout, no compiled code): say what it is instead.
        if (Bundle::pt2Kind(source) == Bundle::Pt2Kind::ExportedProgram)
            throw RuntimeError(Bundle::exportedProgramMessage(packagePath));
        std::string what = e.what();
        if (const auto nl = what.find('\n'); nl != std::string::npos)
            what.resize(nl); // c10 errors append a C++ backtrace
        throw RuntimeError("cannot load AOTInductor package '" + packagePath + "': " + what);
    }
    runner->d->bindExternalWeights(source, options.weightFiles);
    return runner;
}

void AotiRunner::setInputs(const std::vector<DLManagedTensor *> &inputs)
{
    std::vector<at::Tensor> tensors;
    tensors.reserve(inputs.size());
    for (DLManagedTensor *t : inputs)
        tensors.push_back(at::fromDLPack(t)); // takes ownership before anything can throw
    for (auto &t : tensors) {
        if (t.device() != d->device) // before the check: a copy to another device may change the strides
            t = t.to(d->device);
    }
    d->admit(tensors, d->convertLayout, true);
    d->inputs = std::move(tensors);
}

void AotiRunner::setGuards(std::shared_ptr<const Bundle::InputGuards> guards)
{
    d->guards = std::move(guards);
}

void AotiRunner::setConvertLayout(bool convert)
{
    d->convertLayout = convert;
}

bool AotiRunner::convertLayout() const
{
    return d->convertLayout;
}

const std::vector<LayoutConversion> &AotiRunner::layoutConversions() const
{
    return d->admission.conversions();
}

const std::shared_ptr<const Bundle::InputGuards> &AotiRunner::guards() const
{
    return d->guards;
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

void AotiRunner::setGeneratedInputs(const std::vector<TensorInfo> &specs, long long validRows, std::uint64_t seed)
{
    std::vector<at::Tensor> tensors;
    tensors.reserve(specs.size());
    try {
        auto generator = at::make_generator<at::CPUGeneratorImpl>(seed);
        for (const auto &spec : specs) {
            const at::ScalarType type = scalarTypeOf(spec.dtype);
            std::vector<int64_t> shape(spec.shape.begin(), spec.shape.end());
            for (auto d : shape)
                if (d < 0)
                    throw RuntimeError("input shape has a negative size; give every dimension a size");
            const bool pad = validRows >= 0 && !shape.empty() && validRows < shape[0];
            std::vector<int64_t> drawn = shape;
            if (pad)
                drawn[0] = validRows;
            const auto cpu = at::TensorOptions().device(at::kCPU);
            at::Tensor t = at::isFloatingType(type) ? at::randn(drawn, generator, cpu.dtype(at::kFloat)).to(type)
                                                    : at::zeros(drawn, cpu.dtype(type));
            if (pad)
                t = at::cat({t, at::zeros(shape, cpu.dtype(type)).narrow(0, 0, shape[0] - validRows)}, 0);
            tensors.push_back(t.to(d->device));
        }
    } catch (const RuntimeError &) {
        throw;
    } catch (const std::exception &e) {
        throw RuntimeError("cannot make inputs for '" + d->path + "': " + firstLine(e.what()));
    }
    d->admit(tensors, true, false); // drawn here: made in the package's layout, the same values
    d->inputs = std::move(tensors);
}

void AotiRunner::setInputs(const InputFile &file, long long padTo, long long expectedInputs, const std::vector<bool> &batched)
{
    const auto &src = file.d->tensors;
    if (expectedInputs >= 0 && static_cast<long long>(src.size()) != expectedInputs)
        throw RuntimeError("the input file has " + std::to_string(src.size()) + " tensors, the model takes " +
                           std::to_string(expectedInputs));
    std::vector<at::Tensor> tensors;
    for (std::size_t i = 0; i < src.size(); ++i) {
        at::Tensor t = src[i];
        const bool hasBatch = batched.empty() || (i < batched.size() && batched[i]);
        if (padTo >= 0 && hasBatch && t.dim() > 0 && t.size(0) < padTo) {
            auto shape = t.sizes().vec();
            shape[0] = padTo;
            // The padded copy keeps the file's memory format (a channels-last image stays one),
            // so padding alone never makes an input the package refuses.
            at::Tensor padded = at::zeros(shape, t.options().memory_format(t.suggest_memory_format()));
            padded.narrow(0, 0, t.size(0)).copy_(t);
            t = padded;
        }
        tensors.push_back(t.to(d->device));
    }
    d->admit(tensors, d->convertLayout, true);
    d->inputs = std::move(tensors);
}

void AotiRunner::saveOutputs(const std::string &path) const
{
    if (d->outputs.empty())
        throw RuntimeError("no outputs to save to '" + path + "': the package has not run");
    // A tuple, not a c10::List: a list is pickled through torch.jit._pickle.build_tensorlist, which
    // torch.load's default (weights_only=True) refuses; a tuple of tensors it reads as it is.
    std::vector<c10::IValue> items;
    for (const auto &o : d->outputs)
        items.emplace_back(o.detach().to(at::kCPU).contiguous());
    const std::vector<char> bytes = torch::jit::pickle_save(c10::IValue(c10::ivalue::Tuple::create(std::move(items))));
    try {
        Bundle::writeFileAtomic(path, std::string(bytes.begin(), bytes.end()));
    } catch (const Bundle::BundleError &e) {
        throw RuntimeError(e.what());
    }
}

std::vector<OutputSummary> AotiRunner::outputSummary(long long rows, int firstValues) const
{
    std::vector<OutputSummary> out;
    for (const auto &o : d->outputs) {
        at::Tensor t = o.detach();
        if (rows >= 0 && t.dim() > 0 && rows < t.size(0))
            t = t.narrow(0, 0, rows);
        OutputSummary s;
        for (auto v : t.sizes())
            s.shape.push_back(v);
        s.dtype = dtypeName(t.scalar_type());
        const at::Tensor values = (t.is_complex() ? at::real(t) : t).to(at::kCPU).to(at::kDouble).contiguous();
        if (values.numel() > 0) {
            s.sum = values.sum().item<double>();
            s.mean = s.sum / static_cast<double>(values.numel());
            s.nonFinite = (~at::isfinite(values)).sum().item<int64_t>();
            const auto flat = values.reshape({-1});
            const int64_t n = std::min<int64_t>(std::max(0, firstValues), flat.numel());
            const double *p = flat.data_ptr<double>();
            s.first.assign(p, p + n);
        }
        out.push_back(std::move(s));
    }
    return out;
}

void AotiRunner::runConcurrent() const
{
    try {
        if (d->device.is_cuda()) {
            // One pool stream per calling thread (the CUDA module's), so that concurrent runs
            // overlap on the GPU; wait for this thread's stream only. The inputs are ready: they
            // were made on the default stream, which run() synchronized.
            const auto &cuda = Libraries::cuda();
            const int index = d->device.has_index() ? d->device.index() : cuda.currentDevice();
            void *stream = nullptr;
            void *scope = cuda.enterPoolStream(index, &stream); // outputs are allocated on this stream
            try {
                { const std::vector<at::Tensor> outputs = d->loader->run(d->inputs, stream); }
            } catch (...) {
                cuda.leavePoolStream(scope);
                throw;
            }
            cuda.leavePoolStream(scope); // waits for the stream before the outputs' memory is reused
            return;
        }
        const std::vector<at::Tensor> outputs = d->loader->run(d->inputs);
    } catch (const std::exception &e) {
        throw RuntimeError("running package '" + d->path + "' failed: " + firstLine(e.what()));
    }
}

Bundle::BucketWeight writeRawWeight(const std::filesystem::path &torchSaveFile, const std::filesystem::path &raw)
{
    at::Tensor t;
    try {
        t = loadWeightFile(torchSaveFile);
    } catch (const RuntimeError &e) {
        throw Bundle::BundleError(e.what());
    }
    static const std::set<std::string> known{"float32", "float16", "bfloat16", "float64", "int64",
                                             "int32",   "int16",   "int8",     "uint8",   "bool"};
    Bundle::BucketWeight w;
    w.dtype = dtypeName(t.scalar_type());
    if (!known.count(w.dtype))
        throw Bundle::BundleError("weight file '" + torchSaveFile.string() + "' holds a " + w.dtype +
                                  " tensor, which a bundle cannot share yet (export with --no-shared-weights)");
    if (!t.device().is_cpu())
        t = t.cpu();
    const auto &storage = t.storage();
    const std::size_t bytes = storage.nbytes();
    w.numel = static_cast<long long>(bytes / c10::elementSize(t.scalar_type()));
    std::ofstream out(raw, std::ios::binary | std::ios::trunc);
    out.write(static_cast<const char *>(storage.data()), static_cast<std::streamsize>(bytes));
    out.close();
    if (!out)
        throw Bundle::BundleError("cannot write '" + raw.string() + "' (disk full?)");
    return w;
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

void setIntraOpThreads(int n)
{
    at::set_num_threads(std::max(1, n));
}

int intraOpThreads()
{
    return at::get_num_threads();
}

void initThreadForTorch()
{
    at::init_num_threads();
}

std::string libtorchVersion()
{
    return TORCH_VERSION;
}

bool cudaAvailable()
{
    return Libraries::cudaUsable();
}

std::string cudaComputeCapability(int index)
{
    if (!Libraries::cudaUsable())
        return {};
    int major = 0, minor = 0;
    if (Libraries::cuda().computeCapability(index, &major, &minor) != 0)
        return {};
    return std::to_string(major) + "." + std::to_string(minor);
}

} // namespace AotStudio::Runtime
