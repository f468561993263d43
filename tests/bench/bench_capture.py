# SPDX-License-Identifier: GPL-3.0-or-later
"""Overhead of recording a script's module calls (capture.py, issue 39): the same script (1,000
calls of a small MLP, batch 8, one thread) run alternately without and with recording, N pairs,
the order swapped every pair. Per pair the ratio recorded / plain of (a) the whole process's wall
time and (b) the script's own timing of its 1,000-call loop; printed as the median with a
distribution-free 95% interval (order statistics of the binomial: the median lies between the
k-th smallest and k-th largest ratio), plus the loop's overhead per call in microseconds and the
record's size per 1,000 calls.

Two ways of starting the recorder are measured: ``python -m aotstudio_frontend.capture`` (imports
the package, whose __init__ imports job.py and with it sympy) and ``python .../capture.py`` (the
module alone).
    .venv/bin/python tests/bench/bench_capture.py [--pairs 10] [--calls 1000]"""

import argparse
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PYTHON_DIR = os.path.join(ROOT, "core", "python")

APP = """
import sys, time
import torch
from torch import nn
torch.set_num_threads(1)
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
x = torch.randn(8, 64)
with torch.no_grad():
    for _ in range(20):
        model(x)
    t = time.perf_counter()
    for _ in range({calls}):
        model(x)
    loop = time.perf_counter() - t
print("LOOP", loop)
"""


def interval(values: list, level: float = 0.95) -> tuple:
    """A distribution-free interval for the median of ``values``: (x_(k), x_(n-k+1)) with the
    largest k whose coverage 1 - 2 P(Binomial(n, 1/2) < k) is at least ``level``; (min, max) when
    n is too small for that level (the coverage is then said)."""
    xs, n = sorted(values), len(values)

    def below(k):  # P(B < k), B ~ Binomial(n, 1/2)
        return sum(math.comb(n, i) for i in range(k)) / 2 ** n
    k = 1
    while k + 1 <= n // 2 and 1 - 2 * below(k + 1) >= level:
        k += 1
    return xs[k - 1], xs[n - k], 1 - 2 * below(k)


def run(cmd: list, env: dict) -> tuple:
    t = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    loop = float(next(line.split()[1] for line in proc.stdout.splitlines() if line.startswith("LOOP")))
    return wall, loop


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--calls", type=int, default=1000)
    opts = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="aotstudio-bench-capture-")
    app = os.path.join(tmp, "app.py")
    with open(app, "w") as f:
        f.write(APP.format(calls=opts.calls))
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR, OMP_NUM_THREADS="1")
    out = os.path.join(tmp, "rec")
    plain = [sys.executable, app]
    modes = {
        "-m aotstudio_frontend.capture": [sys.executable, "-m", "aotstudio_frontend.capture", "record",
                                          "--script", app, "--module", "model", "--out", out],
        "capture.py as a file": [sys.executable, os.path.join(PYTHON_DIR, "aotstudio_frontend", "capture.py"),
                                 "record", "--script", app, "--module", "model", "--out", out],
    }
    run(plain, env)  # warm the file cache
    results = {m: {"wall": [], "loop": [], "per_call_us": []} for m in modes}
    for i in range(opts.pairs):
        for mode, cmd in modes.items():
            if i % 2 == 0:
                base, rec = run(plain, env), run(cmd, env)
            else:
                rec, base = run(cmd, env), run(plain, env)
            r = results[mode]
            r["wall"].append(rec[0] / base[0])
            r["loop"].append(rec[1] / base[1])
            r["per_call_us"].append((rec[1] - base[1]) / (opts.calls + 20) * 1e6)
    print(f"{opts.pairs} pairs, {opts.calls} calls of Linear(64,128)-ReLU-Linear(128,10) at batch 8, one thread; "
          f"python {sys.version.split()[0]}")
    for mode, r in results.items():
        print(f"recorder started as {mode}:")
        for key, label in (("wall", "whole process wall time"), ("loop", "the script's 1,000-call loop")):
            lo, hi, cover = interval(r[key])
            print(f"  {label}: median ratio {statistics.median(r[key]):.3f} "
                  f"({cover:.1%} interval {lo:.3f} .. {hi:.3f})")
        lo, hi, cover = interval(r["per_call_us"])
        print(f"  overhead per call: median {statistics.median(r['per_call_us']):.2f} us "
              f"({cover:.1%} interval {lo:.2f} .. {hi:.2f})")
    size = os.path.getsize(os.path.join(out, "calls.jsonl"))
    inputs = sum(os.path.getsize(os.path.join(out, "inputs", f)) for f in os.listdir(os.path.join(out, "inputs")))
    calls = opts.calls + 20
    print(f"record: calls.jsonl {size} bytes for {calls} calls = {size * 1000 / calls / 1024:.1f} KiB per 1,000 "
          f"calls; kept inputs {inputs} bytes (one signature, --keep-inputs 2)")
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
