# SPDX-License-Identifier: GPL-3.0-or-later
"""AOT Studio's Python frontend, imported by the engine's embedded interpreter.

Everything that only exists in Python lives here: building the user's model, eager execution,
``torch.export`` and AOTInductor packaging. The C++ engine (core/pipeline) drives the stages one by
one, loads the package with LibTorch and times both variants with one C++ timer.
"""

from .errors import FrontendError
from .job import CompileJob, engine_info

__all__ = ["FrontendError", "CompileJob", "engine_info"]
