// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers shared by the benchmarks that drive aotstudio-cli (bench_compile, bench_profile,
// bench_quant, bench_trust, bench_sweep): run a shell command, take its last line, read a figure
// from the CLI's JSON, name files after a model spec, take the models from the command line.

#include <nlohmann/json.hpp>

#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace AotStudio::Bench {

/// stdout of `command` run by /bin/sh (stderr as the command redirects it); "" when it cannot start.
inline std::string run(const std::string &command)
{
    std::string out;
    std::unique_ptr<FILE, int (*)(FILE *)> pipe(popen(command.c_str(), "r"), pclose);
    if (!pipe)
        return out;
    std::array<char, 4096> buf{};
    while (std::fgets(buf.data(), buf.size(), pipe.get()))
        out += buf.data();
    return out;
}

/// The last non-empty line of `text` (the CLI's --json object), without its newline.
inline std::string lastLine(const std::string &text)
{
    const auto end = text.find_last_not_of('\n');
    if (end == std::string::npos)
        return {};
    const auto begin = text.rfind('\n', end);
    const auto from = begin == std::string::npos ? 0 : begin + 1;
    return text.substr(from, end - from + 1);
}

/// "sample:resnet18" -> "resnet18"; any other character that is not a letter or digit -> '_'.
inline std::string slug(const std::string &model)
{
    std::string s = model.substr(model.find(':') + 1);
    for (char &c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)))
            c = '_';
    return s;
}

/// The models named on the command line (argv[1..]), or `defaults` when there are none.
inline std::vector<std::string> modelsFrom(int argc, char **argv, std::vector<std::string> defaults)
{
    std::vector<std::string> models(argv + 1, argv + argc);
    return models.empty() ? defaults : models;
}

/// The number at `pointer` in `j`; NaN when it is missing or not a number (printed as "nan", never
/// mistaken for a figure).
inline double num(const nlohmann::json &j, const nlohmann::json::json_pointer &pointer)
{
    return j.contains(pointer) && j.at(pointer).is_number() ? j.at(pointer).get<double>() : std::nan("");
}

/// The `result` of a --json envelope ({"ok": true, "result": {...}}, FORMAT.md "Command-line
/// tools"); the envelope itself when it has none (a failure: {"ok": false, "error": {...}}), and a
/// discarded value stays one.
inline nlohmann::json result(const nlohmann::json &envelope)
{
    return envelope.is_object() && envelope.contains("result") ? envelope["result"] : envelope;
}

/// `aotstudio-cli ARGS --json` with stderr to `log`: the result of its last stdout line (a
/// discarded value when the CLI printed no JSON, e.g. it could not start).
inline nlohmann::json cliJson(const std::string &args, const std::string &log)
{
    return result(nlohmann::json::parse(
        lastLine(run(std::string("'") + AOTSTUDIO_CLI_PATH + "' " + args + " --json 2>'" + log + "'")), nullptr,
        false));
}

} // namespace AotStudio::Bench
