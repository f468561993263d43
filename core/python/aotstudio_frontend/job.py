# SPDX-License-Identifier: GPL-3.0-or-later
"""One compile job, driven stage by stage by the C++ engine (core/pipeline/compilejob.cpp).

Stages (see core/protocol/FORMAT.md): load -> export -> compile here in Python; load_package and
measure in C++; verify here, on the outputs the C++ loader produced.

The request's options are read and checked in options.py, the model spec is built in models.py
and the dimensions to make dynamic are worked out in dynamic.py; the public names of options.py
and models.py are also importable from here (``job.resolve_model``, ``job.DTYPES``, ...), as
callers did before the split.
"""

import contextlib
import os
import platform
import shlex
import shutil
import sys
import time

import torch
import torch.utils._pytree as pytree

from . import compilecache, compileplan, doctor, dynamic, graph_json, guards, kernels, outdir, recipe, verify
from . import inputs as structured
from . import shapes as example_shapes
from .errors import FrontendError, compile_hint, export_hint, one_line, user_location, user_where
from .files import atomic_file, move_into_place
from .messages import text
from .models import batched_inputs, resize_batch, resolve_model  # noqa: F401 (importable from job)
from .options import DEFAULT_TOLERANCE, DEVICES, DTYPES  # noqa: F401 (importable from job)
from .options import parse as parse_options
from .buildtime import NativeBuildTimer
from .passes import PassRecorder
from . import lite

_ccache_missing_said = False  # "ccache is not installed" is logged once per process


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def engine_info() -> dict:
    """Versions and devices for the protocol's ``hello`` (FORMAT.md, Handshake)."""
    devices = [{"type": "cpu", "name": f"{_cpu_name()} ({torch.get_num_threads()} threads)"}]
    cuda_available = torch.cuda.is_available()
    if cuda_available:
        for index in range(torch.cuda.device_count()):
            props = torch.cuda.get_device_properties(index)
            devices.append({
                "type": "cuda", "index": index, "name": props.name,
                "capability": f"{props.major}.{props.minor}",
                "memory_bytes": int(props.total_memory),
            })
    return {
        "torch_version": torch.__version__,
        "cuda_version": torch.version.cuda or "",
        "python_version": platform.python_version(),
        "devices": devices,
        "cuda_available": cuda_available,
    }


def _describe(t: torch.Tensor) -> dict:
    return {"shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", "")}


@contextlib.contextmanager
def _cuda_arch_list(archs: list):
    """TORCH_CUDA_ARCH_LIST set to ``archs`` ("9.0;12.0") while a compile with
    ``emit_multi_arch_kernel`` builds its fatbins (Inductor reads it then); the previous value
    restored after. Nothing when ``archs`` is empty."""
    if not archs:
        yield
        return
    before = os.environ.get("TORCH_CUDA_ARCH_LIST")
    os.environ["TORCH_CUDA_ARCH_LIST"] = ";".join(archs)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("TORCH_CUDA_ARCH_LIST", None)
        else:
            os.environ["TORCH_CUDA_ARCH_LIST"] = before


def _plain_weight_files(package: str) -> None:
    """Rewrite the ``data/weights/*`` files of an AOTInductor package (``pickle_weights``) as plain
    tensors. Inductor saves a constant's original value, often an ``nn.Parameter``; one with extra
    attributes (Hugging Face's ``_is_hf_initialized``) pickles as ``torch._utils.
    _rebuild_parameter_with_state``, which LibTorch's unpickler (C++, no Python) does not know. The
    bytes of each tensor are unchanged. The zip is rewritten beside the package and renamed over it."""
    import io
    import zipfile
    marker = "/data/weights/"
    with zipfile.ZipFile(package) as src:
        infos = src.infolist()
        if not any(marker in i.filename for i in infos):
            return
        with atomic_file(package, "wb") as out, zipfile.ZipFile(out, "w") as dst:
            for info in infos:
                data = src.read(info.filename)
                if marker in info.filename and not info.filename.endswith("/"):
                    value = torch.load(io.BytesIO(data), weights_only=False)
                    if isinstance(value, torch.Tensor) and type(value) is not torch.Tensor:
                        buffer = io.BytesIO()
                        torch.save(value.detach().as_subclass(torch.Tensor), buffer)
                        data = buffer.getvalue()
                dst.writestr(info, data)


