# SPDX-License-Identifier: GPL-3.0-or-later
"""The export's dynamic-shape spec and a bundle's buckets, proposed from a record of real calls
(capture.py writes the record: DIR/calls.jsonl, DIR/summary.json, DIR/inputs.json). Pure Python over
the record; torch is imported only to cross-check with torch.export's own inference
(``AdditionalInputs``) and to check the proposed ``Dim`` definitions, and the proposal is written
without them when torch is missing.

    propose(DIR, waste=0.25, max_buckets=4) -> dict, also written to DIR/proposal.json

Every statement is about the recorded calls only: a dimension is ``static`` when one size was seen,
``dynamic`` (min/max/histogram) otherwise; dimensions of different inputs equal in every call are one
dimension (one name); relations that held in every call (a multiple of a power of two, k times
another dimension) are reported and written where the formats can say them. The proposal's
``compile`` object is what the ``compile`` request's ``dynamic`` and ``shapes`` fields take
(FORMAT.md "compile"; options.parse_dynamic), its ``export`` object what the ``export`` request's
``buckets``/``pad_safe``/``dynamic`` take (FORMAT.md "export", BUNDLE.md "Choosing a bucket").
"""

import json
import math
import os
import re
import sys
from collections import Counter

try:
    from .files import write_json_atomic
except ImportError:  # run as a plain file next to files.py
    from files import write_json_atomic

FORMAT = "aotstudio.capture.proposal"
VERSION = 1
MAX_VERIFY = 16  # most kept input files proposed for verification
MAX_CANDIDATES = 400  # most bucket sizes the bucket search considers (quantiles past it)
MAX_FACTOR = 64  # largest k of "always k times another dimension"
MAX_CROSS_CHECK = 256  # most distinct call descriptions given to AdditionalInputs
_INPUT_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\[\]']*$")  # options.py: what `dynamic`/`shapes` accept

#: User-visible texts of the proposal (would-be message ids; see capture.TEXTS).
TEXTS = {
    "propose.no_calls": "the record has no calls ({outcome}): nothing to propose",
    "propose.ones": "{dim} was 1 in {ones} of {calls} calls and up to {max} in the others; torch.export specialises "
                    "sizes 0 and 1, so the spec starts the range at 2 and the package refuses size 1 (pad such calls "
                    "to 2, or serve them from an exact bucket of 1)",
    "propose.ones_only_two": "{dim} was only ever 1 or 2: a range starting at 2 holds one size, so it is left static "
                             "here (export an exact bucket per size instead)",
    "propose.always_one": "{dim} was always 1: static 1",
    "propose.value_varies": "argument '{name}' is not a tensor and took {count} values ({values}): torch.export bakes "
                            "it in as a constant, so a package computes with the example's value only; make it a "
                            "tensor, or build one package per value",
    "propose.presence": "input '{name}' was passed in {present} of {calls} calls: a package takes a fixed set of "
                        "inputs",
    "propose.kind_varies": "input '{name}' was a tensor in {tensor} calls and not a tensor in {other}",
    "propose.rank": "input '{name}' came with {ranks} dimensions in different calls: a package has one rank per "
                    "input; its dimensions are left out",
    "propose.dtype": "input '{name}' came as {dtypes}: a package takes one dtype per input",
    "propose.device": "input '{name}' came on {devices}",
    "propose.strides": "input '{name}' was not contiguous in {count} of {calls} calls (strides {stride} at shape "
                       "{shape}); the compile's example is contiguous: see the guards' strides (FORMAT.md \"Guards\")",
    "propose.multiple": "{dim} was always a multiple of {k} ({distinct} distinct sizes): the compile's `dynamic` "
                        "field cannot say so; the factory's dynamic_shapes below can ({k}*Dim)",
    "propose.multiple_root": "{dim} as {k}*Dim starts its root at 1, which torch.export specialises: the factory "
                             "form refuses size {k} (seen in {calls} calls); the `dynamic` range keeps it",
    "propose.derived": "{dim} was always {k} x {base}: the `dynamic` field makes them independent dimensions; if "
                       "the model needs the relation, export says so and the factory's dynamic_shapes below state it",
    "propose.unnamed": "input '{name}' has a name the `dynamic` field cannot take; use its index",
    "propose.static_batch": "dimension 0 of {name} was always {size}: no buckets are needed",
    "propose.derived_batch": "the batch ({dim}) is {k} x {base}: export's buckets resize a plain batch, so none "
                             "are proposed",
    "propose.bound_missed": "no set of at most {max_buckets} buckets keeps the mean padding waste within {bound:.0%};"
                            " the least waste with {max_buckets} is {waste:.1%}",
    "propose.pad_safe": "buckets above the batch pad the call with zero rows: correct only when each row's output "
                        "depends on that row alone (pad_safe, BUNDLE.md \"Choosing a bucket\")",
    "propose.verify_field": "compile --from-capture verifies the package on the recorded shapes (the compile "
                            "request's from_capture, capture_shapes): each distinct shape on its kept input, or on "
                            "seeded inputs of that shape where none was kept",
    "propose.truncated": "{count} line(s) of calls.jsonl could not be read (a record cut off mid-line) and were "
                         "skipped",
    "propose.running": "the record says the script was still running (the recorder ended without closing it): "
                       "the calls written before that are used",
}


