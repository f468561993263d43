# SPDX-License-Identifier: GPL-3.0-or-later
"""Example inputs as torch.export takes them, and the flat tensor list an AOTI package takes.

A factory may give positional and keyword arguments, each any pytree (tuples, lists, dicts,
namedtuples, registered dataclasses, nested) of tensors and non-tensor constants. torch.export
captures such a call and AOTInductor's package then takes the *tensor leaves* of ``(args,
kwargs)`` in pytree order (torch/_inductor/package/package.py, ``AOTICompiledModel.__call__``:
``tree_flatten((args, reorder_kwargs(kwargs, in_spec)))``, non-tensors dropped). The rest of the
studio (verify, sweep, profile, the C++ loader, bundles) works on that flat list, so a model with
structured inputs is given a forward that takes the flat tensors as named positional parameters
and rebuilds the call (:func:`adapt`). Its parameters and sub-modules stay where they are, so
graph node names, module paths and provenance read as for the model itself.

Names of the flat inputs come from forward's signature and the pytree path: ``x``,
``cfg.scale``, ``attention_mask``, ``images[0][1]``, ``batch['pixel_values']``.
"""

import dataclasses
import inspect
import keyword
import re
import types

import torch
import torch.utils._pytree as pytree

from .errors import FrontendError

#: Attribute of an adapted model holding its Structured description.
ATTR = "_aotstudio_structured"


def _key_text(key) -> str:
    if isinstance(key, pytree.SequenceKey):
        return f"[{key.idx}]"
    if isinstance(key, pytree.MappingKey):
        return f"[{key.key!r}]"
    if isinstance(key, pytree.GetAttrKey):
        return f".{key.name}"
    return str(key)


def path_name(root: str, path) -> str:
    """``root`` followed by the pytree path: ``cfg.scale``, ``images[0][1]``, ``batch['ids']``."""
    return root + "".join(_key_text(k) for k in path)


def identifier(name: str, taken: set) -> str:
    """A Python identifier for ``name`` (a parameter of the generated forward, hence the exported
    graph's placeholder name), unique within ``taken``."""
    ident = re.sub(r"\W+", "_", name.replace("'", "")).strip("_") or "input"
    if ident[0].isdigit() or keyword.iskeyword(ident):
        ident = "in_" + ident
    base, n = ident, 1
    while ident in taken:
        n += 1
        ident = f"{base}_{n}"
    taken.add(ident)
    return ident


def _register_dataclasses(value, log) -> list:
    """Register every dataclass type found in ``value`` that pytree does not know yet, with
    ``torch.export.register_dataclass`` (its fields become leaves: tensors are inputs, the rest
    constants). Returns the qualified names registered."""
    done = []

    def walk(v, depth=0):
        if depth > 32:
            return
        if isinstance(v, torch.Tensor):
            return
        if dataclasses.is_dataclass(v) and not isinstance(v, type) and type(v) not in pytree.SUPPORTED_NODES:
            cls = type(v)
            try:
                torch.export.register_dataclass(cls, serialized_type_name=f"{cls.__module__}.{cls.__qualname__}")
            except Exception as exc:  # noqa: BLE001 - reported as a user error below
                raise FrontendError("model_error", "load",
                                    f"the example input of type {cls.__qualname__} (a dataclass) could not be registered "
                                    f"as a pytree node: {exc}",
                                    f"call torch.export.register_dataclass({cls.__qualname__}) in the model file") from exc
            done.append(cls.__qualname__)
        if type(v) in pytree.SUPPORTED_NODES:
            children, _ = pytree.SUPPORTED_NODES[type(v)].flatten_fn(v)
            for c in children:
                walk(c, depth + 1)
        elif dataclasses.is_dataclass(v) and not isinstance(v, type):
            for f in dataclasses.fields(v):
                walk(getattr(v, f.name), depth + 1)

    walk(value)
    for name in done:
        log("info", f"registered the dataclass {name} as a pytree node (torch.export.register_dataclass) so that its "
                    "tensor fields are inputs and the rest constants; in your own export code, call "
                    f"torch.export.register_dataclass({name}) once before torch.export.export")
    return done


