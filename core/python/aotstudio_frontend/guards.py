# SPDX-License-Identifier: GPL-3.0-or-later
"""What an exported program accepts (FORMAT.md, "guards"): every input's dimensions (static sizes,
or an expression of shape symbols with the symbol's range), the relations between dimensions
(derived dims, dims shared across inputs), the shape guards torch recorded while tracing and the
runtime assertions in the graph, each with the user's source line where torch kept it.

The C++ side (core/bundle/guards.h) checks a call's input shapes against this before the package
runs. Expressions it can evaluate are written as small JSON trees (``expr``): an integer, a symbol
name, or ``[op, operand, ...]`` with ``op`` one of ``+ * // % == != < <= > >= and or not max min``
(``//`` and ``%`` by a non-zero constant, Python's floor semantics). Anything else is kept as text
with ``"checkable": false``.

Also here: the dynamic dimensions a request asks for (``--dynamic`` and a factory's
``dynamic_shapes``), the example resize that keeps torch.export from specialising a size of 0 or 1,
the check that every requested dimension came out dynamic, and torch's "Constraints violated" text
made into one line with its suggested fixes.
"""

import inspect
import os
import re

import sympy
import torch

from .errors import LIBRARY_PATHS as _LIBRARY_PATHS  # one list of the frames that are not the user's
from .files import write_json_atomic

FORMAT = "aotstudio.guards"
VERSION = 2  # 2: inputs[i].strides and .layout
SIDECAR = "model.guards.json"

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


# -- expressions --------------------------------------------------------------------------------

class Unsupported(Exception):
    """An expression outside the subset the C++ checker evaluates."""


def _bound(value):
    """A range end as JSON: an int, or None for +-infinity (torch's int_oo)."""
    from torch.utils._sympy.numbers import int_oo
    if value is None or isinstance(value, bool):
        return None
    try:
        if value in (sympy.oo, -sympy.oo, int_oo, -int_oo) or getattr(value, "is_finite", True) is False:
            return None
        return int(value)
    except (TypeError, ValueError, OverflowError, AttributeError):
        return None


def to_tree(expr, symbols: set):
    """``expr`` (sympy) as the checker's JSON tree; raises Unsupported."""
    from torch.utils._sympy import functions as F
    if expr is sympy.true or expr == sympy.true:
        return 1
    if expr is sympy.false or expr == sympy.false:
        return 0
    if isinstance(expr, sympy.Integer) or (getattr(expr, "is_Integer", False)):
        return int(expr)
    if isinstance(expr, sympy.Symbol):
        if expr.name not in symbols:
            raise Unsupported(f"symbol {expr.name} is not an input size")
        return expr.name
    ops = {sympy.Eq: "==", sympy.Ne: "!=", sympy.Lt: "<", sympy.Le: "<=", sympy.Gt: ">", sympy.Ge: ">="}
    for cls, op in ops.items():
        if isinstance(expr, cls):
            return [op, to_tree(expr.lhs, symbols), to_tree(expr.rhs, symbols)]
    if isinstance(expr, sympy.Add):
        return ["+"] + [to_tree(a, symbols) for a in expr.args]
    if isinstance(expr, sympy.Mul):
        if any(isinstance(a, sympy.Rational) and not isinstance(a, sympy.Integer) for a in expr.args):
            raise Unsupported("a fraction")
        return ["*"] + [to_tree(a, symbols) for a in expr.args]
    if isinstance(expr, sympy.Pow):  # s**2 in a stride: a product the checker evaluates
        base, exp = expr.args
        if not (isinstance(exp, sympy.Integer) and 1 <= int(exp) <= 8):
            raise Unsupported("a power that is not a small whole number")
        return ["*"] + [to_tree(base, symbols)] * int(exp)
    if isinstance(expr, (F.FloorDiv, F.Mod, F.PythonMod, sympy.Mod)):
        divisor = expr.args[1]
        if not (isinstance(divisor, sympy.Integer) and int(divisor) != 0):
            raise Unsupported("a divisor that is not a non-zero constant")
        op = "//" if isinstance(expr, F.FloorDiv) else "%"
        return [op, to_tree(expr.args[0], symbols), int(divisor)]
    if isinstance(expr, sympy.And):
        return ["and"] + [to_tree(a, symbols) for a in expr.args]
    if isinstance(expr, sympy.Or):
        return ["or"] + [to_tree(a, symbols) for a in expr.args]
    if isinstance(expr, sympy.Not):
        return ["not", to_tree(expr.args[0], symbols)]
    if isinstance(expr, (F.Max, sympy.Max)):
        return ["max"] + [to_tree(a, symbols) for a in expr.args]
    if isinstance(expr, (F.Min, sympy.Min)):
        return ["min"] + [to_tree(a, symbols) for a in expr.args]
    raise Unsupported(f"{type(expr).__name__}")


