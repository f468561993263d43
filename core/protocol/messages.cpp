// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/messages.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace AotStudio::Protocol {

namespace {
Json event(std::string_view type, std::int64_t id)
{
    return Json{{"type", type}, {"id", id}};
}
} // namespace

Json makeHello(const Json &info)
{
    Json hello = event("hello", 0);
    hello["protocol"] = kProtocolVersion;
    hello["engine_version"] = kEngineVersion;
    if (info.is_object()) {
        for (const auto &[key, value] : info.items()) {
            if (!hello.contains(key)) // the frozen fields cannot be overridden
                hello[key] = value;
        }
    }
    return hello;
}

Json makeProgress(std::int64_t id, std::string_view stage, double fraction, std::string_view message)
{
    Json j = event("progress", id);
    j["stage"] = stage;
    j["fraction"] = std::isnan(fraction) ? 0.0 : std::clamp(fraction, 0.0, 1.0); // NaN would become null
    j["message"] = message;
    return j;
}

Json makeLog(std::int64_t id, std::string_view level, std::string_view message)
{
    Json j = event("log", id);
    j["level"] = level;
    j["message"] = message;
    return j;
}

Json makeStageDone(std::int64_t id, std::string_view stage, double seconds, const Json &artifacts)
{
    Json j = event("stage_done", id);
    j["stage"] = stage;
    j["seconds"] = std::isfinite(seconds) ? seconds : 0.0;
    j["artifacts"] = artifacts.is_object() ? artifacts : Json::object();
    return j;
}

Json makeResult(std::int64_t id, const Json &result)
{
    Json j = event("result", id);
    j["result"] = result;
    return j;
}

Json makeError(std::int64_t id, const Error &error)
{
    Json j = event("error", id);
    j["stage"] = error.stage;
    j["code"] = error.code;
    j["message"] = error.message;
    j["hint"] = error.hint;
    return j;
}

Json makePong(std::int64_t id)
{
    return event("pong", id);
}

Json makeData(std::int64_t id, std::string_view path, std::uint64_t offset, std::uint64_t length, std::uint64_t size,
              std::string_view sha256, std::string_view base64)
{
    Json j = event("data", id);
    j["path"] = path;
    j["offset"] = offset;
    j["length"] = length;
    j["size"] = size;
    j["eof"] = offset + length >= size;
    if (!sha256.empty())
        j["sha256"] = sha256;
    j["data"] = base64;
    return j;
}

std::string toLine(const Json &message)
{
    // dump() escapes control characters, so the line never contains a raw newline; invalid UTF-8
    // (e.g. from a compiler log) is replaced instead of throwing.
    return message.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::optional<Request> parseRequest(std::string_view line, Error &error)
{
    error = {"protocol", Code::BadRequest, {}, "send one JSON object per line with a string \"type\" and an integer \"id\""};
    Json j = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) {
        error.message = "request is not a JSON object";
        return std::nullopt;
    }
    const auto type = j.find("type");
    if (type == j.end() || !type->is_string()) {
        error.message = "request has no string \"type\"";
        return std::nullopt;
    }
    const auto id = j.find("id");
    // Unsigned values above INT64_MAX would wrap to negative ids in get<int64_t>(): reject them.
    if (id == j.end() || !id->is_number_integer() ||
        (id->is_number_unsigned() && id->get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))) {
        error.message = "request \"" + type->get<std::string>() + "\" has no integer \"id\"";
        return std::nullopt;
    }
    return Request{type->get<std::string>(), id->get<std::int64_t>(), std::move(j)};
}

LineRead readLine(std::istream &in, std::string &line, std::size_t maxBytes)
{
    line.clear();
    std::streambuf *buf = in.rdbuf();
    if (!buf)
        return LineRead::End;
    bool any = false, tooLong = false;
    using Traits = std::char_traits<char>;
    for (Traits::int_type c = buf->sbumpc(); !Traits::eq_int_type(c, Traits::eof()); c = buf->sbumpc()) {
        any = true;
        if (Traits::to_char_type(c) == '\n')
            break;
        if (tooLong)
            continue;
        if (line.size() >= maxBytes) {
            tooLong = true;
            line.clear();
            line.shrink_to_fit();
            continue;
        }
        line.push_back(Traits::to_char_type(c));
    }
    if (!any) {
        in.setstate(std::ios::eofbit);
        return LineRead::End;
    }
    return tooLong ? LineRead::TooLong : LineRead::Line;
}

} // namespace AotStudio::Protocol
