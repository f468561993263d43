# SPDX-License-Identifier: GPL-3.0-or-later
"""Compile recipes: the named option sets (the ones ``tune`` tries) and the choice a compile makes
when its request says ``recipe: "auto"`` (the default; FORMAT.md "compile", "recipe").

One table of option sets (:data:`TABLE`) serves both: tune.candidates() picks its trials from it
and a compile's ``recipe`` names one of it. ``auto`` decides after export from the exported
graph alone (:func:`features`, :func:`decide`): no model run, no extra compile, so it costs the
walk over the graph's nodes (milliseconds) and keeps the compile cache key a function of the
options it chose.

The rule (measured on this project's samples and corpus, core/profiler/PROFILE.md "Recipe
choice"): on the CPU, freezing when convolutions carry at least :data:`CONV_SHARE_MIN` of the
graph's multiply-add FLOPs, AOTInductor's defaults otherwise. Freezing folds batch norms into the
convolutions and pre-packs their weights for oneDNN (sample:resnet18 1.36x the defaults' speed,
sample:convnet 1.19x); on a graph of linear layers it turns each into a oneDNN linear call whose
per-call cost exceeds what packing saves at these sizes (sample:mlp 0.29x). On CUDA nothing has
been measured yet: the defaults, said as such. No timed probe runs (``chosen_by`` "probe" is
reserved for one): the rule costs milliseconds, a probe two compiles.
"""

from dataclasses import dataclass

import torch

from .errors import FrontendError
from .messages import text

#: The named option sets, in tune's order: (name, options, note). ``options`` holds the request
#: fields the set changes: freezing, max_autotune, dtype, inductor (FORMAT.md "Recipe").
TABLE = (
    ("defaults", {}, "AOTInductor's defaults (the baseline every ratio is against)"),
    ("freezing", {"freezing": True}, "weights folded as constants (conv-bn folding, packed oneDNN weights)"),
    ("max_autotune", {"max_autotune": True}, "benchmark GEMM/conv templates at compile time"),
    ("freezing+max_autotune", {"freezing": True, "max_autotune": True}, "both"),
    ("no_epilogue_fusion", {"inductor": {"epilogue_fusion": False}}, "pointwise ops not fused into GEMM epilogues"),
    ("freezing+no_layout_optimization", {"freezing": True, "inductor": {"layout_optimization": False}},
     "frozen, without channels-last layout changes"),
    ("aggressive_fusion", {"inductor": {"aggressive_fusion": True}}, "fuse nodes without shared memory reads too"),
    ("coordinate_descent", {"inductor": {"coordinate_descent_tuning": True}}, "Triton block sizes tuned (GPU)"),
    ("bf16", {"dtype": "bf16"}, "the model and inputs in bfloat16"),
    ("freezing+bf16", {"freezing": True, "dtype": "bf16"}, "frozen, in bfloat16"),
    ("fp16", {"dtype": "fp16"}, "the model and inputs in float16 (GPU)"),
)

#: What a request's ``recipe`` may say besides a TABLE name.
AUTO = "auto"

#: Freezing on the CPU from this share of the multiply-add FLOPs in convolutions up (0..1).
#: The shares measured (features(), PROFILE.md "Recipe choice"): sample:resnet18 and
#: sample:convnet 0.9997, timm ResNet-50 0.994 (freezing 1.19x to 2.94x the defaults); the
#: corpus's diffusers UNet 0.65 (freezing 0.955x, interval 0.875-1.087: no measurable gain, and it
#: costs the bundle its shared weights, so the defaults); the corpus's tiny ViT 0.24 (its patch
#: embedding; about 0.01 in ViT-B/16 at 224x224), every other transformer and the MLP 0 (freezing
#: 0.29x to 0.93x). 0.8 sits between the UNet and the convolution nets; nothing between 0.65 and
#: 0.99 was measured.
CONV_SHARE_MIN = 0.8


def names() -> list:
    """The names a request's ``recipe`` accepts: ``auto`` and every TABLE name."""
    return [AUTO] + [t[0] for t in TABLE]


def options_of(name: str) -> dict:
    """The options of TABLE entry ``name`` (a copy); KeyError for another name."""
    for n, opts, _ in TABLE:
        if n == name:
            return {k: (dict(v) if isinstance(v, dict) else v) for k, v in opts.items()}
    raise KeyError(name)


def check(value) -> str:
    """The request's ``recipe`` checked: None -> "auto"; a name of names() as given. Raises
    FrontendError(bad_request) listing the known names for anything else."""
    if value is None:
        return AUTO
    if not isinstance(value, str) or value not in names():
        raise FrontendError("bad_request", "load", f"unknown recipe {value!r}",
                            "choose one of " + ", ".join(names()) + " (a recipe file is applied by the command "
                            "line as the request's own freezing, max_autotune, dtype and inductor fields)")
    return value


