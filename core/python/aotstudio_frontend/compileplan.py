# SPDX-License-Identifier: GPL-3.0-or-later
"""Why the compiler did what it did (issue 40 items 1 and 2): the memory plan of the generated code
and the fusion decisions of Inductor's scheduler, recorded while AOTInductor compiles and written
beside the package as ``memory.json`` and ``fusion.json`` (core/protocol/FORMAT.md, "Memory plan"
and "Fusion decisions").

Where the facts come from (torch/_inductor in the pinned torch):

- **Memory.** After the wrapper's memory planning (``PythonWrapperCodegen.run_wrapper_ir_passes``
  in codegen/wrapper.py: ``memory_plan_reuse`` turns ``AllocateLine`` into ``ReuseLine`` and marks
  ``FreeIfNotReusedLine.is_reused``), the scheduler's final node order (``V.graph.scheduler.nodes``:
  one step per kernel or extern call) and Inductor's own lifetime model (memory.py:
  ``get_freeable_input_buf``, ``compute_memory_timeline``, ``peak_memory_from_buf_info_list``, the
  functions ``estimate_peak_memory`` is made of) give every buffer's size, first and last step and
  Inductor's predicted live-bytes curve. That method is the one wrapped, for the length of one
  compile: torch offers no callback after memory planning.
- **Fusion.** Inductor's ``fusion`` log artifact (``torch._logging.getArtifactLogger(..., "fusion")``
  in scheduler.py): each refusal is logged as a ``WhyNoFuse`` object (the two scheduler node names,
  the reason's format string and its arguments), read by a logging handler, never parsed from text.
  Refusals that log nothing (a device backend's ``can_fuse_vertical``/``can_fuse_horizontal``, e.g.
  the C++ backend after a reduction) are seen by wrapping ``Scheduler.can_fuse``: a call that returns
  False with no ``WhyNoFuse`` logged inside it is recorded as a ``backend`` refusal with the two
  nodes' iteration ranges (``node.group``).

Scheduler operations are joined to the post-grad FX nodes they came from (``get_origins()``), the
names graph snapshots and kernels.json use (core/graph/SCHEMA.md); pre-grad nodes through Inductor's
``postToPre`` provenance mapping, kernels through kernels.json's ``post_grad_nodes``.

Anything this torch does not offer leaves a labelled partial result (``complete: false`` and
``partial`` naming what is missing); nothing here may fail a compile.
"""

import logging
import os
import time

from .files import write_json_atomic

MEMORY_FORMAT = "aotstudio.memory"
FUSION_FORMAT = "aotstudio.fusion"
FORMAT_VERSION = 1
#: The raw record of one compile inside the trace folder (kept with it by the compile cache).
RAW_NAME = "aotstudio_plan.json"

_FUSION_LOGGER = "torch._inductor.scheduler.__fusion"

#: Inductor's reason texts (WhyNoFuse format strings, torch/_inductor/scheduler.py and choices.py)
#: -> a short category, by the first entry whose words the reason contains. Texts not listed are
#: ``other``; a refusal that logged nothing is ``backend``.
CATEGORIES = (
    ("intermediate nodes", "intermediate_nodes"),
    ("memory deps did not match", "memory_deps"),
    ("indexing mismatch", "indexing_mismatch"),
    ("no shared data", "no_shared_data"),
    ("score_fusion_memory_threshold", "low_shared_data"),
    ("exceeds max fusion", "max_fusion_size"),
    ("too_many_reads_and_writes", "too_many_buffers"),
    ("peak memory", "peak_memory"),
    ("will create cycle", "ordering"),
    ("must go before", "ordering"),
    ("is extern", "extern"),
    ("is nop", "extern"),
    ("extern or nop", "extern"),
    ("device mismatch", "device"),
    ("strict sum", "strict_sum"),
    ("template", "template"),
    ("prologue", "template"),
    ("epilogue", "template"),
    ("register spilling", "register_spilling"),
    ("foreach", "foreach"),
    ("slowdown", "benchmark"),
    ("benchmark", "benchmark"),
)


def category(reason: str) -> str:
    """The short category of one of Inductor's fusion refusal reasons (see ``CATEGORIES``)."""
    low = reason.lower()
    for words, name in CATEGORIES:
        if words.lower() in low:
            return name
    return "other"


def _origins(op) -> list:
    """Post-grad FX node names an Inductor IR operation or buffer came from (``get_origins()``)."""
    try:
        origins = op.get_origins() if hasattr(op, "get_origins") else getattr(op, "origins", ())
        return sorted({o.name for o in origins})
    except Exception:
        return []


