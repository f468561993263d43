// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: one protocol line from outside (core/protocol, FORMAT.md), as the engine reads a
// request or the studio an event. Oracles: no crash, and what the engine writes back (the parsed
// request echoed, an error quoting the line's type) is one line of valid JSON.
#include "fuzzutil.h"
#include "protocol/messages.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace AotStudio;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view line(reinterpret_cast<const char *>(data), size);
    Protocol::Error error;
    const auto request = Protocol::parseRequest(line, error);
    Protocol::Json reply;
    if (request) {
        // parseRequest keeps the whole object: type and id are read from it.
        if (!request->body.is_object() || request->body.at("type") != request->type || request->body.at("id") != request->id)
            FuzzUtil::fail("the request's type or id differ from its object's");
        reply = Protocol::makeError(request->id, {"protocol", Protocol::Code::BadRequest,
                                                  "unknown request type \"" + request->type + "\"", "see FORMAT.md"});
        reply["request"] = request->body;
    } else {
        if (error.message.empty() || error.code != Protocol::Code::BadRequest)
            FuzzUtil::fail("parseRequest refused a line without saying why");
        reply = Protocol::makeError(0, error);
    }
    const std::string out = Protocol::toLine(reply);
    if (out.find('\n') != std::string::npos)
        FuzzUtil::fail("toLine() wrote a newline inside a line");
    const auto back = Protocol::Json::parse(out, nullptr, false);
    if (back.is_discarded() || !back.is_object())
        FuzzUtil::fail("toLine() wrote a line that does not parse back");
    return 0;
}
