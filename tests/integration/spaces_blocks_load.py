# SPDX-License-Identifier: GPL-3.0-or-later
"""`export --layout blocks` loaded by Hugging Face's own loader, offline (issue 37 item 3).

Exports tests/fixtures/repeated_blocks_factory.py:make_declared (three `Block`s, declared in
`_repeated_blocks`) twice with the real CLI, without a variant and with `--variant`, lays both out
as one Hub repository in a local Hugging Face cache (`models--ORG--NAME/blobs`, `snapshots/<rev>`,
`refs/main`, as huggingface_hub writes it), and with HF_HUB_OFFLINE=1 and HF_HUB_CACHE pointing at
it calls spaces' `aoti_blocks_load(module, repo_id, variant)` on a fresh model: every Block must
run on its package (its forward replaced by spaces' LazyAOTIModelWithWeights, weights bound from
its own state_dict() with load_constants(check_full_update=True, user_managed=True)) and the
model's output must match eager within the tolerance. A variant the repository lacks must fail to
resolve (so the files really come from the cache), and bad `--variant` names are refused by the
CLI (exit 2) before any compile.

How spaces is loaded: the venv has `spaces` installed with --no-deps (tools/setup.sh,
tools/requirements-nodeps.txt). `import spaces` runs spaces/__init__.py, which imports
spaces.zero.decorator -> spaces.zero.api -> httpx, a dependency we do not install (huggingface_hub
2.x uses httpx2); gradio is only imported on a ZeroGPU Space (SPACES_ZERO_GPU=true). So the test
registers `spaces`, `spaces.zero` and `spaces.zero.torch` as bare packages over the installed
folders (their __init__ files do not run) and imports `spaces.zero.torch.aoti` normally: the
function called is the one `spaces.aoti_blocks_load` resolves to (spaces/__init__.py:
`LazyImported(_aoti_blocks_load)`, `from .zero.torch.aoti import aoti_blocks_load`).

Cost: two regional compiles of a tiny block (about 100 s each on the 2-CPU machine at load 20;
257 s of wall, 57 s of CPU in all), hence the slow tier. Exit 0 passed, 1 failed, 77 skipped (spaces not installed: run tools/setup.sh).
"""
import argparse
import hashlib
import importlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
import types

SKIP = 77
REPO_ID = "aotstudio-test/blocks"
VARIANT = "cpu-fp32"
TOLERANCE = 1e-4


def fail(message: str) -> None:
    print(f"FAILED: {message}", flush=True)
    sys.exit(1)


def cli(args, exe, env, timeout=900):
    t0 = time.monotonic()
    p = subprocess.run([exe] + args, capture_output=True, text=True, env=env, timeout=timeout)
    print(f"$ aotstudio-cli {' '.join(args)}  -> exit {p.returncode} in {time.monotonic() - t0:.1f} s", flush=True)
    return p


def export(exe, env, model, out, variant=None):
    args = ["export", "--model", model, "--layout", "blocks", "--out", out, "--no-zip", "--json"]
    if variant is not None:
        args += ["--variant", variant]
    p = cli(args, exe, env)
    if p.returncode != 0:
        fail(f"export {args} exited {p.returncode}: {p.stderr[-3000:]}")
    return json.loads(p.stdout)["result"]


def add_to_cache(cache: str, repo_id: str, exports: list) -> str:
    """The files spaces asks the Hub for (each block's folder and the config) of every export in
    `exports`, laid out as huggingface_hub's cache holds a downloaded repository: content in
    blobs/<sha256> (the etag of an LFS file), snapshots/<rev>/<path> a relative symlink to it,
    refs/main the revision. Returns the snapshot folder."""
    repo = os.path.join(cache, "models--" + repo_id.replace("/", "--"))
    files = {}
    for out, result in exports:
        files[result["config"]["path"]] = os.path.join(out, result["config"]["path"])
        for block in result["blocks"]:
            for rel in block["files"]:
                files[rel] = os.path.join(out, rel)
    revision = hashlib.sha1("\n".join(sorted(files)).encode()).hexdigest()
    snapshot = os.path.join(repo, "snapshots", revision)
    os.makedirs(os.path.join(repo, "blobs"), exist_ok=True)
    for rel, src in files.items():
        with open(src, "rb") as f:
            data = f.read()
        blob = os.path.join(repo, "blobs", hashlib.sha256(data).hexdigest())
        with open(blob, "wb") as f:
            f.write(data)
        link = os.path.join(snapshot, rel)
        os.makedirs(os.path.dirname(link), exist_ok=True)
        os.symlink(os.path.relpath(blob, os.path.dirname(link)), link)
    os.makedirs(os.path.join(repo, "refs"), exist_ok=True)
    with open(os.path.join(repo, "refs", "main"), "w") as f:
        f.write(revision)
    return snapshot


