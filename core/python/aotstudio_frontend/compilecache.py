# SPDX-License-Identifier: GPL-3.0-or-later
"""Reuse across compiles (issue 38, "Recompiles in seconds"; FORMAT.md compile ``cache`` and ``reuse``).

Inductor's own FX graph cache does not apply to AOT compiles (compile_fx.py: ``use_cache = ... and
not aot_mode``) and the job disables Inductor's caches anyway (``force_disable_caches``, so that
every pass runs and the trace is written). Two caches of ours, both under :func:`root`
(``$AOTSTUDIO_CACHE_DIR``, else ``$XDG_CACHE_HOME/aotstudio``, else ``~/.cache/aotstudio``, as the
engine's package cache, core/bundle/packagecache.cpp), both off with the request's ``cache: false``:

**The generated C++ through ccache.** In this torch an AOT compile runs the C++ compiler named by
``config.cpp.cxx`` (default ``(None, $CXX or "g++")``, the first that answers ``--version``;
cpp_builder.get_cpp_compiler) as separate commands (codecache.AotCodeCompiler.compile): the
wrapper (``<hash>.wrapper.cpp -c``, -O1) and the kernels (``<hash>.kernel.cpp -c``, -O3), each with
``-include`` of a precompiled header that Inductor builds once into
``<default cache dir>/precompiled_headers/<hash>.h.gch`` (named by a hash of the preprocessed header,
the command and the compiler's version), the constants (``weights.S``/``.cpp -c``), then one link
(``-shared``); also, once per process, a small vector-ISA probe compiled and linked in one command.
Each runs from a ``<name>_CxxBuild`` folder beside its source, and the sources live in a fresh
``tmpXXXX`` folder under Inductor's cache directory on every compile (``force_disable_caches`` ->
``fresh_cache``). :func:`compiler_wrapper` writes a script named like the compiler (``g++``) that
execs ``ccache <the compiler> "$@"`` and the job passes it as ``cpp.cxx``: Inductor's gcc/clang
detection reads ``--version``, which ccache passes through, and the name still ends in ``g++``. The
script sets:

- ``CCACHE_DIR`` = ``root()/ccache`` (read from the environment, as :func:`root` does),
  ``CCACHE_MAXSIZE`` = :data:`CCACHE_MAX_SIZE` (ccache evicts the least recently used results
  beyond it).
- ``CCACHE_BASEDIR`` = Inductor's cache directory (the common parent of ``$TORCHINDUCTOR_CACHE_DIR``
  and its default, which holds the precompiled headers): absolute paths below it are passed to the
  compiler relative to the working directory. As each command runs next to its source, the source
  becomes ``../<hash>.wrapper.cpp`` and the header ``-include ../../../precompiled_headers/<hash>.h``
  in every compile, wherever the ``tmpXXXX`` folder is; without it no compile could hit. Safe: the
  same files are found; ``__FILE__`` and the debug line tables name the relative path.
- ``CCACHE_NOHASHDIR=1``: with ``-g1`` ccache would hash the working directory, a fresh temporary
  folder every time. Safe here: only the object's DW_AT_comp_dir (where a debugger looks for the
  sources) then names the folder of the compile that stored the result; the generated sources
  are deleted with their temporary folder in either case.
- ``CCACHE_SLOPPINESS=pch_defines,time_macros``: without it ccache does not cache a compile that
  uses a precompiled header (measured: 1 of 12 calls cacheable) -- it cannot see ``#define``\\ s
  inside the ``.gch`` nor whether it uses ``__DATE__``/``__TIME__``. Safe: Inductor names each
  precompiled header by a hash of its preprocessed text, the command line and the compiler version
  (codecache._precompile_header), so different macros mean a different ``-include`` argument; and
  neither torch's headers nor Inductor's generated code use ``__DATE__``, ``__TIME__`` or
  ``__TIMESTAMP__``.
- ``CCACHE_STATSLOG`` = a file per engine process (``$PPID``), read by :class:`CcacheStats` for
  the result's ``reuse.ccache`` counts.

What still builds on an identical-C++ recompile: the kernels' source starts with a comment naming
the wrapper's path (``// Triton kernels are embedded as comments in /tmp/.../tmpXXXX/...``), so its
file name (a hash of its text) and with it the preprocessor's line markers differ every time: a
miss. The link and the ISA probe are never cacheable (``called_for_link``).

**A package cache** (:class:`PackageCache`): ``root()/compiled/<key>/`` (not ``packages/``: that is
the engine's cache of extracted packages, whose pruning removes 64-character folders by age) per
:func:`package_key`
(the exported program, the weights' bytes, the inputs, the options, the compiler and torch; see
there) holding what the compile step produced: ``model.pt2``, Inductor's debug ``trace/`` (the job
rebuilds ``kernels.json`` and the fusion/codegen stages from it), the pass snapshots under
``snapshots/`` and ``entry.json`` (the stage entries, the cold compile's seconds and each file's
SHA-256 and size). An entry is written into ``compiled/.partial-<pid>-<random>/`` and renamed into
place, so a reader never sees half an entry; on use every file is hashed while it is copied into
the job's folder and a difference (a flipped byte, a missing or extra file) drops the entry and
the compile runs cold. The folder is kept under :data:`PACKAGE_CACHE_MAX_BYTES`
(``$AOTSTUDIO_COMPILE_CACHE_MAX_GB``) by removing the least recently used entries (a hit touches
its folder's mtime) after each store.
"""

