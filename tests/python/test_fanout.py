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


class Target(unittest.TestCase):
    """A driver in a target environment (AOTSTUDIO_TARGET): the node's engine is started with the
    same target and must name it in its hello, else nothing is sent (issue 37)."""

    def _engine(self, d):
        engine = os.path.join(d, "aotstudio-engine")
        with open(engine, "w", encoding="utf-8") as f:
            # The stand-in names the target it was started with, as engine.cpp does.
            f.write("#!/bin/sh\necho '{\"type\":\"hello\",\"id\":0,\"protocol\":1,\"torch_version\":\"2.11.0\","
                    "\"target\":\"'\"$AOTSTUDIO_TARGET\"'\",\"devices\":[]}'\nread line\necho \"$line\" > "
                    + os.path.join(d, "got") + "\n")
        os.chmod(engine, 0o755)
        return engine

    def test_target_reaches_the_node_and_is_checked(self):
        with tempfile.TemporaryDirectory() as d:
            engine = self._engine(d)
            events = list(fanout_task.run_engine(engine, {"type": "quantize", "id": 1, "device": "cpu"}, "", "2.11.0",
                                                 None, None, "zerogpu"))
            self.assertEqual(events[0]["type"], "fanout_hello")
            self.assertEqual(events[0]["target"], "zerogpu")
            self.assertTrue(os.path.exists(os.path.join(d, "got")))  # the request was sent

    def test_node_without_the_target_runs_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            engine = self._engine(d)
            env = dict(os.environ)
            os.environ.pop("AOTSTUDIO_TARGET", None)
            try:  # the driver is a target's engine, the node's engine is not
                events = list(fanout_task.run_engine(engine, {"type": "quantize", "id": 1, "device": "cpu"}, "",
                                                     "2.11.0", None, None, ""))
                self.assertEqual(events[0]["type"], "fanout_hello")  # none on both sides: fine
                os.remove(os.path.join(d, "got"))
                fake = os.path.join(d, "other")
                with open(fake, "w", encoding="utf-8") as f:
                    f.write("#!/bin/sh\necho '{\"type\":\"hello\",\"id\":0,\"protocol\":1,\"torch_version\":\"2.11.0\","
                            "\"devices\":[]}'\nread line\necho \"$line\" > " + os.path.join(d, "got") + "\n")
                os.chmod(fake, 0o755)
                events = list(fanout_task.run_engine(fake, {"type": "quantize", "id": 1, "device": "cpu"}, "", "2.11.0",
                                                     None, None, "zerogpu"))
            finally:
                os.environ.clear()
                os.environ.update(env)
            self.assertEqual(events[-1]["error"]["code"], "ray_unavailable")
            self.assertIn("zerogpu", events[-1]["error"]["message"])
            self.assertFalse(os.path.exists(os.path.join(d, "got")))


