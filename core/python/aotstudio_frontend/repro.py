# SPDX-License-Identifier: GPL-3.0-or-later
"""A standalone reproduction of a failed compile (issue 40 item 3): a folder that reproduces a
compile failure or a verify mismatch with plain torch in a fresh process, no AOT Studio needed.

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
    versions = {"torch": torch.__version__, "cuda": torch.version.cuda, "python": platform.python_version(),
                "machine": platform.machine(), "system": platform.platform()}
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
