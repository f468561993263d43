# SPDX-License-Identifier: GPL-3.0-or-later
"""A corpus of real architectures (issue 14, item 7), each loaded through a model source
(sources.py), exported, compiled with AOTInductor for the CPU and verified against eager: BERT,
GPT-2, Llama, a T5 encoder, ViT (transformers), a timm ResNet-50 and a diffusers UNet. All from
tiny configs written to a temporary folder, random weights, nothing downloaded.

The stages are CompileJob's own (load, export, compile, then the verify stage's Verifier), with the
package run by torch._inductor.aoti_load_package where the C++ engine would run it. Prints one row
per model (export and compile seconds, max abs error against eager) and exits 1 when a model fails
that is not listed in EXPECTED_FAILURES, or when one listed there passes.

Run: .venv/bin/python tests/python/corpus_models.py [NAME ...]   (CTest: py_corpus, label slow)
     .venv/bin/python tests/python/corpus_models.py --write-specs DIR   (the specs only; bench_models)
"""

import json
import os
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "core", "python"))

import torch  # noqa: E402
import torch.utils._pytree as pytree  # noqa: E402

from aotstudio_frontend import job  # noqa: E402
from aotstudio_frontend.errors import FrontendError  # noqa: E402

#: name -> why it cannot pass on the pinned torch (tools/requirements.txt). A model listed here
#: that passes makes the run fail, so that the list is kept true.
EXPECTED_FAILURES = {}


def _save(root: str, name: str, config) -> str:
    folder = os.path.join(root, name)
    config.save_pretrained(folder)
    return folder


def corpus(root: str) -> dict:
    """name -> model spec, the configs written under ``root``. Sizes are tiny (2 layers, width 32)
    so that a CPU compiles each in seconds to a minute; the architectures' code paths are the real
    ones."""
    import diffusers
    import transformers as tf

    small = dict(num_hidden_layers=2, num_attention_heads=2, intermediate_size=64)
    specs = {
        "bert": "hf:" + _save(root, "bert", tf.BertConfig(vocab_size=128, hidden_size=32, max_position_embeddings=64,
                                                          **small)) + "?class=AutoModelForSequenceClassification",
        "gpt2": "hf:" + _save(root, "gpt2", tf.GPT2Config(vocab_size=128, n_embd=32, n_layer=2, n_head=2,
                                                          n_positions=64)) + "?class=AutoModelForCausalLM",
        "llama": "hf:" + _save(root, "llama", tf.LlamaConfig(vocab_size=128, hidden_size=32, intermediate_size=64,
                                                             num_hidden_layers=2, num_attention_heads=4,
                                                             num_key_value_heads=2, max_position_embeddings=64))
        + "?class=AutoModelForCausalLM",
        "t5-encoder": "hf:" + _save(root, "t5", tf.T5Config(vocab_size=128, d_model=32, d_kv=8, d_ff=64, num_layers=2,
                                                            num_heads=4)) + "?class=T5EncoderModel",
        "vit": "hf:" + _save(root, "vit", tf.ViTConfig(image_size=32, patch_size=8, hidden_size=32, **small))
        + "?class=AutoModelForImageClassification",
        "timm-resnet50": "timm:resnet50?size=64",
    }
    unet = diffusers.UNet2DConditionModel(
        sample_size=16, in_channels=4, out_channels=4, layers_per_block=1, block_out_channels=(32, 64),
        down_block_types=("CrossAttnDownBlock2D", "DownBlock2D"), up_block_types=("UpBlock2D", "CrossAttnUpBlock2D"),
        cross_attention_dim=32, attention_head_dim=8, norm_num_groups=8)
    unet.save_config(os.path.join(root, "unet"))  # the config alone: random weights
    specs["diffusers-unet"] = "hf:" + os.path.join(root, "unet")
    return specs


def _run_package(package: str, j, log) -> dict:
    """The verify stage as the engine runs it, with the package loaded in Python."""
    runner = torch._inductor.aoti_load_package(package)
    for i in range(j.verify_begin()):
        inputs = [torch.from_dlpack(c) for c in j.verify_inputs(i)]
        with torch.inference_mode():
            out = runner(*inputs)
        leaves = [t.contiguous() for t in pytree.tree_leaves(out) if isinstance(t, torch.Tensor)]
        j.verify_outputs(i, [torch.utils.dlpack.to_dlpack(t) for t in leaves])
    return j.verify_end()


