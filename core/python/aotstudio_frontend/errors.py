# SPDX-License-Identifier: GPL-3.0-or-later
"""The one exception type the engine turns into a protocol ``error`` event."""

import re
import traceback

from .messages import text as msgtext


class FrontendError(Exception):
    """An error with a stage, a protocol error ``code`` (see core/protocol/FORMAT.md), a message
    naming what failed and a hint saying what to do. Anything else escaping the frontend is
    reported with code ``internal``."""

    def __init__(self, code: str, stage: str, message: str, hint: str = "", where: dict | None = None):
        super().__init__(message)
        self.code = code
        self.stage = stage
        self.message = message
        self.hint = hint
        #: Where in the user's code it failed (user_where()), sent as the error event's ``where``.
        self.where = where


#: The module names a model file is imported under (models.py: ``aotstudio_user_<hash>``, unique per
#: path) -> what the user calls it: the file's stem. Messages name a class by the latter.
USER_MODULES = {}


def user_module(name: str) -> str:
    """``name`` (a class's ``__module__``) as the user knows it: the model file's stem for the
    synthetic module a factory file is imported as, else unchanged."""
    return USER_MODULES.get(name, name)


def user_frame(exc: BaseException, path_hint: str | None = None) -> str:
    """Return ``file:line`` of the innermost traceback frame in the user's file (or the innermost
    frame at all when ``path_hint`` is None or never seen), for error messages."""
    if isinstance(exc, SyntaxError) and exc.filename:  # its traceback is importlib's, not the file's
        return f"{exc.filename}:{exc.lineno}"
    frames = traceback.extract_tb(exc.__traceback__)
    chosen = None
    for frame in frames:
        if path_hint is None or frame.filename == path_hint:
            chosen = frame
    if chosen is None and frames:
        chosen = frames[-1]
    return f"{chosen.filename}:{chosen.lineno}" if chosen else ""


_FRAME_IN_TEXT = re.compile(r'File "([^"]+)", line (\d+), in (\S+)\n\s*(.*)')
#: Frames that are not the user's code: libraries, the studio's front end, and code generated at run
#: time (the flat-input forward of inputs.py, "<aotstudio flat inputs of X>"; torch's "<string>"
#: code). Error locations skip them to reach the user's line.
LIBRARY_PATHS = ("/site-packages/", "/dist-packages/", "/lib/python3", "aotstudio_frontend", "<aotstudio", "<string>")
_LIBRARY_PATHS = LIBRARY_PATHS


def user_location(exc: BaseException) -> str:
    """``file:line (code)`` of the user's code that torch blames for ``exc``: the last non-library
    frame quoted in the message (torch.export prints "The following call raised this error:
    File ..., line N"), else the innermost non-library frame of the traceback; "" if none."""
    text = str(exc)
    for m in reversed(list(_FRAME_IN_TEXT.finditer(text))):
        if not any(p in m.group(1) for p in _LIBRARY_PATHS):
            code = m.group(4).strip()
            return f"{m.group(1)}:{m.group(2)}" + (f" ({code})" if code else "")
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if not any(p in frame.filename for p in _LIBRARY_PATHS):
            return f"{frame.filename}:{frame.lineno}" + (f" ({frame.line.strip()})" if frame.line else "")
    return ""


def export_hint(exc: BaseException) -> str:
    """What to do about a torch.export failure, from the kind of error torch raised."""
    name = type(exc).__name__
    text = str(exc)
    if "DataDependent" in name or "data-dependent" in text:
        return msgtext("export.data_dependent.hint")
    if "Unsupported" in name or "not supported" in text.lower():
        return msgtext("export.unsupported.hint")
    if "Constraint" in name or "specializ" in text:
        return msgtext("export.specialized.hint")
    return msgtext("export.other.hint")


def compile_hint(exc: BaseException, device: str) -> str:
    """What to do about an Inductor/AOTI compile failure on ``device`` ("cpu" or "cuda")."""
    text = str(exc)
    if "LoweringException" in type(exc).__name__ or "LoweringException" in text:
        return msgtext("compile.no_lowering.hint")
    if "CppCompileError" in type(exc).__name__ or "C++ compile error" in text:
        return msgtext("compile.cpp_error.hint")
    if device == "cuda":
        return msgtext("compile.cuda_other.hint")
    return msgtext("compile.other.hint")


def one_line(exc: BaseException) -> str:
    """The first meaningful line of an exception's message, prefixed by its type, for a one-line
    error. Never empty and never a bare punctuation mark: an exception without a message (torch's
    ``NotImplementedError('.')``) is named by its type and the function that raised it."""
    lines = [l.strip() for l in str(exc).strip().splitlines()]
    first = next((l for l in lines if any(c.isalnum() for c in l)), "")
    if first:
        return f"{type(exc).__name__}: {first}"
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" raised in {frames[-1].name}() ({frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno})" \
        if frames else ""
    return f"{type(exc).__name__} (no message){where}"


#: Lines of source shown on each side of the failing line in an error's ``where.excerpt``.
EXCERPT_CONTEXT = 3
#: The most frames of the user's code an error's ``where.frames`` keeps (the innermost ones).
MAX_USER_FRAMES = 8


def _is_library(filename: str) -> bool:
    return any(p in filename for p in LIBRARY_PATHS) or filename.startswith("<frozen ")


def _excerpt(filename: str, line: int) -> dict | None:
    """``{"file", "line", "first", "lines"}``: the source of ``filename`` from ``first`` to a few
    lines after ``line`` (EXCERPT_CONTEXT each side); None when the file cannot be read."""
    import linecache

    if not filename or line <= 0:
        return None
    linecache.checkcache(filename)
    source = linecache.getlines(filename)
    if not source or line > len(source):
        return None
    first = max(1, line - EXCERPT_CONTEXT)
    last = min(len(source), line + EXCERPT_CONTEXT)
    return {"file": filename, "line": line, "first": first,
            "lines": [source[i - 1].rstrip("\n") for i in range(first, last + 1)]}


def user_where(exc: BaseException) -> dict | None:
    """Where ``exc`` failed in the user's code, for the error event's ``where`` (FORMAT.md "Where it
    failed"): ``frames``, the traceback trimmed to the user's own frames (libraries, the studio's
    front end and generated code left out; innermost last, at most MAX_USER_FRAMES), each
    ``{"file", "line", "function", "code"}``, and ``excerpt``, the source around the innermost one
    (a SyntaxError's own file and line: its traceback holds no frame of the file). None when no
    frame is the user's."""
    frames = [{"file": f.filename, "line": f.lineno or 0, "function": f.name, "code": (f.line or "").strip()}
              for f in traceback.extract_tb(exc.__traceback__) if not _is_library(f.filename)]
    if isinstance(exc, SyntaxError) and exc.filename and not _is_library(exc.filename):
        frames.append({"file": exc.filename, "line": exc.lineno or 0, "function": "<module>",
                       "code": (exc.text or "").strip()})
    if not frames:
        return None
    frames = frames[-MAX_USER_FRAMES:]
    where = {"frames": frames}
    excerpt = _excerpt(frames[-1]["file"], frames[-1]["line"])
    if excerpt:
        if isinstance(exc, SyntaxError) and exc.offset:
            excerpt["column"] = exc.offset
        where["excerpt"] = excerpt
    return where