def _hint(expr):
    """An int for a size (a symbolic one at Inductor's optimization hint), else its text."""
    from torch._inductor.virtualized import V
    try:
        return int(expr)
    except TypeError:
        try:
            return int(V.graph.sizevars.optimization_hint(expr, fallback=0))
        except Exception:
            return str(expr)


def _describe_ir(node) -> dict:
    """dtype, device, shape and stride of an IR buffer (ints; symbolic sizes at their hint, with
    ``symbolic`` true), or what of it this node has."""
    out = {"dtype": None, "device": None, "shape": None, "stride": None, "symbolic": False}
    try:
        out["dtype"] = str(node.get_dtype()).replace("torch.", "")
    except Exception:
        pass
    try:
        out["device"] = str(node.get_device())
    except Exception:
        pass
    try:
        size = list(node.get_size())
        out["shape"] = [_hint(s) for s in size]
        out["symbolic"] = any(not str(s).lstrip("-").isdigit() for s in size)
        out["stride"] = [_hint(s) for s in node.get_stride()]
    except Exception:
        pass
    return out


class PlanRecorder:
    """Context manager around one ``aoti_compile_and_package`` call: records the memory plan of
    every graph Inductor generates code for and the scheduler's fusion decisions. ``seconds`` is
    the wall time (s, ``time.perf_counter``) spent in this module's own hooks; Inductor's extra work
    for the debug-level ``fusion`` log is not in it (measured by tools/bench-plan.py)."""

    def __init__(self):
        self.graphs = []  # one record per GraphLowering whose wrapper was planned
        self.refusals = []  # {name1, name2, reason, args_text, source}
        self.candidates = []  # (name1, name2, ops1, ops2, result) of every Scheduler.can_fuse call
        self.op_names = {}  # scheduler node name -> its operation names
        self.problems = []  # what could not be recorded, said in ``partial``
        self.seconds = 0.0
        self._restore = []
        self._why_count = 0
        self._why_cls = None

    # -- installing and removing the hooks ---------------------------------------------------------
    def __enter__(self):
        try:
            from torch._inductor import scheduler as sched_mod
            from torch._inductor.codegen import wrapper as wrapper_mod
        except Exception as exc:  # a torch without these modules: nothing recorded, said so
            self.problems.append(f"Inductor's scheduler or wrapper is not importable in this torch ({exc})")
            return self
        self._why_cls = getattr(sched_mod, "WhyNoFuse", None)
        self._install_fusion_log()
        self._install_can_fuse(sched_mod)
        self._install_wrapper(wrapper_mod)
        return self

    def __exit__(self, *exc):
        for undo in reversed(self._restore):
            try:
                undo()
            except Exception:
                pass
        self._restore = []
        return False

    def _install_fusion_log(self) -> None:
        if self._why_cls is None:
            self.problems.append("this torch has no WhyNoFuse in its scheduler: fusion refusals not recorded")
            return
        recorder = self

        class Handler(logging.Handler):
            def emit(self, record):
                started = time.perf_counter()
                try:
                    msg = record.msg
                    if isinstance(msg, recorder._why_cls):
                        recorder._why_count += 1
                        try:
                            text = msg.reason % msg.args if msg.args else msg.reason
                        except Exception:
                            text = str(msg.reason)
                        recorder.refusals.append({"name1": msg.name1, "name2": msg.name2, "reason": text,
                                                  "template": str(msg.reason), "source": "fusion_log"})
                finally:
                    recorder.seconds += time.perf_counter() - started

        log = logging.getLogger(_FUSION_LOGGER)
        handler = Handler(logging.DEBUG)
        level, propagate = log.level, log.propagate
        # Debug level makes the scheduler log; propagation stays as torch set it (on only when the
        # user asked for TORCH_LOGS=fusion), so nothing extra reaches stderr.
        log.setLevel(logging.DEBUG)
        log.addHandler(handler)

        def undo():
            log.removeHandler(handler)
            log.setLevel(level)
            log.propagate = propagate

        self._restore.append(undo)

    def _install_can_fuse(self, sched_mod) -> None:
        cls = getattr(sched_mod, "Scheduler", None)
        original = getattr(cls, "can_fuse", None)
        if original is None:
            self.problems.append("this torch has no Scheduler.can_fuse: refusals its backend does not log are missing")
            return
        recorder = self

        def can_fuse(scheduler, node1, node2, *args, **kwargs):
            before = recorder._why_count
            result = original(scheduler, node1, node2, *args, **kwargs)
            started = time.perf_counter()
            try:
                recorder._note_candidate(scheduler, node1, node2, bool(result), recorder._why_count != before)
            except Exception:
                pass
            finally:
                recorder.seconds += time.perf_counter() - started
            return result

        cls.can_fuse = can_fuse
        self._restore.append(lambda: setattr(cls, "can_fuse", original))

    def _install_wrapper(self, wrapper_mod) -> None:
        cls = getattr(wrapper_mod, "PythonWrapperCodegen", None)
        original = getattr(cls, "run_wrapper_ir_passes", None)
        if original is None:
            self.problems.append("this torch has no PythonWrapperCodegen.run_wrapper_ir_passes: no memory plan")
            return
        recorder = self

        def run_wrapper_ir_passes(wrapper, *args, **kwargs):
            result = original(wrapper, *args, **kwargs)
            started = time.perf_counter()
            try:
                recorder.graphs.append(_capture_graph(wrapper))
            except Exception as exc:
                recorder.problems.append(f"the memory plan of a graph could not be read: {type(exc).__name__}: {exc}")
            finally:
                recorder.seconds += time.perf_counter() - started
            return result

        cls.run_wrapper_ir_passes = run_wrapper_ir_passes
        self._restore.append(lambda: setattr(cls, "run_wrapper_ir_passes", original))

    # -- fusion candidates ---------------------------------------------------------------------------
    def _note_candidate(self, scheduler, node1, node2, result: bool, logged: bool) -> None:
        n1, n2 = node1.get_name(), node2.get_name()
        for node, name in ((node1, n1), (node2, n2)):
            if name not in self.op_names:
                self.op_names[name] = sorted(node.get_operation_names())
        self.candidates.append((n1, n2, result))
        if result or logged:
            return
        # Refused and nothing logged: the device backend's can_fuse_vertical/horizontal (or a check
        # that logs nothing) said no. Its iteration ranges are the backend's own inputs.
        vertical = bool(node1.get_operation_names() & node2.ancestors)
        backend = ""
        try:
            backend = type(scheduler.get_backend(node1.get_device())).__name__
        except Exception:
            pass
        ranges = []
        for node in (node1, node2):
            try:
                _, (iter_vars, reduce_vars) = node.group
                ranges.append(f"({', '.join(map(str, iter_vars))})"
                              + (f" reducing ({', '.join(map(str, reduce_vars))})" if reduce_vars else ""))
            except Exception:
                ranges.append("?")
        what = "vertical (producer into consumer)" if vertical else "horizontal (shared inputs)"
        text = (f"{backend or 'the device backend'} refused {what} fusion without a logged reason; "
                f"ranges {ranges[0]} and {ranges[1]}")
        try:
            if vertical and node1.is_reduction():
                text += "; node1 is a reduction"
        except Exception:
            pass
        self.refusals.append({"name1": n1, "name2": n2, "reason": text, "template": None, "source": "can_fuse"})

    # -- the raw record ----------------------------------------------------------------------------
    def raw(self) -> dict:
        """Everything recorded, JSON-able: written as ``trace/aotstudio_plan.json`` so that a
        compile restored from the cache gets the same files (build_files())."""
        import torch
        return {"format": "aotstudio.plan_raw", "version": FORMAT_VERSION, "torch_version": torch.__version__,
                "graphs": self.graphs,
                "refusals": self.refusals, "candidates": [list(c) for c in self.candidates],
                "op_names": self.op_names, "problems": self.problems, "hook_seconds": self.seconds}


