# SPDX-License-Identifier: GPL-3.0-or-later
"""Verification across shapes (FORMAT.md, "sweep"; driven by core/pipeline/sweepjob.cpp).

The C++ side plans the shapes (core/bundle/sweepplan.h) from the package's guards, and for each
asks :meth:`ShapeSweep.prepare` for seeded inputs of those shapes (drawn like the example: same
dtypes, value ranges and memory layout), on which eager runs first; then it runs the package on
:meth:`ShapeSweep.inputs` (in process, or in a child process through :meth:`ShapeSweep.save_inputs`)
and hands the outputs to :meth:`ShapeSweep.compare`, which compares them output by output with
eager's, as the verify stage does (verify.py), against a higher-precision reference for bf16/fp16.

An eager failure at a shape is the model's own (recorded as ``eager_error``), never blamed on the
compiler.
"""

import os
import weakref

import torch
import torch.utils._pytree as pytree

from . import verify
from .errors import one_line
from .files import atomic_file

#: Seed of point i's inputs: SEED_BASE + i (the example point uses the example itself).
SEED_BASE = 7000


def draw(example: torch.Tensor, shape: list, gen: torch.Generator) -> torch.Tensor:
    """A tensor of ``shape`` drawn like ``example`` (quant.generate_samples' rules: floating inputs
    from a normal with the example's mean and spread, clamped to its range when it is non-negative;
    0/1 masks all ones or all zeros when the example's is, else random 0/1; integers uniformly in
    the example's range), with the example's dtype, device and memory format."""
    t = example.detach().cpu()
    shape = [int(s) for s in shape]
    if t.is_floating_point():
        f = t.float()
        mean = float(f.mean()) if f.numel() else 0.0
        std = float(f.std()) if f.numel() > 1 else 1.0
        r = torch.randn(shape, generator=gen) * (std or 1.0) + mean
        if f.numel() and float(f.min()) >= 0.0:
            r = r.clamp(min=float(f.min()), max=float(f.max()))
        out = r.to(t.dtype)
    elif t.dtype == torch.bool or (t.numel() and set(t.unique().tolist()) <= {0, 1}):
        values = set(t.unique().tolist()) if t.numel() else {1}
        if values == {1}:
            out = torch.ones(shape, dtype=t.dtype)
        elif values == {0}:
            out = torch.zeros(shape, dtype=t.dtype)
        else:
            out = torch.randint(0, 2, shape, generator=gen).to(t.dtype)
    else:
        lo, hi = (int(t.min()), int(t.max())) if t.numel() else (0, 1)
        out = torch.randint(lo, hi + 1, shape, generator=gen, dtype=t.dtype)
    fmt = verify.memory_format(example)
    if fmt == "channels_last" and out.dim() == 4:
        out = out.contiguous(memory_format=torch.channels_last)
    elif fmt == "channels_last_3d" and out.dim() == 5:
        out = out.contiguous(memory_format=torch.channels_last_3d)
    return out.to(example.device)


def _like_example(values: torch.Tensor, example: torch.Tensor) -> torch.Tensor:
    """``values`` (any shape) with the example's dtype, device and memory format, as draw() makes
    its tensors: what the package was compiled for."""
    out = values.detach().to(device=example.device, dtype=example.dtype)
    fmt = verify.memory_format(example)
    if fmt == "channels_last" and out.dim() == 4:
        return out.contiguous(memory_format=torch.channels_last)
    if fmt == "channels_last_3d" and out.dim() == 5:
        return out.contiguous(memory_format=torch.channels_last_3d)
    return out.contiguous()


