# SPDX-License-Identifier: GPL-3.0-or-later
"""Where does it diverge: node-by-node numerics of eager and compiled against a high-precision
reference (the ``numerics`` job; FORMAT.md "numerics").

Three runs of the exported program's graph on the same inputs, every tensor a node produces kept
by node name (the names of the ``capture`` snapshot):

- **reference**: the graph interpreted op by op (``torch.fx.Interpreter``) with every floating
  parameter, buffer, constant and input cast to float64 (float32 when float64 does not fit the
  budget: verify.FP64_REFERENCE_BUDGET);
- **eager**: the same interpretation in the run's dtype, i.e. the model's ops as eager runs them;
- **compiled**: the graph compiled again by AOTInductor, with the job's options, and with every
  intermediate tensor added to its outputs, then loaded and run once. What Inductor stores at a
  node is what this side sees; exposing the intermediates keeps Inductor from computing across
  them in float32 registers (every exposed value is rounded to the run's dtype and read back), so
  the outputs are also taken from the program compiled as it is (``package``): which side is
  closer to the reference is judged on those, the compile users ship.

Each side's error at a node: ``max_abs`` = max |x - ref|, ``norm_error`` = max_abs / max |ref|
(scale-free, so a node that multiplies by 1000 does not look 1000 times worse), ``max_rel``
(pointwise, |ref| clamped at 1e-12) and the cosine of the flattened tensors (verify.compare).
A node diverges when its norm_error exceeds the tolerance; the first such node in graph order has
only inputs within the tolerance: the error starts there. ``growth`` is a node's norm_error over
the largest of its inputs' (1 where an input carries the error through unchanged).
"""

import math
import os
import shutil

import torch
import torch.fx
import torch.utils._pytree as pytree

from . import verify
from .errors import FrontendError, one_line
from .messages import text

#: Default tolerance on norm_error per run dtype: a few units in the last place of the dtype
#: after a chain of ops (fp32 eps 1.2e-7, bf16 7.8e-3, fp16 9.8e-4).
DEFAULT_TOLERANCE = {"fp32": 1e-4, "bf16": 3e-2, "fp16": 5e-3}
#: Bytes of intermediates (reference, at its dtype) kept at most; past it the job fails with a hint
#: to compile a sub-module instead.
CAPTURE_BUDGET = 4 * 1024 * 1024 * 1024


def _source_line(node: torch.fx.Node) -> str:
    """'file.py:12 in forward: return x.softmax(-1)' from the node's stack trace: the innermost
    frame outside torch's own package (the user's line, not torch/nn/modules/linear.py), else the
    innermost frame; '' without a trace."""
    trace = node.meta.get("stack_trace") or ""
    lines = [ln.strip() for ln in trace.strip().splitlines() if ln.strip()]
    frames = []  # (path, line, function, code)
    for i, ln in enumerate(lines):
        if ln.startswith("File "):
            parts = ln.split('"')
            path = parts[1] if len(parts) > 2 else ""
            line_no, _, fn = ln.split(", line ", 1)[-1].partition(", in ")
            code = lines[i + 1] if i + 1 < len(lines) and not lines[i + 1].startswith("File ") else ""
            frames.append((path, line_no.strip(), fn.strip(), code))
    if not frames:
        return ""
    torch_dir = os.path.dirname(torch.__file__)
    user = [f for f in frames if not os.path.abspath(f[0]).startswith(torch_dir)]
    path, line_no, fn, code = (user or frames)[-1]
    return f"{os.path.basename(path)}:{line_no}" + (f" in {fn}" if fn else "") + (f": {code}" if code else "")


def _module_path(node: torch.fx.Node) -> str:
    stack = node.meta.get("nn_module_stack") or {}
    if not stack:
        return ""
    path = list(stack.values())[-1]
    return path[0] if isinstance(path, tuple) else str(path)


def _node_target(node: torch.fx.Node) -> str:
    t = node.target
    return str(t) if isinstance(t, torch._ops.OpOverload) else getattr(t, "__name__", str(t))


