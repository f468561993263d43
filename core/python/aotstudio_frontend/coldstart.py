# SPDX-License-Identifier: GPL-3.0-or-later
"""Eager cold start, the baseline of a bundle's cold start: a fresh Python process that imports
torch, builds the model and produces its first output. Run as
``python -m aotstudio_frontend.coldstart MODEL DEVICE [BATCH [SHAPES]]`` (SHAPES: the request's
``shapes`` as JSON); the caller times the whole process (spawn to exit), exactly as it times
``aotstudio-run`` on the bundle. Prints the output's sum."""

import sys


def eager_model(spec, device, shapes_json=None):
    """The model of ``spec`` in eval mode on ``device``, and its example inputs (a tuple, on
    ``device``) with the request's ``shapes`` (JSON text, or None) applied: what both eager
    baselines run (this cold start and ``eager_serve``). Raises FrontendError as resolve_model
    does."""
    import torch

    from .doctor import eval_mode
    from . import shapes as example_shapes
    from .models import resolve_model

    model, inputs, _ = resolve_model(spec)
    if isinstance(model, torch.export.ExportedProgram):
        model = model.module()
    else:
        model = eval_mode(model, lambda level, message: None)  # an exported GraphModule refuses .eval()
    if shapes_json:
        import json
        inputs = example_shapes.apply(example_shapes.check(json.loads(shapes_json)), model, tuple(inputs),
                                      lambda level, message: None)
    return model.to(device), tuple(t.to(device) for t in inputs)


def main(argv):
    import torch

    from .models import batched_inputs, resize_batch

    spec, device = argv[1], argv[2]
    batch = int(argv[3]) if len(argv) > 3 else None
    model, inputs = eager_model(spec, device, argv[4] if len(argv) > 4 else None)
    if batch is not None:
        inputs = tuple(resize_batch(t, batch) if b else t for t, b in zip(inputs, batched_inputs(inputs)))
    with torch.inference_mode():
        out = model(*inputs)
    leaves = torch.utils._pytree.tree_leaves(out)
    if device == "cuda":
        torch.cuda.synchronize()
    print(sum(float(t.float().sum()) for t in leaves if isinstance(t, torch.Tensor)))


if __name__ == "__main__":
    main(sys.argv)
