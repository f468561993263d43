# SPDX-License-Identifier: GPL-3.0-or-later
"""The dimensions a compile makes dynamic: ``--dynamic`` entries (options.parse_dynamic), a
dynamic-batch bucket's batch or the factory's own ``dynamic_shapes``, turned into torch.export's
``dynamic_shapes`` for the job's model, with the example resized where torch.export would
specialise a size of 0 or 1, and checked against the exported program afterwards.

Each function takes the compile job (job.py) and reads or sets its ``dynamic`` (the parsed
entries), ``dynamic_batch``, ``requested_dynamic`` ((input, dim) -> label: what must come out
dynamic) and ``dim_names`` ((input, dim) -> the user's name of the dimension). The load stage calls
resolve_names() and prepare(), the export stage export_shapes() and check().
"""

from types import SimpleNamespace

from . import guards
from . import inputs as structured
from .errors import FrontendError
from .messages import text


def resolve_names(job, model, count: int) -> None:
    """--dynamic entries that name their input (``attention_mask:1``) get its index. Raises
    FrontendError(bad_request) listing the input names when a name is not one of them."""
    if not any(isinstance(entry[0], str) for entry in job.dynamic):
        return
    names = structured.input_names(model, count)
    resolved = []
    for index, dim, lo, hi, name in job.dynamic:
        if isinstance(index, str):
            if index not in names:
                import difflib
                close = difflib.get_close_matches(index, names, n=3, cutoff=0.4)
                raise FrontendError("bad_request", "load",
                                    text("load.dynamic_unknown_input", index=index, inputs=", ".join(names)),
                                    f"did you mean {close[0]}?" if close else "use one of the names above or an index")
            index = names.index(index)
        resolved.append((index, dim, lo, hi, name))
    if len({(i, d) for i, d, *_ in resolved}) != len(resolved):
        raise FrontendError("bad_request", "load", "a dynamic dimension is given twice (by name and by index)",
                            "list each dimension once")
    job.dynamic = resolved


def prepare(job, model, inputs: tuple) -> tuple:
    """Note which dimensions the request asks to be dynamic (``--dynamic``, else the factory's
    dynamic_shapes), and resize the example along those whose size is 0 or 1: torch.export
    specialises such sizes to constants. Says so in the log."""
    factory = getattr(model, "_aotstudio_dynamic_shapes", None)
    specs = {}  # (input, dim) -> torch spec (Dim, derived Dim, Dim.AUTO, ...), or None for --dynamic
    if job.dynamic_batch is not None:
        for i, t in enumerate(inputs):
            if t.dim() > 0 and job.batched[i]:
                job.requested_dynamic[(i, 0)] = "batch"
                job.dim_names[(i, 0)] = "batch"
    elif job.dynamic:
        for index, dim, lo, hi, name in job.dynamic:
            if index >= len(inputs) or dim >= inputs[index].dim():
                names = structured.input_names(model, len(inputs))
                label = f"{index}:{dim}" + (f" ({names[index]}:{dim})" if index < len(inputs) else "")
                raise FrontendError("bad_request", "load", f"dynamic dimension {label} does not exist "
                                    f"(the model has {len(inputs)} inputs: {', '.join(names)}"
                                    + (f"; {names[index]} has {inputs[index].dim()} dimensions" if index < len(inputs) else "")
                                    + ")", "check the input and dimension indices")
            label = name or f"{index}:{dim}"
            job.requested_dynamic[(index, dim)] = label
            if name:
                job.dim_names[(index, dim)] = name
            specs[(index, dim)] = SimpleNamespace(min=lo, max=hi) if lo is not None else None
    elif factory is not None:
        entries = guards.per_input(factory, model, len(inputs))
        for index, entry in enumerate(entries or []):
            for dim, spec in (entry or {}).items():
                if dim == 0 and job.static_batch and job.batched[index]:
                    continue  # an exact bucket: export_shapes() leaves dimension 0 static
                if isinstance(dim, int) and guards.is_dynamic_spec(spec) and dim < inputs[index].dim():
                    name = guards.spec_name(spec)
                    job.requested_dynamic[(index, dim)] = name or f"{index}:{dim}"
                    if name:
                        job.dim_names[(index, dim)] = name
                    specs[(index, dim)] = spec
    # The ranges the user declared (sizes of the dimension), to say afterwards when torch narrowed
    # one (declared_ranges(): FORMAT.md "Guards", symbols' declared_min/declared_max).
    job.declared = {}
    if job.dynamic_batch is not None:
        for (index, dim) in job.requested_dynamic:
            job.declared[(index, dim)] = (job.dynamic_batch[0], job.dynamic_batch[1])
    for key, spec in specs.items():
        lo, hi = getattr(spec, "min", None), getattr(spec, "max", None)
        if isinstance(lo, int) and lo > 0:  # a Dim without bounds says min 0: nothing declared
            job.declared[key] = (lo, hi if isinstance(hi, int) and hi < 2 ** 62 else None)
    # Every dimension of one name gets the same size, so that they stay equal.
    targets = {}
    for (index, dim), label in job.requested_dynamic.items():
        size = inputs[index].shape[dim]
        spec = specs.get((index, dim))
        if job.dynamic_batch is not None:
            continue  # export chose the bucket's example batch already
        target = guards.example_target(spec, size) if spec is not None else (2 if size < 2 else None)
        if target is not None:
            targets[(index, dim)] = target
    if targets:
        resized = list(inputs)
        for (index, dim), target in sorted(targets.items()):
            before = resized[index].shape[dim]
            resized[index] = guards.resize_dim(resized[index], dim, target)
            job.log("info", f"example input {index} has size {before} along dimension {dim}, which was requested "
                             f"dynamic ({job.requested_dynamic[(index, dim)]}); torch.export would specialise it "
                             f"to a constant, so it is resized to {target} for export (rows repeated)")
        inputs = tuple(resized)
    return inputs


