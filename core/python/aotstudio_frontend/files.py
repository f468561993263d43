# SPDX-License-Identifier: GPL-3.0-or-later
"""The front end's one way to write a file: under a temporary name in the same folder, flushed to
disk, then renamed over the target, so a reader or a killed job never sees half a file. The Python
counterpart of the engine's Bundle::writeFileAtomic (core/bundle/bundle.h)."""

import contextlib
import json
import os


@contextlib.contextmanager
def atomic_file(path: str, mode: str = "w", chmod=None):
    """Yield a file open for writing (``mode`` "w" text in UTF-8, or "wb") whose content replaces
    ``path`` when the block ends: flushed, fsynced, given ``chmod`` (e.g. 0o755) if set, then
    renamed over ``path``; creates the folder. If the block or the write raises, the temporary file
    is removed, ``path`` is left as it was and the exception propagates. The temporary file is
    ``.<name>.partial-<pid>`` beside ``path``."""
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_file: mode must be 'w' or 'wb', not {mode!r}")
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    tmp = os.path.join(folder, f".{os.path.basename(path)}.partial-{os.getpid()}")
    try:
        with open(tmp, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        if chmod is not None:
            os.chmod(tmp, chmod)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


def write_json_atomic(path: str, data, indent=None, separators=None) -> str:
    """``data`` as JSON (``json.dump`` with ``indent``/``separators``) in ``path`` through
    atomic_file(). Returns ``path``."""
    with atomic_file(path) as f:
        json.dump(data, f, indent=indent, separators=separators)
    return path


def move_into_place(src: str, dst: str) -> str:
    """Rename a finished file ``src`` (one another library wrote, e.g. Inductor's package) over
    ``dst`` in the same file system, after fsyncing its content so a crash right after the rename
    cannot leave ``dst`` empty. Returns ``dst``."""
    with open(src, "rb") as f:
        os.fsync(f.fileno())
    os.replace(src, dst)
    return dst
