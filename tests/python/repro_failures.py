# SPDX-License-Identifier: GPL-3.0-or-later
"""Repros of planted failures (repro.py; FORMAT.md "Repro", issue 40 item 3): Inductor's
``cpp.inject_relu_bug_TESTING_ONLY`` makes sample:mlp's generated C++ fail to compile
(``compile_error``) or compute a wrong relu (``accuracy``, a verify mismatch). Each repro folder is
run once in a fresh process and must reproduce within the stated bound; the accuracy repro with the
planted option removed from its Inductor options must say it did not reproduce. A numerics
divergence in bf16 (sample:mlp at a planted tolerance of 1e-4, below bf16's rounding) is reproduced
on its first divergent node alone, eagerly and through AOTInductor; at a tolerance above the
node's error the same repro must say it did not reproduce.

Cost: two compiles in this process and four in fresh processes (sample:mlp, no compile cache,
no ccache; the numerics one a single node) plus two eager runs: about 110 s on an idle 2-core
machine, 5 minutes beside a parallel build, hence the slow tier (py_repro, label slow).
Run: .venv/bin/python tests/python/repro_failures.py"""

import json
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "core", "python"))

import torch  # noqa: E402
import torch.utils._pytree as pytree  # noqa: E402

from aotstudio_frontend import job, repro  # noqa: E402
from aotstudio_frontend.errors import FrontendError  # noqa: E402

#: The confirming run (a fresh Python importing torch and compiling sample:mlp) must end within this.
BOUND_S = 300.0


def planted_job(testcase, bug: str):
    out = tempfile.mkdtemp(prefix="aotstudio-repro-test-")
    testcase.addCleanup(shutil.rmtree, out, True)
    j = job.CompileJob({"model": "sample:mlp", "out": out, "cache": False, "snapshots": False, "verify_samples": 1,
                        "inductor": {"cpp.inject_relu_bug_TESTING_ONLY": bug}}, lambda level, message: None)
    testcase.addCleanup(j.close)
    j.load()
    j.export()
    return j, out


def verify_in_python(j) -> dict:
    """The verify stage as compilejob.cpp runs it, with the package run from Python."""
    runner = torch._inductor.aoti_load_package(j.package)
    for index in range(j.verify_begin()):
        inputs = [torch.from_dlpack(c) for c in j.verify_inputs(index)]
        leaves = pytree.tree_leaves(runner(*inputs))
        j.verify_outputs(index, [torch.utils.dlpack.to_dlpack(t.contiguous()) for t in leaves])
    return j.verify_end()


def failure_of(exc: FrontendError) -> dict:
    """The error as the engine reports it (and error.json holds it)."""
    return {"stage": exc.stage, "code": exc.code, "message": exc.message}