def evaluate_tree(tree, values: dict) -> int:
    """A checker tree's value for symbol ``values`` (core/bundle/guards.cpp evaluate(): Python's
    floor division and modulo, comparisons and booleans as 0/1). Raises KeyError for a symbol
    without a value, ZeroDivisionError never for a tree the C++ side accepts."""
    if isinstance(tree, bool):
        return int(tree)
    if isinstance(tree, int):
        return tree
    if isinstance(tree, str):
        return values[tree]
    op, args = tree[0], [evaluate_tree(a, values) for a in tree[1:]]
    if op == "+":
        return sum(args)
    if op == "*":
        r = 1
        for a in args:
            r *= a
        return r
    binary = {"//": lambda a, b: a // b, "%": lambda a, b: a % b, "==": lambda a, b: int(a == b),
              "!=": lambda a, b: int(a != b), "<": lambda a, b: int(a < b), "<=": lambda a, b: int(a <= b),
              ">": lambda a, b: int(a > b), ">=": lambda a, b: int(a >= b)}
    if op in binary:
        return binary[op](*args)
    if op == "and":
        return int(all(args))
    if op == "or":
        return int(any(args))
    if op == "not":
        return int(not args[0])
    if op == "max":
        return max(args)
    if op == "min":
        return min(args)
    raise ValueError(f"unknown operator {op!r}")


def tree_symbols(tree) -> set:
    """The symbol ids a checker tree reads."""
    if isinstance(tree, str):
        return {tree}
    if isinstance(tree, list):
        return set().union(*(tree_symbols(a) for a in tree[1:])) if len(tree) > 1 else set()
    return set()


_PRECEDENCE = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
               "+": 5, "*": 6, "//": 6, "%": 6}


def tree_text(tree, labels: dict, outer: int = 0) -> str:
    """A checker tree as Python-like text, symbols shown by ``labels`` ("x.shape[0]")."""
    if isinstance(tree, bool):
        return str(tree)
    if isinstance(tree, int):
        return str(tree)
    if isinstance(tree, str):
        return labels.get(tree, tree)
    op, args = tree[0], tree[1:]
    if op in ("max", "min"):
        return f"{op}({', '.join(tree_text(a, labels) for a in args)})"
    prec = _PRECEDENCE.get(op, 7)
    if op == "not":
        text = "not " + tree_text(args[0], labels, prec)
    elif op == "+":
        text = ""
        for a in args:
            part = tree_text(a, labels, prec)
            text += part if not text else (f" - {part[1:]}" if part.startswith("-") else f" + {part}")
    else:
        # A right operand of the same precedence keeps its brackets unless the operator is
        # associative and the same (a * b * c); "2 * (s // 2)" must not print as "2 * s // 2",
        # which Python reads as (2 * s) // 2 == s.
        def part(i, a):
            inner = _PRECEDENCE.get(a[0], 7) if isinstance(a, list) and a else 7
            # a * (b * c) may drop its brackets only when nothing inside it binds as loosely
            # (a * (b // 2 * c) must keep them)
            flat = isinstance(a, list) and op == a[0] and op in ("+", "*") and all(
                _PRECEDENCE.get(x[0], 7) > prec for x in a[1:] if isinstance(x, list) and x and x[0] not in ("max", "min"))
            tight = i > 0 and inner == prec and not flat
            return tree_text(a, labels, prec + 1 if tight else prec)
        text = f" {op} ".join(part(i, a) for i, a in enumerate(args))
        if op == "*" and len(args) == 2 and args[0] == -1:
            text = "-" + tree_text(args[1], labels, prec)
    return f"({text})" if prec < outer or (prec == outer and prec == 4) else text