def _error(x: torch.Tensor, ref: torch.Tensor) -> dict:
    """Errors of x against ref (module docstring); integer and bool tensors as the share of
    differing elements in norm_error."""
    if x.shape != ref.shape:
        return {"max_abs": None, "norm_error": math.inf, "max_rel": None, "cosine": None,
                "note": f"shape {list(x.shape)} against the reference's {list(ref.shape)}"}
    if not ref.is_floating_point() and not ref.is_complex():
        differ = float((x.cpu() != ref.cpu()).float().mean()) if x.numel() else 0.0
        return {"max_abs": None, "norm_error": differ, "max_rel": None, "cosine": None, "note": "share of differing values"}
    c = verify.compare(x, ref)
    scale = float(ref.detach().double().abs().max()) if ref.numel() else 0.0
    max_abs = c["max_abs_error"]
    norm = max_abs / max(scale, 1e-12) if max_abs == max_abs else math.nan
    return {"max_abs": max_abs, "norm_error": norm, "max_rel": c["max_rel_error"], "cosine": c["cosine"]}


def _finite(v):
    """JSON has no NaN or infinity: those become strings."""
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if v != v else ("inf" if v > 0 else "-inf")
    return v


def _clean(d):
    return {k: _finite(v) for k, v in d.items()} if d is not None else None


def _exceeds(err, tolerance: float) -> bool:
    if err is None:
        return False
    v = err["norm_error"]
    return v != v or v > tolerance  # NaN diverges


#: Checks export leaves in the graph that a run at another dtype must not make (they assert the
#: example's dtypes and shapes; the reference runs every floating tensor in float64 on purpose).
_CHECK_OPS = tuple(getattr(torch.ops.aten, name).default for name in ("_assert_tensor_metadata", "_assert_scalar")
                   if hasattr(torch.ops.aten, name))


class _Capture(torch.fx.Interpreter):
    """Interprets a graph module and keeps each call_function node's tensor output by name (or, with
    ``on_value``, hands it over instead of keeping it). With ``dtype`` (the reference's), every
    floating dtype an op is asked for (``.to(torch.bfloat16)``, ``full(..., dtype=...)``) becomes
    that dtype, so the whole graph runs at the reference precision."""

    def __init__(self, gm, names, on_value=None, should_stop=None, dtype=None):
        super().__init__(gm, garbage_collect_values=True)
        self.names = names
        self.values = {}
        self.on_value = on_value
        self.should_stop = should_stop
        self.dtype = dtype

    def call_function(self, target, args, kwargs):
        if target in _CHECK_OPS:
            return None
        if self.dtype is not None:
            def widen(a):
                return self.dtype if isinstance(a, torch.dtype) and a.is_floating_point else a
            args = tuple(pytree.tree_map(widen, list(args)))
            kwargs = pytree.tree_map(widen, dict(kwargs))
        return super().call_function(target, args, kwargs)

    def run_node(self, n):
        out = super().run_node(n)
        if n.name in self.names and isinstance(out, torch.Tensor):
            if self.on_value is not None:
                self.on_value(n.name, out)
            else:
                self.values[n.name] = out.detach()
        if self.should_stop is not None:
            self.should_stop()
        return out