def say(msg_id: str, **args) -> str:
    return TEXTS[msg_id].format(**args)


def _identifier(text: str, taken: set) -> str:
    """A dimension name for the factory snippet: inputs.identifier, the one rule for names the
    generated code uses (imported here, not at the top: it imports torch)."""
    from .inputs import identifier

    return identifier(text, taken)


def _read_json(path: str):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def read_record(folder: str) -> tuple:
    """(descriptions, bad lines): each distinct call description of calls.jsonl once, as
    ``{"count", "sig", "leaves": {name: leaf}}`` in order of first appearance. Lines that do not
    parse (a cut-off last line) are counted."""
    by_text, order, bad = {}, [], 0
    path = os.path.join(folder, "calls.jsonl")
    if not os.path.exists(path):
        return [], 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            at = line.find('"args":')
            if at < 0:
                bad += bool(line.strip())
                continue
            text = line[at:].rstrip()
            entry = by_text.get(text)
            if entry is None:
                try:
                    data = json.loads(line)
                except ValueError:
                    bad += 1
                    continue
                entry = by_text[text] = {"count": 0, "sig": data.get("sig"),
                                         "leaves": {leaf["name"]: leaf for leaf in data.get("args", [])}}
                order.append(entry)
            entry["count"] += 1
    return order, bad


DEFAULT_CAPTURE_SHAPES = 32  # the compile request's capture_shapes default (FORMAT.md "compile")


def _shape_text(names: list, shapes: list) -> str:
    return ", ".join(f"{n} {list(s)}" for n, s in zip(names, shapes))


def recorded_shapes(folder: str, names: list, max_shapes: int = DEFAULT_CAPTURE_SHAPES) -> dict:
    """The distinct input shapes of the record in ``folder`` for a package whose flat inputs are
    ``names`` (inputs.py's display names, which calls.jsonl's leaf names follow), to verify the
    package on (compile's verify, sweep; FORMAT.md "compile", ``from_capture``). A shape is one
    shape per name; calls with other non-tensor values or strides but the same shapes are one
    shape. With more than ``max_shapes`` distinct shapes a sample is taken: for each dimension
    that varies, the shape holding its smallest and its largest size (the most frequent such),
    then the most frequent shapes, up to ``max_shapes``; ``chosen`` says which rule applied.

    Returns {"distinct", "calls", "points": [{"shapes", "calls", "label", "reason", "inputs" (a
    kept input file, absolute, or "" for seeded inputs of that shape)}], "left_out", "chosen",
    "notes"}. Calls lacking one of ``names`` as a tensor (another input set) are counted in
    ``notes``, not verified. Pure Python; reads calls.jsonl, inputs.json and summary.json."""
    descs, bad = read_record(folder)
    manifest = _read_json(os.path.join(folder, "inputs.json")) or {}
    notes = []
    if bad:
        notes.append(say("propose.truncated", count=bad))
    by_shape, unmatched = {}, 0
    for d in descs:
        leaves = d["leaves"]
        if not all(leaves.get(n, {}).get("kind") == "tensor" for n in names):
            unmatched += d["count"]
            continue
        key = tuple(tuple(leaves[n]["shape"]) for n in names)
        entry = by_shape.setdefault(key, {"calls": 0, "sigs": []})
        entry["calls"] += d["count"]
        if d["sig"] not in entry["sigs"]:
            entry["sigs"].append(d["sig"])
    if unmatched:
        missing = sorted({n for d in descs for n in names if d["leaves"].get(n, {}).get("kind") != "tensor"})
        notes.append(f"{unmatched} recorded call(s) lack the package input(s) {', '.join(missing)} as tensors "
                     "(another input set, or other names): not verified")
    # A kept input per shape: the first file of a signature holding it.
    files = {}
    for f in manifest.get("files", []):
        files.setdefault(f.get("signature"), f.get("file"))
    ordered = sorted(by_shape.items(), key=lambda kv: (-kv[1]["calls"], kv[0]))
    if len(ordered) <= max_shapes:
        chosen = ordered
        how = f"all {len(ordered)} distinct recorded shapes"
    else:
        picked = []
        flat = [(i, k) for i, n in enumerate(names) for k in range(len(ordered[0][0][i]))]
        for i, k in flat:
            sizes = {shape[i][k] if k < len(shape[i]) else None for shape, _ in ordered}
            sizes.discard(None)
            if len(sizes) < 2:
                continue
            for want in (min(sizes), max(sizes)):
                hit = next(item for item in ordered if k < len(item[0][i]) and item[0][i][k] == want)
                if hit not in picked:
                    picked.append(hit)
        for item in ordered:
            if len(picked) >= max_shapes:
                break
            if item not in picked:
                picked.append(item)
        chosen = sorted(picked[:max_shapes], key=lambda kv: (-kv[1]["calls"], kv[0]))
        how = (f"{len(chosen)} of {len(ordered)} distinct recorded shapes (capture_shapes {max_shapes}): each "
               "varying dimension's smallest and largest size, then the most frequent")
    points = []
    for shape, entry in chosen:
        kept = next((files[s] for s in entry["sigs"] if s in files), None)
        path = os.path.abspath(os.path.join(folder, kept)) if kept else ""
        if path and not os.path.isfile(path):
            path = ""
        source = f"kept input {os.path.basename(path)}" if path else "seeded (no kept input)"
        points.append({"shapes": [list(s) for s in shape], "calls": entry["calls"],
                       "label": _shape_text(names, shape), "inputs": path,
                       "reason": f"recorded: {entry['calls']} call(s), {source}"})
    return {"distinct": len(ordered), "calls": sum(e["calls"] for e in by_shape.values()), "points": points,
            "left_out": len(ordered) - len(chosen), "chosen": how, "notes": notes}


