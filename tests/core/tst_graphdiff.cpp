// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/graph.h"
#include "graph/graphdiff.h"

#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace AotStudio::Graph;
using nlohmann::json;

namespace {

const std::string kFixtures = std::string(AOTSTUDIO_FIXTURES_DIR) + "/graphs";

json tensor(std::vector<int> shape, const std::string &dtype = "float32")
{
    return json::array({json{{"shape", shape}, {"dtype", dtype}}});
}

/// A call_function node as graph_json.py writes it; `index` is filled in by snapshotJson().
json node(const std::string &id, const std::string &target, std::vector<std::string> inputs = {})
{
    return json{{"id", id},
                {"op", "call_function"},
                {"target", target},
                {"category", "pointwise"},
                {"inputs", inputs},
                {"outputs", tensor({4, 8})},
                {"module", ""},
                {"module_stack", json::array()}};
}

json placeholder(const std::string &id)
{
    json n = node(id, id);
    n["op"] = "placeholder";
    n["category"] = "input";
    return n;
}

json output(std::vector<std::string> inputs)
{
    json n = node("output", "output", std::move(inputs));
    n["op"] = "output";
    n["category"] = "output";
    n["outputs"] = json::array();
    return n;
}

json with(json n, const json &patch)
{
    n.update(patch);
    return n;
}

/// Provenance as a decomposition pass leaves it: replaced from `origin`, created at export.
json replacedFrom(const std::string &origin, const std::string &pass = "decompose")
{
    return json{{"provenance",
                 json::array({json{{"pass", pass},
                                   {"action", json::array({"replace"})},
                                   {"node", origin},
                                   {"origins", json::array({json{{"pass", "export"},
                                                                 {"action", json::array({"create"})},
                                                                 {"node", origin}}})}}})}};
}

json snapshotJson(std::vector<json> nodes, const std::string &pass = "")
{
    for (std::size_t i = 0; i < nodes.size(); ++i)
        nodes[i]["index"] = static_cast<int>(i);
    return json{{"schema", "aotstudio.graph"},
                {"version", 1},
                {"stage", "post_grad"},
                {"pass", pass},
                {"node_count", nodes.size()},
                {"nodes", nodes}};
}

Snapshot snap(std::vector<json> nodes, const std::string &pass = "")
{
    return parseSnapshot(snapshotJson(std::move(nodes), pass));
}

QStringList list(const std::vector<std::string> &v)
{
    QStringList out;
    for (const auto &s : v)
        out << QString::fromStdString(s);
    return out;
}

/// "before->after via kind [field,field]" for each change, in the diff's order.
QStringList changes(const GraphDiff &d)
{
    QStringList out;
    for (const auto &c : d.changed) {
        out << QStringLiteral("%1->%2 via %3 [%4]")
                   .arg(QString::fromStdString(c.before), QString::fromStdString(c.after),
                        QString::fromLatin1(toString(c.via)), list(c.fields).join(QLatin1Char(',')));
    }
    return out;
}

#define CHECK_DIFF(diff, expAdded, expRemoved, expChanged, expUnchanged)                                     \
    do {                                                                                                     \
        const GraphDiff &d_ = (diff);                                                                        \
        QCOMPARE(list(d_.added), QStringList(expAdded));                                                     \
        QCOMPARE(list(d_.removed), QStringList(expRemoved));                                                 \
        QCOMPARE(changes(d_), QStringList(expChanged));                                                      \
        QCOMPARE(d_.unchanged, std::size_t(expUnchanged));                                                   \
    } while (false)

/// x -> convert_element_type -> relu -> neg -> output: the "before" of several cases.
std::vector<json> smallGraph()
{
    return {placeholder("x"), node("relu", "aten.relu.default", {"x"}), node("neg", "aten.neg.default", {"relu"}),
            output({"neg"})};
}

} // namespace

class TestGraphDiff : public QObject {
    Q_OBJECT

private slots:
    void parseSnapshot_roundTrip();
    void parseSnapshot_errors_data();
    void parseSnapshot_errors();
    void parseSnapshot_mistypedFieldsReadAsAbsent();
    void loadSnapshot_fixture();
    void loadSnapshot_missingFile();
    void loadSnapshot_truncated();
    void loadSnapshot_overLimit();

