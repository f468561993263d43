# SPDX-License-Identifier: GPL-3.0-or-later
"""Quantization schemes for the ``quantize`` request (core/protocol/FORMAT.md, "quantize result").

A compile job with a ``scheme`` option holds one :class:`QuantState`. At load it keeps an fp32 copy
of the model, builds the calibration and evaluation sets, computes fp32 eager reference outputs and
captures every Linear/Conv layer's fp32 input (forward hooks), then quantizes the model in place:
torchao ``quantize_`` for the weight/dynamic schemes, or PT2E (export, ``prepare_pt2e`` with the x86
Inductor quantizer, calibrate, ``convert_pt2e``) for ``int8-static``. The job then exports and
compiles the quantized model as usual; the C++ side (core/pipeline/quantizejob.cpp) runs the
evaluation set through the compiled package and hands the outputs back here.

The package's parts:

- ``schemes.py``: the scheme table (name -> how to quantize, which layers it quantizes, what the
  device needs), ``SCHEMES`` and the request checks (``scheme_list``, ``check_scheme``);
- ``metrics.py``: accuracy against fp32 eager, per-layer errors, the quantized ops of a graph;
- ``state.py``: :class:`QuantState`, one scheme inside a compile job.

The C++ side calls ``quant.scheme_list`` (Python::callFunction) and the job's ``quant.*`` methods
(CompileJob::call): all of them resolve from here. Calibration and evaluation samples come from
``..input_samples`` (shared with verify).
"""

from ..input_samples import generate_samples, load_samples
from .schemes import SCHEMES, Unsupported, check_device, check_scheme, scheme_list
from .state import QuantState

__all__ = ["SCHEMES", "Unsupported", "check_device", "check_scheme", "scheme_list", "load_samples",
           "generate_samples", "QuantState"]
