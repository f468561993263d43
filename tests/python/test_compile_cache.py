# SPDX-License-Identifier: GPL-3.0-or-later
"""The compile cache (compilecache.py, FORMAT.md compile ``cache`` and ``reuse``): the key is stable
and follows the weights, the shapes and the options; a hit restores the same package and a result
that points at the job's own folder, re-sends the pass snapshots and still verifies against eager;
a damaged entry is detected, dropped and compiled again (through ccache, which hits); ``cache:
false`` bypasses both caches. CompileJob is driven from Python with plain callables, as the engine
drives it (load, export, decompose, compile, verify, commit), the package run with
torch._inductor.aoti_load_package instead of the C++ runner.

Cost: two real AOTInductor compiles of sample:mlp (CompileCompile: the cold one, then the
recompile of the damaged entry), about 30-60 s on a 2-core machine the first time (Inductor builds
its precompiled headers for the ccache wrapper once per machine: ~15 s more), ~25 s after; the rest
is load and export (~1 s each). Everything goes to a temporary $AOTSTUDIO_CACHE_DIR.
Run: .venv/bin/python -m unittest discover -s tests/python -p test_compile_cache.py"""

import os
import shutil
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "core", "python"))

import torch  # noqa: E402
import torch.utils._pytree as pytree  # noqa: E402

from aotstudio_frontend import compilecache, job  # noqa: E402
from aotstudio_frontend.errors import FrontendError  # noqa: E402

_saved_env = {}


def setUpModule():
    root = tempfile.mkdtemp(prefix="aotstudio-cache-test-")
    _saved_env["AOTSTUDIO_CACHE_DIR"] = os.environ.get("AOTSTUDIO_CACHE_DIR")
    _saved_env["root"] = root
    os.environ["AOTSTUDIO_CACHE_DIR"] = root


def tearDownModule():
    if _saved_env.get("AOTSTUDIO_CACHE_DIR") is None:
        os.environ.pop("AOTSTUDIO_CACHE_DIR", None)
    else:
        os.environ["AOTSTUDIO_CACHE_DIR"] = _saved_env["AOTSTUDIO_CACHE_DIR"]
    shutil.rmtree(_saved_env["root"], ignore_errors=True)


def new_job(cleanup, request: dict, events=None):
    """A staged CompileJob for ``request`` with an OUT of its own (``cleanup(fn, *args)`` removes
    both later: a test's addCleanup or a class's addClassCleanup); returns (job, log lines)."""
    lines = []
    out = tempfile.mkdtemp()
    cleanup(shutil.rmtree, out, True)
    j = job.CompileJob(dict({"out": out, "staging": True, "verify_samples": 1}, **request),
                       lambda level, message: lines.append((level, str(message))),
                       (events.append if events is not None else None))
    cleanup(j.close)
    return j, lines


def exported(testcase, request: dict, tweak=None):
    j, _ = new_job(testcase.addCleanup, request)
    j.load()
    if tweak is not None:
        tweak(j)
    j.export()
    return j


def verify_in_python(j) -> dict:
    """The verify stage as compilejob.cpp runs it, with the package run from Python."""
    runner = torch._inductor.aoti_load_package(j.package)
    for index in range(j.verify_begin()):
        inputs = [torch.from_dlpack(c) for c in j.verify_inputs(index)]
        leaves = pytree.tree_leaves(runner(*inputs))
        j.verify_outputs(index, [torch.utils.dlpack.to_dlpack(t.contiguous()) for t in leaves])
    return j.verify_end()


def full_compile(cleanup, request: dict):
    """load, export, decompose, compile, verify, commit; returns (result, job, events, log lines,
    verify result)."""
    events = []
    j, lines = new_job(cleanup, request, events)
    j.load()
    j.export()
    j.decompose()
    compiled = j.compile()
    verified = verify_in_python(j)
    return j.commit(compiled), j, events, lines, verified


def snapshot_events(events):
    return [(e["stage"], e["pass"], e["nodes"]) for e in events if e.get("type") == "snapshot"]


MLP = {"model": "sample:mlp"}


