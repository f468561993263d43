// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `aotstudio-cli preflight BUNDLE --gpu PROFILE` (core/runtime/BUNDLE.md "Preflight"): will a
// bundle load, fit and run on a target GPU worker, answered from the bundle's files alone (its
// compatibility key, the packages' kernel images and extern kernels, the memory plan and the cold
// start measured at export), never by loading it. No torch, no Qt.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace AotStudio::Bundle {

/// A GPU worker to check against. Built-in profiles: gpuProfiles(); a user's own as JSON with the
/// same keys (gpuProfileFromJson()).
struct GpuProfile {
    std::string name;              ///< "rtx-pro-6000-half"
    std::string description;       ///< "NVIDIA RTX Pro 6000 Blackwell, half a card (ZeroGPU large)"
    std::string computeCapability; ///< "12.0"
    std::uint64_t memoryBytes = 0; ///< what a process may allocate on it
    std::uint64_t workspaceBytes = 0; ///< assumed taken by the CUDA context, cuBLAS/cuDNN workspaces
    double workerSeconds = 60;     ///< how long one worker (one GPU allocation) lasts
    std::string source;            ///< where the figures come from
    std::vector<std::string> torchVersions; ///< torch major.minor the worker offers ("2.11"); empty: any
};

/// The profile `preflight` and the export's result use when none is named.
inline constexpr const char *kDefaultGpuProfile = "rtx-pro-6000-half";

/// rtx-pro-6000-half (48 GB, sm_120, the ZeroGPU default `large`), rtx-pro-6000 (96 GB, sm_120,
/// ZeroGPU `xlarge`), h200 (141 GB, sm_90).
const std::vector<GpuProfile> &gpuProfiles();

/// A profile by built-in name, or read from a JSON file {"name", "compute_capability",
/// "memory_bytes" (or "memory_gib"), "workspace_bytes", "worker_seconds", "description"}. Throws
/// BundleError naming the profile and the built-in names when neither.
GpuProfile gpuProfile(const std::string &nameOrFile);

/// A kernel known not to exist for some architectures, matched against the packages' extern
/// kernels and their wrapper's source (e.g. FlashAttention 3 on sm_120).
struct KnownGap {
    std::string pattern; ///< substring of an extern kernel or op name ("flash_attn_3")
    std::string op;      ///< what to call it ("FlashAttention 3")
    int minSm = 0;       ///< exists from this SM on (0: no lower bound)
    int maxSm = 0;       ///< exists up to this SM (0: no upper bound)
    std::string why;     ///< the sentence a user reads, with the source
};
const std::vector<KnownGap> &knownGaps();

/// The preflight of the bundle at `root` (a verified or unverified bundle folder) against
/// `profile`: {"profile", "bundle", "compat_key", "verdict": "ok" | "refused" | "unknown",
/// "checks": [{"name": "architectures" | "kernels" | "memory" | "cold_start" | "economics",
/// "status": "ok" | "fail" | "warn" | "unknown", "summary", ...}], "reasons": [...]}. Memory:
/// the largest bucket's weights (its shared weight files, else its package's .so: code and
/// embedded weights) + its predicted activation peak (the compile's memory plan, report/<bucket>.json
/// `memory.predicted_peak_bytes`) + the profile's workspace, against the profile's memory. Cold
/// start and economics: the export's cold_start.json phases (measured on the export machine,
/// said so). Throws BundleError when the bundle's manifest cannot be read.
nlohmann::json preflight(const std::filesystem::path &root, const GpuProfile &profile);

} // namespace AotStudio::Bundle