def choose_buckets(hist: dict, waste: float, max_buckets: int) -> dict:
    """Bucket sizes for a dimension with the size histogram ``hist`` ({size: calls}): the fewest
    buckets (at most ``max_buckets``) whose mean padding waste is within ``waste``, and of those the
    least waste. A call of size b runs in the smallest bucket B >= b; its padding waste is (B - b) / B
    (the share of the bucket's rows that are padding), and the mean is over calls. The largest size
    seen is always a bucket. Exact over the distinct sizes (dynamic programming, O(n^2 k)); with more
    than MAX_CANDIDATES distinct sizes the bucket sizes are chosen among that many quantiles."""
    sizes = sorted(hist)
    total = sum(hist.values())
    if len(sizes) > MAX_CANDIDATES:
        cum, cands, acc = [], [], 0
        for s in sizes:
            acc += hist[s]
            cum.append(acc)
        step = total / MAX_CANDIDATES
        q = step
        for s, c in zip(sizes, cum):
            if c >= q:
                cands.append(s)
                while q <= c:
                    q += step
        if cands[-1] != sizes[-1]:
            cands.append(sizes[-1])
    else:
        cands = sizes
    # Units: the sizes served by candidate j when j is a bucket and j-1 is one too.
    units, j = [], 0
    for c in cands:
        count = weighted = 0
        members = []
        while j < len(sizes) and sizes[j] <= c:
            count += hist[sizes[j]]
            weighted += hist[sizes[j]] * sizes[j]
            members.append(sizes[j])
            j += 1
        units.append((c, count, weighted, members))
    n = len(units)
    pc, pw = [0] * (n + 1), [0] * (n + 1)
    for i, (_, c, w, _) in enumerate(units):
        pc[i + 1], pw[i + 1] = pc[i] + c, pw[i] + w

    def cost(a, b):  # units a..b (inclusive) served by bucket units[b]
        size = units[b][0]
        return ((pc[b + 1] - pc[a]) * size - (pw[b + 1] - pw[a])) / size
    inf = float("inf")
    best = [[inf] * n for _ in range(max_buckets + 1)]
    back = [[-1] * n for _ in range(max_buckets + 1)]
    for b in range(n):
        best[1][b] = cost(0, b)
    for m in range(2, max_buckets + 1):
        for b in range(n):
            for a in range(1, b + 1):  # previous bucket at a-1
                v = best[m - 1][a - 1] + cost(a, b)
                if v < best[m][b]:
                    best[m][b], back[m][b] = v, a - 1
    chosen_m = None
    for m in range(1, max_buckets + 1):
        if best[m][n - 1] / total <= waste + 1e-12:
            chosen_m = m
            break
    met = chosen_m is not None
    if chosen_m is None:
        chosen_m = min(max_buckets, n)
        chosen_m = min(range(1, chosen_m + 1), key=lambda m: (best[m][n - 1], m))
    edges, b, m = [], n - 1, chosen_m
    while b >= 0 and m >= 1:
        edges.append(b)
        b, m = back[m][b], m - 1
    edges.reverse()
    buckets, start = [], 0
    for e in edges:
        served = [s for u in units[start:e + 1] for s in u[3]]
        calls = pc[e + 1] - pc[start]
        buckets.append({"batch": units[e][0], "serves": served, "calls": calls, "share": round(calls / total, 4),
                        "waste": round(cost(start, e) / calls, 4) if calls else 0.0})
        start = e + 1
    return {"buckets": buckets, "expected_waste": round(best[chosen_m][n - 1] / total, 4), "met": met,
            "bound": waste, "max_buckets": max_buckets,
            "definition": "a call of size b runs in the smallest bucket B >= b; its waste is (B - b) / B, the share "
                          "of padding rows; expected_waste is the mean over the recorded calls"}


