# SPDX-License-Identifier: GPL-3.0-or-later
"""A compile request's options (core/protocol/FORMAT.md, "compile"), read and checked once.

:func:`parse` turns the request dict into a :class:`CompileOptions` or raises
FrontendError(bad_request) naming the field (``unsupported`` for a quantization scheme the device
cannot run). The compile job (job.py) copies the options into its own attributes, which its stages
and the modules driving them (verify.py, sweep.py, numerics.py, tune.py, regional.py, quant/) read
and, for a few, change as the job learns more (``freezing`` for a graph with quantize/dequantize
nodes, ``external_weights`` with freezing, ``dynamic`` once input names resolve to indices).
"""

import math
import os
import re
from dataclasses import dataclass, field

import torch

from . import guards, verify
from .errors import FrontendError

DEVICES = ("cpu", "cuda")
DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}
#: Default --tolerance per dtype: max abs difference between compiled and eager outputs.
DEFAULT_TOLERANCE = {"fp32": 1e-3, "bf16": 5e-2, "fp16": 1e-2}
#: The request's boolean fields: each must be a JSON boolean when given.
FLAGS = ("freezing", "max_autotune", "allow_cache", "cache", "snapshots", "staging", "external_weights")

_INPUT_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\[\]']*$")


def parse_dynamic(specs) -> list:
    """Dynamic dimensions from the request: strings "INPUT:DIM" or "INPUT:DIM:MIN:MAX" (positional
    input index, dimension index, inclusive size range), each optionally followed by "=NAME": dims
    of the same name are one dimension (``0:0=batch 1:0=batch``). Returns
    [(input, dim, min|None, max|None, name|None)]. Raises FrontendError(bad_request) naming the
    malformed entry or a name given two different ranges."""
    if not isinstance(specs, list):
        raise FrontendError("bad_request", "load", "'dynamic' must be a list of \"INPUT:DIM[:MIN:MAX][=NAME]\" strings",
                            "e.g. --dynamic 0:0 marks dimension 0 of input 0 dynamic")
    out, ranges, seen = [], {}, set()
    for spec in specs:
        body, _, name = str(spec).partition("=")
        parts = body.split(":")
        try:
            if len(parts) not in (2, 4) or (name and not guards._NAME.match(name)) or (_ and not name):
                raise ValueError
            # INPUT is an index or an input's name (attention_mask, cfg.scale, images[0]).
            first = int(parts[0]) if parts[0].isdigit() else parts[0]
            if isinstance(first, str) and not _INPUT_NAME.match(first):
                raise ValueError
            nums = [first] + [int(p) for p in parts[1:]]
            if len(nums) == 4 and nums[2] > nums[3]:
                raise FrontendError("bad_request", "load", f"dynamic dimension '{spec}': its minimum {nums[2]} is above "
                                    f"its maximum {nums[3]}", "write INPUT:DIM:MIN:MAX with MIN <= MAX")
            if nums[1] < 0 or (len(nums) == 4 and not 0 <= nums[2] <= nums[3]):
                raise ValueError
        except ValueError:
            raise FrontendError("bad_request", "load", f"cannot read dynamic dimension '{spec}'",
                                "write INPUT:DIM[:MIN:MAX][=NAME] with INPUT an index or an input's name, e.g. 0:0, "
                                "0:0:1:64, attention_mask:1 or 0:0=batch 1:0=batch (NAME a Python identifier)") from None
        if (nums[0], nums[1]) in seen:
            raise FrontendError("bad_request", "load", f"dynamic dimension {nums[0]}:{nums[1]} is given twice",
                                "list each dimension once")
        seen.add((nums[0], nums[1]))
        lo, hi = (nums[2], nums[3]) if len(nums) == 4 else (None, None)
        if name and lo is not None:
            if ranges.get(name, (lo, hi)) != (lo, hi):
                raise FrontendError("bad_request", "load", f"dynamic dimension '{name}' is given two ranges "
                                    f"({ranges[name][0]}:{ranges[name][1]} and {lo}:{hi})",
                                    "give the range once, or the same range on every dimension of that name")
            ranges[name] = (lo, hi)
        out.append((nums[0], nums[1], lo, hi, name or None))
    # A range given on one dimension of a name holds for all of them.
    return [(i, d, *(ranges.get(n, (lo, hi)) if n else (lo, hi)), n) for i, d, lo, hi, n in out]


