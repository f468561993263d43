# SPDX-License-Identifier: GPL-3.0-or-later
"""Model specs to models: what ``--model`` names (``sample:NAME``, ``path/to/file.py:factory``,
``hf:``/``timm:``/``torchvision:`` sources, a saved ExportedProgram ``.pt2``, each optionally with
``#PATH`` for a sub-module) built into ``(model, example_inputs)``, and the batch helpers that
shape buckets use on those inputs.

Used by the compile job's load stage (job.py), the cold start's fresh process (coldstart.py) and
the test corpus (tests/python/corpus_models.py).
"""

import importlib.util
import os
import sys

import torch
import torch.utils._pytree as pytree

from . import doctor, samples, sources
from . import inputs as structured
from .errors import USER_MODULES, FrontendError, one_line, user_frame, user_module, user_where
from .messages import text


def _load_factory(spec: str):
    """``path/to/file.py:factory`` imported (its folder on ``sys.path``, as ``python file.py`` would
    have it) and the factory called: returns (what the factory returned, path). Raises
    FrontendError(unknown_model) for a missing file or function, FrontendError(model_error) when
    importing the file or calling the factory raises."""
    path, _, name = spec.rpartition(":")
    if not os.path.isfile(path):
        raise FrontendError("unknown_model", "load", text("load.file_missing", path=path), text("load.file_missing.hint"))
    module_spec = importlib.util.spec_from_file_location(f"aotstudio_user_{abs(hash(path))}", path)
    USER_MODULES[module_spec.name] = os.path.splitext(os.path.basename(path))[0]
    module = importlib.util.module_from_spec(module_spec)
    # As `python file.py` would: modules beside the factory file can be imported.
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:
        raise FrontendError("model_error", "load",
                            text("load.import_raised", path=path, error=one_line(exc),
                                 location=user_frame(exc, os.path.abspath(path))),
                            text("load.import_raised.hint"), where=user_where(exc)) from exc
    factory = getattr(module, name, None)
    if not callable(factory):
        raise FrontendError("unknown_model", "load", text("load.no_callable", path=path, name=name),
                            text("load.no_callable.hint"))
    try:
        made = factory()
    except Exception as exc:
        raise FrontendError("model_error", "load",
                            text("load.factory_raised", name=name, path=path, error=one_line(exc),
                                 location=user_frame(exc, os.path.abspath(path))),
                            text("load.factory_raised.hint"), where=user_where(exc)) from exc
    return made, path


def _load_program(path: str):
    """A saved ExportedProgram (``torch.export.save`` output) as (program, example_inputs)."""
    if not os.path.isfile(path):
        raise FrontendError("unknown_model", "load", text("load.file_missing", path=path),
                            text("load.program_missing.hint"))
    import zipfile
    if not zipfile.is_zipfile(path):
        raise FrontendError("model_error", "load", text("load.not_zip", path=path), text("load.not_zip.hint"))
    try:
        program = torch.export.load(path)
    except Exception as exc:
        names = []
        try:
            names = zipfile.ZipFile(path).namelist()
        except Exception:
            pass
        if any("aotinductor" in n or n.endswith(".so") or "/data/aotinductor/" in n for n in names):
            raise FrontendError("model_error", "load", text("load.is_aoti_package", path=path),
                                text("load.is_aoti_package.hint")) from exc
        raise FrontendError("model_error", "load", text("load.program_unloadable", path=path, error=one_line(exc)),
                            text("load.program_unloadable.hint")) from exc
    inputs = getattr(program, "example_inputs", None)
    if not inputs or not inputs[0]:
        raise FrontendError("model_error", "load", text("load.no_example_inputs", path=path),
                            text("load.no_example_inputs.hint"))
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
    forms = text("load.factory_forms.hint")
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
        raise FrontendError("model_error", "load", text("load.bad_return", spec=spec), forms)
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
                            text("load.not_module", spec=spec,
                                 type=f"{user_module(type(model).__module__)}.{type(model).__qualname__}"), forms)
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
                                "the whole model must run on its example inputs once", where=user_where(exc)) from exc
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
            raise FrontendError("unknown_model", "load", text("load.unknown_sample", name=name),
                                text("load.unknown_sample.hint", known=known))
        factory = samples.SAMPLES[name][0]
        try:
            made = factory()
        except ModuleNotFoundError as exc:
            raise FrontendError("model_error", "load", text("load.sample_needs", name=name, error=one_line(exc)),
                                text("load.sample_needs.hint")) from exc
        origin = samples.__file__
    elif spec.startswith(sources.SCHEMES):
        made, origin = sources.resolve(spec, log), spec  # hf:, timm:, torchvision: (sources.py)
    elif ".py:" in spec:
        made, origin = _load_factory(spec)
    else:
        if spec.endswith(".py"):
            raise FrontendError("unknown_model", "load", text("load.no_factory", spec=spec),
                                text("load.no_factory.hint", spec=spec))
        known = ", ".join(f"sample:{n}" for n in samples.SAMPLES)
        raise FrontendError("unknown_model", "load", text("load.bad_spec", spec=spec), text("load.bad_spec.hint", known=known))
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
