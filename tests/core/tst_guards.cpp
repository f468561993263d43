// SPDX-License-Identifier: GPL-3.0-or-later
// core/bundle/guards.h on metadata fixtures: tests/fixtures/guards/*.json were written by the
// frontend's guards.collect() from real torch.export programs (make_fixtures.py regenerates them),
// plus hand-written malformed ones. No torch needed.
#include "bundle/bundle.h"
#include "bundle/guards.h"

#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using namespace AotStudio::Bundle;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const fs::path kFixtures = fs::path(AOTSTUDIO_FIXTURES_DIR) / "guards";

json readFixture(const std::string &name)
{
    std::ifstream in(kFixtures / (name + ".json"));
    return json::parse(in);
}

using Shapes = std::vector<std::vector<std::int64_t>>;

} // namespace

Q_DECLARE_METATYPE(Shapes)
Q_DECLARE_METATYPE(std::vector<std::int64_t>)

class TestGuards : public QObject {
    Q_OBJECT

private slots:
    void check_data();
    void check();
    void malformed_data();
    void malformed();
    void sidecar();
    void relationThroughDerivedDim();
    void manyInputsAndSymbols();
    void inputDtypes();
    void strides_data();
    void strides();
    void malformedStrides();
    void admission();
};

// The runner compares each tensor's dtype with the one recorded at export (core/runtime).
void TestGuards::inputDtypes()
{
    const InputGuards g = InputGuards::parse(readFixture("derived"), "derived");
    QCOMPARE(g.inputDtype(0), std::string("float32"));
    const InputGuards prefixed = InputGuards::parse(
        json::parse(R"({"inputs": [{"name": "x", "dtype": "torch.bfloat16", "dims": [{"size": 2}]}, {"name": "y", "dims": []}]})"), "t");
    QCOMPARE(prefixed.inputDtype(0), std::string("bfloat16"));
    QCOMPARE(prefixed.inputDtype(1), std::string());
}

using Ints = std::vector<std::int64_t>;

// Strides are part of what a package accepts (issue 34): AOTInductor indexes an input with the
// strides it was compiled for, so another layout of the right shape must be refused (or copied by
// the runner) with the strides it needs. Fixtures from make_fixtures.py (real exports, version 2)
// and the version-1 static.json kept as it was (no strides recorded: contiguous assumed).
void TestGuards::strides_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<Ints>("sizes");
    QTest::addColumn<Ints>("strides");
    QTest::addColumn<int>("dim"); ///< -2: accepted
    QTest::addColumn<Ints>("expected"); ///< the strides the violation asks for
    QTest::addColumn<QString>("contains");
    QTest::newRow("contiguous ok") << "static" << Ints{1, 8} << Ints{8, 1} << -2 << Ints{} << "";
    QTest::newRow("size-1 dim ignored") << "static" << Ints{1, 8} << Ints{1, 1} << -2 << Ints{} << "";
    QTest::newRow("slice of a wider row")
        << "static" << Ints{1, 8} << Ints{16, 2} << 1 << Ints{8, 1} << "a strided view";
    QTest::newRow("expanded") << "static" << Ints{1, 8} << Ints{8, 0} << 1 << Ints{8, 1} << "expanded (a stride of 0)";
    QTest::newRow("v1 assumes contiguous") << "static_v1" << Ints{1, 8} << Ints{8, 1} << -2 << Ints{} << "";
    QTest::newRow("v1 refuses other") << "static_v1" << Ints{1, 8} << Ints{16, 2} << 1 << Ints{8, 1} << "assumed";
    // channels_last: x[batch 1..64, 3, side, side] exported channels-last: strides 3*side^2, 1, 3*side, 3.
    QTest::newRow("channels last at another size")
        << "channels_last" << Ints{5, 3, 16, 16} << Ints{768, 1, 48, 3} << -2 << Ints{} << "";
    QTest::newRow("contiguous into channels last")
        << "channels_last" << Ints{5, 3, 16, 16} << Ints{768, 256, 16, 1} << 1 << Ints{768, 1, 48, 3}
        << "(contiguous); the package was compiled for strides (768, 1, 48, 3) (channels_last)";
    QTest::newRow("permuted into channels last") << "channels_last" << Ints{2, 3, 8, 8} << Ints{192, 1, 3, 24} << 2
                                                 << Ints{192, 1, 24, 3} << "a permuted layout";
    // sliced: exported as x[:, ::2] of a 6-channel tensor: the package reads with the parent's strides.
    QTest::newRow("contiguous into a sliced export")
        << "sliced" << Ints{2, 3, 4, 4} << Ints{48, 16, 4, 1} << 0 << Ints{96, 32, 4, 1} << "(strided)";
    QTest::newRow("the same slice") << "sliced" << Ints{2, 3, 4, 4} << Ints{96, 32, 4, 1} << -2 << Ints{} << "";
    QTest::newRow("shared batch, second input") << "shared_batch" << Ints{} << Ints{} << -2 << Ints{} << "";
}