@dataclass
class CompileOptions:
    """The checked fields of one compile request. ``dynamic`` is parse_dynamic()'s list;
    ``inductor`` is tune.check_inductor_options()'s dict; ``scheme`` is a quantize request's
    scheme name (None for a plain compile)."""

    spec: str
    device: str = "cpu"
    dtype_name: str = "fp32"
    out: str = ""  # absolute
    tolerance: float = DEFAULT_TOLERANCE["fp32"]  # max abs difference, compiled against eager
    dynamic: list = field(default_factory=list)  # [(input, dim, min|None, max|None, name|None)]
    dynamic_specs: list = field(default_factory=list)  # the request's "dynamic" strings, as given
    shapes: dict = field(default_factory=dict)  # INPUT (index digits or name) -> sizes: shapes.check()'s
    batch: int = None  # a shape bucket's batch size (example inputs resized to it)
    dynamic_batch: list = None  # [min, max] of a dynamic-batch bucket
    static_batch: bool = False  # an exact bucket: dimension 0 of batched inputs static, whatever the factory says
    verify_samples: int = verify.DEFAULT_SAMPLES  # seeded inputs verified besides the example
    staging: bool = False
    freezing: bool = False
    freezing_given: bool = False  # else freezing is on for a graph with q/dq nodes
    max_autotune: bool = False
    inductor: dict = field(default_factory=dict)  # further Inductor options (a recipe's)
    recipe: str = "auto"  # recipe.check()'s: "auto" (chosen after export, recipe.decide) or a TABLE name
    recipe_fields: list = field(default_factory=list)  # the recipe fields the request sets itself
    external_weights: bool = False
    runtime: str = "libtorch"  # "lite": link_libtorch=False, for aotstudio-run-lite (lite.py)
    lite_runtime: str = None  # the aotstudio-run-lite executable that checks and verifies such a package
    cuda_archs: list = field(default_factory=list)  # ["9.0", "12.0"]: parse_cuda_archs(); [] = the GPU's own
    allow_cache: bool = False
    cache: bool = True  # our compile cache and ccache (compilecache.py)
    take_snapshots: bool = True
    scheme: str = None

    @property
    def dtype(self) -> torch.dtype:
        """The torch dtype of ``dtype_name``."""
        return DTYPES[self.dtype_name]


_ARCH_RE = re.compile(r"^(?:sm_?)?(\d{1,2})\.?(\d)([af]?)$|^(\d{1,2})\.(\d)([af]?)$")


def parse_cuda_archs(value) -> list:
    """The request's ``cuda_archs``: GPU architectures a CUDA package's kernels are built for
    besides the compile GPU's own, as TORCH_CUDA_ARCH_LIST entries ("9.0", "12.0", "10.0a").
    Accepts "sm_120", "120", "12.0" (and an "a"/"f" suffix). None or [] keeps Inductor's default
    (the compile GPU only). Raises FrontendError(bad_request) naming an entry it cannot read.

    With entries, the compile sets ``aot_inductor.emit_multi_arch_kernel`` and
    ``TORCH_CUDA_ARCH_LIST``: each kernel becomes a fatbin with SASS for the listed
    architectures Inductor can build from the compile GPU's PTX (the compile GPU's and newer;
    older entries are ignored by torch with a warning) plus that PTX, which newer GPUs JIT
    (torch/_inductor/codegen/cuda/compile_utils.py ``_cuda_multi_arch_gencode_options``). What
    was built is read back from the package (the compatibility key's ``cuda_archs``)."""
    if value is None:
        return []
    if isinstance(value, str):
        value = [v for v in re.split(r"[;, ]+", value) if v]
    if not isinstance(value, list):
        raise FrontendError("bad_request", "load", f"'cuda_archs' must be a list of GPU architectures, got {value!r}",
                            "e.g. [\"9.0\", \"12.0\"] (--arch sm_90,sm_120)")
    out = []
    for entry in value:
        m = _ARCH_RE.match(str(entry).strip().lower()) if isinstance(entry, (str, int)) else None
        if m is None or isinstance(entry, bool):
            raise FrontendError("bad_request", "load", f"'{entry}' is not a GPU architecture",
                                "write sm_90, 90 or 9.0 (sm_120 for RTX Pro 6000 Blackwell, sm_90 for H100/H200)")
        major, minor, suffix = (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(4), m.group(5),
                                                                                         m.group(6))
        arch = f"{int(major)}.{minor}{suffix}"
        if arch not in out:
            out.append(arch)
    return out


