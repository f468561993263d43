// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers shared by the benchmarks that drive aotstudio-cli (bench_compile, bench_profile,
// bench_quant): run a shell command, take its last line, name files after a model spec.

#include <array>
#include <cctype>
#include <cstdio>
#include <memory>
#include <string>

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

} // namespace AotStudio::Bench
