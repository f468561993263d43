# SPDX-License-Identifier: GPL-3.0-or-later
"""Checking a compiled package against eager (the ``verify`` stage; FORMAT.md, "verify").

The C++ side (core/pipeline/compilejob.cpp) asks :class:`Verifier` for a plan of calls, runs the
package from C++ on each call's inputs and hands its outputs back. A plan is the example input, a
second call on it when the model keeps state (a buffer updated in ``forward``), and a few seeded
inputs of the same shapes, dtypes, value ranges and memory layout as the example. Every output is
compared by name (the program's output structure: dict keys, dataclass fields, tuple positions).

For reduced precision (bf16, fp16) compiled and eager are both compared with a higher-precision
reference (the same model cast to float64 on the CPU when it is small, else float32) and the
package passes when it is no further from the reference than eager is, plus the tolerance.
"""

import copy
import weakref

import torch
import torch.utils._pytree as pytree

from .errors import FrontendError, one_line
from .input_samples import generate_samples

#: Seeded inputs checked besides the example unless the request says otherwise (``verify_samples``).
DEFAULT_SAMPLES = 2
#: Seed of seeded input k (k >= 1) is SEED_BASE + k; sample 0 of each seed is the example itself.
SEED_BASE = 1000
#: Parameters are copied before the eager reference run only up to this many bytes; larger models
#: are checked through their version counters instead (a change is then an error, not restored).
PARAMETER_COPY_BUDGET = 512 * 1024 * 1024
#: A float64 reference model is made when the model's parameters take at most this many bytes as
#: float64 and it runs on the CPU; otherwise the reference is float32.
FP64_REFERENCE_BUDGET = 1024 * 1024 * 1024
REDUCED_PRECISION = (torch.bfloat16, torch.float16)


# -- module state ---------------------------------------------------------------------------------
class ModelState:
    """The buffers and parameters of a module as they were at construction, to undo what an eager
    forward did to them (a model that updates a buffer in ``forward`` would otherwise be exported
    one step ahead of the reference). Buffers are always copied; parameters up to
    PARAMETER_COPY_BUDGET bytes, else only their version counters are kept."""

    def __init__(self, model: torch.nn.Module):
        self._entries = []  # [module, table, name, tensor, copy | None, version | None]
        param_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
        copy_params = param_bytes <= PARAMETER_COPY_BUDGET
        seen = set()
        for prefix, module in model.named_modules(remove_duplicate=False):
            for table, copy_it in (("_buffers", True), ("_parameters", copy_params)):
                for name, t in getattr(module, table, {}).items():
                    if t is None or (id(module), table, name) in seen:
                        continue
                    seen.add((id(module), table, name))
                    full = f"{prefix}.{name}" if prefix else name
                    saved = t.detach().clone() if copy_it else None
                    self._entries.append([module, table, name, t, saved, _version(t), full])

    def restore(self) -> list:
        """Put every tensor back as it was; returns the dotted names of those that had changed.
        Raises FrontendError(model_error) for a changed parameter that was too large to copy."""
        changed = []
        with torch.inference_mode():
            for entry in self._entries:
                module, table, name, t, saved, version, full = entry
                if getattr(module, table).get(name) is not t:  # forward assigned a new tensor
                    getattr(module, table)[name] = t
                    changed.append(full)
                now = _version(t)
                if version is not None and now == version:
                    continue
                if saved is None:
                    raise FrontendError("model_error", "load",
                                        f"forward() changed parameter '{full}' in place, and the model is too large "
                                        "to keep a copy to undo it",
                                        "do not modify parameters in forward(); keep running state in buffers")
                if version is None and torch.equal(t, saved):
                    continue
                t.copy_(saved)
                entry[5] = _version(t)
                if full not in changed:
                    changed.append(full)
        return changed



#: A tolerance at or above this bounds nothing (quantize's verify, which only fails on NaN): the
#: verdict says what was compared rather than quoting the bound.
NO_TOLERANCE = 1e29

def _version(t: torch.Tensor):
    try:
        return t._version
    except RuntimeError:  # inference tensors keep no version counter
        return None


# -- inputs ---------------------------------------------------------------------------------------
def memory_format(t: torch.Tensor) -> str:
    """'contiguous', 'channels_last', 'channels_last_3d' or 'strided' (any other layout)."""
    if t.is_contiguous():
        return "contiguous"
    if t.dim() == 4 and t.is_contiguous(memory_format=torch.channels_last):
        return "channels_last"
    if t.dim() == 5 and t.is_contiguous(memory_format=torch.channels_last_3d):
        return "channels_last_3d"
    return "strided"