void TestGuards::strides()
{
    QFETCH(QString, fixture);
    QFETCH(Ints, sizes);
    QFETCH(Ints, strides);
    QFETCH(int, dim);
    QFETCH(Ints, expected);
    QFETCH(QString, contains);
    const InputGuards g = InputGuards::parse(readFixture(fixture.toStdString()), fixture.toStdString());
    QCOMPARE(g.recordsStrides(), fixture != QStringLiteral("static_v1"));
    if (sizes.empty()) { // two inputs tied by a batch: a transposed second input is refused, by index
        const Ints a{4, 5}, as{5, 1}, b{4, 5}, bs{1, 4};
        std::vector<ShapeRef> refs{{a.data(), 2, as.data()}, {b.data(), 2, bs.data()}};
        const auto v = g.check(std::span<const ShapeRef>(refs));
        QVERIFY(v && v->layout);
        QCOMPARE(v->input, 1);
        QCOMPARE(v->expected, (Ints{5, 1}));
        return;
    }
    const ShapeRef ref{sizes.data(), sizes.size(), strides.data()};
    const auto v = g.check(std::span<const ShapeRef>(&ref, 1));
    // Without strides the same call is a shape check only, and passes.
    const ShapeRef shapeOnly{sizes.data(), sizes.size()};
    QVERIFY(!g.check(std::span<const ShapeRef>(&shapeOnly, 1)));
    if (dim == -2) {
        QVERIFY2(!v, v ? v->message.c_str() : "");
        return;
    }
    QVERIFY(v.has_value());
    QVERIFY(v->layout);
    QCOMPARE(v->input, 0);
    QCOMPARE(v->dim, dim);
    QCOMPARE(v->value, strides[static_cast<std::size_t>(dim)]);
    QCOMPARE(v->expected, expected);
    QVERIFY2(QString::fromStdString(v->message).contains(contains), v->message.c_str());
    QVERIFY2(QString::fromStdString(v->message).contains(QStringLiteral("input 0 (x)")), v->message.c_str());
    QVERIFY(v->message.find('\n') == std::string::npos);
    // The strides asked for are accepted: what the runner's copy (empty_strided(sizes, expected)) gives.
    const ShapeRef fixed{sizes.data(), sizes.size(), v->expected.data()};
    QVERIFY(!g.check(std::span<const ShapeRef>(&fixed, 1)));
}

void TestGuards::malformedStrides()
{
    for (const auto &[text, contains] : std::vector<std::pair<std::string, std::string>>{
             {R"({"inputs": [{"dims": [{"size": 2}], "strides": [1, 1]}]})",
              "inputs[0].strides: must be an array with one entry"},
             {R"({"inputs": [{"dims": [{"size": 2}], "strides": "contiguous"}]})",
              "inputs[0].strides: must be an array"},
             {R"({"inputs": [{"dims": [{"size": 2}], "strides": ["1"]}]})",
              "inputs[0].strides[0]: must be an integer or an object"},
             {R"({"inputs": [{"dims": [{"size": 2}], "strides": [{"checkable": true, "expr": ["*", "s", 2]}]}]})",
              "unknown symbol 's'"}}) {
        try {
            (void)InputGuards::parse(json::parse(text), "fixture.json");
            QFAIL(text.c_str());
        } catch (const BundleError &e) {
            QVERIFY2(std::string(e.what()).find(contains) != std::string::npos, e.what());
        }
    }
    // A stride the checker cannot evaluate is taken from the recorded layout's name.
    const InputGuards g = InputGuards::parse(
        json::parse(
            R"j({"symbols": [{"symbol": "s", "min": 2}], "inputs": [{"name": "x", "dims": [{"symbol": "s"}, {"size": 4}],
                        "strides": [{"checkable": false, "text": "f(s)"}, 1], "layout": "contiguous"}]})j"),
        "t");
    const Ints sizes{3, 4}, bad{8, 1}, good{4, 1};
    QVERIFY(g.check(std::span<const ShapeRef>(std::vector<ShapeRef>{{sizes.data(), 2, bad.data()}})).has_value());
    QVERIFY(!g.check(std::span<const ShapeRef>(std::vector<ShapeRef>{{sizes.data(), 2, good.data()}})).has_value());
    // An input without elements reads nothing: any strides pass.
    const InputGuards empty = InputGuards::parse(
        json::parse(
            R"({"symbols": [{"symbol": "s", "min": 0}], "inputs": [{"name": "x", "dims": [{"symbol": "s"}, {"size": 4}],
                        "strides": [4, 1], "layout": "contiguous"}]})"),
        "t");
    const Ints none{0, 4}, odd{1, 7};
    QVERIFY(!empty.check(std::span<const ShapeRef>(std::vector<ShapeRef>{{none.data(), 2, odd.data()}})).has_value());
}