def run_one(name: str, spec: str, root: str) -> dict:
    """Load, export, compile and verify ``spec``; a row {name, spec, ok, export_s, compile_s,
    max_abs_error, outputs, error}."""
    lines = []
    log = lambda level, message: lines.append(f"[{level}] {message}")
    row = {"name": name, "spec": spec, "ok": False, "export_s": None, "compile_s": None, "max_abs_error": None,
           "outputs": [], "error": None}
    # recipe "defaults": this checks that each architecture compiles and verifies as AOTInductor's
    # defaults do; the chooser (recipe.py) has tests of its own (test_recipe.py).
    j = job.CompileJob({"model": spec, "out": os.path.join(root, "out", name), "snapshots": False,
                        "verify_samples": 1, "recipe": "defaults"}, log)
    try:
        j.load()
        t0 = time.perf_counter()
        j.export()
        t1 = time.perf_counter()
        row["export_s"] = t1 - t0
        j.compile()
        row["compile_s"] = time.perf_counter() - t1
        result = _run_package(j.package, j, log)
        row["max_abs_error"] = result.get("max_abs_error")
        row["outputs"] = [o["name"] for o in result.get("outputs", [])]
        row["ok"] = True
    except FrontendError as exc:
        row["error"] = f"{exc.stage}: {exc.code}: {exc.message}"
    except Exception as exc:  # noqa: BLE001 - reported in the table
        row["error"] = f"internal: {type(exc).__name__}: {exc}"
        traceback.print_exc()
    finally:
        j.close()
    if not row["ok"]:
        print("\n".join(f"    {l[:400]}" for l in lines[-8:]), file=sys.stderr)
    return row


#: The corpus's transformers: bench_models times them whole against regional (repeated layers).
TRANSFORMERS = ("bert", "gpt2", "llama", "t5-encoder", "vit")


def main(argv) -> int:
    torch.manual_seed(0)
    if argv[:1] == ["--write-specs"]:
        # For bench_models: the configs under DIR, and one JSON line {name: spec, ...,
        # "transformers": [...]} on stdout; nothing is compiled.
        if len(argv) != 2:
            print("usage: corpus_models.py --write-specs DIR", file=sys.stderr)
            return 2
        os.makedirs(argv[1], exist_ok=True)
        specs = corpus(argv[1])
        print(json.dumps(dict(specs, transformers=list(TRANSFORMERS))))
        return 0
    root = tempfile.mkdtemp(prefix="aotstudio-corpus-")
    specs = corpus(root)
    wanted = argv or list(specs)
    unknown = [n for n in wanted if n not in specs]
    if unknown:
        print(f"unknown corpus model(s): {', '.join(unknown)}; known: {', '.join(specs)}", file=sys.stderr)
        return 2
    rows = []
    print(f"{'model':16} {'result':18} {'export s':>9} {'compile s':>10} {'max abs err':>12}  outputs / error")
    for name in wanted:
        row = run_one(name, specs[name], root)
        expected = EXPECTED_FAILURES.get(name)
        row["verdict"] = ("passed" if row["ok"] and not expected else
                          "UNEXPECTED PASS" if row["ok"] else
                          "expected failure" if expected else "FAILED")
        fmt = lambda v, f: (f % v) if v is not None else "-"
        print(f"{name:16} {row['verdict']:18} {fmt(row['export_s'], '%9.1f'):>9} {fmt(row['compile_s'], '%10.1f'):>10} "
              f"{fmt(row['max_abs_error'], '%12.2e'):>12}  "
              + (", ".join(row["outputs"]) if row["ok"] else f"{row['error'][:300]}"
                 + (f" (expected: {expected})" if expected else "")), flush=True)
        rows.append(row)
    report = os.environ.get("AOTSTUDIO_CORPUS_REPORT")
    if report:
        with open(report, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
    bad = [r["name"] for r in rows if r["verdict"] in ("FAILED", "UNEXPECTED PASS")]
    if bad:
        print(f"corpus: {len(bad)} of {len(rows)} did not go as expected: {', '.join(bad)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
