# SPDX-License-Identifier: GPL-3.0-or-later
"""Every error code either side uses is listed in core/protocol/FORMAT.md ("Error codes"), the one
list. The front end's codes are the first argument of FrontendError (read from the source, so no
torch import); the C++ side's are Protocol::Code (core/protocol/messages.h), codes written as
literals in an engine-side Error, and the studio client's own (core/client). Run:
.venv/bin/python -m unittest discover -s tests/python -p test_error_codes.py"""

import glob
import os
import re
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def listed_codes():
    """The codes of FORMAT.md's "### Error codes" section: its "- `code`" items."""
    text = read("core/protocol/FORMAT.md")
    section = text.split("### Error codes", 1)[1].split("\n#", 1)[0]
    return set(re.findall(r"^- `([a-z_]+)`", section, re.M))


def python_codes():
    codes = {}
    for path in glob.glob(os.path.join(ROOT, "core", "python", "aotstudio_frontend", "**", "*.py"), recursive=True):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for code in re.findall(r"FrontendError\(\s*[\"']([a-z_]+)[\"']", text):
            codes.setdefault(code, os.path.relpath(path, ROOT))
        # A code passed by name (FrontendError(code, ...)) must be a literal somewhere: none is today.
        if re.search(r"FrontendError\(\s*[a-z_]+\s*,", text) and "def __init__" not in text:
            raise AssertionError(f"{path}: FrontendError with a code in a variable; list its values here")
    return codes


def cpp_codes():
    codes = {}
    messages = read("core/protocol/messages.h")
    block = messages.split("namespace Code {", 1)[1].split("} // namespace Code", 1)[0]
    for code in re.findall(r'constexpr const char \*\w+ = "([a-z_]+)"', block):
        codes.setdefault(code, "core/protocol/messages.h")
    patterns = [
        # Protocol::Error{"stage", "code", ...} with the code as a literal (engine side, app/).
        (r'Error\s*\{\s*"[^"]*"\s*,\s*"([a-z_]+)"', ("core/**/*.cpp", "core/**/*.h", "app/**/*.cpp")),
        # The studio client's EngineError{stage, QStringLiteral("code"), ...}.
        (r'EngineError\s*\{[^,{}]*,\s*QStringLiteral\("([a-z_]+)"\)', ("core/client/*.cpp", "widgets/**/*.cpp")),
    ]
    for pattern, globs in patterns:
        for g in globs:
            for path in glob.glob(os.path.join(ROOT, g), recursive=True):
                with open(path, encoding="utf-8", errors="replace") as f:
                    for code in re.findall(pattern, f.read()):
                        codes.setdefault(code, os.path.relpath(path, ROOT))
    return codes


class ErrorCodes(unittest.TestCase):
    def test_format_lists_codes(self):
        listed = listed_codes()
        self.assertIn("bad_request", listed)
        self.assertIn("usage", listed)

    def test_python_codes_are_listed(self):
        codes = python_codes()
        self.assertIn("model_error", codes)  # the scan found them
        missing = {c: where for c, where in codes.items() if c not in listed_codes()}
        self.assertEqual(missing, {}, "codes the front end raises that FORMAT.md \"Error codes\" does not list")

    def test_cpp_codes_are_listed(self):
        codes = cpp_codes()
        self.assertIn("internal", codes)
        self.assertIn("engine_crashed", codes)
        missing = {c: where for c, where in codes.items() if c not in listed_codes()}
        self.assertEqual(missing, {}, "codes the C++ side uses that FORMAT.md \"Error codes\" does not list")


if __name__ == "__main__":
    unittest.main()