def _cross_check(descs: list, tensors: list, values: list, dynamic_dims: set) -> dict:
    """torch.export.AdditionalInputs's own inference over the recorded calls (meta tensors): which
    dimensions it marks dynamic, compared with ours; and what it refuses (varying non-int values)."""
    try:
        import torch
        from torch.export import AdditionalInputs
    except Exception as exc:  # torch missing or broken: the proposal stands without the check
        return {"ran": False, "why": f"torch.export is not available: {exc}"}
    leafset = Counter(tuple(sorted(d["leaves"])) for d in descs)
    common = leafset.most_common(1)[0][0]
    used = [d for d in descs if tuple(sorted(d["leaves"])) == common][:MAX_CROSS_CHECK]
    keys = {name: f"i{i}" for i, name in enumerate(common)}

    def build(d, with_values: bool) -> dict:
        kw = {}
        for name in common:
            leaf = d["leaves"][name]
            if leaf["kind"] == "tensor":
                kw[keys[name]] = torch.empty(leaf["shape"], dtype=getattr(torch, leaf["dtype"], torch.float32),
                                             device="meta")
            elif with_values:
                kw[keys[name]] = leaf["value"]
        return kw

    def f(**inputs):
        return None
    out = {"ran": True, "descriptions": len(used), "left_out": len(descs) - len(used), "refused": None}
    try:
        ai = AdditionalInputs()
        for d in used[1:]:
            ai.add((), build(d, True))
        spec = ai.dynamic_shapes(f, (), build(used[0], True))
    except Exception as exc:
        out["refused"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:300]}"
        try:
            ai = AdditionalInputs()
            for d in used[1:]:
                ai.add((), build(d, False))
            spec = ai.dynamic_shapes(f, (), build(used[0], False))
        except Exception as exc2:
            out.update(ran=False, why=f"{type(exc2).__name__}: {str(exc2).splitlines()[0][:300]}")
            return out
    spec = spec.get("inputs", spec) if isinstance(spec, dict) else {}
    theirs, ints = set(), []
    for name in common:
        entry = spec.get(keys[name])
        if isinstance(entry, (tuple, list)):
            theirs.update(f"{name}:{i}" for i, v in enumerate(entry) if v is not None)
        elif entry is not None:
            ints.append(name)
    ours = {k for k in dynamic_dims if k.split(":")[0] in common}
    out.update(dynamic=sorted(theirs), ints_marked_dynamic=ints, agrees=theirs == ours,
               only_ours=sorted(ours - theirs), only_theirs=sorted(theirs - ours))
    return out


def _check_factory(text: str, leaves: dict | None) -> tuple:
    """Run the proposed dynamic_shapes text; with ``leaves`` (name -> leaf of one recorded call, every
    input a top-level argument) also check it against that call with meta tensors as torch.export
    does before tracing (torch.export.dynamic_shapes._check_dynamic_shapes, _process_dynamic_shapes:
    keys, ranks, derived dims). Returns (what was checked or None, error or None)."""
    try:
        import torch
        from torch.export import Dim, ShapesCollection
    except Exception as exc:
        return None, f"not checked: {exc}"
    scope = {"Dim": Dim, "ShapesCollection": ShapesCollection}
    try:
        if leaves is None:
            exec("\n".join(line for line in text.splitlines() if "ShapesCollection" not in line  # noqa: S102
                           and not line.startswith("dynamic_shapes")), scope)
            return "Dim definitions", None
        exec(text, scope)  # noqa: S102 -- our own generated text
        from torch.export import dynamic_shapes as ds
        combined = {n: torch.empty(leaf["shape"], dtype=getattr(torch, leaf["dtype"], torch.float32), device="meta")
                    if leaf["kind"] == "tensor" else leaf["value"] for n, leaf in leaves.items()}
        ds._check_dynamic_shapes(combined, scope["dynamic_shapes"])
        ds._process_dynamic_shapes(combined, scope["dynamic_shapes"])
        return "against one recorded call, as torch.export checks dynamic_shapes before tracing", None
    except Exception as exc:
        return None, f"{type(exc).__name__}: {str(exc).splitlines()[0][:300] if str(exc) else ''}"


