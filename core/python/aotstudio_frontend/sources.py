# SPDX-License-Identifier: GPL-3.0-or-later
"""Model sources: ``hf:``, ``timm:`` and ``torchvision:`` model specs, built offline.

Syntax (the CLI's ``--model`` string is passed through unchanged)::

    hf:FOLDER[?OPTIONS]          a local Hugging Face model folder (config.json, weights if present)
    hf:ORG/NAME[?OPTIONS]        a model id, read from the local Hugging Face cache only
    timm:NAME[?OPTIONS]          a timm architecture
    torchvision:NAME[?OPTIONS]   a torchvision.models architecture

OPTIONS are ``key=value`` pairs joined by ``&``: ``class`` (hf: the transformers class, e.g.
``AutoModelForSequenceClassification`` or ``BertForMaskedLM``; default the folder's
``architectures[0]``, else ``AutoModel``), ``batch`` (default 2), ``seq`` (token count, default
16), ``size`` (image height = width; default from the config), ``weights`` (timm/torchvision: a
local state-dict file, .safetensors or a torch.save file). ``SPEC#PATH`` still takes a sub-module
(models.py splits it off first).

Nothing is downloaded: a folder without weights and timm/torchvision models without ``weights=``
get random weights (said in the log); a model id that is not in the local cache is an error.

Example inputs come from the config and forward's signature (:func:`example_inputs`): token ids
within the vocabulary, an attention mask, pixel values of the configured size and channels,
decoder token ids for encoder-decoder models, latents, timesteps and text embeddings for diffusers
UNets and transformers. They are returned as the factory dict ``{model, args, kwargs}`` so that the
inputs keep forward's parameter names.
"""

import difflib
import glob
import inspect
import json
import os
import re
from urllib.parse import parse_qsl

import torch

from .errors import FrontendError, one_line

SCHEMES = ("hf:", "timm:", "torchvision:")
OPTIONS = ("class", "batch", "seq", "size", "weights")
DEFAULT_BATCH = 2
DEFAULT_SEQ = 16

_REPO_ID = re.compile(r"^[A-Za-z0-9][\w.-]*(/[\w.-]+)?$")
_TRANSFORMERS_WEIGHTS = ("model.safetensors", "model.safetensors.index.json", "pytorch_model.bin",
                         "pytorch_model.bin.index.json")
_DIFFUSERS_WEIGHTS = ("diffusion_pytorch_model.safetensors", "diffusion_pytorch_model.safetensors.index.json",
                      "diffusion_pytorch_model.bin", "diffusion_pytorch_model.bin.index.json")


def is_source(spec: str) -> bool:
    """True when ``spec`` names one of this module's sources (``hf:``, ``timm:``, ``torchvision:``)."""
    return spec.startswith(SCHEMES)


def parse(spec: str) -> tuple:
    """``scheme:TARGET?k=v&...`` -> (scheme without the colon, TARGET, {option: value}). ``batch``,
    ``seq`` and ``size`` become positive ints. Raises FrontendError(bad_request) for an unknown
    option or a bad number."""
    scheme, _, rest = spec.partition(":")
    target, sep, query = rest.partition("?")
    options = {}
    if sep:
        for key, value in parse_qsl(query, keep_blank_values=True):
            if key not in OPTIONS:
                close = difflib.get_close_matches(key, OPTIONS, n=1)
                raise FrontendError("bad_request", "load", f"unknown option '{key}' in model spec '{spec}'",
                                    (f"did you mean '{close[0]}'? " if close else "")
                                    + f"options: {', '.join(OPTIONS)} (e.g. {scheme}:{target}?batch=4&seq=128)")
            if key in ("batch", "seq", "size"):
                if not value.isdigit() or int(value) < 1:
                    raise FrontendError("bad_request", "load", f"'{key}' in '{spec}' must be a positive integer, "
                                        f"got '{value}'", f"e.g. {scheme}:{target}?{key}=4")
                value = int(value)
            options[key] = value
    if not target:
        raise FrontendError("bad_request", "load", f"model spec '{spec}' names no model",
                            f"give {scheme}:NAME" + (" or hf:path/to/folder" if scheme == "hf" else ""))
    return scheme, target, options