class ShapeSweep:
    """One sweep over a compile job's model (job.load() has run): per point, inputs of the
    planned shapes, eager's outputs on them, and the comparison with the package's."""

    def __init__(self, job):
        self.job = weakref.proxy(job)  # the job holds the sweep; no cycle
        self.points = {}  # index -> {"inputs": tuple, "eager": [(name, tensor)] or None, "ref": [...] or None}
        self.reference = None
        if job.dtype in verify.REDUCED_PRECISION:
            self.reference = verify.Verifier(job, 0)._make_reference()
        self.leaves, self.spec = pytree.tree_flatten(tuple(job.inputs))

    def example_shapes(self) -> list:
        """The example's flattened input shapes (the package's input order)."""
        return [list(t.shape) for t in self.leaves]

    def recorded(self, folder: str, max_shapes: int) -> dict:
        """The distinct shapes a capture recorded (capture.py's folder ``folder``) as points of the
        plan (core/bundle/sweepplan.h ``SweepBudget::recorded``), at most ``max_shapes``:
        capture_propose.recorded_shapes() over this model's flat input names. Raises
        FrontendError(bad_request) when ``folder`` holds no record."""
        from . import capture_propose
        from .errors import FrontendError
        if not os.path.isfile(os.path.join(folder, "calls.jsonl")):
            raise FrontendError("bad_request", "verify",
                                f"'{folder}' holds no capture record (calls.jsonl)",
                                "pass the --out folder of aotstudio-cli capture")
        names = list(getattr(self.job, "input_names", None) or [f"input {i}" for i in range(len(self.leaves))])
        found = capture_propose.recorded_shapes(folder, names, max(0, int(max_shapes)))
        summary = capture_propose._read_json(os.path.join(folder, "summary.json")) or {}
        target = summary.get("target") or {}
        self._recorded_names = (names, target.get("params") or [], target.get("var_positional"))
        return found

    def _recorded_values(self, path: str, shapes: list):
        """The tensors of a kept input file in the package's input order, converted to the
        example's dtype, device and strides; None (with the reason) when the file cannot be read
        or does not hold these shapes."""
        from . import capture
        names, params, var = getattr(self, "_recorded_names", (None, [], None))
        try:
            data = torch.load(path, map_location="cpu", weights_only=True)
            by_name = capture.named_tensors(data.get("args", ()), data.get("kwargs", {}), params, var, torch.Tensor)
            values = [by_name[n] for n in names]
        except Exception as exc:  # a file that does not load: seeded inputs instead, said
            return None, f"kept input {os.path.basename(path)} not used ({one_line(exc)})"
        if [list(v.shape) for v in values] != [[int(d) for d in s] for s in shapes]:
            return None, f"kept input {os.path.basename(path)} has other shapes"
        return [_like_example(v, t) for v, t in zip(values, self.leaves)], None

    def prepare(self, index: int, shapes: list, run_eager: bool, inputs_file: str = "") -> dict:
        """Draw point ``index``'s inputs with ``shapes`` (one per flattened input; the example's
        values when the shapes are the example's; a recorded call's values when ``inputs_file``
        names a kept input of capture.py with these shapes) and, with ``run_eager``, run eager on
        them. Returns {"eager_error": message or None, "eager_ms": float or None, "inputs":
        "recorded" | "seeded", "note": why a kept input was not used, or None}."""
        if len(shapes) != len(self.leaves):
            raise ValueError(f"{len(shapes)} shapes for {len(self.leaves)} inputs")
        gen = torch.Generator().manual_seed(SEED_BASE + index)
        leaves, note = None, None
        if inputs_file:
            leaves, note = self._recorded_values(inputs_file, shapes)
        source = "recorded" if leaves is not None else "seeded"
        if leaves is None:
            leaves = []
            for t, shape in zip(self.leaves, shapes):
                if not isinstance(t, torch.Tensor):
                    leaves.append(t)
                elif list(t.shape) == [int(s) for s in shape]:
                    leaves.append(verify.like(t, t))  # the example's values (the point everyone can reproduce)
                else:
                    leaves.append(draw(t, shape, gen))
        inputs = pytree.tree_unflatten(leaves, self.spec)
        point = {"inputs": inputs, "eager": None, "ref": None}
        self.points[index] = point
        result = {"eager_error": None, "eager_ms": None, "inputs": source, "note": note}
        if not run_eager:
            return result
        job = self.job
        fresh = lambda: tuple(verify.like(t, t) if isinstance(t, torch.Tensor) else t for t in inputs)
        # A stateful model is not put back: eager and the package advance in step, one call per
        # point that both run (the package keeps its updated buffers between calls).
        import time
        t0 = time.perf_counter()
        try:
            with torch.inference_mode():
                out = job.model(*fresh())
                point["eager"] = [(n, t.clone()) for n, t in verify.named_tensors(out)]
        except Exception as exc:  # the model's own failure at this size
            result["eager_error"] = one_line(exc)
            return result
        result["eager_ms"] = (time.perf_counter() - t0) * 1e3
        if self.reference is not None:
            model, dtype = self.reference
            try:
                with torch.inference_mode():
                    point["ref"] = [t.clone() for _, t in verify.named_tensors(model(*verify.Verifier._cast(fresh(), dtype)))]
            except Exception:  # the reference's own failure: compare with eager only
                point["ref"] = None
        return result

    def inputs(self, index: int, pad_to: int = -1) -> list:
        """Point ``index``'s inputs as DLPack capsules (fresh copies: forward may modify its inputs).
        With ``pad_to`` above their first dimension, zero rows are appended along it (a bundle's
        padded bucket, as aotstudio-run pads)."""
        leaves, _ = pytree.tree_flatten(self.points[index]["inputs"])
        out = []
        for t in leaves:
            t = verify.like(t, t)
            if pad_to >= 0 and t.dim() > 0 and t.shape[0] < pad_to:
                pad = torch.zeros((pad_to - t.shape[0], *t.shape[1:]), dtype=t.dtype, device=t.device)
                t = torch.cat([t, pad], 0)
            out.append(torch.utils.dlpack.to_dlpack(t))
        self.points[index]["pad_to"] = pad_to
        return out

    # -- layouts (issue 34): the same values in other strides, which a runner must refuse or copy --
    @staticmethod
    def _layout_variant(t: torch.Tensor, variant: str):
        """``t``'s values in another memory layout, or None when the variant does not apply (the
        rank, sizes of 1, or strides equal to ``t``'s)."""
        dims = [d for d in range(t.dim()) if t.shape[d] > 1]
        if variant == "contiguous":
            out = t.contiguous()
        elif variant == "channels_last" and t.dim() in (4, 5):
            out = t.contiguous(memory_format=torch.channels_last if t.dim() == 4 else torch.channels_last_3d)
        elif variant == "transposed" and len(dims) >= 2:
            a, b = dims[-2], dims[-1]  # the same values, the last two dimensions' strides swapped
            out = t.transpose(a, b).contiguous().transpose(a, b)
        elif variant == "sliced" and dims:
            d = dims[-1]  # every other element of a tensor twice as long along the last dimension
            shape = list(t.shape)
            shape[d] *= 2
            big = torch.zeros(shape, dtype=t.dtype, device=t.device)
            out = big[(slice(None),) * d + (slice(None, None, 2),)]
            out.copy_(t)
        elif variant == "offset" and t.numel() and t.element_size() < 16:
            flat = torch.zeros(t.numel() + 1, dtype=t.dtype, device=t.device)  # one element in: not 16-byte aligned
            out = flat[1:].view(t.shape)
            out.copy_(t)
        else:
            return None
        same = all(out.stride(d) == t.stride(d) for d in dims) and out.data_ptr() % 16 == t.data_ptr() % 16
        return None if same else out

    LAYOUT_VARIANTS = ("contiguous", "channels_last", "transposed", "sliced", "offset")

    def layout_variants(self, index: int) -> list:
        """The layout checks of point ``index`` (prepared): per tensor input and variant whose
        strides differ from the point's, {"input", "variant", "strides"} (the variant's strides)."""
        leaves, _ = pytree.tree_flatten(self.points[index]["inputs"])
        out = []
        for i, t in enumerate(leaves):
            if not isinstance(t, torch.Tensor):
                continue
            for v in self.LAYOUT_VARIANTS:
                made = self._layout_variant(t, v)
                if made is not None:
                    out.append({"input": i, "variant": v, "strides": list(made.stride()),
                                "storage_offset": made.storage_offset()})
        return out

    def layout_inputs(self, index: int, input_index: int, variant: str) -> list:
        """Point ``index``'s inputs as DLPack capsules, input ``input_index`` in layout ``variant``
        (the same values): what a caller with another layout passes."""
        leaves, _ = pytree.tree_flatten(self.points[index]["inputs"])
        out = []
        for i, t in enumerate(leaves):
            t = verify.like(t, t)
            if i == input_index:
                t = self._layout_variant(t, variant)
            out.append(torch.utils.dlpack.to_dlpack(t))
        self.points[index]["pad_to"] = -1
        return out

    def save_inputs(self, index: int, path: str) -> None:
        """Point ``index``'s inputs written with torch.save as a list of tensors (aotstudio-run --input)."""
        leaves, _ = pytree.tree_flatten(self.points[index]["inputs"])
        with atomic_file(path, "wb") as f:
            torch.save([t.detach().cpu() for t in leaves], f)  # strides kept: channels-last stays so

    def compare_file(self, index: int, path: str) -> dict:
        """compare() on outputs that aotstudio-run --save-outputs wrote to ``path`` (a tuple of tensors;
        a list from before issue 34)."""
        # Older aotstudio-run wrote a tensor list through build_tensorlist: allowed, nothing else.
        import torch.jit._pickle as jit_pickle
        with torch.serialization.safe_globals([jit_pickle.build_tensorlist]):
            outputs = torch.load(path, map_location="cpu", weights_only=True)
        if isinstance(outputs, torch.Tensor):
            outputs = [outputs]
        return self._compare(index, [t.to(self.job.device) for t in outputs])

    def compare(self, index: int, capsules: list) -> dict:
        """The package's outputs of point ``index`` (DLPack capsules) against eager's: {"outcome":
        "match" | "mismatch", "message", "max_abs_error", "outputs": [{name, shape, dtype,
        max_abs_error, max_rel_error, cosine, passed, compiled_reference_error?,
        eager_reference_error?}]}. A different count or shape of outputs is a mismatch."""
        return self._compare(index, [torch.from_dlpack(c) for c in capsules])

    def _compare(self, index: int, compiled: list) -> dict:
        point = self.points.pop(index, None) or {}
        pad_to = point.get("pad_to", -1)
        if pad_to >= 0 and point.get("inputs") is not None:
            # A padded call: the outputs' padding rows are dropped, as aotstudio-run does.
            rows = next((t.shape[0] for t in pytree.tree_leaves(point["inputs"])
                         if isinstance(t, torch.Tensor) and t.dim() > 0), None)
            if rows is not None:
                compiled = [c[:rows] if c.dim() > 0 and c.shape[0] == pad_to else c for c in compiled]
        eager = point.get("eager")
        ref = point.get("ref")
        tol = self.job.tolerance
        if eager is None:
            return {"outcome": "error", "message": "no eager outputs for this point", "outputs": [], "max_abs_error": None}
        if len(compiled) != len(eager):
            return {"outcome": "mismatch", "outputs": [], "max_abs_error": None,
                    "message": f"the package returned {len(compiled)} outputs, eager {len(eager)} "
                               f"({', '.join(n for n, _ in eager)})"}
        outputs = []
        worst = 0.0
        failed = None
        for k, (c, (name, e)) in enumerate(zip(compiled, eager)):
            row = {"name": name, "shape": list(e.shape), "dtype": str(e.dtype).replace("torch.", "")}
            if tuple(c.shape) != tuple(e.shape):
                row.update({"passed": False, "compiled_shape": list(c.shape)})
                outputs.append(row)
                failed = failed or f"output '{name}' has shape {list(c.shape)} in the package, {list(e.shape)} in eager"
                continue
            m = verify.compare(c, e)
            row.update(m)
            if ref is not None and e.is_floating_point():
                rc = verify.compare(c, ref[k])["max_abs_error"]
                re_ = verify.compare(e, ref[k])["max_abs_error"]
                row["compiled_reference_error"] = rc
                row["eager_reference_error"] = re_
                row["passed"] = (rc - re_) <= tol  # NaN fails
                if not row["passed"] and failed is None:
                    failed = (f"output '{name}' is further from the reference than eager by {rc - re_:.3g} "
                              f"(tolerance {tol:.3g}, reduced precision)")
            else:
                row["passed"] = m["max_abs_error"] <= tol  # NaN fails
                if not row["passed"] and failed is None:
                    failed = f"output '{name}' differs from eager by {m['max_abs_error']:.3g} (tolerance {tol:.3g})"
            worst = verify.nan_max(worst, m["max_abs_error"])
            outputs.append(row)
        return {"outcome": "mismatch" if failed else "match", "message": failed or "", "outputs": outputs,
                "max_abs_error": worst}

    def drop(self, index: int) -> None:
        """Forget point ``index`` (refused, crashed or hung: no comparison comes)."""
        self.points.pop(index, None)
