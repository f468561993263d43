// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/graph.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

namespace AotStudio::Graph {

namespace {

// Snapshots come from outside (a session someone sent, a remote engine): a field of another type
// than the schema says reads as absent, never as nlohmann's type_error (json::value() throws one).

/// `j[key]` when `j` is an object with a string there, else "".
std::string stringField(const nlohmann::json &j, const char *key)
{
    if (!j.is_object())
        return {};
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// `j[key]` when `j` is an object with an integer there that fits an int, else `fallback`.
int intField(const nlohmann::json &j, const char *key, int fallback)
{
    if (!j.is_object())
        return fallback;
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer())
        return fallback;
    if (it->is_number_unsigned())
        return it->get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<int>::max()) ? it->get<int>() : fallback;
    const auto v = it->get<std::int64_t>();
    return v >= std::numeric_limits<int>::min() && v <= std::numeric_limits<int>::max() ? static_cast<int>(v) : fallback;
}

ProvenanceEntry parseProvenance(const nlohmann::json &j, int depth)
{
    ProvenanceEntry e;
    e.pass = stringField(j, "pass");
    e.node = stringField(j, "node");
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
    if (!j.is_object() || stringField(j, "schema") != "aotstudio.graph")
        fail("not an AOT Studio graph snapshot (schema \"aotstudio.graph\" missing)");
    if (intField(j, "version", 0) != 1)
        fail("snapshot schema version " + std::to_string(intField(j, "version", 0)) + " is not supported (this build reads 1)");
    const auto nodes = j.find("nodes");
    if (nodes == j.end() || !nodes->is_array())
        fail("snapshot has no \"nodes\" array");

    Snapshot s;
    s.stage = stringField(j, "stage");
    s.pass = stringField(j, "pass");
    s.nodes.reserve(nodes->size());
    for (std::size_t i = 0; i < nodes->size(); ++i) {
        const auto &n = (*nodes)[i];
        if (!n.is_object() || !n.contains("id") || !n["id"].is_string() || !n.contains("target"))
            fail("node #" + std::to_string(i) + " has no string \"id\" or no \"target\"");
        Node node;
        node.id = n["id"].get<std::string>();
        node.index = intField(n, "index", static_cast<int>(i));
        node.op = stringField(n, "op");
        node.target = n["target"].is_string() ? n["target"].get<std::string>() : n["target"].dump();
        node.category = stringField(n, "category");
        if (const auto in = n.find("inputs"); in != n.end() && in->is_array()) {
            for (const auto &x : *in) {
                if (x.is_string())
                    node.inputs.push_back(x.get<std::string>());
            }
        }
        node.outputs = n.contains("outputs") && n["outputs"].is_array() ? n["outputs"] : nlohmann::json::array();
        node.module = stringField(n, "module");
        if (const auto ms = n.find("module_stack"); ms != n.end() && ms->is_array()) {
            for (const auto &f : *ms) {
                if (f.is_object())
                    node.moduleStack.push_back({stringField(f, "path"), stringField(f, "type")});
            }
        }
        if (const auto src = n.find("source"); src != n.end() && src->is_object()) {
            node.source.file = stringField(*src, "file");
            node.source.line = intField(*src, "line", 0);
            node.source.function = stringField(*src, "function");
            node.source.code = stringField(*src, "code");
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

Snapshot loadSnapshot(const std::string &path, std::uintmax_t maxBytes)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw GraphError(path + ": cannot open the snapshot file");
    // Read at most maxBytes + 1 bytes, whatever the file system says its size is.
    std::string data;
    std::vector<char> buffer(1 << 20);
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        data.append(buffer.data(), static_cast<std::size_t>(in.gcount()));
        if (data.size() > maxBytes)
            throw GraphError(path + ": larger than " +
                             (maxBytes % (1 << 20) == 0 ? std::to_string(maxBytes >> 20) + " MiB" : std::to_string(maxBytes) + " bytes") +
                             ", the limit for a graph snapshot: not read (is it a snapshot?)");
    }
    if (in.bad())
        throw GraphError(path + ": cannot read the snapshot file");
    nlohmann::json j = nlohmann::json::parse(data, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded())
        throw GraphError(path + ": not valid JSON (truncated or corrupt snapshot?)");
    return parseSnapshot(j, path);
}

} // namespace AotStudio::Graph