def _affine(expr):
    """(symbol, coeff, offset) when ``expr`` is coeff*symbol + offset with integers, coeff != 0."""
    free = expr.free_symbols
    if len(free) != 1:
        return None
    (s,) = free
    try:
        poly = sympy.Poly(expr, s)
    except (sympy.PolynomialError, sympy.GeneratorsNeeded):
        return None
    if poly.degree() != 1:
        return None
    coeff, offset = poly.all_coeffs()
    if not (coeff.is_Integer and offset.is_Integer) or int(coeff) == 0:
        return None
    return s, int(coeff), int(offset)


def _source_line(stack_trace: str):
    """``file:line (code)`` of the innermost user frame of an FX node's stack trace."""
    if not stack_trace:
        return None
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)\n\s*(.*)', stack_trace)
    for path, line, _func, code in reversed(frames):
        if not any(p in path for p in _LIBRARY_PATHS):
            return f"{path}:{line}" + (f" ({code.strip()})" if code.strip() else "")
    return None


def _sloc(sloc):
    """A ShapeGuard's location when it is the user's code (torch keeps the framework frame too)."""
    if sloc is None:
        return None
    user = getattr(sloc, "maybe_user_loc", None)
    if user:
        return str(user)
    frame = getattr(sloc, "framework_loc", None)
    if frame is not None and hasattr(frame, "filename"):
        if not any(p in frame.filename for p in _LIBRARY_PATHS):
            return f"{frame.filename}:{frame.lineno}"
    return None


def _framework(sloc):
    frame = getattr(sloc, "framework_loc", None) if sloc is not None else None
    if frame is not None and hasattr(frame, "filename"):
        return f"{frame.filename.split('/site-packages/')[-1]}:{frame.lineno}"
    return None


# -- collecting ---------------------------------------------------------------------------------

def _expr(value):
    """A size or stride (int or SymInt) as a sympy expression."""
    return value.node.expr if isinstance(value, torch.SymInt) else sympy.Integer(int(value))


def _layout(sizes: list, strides: list) -> str:
    """'contiguous', 'channels_last', 'channels_last_3d' or 'strided', from sympy sizes and strides
    (decided symbolically: asking a fake tensor's is_contiguous() would add guards)."""
    def dense(order):  # innermost first
        want, step = {}, sympy.Integer(1)
        for d in order:
            want[d] = step
            step = step * sizes[d]
        return all(sizes[d] == 1 or sympy.expand(strides[d] - want[d]) == 0 for d in order)
    rank = len(sizes)
    if dense(list(range(rank - 1, -1, -1))):
        return "contiguous"
    if rank == 4 and dense([1, 3, 2, 0]):
        return "channels_last"
    if rank == 5 and dense([1, 4, 3, 2, 0]):
        return "channels_last_3d"
    return "strided"


def _strides(val, symbols: dict) -> dict:
    """``{"strides": [...], "layout": ...}`` of one exported input (FORMAT.md "guards", version 2):
    an int per static stride, ``{"expr", "text", "checkable"}`` per symbolic one. AOTInductor
    indexes the input with exactly these strides (the compiled code has them built in), so the
    runner checks every call's strides against them."""
    sizes = [_expr(v) for v in val.shape]
    exprs = [_expr(v) for v in val.stride()]
    out = []
    for e in exprs:
        if e.is_number:
            out.append(int(e))
            continue
        item = {"text": str(e), "checkable": False}
        try:
            item["expr"] = to_tree(e, set(symbols))
            item["checkable"] = True
        except Unsupported as why:
            item["why_not"] = str(why)
        out.append(item)
    return {"strides": out, "layout": _layout(sizes, exprs)}