def _capture_graph(wrapper) -> dict:
    """One graph's plan, read right after ``run_wrapper_ir_passes`` (inside Inductor's graph
    context, so sizes resolve). Byte figures are Inductor's (memory.py ``size_alloc``/``size_free``:
    numel × dtype size at the optimization hint)."""
    from torch._inductor import config as inductor_config
    from torch._inductor import memory
    from torch._inductor.codegen import wrapper as wrapper_mod
    from torch._inductor.utils import OrderedSet, get_dtype_size
    from torch._inductor.virtualized import V

    graph = V.graph
    sched = graph.scheduler
    nodes = list(sched.nodes)
    graph_inputs = OrderedSet(graph.graph_inputs.keys())
    graph_outputs = OrderedSet(graph.get_output_names())
    notes = []
    bufs = [b for n in nodes for b in n.get_outputs()]
    if bufs and not any(getattr(b, "mpi_buffer", None) is not None and
                        (b.mpi_buffer.size_alloc or b.mpi_buffer.size_free) for b in bufs):
        # reorder_for_peak_memory off: Inductor did not size the buffers; its own function does.
        memory.assign_memory_planning_info_for_scheduler_buffers(nodes, sched.name_to_buf)
        notes.append("buffer sizes assigned by memory.assign_memory_planning_info_for_scheduler_buffers "
                     "(reorder_for_peak_memory was off)")
    freeable = memory.get_freeable_input_buf(nodes, graph_inputs)
    infos, node_to_step, last_use = memory.compute_memory_timeline(nodes, freeable, graph_outputs)
    peak, curve = memory.peak_memory_from_buf_info_list(infos, len(nodes))

    # The wrapper's planned lines: who allocates, who takes whose storage, who is freed.
    allocated, reuses, freed_into_reuse, freed = set(), {}, set(), set()
    planner = "reuse"
    for line in getattr(wrapper, "lines", []):
        kind = type(line).__name__
        if kind == "AllocateLine":
            allocated.add(line.node.get_name())
        elif kind == "ReuseLine":
            reuses[line.reused_as.get_name()] = line.node.get_name()
        elif kind == "FreeIfNotReusedLine":
            (freed_into_reuse if line.is_reused else freed).add(line.node.get_name())
        elif kind in ("AllocFromPoolLine", "DeallocFromPoolLine"):
            planner = "pool"
    planned_after_reuse = None
    estimate = getattr(wrapper, "estimate_peak", None)
    if estimate is not None and nodes:
        try:
            planned_after_reuse = int(estimate.segmented_tree.summarize_range(0, len(nodes) - 1))
        except Exception:
            pass
    if not isinstance(wrapper, wrapper_mod.PythonWrapperCodegen):
        notes.append(f"wrapper {type(wrapper).__name__}")

    steps = []
    for index, node in enumerate(nodes):
        ops = [sn.get_name() for sn in node.get_nodes()]
        origins = sorted({o for sn in node.get_nodes() if sn.node is not None for o in _origins(sn.node)})
        kernel = None
        if node.node is not None and hasattr(node.node, "python_kernel_name"):
            kernel = getattr(node.node, "python_kernel_name", None)
        steps.append({"index": index, "name": node.get_name(), "type": type(node).__name__, "ops": ops,
                      "fused": len(ops) > 1, "nodes": origins, "extern_kernel": kernel})

    removed = set(getattr(graph, "removed_buffers", ()))
    buffers, inputs = [], []
    for info in infos:
        buf = info.buffer
        name = buf.get_name()
        end = None if info.end_step == -1 else info.end_step
        last = last_use.get(buf)
        if isinstance(buf, memory.FreeableInputBuffer):
            ir_node = graph.graph_inputs.get(name)
            entry = {"name": name, "bytes": int(info.size_free), "last_step": end,
                     "last_reader": last.get_name() if last is not None else None,
                     "is_output": name in graph_outputs}
            entry.update(_describe_ir(ir_node) if ir_node is not None else {})
            inputs.append(entry)
            continue
        ir_node = buf.node
        op = getattr(buf, "defining_op", None)
        origins = _origins(op.node) if op is not None and getattr(op, "node", None) is not None else _origins(ir_node)
        layout = getattr(ir_node, "layout", None)
        alias_of = None
        if layout is not None and type(layout).__name__ == "NonOwningLayout":
            try:
                alias_of = layout.view.data.get_name()
            except Exception:
                alias_of = "?"
        if name in removed:
            how = "none"  # never materialised: only used inside the kernel that computes it
        elif name in reuses:
            how = "reuse"
        elif name in allocated:
            how = "wrapper"
        elif alias_of is not None or type(layout).__name__ in ("NoneLayout", "MultiOutputLayout"):
            how = "none"
        else:
            how = "extern"  # an extern call (ExternKernelAlloc, MultiOutput of a fallback) returns it
        entry = {"name": name, "ir": type(ir_node).__name__, "bytes": int(info.size_alloc),
                 "size_free": int(info.size_free), "first_step": int(info.start_step), "last_step": end,
                 "writer": op.get_name() if op is not None else None,
                 "last_reader": last.get_name() if last is not None else None,
                 "users": sorted({u.node.get_name() for u in buf.users if hasattr(u.node, "get_name")}),
                 "nodes": origins, "is_output": name in graph_outputs, "removed": name in removed,
                 "allocation": how, "reuses": reuses.get(name),
                 "freed_into_reuse": name in freed_into_reuse,
                 "aliases": sorted(set(buf.get_aliases()) | ({alias_of} if alias_of else set())),
                 "mutates": sorted(buf.get_mutations())}
        entry.update(_describe_ir(ir_node))
        buffers.append(entry)

    # The same sweep (memory.peak_memory_from_buf_info_list) over what the generated code holds:
    # buffers it never materialises dropped, a ReuseLine's storage carried from the old buffer to
    # the new one (one allocation, live from the first's start to the last's end).
    kept = {b.buffer.get_name(): b for b in infos}
    chains = {}
    for new, old in reuses.items():
        root = old
        while root in reuses:
            root = reuses[root]
        chains.setdefault(root, []).append(new)
    adjusted = []
    for info in infos:
        name = info.buffer.get_name()
        if name in removed or name in reuses:
            continue
        end = info.end_step
        for new in chains.get(name, []):
            other = kept.get(new)
            if other is None:
                continue
            end = -1 if (end == -1 or other.end_step == -1) else max(end, other.end_step)
        adjusted.append(memory.BufferInfo(info.buffer, info.size_alloc, max(info.size_free, info.size_alloc),
                                          info.start_step, end))
    planned_peak, planned_curve = memory.peak_memory_from_buf_info_list(adjusted, len(nodes))

    constants = []
    original_names = getattr(graph, "allocated_constant_name", {}) or {}
    for cname, tensor in (getattr(graph, "constants", {}) or {}).items():
        try:
            constants.append({"name": cname, "fqn": original_names.get(cname, cname),
                              "bytes": int(tensor.numel() * tensor.element_size()),
                              "dtype": str(tensor.dtype).replace("torch.", ""), "device": str(tensor.device),
                              "shape": list(tensor.shape)})
        except Exception:
            constants.append({"name": cname, "fqn": original_names.get(cname, cname), "bytes": None})
    all_inputs = []
    for iname, ir_node in graph.graph_inputs.items():
        if any(i["name"] == iname for i in inputs):
            continue
        entry = {"name": iname, "bytes": None, "last_step": None, "last_reader": None,
                 "is_output": iname in graph_outputs, "freeable": False}
        entry.update(_describe_ir(ir_node))
        try:
            entry["bytes"] = int(graph.sizevars.optimization_hint(ir_node.get_numel(), fallback=0)
                                 * get_dtype_size(ir_node.get_dtype()))
        except Exception:
            pass
        all_inputs.append(entry)
    for entry in inputs:
        entry["freeable"] = True
    return {"graph": getattr(graph, "name", None) or "graph", "const_graph": bool(getattr(graph, "is_const_graph", False)),
            "planner": planner if inductor_config.allow_buffer_reuse else "none",
            "steps": steps, "curve": [int(x) for x in curve[:len(nodes)]],
            "planned_curve": [int(x) for x in planned_curve[:len(nodes)]],
            "peak_bytes": int(peak), "planned_peak_bytes": int(planned_peak),
            "wrapper_estimate_bytes": planned_after_reuse,
            "buffers": buffers, "inputs": inputs + all_inputs, "constants": constants,
            "outputs": list(graph_outputs), "notes": notes}


