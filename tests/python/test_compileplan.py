# SPDX-License-Identifier: GPL-3.0-or-later
"""compileplan.py without a compile (the compiled models are in compileplan_models.py, slow tier):
a missing plan is said plainly and labelled, a torch without the hooked methods gives a labelled
partial record, and Inductor's reason texts map to their categories."""

import json
import os
import shutil
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "core", "python"))

from aotstudio_frontend import compileplan  # noqa: E402


class UnavailableTest(unittest.TestCase):
    """No compile: the plan's absence is said plainly and labelled."""

    def test_cache_entry_without_plan(self):
        work = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, work, True)
        summary = compileplan.build_files(work, None, os.path.join(work, "trace"), None, "cpu", reused=True)
        self.assertFalse(summary["memory"]["available"])
        self.assertIn("compile cache entry", summary["memory"]["reason"])
        with open(os.path.join(work, "memory.json"), encoding="utf-8") as f:
            doc = json.load(f)
        self.assertEqual((doc["format"], doc["available"], doc["complete"]), ("aotstudio.memory", False, False))

    def test_torch_without_the_hooks(self):
        from torch._inductor.codegen import wrapper
        with mock.patch.object(wrapper, "PythonWrapperCodegen", type("Bare", (), {})):
            with compileplan.PlanRecorder() as recorder:
                pass
        self.assertTrue(any("no memory plan" in p for p in recorder.problems), recorder.problems)

    def test_categories(self):
        self.assertEqual(compileplan.category("intermediate nodes between node1 & node2"), "intermediate_nodes")
        self.assertEqual(compileplan.category("Fusion will increase peak memory"), "peak_memory")
        self.assertEqual(compileplan.category("node2 is extern or nop"), "extern")
        self.assertEqual(compileplan.category("something new"), "other")



if __name__ == "__main__":
    unittest.main()