void TestGuards::check_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<Shapes>("shapes");
    QTest::addColumn<int>("input"); // -2: accepted
    QTest::addColumn<int>("dim");
    QTest::addColumn<QString>("contains");

    // 2*n, n in 2..32 (torch's range for Dim("n", min=1, max=32) traced at 10).
    QTest::newRow("derived even") << "derived" << Shapes{{10}} << -2 << -1 << "";
    QTest::newRow("derived low end") << "derived" << Shapes{{4}} << -2 << -1 << "";
    QTest::newRow("derived high end") << "derived" << Shapes{{64}} << -2 << -1 << "";
    QTest::newRow("derived odd") << "derived" << Shapes{{7}} << 0 << 0
                                 << "input 0 (x) dimension 0 is 7, which is not 2*n for a whole n (x.shape[0] == 2 * n)";
    QTest::newRow("derived too long") << "derived" << Shapes{{66}} << 0 << 0 << "is 66 (n = 33), outside n's range 2..32";
    QTest::newRow("derived rank") << "derived" << Shapes{{2, 5}} << 0 << -1 << "has 2 dimensions [2, 5]; the package takes 1";
    QTest::newRow("derived count") << "derived" << Shapes{{10}, {10}} << -1 << -1 << "the package takes 1 inputs; the call has 2";

    QTest::newRow("static same") << "static" << Shapes{{1, 8}} << -2 << -1 << "";
    QTest::newRow("static other batch") << "static" << Shapes{{3, 8}} << 0 << 0
                                        << "input 0 (x) dimension 0 is 3; the package takes only 1 there (a static dimension)";
    QTest::newRow("static other width") << "static" << Shapes{{1, 9}} << 0 << 1 << "dimension 1 is 9";

    QTest::newRow("shared equal") << "shared_batch" << Shapes{{7, 5}, {7, 5}} << -2 << -1 << "";
    QTest::newRow("shared differ") << "shared_batch" << Shapes{{4, 5}, {5, 5}} << 1 << 0
                                   << "input 1 (args_1) dimension 0 is 5 but must be equal to input 0 (args_0) dimension 0 (4)";
    QTest::newRow("shared range") << "shared_batch" << Shapes{{65, 5}, {65, 5}} << 0 << 0 << "outside the range 1..64 of batch";
    QTest::newRow("shared zero") << "shared_batch" << Shapes{{0, 5}, {0, 5}} << 0 << 0 << "is 0, outside the range 1..64";

    QTest::newRow("grouped ok") << "grouped" << Shapes{{5, 12}} << -2 << -1 << "";
    QTest::newRow("grouped guard") << "grouped" << Shapes{{5, 10}} << 0 << 1
                                   << "violates the guard x.shape[1] % 4 == 0 (dynamic_factory.py:56)";

    QTest::newRow("even ok") << "even" << Shapes{{8}} << -2 << -1 << "";
    QTest::newRow("even odd") << "even" << Shapes{{9}} << 0 << 0 << "x.shape[0] % 2 == 0";
    QTest::newRow("even two") << "even" << Shapes{{2}} << 0 << 0 << "is 2, which violates the guard x.shape[0] // 2 != 1";
    QTest::newRow("even zero") << "even" << Shapes{{0}} << 0 << 0 << "is 0, outside the range 2..inf of x.shape[0]";
    QTest::newRow("even huge") << "even" << Shapes{{std::int64_t{1} << 62}} << -2 << -1 << "";
}