# -- the files beside the package ----------------------------------------------------------------------
def write_raw(recorder: PlanRecorder, trace_root: str) -> str:
    """The raw record into ``trace_root/aotstudio_plan.json`` (kept by the compile cache)."""
    return write_json_atomic(os.path.join(trace_root, RAW_NAME), recorder.raw())


def _read_json(path: str):
    import json
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _kernel_join(steps: list, kernels: list) -> None:
    """Each step's kernel from kernels.json (``id``, ``name``, ``kind``): among the kernels sharing
    post-grad nodes with the step, one of the step's kind first (an extern call's step a
    ``library`` kernel, a loop nest's step a generated one), then the most shared nodes, then one at
    or after the previous step's kernel in call order (kernel ids carry Inductor's debug handle, in
    call order), then one not yet taken, then the earliest. The C++ backend may emit several steps
    as loop nests of one function (its kernel group), so a generated kernel can serve several
    steps; a library call site serves one. Steps with no sharing kernel keep ``kernel`` null."""
    order = {k["id"]: i for i, k in enumerate(kernels)}
    used, last = set(), -1
    for step in steps:
        mine = set(step["nodes"])
        best, best_key = None, None
        for k in kernels:
            overlap = len(mine & set(k.get("post_grad_nodes", [])))
            if overlap == 0 or (k["id"] in used and k.get("kind") == "library"):
                continue
            extern = step["type"] in ("ExternKernelSchedulerNode", "FallbackKernel")
            key = ((k.get("kind") == "library") == extern, overlap, order[k["id"]] >= last, k["id"] not in used,
                   -order[k["id"]])
            if best_key is None or key > best_key:
                best, best_key = k, key
        step["kernel"] = best["id"] if best else None
        step["kernel_name"] = best["name"] if best else None
        step["kernel_kind"] = best["kind"] if best else ("nop" if step["type"] == "NopKernelSchedulerNode" else None)
        if best:
            used.add(best["id"])
            last = order[best["id"]]