import functools
import hashlib
import json
import os
import platform
import secrets
import shlex
import shutil
import subprocess
import sys
import time

import torch
import torch.utils._pytree as pytree

from .files import atomic_file, write_json_atomic

#: Bumped when what an entry holds, or how it is read back, changes: part of every key.
FORMAT = 1
#: ccache's size bound (its ``max_size``): least recently used results are evicted beyond it.
CCACHE_MAX_SIZE = "2G"
#: The package cache's default size bound; ``$AOTSTUDIO_COMPILE_CACHE_MAX_GB`` overrides it.
PACKAGE_CACHE_MAX_BYTES = 4 << 30
ENTRY = "entry.json"
PARTIAL = ".partial-"
#: Front-end modules whose code shapes what an entry holds (a change invalidates every key).
_KEYED_SOURCES = ("compilecache.py", "job.py", "passes.py", "graph_json.py", "kernels.py")


class KeyUnavailable(Exception):
    """The compile cannot be keyed (a constant whose bytes cannot be read): it runs uncached."""


def root() -> str:
    """The cache folder: ``$AOTSTUDIO_CACHE_DIR``, else ``$XDG_CACHE_HOME/aotstudio``, else
    ``~/.cache/aotstudio`` (the engine's package cache uses the same root)."""
    own = os.environ.get("AOTSTUDIO_CACHE_DIR")
    if own:
        return os.path.abspath(own)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return os.path.join(os.path.abspath(xdg), "aotstudio")
    return os.path.join(os.path.expanduser("~"), ".cache", "aotstudio")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _partial_pid(name: str):
    """The pid in ``.partial-<pid>-...`` (or ``stats-<pid>.log``), else None."""
    body = name[len(PARTIAL):] if name.startswith(PARTIAL) else name[len("stats-"):-len(".log")]
    head = body.split("-", 1)[0]
    return int(head) if head.isdigit() else None


# -- ccache -----------------------------------------------------------------------------------
def configured_compiler(inductor_options: dict):
    """The C++ compiler Inductor would run for these options, as (name as configured, absolute
    path), or None when it is not a plain executable we can wrap: a command with arguments (the
    user's own launcher, ``"ccache g++"``), ccache itself, a conda download, or none found."""
    cxx = inductor_options.get("cpp.cxx", torch._inductor.config.cpp.cxx)
    search = tuple(cxx) if isinstance(cxx, (list, tuple)) else (cxx,)
    for name in search:
        if name is None:
            if os.getenv("TORCH_INDUCTOR_INSTALL_GXX"):
                return None  # Inductor would download gcc through conda
            continue
        try:
            parts = shlex.split(str(name))
        except ValueError:
            return None
        if len(parts) != 1 or "ccache" in os.path.basename(parts[0]):
            return None
        path = shutil.which(parts[0])
        if path:
            return parts[0], os.path.abspath(path)
    return None


