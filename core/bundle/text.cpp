// SPDX-License-Identifier: GPL-3.0-or-later
#include "bundle/text.h"

namespace AotStudio::Bundle {

using nlohmann::json;

std::string dumpJson(const json &j, int indent)
{
    return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string validUtf8(std::string_view text)
{
    // Round trip through the JSON library's own validator rather than a decoder of ours: the
    // replaced dump is valid JSON text by construction, so parsing it back cannot fail.
    const std::string quoted = dumpJson(json(std::string(text)));
    return json::parse(quoted).get<std::string>();
}

json validUtf8Json(const json &j)
{
    return json::parse(dumpJson(j));
}

} // namespace AotStudio::Bundle