class Key(unittest.TestCase):
    """package_key on exported programs: no compile."""

    def test_same_model_same_key(self):
        a, b = exported(self, MLP).compile_key(), exported(self, MLP).compile_key()
        self.assertIsNotNone(a)
        self.assertEqual(a, b)
        self.assertRegex(a, "^[0-9a-f]{64}$")

    def test_a_changed_weight_changes_the_key(self):
        def nudge(j):
            with torch.no_grad():
                next(j.model.parameters()).view(-1)[0] += 1e-3
        self.assertNotEqual(exported(self, MLP).compile_key(), exported(self, MLP, nudge).compile_key())

    def test_a_changed_shape_changes_the_key(self):
        self.assertNotEqual(exported(self, MLP).compile_key(),
                            exported(self, dict(MLP, shapes={"0": [4, 64]})).compile_key())

    def test_a_changed_option_changes_the_key(self):
        base = exported(self, MLP).compile_key()
        for change in ({"freezing": True}, {"max_autotune": True}, {"inductor": {"epilogue_fusion": False}},
                       {"snapshots": False}, {"external_weights": True}):
            with self.subTest(change=change):
                self.assertNotEqual(base, exported(self, dict(MLP, **change)).compile_key())

    def test_the_recipe_is_in_the_key_where_it_changes_the_package(self):
        """recipe "auto" keys the options it chose: the same key as the recipe it names, and
        another key where it chose another package (a conv net frozen, recipe.py's rule)."""
        conv = {"model": os.path.join(os.path.dirname(__file__), "..", "fixtures", "channels_last_factory.py") + ":make"}
        self.assertEqual(exported(self, MLP).compile_key(), exported(self, dict(MLP, recipe="defaults")).compile_key())
        auto = exported(self, conv)
        self.assertEqual((auto.recipe.name, auto.recipe.chosen_by), ("freezing", "rule"))
        self.assertEqual(auto.compile_key(), exported(self, dict(conv, recipe="freezing")).compile_key())
        self.assertNotEqual(auto.compile_key(), exported(self, dict(conv, recipe="defaults")).compile_key())

    def test_cache_false_has_no_key(self):
        j = exported(self, dict(MLP, cache=False))
        self.assertIsNone(j.compile_key())
        self.assertEqual(j.reuse["package"], "off")

    def test_cache_must_be_a_boolean(self):
        with self.assertRaises(FrontendError) as ctx:
            new_job(self.addCleanup, dict(MLP, cache="no"))
        self.assertEqual(ctx.exception.code, "bad_request")


class Wrapper(unittest.TestCase):
    """The ccache wrapper as Inductor's toolchain checks see it. No compile."""

    def setUp(self):
        self.gxx, self.ccache = shutil.which("g++"), shutil.which("ccache")
        if not (self.gxx and self.ccache):
            self.skipTest("needs g++ and ccache")

    def test_inductor_still_detects_gcc(self):
        from torch._inductor import cpp_builder
        script, folder = compilecache.compiler_wrapper("g++", self.gxx, self.ccache)
        self.assertEqual(os.path.basename(script), "g++")
        self.assertTrue(os.path.isdir(folder))
        self.assertTrue(cpp_builder._is_gcc(script))
        self.assertFalse(cpp_builder._is_clang(script))
        self.assertEqual(cpp_builder._compiler_version_first_line(script),
                         cpp_builder._compiler_version_first_line(self.gxx))
        # The same script whatever $AOTSTUDIO_CACHE_DIR is (Inductor names its precompiled headers
        # after the compiler's path); the cache folder is read from the environment when it runs.
        other = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, other, True)
        with mock.patch.dict(os.environ, {"AOTSTUDIO_CACHE_DIR": other}):
            self.assertEqual(compilecache.compiler_wrapper("g++", self.gxx, self.ccache)[0], script)

    def test_a_relative_cache_folder_is_not_wrapped(self):
        with mock.patch.dict(os.environ, {"AOTSTUDIO_CACHE_DIR": "relative/cache"}):
            self.assertIsNone(compilecache.compiler_wrapper("g++", self.gxx, self.ccache))

    def test_a_compiler_command_is_left_alone(self):
        self.assertIsNone(compilecache.configured_compiler({"cpp.cxx": "ccache g++"}))
        self.assertEqual(compilecache.configured_compiler({"cpp.cxx": "g++"}), ("g++", os.path.abspath(self.gxx)))


class Entries(unittest.TestCase):
    """PackageCache on small files: damage, listing, size bound. No compile."""

    def setUp(self):
        self.folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.folder, True)
        self.cache = compilecache.PackageCache(os.path.join(self.folder, "compiled"))
        self.src = os.path.join(self.folder, "src.bin")
        with open(self.src, "wb") as f:
            f.write(os.urandom(4096))

    def store(self, key):
        return self.cache.store(key, {"model.pt2": self.src, "trace/a.txt": self.src},
                                {"compile_seconds": 1.0, "stages": []})

    def test_an_extra_file_is_damage(self):
        self.store("k1")
        with open(os.path.join(self.cache.path("k1"), "trace", "extra.txt"), "w") as f:
            f.write("x")
        with self.assertRaises(compilecache.Damaged):
            self.cache.restore("k1", os.path.join(self.folder, "into"))
        self.assertFalse(os.path.exists(os.path.join(self.folder, "into")))

    def test_a_missing_entry_is_none(self):
        self.assertIsNone(self.cache.restore("nothing", os.path.join(self.folder, "into")))

    def test_least_recently_used_entries_go_first(self):
        for i, key in enumerate(("old", "used", "new")):
            self.store(key)
            os.utime(self.cache.path(key), (1000 + i, 1000 + i))
        self.cache.restore("old", os.path.join(self.folder, "into"))  # a hit makes it the newest
        with mock.patch.dict(os.environ, {"AOTSTUDIO_COMPILE_CACHE_MAX_GB": str(2.5 * 8192 / (1 << 30))}):
            removed = self.cache.prune()
        self.assertEqual(removed, ["used"])
        self.assertEqual(sorted(os.listdir(self.cache.folder)), ["new", "old"])