void TestGuards::check()
{
    QFETCH(QString, fixture);
    QFETCH(Shapes, shapes);
    QFETCH(int, input);
    QFETCH(int, dim);
    QFETCH(QString, contains);
    const InputGuards g = InputGuards::parse(readFixture(fixture.toStdString()), fixture.toStdString());
    const auto v = g.check(shapes);
    if (input == -2) {
        QVERIFY2(!v, v ? v->message.c_str() : "");
        return;
    }
    QVERIFY(v.has_value());
    QCOMPARE(v->input, input);
    QCOMPARE(v->dim, dim);
    QVERIFY2(QString::fromStdString(v->message).contains(contains), v->message.c_str());
    QVERIFY(!v->rule.empty());
    QVERIFY(v->message.find('\n') == std::string::npos);
}

void TestGuards::malformed_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("contains");
    QTest::newRow("not object") << "[]" << "must be a JSON object";
    QTest::newRow("no inputs") << "{}" << "inputs: missing";
    QTest::newRow("newer") << R"({"version": 9, "inputs": []})" << "version: 9 is newer";
    QTest::newRow("wrong format") << R"({"format": "x", "inputs": []})" << "format: must be";
    QTest::newRow("unknown symbol") << R"({"inputs": [{"dims": [{"symbol": "s1"}]}]})" << "unknown symbol 's1'";
    QTest::newRow("zero coeff") << R"({"symbols": [{"symbol": "s1"}], "inputs": [{"dims": [{"symbol": "s1", "coeff": 0}]}]})"
                                << "coeff: must be a non-zero";
    QTest::newRow("negative size") << R"({"inputs": [{"dims": [{"size": -3}]}]})" << "size: must be an integer >= 0";
    QTest::newRow("string size") << R"({"inputs": [{"dims": [{"size": "4"}]}]})" << "must be an integer or null";
    QTest::newRow("min above max") << R"({"symbols": [{"symbol": "s", "min": 5, "max": 2}], "inputs": []})" << "min 5 is above max 2";
    QTest::newRow("dims order") << R"({"inputs": [{"dims": [{"dim": 1, "size": 4}]}]})" << "must be 0 (dims are listed in order)";
    QTest::newRow("unknown op") << R"({"symbols": [{"symbol": "s"}], "inputs": [], "checks": [{"checkable": true, "expr": ["**", "s", 2]}]})"
                                << "unknown operator '**'";
    QTest::newRow("divisor symbol")
        << R"({"symbols": [{"symbol": "s"}], "inputs": [], "checks": [{"checkable": true, "expr": ["%", "s", "s"]}]})"
        << "needs a non-zero constant divisor";
    QTest::newRow("divisor zero") << R"({"symbols": [{"symbol": "s"}], "inputs": [], "checks": [{"checkable": true, "expr": ["//", "s", 0]}]})"
                                  << "needs a non-zero constant divisor";
    QTest::newRow("arity") << R"({"symbols": [{"symbol": "s"}], "inputs": [], "checks": [{"checkable": true, "expr": ["==", "s"]}]})"
                           << "operator '==' with 1 operands";
    QTest::newRow("not expr") << R"({"inputs": [], "checks": [{"checkable": true, "expr": {"a": 1}}]})" << "not an expression";
    QTest::newRow("checkable type") << R"({"inputs": [], "checks": [{"checkable": "yes", "expr": 1}]})" << "checkable: must be true or false";
    std::string deep = "1";
    for (int i = 0; i < 40; ++i)
        deep = "[\"not\", " + deep + "]";
    QTest::newRow("deep") << QString::fromStdString(R"({"inputs": [], "checks": [{"checkable": true, "expr": )" + deep + "}]}")
                          << "nested deeper than 32";
    QTest::newRow("duplicate symbol") << R"({"symbols": [{"symbol": "s"}, {"symbol": "s"}], "inputs": []})" << "listed twice";
    QTest::newRow("huge constant") << R"({"inputs": [], "checks": [{"checkable": true, "expr": 18446744073709551615}]})"
                                   << "constant out of range";
}