def load_spaces_aoti():
    """spaces.zero.torch.aoti with its parent packages' __init__ files not run (see the module's
    docstring). Returns the module."""
    spec = importlib.util.find_spec("spaces")
    if spec is None or not spec.submodule_search_locations:
        print("SKIPPED: the venv has no spaces package (tools/setup.sh installs spaces with --no-deps)", flush=True)
        sys.exit(SKIP)
    root = list(spec.submodule_search_locations)[0]
    for name, rel in (("spaces", ""), ("spaces.zero", "zero"), ("spaces.zero.torch", "zero/torch")):
        package = types.ModuleType(name)
        package.__path__ = [os.path.join(root, rel)] if rel else [root]
        sys.modules[name] = package
    aoti = importlib.import_module("spaces.zero.torch.aoti")
    from importlib.metadata import version
    print(f"spaces {version('spaces')} from {root}; huggingface_hub {version('huggingface_hub')}", flush=True)
    if "gradio" in sys.modules:
        fail("loading spaces.zero.torch.aoti imported gradio")
    return aoti


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True, help="aotstudio-cli")
    ap.add_argument("--fixtures", required=True, help="tests/fixtures")
    ap.add_argument("--work", help="a folder to keep (default: a temporary one)")
    a = ap.parse_args()
    work = a.work or tempfile.mkdtemp(prefix="spaces-blocks-")
    if a.work:
        import shutil
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
    cache = os.path.join(work, "hub")
    # Before huggingface_hub or spaces is imported: both read these at import time (spaces keeps
    # its clean-up links under ~/.zerogpu, so HOME is the work folder).
    os.environ.update(HF_HUB_OFFLINE="1", HF_HUB_CACHE=cache, HF_HOME=os.path.join(work, "hf-home"), HOME=work)
    aoti = load_spaces_aoti()

    env = dict(os.environ)
    env.setdefault("AOTSTUDIO_CACHE_DIR", os.path.join(work, "aotstudio-cache"))
    model_spec = os.path.join(a.fixtures, "repeated_blocks_factory.py") + ":make_declared"
    # Bad variant names and a variant without the block layout: refused before any compile (exit 2).
    for bad in (["--layout", "blocks", "--variant", "../up"], ["--layout", "blocks", "--variant", ""],
                ["--layout", "blocks", "--variant", "a/b"], ["--variant", "fp16"]):
        p = cli(["export", "--model", model_spec, "--out", os.path.join(work, "refused")] + bad, a.cli, env, 120)
        if p.returncode != 2 or "--variant" not in p.stderr or os.path.exists(os.path.join(work, "refused")):
            fail(f"export {bad} was not refused with exit 2 naming --variant: exit {p.returncode}: {p.stderr[-500:]}")

    plain_out, variant_out = os.path.join(work, "plain"), os.path.join(work, "variant")
    plain = export(a.cli, env, model_spec, plain_out)
    variant = export(a.cli, env, model_spec, variant_out, VARIANT)
    # What each export wrote: CLASS[.VARIANT]/package.pt2 and config[.VARIANT].json holding {}.
    for out, result, folder, config in ((plain_out, plain, "Block", "config.json"),
                                        (variant_out, variant, f"Block.{VARIANT}", f"config.{VARIANT}.json")):
        if [b["folder"] for b in result["blocks"]] != [folder]:
            fail(f"{out}: blocks {[b.get('folder') for b in result['blocks']]}, expected [{folder!r}]")
        if not os.path.isfile(os.path.join(out, folder, "package.pt2")):
            fail(f"{out}: no {folder}/package.pt2")
        with open(os.path.join(out, config)) as f:
            if json.load(f) != {}:
                fail(f"{out}/{config} is not {{}}")
        with open(os.path.join(out, "blocks.json")) as f:
            index = json.load(f)
        if index.get("variant") != result.get("variant") or index["config"]["path"] != config:
            fail(f"{out}/blocks.json: variant {index.get('variant')!r}, config {index.get('config')!r}")
    if plain.get("variant") is not None or variant.get("variant") != VARIANT:
        fail(f"result variants {plain.get('variant')!r}, {variant.get('variant')!r}")

    snapshot = add_to_cache(cache, REPO_ID, [(plain_out, plain), (variant_out, variant)])
    print(f"local Hub cache: {snapshot}: {sorted(os.listdir(snapshot))}", flush=True)

    import torch
    sys.path.insert(0, a.fixtures)
    import repeated_blocks_factory as factory
    for v in (None, VARIANT):
        model, (example,) = factory.make_declared()
        x = torch.randn(example.shape, generator=torch.Generator().manual_seed(7))
        with torch.inference_mode():
            expected = model(x)
        t0 = time.monotonic()
        aoti.aoti_blocks_load(model, REPO_ID, variant=v)
        blocks = [m for m in model.modules() if type(m).__name__ == "Block"]
        patched = [type(b.__dict__.get("forward")).__name__ for b in blocks]
        if len(blocks) != 3 or patched != ["LazyAOTIModelWithWeights"] * 3:
            fail(f"variant {v!r}: the Blocks' forwards are {patched}, expected spaces' LazyAOTIModelWithWeights on 3")
        with torch.inference_mode():
            got = model(x)
        error = (got - expected).abs().max().item()
        print(f"variant {v!r}: spaces.aoti_blocks_load + first call {time.monotonic() - t0:.2f} s; "
              f"output {tuple(got.shape)} max abs error against eager {error:.3g} (tolerance {TOLERANCE})", flush=True)
        if not error <= TOLERANCE:
            fail(f"variant {v!r}: max abs error {error} over {TOLERANCE}")

    # A variant the repository lacks does not resolve offline: the packages above came from the cache.
    from huggingface_hub.errors import LocalEntryNotFoundError
    model, _ = factory.make_declared()
    try:
        aoti.aoti_blocks_load(model, REPO_ID, variant="absent")
        fail("variant 'absent' loaded although the repository has no Block.absent/")
    except LocalEntryNotFoundError as e:
        print(f"variant 'absent' refused offline: {type(e).__name__}", flush=True)
    print("1 passed, 0 failed", flush=True)


if __name__ == "__main__":
    main()
