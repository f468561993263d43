# SPDX-License-Identifier: GPL-3.0-or-later
"""Unit tests of shapes from real traffic (issue 39): capture.py records a module's calls while a
user's script runs (a child process each, as the studio runs it), capture_propose.py proposes the
dynamic spec and the buckets from the record. Tiny models; the recordings run in parallel.
Run: .venv/bin/python -m unittest discover -s tests/python -p test_capture.py"""

import contextlib
import io
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
from concurrent.futures import ThreadPoolExecutor

PYTHON_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "core", "python"))
sys.path.insert(0, PYTHON_DIR)

from aotstudio_frontend import capture, capture_propose  # noqa: E402

HEADER = "import os, sys, time\nimport torch\nfrom torch import nn\ntorch.set_num_threads(1)\n"

SCRIPTS = {
    # A varying batch (sometimes 1), a sequence length always a multiple of 8 shared by two inputs,
    # a third input twice as long, an always-1 dimension, a float argument that varies.
    "traffic": """
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(4, 4)

            def forward(self, x, mask, extra, scale=1.0):
                return self.proj(x).sum() * scale + mask.sum() + extra.sum()

        model = Net()
        batches = [1, 2, 3, 4, 6, 8, 8, 8, 16, 2]
        with torch.no_grad():
            for i in range(40):
                b, s = batches[i % 10], 8 * (1 + i % 4)
                model(torch.randn(b, 1, s, 4), torch.ones(b, s), torch.zeros(b, 2 * s), scale=[0.5, 2.0][i % 2])
        """,
    # --module-class on a block inside another module, which calls itself once in some calls (a
    # recursive call is not a top-level one); the script raises after five calls.
    "raises": """
        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(3, 3)

            def forward(self, x, again=False):
                return self(x) * 2 if again else self.lin(x)

        class App(nn.Module):
            def __init__(self):
                super().__init__()
                self.block = Block()

            def forward(self, x):
                return self.block(x, again=x.shape[0] % 2 == 0) + 1

        app = App()
        with torch.no_grad():
            for i in range(5):
                app(torch.randn(i + 2, 3))
        raise ValueError("boom after five calls")  # RAISE-LINE
        """,
    "never": """
        model = nn.Linear(2, 2)
        print("not calling it")
        """,
    "missing": """
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.encoder = nn.Linear(2, 2)

            def forward(self, x):
                return self.encoder(x)

        model = Net()
        model(torch.randn(3, 2))
        """,
    "several": """
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(2, 2)

            def forward(self, x):
                return self.lin(x)

        a, b = Net(), Net()
        pair = [a, b]
        with torch.no_grad():
            a(torch.randn(1, 2))
            b(torch.randn(1, 2))
            a(torch.randn(2, 2))
        """,
    "forever": """
        model = nn.Linear(2, 2)
        i = 0
        with torch.no_grad():
            while True:
                model(torch.randn(1 + i % 3, 2))
                i += 1
                time.sleep(0.01)
        """,
    # Killed without any chance to close the record: what the flusher wrote stays.
    "crash": """
        model = nn.Linear(2, 2)
        with torch.no_grad():
            for i in range(20):
                model(torch.randn(i + 1, 2))
        time.sleep(1.5)
        os._exit(3)
        """,
    # --calls 4; a fork whose child calls the module (not recorded); sys.exit(3).
    "limit": """
        class Echo(nn.Module):
            def forward(self, x):
                return x

        model = Echo()
        for i in range(2):
            model([i])
        pid = os.fork()
        if pid == 0:
            for i in range(5):
                model([100 + i])
            os._exit(0)
        os.waitpid(pid, 0)
        for i in range(8):
            model([10 + i])
        sys.exit(3)
        """,
}

RUNS = {
    "traffic": ["--module", "model", "--keep-inputs", "2", "--max-bytes", "60000"],
    "raises": ["--module-class", "__main__.Block"],
    "never": ["--module", "model"],
    "missing": ["--module", "model.decoder"],
    "several": ["--module-class", "__main__.Net"],
    "forever": ["--module", "model", "--max-seconds", "2"],
    "crash": ["--module", "model"],
    "limit": ["--module", "model", "--calls", "4"],
}


