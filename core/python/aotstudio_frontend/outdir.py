# SPDX-License-Identifier: GPL-3.0-or-later
"""The output folder of a compile (FORMAT.md, "Output folder"): a staged compile writes into
``OUT/.partial-<pid>-staging/`` and its files reach OUT only at the end, so no file of an earlier
compile is ever left next to the files or the error of a later one.

- :func:`commit` (every stage succeeded): the previous compile's files in OUT are removed and the
  staged files take their place.
- :func:`abandon` (a stage failed or was cancelled): the previous compile's files are moved into
  ``OUT/previous-YYYYmmdd-HHMMSS/`` and the failed compile's own files (snapshots, kernels, trace)
  into OUT; its package, unless it passed verification, as ``model.unverified.pt2``.

Paths recorded while staging (stages, kernels, the package) are rewritten to their place in OUT.
A job holds :func:`lock` on OUT from start to end, so that two compiles never write one folder.
"""

import fcntl
import json
import os
import shutil
import time

from .errors import FrontendError
from .files import write_json_atomic

#: What compiles and profiles write into OUT (besides aotstudio.log, the running job's own log, and
#: earlier previous-* folders): one model's results, replaced or moved aside together.
ARTIFACTS = ("model.pt2", "model.unverified.pt2", "model.guards.json", "model.unverified.guards.json", "result.json", "error.json", "kernels.json",
             "memory.json", "fusion.json",
             "snapshots", "trace",
             "quant_layers.json", "profile.json", "profile.csv", "profile_kernels.csv", "trace.json", "coldstart")
#: The previous run's aotstudio.log, set aside by aotstudio-cli when the new run's log opens
#: (app/cli/enginejob.cpp): removed by commit(), moved into previous-*/aotstudio.log by abandon().
PREVIOUS_LOG = ".aotstudio.previous.log"
#: The package name a failed compile leaves: it did not pass verification, or was never verified.
UNVERIFIED = "model.unverified.pt2"
#: Its guards sidecar, renamed with it (core/bundle/guards.h: `dir/NAME.pt2` -> `dir/NAME.guards.json`).
UNVERIFIED_GUARDS = "model.unverified.guards.json"