def _user_placeholders(program):
    from torch.export.graph_signature import InputKind
    names = [s.arg.name for s in program.graph_signature.input_specs
             if s.kind == InputKind.USER_INPUT and hasattr(s.arg, "name")]
    nodes = {n.name: n for n in program.graph.nodes if n.op == "placeholder"}
    return [nodes[n] for n in names if n in nodes]


def _shape_env(program):
    try:
        from torch.export.exported_program import _get_shape_env
        return _get_shape_env(program.graph_module)
    except Exception:
        return None


def collect(program, dim_names: dict = None, input_names: list = None) -> dict:
    """The guards of ``program`` (an ExportedProgram) as FORMAT.md "guards" describes them.
    ``dim_names`` maps (input, dim) to the user's name of that dimension (``--dynamic ...=batch``,
    a factory's Dim), used for symbols and messages. ``input_names`` (one per user input: the
    front end's display names such as ``cfg.scale``) replace the placeholders' names."""
    dim_names = dim_names or {}
    placeholders = _user_placeholders(program)
    display = input_names if input_names and len(input_names) == len(placeholders) else \
        [n.name for n in placeholders]
    ranges = {}
    for sym, vr in program.range_constraints.items():
        ranges[sym] = vr
    inputs, symbols, seen, exprs = [], {}, {}, {}
    order = []
    for index, node in enumerate(placeholders):
        val = node.meta.get("val")
        if not isinstance(val, torch.Tensor):
            inputs.append({"index": index, "name": display[index], "kind": "constant"})
            continue
        dims = []
        for d, size in enumerate(val.shape):
            expr = size.node.expr if isinstance(size, torch.SymInt) else sympy.Integer(int(size))
            if expr.is_number:
                dims.append({"dim": d, "size": int(expr)})
                continue
            entry = {"dim": d, "text": ""}
            exprs[(index, d)] = expr
            for s in sorted(expr.free_symbols, key=lambda s: s.name):
                if s.name not in symbols:
                    vr = ranges.get(s)
                    symbols[s.name] = {"symbol": s.name, "name": None,
                                       "min": _bound(vr.lower) if vr is not None else 0,
                                       "max": _bound(vr.upper) if vr is not None else None}
                    order.append(s.name)
            affine = _affine(expr)
            if affine is not None:
                s, coeff, offset = affine
                entry.update({"symbol": s.name, "coeff": coeff, "offset": offset})
                if coeff == 1 and offset == 0:
                    seen.setdefault(s.name, (index, display[index], d))
                if (index, d) in dim_names and symbols[s.name]["name"] is None:
                    symbols[s.name]["name"] = dim_names[(index, d)]  # a derived Dim's root name
            try:
                entry["expr"] = to_tree(expr, set(symbols))
                entry["checkable"] = True
            except Unsupported:
                entry["checkable"] = False
            vr = ranges.get(expr)
            if vr is not None:
                entry["min"], entry["max"] = _bound(vr.lower), _bound(vr.upper)
            dims.append(entry)
        inputs.append({"index": index, "name": display[index], "dtype": str(val.dtype).replace("torch.", ""),
                       "rank": len(val.shape), "dims": dims, **_strides(val, symbols)})

    # Human names: "x.shape[0]" for a symbol that is some input's whole dimension.
    def label(sym_name):
        if sym_name in seen:
            _i, name, d = seen[sym_name]
            return f"{name}.shape[{d}]"
        return symbols[sym_name]["name"] or sym_name
    for name, info in symbols.items():
        info["label"] = label(name)
        info["name"] = info["name"] or None

    labels = {name: label(name) for name in symbols}

    def text(expr):
        try:
            return tree_text(to_tree(expr, set(symbols)), labels)
        except Unsupported:
            return str(expr.xreplace({s: sympy.Symbol(labels[s.name]) for s in expr.free_symbols if s.name in labels}))

    for entry in inputs:
        for d in entry.get("dims", []):
            if "text" in d:
                own = f"{entry['name']}.shape[{d['dim']}]"
                plain = d.get("coeff") == 1 and d.get("offset") == 0
                d["text"] = own if plain else f"{own} == {text(exprs[(entry['index'], d['dim'])])}"

    # Relations: a symbol that sizes several dimensions ties them; a derived dim is coeff*s + offset.
    relations = []
    uses = {}
    for entry in inputs:
        for d in entry.get("dims", []):
            if "symbol" in d:
                uses.setdefault(d["symbol"], []).append((entry, d))
    for sym, places in uses.items():
        if len(places) > 1:
            relations.append({"kind": "equal" if all(d["coeff"] == 1 and d["offset"] == 0 for _e, d in places)
                              else "related", "symbol": sym,
                              "dims": [{"input": e["index"], "dim": d["dim"]} for e, d in places],
                              "text": " == ".join(f"{e['name']}.shape[{d['dim']}]" for e, d in places
                                                  if d["coeff"] == 1 and d["offset"] == 0) or sym,
                              "checkable": True})
        for e, d in places:
            if not (d["coeff"] == 1 and d["offset"] == 0):
                relations.append({"kind": "derived", "symbol": sym, "input": e["index"], "dim": d["dim"],
                                  "coeff": d["coeff"], "offset": d["offset"], "text": d["text"], "checkable": True})
    for entry in inputs:
        for d in entry.get("dims", []):
            if "text" in d and "symbol" not in d:
                relations.append({"kind": "expression", "input": entry["index"], "dim": d["dim"], "text": d["text"],
                                  "checkable": d["checkable"]})

    # Shape guards torch recorded while tracing (those over input sizes only).
    checks = []
    env = _shape_env(program)
    names = set(symbols)
    if env is not None:
        done = set()
        for guard in getattr(env, "guards", []):
            expr = guard.expr
            try:
                expr = env.replace(expr)
            except Exception:
                pass
            if expr in (sympy.true, True) or not expr.free_symbols or not {s.name for s in expr.free_symbols} <= names:
                continue
            key = str(expr)
            if key in done:
                continue
            done.add(key)
            item = {"text": text(expr), "source": _sloc(guard.sloc), "origin": _framework(guard.sloc)}
            try:
                item["expr"] = to_tree(expr, names)
                item["checkable"] = True
            except Unsupported as why:
                item["checkable"] = False
                item["why_not"] = str(why)
            checks.append(item)

    # Runtime assertions in the graph (data-dependent ones are the package's own business).
    assertions = []
    targets = {torch.ops.aten._assert_scalar.default: "assert",
               torch.ops.aten.sym_constrain_range.default: "constrain_range",
               torch.ops.aten.sym_constrain_range_for_size.default: "constrain_range_for_size"}
    for node in program.graph.nodes:
        if node.op != "call_function" or node.target not in targets:
            continue
        item = {"kind": targets[node.target], "source": _source_line(node.meta.get("stack_trace", "")),
                "checkable": False}
        arg = node.args[0] if node.args else None
        val = arg.meta.get("val") if isinstance(arg, torch.fx.Node) else arg
        expr = getattr(getattr(val, "node", None), "expr", None)
        if item["kind"] == "assert":
            item["message"] = str(node.args[1]) if len(node.args) > 1 else ""
        else:
            lo, hi = node.kwargs.get("min"), node.kwargs.get("max")
            item["min"], item["max"] = lo, hi
            if expr is not None:
                parts = ([sympy.Ge(expr, lo)] if lo is not None else []) + ([sympy.Le(expr, hi)] if hi is not None else [])
                expr = sympy.And(*parts) if parts else None
        if expr is not None:
            item["text"] = text(expr)
            if expr.free_symbols and {s.name for s in expr.free_symbols} <= names:
                try:
                    item["expr"] = to_tree(expr, names)
                    item["checkable"] = True
                except Unsupported:
                    pass
            else:
                item["data_dependent"] = True
        assertions.append(item)

    return {"format": FORMAT, "version": VERSION,
            "dynamic": bool(symbols),
            "inputs": inputs, "symbols": [symbols[s] for s in order],
            "relations": relations, "checks": checks, "assertions": assertions}


