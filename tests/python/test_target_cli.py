# SPDX-License-Identifier: GPL-3.0-or-later
"""aotstudio-cli target and --target without a download, a build or an engine (CTest cli_target,
label unit; skipped inside py_frontend, which has no AOTSTUDIO_CLI_PATH): the command line refused
before anything starts (exit 2), the missing-Python message leaving nothing behind, target list over
written and broken target.json files, remove of an unknown target, and --target running the
target's own aotstudio-cli (a stand-in script here) with the option taken out and its interpreter named."""

import json
import os
import signal
import stat
import subprocess
import tempfile
import unittest

CLI = os.environ.get("AOTSTUDIO_CLI_PATH", "")


@unittest.skipUnless(CLI, "AOTSTUDIO_CLI_PATH is not set (CTest cli_target sets it)")
class TargetCliTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.base = os.path.join(self.tmp.name, "targets")
        self.env = dict(os.environ, AOTSTUDIO_TARGETS_DIR=self.base, PATH=os.environ.get("PATH", ""))

    def cli(self, *args, env=None):
        return subprocess.run([CLI, *args], capture_output=True, text=True, env=env or self.env, timeout=120)

    def write_target(self, name, cli_path="/nonexistent/aotstudio-cli"):
        folder = os.path.join(self.base, name)
        os.makedirs(folder)
        with open(os.path.join(folder, "target.json"), "w") as f:
            json.dump({"format": 1, "python": "3.11", "torch": "2.11.0+cu130", "cuda": "cu130", "torchao": None,
                       "cli": cli_path, "engine": "/nonexistent/aotstudio-engine",
                       "venv_python": os.path.join(folder, "venv", "bin", "python"), "libpython_dir": "/usr/lib",
                       "engine_start_s": 1.5, "created": "2026-01-01T00:00:00+00:00"}, f)
        return folder

    def test_bad_command_lines_exit_2(self):
        for args, words in [(["add", "t", "--torch", "2.11"], "not a version X.Y.Z"),
                            (["add", "t"], "--torch X.Y.Z is missing"),
                            (["add", "a/b", "--torch", "2.11.0"], "not a target name"),
                            (["add", "t", "--torch", "2.11.0", "--python", "311"], "not a version 3.N"),
                            (["add", "t", "--torch", "2.11.0", "--cuda", "13"], "not a CUDA variant"),
                            (["remove", "-x"], "")]:
            r = self.cli("target", *args)
            self.assertEqual(r.returncode, 2, (args, r.stderr))
            self.assertIn(words, r.stderr)
        self.assertFalse(os.path.exists(self.base))

    def test_missing_python_leaves_nothing(self):
        r = self.cli("target", "add", "zerogpu", "--python", "3.19", "--json")
        self.assertEqual(r.returncode, 1, r.stderr)
        error = json.loads(r.stdout)["error"]
        self.assertEqual(error["code"], "not_found")
        self.assertIn("no Python 3.19", error["message"])
        self.assertIn("tried:", error["message"])
        last = r.stderr.strip().splitlines()[-1]
        self.assertTrue(last.startswith("aotstudio-cli: target add failed (not_found): no Python 3.19"), last)
        self.assertEqual(os.listdir(self.base) if os.path.isdir(self.base) else [], [])

    def test_ctrl_c_leaves_nothing(self):
        # The real tools/target.py with a stand-in Python 3.11 whose pip hangs: SIGINT to the CLI
        # is passed on as the script's cancel, which stops the pip and removes the partial folder.
        fake = os.path.join(self.tmp.name, "python3.11")
        with open(fake, "w") as f:
            f.write('#!/bin/sh\n'
                    'case "$1 $2" in\n'
                    '  "-c "*) echo "$0"; echo 3.11; echo 1 ;;\n'
                    '  "-m venv") mkdir -p "$3/bin" && cp "$0" "$3/bin/python" ;;\n'
                    '  "-m pip") echo "Collecting torch==2.11.0"; exec sleep 60 ;;\n'
                    'esac\n')
        os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)
        env = dict(self.env, AOTSTUDIO_TARGET_PYTHON=fake)
        proc = subprocess.Popen([CLI, "target", "add", "t", "--torch", "2.11.0", "--json"], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for line in proc.stderr:
            if "pip: Collecting torch" in line:
                break
        self.assertTrue(any(n.startswith(".partial-") for n in os.listdir(self.base)))
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 130, err)
        self.assertEqual(json.loads(out)["error"]["code"], "cancelled")
        self.assertEqual(os.listdir(self.base), [])

    def test_list(self):
        r = self.cli("target", "list")
        self.assertEqual(r.returncode, 0)
        self.assertIn("no targets in", r.stdout)
        self.write_target("t211")
        os.makedirs(os.path.join(self.base, "broken"))
        os.makedirs(os.path.join(self.base, ".partial-1"))
        r = self.cli("target", "list", "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        result = json.loads(r.stdout)["result"]
        self.assertEqual(result["targets_dir"], self.base)
        self.assertEqual([t["name"] for t in result["targets"]], ["broken", "t211"])
        self.assertIn("does not exist", result["targets"][0]["error"])
        self.assertEqual(result["targets"][1]["torch"], "2.11.0+cu130")
        r = self.cli("target", "list")
        self.assertIn("torch 2.11.0+cu130 (cu130), Python 3.11, engine starts in 1.50 s", r.stdout)

    def test_remove_unknown(self):
        r = self.cli("target", "remove", "nope", "--json")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(json.loads(r.stdout)["error"]["code"], "not_found")

    def test_unknown_target_is_a_usage_error(self):
        r = self.cli("compile", "--target", "nope", "--model", "sample:mlp", "--json")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("--target nope: no such target", json.loads(r.stdout)["error"]["message"])
        self.write_target("gone")
        r = self.cli("export", "--model", "sample:mlp", "--out", "/tmp/x", "--target=gone")
        self.assertEqual(r.returncode, 2)
        self.assertIn("is missing or not executable", r.stderr)

    def test_target_runs_its_own_cli(self):
        fake = os.path.join(self.tmp.name, "fake-cli")
        with open(fake, "w") as f:
            f.write('#!/bin/sh\necho "args:$*"\necho "python:$AOTSTUDIO_PYTHON"\necho "target:$AOTSTUDIO_TARGET"\n'
                    'echo "pythonpath:$PYTHONPATH"\nexit 7\n')
        os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)
        folder = self.write_target("t211", cli_path=fake)
        env = dict(self.env, PYTHONPATH="/elsewhere", AOTSTUDIO_PYTHON="/main/venv/bin/python")
        r = self.cli("compile", "--target", "t211", "--model", "sample:mlp", "--out", "/tmp/x", env=env)
        self.assertEqual(r.returncode, 7, r.stderr)
        self.assertEqual(r.stdout.splitlines(), ["args:compile --model sample:mlp --out /tmp/x",
                                                 f"python:{os.path.join(folder, 'venv', 'bin', 'python')}",
                                                 "target:t211", "pythonpath:"])


if __name__ == "__main__":
    unittest.main()