def name_of(freezing: bool, max_autotune: bool, dtype_name: str, inductor: dict, base_dtype: str = "fp32") -> str:
    """The TABLE name whose options are exactly these (dtype compared against ``base_dtype``:
    a request in bf16 that names no recipe is not the "bf16" recipe), else "custom"."""
    for name, opts, _ in TABLE:
        want_dtype = opts.get("dtype", base_dtype)
        if (bool(opts.get("freezing", False)) == bool(freezing) and bool(opts.get("max_autotune", False))
                == bool(max_autotune) and want_dtype == dtype_name and dict(opts.get("inductor", {})) == dict(inductor)):
            return name
    return "custom"


# -- graph features -------------------------------------------------------------------------------
def _shape(value):
    return list(value.shape) if isinstance(value, torch.Tensor) else None


def _numel(shape) -> int:
    n = 1
    for s in shape:
        n *= int(s)
    return n


def _node_flops(node) -> tuple:
    """(kind, multiply-add FLOPs counted as 2 per MAC) of one exported-graph node: kind "conv",
    "matmul" (linear, mm, bmm, matmul, addmm, baddbmm), "attention" (scaled dot product) or None.
    Shapes are the nodes' ``meta["val"]`` (fake tensors torch.export records); symbolic sizes are
    taken at their hint (the example's size). Convolution counts come from torch.utils.
    flop_counter's own formula."""
    if node.op != "call_function":
        return None, 0
    name = getattr(node.target, "__name__", str(node.target))  # e.g. "conv2d.default"
    packet = name.split(".")[0]
    out = _shape(node.meta.get("val"))
    args = [_shape(a.meta.get("val")) if isinstance(a, torch.fx.Node) else a for a in node.args]

    def hint(shape):
        return [int(torch.fx.experimental.symbolic_shapes.hint_int(s, fallback=2)) if not isinstance(s, int) else s
                for s in shape]

    try:
        if packet in ("conv1d", "conv2d", "conv3d", "convolution", "_convolution", "conv_transpose1d",
                      "conv_transpose2d", "conv_transpose3d", "mkldnn_convolution"):
            transposed = packet.startswith("conv_transpose") or (
                packet in ("convolution", "_convolution") and len(node.args) > 6 and bool(node.args[6]))
            if out is None or args[0] is None or args[1] is None:
                return "conv", 0
            from torch.utils.flop_counter import conv_flop_count
            return "conv", int(conv_flop_count(hint(args[0]), hint(args[1]), hint(out), transposed=transposed))
        if packet in ("linear", "mm", "bmm", "matmul", "addmm", "baddbmm"):
            a = args[1] if packet in ("addmm", "baddbmm") else args[0]
            if out is None or a is None or not a:
                return "matmul", 0
            return "matmul", 2 * _numel(hint(out)) * int(hint(a)[-1])
        if packet in ("scaled_dot_product_attention", "_scaled_dot_product_flash_attention_for_cpu",
                      "_scaled_dot_product_efficient_attention", "_scaled_dot_product_flash_attention"):
            q, k, v = args[0], args[1], args[2]
            if q is None or k is None or v is None:
                return "attention", 0
            q, k, v = hint(q), hint(k), hint(v)
            rows = _numel(q[:-1])  # batch x heads x L
            return "attention", 2 * rows * k[-2] * q[-1] + 2 * rows * k[-2] * v[-1]
    except Exception:  # a shape this formula does not know: the node counts as unmeasured
        return None, 0
    return None, 0


def features(program, device: str, parameter_bytes: int = None) -> dict:
    """What the rule reads from an exported program (known right after export, before Inductor):
    ``{device, nodes, convolutions (count), conv_flops, matmul_flops, attention_flops (each
    multiply-add FLOPs, 2 per MAC, at the example's shapes), conv_share (conv_flops over the three
    together, 0..1; 0 with none), parameter_bytes}``. ``parameter_bytes``: the model's parameters and
    buffers, in bytes (the program's state_dict and constants when not given)."""
    counts = {"conv": 0, "matmul": 0, "attention": 0}
    convs = nodes = 0
    for node in program.graph.nodes:
        nodes += 1
        kind, flops = _node_flops(node)
        if kind is None:
            continue
        counts[kind] += flops
        convs += kind == "conv"
    total = sum(counts.values())
    if parameter_bytes is None:
        seen, parameter_bytes = set(), 0
        for t in list(program.state_dict.values()) + list(getattr(program, "constants", {}).values()):
            if isinstance(t, torch.Tensor) and id(t) not in seen:
                seen.add(id(t))
                parameter_bytes += t.numel() * t.element_size()
    return {"device": device, "nodes": nodes, "convolutions": convs, "conv_flops": counts["conv"],
            "matmul_flops": counts["matmul"], "attention_flops": counts["attention"],
            "conv_share": counts["conv"] / total if total else 0.0, "parameter_bytes": int(parameter_bytes)}


