// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An AOTInductor package compiled with `aot_inductor.link_libtorch=False`, loaded and run by the
// lite runtime (BUNDLE.md "The libtorch-free runtime"): no libtorch, c10 or Python in the process.
// The package's .so binds its aoti_torch_* calls to the shim (shim.h) that the executable exports.

#include "bundle/bundle.h"
#include "bundle/guards.h"
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

/// Inputs the package does not take (Bundle::InputAdmission, the check aotstudio-run makes): a
/// size, rank or count its guards refuse, another layout (strides) than the one it was compiled
/// for, a first element not aligned to 16 bytes, another dtype. The message names the input, what
/// it is and what the package takes; violation() has them one by one.
class InputRefused : public LiteError
{
public:
    InputRefused(const std::string &message, Bundle::GuardViolation violation)
        : LiteError(message)
        , m_violation(std::move(violation))
    { }
    const Bundle::GuardViolation &violation() const { return m_violation; }

private:
    Bundle::GuardViolation m_violation;
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
        /// What every input set is checked against (a bundle bucket's guards, the package's
        /// model.guards.json sidecar, --guards); null: the count and the alignment only.
        std::shared_ptr<const Bundle::InputGuards> guards;
        /// An input in another layout (or misaligned) is copied into the package's layout and
        /// reported in layoutConversions() instead of refused (--convert-layout).
        bool convertLayout = false;
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

    const std::shared_ptr<const Bundle::InputGuards> &guards() const { return m_guards; }

    /// Check `inputs` (in the package's order) and keep them for run(): their count, then
    /// Bundle::InputAdmission (alignment, the guards' shapes and strides, dtypes), as aotstudio-run's
    /// AotiRunner does, because the package indexes each input with the strides it was compiled
    /// for and would read the wrong elements of another layout without an error (pytorch#153992).
    /// A misaligned input or one in another layout is copied into the package's layout when
    /// LoadOptions::convertLayout (reported in layoutConversions()), or always when `generated`
    /// (inputs the caller drew in no particular layout; not reported: AotiRunner::
    /// setGeneratedInputs). Throws InputRefused (nothing kept) when they do not fit, LiteError
    /// when the count differs.
    void setInputs(std::vector<std::shared_ptr<const Tensor>> inputs, bool generated = false);
    /// The inputs the last setInputs() copied into the package's layout.
    const std::vector<Bundle::LayoutConversion> &layoutConversions() const { return m_admission.conversions(); }
    /// The inputs run() runs on (the caller's, or copies in the package's layout).
    const std::vector<std::shared_ptr<const Tensor>> &inputs() const { return m_inputs; }

    /// Run once on the inputs of setInputs() (the container gets handles of its own on the same
    /// storage). Returns the outputs. Throws LiteError with the package's or the shim's reason when
    /// the run fails, or when no inputs were set.
    std::vector<std::unique_ptr<Tensor>> run();

private:
    Package() = default;
    struct Api;
    std::unique_ptr<Api> m_api;
    void *m_lib = nullptr;
    void *m_container = nullptr;
    std::filesystem::path m_pt2, m_so;
    std::size_t m_numInputs = 0, m_numOutputs = 0;
    std::vector<std::unique_ptr<Tensor>> m_constants; ///< external weights, kept alive while the container lives
    std::shared_ptr<const Bundle::InputGuards> m_guards;
    bool m_convertLayout = false;
    Bundle::InputAdmission m_admission{"aotstudio-run-lite --convert-layout"};
    std::vector<std::shared_ptr<const Tensor>> m_inputs;
    bool m_inputsSet = false;
    void bindWeights(const std::filesystem::path &archive, const std::map<std::string, Bundle::BucketWeight> &shared);
};

} // namespace AotStudio::Lite
