// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The GPU busy share of a span of time, from NVML's utilization samples: the share of the span in
// which one or more kernels ran on the device, whoever ran them (every worker process of a pool
// and anything else on the GPU). NVML is opened with dlopen (libnvidia-ml.so.1, installed with
// the driver); nothing here initialises CUDA, so the resident server of aotstudio-run --serve may
// use it before it forks its workers (app/run/SERVING.md "The fork rules").

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace AotStudio::Profiler {

/// Measures one span: begin() then end().
///
/// Source: NVML's `nvmlDeviceGetSamples(device, NVML_GPU_UTILIZATION_SAMPLES, lastSeen, ...)`
/// (NVML API reference, "Device Queries"): the driver samples "percent of time over the past
/// sample period during which one or more kernels was executing on the GPU" every 1/6 s to 1 s
/// (by product) into a ring buffer of limited length (the oldest samples of a span longer than it
/// are gone; the share is then over the span's later part: `samples` says how many were averaged);
/// end() averages the samples taken since begin(). Each sample
/// describes the period before its timestamp, so the share is accurate to about one sampling
/// period at either end of the span; a span shorter than two periods has no figure.
///
/// The device: NVML numbers devices by PCI order, CUDA by `CUDA_VISIBLE_DEVICES`: with that
/// variable unset the device is NVML index `cudaIndex`; set to a list of indices or of `GPU-`
/// UUIDs, the entry at `cudaIndex` is looked up (an index as an NVML index, a UUID by UUID); a MIG
/// instance or any other form has no figure.
class GpuBusyMeter
{
public:
    explicit GpuBusyMeter(int cudaIndex = 0);
    ~GpuBusyMeter();
    GpuBusyMeter(const GpuBusyMeter &) = delete;
    GpuBusyMeter &operator=(const GpuBusyMeter &) = delete;

    /// Start the span (NVML's clock: µs since the epoch). Never throws: what fails is said by end().
    void begin();

    struct Result {
        std::optional<double> share; ///< 0..1: mean of the samples in the span; empty: see `why`
        int samples = 0; ///< NVML samples averaged
        double spanS = 0; ///< the span, s
        std::string device; ///< what was measured ("NVML index 0")
        std::string why; ///< why there is no share ("libnvidia-ml.so.1 not found", ...)

        /// {"share", "samples", "span_s", "device", "source": "nvml"} or {"share": null, "why"}.
        nlohmann::json toJson() const;
    };

    /// End the span and read the samples taken since begin().
    Result end();

private:
    struct Nvml;
    Nvml *m_nvml = nullptr;
    int m_cudaIndex = 0;
    std::uint64_t m_beginUs = 0;
    std::string m_why;
    std::string m_device;
};

} // namespace AotStudio::Profiler