    void diff_identical();
    void diff_removedNoop();
    void diff_geluDecomposition();
    void diff_geluDecompositionFixtures();
    void diff_renamedMatchedByStructure();
    void diff_provenanceDoesNotStealLiveNode();
    void diff_nameMatchBeatsProvenance();
    void diff_outputsChange();
    void diff_moduleChange();
    void diff_targetChange();
    void toJson_shape();

    void diff_scale_renamedChain();
};

void TestGraphDiff::parseSnapshot_roundTrip()
{
    const json j = {
        {"schema", "aotstudio.graph"},
        {"version", 1},
        {"stage", "post_grad"},
        {"pass", "remove_noop_ops"},
        {"graph", "forward"},
        {"node_count", 3},
        {"nodes",
         json::array({
             json{{"id", "x"},
                  {"index", 0},
                  {"op", "placeholder"},
                  {"target", "x"},
                  {"category", "input"},
                  {"inputs", json::array()},
                  {"outputs", tensor({2, 3})},
                  {"module", ""},
                  {"module_stack", json::array()}},
             json{{"id", "addmm"},
                  {"index", 1},
                  {"op", "call_function"},
                  {"target", "aten.addmm.default"},
                  {"category", "matmul"},
                  {"inputs", json::array({"x", "x", "x"})},
                  {"outputs", json::array({json{{"shape", {2, "s0"}}, {"dtype", "bfloat16"}},
                                           json{{"shape", json::array()}, {"dtype", "sym"}, {"expr", "s0"}}})},
                  {"module", "encoder.fc"},
                  {"module_stack", json::array({json{{"path", "encoder"}, {"type", "Encoder"}},
                                                json{{"path", "encoder.fc"}, {"type", "Linear"}}})},
                  {"core_aten", true},
                  {"source", json{{"file", "model.py"}, {"line", 12}, {"function", "forward"}, {"code", "y = fc(x)"}}},
                  {"provenance",
                   json::array({json{{"pass", "fuse"},
                                     {"action", json::array({"replace", "create"})},
                                     {"node", "linear"},
                                     {"graph_id", 7},
                                     {"origins", json::array({json{{"pass", "decompose"},
                                                                   {"action", json::array({"replace"})},
                                                                   {"node", "linear_0"},
                                                                   {"origins", json::array({json{
                                                                                   {"pass", "export"},
                                                                                   {"action", json::array({"create"})},
                                                                                   {"node", "fc"}}})}}})}},
                                json{{"pass", "other"}, {"action", json::array()}, {"node", ""}}})}},
             // No "index": defaults to the position. Non-string target: kept as its JSON text.
             json{{"id", "output"}, {"op", "output"}, {"target", 42}, {"inputs", json::array({"addmm"})}},
         })},
    };

    const Snapshot s = parseSnapshot(j);
    QCOMPARE(s.stage, std::string("post_grad"));
    QCOMPARE(s.pass, std::string("remove_noop_ops"));
    QCOMPARE(s.nodes.size(), std::size_t(3));
    QCOMPARE(s.byId.size(), std::size_t(3));
    for (std::size_t i = 0; i < s.nodes.size(); ++i) {
        QCOMPARE(s.byId.at(s.nodes[i].id), i);
        QCOMPARE(s.find(s.nodes[i].id), &s.nodes[i]);
    }
    QCOMPARE(s.find("nope"), nullptr);

    const Node &x = s.nodes[0];
    QCOMPARE(x.id, std::string("x"));
    QCOMPARE(x.index, 0);
    QCOMPARE(x.op, std::string("placeholder"));
    QCOMPARE(x.target, std::string("x"));
    QCOMPARE(x.category, std::string("input"));
    QVERIFY(x.inputs.empty());
    QCOMPARE(x.outputs, tensor({2, 3}));
    QCOMPARE(x.module, std::string());
    QVERIFY(x.provenance.empty());
    QVERIFY(x.provenanceNodes().empty());

    const Node &a = *s.find("addmm");
    QCOMPARE(a.index, 1);
    QCOMPARE(a.op, std::string("call_function"));
    QCOMPARE(a.target, std::string("aten.addmm.default"));
    QCOMPARE(a.category, std::string("matmul"));
    QCOMPARE(list(a.inputs), QStringList({"x", "x", "x"}));
    QCOMPARE(a.outputs, j["nodes"][1]["outputs"]);
    QCOMPARE(a.module, std::string("encoder.fc"));
    QCOMPARE(a.provenance.size(), std::size_t(2));
    const ProvenanceEntry &p = a.provenance[0];
    QCOMPARE(p.pass, std::string("fuse"));
    QCOMPARE(list(p.actions), QStringList({"replace", "create"}));
    QCOMPARE(p.node, std::string("linear"));
    QCOMPARE(p.origins.size(), std::size_t(1));
    QCOMPARE(p.origins[0].pass, std::string("decompose"));
    QCOMPARE(list(p.origins[0].actions), QStringList({"replace"}));
    QCOMPARE(p.origins[0].node, std::string("linear_0"));
    QCOMPARE(p.origins[0].origins.size(), std::size_t(1));
    QCOMPARE(p.origins[0].origins[0].node, std::string("fc"));
    QVERIFY(p.origins[0].origins[0].origins.empty());
    QCOMPARE(a.provenance[1].pass, std::string("other"));
    QVERIFY(a.provenance[1].actions.empty());
    QVERIFY(a.provenance[1].node.empty());
    // Depth-first, outer before inner; empty names skipped.
    QCOMPARE(list(a.provenanceNodes()), QStringList({"linear", "linear_0", "fc"}));

    const Node &o = s.nodes[2];
    QCOMPARE(o.id, std::string("output"));
    QCOMPARE(o.index, 2);
    QCOMPARE(o.target, std::string("42"));
    QCOMPARE(o.category, std::string());
    QCOMPARE(list(o.inputs), QStringList({"addmm"}));
    QCOMPARE(o.outputs, json::array());
    QCOMPARE(o.module, std::string());
}