@functools.cache
def compiler_identity(path: str) -> str:
    """``PATH --version``'s first line (the key's compiler; cached per process)."""
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.splitlines()[0] if out else ""


def _inductor_dirs() -> tuple:
    """(Inductor's default cache folder, the common parent of it and ``$TORCHINDUCTOR_CACHE_DIR``)."""
    from torch._inductor.runtime.cache_dir_utils import default_cache_dir
    default = os.path.abspath(default_cache_dir())
    current = os.path.abspath(os.environ.get("TORCHINDUCTOR_CACHE_DIR") or default)
    return default, os.path.commonpath([default, current])


#: The script's own reading of root() (same order, from the environment it runs in).
_SCRIPT_ROOT = ('if [ -n "${AOTSTUDIO_CACHE_DIR:-}" ]; then CCACHE_DIR="$AOTSTUDIO_CACHE_DIR/ccache"\n'
                'elif [ -n "${XDG_CACHE_HOME:-}" ]; then CCACHE_DIR="$XDG_CACHE_HOME/aotstudio/ccache"\n'
                'else CCACHE_DIR="$HOME/.cache/aotstudio/ccache"; fi\n')


def compiler_wrapper(name: str, path: str, ccache: str):
    """The path of a script named like the compiler (``g++``) that runs ``ccache path "$@"`` with
    our settings (module docstring), and the folder of its per-process stats logs; None when the
    cache folder cannot be told to the script (a relative ``$AOTSTUDIO_CACHE_DIR``, no ``$HOME``).

    The script lives in Inductor's default cache folder, beside the precompiled headers, under
    ``aotstudio-ccache/<hash of its text>/``, and reads the cache folder from the environment as
    :func:`root` does, so its path does not change with ``$AOTSTUDIO_CACHE_DIR``: Inductor names a
    precompiled header (about 150 MB) after the command line, compiler path included, and a new
    path means building a new pair of them. Raises OSError when it cannot be written."""
    own, xdg = os.environ.get("AOTSTUDIO_CACHE_DIR"), os.environ.get("XDG_CACHE_HOME")
    if (own and not os.path.isabs(own)) or (not own and xdg and not os.path.isabs(xdg)) \
            or (not own and not xdg and not os.environ.get("HOME")):
        return None
    default, basedir = _inductor_dirs()
    settings = [
        ("CCACHE_MAXSIZE", CCACHE_MAX_SIZE),
        ("CCACHE_BASEDIR", basedir),
        ("CCACHE_NOHASHDIR", "1"),
        ("CCACHE_SLOPPINESS", "pch_defines,time_macros"),
    ]
    body = _SCRIPT_ROOT + "".join(f"{k}={shlex.quote(v)}\n" for k, v in settings)
    digest = hashlib.sha256((body + path + ccache).encode()).hexdigest()[:16]
    folder = os.path.join(default, "aotstudio-ccache", digest)
    script = os.path.join(folder, os.path.basename(name))
    text = ("#!/bin/sh\n"
            "# Written by AOT Studio (core/python/aotstudio_frontend/compilecache.py): Inductor's C++\n"
            "# compiler through ccache; what each setting does and why it is safe is explained there.\n"
            + body
            + f"CCACHE_STATSLOG={shlex.quote(folder)}/stats-\"$PPID\".log\n"
            + "export CCACHE_DIR " + " ".join(k for k, _ in settings) + " CCACHE_STATSLOG\n"
            + f"exec {shlex.quote(ccache)} {shlex.quote(path)} \"$@\"\n")
    try:
        with open(script, encoding="utf-8") as f:
            current = f.read() == text and os.access(script, os.X_OK)
    except OSError:
        current = False
    if not current:
        with atomic_file(script, chmod=0o755) as f:
            f.write(text)
    os.makedirs(os.path.join(root(), "ccache"), exist_ok=True)
    # Stats logs of engines that are gone.
    for entry in os.listdir(folder):
        if entry.startswith("stats-") and entry.endswith(".log"):
            pid = _partial_pid(entry)
            if pid is not None and pid != os.getpid() and not _pid_alive(pid):
                try:
                    os.remove(os.path.join(folder, entry))
                except OSError:
                    pass
    return script, folder


