// SPDX-License-Identifier: GPL-3.0-or-later
#include "options.h"

#include "profiler/machine.h"

#include <regex>

namespace AotStudio::Cli {

void addThreadsOption(CLI::App *cmd, int &threads)
{
    const auto cpus = Profiler::usableCpus();
    cmd->add_option("--threads", threads,
                    "Intra-op threads for eager and compiled alike (1 to " + std::to_string(cpus.usable) +
                        ", the CPUs this process may use by its " + cpus.source + "; default: all of them). Recorded in the result")
        ->check(CLI::Range(1, cpus.usable));
}

const CLI::Validator &dynamicSpec()
{
    static const CLI::Validator v(
        [](std::string &value) -> std::string {
            // INPUT: an index or an input's name as the front end gives it (x, cfg.scale, images[0]).
            static const std::regex form(R"(^(\d+|[A-Za-z_][A-Za-z0-9_.\[\]']*):\d+(:\d+:\d+)?(=[A-Za-z_][A-Za-z0-9_]*)?$)");
            if (!std::regex_match(value, form))
                return "cannot read '" + value + "': write INPUT:DIM[:MIN:MAX][=NAME] (INPUT an index or an input's name), "
                       "e.g. 0:0, 0:0:1:64, attention_mask:1 or 0:0=batch";
            return {};
        },
        "INPUT:DIM[:MIN:MAX][=NAME]");
    return v;
}

const CLI::Validator &deviceName()
{
    static const CLI::Validator v(
        [](std::string &value) -> std::string {
            // The front end's DEVICES (job.py); whether the device is there is the engine's question.
            return value == "cpu" || value == "cuda" ? std::string()
                                                     : "'" + value + "' is not a device: write cpu or cuda";
        },
        "cpu|cuda");
    return v;
}

const CLI::Validator &dtypeName()
{
    static const CLI::Validator v(CLI::IsMember({"fp32", "bf16", "fp16"}));
    return v;
}

void setThreads(nlohmann::json &request, int threads)
{
    if (threads > 0)
        request["threads"] = threads;
}

} // namespace AotStudio::Cli
