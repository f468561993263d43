// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/envelope.h"
#include "protocol/linewriter.h"
#include "protocol/messagecatalog.h"
#include "protocol/messages.h"

#include <QtTest/QtTest>

#include <cstdio>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace AotStudio::Protocol;

namespace {

/// (id, arg names) of every catalog entry (messagecatalog.h).
std::vector<std::pair<std::string, std::vector<std::string>>> catalogForTests()
{
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    for (const auto &spec : kMessageCatalog) {
        std::vector<std::string> names;
        const std::string list = spec.args;
        for (std::size_t pos = 0; !list.empty() && pos != std::string::npos;) {
            const std::size_t comma = list.find(',', pos);
            const std::string item = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
            names.push_back(item.substr(0, item.find(':')));
            pos = comma == std::string::npos ? comma : comma + 1;
        }
        out.emplace_back(spec.id, names);
    }
    return out;
}

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

/// Everything written to `stream` so far, read back from the start.
std::string readAll(std::FILE *stream)
{
    std::fflush(stream);
    std::rewind(stream);
    std::string text;
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, stream)) > 0)
        text.append(buf, n);
    return text;
}

/// Split on '\n'; the text must end with '\n' (a complete last line), checked separately.
std::vector<std::string> splitLines(const std::string &text)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t pos = text.find('\n'); pos != std::string::npos; pos = text.find('\n', start)) {
        lines.push_back(text.substr(start, pos - start));
        start = pos + 1;
    }
    if (start < text.size())
        lines.push_back(text.substr(start)); // an unterminated tail: makes the count check fail
    return lines;
}

} // namespace

class TestMessages : public QObject {
    Q_OBJECT

private slots:
    void text_rendersTheCatalog();
    void text_refusesUnknownIdsAndArgs();
    void text_travelsInErrorAndLog();
    void renderTemplate_specs();
    void parseRequest_valid_data();
    void parseRequest_valid();
    void parseRequest_invalid_data();
    void parseRequest_invalid();
    void parseRequest_unknownTypeIsReturned();
    void readLine_limit();

    void makeHello_frozenFields();
    void makeHello_infoCannotOverrideFrozen();
    void makeHello_nonObjectInfo();

    void makeProgress_clampsFraction_data();
    void makeProgress_clampsFraction();
    void makeError_carriesAllFields();
    void otherBuilders();

    void toLine_noRawNewline();
    void toLine_invalidUtf8IsReplaced();
    void toLine_roundTrip();

    void envelope_okAndError();
    void envelope_wantsJson();

    void lineWriter_oneLinePerMessage();
    void lineWriter_threadSafe();
};

void TestMessages::parseRequest_valid_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("type");
    QTest::addColumn<qint64>("id");

    QTest::newRow("ping") << R"({"type":"ping","id":1})" << "ping" << qint64(1);
    QTest::newRow("id zero") << R"({"type":"list_models","id":0})" << "list_models" << qint64(0);
    QTest::newRow("negative id") << R"({"type":"ping","id":-7})" << "ping" << qint64(-7);
    QTest::newRow("large id") << R"({"type":"ping","id":9007199254740993})" << "ping" << qint64(9007199254740993LL);
    QTest::newRow("whitespace and extra fields")
        << "  { \"id\" : 42 , \"type\" : \"compile\", \"model\": \"resnet18\", \"options\": {\"runs\": 3} }  "
        << "compile" << qint64(42);
    QTest::newRow("trailing CR") << "{\"type\":\"ping\",\"id\":5}\r" << "ping" << qint64(5);
}

void TestMessages::parseRequest_valid()
{
    QFETCH(QString, line);
    QFETCH(QString, type);
    QFETCH(qint64, id);

    Error error{"stale", "stale", "stale", "stale"};
    const std::string text = line.toStdString();
    const auto request = parseRequest(text, error);
    QVERIFY(request.has_value());
    QCOMPARE(q(request->type), type);
    QCOMPARE(qint64(request->id), id);
    QVERIFY(request->body.is_object());
    QCOMPARE(q(request->body.at("type").get<std::string>()), type);
    // The whole object is kept, extra fields included.
    QCOMPARE(request->body, Json::parse(text));
}