def setUpModule():
    global ROOT, RESULTS
    ROOT = tempfile.mkdtemp(prefix="aotstudio-capture-test-")
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR, OMP_NUM_THREADS="1")

    def run(name):
        script = os.path.join(ROOT, f"app_{name}.py")
        with open(script, "w") as f:
            f.write(HEADER + textwrap.dedent(SCRIPTS[name]))
        out = os.path.join(ROOT, name)
        cmd = [sys.executable, "-m", "aotstudio_frontend.capture", "record", "--script", script, *RUNS[name],
               "--out", out, "--", "first", "--second"]
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
        return name, {"rc": proc.returncode, "stderr": proc.stderr, "stdout": proc.stdout, "out": out,
                      "script": script}
    with ThreadPoolExecutor(max_workers=4) as pool:
        RESULTS = dict(pool.map(run, RUNS))


def tearDownModule():
    shutil.rmtree(ROOT, ignore_errors=True)


def load(name: str, what: str):
    with open(os.path.join(RESULTS[name]["out"], what)) as f:
        return json.load(f)


def calls(name: str) -> list:
    with open(os.path.join(RESULTS[name]["out"], "calls.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


class Recording(unittest.TestCase):
    def check_rc(self, name, rc):
        r = RESULTS[name]
        self.assertEqual(r["rc"], rc, r["stderr"][-3000:])
        self.assertIn("capture: ", r["stderr"].strip().splitlines()[-1])

    def test_every_call_is_recorded_with_shapes_strides_and_values(self):
        self.check_rc("traffic", 0)
        summary, lines = load("traffic", "summary.json"), calls("traffic")
        self.assertEqual(summary["outcome"], "finished")
        self.assertEqual(summary["calls"], 40)
        self.assertEqual(summary["argv"], ["first", "--second"])
        self.assertEqual(summary["target"]["params"], ["x", "mask", "extra", "scale"])
        self.assertEqual([line["call"] for line in lines], list(range(40)))
        first = {leaf["name"]: leaf for leaf in lines[0]["args"]}
        self.assertEqual(first["x"], {"path": "args[0]", "name": "x", "kind": "tensor", "shape": [1, 1, 8, 4],
                                      "dtype": "float32", "device": "cpu", "stride": [32, 32, 4, 1]})
        self.assertEqual(first["scale"], {"path": "kwargs['scale']", "name": "scale", "kind": "value",
                                          "type": "float", "value": 0.5})
        self.assertEqual({leaf["name"]: leaf["shape"] for leaf in lines[13]["args"] if leaf["kind"] == "tensor"},
                         {"x": [4, 1, 16, 4], "mask": [4, 16], "extra": [4, 32]})
        # Same shapes and values -> the same signature id; a different value -> another one.
        self.assertEqual(lines[6]["sig"], lines[26]["sig"])  # b=8, s=24, scale 0.5 in both
        self.assertNotEqual(lines[6]["sig"], lines[7]["sig"])

    def test_reservoir_keeps_at_most_k_per_signature_within_max_bytes(self):
        manifest, summary, lines = load("traffic", "inputs.json"), load("traffic", "summary.json"), calls("traffic")
        self.assertLessEqual(manifest["bytes"], 60000)
        self.assertGreater(manifest["dropped"]["count"], 0)  # 40 calls of ~3 kB each do not fit in 60 kB
        self.assertEqual(summary["dropped_inputs"]["count"], manifest["dropped"]["count"])
        self.assertEqual(summary["kept_inputs"]["count"], len(manifest["files"]))
        per_sig = {}
        for f in manifest["files"]:
            per_sig[f["signature"]] = per_sig.get(f["signature"], 0) + 1
        sigs = {s["id"]: s for s in manifest["signatures"]}
        for sid, s in sigs.items():
            self.assertLessEqual(per_sig.get(sid, 0), 2)
            if not s["dropped"]:
                self.assertEqual(per_sig.get(sid, 0), min(2, s["calls"]), s)
        self.assertEqual(sum(s["calls"] for s in sigs.values()), 40)
        import torch
        for f in manifest["files"]:
            data = torch.load(os.path.join(RESULTS["traffic"]["out"], f["file"]), weights_only=True)
            x, mask, extra = data["args"]
            self.assertEqual(lines[data["call"]]["sig"], f["signature"])
            want = sigs[f["signature"]]["inputs"]
            self.assertEqual([list(x.shape), list(mask.shape), list(extra.shape)],
                             [want["x"]["shape"], want["mask"]["shape"], want["extra"]["shape"]])
            self.assertEqual(data["kwargs"], {"scale": sigs[f["signature"]]["values"]["scale"]})
            self.assertEqual(f["bytes"], 4 * (x.numel() + mask.numel() + extra.numel()))

    def test_module_class_records_top_level_calls_and_a_raise_keeps_them(self):
        self.check_rc("raises", 0)
        summary, lines = load("raises", "summary.json"), calls("raises")
        self.assertEqual(summary["outcome"], "raised")
        self.assertEqual(summary["target"]["class"], "__main__.Block")
        self.assertEqual(summary["target"]["path"], "app.block")
        # Five calls from App; the recursive self(x) inside Block is not a top-level call.
        self.assertEqual(summary["calls"], 5)
        self.assertEqual([line["args"][0]["shape"] for line in lines], [[i + 2, 3] for i in range(5)])
        self.assertEqual([line["args"][1]["value"] for line in lines], [True, False, True, False, True])
        with open(RESULTS["raises"]["script"]) as f:
            line_no = next(i for i, text in enumerate(f, 1) if "RAISE-LINE" in text)
        self.assertEqual(summary["exception"]["type"], "ValueError")
        self.assertEqual(summary["exception"]["where"]["line"], line_no)
        self.assertIn(f"app_raises.py:{line_no}", summary["message"])
        self.assertIn("boom after five calls", summary["message"])

    def test_never_called(self):
        self.check_rc("never", 1)
        summary = load("never", "summary.json")
        self.assertEqual(summary["outcome"], "never_called")
        self.assertEqual(summary["calls"], 0)
        self.assertEqual(calls("never"), [])
        self.assertIn("not calling it", RESULTS["never"]["stdout"])  # the script ran

    def test_module_path_that_does_not_exist(self):
        self.check_rc("missing", 1)
        summary = load("missing", "summary.json")
        self.assertEqual(summary["outcome"], "module_not_found")
        self.assertIn("'decoder' is not an attribute of model", summary["message"])
        self.assertIn("encoder", summary["message"])

    def test_two_instances_of_the_class_refuse_the_record(self):
        self.check_rc("several", 1)
        summary = load("several", "summary.json")
        self.assertEqual(summary["outcome"], "several_instances")
        self.assertEqual(set(summary["instances"]["called"]) & {"a", "b"}, {"a", "b"})
        self.assertIn("pair[1]", summary["instances"]["paths"])
        self.assertIn("a", summary["message"].split("(")[1])
        self.assertEqual(summary["calls"], 1)  # a's first call; nothing after b was called

    def test_max_seconds_interrupts_a_script_that_never_ends(self):
        self.check_rc("forever", 0)
        summary, lines = load("forever", "summary.json"), calls("forever")
        self.assertEqual(summary["outcome"], "timed_out")
        self.assertGreater(summary["calls"], 5)
        self.assertEqual(len(lines), summary["calls"])
        self.assertEqual(sorted({tuple(line["args"][0]["shape"]) for line in lines}), [(1, 2), (2, 2), (3, 2)])
        self.assertTrue(os.path.exists(os.path.join(RESULTS["forever"]["out"], "inputs.json")))

    def test_a_killed_script_keeps_the_calls_written_so_far(self):
        self.assertEqual(RESULTS["crash"]["rc"], 3)  # os._exit: nothing of the recorder ran at the end
        self.assertEqual(load("crash", "summary.json")["outcome"], "running")
        lines = calls("crash")
        self.assertEqual([line["args"][0]["shape"][0] for line in lines], list(range(1, 21)))
        proposal = capture_propose.propose(RESULTS["crash"]["out"])
        self.assertEqual(proposal["calls"], 20)
        self.assertTrue(any("still running" in n for n in proposal["notes"]))

    def test_calls_limit_exit_code_and_fork(self):
        self.check_rc("limit", 0)
        summary, lines = load("limit", "summary.json"), calls("limit")
        self.assertEqual(summary["outcome"], "exited")
        self.assertEqual(summary["exit_code"], 3)
        self.assertEqual(summary["stopped"], "calls")
        self.assertEqual(summary["forks"], 1)
        self.assertTrue(any("forked 1 time" in n for n in summary["notes"]))
        # The child's calls (values 100..104) are not in the record; recording stopped after 4 calls.
        self.assertEqual([line["args"][0]["value"] for line in lines], [0, 1, 10, 11])
        self.assertEqual([line["args"][0]["path"] for line in lines], ["args[0][0]"] * 4)


class Proposal(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.p = capture_propose.propose(RESULTS["traffic"]["out"], waste=0.25, max_buckets=4)
        cls.dims = {tuple(g["members"]): g for g in cls.p["dims"]}

    def test_ties_ranges_and_histograms(self):
        batch = self.dims[("x:0", "mask:0", "extra:0")]
        self.assertEqual(batch["name"], "batch")
        self.assertEqual((batch["min"], batch["max"]), (1, 16))
        self.assertEqual(batch["histogram"], {"1": 4, "2": 8, "3": 4, "4": 4, "6": 4, "8": 12, "16": 4})
        seq = self.dims[("x:2", "mask:1")]
        self.assertEqual(seq["histogram"], {"8": 10, "16": 10, "24": 10, "32": 10})
        self.assertEqual(len(self.p["dims"]), 3)

    def test_multiple_of_eight_and_twice_another_dimension(self):
        seq = self.dims[("x:2", "mask:1")]
        self.assertEqual(seq["multiple_of"], 8)
        self.assertIsNone(seq["derived"])
        extra = self.dims[("extra:1",)]
        self.assertEqual(extra["derived"], {"of": seq["name"], "factor": 2})
        text = self.p["factory"]["dynamic_shapes"]
        self.assertIn(f"{seq['name']} = 8 * _{seq['name']}", text)
        self.assertIn(f"{extra['name']} = 2 * {seq['name']}", text)
        self.assertIsNone(self.p["factory"]["error"])
        self.assertIn("torch.export checks", self.p["factory"]["checked"])

    def test_always_one_and_sometimes_one(self):
        x = next(i for i in self.p["inputs"] if i["name"] == "x")
        self.assertEqual(x["dims"][1], {"dim": 1, "kind": "static", "size": 1})
        self.assertEqual(x["dims"][3], {"dim": 3, "kind": "static", "size": 4})
        batch = self.dims[("x:0", "mask:0", "extra:0")]
        self.assertEqual((batch["ones"], batch["spec_min"]), (4, 2))
        self.assertTrue(any("1 in 4 of 40 calls" in w for w in self.p["warnings"]))

    def test_varying_non_tensor_argument_is_warned(self):
        scale = next(v for v in self.p["values"] if v["name"] == "scale")
        self.assertTrue(scale["varies"])
        self.assertEqual({v["value"]: v["calls"] for v in scale["values"]}, {0.5: 20, 2.0: 20})
        self.assertTrue(any("'scale'" in w and "2 values" in w for w in self.p["warnings"]))

    def test_compile_fields_parse_as_the_compile_request_takes_them(self):
        from aotstudio_frontend import options, shapes
        compile_ = self.p["compile"]
        self.assertEqual(compile_["dynamic"],
                         ["x:0:2:16=batch", "mask:0:2:16=batch", "extra:0:2:16=batch",
                          "x:2:8:32=x_2", "mask:1:8:32=x_2", "extra:1:16:64=extra_1"])
        parsed = options.parse_dynamic(compile_["dynamic"])
        self.assertEqual(parsed[0], ("x", 0, 2, 16, "batch"))
        self.assertEqual(set(compile_["shapes"]), {"x", "mask", "extra"})
        self.assertEqual(shapes.check(compile_["shapes"]), compile_["shapes"])
        x = compile_["shapes"]["x"]
        self.assertGreaterEqual(x[0], 2)  # an example inside the ranges: not the batch of 1
        self.assertEqual(compile_["shapes"]["extra"][1], 2 * x[2])

    def test_buckets_meet_the_bound_and_cover_every_batch(self):
        b, export = self.p["buckets"], self.p["export"]
        self.assertEqual(export["buckets"], [x["batch"] for x in b["buckets"]])
        self.assertEqual(export["buckets"][-1], 16)
        self.assertTrue(export["pad_safe"])
        self.assertNotIn("x:0:2:16=batch", export["dynamic"])
        self.assertIn("x:2:8:32=x_2", export["dynamic"])
        hist = {int(k): v for k, v in self.dims[("x:0", "mask:0", "extra:0")]["histogram"].items()}
        waste = sum(c * (min(e for e in export["buckets"] if e >= s) - s) / min(e for e in export["buckets"] if e >= s)
                    for s, c in hist.items()) / 40
        self.assertAlmostEqual(b["expected_waste"], round(waste, 4))
        self.assertTrue(b["met"])
        self.assertLessEqual(waste, 0.25)
        self.assertAlmostEqual(sum(x["share"] for x in b["buckets"]), 1.0, places=3)
        # No smaller set of buckets meets the bound.
        self.assertEqual(len(export["buckets"]), brute_force(hist, 0.25, 4)[0])

    def test_additional_inputs_agree_and_verify_files_exist(self):
        ai = self.p["additional_inputs"]
        self.assertTrue(ai["ran"], ai)
        self.assertTrue(ai["agrees"], ai)
        self.assertIn("x:0", ai["dynamic"])
        self.assertIn("differing values", ai["refused"])  # the varying float
        verify = self.p["verify"]
        self.assertGreater(len(verify["files"]), 0)
        self.assertLessEqual(len(verify["files"]), capture_propose.MAX_VERIFY)
        for f in verify["files"]:
            self.assertTrue(os.path.exists(os.path.join(RESULTS["traffic"]["out"], f)))

    def test_cli_writes_proposal_json(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = capture.main(["propose", RESULTS["raises"]["out"], "--waste", "0.1", "--max-buckets", "2"])
        self.assertEqual(rc, 0)
        written = load("raises", "proposal.json")
        self.assertEqual(written["waste_bound"], 0.1)
        self.assertEqual(written["compile"]["dynamic"], ["x:0:2:6=batch"])
        self.assertIn("written:", out.getvalue())
        self.assertEqual(capture_propose.propose(RESULTS["never"]["out"], write=False)["calls"], 0)


def brute_force(hist: dict, bound: float, max_buckets: int) -> tuple:
    """(fewest buckets within the bound, its least waste) by trying every subset of the sizes."""
    sizes = sorted(hist)
    total = sum(hist.values())
    for m in range(1, max_buckets + 1):
        best = None
        for rest in itertools.combinations(sizes[:-1], m - 1):
            edges = list(rest) + [sizes[-1]]
            w = sum(c * (min(e for e in edges if e >= s) - s) / min(e for e in edges if e >= s)
                    for s, c in hist.items()) / total
            best = w if best is None else min(best, w)
        if best <= bound + 1e-12:
            return m, best
    return None, None


class Buckets(unittest.TestCase):
    def test_worked_example(self):
        r = capture_propose.choose_buckets({1: 10, 2: 10, 3: 10, 4: 10, 8: 10}, 0.25, 4)
        self.assertEqual([b["batch"] for b in r["buckets"]], [1, 4, 8])
        self.assertEqual(r["expected_waste"], 0.15)
        self.assertEqual([b["serves"] for b in r["buckets"]], [[1], [2, 3, 4], [8]])

    def test_matches_brute_force(self):
        rng = random.Random(7)
        for _ in range(40):
            sizes = rng.sample(range(1, 65), rng.randint(1, 8))
            hist = {s: rng.randint(1, 30) for s in sizes}
            bound = rng.choice([0.0, 0.05, 0.1, 0.25, 0.5])
            r = capture_propose.choose_buckets(hist, bound, 4)
            m, w = brute_force(hist, bound, 4)
            if m is None:
                self.assertFalse(r["met"])
            else:
                self.assertTrue(r["met"])
                self.assertEqual(len(r["buckets"]), m, hist)
                self.assertAlmostEqual(r["expected_waste"], round(w, 4), places=4)

    def test_bound_not_met_says_so(self):
        r = capture_propose.choose_buckets({s: 1 for s in range(1, 33)}, 0.01, 2)
        self.assertFalse(r["met"])
        self.assertEqual(len(r["buckets"]), 2)
        self.assertEqual(r["buckets"][-1]["batch"], 32)


if __name__ == "__main__":
    unittest.main()