def like(values: torch.Tensor, example: torch.Tensor) -> torch.Tensor:
    """``values`` copied into a tensor with the example's device, dtype, shape and strides (so a
    package compiled for channels-last inputs is fed channels-last ones). Layouts that cannot be
    written to (overlapping strides, e.g. from ``expand``) fall back to a contiguous copy."""
    try:
        out = torch.empty_strided(example.shape, example.stride(), dtype=example.dtype, device=example.device)
        out.copy_(values)
        return out
    except RuntimeError:
        return values.to(device=example.device, dtype=example.dtype).contiguous()


def layout(t: torch.Tensor) -> dict:
    return {"shape": list(t.shape), "stride": list(t.stride()), "memory_format": memory_format(t)}


# -- outputs --------------------------------------------------------------------------------------
def _key_name(key) -> str:
    if isinstance(key, pytree.MappingKey):
        return str(key.key)
    if isinstance(key, pytree.SequenceKey):
        return str(key.idx)
    if isinstance(key, pytree.GetAttrKey):
        return key.name
    return str(key).strip(".[]'\"")


def named_tensors(out) -> list:
    """[(name, tensor)] for the tensor leaves of a forward's output in pytree order (the order of
    the package's flat outputs). Names join the path's dict keys, dataclass or namedtuple fields
    and tuple positions with '.' ("logits", "0", "extra.hidden.1"); a single tensor is "output"."""
    try:
        leaves, _ = pytree.tree_flatten_with_path(out)
    except ValueError:
        # A pytree node registered without a keyed flatten (register_pytree_node without
        # flatten_with_keys_fn, as some libraries' output classes are) has no paths: the leaves
        # are named by position, in the same order.
        flat, _ = pytree.tree_flatten(out)
        leaves = [((pytree.SequenceKey(i),), leaf) for i, leaf in enumerate(flat)]
    named = [(".".join(_key_name(k) for k in path) or "output", leaf.detach())
             for path, leaf in leaves if isinstance(leaf, torch.Tensor)]
    return named


# -- precision settings ---------------------------------------------------------------------------
def precision_settings() -> dict:
    """The process's float32 matmul precision and TF32 switches (they decide how fp32 matmuls and
    convolutions are computed: on CUDA, TF32 keeps 10 mantissa bits)."""
    def read(path, obj):
        try:
            for part in path.split("."):
                obj = getattr(obj, part)
            return obj
        except (AttributeError, RuntimeError):
            return None
    backends = torch.backends
    return {
        "float32_matmul_precision": torch.get_float32_matmul_precision(),
        "cuda_matmul_allow_tf32": read("cuda.matmul.allow_tf32", backends),
        "cudnn_allow_tf32": read("cudnn.allow_tf32", backends),
        "cuda_matmul_fp32_precision": read("cuda.matmul.fp32_precision", backends),
        "cudnn_fp32_precision": read("cudnn.fp32_precision", backends),
        "mkldnn_fp32_precision": read("mkldnn.fp32_precision", backends),
        "cuda_matmul_allow_bf16_reduced_precision_reduction":
            read("cuda.matmul.allow_bf16_reduced_precision_reduction", backends),
        "cuda_matmul_allow_fp16_reduced_precision_reduction":
            read("cuda.matmul.allow_fp16_reduced_precision_reduction", backends),
    }


# -- comparison -----------------------------------------------------------------------------------
def compare(c: torch.Tensor, e: torch.Tensor) -> dict:
    """max |c - e|, max |c - e| / max(|e|, 1e-12) and the cosine of the flattened tensors (1.0 when
    they are equal, NaN propagates into the errors). Both as float64 on the CPU."""
    c64, e64 = c.detach().double().cpu(), e.detach().double().cpu()
    if c64.numel() == 0:
        return {"max_abs_error": 0.0, "max_rel_error": 0.0, "cosine": 1.0}
    diff = (c64 - e64).abs()
    max_abs = float(diff.max()) if not diff.isnan().any() else float("nan")
    max_rel = float((diff / e64.abs().clamp(min=1e-12)).max()) if max_abs == max_abs else float("nan")
    if max_abs == 0.0:
        cosine = 1.0
    else:
        cosine = float(torch.nn.functional.cosine_similarity(c64.flatten(), e64.flatten(), dim=0))
    return {"max_abs_error": max_abs, "max_rel_error": max_rel, "cosine": cosine}


def nan_max(a: float, b: float) -> float:
    """max that keeps NaN (a NaN error must fail, not vanish)."""
    if a != a or b != b:
        return float("nan")
    return max(a, b)