class CcacheStats:
    """Counts of the ccache calls of one compile, from the wrapper's stats log of this process
    (``CCACHE_STATSLOG``: per call a ``# <input>`` line, then the counters it bumped)."""

    def __init__(self, folder: str):
        self.path = os.path.join(folder, f"stats-{os.getpid()}.log")
        try:
            os.remove(self.path)
        except OSError:
            pass

    def read(self) -> dict:
        """``{"hits", "misses", "uncacheable"}`` since construction; the log is removed."""
        try:
            with open(self.path, encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
            os.remove(self.path)
        except OSError:
            lines = []
        calls, current = [], None
        for line in lines:
            if line.startswith("# "):
                current = set()
                calls.append(current)
            elif current is not None and line.strip():
                current.add(line.strip())
        hits = sum(1 for c in calls if "direct_cache_hit" in c or "preprocessed_cache_hit" in c)
        misses = sum(1 for c in calls if "cache_miss" in c)
        return {"hits": hits, "misses": misses, "uncacheable": len(calls) - hits - misses}


# -- the key ----------------------------------------------------------------------------------
@functools.cache
def _frontend_digest() -> str:
    h = hashlib.sha256()
    here = os.path.dirname(os.path.abspath(__file__))
    for name in _KEYED_SOURCES:
        with open(os.path.join(here, name), "rb") as f:
            h.update(name.encode() + b"\0" + f.read())
    return h.hexdigest()


@functools.cache
def _cpu_identity() -> str:
    """Model name and flags of the CPU: the package's C++ is built with ``-march=native``."""
    model, flags = platform.machine(), ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name") and model == platform.machine():
                    model = line.split(":", 1)[1].strip()
                elif line.startswith("flags"):
                    flags = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return model + "|" + hashlib.sha256(flags.encode()).hexdigest()


def _describe_value(v) -> str:
    if isinstance(v, torch.Tensor):
        return f"T{tuple(v.shape)}{v.dtype}{tuple(v.stride())}{v.device}"
    if isinstance(v, (list, tuple)):
        return "(" + ",".join(_describe_value(x) for x in v) + ")"
    return repr(v) if isinstance(v, (int, float, bool, str, type(None))) else type(v).__name__ + ":" + str(v)


def _hash_program(h, program) -> None:
    """The exported program after export: every graph module's code, each node's value (shape,
    dtype, stride, device) and source location (the snapshots show it), the graph signature, the
    range constraints and the input/output tree structure."""
    for name, module in program.graph_module.named_modules():
        if not isinstance(module, torch.fx.GraphModule):
            continue
        h.update(f"module {name}\n{module.code}\n".encode())
        for node in module.graph.nodes:
            val = node.meta.get("val", node.meta.get("example_value"))
            h.update(f"{node.name}|{_describe_value(val)}|{node.meta.get('stack_trace') or ''}\n".encode())
    h.update(f"signature {program.graph_signature}\n".encode())
    h.update(("ranges " + repr(sorted((str(k), str(v)) for k, v in program.range_constraints.items())) + "\n").encode())
    for entry in program.module_call_graph:
        h.update(f"call {entry.fqn} {entry.signature.in_spec if entry.signature else None} "
                 f"{entry.signature.out_spec if entry.signature else None}\n".encode())


def _hash_tensor(h, name: str, t) -> None:
    if not isinstance(t, torch.Tensor):
        raise KeyUnavailable(f"constant '{name}' is a {type(t).__name__}, whose bytes cannot be read")
    try:
        data = t.detach()
        if data.is_quantized:
            h.update(f"q {data.qscheme()} ".encode())
            data = data.int_repr()
        h.update(f"{name}|{tuple(data.shape)}|{data.dtype}|{tuple(data.stride())}|{data.device}\n".encode())
        if data.numel():
            flat = data.cpu().contiguous().reshape(-1).view(torch.uint8)
            h.update(memoryview(flat.numpy()))
    except KeyUnavailable:
        raise
    except Exception as exc:  # sparse, mkldnn, a tensor subclass without storage
        raise KeyUnavailable(f"the bytes of '{name}' cannot be read ({type(exc).__name__}: {exc})") from exc


def model_digest(program) -> str:
    """SHA-256 (hex) of the exported program (:func:`_hash_program`) and every weight and constant
    it carries (name, shape, dtype, stride, device and bytes): the "model source hash" of a
    package's compatibility key (core/runtime/BUNDLE.md "Compatibility key"). Raises
    KeyUnavailable when a constant's bytes cannot be read."""
    h = hashlib.sha256()
    _hash_program(h, program)
    for table in ("state_dict", "constants"):
        for name, t in sorted(getattr(program, table, {}).items()):
            _hash_tensor(h, f"{table}:{name}", t)
    return h.hexdigest()


def options_digest(options: dict) -> str:
    """SHA-256 (hex) of the Inductor options a compile passes and of Inductor's whole config as it
    will be under them (``save_config_portable``: environment overrides included), the trace
    folder and our compiler wrapper's path left out: the "Inductor options hash" of a package's
    compatibility key."""
    keyed = {k: v for k, v in options.items() if k not in ("trace.debug_dir", "cpp.cxx")}
    with torch._inductor.config.patch({k: v for k, v in options.items() if k != "trace.debug_dir"}):
        config = torch._inductor.config.save_config_portable()
    config.pop("cpp.cxx", None)  # the compiler is keyed by what it is, not by our wrapper's path
    # AotCodeCompiler adds the device's entries to this dict in place (the config's own default),
    # so it differs after a process's first compile; the request cannot set it (aot_inductor.*
    # is reserved) and what Inductor adds follows from the device and CPU, keyed apart.
    config.pop("aot_inductor.metadata", None)
    parts = {"inductor_options": sorted((k, repr(v)) for k, v in keyed.items()),
             "inductor_config": sorted((k, repr(v)) for k, v in config.items())}
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def compat_digests(job, options: dict) -> dict:
    """``{"model_sha256", "options_sha256"}`` of ``job``'s program under ``options``, computed once
    per job and options (the compile cache's key and the result's ``compat`` share them)."""
    memo = getattr(job, "_compat_digests", None)
    marker = json.dumps(sorted((k, repr(v)) for k, v in options.items() if k != "trace.debug_dir"))
    if memo is None or memo[0] != marker:
        memo = (marker, {"model_sha256": model_digest(job.program), "options_sha256": options_digest(options)})
        job._compat_digests = memo
    return dict(memo[1])


def package_key(job, options: dict, compiler) -> tuple:
    """(key, seconds taken): the SHA-256 of everything that determines the package and what the
    compile step records, so that equal keys mean an interchangeable entry:

    - the exported program (:func:`_hash_program`): any change to the model's code that changes
      the graph, or the source lines the snapshots name, changes the key;
    - the weights and constants the program carries: every tensor's name, shape, dtype, stride,
      device and bytes (SHA-256; 47 MB of resnet18 weights in 0.03 s here);
    - the example inputs' shapes, dtypes, strides and devices and the dynamic spec;
    - the options: device, dtype, freezing, max_autotune, external_weights, snapshots, the
      quantization scheme and every Inductor option the job passes, with Inductor's whole config
      as it will be under them (``save_config_portable``: environment overrides included);
    - the compiler (its ``--version``), the CPU (``-march=native``), the matmul precision
      settings, torch's and torchao's versions and this front end's code.

    The trace folder's path and the compiler's wrapper are left out (they do not change the
    package). Raises KeyUnavailable when a constant's bytes cannot be read."""
    t0 = time.perf_counter()
    h = hashlib.sha256()
    h.update(f"aotstudio compile cache {FORMAT}\n".encode())
    digests = compat_digests(job, options)
    h.update(f"model {digests['model_sha256']}\noptions {digests['options_sha256']}\n".encode())
    leaves, spec = pytree.tree_flatten(job.inputs)
    h.update(f"inputs {spec} {[_describe_value(x) for x in leaves]}\n".encode())
    from .versions import library_versions
    parts = {
        "device": job.device, "dtype": job.dtype_name, "freezing": job.freezing,
        "max_autotune": job.max_autotune, "external_weights": job.external_weights,
        "snapshots": job.take_snapshots, "dynamic": job.dynamic_specs,
        "scheme": job.options.scheme, "cuda_archs": getattr(job, "cuda_archs", []),
        "compiler": [compiler[0], compiler[1], compiler_identity(compiler[1])] if compiler else None,
        "cpu": _cpu_identity(), "precision": job.compile_precision,
        "torch": [torch.__version__, torch.version.git_version, torch.version.cuda],
        "libraries": library_versions(), "python": list(sys.version_info[:2]), "frontend": _frontend_digest(),
    }
    if job.device == "cuda" and torch.cuda.is_available():
        props = torch.cuda.get_device_properties(torch.cuda.current_device())
        parts["gpu"] = [props.name, props.major, props.minor]
    h.update(json.dumps(parts, sort_keys=True, default=str).encode())
    return h.hexdigest(), time.perf_counter() - t0


# -- the package cache ------------------------------------------------------------------------
def _max_bytes() -> int:
    value = os.environ.get("AOTSTUDIO_COMPILE_CACHE_MAX_GB")
    try:
        return int(float(value) * (1 << 30)) if value else PACKAGE_CACHE_MAX_BYTES
    except ValueError:
        return PACKAGE_CACHE_MAX_BYTES


def _copy_hashed(src: str, dst: str) -> tuple:
    """Copy ``src`` to ``dst`` (folders created); returns (sha256 hex, bytes) of what was copied."""
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    h, size = hashlib.sha256(), 0
    with open(src, "rb") as fin, open(dst, "wb") as fout:
        while True:
            chunk = fin.read(1 << 20)
            if not chunk:
                break
            h.update(chunk)
            fout.write(chunk)
            size += len(chunk)
    shutil.copystat(src, dst)
    return h.hexdigest(), size


def _files_under(folder: str) -> list:
    """Relative paths (``/``-separated) of the regular files under ``folder``, sorted."""
    out = []
    for dirpath, _dirs, names in os.walk(folder):
        for n in names:
            out.append(os.path.relpath(os.path.join(dirpath, n), folder).replace(os.sep, "/"))
    return sorted(out)


class Damaged(Exception):
    """An entry that does not match its own listing (module docstring): dropped, compile cold."""


class PackageCache:
    """``root()/compiled/<key>/`` entries (module docstring)."""

    def __init__(self, folder: str = None):
        self.folder = folder or os.path.join(root(), "compiled")

    def path(self, key: str) -> str:
        return os.path.join(self.folder, key)

    def restore(self, key: str, into: str):
        """Copy entry ``key`` into the new folder ``into``, checking every file against the
        listing. Returns the entry dict (its ``stages`` with ``snapshot`` paths made absolute under
        ``into``), or None when there is no entry. Raises Damaged (``into`` removed) when a file
        differs, is missing or is not listed."""
        entry_dir = self.path(key)
        if not os.path.isdir(entry_dir):
            return None
        try:
            try:
                with open(os.path.join(entry_dir, ENTRY), encoding="utf-8") as f:
                    entry = json.load(f)
                files = entry["files"]
                if entry.get("format") != FORMAT or entry.get("key") != key or not isinstance(files, dict):
                    raise Damaged("its entry.json is not this version's")
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise Damaged(f"entry.json unreadable: {type(exc).__name__}: {exc}") from exc
            present = [p for p in _files_under(entry_dir) if p != ENTRY]
            if sorted(files) != present:
                extra = sorted(set(present) - set(files))
                missing = sorted(set(files) - set(present))
                raise Damaged("files " + ("missing: " + ", ".join(missing[:3]) if missing else "not listed: " + ", ".join(extra[:3])))
            os.makedirs(into)
            for rel, want in files.items():
                digest, size = _copy_hashed(os.path.join(entry_dir, rel), os.path.join(into, rel))
                if digest != want.get("sha256") or size != want.get("bytes"):
                    raise Damaged(f"{rel} differs from what was stored (sha256 {digest[:12]}…, {size} bytes; "
                                  f"stored {str(want.get('sha256'))[:12]}…, {want.get('bytes')} bytes)")
        except Damaged:
            shutil.rmtree(into, ignore_errors=True)
            raise
        try:
            os.utime(entry_dir)  # recently used: kept by prune()
        except OSError:
            pass
        for stage in entry.get("stages", []):
            if stage.get("snapshot"):
                stage["snapshot"] = os.path.join(into, stage["snapshot"])
        return entry

    def drop(self, key: str) -> None:
        """Remove entry ``key`` (renamed aside first, so no reader sees it half removed)."""
        aside = os.path.join(self.folder, f"{PARTIAL}{os.getpid()}-damaged-{secrets.token_hex(4)}")
        try:
            os.rename(self.path(key), aside)
        except OSError:
            return
        shutil.rmtree(aside, ignore_errors=True)

    def store(self, key: str, files: dict, entry: dict) -> int:
        """Write entry ``key``: ``files`` maps relative paths in the entry to source files,
        ``entry`` the metadata (``stages`` with ``snapshot`` relative). Written into a partial
        folder and renamed into place; an entry another process stored meanwhile is kept. Returns
        the bytes stored (0 when not stored: the entry alone exceeds the size bound)."""
        os.makedirs(self.folder, exist_ok=True)
        tmp = os.path.join(self.folder, f"{PARTIAL}{os.getpid()}-{secrets.token_hex(4)}")
        try:
            listing, total = {}, 0
            for rel, src in files.items():
                digest, size = _copy_hashed(src, os.path.join(tmp, rel))
                listing[rel] = {"sha256": digest, "bytes": size}
                total += size
            if total > _max_bytes():
                shutil.rmtree(tmp, ignore_errors=True)
                return 0
            write_json_atomic(os.path.join(tmp, ENTRY), dict(entry, format=FORMAT, key=key, files=listing, bytes=total),
                              indent=1)
            try:
                os.rename(tmp, self.path(key))
            except OSError:
                if not os.path.isdir(self.path(key)):
                    raise
                shutil.rmtree(tmp, ignore_errors=True)  # stored by another compile meanwhile
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        self.prune(keep=key)
        return total

    def prune(self, keep: str = None) -> list:
        """Remove the least recently used entries (folder mtime) until the rest fit in the size
        bound, and partial folders of processes that are gone. Returns the keys removed."""
        limit, removed, entries = _max_bytes(), [], []
        try:
            names = os.listdir(self.folder)
        except OSError:
            return removed
        for name in names:
            path = os.path.join(self.folder, name)
            if name.startswith(PARTIAL):
                pid = _partial_pid(name)
                if pid is not None and pid != os.getpid() and not _pid_alive(pid):
                    shutil.rmtree(path, ignore_errors=True)
                continue
            try:
                with open(os.path.join(path, ENTRY), encoding="utf-8") as f:
                    size = int(json.load(f).get("bytes", 0))
                mtime = os.stat(path).st_mtime
            except (OSError, ValueError, TypeError, AttributeError):
                size, mtime = 0, 0.0  # unreadable: oldest, removed first when over the bound
            entries.append((mtime, name, size))
        total = sum(e[2] for e in entries)
        for mtime, name, size in sorted(entries):
            if total <= limit:
                break
            if name == keep:
                continue
            self.drop(name)
            removed.append(name)
            total -= size
        return removed
