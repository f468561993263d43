# SPDX-License-Identifier: GPL-3.0-or-later
"""Recipe search (the ``tune`` job; FORMAT.md "tune result"): the option sets a tune tries, the
check of a recipe's Inductor options against the installed torch, and the ``torch.compile``
baseline that every tune measures beside the AOTInductor trials.

The C++ job (core/pipeline/tunejob.cpp) compiles each candidate as a sub-job (compile's own
verify against eager), then times eager, ``torch.compile`` and every package that compiled in one
paired measurement (core/pipeline/measurement.h) and keeps the Pareto front.
"""

import time

import torch

from . import recipe
from .errors import FrontendError, one_line

#: Inductor options a recipe may not set: the job owns them (the debug trace that gives snapshots
#: and kernel provenance, the cache switch) or has its own field for them.
RESERVED = ("trace.", "force_disable_caches", "freezing", "max_autotune", "aot_inductor.")


def _config_has(key: str) -> bool:
    obj = torch._inductor.config
    for part in key.split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def check_inductor_options(options) -> dict:
    """A request's ``inductor`` object, checked: a dict of Inductor config keys (dotted, as
    ``torch._inductor.config`` names them: ``epilogue_fusion``, ``cpp.simdlen``) to JSON scalars.
    Raises FrontendError(bad_request) naming the first key this torch lacks (with its version),
    a key the job owns (RESERVED) or a value that is not a scalar."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise FrontendError("bad_request", "load", f"'inductor' must be an object of Inductor options, got {options!r}",
                            'e.g. {"epilogue_fusion": false, "cpp.simdlen": 256}')
    for key, value in options.items():
        if any(key == r or (r.endswith(".") and key.startswith(r)) for r in RESERVED):
            raise FrontendError("bad_request", "load", f"Inductor option '{key}' is set by AOT Studio itself",
                                "use the request's own field (freezing, max_autotune) or leave it out")
        if not _config_has(key):
            raise FrontendError("bad_request", "load",
                                f"unknown Inductor option '{key}': torch {torch.__version__} has no "
                                f"torch._inductor.config.{key}",
                                "remove it from the recipe, or use the torch the recipe was made with")
        if not (value is None or isinstance(value, (bool, int, float, str))):
            raise FrontendError("bad_request", "load", f"Inductor option '{key}' must be a JSON scalar, got {value!r}", "")
    return dict(options)


def _bf16_ok(device: str) -> bool:
    if device == "cuda":
        return torch.cuda.is_available() and torch.cuda.is_bf16_supported()
    try:
        return bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except Exception:
        return False


def candidates(device: str, dtype: str, names=None) -> list:
    """The option sets to try, in order: [{name, options: {freezing?, max_autotune?, dtype?,
    inductor?}, note}], each a recipe's ``options``. ``names`` (a list) keeps those and raises
    FrontendError(bad_request) for an unknown one, listing the known; sets that do not apply to
    ``device`` (fp16 and coordinate-descent tuning on the CPU, bf16 without native support) are
    left out, or listed with ``skip`` when asked for by name."""
    cuda = device == "cuda"
    table = recipe.TABLE  # one table: a compile's --recipe NAME names these too
    applies = {
        "coordinate_descent": (cuda, "Triton-only (GPU)"),
        "fp16": (cuda, "float16 is slow on CPUs"),
        "bf16": (_bf16_ok(device) and dtype == "fp32", "no native bfloat16 on this device" if dtype == "fp32"
                 else f"the base dtype is already {dtype}"),
        "freezing+bf16": (_bf16_ok(device) and dtype == "fp32", "no native bfloat16 on this device"),
    }
    known = [t[0] for t in table]
    if names:
        unknown = [n for n in names if n not in known]
        if unknown:
            raise FrontendError("bad_request", "load", f"unknown tune trial '{unknown[0]}'",
                                "choose from " + ", ".join(known))
    out = []
    for name, options, note in table:
        ok, why = applies.get(name, (True, ""))
        if names and name not in names:
            continue
        if not ok:
            if names:
                out.append({"name": name, "options": options, "note": note, "skip": why})
            continue
        out.append({"name": name, "options": options, "note": note})
    return out


class JitBaseline:
    """``torch.compile`` with its defaults (Inductor, JIT) on the job's model and inputs: compiled
    by its first call (timed: the cold compile), then timed by the C++ side through ``run``."""

    def __init__(self, job):
        self.job = job
        self._fn = None
        self.compile_seconds = None
        self.recompiles = 0

    def prepare(self) -> dict:
        """Compile and run once; returns {compile_seconds, graphs}. Raises FrontendError
        (compile_failed) with torch's message when torch.compile fails."""
        import torch._dynamo
        job = self.job
        torch._dynamo.reset()
        try:
            from torch._dynamo.utils import counters
            counters.clear()
            fn = torch.compile(job.model)
            t0 = time.perf_counter()
            with torch.inference_mode():
                fn(*job.inputs)
            self.compile_seconds = time.perf_counter() - t0
            graphs = int(counters["stats"].get("unique_graphs", 0))
        except Exception as exc:
            raise FrontendError("compile_failed", "baseline", f"torch.compile failed on '{job.spec}': {one_line(exc)}",
                                "the tune keeps the AOTInductor trials; the torch.compile column stays empty") from exc
        self._fn = fn
        self.graphs = graphs
        return {"compile_seconds": self.compile_seconds, "graphs": graphs}

    def run(self) -> None:
        with torch.inference_mode():
            self._fn(*self.job.inputs)

    # -- the shape workload (a model with dynamic dimensions) --
    def workload_begin(self) -> dict:
        """Start the shape workload with a fresh ``torch.compile(model)`` (Dynamo reset, its
        default ``dynamic=None``: the first shape compiles static, a second shape recompiles with
        the changed dimensions dynamic), as a server that sees these shapes in this order would.
        Point inputs come from the job's ShapeSweep (sweep.py: seeded, drawn like the example),
        which the C++ side fills through ``sweep.prepare``. Returns {example_shapes: the example's
        flattened input shapes}."""
        import torch._dynamo
        from torch._dynamo.utils import counters
        torch._dynamo.reset()
        counters.clear()
        self._wfn = torch.compile(self.job.model)
        self._current = None
        return {"example_shapes": self.job.sweep_begin()}

    def workload_point(self, index: int) -> dict:
        """Call the workload's torch.compile once on sweep point ``index`` (its first call at this
        shape: a recompile when Dynamo's guards reject it), timed. Returns {cold_ms, graphs (the
        unique graphs compiled so far), recompiled (bool), error (None or the message)}."""
        from torch._dynamo.utils import counters
        inputs = self.job.sweep.points[index]["inputs"]
        before = int(counters["stats"].get("unique_graphs", 0))
        t0 = time.perf_counter()
        try:
            with torch.inference_mode():
                self._wfn(*inputs)
        except Exception as exc:
            return {"cold_ms": None, "graphs": before, "recompiled": False, "error": one_line(exc)}
        cold_ms = (time.perf_counter() - t0) * 1e3
        graphs = int(counters["stats"].get("unique_graphs", 0))
        self._current = inputs
        return {"cold_ms": cold_ms, "graphs": graphs, "recompiled": graphs > before, "error": None}

    def workload_run(self) -> None:
        """One warm call of the workload's torch.compile on the last point given to workload_point."""
        with torch.inference_mode():
            self._wfn(*self._current)


def warm_up(device: str, folder: str) -> dict:
    """Compile a one-layer model with AOTInductor into ``folder`` (removed after) so that the
    trials' ``compile_seconds`` do not include the one-time costs the first compile of a process
    pays (Inductor's lazy imports, the C++ compiler's first runs: about 10 s of a 15 s first compile
    of sample:mlp against 5 s for the next on a 2-core machine), which would make whichever trial
    runs first look slow to compile. Returns {seconds}; a failure here is ignored (the first trial
    then pays, and says so through its time)."""
    import shutil
    t0 = time.perf_counter()
    try:
        dev = torch.device(device)
        model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU()).to(dev).eval()
        program = torch.export.export(model, (torch.randn(2, 8, device=dev),))
        import os
        os.makedirs(folder, exist_ok=True)
        torch._inductor.aoti_compile_and_package(program, package_path=os.path.join(folder, "warmup.pt2"),
                                                 inductor_configs={"force_disable_caches": True})
        ok = True
    except Exception:
        ok = False
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {"seconds": time.perf_counter() - t0, "ok": ok}