class CompileCompile(unittest.TestCase):
    """Real compiles of sample:mlp: a cold one (setUpClass), then hits, a bypass and a damaged entry."""

    @classmethod
    def setUpClass(cls):
        cls.cold, cls.cold_job, cls.cold_events, cls.cold_lines, cls.cold_verified = \
            full_compile(cls.addClassCleanup, MLP)
        with open(cls.cold["package"], "rb") as f:
            cls.cold_bytes = f.read()

    def entry_dir(self):
        return compilecache.PackageCache().path(self.cold["reuse"]["key"])

    def test_a_cold_compile_is_a_miss_and_is_stored(self):
        self.assertEqual(self.cold["reuse"]["package"], "miss")
        self.assertTrue(os.path.isfile(os.path.join(self.entry_dir(), compilecache.ENTRY)))
        self.assertTrue(self.cold_verified["verify"]["passed"])
        if shutil.which("ccache"):
            self.assertIsNotNone(self.cold["reuse"]["ccache"])

    def test_a_hit_restores_the_package_into_its_own_folder(self):
        result, j, events, lines, verified = full_compile(self.addCleanup, MLP)
        self.assertEqual(result["reuse"]["package"], "hit", lines)
        self.assertEqual(result["reuse"]["key"], self.cold["reuse"]["key"])
        self.assertIsNone(result["reuse"]["ccache"])  # nothing was built
        self.assertGreater(result["reuse"]["seconds_saved_estimate"], 0)
        with open(result["package"], "rb") as f:
            self.assertEqual(f.read(), self.cold_bytes)
        # Every path in the result is in this job's OUT, none in the cache or the cold job's OUT.
        self.assertEqual(result["package"], os.path.join(j.out, "model.pt2"))
        for stage in result["stages"]:
            if stage["snapshot"]:
                self.assertTrue(stage["snapshot"].startswith(j.out + os.sep), stage)
                self.assertTrue(os.path.isfile(stage["snapshot"]), stage)
        self.assertTrue(result["kernels"]["path"].startswith(j.out + os.sep))
        self.assertTrue(result["kernels"]["trace_dir"].startswith(j.out + os.sep))
        self.assertEqual(result["kernels"]["count"], self.cold["kernels"]["count"])
        # The same stages (the compile's marked reused) and the same snapshot events.
        self.assertEqual([(s["name"], s["pass"], s["nodes"]) for s in result["stages"]],
                         [(s["name"], s["pass"], s["nodes"]) for s in self.cold["stages"]])
        self.assertTrue(any(s.get("reused") for s in result["stages"]))
        self.assertEqual(snapshot_events(events), snapshot_events(self.cold_events))
        self.assertTrue(verified["verify"]["passed"])  # verify runs on the reused package

    def test_cache_false_bypasses_both_caches(self):
        j, lines = new_job(self.addCleanup, dict(MLP, cache=False))
        j.load()
        j.export()
        seen = {}

        def inductor(program, package_path, inductor_configs):
            seen["options"] = dict(inductor_configs)
            raise RuntimeError("stop here")

        with mock.patch.object(compilecache.PackageCache, "restore", side_effect=AssertionError("looked up")), \
                mock.patch.object(torch._inductor, "aoti_compile_and_package", inductor):
            with self.assertRaises(FrontendError):
                j.compile()
        self.assertNotIn("cpp.cxx", seen["options"])  # no ccache wrapper
        self.assertEqual(j.reuse["package"], "off")
        self.assertIsNone(j.reuse["key"])

    def test_zz_a_damaged_entry_is_dropped_and_compiled_again(self):
        package = os.path.join(self.entry_dir(), "model.pt2")
        with open(package, "r+b") as f:
            f.seek(os.path.getsize(package) // 2)
            byte = f.read(1)
            f.seek(-1, os.SEEK_CUR)
            f.write(bytes([byte[0] ^ 0xFF]))
        result, _j, events, lines, verified = full_compile(self.addCleanup, MLP)
        self.assertEqual(result["reuse"]["package"], "corrupt")
        self.assertIn("model.pt2 differs", result["reuse"]["reason"])
        self.assertTrue(any(level == "warning" and "damaged" in m for level, m in lines), lines)
        self.assertTrue(verified["verify"]["passed"])
        self.assertEqual(snapshot_events(events), snapshot_events(self.cold_events))
        if shutil.which("ccache"):
            # The same C++ as the cold compile: the wrapper's object comes from ccache.
            self.assertGreaterEqual(result["reuse"]["ccache"]["hits"], 1, result["reuse"])
        # Stored again, whole: the next compile is a hit.
        with open(os.path.join(self.entry_dir(), "model.pt2"), "rb") as f:
            stored = f.read()
        with open(result["package"], "rb") as f:
            self.assertEqual(stored, f.read())


if __name__ == "__main__":
    unittest.main()
