// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/messages.h"

#include "protocol/messagecatalog.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>
#include <stdexcept>

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

Json makeLog(std::int64_t id, std::string_view level, std::string_view message, const Json &msg)
{
    Json j = event("log", id);
    j["level"] = level;
    j["message"] = message;
    if (msg.is_object())
        j["message_msg"] = msg;
    return j;
}

std::string renderTemplate(std::string_view templ, const Json &args)
{
    std::string out;
    out.reserve(templ.size() + 32);
    for (std::size_t i = 0; i < templ.size(); ++i) {
        const char c = templ[i];
        if ((c == '{' || c == '}') && i + 1 < templ.size() && templ[i + 1] == c) {
            out += c;
            ++i;
            continue;
        }
        const std::size_t close = c == '{' ? templ.find('}', i) : std::string_view::npos;
        if (close == std::string_view::npos) {
            out += c;
            continue;
        }
        const std::string_view field = templ.substr(i + 1, close - i - 1);
        const std::size_t colon = field.find(':');
        const std::string name(field.substr(0, colon));
        const std::string_view spec = colon == std::string_view::npos ? std::string_view() : field.substr(colon + 1);
        const auto it = args.is_object() ? args.find(name) : args.end();
        if (it == args.end()) {
            out.append(templ.substr(i, close - i + 1));
        } else if (it->is_string()) {
            out += it->get<std::string>();
        } else if (it->is_number()) {
            const double v = it->get<double>();
            char buf[64];
            if (spec == "d") {
                std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(std::llround(v)));
            } else if (spec.size() >= 3 && spec[0] == '.' && (spec.back() == 'f' || spec.back() == 'g')) {
                const int digits = std::atoi(std::string(spec.substr(1, spec.size() - 2)).c_str());
                std::snprintf(buf, sizeof buf, spec.back() == 'f' ? "%.*f" : "%.*g", digits, v);
            } else if (it->is_number_integer()) {
                std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(it->get<std::int64_t>()));
            } else {
                std::snprintf(buf, sizeof buf, "%g", v);
            }
            out += buf;
        } else {
            out += it->dump();
        }
        i = close;
    }
    return out;
}

Text text(std::string_view id, Json args)
{
    if (!args.is_object())
        args = Json::object();
    for (const auto &spec : kMessageCatalog) {
        if (id != spec.id)
            continue;
        std::set<std::string, std::less<>> names;
        for (std::string_view list = spec.args; !list.empty();) {
            const std::size_t comma = list.find(',');
            const std::string_view item = list.substr(0, comma);
            names.emplace(item.substr(0, item.find(':')));
            list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
        }
        std::set<std::string, std::less<>> given;
        for (const auto &[key, value] : args.items())
            given.insert(key);
        if (given != names)
            throw std::invalid_argument("message '" + std::string(id) + "' takes the args '" + spec.args + "', given "
                                        + args.dump());
        return Text{std::string(id), args, renderTemplate(spec.text, args)};
    }
    throw std::invalid_argument("message id '" + std::string(id) + "' is not in core/protocol/messages.json");
}

Error error(std::string_view stage, std::string_view code, const Text &message, const std::optional<Text> &hint)
{
    Error e{std::string(stage), std::string(code), message.english, hint ? hint->english : std::string()};
    e.messageMsg = message.msg();
    if (hint)
        e.hintMsg = hint->msg();
    return e;
}

Json makeStageDone(std::int64_t id, std::string_view stage, double seconds, const Json &artifacts, const Json &parts)
{
    Json j = event("stage_done", id);
    j["stage"] = stage;
    j["seconds"] = std::isfinite(seconds) ? seconds : 0.0;
    j["artifacts"] = artifacts.is_object() ? artifacts : Json::object();
    if (parts.is_array() && !parts.empty())
        j["parts"] = parts;
    return j;
}

Json makeResult(std::int64_t id, const Json &result, const Json &timing)
{
    Json j = event("result", id);
    j["result"] = result;
    if (timing.is_object())
        for (const auto &[k, v] : timing.items())
            if (k != "type" && k != "id" && k != "result")
                j[k] = v;
    return j;
}

Json makeError(std::int64_t id, const Error &error)
{
    Json j = event("error", id);
    j["stage"] = error.stage;
    j["code"] = error.code;
    j["message"] = error.message;
    j["hint"] = error.hint;
    if (error.messageMsg.is_object())
        j["message_msg"] = error.messageMsg;
    if (error.hintMsg.is_object())
        j["hint_msg"] = error.hintMsg;
    if (error.where.is_object())
        j["where"] = error.where;
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
