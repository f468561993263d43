// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace AotStudio::Runtime {

/// Which native libraries a package of a device needs, loaded on demand (BUNDLE.md "Lean runtime").
///
/// The runtime links `libtorch_cpu` and `c10` only. The wheel's `libtorch.so` is a thin library
/// whose only job is to pull in `libtorch_cpu` *and* `libtorch_cuda` (and with it cuDNN, cuBLAS,
/// NCCL, ... about 3 GB); every AOTInductor package's `.so` names it as a needed library. So:
///  - before a CPU package loads in a lean process (useCpuStandIn(true): aotstudio-run),
///    `aotstudio_libtorch_cpu.so` is opened: a stand-in whose SONAME is
///    `libtorch.so` and which needs `libtorch_cpu` alone. The dynamic loader matches a package's
///    `NEEDED libtorch.so` against the SONAMEs of loaded objects, so the package binds to it and
///    no CUDA library is mapped. Skipped when the real `libtorch.so` is loaded already. Elsewhere
///    (the engine and CLI, where Python's torch must find the real one) the real `libtorch.so` is
///    opened instead: a stand-in loaded first would be taken for it by `import torch` later.
///  - before a CUDA package loads, `aotstudio_runtime_cuda.so` is opened: a module linked to
///    `libtorch_cuda`, `c10_cuda` and the real `libtorch.so`; loading it registers torch's CUDA
///    hooks and AOTInductor's CUDA runner, and its few functions (stream pool, device properties)
///    are called through a table of function pointers, so no translation unit of the runtime
///    includes a CUDA header.
/// Both files are looked up next to the executable (`../lib/` and `$AOTSTUDIO_LIB_DIR`).
/// Note: `libtorch_cpu.so` of the CUDA wheel itself needs `libcudart` and `libcupti` (Kineto); those
/// two (about 10 MB) are mapped for CPU bundles too, and nothing short of another torch build avoids it.
namespace Libraries {

/// Make `libtorch.so` resolvable for a package of `device` ("cpu", "cuda", "cuda:N"): the CPU
/// stand-in or the CUDA module, as above; idempotent. Throws RuntimeError naming the file and the
/// folders searched when it is missing or does not load (dlerror's message).
void prepareFor(const std::string &device);

/// Let prepareFor() use the CPU stand-in (see above). Call it at the start of a process that never
/// imports Python's torch; default off.
void useCpuStandIn(bool on);

/// The CUDA module's functions (loads it on first use). Throws RuntimeError as prepareFor().
struct CudaApi {
    int (*deviceCount)();                                    ///< 0 without a usable device
    int (*computeCapability)(int index, int *major, int *minor); ///< 0 on success
    /// Make a pool stream of `device` current on the calling thread (c10::cuda::getStreamFromPool,
    /// one per thread, reused); returns a guard and sets *stream to its cudaStream_t.
    void *(*enterPoolStream)(int device, void **stream);
    /// Wait for the guard's stream, restore the previous stream, free the guard.
    void (*leavePoolStream)(void *guard);
    int (*currentDevice)();
    /// Run `call(context)` and return the peak bytes the CUDA caching allocator held above what it
    /// held before (cache emptied and peak statistics reset first) on the current device.
    long long (*peakAllocatedBytes)(void (*call)(void *), void *context);
    /// Run `call(context)` between two CUDA events on the current stream; elapsed ms (cudaEventElapsedTime).
    double (*eventElapsedMs)(void (*call)(void *), void *context);
};
const CudaApi &cuda();

/// Whether the CUDA module could be loaded and sees at least one device. Never throws; loads the
/// module (and so libtorch_cuda) when not yet loaded: call it only where CUDA is wanted.
bool cudaUsable();

/// File-backed shared libraries mapped into this process now (/proc/self/maps), for cold-start
/// reports: how many, their total size on disk in bytes, and whether any CUDA library
/// (libtorch_cuda, libcudnn, libcublas, libnccl, ...) is among them besides the two that
/// libtorch_cpu itself needs (libcudart, libcupti). Empty figures where /proc is not readable.
struct MappedLibraries {
    int count = 0;
    std::int64_t bytes = 0;
    bool cudaStack = false;           ///< libtorch_cuda or any CUDA math/communication library mapped
    std::vector<std::string> largest; ///< file names of the five largest, largest first
};
MappedLibraries mappedLibraries();

} // namespace Libraries
} // namespace AotStudio::Runtime
