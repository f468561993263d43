# SPDX-License-Identifier: GPL-3.0-or-later
"""One compile job, driven stage by stage by the C++ engine (core/pipeline/compilejob.cpp).

Stages (see core/protocol/FORMAT.md): load -> export -> compile here in Python; load_package and
measure in C++; verify here, on the outputs the C++ loader produced.
"""

import importlib.util
import math
import os
import platform
import re
import sys
import time

import torch
import torch.utils._pytree as pytree

from . import doctor, graph_json, guards, kernels, outdir, samples, sources, verify
from . import inputs as structured
from .errors import FrontendError, compile_hint, export_hint, one_line, user_frame, user_location
from .passes import PassRecorder

DEVICES = ("cpu", "cuda")
DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}
#: Default --tolerance per dtype: max abs difference between compiled and eager outputs.
DEFAULT_TOLERANCE = {"fp32": 1e-3, "bf16": 5e-2, "fp16": 1e-2}


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


def _load_factory(spec: str):
    path, _, name = spec.rpartition(":")
    if not os.path.isfile(path):
        raise FrontendError("unknown_model", "load", f"model file '{path}' does not exist",
                            "give --model as path/to/file.py:factory with an existing file")
    module_spec = importlib.util.spec_from_file_location(f"aotstudio_user_{abs(hash(path))}", path)
    module = importlib.util.module_from_spec(module_spec)
    # As `python file.py` would: modules beside the factory file can be imported.
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:
        raise FrontendError("model_error", "load",
                            f"importing '{path}' raised {one_line(exc)} at {user_frame(exc, os.path.abspath(path))}",
                            "fix the error in the model file") from exc
    factory = getattr(module, name, None)
    if not callable(factory):
        raise FrontendError("unknown_model", "load", f"'{path}' has no callable '{name}'",
                            "name a function that returns (model, example_inputs)")
    try:
        made = factory()
    except Exception as exc:
        raise FrontendError("model_error", "load",
                            f"factory '{name}' in '{path}' raised {one_line(exc)} at {user_frame(exc, os.path.abspath(path))}",
                            "fix the factory; it must return (model, example_inputs)") from exc
    return made, path


def _load_program(path: str):
    """A saved ExportedProgram (``torch.export.save`` output) as (program, example_inputs)."""
    if not os.path.isfile(path):
        raise FrontendError("unknown_model", "load", f"model file '{path}' does not exist",
                            "give the path of a file written by torch.export.save")
    import zipfile
    if not zipfile.is_zipfile(path):
        raise FrontendError("model_error", "load", f"'{path}' is not a .pt2 archive (truncated or not a zip file)",
                            "re-save it with torch.export.save; a partly copied file is truncated")
    try:
        program = torch.export.load(path)
    except Exception as exc:
        names = []
        try:
            names = zipfile.ZipFile(path).namelist()
        except Exception:
            pass
        if any("aotinductor" in n or n.endswith(".so") or "/data/aotinductor/" in n for n in names):
            raise FrontendError("model_error", "load",
                                f"'{path}' is an AOTInductor package (compiled code), not an ExportedProgram",
                                "give the model's factory or a torch.export.save file; a compiled package "
                                "cannot be compiled again") from exc
        raise FrontendError("model_error", "load",
                            f"'{path}' is not a loadable ExportedProgram: {one_line(exc)}",
                            "re-save it with torch.export.save from the same torch version") from exc
    inputs = getattr(program, "example_inputs", None)
    if not inputs or not inputs[0]:
        raise FrontendError("model_error", "load", f"'{path}' carries no example inputs",
                            "save it with torch.export.save from torch 2.6 or newer, which stores them")
    return program, tuple(inputs[0])


def _seed_factories():
    """Seed torch (every device), Python's ``random`` and, when loaded, numpy with 0 before a
    factory runs. A job may build the model more than once (profile compiles it, then loads it
    again for eager; export's cold start builds it in a fresh process), and a factory with
    unseeded random weights would otherwise give a different model each time: the package would
    then "differ from eager" for no fault of the compiler. A factory that seeds itself keeps its
    own seed (it runs after this)."""
    import random
    torch.manual_seed(0)
    random.seed(0)
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed(0)


def _split_submodule(spec: str):
    """``SPEC#PATH`` -> (SPEC, PATH); PATH names a sub-module (``model.encoder``, ``blocks.0``)."""
    base, sep, sub = spec.rpartition("#")
    if sep and base and sub and "/" not in sub and not sub.endswith(".py"):
        return base, sub
    return spec, None


