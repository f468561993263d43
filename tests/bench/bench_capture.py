# SPDX-License-Identifier: GPL-3.0-or-later
"""Overhead of recording a script's module calls (capture.py, issue 39): the same script run
alternately without and with recording, N pairs, the order swapped every pair, for two workloads
of FORMAT.md's samples: ``mlp`` (1,000 calls of sample:mlp at batch 8) and ``minilm`` (100 calls
of sample:minilm, the real all-MiniLM-L6-v2, its 4 sentences cut to 1..4 rows: four input
signatures), one thread. Per pair the ratio recorded / plain of (a) the whole process's wall time
and (b) the script's own timing of its call loop; printed as the median with a distribution-free
95% interval (order statistics of the binomial: the median lies between the k-th smallest and k-th
largest ratio), plus the loop's overhead per call in microseconds and the record's size per
1,000 calls. Each process is a fresh one, so the pairs are what makes the comparison fair; the
machine's load (os.getloadavg, usable CPUs) before and after is printed with a verdict in the
spirit of core/profiler/machine.h: "unreliable" when others' runnable work exceeds the CPUs.

The recorder starts as the engine starts it: ``python -m aotstudio_frontend.capture record``.
    .venv/bin/python tests/bench/bench_capture.py [--pairs 10] [--workloads mlp,minilm]"""

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

#: The scripts: ``{build}`` makes model and x, ``{call}`` one call of iteration i.
APPS = {
    "mlp": {"calls": 1000, "label": "sample:mlp at batch 8",
            "build": "model, (x,) = samples.mlp()", "call": "model(x)"},
    "minilm": {"calls": 100, "label": "sample:minilm, 1..4 sentences per call",
               "build": "model, (ids, mask) = samples.minilm()",
               "call": "model(ids[: 1 + i % 4], mask[: 1 + i % 4])"},
}

APP = """
import sys, time
import torch
from aotstudio_frontend import samples
torch.set_num_threads(1)
{build}
with torch.no_grad():
    for i in range(20):
        {call}
    t = time.perf_counter()
    for i in range({calls}):
        {call}
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


def load_verdict(before: tuple, after: tuple) -> str:
    """ok / noisy / unreliable from the 1-minute load average around the run (this benchmark's one
    busy thread taken out) against the usable CPUs, after core/profiler/machine.h's
    oversubscription rule (on the load average instead of procs_running): others at or above every
    CPU, unreliable; above the CPUs left free by 0.5 or more, noisy."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    others = max(before[0], after[0]) - 1.0
    where = f"load {before[0]:.2f} -> {after[0]:.2f} on {cpus} usable CPUs"
    if others >= cpus:
        return f"unreliable: {where} (oversubscribed: the ratios are not a fair measurement)"
    if others >= cpus - 1 + 0.5:
        return f"noisy: {where}"
    return f"ok: {where}"


def bench(name: str, pairs: int, tmp: str, env: dict) -> None:
    spec = APPS[name]
    app = os.path.join(tmp, f"{name}.py")
    with open(app, "w") as f:
        f.write(APP.format(build=spec["build"], call=spec["call"], calls=spec["calls"]))
    out = os.path.join(tmp, f"rec-{name}")
    plain = [sys.executable, app]
    recorded = [sys.executable, "-m", "aotstudio_frontend.capture", "record", "--script", app, "--module", "model",
                "--out", out]
    run(plain, env)  # warm the file cache
    before = os.getloadavg()
    r = {"wall": [], "loop": [], "per_call_us": []}
    for i in range(pairs):
        if i % 2 == 0:
            base, rec = run(plain, env), run(recorded, env)
        else:
            rec, base = run(recorded, env), run(plain, env)
        r["wall"].append(rec[0] / base[0])
        r["loop"].append(rec[1] / base[1])
        r["per_call_us"].append((rec[1] - base[1]) / spec["calls"] * 1e6)
    after = os.getloadavg()
    print(f"{name}: {pairs} pairs, {spec['calls']} calls of {spec['label']}, one thread; "
          f"python {sys.version.split()[0]}")
    for key, label in (("wall", "whole process wall time"), ("loop", f"the script's {spec['calls']}-call loop")):
        lo, hi, cover = interval(r[key])
        print(f"  {label}: median ratio recorded/plain {statistics.median(r[key]):.3f} "
              f"({cover:.1%} interval {lo:.3f} .. {hi:.3f})")
    lo, hi, cover = interval(r["per_call_us"])
    print(f"  overhead per call: median {statistics.median(r['per_call_us']):.2f} us "
          f"({cover:.1%} interval {lo:.2f} .. {hi:.2f})")
    size = os.path.getsize(os.path.join(out, "calls.jsonl"))
    folder = os.path.join(out, "inputs")
    inputs = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder)) if os.path.isdir(folder) else 0
    calls = spec["calls"] + 20
    print(f"  record: calls.jsonl {size} bytes for {calls} calls = {size * 1000 / calls / 1024:.1f} KiB per 1,000 "
          f"calls; kept inputs {inputs} bytes (--keep-inputs 2 per signature)")
    print(f"  machine: {load_verdict(before, after)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--workloads", default="mlp,minilm", help="comma-separated: " + ", ".join(APPS))
    opts = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="aotstudio-bench-capture-")
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR, OMP_NUM_THREADS="1", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    try:
        for name in opts.workloads.split(","):
            bench(name.strip(), opts.pairs, tmp, env)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
