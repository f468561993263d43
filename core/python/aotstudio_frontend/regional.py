# SPDX-License-Identifier: GPL-3.0-or-later
"""Regional compilation: compile each repeated block of a model once and reuse the package for
every instance, its weights bound at run time.

A transformer or diffusion model is mostly N copies of one block. AOTInductor compiles the whole
graph, so compile time grows with N; compiling one block and reusing it cuts that to about one
block's time (Hugging Face's ZeroGPU AoT recipe, https://huggingface.co/blog/zerogpu-aoti). The
package is built with ``aot_inductor.package_constants_in_so=False`` (no weights inside: it is
weightless) and each instance's ``state_dict()`` is bound with
``AOTICompiledModel.load_constants(..., user_managed=True)`` (no copy) before the instance runs.

Layout written under OUT/blocks (the one ``spaces.aoti_blocks_load`` reads: a folder named after
the block class holding ``package.pt2``), plus ``block.json`` (class, instances, inputs, the
constants the package expects). core/runtime/BUNDLE.md documents it.
"""

import dataclasses
import os
import time

import torch
import torch.utils._pytree as pytree

from . import inputs as structured
from . import verify
from .errors import FrontendError, one_line
from .files import move_into_place, write_json_atomic


@dataclasses.dataclass
class BlockGroup:
    """Modules of one class with the same state_dict keys, shapes and dtypes: one package serves
    them all. ``paths`` are module paths (``blocks.0``) in model order; ``parameters`` per instance."""
    class_name: str
    paths: list
    parameters: int
    signature: tuple

    def to_json(self) -> dict:
        return {"class": self.class_name, "instances": list(self.paths), "parameters_per_instance": self.parameters}


def _signature(module) -> tuple:
    return tuple((k, tuple(v.shape), str(v.dtype)) for k, v in module.state_dict().items())


def find_repeated_blocks(model, min_count: int = 2) -> list:
    """The model's repeated blocks, largest first: ``model._repeated_blocks`` (a list of class names,
    as diffusers models declare) when present, else every class with at least ``min_count``
    structurally identical instances that hold parameters, keeping only the outermost (a layer
    inside a repeated block is not a block of its own). Returns [BlockGroup]."""
    named = [(n, m) for n, m in model.named_modules() if n]
    declared = getattr(model, "_repeated_blocks", None)
    groups = {}
    for name, m in named:
        if declared and type(m).__name__ not in declared:
            continue
        params = sum(p.numel() for p in m.parameters())
        if params == 0:
            continue
        key = (type(m).__module__, type(m).__qualname__, _signature(m))
        groups.setdefault(key, []).append(name)
    # Named by __name__, as spaces.aoti_blocks_load matches `block.__class__.__name__`.
    found = [BlockGroup(type(model.get_submodule(paths[0])).__name__, paths,
                        sum(p.numel() for p in model.get_submodule(paths[0]).parameters()), key[2])
             for key, paths in groups.items() if len(paths) >= min_count]
    # Outermost only: largest groups first; an instance inside an instance already chosen runs as
    # part of that block's package, so it is dropped, and a group left with fewer than
    # ``min_count`` instances is no block of its own (GPT-2's LayerNorms inside GPT2Block, ln_f).
    found.sort(key=lambda g: g.parameters * len(g.paths), reverse=True)
    chosen, taken = [], []
    for g in found:
        paths = [p for p in g.paths if not any(p.startswith(t + ".") or p == t for t in taken)]
        if len(paths) >= min_count:
            g.paths = paths
            chosen.append(g)
            taken.extend(paths)
    return chosen


def _shallow_clone(module):
    """A module sharing ``module``'s parameters and buffers with its own ``forward`` slot, so the
    clone can be exported while the original's forward is replaced by the compiled block."""
    clone = object.__new__(module.__class__)
    clone.__dict__ = module.__dict__.copy()
    clone._parameters = module._parameters.copy()
    clone._buffers = module._buffers.copy()
    clone._modules = {k: _shallow_clone(v) for k, v in module._modules.items() if v is not None}
    clone.__dict__.pop("forward", None)
    return clone


