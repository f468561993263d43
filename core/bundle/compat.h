// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The compatibility key of packages and bundles (core/runtime/BUNDLE.md "Compatibility key"):
// what a package was built for, read from the package's own files (never by loading it), the
// manifest's `compat` object built from it at export, and the check every runtime and engine makes
// against the machine before any native code of a bundle runs. No torch, no Qt.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace AotStudio::Bundle {

struct Manifest;

/// What one AOTInductor package was built for, read from its files without running them:
/// - `<model>_metadata.json`, written by torch beside every generated .so (codecache.py
///   get_device_information(): AOTI_DEVICE_KEY, AOTI_PLATFORM, AOTI_MACHINE, AOTI_CPU_ISA as
///   str(pick_vec_isa()).upper(), AOTI_COMPUTE_CAPABILITY);
/// - the CUDA kernel images in the package: cubin files (ELF, e_machine EM_CUDA = 190; the SM in
///   e_flags: bits 8..15 from ELF ABI version 8 on, bits 0..7 before) and fatbins (magic
///   0xBA55ED50; one entry per image, kind 1 = PTX, 2 = ELF, the SM at byte 28 of the entry
///   header), as separate `.cubin`/`.fatbin` entries or embedded in the .so
///   (aot_inductor.embed_kernel_binary);
/// - the .so's DWARF producer string (GCC records its command line, `-march=znver3 -mavx2 ...`,
///   with -g1, which Inductor passes): the -march target and the instruction-set extensions the
///   compiler was allowed to use, as /proc/cpuinfo flag names (cpuFeatures).
struct PackageTarget {
    bool found = false;          ///< a metadata file was read (false: not an AOTI package, or too old)
    std::string deviceKey;       ///< "cpu", "cuda"
    std::string platform;        ///< "linux"
    std::string machine;         ///< "x86_64", "aarch64"
    std::string cpuIsa;          ///< "AVX2", "AVX512", "AVX512 AVX512_VNNI AMX_TILE", "ASIMD"; "" none
    std::string march;           ///< "znver3" (a -march=native build names the CPU it ran on); "" unknown
    std::string computeCapability; ///< AOTI_COMPUTE_CAPABILITY as written ("90"); "" on CPU
    std::set<std::string> cpuFeatures; ///< cpuinfo flags the package's code may use ("avx2", "fma", ...)
    std::set<int> sass;          ///< SM versions with machine code (90 = sm_90, 120 = sm_120)
    std::set<int> ptx;           ///< virtual architectures with PTX that the driver can JIT (90 = compute_90)
    int kernelImages = 0;        ///< CUDA kernel images found (cubins, fatbin entries)
    std::vector<std::string> externOps; ///< extern kernels the generated code calls (kernel_information.json)
    std::vector<std::string> notes; ///< what could not be read, e.g. "libmodel.so: 3 GiB, not scanned"
};

/// Read `package` (a .pt2 file, or a folder an AOTI package was extracted into). Entries larger
/// than `maxScanBytes` are not scanned for kernel images or the producer string (said in `notes`).
/// Without `sharedObjects` the .so files are not read (a load-time check: metadata, cubins and
/// fatbins only; no -march, no embedded images). Throws BundleError naming the file when it is
/// not a readable zip or folder.
PackageTarget readPackageTarget(const std::filesystem::path &package, std::uint64_t maxScanBytes = 1ull << 30,
                                bool sharedObjects = true);

/// What one file of a package tells about its target, added to `t`: the reader behind
/// readPackageTarget() for each entry it reads (`name` the entry's path: a `*_metadata.json`,
/// `kernel_information.json`, `.cubin`, `.fatbin` or `.so`; other names are ignored). Never throws:
/// a file that does not parse is noted in `t.notes` (fuzz_compat feeds it arbitrary bytes).
void readPackageEntry(const std::string &name, std::string data, PackageTarget &t);

/// The cpuinfo flags an Inductor vector ISA needs (its build flags in torch/_inductor/
/// cpu_vec_isa.py: VecAVX2 "-mavx2 -mfma -mf16c", VecAVX512 "-mavx512f -mavx512dq -mavx512vl
/// -mavx512bw -mfma", VecAVX512VNNI "-mavx512vnni", VecAMX "-mamx-tile -mamx-bf16 -mamx-int8";
/// VecNEON/VecSVE: asimd / sve). Unknown words are ignored.
std::set<std::string> isaFeatures(const std::string &cpuIsa);

/// The machine a bundle is about to run on, as the compatibility check sees it.
struct Host {
    std::string torchVersion;      ///< the runtime's LibTorch ("2.14.1+cu130")
    bool cudaAvailable = false;
    std::string computeCapability; ///< "9.0"; empty without CUDA
    std::string machine;           ///< uname -m
    std::set<std::string> cpuFlags; ///< /proc/cpuinfo "flags" (x86) or "Features" (Arm); empty: unknown
    std::string runtime = "libtorch"; ///< "libtorch" (aotstudio-run, the engine) or "lite"
    /// This machine: uname and /proc/cpuinfo read here, the rest given.
    static Host current(const std::string &torchVersion, bool cudaAvailable, const std::string &computeCapability);
    /// "torch 2.14, cpu x86_64" / "torch 2.11, sm_120" (`gpu`: the GPU side): for refusals.
    std::string describe(bool gpu = false) const;
};

/// The manifest's `compat` object (BUNDLE.md "Compatibility key") for a bundle whose buckets'
/// packages read as `targets` (one per bucket, same order) and whose first compile result carried
/// `compileCompat` (FORMAT.md: the compile result's `compat`: torch, cuda, python, precision,
/// scheme, model_sha256, options_sha256). `draft` gives device, quantization and the buckets
/// (shape mode from their ranges and guards). Sets "key" (compatKeyString()).
nlohmann::json makeCompat(const nlohmann::json &compileCompat, const std::vector<PackageTarget> &targets,
                          const nlohmann::json &buckets, const std::string &device, const std::string &quantization);

/// The one-line key users file packages under, e.g.
/// "torch2.14-cpu-x86_64-avx2-znver3-fp32-static-1a2b3c4d" or "torch2.14-cu13.0-sm90+ptx90-bf16-dynamic-1a2b3c4d"
/// (the last part: the first 8 hex digits of the model hash).
std::string compatKeyString(const nlohmann::json &compat);

/// "torch 2.14, cpu x86_64 AVX2 (-march=znver3)" / "torch 2.14, CUDA 13.0, sm_90, no PTX": the
/// build side of a refusal.
std::string describeCompat(const nlohmann::json &compat);

/// Why a package described by `compat` cannot run on `host` (empty: it can): torch major.minor,
/// machine, CPU features (the package's cpu_features missing from the host's flags), CUDA
/// presence and architectures (SASS sm_XY runs on X.Z for Z >= Y; PTX compute_XY on any
/// capability >= X.Y). Each reason is one sentence naming both sides and what to rebuild. A
/// compat without a field checks nothing for it (older bundles). With `host.runtime` "lite" the
/// torch comparison is skipped for a compat whose runtime is "lite" or "mixed" (a lite package
/// binds to the runtime's shim, checked by symbol before loading, and needs no torch); whether
/// the lite runtime can run the buckets is checkCompatible()'s (bundle.h), which names them.
std::vector<std::string> checkCompat(const nlohmann::json &compat, const Host &host);

/// The compat of a lone package (aotstudio-run --package, the engine's profile of a .pt2): what
/// readPackageTarget() found, as makeCompat() writes it (no model hash, no precision).
nlohmann::json packageCompat(const PackageTarget &target, const std::string &torchVersion);

} // namespace AotStudio::Bundle
