# SPDX-License-Identifier: GPL-3.0-or-later
"""The Python eager server (aotstudio_frontend.eager_serve), the burst replay's eager baseline:
its ready line, its answers, its inputs drawn as aotstudio-run draws them, and its refusals."""

import io
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "core", "python"))

import torch  # noqa: E402

from aotstudio_frontend import eager_serve  # noqa: E402
from aotstudio_frontend.errors import FrontendError  # noqa: E402
from aotstudio_frontend.models import resolve_model  # noqa: E402


def serve(requests, spec="sample:mlp"):
    lines = [r if isinstance(r, str) else json.dumps(r) for r in requests]
    out = io.StringIO()
    eager_serve.serve(spec, "cpu", None, io.StringIO("".join(line + "\n" for line in lines)), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


class EagerServeTest(unittest.TestCase):
    def test_ready_then_one_answer_per_line(self):
        answers = serve([{"batch": 2, "seed": 0, "input": ""}, {"batch": 5, "seed": 0}, "not json",
                         {"batch": 0}, [1, 2]])
        self.assertTrue(answers[0]["ready"])
        self.assertEqual(answers[0]["pid"], os.getpid())
        self.assertEqual(len(answers), 6)
        first, second = answers[1], answers[2]
        self.assertTrue(first["ok"], first)
        self.assertEqual(first["outputs"][0]["shape"], [2, 10])
        self.assertEqual(second["outputs"][0]["shape"], [5, 10])
        for a in (first, second):
            self.assertGreaterEqual(a["run_ms"], 0)
            self.assertGreater(a["begin_ns"], 0)
        for bad in answers[3:]:
            self.assertFalse(bad["ok"])
            self.assertEqual(bad["error"]["code"], "bad_request")

    def test_inputs_are_drawn_from_the_seed(self):
        # As aotirunner.cpp setGeneratedInputs draws them: one CPU generator seeded with the
        # request's seed, float inputs randn in order (tst_serve compares with aotstudio-run itself).
        model, inputs, _ = resolve_model("sample:mlp")
        model.eval()
        g = torch.Generator().manual_seed(7)
        x = torch.randn([3] + list(inputs[0].shape[1:]), generator=g, dtype=torch.float32)
        with torch.inference_mode():
            expected = float(model(x).sum())
        a, b, c = serve([{"batch": 3, "seed": 7}, {"batch": 3, "seed": 7}, {"batch": 3, "seed": 8}])[1:]
        self.assertAlmostEqual(a["outputs"][0]["sum"], expected, places=4)
        self.assertEqual(a["outputs"][0]["sum"], b["outputs"][0]["sum"])
        self.assertNotEqual(a["outputs"][0]["sum"], c["outputs"][0]["sum"])

    def test_input_file(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "x.pt")
            torch.save({"x": torch.ones(4, 64)}, path)
            answer = serve([{"input": path}])[1]
        self.assertTrue(answer["ok"], answer)
        self.assertEqual(answer["outputs"][0]["shape"], [4, 10])

    def test_failed_forward_is_that_request_s_error(self):
        answer = serve([{"input": "/nonexistent/x.pt"}, {"batch": 1}])
        self.assertFalse(answer[1]["ok"])
        self.assertEqual(answer[1]["error"]["stage"], "failed")
        self.assertTrue(answer[2]["ok"])  # the server stays up

    def test_a_model_that_does_not_build_raises_before_ready(self):
        out = io.StringIO()
        with self.assertRaises(FrontendError):
            eager_serve.serve("sample:nope", "cpu", None, io.StringIO(""), out)
        self.assertEqual(out.getvalue(), "")


if __name__ == "__main__":
    unittest.main()