# -- the choice ------------------------------------------------------------------------------------
@dataclass
class Decision:
    """A recipe choice: ``name`` (a TABLE name), ``chosen_by`` ("rule", "user"), ``reason`` (a
    messages.Text: English with its id and args) and the ``features`` it read (None for "user")."""

    name: str
    chosen_by: str
    reason: str
    features: dict = None

    def to_json(self) -> dict:
        from .messages import msg_of
        out = {"name": self.name, "chosen_by": self.chosen_by, "reason": str(self.reason),
               "reason_msg": msg_of(self.reason)}
        if self.features is not None:
            out["features"] = self.features
        return out


def decide(f: dict) -> Decision:
    """The rule on ``features()`` ``f`` (see the module's docstring and CONV_SHARE_MIN)."""
    total = f["conv_flops"] + f["matmul_flops"] + f["attention_flops"]
    share = 100.0 * f["conv_share"]
    if f["device"] != "cpu":
        return Decision("defaults", "rule", text("recipe.rule_gpu_defaults", device=f["device"]), f)
    if total == 0:
        return Decision("defaults", "rule", text("recipe.rule_no_compute"), f)
    if f["conv_share"] >= CONV_SHARE_MIN:
        return Decision("freezing", "rule", text("recipe.rule_conv_freezing", share=share,
                                                 convs=f["convolutions"], gflops=total / 1e9), f)
    return Decision("defaults", "rule", text("recipe.rule_matmul_defaults", share=share,
                                             threshold=100.0 * CONV_SHARE_MIN, gflops=total / 1e9), f)


def freezing_cost(weight_bytes: int, buckets: int = 1) -> dict:
    """What freezing costs a bundle (BUNDLE.md "Shared weights"): frozen weights are packed into
    opaque oneDNN tensors that stay inside each package's .so, so every bucket's package carries
    and, once loaded, holds its own copy instead of one shared file. ``weight_bytes``: one copy,
    bytes. Returns {weights_shared: false, weight_bytes, buckets, extra_bytes ((buckets - 1) x
    weight_bytes: on disk and resident when every bucket is loaded), reason, reason_msg}."""
    from .messages import msg_of
    extra = max(0, buckets - 1) * int(weight_bytes)
    reason = text("recipe.freezing_cost", mb=weight_bytes / 1e6, buckets=int(buckets), extra_mb=extra / 1e6)
    return {"weights_shared": False, "weight_bytes": int(weight_bytes), "buckets": int(buckets),
            "extra_bytes": extra, "reason": str(reason), "reason_msg": msg_of(reason)}


# -- a compile job's recipe (job.py calls these) ---------------------------------------------------
def choose(job) -> Decision:
    """The recipe of CompileJob ``job`` after its export (FORMAT.md "compile result" ``recipe``): a
    name the request gave ("user"), the request's own freezing/max_autotune/inductor fields or a
    quantization ("user", nothing changed), else decide() on the exported graph ("rule"), whose
    options are applied to ``job`` (freezing, max_autotune, inductor). Logged at info."""
    opts = job.options
    if opts.recipe != AUTO:
        decision = Decision(opts.recipe, "user", text("recipe.user_named", name=opts.recipe))
    elif job.quant is not None or job.qdq_nodes or opts.recipe_fields:
        current = name_of(job.freezing, job.max_autotune, job.dtype_name, job.inductor, job.dtype_name)
        decision = Decision(current, "user", text("recipe.user_fields", fields=", ".join(opts.recipe_fields))
                            if opts.recipe_fields and job.quant is None and not job.qdq_nodes
                            else text("recipe.quantized"))
    else:
        decision = decide(features(job.program, job.device))
        chosen = options_of(decision.name)
        job.freezing = job.freezing or bool(chosen.get("freezing", False))
        job.max_autotune = job.max_autotune or bool(chosen.get("max_autotune", False))
        job.inductor = dict(chosen.get("inductor", {}), **job.inductor)
    job.log("info", f"recipe {decision.name} (chosen by {decision.chosen_by}): {decision.reason}")
    return decision


def result_json(job, plan_summary: dict) -> dict:
    """The compile result's ``recipe``: choose()'s decision and, with freezing, its cost to a bundle
    (freezing_cost: one copy of the weights is the memory plan's constants_bytes, else the program's
    parameters and buffers). None when no recipe was chosen (a regional compile)."""
    decision = getattr(job, "recipe", None)
    if decision is None:
        return None
    out = decision.to_json()
    if job.freezing:
        weights = (plan_summary.get("memory") or {}).get("constants_bytes")
        if not isinstance(weights, (int, float)) or weights <= 0:
            weights = (decision.features or {}).get("parameter_bytes") or features(job.program, job.device)[
                "parameter_bytes"]
        out["cost"] = freezing_cost(int(weights), 1)
    return out
