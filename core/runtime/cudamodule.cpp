// SPDX-License-Identifier: GPL-3.0-or-later
// libaotstudio_runtime_cuda.so: the runtime's CUDA-only code, opened with dlopen by
// Runtime::Libraries::cuda() before a CUDA package loads (libraries.h). Linked to libtorch_cuda,
// c10_cuda and the real libtorch.so, so loading it registers torch's CUDA hooks and AOTInductor's
// CUDA model runner; a CPU bundle never maps it.
#include "runtime/libraries.h"

#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include <optional>

namespace {

using AotStudio::Runtime::Libraries::CudaApi;

int deviceCount()
{
    try {
        return static_cast<int>(c10::cuda::device_count());
    } catch (...) {
        return 0;
    }
}

int computeCapability(int index, int *major, int *minor)
{
    try {
        if (index < 0 || index >= deviceCount())
            return 1;
        const auto *props = at::cuda::getDeviceProperties(static_cast<c10::DeviceIndex>(index));
        *major = props->major;
        *minor = props->minor;
        return 0;
    } catch (...) {
        return 1;
    }
}

int currentDevice()
{
    return c10::cuda::current_device();
}

struct StreamScope {
    c10::cuda::CUDAStream stream;
    c10::cuda::CUDAStreamGuard guard;
    explicit StreamScope(c10::cuda::CUDAStream s)
        : stream(s)
        , guard(s)
    {
    }
};

void *enterPoolStream(int device, void **stream)
{
    // One pool stream per calling thread, reused: concurrent runs overlap on the GPU instead of
    // queueing on the legacy default stream.
    thread_local std::optional<c10::cuda::CUDAStream> mine;
    if (!mine || mine->device_index() != device)
        mine = c10::cuda::getStreamFromPool(/*isHighPriority=*/false, static_cast<c10::DeviceIndex>(device));
    auto *scope = new StreamScope(*mine);
    *stream = scope->stream.stream();
    return scope;
}

void leavePoolStream(void *guard)
{
    auto *scope = static_cast<StreamScope *>(guard);
    try {
        scope->stream.synchronize();
    } catch (...) {
        delete scope;
        throw;
    }
    delete scope;
}

long long peakAllocatedBytes(void (*call)(void *), void *context)
{
    const auto index = c10::cuda::current_device();
    c10::cuda::CUDACachingAllocator::emptyCache();
    c10::cuda::CUDACachingAllocator::resetPeakStats(index);
    constexpr auto kAll = static_cast<size_t>(c10::CachingAllocator::StatType::AGGREGATE);
    const auto base = c10::cuda::CUDACachingAllocator::getDeviceStats(index).allocated_bytes[kAll].current;
    call(context);
    return c10::cuda::CUDACachingAllocator::getDeviceStats(index).allocated_bytes[kAll].peak - base;
}

double eventElapsedMs(void (*call)(void *), void *context)
{
    at::cuda::CUDAEvent start(cudaEventDefault), end(cudaEventDefault);
    auto stream = at::cuda::getCurrentCUDAStream();
    start.record(stream);
    call(context);
    end.record(stream);
    end.synchronize();
    return static_cast<double>(start.elapsed_time(end));
}

} // namespace

extern "C" __attribute__((visibility("default"))) const CudaApi *aotstudio_runtime_cuda_api()
{
    static const CudaApi api{&deviceCount,  &computeCapability, &enterPoolStream,   &leavePoolStream,
                             &currentDevice, &peakAllocatedBytes, &eventElapsedMs};
    return &api;
}
