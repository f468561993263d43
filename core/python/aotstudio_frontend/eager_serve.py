# SPDX-License-Identifier: GPL-3.0-or-later
"""A Python eager server, the burst replay's second baseline (app/run/SERVING.md "The burst
replay"): one resident process that has imported torch and built the model, answering the
serving protocol's request lines one at a time with the eager model. Run as
``python -m aotstudio_frontend.eager_serve MODEL DEVICE [SHAPES]`` (SHAPES: the request's
``shapes`` as JSON, as for ``coldstart``) under ``aotstudio-run --replay|--poisson ...
--eager-server CMD``.

Lines (JSON, one per line):

- first, when the model is built: ``{"ready": true, "pid": P, "load_ms": T}`` (ms from this
  module's import to the ready line: building the model and moving it to the device; torch itself
  is imported before, by the package's ``__init__``); a model that cannot be built ends the process with status 1 and the
  error on stderr.
- per request ``{"batch": B|null, "seed": S, "input": PATH|""}``: the answer ``{"ok": true,
  "outputs": [{"name", "shape", "dtype", "sum", "mean", "non_finite"}], "begin_ns", "setup_ms",
  "load_ms", "inputs_ms", "run_ms"}`` or ``{"ok": false, "error": {"stage", "code", "message",
  "hint"}}``. ``begin_ns`` is ``time.monotonic_ns()`` when the line was read: CLOCK_MONOTONIC, the
  clock of the server's ``std::chrono::steady_clock``, so the server can tell the hand-over apart.

Generated inputs are drawn as ``aotstudio-run`` draws them (core/runtime/aotirunner.cpp
``setGeneratedInputs``): one CPU generator seeded with S, each input in order, floating inputs
``randn`` in float32 then cast, integer inputs zero; batched inputs (``models.batched_inputs``,
the rule the export's buckets use) have B rows. For a batch that has its own bucket the outputs
are then those of the bundle's inputs (tst_serve compares the sums); a padded batch differs (the
runtime draws B rows and pads them). The model runs in its own dtype (float32 for a factory), as
the eager cold start does. Intra-op threads: torch's default, i.e. ``OMP_NUM_THREADS``, which the server sets
to each worker's share of the CPUs. Ends at end of input."""

import json
import os
import sys
import time

_IMPORTED = time.perf_counter()  # load_ms counts from here: the model's build and move


def _error(stage, message, hint=""):
    code = {"refused": "refused", "request": "bad_request"}.get(stage, "failed")
    return {"ok": False, "error": {"stage": stage, "code": code, "message": message, "hint": hint}}


def _summary(i, t):
    import torch

    f = t.detach().float()
    finite = torch.isfinite(f)
    return {"name": "output" if i == 0 else "output%d" % i, "shape": list(t.shape),
            "dtype": str(t.dtype).replace("torch.", ""), "sum": float(f[finite].sum()),
            "mean": float(f[finite].mean()) if bool(finite.any()) else None,
            "non_finite": int((~finite).sum())}


def _generated(examples, batched, batch, seed, device):
    """Inputs of ``batch`` rows drawn from ``seed`` (see the module's docstring)."""
    import torch

    g = torch.Generator().manual_seed(int(seed))
    out = []
    for t, b in zip(examples, batched):
        shape = list(t.shape)
        if b and batch is not None:
            shape[0] = batch
        if t.dtype.is_floating_point:
            x = torch.randn(shape, generator=g, dtype=torch.float32).to(t.dtype)
        else:
            x = torch.zeros(shape, dtype=t.dtype)
        out.append(x.to(device))
    return tuple(out)


def _from_file(path, device):
    import torch

    loaded = torch.load(path, map_location=device, weights_only=True)
    if isinstance(loaded, torch.Tensor):
        return (loaded,)
    if isinstance(loaded, dict):
        return tuple(loaded.values())
    return tuple(loaded)


def serve(spec, device, shapes_json, lines, answers):
    """Build the model, write the ready line to ``answers``, then answer each line of ``lines``."""
    from .coldstart import eager_model
    from .models import batched_inputs

    model, examples = eager_model(spec, device, shapes_json)
    batched = batched_inputs(examples)
    ready = {"ready": True, "pid": os.getpid(), "load_ms": (time.perf_counter() - _IMPORTED) * 1e3}
    answers.write(json.dumps(ready) + "\n")
    answers.flush()
    for line in lines:
        begin_ns = time.monotonic_ns()
        t_begin = time.perf_counter()
        try:
            request = json.loads(line)
        except ValueError as e:
            answer = _error("request", "not a JSON line: %s" % e)
        else:
            answer = _answer(model, examples, batched, request, device, t_begin) if isinstance(request, dict) \
                else _error("request", "a request is a JSON object")
        answer["begin_ns"] = begin_ns
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


def _answer(model, examples, batched, request, device, t_begin):
    import torch

    batch = request.get("batch")
    if batch is not None and (not isinstance(batch, int) or batch < 1):
        return _error("request", "\"batch\" must be an integer of at least 1")
    try:
        t1 = time.perf_counter()
        path = request.get("input") or ""
        inputs = _from_file(path, device) if path else _generated(examples, batched, batch, request.get("seed", 0),
                                                                  device)
        t2 = time.perf_counter()
        with torch.inference_mode():
            out = model(*inputs)
        if torch.device(device).type == "cuda":
            torch.cuda.synchronize()
        t3 = time.perf_counter()
        leaves = [t for t in torch.utils._pytree.tree_leaves(out) if isinstance(t, torch.Tensor)]
        return {"ok": True, "outputs": [_summary(i, t) for i, t in enumerate(leaves)],
                "setup_ms": (t1 - t_begin) * 1e3, "load_ms": 0.0, "inputs_ms": (t2 - t1) * 1e3,
                "run_ms": (t3 - t2) * 1e3}
    except Exception as e:  # the request's failure, never the server's
        return _error("failed", "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else ""))


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: python -m aotstudio_frontend.eager_serve MODEL DEVICE [SHAPES]\n")
        return 2
    # Answers go to the original stdout; anything the model prints goes to stderr.
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    try:
        serve(argv[1], argv[2], argv[3] if len(argv) > 3 else None, sys.stdin, answers)
    except Exception as e:
        sys.stderr.write("eager server: cannot serve '%s' on %s: %s: %s\n" % (argv[1], argv[2], type(e).__name__, e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
