# SPDX-License-Identifier: GPL-3.0-or-later
"""Shapes from real traffic (issue 39): record what one module receives while the user's own script
runs, so that the export's dynamic-shape spec and a bundle's buckets can be proposed from it
(capture_propose.py reads the record).

    python -m aotstudio_frontend.capture record --script app.py (--module model.encoder | --module-class
        pkg.mod.Class) [--calls N] [--keep-inputs K] [--max-bytes B] [--max-seconds S] --out DIR [-- ARGS...]
    python -m aotstudio_frontend.capture propose DIR [--waste 0.25] [--max-buckets 4]

``record`` runs the script as ``__main__`` (runpy.run_path, ``sys.argv = [script, *ARGS]``, the
script's folder first on sys.path, the working directory unchanged) in this process and writes:

- ``DIR/calls.jsonl``: one line per top-level call of the target's forward, written by a background
  thread at least every 0.5 s (:data:`FLUSH_SECONDS`) and at the end, so a crash keeps what was
  recorded: ``{"call", "t" (seconds since recording started), "sig" (the input signature's id),
  "args": [leaf, ...]}``; a leaf is ``{"path", "name", "kind": "tensor", "shape", "dtype", "device",
  "stride"}`` or ``{"path", "name", "kind": "value", "type", "value"}``. ``path`` is where the leaf
  sits in the call (``args[1][0]``, ``kwargs['mask']``), ``name`` the name the ``compile`` request's
  ``dynamic``/``shapes`` give that input (forward's parameter name and the pytree path, as
  inputs.py names a package's inputs: ``x``, ``images[0]``, ``batch['ids']``, ``cfg.scale``).
- ``DIR/inputs/*.pt`` and ``DIR/inputs.json``: up to K example calls per input signature (shapes,
  dtypes and non-tensor values; strides and devices are not part of it), reservoir-sampled over the
  whole run, cloned to CPU, at most ``--max-bytes`` bytes of tensor data in all; each file is
  ``torch.save({"args", "kwargs", "call", "signature"})``.
- ``DIR/summary.json`` (atomically; ``"outcome": "running"`` while the script runs): what happened.

The target is found by a global forward pre-hook (torch.nn.modules.module.register_module_forward_
pre_hook), removed as soon as the target's first call is seen. From then on the target's class gets a
``__call__`` that records a call of the target instance and passes everything else through: measured
cheaper than a forward pre-hook on the instance (a hook sends every call of the instance through
Module._call_impl's slow path; about 5 us against 9 us per call of a 3-layer MLP on this project's
CPU runner, of which about 3 us is describing the inputs), and it sees recursion and exceptions
without a second hook. Calls of forward() that bypass ``module(...)`` are not seen.
"""

import argparse
import atexit
import dataclasses
import inspect
import itertools
import json
import math
import os
import random
import runpy
import signal
import sys
import threading
import time
from collections import deque

try:
    from .files import write_json_atomic
except ImportError:  # run as a plain file (python .../capture.py): files.py sits next to it
    from files import write_json_atomic

FORMAT = "aotstudio.capture"
VERSION = 1
FLUSH_SECONDS = 0.5  # most seconds between writes of calls.jsonl
GRACE_SECONDS = 5.0  # after --max-seconds: how long the script has to unwind before the record is closed
DEFAULT_KEEP = 2
DEFAULT_MAX_BYTES = 256 << 20
MAX_SIGNATURES = 50000  # distinct input descriptions kept in memory; past it recording stops
VALUE_CHARS = 120  # longest text kept of a str value
SEED = 0  # the reservoir's random stream
_MISSING = object()

#: User-visible texts of this feature, in one place so that they can become message ids
#: (core/protocol/messages.json) later. Keys are the would-be ids.
TEXTS = {
    "capture.finished": "the script finished: {calls} call(s) of {target} recorded, {signatures} input signature(s)",
    "capture.exited": "the script exited with code {code}: {calls} call(s) of {target} recorded, "
                      "{signatures} input signature(s)",
    "capture.raised": "the script raised {type}: {message} at {where}; the {calls} call(s) of {target} recorded "
                      "before it are kept",
    "capture.timed_out": "the script was stopped after {seconds} s (--max-seconds): {calls} call(s) of {target} "
                         "recorded, {signatures} input signature(s)",
    "capture.never_called": "{target} exists but was never called while the script ran",
    "capture.not_found": "{target} was not found: {why}",
    "capture.not_found.class": "no instance of class {name} was called; classes of the modules called: {seen}",
    "capture.not_found.attr": "'{missing}' is not an attribute of {owner} (it has: {names})",
    "capture.not_found.global": "the script's main module has no global '{missing}' (modules among its globals: "
                                "{names}); a model made inside a function is not a global: use --module-class",
    "capture.not_found.not_module": "{path} is a {type}, not a torch.nn.Module",
    "capture.several": "{count} instances of {cls} were called ({paths}); record one of them with --module PATH",
    "capture.stopped_calls": "recording stopped after {calls} call(s) (--calls); the script kept running",
    "capture.forked": "the script forked {count} time(s); calls in the child processes were not recorded",
    "capture.internal": "recording stopped: the recorder failed on a call ({error})",
    "capture.too_many": "recording stopped after {count} distinct input descriptions (a non-tensor argument that "
                        "changes on every call?)",
    "capture.unsaved": "{count} kept input(s) could not be saved: {error}",
}