def declared_ranges(job, data: dict) -> list:
    """Record on ``data`` (guards.collect()'s result) the range each declared dynamic dimension's
    symbol was declared with (``declared_min``/``declared_max`` of its symbol), and return one
    warning per dimension whose accepted sizes torch narrowed: the start raised (torch.export
    specialises sizes 0 and 1, so a symbol starts at 2 at the least), the end lowered, or the
    declared start refused by a guard the package checks (x.shape[0] % 2 == 0 and a range from 1)."""
    warnings = []
    symbols = {s["symbol"]: s for s in data.get("symbols", [])}
    for (index, dim), (lo, hi) in sorted(getattr(job, "declared", {}).items()):
        inputs = data.get("inputs", [])
        entry = inputs[index]["dims"][dim] if index < len(inputs) and dim < len(inputs[index].get("dims", [])) else None
        if not entry or "symbol" not in entry or entry["symbol"] not in symbols:
            continue
        sym, coeff, offset = symbols[entry["symbol"]], entry.get("coeff", 1), entry.get("offset", 0)
        # The symbol's declared range: the dimension's sizes mapped back through coeff*s + offset.
        s_lo = -((offset - lo) // coeff)  # ceil((lo - offset) / coeff)
        s_hi = (hi - offset) // coeff if hi is not None else None
        sym.setdefault("declared_min", s_lo)
        sym.setdefault("declared_max", s_hi)
        got_lo = coeff * sym["min"] + offset if sym.get("min") is not None else None
        got_hi = coeff * sym["max"] + offset if sym.get("max") is not None else None
        what = entry.get("text") or f"input {index} dimension {dim}"
        if got_lo is not None and got_lo > lo:
            warnings.append(f"{what}: declared from {lo}, but the package accepts it from {got_lo} (torch.export "
                            f"{'specialises sizes 0 and 1' if sym['min'] == 2 else 'narrowed the range'}); "
                            + (f"size {lo} is refused" if got_lo - 1 == lo else f"sizes {lo}..{got_lo - 1} are refused"))
        if hi is not None and got_hi is not None and got_hi < hi:
            warnings.append(f"{what}: declared up to {hi}, but the package accepts it up to {got_hi}; "
                            + (f"size {hi} is refused" if got_hi + 1 == hi else f"sizes {got_hi + 1}..{hi} are refused"))
        # A guard of this symbol alone that the declared start (or the narrowed one) breaks.
        start = max(s_lo, sym.get("min") or s_lo)
        for item in data.get("checks", []):
            tree = item.get("expr")
            if not item.get("checkable") or tree is None or guards.tree_symbols(tree) != {sym["symbol"]}:
                continue
            try:
                holds = guards.evaluate_tree(tree, {sym["symbol"]: start})
            except (ZeroDivisionError, KeyError):
                continue
            if not holds:
                warnings.append(f"{what}: the range starts at {coeff * start + offset}, which the guard "
                                f"{item.get('text')} excludes" + (f" ({item['source']})" if item.get("source") else "")
                                + "; the package refuses that size")
                break
    return warnings


def check(job) -> None:
    """Fail the compile when a requested dynamic dimension came out static (FORMAT.md)."""
    if not job.requested_dynamic or job.program is None:
        return
    static = guards.specialised(job.program, job.requested_dynamic, job.model)
    if not static:
        return
    parts = []
    for item in static:
        why = (f"pinned by the guard {item['guard']}"
               + (f" at {item['source']}" if item["source"] else f" (from {item['origin']})" if item["origin"] else "")
               if item["guard"] else
               f"the example's size is {item['size']}, which torch.export specialises"
               if item["size"] in (0, 1) else "the model's code needs this size")
        parts.append(f"dimension {item['dim']} of input {item['input']} ({item['label']}) was requested dynamic "
                     f"but the exported program has it fixed at {item['size']}: {why}")
    hint = text("export.fixed_dims.hint")
    raise FrontendError("export_failed", "export",
                        f"'{job.spec}' did not export as asked: " + "; ".join(parts), hint)


def export_shapes(job):
    """torch.export ``dynamic_shapes``: the factory's own, else one dict per positional input
    from --dynamic (a named Dim per dimension or per ``=NAME``, so that torch reports a
    specialisation or an unmet guard with its suggested fix instead of silently fixing the
    size), shaped for forward's signature (``forward(*args)`` takes one tuple)."""
    from torch.export import Dim
    factory = getattr(job.model, "_aotstudio_dynamic_shapes", None)
    if job.dynamic_batch is not None:
        # A dynamic-batch bucket: dimension 0 of every input is one shared batch dimension; the
        # factory's other dynamic dimensions (a sequence length, ...) stay dynamic.
        batch = Dim("batch", min=job.dynamic_batch[0], max=job.dynamic_batch[1])
        entries = guards.per_input(factory, job.model, len(job.inputs)) if factory is not None else None
        if entries is None and job.dynamic:  # a bundle's --dynamic dimensions besides the batch
            entries = requested_entries(job)
        if entries is None:
            if factory is not None:
                job.log("info", "the factory's dynamic_shapes are not per positional input: the dynamic bucket "
                                 "makes only the batch dynamic")
            entries = [None] * len(job.inputs)
        shapes = []
        for t, entry, batched in zip(job.inputs, entries, job.batched):
            entry = {d: s for d, s in (entry or {}).items() if d != 0}
            if t.dim() > 0 and batched:
                entry[0] = batch
            shapes.append(entry or None)
        return guards.for_signature(shapes, job.model)
    if not job.dynamic:
        if factory is not None and job.static_batch:
            # An exact bucket (export --buckets): a static build at its batch, so the factory's
            # dimension 0 (a dynamic batch, a derived 2*b) is dropped; its other dimensions stay.
            entries = guards.per_input(factory, job.model, len(job.inputs))
            if entries is None:
                job.log("warning", "the factory's dynamic_shapes are not per positional input: this exact bucket is "
                                   "compiled with them as they are, so its dimension 0 may stay dynamic")
                return factory
            shapes = [({d: s for d, s in entry.items() if not (d == 0 and batched)} or None) if entry else None
                      for entry, batched in zip(entries, job.batched)]
            if any(entry and 0 in entry and batched for entry, batched in zip(entries, job.batched)):
                job.log("info", f"exact bucket: dimension 0 is static at {job.batch} (the factory's dynamic_shapes "
                                 "make it dynamic; the bundle's dynamic bucket keeps that)")
            return guards.for_signature(shapes, job.model) if any(shapes) else None
        return factory
    return guards.for_signature(requested_entries(job), job.model)


def requested_entries(job) -> list:
    """--dynamic as one {dim: Dim} dict (or None) per positional input: a named Dim per
    dimension, one per ``=NAME`` (tied dimensions)."""
    from torch.export import Dim
    shapes = [None] * len(job.inputs)
    named = {}
    for index, dim, lo, hi, name in job.dynamic:
        if index >= len(job.inputs) or dim >= job.inputs[index].dim():
            raise FrontendError("bad_request", "export", f"dynamic dimension {index}:{dim} does not exist "
                                f"(the model has {len(job.inputs)} inputs)", "check the input and dimension indices")
        key = name or f"input{index}_dim{dim}"
        if key not in named:
            named[key] = Dim(key, min=lo, max=hi) if lo is not None else Dim(key)
        entry = dict(shapes[index] or {})
        entry[dim] = named[key]
        shapes[index] = entry
    return shapes