void TestMessages::parseRequest_invalid_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("messagePart"); // the problem the message must name

    QTest::newRow("empty line") << "" << "JSON object";
    QTest::newRow("not JSON") << "hello engine" << "JSON object";
    QTest::newRow("truncated JSON") << R"({"type":"ping","id":1)" << "JSON object";
    QTest::newRow("two objects") << R"({"type":"ping","id":1}{"type":"ping","id":2})" << "JSON object";
    QTest::newRow("array") << R"([{"type":"ping","id":1}])" << "JSON object";
    QTest::newRow("string") << R"("ping")" << "JSON object";
    QTest::newRow("number") << "42" << "JSON object";
    QTest::newRow("null") << "null" << "JSON object";
    QTest::newRow("missing type") << R"({"id":1})" << "\"type\"";
    QTest::newRow("null type") << R"({"type":null,"id":1})" << "\"type\"";
    QTest::newRow("numeric type") << R"({"type":3,"id":1})" << "\"type\"";
    QTest::newRow("object type") << R"({"type":{"name":"ping"},"id":1})" << "\"type\"";
    QTest::newRow("missing id") << R"({"type":"ping"})" << "\"id\"";
    QTest::newRow("string id") << R"({"type":"ping","id":"1"})" << "\"id\"";
    QTest::newRow("float id") << R"({"type":"ping","id":1.5})" << "\"id\"";
    QTest::newRow("float id integral") << R"({"type":"ping","id":2.0})" << "\"id\"";
    QTest::newRow("null id") << R"({"type":"ping","id":null})" << "\"id\"";
    QTest::newRow("bool id") << R"({"type":"ping","id":true})" << "\"id\"";
    QTest::newRow("id above int64") << R"({"type":"ping","id":18446744073709551615})" << "\"id\"";
    QTest::newRow("id 2^63") << R"({"type":"ping","id":9223372036854775808})" << "\"id\"";
}

void TestMessages::parseRequest_invalid()
{
    QFETCH(QString, line);
    QFETCH(QString, messagePart);

    Error error;
    const auto request = parseRequest(line.toStdString(), error);
    QVERIFY(!request.has_value());
    QCOMPARE(q(error.code), QString::fromLatin1(Code::BadRequest));
    QCOMPARE(q(error.code), QStringLiteral("bad_request"));
    QVERIFY2(q(error.message).contains(messagePart),
             qPrintable(QStringLiteral("message \"%1\" does not name %2").arg(q(error.message), messagePart)));
    QVERIFY(!error.stage.empty());
    QVERIFY(!error.hint.empty());
}

void TestMessages::parseRequest_unknownTypeIsReturned()
{
    Error error;
    const auto request = parseRequest(R"({"type":"frobnicate_v99","id":17,"payload":[1,2,3]})", error);
    QVERIFY(request.has_value());
    QCOMPARE(q(request->type), QStringLiteral("frobnicate_v99"));
    QCOMPARE(request->id, std::int64_t(17));
    QCOMPARE(request->body.at("payload"), Json::array({1, 2, 3}));

    // An unknown type whose id is broken is still a bad request: validation comes first.
    QVERIFY(!parseRequest(R"({"type":"frobnicate_v99"})", error).has_value());
    QCOMPARE(q(error.code), QStringLiteral("bad_request"));
    QVERIFY(q(error.message).contains(QStringLiteral("frobnicate_v99")));
}

void TestMessages::makeHello_frozenFields()
{
    const Json hello = makeHello(Json{{"torch_version", "2.6.0"},
                                      {"cuda_version", "12.4"},
                                      {"python_version", "3.12.3"},
                                      {"devices", Json::array({"cuda:0"})},
                                      {"cuda_available", true}});
    QCOMPARE(hello.at("type").get<std::string>(), std::string("hello"));
    QCOMPARE(hello.at("id").get<std::int64_t>(), std::int64_t(0));
    QCOMPARE(hello.at("protocol").get<int>(), kProtocolVersion);
    QCOMPARE(q(hello.at("engine_version").get<std::string>()), q(std::string(kEngineVersion)));
    QVERIFY(!std::string(kEngineVersion).empty());
    // info's fields merged in
    QCOMPARE(hello.at("torch_version").get<std::string>(), std::string("2.6.0"));
    QCOMPARE(hello.at("cuda_version").get<std::string>(), std::string("12.4"));
    QCOMPARE(hello.at("python_version").get<std::string>(), std::string("3.12.3"));
    QCOMPARE(hello.at("devices"), Json::array({"cuda:0"}));
    QCOMPARE(hello.at("cuda_available").get<bool>(), true);
}

