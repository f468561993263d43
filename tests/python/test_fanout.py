# SPDX-License-Identifier: GPL-3.0-or-later
"""Unit tests of the Ray fan-out's driver and task (aotstudio_frontend/fanout.py, fanout_task.py)
that need no cluster: the address check, the probe of an address that does not answer, the error
without Ray, and how a task's folder lands in the job folder. The cluster itself: tst_ray. Run:
.venv/bin/python -m unittest discover -s tests/python -p test_fanout.py"""

import io
import json
import os
import socket
import sys
import tarfile
import tempfile
import time
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "core", "python"))

from aotstudio_frontend import fanout, fanout_task  # noqa: E402
from aotstudio_frontend.errors import FrontendError  # noqa: E402


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Address(unittest.TestCase):
    def test_host_port(self):
        self.assertEqual(fanout.parse_address("10.0.0.5:6379"), ("10.0.0.5", 6379))
        self.assertEqual(fanout.parse_address(" head.local:1 "), ("head.local", 1))
        self.assertEqual(fanout.parse_address("[::1]:6379"), ("::1", 6379))

    def test_bad_forms(self):
        for bad in ("", "head", "head:", "head:x", "head:70000", "ray://head:10001", 5):
            with self.assertRaises(FrontendError) as ctx:
                fanout.parse_address(bad)
            self.assertEqual(ctx.exception.code, "bad_request", bad)

    def test_unanswered_address_is_one_line_within_the_probe(self):
        address = f"127.0.0.1:{closed_port()}"
        t = time.monotonic()
        with self.assertRaises(FrontendError) as ctx:
            fanout.probe(address, seconds=2)
        self.assertLess(time.monotonic() - t, 10)
        self.assertEqual(ctx.exception.code, "ray_unavailable")
        self.assertIn(address, ctx.exception.message)
        self.assertIn("does not answer", ctx.exception.message)
        self.assertNotIn("\n", ctx.exception.message)

    def test_without_ray_names_the_pin(self):
        with mock.patch.dict(sys.modules, {"ray": None}):
            with self.assertRaises(FrontendError) as ctx:
                fanout._import_ray()
        self.assertEqual(ctx.exception.code, "ray_unavailable")
        self.assertIn("pip install ray==", ctx.exception.hint)
        self.assertEqual(fanout.RAY_PIN.split("==")[1], _pinned("ray"))


def _pinned(name: str) -> str:
    req = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "requirements.txt")
    for line in open(req, encoding="utf-8"):
        if line.startswith(name + "=="):
            return line.strip().split("==")[1]
    return ""


class Install(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def test_folder_lands_with_its_paths_rewritten(self):
        worker = "/tmp/aotstudio-ray-x/out/int8-dynamic"
        src = os.path.join(self.dir.name, "src")
        os.makedirs(os.path.join(src, "trace"))
        with open(os.path.join(src, "kernels.json"), "w", encoding="utf-8") as f:
            json.dump({"trace": worker + "/trace", "other": "/elsewhere"}, f)
        with open(os.path.join(src, "model.pt2"), "wb") as f:
            f.write(b"\0pt2")
        packed = fanout_task._pack(src)
        target = os.path.join(self.dir.name, "job", "int8-dynamic")
        os.makedirs(os.path.join(target, "snapshots"))  # a previous run's files are replaced
        fanout._install(packed, worker, target)
        data = json.load(open(os.path.join(target, "kernels.json"), encoding="utf-8"))
        self.assertEqual(data, {"trace": target + "/trace", "other": "/elsewhere"})
        self.assertEqual(open(os.path.join(target, "model.pt2"), "rb").read(), b"\0pt2")
        self.assertFalse(os.path.exists(os.path.join(target, "snapshots")))
        self.assertEqual([n for n in os.listdir(target) if n.startswith(".partial")], [])

    def test_archive_cannot_write_outside(self):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            info = tarfile.TarInfo("../escape.json")
            info.size = 2
            tar.addfile(info, io.BytesIO(b"{}"))
        target = os.path.join(self.dir.name, "job", "fp32")
        with self.assertRaises(tarfile.TarError):
            fanout._install(buf.getvalue(), "/w", target)
        self.assertFalse(os.path.exists(os.path.join(self.dir.name, "job", "escape.json")))


class Task(unittest.TestCase):
    def test_missing_engine_runs_nothing(self):
        events = list(fanout_task.run_engine("/nonexistent/aotstudio-engine", {"type": "quantize", "id": 1}, "", "2.14.1"))
        self.assertEqual(len(events), 1)
        self.assertEqual(events[0]["type"], "fanout_done")
        self.assertEqual(events[0]["error"]["code"], "ray_unavailable")
        self.assertIn("same path", events[0]["error"]["hint"])

    def test_other_torch_runs_nothing(self):
        # A stand-in engine whose handshake names another torch: the request is never sent.
        with tempfile.TemporaryDirectory() as d:
            engine = os.path.join(d, "aotstudio-engine")
            with open(engine, "w", encoding="utf-8") as f:
                f.write("#!/bin/sh\necho '{\"type\":\"hello\",\"id\":0,\"protocol\":1,\"torch_version\":\"2.99.0\","
                        "\"devices\":[{\"type\":\"cpu\",\"name\":\"test cpu\"}]}'\nread line\necho \"$line\" > "
                        + os.path.join(d, "got") + "\n")
            os.chmod(engine, 0o755)
            events = list(fanout_task.run_engine(engine, {"type": "quantize", "id": 1, "device": "cpu"}, "", "2.14.1"))
            self.assertEqual(events[-1]["error"]["code"], "ray_unavailable")
            self.assertIn("2.99.0", events[-1]["error"]["message"])
            self.assertEqual(events[-1]["device_name"], "test cpu")
            self.assertFalse(os.path.exists(os.path.join(d, "got")) and open(os.path.join(d, "got")).read().strip())


if __name__ == "__main__":
    unittest.main()
