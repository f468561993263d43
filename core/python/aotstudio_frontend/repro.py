# SPDX-License-Identifier: GPL-3.0-or-later
"""A standalone reproduction of a failure (issue 40 item 3): a folder that reproduces a compile
failure, a verify mismatch or a numerics divergence with plain torch in a fresh process, no AOT
Studio needed.

What the folder holds (FORMAT.md "Repro"):

- ``program.pt2``: the exported program the compile got (``torch.export.save``);
- ``inputs.pt``: its example inputs, the flat tensors the program takes (``torch.save``);
- ``inductor_configs.json``: the Inductor options the compile used (our trace and compiler-wrapper
  settings left out: they only record, they do not change the code);
- ``repro.py``: compiles the program with ``torch._inductor.aoti_compile_and_package``, runs it
  with ``torch._inductor.aoti_load_package`` and compares every output with the program run
  eagerly (``ExportedProgram.module()``); prints ``REPRODUCED: ...`` and exits 1 when the compile
  fails or an output differs by more than the tolerance, else ``NOT REPRODUCED`` and exit 0;
- ``README.md``: the failure, the versions, the command;
- ``repro.json``: what :func:`write` and :func:`confirm` found (also the ``repro`` result).

The program is the whole exported graph, not a minimised one: the AOTI minifier
(``torch._inductor.config.aot_inductor.dump_aoti_minifier``) is not run here.

A numerics divergence (:func:`write_numerics`) is reproduced on the smallest subgraph the numerics
job identified: its first divergent node (every input within the tolerance, its output past it) as
a one-node exported program (``program.pt2``) whose inputs are the float64 reference values of the
node's inputs rounded to the run's dtype (``inputs.pt``), with the float64 reference output
(``reference.pt``, the node computed on the unrounded float64 inputs). ``repro.py`` runs that
program eagerly (``ExportedProgram.module()``) or compiled by AOTInductor, as the divergent side
was, and reports ``REPRODUCED`` when its norm_error (max |x - reference| / max |reference|) is past
the tolerance.
"""

import json
import os
import platform
import subprocess
import sys
import time

import torch

from .files import write_json_atomic

FORMAT = "aotstudio.repro"

#: Options that only say where Inductor writes its debug trace or which compiler wrapper runs:
#: they do not change the generated code, and name folders of the original job.
_RECORDING_OPTIONS = ("trace.enabled", "trace.debug_dir", "trace.provenance_tracking_level", "cpp.cxx")

_SCRIPT = '''#!/usr/bin/env python3
"""Reproduces {what} with plain torch (made by AOT Studio; see README.md).
Exit 1 and a line starting with REPRODUCED when it reproduces, 0 and NOT REPRODUCED when not."""
import json
import os
import sys
import tempfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
TOLERANCE = {tolerance!r}  # largest absolute difference accepted between compiled and eager

program = torch.export.load(os.path.join(HERE, "program.pt2"))
inputs = torch.load(os.path.join(HERE, "inputs.pt"))
with open(os.path.join(HERE, "inductor_configs.json"), encoding="utf-8") as f:
    configs = json.load(f)
with torch.no_grad():
    expected = program.module()(*inputs)
with tempfile.TemporaryDirectory() as tmp:
    try:
        package = torch._inductor.aoti_compile_and_package(
            program, package_path=os.path.join(tmp, "model.pt2"), inductor_configs=configs)
    except Exception as exc:
        print(f"REPRODUCED: the compile failed: {{type(exc).__name__}}: {{str(exc).splitlines()[0] if str(exc) else ''}}")
        sys.exit(1)
    runner = torch._inductor.aoti_load_package(package)
    with torch.no_grad():
        got = runner(*inputs)
expected = torch.utils._pytree.tree_leaves(expected)
got = torch.utils._pytree.tree_leaves(got)
if len(expected) != len(got):
    print(f"REPRODUCED: {{len(got)}} outputs, eager has {{len(expected)}}")
    sys.exit(1)
for index, (e, g) in enumerate(zip(expected, got)):
    if not isinstance(e, torch.Tensor):
        continue
    if e.shape != g.shape:
        print(f"REPRODUCED: output {{index}} has shape {{list(g.shape)}}, eager {{list(e.shape)}}")
        sys.exit(1)
    if e.is_floating_point():
        diff = (g.double() - e.double()).abs().max().item() if e.numel() else 0.0
    else:
        diff = 0.0 if torch.equal(g, e) else float("inf")
    if not diff <= TOLERANCE:
        print(f"REPRODUCED: output {{index}} differs from eager by {{diff:.6g}} (tolerance {{TOLERANCE:g}})")
        sys.exit(1)
print(f"NOT REPRODUCED: the compile succeeded and all {{len(got)}} outputs are within {{TOLERANCE:g}} of eager")
sys.exit(0)
'''


