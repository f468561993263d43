// SPDX-License-Identifier: GPL-3.0-or-later
#include "profiler/gpubusy.h"

#include <chrono>
#include <cstdlib>
#include <dlfcn.h>
#include <sstream>
#include <vector>

namespace AotStudio::Profiler {

namespace {

// NVML's C ABI as nvml.h declares it (the few entry points used here; the header is not part of
// the CUDA toolkit we build with, and the library comes with the driver).
using NvmlReturn = int; // nvmlReturn_t: NVML_SUCCESS is 0
using NvmlDevice = struct NvmlDeviceOpaque *; // nvmlDevice_t
constexpr int kGpuUtilizationSamples = 1; // NVML_GPU_UTILIZATION_SAMPLES of nvmlSamplingType_t
constexpr NvmlReturn kNotFound = 6; // NVML_ERROR_NOT_FOUND: no sample since lastSeenTimeStamp
union NvmlValue { // nvmlValue_t
    double dVal;
    int siVal;
    unsigned int uiVal;
    unsigned long ulVal;
    unsigned long long ullVal;
    signed long long sllVal;
    unsigned short usVal;
};
struct NvmlSample { // nvmlSample_t
    unsigned long long timeStamp; // µs since the epoch
    NvmlValue sampleValue;
};
enum NvmlValueType { // nvmlValueType_t
    kDouble = 0,
    kUnsignedInt = 1,
    kUnsignedLong = 2,
    kUnsignedLongLong = 3,
    kSignedLongLong = 4,
    kSignedInt = 5,
    kUnsignedShort = 6,
};

double valueOf(const NvmlValue &v, int type)
{
    switch (type) {
    case kDouble:
        return v.dVal;
    case kUnsignedInt:
        return v.uiVal;
    case kUnsignedLong:
        return static_cast<double>(v.ulVal);
    case kUnsignedLongLong:
        return static_cast<double>(v.ullVal);
    case kSignedLongLong:
        return static_cast<double>(v.sllVal);
    case kSignedInt:
        return v.siVal;
    case kUnsignedShort:
        return v.usVal;
    }
    return -1;
}

std::uint64_t nowUs()
{
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count());
}

} // namespace

struct GpuBusyMeter::Nvml {
    void *lib = nullptr;
    NvmlReturn (*init)() = nullptr;
    NvmlReturn (*shutdown)() = nullptr;
    NvmlReturn (*byIndex)(unsigned int, NvmlDevice *) = nullptr;
    NvmlReturn (*byUuid)(const char *, NvmlDevice *) = nullptr;
    NvmlReturn (*samples)(NvmlDevice, int, unsigned long long, int *, unsigned int *, NvmlSample *) = nullptr;
    const char *(*errorString)(NvmlReturn) = nullptr;
    NvmlDevice device = nullptr;
    bool initialised = false;

    std::string error(const char *what, NvmlReturn rc) const
    {
        return std::string(what) + " failed: " + (errorString ? errorString(rc) : "NVML error " + std::to_string(rc));
    }
};

GpuBusyMeter::GpuBusyMeter(int cudaIndex)
    : m_cudaIndex(cudaIndex)
{ }

GpuBusyMeter::~GpuBusyMeter()
{
    if (m_nvml) {
        if (m_nvml->initialised && m_nvml->shutdown)
            m_nvml->shutdown();
        if (m_nvml->lib)
            ::dlclose(m_nvml->lib);
        delete m_nvml;
    }
}