void TestGraphDiff::parseSnapshot_errors_data()
{
    QTest::addColumn<QByteArray>("snapshot");
    QTest::addColumn<QString>("expected"); // a fragment of the message, after the origin

    const json good = snapshotJson({placeholder("a"), node("b", "aten.relu.default", {"a"})});
    const auto text = [](const json &j) { return QByteArray::fromStdString(j.dump()); };

    json j = good;
    j["schema"] = "aotstudio.trace";
    QTest::newRow("wrong schema tag") << text(j) << "schema \"aotstudio.graph\" missing";
    j = good;
    j.erase("schema");
    QTest::newRow("no schema tag") << text(j) << "schema \"aotstudio.graph\" missing";
    QTest::newRow("not an object") << text(json::array()) << "schema \"aotstudio.graph\" missing";
    j = good;
    j["version"] = 2;
    QTest::newRow("version 2") << text(j) << "version 2 is not supported";
    j = good;
    j.erase("nodes");
    QTest::newRow("no nodes") << text(j) << "no \"nodes\" array";
    j = good;
    j["nodes"] = json::object();
    QTest::newRow("nodes not an array") << text(j) << "no \"nodes\" array";
    j = good;
    j["nodes"][1].erase("id");
    QTest::newRow("node without id") << text(j) << "node #1 has no string \"id\"";
    j = good;
    j["nodes"][1]["id"] = 5;
    QTest::newRow("node with numeric id") << text(j) << "node #1 has no string \"id\"";
    j = good;
    j["nodes"][0].erase("target");
    QTest::newRow("node without target") << text(j) << "node #0 has no string \"id\" or no \"target\"";
    j = good;
    j["nodes"][1]["id"] = "a";
    QTest::newRow("duplicate id") << text(j) << "duplicate node id \"a\"";
    // Mistyped tags are a GraphError, not nlohmann's type_error (json::value() threw one).
    j = good;
    j["schema"] = 5;
    QTest::newRow("schema not a string") << text(j) << "schema \"aotstudio.graph\" missing";
    j = good;
    j["version"] = "1";
    QTest::newRow("version a string") << text(j) << "version 0 is not supported";
    j = good;
    j["version"] = 4294967297ULL; // would wrap to 1 as an int
    QTest::newRow("version past int") << text(j) << "version 0 is not supported";
}