def _factory_result(made, spec: str):
    """A factory's return value as (model, args, kwargs, dynamic_shapes). Accepted: ``(model,
    args)``, ``(model, args, dynamic_shapes)`` and ``{"model", "args", "kwargs",
    "dynamic_shapes"}``; ``args`` a tuple (or one tensor), or a dict taken as the keywords."""
    forms = ("return (model, args), (model, args, dynamic_shapes) or a dict with keys model, args, "
             "kwargs, dynamic_shapes")
    if isinstance(made, dict):
        unknown = sorted(set(made) - {"model", "args", "kwargs", "dynamic_shapes"})
        if unknown or "model" not in made:
            raise FrontendError("model_error", "load",
                                f"'{spec}' returned a dict with keys {sorted(made)}"
                                + (f" (unknown: {', '.join(unknown)})" if unknown else " (no 'model')"), forms)
        model, args, kwargs, dynamic = made["model"], made.get("args", ()), made.get("kwargs") or {}, \
            made.get("dynamic_shapes")
    elif isinstance(made, (tuple, list)) and len(made) in (2, 3):
        model, args = made[0], made[1]
        kwargs, dynamic = {}, (made[2] if len(made) == 3 else None)
    else:
        raise FrontendError("model_error", "load", f"'{spec}' did not return (model, example_inputs)", forms)
    if dynamic is not None and not isinstance(dynamic, (dict, tuple, list)):
        raise FrontendError("model_error", "load",
                            f"'{spec}' returned dynamic_shapes of type {type(dynamic).__name__}; torch.export takes a "
                            "dict keyed by forward's parameter names or a tuple with one entry per argument",
                            "e.g. {\"x\": {0: Dim(\"batch\", min=1, max=64)}}, or leave it out")
    if isinstance(args, torch.Tensor):
        args = (args,)
    elif isinstance(args, dict) and not kwargs:
        args, kwargs = (), args  # model(**inputs), as Hugging Face models are called
    elif isinstance(args, list):
        args = tuple(args)
    if not isinstance(args, tuple) or not isinstance(kwargs, dict):
        raise FrontendError("model_error", "load",
                            f"'{spec}' returned example args of type {type(args).__name__} and kwargs of type "
                            f"{type(kwargs).__name__}", "args is a tuple of forward's positional arguments, kwargs a "
                            "dict of its keyword arguments")
    if not isinstance(model, torch.nn.Module):
        raise FrontendError("model_error", "load",
                            f"'{spec}' returned a {type(model).__module__}.{type(model).__qualname__} as the model, "
                            "not a torch.nn.Module", forms)
    return model, args, kwargs, dynamic


def _capture_submodule(model, args, kwargs, path: str, spec: str):
    """The sub-module ``path`` of ``model`` and the (args, kwargs) of its first call while the
    whole model runs once on its example (a forward pre-hook). Raises FrontendError(model_error)
    with the closest module names when ``path`` does not exist, or when it was never called."""
    modules = dict(model.named_modules())
    if path not in modules or path == "":
        import difflib
        names = [n for n in modules if n]
        close = difflib.get_close_matches(path, names, n=5, cutoff=0.5) or \
            [n for n in names if n.count(".") <= 1][:8]
        raise FrontendError("model_error", "load",
                            f"'{spec}' has no sub-module '{path}'; closest: {', '.join(close) or '(none)'}",
                            "give a path from model.named_modules(), e.g. " + (close[0] if close else "encoder"))
    sub = modules[path]
    captured = []

    def hook(_module, a, k):
        if not captured:
            captured.append((tuple(a), dict(k)))

    handle = sub.register_forward_pre_hook(hook, with_kwargs=True)
    try:
        with torch.inference_mode():
            doctor.eval_mode(model, lambda level, message: None)(*args, **kwargs)
    except Exception as exc:
        if not captured:
            raise FrontendError("model_error", "load",
                                f"running '{spec}' to capture the inputs of '{path}' raised {one_line(exc)}",
                                "the whole model must run on its example inputs once") from exc
    finally:
        handle.remove()
    if not captured:
        raise FrontendError("model_error", "load", f"'{path}' was not called when '{spec}' ran on its example inputs",
                            "choose a sub-module that forward() uses")
    # Tensors made under inference_mode cannot be saved for export's tracing: clone them outside.
    a, k = pytree.tree_map_only(torch.Tensor, lambda t: t.clone(), captured[0])
    return sub, a, k


