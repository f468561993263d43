# SPDX-License-Identifier: GPL-3.0-or-later
"""Unit tests of guards.py (FORMAT.md "guards"): the guard printer read back by Python gives the
same value as the tree it printed (issue 34: "2 * (s // 2)" once printed as "2 * s // 2", which
reads as always true), and every exported input's strides and layout are recorded (version 2)
so that the runner can refuse or convert another layout. Plain Python on torch.export; no compile.
Run: .venv/bin/python -m unittest discover -s tests/python -p test_guards.py"""

import itertools
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "core", "python"))

import torch  # noqa: E402

from aotstudio_frontend import guards  # noqa: E402


def evaluate(tree, env):
    """The checker's semantics of a tree (core/bundle/guards.cpp evaluate(): Python's floor
    division and modulo, booleans as 0/1)."""
    if isinstance(tree, bool):
        return int(tree)
    if isinstance(tree, int):
        return tree
    if isinstance(tree, str):
        return env[tree]
    op, args = tree[0], [evaluate(a, env) for a in tree[1:]]
    if op == "+":
        return sum(args)
    if op == "*":
        r = 1
        for a in args:
            r *= a
        return r
    binary = {"//": lambda a, b: a // b, "%": lambda a, b: a % b, "==": lambda a, b: int(a == b),
              "!=": lambda a, b: int(a != b), "<": lambda a, b: int(a < b), "<=": lambda a, b: int(a <= b),
              ">": lambda a, b: int(a > b), ">=": lambda a, b: int(a >= b)}
    if op in binary:
        return binary[op](*args)
    if op == "and":
        return int(all(args))
    if op == "or":
        return int(any(args))
    if op == "not":
        return int(not args[0])
    if op == "max":
        return max(args)
    if op == "min":
        return min(args)
    raise AssertionError(op)


def random_int(rng, depth):
    """A random integer tree over symbols a, b (divisors non-zero constants)."""
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(["a", "b", rng.randint(-3, 9)])
    op = rng.choice(["+", "*", "//", "%", "max", "min"])
    if op in ("//", "%"):
        return [op, random_int(rng, depth - 1), rng.choice([2, 3, 4, 8])]
    return [op] + [random_int(rng, depth - 1) for _ in range(rng.randint(2, 3))]


def random_bool(rng, depth):
    """A random guard: comparisons of integer trees joined by and / or / not."""
    if depth == 0 or rng.random() < 0.4:
        return [rng.choice(["==", "!=", "<", "<=", ">", ">="]), random_int(rng, 3), random_int(rng, 3)]
    op = rng.choice(["and", "or", "not"])
    if op == "not":
        return [op, random_bool(rng, depth - 1)]
    return [op] + [random_bool(rng, depth - 1) for _ in range(rng.randint(2, 3))]


class GuardText(unittest.TestCase):
    def read_back(self, tree):
        text = guards.tree_text(tree, {})
        for a, b in itertools.product([1, 2, 3, 7, 16], [1, 5, 8]):
            env = {"a": a, "b": b}
            got = eval(text, {"max": max, "min": min}, dict(env))  # noqa: S307 - our own printed text
            got = int(bool(got)) if isinstance(got, bool) else got
            self.assertEqual(int(got), evaluate(tree, env), f"{tree} printed as {text!r} at {env}")
        return text

    def test_floor_division_keeps_its_brackets(self):
        self.assertEqual(self.read_back(["*", 2, ["//", "a", 2]]), "2 * (a // 2)")
        self.assertEqual(self.read_back(["==", ["*", 2, ["//", "a", 2]], "a"]), "2 * (a // 2) == a")
        self.assertEqual(self.read_back(["//", ["*", 2, "a"], 2]), "2 * a // 2")
        self.assertEqual(self.read_back(["%", ["+", "a", 1], 2]), "(a + 1) % 2")
        self.assertEqual(self.read_back(["*", ["*", "a", "b"], 3]), "a * b * 3")
        self.assertEqual(self.read_back(["%", ["//", "a", 2], 3]), "a // 2 % 3")

    def test_random_trees_read_back(self):
        rng = random.Random(34)
        for _ in range(400):
            tree = random_int(rng, 4) if rng.random() < 0.5 else random_bool(rng, 2)
            try:
                evaluate(tree, {"a": 1, "b": 1})
            except ZeroDivisionError:
                continue
            with self.subTest(tree=tree):
                self.read_back(tree)


