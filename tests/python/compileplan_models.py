# SPDX-License-Identifier: GPL-3.0-or-later
"""The memory plan and fusion decisions (compileplan.py; FORMAT.md "Memory plan", "Fusion
decisions") on small models with a known plan, each compiled once with AOTInductor for the CPU:

- ``chain``: three square matmuls. Inductor's wrapper gives the third product the storage of the
  first (freed one step before: a ReuseLine), so the generated code holds two buffers at a time.
- ``skip``: relu(x @ w0) is added to the end of a three-matmul chain: its buffer lives from its
  kernel to the last one (Inductor folds the add into an addmm) and is live at the peak; the
  chain's first product is freed before.
- ``reduction``: x / x.sum(): the C++ backend does not fuse the pointwise consumer into the global
  reduction (it logs no reason; the recorder reports it as a ``backend`` refusal with the ranges).

Cost: three real AOTInductor compiles (no compile cache, no ccache): 35 s on an idle 2-core
machine, 3.5 minutes beside a parallel build (tests/CMakeLists.txt: py_compileplan, label
integration).
Run: .venv/bin/python tests/python/compileplan_models.py"""

import json
import os
import shutil
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "core", "python"))

import torch  # noqa: E402

from aotstudio_frontend import job  # noqa: E402

N = 64  # rows and columns of every matrix: one buffer is N * N * 4 bytes
BUF = N * N * 4


