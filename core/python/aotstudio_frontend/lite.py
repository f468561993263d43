# SPDX-License-Identifier: GPL-3.0-or-later
"""The libtorch-free runtime's side of a compile (core/runtime/BUNDLE.md, "The libtorch-free runtime").

A compile with ``runtime: "lite"`` builds its package with ``aot_inductor.link_libtorch=False``: the
package's ``.so`` leaves its ``aoti_torch_*`` calls undefined, to be bound when it is loaded, by
``aotstudio-run-lite``'s shim (core/runtime/lite) or by a process that has libtorch_cpu (the engine,
aotstudio-run). Before keeping such a package the compile lists the ``.so``'s undefined symbols with
binutils' ``nm -D --undefined-only`` (those without a symbol version: the ones a NEEDED library does
not promise) and compares the ``aoti_*`` ones with what the runtime says it provides
(``aotstudio-run-lite --abi``); a package that needs more is compiled again for libtorch, and the
result names the missing functions. Python's ``aoti_load_package`` cannot load these packages (torch
opens libtorch_cpu RTLD_LOCAL), so after the usual verify (the engine's C++ runner, whose process has
libtorch_cpu's symbols) the shipped package also runs in ``aotstudio-run-lite`` on the same inputs,
against eager's outputs with the same tolerance (``verify_in_runtime``).
"""

import json
import os
import shutil
import subprocess
import tempfile
import zipfile

import torch

from .errors import FrontendError, one_line
from .verify import compare, named_tensors

#: Inductor's option for a package without libtorch (the .so binds its shim at load time).
INDUCTOR_OPTIONS = {"aot_inductor.link_libtorch": False}
RUNTIMES = ("libtorch", "lite")


def _run(argv: list, timeout: float = 120.0) -> dict:
    """``argv``'s --json envelope's result; FrontendError naming the command when it fails."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise FrontendError("failed", "verify", f"{argv[0]} could not be run: {one_line(exc)}",
                            "build the aotstudio-run-lite target (it is installed next to the engine)") from exc
    try:
        envelope = json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        envelope = None
    if not isinstance(envelope, dict) or not envelope.get("ok"):
        message = (envelope or {}).get("error", {}).get("message") or one_line(done.stderr) or f"exit {done.returncode}"
        raise FrontendError("failed", "verify", f"{os.path.basename(argv[0])} {' '.join(argv[1:2])}: {message}", "")
    return envelope["result"]


def shim_functions(runtime: str) -> set:
    """The aoti_* functions ``runtime`` (the aotstudio-run-lite executable) provides."""
    return set(_run([runtime, "--abi"])["functions"])


def undefined_symbols(package: str) -> list:
    """The unversioned undefined dynamic symbols of ``package``'s compiled model (its one
    ``data/aotinductor/model/*.so``), read with ``nm -D --undefined-only``; sorted."""
    nm = shutil.which("nm")
    if nm is None:
        raise FrontendError("failed", "compile", "binutils' nm is not installed: the package's undefined symbols "
                            "cannot be listed", "apt-get install binutils")
    with zipfile.ZipFile(package) as z, tempfile.TemporaryDirectory(prefix="aotstudio-lite-") as tmp:
        libs = [n for n in z.namelist() if "/data/aotinductor/model/" in n and n.endswith(".so")]
        if len(libs) != 1:
            raise FrontendError("failed", "compile", f"package '{package}' holds {len(libs)} compiled models; "
                                "an AOTInductor CPU package has one", "")
        so = z.extract(libs[0], tmp)
        out = subprocess.run([nm, "-D", "--undefined-only", so], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise FrontendError("failed", "compile", f"nm could not read the package's model: {one_line(out.stderr)}", "")
    names = []
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[-2] == "U" and "@" not in parts[-1]:
            names.append(parts[-1])
    return sorted(set(names))


def missing_functions(package: str, runtime: str) -> list:
    """The ``aoti_*`` functions ``package`` calls that ``runtime`` does not provide (empty: it runs
    there). Other unversioned symbols (SLEEF's vector math) come from libraries the runtime opens."""
    provided = shim_functions(runtime)
    return [s for s in undefined_symbols(package) if s.startswith("aoti_") and s not in provided]


def verify_in_runtime(job, verifier, runtime: str) -> dict:
    """Run ``job.package`` in ``runtime`` (aotstudio-run-lite --package) on verify's inputs (the
    example and the seeded ones; a stateful model's second call is left out: each run is a fresh
    process) and compare each output with eager's on the same values; FrontendError("mismatch")
    above ``job.tolerance``. Returns {"runtime", "calls", "max_abs_error", "tolerance", "passed"}."""
    worst = 0.0
    calls = 0
    with tempfile.TemporaryDirectory(prefix="aotstudio-lite-verify-") as tmp:
        for index, call in enumerate(verifier.calls):
            if call.get("skipped") or call["source"].endswith("second call"):
                continue
            inputs = tuple(t.detach().clone() for t in call["inputs"])
            with torch.inference_mode():
                eager = [t.clone() for _, t in named_tensors(job.model(*tuple(t.clone() for t in inputs)))]
            src, dst = os.path.join(tmp, f"in{index}.pt"), os.path.join(tmp, f"out{index}.pt")
            torch.save(list(inputs), src)
            _run([runtime, "--package", job.package, "--input", src, "--save-outputs", dst, "--json"])
            outputs = torch.load(dst)
            if len(outputs) != len(eager):
                raise FrontendError("mismatch", "verify", f"aotstudio-run-lite returned {len(outputs)} outputs, eager "
                                    f"{len(eager)}", "this is a bug of the lite runtime; export with --runtime libtorch")
            for got, want in zip(outputs, eager):
                if tuple(got.shape) != tuple(want.shape):
                    raise FrontendError("mismatch", "verify", f"aotstudio-run-lite returned shape {list(got.shape)}, "
                                        f"eager {list(want.shape)}", "export with --runtime libtorch")
                err = compare(got, want)["max_abs_error"]
                worst = err if err != err or err > worst else worst
            calls += 1
    passed = worst <= job.tolerance
    result = {"runtime": "lite", "calls": calls, "max_abs_error": worst, "tolerance": job.tolerance, "passed": passed}
    if not passed:
        raise FrontendError("mismatch", "verify", f"the package in aotstudio-run-lite differs from eager by {worst:.3g} "
                            f"(max abs over {calls} calls; tolerance {job.tolerance:.3g})",
                            "the lite runtime's shim computes differently: export with --runtime libtorch")
    job.log("info", f"verify in aotstudio-run-lite: {calls} calls, largest difference from eager {worst:.3g} "
                    f"(tolerance {job.tolerance:.3g})")
    return result