void TestGuards::malformed()
{
    QFETCH(QString, text);
    QFETCH(QString, contains);
    const json j = json::parse(text.toStdString());
    try {
        (void)InputGuards::parse(j, "fixture.json");
        QFAIL("parsed");
    } catch (const BundleError &e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(contains), e.what());
        QVERIFY2(QString::fromUtf8(e.what()).startsWith(QStringLiteral("fixture.json")), e.what());
    }
}

void TestGuards::sidecar()
{
    QTemporaryDir dir;
    const fs::path package = fs::path(dir.path().toStdString()) / "model.pt2";
    QCOMPARE(InputGuards::sidecarPath(package).filename().string(), std::string("model.guards.json"));
    QVERIFY(!InputGuards::loadSidecar(package).has_value()); // none: nothing to check
    std::ofstream(InputGuards::sidecarPath(package)) << readFixture("derived").dump();
    const auto g = InputGuards::loadSidecar(package);
    QVERIFY(g.has_value());
    QVERIFY(g->isDynamic());
    QCOMPARE(g->describe(), std::string("x[2*n (n 2..32)]"));
    std::ofstream(InputGuards::sidecarPath(package), std::ios::trunc) << "{\"inputs\": [";
    try {
        (void)InputGuards::loadSidecar(package);
        QFAIL("a truncated sidecar loaded");
    } catch (const BundleError &e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("are not valid JSON")), e.what());
    }
}

void TestGuards::relationThroughDerivedDim()
{
    // y's length is x's + 1 (x: s, y: s + 1), with a non-affine expression dim (s*s) as a third.
    const json j = json::parse(R"({
      "symbols": [{"symbol": "s", "name": "n", "min": 1, "max": 100}],
      "inputs": [{"name": "x", "dims": [{"symbol": "s"}]},
                 {"name": "y", "dims": [{"symbol": "s", "coeff": 1, "offset": 1, "text": "y.shape[0] == n + 1"}]},
                 {"name": "z", "dims": [{"expr": ["*", "s", "s"], "checkable": true, "text": "z.shape[0] == n*n"}, {"text": "?"}]}]})");
    const InputGuards g = InputGuards::parse(j, "inline");
    QVERIFY(!g.check(Shapes{{3}, {4}, {9, 1}}));
    const auto v = g.check(Shapes{{3}, {5}, {9, 1}});
    QVERIFY(v);
    QCOMPARE(v->input, 1);
    QVERIFY2(v->message.find("must be 4 (n = 3 from input 0 (x) dimension 0 (3))") != std::string::npos, v->message.c_str());
    const auto w = g.check(Shapes{{3}, {4}, {8, 1}});
    QVERIFY(w);
    QCOMPARE(w->input, 2);
    QVERIFY2(w->message.find("is 8 but must be 9 (z.shape[0] == n*n)") != std::string::npos, w->message.c_str());
    QCOMPARE(g.uncheckedCount(), std::size_t(1));
}

void TestGuards::manyInputsAndSymbols()
{
    // More symbols than fit the checker's stack buffer: the heap path gives the same answers.
    json j{{"symbols", json::array()}, {"inputs", json::array()}};
    Shapes ok;
    for (int i = 0; i < 100; ++i) {
        const std::string s = "s" + std::to_string(i);
        j["symbols"].push_back({{"symbol", s}, {"min", 1}, {"max", 10}});
        j["inputs"].push_back({{"name", "in" + std::to_string(i)}, {"dims", json::array({json{{"symbol", s}}, json{{"size", 2}}})}});
        ok.push_back({5, 2});
    }
    j["checks"] = json::array({json{{"checkable", true}, {"expr", json::array({"<=", "s99", "s98"})}, {"text", "in99 <= in98"}}});
    const InputGuards g = InputGuards::parse(j, "inline");
    QVERIFY(!g.check(ok));
    Shapes bad = ok;
    bad[99][0] = 11;
    const auto v = g.check(bad);
    QVERIFY(v);
    QCOMPARE(v->input, 99);
    ok[99][0] = 10;
    const auto w = g.check(ok);
    QVERIFY(w);
    QVERIFY2(w->message.find("violates the guard in99 <= in98") != std::string::npos, w->message.c_str());
}

