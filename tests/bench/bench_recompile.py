# SPDX-License-Identifier: GPL-3.0-or-later
"""Recompile times with the compile cache (issue 38 item 3; compilecache.py): per model, each in a
fresh process as a CLI compile is, through CompileJob's load, export, decompose and compile stages
(the C++ verify and measure stages are left out; they do not change with the cache):

  off        cache: false, today's compile (plain C++ compiler, no package cache)
  cold       cache on, an empty $AOTSTUDIO_CACHE_DIR (package cache and ccache empty)
  identical  the same request again: a package cache hit
  option     one Inductor option changed that leaves the generated C++ as it was
             (compile_threads): a package miss, the C++ from ccache
  freezing   freezing toggled: a package miss, new C++ (ccache hits only where it is the same)

Prints one row per run (wall seconds of the four stages, of the compile stage alone, and the
reuse figures) and each row's share of the cold compile. With --one-process every case runs in one
process after an untimed warm-up compile (sample:mlp at another batch), as in the studio's long-lived engine:
Inductor's once-per-process costs (lazy imports, its vector-ISA probe build, ~3 s here) are then
in no row. Inductor's precompiled headers live in
its own temporary folder and are built once per machine and compiler path; they are not part of
any row (the first run on a machine pays ~15 s more, in whichever row comes first).
  .venv/bin/python tests/bench/bench_recompile.py [--models sample:mlp,sample:convnet] [--repeat 1]
                                                  [--one-process]"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FRONTEND = os.path.join(ROOT, "core", "python")

CASES = (
    ("off", {"cache": False}),
    ("cold", {}),
    ("identical", {}),
    ("option", {"inductor": {"compile_threads": 1}}),
    ("freezing", {"freezing": True}),
)


def compile_once(request: dict) -> dict:
    """load, export, decompose and compile ``request`` in this process; returns its figures."""
    from aotstudio_frontend import job
    out = tempfile.mkdtemp()
    lines = []
    j = job.CompileJob(dict(request, out=out, staging=True), lambda level, message: lines.append(str(message)))
    try:
        t0 = time.perf_counter()
        j.load()
        j.export()
        j.decompose()
        t1 = time.perf_counter()
        compiled = j.compile()
        t2 = time.perf_counter()
    finally:
        j.close()
        shutil.rmtree(out, ignore_errors=True)
    return {"stages_seconds": t2 - t0, "compile_seconds": t2 - t1, "reuse": compiled["reuse"]}


def child(requests: list) -> None:
    """The compiles of ``requests`` in this process, in order; prints each one's figures as a JSON
    line (a request with "warm_up" is compiled and not printed)."""
    sys.path.insert(0, FRONTEND)
    for request in requests:
        warm_up = request.pop("warm_up", False)
        figures = compile_once(request)
        if not warm_up:
            print(json.dumps(figures), flush=True)


def run(requests: list, cache_root: str) -> list:
    env = dict(os.environ, AOTSTUDIO_CACHE_DIR=cache_root, PYTHONPATH=FRONTEND)
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", json.dumps(requests)],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise SystemExit(f"{requests}: the compile failed:\n{r.stderr[-3000:]}")
    return [json.loads(line) for line in r.stdout.strip().splitlines() if line.startswith("{")]


def row(model: str, name: str, r: dict, cold: dict) -> None:
    share = f"{100 * r['stages_seconds'] / cold['stages_seconds']:.0f}%" if cold else "-"
    reuse, cc = r["reuse"], r["reuse"]["ccache"]
    print(f"{model:<16}{name:<11}{r['stages_seconds']:>9.1f}{r['compile_seconds']:>10.1f}{share:>9}  "
          f"package {reuse['package']}"
          + (f", ccache {cc['hits']} hits {cc['misses']} misses" if cc else "")
          + (f", ~{reuse['seconds_saved_estimate']:.1f} s saved" if reuse["seconds_saved_estimate"] else ""),
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="sample:mlp,sample:convnet")
    parser.add_argument("--repeat", type=int, default=1, help="runs of the whole sequence per model")
    parser.add_argument("--one-process", action="store_true", help="all cases in one process, after a warm-up")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(json.loads(args.child))
        return
    print(f"{'model':<16}{'case':<11}{'stages s':>9}{'compile s':>10}{'of cold':>9}  reuse")
    for model in args.models.split(","):
        for _ in range(args.repeat):
            cache_root = tempfile.mkdtemp(prefix="aotstudio-bench-cache-")
            requests = [dict({"model": model}, **change) for _name, change in CASES]
            try:
                if args.one_process:
                    # Another compile first (sample:mlp at another batch: other C++, so no cache entry
                    # or ccache result of the rows below), as an engine that already compiled once.
                    warm = {"model": "sample:mlp", "shapes": {"0": [3, 64]}, "warm_up": True}
                    results = run([warm] + requests, cache_root)
                else:
                    results = [run([request], cache_root)[0] for request in requests]
                cold = None
                for (name, _change), r in zip(CASES, results):
                    cold = r if name == "cold" else cold
                    row(model, name, r, cold)
            finally:
                shutil.rmtree(cache_root, ignore_errors=True)


if __name__ == "__main__":
    main()