void TestGraphDiff::parseSnapshot_errors()
{
    QFETCH(QByteArray, snapshot);
    QFETCH(QString, expected);
    const json j = json::parse(snapshot.toStdString());
    try {
        parseSnapshot(j, "/tmp/run-7/post_grad.json");
        QFAIL("no GraphError");
    } catch (const GraphError &e) {
        const QString message = QString::fromUtf8(e.what());
        QVERIFY2(message.startsWith(QStringLiteral("/tmp/run-7/post_grad.json: ")), qPrintable(message));
        QVERIFY2(message.contains(expected), qPrintable(message));
    }
    // The default origin is named too.
    try {
        parseSnapshot(j);
        QFAIL("no GraphError");
    } catch (const GraphError &e) {
        QVERIFY2(QString::fromUtf8(e.what()).startsWith(QStringLiteral("<memory>: ")), e.what());
    }
}

void TestGraphDiff::parseSnapshot_mistypedFieldsReadAsAbsent()
{
    // Optional fields of another type than SCHEMA.md's read as absent (snapshots come from
    // outside: sessions, remote engines); found by tests/fuzz/fuzz_graph.
    json j = snapshotJson({placeholder("a"), node("b", "aten.relu.default", {"a"})});
    j["stage"] = 3;
    j["pass"] = json::array();
    j["nodes"][1]["index"] = "seven";
    j["nodes"][1]["op"] = false;
    j["nodes"][1]["category"] = 1.5;
    j["nodes"][1]["module"] = json::object();
    j["nodes"][1]["outputs"] = "f32";
    j["nodes"][1]["module_stack"] = json::array({json{{"path", 1}, {"type", nullptr}}});
    j["nodes"][1]["source"] = json{{"file", 2}, {"line", "x"}, {"function", json::array()}, {"code", 3}};
    j["nodes"][1]["provenance"] = json::array({json{{"pass", 4}, {"node", json::object()}}});
    const Snapshot s = parseSnapshot(j);
    QCOMPARE(s.stage, std::string());
    QCOMPARE(s.pass, std::string());
    QCOMPARE(s.nodes.size(), std::size_t(2));
    const Node &b = s.nodes[1];
    QCOMPARE(b.index, 1);
    QCOMPARE(b.op, std::string());
    QCOMPARE(b.module, std::string());
    QVERIFY(b.outputs.is_array() && b.outputs.empty());
    QCOMPARE(b.moduleStack.size(), std::size_t(1));
    QCOMPARE(b.source.line, 0);
    QCOMPARE(b.provenance.size(), std::size_t(1));
    QCOMPARE(b.provenance[0].pass, std::string());
}

void TestGraphDiff::loadSnapshot_fixture()
{
    const Snapshot s = loadSnapshot(kFixtures + "/gelu_before.json");
    QCOMPARE(s.stage, std::string("post_grad"));
    QCOMPARE(s.pass, std::string());
    QCOMPARE(s.nodes.size(), std::size_t(7));
    QCOMPARE(s.nodes[5].id, std::string("gelu"));
    QCOMPARE(s.nodes[5].module, std::string("act"));
    QCOMPARE(list(s.find("addmm")->inputs), QStringList({"primals_2", "primals_3", "permute"}));

    const Snapshot after = loadSnapshot(kFixtures + "/gelu_after.json");
    QCOMPARE(after.pass, std::string("decompose_gelu"));
    QCOMPARE(after.nodes.size(), std::size_t(11));
    QCOMPARE(list(after.find("mul_2")->provenanceNodes()), QStringList({"gelu", "gelu"}));
}

void TestGraphDiff::loadSnapshot_missingFile()
{
    const std::string path = kFixtures + "/does_not_exist.json";
    try {
        loadSnapshot(path);
        QFAIL("no GraphError");
    } catch (const GraphError &e) {
        QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find("cannot open") != std::string::npos, e.what());
    }
}

void TestGraphDiff::loadSnapshot_truncated()
{
    const std::string path = kFixtures + "/gelu_before.truncated.json";
    QVERIFY(QFileInfo::exists(QString::fromStdString(path)));
    try {
        loadSnapshot(path);
        QFAIL("no GraphError");
    } catch (const GraphError &e) {
        QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find("not valid JSON") != std::string::npos, e.what());
    }
}

