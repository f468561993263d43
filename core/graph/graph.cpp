// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/graph.h"

#include <algorithm>
#include <fstream>

namespace AotStudio::Graph {

namespace {

ProvenanceEntry parseProvenance(const nlohmann::json &j, int depth)
{
    ProvenanceEntry e;
    e.pass = j.value("pass", std::string());
    e.node = j.value("node", std::string());
    if (const auto a = j.find("action"); a != j.end() && a->is_array()) {
        for (const auto &x : *a) {
            if (x.is_string())
                e.actions.push_back(x.get<std::string>());
        }
    }
    if (depth < 8) {
        if (const auto o = j.find("origins"); o != j.end() && o->is_array()) {
            for (const auto &x : *o) {
                if (x.is_object())
                    e.origins.push_back(parseProvenance(x, depth + 1));
            }
        }
    }
    return e;
}

void collect(const ProvenanceEntry &e, std::vector<std::string> &out)
{
    if (!e.node.empty())
        out.push_back(e.node);
    for (const auto &o : e.origins)
        collect(o, out);
}

} // namespace

std::vector<std::string> Node::provenanceNodes() const
{
    std::vector<std::string> out;
    for (const auto &p : provenance)
        collect(p, out);
    return out;
}

std::vector<std::string> Node::provenancePasses() const
{
    std::vector<std::string> out;
    const auto walk = [&out](const auto &self, const ProvenanceEntry &e) -> void {
        if (!e.pass.empty() && std::find(out.begin(), out.end(), e.pass) == out.end())
            out.push_back(e.pass);
        for (const auto &o : e.origins)
            self(self, o);
    };
    for (const auto &p : provenance)
        walk(walk, p);
    return out;
}

std::string Node::dtype() const
{
    if (outputs.is_array()) {
        for (const auto &o : outputs) {
            if (o.is_object()) {
                if (const auto d = o.find("dtype"); d != o.end() && d->is_string())
                    return d->get<std::string>();
            }
        }
    }
    return {};
}

const Node *Snapshot::find(const std::string &id) const
{
    const auto it = byId.find(id);
    return it == byId.end() ? nullptr : &nodes[it->second];
}

Snapshot parseSnapshot(const nlohmann::json &j, const std::string &origin)
{
    const auto fail = [&](const std::string &what) { throw GraphError(origin + ": " + what); };
    if (!j.is_object() || j.value("schema", std::string()) != "aotstudio.graph")
        fail("not an AOT Studio graph snapshot (schema \"aotstudio.graph\" missing)");
    if (j.value("version", 0) != 1)
        fail("snapshot schema version " + std::to_string(j.value("version", 0)) + " is not supported (this build reads 1)");
    const auto nodes = j.find("nodes");
    if (nodes == j.end() || !nodes->is_array())
        fail("snapshot has no \"nodes\" array");

    Snapshot s;
    s.stage = j.value("stage", std::string());
    s.pass = j.value("pass", std::string());
    s.nodes.reserve(nodes->size());
    for (std::size_t i = 0; i < nodes->size(); ++i) {
        const auto &n = (*nodes)[i];
        if (!n.is_object() || !n.contains("id") || !n["id"].is_string() || !n.contains("target"))
            fail("node #" + std::to_string(i) + " has no string \"id\" or no \"target\"");
        Node node;
        node.id = n["id"].get<std::string>();
        node.index = n.value("index", static_cast<int>(i));
        node.op = n.value("op", std::string());
        node.target = n["target"].is_string() ? n["target"].get<std::string>() : n["target"].dump();
        node.category = n.value("category", std::string());
        if (const auto in = n.find("inputs"); in != n.end() && in->is_array()) {
            for (const auto &x : *in) {
                if (x.is_string())
                    node.inputs.push_back(x.get<std::string>());
            }
        }
        node.outputs = n.value("outputs", nlohmann::json::array());
        node.module = n.value("module", std::string());
        if (const auto ms = n.find("module_stack"); ms != n.end() && ms->is_array()) {
            for (const auto &f : *ms) {
                if (f.is_object())
                    node.moduleStack.push_back({f.value("path", std::string()), f.value("type", std::string())});
            }
        }
        if (const auto src = n.find("source"); src != n.end() && src->is_object()) {
            node.source.file = src->value("file", std::string());
            if (const auto l = src->find("line"); l != src->end() && l->is_number_integer())
                node.source.line = l->get<int>();
            node.source.function = src->value("function", std::string());
            node.source.code = src->value("code", std::string());
        }
        if (const auto p = n.find("provenance"); p != n.end() && p->is_array()) {
            for (const auto &x : *p) {
                if (x.is_object())
                    node.provenance.push_back(parseProvenance(x, 0));
            }
        }
        if (!s.byId.emplace(node.id, s.nodes.size()).second)
            fail("duplicate node id \"" + node.id + "\"");
        s.nodes.push_back(std::move(node));
    }
    return s;
}

Snapshot loadSnapshot(const std::string &path)
{
    std::ifstream in(path);
    if (!in)
        throw GraphError(path + ": cannot open the snapshot file");
    nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded())
        throw GraphError(path + ": not valid JSON (truncated or corrupt snapshot?)");
    return parseSnapshot(j, path);
}

} // namespace AotStudio::Graph