class CompileJob:
    """State of one ``compile`` request between stages. ``request`` holds the protocol fields
    (model, device, dtype, out, tolerance, freezing, max_autotune, allow_cache, cache, snapshots; all of
    them in options.parse(), which raises FrontendError(bad_request) for a bad one);
    ``log(level, message)`` sends a protocol ``log`` event and ``emit(event_dict)`` any other
    event (``snapshot``)."""

    def __init__(self, request: dict, log, emit=None, should_stop=None):
        # The request's fields, checked (options.py); stages read and may change the copies below.
        self.options = opts = parse_options(request)
        self.spec = opts.spec
        self.device = opts.device
        self.dtype_name = opts.dtype_name
        self.out = opts.out
        self.tolerance = opts.tolerance
        self.dynamic = opts.dynamic
        self.dynamic_specs = opts.dynamic_specs
        self.shapes = opts.shapes  # INPUT -> sizes: the example inputs at the user's shapes (shapes.py)
        self.requested_dynamic = {}  # (input, dim) -> label: what must come out dynamic (guards.specialised)
        self.dim_names = {}  # (input, dim) -> the user's name of the dimension
        self.guards = None  # guards.collect() of the exported program
        self.guards_path = None  # its sidecar beside the package (guards.SIDECAR)
        self.batch = opts.batch
        self.dynamic_batch = opts.dynamic_batch
        self.static_batch = opts.static_batch
        self.verify_samples = opts.verify_samples
        self.staging = opts.staging
        self.freezing = opts.freezing  # on for int8-static; export turns it on for a q/dq graph
        self.freezing_given = opts.freezing_given  # else freezing is on for a graph with q/dq nodes
        self.qdq_nodes = 0  # quantize/dequantize nodes in the exported graph (a PT2E-quantized model)
        self.max_autotune = opts.max_autotune
        self.inductor = opts.inductor  # further Inductor options (a recipe's, tune.py)
        # Weights outside the package's .so (BUNDLE.md "Shared weights"); off again with freezing.
        self.external_weights = opts.external_weights
        self.runtime = opts.runtime  # "lite": link_libtorch=False, checked and verified by lite.py
        self.cuda_archs = opts.cuda_archs  # options.parse_cuda_archs(): fatbins for these GPUs too
        self.lite_runtime = opts.lite_runtime
        self.lite_missing = []
        self.allow_cache = opts.allow_cache
        self.cache = opts.cache  # our compile cache and ccache (compilecache.py); off with "cache": false
        self.reuse = None  # what compile() reused: the result's "reuse"
        self.take_snapshots = opts.take_snapshots
        self.log = log
        self.emit = emit or (lambda event: None)
        self._should_stop = should_stop or (lambda: False)  # the C++ job's stop token
        self._cancelled_in = None  # the stage a cancel was seen in
        self.stages = []  # [{name, pass, nodes, snapshot, seconds}]
        self.kernel_summary = None
        self._kernels_data = None  # kernels.json as built (compileplan joins steps to kernels)
        self._snapshot_seq = 0
        self._last_mark = time.perf_counter()
        self.model = None
        self._loaded_program = None
        self.inputs = ()
        self.program = None
        self.package = None
        self.dtype = opts.dtype
        self.state = None  # verify.ModelState: buffers and parameters before any eager run
        self.stateful = []  # names of buffers (or parameters) forward() changes
        self.compile_precision = None  # verify.precision_settings() when Inductor compiled
        self._verifier = None
        self._verified = False
        self._finished = False  # committed or abandoned
        self.quant = None  # a quantize request's scheme (quant.QuantState); None for plain compiles
        if opts.scheme is not None:
            from .quant import QuantState
            self.quant = QuantState(request, self)
        self._lock = outdir.lock(self.out)
        # Where this job writes: a staging folder moved into OUT at the end (outdir.py), or OUT
        # itself for callers that do not stage (quantize schemes, a profile's second job).
        self.work = outdir.staging_dir(self.out) if self.staging else self.out

    def check_stop(self, stage: str = "compile") -> None:
        """Raise FrontendError(cancelled) when the C++ job was asked to stop (a cancel request,
        Ctrl-C in the CLI). Polled by the pass hooks (passes.PassRecorder) and long loops."""
        if self._should_stop():
            self._cancelled_in = stage
            raise FrontendError("cancelled", stage, text("cancel.during_stage", stage=stage), "")

    def close(self) -> None:
        """Release OUT's lock now. The C++ owner calls this when the job ends: a job object caught
        in a reference cycle is only collected later, and would keep the folder locked against the
        next job (a profile's second job, the next compile in the same engine)."""
        lock, self._lock = getattr(self, "_lock", None), None
        if lock is not None:
            outdir.drop_previous_log(self.out)
            lock.close()
            outdir.remove_if_empty(self.out)

    # -- stages -------------------------------------------------------------------------------
    def load(self) -> dict:
        """Build the model and example inputs on the requested device."""
        if self.device == "cuda" and not torch.cuda.is_available():
            raise FrontendError("no_device", "load", text("load.no_cuda"), text("load.no_cuda.hint"))
        model, inputs, _origin = resolve_model(self.spec, self.log)
        if isinstance(model, torch.export.ExportedProgram):
            # A saved program: capture is already done; run it as a module for eager.
            self._loaded_program = model
            model = model.module()
            # The eager baseline is the program's ops run eagerly. The unlifted module's hooks
            # check inputs and guards in Python on every call: not eager execution, and on a
            # small model they cost more than the ops (c10's tiny conv: 0.14 ms with them, 0.07 ms
            # without, 0.056 ms for the original nn.Module), which would pass as the compiler's gain.
            model._forward_pre_hooks.clear()
            model._forward_hooks.clear()
            self.eager_baseline = {
                "kind": "exported_program",
                "note": "eager is the saved program's graph run op by op (ExportedProgram.module() without its "
                        "input-check hooks); the original nn.Module is not in the file, so its own Python overhead "
                        "is not measured: give its factory (file.py:make) for that baseline",
            }
            self.log("info", "eager baseline: " + self.eager_baseline["note"])
        device = torch.device(self.device)
        dtype = DTYPES[self.dtype_name]
        if getattr(self, "_loaded_program", None) is None:
            model = doctor.eval_mode(model, self.log)  # an ExportedProgram's module is already in eval
        self.model = model.to(device)
        if dtype != torch.float32:
            self.model = self.model.to(dtype)
        # The user's shapes first: a bucket's batch (below) then resizes dimension 0 of those.
        inputs = example_shapes.apply(self.shapes, model, tuple(inputs), self.log)
        self.batched = batched_inputs(inputs)
        if not all(self.batched):
            self.log("info", "inputs without the batch dimension (dimension 0 differs from the first input's "
                             f"{inputs[0].shape[0] if inputs and inputs[0].dim() else '-'}): "
                             + ", ".join(n for n, b in zip(structured.input_names(model, len(inputs)), self.batched) if not b)
                             + "; shape buckets and a dynamic batch leave them as they are")
        if self.batch is not None:
            inputs = tuple(resize_batch(t, self.batch) if b else t for t, b in zip(inputs, self.batched))
        dynamic.resolve_names(self, model, len(inputs))
        inputs = dynamic.prepare(self, model, tuple(inputs))
        self.inputs = tuple(t.to(device=device, dtype=dtype) if t.is_floating_point() else t.to(device)
                            for t in inputs)
        if self.quant is not None:
            self.model, self.inputs = self.quant.apply(self.model, self.inputs)
        self.state = verify.ModelState(self.model)
        try:
            with torch.inference_mode():
                example_out = self.model(*self.inputs)  # the model runs on its example (verify compares later)
        except Exception as exc:
            where = user_location(exc)
            names = structured.input_names(self.model, len(self.inputs))
            shapes = ", ".join(f"{n} {list(t.shape)} {str(t.dtype).replace('torch.', '')}"
                               for n, t in zip(names, self.inputs))
            missing = doctor.forward_mismatch(self.model, self.inputs, {}, exc)
            subs = doctor.submodule_candidates(self.model)
            raise FrontendError("model_error", "load",
                                f"the eager forward of '{self.spec}' on inputs ({shapes}) raised {one_line(exc)}"
                                + (f" at {where}" if where else "") + (f"; {missing}" if missing else ""),
                                (text("load.forward_missing.hint", modules=" / ".join(subs)) if subs else
                                 "give the missing arguments in the factory (return a dict with args and kwargs)")
                                if missing else
                                "check that the example inputs match what forward() expects"
                                + (f" (the shapes of {', '.join(self.shapes)} were changed by 'shapes': inputs that "
                                   "share a dimension, such as ids and their attention mask, must be changed together)"
                                   if self.shapes else ""), where=user_where(exc)) from exc
        # What forward returns must be tensors in a structure the package can describe; then each
        # output leaf gets its name from that structure ("logits", "hidden.0").
        doctor.check_outputs(example_out, self.spec, self.log)
        self.output_specs = [dict(_describe(t), name=n) for n, t in verify.named_tensors(example_out)]
        # The reference run must not leave the model one step ahead of what export captures.
        self.stateful = self.state.restore()
        if self.stateful:
            self.log("info", f"forward() updates {', '.join(self.stateful)}: restored before export; verify "
                             "checks two successive calls of the package against two of eager")
        params = sum(p.numel() for p in self.model.parameters())
        self.log("info", f"loaded {self.spec}: {type(self.model).__name__}, {params} parameters")
        capability = None
        if self.device == "cuda":
            major, minor = torch.cuda.get_device_capability()
            capability = f"{major}.{minor}"
        self.input_names = structured.input_names(self.model, len(self.inputs))
        described = [dict(_describe(t), name=n, batched=b) for n, t, b in zip(self.input_names, self.inputs, self.batched)]
        return {"parameters": params, "inputs": described, "outputs": self.output_specs,
                "torch_version": torch.__version__, "cuda_version": torch.version.cuda or "",
                "compute_capability": capability,
                "eager_baseline": getattr(self, "eager_baseline", None) or {"kind": "module", "note": ""}}

    def describe_inputs(self) -> dict:
        """After load(): the ``inputs`` request's answer (FORMAT.md "inputs") without the fields the
        C++ side adds: ``inputs`` (per flat input shapes.describe()'s name, shape, dtype, kind,
        batched, min, max, mean, std), ``signature`` (forward's parameters as the user wrote them),
        ``constants`` (names of non-tensor arguments, kept as constants of the program)."""
        info = getattr(self.model, structured.ATTR, None)
        return {"inputs": [example_shapes.describe(n, t, b)
                           for n, t, b in zip(self.input_names, self.inputs, self.batched)],
                "signature": example_shapes.signature(self.model),
                "constants": list(getattr(info, "constants", None) or [])}

    def export(self) -> dict:
        """Capture the graph with ``torch.export.export``; record its guards (guards.py) and fail
        when a dimension the request asked to be dynamic came out static."""
        loaded = getattr(self, "_loaded_program", None)
        dynamic_shapes = dynamic.export_shapes(self)
        try:
            if loaded is not None and self.device == "cpu" and self.dtype_name == "fp32" and not self.dynamic:
                self.program = loaded
            else:
                self.program = torch.export.export(self.model, self.inputs, dynamic_shapes=dynamic_shapes,
                                                   strict=False)
        except Exception as exc:
            where = user_location(exc)
            self.log("debug", f"torch.export raised {type(exc).__name__}: {exc}")
            violated = guards.constraint_violation(exc)
            if violated is not None:
                # torch's guard text and suggested fix belong in the one-line error, not only the log.
                message, fixes = violated
                # Answer in the user's words: input names when --dynamic named the inputs.
                by_name = any(not str(d).split(":", 1)[0].isdigit() for d in self.dynamic_specs)
                names = structured.input_names(self.model, len(self.inputs)) if by_name else None
                hint = guards.cli_fix(fixes, self.dynamic, names) or "apply torch's suggested fix to the dynamic shape spec"
                raise FrontendError("export_failed", "export",
                                    f"torch.export failed on '{self.spec}'{' at ' + where if where else ''}: {message}",
                                    hint) from exc
            problems = doctor.draft_report(self.model, self.inputs, dynamic_shapes, self.log)
            for p in problems:
                self.log("warning", f"draft_export: {p}")
            # One problem is the error above again; more are what a fix-one-rerun loop would find.
            listed = (f"; draft_export lists {len(problems)} problems: " + " | ".join(problems[:3])
                      + (" | …" if len(problems) > 3 else "") if len(problems) > 1 else "")
            raise FrontendError("export_failed", "export",
                                f"torch.export failed on '{self.spec}'{' at ' + where if where else ''}: {one_line(exc)}"
                                + listed, export_hint(exc)) from exc
        nodes = len(self.program.graph.nodes)
        self.log("info", f"exported graph: {nodes} nodes")
        self.qdq_nodes = doctor.quant_nodes(self.program.graph)
        if self.qdq_nodes and not self.freezing:
            if not self.freezing_given:
                self.freezing = True
                self.log("info", text("export.qdq_freezing_on", count=self.qdq_nodes))
            else:
                self.log("warning", text("export.qdq_freezing_off", count=self.qdq_nodes))
        dynamic.check(self)
        self.recipe = recipe.choose(self)  # recipe.Decision: which recipe and why (applied to self)
        try:
            self.guards = guards.collect(self.program, self.dim_names, getattr(self, "input_names", None))
            if getattr(self, "output_specs", None):
                self.guards["outputs"] = self.output_specs  # names for the C++ runner's output
        except Exception as exc:  # the package is still usable; its inputs just go unchecked
            self.log("warning", f"could not record the program's guards ({type(exc).__name__}: {exc}); "
                                "the runner will not check input shapes")
            self.guards = None
        if self.guards is not None:
            self.log("info", "input shapes: " + guards.summary(self.guards))
            for warning in dynamic.declared_ranges(self, self.guards):
                self.log("warning", warning)
            for item in self.guards["checks"] + self.guards["assertions"]:
                if not item.get("checkable"):
                    self.log("info", f"not checked before a call: {item.get('text') or item.get('message')}"
                                     + (f" ({item['source']})" if item.get("source") else ""))
        self._mark()
        self.snapshot("capture", "", self.program.graph)
        return {"nodes": nodes, "guards": self.guards}

    def decompose(self) -> dict:
        """Core ATen decomposition (``run_decompositions()``), kept as a snapshot of what the
        portable op set looks like. Inductor compiles the exported program with its own
        decomposition table; this stage is for inspection and costs one extra pass. Returns
        ``{"nodes", "non_core_ops"}``, or ``{"non_core_ops": [], "skipped": why}`` (and a warning)
        when the pinned torch cannot decompose the program: the compile goes on without it."""
        self._mark()
        try:
            decomposed = self.program.run_decompositions()
        except Exception as exc:
            # Inspection only: Inductor does not compile this graph, so a failure here (e.g. HF
            # GPT-2's "Cannot view a tensor with shape ... and strides ..." in the pinned torch's
            # run_decompositions) must not fail a compile that Inductor can do. No snapshot, a
            # warning, and the result says why the stage is missing.
            why = f"decomposing '{self.spec}' to core ATen failed: {one_line(exc)}"
            self.log("warning", f"{why}; the core ATen snapshot is left out, the compile goes on "
                                f"(Inductor decomposes the exported program itself)")
            return {"non_core_ops": [], "skipped": why}
        self.snapshot("decompose", "", decomposed.graph)
        non_core = sorted({str(n.target) for n in decomposed.graph.nodes
                           if n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload)
                           and torch.Tag.core not in n.target.tags})
        if non_core:
            self.log("info", f"ops outside core ATen after decomposition: {', '.join(non_core)}")
        return {"nodes": len(decomposed.graph.nodes), "non_core_ops": non_core}

    # -- snapshots ----------------------------------------------------------------------------
    def _mark(self):
        self._last_mark = time.perf_counter()

    def snapshot(self, stage: str, pass_name: str, graph) -> None:
        """Write ``graph`` as snapshot NN_stage[_pass].json under out/snapshots and announce it."""
        now = time.perf_counter()
        seconds, self._last_mark = now - self._last_mark, now
        entry = {"name": stage, "pass": pass_name, "nodes": len(graph.nodes), "snapshot": None,
                 "seconds": seconds}
        if self.take_snapshots:
            path = self._snapshot_path(stage, pass_name)
            graph_json.write_snapshot(graph_json.graph_to_json(graph, stage, pass_name), path)
            entry["snapshot"] = path
        self.stages.append(entry)
        self.emit({"type": "snapshot", "stage": stage, "pass": pass_name, "nodes": entry["nodes"],
                   "path": entry["snapshot"], "seconds": seconds})

    def _snapshot_path(self, stage: str, pass_name: str) -> str:
        """The next snapshot's path: out/snapshots/NNN_stage[_pass].json."""
        self._snapshot_seq += 1
        safe = "".join(c if c.isalnum() or c in "_-" else "_" for c in pass_name)
        return os.path.join(self.work, "snapshots", f"{self._snapshot_seq:03d}_{stage}{'_' + safe if safe else ''}.json")

    def unchanged_pass(self, stage: str, pass_name: str, graph) -> None:
        """Record a pass that ran and left the graph unchanged: listed in the result's ``stages``
        with ``changed: false`` (the studio hides these unless asked), no snapshot, no event."""
        now = time.perf_counter()
        seconds, self._last_mark = now - self._last_mark, now
        self.stages.append({"name": stage, "pass": pass_name, "nodes": len(graph.nodes), "snapshot": None,
                            "seconds": seconds, "changed": False})

    def compile(self) -> dict:
        """AOTInductor: compile and package into ``out/model.pt2``. The package is written under a
        temporary name and renamed, so a failed or interrupted compile leaves no half-written file.
        With the request's ``cache`` (default on) an identical earlier compile's package, trace and
        pass snapshots are reused instead of running Inductor, and Inductor's C++ is built through
        ccache (compilecache.py); the result's ``reuse`` says what was reused."""
        os.makedirs(self.work, exist_ok=True)
        final = os.path.join(self.work, "model.pt2")
        # Written under a temporary directory with the final file name (torch names the archive's
        # top folder after the file), then renamed into place.
        partial_dir = os.path.join(self.work, f".partial-{os.getpid()}")
        partial = os.path.join(partial_dir, "model.pt2")
        trace_root = os.path.join(self.work, "trace")
        self.compile_precision = verify.precision_settings()
        if os.path.isdir(trace_root):
            shutil.rmtree(trace_root, ignore_errors=True)  # a stale trace would be joined to new kernels
        options = self._inductor_options(trace_root)
        self.reuse = {"package": "off", "key": None, "ccache": None, "seconds_saved_estimate": None,
                      "reason": None if self.cache else "the request's cache is false"}
        self._mark()
        cache = self._cache_lookup(options)
        reused = cache is not None and self._cache_restore(cache, final, trace_root)
        first_stage = len(self.stages)
        started = time.perf_counter()
        ccache_stats = None if reused or not self.cache else self._ccache_setup(options)
        native_build = NativeBuildTimer()
        plan = compileplan.PlanRecorder()  # memory plan and fusion decisions (memory.json, fusion.json)
        if not reused:
            os.makedirs(partial_dir, exist_ok=True)
            try:
                # Inductor freezes only with grad disabled (compile_fx checks is_grad_enabled()).
                with PassRecorder(self.snapshot, self.log, self.unchanged_pass, self.check_stop), \
                        torch.set_grad_enabled(not self.freezing), native_build, plan, \
                        _cuda_arch_list(self.cuda_archs):
                    path = torch._inductor.aoti_compile_and_package(self.program, package_path=partial,
                                                                    inductor_configs=options)
            except Exception as exc:
                shutil.rmtree(partial_dir, ignore_errors=True)
                # Raised by a pass hook (perhaps wrapped by Inductor), or the native compiler was ended
                # by the engine on a cancel (Pipeline::endNativeBuilds): either way, a cancel.
                if self._cancelled_in is not None or self._should_stop():
                    raise FrontendError("cancelled", "compile", text("cancel.inductor"), "") from exc
                detail = doctor.compile_failure_detail(exc, self.program)
                raise FrontendError("compile_failed", "compile",
                                    f"AOTInductor failed to compile '{self.spec}'" + (f" ({detail})" if detail else "")
                                    + f": {one_line(exc)}",
                                    compile_hint(exc, self.device)) from exc
            finally:
                if ccache_stats is not None:
                    self.reuse["ccache"] = ccache_stats.read()
            if self.external_weights:
                _plain_weight_files(path)
            move_into_place(path, final)
            os.rmdir(partial_dir)
            try:
                compileplan.write_raw(plan, trace_root)  # inside trace/: kept and restored by the compile cache
            except Exception as exc:
                self.log("warning", f"the memory plan and fusion decisions could not be kept: {one_line(exc)}")
            if self.reuse["ccache"] is not None:
                c = self.reuse["ccache"]
                self.log("info", text("cache.ccache_counts", hits=c["hits"], calls=c["hits"] + c["misses"],
                                      uncacheable=c["uncacheable"]))
        inductor_seconds = time.perf_counter() - started
        compile_stages = self.stages[first_stage:]
        self.package = final
        if self.runtime == "lite":
            missing = lite.missing_functions(final, self.lite_runtime)
            if missing:
                # Kept for libtorch instead, saying why (issue 38: never a package the runtime refuses).
                self.log("warning", f"aotstudio-run-lite lacks {len(missing)} function(s) this package calls "
                                    f"({', '.join(missing)}): compiled again for the libtorch runtime")
                self.runtime, self.lite_missing = "libtorch", missing
                return self.compile()
        size = os.path.getsize(final)
        if not reused:
            self.log("info", f"package written: {final} ({size} bytes)")
        # The package's input guards beside it (the C++ runner checks every call against them).
        self.guards_path = guards.write_sidecar(self.guards, self.work) if self.guards is not None else None
        self._collect_kernels(trace_root)
        plan_summary = self._write_plan(trace_root, reused)
        if cache is not None and not reused:
            self._cache_store(cache, final, trace_root, compile_stages, inductor_seconds)
        warnings = []
        if self.qdq_nodes:
            quantized = self.kernel_summary.get("quantized_compute")
            if quantized is False:
                warnings.append({"code": "fp32_compute",
                                 "message": f"quantized weights but fp32 compute: the graph holds {self.qdq_nodes} "
                                            "quantize/dequantize nodes and no generated kernel computes in int8",
                                 "hint": "compile with --freezing (Inductor lowers q/dq patterns to quantized kernels "
                                         "only on frozen weights)" if not self.freezing else
                                         "Inductor found no quantized pattern it lowers on this device; the model "
                                         "runs in fp32 with extra quantize/dequantize work"})
                self.log("warning", warnings[-1]["message"] + "; " + warnings[-1]["hint"])
        return {"package": final, "package_bytes": size, "stages": self.stages, "warnings": warnings,
                "compat": self._compat(options), "runtime": self.runtime, "lite_missing": self.lite_missing,  # lite.py
                "kernels": self.kernel_summary, "guards_path": self.guards_path,
                "inductor_cache": "allowed" if self.allow_cache else "disabled",
                # The native C++ build's wall time inside this compile (null when the package was reused).
                "native_build": None if reused else native_build.result(),
                "reuse": self.reuse,
                # memory.json and fusion.json beside the package (compileplan.py; FORMAT.md "Memory plan").
                "memory": plan_summary["memory"], "fusion": plan_summary["fusion"],
                "recipe": recipe.result_json(self, plan_summary),  # FORMAT.md "compile result"
                "options": {"device": self.device, "dtype": self.dtype_name, "freezing": self.freezing,
                            "dynamic": self.dynamic_specs, "shapes": self.shapes or None,
                            "max_autotune": self.max_autotune, "allow_cache": self.allow_cache, "cache": self.cache,
                            "external_weights": self.external_weights, "inductor": self.inductor,
                            "cuda_archs": self.cuda_archs or None}}

    def _compat(self, options: dict) -> dict:
        """What the package's compatibility key takes from the compile (core/runtime/BUNDLE.md
        "Compatibility key"; the export reads the rest, the CPU ISA and GPU architectures, from
        the package's own files): torch, CUDA and Python versions, precision, the model and
        options hashes (compilecache.compat_digests, shared with the cache key). A hash that
        cannot be computed is null with ``hash_error`` saying why."""
        out = {"torch": torch.__version__, "cuda": torch.version.cuda or None,
               "python": ".".join(map(str, sys.version_info[:2])), "device": self.device,
               "precision": self.dtype_name, "scheme": getattr(self.options, "scheme", None) or None,
               "freezing": bool(self.freezing), "model_sha256": None, "options_sha256": None}
        try:
            out.update(compilecache.compat_digests(self, options))
        except Exception as exc:  # KeyUnavailable: a constant without readable bytes
            out["hash_error"] = one_line(exc)
        return out

    # -- the compile cache (compilecache.py) ------------------------------------------------------
    def _inductor_options(self, trace_root: str) -> dict:
        """The Inductor options of this compile (trace into ``trace_root``, the request's switches
        and a recipe's options); turns ``external_weights`` off with freezing (logged)."""
        options = {
            # Debug trace (IR before/after fusion, output code, provenance mappings) into out/trace.
            "trace.enabled": True,
            "trace.debug_dir": trace_root,
            # Level 1: node.meta["from_node"] names the pass that created each node, and kernels
            # map to post-grad and pre-grad nodes.
            "trace.provenance_tracking_level": 1,
            # A cache hit skips the passes and writes no trace: stages would silently vanish.
            "force_disable_caches": not self.allow_cache,
            "freezing": self.freezing,
            "max_autotune": self.max_autotune,
        }
        if self.device == "cpu":
            # Each generated C++ kernel becomes a named RecordFunction range (for the profiler).
            options["cpp.enable_kernel_profile"] = True
        options.update(self.inductor)  # a recipe's options (checked in __init__; none reserved)
        if self.external_weights and self.freezing:
            # Freezing packs weights into opaque oneDNN tensors (OpaqueTensorImpl, no storage),
            # which torch's pickle_weights cannot save ("Cannot access storage of
            # OpaqueTensorImpl"): a frozen package keeps its weights in its .so.
            self.external_weights = False
            self.log("info", "freezing is on: the weights stay inside the package (frozen weights are packed "
                             "into opaque oneDNN tensors that cannot be stored outside it, so a bundle cannot share them)")
        if self.cuda_archs:
            # Fatbins with SASS for TORCH_CUDA_ARCH_LIST (set around the compile: _cuda_arch_list)
            # plus the compile GPU's PTX: options.parse_cuda_archs().
            options["aot_inductor.emit_multi_arch_kernel"] = True
        if self.runtime == "lite":
            options.update(lite.INDUCTOR_OPTIONS)  # aotstudio-run-lite's shim binds the aoti_torch_* calls
        if self.external_weights:
            # Each constant as its own torch.save file in data/weights/ with weights_config.json
            # (FQN -> file, shape, stride, offset), nothing in the .so; the C++ runner binds them
            # with load_constants (core/runtime/aotirunner.cpp). Torch's own on-disk format, so the
            # package stays what torch writes; an export moves the files out to share them.
            options["aot_inductor.package_constants_in_so"] = False
            options["aot_inductor.package_constants_on_disk_format"] = "pickle_weights"
        return options

    def compile_key(self) -> str:
        """After export(): the compile cache key compile() would look up (compilecache.package_key),
        or None when the cache is off for this request or the program cannot be keyed."""
        if self.compile_precision is None:
            self.compile_precision = verify.precision_settings()
        options = self._inductor_options(os.path.join(self.work, "trace"))
        self.reuse = {"package": "off", "key": None, "ccache": None, "seconds_saved_estimate": None, "reason": None}
        return self.reuse["key"] if self._cache_lookup(options) is not None else None

    def _cache_lookup(self, options: dict):
        """The package cache and this compile's key in ``self.reuse`` (package "miss" for now), or
        None when the request's cache is off or the compile cannot be keyed (said in the log)."""
        if not self.cache:
            return None
        try:
            key, seconds = compilecache.package_key(self, options, compilecache.configured_compiler(options))
        except Exception as exc:  # KeyUnavailable, or a torch whose program API differs: run uncached
            why = one_line(exc) if not isinstance(exc, compilecache.KeyUnavailable) else str(exc)
            self.reuse["reason"] = why
            self.log("info", text("cache.key_unavailable", error=why))
            return None
        self.log("debug", f"compile cache key {key} ({seconds:.3f} s to compute)")
        self.reuse.update(package="miss", key=key)
        self._key_seconds = seconds
        return compilecache.PackageCache()

    def _cache_restore(self, cache, final: str, trace_root: str) -> bool:
        """On a hit: the entry's package, trace and snapshots into this job's folder, its compile
        stages appended to ``self.stages`` (``reused``: true) and their ``snapshot`` events sent
        again, as the pass hooks sent them. Returns whether the entry was used; a damaged one is
        dropped (package "corrupt", a warning) and the compile runs cold."""
        key = self.reuse["key"]
        started = time.perf_counter()
        restore_dir = os.path.join(self.work, f".partial-{os.getpid()}-reuse")
        shutil.rmtree(restore_dir, ignore_errors=True)
        try:
            entry = cache.restore(key, restore_dir)
        except compilecache.Damaged as exc:
            cache.drop(key)
            self.reuse.update(package="corrupt", reason=str(exc))
            self.log("warning", text("cache.package_damaged", key=key[:16], problem=str(exc)))
            return False
        except OSError as exc:  # a read or write error: compile as if there were no entry
            shutil.rmtree(restore_dir, ignore_errors=True)
            self.reuse["reason"] = f"the entry could not be read: {exc}"
            self.log("warning", text("cache.package_unreadable", key=key[:16], error=str(exc)))
            return False
        if entry is None:
            return False
        os.replace(os.path.join(restore_dir, "model.pt2"), final)
        if os.path.isdir(os.path.join(restore_dir, "trace")):
            os.replace(os.path.join(restore_dir, "trace"), trace_root)
        for stage in entry.get("stages", []):
            # This job spent no time in the pass: its seconds are 0 here (the Pipeline's rows add
            # up to this job's wall time); the cold compile's figure stays as original_seconds.
            stage = dict(stage, reused=True, seconds=0.0, original_seconds=stage.get("seconds", 0.0))
            if stage.get("snapshot"):
                target = self._snapshot_path(stage["name"], stage["pass"])
                os.makedirs(os.path.dirname(target), exist_ok=True)
                os.replace(stage["snapshot"], target)
                stage["snapshot"] = target
            self.stages.append(stage)
            if stage.get("changed", True) is not False:
                self.emit({"type": "snapshot", "stage": stage["name"], "pass": stage["pass"], "nodes": stage["nodes"],
                           "path": stage["snapshot"], "seconds": 0.0, "reused": True})
        shutil.rmtree(restore_dir, ignore_errors=True)
        spent = time.perf_counter() - started + getattr(self, "_key_seconds", 0.0)
        saved = max(0.0, float(entry.get("compile_seconds", 0.0)) - spent)
        self.reuse.update(package="hit", seconds_saved_estimate=round(saved, 3))
        self.log("info", text("cache.package_reused", key=key[:16], seconds=saved))
        self._mark()
        return True

    def _ccache_setup(self, options: dict):
        """Route Inductor's C++ compiler through ccache (``cpp.cxx`` = our wrapper script, see
        compilecache.py); returns the CcacheStats of this compile, or None when ccache is not
        installed (said once per process) or the configured compiler is not one we can wrap."""
        global _ccache_missing_said
        ccache = shutil.which("ccache")
        if ccache is None:
            if not _ccache_missing_said:
                _ccache_missing_said = True
                self.log("info", text("cache.ccache_missing"))
            return None
        compiler = compilecache.configured_compiler(options)
        if compiler is None:
            self.log("debug", "ccache not used: the configured C++ compiler is a command, ccache itself or not found")
            return None
        try:
            wrapper = compilecache.compiler_wrapper(compiler[0], compiler[1], ccache)
        except OSError as exc:
            self.log("warning", text("cache.ccache_unusable", error=str(exc)))
            return None
        if wrapper is None:
            self.log("debug", "ccache not used: the cache folder is not an absolute path ($AOTSTUDIO_CACHE_DIR, "
                              "$XDG_CACHE_HOME or $HOME)")
            return None
        script, folder = wrapper
        options["cpp.cxx"] = shlex.quote(script)  # torch splits the compiler setting with shlex
        self.log("debug", f"Inductor's C++ compiler: {script} (ccache {ccache} over {compiler[1]})")
        return compilecache.CcacheStats(folder)

    def _cache_store(self, cache, final: str, trace_root: str, stages: list, seconds: float) -> None:
        """Keep this cold compile's package, trace and compile-stage snapshots under its key.
        A failure is a warning: the compile itself succeeded."""
        key = self.reuse["key"]
        try:
            files = {"model.pt2": final}
            if os.path.isdir(trace_root):
                for rel in compilecache._files_under(trace_root):
                    files["trace/" + rel] = os.path.join(trace_root, rel)
            kept = []
            for index, stage in enumerate(stages):
                stage = {k: v for k, v in stage.items() if k != "reused"}
                if stage.get("snapshot"):
                    rel = f"snapshots/{index:03d}.json"
                    files[rel] = stage["snapshot"]
                    stage["snapshot"] = rel
                kept.append(stage)
            stored = cache.store(key, files, {"created": time.time(), "model": self.spec, "device": self.device,
                                              "dtype": self.dtype_name, "torch_version": torch.__version__,
                                              "compile_seconds": seconds, "stages": kept})
        except Exception as exc:
            self.log("warning", text("cache.store_failed", error=one_line(exc)))
            return
        if stored:
            self.log("debug", f"stored in the compile cache as {key} ({stored} bytes, {cache.path(key)})")
        else:
            self.log("debug", f"not stored in the compile cache: larger than its size bound ({cache.folder})")

    def _write_plan(self, trace_root: str, reused: bool) -> dict:
        """memory.json and fusion.json into the job folder from the plan recorded while Inductor ran
        (or restored with a cached package); their summaries for the result. A failure here is a
        warning and a result saying the plan is unavailable: the compile itself succeeded."""
        try:
            summary = compileplan.build_files(self.work, self.kernel_summary.get("trace_dir"), trace_root,
                                              self._kernels_data, self.device, reused)
        except Exception as exc:
            why = f"the memory plan could not be written: {one_line(exc)}"
            self.log("warning", why)
            off = {"path": None, "available": False, "complete": False, "reason": why}
            return {"memory": dict(off), "fusion": dict(off)}
        m, f = summary["memory"], summary["fusion"]
        if m.get("available"):
            self.log("info", f"memory plan: predicted peak {m['predicted_peak_bytes']} bytes "
                             f"({m['planned_peak_bytes']} as the generated code allocates), {m['buffers']} buffers, "
                             f"weights {m['constants_bytes']} bytes; fusion: {f['fused_kernels']} fused kernels, "
                             f"{f['refused']} refused pairs ({m['seconds']:.3f} s)")
        else:
            self.log("info", f"memory plan not available: {m.get('reason')}")
        return summary

    def _collect_kernels(self, trace_root: str) -> None:
        trace_dir = kernels.find_trace_dir(trace_root)
        if trace_dir is None:
            self.log("warning", "Inductor wrote no debug trace (a cache hit?): no kernel list or fusion stage")
            self.kernel_summary = {"count": 0, "path": None, "by_kind": {}, "trace_dir": None}
            return
        self._mark()
        data = kernels.build_kernel_list(trace_dir, self.device)
        self._kernels_data = data
        path = os.path.join(self.work, "kernels.json")
        graph_json.write_snapshot(data, path)
        by_kind = {}
        for k in data["kernels"]:
            by_kind[k["kind"]] = by_kind.get(k["kind"], 0) + 1
        pre, post = data["scheduler_nodes_pre_fusion"], data["scheduler_nodes_post_fusion"]
        now = time.perf_counter()
        self.stages.append({"name": "fusion", "pass": "", "nodes": post, "nodes_before": pre,
                            "snapshot": os.path.join(trace_dir, "ir_post_fusion.txt"), "seconds": 0.0})
        self.stages.append({"name": "codegen", "pass": "", "nodes": len(data["kernels"]), "snapshot": path,
                            "seconds": now - self._last_mark})
        self.kernel_summary = {"count": len(data["kernels"]), "path": path, "by_kind": by_kind,
                               "trace_dir": trace_dir,
                               "quantized_compute": doctor.quantized_compute(data["kernels"])}
        self.log("info", f"{len(data['kernels'])} kernels ({', '.join(f'{v} {k}' for k, v in sorted(by_kind.items()))}); "
                         f"scheduler nodes {pre} before fusion, {post} after")

    # -- helpers used by the C++ side -----------------------------------------------------------
    @staticmethod
    def _flat(out):
        leaves, _ = pytree.tree_flatten(out)
        return [t.detach() for t in leaves if isinstance(t, torch.Tensor)]

    def input_capsules(self) -> list:
        """The flattened example inputs as DLPack capsules (zero-copy, with the example's strides:
        a package compiled for channels-last inputs gets channels-last ones), in the order the AOTI
        package expects them (pytree order of the positional arguments)."""
        leaves, _ = pytree.tree_flatten(self.inputs)
        return [torch.utils.dlpack.to_dlpack(t) for t in leaves]

    def run_eager(self) -> None:
        """One eager forward on the example inputs; on CUDA it waits for the device so a C++
        wall-clock timer around it measures the whole forward."""
        with torch.inference_mode():
            self.model(*self.inputs)
        if self.device == "cuda":
            torch.cuda.synchronize()

    # -- the compile pipeline's verify stage (verify.py; driven by core/pipeline/compilejob.cpp) --
    def verify_begin(self) -> int:
        """Plan the verify calls (the example, a second call for a stateful model, seeded inputs);
        returns how many. The model's state is put back to what export captured."""
        self._verifier = verify.Verifier(self, self.verify_samples)
        return self._verifier.begin()

    def verify_inputs(self, index: int) -> list:
        """Inputs of verify call ``index`` as DLPack capsules (eager runs on the same values now)."""
        return self._verifier.inputs(index)

    def verify_outputs(self, index: int, capsules: list) -> None:
        """The package's outputs of verify call ``index``."""
        self._verifier.outputs(index, capsules)

    def verify_end(self) -> dict:
        """The verify result (FORMAT.md, "verify"); raises FrontendError(mismatch)."""
        result = self._verifier.finish()
        if self.runtime == "lite":  # the shipped package in the runtime that will run it
            result["lite_runtime"] = lite.verify_in_runtime(self, self._verifier, self.lite_runtime)
        self._verified = True
        return result

    def verify_revoke(self) -> None:
        """A size other than the example failed verify's shape check (compilejob.cpp): the package
        is not verified after all (abandon() keeps it as model.unverified.pt2)."""
        self._verified = False

    # -- verification across shapes (sweep.py; driven by core/pipeline/sweepjob.cpp) ------------
    def sweep_begin(self) -> list:
        """Start a shape sweep over this job's model (after load()); its points go through
        ``self.sweep`` (sweep.ShapeSweep). Returns the example's flattened input shapes."""
        from . import sweep
        self.sweep = sweep.ShapeSweep(self)
        return self.sweep.example_shapes()

    # -- numerics (numerics.py; driven by numericsjob.cpp) --
    @property
    def numerics(self):
        """This job's numerics.Numerics (node-by-node errors against a high-precision reference),
        made on first use."""
        if getattr(self, "_numerics", None) is None:
            from .numerics import Numerics
            self._numerics = Numerics(self)
        return self._numerics

    def write_repro(self, what: dict) -> dict:
        """After export(): a standalone repro of ``what["failure"]`` (a failed compile's error:
        stage, code, message) in ``what["folder"]`` (repro.py; FORMAT.md "Repro"). Returns the repro
        record."""
        from . import repro
        return repro.write(self, what["folder"], what["failure"])

    def write_numerics_repro(self, what: dict) -> dict:
        """After export(): a standalone repro of a numerics divergence (``what["numerics"]``: the
        numerics result) in ``what["folder"]``: the first divergent node alone with its inputs
        (repro.write_numerics). Raises FrontendError bad_request naming what is missing."""
        from . import repro
        from .errors import FrontendError
        try:
            return repro.write_numerics(self, what["folder"], what["failure"], what["numerics"])
        except ValueError as exc:
            raise FrontendError("bad_request", "write", str(exc),
                                "run numerics again with this version, or pick a job with a divergent node") from exc

    def confirm_repro(self, what: dict) -> dict:
        """Run a written repro (``what["record"]``) once in a fresh process (at most
        ``what["timeout"]`` s) and record whether it reproduced (repro.confirm)."""
        from . import repro
        return repro.confirm(what["record"], float(what.get("timeout", 900.0)))

    # -- tune (tune.py; driven by tunejob.cpp) --
    @property
    def tune_jit(self):
        """This job's tune.JitBaseline (``torch.compile`` with its defaults on the same model and
        inputs), made on first use."""
        if getattr(self, "_tune_jit", None) is None:
            from .tune import JitBaseline
            self._tune_jit = JitBaseline(self)
        return self._tune_jit

    # -- regional compilation (regional.py; driven by compilejob.cpp when the request says regional) --
    def regional_compile(self) -> dict:
        """One weightless package per repeated block class under OUT/blocks (regional.py)."""
        from . import regional
        self._mark()
        self.regional = regional.Regional(self)
        result = self.regional.compile()
        result["groups"] = [g.to_json() for g in self.regional.groups]
        return result

    def regional_verify(self) -> dict:
        """The model with compiled blocks against eager; raises FrontendError(mismatch)."""
        return self.regional.verify()

    def run_regional(self) -> None:
        """One forward with every block instance on its compiled package (for timing)."""
        self.regional.run()
        if self.device == "cuda":
            torch.cuda.synchronize()

    # -- the output folder (outdir.py) ------------------------------------------------------------
    def commit(self, compiled: dict = None) -> dict:
        """Every stage succeeded: the staged files replace the previous compile's in OUT. Returns
        ``compiled`` (the compile stage's result) with its paths pointing into OUT."""
        if not self.staging or self._finished:
            return compiled
        replaced = outdir.commit(self.out, self.work)
        self._finished = True
        if replaced:
            self.log("debug", f"replaced the previous compile's {', '.join(replaced)} in {self.out}")
        self._repath({})
        return outdir.rewrite(compiled, self.work, self.out)

    def abandon(self, code: str = "") -> dict:
        """A stage failed (error ``code``) or was cancelled: the previous compile's files go to
        OUT/previous-<time>/, this compile's files into OUT with the package as
        model.unverified.pt2 unless it passed verification. A bad request changes nothing."""
        if not self.staging or self._finished:
            return {}
        self._finished = True
        try:
            moved = outdir.abandon(self.out, self.work, self._verified, discard=code == "bad_request")
        except OSError as exc:
            self.log("warning", f"could not tidy the output folder {self.out}: {exc}")
            return {}
        if moved["previous"]:
            self.log("warning", f"the previous compile's files ({', '.join(moved['moved'])}) were moved to "
                                f"{moved['previous']} so that none of them is taken for this failed compile's")
        if moved["unverified_package"]:
            self.log("warning", f"the package that did not pass verification is kept as {moved['unverified_package']}; "
                                "export --from refuses this folder")
        self._repath({os.path.join(self.out, "model.pt2"): moved["unverified_package"]}
                     if moved["unverified_package"] else {})
        return moved

    def _repath(self, renamed: dict) -> None:
        fix = lambda v: renamed.get(v, v) if isinstance(v, str) else v
        self.package = fix(outdir.rewrite(self.package, self.work, self.out))
        self.stages = outdir.rewrite(self.stages, self.work, self.out)
        self.kernel_summary = outdir.rewrite(self.kernel_summary, self.work, self.out)