def resolve(spec: str, log) -> dict:
    """Build the model of an ``hf:``/``timm:``/``torchvision:`` spec (module docstring) in eval
    mode with its example inputs, as the factory dict ``{"model", "args", "kwargs"}`` models.py takes.
    ``log(level, message)`` gets where the model came from (folder, cache, random weights) and the
    inputs built. Raises FrontendError(unknown_model|model_error|bad_request), stage "load"."""
    scheme, target, options = parse(spec)
    if scheme == "hf":
        return _hf(spec, target, options, log)
    if "class" in options:
        raise FrontendError("bad_request", "load", f"'class' applies to hf: specs only, not '{spec}'",
                            f"drop ?class=...; {scheme}:NAME chooses the architecture")
    if scheme == "timm":
        return _timm(spec, target, options, log)
    return _torchvision(spec, target, options, log)


# -- hf: ----------------------------------------------------------------------------------------
def hub_cache() -> str:
    """The Hugging Face hub cache folder that model ids are looked up in (HF_HUB_CACHE / HF_HOME)."""
    try:
        from huggingface_hub import constants
        return constants.HF_HUB_CACHE
    except ImportError:
        return os.path.join(os.path.expanduser("~"), ".cache", "huggingface", "hub")


def locate(target: str) -> str:
    """The local folder of an hf: target: an existing folder (or the folder of a given config.json),
    else a model id's snapshot in the local hub cache (``local_files_only``: never the network).
    Raises FrontendError(unknown_model) saying where it looked."""
    path = os.path.expanduser(target)
    if os.path.isfile(path) and os.path.basename(path) == "config.json":
        path = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        if not os.path.isfile(os.path.join(path, "config.json")):
            if os.path.isfile(os.path.join(path, "model_index.json")):
                parts = sorted(d for d in os.listdir(path) if os.path.isfile(os.path.join(path, d, "config.json")))
                raise FrontendError("unknown_model", "load",
                                    f"'{path}' is a diffusers pipeline folder (model_index.json), not one model",
                                    "name one component: "
                                    + ", ".join(f"hf:{os.path.join(target, p)}" for p in parts[:4]))
            raise FrontendError("unknown_model", "load", f"no config.json in '{os.path.abspath(path)}'",
                                "give a Hugging Face model folder (as written by save_pretrained: config.json and "
                                "the weights)")
        return os.path.abspath(path)
    if os.path.exists(path):
        raise FrontendError("unknown_model", "load", f"'{target}' is a file, not a model folder",
                            "give the folder that holds config.json")
    if target.startswith((".", "/", "~")) or not _REPO_ID.match(target):
        raise FrontendError("unknown_model", "load", f"model folder '{os.path.abspath(path)}' does not exist",
                            "give an existing folder written by save_pretrained, or a model id in the local cache")
    cache = hub_cache()
    try:
        from huggingface_hub import snapshot_download
        folder = snapshot_download(repo_id=target, local_files_only=True)
    except Exception as exc:  # LocalEntryNotFoundError, HFValidationError, ...
        raise FrontendError("unknown_model", "load",
                            f"'{target}' is neither a folder ({os.path.abspath(path)}) nor a model id in the local "
                            f"Hugging Face cache ({cache}); nothing is downloaded",
                            "download it once where the network is allowed (huggingface-cli download "
                            f"{target}), set HF_HUB_CACHE to that cache, or give the model's folder") from exc
    if not os.path.isfile(os.path.join(folder, "config.json")):
        raise FrontendError("unknown_model", "load", f"the cached '{target}' ({folder}) has no config.json",
                            "give a model folder with config.json; for a pipeline, one component's folder "
                            f"(hf:{os.path.join(folder, 'unet')})")
    return folder


def _has_weights(folder: str, names: tuple) -> bool:
    return any(os.path.isfile(os.path.join(folder, n)) for n in names) or \
        bool(glob.glob(os.path.join(folder, "*.safetensors")))


def _read_config(folder: str) -> dict:
    path = os.path.join(folder, "config.json")
    try:
        with open(path, encoding="utf-8") as f:
            config = json.load(f)
    except (OSError, ValueError) as exc:
        raise FrontendError("model_error", "load", f"cannot read '{path}': {one_line(exc)}",
                            "config.json must be a JSON object (as save_pretrained writes it)") from exc
    if not isinstance(config, dict):
        raise FrontendError("model_error", "load", f"'{path}' is not a JSON object", "re-save it with save_pretrained")
    return config