class Numerics:
    """The numerics job's state on one CompileJob (loaded and exported). The C++ job
    (core/pipeline/numericsjob.cpp) calls its stages in order: begin, reference, eager, compile,
    compiled, report; each is one progress stage."""

    def __init__(self, job):
        self.job = job
        self.warnings = []
        self.tolerance = None
        self.reference = {}
        self.eager = {}
        self.compiled = {}
        self.nodes = []  # tensor-valued call_function nodes of the captured graph, in graph order
        self.output_nodes = []  # [(output name, node name)]
        self.reference_dtype = None
        self.compile_seconds = None
        self.package = None  # the exposed compile
        self.plain_package = None  # the program compiled as it is
        self.plain_outputs = {}  # output node name -> error of the plain package's output

    # -- stage: begin -----------------------------------------------------------------------------
    def begin(self, tolerance=None) -> dict:
        """Pick the nodes to compare and the reference dtype. ``tolerance`` (norm_error; None for
        DEFAULT_TOLERANCE of the dtype). Returns {nodes, reference_dtype, tolerance}."""
        job = self.job
        if job.program is None:
            raise FrontendError("internal", "numerics", "the program was not exported before numerics", "")
        if tolerance is None:
            tolerance = DEFAULT_TOLERANCE[job.dtype_name]
        if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not math.isfinite(tolerance) \
                or tolerance <= 0:
            raise FrontendError("bad_request", "load", f"numerics tolerance must be a finite number > 0, got {tolerance!r}",
                                "pass a normalized error such as 1e-4 (max |x - reference| / max |reference|)")
        self.tolerance = float(tolerance)
        gm = job.program.graph_module
        for n in gm.graph.nodes:
            val = n.meta.get("val")
            if n.op == "call_function" and isinstance(val, torch.Tensor):
                self.nodes.append(n)
        out_node = next(n for n in gm.graph.nodes if n.op == "output")
        leaves = [a for a in pytree.tree_leaves(out_node.args[0]) if isinstance(a, torch.fx.Node)]
        names = [s.get("name") for s in getattr(job, "output_specs", [])] or []
        for i, leaf in enumerate(leaves):
            self.output_nodes.append((names[i] if i < len(names) and names[i] else f"output {i}", leaf.name))
        params = sum(t.numel() for t in job.program.state_dict.values() if isinstance(t, torch.Tensor))
        self.reference_dtype = torch.float64 if params * 8 <= verify.FP64_REFERENCE_BUDGET else torch.float32
        if self.reference_dtype == job.dtype:
            self.warnings.append("the reference has the run's own precision (float32): the model is too large for a "
                                 "float64 copy, so eager's error is zero by construction and only compiled is judged")
        job.log("info", f"numerics: {len(self.nodes)} tensor nodes; reference in "
                        f"{str(self.reference_dtype).replace('torch.', '')}; tolerance {self.tolerance:g} (norm_error)")
        return {"nodes": len(self.nodes), "reference_dtype": str(self.reference_dtype).replace("torch.", ""),
                "tolerance": self.tolerance}

    def _graph_args(self, dtype) -> list:
        """The lifted graph's flat arguments (parameters, buffers, constants, then user inputs) in
        the graph signature's order; floating tensors cast to ``dtype`` (None: as they are)."""
        ep, job = self.job.program, self.job
        user = list(pytree.tree_leaves(job.inputs))
        consts = dict(ep.constants)
        state = ep.state_dict
        args = []
        u = 0
        for spec in ep.graph_signature.input_specs:
            kind = spec.kind.name
            if kind == "USER_INPUT":
                v = user[u] if u < len(user) else None
                u += 1
            elif kind in ("PARAMETER", "BUFFER"):
                v = state[spec.target] if spec.target in state else consts.get(spec.target)
            elif kind in ("CONSTANT_TENSOR", "CUSTOM_OBJ"):
                v = consts.get(spec.target)
            else:
                v = None
            if isinstance(v, torch.Tensor):
                v = v.detach()
                if dtype is not None and v.is_floating_point():
                    v = v.to(dtype)
            args.append(v)
        return args

    def _interpret(self, dtype, on_value=None) -> None:
        job = self.job
        names = {n.name for n in self.nodes}
        cap = _Capture(job.program.graph_module, names, on_value, lambda: job.check_stop("numerics"), dtype)
        try:
            with torch.inference_mode():
                cap.run(*self._graph_args(dtype))
        except FrontendError:
            raise
        except Exception as exc:
            where = "float64 reference" if dtype is torch.float64 else ("reference" if dtype is not None else "eager")
            raise FrontendError("model_error", "numerics", f"the {where} run of the exported graph raised {one_line(exc)}",
                                "an op may lack a kernel for that dtype; numerics needs every op to run in float64 "
                                "(or float32) too" if dtype is not None else "see the log") from exc
        return cap.values

    # -- stage: reference -------------------------------------------------------------------------
    def run_reference(self) -> dict:
        """Interpret the graph at the reference dtype, keeping every node's output."""
        total = sum(n.meta["val"].numel() for n in self.nodes) * torch.tensor([], dtype=self.reference_dtype).element_size()
        if total > CAPTURE_BUDGET:
            raise FrontendError("bad_request", "numerics",
                                f"the intermediates of '{self.job.spec}' take {total / 2**30:.1f} GiB at "
                                f"{str(self.reference_dtype).replace('torch.', '')}, over the {CAPTURE_BUDGET / 2**30:.0f} GiB "
                                "numerics keeps", "run numerics on a sub-module (--submodule) or a smaller batch (--batch)")
        self.reference = self._interpret(self.reference_dtype)
        return {"captured": len(self.reference)}

    # -- stage: eager -----------------------------------------------------------------------------
    def run_eager(self) -> dict:
        """Interpret the graph in the run's dtype; each node compared at once, nothing kept."""
        def on_value(name, value):
            ref = self.reference.get(name)
            if ref is not None:
                self.eager[name] = _error(value, ref)
        self._interpret(None, on_value)
        return {"compared": len(self.eager)}

    # -- stage: compile ---------------------------------------------------------------------------
    def _compile(self, program, path: str, what: str) -> str:
        job = self.job
        options = {"freezing": job.freezing, "max_autotune": job.max_autotune, "force_disable_caches": not job.allow_cache,
                   **job.inductor}
        try:
            with torch.set_grad_enabled(not job.freezing):
                return torch._inductor.aoti_compile_and_package(program, package_path=path, inductor_configs=options)
        except Exception as exc:
            if job._cancelled_in is not None:
                raise FrontendError("cancelled", "compile", text("cancel.inductor"), "") from exc
            raise FrontendError("compile_failed", "compile", f"AOTInductor failed to compile '{job.spec}' {what}: {one_line(exc)}",
                                "compile the model itself (aotstudio-cli compile) to see whether the plain graph "
                                "compiles") from exc

    def compile(self) -> dict:
        """Compile the program as it is into OUT/numerics/model.pt2 and again with every
        intermediate as an output into OUT/numerics/exposed.pt2, both with the job's Inductor
        options (freezing, max_autotune), no trace. Returns {package, exposed_package, seconds,
        outputs}."""
        import time
        job = self.job
        gm = job.program.module()
        gm._forward_pre_hooks.clear()
        gm._forward_hooks.clear()
        wanted = {n.name for n in self.nodes}
        exposed = [n for n in gm.graph.nodes if n.op == "call_function" and n.name in wanted]
        self._exposed_names = [n.name for n in exposed]
        out_node = next(n for n in gm.graph.nodes if n.op == "output")
        placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
        gm.graph._codegen = torch.fx.graph.CodeGen()  # flat arguments, a flat tuple out
        out_node.args = (tuple(exposed),)
        gm.recompile()
        flat = tuple(pytree.tree_leaves(job.inputs))
        if len(flat) != len(placeholders):
            raise FrontendError("internal", "numerics", f"{len(placeholders)} graph inputs but {len(flat)} example tensors", "")
        work = os.path.join(job.work, "numerics")
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work, exist_ok=True)
        t0 = time.perf_counter()
        self.plain_package = self._compile(job.program, os.path.join(work, "model.pt2"), "as it is")
        job.check_stop("compile")
        try:
            program = torch.export.export(gm, flat, strict=False)
        except Exception as exc:
            raise FrontendError("export_failed", "compile",
                                f"the graph of '{job.spec}' with its intermediates as outputs did not export: {one_line(exc)}",
                                "see the log") from exc
        self.package = self._compile(program, os.path.join(work, "exposed.pt2"), "with its intermediates exposed")
        self.compile_seconds = time.perf_counter() - t0
        job.log("info", f"numerics: compiled as it is and with {len(exposed)} exposed intermediates in "
                        f"{self.compile_seconds:.1f} s")
        return {"package": self.plain_package, "exposed_package": self.package, "seconds": self.compile_seconds,
                "outputs": len(exposed)}

    # -- stage: compiled --------------------------------------------------------------------------
    def _run_package(self, path: str) -> list:
        job = self.job
        try:
            runner = torch._inductor.aoti_load_package(path)
            with torch.inference_mode():
                outs = runner(*pytree.tree_leaves(job.inputs))
        except Exception as exc:
            raise FrontendError("load_failed", "numerics", f"the package {path} did not load or run: {one_line(exc)}",
                                "see the log") from exc
        return list(pytree.tree_leaves(outs))

    def run_compiled(self) -> dict:
        """Load both packages (AOTIModelPackageLoader, the LibTorch loader the runtime uses), run
        each once on the example inputs and compare with the reference: the exposed one per node,
        the plain one on the outputs."""
        for name, value in zip(self._exposed_names, self._run_package(self.package)):
            ref = self.reference.get(name)
            if ref is not None and isinstance(value, torch.Tensor):
                self.compiled[name] = _error(value, ref)
        plain = self._run_package(self.plain_package)
        for (_, node), value in zip(self.output_nodes, plain):
            ref = self.reference.get(node)
            if ref is not None and isinstance(value, torch.Tensor):
                self.plain_outputs[node] = _error(value, ref)
        return {"compared": len(self.compiled), "outputs": len(self.plain_outputs)}

    # -- stage: report ----------------------------------------------------------------------------
    def report(self) -> dict:
        """The numerics result (FORMAT.md "numerics result"), without the C++ side's fields."""
        job = self.job
        nodes = []
        err_by = {"eager": self.eager, "compiled": self.compiled}
        first = {"eager": None, "compiled": None}
        for n in self.nodes:
            inputs = [a.name for a in n.all_input_nodes if a.name in self.reference]
            row = {"name": n.name, "target": _node_target(n), "module": _module_path(n), "source": _source_line(n),
                   "shape": list(n.meta["val"].shape), "dtype": str(n.meta["val"].dtype).replace("torch.", ""),
                   "inputs": inputs}
            for side, errs in err_by.items():
                e = errs.get(n.name)
                row[side] = _clean(e)
                if e is not None:
                    worst_in = max((errs[i]["norm_error"] for i in inputs if i in errs and errs[i]["norm_error"] == errs[i]["norm_error"]),
                                   default=0.0)
                    v = e["norm_error"]
                    row[side]["growth"] = _finite(v / worst_in) if worst_in > 0 and v == v else None
                    row[side]["diverges"] = _exceeds(e, self.tolerance)
                    if first[side] is None and row[side]["diverges"]:
                        first[side] = {"node": n.name, "target": row["target"], "module": row["module"],
                                       "source": row["source"], "norm_error": _finite(v)}
            nodes.append(row)
        outputs = []
        closer_counts = {"compiled": 0, "eager": 0, "tie": 0}
        for name, node in self.output_nodes:
            e, c = self.eager.get(node), self.plain_outputs.get(node)
            closer = None
            if e is not None and c is not None:
                ev, cv = e["norm_error"], c["norm_error"]
                closer = "tie" if ev == cv else ("compiled" if (cv < ev or ev != ev) and cv == cv else "eager")
                closer_counts[closer] += 1
            outputs.append({"name": name, "node": node, "eager": _clean(e), "compiled": _clean(c),
                            "compiled_exposed": _clean(self.compiled.get(node)), "closer": closer})
        verdict = self._verdict(first, outputs, closer_counts)
        return {"nodes": nodes, "outputs": outputs, "first_divergent": first, "tolerance": self.tolerance,
                "reference_dtype": str(self.reference_dtype).replace("torch.", ""), "dtype": job.dtype_name,
                "stage": "capture", "compile_seconds": self.compile_seconds,
                "package": self.plain_package, "exposed_package": self.package, "warnings": self.warnings, "verdict": verdict,
                "method": {"metric": "norm_error = max|x - reference| / max|reference| per node; max_rel pointwise "
                                     "with |reference| clamped at 1e-12; cosine of the flattened tensors",
                           "reference": "the exported graph interpreted op by op with floating tensors cast to the "
                                        "reference dtype",
                           "eager": "the exported graph interpreted op by op in the run's dtype",
                           "compiled": "per node: AOTInductor compile of the graph with every intermediate as an "
                                       "output (each value rounded to the run's dtype where Inductor stores it; exposing "
                                       "them keeps Inductor from carrying float32 across nodes); outputs: the program "
                                       "compiled as it is, with the job's options"}}

    def _verdict(self, first, outputs, closer) -> str:
        ref = str(self.reference_dtype).replace("torch.", "")
        parts = []
        for side in ("compiled", "eager"):
            f = first[side]
            if f is None:
                parts.append(f"{side}: every node within {self.tolerance:g} of the {ref} reference")
            else:
                label = "compiled (intermediates exposed)" if side == "compiled" else side
                parts.append(f"{label} first diverges at {f['node']} ({f['target']}"
                             + (f", {f['source']}" if f['source'] else "") + f"): norm_error {f['norm_error']:.3g}"
                             if isinstance(f['norm_error'], float) else
                             f"{label} first diverges at {f['node']} ({f['target']}): norm_error {f['norm_error']}")
        judged = closer["compiled"] + closer["eager"] + closer["tie"]
        if judged:
            if closer["compiled"] > closer["eager"]:
                parts.append(f"compiled is closer to the {ref} reference than eager on {closer['compiled']} of {judged} outputs")
            elif closer["eager"] > closer["compiled"]:
                parts.append(f"eager is closer to the {ref} reference than compiled on {closer['eager']} of {judged} outputs")
            else:
                parts.append(f"compiled and eager are equally close to the {ref} reference on the outputs")
        return "; ".join(parts)