def _pre_grad(nodes: list, post_to_pre: dict) -> list:
    return sorted({p for n in nodes for p in post_to_pre.get(n, [])})


def build_files(work: str, trace_dir: str | None, trace_root: str, kernels_data: dict | None, device: str,
                reused: bool, measured: dict | None = None) -> dict:
    """Write ``work/memory.json`` and ``work/fusion.json`` from the raw record in ``trace_root``
    joined with kernels.json (``kernels_data``) and Inductor's ``postToPre`` mapping; returns the
    compile result's ``memory`` and ``fusion`` summaries. Without a raw record (a compile cache entry
    made before plans were recorded) both files say ``available: false`` with the reason."""
    started = time.perf_counter()
    raw = _read_json(os.path.join(trace_root, RAW_NAME))
    mappings = {}
    if trace_dir:
        mappings = _read_json(os.path.join(trace_dir, "inductor_provenance_tracking_node_mappings.json")) or {}
    post_to_pre = mappings.get("postToPre", {})
    kernels = (kernels_data or {}).get("kernels", [])
    memory_path, fusion_path = os.path.join(work, "memory.json"), os.path.join(work, "fusion.json")
    if raw is None:
        why = ("the package was restored from a compile cache entry made before memory plans were recorded"
               if reused else "no plan was recorded for this compile")
        for path, fmt in ((memory_path, MEMORY_FORMAT), (fusion_path, FUSION_FORMAT)):
            write_json_atomic(path, {"format": fmt, "format_version": FORMAT_VERSION, "available": False,
                                     "complete": False, "partial": [why]}, indent=1)
        return {"memory": {"path": memory_path, "available": False, "complete": False, "reason": why},
                "fusion": {"path": fusion_path, "available": False, "complete": False, "reason": why}}
    graphs = [g for g in raw.get("graphs", []) if not g.get("const_graph")]
    const_graphs = [g for g in raw.get("graphs", []) if g.get("const_graph")]
    partial = list(raw.get("problems", []))
    if not graphs:
        partial.append("no graph's memory plan was recorded: Inductor generated no code in this compile "
                       "(e.g. its own cache answered, with allow_cache)")
    if len(graphs) > 1:
        partial.append(f"{len(graphs)} graphs were planned; memory.json describes the last (the model's)")
    main = graphs[-1] if graphs else None
    if main is not None and main.get("planner") == "pool":
        partial.append("Inductor's pool memory planner (config.memory_planning) placed the buffers: the lifetimes "
                       "and peaks are Inductor's, the allocation and reuse fields are not read from its pools")
    memory_doc = _memory_doc(main, const_graphs, post_to_pre, kernels, device, partial, measured,
                             raw.get("torch_version"))
    fusion_doc = _fusion_doc(raw, main, post_to_pre, partial)
    seconds = time.perf_counter() - started + float(raw.get("hook_seconds", 0.0))
    memory_doc["seconds"] = fusion_doc["seconds"] = round(seconds, 6)
    write_json_atomic(memory_path, memory_doc, indent=1)
    write_json_atomic(fusion_path, fusion_doc, indent=1)
    peak = memory_doc.get("peak") or {}
    return {"memory": {"path": memory_path, "available": memory_doc["available"],
                       "complete": memory_doc["complete"],
                       "predicted_peak_bytes": peak.get("predicted_bytes"),
                       "planned_peak_bytes": peak.get("planned_bytes"),
                       "constants_bytes": memory_doc.get("constants_bytes"),
                       "buffers": len(memory_doc.get("buffers", [])), "seconds": memory_doc["seconds"]},
            "fusion": {"path": fusion_path, "available": fusion_doc["available"], "complete": fusion_doc["complete"],
                       "fused_kernels": fusion_doc.get("fused_kernels"), "refused": len(fusion_doc.get("refused", [])),
                       "by_category": fusion_doc.get("by_category", {}), "seconds": fusion_doc["seconds"]}}


