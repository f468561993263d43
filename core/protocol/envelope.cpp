// SPDX-License-Identifier: GPL-3.0-or-later
#include "envelope.h"

#include <cstring>

namespace AotStudio::Protocol {

namespace {

std::string stringField(const Json &o, const char *key, const char *fallback)
{
    const auto it = o.find(key);
    if (it == o.end() || it->is_null())
        return fallback;
    return it->is_string() ? it->get<std::string>() : it->dump(-1, ' ', false, Json::error_handler_t::replace);
}

} // namespace

Json okEnvelope(const Json &result)
{
    return Json{{"ok", true}, {"result", result.is_null() ? Json::object() : result}};
}

Json errorEnvelope(const Error &error, const Json &result)
{
    return errorEnvelope(
        Json{{"stage", error.stage}, {"code", error.code}, {"message", error.message}, {"hint", error.hint}}, result);
}

Json errorEnvelope(const Json &event, const Json &result)
{
    Json error = Json::object();
    if (event.is_object()) {
        for (const auto &[key, value] : event.items())
            if (key != "type" && key != "id")
                error[key] = value;
    }
    const Json fields = event.is_object() ? event : Json::object();
    error["stage"] = stringField(fields, "stage", "");
    error["code"] = stringField(fields, "code", Code::Internal);
    error["message"] = event.is_string() ? event.get<std::string>() : stringField(fields, "message", "");
    error["hint"] = stringField(fields, "hint", "");
    Json envelope{{"ok", false}, {"error", error}};
    if (result.is_object())
        envelope["result"] = result;
    return envelope;
}

std::string envelopeLine(const Json &envelope)
{
    return envelope.dump(-1, ' ', false, Json::error_handler_t::replace);
}

void printEnvelope(std::FILE *out, const Json &envelope)
{
    std::fprintf(out, "%s\n", envelopeLine(envelope).c_str());
    std::fflush(out);
}

bool wantsJson(int argc, const char *const *argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--") == 0)
            return false;
        if (std::strcmp(argv[i], "--json") == 0)
            return true;
    }
    return false;
}

Json usageEnvelope(const std::string &message, const std::string &hint)
{
    return errorEnvelope(Error{"command_line", Code::Usage, message, hint});
}

} // namespace AotStudio::Protocol
