// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph/dot.h"

#include <map>
#include <sstream>

namespace AotStudio::Graph {

std::string dotQuote(const std::string &text)
{
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    out += '"';
    return out;
}

namespace {

struct Cluster {
    std::string type;
    std::vector<const Node *> nodes;
    std::map<std::string, Cluster> children; ///< keyed by full path
};

void writeCluster(std::ostringstream &out, const std::string &path, const Cluster &c, int &counter, int depth)
{
    const std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
    if (!path.empty()) {
        out << indent << "subgraph cluster_" << counter++ << " {\n";
        out << indent << "  label=" << dotQuote(c.type.empty() ? path : path + " (" + c.type + ")") << ";\n";
    }
    for (const Node *n : c.nodes) {
        std::string op = n->target;
        if (const auto dot = op.find('.'); op.rfind("aten.", 0) == 0 && dot != std::string::npos)
            op = op.substr(dot + 1);
        out << indent << "  " << dotQuote(n->id) << " [label=" << dotQuote(n->id + "\n" + op) << "];\n";
    }
    for (const auto &[childPath, child] : c.children)
        writeCluster(out, childPath, child, counter, depth + 1);
    if (!path.empty())
        out << indent << "}\n";
}

} // namespace

std::string toDot(const Snapshot &snapshot)
{
    Cluster root;
    for (const Node &n : snapshot.nodes) {
        Cluster *c = &root;
        if (!n.moduleStack.empty()) {
            for (const ModuleFrame &f : n.moduleStack) {
                if (f.path.empty())
                    continue;
                Cluster &child = c->children[f.path];
                child.type = f.type;
                c = &child;
            }
        } else if (!n.module.empty()) {
            c = &root.children[n.module];
        }
        c->nodes.push_back(&n);
    }
    std::ostringstream out;
    out << "digraph " << dotQuote(snapshot.stage + (snapshot.pass.empty() ? "" : "/" + snapshot.pass)) << " {\n";
    out << "  rankdir=TB;\n  node [shape=box, fontname=\"sans\", fontsize=10];\n";
    int counter = 0;
    writeCluster(out, "", root, counter, 0);
    for (const Node &n : snapshot.nodes) {
        for (const std::string &in : n.inputs) {
            if (snapshot.find(in))
                out << "  " << dotQuote(in) << " -> " << dotQuote(n.id) << ";\n";
        }
    }
    out << "}\n";
    return out.str();
}

} // namespace AotStudio::Graph