def summary(guards: dict) -> str:
    """One line for the log: the dynamic dimensions and their ranges."""
    if not guards or not guards.get("symbols"):
        return "all input dimensions are static"
    parts = []
    for s in guards["symbols"]:
        hi = "inf" if s["max"] is None else s["max"]
        parts.append(f"{s['label']} in {s['min']}..{hi}")
    extra = [c["text"] for c in guards.get("checks", [])]
    return "dynamic: " + ", ".join(parts) + (f"; guards: {'; '.join(extra)}" if extra else "")


def write_sidecar(guards: dict, directory: str) -> str:
    """``directory/model.guards.json``, written under a temporary name and renamed."""
    return write_json_atomic(os.path.join(directory, SIDECAR), guards, indent=1)


# -- what the request asks for ------------------------------------------------------------------

def forward_params(model):
    """(names of the positional parameters of forward, name of *args or None)."""
    try:
        sig = inspect.signature(model.forward)
    except (TypeError, ValueError):
        return [], None
    names, varargs = [], None
    for p in sig.parameters.values():
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            names.append(p.name)
        elif p.kind == p.VAR_POSITIONAL:
            varargs = p.name
    return names, varargs


def per_input(spec, model, count: int):
    """A factory's dynamic_shapes as one entry (dict dim -> spec, or None) per positional input;
    None when its structure is not one this reads (it is then passed to torch unchanged)."""
    if spec is None:
        return [None] * count
    names, varargs = forward_params(model)
    if isinstance(spec, dict):
        flat = []
        for i in range(count):
            if i < len(names):
                flat.append(spec.get(names[i]))
            elif varargs and isinstance(spec.get(varargs), (tuple, list)):
                rest = spec[varargs]
                k = i - len(names)
                flat.append(rest[k] if k < len(rest) else None)
            else:
                flat.append(None)
        spec = flat
    if not isinstance(spec, (tuple, list)):
        return None
    spec = list(spec)
    if varargs and len(spec) == len(names) + 1 and isinstance(spec[-1], (tuple, list)) and count != len(spec):
        spec = spec[:-1] + list(spec[-1])
    if len(spec) != count:
        return None
    out = []
    for entry in spec:
        if entry is None:
            out.append(None)
        elif isinstance(entry, dict):
            out.append(dict(entry))
        elif isinstance(entry, (tuple, list)):
            out.append({d: s for d, s in enumerate(entry) if s is not None})
        else:
            return None
    return out


