// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A transformer-shaped snapshot of about N nodes, for bench_graphlayout and the graph view tests:
// parameters as top-level placeholders (as in post-grad graphs), then blocks "layers.i" with
// LayerNorm, attention (q/k/v/o Linear, scores, softmax) and MLP (fc1, GELU, fc2), residual adds.

#include "graph/graph.h"

#include <string>
#include <vector>

namespace AotStudio::Bench {

inline Graph::Snapshot syntheticTransformer(int targetNodes)
{
    Graph::Snapshot s;
    s.stage = "post_grad";
    std::vector<Graph::Node> params;
    std::vector<Graph::Node> body;
    int counter = 0;
    const auto fresh = [&counter](const std::string &base) { return base + "_" + std::to_string(counter++); };
    const auto stackOf = [](const std::vector<std::pair<std::string, std::string>> &frames) {
        std::vector<Graph::ModuleFrame> out;
        for (const auto &[p, t] : frames)
            out.push_back({ p, t });
        return out;
    };
    const auto add = [&](const std::string &base, const std::string &target, const std::string &category,
                         std::vector<std::string> inputs, const std::vector<Graph::ModuleFrame> &stack) {
        Graph::Node n;
        n.id = fresh(base);
        n.op = "call_function";
        n.target = target;
        n.category = category;
        n.inputs = std::move(inputs);
        n.outputs = nlohmann::json::array({ { { "shape", { 8, 128, 384 } }, { "dtype", "float32" } } });
        n.moduleStack = stack;
        n.module = stack.empty() ? std::string() : stack.back().path;
        body.push_back(n);
        return body.back().id;
    };
    const auto param = [&](const std::string &name) {
        Graph::Node n;
        n.id = fresh("primals");
        n.op = "placeholder";
        n.target = name;
        n.category = "param";
        n.outputs = nlohmann::json::array({ { { "shape", { 384 } }, { "dtype", "float32" } } });
        params.push_back(n);
        return params.back().id;
    };
    using Frames = std::vector<std::pair<std::string, std::string>>;
    const auto linear = [&](const std::string &x, Frames frames) {
        const auto st = stackOf(frames);
        const std::string w = param(frames.back().first + ".weight"), b = param(frames.back().first + ".bias");
        const std::string view = add("view", "aten.view.default", "view", { x }, st);
        const std::string t = add("permute", "aten.permute.default", "view", { w }, st);
        const std::string mm = add("addmm", "aten.addmm.default", "matmul", { b, view, t }, st);
        return add("view", "aten.view.default", "view", { mm }, st);
    };
    const auto layerNorm = [&](const std::string &x, Frames frames) {
        const auto st = stackOf(frames);
        const std::string w = param(frames.back().first + ".weight"), b = param(frames.back().first + ".bias");
        const std::string mean = add("mean", "aten.mean.dim", "reduction", { x }, st);
        const std::string sub = add("sub", "aten.sub.Tensor", "pointwise", { x, mean }, st);
        const std::string sq = add("pow", "aten.pow.Tensor_Scalar", "pointwise", { sub }, st);
        const std::string var = add("mean", "aten.mean.dim", "reduction", { sq }, st);
        const std::string eps = add("add", "aten.add.Tensor", "pointwise", { var }, st);
        const std::string rs = add("rsqrt", "aten.rsqrt.default", "pointwise", { eps }, st);
        const std::string norm = add("mul", "aten.mul.Tensor", "pointwise", { sub, rs }, st);
        const std::string scaled = add("mul", "aten.mul.Tensor", "pointwise", { norm, w }, st);
        return add("add", "aten.add.Tensor", "pointwise", { scaled, b }, st);
    };

    Graph::Node input;
    input.id = "input_ids";
    input.op = "placeholder";
    input.target = "input_ids";
    input.category = "input";
    input.outputs = nlohmann::json::array({ { { "shape", { 8, 128 } }, { "dtype", "int64" } } });
    params.push_back(input);
    const std::string table = param("embed.weight");
    std::string x = add(
        "embedding", "aten.embedding.default", "other", { table, "input_ids" }, stackOf({ { "embed", "Embedding" } }));

    for (int layer = 0; int(params.size() + body.size()) < targetNodes - 4; ++layer) {
        const std::string p = "layers." + std::to_string(layer);
        const Frames block { { p, "Block" } };
        const auto bst = stackOf(block);
        const std::string h = layerNorm(x, { { p, "Block" }, { p + ".ln1", "LayerNorm" } });
        const Frames attn { { p, "Block" }, { p + ".attn", "Attention" } };
        const auto ast = stackOf(attn);
        std::string qkv[3];
        const char *names[] = { "q_proj", "k_proj", "v_proj" };
        for (int i = 0; i < 3; ++i) {
            Frames f = attn;
            f.push_back({ p + ".attn." + names[i], "Linear" });
            const std::string y = linear(h, f);
            const std::string v = add("view", "aten.view.default", "view", { y }, ast);
            qkv[i] = add("permute", "aten.permute.default", "view", { v }, ast);
        }
        const std::string kt = add("transpose", "aten.transpose.int", "view", { qkv[1] }, ast);
        const std::string scores = add("bmm", "aten.bmm.default", "matmul", { qkv[0], kt }, ast);
        const std::string scaled = add("div", "aten.div.Tensor", "pointwise", { scores }, ast);
        const std::string amax = add("amax", "aten.amax.default", "reduction", { scaled }, ast);
        const std::string sub = add("sub", "aten.sub.Tensor", "pointwise", { scaled, amax }, ast);
        const std::string ex = add("exp", "aten.exp.default", "pointwise", { sub }, ast);
        const std::string sum = add("sum", "aten.sum.dim_IntList", "reduction", { ex }, ast);
        const std::string prob = add("div", "aten.div.Tensor", "pointwise", { ex, sum }, ast);
        const std::string ctx = add("bmm", "aten.bmm.default", "matmul", { prob, qkv[2] }, ast);
        const std::string ctxT = add("permute", "aten.permute.default", "view", { ctx }, ast);
        const std::string merged = add("view", "aten.view.default", "view", { ctxT }, ast);
        Frames o = attn;
        o.push_back({ p + ".attn.o_proj", "Linear" });
        const std::string attnOut = linear(merged, o);
        const std::string res1 = add("add", "aten.add.Tensor", "pointwise", { x, attnOut }, bst);
        const std::string h2 = layerNorm(res1, { { p, "Block" }, { p + ".ln2", "LayerNorm" } });
        const std::string up = linear(h2, { { p, "Block" }, { p + ".mlp", "Mlp" }, { p + ".mlp.fc1", "Linear" } });
        const Frames act { { p, "Block" }, { p + ".mlp", "Mlp" }, { p + ".mlp.act", "GELU" } };
        const auto gst = stackOf(act);
        const std::string g1 = add("mul", "aten.mul.Tensor", "pointwise", { up }, gst);
        const std::string g2 = add("erf", "aten.erf.default", "pointwise", { g1 }, gst);
        const std::string g3 = add("add", "aten.add.Tensor", "pointwise", { g2 }, gst);
        const std::string g4 = add("mul", "aten.mul.Tensor", "pointwise", { up, g3 }, gst);
        const std::string down = linear(g4, { { p, "Block" }, { p + ".mlp", "Mlp" }, { p + ".mlp.fc2", "Linear" } });
        x = add("add", "aten.add.Tensor", "pointwise", { res1, down }, bst);
    }
    x = layerNorm(x, { { "norm", "LayerNorm" } });
    Graph::Node out;
    out.id = "output";
    out.op = "output";
    out.target = "output";
    out.category = "output";
    out.inputs = { x };
    body.push_back(out);

    for (auto &n : params)
        s.nodes.push_back(std::move(n));
    for (auto &n : body)
        s.nodes.push_back(std::move(n));
    for (std::size_t i = 0; i < s.nodes.size(); ++i) {
        s.nodes[i].index = static_cast<int>(i);
        s.byId.emplace(s.nodes[i].id, i);
    }
    return s;
}

} // namespace AotStudio::Bench