void GpuBusyMeter::begin()
{
    m_beginUs = nowUs();
    if (m_nvml)
        return;
    m_nvml = new Nvml;
    Nvml &n = *m_nvml;
    n.lib = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!n.lib) {
        m_why = "libnvidia-ml.so.1 not found (NVML comes with the NVIDIA driver)";
        return;
    }
    n.init = reinterpret_cast<decltype(n.init)>(::dlsym(n.lib, "nvmlInit_v2"));
    n.shutdown = reinterpret_cast<decltype(n.shutdown)>(::dlsym(n.lib, "nvmlShutdown"));
    n.byIndex = reinterpret_cast<decltype(n.byIndex)>(::dlsym(n.lib, "nvmlDeviceGetHandleByIndex_v2"));
    n.byUuid = reinterpret_cast<decltype(n.byUuid)>(::dlsym(n.lib, "nvmlDeviceGetHandleByUUID"));
    n.samples = reinterpret_cast<decltype(n.samples)>(::dlsym(n.lib, "nvmlDeviceGetSamples"));
    n.errorString = reinterpret_cast<decltype(n.errorString)>(::dlsym(n.lib, "nvmlErrorString"));
    if (!n.init || !n.byIndex || !n.byUuid || !n.samples) {
        m_why = "libnvidia-ml.so.1 lacks nvmlInit_v2, nvmlDeviceGetHandleByIndex_v2, nvmlDeviceGetHandleByUUID or "
                "nvmlDeviceGetSamples";
        return;
    }
    if (const NvmlReturn rc = n.init(); rc != 0) {
        m_why = n.error("nvmlInit_v2", rc);
        return;
    }
    n.initialised = true;
    // CUDA's device m_cudaIndex as NVML names it (see the header).
    std::string entry = std::to_string(m_cudaIndex);
    if (const char *visible = std::getenv("CUDA_VISIBLE_DEVICES")) {
        std::vector<std::string> entries;
        std::stringstream list(visible);
        for (std::string e; std::getline(list, e, ',');)
            entries.push_back(e);
        if (m_cudaIndex < 0 || static_cast<std::size_t>(m_cudaIndex) >= entries.size()) {
            m_why = "CUDA device " + std::to_string(m_cudaIndex) + " is not in CUDA_VISIBLE_DEVICES=" + visible;
            return;
        }
        entry = entries[static_cast<std::size_t>(m_cudaIndex)];
    }
    NvmlReturn rc = 0;
    if (entry.rfind("GPU-", 0) == 0) {
        rc = n.byUuid(entry.c_str(), &n.device);
        m_device = "NVML device " + entry;
    } else if (!entry.empty() && entry.size() < 6 && entry.find_first_not_of("0123456789") == std::string::npos) {
        rc = n.byIndex(static_cast<unsigned int>(std::stoul(entry)), &n.device);
        m_device = "NVML index " + entry;
    } else {
        m_why = "CUDA_VISIBLE_DEVICES entry '" + entry + "' is neither an index nor a GPU- UUID (a MIG instance?)";
        return;
    }
    if (rc != 0) {
        m_why = n.error(("looking up " + m_device).c_str(), rc);
        n.device = nullptr;
    }
}

GpuBusyMeter::Result GpuBusyMeter::end()
{
    Result r;
    const std::uint64_t endUs = nowUs();
    r.spanS = static_cast<double>(endUs - m_beginUs) / 1e6;
    r.device = m_device;
    if (!m_nvml || !m_nvml->device) {
        r.why = m_why.empty() ? "not started" : m_why;
        return r;
    }
    Nvml &n = *m_nvml;
    int type = 0;
    unsigned int count = 0;
    NvmlReturn rc = n.samples(n.device, kGpuUtilizationSamples, m_beginUs, &type, &count, nullptr);
    std::vector<NvmlSample> samples;
    if (rc == 0 && count > 0) {
        count += 16; // samples taken between the two calls
        samples.resize(count);
        rc = n.samples(n.device, kGpuUtilizationSamples, m_beginUs, &type, &count, samples.data());
        samples.resize(rc == 0 ? count : 0);
    }
    if (rc != 0 && rc != kNotFound) {
        r.why = n.error("nvmlDeviceGetSamples", rc);
        return r;
    }
    double sum = 0;
    for (const NvmlSample &s : samples) {
        if (s.timeStamp <= m_beginUs || s.timeStamp > endUs + 1000000) // the span, and a late last period
            continue;
        const double v = valueOf(s.sampleValue, type);
        if (v < 0 || v > 100)
            continue;
        sum += v;
        ++r.samples;
    }
    if (r.samples < 2) {
        r.why = "NVML gave " + std::to_string(r.samples)
            + " utilization sample(s) in the span: it is shorter than two of the driver's sampling periods";
        return r;
    }
    r.share = sum / r.samples / 100.0;
    return r;
}

nlohmann::json GpuBusyMeter::Result::toJson() const
{
    if (!share)
        return {{"share", nullptr}, {"why", why}, {"span_s", spanS}};
    return {{"share", *share}, {"samples", samples}, {"span_s", spanS}, {"device", device}, {"source", "nvml"}};
}

} // namespace AotStudio::Profiler