_NUMERICS_SCRIPT = '''#!/usr/bin/env python3
"""Reproduces a numerics divergence at node {node} ({target}) with plain torch (made by AOT Studio;
see README.md): the node alone, on its inputs rounded to {dtype}, {how}, against the float64
reference. Exit 1 and a line starting with REPRODUCED when its norm_error is past the tolerance,
0 and NOT REPRODUCED when not."""
import json
import os
import sys
import tempfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
SIDE = {side!r}  # "eager": the op run as it is; "compiled": the one-node program through AOTInductor
TOLERANCE = {tolerance!r}  # largest norm_error accepted: max|x - reference| / max|reference|

program = torch.export.load(os.path.join(HERE, "program.pt2"))
inputs = torch.load(os.path.join(HERE, "inputs.pt"))
reference = torch.load(os.path.join(HERE, "reference.pt"))
with open(os.path.join(HERE, "inductor_configs.json"), encoding="utf-8") as f:
    configs = json.load(f)
with torch.no_grad():
    if SIDE == "compiled":
        with tempfile.TemporaryDirectory() as tmp:
            try:
                package = torch._inductor.aoti_compile_and_package(
                    program, package_path=os.path.join(tmp, "node.pt2"), inductor_configs=configs)
            except Exception as exc:
                print(f"NOT REPRODUCED: the node did not compile ({{type(exc).__name__}}), so its numerics cannot be compared")
                sys.exit(0)
            got = torch._inductor.aoti_load_package(package)(*inputs)
    else:
        got = program.module()(*inputs)
got = torch.utils._pytree.tree_leaves(got)[0]
if got.shape != reference.shape:
    print(f"REPRODUCED: shape {{list(got.shape)}} against the reference's {{list(reference.shape)}}")
    sys.exit(1)
scale = reference.double().abs().max().item() if reference.numel() else 0.0
max_abs = (got.double() - reference.double()).abs().max().item() if reference.numel() else 0.0
norm = max_abs / max(scale, 1e-12)
if not norm <= TOLERANCE:
    print(f"REPRODUCED: {{SIDE}} {target} in {{got.dtype}} has norm_error {{norm:.4g}} against the float64 reference "
          f"(tolerance {{TOLERANCE:g}}; max abs {{max_abs:.4g}})")
    sys.exit(1)
print(f"NOT REPRODUCED: {{SIDE}} {target} in {{got.dtype}} has norm_error {{norm:.4g}}, within {{TOLERANCE:g}}: "
      "the divergence needs more of the graph than this node (e.g. a fusion across it)")
sys.exit(0)
'''


def _configs(options: dict) -> dict:
    """The compile's Inductor options that shape the code, JSON-able (others are dropped, listed
    in repro.json ``dropped_options``)."""
    kept, dropped = {}, []
    for key, value in options.items():
        if key in _RECORDING_OPTIONS:
            continue
        try:
            json.dumps(value)
        except TypeError:
            dropped.append(key)
            continue
        kept[key] = value
    return kept, dropped


def write(job, folder: str, failure: dict) -> dict:
    """Write the repro folder for ``job`` (a CompileJob after ``export()``) into ``folder``.
    ``failure`` is the error as the engine reports it (``stage``, ``code``, ``message``). Returns
    the repro record (written as ``folder/repro.json``); ``reproduced`` stays null until
    :func:`confirm` runs it."""
    started = time.perf_counter()
    os.makedirs(folder, exist_ok=True)
    if job.program is None:
        raise ValueError("the job has no exported program: the failure came before torch.export finished")
    torch.export.save(job.program, os.path.join(folder, "program.pt2"))
    inputs = [t.detach().cpu() if job.device == "cpu" else t.detach() for t in job.inputs]
    torch.save(inputs, os.path.join(folder, "inputs.pt"))
    options = job._inductor_options(os.path.join(folder, "trace"))
    configs, dropped = _configs(options)
    write_json_atomic(os.path.join(folder, "inductor_configs.json"), configs, indent=1)
    what = ("a compile failure" if failure.get("code") == "compile_failed"
            else "an output mismatch" if failure.get("code") == "mismatch" else "a failure")
    with open(os.path.join(folder, "repro.py"), "w", encoding="utf-8") as f:
        f.write(_SCRIPT.format(what=what, tolerance=float(job.tolerance)))
    os.chmod(os.path.join(folder, "repro.py"), 0o755)
    versions = _versions()
    with open(os.path.join(folder, "README.md"), "w", encoding="utf-8") as f:
        f.write(f"# Repro: {what} of {job.spec}\n\n"
                f"The original failure (stage `{failure.get('stage')}`, code `{failure.get('code')}`):\n\n"
                f"```\n{failure.get('message', '')}\n```\n\n"
                "Run it with the same torch, in a fresh process:\n\n```sh\npython repro.py\n```\n\n"
                "It exits 1 and prints a line starting with `REPRODUCED` when the compile fails or an output "
                f"differs from eager by more than {float(job.tolerance):g}; 0 and `NOT REPRODUCED` otherwise.\n\n"
                "Files: `program.pt2` (torch.export.save of the exported program), `inputs.pt` (its example "
                "inputs, torch.save), `inductor_configs.json` (the Inductor options of the compile).\n\n"
                "Made with: " + ", ".join(f"{k} {v}" for k, v in versions.items() if v) + ".\n")
    files = sorted(os.listdir(folder))
    record = {"format": FORMAT, "format_version": 1, "folder": folder, "model": job.spec, "device": job.device,
              "kind": "compile" if failure.get("code") == "compile_failed" else "verify",
              "failure": {k: failure.get(k) for k in ("stage", "code", "message")},
              "command": [sys.executable, os.path.join(folder, "repro.py")],
              "versions": versions, "tolerance": float(job.tolerance), "minimized": False,
              "dropped_options": dropped, "files": files,
              "bytes": sum(os.path.getsize(os.path.join(folder, n)) for n in files
                           if os.path.isfile(os.path.join(folder, n))),
              "write_seconds": round(time.perf_counter() - started, 3),
              "reproduced": None, "run": None}
    write_json_atomic(os.path.join(folder, "repro.json"), record, indent=1)
    return record


