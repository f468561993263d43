# SPDX-License-Identifier: GPL-3.0-or-later
"""quant.metrics.accuracy: whole-model figures and the per-output table named by the forward's
output names (FORMAT.md "quantize result", accuracy.outputs)."""

import os
import sys
import unittest

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "core", "python"))

from aotstudio_frontend.quant import metrics  # noqa: E402


class AccuracyTest(unittest.TestCase):
    def test_each_output_has_its_name_and_its_own_error(self):
        ref = [[torch.zeros(2, 3, dtype=torch.float64), torch.ones(4, dtype=torch.float64)] for _ in range(2)]
        # Sample 1's second output is off by 0.5 in one element; the first output is exact.
        got = {0: [t.clone() for t in ref[0]], 1: [ref[1][0].clone(), ref[1][1].clone()]}
        got[1][1][2] += 0.5
        a = metrics.accuracy(ref, got, "x.py:make", ["logits", "extra.mask"])
        self.assertEqual([o["name"] for o in a["outputs"]], ["logits", "extra.mask"])
        self.assertEqual(a["outputs"][0]["max_abs_error"], 0.0)
        self.assertAlmostEqual(a["outputs"][1]["max_abs_error"], 0.5)
        self.assertAlmostEqual(a["outputs"][1]["mean_abs_error"], 0.5 / 8)
        self.assertAlmostEqual(a["max_abs_error"], 0.5)
        self.assertEqual(a["samples"], 2)

    def test_unnamed_outputs_are_numbered_and_missing_samples_skipped(self):
        ref = [[torch.ones(3, dtype=torch.float64)], [torch.ones(3, dtype=torch.float64)]]
        a = metrics.accuracy(ref, {1: [torch.full((3,), 2.0, dtype=torch.float64)]}, "x.py:make")
        self.assertEqual(a["outputs"][0]["name"], "output 0")
        self.assertAlmostEqual(a["outputs"][0]["max_abs_error"], 1.0)
        self.assertEqual(a["samples"], 1)
        self.assertEqual(metrics.accuracy(ref, {}, "x.py:make")["outputs"], [])


if __name__ == "__main__":
    unittest.main()
