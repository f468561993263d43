#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What recording the memory plan and the fusion decisions (compileplan.py) costs a compile.

For each model spec: export once, compile once untimed, then compile cold (no compile cache, no
ccache) ROUNDS times with the recorder and ROUNDS times with a recorder that records nothing,
alternating (on-off, off-on, ...). Prints per model:
the compile stage's median seconds each way, the recorder's own time (memory.json ``seconds``: its
hooks plus writing the files), the time Inductor's scheduler took each way (``Scheduler.__init__``,
where fusion runs: the debug-level ``fusion`` log makes Inductor format extra text there), and the
overhead as a share of the compile: (recorder seconds + scheduler delta) / compile seconds.

Run: .venv/bin/python tools/bench-plan.py [--rounds 2] sample:mlp sample:convnet sample:resnet18
Output lines are "name: value unit" like tests/bench."""

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core", "python"))

from torch._inductor import scheduler as sched_mod  # noqa: E402

from aotstudio_frontend import compileplan, job  # noqa: E402


class _Off:
    """A recorder that records nothing (the compile as it was before compileplan)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def raw(self):
        return {"graphs": [], "refusals": [], "candidates": [], "op_names": {}, "problems": ["off"],
                "hook_seconds": 0.0}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("models", nargs="+")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    scheduler_seconds = []
    original_init = sched_mod.Scheduler.__init__

    def timed_init(self, *a, **k):
        started = time.perf_counter()
        try:
            return original_init(self, *a, **k)
        finally:
            scheduler_seconds.append(time.perf_counter() - started)

    sched_mod.Scheduler.__init__ = timed_init
    real = compileplan.PlanRecorder
    for spec in args.models:
        out = tempfile.mkdtemp(prefix="aotstudio-bench-plan-")
        j = job.CompileJob({"model": spec, "out": out, "staging": False, "cache": False, "snapshots": False},
                           lambda level, message: None)
        try:
            j.load()
            j.export()
            figures = {"on": [], "off": []}
            # One untimed compile first: a process's first compile also pays one-time costs
            # (imports, Inductor's ISA probe), which would land on whichever mode ran first.
            j.compile()
            for index in range(args.rounds):
                for mode in (("on", "off") if index % 2 == 0 else ("off", "on")):
                    compileplan.PlanRecorder = real if mode == "on" else _Off
                    scheduler_seconds.clear()
                    started = time.perf_counter()
                    compiled = j.compile()
                    seconds = time.perf_counter() - started
                    figures[mode].append((seconds, sum(scheduler_seconds), compiled["memory"].get("seconds") or 0.0))
        finally:
            compileplan.PlanRecorder = real
            j.close()
            shutil.rmtree(out, ignore_errors=True)
        name = spec.replace(":", "_")
        on = statistics.median(f[0] for f in figures["on"])
        off = statistics.median(f[0] for f in figures["off"])
        sched_on = statistics.median(f[1] for f in figures["on"])
        sched_off = statistics.median(f[1] for f in figures["off"])
        recorder = statistics.median(f[2] for f in figures["on"])
        share = (recorder + max(0.0, sched_on - sched_off)) / on
        print(f"{name}_compile_with_plan: {on:.2f} s")
        print(f"{name}_compile_without_plan: {off:.2f} s")
        print(f"{name}_recorder: {recorder * 1000:.1f} ms")
        print(f"{name}_scheduler_with_plan: {sched_on * 1000:.1f} ms")
        print(f"{name}_scheduler_without_plan: {sched_off * 1000:.1f} ms")
        print(f"{name}_overhead_share: {share * 100:.2f} %")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