def _versions() -> dict:
    return {"torch": torch.__version__, "cuda": torch.version.cuda, "python": platform.python_version(),
            "machine": platform.machine(), "system": platform.platform()}


def write_numerics(job, folder: str, failure: dict, numerics: dict) -> dict:
    """Write the repro folder of a numerics divergence for ``job`` (a CompileJob after
    ``export()``, built from the numerics job's request) into ``folder``. ``numerics`` is the
    numerics result (numerics.json: ``first_divergent``, ``tolerance``, ``dtype``); the compiled
    side's first divergent node is taken when it has one, else eager's. Returns the repro record
    (``reproduced`` null until :func:`confirm`). Raises ValueError naming what is missing (no
    divergent node, a node this export does not have, an input that is not a tensor)."""
    from .numerics import Numerics, _Capture
    started = time.perf_counter()
    first = numerics.get("first_divergent") or {}
    side = "compiled" if first.get("compiled") else "eager" if first.get("eager") else None
    if side is None:
        raise ValueError("the numerics job found no divergent node (first_divergent is null on both sides): "
                         "nothing to reproduce")
    name = first[side].get("node")
    gm = job.program.graph_module
    node = next((n for n in gm.graph.nodes if n.name == name), None)
    if node is None:
        raise ValueError(f"node '{name}' of the numerics job is not in the graph exported again: the model or "
                         "torch changed since; run numerics again")
    tolerance = float(numerics.get("tolerance") or 0)
    if not tolerance > 0:
        raise ValueError("numerics.json has no tolerance")
    os.makedirs(folder, exist_ok=True)
    # The reference run of the whole graph (as the numerics job made it), keeping the node's inputs
    # and its own output.
    num = Numerics(job)
    num.begin(tolerance)
    wanted = [a for a in node.all_input_nodes]
    cap = _Capture(gm, {a.name for a in wanted} | {node.name}, None, None, num.reference_dtype)
    with torch.inference_mode():
        cap.run(*num._graph_args(num.reference_dtype))
    ref_inputs, run_inputs = [], []
    for a in wanted:
        value = cap.values.get(a.name)
        meta = a.meta.get("val")
        if not isinstance(value, torch.Tensor) or not isinstance(meta, torch.Tensor):
            raise ValueError(f"input '{a.name}' of node '{name}' is not a tensor: a one-node repro needs tensor inputs")
        ref_inputs.append(value)
        run_inputs.append(value.to(meta.dtype).contiguous() if value.is_floating_point() else value.to(meta.dtype))
    reference = cap.values.get(node.name)
    if not isinstance(reference, torch.Tensor):
        raise ValueError(f"node '{name}' has no tensor output in the reference run")
    # The node alone as a graph: one placeholder per input node, the node, its output.
    graph = torch.fx.Graph()
    env = {a: graph.placeholder(f"in{i}_{a.name}") for i, a in enumerate(wanted)}
    copied = graph.node_copy(node, lambda n: env[n])
    graph.output(copied)
    sub = torch.fx.GraphModule(torch.nn.Module(), graph)
    program = torch.export.export(sub, tuple(run_inputs), strict=False)
    torch.export.save(program, os.path.join(folder, "program.pt2"))
    torch.save([t.detach().cpu() for t in run_inputs], os.path.join(folder, "inputs.pt"))
    torch.save(reference.detach().cpu(), os.path.join(folder, "reference.pt"))
    configs, dropped = _configs(job._inductor_options(os.path.join(folder, "trace")))
    write_json_atomic(os.path.join(folder, "inductor_configs.json"), configs, indent=1)
    target = str(node.target)
    how = "compiled by AOTInductor" if side == "compiled" else "run eagerly"
    dtype = str(node.meta["val"].dtype).replace("torch.", "") if isinstance(node.meta.get("val"), torch.Tensor) else "?"
    with open(os.path.join(folder, "repro.py"), "w", encoding="utf-8") as f:
        f.write(_NUMERICS_SCRIPT.format(node=name, target=target, dtype=dtype, how=how, side=side, tolerance=tolerance))
    os.chmod(os.path.join(folder, "repro.py"), 0o755)
    versions = _versions()
    with open(os.path.join(folder, "README.md"), "w", encoding="utf-8") as f:
        f.write(f"# Repro: a numerics divergence of {job.spec}\n\n"
                f"The numerics job found the {side} side's first divergent node `{name}` (`{target}`, {dtype}): "
                f"its inputs within the tolerance {tolerance:g}, its output past it "
                f"(norm_error {first[side].get('norm_error')}).\n\n"
                f"Its verdict:\n\n```\n{numerics.get('verdict', '')}\n```\n\n"
                "This folder holds that node alone (the smallest subgraph the numerics job identified): "
                "`program.pt2` (a one-node exported program), `inputs.pt` (the float64 reference values of its "
                f"inputs rounded to the run's dtype), `reference.pt` (the node in float64), "
                "`inductor_configs.json` (the Inductor options of the run).\n\n"
                "Run it with the same torch, in a fresh process:\n\n```sh\npython repro.py\n```\n\n"
                f"It runs the node {how}, and exits 1 with a line starting with `REPRODUCED` when its norm_error "
                f"(max |x - reference| / max |reference|) is past {tolerance:g}; 0 and `NOT REPRODUCED` otherwise "
                "(then the divergence needs more of the graph than this node, e.g. a fusion across it).\n\n"
                "Made with: " + ", ".join(f"{k} {v}" for k, v in versions.items() if v) + ".\n")
    files = sorted(os.listdir(folder))
    record = {"format": FORMAT, "format_version": 1, "folder": folder, "model": job.spec, "device": job.device,
              "kind": "numerics", "failure": {k: failure.get(k) for k in ("stage", "code", "message")},
              "node": name, "target": target, "side": side, "dtype": dtype,
              "command": [sys.executable, os.path.join(folder, "repro.py")],
              "versions": versions, "tolerance": tolerance, "minimized": True,
              "dropped_options": dropped, "files": files,
              "bytes": sum(os.path.getsize(os.path.join(folder, n)) for n in files
                           if os.path.isfile(os.path.join(folder, n))),
              "write_seconds": round(time.perf_counter() - started, 3),
              "reproduced": None, "run": None}
    write_json_atomic(os.path.join(folder, "repro.json"), record, indent=1)
    return record


