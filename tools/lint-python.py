#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Python lint of CTest py_lint: ruff (pinned in tools/requirements.txt, configured in
pyproject.toml [tool.ruff]) over the front end, the Python tests and fixtures, tools/ and the
wheel's package. Exit 77 (CTest: skipped) when ruff is not installed in this interpreter's env.
    .venv/bin/python tools/lint-python.py [--fix]"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATHS = ["core/python", "tests/python", "tests/fixtures", "tests/bench", "tools", "packaging/wheel"]

try:
    from ruff.__main__ import find_ruff_bin
except ImportError:
    print("lint-python: ruff is not installed (tools/setup.sh installs it): skipped", file=sys.stderr)
    sys.exit(77)
args = [find_ruff_bin(), "check", *sys.argv[1:], *[p for p in PATHS if os.path.isdir(os.path.join(ROOT, p))]]
sys.exit(subprocess.call(args, cwd=ROOT))