def _hf(spec: str, target: str, options: dict, log) -> dict:
    folder = locate(target)
    raw = _read_config(folder)
    if "_class_name" in raw:
        model = _diffusers_model(spec, folder, raw, options, log)
    else:
        model = _transformers_model(spec, folder, raw, options, log)
    _float32(spec, model, log)
    model.eval()
    return _made(model, example_inputs(model, options), log)


def _float32(spec: str, model, log) -> None:
    """Weights saved in half precision are made float32, like the inputs built for them: the job's
    --dtype decides the compile's precision, not the checkpoint's storage type."""
    stored = {p.dtype for p in model.parameters() if p.is_floating_point()}
    if stored - {torch.float32}:
        model.float()
        log("info", f"{spec}: weights stored as {', '.join(sorted(str(d).replace('torch.', '') for d in stored))} "
                    "converted to float32 (--dtype chooses the compile's precision)")


def _diffusers_model(spec: str, folder: str, raw: dict, options: dict, log):
    if "class" in options:
        raise FrontendError("bad_request", "load", f"'{spec}' is a diffusers model ({raw['_class_name']}): "
                            "its class comes from config.json", "drop ?class=...")
    try:
        import diffusers
    except ImportError as exc:
        raise FrontendError("model_error", "load", f"'{spec}' is a diffusers model but diffusers is not installed",
                            "run tools/setup.sh to install the pinned Python packages") from exc
    name = raw["_class_name"]
    cls = getattr(diffusers, name, None)
    if not isinstance(cls, type) or not issubclass(cls, torch.nn.Module):
        known = [n for n in dir(diffusers) if n.endswith(("Model", "Transformer2DModel"))]
        close = difflib.get_close_matches(str(name), known, n=3)
        raise FrontendError("model_error", "load",
                            f"diffusers {diffusers.__version__} has no model class '{name}' (_class_name in "
                            f"{folder}/config.json)",
                            (f"closest: {', '.join(close)}; " if close else "")
                            + "upgrade diffusers or write a factory (file.py:make)")
    try:
        if _has_weights(folder, _DIFFUSERS_WEIGHTS):
            model = cls.from_pretrained(folder, local_files_only=True)
            log("info", f"{spec}: {name} with the weights in {folder}")
        else:
            model = cls.from_config(cls.load_config(folder))
            log("info", f"{spec}: {name} from {folder}/config.json with random weights (no weights file in the folder)")
    except Exception as exc:
        raise FrontendError("model_error", "load", f"building {name} from {folder} raised {one_line(exc)}",
                            "check config.json and the weight files (as written by save_pretrained)") from exc
    _keyed_diffusers_outputs()
    return model


def _keyed_diffusers_outputs() -> None:
    """Give diffusers' output classes (BaseOutput subclasses: UNet2DConditionOutput, ...) the
    keyed flatten that torch's pytree needs to name their fields. diffusers registers them with
    a plain flatten only, and ``tree_flatten_with_path`` (named outputs, verify) then refuses
    them; the fields are a dict's, so their names are the keys."""
    import torch.utils._pytree as pytree
    from diffusers.utils import BaseOutput
    for cls, node in list(pytree.SUPPORTED_NODES.items()):
        if isinstance(cls, type) and issubclass(cls, BaseOutput) and node.flatten_with_keys_fn is None:
            pytree.SUPPORTED_NODES[cls] = node._replace(flatten_with_keys_fn=pytree._dict_flatten_with_keys)


def _transformers_class(spec: str, choice: str):
    import transformers
    cls = getattr(transformers, choice, None)
    if isinstance(cls, type) and (choice.startswith("Auto") or issubclass(cls, torch.nn.Module)):
        return cls
    names = [n for n in dir(transformers) if n.startswith("AutoModel") or n.endswith(("Model", "LMHeadModel"))
             or "For" in n]
    close = difflib.get_close_matches(choice, names, n=4, cutoff=0.5)
    raise FrontendError("unknown_model", "load",
                        f"transformers {transformers.__version__} has no model class '{choice}' (in '{spec}')",
                        ("closest: " + ", ".join(close) if close else
                         "give an Auto class such as AutoModel, AutoModelForCausalLM or "
                         "AutoModelForSequenceClassification, or a concrete class such as BertForMaskedLM"))