class Regional:
    """Regional compile of ``job`` (a CompileJob after load()): compile(), then verify() and run()
    (a forward of the whole model with every block instance on its compiled package)."""

    def __init__(self, job):
        self.job = job
        if job.requested_dynamic or job.dynamic_batch is not None:
            dims = ", ".join(sorted({str(v) for v in job.requested_dynamic.values()})) or "the batch"
            raise FrontendError("bad_request", "compile",
                                f"--regional compiles each block at the example's shapes only, and '{job.spec}' asks for "
                                f"dynamic dimensions ({dims}): a block package called at another size would compute "
                                "garbage without an error (AOTInductor does not check input shapes)",
                                "compile regionally without dynamic dimensions (one compile per shape), or compile the "
                                "whole model with them")
        self.groups = find_repeated_blocks(job.model)
        if not self.groups:
            raise FrontendError("bad_request", "compile",
                                f"'{job.spec}' has no repeated blocks (no class with two or more identical instances "
                                "holding weights): regional compilation has nothing to reuse",
                                "compile it whole (without --regional)")
        self.compiled = {}  # class name -> AOTICompiledModel
        self.bound = None  # instance path currently bound, per class
        self.patched = False
        self.records = []
        self._current = {}  # id(compiled package) -> instance path whose weights are bound

    def _capture(self) -> dict:
        """(args, kwargs) of each group's first instance while the whole model runs once."""
        captured, handles = {}, []
        for g in self.groups:
            def hook(_m, a, k, name=g.class_name):
                if name not in captured:
                    captured[name] = pytree.tree_map_only(torch.Tensor, lambda t: t.detach().clone(), (tuple(a), dict(k)))
            handles.append(self.job.model.get_submodule(g.paths[0]).register_forward_pre_hook(hook, with_kwargs=True))
        try:
            with torch.no_grad():
                self.job.model(*self.job.inputs)
        finally:
            for h in handles:
                h.remove()
        return captured

    def compile(self) -> dict:
        """Export and AOTI-compile one weightless package per block class into OUT/blocks/CLASS/.
        Returns {"blocks": [...], "seconds": total, "package_bytes": total}."""
        job = self.job
        captured = self._capture()
        root = os.path.join(job.work, "blocks")
        os.makedirs(root, exist_ok=True)
        total_seconds, total_bytes, blocks = 0.0, 0, []
        for g in self.groups:
            if g.class_name not in captured:
                job.log("warning", f"{g.class_name} was not called when the model ran: left eager")
                continue
            args, kwargs = captured[g.class_name]
            block = _shallow_clone(job.model.get_submodule(g.paths[0]))
            t0 = time.perf_counter()
            try:
                program = torch.export.export(block, args, kwargs, strict=False)
            except Exception as exc:
                raise FrontendError("export_failed", "compile",
                                    f"torch.export failed on the block {g.class_name} ({g.paths[0]}): {one_line(exc)}",
                                    "compile the model whole (without --regional), or fix the block's forward") from exc
            export_s = time.perf_counter() - t0
            folder = os.path.join(root, g.class_name)
            os.makedirs(folder, exist_ok=True)
            partial_dir = os.path.join(folder, f".partial-{os.getpid()}")
            os.makedirs(partial_dir, exist_ok=True)
            options = {"aot_inductor.package_constants_in_so": False, "freezing": False,
                       "force_disable_caches": not job.allow_cache, "max_autotune": job.max_autotune}
            t1 = time.perf_counter()
            try:
                path = torch._inductor.aoti_compile_and_package(
                    program, package_path=os.path.join(partial_dir, "package.pt2"), inductor_configs=options)
            except Exception as exc:
                import shutil
                shutil.rmtree(partial_dir, ignore_errors=True)
                raise FrontendError("compile_failed", "compile",
                                    f"AOTInductor failed to compile the block {g.class_name}: {one_line(exc)}",
                                    "compile the model whole (without --regional)") from exc
            compile_s = time.perf_counter() - t1
            final = os.path.join(folder, "package.pt2")
            move_into_place(path, final)
            os.rmdir(partial_dir)
            size = os.path.getsize(final)
            constants = sorted(block.state_dict().keys())
            module = type(block).__module__
            if module.startswith("aotstudio_user_"):  # a class defined in the factory file itself
                module = job.spec.split("#", 1)[0].rpartition(":")[0] or module
            try:
                names = structured.bind(block, args, kwargs, lambda level, message: None)[0]
            except FrontendError:
                names = [n for n, _ in _named_leaves(args, kwargs)]
            tensors = [t for _, t in _named_leaves(args, kwargs)]
            info = {"class": g.class_name, "module": module, "instances": g.paths,
                    "parameters_per_instance": g.parameters, "package": "package.pt2", "package_bytes": size,
                    "constants": constants, "weights_in_package": False,
                    "inputs": [dict(shape=list(t.shape), dtype=str(t.dtype).replace("torch.", ""), name=n)
                               for n, t in zip(names, tensors)],
                    # The call the package was exported for: these keyword arguments must be passed by name.
                    "keywords": sorted(kwargs),
                    "static_shapes": True,
                    "export_seconds": export_s, "compile_seconds": compile_s,
                    "torch_version": torch.__version__, "device": job.device}
            write_json_atomic(os.path.join(folder, "block.json"), info, indent=1)
            info["package"] = final  # the result's copy points at the file (block.json keeps it relative)
            job.log("info", f"block {g.class_name}: exported in {export_s:.1f} s, compiled in {compile_s:.1f} s, "
                            f"{size} bytes without weights; reused by {len(g.paths)} instances ({', '.join(g.paths[:4])}"
                            f"{', …' if len(g.paths) > 4 else ''})")
            self.compiled[g.class_name] = torch._inductor.aoti_load_package(final)
            total_seconds += export_s + compile_s
            total_bytes += size
            blocks.append(info)
        covered = sum(g.parameters * len(g.paths) for g in self.groups if g.class_name in self.compiled)
        whole = sum(p.numel() for p in job.model.parameters()) or 1
        self.records = blocks
        return {"blocks": blocks, "seconds": total_seconds, "package_bytes": total_bytes,
                "parameter_share": covered / whole, "layout": os.path.join(job.work, "blocks")}

    # -- running the whole model with compiled blocks --------------------------------------------
    def _patch(self, on: bool) -> None:
        if on == self.patched:
            return
        for g in self.groups:
            compiled = self.compiled.get(g.class_name)
            if compiled is None:
                continue
            for path in g.paths:
                module = self.job.model.get_submodule(path)
                if on:
                    module.forward = self._bound_forward(compiled, module, path)
                else:
                    module.__dict__.pop("forward", None)
        self.patched = on

    def _bound_forward(self, compiled, module, path):
        weights = dict(module.state_dict())
        key = id(compiled)

        def forward(*args, **kwargs):
            if self._current.get(key) != path:
                # The package's weights are this instance's: bound without a copy.
                compiled.load_constants(weights, check_full_update=True, user_managed=True)
                self._current[key] = path
            return compiled(*args, **kwargs)
        return forward

    def run(self) -> None:
        """One forward of the whole model with every block on its compiled package."""
        self._patch(True)
        try:
            with torch.inference_mode():
                self.job.model(*self.job.inputs)
        finally:
            self._patch(False)

    def verify(self) -> dict:
        """The regional forward against eager on the example inputs (the tolerance of the job).
        Raises FrontendError(mismatch) naming the worst output."""
        job = self.job
        with torch.inference_mode():
            ref = verify.named_tensors(job.model(*job.inputs))
            self._patch(True)
            try:
                got = verify.named_tensors(job.model(*job.inputs))
            finally:
                self._patch(False)
        outputs, worst = [], 0.0
        for (name, e), (_, c) in zip(ref, got):
            m = verify.compare(c, e)
            outputs.append(dict(m, name=name, shape=list(e.shape), dtype=str(e.dtype).replace("torch.", ""),
                                passed=bool(m["max_abs_error"] <= job.tolerance)))  # NaN fails, as verify.py
            worst = verify.nan_max(worst, m["max_abs_error"])
        if not worst <= job.tolerance:
            bad = max(outputs, key=lambda o: o["max_abs_error"] if o["max_abs_error"] == o["max_abs_error"] else 1e300)
            raise FrontendError("mismatch", "verify",
                                f"the model with compiled blocks differs from eager: output '{bad['name']}' max abs error "
                                f"{bad['max_abs_error']:.3g} (tolerance {job.tolerance:.3g})",
                                "compile it whole to see whether the difference is the blocks' or the compiler's")
        return {"max_abs_error": worst, "tolerance": job.tolerance, "outputs": outputs,
                "verdict": f"matches eager on the example input (max abs error {worst:.3g})"}


def _named_leaves(args, kwargs):
    leaves, _ = pytree.tree_flatten_with_path((args, kwargs))
    out = []
    for path, leaf in leaves:
        if isinstance(leaf, torch.Tensor):
            out.append((structured.path_name("", path), leaf))
    return out