def say(msg_id: str, **args) -> str:
    """The English text of ``msg_id`` with ``args``."""
    return TEXTS[msg_id].format(**args)


# -- describing a call --------------------------------------------------------------------------

def _dtype_name(dtype) -> str:
    return str(dtype).replace("torch.", "")


def _value_json(value):
    """A non-tensor leaf as JSON: numbers, bools, None; a str cut to VALUE_CHARS; a non-finite float as
    its text ("nan", "inf")."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, str) and len(value) > VALUE_CHARS:
        return value[:VALUE_CHARS] + f"... ({len(value)} chars)"
    return value


def _leaves(value, path: str, name: str, out: list, tensor_type, with_tensors: bool = False) -> None:
    """Append the leaves of one argument to ``out`` (see the module docstring for their fields);
    with ``with_tensors`` a tensor leaf also holds the tensor itself under ``"tensor"``
    (:func:`named_tensors`)."""
    if isinstance(value, tensor_type):
        try:
            stride = list(value.stride())
        except (RuntimeError, NotImplementedError):  # sparse and other layouts without strides
            stride = None
        out.append({"path": path, "name": name, "kind": "tensor", "shape": list(value.shape),
                    "dtype": _dtype_name(value.dtype), "device": str(value.device), "stride": stride})
        if with_tensors:
            out[-1]["tensor"] = value
    elif value is None or isinstance(value, (bool, int, float, str)):
        out.append({"path": path, "name": name, "kind": "value", "type": type(value).__name__,
                    "value": _value_json(value)})
    elif isinstance(value, (list, tuple)) and value:
        fields = getattr(value, "_fields", None)  # a namedtuple: pytree names its leaves .field
        for i, item in enumerate(value):
            step = f".{fields[i]}" if fields else f"[{i}]"
            _leaves(item, path + step, name + step, out, tensor_type, with_tensors)
    elif isinstance(value, dict) and value:
        for key, item in value.items():
            _leaves(item, path + f"[{key!r}]", name + f"[{key!r}]", out, tensor_type, with_tensors)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            _leaves(getattr(value, f.name), path + f".{f.name}", name + f".{f.name}", out, tensor_type,
                    with_tensors)
    else:  # an empty container, or an object recorded by its type only
        shown = [] if isinstance(value, (list, tuple)) else {} if isinstance(value, dict) else None
        out.append({"path": path, "name": name, "kind": "value", "type": type(value).__qualname__, "value": shown})


def named_tensors(args, kwargs, params: list, var: str | None, tensor_type) -> dict:
    """The tensors of one recorded call (a kept input file's ``args``/``kwargs``) by the names the
    record gives them (:meth:`Recorder._name`: forward's positional parameter names ``params``,
    ``var`` for ``*args``, keywords by name, then the pytree path), as calls.jsonl names its leaves."""
    def name(index):
        if isinstance(index, str):
            return index
        return params[index] if index < len(params) else f"{var or 'args'}[{index - len(params)}]"
    leaves = []
    for i, a in enumerate(args):
        _leaves(a, f"args[{i}]", name(i), leaves, tensor_type, True)
    for k, v in (kwargs or {}).items():
        _leaves(v, f"kwargs[{k!r}]", name(k), leaves, tensor_type, True)
    return {leaf["name"]: leaf["tensor"] for leaf in leaves if leaf["kind"] == "tensor"}


def _key(value, tensor_type):
    """A hashable key of one argument that is equal for two calls exactly when their leaves
    (_leaves) are: shapes, strides, dtypes, devices of tensors; values (with their type) of the rest;
    only the type of other objects."""
    t = type(value)
    if t is tensor_type or isinstance(value, tensor_type):
        try:
            return (value.shape, value.stride(), value.dtype, value.device)
        except (RuntimeError, NotImplementedError):
            return (value.shape, None, value.dtype, value.device)
    if t is int or t is float or t is bool or t is str or value is None:
        return (t, value)
    if isinstance(value, (list, tuple)):
        return (t, tuple([_key(v, tensor_type) for v in value]))
    if isinstance(value, dict):
        return (t, tuple([(k, _key(v, tensor_type)) for k, v in value.items()]))
    if isinstance(value, (bool, int, float, str)):
        return (t, value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (t, tuple([_key(getattr(value, f.name), tensor_type) for f in dataclasses.fields(value)]))
    return (t,)


def _tensor_bytes(value, tensor_type) -> int:
    """Bytes of the tensor data in one call's arguments."""
    if isinstance(value, tensor_type):
        return value.numel() * value.element_size()
    if isinstance(value, (list, tuple)):
        return sum(_tensor_bytes(v, tensor_type) for v in value)
    if isinstance(value, dict):
        return sum(_tensor_bytes(v, tensor_type) for v in value.values())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return sum(_tensor_bytes(getattr(value, f.name), tensor_type) for f in dataclasses.fields(value))
    return 0


class _Signature:
    """One distinct input signature: its id, description and reservoir of kept calls."""
    __slots__ = ("id", "leaves", "seen", "kept", "dropped", "dropped_bytes")

    def __init__(self, sid: int, leaves: list):
        self.id, self.leaves = sid, leaves
        self.seen = 0
        self.kept = []  # [(call index, args, kwargs, bytes)]
        self.dropped = 0
        self.dropped_bytes = 0


# -- the recorder -------------------------------------------------------------------------------

class Recorder:
    """Records the calls of one module while the script runs (see the module docstring). Created
    and driven by :func:`record`; its methods run on the script's threads."""

    def __init__(self, out: str, script: str, module_path: str | None, module_class: str | None,
                 calls: int | None, keep: int, max_bytes: int):
        import torch
        self.torch = torch
        self.tensor_type = torch.Tensor
        self.out, self.script = out, script
        self.module_path, self.module_class = module_path, module_class
        self.limit = calls if calls is not None else math.inf
        self.keep, self.max_bytes = keep, max_bytes
        self.pid = os.getpid()
        self.t0 = time.perf_counter()
        self.started = time.time()
        self.target = None
        self.target_info = {}
        self.watch_class = None  # --module-class: other instances of this class refuse the record
        self.active = False
        self.counter = itertools.count()
        self.recorded = 0
        self.descs = {}  # call key -> (signature, '"args":[...]' JSON text)
        self.sigs = {}  # signature key -> _Signature
        self.buffer = deque()  # (call, t, (signature, args text)), drained by the flusher
        self.random = random.Random(SEED).random
        self.kept_bytes = 0
        self.notes = []
        self.forks = 0
        self.stop_reason = None
        self.several = None
        self.main_dict = None
        self.seen_classes = set()
        self.timer_fired = False
        self.finalised = False
        self.final_lock = threading.Lock()
        self.write_lock = threading.Lock()
        self.done = threading.Event()
        self.local = threading.local()
        self.hook = None
        self.first_hook = None
        self.patched = None  # (class, had its own __call__, that __call__)
        os.makedirs(out, exist_ok=True)
        for name in ("calls.jsonl", "summary.json", "inputs.json", "proposal.json"):
            if os.path.exists(os.path.join(out, name)):
                os.remove(os.path.join(out, name))
        inputs = os.path.join(out, "inputs")
        if os.path.isdir(inputs):
            for name in os.listdir(inputs):
                if name.endswith(".pt"):
                    os.remove(os.path.join(inputs, name))
        self._parts = module_path.split(".") if module_path else []
        self.script_args = []
        # Unbuffered: each flush is one write(), and a forked child has no buffered lines to write twice.
        self.calls_file = open(os.path.join(out, "calls.jsonl"), "wb", buffering=0)

    # The target ----------------------------------------------------------------------------

    def describe_target(self) -> str:
        return f"--module {self.module_path}" if self.module_path else f"--module-class {self.module_class}"

    def _class_name(self, cls) -> str:
        return f"{cls.__module__}.{cls.__qualname__}"

    def _class_matches(self, cls) -> bool:
        name = self._class_name(cls)
        if name == self.module_class:
            return True
        # A class defined in the script is __main__.X; the script's stem names it as well.
        stem = os.path.splitext(os.path.basename(self.script))[0]
        return cls.__module__ == "__main__" and f"{stem}.{cls.__qualname__}" == self.module_class

    def _lookup(self, g: dict):
        """The object ``--module`` names in the globals ``g``, None when there is none (cheap: runs on
        every module call until the target is found)."""
        obj = g.get(self._parts[0], _MISSING)
        for part in self._parts[1:]:
            if obj is _MISSING:
                return None
            obj = getattr(obj, part, _MISSING)
        return None if obj is _MISSING else obj

    def _resolve(self, g: dict):
        """The object ``--module`` names in the globals ``g``, or (None, why)."""
        parts = self.module_path.split(".")
        if parts[0] not in g:
            mods = sorted(k for k, v in g.items() if isinstance(v, self.torch.nn.Module))
            return None, say("capture.not_found.global", missing=parts[0], names=", ".join(mods) or "none")
        obj = g[parts[0]]
        for i, part in enumerate(parts[1:], 1):
            try:
                obj = getattr(obj, part)
            except AttributeError:
                owner = ".".join(parts[:i])
                if isinstance(obj, self.torch.nn.Module):
                    names = [n for n, _ in obj.named_children()]
                else:
                    names = [n for n in dir(obj) if not n.startswith("_")]
                import difflib
                close = difflib.get_close_matches(part, names, n=5, cutoff=0.3) or names[:10]
                return None, say("capture.not_found.attr", missing=part, owner=owner, names=", ".join(close) or "none")
        if not isinstance(obj, self.torch.nn.Module):
            return None, say("capture.not_found.not_module", path=self.module_path, type=type(obj).__qualname__)
        return obj, None

    def _global_hook(self, module, args):
        """Until the target is found: each module call is checked against --module/--module-class."""
        try:
            if self.main_dict is None:
                main = sys.modules.get("__main__")
                if main is not None and getattr(main, "__file__", None) == self.script:
                    self.main_dict = main.__dict__
            if self.module_path:
                if self.main_dict is None or module is not self._lookup(self.main_dict):
                    return None
            else:
                cls = type(module)
                self.seen_classes.add(cls)
                if not self._class_matches(cls):
                    return None
            self._found(module)
        except Exception as exc:  # never break the user's script
            self._fail(exc)
        return None

    def _found(self, module) -> None:
        """The target's first call is under way: hook its class, record this call when it ends."""
        self.hook.remove()
        self.hook = None
        self.target = module
        cls = type(module)
        try:
            sig = inspect.signature(module.forward)
            params = [p.name for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
            var = next((p.name for p in sig.parameters.values() if p.kind == p.VAR_POSITIONAL), None)
            text = f"forward{sig}"
        except (TypeError, ValueError):
            params, var, text = [], None, "forward(...)"
        self.params, self.var = params, var
        paths = [p for p, _ in self._paths_of(lambda m: m is module)] if not self.module_path else [self.module_path]
        self.target_info = {"class": self._class_name(cls), "forward": text, "params": params, "var_positional": var,
                            "path": paths[0] if paths else None}
        if self.module_class:
            self.watch_class = cls
        self._patch(cls)
        self.local.depth = 1  # this call is already inside Module.__call__: its inner calls are not top level

        def first(mod, args, kwargs, result):
            if getattr(self.local, "depth", 0) != 1:
                return None  # the end of a recursive call inside the first one
            self.first_hook.remove()
            self.local.depth = 0
            if self.active:
                self._record(args, kwargs)
            return None
        self.first_hook = module.register_forward_hook(first, with_kwargs=True, always_call=True)

    def _patch(self, cls) -> None:
        own = "__call__" in cls.__dict__
        orig = cls.__call__
        self.patched = (cls, own, cls.__dict__.get("__call__"))
        rec, local, target, record = self, self.local, self.target, self._record

        def __call__(module, *args, **kwargs):
            if module is target:
                depth = getattr(local, "depth", 0)  # > 0: a call of the target inside the target
                if not depth and rec.active:
                    record(args, kwargs)
                local.depth = depth + 1
                try:
                    return orig(module, *args, **kwargs)
                finally:
                    local.depth = depth
            if rec.watch_class is not None and type(module) is rec.watch_class and rec.active:
                rec._another(module)
            return orig(module, *args, **kwargs)
        __call__.__wrapped__ = orig
        cls.__call__ = __call__

    def _unpatch(self) -> None:
        if self.patched is not None:
            cls, own, orig = self.patched
            self.patched = None
            if own:
                cls.__call__ = orig
            else:
                try:
                    del cls.__call__
                except AttributeError:
                    pass
        if self.hook is not None:
            self.hook.remove()
            self.hook = None

    def _paths_of(self, pred) -> list:
        """[(attribute path, module)] from the script's globals (and named_modules() of global
        modules, and of modules in global lists, tuples and dicts) to the modules ``pred`` accepts."""
        g = self.main_dict or {}
        nn = self.torch.nn
        found, seen = [], set()

        def visit(root: str, m):
            for sub, mod in m.named_modules():
                path = root + ("." + sub if sub else "")
                if pred(mod) and path not in seen:
                    seen.add(path)
                    found.append((path, mod))
        for name, value in list(g.items()):
            if name.startswith("__"):
                continue
            if isinstance(value, nn.Module):
                visit(name, value)
            elif isinstance(value, (list, tuple)):
                for i, v in enumerate(value[:64]):
                    if isinstance(v, nn.Module):
                        visit(f"{name}[{i}]", v)
            elif isinstance(value, dict):
                for k, v in list(value.items())[:64]:
                    if isinstance(v, nn.Module):
                        visit(f"{name}[{k!r}]", v)
        return found

    def _another(self, module) -> None:
        """A second instance of the --module-class class was called: the record is refused."""
        self.active = False
        cls = self.watch_class
        if self.main_dict is None:
            main = sys.modules.get("__main__")
            self.main_dict = getattr(main, "__dict__", None) if getattr(main, "__file__", None) == self.script else None
        found = self._paths_of(lambda m: type(m) is cls)
        called = (self.target, module)
        self.several = {"class": self._class_name(cls), "paths": [p for p, _ in found],
                        "called": [p for p, m in found if any(m is c for c in called)]}
        self._unpatch()

    # Recording ------------------------------------------------------------------------------

    def _name(self, index) -> str:
        """The compile request's name of positional ``index`` (an int) or keyword ``index`` (a str)."""
        if isinstance(index, str):
            return index
        if index < len(self.params):
            return self.params[index]
        return f"{self.var or 'args'}[{index - len(self.params)}]"

    def _key_of(self, args, kwargs):
        """The key of a call (see _key); the common cases without building lists."""
        T = self.tensor_type
        if kwargs:
            return ("kw", tuple([_key(a, T) for a in args]), tuple([(k, _key(v, T)) for k, v in kwargs.items()]))
        key = ()
        for a in args:
            key += ((a.shape, a.stride(), a.dtype, a.device) if type(a) is T else _key(a, T),)
        return key

    def _record(self, args, kwargs) -> None:
        """One top-level call of the target (runs on the script's thread: kept cheap, about 2 us for
        one tensor argument on a current x86 core; see tests/bench/bench_capture.py)."""
        try:
            try:
                if not kwargs and len(args) == 1 and type(args[0]) is self.tensor_type:
                    a = args[0]
                    key = (a.shape, a.stride(), a.dtype, a.device)
                else:
                    key = self._key_of(args, kwargs)
            except (RuntimeError, NotImplementedError):  # a tensor without strides (sparse)
                key = ("slow", tuple([_key(a, self.tensor_type) for a in args]),
                       tuple([(k, _key(v, self.tensor_type)) for k, v in kwargs.items()]))
            entry = self.descs.get(key)
            if entry is None:
                entry = self._intern(key, args, kwargs)
                if entry is None:
                    return
            n = next(self.counter)
            self.buffer.append((n, time.perf_counter() - self.t0, entry))
            self.recorded = n + 1
            sig = entry[0]
            sig.seen += 1
            if sig.seen <= self.keep or self.random() * sig.seen < self.keep:
                self._keep(sig, n, args, kwargs)
            if n + 1 >= self.limit:
                self.active = False
                self.stop_reason = "calls"
                self._unpatch()
        except Exception as exc:
            self._fail(exc)

    def _intern(self, key, args, kwargs):
        if len(self.descs) >= MAX_SIGNATURES:
            self.active = False
            self.notes.append(say("capture.too_many", count=len(self.descs)))
            self._unpatch()
            return None
        leaves = []
        for i, a in enumerate(args):
            _leaves(a, f"args[{i}]", self._name(i), leaves, self.tensor_type)
        for k, v in (kwargs or {}).items():
            _leaves(v, f"kwargs[{k!r}]", self._name(k), leaves, self.tensor_type)
        # The signature: shapes, dtypes and values by input name (strides and devices left out).
        skey = tuple(sorted((leaf["name"], leaf["kind"], json.dumps(leaf.get("shape")), leaf.get("dtype"),
                             leaf.get("type"), json.dumps(leaf.get("value"), default=str)) for leaf in leaves))
        sig = self.sigs.get(skey)
        if sig is None:
            sig = self.sigs[skey] = _Signature(len(self.sigs), leaves)
        entry = (sig, '"args":' + json.dumps(leaves, separators=(",", ":"), default=str))
        self.descs[key] = entry
        return entry

    def _keep(self, sig: _Signature, n: int, args, kwargs) -> None:
        """Reservoir step for ``sig``: keep this call (cloned to CPU) in a free or a drawn slot."""
        T = self.tensor_type
        size = _tensor_bytes(args, T) + _tensor_bytes(kwargs, T)
        slot = len(sig.kept) if len(sig.kept) < self.keep else int(self.random() * self.keep)
        freed = sig.kept[slot][3] if slot < len(sig.kept) else 0
        if self.kept_bytes - freed + size > self.max_bytes:
            sig.dropped += 1
            sig.dropped_bytes += size
            return
        import torch.utils._pytree as pytree
        copy = pytree.tree_map_only(T, lambda t: t.detach().to("cpu", copy=True), (tuple(args), dict(kwargs or {})))
        item = (n, copy[0], copy[1], size)
        if slot < len(sig.kept):
            sig.kept[slot] = item
        else:
            sig.kept.append(item)
        self.kept_bytes += size - freed

    def _fail(self, exc: BaseException) -> None:
        self.active = False
        self.notes.append(say("capture.internal", error=f"{type(exc).__name__}: {exc}"))
        try:
            self._unpatch()
        except Exception:
            pass

    # Writing --------------------------------------------------------------------------------

    def flush(self) -> None:
        with self.write_lock:
            if self.calls_file is None:
                return
            lines = []
            pop = self.buffer.popleft
            try:
                while True:
                    n, t, entry = pop()
                    lines.append('{"call":%d,"t":%.6f,"sig":%d,%s}\n' % (n, t, entry[0].id, entry[1]))
            except IndexError:
                pass
            if lines:
                self.calls_file.write("".join(lines).encode("utf-8"))

    def _flusher(self) -> None:
        while not self.done.wait(FLUSH_SECONDS):
            if os.getpid() != self.pid:
                return
            try:
                self.flush()
            except Exception:
                pass

    def _in_child(self) -> None:
        """After a fork, in the child: record nothing, write nothing."""
        self.active = False
        self.calls_file = None

    def start(self) -> None:
        self.write_summary("running", "the script is running", {})
        self.active = True
        self.hook = self.torch.nn.modules.module.register_module_forward_pre_hook(self._global_hook)
        threading.Thread(target=self._flusher, name="aotstudio-capture-flush", daemon=True).start()
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=self._in_child, after_in_parent=self._forked)

    def _forked(self) -> None:
        self.forks += 1

    def summary(self, outcome: str, message: str, extra: dict) -> dict:
        kept = [item for s in self.sigs.values() for item in s.kept]
        notes = list(self.notes)
        if self.stop_reason == "calls":
            notes.append(say("capture.stopped_calls", calls=self.recorded))
        if self.forks:
            notes.append(say("capture.forked", count=self.forks))
        data = {"format": FORMAT, "version": VERSION, "outcome": outcome, "message": message,
                "script": self.script, "argv": list(self.script_args),
                "target": {"module": self.module_path, "module_class": self.module_class, **self.target_info},
                "calls": self.recorded, "signatures": len(self.sigs), "descriptions": len(self.descs),
                "kept_inputs": {"count": len(kept), "bytes": sum(i[3] for i in kept)},
                "dropped_inputs": {"count": sum(s.dropped for s in self.sigs.values()),
                                   "bytes": sum(s.dropped_bytes for s in self.sigs.values())},
                "keep_per_signature": self.keep, "max_bytes": self.max_bytes,
                "calls_limit": None if self.limit == math.inf else self.limit,
                "stopped": self.stop_reason, "forks": self.forks, "seconds": round(time.perf_counter() - self.t0, 3),
                "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(self.started)),
                "torch_version": self.torch.__version__, "python": sys.version.split()[0], "seed": SEED,
                "notes": notes}
        data.update(extra)
        return data

    def write_summary(self, outcome: str, message: str, extra: dict) -> dict:
        data = self.summary(outcome, message, extra)
        write_json_atomic(os.path.join(self.out, "summary.json"), data, indent=1)
        return data

    def save_inputs(self) -> None:
        """The reservoir into DIR/inputs/ and its manifest DIR/inputs.json."""
        folder = os.path.join(self.out, "inputs")
        files, failed, error = [], 0, ""
        for sig in self.sigs.values():
            for n, args, kwargs, size in sorted(sig.kept, key=lambda i: i[0]):
                rel = f"inputs/s{sig.id:04d}-c{n:07d}.pt"
                try:
                    os.makedirs(folder, exist_ok=True)
                    self.torch.save({"args": args, "kwargs": kwargs, "call": n, "signature": sig.id},
                                    os.path.join(self.out, rel))
                except Exception as exc:
                    failed += 1
                    error = f"{type(exc).__name__}: {exc}"
                    continue
                files.append({"file": rel, "signature": sig.id, "call": n, "bytes": size})
        if failed:
            self.notes.append(say("capture.unsaved", count=failed, error=error))
        sigs = []
        for sig in self.sigs.values():
            sigs.append({"id": sig.id, "calls": sig.seen, "kept": len(sig.kept), "dropped": sig.dropped,
                         "dropped_bytes": sig.dropped_bytes,
                         "inputs": {leaf["name"]: {"shape": leaf["shape"], "dtype": leaf["dtype"]}
                                    for leaf in sig.leaves if leaf["kind"] == "tensor"},
                         "values": {leaf["name"]: leaf["value"] for leaf in sig.leaves if leaf["kind"] == "value"}})
        write_json_atomic(os.path.join(self.out, "inputs.json"),
                          {"format": FORMAT + ".inputs", "version": VERSION, "keep_per_signature": self.keep,
                           "max_bytes": self.max_bytes, "seed": SEED, "bytes": sum(f["bytes"] for f in files),
                           "files": files, "signatures": sigs,
                           "dropped": {"count": sum(s.dropped for s in self.sigs.values()),
                                       "bytes": sum(s.dropped_bytes for s in self.sigs.values())}}, indent=1)

    def finalise(self, outcome: str, message: str | None, extra: dict) -> dict | None:
        """Stop recording, write calls.jsonl's rest, the inputs and summary.json; once, from the
        process that started recording (a forked child writes nothing)."""
        with self.final_lock:
            if self.finalised or os.getpid() != self.pid:
                return None
            self.finalised = True
        self.active = False
        try:
            self._unpatch()
        except Exception:
            pass
        self.done.set()
        self.flush()
        with self.write_lock:
            if self.calls_file is not None:
                self.calls_file.close()
                self.calls_file = None
        if self.several is not None:
            outcome = "several_instances"
            message = say("capture.several", count=max(2, len(self.several["paths"])), cls=self.several["class"],
                          paths=", ".join(self.several["paths"]) or "not reachable from the script's globals")
            extra = {**extra, "instances": self.several}
        elif self.target is None and outcome in ("finished", "exited", "raised", "timed_out"):
            outcome_before, message_before = outcome, message
            found, why = self._missing()
            outcome, message = ("never_called", say("capture.never_called", target=self.describe_target())) if found \
                else ("module_not_found", say("capture.not_found", target=self.describe_target(), why=why))
            extra = {**extra, "script_outcome": outcome_before, "script_message": message_before}
        try:
            self.save_inputs()
        except Exception as exc:
            self.notes.append(say("capture.unsaved", count="all", error=f"{type(exc).__name__}: {exc}"))
        return self.write_summary(outcome, message, extra)

    def _missing(self):
        """After the run, with no call of the target: (True, None) when the target exists, else
        (False, why)."""
        g = self.main_dict or {}
        if self.module_path:
            obj, why = self._resolve(g)
            return obj is not None, why
        if self._paths_of(lambda m: self._class_matches(type(m))):  # instances exist, none was called
            return True, None
        import difflib
        names = sorted({self._class_name(c) for c in self.seen_classes})
        close = difflib.get_close_matches(self.module_class, names, n=5, cutoff=0.3)
        return False, say("capture.not_found.class", name=self.module_class,
                          seen=", ".join(close or names[:10]) or "none (no module was called)")


# -- running the script -------------------------------------------------------------------------

def _script_frame(tb, script: str):
    """(innermost frame of ``tb`` in the script, innermost frame outside libraries) as
    (file, line, function) tuples, None where there is none."""
    import traceback
    frames = traceback.extract_tb(tb)
    in_script = [f for f in frames if f.filename == script]
    lib = ("/site-packages/", "/dist-packages/", "/lib/python3", "aotstudio_frontend", "<frozen")
    user = [f for f in frames if not any(p in f.filename for p in lib)]
    pick = lambda f: (f.filename, f.lineno, f.name) if f else None  # noqa: E731
    return pick(in_script[-1] if in_script else None), pick(user[-1] if user else None)


def _script_globals(tb, script: str):
    """The script's module globals from a traceback (its ``<module>`` frame)."""
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code.co_filename == script and frame.f_code.co_name == "<module>":
            return frame.f_globals
        tb = tb.tb_next
    return None


def record(script: str, out: str, module_path: str | None = None, module_class: str | None = None,
           calls: int | None = None, keep: int = DEFAULT_KEEP, max_bytes: int = DEFAULT_MAX_BYTES,
           max_seconds: float | None = None, script_args=()) -> tuple:
    """Run ``script`` as __main__ and record its target's calls into ``out``. Returns (exit code,
    summary dict). The exit code is 0 when at least one call was recorded (and the record was not
    refused for several instances), else 1."""
    script = os.path.abspath(script)
    rec = Recorder(out, script, module_path, module_class, calls, keep, max_bytes)
    rec.script_args = list(script_args)
    target = rec.describe_target()

    def counts():
        return {"calls": rec.recorded, "signatures": len(rec.sigs), "target": target}

    def close(outcome, message, extra):
        return rec.finalise(outcome, message, extra)

    atexit.register(lambda: close("exited", say("capture.exited", code="unknown (atexit)", **counts()), {}))
    timer = None
    if max_seconds is not None:
        main_ident = threading.main_thread().ident

        def fire():
            rec.timer_fired = True
            rec.active = False
            try:
                if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                    signal.pthread_kill(main_ident, signal.SIGINT)  # wakes a sleeping main thread too
                else:
                    import _thread
                    _thread.interrupt_main()
            except Exception:
                pass
            if not rec.done.wait(GRACE_SECONDS):  # the script swallowed the interrupt: close the record
                summary = close("timed_out", say("capture.timed_out", seconds=max_seconds, **counts()),
                                {"note": "the script did not stop within "
                                         f"{GRACE_SECONDS:g} s of the interrupt and was ended"})
                _report(summary)
                sys.stderr.flush()
                os._exit(0 if rec.recorded else 1)
        timer = threading.Timer(max_seconds, fire)
        timer.daemon = True
    old_argv, old_path0 = sys.argv, sys.path[0] if sys.path else None
    sys.argv = [script, *script_args]
    if sys.path:
        sys.path[0] = os.path.dirname(script)
    else:
        sys.path.insert(0, os.path.dirname(script))
    rec.start()
    if timer is not None:
        timer.start()
    extra, outcome, message = {}, "finished", None
    try:
        try:
            g = runpy.run_path(script, run_name="__main__")
            rec.main_dict = rec.main_dict or g
        finally:
            if timer is not None:
                timer.cancel()
    except SystemExit as exc:
        rec.main_dict = rec.main_dict or _script_globals(exc.__traceback__, script)
        code = exc.code
        if code is None or code == 0:
            extra["exit_code"] = 0
        else:
            outcome = "exited"
            extra["exit_code"] = code if isinstance(code, int) else 1
            message = say("capture.exited", code=code, **counts())
    except BaseException as exc:
        rec.main_dict = rec.main_dict or _script_globals(exc.__traceback__, script)
        if rec.timer_fired and isinstance(exc, KeyboardInterrupt):
            outcome = "timed_out"
            message = say("capture.timed_out", seconds=max_seconds, **counts())
        else:
            where, innermost = _script_frame(exc.__traceback__, script)
            shown = where or innermost
            place = f"{os.path.basename(shown[0])}:{shown[1]}" if shown else "an unknown place"
            outcome = "raised"
            text = str(exc).splitlines()[0] if str(exc) else ""
            message = say("capture.raised", type=type(exc).__name__, message=text[:300], where=place, **counts())
            extra["exception"] = {"type": type(exc).__name__, "message": str(exc)[:2000],
                                  "where": {"file": where[0], "line": where[1], "function": where[2]} if where else None,
                                  "innermost": {"file": innermost[0], "line": innermost[1], "function": innermost[2]}
                                  if innermost else None}
    finally:
        sys.argv = old_argv
        if old_path0 is not None:
            sys.path[0] = old_path0
    if rec.timer_fired and outcome == "finished":  # the script caught the interrupt and ended by itself
        outcome = "timed_out"
    if outcome == "timed_out":
        message = say("capture.timed_out", seconds=max_seconds, **counts())
    if message is None:
        message = say("capture.finished", **counts())
    summary = close(outcome, message, extra)
    if summary is None:
        return 1, {}
    refused = summary["outcome"] in ("several_instances", "module_not_found", "never_called")
    return (0 if summary["calls"] > 0 and not refused else 1), summary


def _report(summary: dict) -> None:
    if summary:
        print(f"capture: {summary['outcome']}: {summary['message']}", file=sys.stderr)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    script_args = []
    if "--" in argv:
        cut = argv.index("--")
        argv, script_args = argv[:cut], argv[cut + 1:]
    parser = argparse.ArgumentParser(prog="python -m aotstudio_frontend.capture",
                                     description="Record the shapes a module receives while a script runs, "
                                                 "and propose dynamic shapes and buckets from them.")
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("record", help="run a script and record one module's calls")
    r.add_argument("--script", required=True)
    which = r.add_mutually_exclusive_group(required=True)
    which.add_argument("--module", help="attribute path from a global of the script: model.encoder")
    which.add_argument("--module-class", help="qualified class name of the one instance to record")
    r.add_argument("--calls", type=int, help="stop recording after this many calls")
    r.add_argument("--keep-inputs", type=int, default=DEFAULT_KEEP, help="example calls kept per signature")
    r.add_argument("--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="most bytes of kept inputs")
    r.add_argument("--max-seconds", type=float, help="interrupt the script after this many seconds")
    r.add_argument("--out", required=True)
    p = sub.add_parser("propose", help="propose dynamic shapes and buckets from a record")
    p.add_argument("dir")
    p.add_argument("--waste", type=float, default=0.25, help="bound on the mean padding waste of the buckets")
    p.add_argument("--max-buckets", type=int, default=4)
    opts = parser.parse_args(argv)
    if opts.command == "propose":
        try:
            from . import capture_propose
        except ImportError:
            import capture_propose
        return capture_propose.main(opts)
    if opts.calls is not None and opts.calls < 1 or opts.keep_inputs < 0 or opts.max_bytes < 0:
        parser.error("--calls must be >= 1, --keep-inputs and --max-bytes >= 0")
    if not os.path.isfile(opts.script):
        parser.error(f"--script {opts.script}: no such file")
    code, summary = record(opts.script, opts.out, opts.module, opts.module_class, opts.calls, opts.keep_inputs,
                           opts.max_bytes, opts.max_seconds, script_args)
    _report(summary)
    return code


if __name__ == "__main__":
    if __package__:
        from aotstudio_frontend import capture as _capture  # state lives in the module, not in __main__
        sys.exit(_capture.main())
    sys.exit(main())