void TestGraphDiff::loadSnapshot_overLimit()
{
    // The fixture loads under the default limit and is refused, unread, under a smaller one.
    const std::string path = kFixtures + "/gelu_after.json";
    const auto size = QFileInfo(QString::fromStdString(path)).size();
    QVERIFY(loadSnapshot(path, static_cast<std::uintmax_t>(size)).nodes.size() > 0); // exactly at the limit: read
    try {
        loadSnapshot(path, static_cast<std::uintmax_t>(size - 1));
        QFAIL("a snapshot over the limit was read");
    } catch (const GraphError &e) {
        QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find("the limit for a graph snapshot") != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find(std::to_string(size - 1) + " bytes") != std::string::npos, e.what());
    }
    QCOMPARE(kMaxSnapshotBytes, std::uintmax_t(256) << 20);
}

void TestGraphDiff::diff_identical()
{
    const Snapshot a = snap(smallGraph());
    const GraphDiff d = diffSnapshots(a, a);
    QVERIFY(d.empty());
    CHECK_DIFF(d, {}, {}, {}, 4);

    const Snapshot f = loadSnapshot(kFixtures + "/gelu_after.json");
    const GraphDiff df = diffSnapshots(f, f);
    QVERIFY(df.empty());
    QCOMPARE(df.unchanged, std::size_t(11));

    const GraphDiff none = diffSnapshots(snap({}), snap({}));
    QVERIFY(none.empty());
    QCOMPARE(none.unchanged, std::size_t(0));
}

void TestGraphDiff::diff_removedNoop()
{
    // remove_noop_ops drops a convert_element_type to the same dtype between x and relu.
    const Snapshot before = snap({placeholder("x"),
                                  node("convert_element_type", "prims.convert_element_type.default", {"x"}),
                                  node("relu", "aten.relu.default", {"convert_element_type"}),
                                  node("neg", "aten.neg.default", {"relu"}), output({"neg"})});
    const Snapshot after = snap(smallGraph(), "remove_noop_ops");
    const GraphDiff d = diffSnapshots(before, after);
    CHECK_DIFF(d, {}, {"convert_element_type"}, {"relu->relu via name [inputs]"}, 3);
    QVERIFY(!d.empty());
}

void TestGraphDiff::diff_geluDecomposition()
{
    const Snapshot before = snap({placeholder("x"), node("gelu", "aten.gelu.default", {"x"}),
                                  node("neg", "aten.neg.default", {"gelu"}), output({"neg"})});
    const Snapshot after = snap({placeholder("x"),
                                 with(node("mul", "aten.mul.Tensor", {"x"}), replacedFrom("gelu")),
                                 with(node("mul_1", "aten.mul.Tensor", {"x"}), replacedFrom("gelu")),
                                 with(node("erf", "aten.erf.default", {"mul_1"}), replacedFrom("gelu")),
                                 with(node("add", "aten.add.Tensor", {"erf"}), replacedFrom("gelu")),
                                 with(node("mul_2", "aten.mul.Tensor", {"mul", "add"}), replacedFrom("gelu")),
                                 node("neg", "aten.neg.default", {"mul_2"}), output({"neg"})},
                                "decompose");
    CHECK_DIFF(diffSnapshots(before, after), QStringList({"mul_1", "erf", "add", "mul_2"}), {},
               QStringList({"gelu->mul via provenance [name,target]", "neg->neg via name [inputs]"}), 2);
}

void TestGraphDiff::diff_geluDecompositionFixtures()
{
    const Snapshot before = loadSnapshot(kFixtures + "/gelu_before.json");
    const Snapshot after = loadSnapshot(kFixtures + "/gelu_after.json");
    CHECK_DIFF(diffSnapshots(before, after), QStringList({"mul_1", "erf", "add", "mul_2"}), {},
               QStringList({"gelu->mul via provenance [name,target]", "output->output via name [inputs]"}), 5);

    // Backwards: the decomposed nodes are gone, gelu is new (it has no provenance to follow).
    CHECK_DIFF(diffSnapshots(after, before), {"gelu"}, QStringList({"mul", "mul_1", "erf", "add", "mul_2"}),
               {"output->output via name [inputs]"}, 5);
}