void TestMessages::makeHello_infoCannotOverrideFrozen()
{
    const Json hello = makeHello(Json{{"type", "evil"},
                                      {"id", 99},
                                      {"protocol", 12345},
                                      {"engine_version", "0.0.0-fake"},
                                      {"torch_version", "2.6.0"},
                                      {"extra", {{"nested", 1}}}});
    QCOMPARE(hello.at("type").get<std::string>(), std::string("hello"));
    QCOMPARE(hello.at("id").get<std::int64_t>(), std::int64_t(0));
    QCOMPARE(hello.at("protocol").get<int>(), kProtocolVersion);
    QCOMPARE(q(hello.at("engine_version").get<std::string>()), q(std::string(kEngineVersion)));
    QCOMPARE(hello.at("torch_version").get<std::string>(), std::string("2.6.0"));
    QCOMPARE(hello.at("extra"), (Json{{"nested", 1}}));
    QCOMPARE(hello.size(), std::size_t(6));
}

void TestMessages::makeHello_nonObjectInfo()
{
    for (const Json &info : {Json(), Json::array({1, 2}), Json("text"), Json(3)}) {
        const Json hello = makeHello(info);
        QCOMPARE(hello.at("type").get<std::string>(), std::string("hello"));
        QCOMPARE(hello.at("protocol").get<int>(), kProtocolVersion);
        QCOMPARE(hello.size(), std::size_t(4));
    }
}

void TestMessages::makeProgress_clampsFraction_data()
{
    QTest::addColumn<double>("in");
    QTest::addColumn<double>("out");
    QTest::newRow("below") << -0.5 << 0.0;
    QTest::newRow("far below") << -1e300 << 0.0;
    QTest::newRow("zero") << 0.0 << 0.0;
    QTest::newRow("middle") << 0.375 << 0.375;
    QTest::newRow("one") << 1.0 << 1.0;
    QTest::newRow("above") << 1.5 << 1.0;
    QTest::newRow("NaN") << std::numeric_limits<double>::quiet_NaN() << 0.0;
    QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << 1.0;
    QTest::newRow("-infinity") << -std::numeric_limits<double>::infinity() << 0.0;
}

void TestMessages::makeProgress_clampsFraction()
{
    QFETCH(double, in);
    QFETCH(double, out);
    const Json p = makeProgress(3, "compile", in, "compiling");
    QCOMPARE(p.at("type").get<std::string>(), std::string("progress"));
    QCOMPARE(p.at("id").get<std::int64_t>(), std::int64_t(3));
    QCOMPARE(p.at("stage").get<std::string>(), std::string("compile"));
    QCOMPARE(p.at("message").get<std::string>(), std::string("compiling"));
    QCOMPARE(p.at("fraction").get<double>(), out);
    // and it serialises as a number (not null, as a non-finite value would)
    QVERIFY(Json::parse(toLine(p)).at("fraction").is_number());
}

void TestMessages::makeError_carriesAllFields()
{
    const Error e{"export", Code::ExportFailed, "torch.export failed: data-dependent branch",
                  "mark the branch with torch.cond"};
    const Json j = makeError(11, e);
    QCOMPARE(j.at("type").get<std::string>(), std::string("error"));
    QCOMPARE(j.at("id").get<std::int64_t>(), std::int64_t(11));
    QCOMPARE(j.at("stage").get<std::string>(), e.stage);
    QCOMPARE(j.at("code").get<std::string>(), std::string("export_failed"));
    QCOMPARE(j.at("message").get<std::string>(), e.message);
    QCOMPARE(j.at("hint").get<std::string>(), e.hint);
    QVERIFY(!j.contains("where")); // none: not sent

    // The user's code that failed (FORMAT.md "Where it failed") goes out as it is.
    Error user{"load", Code::ModelError, "factory raised", "fix the factory"};
    user.where = Json{{"frames", Json::array({Json{{"file", "/m/net.py"}, {"line", 6}}})}};
    QCOMPARE(makeError(12, user).at("where"), user.where);

    // An Error from parseRequest goes straight out as an event.
    Error bad;
    QVERIFY(!parseRequest("nope", bad).has_value());
    const Json out = Json::parse(toLine(makeError(0, bad)));
    QCOMPARE(out.at("code").get<std::string>(), std::string("bad_request"));
    QCOMPARE(out.at("message").get<std::string>(), bad.message);
}