def _transformers_model(spec: str, folder: str, raw: dict, options: dict, log):
    try:
        import transformers
        from transformers import AutoConfig
    except ImportError as exc:
        raise FrontendError("model_error", "load", f"'{spec}' needs transformers, which is not installed",
                            "run tools/setup.sh to install the pinned Python packages") from exc
    model_type = raw.get("model_type")
    try:
        config = AutoConfig.from_pretrained(folder, local_files_only=True)
    except (ValueError, KeyError) as exc:
        what = f"the architecture '{model_type}' (model_type in config.json)" if model_type else \
            "config.json, which has no model_type"
        raise FrontendError("model_error", "load",
                            f"transformers {transformers.__version__} does not know {what} in {folder}",
                            "upgrade transformers (tools/requirements.txt), fix model_type, or write a factory "
                            "(file.py:make) that builds the model") from exc
    except Exception as exc:
        raise FrontendError("model_error", "load", f"reading {folder}/config.json raised {one_line(exc)}",
                            "re-save the config with save_pretrained") from exc
    if hasattr(config, "use_cache"):
        config.use_cache = False  # a KV cache object in the outputs is not a tensor torch.export can return
    architectures = [a for a in (getattr(config, "architectures", None) or []) if hasattr(transformers, a)]
    choice = options.get("class") or (architectures[0] if architectures else "AutoModel")
    cls = _transformers_class(spec, choice)
    weights = _has_weights(folder, _TRANSFORMERS_WEIGHTS)
    try:
        if weights:
            model = cls.from_pretrained(folder, config=config, local_files_only=True)
        elif choice.startswith("Auto"):
            model = cls.from_config(config)
        else:
            model = cls(config)
    except Exception as exc:
        raise FrontendError("model_error", "load",
                            f"building {choice} from {folder} raised {one_line(exc)}",
                            "choose a head that fits this architecture with ?class=... (e.g. AutoModel)") from exc
    log("info", f"{spec}: {type(model).__name__} ({choice}) from {folder}"
        + (" with its weights" if weights else " with random weights (no weights file in the folder)"))
    return model


# -- example inputs -----------------------------------------------------------------------------
def _cfg(config, *names, default=None):
    """The first of ``names`` set on ``config`` (or on its text/vision sub-config), else default."""
    for source in (config, getattr(config, "text_config", None), getattr(config, "vision_config", None),
                   getattr(config, "encoder", None)):
        if source is None:
            continue
        for name in names:
            value = source.get(name) if isinstance(source, dict) else getattr(source, name, None)
            if value is not None:
                return value
    return default


def _hw(value, override):
    if override:
        return override, override
    if isinstance(value, (list, tuple)):
        return int(value[-2]), int(value[-1])
    return int(value), int(value)