class Chain(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.ParameterList([torch.nn.Parameter(torch.randn(N, N)) for _ in range(3)])

    def forward(self, x):
        return x @ self.w[0] @ self.w[1] @ self.w[2]


class Skip(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.ParameterList([torch.nn.Parameter(torch.randn(N, N)) for _ in range(4)])

    def forward(self, x):
        a = torch.relu(x @ self.w[0])
        return ((a @ self.w[1]) @ self.w[2]) @ self.w[3] + a


class Reduction(torch.nn.Module):
    def forward(self, x):
        return x / x.sum()


def make_chain():
    return Chain().eval(), (torch.randn(N, N),)


def make_skip():
    return Skip().eval(), (torch.randn(N, N),)


def make_reduction():
    return Reduction().eval(), (torch.randn(N, N),)


def compile_model(factory: str, out: str) -> dict:
    """One cold compile of ``factory`` in this file into ``out``: the compile stage's result."""
    j = job.CompileJob({"model": f"{os.path.abspath(__file__)}:{factory}", "out": out, "staging": True,
                        "cache": False, "snapshots": False, "recipe": "defaults"}, lambda level, message: None)
    try:
        j.load()
        j.export()
        started = time.perf_counter()
        compiled = j.compile()
        compiled["_seconds"] = time.perf_counter() - started
        return j.commit(compiled)
    finally:
        j.close()


class PlanTestCase(unittest.TestCase):
    factory = None

    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(prefix="aotstudio-plan-test-")
        cls.compiled = compile_model(cls.factory, cls.out)
        with open(os.path.join(cls.out, "memory.json"), encoding="utf-8") as f:
            cls.memory = json.load(f)
        with open(os.path.join(cls.out, "fusion.json"), encoding="utf-8") as f:
            cls.fusion = json.load(f)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, ignore_errors=True)

    def buffer_of(self, node: str) -> dict:
        """The buffer whose writer came from post-grad node ``node``."""
        found = [b for b in self.memory["buffers"] if node in b["nodes"]]
        self.assertTrue(found, f"no buffer holds {node}: {[b['nodes'] for b in self.memory['buffers']]}")
        return found[0]

    def check_common(self):
        m, f = self.memory, self.fusion
        self.assertTrue(m["available"] and m["complete"], m.get("partial"))
        self.assertTrue(f["available"] and f["complete"], f.get("partial"))
        self.assertEqual(self.compiled["memory"]["path"], os.path.join(self.out, "memory.json"))
        self.assertEqual(self.compiled["memory"]["predicted_peak_bytes"], m["peak"]["predicted_bytes"])
        self.assertEqual(len(m["steps"]), len([s for s in m["steps"] if "live_bytes" in s]))
        self.assertEqual(max(s["live_bytes"] for s in m["steps"]), m["peak"]["predicted_bytes"])
        self.assertEqual(max(s["planned_live_bytes"] for s in m["steps"]), m["peak"]["planned_bytes"])
        self.assertLessEqual(m["peak"]["planned_bytes"], m["peak"]["predicted_bytes"])
        # Weights apart: never among the buffers.
        names = {b["name"] for b in m["buffers"]}
        self.assertFalse(names & {c["name"] for c in m["constants"]})
        # Producing the plan costs little next to the compile (the target is 5%).
        self.assertLess(m["seconds"], 0.05 * self.compiled["_seconds"] + 0.5)


class ChainTest(PlanTestCase):
    factory = "make_chain"

    def test_plan(self):
        self.check_common()
        m = self.memory
        self.assertEqual(len(m["steps"]), 3)
        self.assertEqual([c["bytes"] for c in m["constants"]], [BUF] * 3)
        first, second, third = (self.buffer_of(n) for n in ("mm", "mm_1", "mm_2"))
        # Lifetimes along the kernel order: each product is read by the next step only.
        self.assertEqual((first["first_step"], first["last_step"]), (0, 1))
        self.assertEqual((second["first_step"], second["last_step"]), (1, 2))
        self.assertTrue(third["is_output"])
        self.assertIsNone(third["last_step"])
        # The third takes the first's storage: the generated code never holds three.
        self.assertEqual(third["allocation"], "reuse")
        self.assertEqual(third["reuses"], first["name"])
        self.assertTrue(first["freed_into_reuse"])
        self.assertEqual(m["peak"]["planned_bytes"], 2 * BUF)
        self.assertEqual({b["name"] for b in m["peak"]["planned"]["live_buffers"]}, {first["name"], second["name"]})
        # Every step is a library call joined to its kernels.json entry.
        self.assertTrue(all(s["kernel_kind"] == "library" for s in m["steps"]), m["steps"])
        self.assertEqual(first["writer_kernel"], m["steps"][0]["kernel"])


class SkipTest(PlanTestCase):
    factory = "make_skip"

    def test_plan(self):
        self.check_common()
        m = self.memory
        kept = self.buffer_of("relu")
        middle = self.buffer_of("mm_1")
        last = len(m["steps"]) - 1
        # The skip's buffer lives from its kernel to the last one (the add reads it) ...
        self.assertEqual(kept["last_step"], last)
        self.assertGreaterEqual(last - kept["first_step"], 2)
        # ... the chain's middle product is freed before the end ...
        self.assertLess(middle["last_step"], last)
        # ... and the skip's buffer is live at the peak, its node named among those responsible.
        for peak in ("predicted", "planned"):
            live = {b["name"] for b in m["peak"][peak]["live_buffers"]}
            self.assertIn(kept["name"], live, peak)
            self.assertIn("relu", m["peak"][peak]["live_nodes"], peak)


class ReductionTest(PlanTestCase):
    factory = "make_reduction"

    def test_fusion(self):
        self.check_common()
        f = self.fusion
        refused = [r for r in f["refused"] if "sum_1" in r["nodes1"] and "div" in r["nodes2"]]
        self.assertTrue(refused, f["refused"])
        r = refused[0]
        self.assertEqual(r["category"], "backend")
        self.assertIn("reduction", r["reason"])
        self.assertEqual(f["by_category"].get("backend"), len([x for x in f["refused"] if x["category"] == "backend"]))
        self.assertEqual(self.compiled["fusion"]["by_category"], f["by_category"])
        status = {n["node"]: n for n in f["nodes"]}
        self.assertEqual(status["div"]["status"], "refused")
        self.assertIn(f["refused"].index(r), status["div"]["refusals"])
        # The reduction's one-element buffer lives until the division reads it.
        total = self.buffer_of("sum_1")
        self.assertEqual(total["bytes"], 4)
        self.assertEqual(total["last_reader"], self.memory["steps"][-1]["name"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
