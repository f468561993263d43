# SPDX-License-Identifier: GPL-3.0-or-later
"""The example inputs at the user's shapes (a request's ``shapes``, FORMAT.md "compile"), and a
description of the inputs for the ``inputs`` request (FORMAT.md "inputs").

``shapes`` is ``{"INPUT": [d0, d1, ...]}`` with INPUT an index or an input's name (as
inputs.input_names gives it: ``x``, ``attention_mask``, ``cfg.scale``). The example tensor of that
input is rebuilt at the new shape by repeating or cutting it along each dimension
(guards.resize_dim, as shape buckets resize the batch): the values are the example's own, so the
dtype, the value range (token ids stay within the vocabulary the example used, masks stay 0/1),
the distribution and the memory format are the example's, and two inputs resized alike (ids and
their attention mask) stay consistent. Inputs tied by a dimension are the user's to change
together; the load stage's eager forward says when they disagree.
"""

from . import guards
from . import inputs as structured
from .errors import FrontendError

#: Most elements for which the inputs request reports a tensor's value range (min, max, mean).
RANGE_LIMIT = 1 << 24


def check(shapes) -> dict:
    """The request's ``shapes`` checked for form: an object of INPUT -> list of integers >= 1.
    Returns {key: [sizes]} (a key of digits stays a string; resolve() reads it as an index), {} when
    absent. Raises FrontendError(bad_request) naming the entry."""
    if shapes is None:
        return {}
    if not isinstance(shapes, dict):
        raise FrontendError("bad_request", "load", "'shapes' must be an object of INPUT -> [d0, d1, ...]",
                            "e.g. {\"input_ids\": [2, 128]} (INPUT an index or an input's name)")
    out = {}
    for key, sizes in shapes.items():
        if not isinstance(sizes, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in sizes):
            raise FrontendError("bad_request", "load", f"shape of input '{key}' must be a list of integers, got {sizes!r}",
                                "e.g. [2, 128]")
        small = [s for s in sizes if s < 1]
        if small:
            raise FrontendError("bad_request", "load",
                                f"shape of input '{key}' {sizes} has a dimension of {small[0]}; every dimension must be "
                                "at least 1", "give sizes >= 1")
        out[str(key)] = list(sizes)
    return out


def resolve(shapes: dict, model, inputs: tuple) -> dict:
    """``shapes`` (check()'s) as {input index: [sizes]} for the flat ``inputs`` of ``model``.
    Raises FrontendError(bad_request) naming the input and the reason: a name the model does not
    have (its names listed), a non-tensor argument (a constant of the program), an index out of
    range, a rank that differs from the example's."""
    names = structured.input_names(model, len(inputs))
    info = getattr(model, structured.ATTR, None)
    constants = list(getattr(info, "constants", None) or [])
    out = {}
    for key, sizes in shapes.items():
        if key.isdigit():
            index = int(key)
            if index >= len(inputs):
                raise FrontendError("bad_request", "load",
                                    f"shapes: input {index} does not exist; the model has {len(inputs)} inputs: "
                                    f"{', '.join(names)}", "give an index below the number of inputs, or a name")
        elif key in names:
            index = names.index(key)
        elif key in constants:
            raise FrontendError("bad_request", "load",
                                f"shapes: '{key}' is not a tensor input (a non-tensor argument, kept as a constant "
                                "of the program), so it has no shape to change",
                                f"give a shape for a tensor input: {', '.join(names)}")
        else:
            import difflib
            close = difflib.get_close_matches(key, names, n=1, cutoff=0.4)
            raise FrontendError("bad_request", "load",
                                f"shapes: the model has no input '{key}'; its inputs: {', '.join(names)}",
                                f"did you mean {close[0]}?" if close else "use one of the names above or an index")
        example = inputs[index]
        if len(sizes) != example.dim():
            raise FrontendError("bad_request", "load",
                                f"shapes: input '{names[index]}' has {example.dim()} dimensions "
                                f"{list(example.shape)}, the shape given {sizes} has {len(sizes)}",
                                f"give {example.dim()} sizes, e.g. {list(example.shape)}")
        if index in out:
            raise FrontendError("bad_request", "load", f"shapes: input '{names[index]}' is given twice (by name and by "
                                "index)", "give each input once")
        out[index] = sizes
    return out


def resize(t, sizes: list):
    """``t`` at ``sizes`` by repeating or cutting it along each dimension that differs (module
    docstring): same dtype, device, values and memory format."""
    for dim, size in enumerate(sizes):
        t = guards.resize_dim(t, dim, int(size))
    return t


def apply(shapes: dict, model, inputs: tuple, log) -> tuple:
    """``inputs`` with the inputs named in ``shapes`` (check()'s) at their new shapes, each change
    said in the log. Raises FrontendError(bad_request) as resolve() does."""
    if not shapes:
        return inputs
    names = structured.input_names(model, len(inputs))
    resized = list(inputs)
    for index, sizes in sorted(resolve(shapes, model, inputs).items()):
        before = list(resized[index].shape)
        if before == sizes:
            continue
        resized[index] = resize(resized[index], sizes)
        log("info", f"input {names[index]} resized from {before} to {sizes} (shapes; the example's values repeated "
                    "or cut along each dimension)")
    return tuple(resized)


def kind(name: str, t) -> str:
    """What an input holds, for readers: ``float``, ``mask`` (bool, or integers all 0/1), ``ids``
    (integers named ``*ids``: token or position ids), ``integer``, or ``complex``."""
    import torch
    if t.is_complex():
        return "complex"
    if t.is_floating_point():
        return "float"
    if t.dtype == torch.bool:
        return "mask"
    leaf = name.rsplit(".", 1)[-1].strip("[]'\"").lower()
    if leaf.endswith("ids") or leaf.endswith("_id"):
        return "ids"
    if t.numel() and t.numel() <= RANGE_LIMIT and set(t.unique().tolist()) <= {0, 1}:
        return "mask"
    return "integer"


def describe(name: str, t, batched: bool) -> dict:
    """One input for the ``inputs`` request: name, shape, dtype, kind, batched, and (for at most
    RANGE_LIMIT elements) min, max and, for floating inputs, mean and std; null otherwise."""
    import torch
    entry = {"name": name, "shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", ""),
             "kind": kind(name, t), "batched": bool(batched), "min": None, "max": None, "mean": None, "std": None}
    if 0 < t.numel() <= RANGE_LIMIT and not t.is_complex():
        v = t.detach()
        f = v.float() if v.dtype != torch.bool else v.to(torch.uint8).float()
        entry["min"] = float(f.min()) if v.is_floating_point() else int(f.min())
        entry["max"] = float(f.max()) if v.is_floating_point() else int(f.max())
        if v.is_floating_point():
            entry["mean"] = float(f.mean())
            entry["std"] = float(f.std()) if f.numel() > 1 else 0.0
    return entry


def signature(model) -> str:
    """forward's signature as the user wrote it (the original forward of an adapted model)."""
    info = getattr(model, structured.ATTR, None)
    if info is None:
        return structured.signature_text(model, limit=32)
    from types import SimpleNamespace
    return structured.signature_text(SimpleNamespace(forward=info.original_forward), limit=32)
