# SPDX-License-Identifier: GPL-3.0-or-later
"""Unit tests of the example inputs at the user's shapes (shapes.py, a request's ``shapes``) and
the inputs request's description: plain Python, no engine.
Run: .venv/bin/python -m unittest discover -s tests/python -p test_shapes.py"""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "core", "python"))

import torch  # noqa: E402

from aotstudio_frontend import job, shapes  # noqa: E402
from aotstudio_frontend.errors import FrontendError  # noqa: E402

FACTORIES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "structured_inputs_factory.py")


class ShapesOverride(unittest.TestCase):
    def load(self, model, shapes_field):
        """A compile job's load stage with ``shapes``; returns (job, load result, log lines)."""
        lines = []
        j = job.CompileJob({"model": model, "out": tempfile.mkdtemp(), "shapes": shapes_field},
                           lambda level, message: lines.append(message))
        self.addCleanup(j.close)
        return j, j.load(), lines

    def refusal(self, model, shapes_field) -> FrontendError:
        with self.assertRaises(FrontendError) as ctx:
            self.load(model, shapes_field)
        self.assertEqual(ctx.exception.code, "bad_request")
        return ctx.exception

    def test_an_input_is_rebuilt_at_the_new_shape(self):
        j, loaded, lines = self.load("sample:mlp", {"x": [3, 64]})
        self.assertEqual(list(j.inputs[0].shape), [3, 64])
        self.assertEqual(loaded["inputs"][0]["shape"], [3, 64])
        self.assertEqual(loaded["outputs"][0]["shape"], [3, 10])  # eager ran at the new batch
        self.assertTrue(any("resized from [8, 64] to [3, 64]" in m for m in lines))
        # By index, larger than the example: the example's values repeated, same dtype and spread.
        example = self.load("sample:mlp", None)[0].inputs[0]
        j, _, _ = self.load("sample:mlp", {"0": [20, 64]})
        self.assertEqual(list(j.inputs[0].shape), [20, 64])
        self.assertEqual(j.inputs[0].dtype, torch.float32)
        self.assertTrue(torch.equal(j.inputs[0][8:16], example))

    def test_token_ids_and_masks_keep_their_values(self):
        _, before, _ = self.load(f"{FACTORIES}:padded_tokens", None)
        j, _, _ = self.load(f"{FACTORIES}:padded_tokens", {"input_ids": [5, 15], "attention_mask": [5, 15]})
        ids, mask = j.inputs
        self.assertEqual(list(ids.shape), [5, 15])
        self.assertEqual(list(mask.shape), [5, 15])
        self.assertEqual(ids.dtype, torch.int64)
        # Within the example's range (the vocabulary it used), never drawn outside it.
        self.assertGreaterEqual(int(ids.min()), 0)
        self.assertLessEqual(int(ids.max()), 19)
        self.assertEqual(set(mask.unique().tolist()), {0, 1})
        # Ids and mask resized alike stay consistent: padding (mask 0) exactly where the ids are 0.
        self.assertTrue(torch.equal(ids == 0, mask == 0))

    def test_description_names_kinds_and_ranges(self):
        j, _, _ = self.load(f"{FACTORIES}:padded_tokens", None)
        described = j.describe_inputs()
        by_name = {d["name"]: d for d in described["inputs"]}
        self.assertEqual(list(by_name), ["input_ids", "attention_mask"])
        self.assertEqual(by_name["input_ids"]["kind"], "ids")
        self.assertEqual(by_name["attention_mask"]["kind"], "mask")
        self.assertEqual((by_name["attention_mask"]["min"], by_name["attention_mask"]["max"]), (0, 1))
        self.assertLessEqual(by_name["input_ids"]["max"], 19)
        self.assertEqual(described["signature"], "forward(input_ids, attention_mask=…)")

    def test_unknown_name_is_refused_listing_the_names(self):
        e = self.refusal(f"{FACTORIES}:padded_tokens", {"attn_mask": [2, 6]})
        self.assertIn("'attn_mask'", e.message)
        self.assertIn("input_ids, attention_mask", e.message)
        self.assertIn("attention_mask", e.hint)  # the closest name

    def test_rank_mismatch_is_refused(self):
        e = self.refusal("sample:mlp", {"x": [8, 8, 8]})
        self.assertIn("'x' has 2 dimensions", e.message)
        self.assertIn("[8, 8, 8] has 3", e.message)

    def test_sizes_below_one_and_bad_forms_are_refused(self):
        self.assertIn("at least 1", self.refusal("sample:mlp", {"x": [0, 64]}).message)
        self.assertIn("list of integers", self.refusal("sample:mlp", {"x": "8x64"}).message)
        self.assertIn("does not exist", self.refusal("sample:mlp", {"3": [8, 64]}).message)
        with self.assertRaises(FrontendError):
            shapes.check([[8, 64]])

    def test_a_non_tensor_argument_is_refused(self):
        e = self.refusal(f"{FACTORIES}:dataclass_constants", {"cfg.a": [1]})
        self.assertIn("not a tensor input", e.message)

    def test_tied_inputs_changed_apart_fail_in_eager_saying_why(self):
        with self.assertRaises(FrontendError) as ctx:
            self.load(f"{FACTORIES}:padded_tokens", {"input_ids": [2, 9]})
        self.assertEqual(ctx.exception.code, "model_error")
        self.assertIn("input_ids [2, 9]", ctx.exception.message)
        self.assertIn("attention_mask [2, 6]", ctx.exception.message)
        self.assertIn("changed together", ctx.exception.hint)


if __name__ == "__main__":
    unittest.main()