def parse(request: dict) -> CompileOptions:
    """``request`` (the protocol's compile fields: model, device, dtype, out, tolerance, the FLAGS,
    dynamic, shapes, batch, dynamic_batch, verify_samples, inductor, recipe, scheme) as CompileOptions. Checked in
    the order below; the first problem raises FrontendError(bad_request) in stage "load", naming the
    field and what it accepts, or quant.Unsupported for a scheme this device cannot run."""
    spec = str(request.get("model", ""))
    device = str(request.get("device", "cpu"))
    dtype_name = str(request.get("dtype", "fp32"))
    out = os.path.abspath(str(request.get("out", "")))
    if dtype_name not in DTYPES:
        raise FrontendError("bad_request", "load", f"unknown dtype '{dtype_name}'",
                            "use --dtype fp32, bf16 or fp16")
    # The recipe (recipe.py): "auto" is decided after export; a name's options apply now, under
    # the request's own fields (a flag given stays on, the request's Inductor keys win).
    from . import recipe as recipes
    recipe_name = recipes.check(request.get("recipe"))
    named = recipes.options_of(recipe_name) if recipe_name != recipes.AUTO else {}
    if "dtype" in named and named["dtype"] != dtype_name:
        if dtype_name != "fp32":
            raise FrontendError("bad_request", "load", f"recipe '{recipe_name}' is in {named['dtype']} and the "
                                f"request's dtype is {dtype_name}", "drop one of them")
        dtype_name = named["dtype"]
    tolerance = request.get("tolerance", DEFAULT_TOLERANCE[dtype_name])
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not math.isfinite(tolerance) \
            or tolerance < 0:
        raise FrontendError("bad_request", "load", f"tolerance must be a finite number >= 0, got {tolerance!r}",
                            "pass a tolerance such as 1e-3 (max abs difference allowed between compiled and eager)")
    for flag in FLAGS:
        if flag in request and not isinstance(request[flag], bool):
            raise FrontendError("bad_request", "load", f"'{flag}' must be true or false, got {request[flag]!r}",
                                "send a JSON boolean")
    dynamic = parse_dynamic(request.get("dynamic", []))
    from . import shapes as example_shapes
    shapes = example_shapes.check(request.get("shapes"))
    batch = request.get("batch")
    if batch is not None and (isinstance(batch, bool) or not isinstance(batch, int) or batch < 1):
        raise FrontendError("bad_request", "load", f"'batch' must be a positive integer, got {batch!r}",
                            "pass the bucket's batch size, e.g. 4")
    dynamic_batch = request.get("dynamic_batch")
    if dynamic_batch is not None and not (isinstance(dynamic_batch, list) and len(dynamic_batch) == 2
                                          and all(isinstance(x, int) for x in dynamic_batch)
                                          and 1 <= dynamic_batch[0] <= dynamic_batch[1]):
        raise FrontendError("bad_request", "load", f"'dynamic_batch' must be [min, max], got {dynamic_batch!r}",
                            "e.g. [1, 64]")
    verify_samples = request.get("verify_samples", verify.DEFAULT_SAMPLES)
    if isinstance(verify_samples, bool) or not isinstance(verify_samples, int) or not 0 <= verify_samples <= 64:
        raise FrontendError("bad_request", "load",
                            f"'verify_samples' must be an integer from 0 to 64, got {verify_samples!r}",
                            "pass how many seeded inputs to verify besides the example, e.g. 2")
    # Further Inductor options (a recipe's, tune.py): checked against this torch's config.
    from .tune import check_inductor_options
    inductor = check_inductor_options(dict(named.get("inductor", {}), **(request.get("inductor") or {}))
                                      if named.get("inductor") else request.get("inductor"))
    freezing = bool(request.get("freezing", False)) or bool(named.get("freezing", False))
    scheme = str(request["scheme"]) if request.get("scheme") else None
    if scheme is not None:
        # Before the model, device and out checks, as the job's QuantState always checked it.
        from .quant import schemes
        schemes.check_scheme(scheme)
        schemes.check_device(scheme, device)
        freezing = freezing or schemes.TABLE[scheme].freezing  # int8-static: oneDNN's int8 needs it
    if not spec:
        raise FrontendError("bad_request", "load", "no model given", "pass a model spec such as sample:mlp")
    if device not in DEVICES:
        raise FrontendError("bad_request", "load", f"unknown device '{device}'",
                            "use --device cpu or --device cuda")
    if not request.get("out"):
        raise FrontendError("bad_request", "load", "no output directory given", "pass --out DIR")
    runtime = request.get("runtime", "libtorch")
    if runtime not in ("libtorch", "lite"):
        raise FrontendError("bad_request", "load", f"runtime '{runtime}': expected 'libtorch' or 'lite'", "")
    if runtime == "lite" and device != "cpu":
        raise FrontendError("bad_request", "load", "runtime 'lite' (aotstudio-run-lite) runs CPU packages only",
                            "use --runtime libtorch for a CUDA bundle")
    cuda_archs = parse_cuda_archs(request.get("cuda_archs"))
    if cuda_archs and device != "cuda":
        raise FrontendError("bad_request", "load", "'cuda_archs' (--arch) names GPU architectures, and this compile "
                            f"is for the {device}", "compile with --device cuda, or leave --arch out")
    if runtime == "lite" and not request.get("lite_runtime"):
        raise FrontendError("bad_request", "load", "runtime 'lite' needs the aotstudio-run-lite executable "
                            "(the request's lite_runtime) to check and verify the package", "")
    return CompileOptions(
        spec=spec, device=device, dtype_name=dtype_name, out=out, tolerance=float(tolerance), dynamic=dynamic,
        dynamic_specs=[str(d) for d in request.get("dynamic", [])], shapes=shapes, batch=batch, dynamic_batch=dynamic_batch,
        static_batch=bool(request.get("static_batch", False)) and dynamic_batch is None,
        verify_samples=verify_samples, staging=bool(request.get("staging", False)), freezing=freezing,
        freezing_given="freezing" in request or "freezing" in named,
        max_autotune=bool(request.get("max_autotune", False)) or bool(named.get("max_autotune", False)),
        inductor=inductor, recipe=recipe_name,
        recipe_fields=[k for k in ("freezing", "max_autotune", "inductor") if request.get(k) not in (None, {})
                       and (k != "max_autotune" or request[k])],
        # Weights outside the package's .so (BUNDLE.md "Shared weights"): an export with several
        # buckets stores each distinct weight once for all of them.
        external_weights=bool(request.get("external_weights", False)),
        runtime=runtime, lite_runtime=request.get("lite_runtime") or None, cuda_archs=cuda_archs,
        allow_cache=bool(request.get("allow_cache", False)), cache=bool(request.get("cache", True)),
        take_snapshots=bool(request.get("snapshots", True)),
        scheme=scheme)
