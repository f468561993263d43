# SPDX-License-Identifier: GPL-3.0-or-later
"""Input samples beyond the example: read from a ``torch.save`` file or generated like the example
inputs (seeded, so that runs compare), checked against the shapes the compiled package takes. Used
by verify (its seeded calls) and by quantize (calibration and evaluation data); a module of its own
so that neither imports the other (verify -> quant -> state -> verify was a cycle)."""

import os

import torch

from .errors import FrontendError, one_line


def _as_tuple(sample) -> tuple:
    if isinstance(sample, torch.Tensor):
        return (sample,)
    if isinstance(sample, (tuple, list)) and all(isinstance(t, torch.Tensor) for t in sample):
        return tuple(sample)
    raise TypeError(f"a sample must be a tensor or a tuple of tensors, got {type(sample).__name__}")


def load_samples(path: str, what: str) -> list:
    """Samples from a ``torch.save`` file holding a list of input tuples (or of tensors, for a
    one-input model). Raises FrontendError(bad_request) naming the file and what is wrong."""
    if not os.path.isfile(path):
        raise FrontendError("bad_request", "load", f"{what} file '{path}' does not exist",
                            "give a file written by torch.save([(input, ...), ...])")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:
        raise FrontendError("bad_request", "load", f"cannot read {what} file '{path}': {one_line(exc)}",
                            "write it with torch.save of a list of tensors or of tuples of tensors") from exc
    if isinstance(data, torch.Tensor):
        data = list(data.unbind(0)) if data.dim() > 0 else [data]
    if not isinstance(data, (list, tuple)) or not data:
        raise FrontendError("bad_request", "load", f"{what} file '{path}' holds no list of samples",
                            "save a non-empty list: torch.save([(x0,), (x1,)], path)")
    try:
        return [_as_tuple(s) for s in data]
    except TypeError as exc:
        raise FrontendError("bad_request", "load", f"{what} file '{path}': {exc}",
                            "save a list of tensors or of tuples of tensors") from None


def generate_samples(example: tuple, count: int, seed: int) -> list:
    """``count`` input tuples shaped like ``example``: sample 0 is the example itself; the others
    draw floating inputs from a normal with the example's mean and spread, integer inputs uniformly
    in the example's value range (0/1 masks are kept as they are). Seeded, so runs compare."""
    gen = torch.Generator().manual_seed(seed)
    out = [tuple(t.detach().cpu() for t in example)]
    for _ in range(max(0, count - 1)):
        sample = []
        for t in example:
            t = t.detach().cpu()
            if t.is_floating_point():
                f = t.float()
                mean, std = float(f.mean()), float(f.std()) if f.numel() > 1 else 1.0
                r = torch.randn(t.shape, generator=gen) * (std or 1.0) + mean
                if float(f.min()) >= 0.0:  # images in [0, 1] and the like stay non-negative
                    r = r.clamp(min=float(f.min()), max=float(f.max()))
                sample.append(r.to(t.dtype))
            elif t.dtype == torch.bool or (t.numel() and set(t.unique().tolist()) <= {0, 1}):
                sample.append(t.clone())
            else:
                lo, hi = (int(t.min()), int(t.max())) if t.numel() else (0, 1)
                sample.append(torch.randint(lo, hi + 1, t.shape, generator=gen, dtype=t.dtype))
        out.append(tuple(sample))
    return out


def sample_sets(inputs: tuple, calibration_path, calibration_count: int, eval_path, eval_count: int):
    """The (calibration, evaluation) lists of input tuples (on the CPU, as read or generated) for a
    model whose example inputs are ``inputs``: each read from its file when a path is given, else
    generated (calibration ``calibration_count`` samples with seed 2, evaluation ``eval_count`` with
    seed 1; sample 0 is the example). Raises FrontendError(bad_request) for an unreadable file or
    an evaluation sample whose shapes differ from the example's (the package is static)."""
    if calibration_path:
        calibration = load_samples(calibration_path, "calibration")
    else:
        calibration = generate_samples(inputs, calibration_count, seed=2)
    if eval_path:
        evaluation = load_samples(eval_path, "evaluation")
    else:
        evaluation = generate_samples(inputs, eval_count, seed=1)
    for i, sample in enumerate(evaluation):
        shapes = [list(t.shape) for t in sample]
        want = [list(t.shape) for t in inputs]
        if shapes != want:
            raise FrontendError("bad_request", "load",
                                f"evaluation sample {i} has input shapes {shapes}, the compiled package takes {want}",
                                "save evaluation samples with the example inputs' shapes (the package is static)")
    return calibration, evaluation

