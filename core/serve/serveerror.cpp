// SPDX-License-Identifier: GPL-3.0-or-later
#include "serve/serveerror.h"

#include "bundle/text.h"
#include "protocol/messages.h"

#include <algorithm>

namespace AotStudio::Serve {

std::string oneLine(const std::string &message)
{
    std::string line = Bundle::validUtf8(message);
    std::replace_if(
        line.begin(), line.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return line;
}

nlohmann::json errorJson(const std::string &stage, const std::string &message, const std::string &hint,
                         const std::string &givenCode)
{
    const std::string code = !givenCode.empty() ? givenCode
        : stage == "refused"                    ? Protocol::Code::Refused
        : stage == "request"                    ? Protocol::Code::BadRequest
        : stage == "worker"                     ? Protocol::Code::Internal
                                                : Protocol::Code::Failed;
    return {{"stage", stage}, {"code", code}, {"message", oneLine(message)}, {"hint", oneLine(hint)}};
}

} // namespace AotStudio::Serve
