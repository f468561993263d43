# SPDX-License-Identifier: GPL-3.0-or-later
"""The engine message catalog (core/protocol/messages.json, FORMAT.md "Message ids"): the generated
files are current, every id the code uses is in the catalog with the args it gives, every catalog
id is used, and messages.Text carries its id through a FrontendError. No torch import. Run:
.venv/bin/python -m unittest discover -s tests/python -p test_messages.py"""

import ast
import glob
import importlib.util
import os
import pickle
import re
import subprocess
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FRONTEND = os.path.join(ROOT, "core", "python", "aotstudio_frontend")


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


# messages.py imports .messagecatalog: load both as a tiny package, without aotstudio_frontend's
# __init__ (which imports torch).
_pkg = type(sys)("aotstudio_msgs")
_pkg.__path__ = [FRONTEND]
sys.modules["aotstudio_msgs"] = _pkg
catalog = _load("aotstudio_msgs.messagecatalog", os.path.join(FRONTEND, "messagecatalog.py"))
messages = _load("aotstudio_msgs.messages", os.path.join(FRONTEND, "messages.py"))
gen = _load("gen_messages", os.path.join(ROOT, "tools", "gen-messages.py"))


def python_uses():
    """[(path, line, id, arg names)] of every ``text("id", name=...)`` call in the front end (``msgtext``
    where a module has a local named text)."""
    uses = []
    for path in glob.glob(os.path.join(FRONTEND, "**", "*.py"), recursive=True):
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("text", "msgtext") \
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                uses.append((os.path.relpath(path, ROOT), node.lineno, node.args[0].value,
                             {k.arg for k in node.keywords}))
    return uses


def cpp_uses():
    """[(path, id, arg names)] of every ``text("id", {{"name", ...}, ...})`` in the C++ sources."""
    uses = []
    call = re.compile(r'\btext\(\s*"([a-z0-9_.]+)"\s*(?:,\s*\{(\{.*?\})\s*\})?\s*\)', re.S)
    for pattern in ("core/**/*.cpp", "core/**/*.h", "app/**/*.cpp"):
        for path in glob.glob(os.path.join(ROOT, pattern), recursive=True):
            with open(path, encoding="utf-8", errors="replace") as f:
                source = f.read()
            for m in call.finditer(source):
                names = set(re.findall(r'\{\s*"([a-z_][a-z0-9_]*)"\s*,', m.group(2) or ""))
                uses.append((os.path.relpath(path, ROOT), m.group(1), names))
    return uses


class GeneratedFiles(unittest.TestCase):
    def test_generated_files_are_current(self):
        r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen-messages.py"), "--check"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr + r.stdout)

    def test_schema_checks_catch_mistakes(self):
        import json
        import tempfile
        bad = {"version": 1, "messages": [
            {"id": "a.b", "text": "uses {missing}", "args": {}},
            {"id": "a.b", "text": "fine", "args": {}},
            {"id": "c.d", "text": "{x:>5}", "args": {"x": "int"}},
            {"id": "e.f", "text": "no args used", "args": {"y": "weird"}},
        ]}
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "messages.json")
            with open(path, "w") as f:
                json.dump(bad, f)
            with self.assertRaises(SystemExit) as caught:
                gen.load(gen.Path(path))
        text = str(caught.exception)
        for expected in ("uses {missing}, which args lacks", "id used twice", "format spec '>5'",
                         "unknown type 'weird'", "does not use y"):
            self.assertIn(expected, text)


class Uses(unittest.TestCase):
    def test_python_ids_and_args_are_in_the_catalog(self):
        uses = python_uses()
        self.assertGreater(len(uses), 10)
        for path, line, mid, names in uses:
            self.assertIn(mid, catalog.MESSAGES, f"{path}:{line}: id '{mid}' is not in messages.json")
            self.assertEqual(names, set(catalog.MESSAGES[mid][1]), f"{path}:{line}: args of '{mid}'")

    def test_cpp_ids_and_args_are_in_the_catalog(self):
        uses = cpp_uses()
        self.assertGreater(len(uses), 10)
        for path, mid, names in uses:
            self.assertIn(mid, catalog.MESSAGES, f"{path}: id '{mid}' is not in messages.json")
            self.assertEqual(names, set(catalog.MESSAGES[mid][1]), f"{path}: args of '{mid}'")

    def test_every_catalog_id_is_used(self):
        used = {u[2] for u in python_uses()} | {u[1] for u in cpp_uses()}
        unused = sorted(set(catalog.MESSAGES) - used)
        self.assertEqual(unused, [], "catalog ids no code sends: remove them or use them")


class TextValues(unittest.TestCase):
    def test_text_is_the_english_string_with_its_id(self):
        t = messages.text("load.file_missing", path="/m/net.py")
        self.assertEqual(t, "model file '/m/net.py' does not exist")
        self.assertIsInstance(t, str)
        self.assertEqual(messages.msg_of(t), {"id": "load.file_missing", "args": {"path": "/m/net.py"}})
        self.assertIsNone(messages.msg_of("plain"))
        self.assertIsNone(messages.msg_of(t + "!"))  # a changed text has no id

    def test_numbers_keep_their_type_and_format(self):
        t = messages.text("cancel.measuring_scheme", scheme="int8-dynamic")
        self.assertEqual(t.msg_args, {"scheme": "int8-dynamic"})

        class Scalar:  # numpy's and torch's scalars have .item()
            def item(self):
                return 2.5
        t = messages.Text("load.bad_spec", {"spec": Scalar()})
        self.assertEqual(t.msg_args["spec"], 2.5)

    def test_unknown_id_or_wrong_args_are_bugs(self):
        with self.assertRaisesRegex(KeyError, "not in core/protocol/messages.json"):
            messages.text("no.such_id")
        with self.assertRaisesRegex(TypeError, "takes args"):
            messages.text("load.file_missing")
        with self.assertRaisesRegex(TypeError, "takes args"):
            messages.text("load.file_missing", path="p", extra=1)

    def test_pickle_keeps_the_id(self):
        t = messages.text("load.unknown_sample", name="nope")
        back = pickle.loads(pickle.dumps(t))
        self.assertEqual(back, t)
        self.assertEqual(messages.msg_of(back), messages.msg_of(t))


if __name__ == "__main__":
    unittest.main()
