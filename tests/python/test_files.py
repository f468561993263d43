# SPDX-License-Identifier: GPL-3.0-or-later
"""Unit tests of files.write_json_atomic, the front end's one way to write a result file. Run:
.venv/bin/python -m unittest discover -s tests/python -p test_files.py"""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "core", "python"))

from aotstudio_frontend.files import write_json_atomic  # noqa: E402


class WriteJsonAtomic(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def test_writes_creates_folder_and_replaces(self):
        path = os.path.join(self.dir.name, "sub", "r.json")
        self.assertEqual(write_json_atomic(path, {"a": 1}, indent=1), path)
        self.assertEqual(json.load(open(path, encoding="utf-8")), {"a": 1})
        write_json_atomic(path, [1, 2], separators=(",", ":"))
        self.assertEqual(open(path, encoding="utf-8").read(), "[1,2]")
        self.assertEqual(os.listdir(os.path.dirname(path)), ["r.json"])  # no temporary file left

    def test_failure_keeps_the_old_file(self):
        path = os.path.join(self.dir.name, "r.json")
        write_json_atomic(path, {"old": True})
        with self.assertRaises(TypeError):
            write_json_atomic(path, {"new": object()})  # not JSON: fails half-way through the dump
        self.assertEqual(json.load(open(path, encoding="utf-8")), {"old": True})
        self.assertEqual(os.listdir(self.dir.name), ["r.json"])


class OutputFolder(unittest.TestCase):
    """outdir.remove_if_empty(): a job that failed before writing anything leaves no folder holding
    only its lock (issue 34: a failed profile left one); anything else in it keeps it."""

    def test_lock_only_folder_is_removed(self):
        from aotstudio_frontend import outdir
        base = tempfile.mkdtemp()
        self.addCleanup(lambda: os.path.isdir(base) and os.rmdir(base))
        out = os.path.join(base, "profile")
        outdir.lock(out).close()
        self.assertEqual(os.listdir(out), [".aotstudio.lock"])
        self.assertTrue(outdir.remove_if_empty(out))
        self.assertFalse(os.path.exists(out))

    def test_folder_with_files_stays(self):
        from aotstudio_frontend import outdir
        base = tempfile.TemporaryDirectory()
        self.addCleanup(base.cleanup)
        out = os.path.join(base.name, "job")
        outdir.lock(out).close()
        with open(os.path.join(out, "error.json"), "w", encoding="utf-8") as f:
            f.write("{}")
        self.assertFalse(outdir.remove_if_empty(out))
        self.assertEqual(sorted(os.listdir(out)), [".aotstudio.lock", "error.json"])


if __name__ == "__main__":
    unittest.main()