def resolve_model(spec: str, log=None):
    """Build ``(model, example_inputs, origin)`` from a model spec: ``sample:NAME``,
    ``path/to/file.py:factory`` or a saved ExportedProgram ``path/to/program.pt2``, each optionally
    followed by ``#PATH`` to take the sub-module PATH (its inputs captured by running the whole
    model once). ``example_inputs`` is the flat tuple of tensors the package takes: a factory's
    structured args/kwargs (inputs.py) are flattened and the model given a forward that takes
    them. Factories run seeded (_seed_factories), so every build of a spec has the same weights.
    ``log(level, message)`` receives notes (registered dataclasses, input names).
    Raises FrontendError(unknown_model|model_error)."""
    log = log or (lambda level, message: None)
    _seed_factories()
    spec, submodule = _split_submodule(spec)
    if spec.endswith(".pt2"):
        if submodule:
            raise FrontendError("bad_request", "load", f"'{spec}' is a saved program: it has no sub-modules to choose",
                                "give the model's factory (file.py:make#PATH) to compile a sub-module")
        program, inputs = _load_program(spec)
        return program, inputs, spec
    if spec.startswith("sample:"):
        name = spec[len("sample:"):]
        if name not in samples.SAMPLES:
            known = ", ".join(f"sample:{n}" for n in samples.SAMPLES)
            raise FrontendError("unknown_model", "load", f"unknown sample '{name}'",
                                f"choose one of {known}, or give path/to/file.py:factory")
        factory = samples.SAMPLES[name][0]
        try:
            made = factory()
        except ModuleNotFoundError as exc:
            raise FrontendError("model_error", "load", f"sample '{name}' needs {one_line(exc)}",
                                "run tools/setup.sh to install the pinned Python packages") from exc
        origin = samples.__file__
    elif spec.startswith(sources.SCHEMES):
        made, origin = sources.resolve(spec, log), spec  # hf:, timm:, torchvision: (sources.py)
    elif ".py:" in spec:
        made, origin = _load_factory(spec)
    else:
        if spec.endswith(".py"):
            raise FrontendError("unknown_model", "load", f"'{spec}' names a file but no factory function",
                                f"add the function that returns (model, example_inputs): {spec}:make")
        known = ", ".join(f"sample:{n}" for n in samples.SAMPLES)
        raise FrontendError("unknown_model", "load", f"cannot read model spec '{spec}'",
                            f"use one of {known}, path/to/file.py:factory or a torch.export.save .pt2")
    model, args, kwargs, factory_dynamic = _factory_result(made, spec)
    doctor.check_model(model, spec)
    if submodule:
        model, args, kwargs = _capture_submodule(model, args, kwargs, submodule, spec)
        if factory_dynamic is not None:
            log("info", f"the factory's dynamic_shapes describe the whole model, not '{submodule}': not used")
            factory_dynamic = None
        log("info", f"compiling the sub-module '{submodule}' ({type(model).__name__}) on the inputs it received "
                    "when the whole model ran once")
    model, flat = structured.adapt(model, args, kwargs, log)
    if factory_dynamic is not None and hasattr(model, structured.ATTR):
        per_input = structured.flat_dynamic_shapes(model, args, kwargs, factory_dynamic)
        if per_input is None:
            raise FrontendError("model_error", "load",
                                f"'{spec}': the factory's dynamic_shapes do not follow the structure of its inputs "
                                f"({', '.join(getattr(model, structured.ATTR).names)})",
                                "give dynamic_shapes shaped like the inputs (a dict keyed by forward's parameter "
                                "names, each shaped like its argument), or mark dimensions with --dynamic NAME:DIM")
        factory_dynamic = per_input
    if factory_dynamic is not None:
        model._aotstudio_dynamic_shapes = factory_dynamic  # torch.export's dynamic_shapes argument
    return model, flat, origin


def batched_inputs(inputs) -> list:
    """Which inputs carry the batch as dimension 0: those whose dimension 0 has the first input's
    size (a per-feature tensor such as a scale of shape [C] does not). The first input is the
    reference; a scalar has none. The rule is a guess from one example: an input whose size
    happens to equal the batch is taken as batched."""
    ref = inputs[0].shape[0] if inputs and inputs[0].dim() > 0 else None
    return [t.dim() > 0 and (i == 0 or t.shape[0] == ref) for i, t in enumerate(inputs)]