def _hidden_tensors(v, depth=0) -> bool:
    """True when ``v`` (a pytree leaf that is not a tensor) holds tensors in its attributes:
    an unregistered container torch.export would bake in as constants."""
    if depth > 3 or isinstance(v, (str, bytes, int, float, bool, type(None), torch.dtype, torch.device)):
        return False
    if isinstance(v, torch.Tensor):
        return True
    attrs = getattr(v, "__dict__", None)
    if isinstance(attrs, dict):
        return any(_hidden_tensors(x, depth + 1) for x in attrs.values())
    if isinstance(v, (list, tuple, set)):
        return any(_hidden_tensors(x, depth + 1) for x in v)
    return False


def signature_text(model, limit: int = 10) -> str:
    """``forward(x, mask=None, *args, cfg, **kwargs)``: forward's parameters for messages, without
    ``self``, annotations or default values (``=…`` marks a default); at most ``limit`` shown."""
    try:
        params = list(inspect.signature(model.forward).parameters.values())
    except (TypeError, ValueError):
        return "forward(...)"
    parts = []
    for p in params:
        if p.kind == p.VAR_POSITIONAL:
            parts.append(f"*{p.name}")
        elif p.kind == p.VAR_KEYWORD:
            parts.append(f"**{p.name}")
        else:
            parts.append(p.name + ("=…" if p.default is not inspect.Parameter.empty else ""))
    shown = parts[:limit] + ([f"… {len(parts) - limit} more"] if len(parts) > limit else [])
    return f"forward({', '.join(shown)})"


