# SPDX-License-Identifier: GPL-3.0-or-later
"""Generated kernels from Inductor's debug trace, joined with its provenance node mappings.

Inputs (written by Inductor with ``trace.enabled`` and ``trace.provenance_tracking_level=1`` into
``<trace.debug_dir>/torchinductor/<graph>/``): ``output_code.cpp`` / ``output_code.py`` (kernel
sources), ``inductor_provenance_tracking_node_mappings.json`` (keys ``preToPost``, ``postToPre``,
``cppCodeToPost``/``postToCppCode`` for AOTI's C++ wrapper, ``pyCodeToPost`` for a Python wrapper),
``ir_pre_fusion.txt`` and ``ir_post_fusion.txt`` (scheduler nodes before and after fusion).
"""

import glob
import json
import os
import re

_CPP_KERNEL_RE = re.compile(r'^extern "C"\s+(?:void|[\w:<>]+)\s+(\w+)\s*\(', re.M)
_TRITON_KERNEL_RE = re.compile(r"^def (triton_\w+)\s*\(", re.M)
_SCHED_NODE_RE = re.compile(r"^op\d+: ", re.M)


def find_trace_dir(debug_root: str) -> str | None:
    """The newest Inductor trace folder under ``debug_root``, or None (a cache hit writes none)."""
    dirs = [d for d in glob.glob(os.path.join(debug_root, "torchinductor", "*")) if os.path.isdir(d)]
    dirs = [d for d in dirs if os.path.exists(os.path.join(d, "output_code.cpp"))
            or os.path.exists(os.path.join(d, "output_code.py"))] or dirs
    return max(dirs, key=os.path.getmtime) if dirs else None


def _brace_block(text: str, start: int) -> str | None:
    """From ``start`` (a function signature) to the matching closing brace, or None when the
    signature ends in ``;`` (a declaration, not a definition)."""
    paren = text.find("(", start)
    depth = 0
    i = paren
    while 0 <= i < len(text):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                break
        i += 1
    rest = text[i + 1:].lstrip()
    if not rest.startswith("{"):
        return None
    open_at = i + 1 + (len(text) - i - 1 - len(rest))
    depth = 0
    for i in range(open_at, len(text)):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
    return text[start:]


def _python_def_block(text: str, start: int) -> str:
    """A Triton ``def`` with its decorators, up to the next top-level statement."""
    deco = text.rfind("\n@triton", 0, start)
    begin = deco + 1 if deco >= 0 and "\n\n" not in text[deco:start].strip("\n") else start
    m = re.compile(r"^\S", re.M).search(text, text.find("\n", start) + 1)
    end = m.start() if m else len(text)
    return text[begin:end].rstrip()


def kernel_sources(trace_dir: str) -> dict:
    """name -> source text of every generated C++ and Triton kernel in the trace folder."""
    sources = {}
    for path in (os.path.join(trace_dir, "output_code.cpp"), os.path.join(trace_dir, "output_code.py")):
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for m in _CPP_KERNEL_RE.finditer(text):
            block = _brace_block(text, m.start())
            if block is not None and m.group(1) not in sources:
                sources[m.group(1)] = block
        for m in _TRITON_KERNEL_RE.finditer(text):
            sources.setdefault(m.group(1), _python_def_block(text, m.start()))
        # Triton kernels embedded as string literals in a Python wrapper: async_compile.triton('name', '''...''')
        for m in re.finditer(r"async_compile\.triton\('(\w+)',\s*'''(.*?)'''", text, re.S):
            sources.setdefault(m.group(1), m.group(2).strip())
    return sources


def kernel_kind(name: str) -> str:
    """triton | cpp | library (a call into ATen/oneDNN/MKL/cuBLAS through the AOTI C shim)."""
    if name.startswith("triton_"):
        return "triton"
    if name.startswith("cpp_") or name.startswith("cpp_fused"):
        return "cpp"
    return "library"


def library_op(name: str) -> str:
    """``aoti_torch_cpu_addmm_out`` -> ``addmm_out``; ``extern_kernels.mm`` -> ``mm``."""
    for prefix in ("aoti_torch_cpu_", "aoti_torch_cuda_", "aoti_torch_", "extern_kernels."):
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def build_kernel_list(trace_dir: str, device: str) -> dict:
    """The kernel list (see core/graph/SCHEMA.md, "Kernels") from one trace folder."""
    mapping_path = os.path.join(trace_dir, "inductor_provenance_tracking_node_mappings.json")
    mappings = {}
    if os.path.exists(mapping_path):
        with open(mapping_path, encoding="utf-8") as f:
            mappings = json.load(f)
    post_to_pre = mappings.get("postToPre", {})
    code_to_post = {}
    for key in ("cppCodeToPost", "pyCodeToPost"):
        code_to_post.update(mappings.get(key, {}))
    sources = kernel_sources(trace_dir)

    kernels = []
    seen_names = set()
    for key, post_nodes in code_to_post.items():
        name, _, handle = key.partition(":")
        kind = kernel_kind(name)
        pre = sorted({p for n in post_nodes for p in post_to_pre.get(n, [])})
        entry = {"id": key, "name": name, "kind": kind, "debug_handle": int(handle) if handle.isdigit() else None,
                 "post_grad_nodes": sorted(post_nodes), "pre_grad_nodes": pre, "launch": None,
                 "source": sources.get(name, "")}
        if kind == "library":
            entry["library_op"] = library_op(name)
            entry["library"] = ("cuBLAS/cuDNN via ATen" if device == "cuda" else "oneDNN/MKL via ATen")
        kernels.append(entry)
        seen_names.add(name)
    # Kernels with source but no mapping (provenance incomplete): still listed, with no nodes.
    for name, src in sources.items():
        if name not in seen_names:
            kernels.append({"id": name, "name": name, "kind": kernel_kind(name), "debug_handle": None,
                            "post_grad_nodes": [], "pre_grad_nodes": [], "launch": None, "source": src})
    kernels.sort(key=lambda k: (k["debug_handle"] is None, k["debug_handle"] or 0, k["name"]))

    def count_sched(fname):
        p = os.path.join(trace_dir, fname)
        if not os.path.exists(p):
            return None
        with open(p, encoding="utf-8", errors="replace") as f:
            return len(_SCHED_NODE_RE.findall(f.read()))

    return {"schema": "aotstudio.kernels", "version": 1, "device": device, "trace_dir": trace_dir,
            "scheduler_nodes_pre_fusion": count_sched("ir_pre_fusion.txt"),
            "scheduler_nodes_post_fusion": count_sched("ir_post_fusion.txt"),
            "pre_to_post": mappings.get("preToPost", {}), "kernels": kernels}