def resize_batch(t: torch.Tensor, batch: int) -> torch.Tensor:
    """``t`` with dimension 0 resized to ``batch`` rows by repeating or truncating its rows (for
    shape buckets: example inputs of another batch size, same content distribution)."""
    if t.dim() == 0:
        raise FrontendError("bad_request", "load", "a scalar input has no batch dimension",
                            "shape buckets need every input to have the batch as dimension 0")
    n = t.shape[0]
    if n == batch:
        return t
    reps = -(-batch // n)
    return torch.cat([t] * reps, dim=0)[:batch].contiguous()


_INPUT_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\[\]']*$")


def _parse_dynamic(specs) -> list:
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


def _lock_out_dir(out: str):
    """Create ``out`` and take an exclusive lock on ``out/.aotstudio.lock`` for the life of the job,
    so two compiles cannot write the same package at once. Raises FrontendError(bad_request)
    naming the directory when it cannot be created or is in use."""
    import fcntl
    try:
        os.makedirs(out, exist_ok=True)
        fd = os.open(os.path.join(out, ".aotstudio.lock"), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise FrontendError("bad_request", "load", f"cannot create output directory '{out}': {exc.strerror}",
                            "choose a writable directory for --out") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        raise FrontendError("bad_request", "load", f"output directory '{out}' is in use by another compile",
                            "wait for it to finish or choose another --out") from exc
    # Stale partial files from a killed engine (the package is written under a temporary name).
    import shutil
    for name in os.listdir(out):
        if name.startswith(".partial-"):
            path = os.path.join(out, name)
            if os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                try:
                    os.remove(path)
                except OSError:
                    pass
    return os.fdopen(fd, "r+")


def _describe(t: torch.Tensor) -> dict:
    return {"shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", "")}


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
        tmp = package + ".plain"
        with zipfile.ZipFile(tmp, "w") as dst:
            for info in infos:
                data = src.read(info.filename)
                if marker in info.filename and not info.filename.endswith("/"):
                    value = torch.load(io.BytesIO(data), weights_only=False)
                    if isinstance(value, torch.Tensor) and type(value) is not torch.Tensor:
                        buffer = io.BytesIO()
                        torch.save(value.detach().as_subclass(torch.Tensor), buffer)
                        data = buffer.getvalue()
                dst.writestr(info, data)
    os.replace(tmp, package)


class CompileJob:
    """State of one ``compile`` request between stages. ``request`` holds the protocol fields
    (model, device, dtype, out, tolerance, freezing, max_autotune, allow_cache, snapshots);
    ``log(level, message)`` sends a protocol ``log`` event and ``emit(event_dict)`` any other
    event (``snapshot``)."""

    def __init__(self, request: dict, log, emit=None, should_stop=None):
        self.spec = str(request.get("model", ""))
        self.device = str(request.get("device", "cpu"))
        self.dtype_name = str(request.get("dtype", "fp32"))
        self.out = os.path.abspath(str(request.get("out", "")))
        if self.dtype_name not in DTYPES:
            raise FrontendError("bad_request", "load", f"unknown dtype '{self.dtype_name}'",
                                "use --dtype fp32, bf16 or fp16")
        tolerance = request.get("tolerance", DEFAULT_TOLERANCE[self.dtype_name])
        if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not math.isfinite(tolerance) \
                or tolerance < 0:
            raise FrontendError("bad_request", "load", f"tolerance must be a finite number >= 0, got {tolerance!r}",
                                "pass a tolerance such as 1e-3 (max abs difference allowed between compiled and eager)")
        self.tolerance = float(tolerance)
        for flag in ("freezing", "max_autotune", "allow_cache", "snapshots", "staging", "external_weights"):
            if flag in request and not isinstance(request[flag], bool):
                raise FrontendError("bad_request", "load", f"'{flag}' must be true or false, got {request[flag]!r}",
                                    "send a JSON boolean")
        self.dynamic = _parse_dynamic(request.get("dynamic", []))
        self.dynamic_specs = [str(d) for d in request.get("dynamic", [])]
        self.requested_dynamic = {}  # (input, dim) -> label: what must come out dynamic (guards.specialised)
        self.dim_names = {}  # (input, dim) -> the user's name of the dimension
        self.guards = None  # guards.collect() of the exported program
        self.guards_path = None  # its sidecar beside the package (guards.SIDECAR)
        batch = request.get("batch")
        if batch is not None and (isinstance(batch, bool) or not isinstance(batch, int) or batch < 1):
            raise FrontendError("bad_request", "load", f"'batch' must be a positive integer, got {batch!r}",
                                "pass the bucket's batch size, e.g. 4")
        self.batch = batch
        dynamic_batch = request.get("dynamic_batch")
        if dynamic_batch is not None and not (isinstance(dynamic_batch, list) and len(dynamic_batch) == 2
                                              and all(isinstance(x, int) for x in dynamic_batch)
                                              and 1 <= dynamic_batch[0] <= dynamic_batch[1]):
            raise FrontendError("bad_request", "load", f"'dynamic_batch' must be [min, max], got {dynamic_batch!r}",
                                "e.g. [1, 64]")
        self.dynamic_batch = dynamic_batch
        verify_samples = request.get("verify_samples", verify.DEFAULT_SAMPLES)
        if isinstance(verify_samples, bool) or not isinstance(verify_samples, int) or not 0 <= verify_samples <= 64:
            raise FrontendError("bad_request", "load",
                                f"'verify_samples' must be an integer from 0 to 64, got {verify_samples!r}",
                                "pass how many seeded inputs to verify besides the example, e.g. 2")
        self.verify_samples = verify_samples
        self.staging = bool(request.get("staging", False))
        self.freezing = bool(request.get("freezing", False))
        self.freezing_given = "freezing" in request  # else freezing is on for a graph with q/dq nodes
        self.qdq_nodes = 0  # quantize/dequantize nodes in the exported graph (a PT2E-quantized model)
        self.max_autotune = bool(request.get("max_autotune", False))
        # Further Inductor options (a recipe's, tune.py): checked against this torch's config.
        from .tune import check_inductor_options
        self.inductor = check_inductor_options(request.get("inductor"))
        # Weights outside the package's .so (BUNDLE.md "Shared weights"): an export with several
        # buckets stores each distinct weight once for all of them.
        self.external_weights = bool(request.get("external_weights", False))
        self.allow_cache = bool(request.get("allow_cache", False))
        self.take_snapshots = bool(request.get("snapshots", True))
        self.log = log
        self.emit = emit or (lambda event: None)
        self._should_stop = should_stop or (lambda: False)  # the C++ job's stop token
        self._cancelled_in = None  # the stage a cancel was seen in
        self.stages = []  # [{name, pass, nodes, snapshot, seconds}]
        self.kernel_summary = None
        self._snapshot_seq = 0
        self._last_mark = time.perf_counter()
        self.model = None
        self._loaded_program = None
        self.inputs = ()
        self.program = None
        self.package = None
        self.dtype = DTYPES[self.dtype_name]
        self.state = None  # verify.ModelState: buffers and parameters before any eager run
        self.stateful = []  # names of buffers (or parameters) forward() changes
        self.compile_precision = None  # verify.precision_settings() when Inductor compiled
        self._verifier = None
        self._verified = False
        self._finished = False  # committed or abandoned
        self.quant = None  # a quantize request's scheme (quant.QuantState); None for plain compiles
        if request.get("scheme"):
            from .quant import QuantState
            self.quant = QuantState(request, self)
            if self.quant.scheme == "int8-static":
                self.freezing = True  # PT2E int8 lowers to oneDNN quantized ops only with freezing
        if not self.spec:
            raise FrontendError("bad_request", "load", "no model given", "pass a model spec such as sample:mlp")
        if self.device not in DEVICES:
            raise FrontendError("bad_request", "load", f"unknown device '{self.device}'",
                                "use --device cpu or --device cuda")
        if not request.get("out"):
            raise FrontendError("bad_request", "load", "no output directory given", "pass --out DIR")
        self._lock = _lock_out_dir(self.out)
        # Where this job writes: a staging folder moved into OUT at the end (outdir.py), or OUT
        # itself for callers that do not stage (quantize schemes, a profile's second job).
        self.work = outdir.staging_dir(self.out) if self.staging else self.out

    def check_stop(self, stage: str = "compile") -> None:
        """Raise FrontendError(cancelled) when the C++ job was asked to stop (a cancel request,
        Ctrl-C in the CLI). Polled by the pass hooks (passes.PassRecorder) and long loops."""
        if self._should_stop():
            self._cancelled_in = stage
            raise FrontendError("cancelled", stage, f"cancelled during {stage}", "")

    def close(self) -> None:
        """Release OUT's lock now. The C++ owner calls this when the job ends: a job object caught
        in a reference cycle is only collected later, and would keep the folder locked against the
        next job (a profile's second job, the next compile in the same engine)."""
        lock, self._lock = getattr(self, "_lock", None), None
        if lock is not None:
            lock.close()

    # -- stages -------------------------------------------------------------------------------
    def load(self) -> dict:
        """Build the model and example inputs on the requested device."""
        if self.device == "cuda" and not torch.cuda.is_available():
            raise FrontendError("no_device", "load", "CUDA was requested but no CUDA device is available",
                                "use --device cpu, or run the engine on a machine with an NVIDIA GPU and driver")
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
        self.batched = batched_inputs(inputs)
        if not all(self.batched):
            self.log("info", "inputs without the batch dimension (dimension 0 differs from the first input's "
                             f"{inputs[0].shape[0] if inputs and inputs[0].dim() else '-'}): "
                             + ", ".join(n for n, b in zip(structured.input_names(model, len(inputs)), self.batched) if not b)
                             + "; shape buckets and a dynamic batch leave them as they are")
        if self.batch is not None:
            inputs = tuple(resize_batch(t, self.batch) if b else t for t, b in zip(inputs, self.batched))
        self._resolve_dynamic_names(model, len(inputs))
        inputs = self._prepare_dynamic(model, tuple(inputs))
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
                                "give the missing arguments in the factory (return a dict with args and kwargs)"
                                + (f", or compile a sub-module that takes these inputs alone (--submodule "
                                   f"{' / '.join(subs)})" if subs else "") if missing else
                                "check that the example inputs match what forward() expects") from exc
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

    def export(self) -> dict:
        """Capture the graph with ``torch.export.export``; record its guards (guards.py) and fail
        when a dimension the request asked to be dynamic came out static."""
        loaded = getattr(self, "_loaded_program", None)
        dynamic_shapes = self._dynamic_shapes()
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
                self.log("info", f"the graph holds {self.qdq_nodes} quantize/dequantize nodes (a PT2E-quantized model): "
                                 "freezing is on, as Inductor lowers them to quantized kernels only when the weights "
                                 "are frozen (--no-freezing keeps it off)")
            else:
                self.log("warning", f"the graph holds {self.qdq_nodes} quantize/dequantize nodes but freezing is off: "
                                    "Inductor will dequantize the weights and compute in fp32; pass --freezing")
        self._check_dynamic()
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
            for item in self.guards["checks"] + self.guards["assertions"]:
                if not item.get("checkable"):
                    self.log("info", f"not checked before a call: {item.get('text') or item.get('message')}"
                                     + (f" ({item['source']})" if item.get("source") else ""))
        self._mark()
        self.snapshot("capture", "", self.program.graph)
        return {"nodes": nodes, "guards": self.guards}

    def _resolve_dynamic_names(self, model, count: int) -> None:
        """--dynamic entries that name their input (``attention_mask:1``) get its index. Raises
        FrontendError(bad_request) listing the input names when a name is not one of them."""
        if not any(isinstance(entry[0], str) for entry in self.dynamic):
            return
        names = structured.input_names(model, count)
        resolved = []
        for index, dim, lo, hi, name in self.dynamic:
            if isinstance(index, str):
                if index not in names:
                    import difflib
                    close = difflib.get_close_matches(index, names, n=3, cutoff=0.4)
                    raise FrontendError("bad_request", "load",
                                        f"--dynamic names the input '{index}', which the model does not have; its "
                                        f"inputs: {', '.join(names)}",
                                        f"did you mean {close[0]}?" if close else "use one of the names above or an index")
                index = names.index(index)
            resolved.append((index, dim, lo, hi, name))
        if len({(i, d) for i, d, *_ in resolved}) != len(resolved):
            raise FrontendError("bad_request", "load", "a dynamic dimension is given twice (by name and by index)",
                                "list each dimension once")
        self.dynamic = resolved

    def _prepare_dynamic(self, model, inputs: tuple) -> tuple:
        """Note which dimensions the request asks to be dynamic (``--dynamic``, else the factory's
        dynamic_shapes), and resize the example along those whose size is 0 or 1: torch.export
        specialises such sizes to constants. Says so in the log."""
        factory = getattr(model, "_aotstudio_dynamic_shapes", None)
        specs = {}  # (input, dim) -> torch spec (Dim, derived Dim, Dim.AUTO, ...), or None for --dynamic
        if self.dynamic_batch is not None:
            for i, t in enumerate(inputs):
                if t.dim() > 0 and self.batched[i]:
                    self.requested_dynamic[(i, 0)] = "batch"
                    self.dim_names[(i, 0)] = "batch"
        elif self.dynamic:
            for index, dim, lo, hi, name in self.dynamic:
                if index >= len(inputs) or dim >= inputs[index].dim():
                    names = structured.input_names(model, len(inputs))
                    label = f"{index}:{dim}" + (f" ({names[index]}:{dim})" if index < len(inputs) else "")
                    raise FrontendError("bad_request", "load", f"dynamic dimension {label} does not exist "
                                        f"(the model has {len(inputs)} inputs: {', '.join(names)}"
                                        + (f"; {names[index]} has {inputs[index].dim()} dimensions" if index < len(inputs) else "")
                                        + ")", "check the input and dimension indices")
                label = name or f"{index}:{dim}"
                self.requested_dynamic[(index, dim)] = label
                if name:
                    self.dim_names[(index, dim)] = name
                from types import SimpleNamespace
                specs[(index, dim)] = SimpleNamespace(min=lo, max=hi) if lo is not None else None
        elif factory is not None:
            entries = guards.per_input(factory, model, len(inputs))
            for index, entry in enumerate(entries or []):
                for dim, spec in (entry or {}).items():
                    if isinstance(dim, int) and guards.is_dynamic_spec(spec) and dim < inputs[index].dim():
                        name = guards.spec_name(spec)
                        self.requested_dynamic[(index, dim)] = name or f"{index}:{dim}"
                        if name:
                            self.dim_names[(index, dim)] = name
                        specs[(index, dim)] = spec
        # Every dimension of one name gets the same size, so that they stay equal.
        targets = {}
        for (index, dim), label in self.requested_dynamic.items():
            size = inputs[index].shape[dim]
            spec = specs.get((index, dim))
            if self.dynamic_batch is not None:
                continue  # export chose the bucket's example batch already
            target = guards.example_target(spec, size) if spec is not None else (2 if size < 2 else None)
            if target is not None:
                targets[(index, dim)] = target
        if targets:
            resized = list(inputs)
            for (index, dim), target in sorted(targets.items()):
                before = resized[index].shape[dim]
                resized[index] = guards.resize_dim(resized[index], dim, target)
                self.log("info", f"example input {index} has size {before} along dimension {dim}, which was requested "
                                 f"dynamic ({self.requested_dynamic[(index, dim)]}); torch.export would specialise it "
                                 f"to a constant, so it is resized to {target} for export (rows repeated)")
            inputs = tuple(resized)
        return inputs

    def _check_dynamic(self) -> None:
        """Fail the compile when a requested dynamic dimension came out static (FORMAT.md)."""
        if not self.requested_dynamic or self.program is None:
            return
        static = guards.specialised(self.program, self.requested_dynamic, self.model)
        if not static:
            return
        parts, fixes = [], []
        for item in static:
            why = (f"pinned by the guard {item['guard']}"
                   + (f" at {item['source']}" if item["source"] else f" (from {item['origin']})" if item["origin"] else "")
                   if item["guard"] else
                   f"the example's size is {item['size']}, which torch.export specialises"
                   if item["size"] in (0, 1) else "the model's code needs this size")
            parts.append(f"dimension {item['dim']} of input {item['input']} ({item['label']}) was requested dynamic "
                         f"but the exported program has it fixed at {item['size']}: {why}")
        hint = ("the model's code fixes these sizes (a view/reshape to a constant, a comparison with a constant): make "
                "the code size-generic, or drop the dimension from --dynamic; for a size of 0 or 1 give an example of "
                "size >= 2, and for a multiple use a derived Dim (2*Dim('n', min=1, max=32)) in the factory's "
                "dynamic_shapes")
        raise FrontendError("export_failed", "export",
                            f"'{self.spec}' did not export as asked: " + "; ".join(parts), hint)

    def _dynamic_shapes(self):
        """torch.export ``dynamic_shapes``: the factory's own, else one dict per positional input
        from --dynamic (a named Dim per dimension or per ``=NAME``, so that torch reports a
        specialisation or an unmet guard with its suggested fix instead of silently fixing the
        size), shaped for forward's signature (``forward(*args)`` takes one tuple)."""
        from torch.export import Dim
        factory = getattr(self.model, "_aotstudio_dynamic_shapes", None)
        if self.dynamic_batch is not None:
            # A dynamic-batch bucket: dimension 0 of every input is one shared batch dimension; the
            # factory's other dynamic dimensions (a sequence length, ...) stay dynamic.
            batch = Dim("batch", min=self.dynamic_batch[0], max=self.dynamic_batch[1])
            entries = guards.per_input(factory, self.model, len(self.inputs)) if factory is not None else None
            if entries is None and self.dynamic:  # a bundle's --dynamic dimensions besides the batch
                entries = self._dynamic_entries()
            if entries is None:
                if factory is not None:
                    self.log("info", "the factory's dynamic_shapes are not per positional input: the dynamic bucket "
                                     "makes only the batch dynamic")
                entries = [None] * len(self.inputs)
            shapes = []
            for t, entry, batched in zip(self.inputs, entries, self.batched):
                entry = {d: s for d, s in (entry or {}).items() if d != 0}
                if t.dim() > 0 and batched:
                    entry[0] = batch
                shapes.append(entry or None)
            return guards.for_signature(shapes, self.model)
        if not self.dynamic:
            return factory
        return guards.for_signature(self._dynamic_entries(), self.model)

    def _dynamic_entries(self) -> list:
        """--dynamic as one {dim: Dim} dict (or None) per positional input: a named Dim per
        dimension, one per ``=NAME`` (tied dimensions)."""
        from torch.export import Dim
        shapes = [None] * len(self.inputs)
        named = {}
        for index, dim, lo, hi, name in self.dynamic:
            if index >= len(self.inputs) or dim >= self.inputs[index].dim():
                raise FrontendError("bad_request", "export", f"dynamic dimension {index}:{dim} does not exist "
                                    f"(the model has {len(self.inputs)} inputs)", "check the input and dimension indices")
            key = name or f"input{index}_dim{dim}"
            if key not in named:
                named[key] = Dim(key, min=lo, max=hi) if lo is not None else Dim(key)
            entry = dict(shapes[index] or {})
            entry[dim] = named[key]
            shapes[index] = entry
        return shapes

    def decompose(self) -> dict:
        """Core ATen decomposition (``run_decompositions()``), kept as a snapshot of what the
        portable op set looks like. Inductor compiles the exported program with its own
        decomposition table; this stage is for inspection and costs one extra pass."""
        self._mark()
        try:
            decomposed = self.program.run_decompositions()
        except Exception as exc:
            raise FrontendError("export_failed", "decompose",
                                f"decomposing '{self.spec}' to core ATen failed: {one_line(exc)}",
                                "an op has no decomposition; see the log") from exc
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
            self._snapshot_seq += 1
            safe = "".join(c if c.isalnum() or c in "_-" else "_" for c in pass_name)
            fname = f"{self._snapshot_seq:03d}_{stage}{'_' + safe if safe else ''}.json"
            path = os.path.join(self.work, "snapshots", fname)
            graph_json.write_snapshot(graph_json.graph_to_json(graph, stage, pass_name), path)
            entry["snapshot"] = path
        self.stages.append(entry)
        self.emit({"type": "snapshot", "stage": stage, "pass": pass_name, "nodes": entry["nodes"],
                   "path": entry["snapshot"], "seconds": seconds})

    def unchanged_pass(self, stage: str, pass_name: str, graph) -> None:
        """Record a pass that ran and left the graph unchanged: listed in the result's ``stages``
        with ``changed: false`` (the studio hides these unless asked), no snapshot, no event."""
        now = time.perf_counter()
        seconds, self._last_mark = now - self._last_mark, now
        self.stages.append({"name": stage, "pass": pass_name, "nodes": len(graph.nodes), "snapshot": None,
                            "seconds": seconds, "changed": False})

    def compile(self) -> dict:
        """AOTInductor: compile and package into ``out/model.pt2``. The package is written under a
        temporary name and renamed, so a failed or interrupted compile leaves no half-written file."""
        os.makedirs(self.work, exist_ok=True)
        final = os.path.join(self.work, "model.pt2")
        # Written under a temporary directory with the final file name (torch names the archive's
        # top folder after the file), then renamed into place.
        partial_dir = os.path.join(self.work, f".partial-{os.getpid()}")
        os.makedirs(partial_dir, exist_ok=True)
        partial = os.path.join(partial_dir, "model.pt2")
        trace_root = os.path.join(self.work, "trace")
        self.compile_precision = verify.precision_settings()
        if os.path.isdir(trace_root):
            import shutil
            shutil.rmtree(trace_root, ignore_errors=True)  # a stale trace would be joined to new kernels
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
        if self.external_weights:
            # Each constant as its own torch.save file in data/weights/ with weights_config.json
            # (FQN -> file, shape, stride, offset), nothing in the .so; the C++ runner binds them
            # with load_constants (core/runtime/aotirunner.cpp). Torch's own on-disk format, so the
            # package stays what torch writes; an export moves the files out to share them.
            options["aot_inductor.package_constants_in_so"] = False
            options["aot_inductor.package_constants_on_disk_format"] = "pickle_weights"
        self._mark()
        try:
            # Inductor freezes only with grad disabled (compile_fx checks is_grad_enabled()).
            with PassRecorder(self.snapshot, self.log, self.unchanged_pass, self.check_stop), \
                    torch.set_grad_enabled(not self.freezing):
                path = torch._inductor.aoti_compile_and_package(self.program, package_path=partial,
                                                                inductor_configs=options)
        except Exception as exc:
            import shutil
            shutil.rmtree(partial_dir, ignore_errors=True)
            if self._cancelled_in is not None:  # raised by a pass hook, perhaps wrapped by Inductor
                raise FrontendError("cancelled", "compile", "cancelled while Inductor was compiling", "") from exc
            detail = doctor.compile_failure_detail(exc, self.program)
            raise FrontendError("compile_failed", "compile",
                                f"AOTInductor failed to compile '{self.spec}'" + (f" ({detail})" if detail else "")
                                + f": {one_line(exc)}",
                                compile_hint(exc, self.device)) from exc
        if self.external_weights:
            _plain_weight_files(path)
        os.replace(path, final)
        os.rmdir(partial_dir)
        self.package = final
        size = os.path.getsize(final)
        self.log("info", f"package written: {final} ({size} bytes)")
        # The package's input guards beside it (the C++ runner checks every call against them).
        self.guards_path = guards.write_sidecar(self.guards, self.work) if self.guards is not None else None
        self._collect_kernels(trace_root)
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
                "kernels": self.kernel_summary, "guards_path": self.guards_path,
                "inductor_cache": "allowed" if self.allow_cache else "disabled",
                "options": {"device": self.device, "dtype": self.dtype_name, "freezing": self.freezing,
                            "dynamic": self.dynamic_specs,
                            "max_autotune": self.max_autotune, "allow_cache": self.allow_cache,
                            "external_weights": self.external_weights, "inductor": self.inductor}}

    def _collect_kernels(self, trace_root: str) -> None:
        trace_dir = kernels.find_trace_dir(trace_root)
        if trace_dir is None:
            self.log("warning", "Inductor wrote no debug trace (a cache hit?): no kernel list or fusion stage")
            self.kernel_summary = {"count": 0, "path": None, "by_kind": {}, "trace_dir": None}
            return
        self._mark()
        data = kernels.build_kernel_list(trace_dir, self.device)
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