void TestMessages::otherBuilders()
{
    const Json log = makeLog(2, "warning", "slow");
    QCOMPARE(log.at("type").get<std::string>(), std::string("log"));
    QCOMPARE(log.at("level").get<std::string>(), std::string("warning"));
    QCOMPARE(log.at("message").get<std::string>(), std::string("slow"));

    const Json done = makeStageDone(2, "export", 1.25, Json{{"graph", "/tmp/g.pt2"}});
    QCOMPARE(done.at("type").get<std::string>(), std::string("stage_done"));
    QCOMPARE(done.at("seconds").get<double>(), 1.25);
    QCOMPARE(done.at("artifacts"), (Json{{"graph", "/tmp/g.pt2"}}));
    QCOMPARE(makeStageDone(2, "export", 1.0).at("artifacts"), Json::object());
    QCOMPARE(makeStageDone(2, "export", 1.0, Json::array({1})).at("artifacts"), Json::object());

    const Json result = makeResult(4, Json{{"ok", true}});
    QCOMPARE(result.at("type").get<std::string>(), std::string("result"));
    QCOMPARE(result.at("result"), (Json{{"ok", true}}));

    const Json pong = makePong(8);
    QCOMPARE(pong, (Json{{"type", "pong"}, {"id", 8}}));
}

void TestMessages::toLine_noRawNewline()
{
    const std::string msg = "line one\nline two\r\nline three\n\n\ttabbed\x01\x1f";
    for (const Json &m : {makeLog(1, "error", msg), makeProgress(1, "compile", 0.5, msg),
                          makeError(1, Error{"compile\n", "compile_failed", msg, msg}),
                          makeResult(1, Json{{"multi\nline key", msg}})}) {
        const std::string line = toLine(m);
        QVERIFY(line.find('\n') == std::string::npos);
        QVERIFY(line.find('\r') == std::string::npos);
        QCOMPARE(Json::parse(line), m); // escapes round-trip
    }
}

void TestMessages::toLine_invalidUtf8IsReplaced()
{
    // Lone continuation byte, truncated 2-byte sequence, overlong encoding, 0xFF, a newline.
    const std::string bad = std::string("ok \x80 mid \xC3 end \xC0\xAF ff \xFF\nnext");
    const Json m = makeLog(1, "info", bad);
    std::string line;
    try {
        line = toLine(m);
    } catch (const std::exception &e) {
        QFAIL(qPrintable(QStringLiteral("toLine threw: %1").arg(QString::fromUtf8(e.what()))));
    }
    QVERIFY(line.find('\n') == std::string::npos);
    const Json back = Json::parse(line); // the output is valid UTF-8 JSON
    const std::string text = back.at("message").get<std::string>();
    QVERIFY(text.find("\xEF\xBF\xBD") != std::string::npos); // U+FFFD REPLACEMENT CHARACTER
    QVERIFY(text.rfind("ok ", 0) == 0);
    QVERIFY(text.find("\nnext") != std::string::npos);
    QVERIFY(QString::fromUtf8(line.data(), qsizetype(line.size())).toUtf8()
            == QByteArray(line.data(), qsizetype(line.size()))); // valid UTF-8 survives a re-encode
}

void TestMessages::toLine_roundTrip()
{
    const Json m = makeResult(5, Json{{"name", "résnet ✓"}, {"ms", 1.5}, {"runs", 30}});
    const std::string line = toLine(m);
    QVERIFY(line.find("résnet ✓") != std::string::npos); // UTF-8 kept, not \u-escaped
    QCOMPARE(Json::parse(line), m);
}

void TestMessages::lineWriter_oneLinePerMessage()
{
    std::FILE *stream = std::tmpfile();
    QVERIFY(stream != nullptr);
    {
        LineWriter writer(stream);
        writer.write(makePong(1));
        writer.write(makeLog(2, "info", "multi\nline\nmessage"));
        writer.write(makeProgress(3, "compile", 0.25, "\xFF broken utf-8"));
    }
    const std::string text = readAll(stream);
    std::fclose(stream);

    QVERIFY(!text.empty());
    QCOMPARE(text.back(), '\n');
    const auto lines = splitLines(text);
    QCOMPARE(lines.size(), std::size_t(3));
    QCOMPARE(Json::parse(lines[0]), makePong(1));
    QCOMPARE(Json::parse(lines[1]), makeLog(2, "info", "multi\nline\nmessage"));
    QCOMPARE(Json::parse(lines[2]).at("id").get<int>(), 3);
}

