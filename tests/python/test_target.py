# SPDX-License-Identifier: GPL-3.0-or-later
"""tools/target.py without a download or a build (py_frontend, label unit): the command line and
the zerogpu preset, where targets live, target.json reading, the missing-Python message, the clean-up
of partial folders (a failed pip, an interrupt, a folder a killed add left), pip's one-line failure
and the wheel's metadata rewrite. `target add` for real: tests/packaging/check-target.sh (label target)."""

import importlib.util
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
import unittest.mock
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_spec = importlib.util.spec_from_file_location("aotstudio_target", os.path.join(ROOT, "tools", "target.py"))
target = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(target)


def write_target(folder, **fields):
    os.makedirs(folder, exist_ok=True)
    data = {"format": 1, "python": "3.11", "torch": "2.11.0+cu130", "cuda": "cu130", "torchao": None,
            "engine": "/x/bin/aotstudio-engine", "cli": "/x/bin/aotstudio-cli", "venv_python": "/x/venv/bin/python",
            "created": "2026-01-01T00:00:00+00:00"}
    data.update(fields)
    with open(os.path.join(folder, "target.json"), "w") as f:
        json.dump(data, f)


class FakeRunner:
    """Runner whose `python -m venv` makes the folder and whose pip fails or is interrupted."""

    def __init__(self, pip_rc=1, pip_lines=(), interrupt=False):
        self.pip_rc, self.pip_lines, self.interrupt, self.stopped = pip_rc, list(pip_lines), interrupt, False

    def run(self, argv, env=None, on_line=None):
        if argv[1:3] == ["-m", "venv"]:
            os.makedirs(os.path.join(argv[3], "bin"))
            return 0, []
        if self.interrupt:
            raise target.Interrupted()
        return self.pip_rc, self.pip_lines

    def stop(self):
        self.stopped = True


class TargetScriptTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.base = os.path.join(self.tmp.name, "targets")
        self.env = dict(os.environ, AOTSTUDIO_TARGETS_DIR=self.base)
        patcher = unittest.mock.patch.dict(os.environ, {"AOTSTUDIO_TARGETS_DIR": self.base})
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_targets_dir_order(self):
        self.assertEqual(target.targets_dir({"AOTSTUDIO_TARGETS_DIR": "/a/t", "XDG_DATA_HOME": "/x"}), "/a/t")
        self.assertEqual(target.targets_dir({"XDG_DATA_HOME": "/x"}), "/x/aotstudio/targets")
        self.assertTrue(target.targets_dir({}).endswith("/.local/share/aotstudio/targets"))

    def test_command_line_checks(self):
        for argv, words in [(["add", "t", "--torch", "2.11"], "X.Y.Z"),
                            (["add", "t", "--torch", "2.11.0", "--python", "3"], "3.N"),
                            (["add", "t", "--torch", "2.11.0", "--cuda", "cuda13"], "cuNNN"),
                            (["add", "../t", "--torch", "2.11.0"], "not a target name"),
                            (["add", "t"], "--torch X.Y.Z is missing")]:
            with self.assertRaises(target.TargetError, msg=argv) as e:
                target.parse(argv)
            self.assertEqual(e.exception.code, "usage")
            self.assertIn(words, e.exception.message)

    def test_zerogpu_preset(self):
        args = target.parse(["add", "zerogpu"])
        self.assertEqual((args.torch, args.python, args.cuda, args.preset), ("2.11.0", "3.12", "cu130", "zerogpu"))
        args = target.parse(["add", "zerogpu", "--python", "3.11"])
        self.assertEqual((args.torch, args.python), ("2.11.0", "3.11"))
        args = target.parse(["add", "mine", "--torch", "2.10.0"])
        self.assertEqual((args.python, args.preset), ("3.11", None))

    def test_read_target(self):
        folder = os.path.join(self.base, "t211")
        write_target(folder)
        t = target.read_target(folder)
        self.assertEqual((t["name"], t["torch"], t["path"]), ("t211", "2.11.0+cu130", folder))
        cases = [("{not json", "cannot read"), (json.dumps({"format": 2}), "format 1"),
                 (json.dumps({"format": 1, "python": "3.11"}), "has no 'torch'")]
        for text, words in cases:
            with open(os.path.join(folder, "target.json"), "w") as f:
                f.write(text)
            with self.assertRaises(target.TargetError) as e:
                target.read_target(folder)
            self.assertEqual(e.exception.code, "bad_request")
            self.assertIn(words, e.exception.message)
        with self.assertRaises(target.TargetError) as e:
            target.read_target(os.path.join(self.base, "absent"))
        self.assertEqual(e.exception.code, "not_found")

    def test_list_shows_unreadable_and_hides_partial(self):
        write_target(os.path.join(self.base, "a"))
        os.makedirs(os.path.join(self.base, "b"))
        os.makedirs(os.path.join(self.base, ".partial-1"))
        listed = target.list_targets()
        self.assertEqual([t["name"] for t in listed], ["a", "b"])
        self.assertIn("does not exist", listed[1]["error"])

    def test_sweep_removes_only_dead_processes_folders(self):
        dead = subprocess.Popen([sys.executable, "-c", "pass"])
        dead.wait()
        os.makedirs(os.path.join(self.base, f".partial-{dead.pid}", "venv"))
        os.makedirs(os.path.join(self.base, f".removing-{dead.pid}"))
        os.makedirs(os.path.join(self.base, f".partial-{os.getppid()}"))  # alive: an add under way
        removed = target.sweep_stale(self.base)
        self.assertEqual(sorted(removed), sorted([f".partial-{dead.pid}", f".removing-{dead.pid}"]))
        self.assertEqual(os.listdir(self.base), [f".partial-{os.getppid()}"])

    def test_missing_python_names_version_and_places(self):
        env = {"PATH": self.tmp.name, "PYENV_ROOT": os.path.join(self.tmp.name, "pyenv")}
        with self.assertRaises(target.TargetError) as e:
            target.find_python("3.19", env)
        message = e.exception.message
        self.assertEqual(e.exception.code, "not_found")
        self.assertIn("no Python 3.19", message)
        for tried in ("python3.19 on PATH (none)", "/usr/bin/python3.19 (absent)", "pyenv/versions/3.19.* (none)"):
            self.assertIn(tried, message)
        self.assertNotIn("\n", message)
        self.assertIn("--python 3.11", e.exception.hint)

    def test_python_found_is_checked(self):
        # This interpreter (3.11, the venv's) is accepted for its own version and refused for another.
        version = "%d.%d" % sys.version_info[:2]
        env = {"PATH": "", "AOTSTUDIO_TARGET_PYTHON": sys.executable, "PYENV_ROOT": self.tmp.name}
        real, why = target._python_ok(sys.executable, version)
        if real is None:
            self.skipTest(f"{sys.executable}: {why}")
        self.assertTrue(os.path.exists(target.find_python(version, env)))
        with self.assertRaises(target.TargetError) as e:
            target.find_python("3.19", env)
        self.assertIn(f"{sys.executable} (is Python {version})", e.exception.message)

    def _add(self, runner):
        args = target.parse(["add", "t", "--torch", "0.0.1"])
        with unittest.mock.patch.object(target, "find_python", return_value=sys.executable):
            return target.add(args, runner)

    def test_failed_pip_leaves_nothing(self):
        lines = ["Collecting torch==0.0.1",
                 "ERROR: Could not find a version that satisfies the requirement torch==0.0.1 (from versions: "
                 "2.0.0, 2.1.0, 2.2.0, 2.3.0, 2.4.0, 2.5.0, 2.6.0, 2.7.0)",
                 "ERROR: No matching distribution found for torch==0.0.1"]
        runner = FakeRunner(pip_lines=lines)
        with contextlib_redirect_stderr():
            with self.assertRaises(target.TargetError) as e:
                self._add(runner)
        self.assertEqual(e.exception.code, "not_found")
        self.assertTrue(e.exception.message.startswith("torch 0.0.1 cannot be installed from PyPI: pip says: "
                                                       "Could not find a version"))
        self.assertIn("(from versions: ..., 2.2.0, 2.3.0, 2.4.0, 2.5.0, 2.6.0, 2.7.0)", e.exception.message)
        self.assertTrue(runner.stopped)
        self.assertEqual(os.listdir(self.base), [])

    def test_interrupt_leaves_nothing(self):
        with contextlib_redirect_stderr():
            with self.assertRaises(target.Interrupted):
                self._add(FakeRunner(interrupt=True))
        self.assertEqual(os.listdir(self.base), [])

    def test_interrupt_stops_the_running_child(self):
        # The child runs in its own process group; an interrupt while it runs stops it (SIGTERM)
        # before the partial folder goes, so nothing keeps writing into it.
        runner = target.Runner()
        seen = []

        def on_line(line):
            seen.append(runner.child.pid)
            raise target.Interrupted()

        with self.assertRaises(target.Interrupted):
            runner.run(["sh", "-c", "echo started; exec sleep 60"], on_line=on_line)
        self.assertEqual(len(seen), 1)
        with self.assertRaises(ProcessLookupError):
            os.kill(seen[0], 0)

    def test_existing_target_refused(self):
        write_target(os.path.join(self.base, "t"))
        with self.assertRaises(target.TargetError) as e:
            self._add(FakeRunner())
        self.assertEqual(e.exception.code, "bad_request")
        self.assertIn("target remove t", e.exception.hint)

    def test_remove(self):
        write_target(os.path.join(self.base, "t"))
        self.assertTrue(target.remove("t")["removed"])
        self.assertEqual(os.listdir(self.base), [])
        with self.assertRaises(target.TargetError) as e:
            target.remove("t")
        self.assertEqual(e.exception.code, "not_found")

    def test_retag_wheel(self):
        wheel = os.path.join(self.tmp.name, "aotstudio_engine-0.1.0-cp312-cp312-linux_x86_64.whl")
        meta = ("Metadata-Version: 2.2\nName: aotstudio-engine\nRequires-Python: ==3.11.*\n"
                "Requires-Dist: torch==2.14.1\nRequires-Dist: torchao==0.18.0; extra == \"quant\"\n")
        with zipfile.ZipFile(wheel, "w") as z:
            z.writestr("aotstudio_engine/__init__.py", "")
            z.writestr("aotstudio_engine-0.1.0.dist-info/METADATA", meta)
            z.writestr("aotstudio_engine-0.1.0.dist-info/RECORD",
                       "aotstudio_engine/__init__.py,,0\naotstudio_engine-0.1.0.dist-info/METADATA,sha256=x,1\n"
                       "aotstudio_engine-0.1.0.dist-info/RECORD,,\n")
        target.retag_wheel(wheel, "2.11.0", "3.12", "0.17.0")
        with zipfile.ZipFile(wheel) as z:
            new = z.read("aotstudio_engine-0.1.0.dist-info/METADATA").decode()
            record = z.read("aotstudio_engine-0.1.0.dist-info/RECORD").decode()
        self.assertIn("Requires-Dist: torch==2.11.0\n", new)
        self.assertIn("Requires-Python: ==3.12.*\n", new)
        self.assertIn("Requires-Dist: torchao==0.17.0; extra", new)
        self.assertIn("METADATA,sha256=", record)
        self.assertNotIn("sha256=x,", record)


class contextlib_redirect_stderr:
    """The progress lines of add() kept out of the test's output."""

    def __enter__(self):
        self._old, sys.stderr = sys.stderr, io.StringIO()

    def __exit__(self, *exc):
        sys.stderr = self._old


if __name__ == "__main__":
    unittest.main()
