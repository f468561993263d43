# SPDX-License-Identifier: GPL-3.0-or-later
"""The compile recipe chooser (recipe.py; FORMAT.md "compile" ``recipe`` and the result's
``recipe``): the rule's decision and reason on graph features given as fixtures (the features of
this project's samples as recipe.features() measured them), the request's ``recipe`` checked and
merged by options.parse, and features() on two tiny exported graphs. No compile; two exports of
tiny models (about 1 s each). Run:
.venv/bin/python -m unittest discover -s tests/python -p test_recipe.py"""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "core", "python"))

import torch  # noqa: E402

from aotstudio_frontend import options, recipe  # noqa: E402
from aotstudio_frontend.errors import FrontendError  # noqa: E402


def feats(device="cpu", conv=0, matmul=0, attention=0, convs=0):
    total = conv + matmul + attention
    return {"device": device, "nodes": 10, "convolutions": convs, "conv_flops": conv, "matmul_flops": matmul,
            "attention_flops": attention, "conv_share": conv / total if total else 0.0, "parameter_bytes": 1000}


#: recipe.features() of the samples on the CPU (export at the example's shapes, torch 2.14.1):
#: (conv_flops, matmul_flops, attention_flops, convolutions) and the recipe the rule must choose.
SAMPLES = {
    "sample:mlp": ((0, 413696, 0, 0), "defaults"),
    "sample:convnet": ((6488064, 1280, 0, 2), "freezing"),
    "sample:transformer": ((0, 58720256, 2097152, 0), "defaults"),
    "sample:resnet18": ((3627122688, 1024000, 0, 20), "freezing"),
    "sample:minilm": ((0, 1974177792, 0, 0), "defaults"),
}


class Rule(unittest.TestCase):
    def test_samples(self):
        for spec, ((conv, mm, att, convs), want) in SAMPLES.items():
            with self.subTest(spec=spec):
                d = recipe.decide(feats(conv=conv, matmul=mm, attention=att, convs=convs))
                self.assertEqual((d.name, d.chosen_by), (want, "rule"))
                msg = d.to_json()["reason_msg"]
                self.assertEqual(msg["id"], "recipe.rule_conv_freezing" if want == "freezing"
                                 else "recipe.rule_matmul_defaults")
                self.assertAlmostEqual(msg["args"]["share"], 100.0 * conv / (conv + mm + att))
                self.assertIn("%", d.reason)

    def test_threshold_is_a_share_of_flops_not_a_count(self):
        # Many small convolutions beside big matrix multiplies (ViT's patch embedding): defaults.
        self.assertEqual(recipe.decide(feats(conv=10, matmul=90, convs=12)).name, "defaults")
        self.assertEqual(recipe.decide(feats(conv=80, matmul=20, convs=1)).name, "freezing")
        self.assertEqual(recipe.decide(feats(conv=79, matmul=21, convs=1)).name, "defaults")
        # The corpus's diffusers UNet (0.65 of its FLOPs in 33 convolutions): freezing measured no gain.
        self.assertEqual(recipe.decide(feats(conv=249036800, matmul=76447744, attention=56098816, convs=33)).name,
                         "defaults")

    def test_no_compute_and_gpu_keep_the_defaults(self):
        d = recipe.decide(feats())
        self.assertEqual((d.name, d.to_json()["reason_msg"]["id"]), ("defaults", "recipe.rule_no_compute"))
        d = recipe.decide(feats(device="cuda", conv=100, convs=3))
        self.assertEqual(d.name, "defaults")
        self.assertEqual(d.to_json()["reason_msg"], {"id": "recipe.rule_gpu_defaults", "args": {"device": "cuda"}})

    def test_result_json_carries_the_features(self):
        j = recipe.decide(feats(conv=1, convs=1)).to_json()
        self.assertEqual(set(j), {"name", "chosen_by", "reason", "reason_msg", "features"})
        self.assertEqual(j["features"]["convolutions"], 1)

    def test_freezing_cost(self):
        c = recipe.freezing_cost(46_796_608, 3)
        self.assertEqual((c["weights_shared"], c["buckets"], c["extra_bytes"]), (False, 3, 2 * 46_796_608))
        self.assertEqual(c["reason_msg"]["id"], "recipe.freezing_cost")
        self.assertIn("(46.8 MB)", c["reason"])
        self.assertEqual(recipe.freezing_cost(10, 1)["extra_bytes"], 0)


