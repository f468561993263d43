# SPDX-License-Identifier: GPL-3.0-or-later
"""The one exception type the engine turns into a protocol ``error`` event."""

import traceback


class FrontendError(Exception):
    """An error with a stage, a protocol error ``code`` (see core/protocol/FORMAT.md), a message
    naming what failed and a hint saying what to do. Anything else escaping the frontend is
    reported with code ``internal``."""

    def __init__(self, code: str, stage: str, message: str, hint: str = ""):
        super().__init__(message)
        self.code = code
        self.stage = stage
        self.message = message
        self.hint = hint


def user_frame(exc: BaseException, path_hint: str | None = None) -> str:
    """Return ``file:line`` of the innermost traceback frame in the user's file (or the innermost
    frame at all when ``path_hint`` is None or never seen), for error messages."""
    frames = traceback.extract_tb(exc.__traceback__)
    chosen = None
    for frame in frames:
        if path_hint is None or frame.filename == path_hint:
            chosen = frame
    if chosen is None and frames:
        chosen = frames[-1]
    return f"{chosen.filename}:{chosen.lineno}" if chosen else ""


def one_line(exc: BaseException) -> str:
    """First line of an exception's message, prefixed by its type, for a one-line error."""
    text = str(exc).strip().splitlines()
    first = text[0] if text else ""
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__
