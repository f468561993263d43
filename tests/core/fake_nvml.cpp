// SPDX-License-Identifier: GPL-3.0-or-later
/* A stand-in for libnvidia-ml.so.1 (tst_gpubusy): the entry points Profiler::GpuBusyMeter opens,
 * with NVML's documented behaviour (nvml.h): nvmlDeviceGetSamples with samples NULL gives the
 * count, NVML_ERROR_NOT_FOUND (6) when nothing was sampled after lastSeenTimeStamp, timestamps in
 * µs since the epoch. Utilization is sampled every 1/6 s at FAKE_NVML_UTIL percent (default 40);
 * FAKE_NVML_INIT_FAIL makes nvmlInit_v2 fail with NVML_ERROR_DRIVER_NOT_LOADED (9). The device the
 * meter looked up is kept for fake_nvml_last_lookup(). */
#include <cstdio>
#include <cstdlib>
#include <sys/time.h>

extern "C" {

typedef struct FakeDevice *nvmlDevice_t;
struct FakeDevice {
    int unused;
};
static FakeDevice g_device;
static char g_lookup[128];

static unsigned long long now_us(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (unsigned long long)tv.tv_sec * 1000000ULL + (unsigned long long)tv.tv_usec;
}

const char *fake_nvml_last_lookup(void)
{
    return g_lookup;
}

int nvmlInit_v2(void)
{
    return getenv("FAKE_NVML_INIT_FAIL") ? 9 : 0;
}
int nvmlShutdown(void)
{
    return 0;
}
const char *nvmlErrorString(int rc)
{
    return rc == 9 ? "Driver Not Loaded" : rc == 6 ? "Not Found" : "Unknown Error";
}

int nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device)
{
    snprintf(g_lookup, sizeof g_lookup, "index %u", index);
    *device = &g_device;
    return 0;
}

int nvmlDeviceGetHandleByUUID(const char *uuid, nvmlDevice_t *device)
{
    snprintf(g_lookup, sizeof g_lookup, "uuid %s", uuid);
    *device = &g_device;
    return 0;
}

typedef union {
    double d;
    unsigned int ui;
    unsigned long ul;
    unsigned long long ull;
    long long sll;
    int si;
    unsigned short us;
} Value;
typedef struct {
    unsigned long long timeStamp;
    Value value;
} Sample;

int nvmlDeviceGetSamples(nvmlDevice_t device, int type, unsigned long long lastSeen, int *valueType,
                         unsigned int *count, Sample *samples)
{
    (void)device;
    if (type != 1) /* NVML_GPU_UTILIZATION_SAMPLES */
        return 2;
    const unsigned long long period = 166667, now = now_us();
    const unsigned int util = getenv("FAKE_NVML_UTIL") ? (unsigned int)atoi(getenv("FAKE_NVML_UTIL")) : 40;
    unsigned int n = 0;
    /* Samples on a fixed grid of 1/6 s, one before lastSeen (which must not be returned). */
    for (unsigned long long t = (lastSeen / period) * period; t <= now; t += period) {
        if (t <= lastSeen)
            continue;
        if (samples && n < *count) {
            samples[n].timeStamp = t;
            samples[n].value.ui = util;
        }
        ++n;
    }
    *valueType = 1; /* NVML_VALUE_TYPE_UNSIGNED_INT */
    if (n == 0)
        return 6; /* NVML_ERROR_NOT_FOUND */
    if (samples && n > *count)
        n = *count;
    *count = n;
    return 0;
}

} // extern "C"