def _memory_doc(main, const_graphs, post_to_pre, kernels, device, partial, measured, torch_version) -> dict:
    doc = {"format": MEMORY_FORMAT, "format_version": FORMAT_VERSION, "available": main is not None,
           "complete": main is not None and not partial, "partial": partial, "device": device,
           "source": "torch/_inductor: memory.compute_memory_timeline over scheduler.nodes after "
                     "PythonWrapperCodegen.run_wrapper_ir_passes",
           "units": "bytes"}
    if main is None:
        return doc
    steps = [dict(s) for s in main["steps"]]
    _kernel_join(steps, kernels)
    for s, live, planned in zip(steps, main["curve"], main["planned_curve"]):
        s["live_bytes"] = live
        s["planned_live_bytes"] = planned
        s["pre_grad_nodes"] = _pre_grad(s["nodes"], post_to_pre)
        s["allocates"], s["frees"] = [], []
    by_step = {s["name"]: s for s in steps}
    buffers = []
    for b in main["buffers"]:
        b = dict(b)
        b["pre_grad_nodes"] = _pre_grad(b["nodes"], post_to_pre)
        first = steps[b["first_step"]] if 0 <= b["first_step"] < len(steps) else None
        last = by_step.get(b["last_reader"]) if b["last_reader"] else None
        b["writer_kernel"] = first.get("kernel") if first else None
        b["last_reader_step"] = last["index"] if last else None
        b["last_reader_kernel"] = last.get("kernel") if last else None
        if first is not None and b["allocation"] != "none":
            first["allocates"].append(b["name"])
        if b["last_step"] is not None and b["allocation"] != "none" and 0 <= b["last_step"] < len(steps):
            steps[b["last_step"]]["frees"].append(b["name"])
        buffers.append(b)
    inputs = [dict(i, nodes=[i["name"]], pre_grad_nodes=_pre_grad([i["name"]], post_to_pre)) for i in main["inputs"]]
    input_names = {i["name"] for i in inputs}
    constants = [c for g in [main] + list(const_graphs) for c in g["constants"]]
    seen, unique = set(), []
    for c in constants:
        if c["name"] not in seen:
            seen.add(c["name"])
            unique.append(c)
    curve = main["curve"]
    peak_step = max(range(len(curve)), key=lambda i: curve[i]) if curve else None
    planned_step = max(range(len(main["planned_curve"])), key=lambda i: main["planned_curve"][i]) if curve else None

    by_name = {b["name"]: b for b in buffers}
    members = {}  # storage root -> the buffers holding it in turn (ReuseLines), in order
    for b in buffers:
        root = b["name"]
        while by_name.get(root, {}).get("reuses"):
            root = by_name[root]["reuses"]
        if root != b["name"]:
            members.setdefault(root, [by_name[root]] if root in by_name else []).append(b)
    chain_end = {root: _chain_end(root, buffers) for root in members if root in by_name}

    def live_at(t, planned):
        if t is None:
            return []
        live = []
        for b in buffers:
            if planned and (b["removed"] or b["allocation"] == "reuse"):
                continue
            end = chain_end.get(b["name"], b["last_step"]) if planned else b["last_step"]
            if b["first_step"] <= t and (end is None or end >= t) and b["bytes"] > 0:
                holder = b
                if planned and b["name"] in members:
                    # The storage is one allocation; at step t it holds the chain's latest buffer.
                    holder = [m for m in sorted(members[b["name"]], key=lambda m: m["first_step"])
                              if m["first_step"] <= t][-1]
                live.append(dict(holder, bytes=b["bytes"], storage=b["name"]))
        live += [dict(i, storage=i["name"]) for i in inputs
                 if i.get("freeable") and (i["last_step"] is None or i["last_step"] >= t)]
        live.sort(key=lambda b: -(b.get("bytes") or 0))
        return [{"name": b["name"], "storage": b["storage"], "bytes": b.get("bytes"), "nodes": b.get("nodes", []),
                 "kind": "input" if b["name"] in input_names else ("output" if b.get("is_output") else "intermediate")}
                for b in live]

    def peak_entry(t, value, planned):
        if t is None:
            return None
        live = live_at(t, planned)
        step = steps[t]
        return {"bytes": value, "step": t, "kernel": step.get("kernel"), "scheduler_node": step["name"],
                "nodes": step["nodes"], "live_buffers": live,
                "live_nodes": sorted({n for b in live for n in b["nodes"]})}

    doc.update({
        "torch_version": torch_version, "graph": main["graph"], "planner": main["planner"],
        "allow_buffer_reuse": main["planner"] != "none",
        "steps": steps, "buffers": buffers, "inputs": inputs, "constants": unique,
        "constants_bytes": sum(c["bytes"] or 0 for c in unique), "outputs": main["outputs"],
        "peak": {"predicted_bytes": main["peak_bytes"], "planned_bytes": main["planned_peak_bytes"],
                 "wrapper_estimate_bytes": main["wrapper_estimate_bytes"],
                 "predicted": peak_entry(peak_step, main["peak_bytes"], False),
                 "planned": peak_entry(planned_step, main["planned_peak_bytes"], True)},
        "measured": measured, "notes": main["notes"]})
    return doc


