// SPDX-License-Identifier: GPL-3.0-or-later
#include "options.h"

#include "profiler/machine.h"

namespace AotStudio::Cli {

void addThreadsOption(CLI::App *cmd, int &threads)
{
    const auto cpus = Profiler::usableCpus();
    cmd->add_option("--threads", threads,
                    "Intra-op threads for eager and compiled alike (1 to " + std::to_string(cpus.usable) +
                        ", the CPUs this process may use by its " + cpus.source + "; default: all of them). Recorded in the result")
        ->check(CLI::Range(1, cpus.usable));
}

void setThreads(nlohmann::json &request, int threads)
{
    if (threads > 0)
        request["threads"] = threads;
}

} // namespace AotStudio::Cli