void TestGraphDiff::diff_renamedMatchedByStructure()
{
    const Snapshot before = snap(smallGraph());
    const Snapshot after = snap({placeholder("x"), node("relu_renamed", "aten.relu.default", {"x"}),
                                 node("neg", "aten.neg.default", {"relu_renamed"}), output({"neg"})});
    // neg's input is relu_renamed, which is paired with relu: neg is not changed.
    CHECK_DIFF(diffSnapshots(before, after), {}, {}, {"relu->relu_renamed via structure [name]"}, 3);

    // A renamed node whose target differs is not the same node.
    const Snapshot other = snap({placeholder("x"), node("sigmoid", "aten.sigmoid.default", {"x"}),
                                 node("neg", "aten.neg.default", {"sigmoid"}), output({"neg"})});
    CHECK_DIFF(diffSnapshots(before, other), {"sigmoid"}, {"relu"}, {"neg->neg via name [inputs]"}, 2);

    // Nor is one with different inputs.
    const Snapshot moved = snap({placeholder("x"), placeholder("y"), node("relu_1", "aten.relu.default", {"y"}),
                                 node("neg", "aten.neg.default", {"relu_1"}), output({"neg"})});
    CHECK_DIFF(diffSnapshots(before, moved), QStringList({"y", "relu_1"}), {"relu"},
               {"neg->neg via name [inputs]"}, 2);
}

void TestGraphDiff::diff_provenanceDoesNotStealLiveNode()
{
    // `sin` names `relu` in its provenance, but relu is still in "after" by name: relu pairs with
    // relu, sin is new, neg (gone, no node names it) is removed.
    const Snapshot before = snap(smallGraph());
    const Snapshot after = snap({placeholder("x"), node("relu", "aten.relu.default", {"x"}),
                                 with(node("sin", "aten.sin.default", {"relu"}), replacedFrom("relu")),
                                 output({"sin"})});
    CHECK_DIFF(diffSnapshots(before, after), {"sin"}, {"neg"}, {"output->output via name [inputs]"}, 2);

    // Same when the live node is named deeper in the provenance chain, before a gone one: the
    // gone one (neg) is the partner.
    json prov = replacedFrom("relu");
    prov["provenance"][0]["origins"][0]["node"] = "neg";
    const Snapshot after2 = snap({placeholder("x"), node("relu", "aten.relu.default", {"x"}),
                                  with(node("sin", "aten.sin.default", {"relu"}), prov), output({"sin"})});
    CHECK_DIFF(diffSnapshots(before, after2), {}, {}, {"neg->sin via provenance [name,target]"}, 3);
}

void TestGraphDiff::diff_nameMatchBeatsProvenance()
{
    // An after-node that exists by name in "before" pairs by name even if its provenance names a
    // gone node; the gone node is removed.
    const Snapshot before = snap(smallGraph());
    const Snapshot after =
        snap({placeholder("x"), with(node("neg", "aten.neg.default", {"x"}), replacedFrom("relu")), output({"neg"})});
    CHECK_DIFF(diffSnapshots(before, after), {}, {"relu"}, {"neg->neg via name [inputs]"}, 2);
}

void TestGraphDiff::diff_outputsChange()
{
    const Snapshot before = snap(smallGraph());
    auto nodes = smallGraph();
    nodes[1]["outputs"] = tensor({4, 8}, "bfloat16");
    CHECK_DIFF(diffSnapshots(before, snap(nodes)), {}, {}, {"relu->relu via name [outputs]"}, 3);

    nodes = smallGraph();
    nodes[2]["outputs"] = tensor({4, 16});
    CHECK_DIFF(diffSnapshots(before, snap(nodes)), {}, {}, {"neg->neg via name [outputs]"}, 3);

    // Renamed and retyped: still paired by structure (outputs are not part of the structure).
    nodes = smallGraph();
    nodes[1] = with(node("relu_2", "aten.relu.default", {"x"}), {{"outputs", tensor({4, 8}, "bfloat16")}});
    nodes[2]["inputs"] = {"relu_2"};
    CHECK_DIFF(diffSnapshots(before, snap(nodes)), {}, {}, {"relu->relu_2 via structure [name,outputs]"}, 3);
}