def _chain_end(name: str, buffers: list):
    """The last step of the storage ``name`` starts (None: held to the end), following ReuseLines."""
    by_reuse = {b["reuses"]: b for b in buffers if b.get("reuses")}
    by_name = {b["name"]: b for b in buffers}
    end = by_name[name]["last_step"]
    cur = name
    while cur in by_reuse:
        nxt = by_reuse[cur]
        if end is None or nxt["last_step"] is None:
            end = None
        else:
            end = max(end, nxt["last_step"])
        cur = nxt["name"]
    return end


def _fusion_doc(raw, main, post_to_pre, partial) -> dict:
    doc = {"format": FUSION_FORMAT, "format_version": FORMAT_VERSION, "available": main is not None,
           "complete": main is not None and not partial, "partial": partial,
           "source": "torch/_inductor/scheduler.py: WhyNoFuse records of the 'fusion' log artifact; "
                     "Scheduler.can_fuse results"}
    if main is None:
        return doc
    op_names = dict(raw.get("op_names", {}))
    op_nodes, final_of = {}, {}
    for step in main["steps"]:
        for op in step["ops"]:
            final_of[op] = step["name"]
        op_names.setdefault(step["name"], step["ops"])
    # Each op's FX nodes: from the buffers it writes and the step holding it.
    for b in main["buffers"]:
        if b["writer"]:
            op_nodes.setdefault(b["writer"], set()).update(b["nodes"])
    for step in main["steps"]:
        if len(step["ops"]) == 1:
            op_nodes.setdefault(step["ops"][0], set()).update(step["nodes"])

    def ops_of(name):
        if name in op_names:
            return op_names[name]
        return [p for p in name.split("_") if p in final_of] or [name]

    def nodes_of(ops):
        return sorted({n for op in ops for n in op_nodes.get(op, ())})

    refused, seen, later_fused = [], set(), 0
    for r in raw.get("refusals", []):
        ops1, ops2 = ops_of(r["name1"]), ops_of(r["name2"])
        # A pair refused in one round and fused later (after other fusions) is no refusal.
        if {final_of.get(o) for o in ops1} & {final_of.get(o) for o in ops2} - {None}:
            later_fused += 1
            continue
        key = (tuple(ops1), tuple(ops2), r["reason"])
        if key in seen:
            continue
        seen.add(key)
        nodes1, nodes2 = nodes_of(ops1), nodes_of(ops2)
        refused.append({"node1": r["name1"], "node2": r["name2"], "ops1": ops1, "ops2": ops2,
                        "nodes1": nodes1, "nodes2": nodes2,
                        "pre_grad_nodes1": _pre_grad(nodes1, post_to_pre),
                        "pre_grad_nodes2": _pre_grad(nodes2, post_to_pre),
                        "reason": r["reason"],
                        "category": "backend" if r["source"] == "can_fuse" else category(r["template"] or r["reason"]),
                        "source": r["source"]})
    by_category = {}
    for r in refused:
        by_category[r["category"]] = by_category.get(r["category"], 0) + 1
    candidate_ops = set()
    accepted_ops = set()
    for n1, n2, result in raw.get("candidates", []):
        for n in (n1, n2):
            candidate_ops.update(ops_of(n))
            if result:
                accepted_ops.update(ops_of(n))
    refused_ops = {op for r in refused for op in r["ops1"] + r["ops2"]}
    fused_ops = {op for s in main["steps"] if s["fused"] for op in s["ops"]}
    node_status = {}
    rank = {"never_candidate": 0, "not_chosen": 1, "refused": 2, "fused": 3}
    for step in main["steps"]:
        # Inductor's lowering inlines pointwise chains into one loop nest: several FX nodes computed
        # by one scheduler node are fused too (by lowering, not by the scheduler).
        inlined = step["type"] != "ExternKernelSchedulerNode" and len(step["nodes"]) > 1
        for op in step["ops"]:
            if op in fused_ops or inlined:
                status = "fused"
            elif op in refused_ops:
                status = "refused"
            elif op in candidate_ops:
                status = "not_chosen"  # considered, not refused, fused with nothing (a better pair won)
            else:
                status = "never_candidate"
            for n in op_nodes.get(op, set()) or step["nodes"]:
                if n not in node_status or rank[status] > rank[node_status[n]]:
                    node_status[n] = status
    refusals_of = {}
    for index, r in enumerate(refused):
        for n in sorted(set(r["nodes1"]) | set(r["nodes2"])):
            refusals_of.setdefault(n, []).append(index)
    nodes = [{"node": n, "status": s, "kernel_step": None, "refusals": refusals_of.get(n, []),
              "pre_grad_nodes": post_to_pre.get(n, [])} for n, s in sorted(node_status.items())]
    step_of = {n: s["index"] for s in main["steps"] for n in s["nodes"]}
    for entry in nodes:
        entry["kernel_step"] = step_of.get(entry["node"])
    doc.update({"fused_kernels": sum(1 for s in main["steps"] if s["fused"]),
                "kernels": [{"step": s["index"], "name": s["name"], "ops": s["ops"], "nodes": s["nodes"]}
                            for s in main["steps"] if s["fused"]],
                "refused": refused, "by_category": dict(sorted(by_category.items(), key=lambda kv: -kv[1])),
                "refused_then_fused": later_fused, "candidate_calls": len(raw.get("candidates", [])),
                "nodes": nodes,
                "status_counts": {k: sum(1 for e in nodes if e["status"] == k) for k in rank}})
    return doc