def propose(folder: str, waste: float = 0.25, max_buckets: int = 4, write: bool = True) -> dict:
    """The proposal for the record in ``folder`` (see the module docstring); written to
    ``folder/proposal.json`` unless ``write`` is false."""
    summary = _read_json(os.path.join(folder, "summary.json")) or {}
    manifest = _read_json(os.path.join(folder, "inputs.json")) or {}
    descs, bad = read_record(folder)
    total = sum(d["count"] for d in descs)
    warnings, notes = [], []
    result = {"format": FORMAT, "version": VERSION, "record": os.path.abspath(folder),
              "outcome": summary.get("outcome"), "target": summary.get("target"), "calls": total,
              "descriptions": len(descs), "signatures": len({d["sig"] for d in descs}),
              "waste_bound": waste, "max_buckets": max_buckets}
    if bad:
        notes.append(say("propose.truncated", count=bad))
    if summary.get("outcome") == "running":
        notes.append(say("propose.running"))
    if not descs:
        result.update(inputs=[], values=[], dims=[], compile=None, export=None, buckets=None, factory=None,
                      additional_inputs=None, verify={"files": [], "chosen": "none"},
                      warnings=[say("propose.no_calls", outcome=summary.get("outcome", "no summary"))], notes=notes)
        if write:
            write_json_atomic(os.path.join(folder, "proposal.json"), result, indent=1)
        return result

    # Inputs by name, in the order they first appeared.
    names = []
    for d in descs:
        for name in d["leaves"]:
            if name not in names:
                names.append(name)
    inputs, values, dim_vectors = [], [], {}
    for name in names:
        having = [(d, d["leaves"][name]) for d in descs if name in d["leaves"]]
        present = sum(d["count"] for d, _ in having)
        tensor_calls = sum(d["count"] for d, leaf in having if leaf["kind"] == "tensor")
        if present < total:
            warnings.append(say("propose.presence", name=name, present=present, calls=total))
        if 0 < tensor_calls < present:
            warnings.append(say("propose.kind_varies", name=name, tensor=tensor_calls, other=present - tensor_calls))
        if tensor_calls == 0:
            seen = Counter()
            for d, leaf in having:
                seen[json.dumps(leaf.get("value"), sort_keys=True)] += d["count"]
            entry = {"name": name, "type": having[0][1].get("type"), "calls": present,
                     "values": [{"value": json.loads(v), "calls": c} for v, c in seen.most_common()],
                     "varies": len(seen) > 1}
            if len(seen) > 1:
                shown = ", ".join(f"{v} x{c}" for v, c in seen.most_common(8)) + (", ..." if len(seen) > 8 else "")
                warnings.append(say("propose.value_varies", name=name, count=len(seen), values=shown))
            values.append(entry)
            continue
        having = [(d, leaf) for d, leaf in having if leaf["kind"] == "tensor"]
        ranks = Counter()
        dtypes, devices = Counter(), Counter()
        strided = None
        noncontig = 0
        for d, leaf in having:
            ranks[len(leaf["shape"])] += d["count"]
            dtypes[leaf["dtype"]] += d["count"]
            devices[leaf["device"]] += d["count"]
            stride = leaf.get("stride")
            if stride is not None and stride != _contiguous(leaf["shape"]):
                noncontig += d["count"]
                strided = strided or leaf
        entry = {"name": name, "calls": tensor_calls, "ranks": dict(ranks), "dtypes": dict(dtypes),
                 "devices": dict(devices), "non_contiguous_calls": noncontig, "dims": []}
        inputs.append(entry)
        if len(dtypes) > 1:
            warnings.append(say("propose.dtype", name=name, dtypes=", ".join(f"{k} ({v})" for k, v in dtypes.items())))
        if len(devices) > 1:
            warnings.append(say("propose.device", name=name, devices=", ".join(f"{k} ({v})" for k, v in devices.items())))
        if noncontig:
            notes.append(say("propose.strides", name=name, count=noncontig, calls=tensor_calls,
                             stride=strided["stride"], shape=strided["shape"]))
        if not _INPUT_NAME.match(name):
            notes.append(say("propose.unnamed", name=name))
        if len(ranks) > 1:
            warnings.append(say("propose.rank", name=name, ranks=" or ".join(str(r) for r in sorted(ranks))))
            continue
        rank = next(iter(ranks))
        for dim in range(rank):
            seen = Counter()
            for d, leaf in having:
                seen[leaf["shape"][dim]] += d["count"]
            if len(seen) == 1:
                size = next(iter(seen))
                entry["dims"].append({"dim": dim, "kind": "static", "size": size})
                if size == 1 and rank > 1:
                    notes.append(say("propose.always_one", dim=f"{name}:{dim}"))
            else:
                entry["dims"].append({"dim": dim, "kind": "dynamic", "min": min(seen), "max": max(seen)})
                dim_vectors[(name, dim)] = tuple(d["leaves"][name]["shape"][dim]
                                                 if d["leaves"].get(name, {}).get("kind") == "tensor" else None
                                                 for d in descs)

    # Ties: dynamic dimensions equal in every call are one dimension.
    groups, taken = {}, set()
    for key, vector in dim_vectors.items():
        groups.setdefault(vector, []).append(key)
    first_tensor = inputs[0]["name"] if inputs else None
    dims, by_key = [], {}
    ordered = sorted(groups.items(), key=lambda kv: (0 if (first_tensor, 0) in kv[1] else 1,
                                                     names.index(kv[1][0][0]), kv[1][0][1]))
    for vector, members in ordered:
        if (first_tensor, 0) in members:
            gname = _identifier("batch", taken)
        else:
            gname = _identifier(f"{members[0][0]}_{members[0][1]}", taken)
        hist = Counter()
        for d, v in zip(descs, vector):
            if v is not None:
                hist[v] += d["count"]
        gcd = 0
        for v in hist:
            gcd = math.gcd(gcd, v)
        pow2 = gcd & -gcd if gcd else 0
        g = {"name": gname, "members": [f"{n}:{i}" for n, i in members], "min": min(hist), "max": max(hist),
             "distinct": len(hist), "histogram": {str(k): hist[k] for k in sorted(hist)},
             "multiple_of": pow2 if pow2 >= 2 else None, "gcd": gcd, "derived": None,
             "ones": hist.get(1, 0) + hist.get(0, 0), "spec_min": None, "spec_max": None, "in_spec": True,
             "notes": [], "_vector": vector}
        dims.append(g)
        for m in members:
            by_key[m] = g
    for entry in inputs:
        for dd in entry["dims"]:
            if dd["kind"] == "dynamic":
                dd["group"] = by_key[(entry["name"], dd["dim"])]["name"]

    # Relations: always k times another dimension (k >= 2), the root being the one with the largest k.
    for a in dims:
        best = None
        for b in dims:
            if a is b:
                continue
            pairs = [(x, y) for x, y in zip(a["_vector"], b["_vector"]) if x is not None or y is not None]
            if not pairs or any(x is None or y is None or y == 0 for x, y in pairs):
                continue
            x0, y0 = pairs[0]
            if x0 % y0:
                continue
            k = x0 // y0
            if 2 <= k <= MAX_FACTOR and all(x == k * y for x, y in pairs) and (best is None or k > best[1]):
                best = (b, k)
        if best is not None:
            a["derived"] = {"of": best[0]["name"], "factor": best[1]}
    for g in dims:
        label = f"{g['name']} ({', '.join(g['members'])})"
        lo, hi = g["min"], g["max"]
        if lo <= 1:
            if hi <= 2:
                g["notes"].append(say("propose.ones_only_two", dim=label))
                g["in_spec"] = False
            else:
                g["notes"].append(say("propose.ones", dim=label, ones=g["ones"], calls=total, max=hi))
                warnings.append(g["notes"][-1])
            lo = 2
        g["spec_min"], g["spec_max"] = (lo, hi) if g["in_spec"] else (None, None)
        if g["derived"]:
            g["notes"].append(say("propose.derived", dim=label, k=g["derived"]["factor"], base=g["derived"]["of"]))
        elif g["multiple_of"] and g["in_spec"]:
            g["notes"].append(say("propose.multiple", dim=label, k=g["multiple_of"], distinct=g["distinct"]))
            if -(-g["spec_min"] // g["multiple_of"]) == 1:
                g["notes"].append(say("propose.multiple_root", dim=label, k=g["multiple_of"],
                                      calls=g["histogram"].get(str(g["multiple_of"]), 0)))
    dynamic_keys = {m for g in dims for m in g["members"]}

    # The compile request's fields.
    entries = []
    for g in dims:
        if not g["in_spec"]:
            continue
        for m in g["members"]:
            name, _, dim = m.rpartition(":")
            head = name if _INPUT_NAME.match(name) else str(names.index(name))
            entries.append(f"{head}:{dim}:{g['spec_min']}:{g['spec_max']}={g['name']}")
    # The example's shapes: the most frequent call whose dynamic sizes lie in the spec's ranges.
    def fits(d):
        for g in dims:
            for m in g["members"] if g["in_spec"] else ():
                name, _, dim = m.rpartition(":")
                leaf = d["leaves"].get(name)
                if leaf is None or not g["spec_min"] <= leaf["shape"][int(dim)] <= g["spec_max"]:
                    return False
        return True
    ranked = sorted(descs, key=lambda d: -d["count"])
    mode = next((d for d in ranked if fits(d)), ranked[0])
    shapes = {n: leaf["shape"] for n, leaf in mode["leaves"].items() if leaf["kind"] == "tensor" and _INPUT_NAME.match(n)}
    result["compile"] = {"dynamic": entries, "shapes": shapes}

    # Buckets along export's batch: dimension 0 of the first tensor input.
    batch = by_key.get((first_tensor, 0))
    buckets, export = None, None
    non_batch = [e for e in entries if batch is None or not e.endswith("=" + batch["name"])]
    if first_tensor is None:
        pass
    elif batch is None:
        size = next((dd["size"] for dd in inputs[0]["dims"] if dd["dim"] == 0), None)
        if size is not None:
            notes.append(say("propose.static_batch", name=first_tensor, size=size))
        export = {"buckets": [], "dynamic": non_batch}
    elif batch["derived"]:
        notes.append(say("propose.derived_batch", dim=batch["name"], k=batch["derived"]["factor"],
                         base=batch["derived"]["of"]))
    else:
        hist = {int(k): v for k, v in batch["histogram"].items()}
        buckets = {"dimension": batch["name"], "members": batch["members"],
                   **choose_buckets(hist, waste, max(1, max_buckets))}
        if not buckets["met"]:
            warnings.append(say("propose.bound_missed", max_buckets=max_buckets, bound=waste,
                                waste=buckets["expected_waste"]))
        padded = any(b["waste"] > 0 for b in buckets["buckets"])
        export = {"buckets": [b["batch"] for b in buckets["buckets"]], "pad_safe": padded, "dynamic": non_batch}
        if padded:
            notes.append(say("propose.pad_safe"))
        alternatives = []
        sizes = sorted(hist)
        if len(sizes) <= max_buckets:
            alternatives.append({"buckets": sizes, "pad_safe": False, "dynamic": non_batch,
                                 "why": "one exact bucket per size seen: no padding"})
        if batch["in_spec"]:
            alternatives.append({"dynamic_batch": [batch["spec_min"], batch["spec_max"]], "dynamic": non_batch,
                                 "why": "one dynamic package, no padding"
                                        + (f"; size 1 ({batch['ones']} calls) is refused" if batch["ones"] else "")})
        buckets["alternatives"] = alternatives
    result["export"] = export
    result["buckets"] = buckets

    # The factory's dynamic_shapes (torch.export.Dim), which can state multiples and derived dimensions.
    # A Dim's variable must not hide an input of the same name (the ShapesCollection form names them).
    roots = {re.split(r"[.\[]", n, 1)[0] for n in names}
    var = {g["name"]: g["name"] + "_dim" if g["name"] in roots else g["name"] for g in dims}
    lines, exprs = ["from torch.export import Dim"], {}
    for g in dims:
        if not g["in_spec"] or g["derived"]:
            continue
        k, v = g["multiple_of"], var[g["name"]]
        if k:
            root = "_" + g["name"]
            lines.append(f'{root} = Dim("{root}", min={-(-g["spec_min"] // k)}, max={g["spec_max"] // k})')
            lines.append(f"{v} = {k} * {root}")
        else:
            lines.append(f'{v} = Dim("{g["name"]}", min={g["spec_min"]}, max={g["spec_max"]})')
    for g in dims:
        v = var[g["name"]]
        if g["in_spec"] and g["derived"] and any(o["name"] == g["derived"]["of"] and o["in_spec"] and not o["derived"]
                                                 for o in dims):
            lines.append(f"{v} = {g['derived']['factor']} * {var[g['derived']['of']]}")
        elif g["in_spec"] and g["derived"]:
            lines.append(f'{v} = Dim("{g["name"]}", min={g["spec_min"]}, max={g["spec_max"]})')
    for g in dims:
        if g["in_spec"]:
            for m in g["members"]:
                name, _, dim = m.rpartition(":")
                exprs.setdefault(name, []).append(f"{dim}: {var[g['name']]}")
    plain = all(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", n) for n in mode["leaves"])
    text = list(lines)
    if plain:  # every input a top-level argument: a dict of every argument passed, as torch.export wants
        body = ", ".join(f'"{n}": ' + (f"{{{', '.join(exprs[n])}}}" if n in exprs else "None") for n in mode["leaves"])
        text.append(f"dynamic_shapes = {{{body}}}  # keyed by forward's parameter names")
    else:
        text.append("from torch.export import ShapesCollection")
        text.append("dynamic_shapes = ShapesCollection()  # keyed by the example tensors themselves")
        text += [f"dynamic_shapes[{n}] = {{{', '.join(v)}}}" for n, v in exprs.items()]
        text.append("dynamic_shapes = dynamic_shapes.dynamic_shapes(model, args, kwargs)")
    checked, error = _check_factory("\n".join(text), mode["leaves"] if plain else None)
    result["factory"] = {"dynamic_shapes": "\n".join(text), "checked": checked, "error": error,
                         "note": "for a factory returning (model, args, dynamic_shapes); an example size whose Dim "
                                 "root is 0 or 1 is specialised by torch.export: give the example sizes >= 2 x the "
                                 "multiple"}

    result["additional_inputs"] = _cross_check(descs, inputs, values, dynamic_keys)

    # Inputs to verify on: one kept file per signature, all or a stated sample.
    per_sig = {}
    for f in manifest.get("files", []):
        per_sig.setdefault(f["signature"], f)
    calls_of = {s["id"]: s.get("calls", 0) for s in manifest.get("signatures", [])}
    shapes_of = {s["id"]: s.get("inputs", {}) for s in manifest.get("signatures", [])}
    if len(per_sig) <= MAX_VERIFY:
        chosen, how = sorted(per_sig), f"all {len(per_sig)} signatures with a kept input"
    else:
        picked = []
        for g in dims:  # the signatures holding each dynamic dimension's smallest and largest size
            for want in (g["min"], g["max"]):
                for sid in sorted(per_sig, key=lambda s: -calls_of.get(s, 0)):
                    if any(shapes_of.get(sid, {}).get(m.rpartition(":")[0], {}).get("shape", [None] * 99)
                           [int(m.rpartition(":")[2])] == want for m in g["members"]):
                        if sid not in picked:
                            picked.append(sid)
                        break
        for sid in sorted(per_sig, key=lambda s: -calls_of.get(s, 0)):
            if len(picked) >= MAX_VERIFY:
                break
            if sid not in picked:
                picked.append(sid)
        chosen = sorted(picked[:MAX_VERIFY])
        how = (f"{len(chosen)} of {len(per_sig)} signatures: each dynamic dimension's smallest and largest size, "
               "then the most frequent")
    result["verify"] = {"files": [per_sig[s]["file"] for s in chosen], "signatures": chosen, "chosen": how,
                        "note": say("propose.verify_field")}
    for g in dims:
        g.pop("_vector", None)
    result.update(inputs=inputs, values=values, dims=dims, warnings=warnings, notes=notes)
    if write:
        write_json_atomic(os.path.join(folder, "proposal.json"), result, indent=1)
    return result


def _contiguous(shape: list) -> list:
    stride, acc = [], 1
    for size in reversed(shape):
        stride.append(acc)
        acc *= max(size, 1)
    return stride[::-1]


def main(opts) -> int:
    """``propose DIR``: write DIR/proposal.json and print its gist; 1 when the record has no calls."""
    if not os.path.isdir(opts.dir):
        print(f"capture propose: {opts.dir}: no such folder", file=sys.stderr)
        return 2
    result = propose(opts.dir, opts.waste, opts.max_buckets)
    if not result["calls"]:
        print(f"capture propose: {result['warnings'][0]}", file=sys.stderr)
        return 1
    print(f"{result['calls']} calls, {result['signatures']} signatures")
    for g in result["dims"]:
        print(f"  {g['name']}: {', '.join(g['members'])} {g['min']}..{g['max']} ({g['distinct']} sizes)")
    print("compile: " + json.dumps(result["compile"]))
    if result["export"] is not None:
        print("export: " + json.dumps(result["export"]))
    for w in result["warnings"]:
        print("warning: " + w)
    print(f"written: {os.path.join(opts.dir, 'proposal.json')}")
    return 0
