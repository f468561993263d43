# SPDX-License-Identifier: GPL-3.0-or-later
"""Unit tests of the compile request's options (options.py) and the quantization scheme table
(quant/schemes.py): defaults, the order in which problems are reported, the scheme names the CLI
checks without Python, and the names other modules and the C++ side import from job and quant.
No model is built. Run:
.venv/bin/python -m unittest discover -s tests/python -p test_options.py"""

import os
import re
import sys
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "core", "python"))

from aotstudio_frontend import job, models, options, quant  # noqa: E402
from aotstudio_frontend.errors import FrontendError  # noqa: E402
from aotstudio_frontend.quant import schemes  # noqa: E402


def error(request):
    try:
        options.parse(request)
    except FrontendError as exc:
        return exc.code, exc.message
    raise AssertionError(f"{request} parsed")


class Options(unittest.TestCase):
    def test_defaults(self):
        o = options.parse({"model": "sample:mlp", "out": "o"})
        self.assertEqual((o.device, o.dtype_name, o.tolerance, o.verify_samples), ("cpu", "fp32", 1e-3, 2))
        self.assertEqual((o.freezing, o.freezing_given, o.take_snapshots, o.staging), (False, False, True, False))
        self.assertEqual((o.dynamic, o.inductor, o.scheme, o.out), ([], {}, None, os.path.abspath("o")))
        self.assertEqual(options.parse({"model": "m", "out": "o", "dtype": "bf16"}).tolerance, 5e-2)

    def test_cuda_archs(self):
        """--arch: spellings normalised to TORCH_CUDA_ARCH_LIST entries, duplicates dropped, bad entries
        and a CPU compile refused naming the entry; the compile sets emit_multi_arch_kernel and the
        variable only while it runs."""
        o = options.parse({"model": "m", "out": "o", "device": "cuda", "cuda_archs": ["sm_90", "120", "12.0", "10.0a"]})
        self.assertEqual(o.cuda_archs, ["9.0", "12.0", "10.0a"])
        self.assertEqual(options.parse({"model": "m", "out": "o"}).cuda_archs, [])
        self.assertEqual(options.parse_cuda_archs("sm_90;sm_120"), ["9.0", "12.0"])
        for bad in (["sm9"], ["ampere"], [True], 90):
            code, message = error({"model": "m", "out": "o", "device": "cuda", "cuda_archs": bad})
            self.assertEqual(code, "bad_request")
            self.assertIn("cuda_archs" if not isinstance(bad, list) else str(bad[0]), message)
        code, message = error({"model": "m", "out": "o", "cuda_archs": ["sm_90"]})
        self.assertEqual(code, "bad_request")
        self.assertIn("cpu", message)
        before = os.environ.get("TORCH_CUDA_ARCH_LIST")
        with job._cuda_arch_list(["9.0", "12.0"]):
            self.assertEqual(os.environ["TORCH_CUDA_ARCH_LIST"], "9.0;12.0")
        self.assertEqual(os.environ.get("TORCH_CUDA_ARCH_LIST"), before)

    def test_dynamic_entries(self):
        o = options.parse({"model": "m", "out": "o", "dynamic": ["0:0:1:8=b", "1:0=b", "mask:1"]})
        self.assertEqual(o.dynamic, [(0, 0, 1, 8, "b"), (1, 0, 1, 8, "b"), ("mask", 1, None, None, None)])
        self.assertEqual(o.dynamic_specs, ["0:0:1:8=b", "1:0=b", "mask:1"])

    def test_problems_in_request_order(self):
        # The field checks come first, then the scheme, then model, device and out.
        self.assertEqual(error({"model": "", "device": "tpu", "dtype": "x"}), ("bad_request", "unknown dtype 'x'"))
        self.assertEqual(error({"scheme": "int9"})[1], "unknown quantization scheme 'int9'")
        self.assertEqual(error({"scheme": "fp8-dynamic", "device": "tpu"})[0], "unsupported")
        self.assertEqual(error({"model": "m", "device": "tpu"}), ("bad_request", "unknown device 'tpu'"))
        self.assertEqual(error({"model": "m"}), ("bad_request", "no output directory given"))
        self.assertEqual(error({"model": "m", "out": "o", "batch": 0, "verify_samples": 99})[1],
                         "'batch' must be a positive integer, got 0")

    def test_int8_static_freezes(self):
        o = options.parse({"model": "m", "out": "o", "scheme": "int8-static", "freezing": False})
        self.assertEqual((o.freezing, o.freezing_given, o.scheme), (True, True, "int8-static"))


class Schemes(unittest.TestCase):
    def test_table_is_the_list(self):
        self.assertEqual(quant.SCHEMES, tuple(schemes.TABLE))
        self.assertEqual(quant.SCHEMES, ("fp32", "bf16", "int8-weight-only", "int8-dynamic", "int4-weight-only",
                                         "fp8-dynamic", "int8-static"))

    def test_cli_list_matches(self):
        with open(os.path.join(ROOT, "app", "cli", "quantizecmd.cpp"), encoding="utf-8") as f:
            known = re.search(r"known\{(.*?)\};", f.read(), re.S).group(1)
        self.assertEqual(tuple(re.findall(r'"([^"]+)"', known)), quant.SCHEMES)

    def test_scheme_list(self):
        self.assertEqual(quant.scheme_list("bf16, fp32,bf16"), ["bf16", "fp32"])
        self.assertEqual(quant.scheme_list(None), list(quant.SCHEMES))
        with self.assertRaises(FrontendError):
            quant.scheme_list(["int9"])

    def test_device_requirements(self):
        with self.assertRaises(quant.Unsupported) as ctx:
            quant.check_device("fp8-dynamic", "cpu")
        self.assertIn("Ada or Hopper", ctx.exception.hint)
        for name in quant.SCHEMES:
            if name != "fp8-dynamic":
                quant.check_device(name, "cpu")


class Names(unittest.TestCase):
    def test_job_and_quant_keep_their_names(self):
        # Imported by coldstart.py, tests, frontend.cpp (CompileJob, engine_info) and verify.py.
        self.assertIs(job.resolve_model, models.resolve_model)
        self.assertIs(job.batched_inputs, models.batched_inputs)
        self.assertIs(job.resize_batch, models.resize_batch)
        self.assertIs(job.DTYPES, options.DTYPES)
        for name in ("CompileJob", "engine_info", "DEVICES", "DEFAULT_TOLERANCE"):
            self.assertTrue(hasattr(job, name), name)
        for name in ("QuantState", "scheme_list", "check_scheme", "generate_samples", "load_samples", "Unsupported"):
            self.assertTrue(hasattr(quant, name), name)


if __name__ == "__main__":
    unittest.main()
