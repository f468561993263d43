// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

/// Graph snapshots in AOT Studio's schema (core/graph/SCHEMA.md), as written by the Python
/// frontend (aotstudio_frontend/graph_json.py) for every stage and pass.
namespace AotStudio::Graph {

/// A snapshot that cannot be read: the message names the file and what is wrong.
class GraphError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// One provenance record (Inductor provenance level 1 / torch.fx NodeSource): the pass that
/// created or replaced the node, the action(s), and the node it came from (may be empty).
struct ProvenanceEntry {
    std::string pass;
    std::vector<std::string> actions;
    std::string node;
    std::vector<ProvenanceEntry> origins;
};

/// One frame of `nn_module_stack`: a module path and its class name.
struct ModuleFrame {
    std::string path; ///< e.g. "layers.0.attn" ("" for the root module)
    std::string type; ///< e.g. "Attention"
};

/// The innermost user frame of a node's `stack_trace`.
struct SourceLocation {
    std::string file;
    int line = 0;
    std::string function;
    std::string code;
};

struct Node {
    std::string id;     ///< FX node name, unique within a snapshot
    int index = 0;      ///< position in the graph's topological order
    std::string op;     ///< placeholder | call_function | call_module | get_attr | output
    std::string target; ///< e.g. "aten.addmm.default"
    std::string category;
    std::vector<std::string> inputs; ///< ids of input nodes, in argument order
    nlohmann::json outputs;          ///< [{shape, dtype}]
    std::string module;              ///< innermost nn_module_stack path ("" = top level)
    std::vector<ModuleFrame> moduleStack; ///< outermost first; may be empty
    SourceLocation source;                ///< line 0 when the snapshot has none
    std::vector<ProvenanceEntry> provenance;

    /// Every node name mentioned anywhere in the provenance chain.
    std::vector<std::string> provenanceNodes() const;
    /// Every pass named anywhere in the provenance chain, outermost first, without repeats.
    std::vector<std::string> provenancePasses() const;
    /// The dtype of the first output ("" when the node has no tensor output).
    std::string dtype() const;
};

struct Snapshot {
    std::string stage; ///< capture, decompose, pre_grad, post_grad, ...
    std::string pass;  ///< the pass after which it was taken ("" for a stage entry)
    std::vector<Node> nodes;
    std::unordered_map<std::string, std::size_t> byId; ///< id -> index into nodes

    const Node *find(const std::string &id) const;
};

/// Parse a snapshot object. Throws GraphError naming `origin` (a path or "<memory>") when the
/// schema tag, version or a node's required fields are missing or of the wrong type.
Snapshot parseSnapshot(const nlohmann::json &j, const std::string &origin = "<memory>");
/// Largest snapshot file read (bytes): 256 MiB (ResNet-18 after post-grad: 0.3 MiB for 455 nodes);
/// a larger file is refused before it is parsed (SCHEMA.md).
inline constexpr std::uintmax_t kMaxSnapshotBytes = 256ull << 20;

/// Read and parse a snapshot file; GraphError names the path on I/O or JSON errors, and on a file
/// larger than `maxBytes` (counted on the bytes read; the message names the limit).
Snapshot loadSnapshot(const std::string &path, std::uintmax_t maxBytes = kMaxSnapshotBytes);

} // namespace AotStudio::Graph