void TestMessages::lineWriter_threadSafe()
{
    constexpr int kThreads = 4;
    constexpr int kPerThread = 200;
    std::FILE *stream = std::tmpfile();
    QVERIFY(stream != nullptr);
    {
        LineWriter writer(stream);
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&writer, t] {
                // Long-ish payloads make torn writes likely if the lock were missing.
                const std::string payload(300, char('a' + t));
                for (int i = 0; i < kPerThread; ++i)
                    writer.write(makeLog(t * kPerThread + i, "info", payload + "\n" + std::to_string(i)));
            });
        }
        for (auto &th : threads)
            th.join();
    }
    const std::string text = readAll(stream);
    std::fclose(stream);

    QVERIFY(!text.empty());
    QCOMPARE(text.back(), '\n');
    const auto lines = splitLines(text);
    QCOMPARE(lines.size(), std::size_t(kThreads * kPerThread));

    std::vector<int> seen(kThreads * kPerThread, 0);
    for (const std::string &line : lines) {
        const Json j = Json::parse(line, nullptr, /*allow_exceptions=*/false);
        QVERIFY2(!j.is_discarded() && j.is_object(), line.substr(0, 80).c_str());
        const auto id = j.at("id").get<std::int64_t>();
        QVERIFY(id >= 0 && id < kThreads * kPerThread);
        ++seen[std::size_t(id)];
        const int t = int(id / kPerThread);
        const int i = int(id % kPerThread);
        QCOMPARE(j.at("message").get<std::string>(), std::string(300, char('a' + t)) + "\n" + std::to_string(i));
    }
    for (int count : seen)
        QCOMPARE(count, 1);
}

void TestMessages::readLine_limit()
{
    // Lines up to the limit come back whole; a longer one is consumed and dropped (never kept
    // past the limit) and the next line reads normally; a last line without '\n' counts.
    std::istringstream in("short\n" + std::string(10, 'x') + "\n" + std::string(11, 'y') + "\nafter\n\n" +
                          std::string(50, 'z') + "\ntail");
    std::string line;
    QCOMPARE(readLine(in, line, 10), LineRead::Line);
    QCOMPARE(line, std::string("short"));
    QCOMPARE(readLine(in, line, 10), LineRead::Line);
    QCOMPARE(line, std::string(10, 'x'));
    QCOMPARE(readLine(in, line, 10), LineRead::TooLong);
    QVERIFY(line.empty());
    QCOMPARE(readLine(in, line, 10), LineRead::Line);
    QCOMPARE(line, std::string("after"));
    QCOMPARE(readLine(in, line, 10), LineRead::Line);
    QVERIFY(line.empty());
    QCOMPARE(readLine(in, line, 10), LineRead::TooLong);
    QVERIFY(line.capacity() <= 64); // the long line was not accumulated
    QCOMPARE(readLine(in, line, 10), LineRead::Line);
    QCOMPARE(line, std::string("tail"));
    QCOMPARE(readLine(in, line, 10), LineRead::End);
    QCOMPARE(kMaxLineBytes, std::size_t(16) << 20);
}

void TestMessages::envelope_okAndError()
{
    const Json ok = okEnvelope(Json{{"median_ms", 1.5}});
    QCOMPARE(ok.size(), std::size_t(2));
    QCOMPARE(ok.value("ok", false), true);
    QCOMPARE(ok["result"].value("median_ms", 0.0), 1.5);
    QVERIFY(okEnvelope(Json())["result"].is_object());

    // From an error event: type and id dropped, the four keys always there, other fields kept.
    const Json event = makeError(7, {"compile", Code::CompileFailed, "no lowering", "rewrite it"});
    Json withNode = event;
    withNode["node"] = "aten.foo";
    const Json e = errorEnvelope(withNode);
    QCOMPARE(e.value("ok", true), false);
    QVERIFY(!e.contains("result"));
    QCOMPARE(e["error"].value("stage", ""), std::string("compile"));
    QCOMPARE(e["error"].value("code", ""), std::string("compile_failed"));
    QCOMPARE(e["error"].value("message", ""), std::string("no lowering"));
    QCOMPARE(e["error"].value("hint", ""), std::string("rewrite it"));
    QCOMPARE(e["error"].value("node", ""), std::string("aten.foo"));
    QVERIFY(!e["error"].contains("type") && !e["error"].contains("id"));

    // Missing fields: strings all the same, code internal; a report kept beside the error.
    const Json bare = errorEnvelope(Json::object(), Json{{"passed", false}});
    for (const char *k : {"stage", "message", "hint"})
        QVERIFY(bare["error"][k].is_string());
    QCOMPARE(bare["error"].value("code", ""), std::string("internal"));
    QCOMPARE(bare["result"].value("passed", true), false);

    const Json usage = usageEnvelope("--runs: 0 not in range");
    QCOMPARE(usage["error"].value("stage", ""), std::string("command_line"));
    QCOMPARE(usage["error"].value("code", ""), std::string(Code::Usage));

    // Invalid UTF-8 in a message never throws and stays one line.
    const std::string line = envelopeLine(errorEnvelope(Error{"run", Code::Failed, "bad \xff byte\nnext", ""}));
    QVERIFY(line.find('\n') == std::string::npos);
    QVERIFY(Json::parse(line).is_object());
}

