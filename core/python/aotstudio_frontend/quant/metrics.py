# SPDX-License-Identifier: GPL-3.0-or-later
"""How far a quantized model is from fp32: accuracy over the evaluation set (package outputs
against fp32 eager), the error of each quantized layer on the same fp32 input, and the quantized
ops that made it into the exported graph and the generated code (FORMAT.md "quantize result")."""

import json
import os
import re

import torch

#: Quantized dtypes: a graph node producing or consuming one of these is a quantized op.
_QDTYPES = {torch.int8, torch.uint8, torch.float8_e4m3fn, torch.float8_e5m2}
_QNAME = re.compile(r"quantize|int8|int4|_int_mm|float8|fp8|qlinear|qconv|scaled_mm|torchao|onednn", re.I)
#: Ops that only move or reshape data: touching an int8 tensor does not make them quantized compute.
_STRUCTURAL = re.compile(r"getitem|\.(reshape|view|_unsafe_view|t|transpose|permute|expand|clone|contiguous|squeeze|"
                         r"unsqueeze|slice|select|flatten|detach|alias)\.|^<built-in")

#: A layer or evaluation whose error could not be measured.
NO_ERRORS = {"max_abs_error": None, "mean_abs_error": None, "cosine": None}


def errors(q: torch.Tensor, f: torch.Tensor) -> dict:
    """``q`` against the reference ``f`` (same number of elements, any dtype or device), both
    flattened and compared in float64: {max_abs_error, mean_abs_error, cosine} (0, 0 and 1 when
    empty)."""
    q, f = q.double().cpu().flatten(), f.double().cpu().flatten()
    d = (q - f).abs()
    cos = float(torch.nn.functional.cosine_similarity(q, f, dim=0)) if q.numel() else 1.0
    return {"max_abs_error": float(d.max()) if d.numel() else 0.0,
            "mean_abs_error": float(d.mean()) if d.numel() else 0.0, "cosine": cos}


def accuracy(reference: list, outputs: dict, spec: str, names: list = None) -> dict:
    """Against fp32 eager over the evaluation set: max/mean abs error, cosine (all outputs
    flattened), top-1 agreement for [batch, classes] outputs, embedding cosine for minilm, and
    ``outputs``: the same three errors per output leaf, named by ``names`` (the forward's output
    names, verify.named_tensors: ``logits``, ``last_hidden_state``; ``output N`` when absent).
    ``reference[i]`` is sample i's fp32 eager outputs, ``outputs[i]`` the package's (each a list
    of float64 CPU tensors); samples without outputs are skipped. ``spec`` is the model spec
    (``sample:minilm`` outputs embeddings). Every figure is None when no sample has outputs."""
    per_output = {}  # index -> ([q], [f])
    qs, fs = [], []
    top1_hits, top1_rows, emb = 0, 0, []
    for i, ref in enumerate(reference):
        got = outputs.get(i)
        if got is None:
            continue
        for k, (q, f) in enumerate(zip(got, ref)):
            qs.append(q.flatten())
            fs.append(f.flatten())
            per_output.setdefault(k, ([], []))
            per_output[k][0].append(q.flatten())
            per_output[k][1].append(f.flatten())
        if len(ref) == 1 and ref[0].dim() == 2 and ref[0].shape[1] > 1:
            if spec == "sample:minilm":
                emb.append(torch.nn.functional.cosine_similarity(got[0], ref[0], dim=1))
            else:
                top1_hits += int((got[0].argmax(1) == ref[0].argmax(1)).sum())
                top1_rows += ref[0].shape[0]
    if not qs:
        return {"max_abs_error": None, "mean_abs_error": None, "cosine": None, "top1_agreement": None,
                "embedding_cosine": None, "samples": 0, "outputs": []}
    q, f = torch.cat(qs), torch.cat(fs)
    d = (q - f).abs()
    return {"max_abs_error": float(d.max()), "mean_abs_error": float(d.mean()),
            "cosine": float(torch.nn.functional.cosine_similarity(q, f, dim=0)),
            "top1_agreement": (top1_hits / top1_rows) if top1_rows else None,
            "embedding_cosine": float(torch.cat(emb).mean()) if emb else None,
            "samples": len(outputs),
            "outputs": [dict(name=names[k] if names and k < len(names) else f"output {k}",
                             **errors(torch.cat(per_output[k][0]), torch.cat(per_output[k][1])))
                        for k in sorted(per_output)]}


def interpret(gm, sample: tuple) -> dict:
    """Run ``gm`` on ``sample`` and keep every node's value (node -> value)."""
    env = {}

    class Recorder(torch.fx.Interpreter):
        def run_node(self, n):
            v = super().run_node(n)
            env[n] = v
            return v

    with torch.inference_mode():
        Recorder(gm).run(*sample)
    return env


def pt2e_layer(node, env: dict, x: torch.Tensor) -> torch.Tensor:
    """The converted layer on fp32 input ``x``: quantize-dequantize x with the activation's
    scale and zero point, then the op with its dequantized weight (values from ``env``)."""
    deq = node.args[0]
    scale, zp, qmin, qmax, dtype = [env[a] if isinstance(a, torch.fx.Node) else a for a in deq.args[1:6]]
    qd = torch.ops.quantized_decomposed
    xq = qd.dequantize_per_tensor(qd.quantize_per_tensor(x, scale, zp, qmin, qmax, dtype),
                                  scale, zp, qmin, qmax, dtype)
    args = [env[a] if isinstance(a, torch.fx.Node) else a for a in node.args[1:]]
    return node.target(xq, *args)


def quantized_ops(graph, kernels_path: str = None) -> list:
    """Distinct op targets in ``graph`` that are quantized: named quantization ops, or ops
    reading or producing an int8/uint8/float8 tensor (torchao's weight-only schemes
    export as an int8 weight cast to float and a matmul). Adds quantized library calls named in
    ``kernels.json`` (e.g. onednn qlinear after freezing)."""
    found = set()
    for n in graph.nodes:
        if n.op != "call_function":
            continue
        target = str(n.target)
        if target.startswith("aten._assert") or "access_subclass" in target or _STRUCTURAL.search(target):
            continue
        tensors = [v.meta.get("val") for v in [n] + list(n.all_input_nodes)]
        dtypes = {t.dtype for t in tensors if isinstance(t, torch.Tensor)}
        if _QNAME.search(target) or dtypes & _QDTYPES:
            found.add(target)
    if kernels_path and os.path.isfile(kernels_path):
        try:
            with open(kernels_path, encoding="utf-8") as fh:
                data = json.load(fh)
            for k in data.get("kernels", []):
                name = str(k.get("name", ""))
                if k.get("kind") != "cpp" and _QNAME.search(name):
                    found.add(name)
        except (OSError, ValueError):
            pass
    return sorted(found)