class Strides(unittest.TestCase):
    class Scale(torch.nn.Module):
        def forward(self, x):
            return x * 2

    def inputs(self, example, dynamic=None):
        program = torch.export.export(self.Scale(), (example,), dynamic_shapes=dynamic, strict=False)
        data = guards.collect(program)
        self.assertEqual(data["version"], 2)
        return data["inputs"][0]

    def test_contiguous(self):
        x = self.inputs(torch.randn(2, 3, 4))
        self.assertEqual(x["strides"], [12, 4, 1])
        self.assertEqual(x["layout"], "contiguous")

    def test_channels_last_with_dynamic_sizes(self):
        side = torch.export.Dim("side", min=4, max=64)
        x = self.inputs(torch.randn(2, 3, 8, 8).contiguous(memory_format=torch.channels_last),
                        ({2: side, 3: side},))
        self.assertEqual(x["layout"], "channels_last")
        self.assertEqual(x["strides"][1], 1)
        self.assertEqual(x["strides"][3], 3)
        # Symbolic strides are trees the C++ checker evaluates: 3*side*side and 3*side.
        symbol = x["dims"][2]["symbol"]
        self.assertTrue(x["strides"][0]["checkable"])
        self.assertEqual(evaluate(x["strides"][0]["expr"], {symbol: 16}), 3 * 16 * 16)
        self.assertEqual(evaluate(x["strides"][2]["expr"], {symbol: 16}), 3 * 16)

    def test_sliced_view(self):
        x = self.inputs(torch.randn(2, 6, 4, 4)[:, ::2])
        self.assertEqual(x["strides"], [96, 32, 4, 1])
        self.assertEqual(x["layout"], "strided")

    def test_transposed(self):
        x = self.inputs(torch.randn(5, 3).t())
        self.assertEqual(x["strides"], [1, 3])
        self.assertEqual(x["layout"], "strided")


class DeclaredRanges(unittest.TestCase):
    """dynamic.declared_ranges(): a declared range torch narrowed, or whose start a guard
    excludes, is said at compile time and recorded for the sweep (symbols' declared_min)."""

    def test_narrowed_start(self):
        from types import SimpleNamespace
        from aotstudio_frontend import dynamic
        n = torch.export.Dim("n", min=1, max=32)
        program = torch.export.export(Strides.Scale(), (torch.randn(10),), dynamic_shapes=({0: 2 * n},), strict=False)
        data = guards.collect(program)
        job = SimpleNamespace(declared={(0, 0): (2, 64)})
        warnings = dynamic.declared_ranges(job, data)
        self.assertEqual(len(warnings), 1, warnings)
        self.assertIn("declared from 2, but the package accepts it from 4", warnings[0])
        self.assertIn("sizes 2..3 are refused", warnings[0])
        self.assertEqual(data["symbols"][0]["declared_min"], 1)
        self.assertEqual(data["symbols"][0]["declared_max"], 32)

    def test_guard_excludes_the_start(self):
        from types import SimpleNamespace
        from aotstudio_frontend import dynamic
        # What collect() writes for a dimension declared 3..64 that a guard keeps even.
        data = {"symbols": [{"symbol": "s", "min": 2, "max": 64, "label": "x.shape[0]"}],
                "inputs": [{"index": 0, "name": "x", "dims": [{"dim": 0, "text": "x.shape[0]", "symbol": "s", "coeff": 1, "offset": 0}]}],
                "checks": [{"text": "x.shape[0] % 2 == 0", "checkable": True, "expr": ["==", ["%", "s", 2], 0],
                            "source": "model.py:7"}]}
        warnings = dynamic.declared_ranges(SimpleNamespace(declared={(0, 0): (3, 64)}), data)
        self.assertEqual(warnings, ["x.shape[0]: the range starts at 3, which the guard x.shape[0] % 2 == 0 excludes "
                                    "(model.py:7); the package refuses that size"])
        self.assertEqual(data["symbols"][0]["declared_min"], 3)

    def test_narrowed_by_a_guard(self):
        from types import SimpleNamespace
        from aotstudio_frontend import dynamic

        class Pairs(torch.nn.Module):
            def forward(self, x):
                return x.view(-1, 2).sum(1)

        program = torch.export.export(Pairs(), (torch.randn(8),), dynamic_shapes=({0: torch.export.Dim.AUTO},), strict=False)
        warnings = dynamic.declared_ranges(SimpleNamespace(declared={(0, 0): (3, 64)}), guards.collect(program))
        self.assertTrue(any("declared from 3, but the package accepts it from 4" in w and "size 3 is refused" in w
                            for w in warnings), warnings)

    def test_nothing_to_say(self):
        from types import SimpleNamespace
        from aotstudio_frontend import dynamic
        b = torch.export.Dim("b", min=2, max=64)
        program = torch.export.export(Strides.Scale(), (torch.randn(4, 3),), dynamic_shapes=({0: b},), strict=False)
        self.assertEqual(dynamic.declared_ranges(SimpleNamespace(declared={(0, 0): (2, 64)}), guards.collect(program)), [])


if __name__ == "__main__":
    unittest.main()