void TestMessages::envelope_wantsJson()
{
    const char *a[] = {"tool", "compile", "--json"};
    QVERIFY(wantsJson(3, a));
    const char *b[] = {"tool", "compile", "--jsonx"};
    QVERIFY(!wantsJson(3, b));
    const char *c[] = {"tool", "--", "--json"};
    QVERIFY(!wantsJson(3, c));
}

void TestMessages::text_rendersTheCatalog()
{
    const Text t = text("load.file_missing", {{"path", "/m/net.py"}});
    QCOMPARE(q(t.english), QStringLiteral("model file '/m/net.py' does not exist"));
    QCOMPARE(q(t.msg().dump()), QStringLiteral(R"({"args":{"path":"/m/net.py"},"id":"load.file_missing"})"));
    // Numbers through the catalog's format specs: {others:.1f}, {usable:d}.
    const Text o = text("machine.oversubscribed", {{"others", 1.25}, {"usable", 2}, {"threads", 2.4}});
    QVERIFY2(o.english.starts_with("oversubscribed: on average 1.2 other runnable tasks competed for the 2 usable CPUs "
                                   "while timing with 2 threads;"),
             o.english.c_str());
    // Every catalog entry renders with every placeholder filled when given its args.
    for (const auto &[id, names] : catalogForTests()) {
        Json args = Json::object();
        for (const auto &name : names)
            args[name] = name == "path" ? Json("p") : Json(1);
        const Text filled = text(id, args);
        QVERIFY2(filled.english.find('{') == std::string::npos, filled.english.c_str());
    }
}

void TestMessages::text_refusesUnknownIdsAndArgs()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, text("no.such_id"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, text("load.file_missing"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, text("load.file_missing", {{"path", "p"}, {"extra", 1}}));
}

void TestMessages::text_travelsInErrorAndLog()
{
    const Json e = makeError(3, error("queued", Code::Cancelled, text("cancel.queued")));
    QCOMPARE(q(e["message"].get<std::string>()), QStringLiteral("cancelled before it started"));
    QCOMPARE(q(e["message_msg"]["id"].get<std::string>()), QStringLiteral("cancel.queued"));
    QVERIFY(!e.contains("hint_msg"));
    // A plain Error has no *_msg fields.
    const Json plain = makeError(3, Error{"load", Code::Internal, "boom", "report it"});
    QVERIFY(!plain.contains("message_msg") && !plain.contains("hint_msg"));
    const Json withHint = makeError(4,
                                    error("load", Code::UnknownModel, text("load.unknown_sample", {{"name", "x"}}),
                                          text("load.unknown_sample.hint", {{"known", "sample:mlp"}})));
    QCOMPARE(q(withHint["hint"].get<std::string>()),
             QStringLiteral("choose one of sample:mlp, or give path/to/file.py:factory"));
    QCOMPARE(q(withHint["hint_msg"]["args"]["known"].get<std::string>()), QStringLiteral("sample:mlp"));
    const Json log = makeLog(5, "info", "hello", text("cancel.inductor").msg());
    QCOMPARE(q(log["message_msg"]["id"].get<std::string>()), QStringLiteral("cancel.inductor"));
    QVERIFY(!makeLog(5, "info", "hello").contains("message_msg"));
}

void TestMessages::renderTemplate_specs()
{
    const Json args{{"s", "word"}, {"i", 42}, {"f", 0.1234567}, {"big", 1234.5}};
    QCOMPARE(q(renderTemplate("{s} {i} {f} {f:.2f} {f:.3g} {big:d} {{x}} {missing}", args)),
             QStringLiteral("word 42 0.123457 0.12 0.123 1235 {x} {missing}"));
    QCOMPARE(q(renderTemplate("no fields", args)), QStringLiteral("no fields"));
    QCOMPARE(q(renderTemplate("unclosed {s", args)), QStringLiteral("unclosed {s"));
    QCOMPARE(q(renderTemplate("{s}", Json())), QStringLiteral("{s}"));
}

QTEST_GUILESS_MAIN(TestMessages)
#include "tst_messages.moc"