class Request(unittest.TestCase):
    def parse(self, **fields):
        return options.parse(dict({"model": "sample:mlp", "out": "o"}, **fields))

    def test_default_is_auto_and_names_are_tunes(self):
        o = self.parse()
        self.assertEqual((o.recipe, o.recipe_fields, o.freezing, o.freezing_given), ("auto", [], False, False))
        self.assertEqual(recipe.names()[:3], ["auto", "defaults", "freezing"])
        from aotstudio_frontend import tune
        self.assertEqual([c["name"] for c in tune.candidates("cpu", "fp32", ["defaults", "freezing"])],
                         ["defaults", "freezing"])

    def test_unknown_recipe_lists_the_names(self):
        for bad in ("fast", 3, ""):
            with self.subTest(bad=bad), self.assertRaises(FrontendError) as ctx:
                self.parse(recipe=bad)
            self.assertEqual(ctx.exception.code, "bad_request")
            self.assertIn("freezing+max_autotune", ctx.exception.hint)

    def test_a_named_recipe_applies_under_the_requests_fields(self):
        o = self.parse(recipe="freezing")
        self.assertEqual((o.freezing, o.freezing_given, o.max_autotune), (True, True, False))
        o = self.parse(recipe="defaults")
        self.assertEqual((o.freezing, o.freezing_given), (False, False))  # q/dq graphs still freeze
        o = self.parse(recipe="no_epilogue_fusion", inductor={"epilogue_fusion": True, "aggressive_fusion": True})
        self.assertEqual(o.inductor, {"epilogue_fusion": True, "aggressive_fusion": True})
        o = self.parse(recipe="bf16")
        self.assertEqual((o.dtype_name, o.tolerance), ("bf16", 5e-2))
        with self.assertRaises(FrontendError):
            self.parse(recipe="bf16", dtype="fp16")

    def test_fields_the_request_sets_itself(self):
        self.assertEqual(self.parse(freezing=False).recipe_fields, ["freezing"])
        self.assertEqual(self.parse(max_autotune=False, inductor={}).recipe_fields, [])
        self.assertEqual(self.parse(max_autotune=True).recipe_fields, ["max_autotune"])

    def test_name_of(self):
        self.assertEqual(recipe.name_of(True, False, "fp32", {}), "freezing")
        self.assertEqual(recipe.name_of(False, False, "bf16", {}, "bf16"), "defaults")
        self.assertEqual(recipe.name_of(False, False, "bf16", {}), "bf16")
        self.assertEqual(recipe.name_of(True, True, "fp32", {"x": 1}), "custom")


class Features(unittest.TestCase):
    def test_conv_and_linear_graphs(self):
        conv = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, groups=1), torch.nn.ReLU(),
                                   torch.nn.Conv2d(8, 8, 3, groups=2)).eval()
        f = recipe.features(torch.export.export(conv, (torch.randn(2, 3, 10, 10),)), "cpu")
        # 2 x out elements x (in channels per group x kh x kw): 2*(2*8*8*8)*(3*9) + 2*(2*8*6*6)*(4*9)
        self.assertEqual(f["conv_flops"], 2 * 1024 * 27 + 2 * 576 * 36)
        self.assertEqual((f["convolutions"], f["matmul_flops"], f["conv_share"]), (2, 0, 1.0))
        self.assertEqual(f["parameter_bytes"], 4 * (8 * 3 * 9 + 8 + 8 * 4 * 9 + 8))
        lin = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 4)).eval()
        f = recipe.features(torch.export.export(lin, (torch.randn(5, 16),)), "cpu")
        self.assertEqual((f["matmul_flops"], f["conv_flops"], f["conv_share"]), (2 * 5 * (32 * 16 + 4 * 32), 0, 0.0))
        self.assertEqual(recipe.decide(f).name, "defaults")


if __name__ == "__main__":
    unittest.main()