def example_inputs(model, options: dict) -> dict:
    """Example keyword inputs for a transformers or diffusers ``model``, from its config and the
    parameters its forward takes (only those it takes are given):

    - ``input_ids`` / ``decoder_input_ids``: int64 [batch, seq] in [0, vocab_size);
    - ``attention_mask``: int64 [batch, seq] of ones, the last quarter of the last row 0 (padding);
    - ``pixel_values``: float32 [batch, num_channels, size, size] (config's image_size);
    - ``input_features``: float32 [batch, num_mel_bins, 2 * max_source_positions] (speech encoders);
    - diffusers: ``sample`` / ``hidden_states`` latents [batch, in_channels, size, size] (config's
      sample_size), ``timestep`` float32 [batch] in [0, 1000), ``encoder_hidden_states`` [batch,
      seq, cross_attention_dim], ``pooled_projections``, SDXL's ``added_cond_kwargs``;
    - ``use_cache=False`` and diffusers' ``return_dict`` left as they are (constants).

    ``options`` gives batch, seq and size. Returns the kwargs dict. Raises FrontendError(model_error)
    when forward takes none of these, naming its signature."""
    batch = options.get("batch", DEFAULT_BATCH)
    seq = options.get("seq", DEFAULT_SEQ)
    config = getattr(model, "config", None)
    try:
        params = inspect.signature(model.forward).parameters
    except (TypeError, ValueError):
        params = {}
    takes = lambda name: name in params
    gen = torch.Generator().manual_seed(0)
    kwargs = {}
    diffusers_model = type(model).__module__.startswith("diffusers.")
    if not diffusers_model:
        vocab = _cfg(config, "vocab_size", default=None)
        if takes("input_ids") and vocab:
            kwargs["input_ids"] = torch.randint(0, int(vocab), (batch, seq), generator=gen)
        if takes("attention_mask") and "input_ids" in kwargs:
            mask = torch.ones(batch, seq, dtype=torch.int64)
            if batch > 1 and seq >= 4:
                mask[-1, seq - seq // 4:] = 0  # right padding on the last row
            kwargs["attention_mask"] = mask
        if takes("decoder_input_ids") and vocab and getattr(config, "is_encoder_decoder", False):
            kwargs["decoder_input_ids"] = torch.randint(0, int(vocab), (batch, seq), generator=gen)
        if takes("pixel_values"):
            size = _cfg(config, "image_size", default=224)
            channels = int(_cfg(config, "num_channels", default=3))
            h, w = _hw(size, options.get("size"))
            kwargs["pixel_values"] = torch.randn(batch, channels, h, w, generator=gen)
        if takes("input_features") and _cfg(config, "num_mel_bins"):
            frames = 2 * int(_cfg(config, "max_source_positions", default=1500))
            kwargs["input_features"] = torch.randn(batch, int(_cfg(config, "num_mel_bins")), frames, generator=gen)
        if takes("use_cache") and kwargs:
            kwargs["use_cache"] = False
    else:
        latent = "sample" if takes("sample") else "hidden_states" if takes("hidden_states") else None
        if latent:
            channels = int(_cfg(config, "in_channels", default=4))
            h, w = _hw(_cfg(config, "sample_size", default=32), options.get("size"))
            kwargs[latent] = torch.randn(batch, channels, h, w, generator=gen)
        if takes("timestep") or takes("timesteps"):
            name = "timestep" if takes("timestep") else "timesteps"
            kwargs[name] = torch.randint(0, 1000, (batch,), generator=gen).float()
        context = _cfg(config, "cross_attention_dim", "joint_attention_dim", "caption_channels")
        if takes("encoder_hidden_states") and context:
            if isinstance(context, (list, tuple)):
                context = context[0]
            kwargs["encoder_hidden_states"] = torch.randn(batch, seq, int(context), generator=gen)
        pooled = _cfg(config, "pooled_projection_dim")
        if takes("pooled_projections") and pooled:
            kwargs["pooled_projections"] = torch.randn(batch, int(pooled), generator=gen)
        if takes("added_cond_kwargs") and _cfg(config, "addition_embed_type") == "text_time":
            time_dim = int(_cfg(config, "addition_time_embed_dim"))
            text_dim = int(_cfg(config, "projection_class_embeddings_input_dim")) - 6 * time_dim
            kwargs["added_cond_kwargs"] = {"text_embeds": torch.randn(batch, text_dim, generator=gen),
                                           "time_ids": torch.randn(batch, 6, generator=gen)}
    if not any(isinstance(v, (torch.Tensor, dict)) for v in kwargs.values()):
        from .inputs import signature_text
        raise FrontendError("model_error", "load",
                            f"cannot build example inputs for {type(model).__name__}: {signature_text(model)} takes "
                            "none of input_ids, pixel_values, input_features, sample/hidden_states",
                            "write a factory (file.py:make) that loads the model and returns "
                            "{'model': model, 'kwargs': {...}}")
    return kwargs


def _made(model, kwargs: dict, log, args: tuple = ()) -> dict:
    def describe(name, value):
        if isinstance(value, dict):
            return ", ".join(describe(f"{name}['{k}']", v) for k, v in value.items())
        return f"{name} {list(value.shape)} {str(value.dtype).replace('torch.', '')}"
    parts = [describe(k, v) for k, v in kwargs.items() if isinstance(v, (torch.Tensor, dict))]
    constants = [f"{k}={v!r}" for k, v in kwargs.items() if not isinstance(v, (torch.Tensor, dict))]
    log("info", "example inputs built from the config: " + "; ".join(parts)
        + (f" (constants: {', '.join(constants)})" if constants else ""))
    return {"model": model, "args": args, "kwargs": kwargs}


# -- timm: and torchvision: ---------------------------------------------------------------------
def _unknown(kind: str, name: str, known: list, example: str) -> FrontendError:
    close = difflib.get_close_matches(name, known, n=5, cutoff=0.5)
    return FrontendError("unknown_model", "load", f"{kind} has no model '{name}'",
                         (f"closest: {', '.join(close)}" if close else f"e.g. {example}")
                         + f" ({len(known)} names in all)")


def _load_weights(spec: str, model, path: str, log) -> None:
    """Load a local state-dict file into ``model`` (strict); FrontendError(model_error) otherwise."""
    path = os.path.expanduser(path)
    if not os.path.isfile(path):
        raise FrontendError("unknown_model", "load", f"weights file '{os.path.abspath(path)}' does not exist",
                            "give a local .safetensors or torch.save state-dict file; nothing is downloaded")
    try:
        if path.endswith(".safetensors"):
            from safetensors.torch import load_file
            state = load_file(path)
        else:
            state = torch.load(path, map_location="cpu", weights_only=True)
            if isinstance(state, dict) and isinstance(state.get("state_dict"), dict):
                state = state["state_dict"]
        model.load_state_dict(state, strict=True)
    except Exception as exc:
        raise FrontendError("model_error", "load", f"loading the weights '{path}' into '{spec}' raised {one_line(exc)}",
                            "give a state dict of this architecture (same parameter names and shapes)") from exc
    log("info", f"{spec}: weights from {path}")


def _image_model(spec: str, model, channels: int, h: int, w: int, options: dict, log, frames: int = 0) -> dict:
    if "weights" in options:
        _load_weights(spec, model, options["weights"], log)
    else:
        log("info", f"{spec}: random weights (pass ?weights=FILE for a local state dict; nothing is downloaded)")
    model.eval()
    batch = options.get("batch", DEFAULT_BATCH)
    shape = (batch, channels, frames, h, w) if frames else (batch, channels, h, w)
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(0))
    log("info", f"example input: x {list(x.shape)} float32 ("
        + ("?size" if options.get("size") else "the model's default input size") + ")")
    return {"model": model, "args": (x,), "kwargs": {}}