class ReproTest(unittest.TestCase):
    def check_folder(self, record: dict):
        folder = record["folder"]
        for name in ("program.pt2", "inputs.pt", "inductor_configs.json", "repro.py", "README.md", "repro.json"):
            self.assertTrue(os.path.isfile(os.path.join(folder, name)), name)
        with open(os.path.join(folder, "inductor_configs.json"), encoding="utf-8") as f:
            configs = json.load(f)
        self.assertNotIn("trace.debug_dir", configs)  # nothing that points into the original job
        self.assertIn("cpp.inject_relu_bug_TESTING_ONLY", configs)
        self.assertLess(record["bytes"], 5 * 1024 * 1024)

    def test_compile_error(self):
        j, out = planted_job(self, "compile_error")
        with self.assertRaises(FrontendError) as caught:
            j.compile()
        failure = failure_of(caught.exception)
        self.assertEqual(failure["code"], "compile_failed")
        record = repro.write(j, os.path.join(out, "repro"), failure)
        self.check_folder(record)
        self.assertIsNone(record["reproduced"])
        record = repro.confirm(record, timeout=BOUND_S)
        self.assertTrue(record["reproduced"], record["run"])
        self.assertIn("compile failed", record["run"]["line"])
        self.assertLess(record["run"]["seconds"], BOUND_S)

    def test_accuracy_error(self):
        j, out = planted_job(self, "accuracy")
        j.compile()
        with self.assertRaises(FrontendError) as caught:
            verify_in_python(j)
        failure = failure_of(caught.exception)
        self.assertEqual(failure["code"], "mismatch")
        record = repro.confirm(repro.write(j, os.path.join(out, "repro"), failure), timeout=BOUND_S)
        self.check_folder(record)
        self.assertTrue(record["reproduced"], record["run"])
        self.assertIn("differs from eager", record["run"]["line"])
        self.assertLess(record["run"]["seconds"], BOUND_S)
        # Without the planted option the same program compiles and matches: said, not hidden.
        configs_path = os.path.join(record["folder"], "inductor_configs.json")
        with open(configs_path, encoding="utf-8") as f:
            configs = json.load(f)
        configs.pop("cpp.inject_relu_bug_TESTING_ONLY")
        with open(configs_path, "w", encoding="utf-8") as f:
            json.dump(configs, f)
        again = repro.confirm(record, timeout=BOUND_S)
        self.assertIs(again["reproduced"], False, again["run"])
        self.assertEqual(again["run"]["outcome"], "not_reproduced")

    def test_numerics_divergence_bf16(self):
        out = tempfile.mkdtemp(prefix="aotstudio-repro-test-")
        self.addCleanup(shutil.rmtree, out, True)
        j = job.CompileJob({"model": "sample:mlp", "out": out, "cache": False, "snapshots": False, "dtype": "bf16"},
                           lambda level, message: None)
        self.addCleanup(j.close)
        j.load()
        j.export()
        # The numerics job's reference and eager stages (numericsjob.cpp's order), at a tolerance
        # below bf16's rounding: the first node past it is the planted divergence.
        n = j.numerics
        n.begin(1e-4)
        n.run_reference()
        n.run_eager()
        numerics = n.report()
        first = numerics["first_divergent"]["eager"]
        self.assertIsNotNone(first, numerics["verdict"])
        failure = {"stage": "numerics", "code": "divergence", "message": numerics["verdict"]}
        record = repro.write_numerics(j, os.path.join(out, "repro"), failure, numerics)
        for name in ("program.pt2", "inputs.pt", "reference.pt", "inductor_configs.json", "repro.py", "README.md"):
            self.assertTrue(os.path.isfile(os.path.join(record["folder"], name)), name)
        self.assertEqual(record["node"], first["node"])
        self.assertEqual(record["side"], "eager")
        self.assertEqual(record["dtype"], "bfloat16")
        self.assertTrue(record["minimized"])
        # The one-node program takes the node's inputs in bf16.
        inputs = torch.load(os.path.join(record["folder"], "inputs.pt"))
        self.assertTrue(all(t.dtype == torch.bfloat16 for t in inputs if t.is_floating_point()))
        record = repro.confirm(record, timeout=BOUND_S)
        self.assertTrue(record["reproduced"], record["run"])
        self.assertIn("norm_error", record["run"]["line"])
        self.assertLess(record["run"]["seconds"], BOUND_S)

        # The compiled side: the same node through AOTInductor in the fresh process.
        compiled = dict(numerics, first_divergent={"eager": None, "compiled": first})
        record = repro.confirm(repro.write_numerics(j, os.path.join(out, "repro-compiled"), failure, compiled),
                               timeout=BOUND_S)
        self.assertEqual(record["side"], "compiled")
        self.assertTrue(record["reproduced"], record["run"])

        # A tolerance above the node's error: the same node does not diverge alone, said plainly.
        loose = dict(numerics, tolerance=0.5)
        record = repro.confirm(repro.write_numerics(j, os.path.join(out, "repro-loose"), failure, loose),
                               timeout=BOUND_S)
        self.assertIs(record["reproduced"], False, record["run"])
        self.assertIn("NOT REPRODUCED", record["run"]["line"])

        # No divergent node: refused with a message, nothing written.
        with self.assertRaises(ValueError):
            repro.write_numerics(j, os.path.join(out, "repro-none"), failure,
                                 dict(numerics, first_divergent={"eager": None, "compiled": None}))
        self.assertFalse(os.path.exists(os.path.join(out, "repro-none")))


if __name__ == "__main__":
    unittest.main(verbosity=2)