def confirm(record: dict, timeout: float = 900.0) -> dict:
    """Run the repro once in a fresh process (``record["command"]``, cwd the folder, at most
    ``timeout`` s) and record whether it reproduced: ``reproduced`` true (exit 1 with a
    ``REPRODUCED`` line), false (exit 0, ``NOT REPRODUCED``: flaky, or it depends on this
    engine's machine or settings) or null (it crashed or timed out: ``run.outcome`` says which)."""
    folder = record["folder"]
    started = time.perf_counter()
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)  # plain torch: nothing of AOT Studio on the path
    try:
        done = subprocess.run(record["command"], cwd=folder, capture_output=True, text=True, timeout=timeout, env=env)
        out = (done.stdout or "") + (done.stderr or "")
        line = next((ln for ln in (done.stdout or "").splitlines() if "REPRODUCED" in ln), "")
        if done.returncode == 1 and line.startswith("REPRODUCED"):
            reproduced, outcome = True, "reproduced"
        elif done.returncode == 0 and line.startswith("NOT REPRODUCED"):
            reproduced, outcome = False, "not_reproduced"
        else:
            reproduced, outcome = None, f"crashed (exit {done.returncode})"
        run = {"outcome": outcome, "exit": done.returncode, "line": line, "output_tail": out[-4000:]}
    except subprocess.TimeoutExpired:
        reproduced, run = None, {"outcome": f"timed out after {timeout:g} s", "exit": None, "line": "",
                                 "output_tail": ""}
    run["seconds"] = round(time.perf_counter() - started, 3)
    record = dict(record, reproduced=reproduced, run=run)
    write_json_atomic(os.path.join(folder, "repro.json"), record, indent=1)
    return record
