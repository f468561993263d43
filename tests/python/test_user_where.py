# SPDX-License-Identifier: GPL-3.0-or-later
"""The error event's ``where`` (errors.user_where, FORMAT.md "Where it failed"): a factory that
raises and a model file with a syntax error give the user's own frames, innermost last, and the
source around the failing line. Run:
.venv/bin/python -m unittest discover -s tests/python -p test_user_where.py"""

import os
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "core", "python"))

from aotstudio_frontend import models  # noqa: E402
from aotstudio_frontend.errors import FrontendError, user_where  # noqa: E402


class UserWhere(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, name: str, source: str) -> str:
        path = os.path.join(self.dir.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(source))
        return path

    def load_error(self, spec: str) -> FrontendError:
        with self.assertRaises(FrontendError) as raised:
            models._load_factory(spec)
        return raised.exception

    def test_factory_that_raises(self):
        path = self.write("net.py", """\
            import torch


            def helper(n):
                x = torch.zeros(n)
                raise ValueError(f"bad size {n}")


            def factory():
                helper(3)
                return torch.nn.Linear(4, 4), (torch.randn(2, 4),)
            """)
        error = self.load_error(f"{path}:factory")
        self.assertEqual(error.code, "model_error")
        frames = error.where["frames"]
        # Only the user's frames: no front end (models.py), no library.
        self.assertEqual([(f["function"], f["line"]) for f in frames], [("factory", 10), ("helper", 6)])
        self.assertEqual(frames[-1]["code"], 'raise ValueError(f"bad size {n}")')
        self.assertTrue(all(f["file"] == path for f in frames))
        excerpt = error.where["excerpt"]
        self.assertEqual((excerpt["file"], excerpt["line"], excerpt["first"]), (path, 6, 3))
        self.assertEqual(excerpt["lines"][excerpt["line"] - excerpt["first"]], '    raise ValueError(f"bad size {n}")')
        self.assertEqual(len(excerpt["lines"]), 7)

    def test_syntax_error(self):
        path = self.write("broken.py", "import torch\n\ndef factory(:\n    return 1\n")
        error = self.load_error(f"{path}:factory")
        self.assertIn(f"{path}:3", error.message)  # not importlib's frame
        self.assertEqual(error.where["frames"], [{"file": path, "line": 3, "function": "<module>",
                                                  "code": "def factory(:"}])
        self.assertEqual(error.where["excerpt"]["first"], 1)
        self.assertEqual(error.where["excerpt"]["lines"][2], "def factory(:")
        self.assertEqual(error.where["excerpt"]["column"], 13)

    def test_no_user_frame(self):
        try:
            import json
            json.loads("{")
        except ValueError as exc:
            where = user_where(exc)
        # This test file is the only non-library frame: its own line, nothing of json's.
        self.assertEqual([f["function"] for f in where["frames"]], ["test_no_user_frame"])


if __name__ == "__main__":
    unittest.main()
