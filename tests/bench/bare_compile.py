# SPDX-License-Identifier: GPL-3.0-or-later
"""Bare AOTInductor compile of a sample, for bench_compile: torch.export, then time only
aoti_compile_and_package with caches disabled (as the instrumented compile runs). Prints the
seconds of the compile call on the last line."""
import os
import sys
import tempfile
import time

sys.path.insert(0, sys.argv[2])
import torch  # noqa: E402
from aotstudio_frontend import samples  # noqa: E402

model, inputs = samples.SAMPLES[sys.argv[1].removeprefix("sample:")][0]()
program = torch.export.export(model.eval(), inputs, strict=False)
with tempfile.TemporaryDirectory() as tmp:
    t0 = time.perf_counter()
    torch._inductor.aoti_compile_and_package(program, package_path=os.path.join(tmp, "model.pt2"),
                                             inductor_configs={"force_disable_caches": True})
    print(f"{time.perf_counter() - t0:.3f}")
