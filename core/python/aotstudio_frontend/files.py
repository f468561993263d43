# SPDX-License-Identifier: GPL-3.0-or-later
"""The front end's one way to write a result file: under a temporary name in the same folder,
flushed to disk, then renamed over the target, so a reader or a killed job never sees half a file.
The Python counterpart of the engine's Bundle::writeFileAtomic (core/bundle/bundle.h)."""

import json
import os


def write_json_atomic(path: str, data, indent=None, separators=None) -> str:
    """``data`` as JSON (``json.dump`` with ``indent``/``separators``) in ``path``, atomically;
    creates the folder. On any failure the temporary file is removed, ``path`` is left as it was and
    the exception propagates. Returns ``path``."""
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    tmp = os.path.join(folder, f".{os.path.basename(path)}.partial-{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=indent, separators=separators)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise
    return path
