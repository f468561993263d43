# SPDX-License-Identifier: GPL-3.0-or-later
"""Serialise a torch.fx graph into AOT Studio's graph snapshot schema (core/graph/SCHEMA.md).

One schema for every stage (export, decompositions, pre-grad and post-grad passes), so that core's
diff and the views need to know only one shape. Pure data: no torch objects leak out.
"""

import re

import torch

from .files import write_json_atomic

SCHEMA_VERSION = 1

_FRAME_RE = re.compile(r'File "([^"]+)", line (\d+), in (\S+)')


def _target_name(node) -> str:
    t = node.target
    if node.op in ("call_function",):
        if isinstance(t, torch._ops.OpOverload):
            return str(t)  # e.g. aten.addmm.default
        if isinstance(t, torch._ops.OpOverloadPacket):
            return f"aten.{t.__name__}" if "aten" in str(t) else str(t)
        mod = getattr(t, "__module__", "") or ""
        name = getattr(t, "__qualname__", getattr(t, "__name__", str(t)))
        return f"{mod}.{name}" if mod and mod != "builtins" else name
    return str(t)


def _meta_of(value):
    """[(shape, dtype)] for a node's meta['val'] (a FakeTensor, a tuple of them, a SymInt...)."""
    out = []
    if isinstance(value, torch.Tensor):
        out.append({"shape": [int(s) if isinstance(s, int) or str(s).isdigit() else str(s) for s in value.shape],
                    "dtype": str(value.dtype).replace("torch.", "")})
    elif isinstance(value, (list, tuple)):
        for v in value:
            out.extend(_meta_of(v))
    elif isinstance(value, (int, float, bool)):
        out.append({"shape": [], "dtype": type(value).__name__})
    elif value is not None and type(value).__name__.startswith("Sym"):
        out.append({"shape": [], "dtype": "sym", "expr": str(value)})
    return out


def _input_names(node) -> list:
    names = []

    def visit(a):
        if isinstance(a, torch.fx.Node):
            names.append(a.name)
        elif isinstance(a, (list, tuple)):
            for x in a:
                visit(x)
        elif isinstance(a, dict):
            for x in a.values():
                visit(x)

    visit(node.args)
    visit(node.kwargs)
    return names


def _module_path(node):
    stack = node.meta.get("nn_module_stack")
    if not stack:
        return [], ""
    entries = []
    for key, value in stack.items():
        path, cls = (value if isinstance(value, tuple) else (str(value), ""))[:2]
        cls_name = cls.__name__ if isinstance(cls, type) else str(cls).rsplit(".", 1)[-1]
        entries.append({"path": str(path), "type": cls_name})
    return entries, entries[-1]["path"] if entries else ""


def _source_line(node, skip=("/torch/", "/site-packages/", "aotstudio_frontend")):
    """The innermost frame of the user's code in node.meta['stack_trace']: {file, line, function, code}."""
    trace = node.meta.get("stack_trace")
    if not trace:
        return None
    lines = trace.rstrip().splitlines()
    best = None
    for i, line in enumerate(lines):
        m = _FRAME_RE.search(line)
        if not m:
            continue
        frame = {"file": m.group(1), "line": int(m.group(2)), "function": m.group(3),
                 "code": lines[i + 1].strip() if i + 1 < len(lines) else ""}
        if best is None or not any(s in frame["file"] for s in skip):
            best = frame
    return best


def _provenance(node):
    """node.meta['from_node'] (Inductor provenance level 1 / torch.fx.traceback.NodeSource) as a
    list of {pass, action, node, graph_id, origins} (origins recursive, depth-limited)."""
    sources = node.meta.get("from_node") or []

    def one(src, depth):
        actions = getattr(src, "action", None) or []
        if not isinstance(actions, (list, tuple)):
            actions = [actions]
        entry = {
            "pass": getattr(src, "pass_name", ""),
            "action": [getattr(a, "name", str(a)).lower() for a in actions],
            "node": getattr(src, "name", "") or "",
        }
        gid = getattr(src, "graph_id", None)
        if gid is not None:
            entry["graph_id"] = gid
        if depth < 4:
            origins = [one(o, depth + 1) for o in (getattr(src, "from_node", None) or [])]
            if origins:
                entry["origins"] = origins
        return entry

    try:
        return [one(s, 0) for s in sources]
    except Exception:  # provenance is debug data: never fail a compile over it
        return []


def op_category(node, target: str) -> str:
    """Coarse category used for colouring and counting: input, output, param, matmul, conv,
    pointwise, reduction, view, other."""
    if node.op == "placeholder":
        return "input"
    if node.op == "output":
        return "output"
    if node.op == "get_attr":
        return "param"
    low = target.lower()
    if any(k in low for k in ("mm", "matmul", "linear", "bmm", "baddbmm", "addmm", "scaled_dot_product")):
        return "matmul"
    if "conv" in low:
        return "conv"
    if any(k in low for k in ("sum", "mean", "amax", "amin", "max", "min", "softmax", "norm", "var", "argmax")):
        return "reduction"
    if any(k in low for k in ("view", "reshape", "permute", "transpose", "expand", "squeeze", "unsqueeze",
                              "slice", "select", "cat", "split", "clone", "t.default", "contiguous", "as_strided")):
        return "view"
    if isinstance(node.target, torch._ops.OpOverload) and torch.Tag.pointwise in node.target.tags:
        return "pointwise"
    return "other"


def graph_to_json(graph: torch.fx.Graph, stage: str, pass_name: str = "", graph_name: str = "") -> dict:
    """The snapshot dict of ``graph`` for ``stage`` (and ``pass_name`` for a pass snapshot)."""
    nodes = []
    for index, node in enumerate(graph.nodes):
        target = _target_name(node)
        stack, module = _module_path(node)
        entry = {
            "id": node.name,
            "index": index,
            "op": node.op,
            "target": target,
            "category": op_category(node, target),
            "inputs": _input_names(node),
            "outputs": _meta_of(node.meta.get("val", node.meta.get("example_value"))),
            "module": module,
            "module_stack": stack,
        }
        if isinstance(node.target, torch._ops.OpOverload):
            entry["core_aten"] = torch.Tag.core in node.target.tags
        src = _source_line(node)
        if src:
            entry["source"] = src
        prov = _provenance(node)
        if prov:
            entry["provenance"] = prov
        nodes.append(entry)
    return {"schema": "aotstudio.graph", "version": SCHEMA_VERSION, "stage": stage, "pass": pass_name,
            "graph": graph_name, "node_count": len(nodes), "nodes": nodes}


def signature(graph: torch.fx.Graph) -> tuple:
    """A cheap structural fingerprint (node names, targets and inputs in order) to tell whether a
    pass changed the graph."""
    return tuple((n.name, str(n.target), tuple(a.name for a in n.all_input_nodes)) for n in graph.nodes)


def write_snapshot(snapshot: dict, path: str) -> None:
    """Write a snapshot atomically (files.write_json_atomic), compact."""
    write_json_atomic(path, snapshot, separators=(",", ":"))
