# SPDX-License-Identifier: GPL-3.0-or-later
"""One child-process mechanism (HACKING.md "Rules the build enforces"): outside core/process/, no
C++ source of the engine side or app/ calls fork, posix_spawn, an exec function, system() or popen()
itself; every child starts through core/process/childprocess.h (Process::spawn, forkChild,
execReplacing, runProcess, spawnDetached). The descendant reaper's watchdog (core/pipeline/reaper.cpp:
_Fork and raw system calls, async-signal-safe) is the one exception. Tests and benchmarks may start
processes as they like. Reads the sources only: well under a second. Run:
.venv/bin/python -m unittest discover -s tests/python -p test_one_child_process.py"""

import glob
import os
import re
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

# A call of a process starter: the name, then "(", unqualified, `::name` or `std::name` (not a member
# or another namespace's function, QLocale::system()); not a mention in a comment or a string, which
# are removed first.
_NAMES = r"(fork|vfork|_Fork|posix_spawnp?|execv|execve|execvp|execvpe|execl|execlp|execle|system|popen)"
STARTERS = re.compile(r"(?:(?<![\w.:>])|(?<![\w:])::|\bstd::)" + _NAMES + r"\s*\(")
ALLOWED = {
    os.path.join("core", "process", "childprocess.cpp"),
    os.path.join("core", "pipeline", "reaper.cpp"),  # the watchdog: _Fork, raw system calls only
}


def code_only(text):
    """`text` without comments and string literals (so that a message naming fork() is no call)."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'R"(\w*)\((?:.|\n)*?\)\1"', '""', text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def offenders():
    found = []
    for top in ("core", "app", "widgets"):
        for path in glob.glob(os.path.join(ROOT, top, "**", "*.*"), recursive=True):
            if not path.endswith((".cpp", ".h")):
                continue
            rel = os.path.relpath(path, ROOT)
            if rel in ALLOWED:
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                text = code_only(f.read())
            for m in STARTERS.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{rel}:{line}: {m.group(1)}()")
    return found


class OneChildProcessMechanism(unittest.TestCase):
    def test_no_process_starter_outside_core_process(self):
        self.assertEqual(offenders(), [], "start children through core/process/childprocess.h (Process::spawn, "
                         "forkChild, runProcess, spawnDetached, execReplacing)")

    def test_the_check_sees_a_call(self):
        # The pattern finds what it is for, and not a mention in a comment or a string.
        self.assertTrue(STARTERS.search(code_only("pid_t p = ::fork();")))
        self.assertTrue(STARTERS.search(code_only("rc = posix_spawnp(&pid, a, 0, 0, v, e);")))
        self.assertFalse(STARTERS.search(code_only('// fork() here\nx = "popen(";')))
        self.assertTrue(STARTERS.search(code_only("std::system(cmd);")))
        self.assertFalse(STARTERS.search(code_only("forkChild(spec, body); m_pool.system_ok();")))
        self.assertFalse(STARTERS.search(code_only("QLocale::system(); p->fork(); o.popen();")))


if __name__ == "__main__":
    unittest.main()