def for_signature(entries: list, model):
    """Per-input entries shaped for forward's signature: ``forward(self, x, *args)`` takes
    ``(spec_x, (spec_args0, ...))``."""
    names, varargs = forward_params(model)
    if varargs and len(entries) >= len(names):
        return tuple(entries[:len(names)]) + (tuple(entries[len(names):]),)
    return tuple(entries)


def is_dynamic_spec(s) -> bool:
    from torch.export.dynamic_shapes import _DimHint, _Dim, _DimHintType
    if isinstance(s, _DimHint):
        return s.type in (_DimHintType.AUTO, _DimHintType.DYNAMIC)
    return isinstance(s, _Dim) or type(s).__name__ in ("_Dim", "_DerivedDim", "Dim")


def spec_name(s):
    from torch.export.dynamic_shapes import _DimHint
    if isinstance(s, _DimHint):
        return None
    root = getattr(s, "root", None)
    return getattr(root if root is not None else s, "__name__", None)


def example_target(s, size: int):
    """The size to give an example along a requested dynamic dimension of spec ``s``, or None to
    keep ``size``: 0 and 1 are specialised by torch.export, so 2 (within the spec's range)."""
    root = getattr(s, "root", None)
    if root is not None:  # a derived Dim: fn(root); pick the root 2 when the example's root is 0/1
        fn = s.fn
        try:
            if size not in (int(fn(0)), int(fn(1))):
                return None
            lo = getattr(root, "min", 0) or 0
            hi = getattr(root, "max", None)
            r = max(2, int(lo))
            if hi is not None and _bound(hi) is not None and r > int(hi):
                return None
            return int(fn(r))
        except Exception:
            return None
    if size >= 2:
        return None
    lo = _bound(getattr(s, "min", None)) if hasattr(s, "min") else None
    hi = _bound(getattr(s, "max", None)) if hasattr(s, "max") else None
    target = max(2, lo or 0)
    if hi is not None and target > hi:
        return None
    return target


