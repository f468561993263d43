// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The replay's figures per configuration and its report (replay.cpp runs, replayreport.cpp
// reports). Private to core/serve.
#include "serve/replay.h"

#include "profiler/machine.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace AotStudio::Serve {

/// What one configuration (an isolation mode or a baseline) did with the trace.
struct ModeResult {
    Isolation isolation = Isolation::Worker;
    int workers = 1;
    std::vector<double> latencyMs; ///< per request, arrival to answer (NaN when it failed)
    std::vector<double> serviceMs; ///< dispatch to answer (total - queue) of the requests that succeeded
    int ok = 0, errors = 0;
    std::string firstError;
    double wallS = 0, cpuS = 0, submitSpanS = 0;
    nlohmann::json gpuBusy; ///< a CUDA bundle's GpuBusyMeter::Result over the trace; null for a CPU bundle
};

/// Print the replay's table (or its envelope with `ro.asJson`) for `results` of `trace`, judged by
/// `monitor` (ended); returns the exit status (1 when a configuration answered nothing).
int reportReplay(const Subject &subject, const ReplayOptions &ro, const std::vector<Arrival> &trace,
                 const std::vector<ModeResult> &results, Profiler::MachineMonitor &monitor, int usableCpus);

} // namespace AotStudio::Serve