def unsupplied_parameters(model, args: tuple, kwargs: dict, required_only: bool = False) -> list:
    """Names of forward's named parameters not given by ``args`` and ``kwargs``, in signature
    order; with ``required_only`` only those without a default ([] when the signature cannot be
    read)."""
    try:
        sig = inspect.signature(model.forward)
    except (TypeError, ValueError):
        return []
    params = [p for p in sig.parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    given = {p.name for p in positional[:len(args)]} | set(kwargs)
    return [p.name for p in params
            if p.name not in given and (not required_only or p.default is inspect.Parameter.empty)]


def missing_parameters(model, args: tuple, kwargs: dict) -> list:
    """Names of forward's parameters that have no default and were not given."""
    return unsupplied_parameters(model, args, kwargs, required_only=True)


@dataclasses.dataclass
class Structured:
    """A model call ``forward(*args, **kwargs)`` flattened: ``tensors`` are the tensor leaves in
    the package's order, ``names[i]`` the display name of ``tensors[i]`` and ``params[i]`` the
    identifier it has as a parameter of the adapted forward (and as the graph's placeholder)."""
    names: list
    params: list
    tensors: tuple
    leaves: list  # every leaf of (args, kwargs); tensor positions filled by each call
    tensor_slots: list  # index into leaves of each tensor
    spec: object  # pytree.TreeSpec of (args, kwargs)
    original_forward: object
    constants: list = dataclasses.field(default_factory=list)  # display names of the non-tensor leaves

    def rebuild(self, flat) -> tuple:
        """(args, kwargs) of the original forward with ``flat`` in place of the example tensors."""
        leaves = list(self.leaves)
        for slot, t in zip(self.tensor_slots, flat):
            leaves[slot] = t
        return pytree.tree_unflatten(leaves, self.spec)


def bind(model, args: tuple, kwargs: dict, log) -> tuple:
    """Check ``args``/``kwargs`` against forward's signature and name each tensor leaf. Returns
    (names, leaves, slots, spec, constants): the display names of the tensor leaves, every leaf of
    ``(args, kwargs)``, the index of each tensor among them, the TreeSpec, and the display names of
    the non-tensor leaves. Raises FrontendError(model_error) naming an unknown keyword or
    a container type torch.export cannot flatten, with forward's signature."""
    try:
        sig = inspect.signature(model.forward)
        bound = sig.bind_partial(*args, **kwargs)
    except TypeError as exc:
        import difflib
        params = [p for p in inspect.signature(model.forward).parameters]
        close = [f"'{k}' -> '{m[0]}'" for k in kwargs if k not in params
                 for m in [difflib.get_close_matches(k, params, n=1, cutoff=0.6)] if m]
        raise FrontendError("model_error", "load",
                            f"the example inputs do not fit {signature_text(model)}: {exc}",
                            (f"did you mean {', '.join(close)}? " if close else "")
                            + "give the arguments forward() takes (positional in order, the rest by keyword)") from exc
    except ValueError:
        bound = None
    _register_dataclasses((args, kwargs), log)
    # Display roots per pytree path prefix: positional i -> its parameter name (or *args[i]).
    positional = []
    if bound is not None:
        for p in bound.signature.parameters.values():
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                positional.append(p.name)
            elif p.kind == p.VAR_POSITIONAL:
                var = p.name
                break
        else:
            var = None
    else:
        var = "args"

    def root(i):
        if i < len(positional):
            return positional[i], ()
        return (var or "args"), (pytree.SequenceKey(i - len(positional)),)

    with_paths, spec = pytree.tree_flatten_with_path((tuple(args), dict(kwargs)))
    names, leaves, slots, constants = [], [], [], []
    for path, leaf in with_paths:
        leaves.append(leaf)
        top, rest = path[0], path[1:]
        if top.idx == 0:  # positional
            r, extra = root(rest[0].idx)
            display = path_name(r, extra + tuple(rest[1:]))
        else:  # keyword: MappingKey(name)
            display = path_name(str(rest[0].key), rest[1:])
        if not isinstance(leaf, torch.Tensor):
            constants.append(display)
            if _hidden_tensors(leaf):
                where = path_name("", path)
                raise FrontendError("model_error", "load",
                                    f"an example input of type {type(leaf).__qualname__} holds tensors but torch.export "
                                    f"cannot look inside it (at {where}); its tensors would be baked in as constants",
                                    f"make {type(leaf).__qualname__} a dataclass, or register it with "
                                    "torch.utils._pytree.register_pytree_node (torch.export.register_dataclass for "
                                    "dataclasses)")
            continue
        names.append(display)
        slots.append(len(leaves) - 1)
    return names, leaves, slots, spec, constants


def adapt(model, args: tuple, kwargs: dict, log) -> tuple:
    """Give ``model`` a forward taking the tensor leaves of ``(args, kwargs)`` as named positional
    parameters (see module docstring). Returns (model, flat tensors). A plain tuple of tensors and no
    keywords is returned as it is (its forward already takes the flat list). Raises
    FrontendError(model_error) as bind() does, or when no input is a tensor."""
    args = tuple(args)
    kwargs = dict(kwargs or {})
    if not kwargs and all(isinstance(a, torch.Tensor) for a in args):
        return model, args
    names, leaves, slots, spec, constants = bind(model, args, kwargs, log)
    if not slots:
        raise FrontendError("model_error", "load", "none of the example inputs is a tensor",
                            "an AOTInductor package takes tensors: give at least one tensor input")
    taken = set()
    params = [identifier(n, taken) for n in names]
    info = Structured(names=names, params=params, tensors=tuple(leaves[s] for s in slots), leaves=leaves,
                      tensor_slots=slots, spec=spec, original_forward=model.forward, constants=constants)
    # A forward with one named parameter per tensor leaf: torch.export names the graph's
    # placeholders after forward's parameters, and dynamic_shapes can be keyed by them.
    source = (f"def forward(self, {', '.join(params)}):\n"
              f"    args, kwargs = _info.rebuild(({', '.join(params)},))\n"
              f"    return _info.original_forward(*args, **kwargs)\n")
    scope = {"_info": info}
    exec(compile(source, f"<aotstudio flat inputs of {type(model).__name__}>", "exec"), scope)  # noqa: S102
    model.forward = types.MethodType(scope["forward"], model)
    setattr(model, ATTR, info)
    constants = [path_name("", p) for p, leaf in pytree.tree_flatten_with_path((args, kwargs))[0]
                 if not isinstance(leaf, torch.Tensor)]
    log("info", f"inputs: {', '.join(names)} (tensors, in the package's order)"
        + (f"; {len(constants)} non-tensor value(s) kept as constants of the program" if constants else ""))
    return model, info.tensors


def input_names(model, count: int) -> list:
    """Display names of a model's ``count`` flat inputs: the adapted names, else forward's
    positional parameter names (``*args`` as ``args[i]``), else ``input i``."""
    info = getattr(model, ATTR, None)
    if info is not None and len(info.names) == count:
        return list(info.names)
    from .guards import forward_params
    names, var = forward_params(model)
    out = []
    for i in range(count):
        out.append(names[i] if i < len(names) else f"{var}[{i - len(names)}]" if var else f"input {i}")
    return out


def flat_dynamic_shapes(model, args: tuple, kwargs: dict, dynamic_shapes):
    """A factory's ``dynamic_shapes`` for the structured call (as torch.export takes it: a tuple
    with one entry per positional argument, or a dict keyed by forward's parameter names, each
    shaped like its argument) as one entry per flat tensor input (dict dim -> Dim, or None), for
    the adapted forward. Returns None when its structure does not match the inputs."""
    if dynamic_shapes is None:
        return None
    try:
        sig = inspect.signature(getattr(model, ATTR).original_forward)
        bound = sig.bind_partial(*args, **kwargs)
    except (TypeError, ValueError, AttributeError):
        return None
    params = list(sig.parameters.values())
    if isinstance(dynamic_shapes, dict):
        per_param = dynamic_shapes
    elif isinstance(dynamic_shapes, (tuple, list)):
        given = [n for n in bound.arguments]
        if len(dynamic_shapes) != len(given):
            return None
        per_param = dict(zip(given, dynamic_shapes))
    else:
        return None
    out = []

    def walk(value, spec):
        if isinstance(value, torch.Tensor):
            if spec is None or isinstance(spec, dict):
                out.append(dict(spec) if spec else None)
            elif isinstance(spec, (tuple, list)):
                out.append({d: s for d, s in enumerate(spec) if s is not None})
            else:
                raise ValueError
            return
        if type(value) not in pytree.SUPPORTED_NODES:
            return  # a constant
        children, context = pytree.SUPPORTED_NODES[type(value)].flatten_fn(value)
        if spec is None:
            specs = [None] * len(children)
        elif isinstance(spec, dict) and not isinstance(value, dict) and context is not None \
                and isinstance(context, (list, tuple)) and all(isinstance(k, str) for k in context):
            specs = [spec.get(k) for k in context]  # a dataclass given as {field: spec}
        elif isinstance(value, dict) and isinstance(spec, dict):
            specs = [spec.get(k) for k in context]
        elif type(spec) is type(value) and not isinstance(value, (tuple, list, dict)):
            specs = pytree.SUPPORTED_NODES[type(spec)].flatten_fn(spec)[0]
        elif isinstance(spec, (tuple, list)) and len(spec) == len(children):
            specs = list(spec)
        else:
            raise ValueError
        for c, s in zip(children, specs):
            walk(c, s)

    try:
        for p in params:
            if p.name not in bound.arguments:
                continue
            value = bound.arguments[p.name]
            spec = per_param.get(p.name)
            if p.kind == p.VAR_KEYWORD:
                for k, v in value.items():
                    walk(v, (spec or {}).get(k) if isinstance(spec, dict) else None)
            else:
                walk(value, spec)
    except ValueError:
        return None
    # Order: bound order is signature order; the package's order is (args, kwargs) pytree order.
    # Both list positional arguments first; keywords follow in pytree (sorted-key) order, so
    # recompute by name rather than trust the two to agree.
    info = getattr(model, ATTR)
    if len(out) != len(info.names):
        return None
    return _reorder(out, model, args, kwargs, per_param)


def _reorder(specs_signature_order, model, args, kwargs, per_param):
    """Specs walked in signature order, put in the flat (args, kwargs) pytree order."""
    info = getattr(model, ATTR)
    sig = inspect.signature(info.original_forward)
    bound = sig.bind_partial(*args, **kwargs)
    # Name of each flat tensor walked in signature order, by walking the same way.
    order = []
    for p in sig.parameters.values():
        if p.name not in bound.arguments:
            continue
        value = bound.arguments[p.name]
        if p.kind == p.VAR_KEYWORD:
            for k, v in value.items():
                order.extend(path_name(k, path) for path, leaf in pytree.tree_flatten_with_path(v)[0]
                             if isinstance(leaf, torch.Tensor))
        elif p.kind == p.VAR_POSITIONAL:
            order.extend(path_name(p.name, path) for path, leaf in pytree.tree_flatten_with_path(list(value))[0]
                         if isinstance(leaf, torch.Tensor))
        else:
            order.extend(path_name(p.name, path) for path, leaf in pytree.tree_flatten_with_path(value)[0]
                         if isinstance(leaf, torch.Tensor))
    by_name = dict(zip(order, specs_signature_order))
    if set(by_name) != set(info.names):
        return None
    return tuple(by_name[n] for n in info.names)