def resize_dim(t: torch.Tensor, dim: int, size: int) -> torch.Tensor:
    """``t`` with dimension ``dim`` resized to ``size`` by repeating or truncating along it; keeps
    the memory format (channels-last examples stay channels-last)."""
    n = t.shape[dim]
    if n == size:
        return t
    if n == 0:
        shape = list(t.shape)
        shape[dim] = size
        return torch.zeros(shape, dtype=t.dtype, device=t.device)
    reps = [1] * t.dim()
    reps[dim] = -(-size // n)
    out = t.repeat(*reps).narrow(dim, 0, size)
    fmt = torch.channels_last if t.dim() == 4 and t.is_contiguous(memory_format=torch.channels_last) \
        and not t.is_contiguous() else torch.contiguous_format
    return out.contiguous(memory_format=fmt)


def specialised(program, requested: dict, model) -> list:
    """Requested dynamic dimensions ((input, dim) -> label) that the program has static, each as
    {input, dim, label, size, guard, source}: the guard that pinned it when torch recorded one."""
    placeholders = _user_placeholders(program)
    env = _shape_env(program)
    names, varargs = forward_params(model)
    out = []
    for (index, dim), label in sorted(requested.items()):
        if index >= len(placeholders):
            continue
        val = placeholders[index].meta.get("val")
        if not isinstance(val, torch.Tensor) or dim >= val.dim():
            continue
        size = val.shape[dim]
        expr = size.node.expr if isinstance(size, torch.SymInt) else sympy.Integer(int(size))
        if not expr.is_number:
            continue
        item = {"input": index, "dim": dim, "label": label, "size": int(expr), "guard": None, "source": None,
                "origin": None}
        if env is not None:
            wanted = {f"L['{names[index]}'].size()[{dim}]"} if index < len(names) else set()
            if varargs and index >= len(names):
                wanted.add(f"L['{varargs}'][{index - len(names)}].size()[{dim}]")
            for sym, sources in getattr(env, "var_to_sources", {}).items():
                if not any(getattr(src, "name", "") in wanted or (callable(getattr(src, "name", None))
                                                                  and src.name() in wanted) for src in sources):
                    continue
                for guard in getattr(env, "guards", []):
                    if sym in guard.expr.free_symbols:
                        args = guard.expr.args if isinstance(guard.expr, sympy.Eq) else ()
                        is_pin = len(args) == 2 and sym in args and any(a.is_number for a in args)
                        if item["guard"] is None or is_pin:
                            try:
                                item["guard"] = tree_text(to_tree(guard.expr, {sym.name}), {sym.name: label})
                            except Unsupported:
                                item["guard"] = str(guard.expr)
                            item["source"] = _sloc(guard.sloc)
                            item["origin"] = _framework(guard.sloc)
                            if is_pin:
                                break
        out.append(item)
    return out


def constraint_violation(exc: BaseException):
    """(one-line message, fixes) from torch's "Constraints violated" error, else None."""
    text = str(exc)
    if "Constraints violated" not in text and "conflicts between user-specified ranges" not in text:
        return None
    lines = text.splitlines()
    problems, fixes, in_fixes = [], [], False
    for line in lines:
        s = line.strip()
        if s.startswith("Suggested fixes"):
            in_fixes = True
            continue
        if s.startswith("The error above") or s.startswith("For more information"):
            in_fixes = False
            continue
        if s.startswith("- "):
            problems.append(s[2:].strip())
        elif in_fixes and s:
            fixes.append(s)
    # Keep the problem sentences short: torch's advice on mark_dynamic does not apply here.
    problems = [re.sub(r"\s*If you're using mark_dynamic.*$", "", p) for p in problems]
    problems = [_readable(p) for p in problems]
    head = lines[0].split("! For more information")[0].strip() if lines else "Constraints violated"
    message = head + (": " + "; ".join(problems) if problems else "")
    if fixes:
        message += "; torch suggests: " + "; ".join(fixes)
    return message, fixes


def _readable(text: str) -> str:
    """torch's guard sources as Python: L['x'].size()[0] -> x.shape[0]."""
    text = re.sub(r"L\['(\w+)'\]\[(\d+)\]\.size\(\)\[(\d+)\]", r"\1[\2].shape[\3]", text)
    return re.sub(r"L\['(\w+)'\]\.size\(\)\[(\d+)\]", r"\1.shape[\2]", text)


def cli_fix(fixes: list, dynamic: list, input_names: list = None) -> str:
    """torch's suggested fixes in terms of ``--dynamic`` where they name our generated Dims, with
    inputs named as the user names them (``input_names``, else their indices)."""
    def ref(i):  # as --dynamic takes it
        return input_names[i] if input_names and i < len(input_names) else str(i)

    def label(i):  # in prose
        return input_names[i] if input_names and i < len(input_names) else f"input {i}"
    by_name = {}
    for index, dim, lo, hi, name in dynamic:
        by_name[name or f"input{index}_dim{dim}"] = (index, dim)
    out = []
    for fix in fixes:
        m = re.match(r"^(\w+) = (\w+)$", fix)
        if m and m.group(1) in by_name and m.group(2) in by_name:
            (i1, d1), (i2, d2) = by_name[m.group(1)], by_name[m.group(2)]
            out.append(f"tie the dimensions with one name: --dynamic {ref(i2)}:{d2}=NAME {ref(i1)}:{d1}=NAME")
            continue
        m = re.match(r"^(\w+) = (\d+)$", fix)
        if m and m.group(1) in by_name:
            i, d = by_name[m.group(1)]
            out.append(f"the model fixes dimension {d} of {label(i)} at {m.group(2)} (it must equal a size that is not "
                       f"dynamic, often the same dimension of another input): mark that one dynamic with the same "
                       f"name (--dynamic {ref(i)}:{d}=NAME and --dynamic OTHER:DIM=NAME), or drop {ref(i)}:{d} from "
                       "--dynamic")
            continue
        m = re.match(r"^(\w+) = Dim\('\w+'(?:, min=(\d+))?(?:, max=(\d+))?\)$", fix)
        if m and m.group(1) in by_name:
            i, d = by_name[m.group(1)]
            lo, hi = m.group(2) or "0", m.group(3)
            out.append(f"--dynamic {ref(i)}:{d}:{lo}:{hi}" if hi else f"--dynamic {ref(i)}:{d} with sizes >= {lo}")
            continue
    if any(re.match(r"^\w+ = \d+\*\w+", f) for f in fixes):
        out.append("the size must be a multiple: give the factory dynamic_shapes with a derived Dim "
                   "(e.g. {0: 2*Dim('n', min=1, max=32)})")
    return "; ".join(out)