class Send(unittest.TestCase):
    """The files a job sends with its tasks (fanout.pack_sent, fanout_task.unpack_sent)."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.src = os.path.join(self.dir.name, "src")
        os.makedirs(os.path.join(self.src, "compile"))
        os.makedirs(os.path.join(self.src, "bundle", "packages"))
        for name, data in (("compile/model.pt2", b"\0pt2"), ("compile/result.json", b"{}"),
                           ("bundle/manifest.json", b"{}"), ("bundle/packages/batch1.pt2", b"\0b1")):
            with open(os.path.join(self.src, name), "wb") as f:
                f.write(data)

    def test_siblings_stay_together_and_strings_are_rewritten(self):
        package = os.path.join(self.src, "compile", "model.pt2")
        result = os.path.join(self.src, "compile", "result.json")
        bundle = os.path.join(self.src, "bundle")
        blob, places = fanout.pack_sent([package, result, bundle])
        self.assertEqual(places[package].split("/")[0], places[result].split("/")[0])
        self.assertNotEqual(places[package].split("/")[0], places[bundle].split("/")[0])
        worker = os.path.join(self.dir.name, "worker")
        moves = fanout_task.unpack_sent(blob, worker, places)
        with open(moves[package], "rb") as f:
            self.assertEqual(f.read(), b"\0pt2")
        self.assertEqual(os.path.dirname(moves[package]), os.path.dirname(moves[result]))
        with open(os.path.join(moves[bundle], "packages", "batch1.pt2"), "rb") as f:
            self.assertEqual(f.read(), b"\0b1")
        request = {"package": package, "bundle": bundle + "/packages/batch1.pt2", "near": bundle + "x",
                   "list": [result, 3], "model": "sample:mlp"}
        moved = fanout_task.rewrite_paths(request, moves)
        self.assertEqual(moved["package"], moves[package])
        self.assertEqual(moved["bundle"], moves[bundle] + "/packages/batch1.pt2")
        self.assertEqual(moved["near"], bundle + "x")  # a longer name is another path
        self.assertEqual(moved["list"], [moves[result], 3])
        self.assertEqual(moved["model"], "sample:mlp")
        back = fanout_task.rewrite_paths(moved, {v: k for k, v in moves.items()})
        self.assertEqual(back, request)

    def test_more_than_the_limit_is_refused_before_packing(self):
        package = os.path.join(self.src, "compile", "model.pt2")
        with self.assertRaises(FrontendError) as ctx:
            fanout.pack_sent([package, os.path.join(self.src, "bundle")], limit=6)
        self.assertEqual(ctx.exception.code, "bad_request")
        self.assertIn("9 bytes, more than the 6 bytes", ctx.exception.message)
        self.assertIn(package, ctx.exception.message)
        self.assertEqual(fanout.SEND_LIMIT_BYTES, 2 << 30)
        fanout.pack_sent([package], limit=4)  # at the limit: sent

    def test_missing_or_relative_path_is_refused(self):
        for bad in (os.path.join(self.src, "nothing"), "compile/model.pt2"):
            with self.assertRaises(FrontendError) as ctx:
                fanout.pack_sent([bad])
            self.assertEqual(ctx.exception.code, "bad_request", bad)

    def test_archive_cannot_write_outside(self):
        worker = os.path.join(self.dir.name, "worker")
        for member in ("../escape.bin", "0/../../escape.bin"):
            buf = io.BytesIO()
            with tarfile.open(fileobj=buf, mode="w") as tar:
                info = tarfile.TarInfo(member)
                info.size = 1
                tar.addfile(info, io.BytesIO(b"x"))
            with self.assertRaises(tarfile.TarError, msg=member):
                fanout_task.unpack_sent(buf.getvalue(), worker, {"/p": "0/p"})
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            info = tarfile.TarInfo("0/link")
            info.type = tarfile.SYMTYPE
            info.linkname = "/etc/passwd"
            tar.addfile(info)
        with self.assertRaises(tarfile.TarError):
            fanout_task.unpack_sent(buf.getvalue(), worker, {"/p": "0/link"})
        self.assertFalse(os.path.exists(os.path.join(self.dir.name, "escape.bin")))
        # A sent path the archive lacks is an error too, not a request naming nothing.
        blob, _ = fanout.pack_sent([os.path.join(self.src, "compile", "result.json")])
        with self.assertRaises(FileNotFoundError):
            fanout_task.unpack_sent(blob, worker, {"/p": "0/model.pt2"})

    def test_task_runs_on_the_unpacked_copy(self):
        # A stand-in engine that answers with what it found at the request's `package`.
        package = os.path.join(self.src, "compile", "model.pt2")
        engine = os.path.join(self.dir.name, "aotstudio-engine")
        with open(engine, "w", encoding="utf-8") as f:
            f.write(f"#!{sys.executable}\n" + "\n".join([
                "import json, sys",
                "print(json.dumps({'type': 'hello', 'id': 0, 'torch_version': '2.14.1', 'devices': []}), flush=True)",
                "req = json.loads(sys.stdin.readline())",
                "data = open(req['package'], 'rb').read().decode('latin-1')",
                "res = {'package': req['package'], 'data': data, 'out': req['out']}",
                "import os; os.makedirs(req['out'], exist_ok=True)",
                "json.dump({'package': req['package']}, open(os.path.join(req['out'], 'seen.json'), 'w'))",
                "print(json.dumps({'type': 'result', 'id': req['id'], 'result': res}), flush=True)",
                "sys.stdin.readline()"]) + "\n")
        os.chmod(engine, 0o755)
        blob, places = fanout.pack_sent([package])
        events = list(fanout_task.run_engine(engine, {"type": "sweep", "id": 1, "package": package}, "", "2.14.1",
                                             places, blob))
        done = events[-1]
        self.assertEqual(done["type"], "fanout_done")
        self.assertNotIn("error", done)
        self.assertEqual(done["result"]["data"], "\0pt2")  # the engine read the sent copy...
        self.assertEqual(done["result"]["package"], package)  # ...and its result names the driver's file
        self.assertNotEqual(done["result"]["out"], package)
        # So do the JSON files it wrote, as they come back.
        with tarfile.open(fileobj=io.BytesIO(done["files"])) as tar:
            seen = json.load(tar.extractfile("./seen.json"))
        self.assertEqual(seen, {"package": package})
        # A broken archive ends the task before the engine starts.
        events = list(fanout_task.run_engine(engine, {"type": "sweep", "id": 1, "package": package}, "", "2.14.1",
                                             places, b"not a tar"))
        self.assertEqual(events[-1]["error"]["code"], "remote_failed")
        self.assertIn("cannot unpack", events[-1]["error"]["message"])


class _FakeRay:
    """What fanout.poll/cancel use of Ray: wait, get, cancel and the exception classes; a task is a
    list of items (yielded) and exceptions (raised by next())."""

    class exceptions:  # noqa: N801 (as Ray names it)
        class RayError(Exception):
            pass

        class NodeDiedError(RayError):
            pass

        class RayTaskError(RayError):
            pass

        class TaskCancelledError(RayError):
            pass

    def __init__(self):
        self.cancelled = []

    @staticmethod
    def wait(gens, num_returns=1, timeout=None):
        return gens[:num_returns], gens[num_returns:]

    @staticmethod
    def get(ref):
        return ref

    def cancel(self, gen):
        self.cancelled.append(gen)


def _task(*steps):
    def gen():
        for s in steps:
            if isinstance(s, Exception):
                raise s
            yield s
    return gen()


def _hello(node):
    return {"type": "fanout_hello", "host": "box", "device_name": "cpu", "node": node}


class NodeLoss(unittest.TestCase):
    """fanout.poll: a task whose node is lost is submitted again (NODE_LOSS_RETRIES), named in a
    warning; its engine's own failure and a cancelled fan-out are not retried. The cluster run:
    ray_node_loss.py (slow)."""

    def _run(self, attempts):
        ray = _FakeRay()
        tasks = iter(attempts)
        run = {"subs": [{"target": "/unused"}], "gens": {}, "done": set(), "ray": ray,
               "submit": {0: lambda: next(tasks)}, "attempts": {0: 1}, "origins": {}, "cancelled": False}
        run["gens"][0] = run["submit"][0]()
        handle = max(fanout._runs, default=0) + 1000
        fanout._runs[handle] = run
        self.addCleanup(fanout._runs.pop, handle, None)
        return handle, run

    @staticmethod
    def _drain(handle):
        answers = []
        for _ in range(50):
            got = fanout.poll(handle, 0)
            answers += got
            if any(a.get("done") for a in got):
                break
        return answers

    def test_lost_node_is_retried_and_named(self):
        died = _FakeRay.exceptions.NodeDiedError("node died")
        failed = {"type": "fanout_done", "host": "box", "node": "b" * 40,
                  "error": {"code": "remote_failed", "stage": "engine", "message": "x", "hint": ""}}
        handle, run = self._run([_task(_hello("a" * 40), died), _task(_hello("b" * 40), failed)])
        answers = self._drain(handle)
        warnings = [a["event"]["message"] for a in answers if (a.get("event") or {}).get("type") == "log"]
        self.assertEqual(len(warnings), 1, answers)
        self.assertIn("a" * 12, warnings[0])
        self.assertIn(f"attempt 2 of {fanout.NODE_LOSS_RETRIES + 1}", warnings[0])
        self.assertEqual(run["attempts"][0], 2)
        self.assertTrue(answers[-1]["done"])
        self.assertEqual(answers[-1]["origin"]["node"], "b" * 40)  # where it ended, not where it was lost

    def test_retries_are_bounded_and_the_failure_names_the_node(self):
        tasks = [_task(_hello(c * 40), _FakeRay.exceptions.NodeDiedError("gone"))
                 for c in "abcdefgh"[:fanout.NODE_LOSS_RETRIES + 1]]
        handle, run = self._run(tasks)
        answers = self._drain(handle)
        done = answers[-1]
        self.assertTrue(done["done"])
        self.assertEqual(done["error"]["code"], "remote_failed")
        last = "abcdefgh"[fanout.NODE_LOSS_RETRIES]
        self.assertIn(f"on Ray node {last * 12} of host box", done["error"]["message"])
        self.assertIn(f"after {fanout.NODE_LOSS_RETRIES + 1} attempts", done["error"]["message"])

    def test_engine_failure_and_cancel_are_not_retried(self):
        handle, run = self._run([_task(_hello("a" * 40), _FakeRay.exceptions.RayTaskError("engine crashed"))])
        self.assertEqual(self._drain(handle)[-1]["error"]["code"], "remote_failed")
        self.assertEqual(run["attempts"][0], 1)
        handle, run = self._run([_task(_hello("a" * 40), _FakeRay.exceptions.NodeDiedError("gone")), _task()])
        fanout.poll(handle, 0)  # the hello
        fanout.cancel(handle)
        self.assertEqual(len(run["ray"].cancelled), 1)
        answers = self._drain(handle)
        self.assertEqual(run["attempts"][0], 1)
        self.assertTrue(answers[-1]["done"])
        self.assertFalse([a for a in answers if (a.get("event") or {}).get("type") == "log"])


if __name__ == "__main__":
    unittest.main()