def nan_min(a: float, b: float) -> float:
    if a != a or b != b:
        return float("nan")
    return min(a, b)


def _source_summary(calls: list) -> str:
    seeded = sum(1 for c in calls if c["source"] == "seeded")
    parts = ["the example input"]
    if any(c["source"] == "example, second call" for c in calls):
        parts.append("a second call on it (stateful model)")
    if seeded:
        parts.append(f"{seeded} seeded input{'s' if seeded != 1 else ''}")
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]


class Verifier:
    """One verify stage of a compile job: ``begin()`` plans the calls, then for each call i the C++
    side takes ``inputs(i)``, runs the package and hands its outputs to ``outputs(i, tensors)``;
    ``finish()`` returns the result or raises FrontendError(mismatch)."""

    def __init__(self, job, samples: int):
        # A proxy: the job holds the verifier, and a cycle would keep the job (and the lock on its
        # output folder) alive after the engine dropped it.
        self.job = weakref.proxy(job)
        self.samples = samples
        self.calls = []
        self.names = None
        self.reference = None  # (model, dtype) or None
        self.reference_note = None
        self.stateful = []
        self._eager = {}
        self._ref = {}
        self.acc = {}

    # planning ------------------------------------------------------------------------------------
    def begin(self) -> int:
        job = self.job
        if job.state is not None:
            job.state.restore()  # the package's constants were captured from this state
        self.stateful = list(job.stateful)
        signature = getattr(job.program, "graph_signature", None)
        for name in (getattr(signature, "buffers_to_mutate", None) or {}).values():
            if name not in self.stateful:
                self.stateful.append(name)
        example = tuple(job.inputs)
        self.calls = [{"source": "example", "seed": None, "inputs": example}]
        if self.stateful:
            self.calls.append({"source": "example, second call", "seed": None, "inputs": example})
        if self.samples > 0:
            for k in range(1, self.samples + 1):
                drawn = generate_samples(example, 2, seed=SEED_BASE + k)[1]
                self.calls.append({"source": "seeded", "seed": SEED_BASE + k,
                                   "inputs": tuple(like(v, t) for v, t in zip(drawn, example))})
        if job.dtype in REDUCED_PRECISION:
            self.reference = self._make_reference()
        return len(self.calls)

    def _make_reference(self):
        job = self.job
        params = sum(p.numel() for p in job.model.parameters())
        wanted = [torch.float64, torch.float32] if job.device == "cpu" and params * 8 <= FP64_REFERENCE_BUDGET \
            else [torch.float32]
        errors = []
        for dtype in wanted:
            try:
                model = copy.deepcopy(job.model).to(dtype)
                state = ModelState(model)  # a stateful model must not advance before call 0
                with torch.inference_mode():
                    model(*self._cast(job.inputs, dtype))
                state.restore()
                return model, dtype
            except Exception as exc:  # an op without a float64 kernel, a model that cannot be copied
                errors.append(f"{str(dtype).replace('torch.', '')}: {one_line(exc)}")
        self.reference_note = "no higher-precision reference (" + "; ".join(errors) + "): compared with eager only"
        job.log("warning", f"verify: {self.reference_note}")
        return None

    @staticmethod
    def _cast(inputs, dtype):
        return tuple(t.to(dtype) if t.is_floating_point() else t for t in inputs)

    # one call ------------------------------------------------------------------------------------
    def inputs(self, index: int) -> list:
        """Call ``index``'s inputs as DLPack capsules (fresh copies with the example's strides), after
        running eager (and the reference) on the same values, in call order."""
        call = self.calls[index]
        job = self.job
        fresh = lambda: tuple(like(t, t) for t in call["inputs"])  # forward may modify its inputs
        try:
            with torch.inference_mode():
                out = job.model(*fresh())
                named = [(n, t.clone()) for n, t in named_tensors(out)]
        except Exception as exc:
            if index == 0:
                raise FrontendError("model_error", "verify", f"the eager forward raised {one_line(exc)}",
                                    "check that forward() runs on its example inputs") from exc
            # The model's own failure on a drawn input, not the compiler's: skip that input.
            call["skipped"] = f"eager raised {one_line(exc)}"
            job.log("warning", f"verify: seeded input {index} (seed {call['seed']}) skipped: {call['skipped']}")
            named = None
        self._eager[index] = named
        if self.names is None and named is not None:
            self.names = [n for n, _ in named]
        if self.reference is not None and named is not None:
            model, dtype = self.reference
            with torch.inference_mode():
                self._ref[index] = [t.clone() for _, t in named_tensors(model(*self._cast(fresh(), dtype)))]
        leaves, _ = pytree.tree_flatten(fresh())
        return [torch.utils.dlpack.to_dlpack(t) for t in leaves]

    def outputs(self, index: int, capsules: list) -> None:
        """Compare the package's outputs of call ``index`` with eager's (and the reference's)."""
        compiled = [torch.from_dlpack(c) for c in capsules]
        call = self.calls[index]
        eager = self._eager.pop(index, None)
        ref = self._ref.pop(index, None)
        if eager is None:
            return
        if len(compiled) != len(eager):
            raise FrontendError("mismatch", "verify",
                                f"the package returned {len(compiled)} outputs, eager returned {len(eager)} "
                                f"({', '.join(n for n, _ in eager)}) on {self._call_name(index)}",
                                "this is a compiler bug; report it with the model")
        worst = 0.0
        per_output = []
        for k, (c, (name, e)) in enumerate(zip(compiled, eager)):
            if tuple(c.shape) != tuple(e.shape):
                raise FrontendError("mismatch", "verify",
                                    f"output '{name}' has shape {list(c.shape)} in the package, {list(e.shape)} in "
                                    f"eager, on {self._call_name(index)}",
                                    "this is a compiler bug; report it with the model")
            m = compare(c, e)
            a = self.acc.setdefault(name, {"name": name, "shape": list(e.shape),
                                           "dtype": str(e.dtype).replace("torch.", ""),
                                           "max_abs_error": 0.0, "max_rel_error": 0.0, "cosine": 1.0,
                                           "first_failure": None})
            if a["first_failure"] is None and not m["max_abs_error"] <= self.job.tolerance:  # NaN too
                a["first_failure"] = (index, m["max_abs_error"])
            a["max_abs_error"] = nan_max(a["max_abs_error"], m["max_abs_error"])
            a["max_rel_error"] = nan_max(a["max_rel_error"], m["max_rel_error"])
            a["cosine"] = nan_min(a["cosine"], m["cosine"])
            if ref is not None and e.is_floating_point():
                rc = compare(c, ref[k])["max_abs_error"]
                re_ = compare(e, ref[k])["max_abs_error"]
                a["compiled_reference_error"] = nan_max(a.get("compiled_reference_error", 0.0), rc)
                a["eager_reference_error"] = nan_max(a.get("eager_reference_error", 0.0), re_)
            worst = nan_max(worst, m["max_abs_error"])
            per_output.append(m["max_abs_error"])
        call["max_abs_error"] = worst
        call["outputs_max_abs_error"] = per_output

    def _call_name(self, index: int) -> str:
        call = self.calls[index]
        if call["source"] == "seeded":
            return f"seeded input {index} (seed {call['seed']})"
        return "the example input" if call["source"] == "example" else "the second call on the example (stateful)"

    # verdict -------------------------------------------------------------------------------------
    def finish(self) -> dict:
        job = self.job
        tol = job.tolerance
        reduced = self.reference is not None
        failures = []
        outputs = []
        for name in self.names or []:
            a = self.acc.get(name)
            if a is None:
                continue
            if reduced and "compiled_reference_error" in a:
                gap = a["compiled_reference_error"] - a["eager_reference_error"]
                a["passed"] = gap <= tol  # NaN fails
                if not a["passed"]:
                    failures.append((gap, name, a, "reference"))
            else:
                a["passed"] = a["max_abs_error"] <= tol
                if not a["passed"]:
                    failures.append((a["max_abs_error"], name, a, "eager"))
            outputs.append(a)
        checked = [c for c in self.calls if "skipped" not in c]
        samples = [{"index": i, "source": c["source"], "seed": c["seed"],
                    "max_abs_error": c.get("max_abs_error"),
                    **({"skipped": c["skipped"]} if "skipped" in c else {})}
                   for i, c in enumerate(self.calls)]
        max_abs = 0.0
        max_rel = 0.0
        cosine = 1.0
        for a in outputs:
            max_abs = nan_max(max_abs, a["max_abs_error"])
            max_rel = nan_max(max_rel, a["max_rel_error"])
            cosine = nan_min(cosine, a["cosine"])
        ref_dtype = str(self.reference[1]).replace("torch.", "") if reduced else None
        summary = _source_summary(checked)
        if failures:
            failures.sort(key=lambda f: float("inf") if f[0] != f[0] else f[0], reverse=True)  # NaN first
            gap, name, a, kind = failures[0]
            self._log_table(outputs, reduced)
            if kind == "reference":
                message = (f"compiled output '{name}' is further from the {ref_dtype} reference than eager "
                           f"{job.dtype_name} is by {gap:.3g} (compiled {a['compiled_reference_error']:.3g}, eager "
                           f"{a['eager_reference_error']:.3g}), above the tolerance {tol:.3g} (reduced precision)")
                hint = ("the compiled code loses more precision than eager; try --dtype fp32, or raise the tolerance "
                        "if the loss is acceptable")
            else:
                first, first_error = a["first_failure"]
                message = (f"compiled output '{name}' differs from eager by {first_error:.3g} (max abs) on "
                           f"{self._call_name(first)}, above the tolerance {tol:.3g}")
                if first_error == first_error and a["max_abs_error"] > first_error:
                    message += f" ({a['max_abs_error']:.3g} at worst over {len(checked)} calls)"
                if first == 1 and self.stateful:
                    hint = (f"forward() updates {', '.join(self.stateful)}: the package matches eager on the first call "
                            "but its state does not advance like eager's; keep the state outside the model (pass it in "
                            "and return it) or report it with the model")
                elif first > 0 and self.calls[first]["source"] == "seeded" \
                        and self.calls[0].get("outputs_max_abs_error") is not None \
                        and max(self.calls[0]["outputs_max_abs_error"], default=0.0) <= tol:
                    hint = ("the package matches on the example input but not on another input of the same shapes: "
                            "the compiled code may depend on the example's values; report it with the model "
                            "(--verify-samples 0 checks the example only)")
                else:
                    hint = ("look for randomness or uninitialised memory in forward(), or raise the tolerance if the "
                            "difference is expected")
            raise FrontendError("mismatch", "verify", message, hint)
        if reduced:
            worst_c = max((a.get("compiled_reference_error", 0.0) for a in outputs), default=0.0)
            worst_e = max((a.get("eager_reference_error", 0.0) for a in outputs), default=0.0)
            verdict = (f"passed (reduced precision {job.dtype_name}): against a {ref_dtype} reference the package is off "
                       f"by {worst_c:.3g} and eager by {worst_e:.3g} (max abs; tolerance {tol:.3g} on the difference); "
                       f"{len(outputs)} output{'s' if len(outputs) != 1 else ''} on {summary}")
        elif tol >= NO_TOLERANCE:
            # A quantize scheme's verify bounds nothing but NaN (core/pipeline/quantizejob.cpp): say
            # what was compared instead of "within 1e+30 of eager".
            verdict = (f"compared: {len(outputs)} output{'s' if len(outputs) != 1 else ''} with this scheme's eager "
                       f"model, largest difference {max_abs:.3g} (no tolerance: the scheme's accuracy against fp32 "
                       f"is its own figure) on {summary}")
        else:
            verdict = (f"passed: {len(outputs)} output{'s' if len(outputs) != 1 else ''} within {tol:.3g} of eager "
                       f"(largest {max_abs:.3g}) on {summary}")
        self._log_table(outputs, reduced)
        job.log("info", f"verify {verdict}")
        return {
            "max_abs_error": max_abs, "max_rel_error": max_rel, "cosine": cosine, "tolerance": tol,
            "outputs": [{"name": a["name"], "shape": a["shape"], "dtype": a["dtype"]} for a in outputs],
            "verify": {
                "passed": True,
                "verdict": verdict,
                "mode": "reduced_precision" if reduced else "eager",
                "tolerance": tol,
                "reference": ({"dtype": ref_dtype, "what": "the same model and inputs cast to " + ref_dtype}
                              if reduced else None),
                "reference_note": self.reference_note,
                "stateful": bool(self.stateful),
                "mutated_state": list(self.stateful),
                "seeded_inputs": self.samples,
                "calls": samples,
                "outputs": [{k: v for k, v in a.items() if k != "first_failure"} for a in outputs],
                "inputs": [layout(t) for t in job.inputs],
                "precision": {"eager": precision_settings(), "compiled": job.compile_precision},
            },
        }

    def _log_table(self, outputs: list, reduced: bool) -> None:
        for a in outputs:
            line = (f"verify output '{a['name']}' {a['shape']} {a['dtype']}: max abs {a['max_abs_error']:.3g}, "
                    f"max rel {a['max_rel_error']:.3g}, cosine {a['cosine']:.6f}")
            if reduced and "compiled_reference_error" in a:
                line += (f"; against the reference: compiled {a['compiled_reference_error']:.3g}, "
                         f"eager {a['eager_reference_error']:.3g}")
            self.job.log("info" if a.get("passed", True) else "warning", line)
