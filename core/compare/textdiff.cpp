// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/textdiff.h"

#include <dtl/dtl.hpp>

#include <sstream>
#include <vector>

namespace AotStudio::Compare {

namespace {

std::vector<std::string> lines(const std::string &text)
{
    std::vector<std::string> out;
    std::string line;
    std::istringstream in(text);
    while (std::getline(in, line))
        out.push_back(line);
    return out;
}

} // namespace

std::string unifiedDiff(const std::string &a, const std::string &b, const std::string &labelA,
    const std::string &labelB, std::size_t maxLines)
{
    if (a == b)
        return {};
    const std::vector<std::string> la = lines(a), lb = lines(b);
    if (la.size() > maxLines || lb.size() > maxLines)
        return "--- " + labelA + "\n+++ " + labelB + "\n(not diffed: " + std::to_string(la.size()) + " and "
            + std::to_string(lb.size()) + " lines, more than " + std::to_string(maxLines) + ")\n";
    dtl::Diff<std::string, std::vector<std::string>> diff(la, lb);
    diff.onHuge(); // keeps memory linear on long inputs (dtl's own switch for large sequences)
    diff.compose();
    diff.composeUnifiedHunks();
    std::ostringstream out;
    out << "--- " << labelA << "\n+++ " << labelB << "\n";
    diff.printUnifiedFormat(out);
    return out.str();
}

} // namespace AotStudio::Compare
