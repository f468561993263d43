# SPDX-License-Identifier: GPL-3.0-or-later
"""The native C++ build's share of a compile (issue 35 item 2, "where the time went").

Inductor builds an AOTInductor package with ``torch._inductor.cpp_builder.CppBuilder.build`` (one
call per command: the wrapper and kernel objects, the constants, the shared-object link, and once
per process the vector-ISA probe; see ``AotCodeCompiler.compile`` in torch/_inductor/codecache.py).
:class:`NativeBuildTimer` wraps that method for the duration of one compile and sums the wall time
of its calls, so the Pipeline can show the C++ build as a row of its own instead of leaving it
inside the compile stage's total.
"""

import threading
import time


class NativeBuildTimer:
    """Context manager: while active, every ``CppBuilder.build`` call is timed (wall clock,
    ``time.perf_counter``). ``seconds`` is their sum in seconds (calls on several threads overlap and
    are all counted; Inductor's AOT build runs them one after another), ``commands`` their number.
    Where this torch has no ``CppBuilder.build`` the timer does nothing and ``seconds`` stays 0."""

    def __init__(self):
        self.seconds = 0.0
        self.commands = 0
        self._lock = threading.Lock()
        self._cls = None
        self._original = None

    def __enter__(self):
        try:
            from torch._inductor import cpp_builder
        except ImportError:
            return self
        cls = getattr(cpp_builder, "CppBuilder", None)
        original = getattr(cls, "build", None)
        if original is None:
            return self
        timer = self

        def build(builder, *args, **kwargs):
            started = time.perf_counter()
            try:
                return original(builder, *args, **kwargs)
            finally:
                with timer._lock:
                    timer.seconds += time.perf_counter() - started
                    timer.commands += 1

        self._cls, self._original = cls, original
        cls.build = build
        return self

    def __exit__(self, *exc):
        if self._cls is not None:
            self._cls.build = self._original
            self._cls = None
        return False

    def result(self) -> dict:
        """``{"seconds": s, "commands": n}`` for the compile result's ``native_build``."""
        return {"seconds": round(self.seconds, 6), "commands": self.commands}
