// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/lite/litepackage.h"

#include "bundle/packagecache.h"
#include "runtime/lite/tensorio.h"

#include <nlohmann/json.hpp>

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>

namespace AotStudio::Lite {

namespace fs = std::filesystem;

namespace {

// aoti_runtime/interface.h (torch 2.14.1): the model container's C entry points, defined inside
// the package's .so itself. AOTIRuntimeError is int32_t, 0 on success.
struct ContainerOpaque;
using ContainerHandle = ContainerOpaque *;
struct ConstantMapEntry { // AOTInductorConstantMapEntry
    const char *name;
    AtenTensorHandle handle;
};
using CreateWithDeviceFn = int32_t (*)(ContainerHandle *, size_t, const char *, const char *);
using DeleteFn = int32_t (*)(ContainerHandle);
using RunFn = int32_t (*)(ContainerHandle, AtenTensorHandle *, size_t, AtenTensorHandle *, size_t, void *, void *);
using GetCountFn = int32_t (*)(ContainerHandle, size_t *);
using GetNameFn = int32_t (*)(ContainerHandle, size_t, const char **);
using UpdatePairsFn = int32_t (*)(ContainerHandle, const ConstantMapEntry *, size_t, bool, bool);
using LastErrorFn = int32_t (*)(const char **);

/// Libraries opened for the symbols a package expects from the process, by symbol prefix.
struct Provider {
    const char *prefix;
    const char *library;
    const char *what;
};
constexpr Provider kProviders[] = {
    {"Sleef_", "libsleef.so.3", "SLEEF vector math (Inductor's vectorised exp, log, tanh, ...; Debian: libsleef3)"},
};

std::string fileText(const fs::path &p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

} // namespace

std::vector<std::pair<std::string, std::string>> providerLibraries()
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto &p : kProviders)
        out.emplace_back(p.library, std::string(p.prefix) + "*: " + p.what);
    out.emplace_back("libopenblas.so.0",
                     "aoti_torch_cpu_*mm_out: OpenBLAS (Debian: libopenblas0), opened on the first GEMM");
    return out;
}