// The one admission both runtimes apply (aotstudio-run's AotiRunner, aotstudio-run-lite's
// Package): alignment, then shapes and strides, then dtypes; refused, or copied through the
// runtime's callback when convert, and reported. Inputs are descriptions of buffers here: the
// callback gives the copy's strides, as a runtime's fresh aligned allocation would.
void TestGuards::admission()
{
    const InputGuards g = InputGuards::parse(readFixture("static"), "static"); // x: float32 [1, 8], strides (8, 1)
    alignas(64) static float storage[16] = {};
    const std::vector<std::int64_t> sizes{1, 8}, contiguous{8, 1}, other{1, 2}, fresh{8, 1};
    const auto ref = [&](const std::vector<std::int64_t> &strides, std::int64_t offset, std::string dtype) {
        return InputRef{{sizes.data(), sizes.size(), strides.data()},
                        reinterpret_cast<std::uintptr_t>(storage + offset),
                        offset,
                        8,
                        std::move(dtype)};
    };
    std::vector<std::pair<std::size_t, std::vector<std::int64_t>>> copies;
    std::vector<std::vector<std::int64_t>> kept; // the copies' strides live here
    kept.reserve(8);
    const InputAdmission::Copy copy = [&](std::size_t i, const std::vector<std::int64_t> &strides) {
        copies.emplace_back(i, strides);
        kept.push_back(strides.empty() ? fresh : strides);
        return InputRef{{sizes.data(), sizes.size(), kept.back().data()},
                        reinterpret_cast<std::uintptr_t>(storage),
                        0,
                        8,
                        "float32"};
    };
    InputAdmission admission("--convert-layout");

    std::vector<InputRef> in{ref(contiguous, 0, "float32")};
    QVERIFY(!admission.admit(&g, in, false, true, copy));
    QVERIFY(copies.empty() && admission.conversions().empty());

    // Another layout: refused naming both strides; with convert, copied to (8, 1) and reported.
    in = {ref(other, 0, "float32")};
    auto r = admission.admit(&g, in, false, true, copy);
    QVERIFY(r && r->violation.layout && r->violation.expected == contiguous);
    QVERIFY2(r->message.find("has strides (1, 2)") != std::string::npos
                 && r->message.find("(8, 1) (contiguous)") != std::string::npos
                 && r->message.find("--convert-layout") != std::string::npos,
             r->message.c_str());
    QVERIFY(copies.empty());
    QVERIFY(!admission.admit(&g, in, true, true, copy));
    QCOMPARE(copies.size(), std::size_t(1));
    QCOMPARE(copies[0].second, contiguous);
    QCOMPARE(admission.conversions().size(), std::size_t(1));
    QCOMPARE(admission.conversions()[0].from, other);
    QCOMPARE(in[0].shape.strides[0], std::int64_t(8));

    // A storage offset that breaks the 16-byte alignment: refused; with convert, copied (empty
    // strides: the runtime keeps the layout) and then checked like any input. An aligned offset passes.
    copies.clear();
    in = {ref(contiguous, 1, "float32")};
    r = admission.admit(&g, in, false, true, copy);
    QVERIFY(r && r->violation.layout && r->violation.value == 1);
    QVERIFY2(r->message.find("starts 1 elements into its storage") != std::string::npos, r->message.c_str());
    QVERIFY(!admission.admit(&g, in, true, false, copy));
    QCOMPARE(copies.size(), std::size_t(1));
    QVERIFY(copies[0].second.empty());
    QVERIFY(admission.conversions().empty()); // report false: nothing reported
    in = {ref(contiguous, 4, "float32")};
    QVERIFY(!admission.admit(&g, in, false, true, copy));

    // Another dtype: refused even with convert (no copy makes it right).
    copies.clear();
    in = {ref(contiguous, 0, "float64")};
    r = admission.admit(&g, in, true, true, copy);
    QVERIFY(r && !r->violation.layout);
    QVERIFY2(r->message == "input 0 (x) is float64; the package was compiled for float32", r->message.c_str());
    QVERIFY(copies.empty());

    // Without guards only the alignment is checked.
    in = {ref(other, 0, "float64")};
    QVERIFY(!admission.admit(nullptr, in, false, true, copy));
}

QTEST_GUILESS_MAIN(TestGuards)
#include "tst_guards.moc"
