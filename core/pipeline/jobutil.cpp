// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/jobutil.h"
#include "pipeline/job.h"
#include "pipeline/versions.h"

#include "bundle/bundle.h"
#include "python/frontend.h"

#include <ctime>
#include <fstream>

namespace AotStudio::Pipeline {

Protocol::Json summaryJson(const Profiler::Summary &s, int warmup)
{
    return Protocol::Json{{"median_ms", s.medianMs}, {"p10_ms", s.p10Ms},       {"p90_ms", s.p90Ms},
                          {"p99_ms", s.p99Ms},       {"mean_ms", s.meanMs},     {"stddev_ms", s.stddevMs},
                          {"min_ms", s.minMs},       {"max_ms", s.maxMs},       {"runs", s.runs},
                          {"warmup", warmup}};
}

void writeFileAtomic(const std::filesystem::path &path, const std::string &text)
{
    try {
        Bundle::writeFileAtomic(path, text);
    } catch (const Bundle::BundleError &e) {
        throw JobFailed({"write", Protocol::Code::Internal, e.what(), "check free disk space and that the output folder is writable"});
    }
}

void writeJsonAtomic(const std::filesystem::path &path, const Protocol::Json &j)
{
    writeFileAtomic(path, j.dump(2, ' ', false, Protocol::Json::error_handler_t::replace) + "\n");
}

Protocol::Json readJsonFile(const std::filesystem::path &path)
{
    std::ifstream in(path);
    if (!in)
        return nullptr;
    Protocol::Json j = Protocol::Json::parse(in, nullptr, false);
    return j.is_discarded() ? nullptr : j;
}

std::string isoNow()
{
    char buf[32];
    const std::time_t t = std::time(nullptr);
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

std::string shellQuote(const std::string &s)
{
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string commandLine(const std::vector<std::string> &argv)
{
    std::string line;
    for (const auto &a : argv)
        line += (line.empty() ? "" : " ") + shellQuote(a);
    return line;
}

std::filesystem::path selfDir()
{
    std::error_code ec;
    const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : p.parent_path();
}

Protocol::Json torchaoVersion()
{
    try {
        const Protocol::Json v = Python::callFunction("versions", "library_versions").value("torchao_version", Protocol::Json());
        return v.is_string() ? v : Protocol::Json();
    } catch (...) {
        return nullptr; // an older frontend or no Python: not recorded
    }
}

} // namespace AotStudio::Pipeline