std::vector<std::string> processSymbols(const fs::path &so)
{
    const std::string name = so.string();
    const int fd = ::open(so.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw LiteError("'" + name + "' cannot be opened: " + std::strerror(errno));
    struct stat st {
    };
    if (::fstat(fd, &st) != 0 || st.st_size < static_cast<off_t>(sizeof(Elf64_Ehdr))) {
        ::close(fd);
        throw LiteError("'" + name + "' is not an ELF shared object (too short)");
    }
    const auto size = static_cast<std::size_t>(st.st_size);
    void *map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (map == MAP_FAILED)
        throw LiteError("'" + name + "' cannot be mapped: " + std::strerror(errno));
    struct Unmap {
        void *p;
        std::size_t n;
        ~Unmap() { ::munmap(p, n); }
    } unmap{map, size};
    const auto *base = static_cast<const unsigned char *>(map);
    const auto bad
        = [&](const std::string &why) { return LiteError("'" + name + "' is not a readable ELF file: " + why); };
    const auto inside = [&](std::uint64_t off, std::uint64_t len) { return off <= size && len <= size - off; };

    const auto *eh = reinterpret_cast<const Elf64_Ehdr *>(base);
    if (std::memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0)
        throw bad("no ELF magic");
    if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB)
        throw bad("not 64-bit little-endian");
    if (eh->e_shentsize != sizeof(Elf64_Shdr) || !inside(eh->e_shoff, std::uint64_t(eh->e_shnum) * sizeof(Elf64_Shdr)))
        throw bad("section headers outside the file");
    const auto *sh = reinterpret_cast<const Elf64_Shdr *>(base + eh->e_shoff);
    const Elf64_Shdr *dynsym = nullptr, *versym = nullptr;
    for (unsigned i = 0; i < eh->e_shnum; ++i) {
        if (sh[i].sh_type == SHT_DYNSYM)
            dynsym = &sh[i];
        else if (sh[i].sh_type == SHT_GNU_versym)
            versym = &sh[i];
    }
    if (!dynsym)
        throw bad("no dynamic symbol table");
    if (dynsym->sh_link >= eh->e_shnum || dynsym->sh_entsize != sizeof(Elf64_Sym)
        || !inside(dynsym->sh_offset, dynsym->sh_size))
        throw bad("a malformed dynamic symbol table");
    const Elf64_Shdr &strtab = sh[dynsym->sh_link];
    if (!inside(strtab.sh_offset, strtab.sh_size))
        throw bad("its string table lies outside the file");
    const std::size_t count = dynsym->sh_size / sizeof(Elf64_Sym);
    if (versym && (!inside(versym->sh_offset, versym->sh_size) || versym->sh_size < count * sizeof(Elf64_Half)))
        throw bad("a malformed symbol version table");
    const auto *syms = reinterpret_cast<const Elf64_Sym *>(base + dynsym->sh_offset);
    const auto *vers = versym ? reinterpret_cast<const Elf64_Half *>(base + versym->sh_offset) : nullptr;
    const auto *strs = reinterpret_cast<const char *>(base + strtab.sh_offset);
    std::vector<std::string> out;
    for (std::size_t i = 1; i < count; ++i) {
        const Elf64_Sym &s = syms[i];
        if (s.st_shndx != SHN_UNDEF || ELF64_ST_BIND(s.st_info) != STB_GLOBAL || s.st_name == 0)
            continue;
        // Index 0 (local) and 1 (global): no version, so no NEEDED library promised it.
        if (vers && (vers[i] & 0x7fff) > 1)
            continue;
        if (s.st_name >= strtab.sh_size)
            throw bad("a symbol name outside its string table");
        const char *n = strs + s.st_name;
        const std::size_t len = ::strnlen(n, strtab.sh_size - s.st_name);
        if (len == strtab.sh_size - s.st_name)
            throw bad("an unterminated symbol name");
        out.emplace_back(n, len);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> unresolvedSymbols(const std::vector<std::string> &symbols)
{
    static std::mutex mutex;
    const std::lock_guard lock(mutex);
    std::vector<std::string> missing;
    for (const auto &s : symbols) {
        if (::dlsym(RTLD_DEFAULT, s.c_str()))
            continue;
        bool found = false;
        for (const auto &p : kProviders) {
            if (s.rfind(p.prefix, 0) != 0)
                continue;
            if (!::dlopen(p.library, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD)
                && !::dlopen(p.library, RTLD_NOW | RTLD_GLOBAL)) {
                const char *why = ::dlerror();
                throw LiteError(std::string("needs ") + p.library + " for " + s + " (" + p.what
                                + "), which cannot be opened: " + (why ? why : "unknown error"));
            }
            found = ::dlsym(RTLD_DEFAULT, s.c_str()) != nullptr;
        }
        if (!found)
            missing.push_back(s);
    }
    return missing;
}

fs::path findPackageLibrary(const fs::path &dir)
{
    std::vector<fs::path> found;
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(dir, ec)) {
        const fs::path model = e.path() / "data" / "aotinductor" / "model";
        for (const auto &f : fs::directory_iterator(model, ec))
            if (f.path().extension() == ".so")
                found.push_back(f.path());
    }
    if (found.size() != 1)
        throw LiteError(
            "'" + dir.string() + "' holds " + std::to_string(found.size())
            + " compiled models (<archive>/data/aotinductor/model/*.so); an AOTInductor CPU package has one");
    return found.front();
}

struct Package::Api {
    CreateWithDeviceFn create = nullptr;
    DeleteFn destroy = nullptr;
    RunFn run = nullptr;
    GetCountFn numInputs = nullptr, numOutputs = nullptr, numConstants = nullptr;
    GetNameFn constantName = nullptr, constantFqn = nullptr;
    UpdatePairsFn updateUserManaged = nullptr;
    LastErrorFn lastError = nullptr;
};

namespace {
std::string failure(const char *what, LastErrorFn lastError)
{
    std::string why = Lite::lastError();
    const char *msg = nullptr;
    if (lastError && lastError(&msg) == 0 && msg && *msg)
        why += (why.empty() ? "" : "; ") + std::string(msg);
    return std::string(what) + (why.empty() ? " (the package printed its reason on stderr)" : ": " + why);
}
} // namespace

std::unique_ptr<Package> Package::load(const fs::path &pt2, const LoadOptions &options)
{
    const std::string label = "package '" + pt2.string() + "'";
    std::unique_ptr<Package> p(new Package);
    p->m_pt2 = pt2;
    p->m_guards = options.guards;
    p->m_convertLayout = options.convertLayout;
    fs::path dir;
    try {
        dir = Bundle::cachedPackageDir(pt2, options.sha256);
    } catch (const Bundle::BundleError &e) {
        throw LiteError(label + ": " + e.what());
    }
    try {
        p->m_so = findPackageLibrary(dir);
        const auto missing = unresolvedSymbols(processSymbols(p->m_so));
        if (!missing.empty()) {
            std::string names;
            for (const auto &m : missing)
                names += (names.empty() ? "" : ", ") + m;
            throw LiteError(label + " needs " + std::to_string(missing.size())
                                + " function(s) the lite runtime does not provide: " + names
                                + " (export it with --runtime libtorch, or run it with aotstudio-run)",
                            missing);
        }
    } catch (const LiteError &e) {
        if (!e.missing().empty() || std::string(e.what()).rfind(label, 0) == 0)
            throw;
        throw LiteError(label + ": " + e.what());
    }
    // RTLD_LOCAL: the package's own symbols stay its own (two buckets define the same names).
    p->m_lib = ::dlopen(p->m_so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!p->m_lib) {
        const char *why = ::dlerror();
        throw LiteError(label + ": its compiled model cannot be loaded: " + (why ? why : "unknown error"));
    }
    p->m_api = std::make_unique<Api>();
    auto &api = *p->m_api;
    const auto sym = [&](const char *n, bool required) {
        void *f = ::dlsym(p->m_lib, n);
        if (!f && required)
            throw LiteError(label + ": its compiled model has no " + n
                            + " (not an AOTInductor package of torch 2.14?)");
        return f;
    };
    api.create = reinterpret_cast<CreateWithDeviceFn>(sym("AOTInductorModelContainerCreateWithDevice", true));
    api.destroy = reinterpret_cast<DeleteFn>(sym("AOTInductorModelContainerDelete", true));
    api.run = reinterpret_cast<RunFn>(sym("AOTInductorModelContainerRun", true));
    api.numInputs = reinterpret_cast<GetCountFn>(sym("AOTInductorModelContainerGetNumInputs", true));
    api.numOutputs = reinterpret_cast<GetCountFn>(sym("AOTInductorModelContainerGetNumOutputs", true));
    api.numConstants = reinterpret_cast<GetCountFn>(sym("AOTInductorModelContainerGetNumConstants", false));
    api.constantName = reinterpret_cast<GetNameFn>(sym("AOTInductorModelContainerGetConstantName", false));
    api.constantFqn = reinterpret_cast<GetNameFn>(sym("AOTInductorModelContainerGetConstantOriginalFQN", false));
    api.updateUserManaged
        = reinterpret_cast<UpdatePairsFn>(sym("AOTInductorModelContainerUpdateUserManagedConstantBufferPairs", false));
    api.lastError = reinterpret_cast<LastErrorFn>(sym("AOTInductorGetLastError", false));

    clearLastError();
    ContainerHandle handle = nullptr;
    const std::string cubinDir = p->m_so.parent_path().string();
    if (api.create(&handle, static_cast<size_t>(std::max(1, options.numRunners)), "cpu", cubinDir.c_str()) != 0
        || !handle)
        throw LiteError(label + ": " + failure("creating its model failed", api.lastError));
    p->m_container = handle;
    size_t n = 0;
    if (api.numInputs(handle, &n) == 0)
        p->m_numInputs = n;
    if (api.numOutputs(handle, &n) == 0)
        p->m_numOutputs = n;

    // External weights (weights_config.json beside the .so): a bundle's shared files, mapped.
    const fs::path archive = p->m_so.parent_path().parent_path().parent_path().parent_path();
    if (fs::exists(p->m_so.parent_path() / "weights_config.json"))
        p->bindWeights(archive, options.weightFiles);
    return p;
}

void Package::bindWeights(const fs::path &archive, const std::map<std::string, Bundle::BucketWeight> &shared)
{
    const std::string label = "package '" + m_pt2.string() + "'";
    nlohmann::json entries;
    try {
        entries = nlohmann::json::parse(fileText(m_so.parent_path() / "weights_config.json"));
    } catch (const std::exception &e) {
        throw LiteError(label + ": its weights_config.json cannot be read: " + e.what());
    }
    auto &api = *m_api;
    if (!api.updateUserManaged || !api.numConstants || !api.constantName || !api.constantFqn)
        throw LiteError(label + ": its compiled model cannot take external weights (no constant-buffer functions)");
    // weights_config.json names constants by FQN; the container by its own names.
    std::map<std::string, std::string> nameOfFqn;
    size_t count = 0;
    api.numConstants(static_cast<ContainerHandle>(m_container), &count);
    for (size_t i = 0; i < count; ++i) {
        const char *name = nullptr, *fqn = nullptr;
        if (api.constantName(static_cast<ContainerHandle>(m_container), i, &name) == 0
            && api.constantFqn(static_cast<ContainerHandle>(m_container), i, &fqn) == 0 && name && fqn)
            nameOfFqn[fqn] = name;
    }
    std::map<std::string, std::shared_ptr<Storage>> files;
    std::vector<ConstantMapEntry> pairs;
    std::vector<std::string> names; // the pairs point into these
    names.reserve(entries.size());
    std::map<std::string, std::int32_t> ownDtypes;
    const auto addConstant = [&](const std::string &fqn, const nlohmann::json &entry,
                                 const std::shared_ptr<Storage> &storage, std::int32_t dtype, const std::string &file) {
        auto t = std::make_unique<Tensor>();
        t->storage = storage;
        t->dtype = dtype;
        t->sizes = entry.at(1).get<std::vector<std::int64_t>>();
        t->strides = entry.at(2).get<std::vector<std::int64_t>>();
        t->storageOffset = entry.at(3).get<std::int64_t>();
        if (t->sizes.size() != t->strides.size())
            throw LiteError(label + ": weights_config.json: '" + fqn + "' has sizes and strides of different ranks");
        std::int64_t last = t->storageOffset;
        for (std::size_t i = 0; i < t->sizes.size(); ++i)
            last += t->sizes[i] > 0 ? (t->sizes[i] - 1) * t->strides[i] : 0;
        if (t->numel() > 0 && (last + 1) * static_cast<std::int64_t>(t->itemSize()) > storage->nbytes)
            throw LiteError(label + ": weights_config.json: '" + fqn + "' reaches past the end of '" + file + "'");
        const auto nm = nameOfFqn.find(fqn);
        if (nm == nameOfFqn.end())
            throw LiteError(label + ": weights_config.json names '" + fqn + "', which the model has no constant for");
        names.push_back(nm->second);
        m_constants.push_back(std::move(t));
    };
    try {
        for (const auto &[fqn, entry] : entries.items()) {
            const std::string file = entry.at(0).get<std::string>();
            const auto it = shared.find(file);
            if (it == shared.end()) {
                // A package whose weight files are still inside it (the engine's verify, before an
                // export moves them): each a torch.save file of one plain tensor.
                const fs::path own = archive / "data" / "weights" / file;
                if (!fs::exists(own))
                    throw LiteError(label + ": its weight file '" + file + "' (for '" + fqn
                                    + "') is neither inside it nor one of the bundle's shared weights");
                auto &storage = files[own.string()];
                if (!storage) {
                    const auto f = readTensorFile(own);
                    storage = f.tensors.front()->storage;
                    ownDtypes[own.string()] = f.tensors.front()->dtype;
                }
                addConstant(fqn, entry, storage, ownDtypes[own.string()], own.string());
                continue;
            }
            const Bundle::BucketWeight &w = it->second;
            const std::int32_t dtype = dtypeCode(w.dtype);
            if (dtype < 0)
                throw LiteError(label + ": weight file '" + w.file + "' has dtype " + w.dtype + ", unknown here");
            auto &storage = files[w.file];
            if (!storage) {
                const std::int64_t bytes = w.numel * static_cast<std::int64_t>(elementSize(dtype));
                const int fd = ::open(w.file.c_str(), O_RDONLY | O_CLOEXEC);
                if (fd < 0)
                    throw LiteError("weight file '" + w.file + "' cannot be opened: " + std::strerror(errno));
                struct stat st {
                };
                if (::fstat(fd, &st) != 0 || st.st_size != bytes) {
                    ::close(fd);
                    throw LiteError("weight file '" + w.file + "' has " + std::to_string(st.st_size)
                                    + " bytes; the manifest says " + std::to_string(w.numel) + " " + w.dtype + " ("
                                    + std::to_string(bytes) + " bytes)");
                }
                // MAP_PRIVATE: a model that writes a buffer gets private pages, never a fault.
                void *data = bytes
                    ? ::mmap(nullptr, static_cast<std::size_t>(bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0)
                    : nullptr;
                ::close(fd);
                if (data == MAP_FAILED)
                    throw LiteError("weight file '" + w.file + "' cannot be mapped: " + std::strerror(errno));
                storage = std::make_shared<Storage>();
                storage->data = data;
                storage->nbytes = bytes;
                storage->mapped = true;
            }
            addConstant(fqn, entry, storage, dtype, w.file);
        }
    } catch (const nlohmann::json::exception &e) {
        throw LiteError(label + ": its weights_config.json is malformed: " + e.what());
    }
    for (std::size_t i = 0; i < names.size(); ++i)
        pairs.push_back({names[i].c_str(), toHandle(m_constants[i].get())});
    clearLastError();
    // user_managed: the model reads our mapped tensors in place; validate_full_update: every
    // constant must be given.
    if (api.updateUserManaged(static_cast<ContainerHandle>(m_container), pairs.data(), pairs.size(), false, true) != 0)
        throw LiteError(label + ": " + failure("its external weights do not fit it", api.lastError));
}

Package::~Package()
{
    if (m_container && m_api)
        m_api->destroy(static_cast<ContainerHandle>(m_container));
    // The .so stays mapped: a package's thread-locals and atexit handlers may still refer to it.
}

namespace {

Bundle::InputRef refOf(const Tensor &t)
{
    return {{t.sizes.data(), t.sizes.size(), t.strides.data()},
            reinterpret_cast<std::uintptr_t>(t.data()),
            t.storageOffset,
            t.numel(),
            dtypeName(t.dtype)};
}

} // namespace

void Package::setInputs(std::vector<std::shared_ptr<const Tensor>> inputs, bool generated)
{
    const std::string label = "package '" + m_pt2.string() + "'";
    m_inputsSet = false;
    m_inputs.clear();
    if (inputs.size() != m_numInputs)
        throw LiteError(label + " takes " + std::to_string(m_numInputs) + " inputs, given " + std::to_string(inputs.size()));
    for (std::size_t i = 0; i < inputs.size(); ++i)
        if (!inputs[i] || inputs[i]->deviceType != 0)
            throw LiteError(label + ": input " + std::to_string(i) + " is not a CPU tensor (the lite runtime runs CPU packages only)");
    std::vector<Bundle::InputRef> refs;
    refs.reserve(inputs.size());
    for (const auto &t : inputs)
        refs.push_back(refOf(*t));
    auto refused = m_admission.admit(m_guards.get(), refs, m_convertLayout || generated, !generated,
                                     [&](std::size_t i, const std::vector<std::int64_t> &strides) {
                                         const Tensor &src = *inputs[i];
                                         std::shared_ptr<Tensor> copy
                                             = emptyTensor(src.sizes, src.dtype, strides.empty() ? preservedStrides(src) : strides);
                                         copyInto(*copy, src);
                                         inputs[i] = copy;
                                         return refOf(*copy);
                                     });
    if (refused)
        throw InputRefused("the inputs do not fit " + label + ": " + refused->message, std::move(refused->violation));
    m_inputs = std::move(inputs);
    m_inputsSet = true;
}

std::vector<std::unique_ptr<Tensor>> Package::run()
{
    const std::string label = "package '" + m_pt2.string() + "'";
    if (!m_inputsSet)
        throw LiteError(label + ": no inputs were set (Package::setInputs)");
    std::vector<AtenTensorHandle> in;
    for (const auto &t : m_inputs)
        in.push_back(toHandle(new Tensor(*t))); // stolen by the container
    std::vector<AtenTensorHandle> out(m_numOutputs, nullptr);
    clearLastError();
    if (m_api->run(static_cast<ContainerHandle>(m_container), in.data(), in.size(), out.data(), out.size(), nullptr,
                   nullptr)
        != 0) {
        for (auto h : out)
            delete fromHandle(h);
        throw LiteError(label + ": " + failure("the run failed", m_api->lastError));
    }
    std::vector<std::unique_ptr<Tensor>> result;
    for (auto h : out)
        result.emplace_back(fromHandle(h));
    return result;
}

} // namespace AotStudio::Lite