def _timm(spec: str, name: str, options: dict, log) -> dict:
    try:
        import timm
    except ImportError as exc:
        raise FrontendError("model_error", "load", f"'{spec}' needs timm, which is not installed",
                            "run tools/setup.sh to install the pinned Python packages") from exc
    if not timm.is_model(name):
        raise _unknown(f"timm {timm.__version__}", name, timm.list_models(), "timm:resnet50")
    try:
        model = timm.create_model(name, pretrained=False)
    except Exception as exc:
        raise FrontendError("model_error", "load", f"timm.create_model('{name}') raised {one_line(exc)}",
                            "choose another timm model, or write a factory (file.py:make)") from exc
    cfg = getattr(model, "pretrained_cfg", None) or {}
    channels, h, w = (tuple(cfg.get("input_size") or (3, 224, 224)) + (224, 224))[:3]
    if options.get("size"):
        h = w = options["size"]
    return _image_model(spec, model, int(channels), int(h), int(w), options, log)


#: torchvision.models sub-packages whose models take something else than one image batch.
_TORCHVISION_UNSUPPORTED = ("detection", "optical_flow")


def _torchvision(spec: str, name: str, options: dict, log) -> dict:
    try:
        import torchvision
    except ImportError as exc:
        raise FrontendError("model_error", "load", f"'{spec}' needs torchvision, which is not installed",
                            "run tools/setup.sh to install the pinned Python packages") from exc
    known = torchvision.models.list_models()
    if name not in known:
        raise _unknown(f"torchvision {torchvision.__version__}", name, known, "torchvision:resnet50")
    builder = torchvision.models.get_model_builder(name)
    family = builder.__module__.split(".")[2] if builder.__module__.count(".") >= 2 else ""
    if family in _TORCHVISION_UNSUPPORTED:
        raise FrontendError("model_error", "load",
                            f"torchvision:{name} is a {family.replace('_', ' ')} model: it takes a list of images "
                            "(or image pairs), not one batch tensor",
                            "write a factory (file.py:make) that wraps it with the inputs it takes")
    h = w = 224
    frames = 16 if family == "video" else 0
    try:
        transforms = torchvision.models.get_model_weights(name).DEFAULT.transforms()
        crop = getattr(transforms, "crop_size", None)
        if crop:
            h, w = _hw(crop, None)
    except Exception:  # no weights enum for this model: the common 224
        pass
    if options.get("size"):
        h = w = options["size"]
    try:
        model = torchvision.models.get_model(name, weights=None)
    except Exception as exc:
        raise FrontendError("model_error", "load", f"torchvision.models.get_model('{name}') raised {one_line(exc)}",
                            "choose another model, or write a factory (file.py:make)") from exc
    return _image_model(spec, model, 3, h, w, options, log, frames=frames)