def lock(out: str):
    """Create ``out`` and take an exclusive lock on ``out/.aotstudio.lock`` for the life of the job,
    so two compiles cannot write the same package at once. Raises FrontendError(bad_request)
    naming the directory when it cannot be created or is in use. Returns the lock file, open:
    closing it releases the lock."""
    try:
        os.makedirs(out, exist_ok=True)
        fd = os.open(os.path.join(out, ".aotstudio.lock"), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise FrontendError("bad_request", "load", f"cannot create output directory '{out}': {exc.strerror}",
                            "choose a writable directory for --out") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        raise FrontendError("bad_request", "load", f"output directory '{out}' is in use by another compile",
                            "wait for it to finish or choose another --out") from exc
    # Stale partial files from a killed engine (the package is written under a temporary name).
    for name in os.listdir(out):
        if name.startswith(".partial-"):
            path = os.path.join(out, name)
            if os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                try:
                    os.remove(path)
                except OSError:
                    pass
    return os.fdopen(fd, "r+")


def drop_previous_log(out: str) -> None:
    """At a job's end: the previous run's log that neither commit() nor abandon() took (a job
    that does not stage: a profile, a quantize scheme) is dropped; the new run's log is the folder's."""
    try:
        os.remove(os.path.join(out, PREVIOUS_LOG))
    except OSError:
        pass


def remove_if_empty(out: str) -> bool:
    """After the job released its lock: ``out`` removed when the lock file is all it holds (a job
    that failed before writing anything, e.g. a profile of a file that is not a package), so that
    a failure leaves no empty output folder. Returns whether it was removed."""
    try:
        names = os.listdir(out)
    except OSError:
        return False
    if any(n != ".aotstudio.lock" for n in names):
        return False
    try:
        if names:
            os.remove(os.path.join(out, ".aotstudio.lock"))
        os.rmdir(out)
        return True
    except OSError:
        return False


def staging_dir(out: str) -> str:
    """A fresh, empty staging folder inside ``out`` (removed first if a crashed job left one).
    Stale ``.partial-*`` entries of killed engines go when the next job locks the folder."""
    work = os.path.join(out, f".partial-{os.getpid()}-staging")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    return work


def rewrite(value, old: str, new: str):
    """``value`` (JSON-like) with every string path under ``old`` moved under ``new``."""
    if isinstance(value, str):
        if value == old or value.startswith(old + os.sep):
            return new + value[len(old):]
        return value
    if isinstance(value, dict):
        return {k: rewrite(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [rewrite(v, old, new) for v in value]
    if isinstance(value, tuple):
        return tuple(rewrite(v, old, new) for v in value)
    return value


def _previous(out: str) -> list:
    return [name for name in ARTIFACTS if os.path.lexists(os.path.join(out, name))]


def _move_in(work: str, out: str, rename: dict) -> list:
    moved = []
    for name in sorted(os.listdir(work)):
        target = rename.get(name, name)
        os.replace(os.path.join(work, name), os.path.join(out, target))
        moved.append(target)
    os.rmdir(work)
    _rewrite_kernels(out, work)
    return moved


def _rewrite_kernels(out: str, work: str) -> None:
    """kernels.json names its trace folder by absolute path: point it at OUT."""
    path = os.path.join(out, "kernels.json")
    if not os.path.isfile(path):
        return
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return
    fixed = rewrite(data, work, out)
    if fixed != data:
        write_json_atomic(path, fixed, indent=1)


def commit(out: str, work: str) -> list:
    """Replace the previous compile's files in ``out`` by the staged ones. Returns what was replaced."""
    old = _previous(out)
    trash = os.path.join(out, f".partial-{os.getpid()}-replaced")
    shutil.rmtree(trash, ignore_errors=True)
    if old:
        os.makedirs(trash)
        for name in old:
            os.replace(os.path.join(out, name), os.path.join(trash, name))
    _move_in(work, out, {})
    shutil.rmtree(trash, ignore_errors=True)
    try:
        os.remove(os.path.join(out, PREVIOUS_LOG))
    except FileNotFoundError:
        pass
    return old


def aside_dir(out: str) -> str:
    """``out/previous-YYYYmmdd-HHMMSS`` (local time), with -2, -3, ... when that exists."""
    base = os.path.join(out, "previous-" + time.strftime("%Y%m%d-%H%M%S"))
    path, n = base, 1
    while os.path.lexists(path):
        n += 1
        path = f"{base}-{n}"
    return path


def abandon(out: str, work: str, verified: bool, discard: bool = False) -> dict:
    """After a failed or cancelled compile: the previous compile's files into a dated folder, the
    failed compile's files into ``out`` (its package as model.unverified.pt2 unless ``verified``).
    With ``discard`` (a bad request: the job never really started) the staged files are dropped and
    ``out`` is left as it was. Returns {"previous": folder or None, "moved": [names],
    "unverified_package": path or None}."""
    old_log = os.path.join(out, PREVIOUS_LOG)
    if discard:
        shutil.rmtree(work, ignore_errors=True)
        if os.path.isfile(old_log):  # the folder's log stays the one of the files in it
            os.replace(old_log, os.path.join(out, "aotstudio.log"))
        return {"previous": None, "moved": [], "unverified_package": None}
    old = _previous(out)
    previous = None
    if old:
        previous = aside_dir(out)
        os.makedirs(previous)
        for name in old:
            os.replace(os.path.join(out, name), os.path.join(previous, name))
        if os.path.isfile(old_log):  # the log of the run whose files these are
            os.replace(old_log, os.path.join(previous, "aotstudio.log"))
    elif os.path.isfile(old_log):  # a run that left no files: its log goes with nothing
        os.remove(old_log)
    rename = {} if verified else {"model.pt2": UNVERIFIED, "model.guards.json": UNVERIFIED_GUARDS}
    moved = _move_in(work, out, rename)
    unverified = os.path.join(out, UNVERIFIED) if UNVERIFIED in moved else None
    return {"previous": previous, "moved": old, "unverified_package": unverified}
