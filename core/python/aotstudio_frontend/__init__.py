# SPDX-License-Identifier: GPL-3.0-or-later
"""AOT Studio's Python frontend, imported by the engine's embedded interpreter.

Everything that only exists in Python lives here: building the user's model, eager execution,
``torch.export`` and AOTInductor packaging. The C++ engine (core/pipeline) drives the stages one by
one, loads the package with LibTorch and times both variants with one C++ timer.
"""

import logging as _logging
import os as _os

# Quiet noise that is not the user's business on every job: the CPU-only "No CUDA runtime is found"
# warning from cpp_extension, pytree deprecation chatter from torchao, progress bars from
# transformers' weight loading. Real errors still surface.
for _name in ("torch.utils.cpp_extension", "torch.utils._pytree"):
    _logging.getLogger(_name).setLevel(_logging.ERROR)
_os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
_os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
_os.environ.setdefault("TQDM_DISABLE", "1")

from .errors import FrontendError

__all__ = ["FrontendError", "CompileJob", "engine_info"]


def __getattr__(name):
    # CompileJob and engine_info on first use (PEP 562): importing job.py pulls in torch, sympy and
    # Inductor, which child processes that only need a small module (capture's recorder, the eager
    # cold-start baseline) should not pay for on start-up.
    if name in ("CompileJob", "engine_info"):
        from . import job

        return getattr(job, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