void TestGraphDiff::diff_moduleChange()
{
    const Snapshot before = snap(smallGraph());
    auto nodes = smallGraph();
    nodes[2]["module"] = "encoder.layers.0.act";
    CHECK_DIFF(diffSnapshots(before, snap(nodes)), {}, {}, {"neg->neg via name [module]"}, 3);
    // module_stack alone is not compared (the innermost path is).
    nodes = smallGraph();
    nodes[2]["module_stack"] = json::array({json{{"path", ""}, {"type", "Model"}}});
    CHECK_DIFF(diffSnapshots(before, snap(nodes)), {}, {}, {}, 4);
}

void TestGraphDiff::diff_targetChange()
{
    const Snapshot before = snap(smallGraph());
    auto nodes = smallGraph();
    nodes[2]["target"] = "aten.neg.out";
    nodes[2]["outputs"] = tensor({8, 4});
    nodes[2]["module"] = "m";
    CHECK_DIFF(diffSnapshots(before, snap(nodes)), {}, {}, {"neg->neg via name [target,outputs,module]"}, 3);
}

void TestGraphDiff::toJson_shape()
{
    const Snapshot before = loadSnapshot(kFixtures + "/gelu_before.json");
    const Snapshot after = loadSnapshot(kFixtures + "/gelu_after.json");
    const json j = toJson(diffSnapshots(before, after));
    QVERIFY(j.is_object());
    QCOMPARE(j.size(), std::size_t(4));
    QCOMPARE(j["added"], json({"mul_1", "erf", "add", "mul_2"}));
    QCOMPARE(j["removed"], json::array());
    QVERIFY(j["unchanged"].is_number_unsigned());
    QCOMPARE(j["unchanged"].get<int>(), 5);
    QVERIFY(j["changed"].is_array());
    QCOMPARE(j["changed"].size(), std::size_t(2));
    const json expected0 = {{"before", "gelu"}, {"after", "mul"}, {"via", "provenance"}, {"fields", {"name", "target"}}};
    QCOMPARE(j["changed"][0], expected0);
    const json expected1 = {{"before", "output"}, {"after", "output"}, {"via", "name"}, {"fields", {"inputs"}}};
    QCOMPARE(j["changed"][1], expected1);

    const json same = toJson(diffSnapshots(before, before));
    const json expectedSame = {{"added", json::array()},
                               {"removed", json::array()},
                               {"changed", json::array()},
                               {"unchanged", 7}};
    QCOMPARE(same, expectedSame);

    QCOMPARE(std::string(toString(MatchKind::Structure)), std::string("structure"));
    QCOMPARE(std::string(toString(MatchKind::Name)), std::string("name"));
    QCOMPARE(std::string(toString(MatchKind::Provenance)), std::string("provenance"));
}

void TestGraphDiff::diff_scale_renamedChain()
{
    constexpr int kNodes = 20000;
    const auto chain = [&](bool renamed) {
        std::vector<json> nodes;
        nodes.reserve(kNodes);
        nodes.push_back(placeholder("n0"));
        for (int i = 1; i < kNodes; ++i) {
            const auto name = [&](int k) {
                return (renamed && k > 0 && k % 10 == 0 ? "renamed_" : "n") + std::to_string(k);
            };
            nodes.push_back(node(name(i), i % 2 ? "aten.relu.default" : "aten.neg.default", {name(i - 1)}));
        }
        return snap(std::move(nodes));
    };
    const Snapshot before = chain(false);
    const Snapshot after = chain(true);

    const GraphDiff d = diffSnapshots(before, after);
    QVERIFY(d.added.empty());
    QVERIFY(d.removed.empty());
    QCOMPARE(d.changed.size(), std::size_t(kNodes / 10 - 1)); // n10, n20, ..., n19990
    QCOMPARE(d.unchanged, std::size_t(kNodes - d.changed.size()));
    for (const auto &c : d.changed) {
        QCOMPARE(c.via, MatchKind::Structure);
        QCOMPARE(c.after, "renamed_" + c.before.substr(1));
        QCOMPARE(list(c.fields), QStringList({"name"}));
    }

    const GraphDiff self = diffSnapshots(before, before);
    QVERIFY(self.empty());
    QCOMPARE(self.unchanged, std::size_t(kNodes));
}

QTEST_GUILESS_MAIN(TestGraphDiff)
#include "tst_graphdiff.moc"
