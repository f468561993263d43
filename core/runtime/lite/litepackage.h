// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An AOTInductor package compiled with `aot_inductor.link_libtorch=False`, loaded and run by the
// lite runtime (BUNDLE.md "The libtorch-free runtime"): no libtorch, c10 or Python in the process.
// The package's .so binds its aoti_torch_* calls to the shim (shim.h) that the executable exports.

#include "bundle/bundle.h"
#include "runtime/lite/shim.h"

#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace AotStudio::Lite {

/// A package the lite runtime cannot load or run; the message is one line naming the package and
/// the reason. `missing()` lists the functions the package needs that this process does not
/// provide (then the message names them too).
class LiteError : public std::runtime_error
{
public:
    explicit LiteError(const std::string &message, std::vector<std::string> missing = {})
        : std::runtime_error(message)
        , m_missing(std::move(missing))
    { }
    const std::vector<std::string> &missing() const { return m_missing; }

private:
    std::vector<std::string> m_missing;
};

/// The undefined, non-weak symbols of the ELF shared object `so` that carry no symbol version:
/// those the package expects from the process (aoti_torch_*, Sleef_*), not from a library it names
/// as NEEDED (libc, libstdc++, libgomp bind with versions). Read from its .dynsym and
/// .gnu.version sections with glibc's <elf.h> structures. Throws LiteError naming the file when it
/// is not a readable 64-bit little-endian ELF file or a table lies outside it.
std::vector<std::string> processSymbols(const std::filesystem::path &so);

/// Of `symbols`, those this process cannot provide: not exported by it (dlsym(RTLD_DEFAULT)) and
/// not in a library it opens for them (Sleef_* from Debian's libsleef.so.3, opened RTLD_GLOBAL
/// here when first needed). Throws LiteError naming the library when a needed one cannot be opened.
std::vector<std::string> unresolvedSymbols(const std::vector<std::string> &symbols);

/// The libraries the lite runtime opens on demand, as {library, what needs it}, for --abi.
std::vector<std::pair<std::string, std::string>> providerLibraries();

/// The package's .so inside an extracted package folder (`<dir>/<archive>/data/aotinductor/model/*.so`).
/// Throws LiteError when there is none or more than one.
std::filesystem::path findPackageLibrary(const std::filesystem::path &dir);

class Package
{
public:
    struct LoadOptions {
        std::string sha256; ///< the package's (a verified manifest's); empty: computed for the cache
        /// External weight files shared by a bundle's buckets (Bucket::weightsUnder), by the
        /// package's file name in weights_config.json.
        std::map<std::string, Bundle::BucketWeight> weightFiles;
        int numRunners = 1;
    };

    /// Extract `pt2` once into the package cache (Bundle::cachedPackageDir), check that every
    /// symbol its .so needs from the process is provided (else LiteError listing the missing
    /// functions, before anything of it runs), dlopen it, create its model container on the CPU
    /// and bind its external weights (mmap'ed, read in place). Throws LiteError naming the
    /// package and the step that failed.
    static std::unique_ptr<Package> load(const std::filesystem::path &pt2, const LoadOptions &options);
    ~Package();
    Package(const Package &) = delete;
    Package &operator=(const Package &) = delete;

    std::size_t numInputs() const { return m_numInputs; }
    std::size_t numOutputs() const { return m_numOutputs; }
    const std::filesystem::path &library() const { return m_so; }

    /// Run once on `inputs` (borrowed: the container gets handles of its own on the same storage).
    /// Returns the outputs. Throws LiteError with the package's or the shim's reason when the run
    /// fails or the number of inputs differs.
    std::vector<std::unique_ptr<Tensor>> run(const std::vector<const Tensor *> &inputs);

private:
    Package() = default;
    struct Api;
    std::unique_ptr<Api> m_api;
    void *m_lib = nullptr;
    void *m_container = nullptr;
    std::filesystem::path m_pt2, m_so;
    std::size_t m_numInputs = 0, m_numOutputs = 0;
    std::vector<std::unique_ptr<Tensor>> m_constants; ///< external weights, kept alive while the container lives
    void bindWeights(const std::filesystem::path &archive, const std::map<std::string, Bundle::BucketWeight> &shared);
};

} // namespace AotStudio::Lite
