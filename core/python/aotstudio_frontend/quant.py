# SPDX-License-Identifier: GPL-3.0-or-later
"""Quantization schemes for the ``quantize`` request (core/protocol/FORMAT.md, "quantize result").

A compile job with a ``scheme`` option holds one :class:`QuantState`. At load it keeps an fp32 copy
of the model, builds the calibration and evaluation sets, computes fp32 eager reference outputs and
captures every Linear/Conv layer's fp32 input (forward hooks), then quantizes the model in place:
torchao ``quantize_`` for the weight/dynamic schemes, or PT2E (export, ``prepare_pt2e`` with the x86
Inductor quantizer, calibrate, ``convert_pt2e``) for ``int8-static``. The job then exports and
compiles the quantized model as usual; the C++ side (core/pipeline/quantizejob.cpp) runs the
evaluation set through the compiled package and hands the outputs back here.
"""

import copy
import os
import re
import weakref

import torch
import torch.utils._pytree as pytree

from .errors import FrontendError, one_line
from .files import write_json_atomic

#: Scheme names (the CLI words), in the order of a full comparison.
SCHEMES = ("fp32", "bf16", "int8-weight-only", "int8-dynamic", "int4-weight-only", "fp8-dynamic", "int8-static")

#: Quantized dtypes: a graph node producing or consuming one of these is a quantized op.
_QDTYPES = {torch.int8, torch.uint8, torch.float8_e4m3fn, torch.float8_e5m2}
_QNAME = re.compile(r"quantize|int8|int4|_int_mm|float8|fp8|qlinear|qconv|scaled_mm|torchao|onednn", re.I)
#: Ops that only move or reshape data: touching an int8 tensor does not make them quantized compute.
_STRUCTURAL = re.compile(r"getitem|\.(reshape|view|_unsafe_view|t|transpose|permute|expand|clone|contiguous|squeeze|"
                         r"unsqueeze|slice|select|flatten|detach|alias)\.|^<built-in")
_LAYER_TYPES = (torch.nn.Linear, torch.nn.Conv1d, torch.nn.Conv2d, torch.nn.Conv3d)


class Unsupported(FrontendError):
    """The device or the installed torch/torchao cannot run a scheme (a row, not a failure)."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__("unsupported", "load", message, hint)


def scheme_list(value) -> list:
    """The request's ``schemes`` (a list of names or one comma-separated string; empty or absent:
    all of SCHEMES), without duplicates, in the given order. Raises FrontendError(bad_request)
    listing the valid names for an unknown one."""
    if value is None or value == "" or value == []:
        return list(SCHEMES)
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise FrontendError("bad_request", "load", "'schemes' must be a list of scheme names",
                            f"choose from {', '.join(SCHEMES)}")
    out = []
    for name in value:
        check_scheme(name)
        if name not in out:
            out.append(name)
    return out


def check_scheme(name: str) -> None:
    """Raise FrontendError(bad_request) naming the valid schemes when ``name`` is not one."""
    if name not in SCHEMES:
        raise FrontendError("bad_request", "load", f"unknown quantization scheme '{name}'",
                            f"choose from {', '.join(SCHEMES)}")


# -- data -----------------------------------------------------------------------------------------
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


def _flat(out) -> list:
    leaves, _ = pytree.tree_flatten(out)
    return [t.detach() for t in leaves if isinstance(t, torch.Tensor)]


# -- schemes --------------------------------------------------------------------------------------
def _int4_filter(group_size: int):
    def accept(module, _fqn):
        # The CPU int4 packing needs N % 16 == 0 and K % group_size == 0; other layers stay fp32.
        return isinstance(module, torch.nn.Linear) and module.out_features % 16 == 0 \
            and module.in_features % group_size == 0
    return accept


def _apply_torchao(model: torch.nn.Module, scheme: str, device: str) -> torch.nn.Module:
    from torchao.quantization import (Int8DynamicActivationInt8WeightConfig, Int8WeightOnlyConfig,
                                      quantize_)
    if scheme == "int8-weight-only":
        quantize_(model, Int8WeightOnlyConfig())
    elif scheme == "int8-dynamic":
        quantize_(model, Int8DynamicActivationInt8WeightConfig())
    elif scheme == "int4-weight-only":
        if device == "cpu":
            if not hasattr(torch.ops.aten, "_convert_weight_to_int4pack_for_cpu"):
                raise Unsupported("int4-weight-only on CPU needs aten._convert_weight_to_int4pack_for_cpu, "
                                  "which this torch build lacks", "use a torch build with the int4 CPU kernels")
            try:
                # torchao 0.18 moved the CPU int4 packing ("opaque" layout) to the prototype config.
                from torchao.prototype.quantization.int4 import PrototypeInt4WeightOnlyConfig
            except ImportError as exc:
                raise Unsupported(f"this torchao has no CPU int4 packing: {one_line(exc)}",
                                  "install the torchao version paired with the pinned torch") from exc
            quantize_(model, PrototypeInt4WeightOnlyConfig(group_size=32), filter_fn=_int4_filter(32))
        else:
            from torchao.quantization import Int4WeightOnlyConfig
            model.to(torch.bfloat16)  # tinygemm int4 kernels take bfloat16 activations
            quantize_(model, Int4WeightOnlyConfig(group_size=32, int4_packing_format="tile_packed_to_4d"),
                      filter_fn=_int4_filter(32))
    elif scheme == "fp8-dynamic":
        from torchao.quantization import Float8DynamicActivationFloat8WeightConfig, PerRow
        model.to(torch.bfloat16)
        quantize_(model, Float8DynamicActivationFloat8WeightConfig(granularity=PerRow()))
    return model


def _fp8_unsupported(device: str):
    if device != "cuda":
        return "fp8-dynamic needs a CUDA GPU with compute capability 8.9 or newer (Ada, Hopper); this run is on cpu"
    major, minor = torch.cuda.get_device_capability()
    if (major, minor) < (8, 9):
        return (f"fp8-dynamic needs compute capability 8.9 or newer; {torch.cuda.get_device_name()} is "
                f"{major}.{minor}")
    return None


def _pt2e(model, example: tuple, calibration: list):
    """PT2E static int8: export, prepare with the x86 Inductor quantizer (per-tensor activations,
    per-channel weights), run the calibration set, convert. Returns (the calibrated fp32 model with
    BatchNorm folded, the converted GraphModule)."""
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
    from torchao.quantization.pt2e.quantizer import x86_inductor_quantizer as xiq
    from torchao.quantization.pt2e.inductor_passes.x86 import quant_lift_up
    torch._inductor.config.pre_grad_custom_pass = quant_lift_up  # set at import only; restore() undoes it
    quantizer = xiq.X86InductorQuantizer()
    quantizer.set_global(xiq.get_default_x86_inductor_quantization_config())
    captured = torch.export.export(model, example, strict=False).module()
    # Unused layers (e.g. BERT's pooler under a mean-pooling wrapper) form partitions without output
    # nodes, on which the x86 quantizer's linear+unary annotation fails (IndexError): drop them.
    captured.graph.eliminate_dead_code()
    captured.recompile()
    # A module called twice (torchvision's BasicBlock reuses self.relu) would be one partition with
    # two outputs ("Input partition has more than one output node"): export already tells the
    # calls apart in the stack's key ("...relu@1"), so carry that into the module path.
    for node in captured.graph.nodes:
        stack = node.meta.get("nn_module_stack")
        if stack:
            key, (path, cls) = list(stack.items())[-1]
            if "@" in key and "@" not in path:
                node.meta["nn_module_stack"] = {**stack, key: (f"{path}@{key.rsplit('@', 1)[1]}", cls)}
    prepared = prepare_pt2e(captured, quantizer)  # also folds BatchNorm into the preceding conv
    with torch.no_grad():
        for sample in calibration:
            prepared(*sample)
    reference = copy.deepcopy(prepared)  # the folded fp32 weights, for the per-layer reference
    return reference, convert_pt2e(prepared)


class QuantState:
    """One scheme of a ``quantize`` request inside a CompileJob. ``request`` carries ``scheme``,
    ``calibration``/``calibration_samples`` and ``eval``/``eval_samples``. Raises Unsupported when
    the device cannot run the scheme and FrontendError(bad_request) for unreadable data files."""

    def __init__(self, request: dict, job):
        self.scheme = str(request.get("scheme"))
        check_scheme(self.scheme)
        self.job = weakref.proxy(job)  # the job owns this state; no cycle keeping the model alive
        self.spec = job.spec
        self.device = device = job.device
        self.log = job.log
        self.calibration_path = request.get("calibration") or None
        self.eval_path = request.get("eval") or None
        self.calibration_count = int(request.get("calibration_samples", 32))
        self.eval_requested = int(request.get("eval_samples", 16))
        self.fp32_model = None
        self.model = None
        self.calibration = []
        self.evaluation = []
        self.reference = []  # fp32 eager outputs per evaluation sample (flattened, float64 on CPU)
        self.layer_inputs = {}  # module path -> fp32 input of that layer on evaluation sample 0
        self.layers = []
        self._outputs = {}
        self._pt2e_reference = None
        if self.scheme == "fp8-dynamic":
            reason = _fp8_unsupported(device)
            if reason:
                raise Unsupported(reason, "run this scheme with --device cuda on an Ada or Hopper GPU")

    # -- load -------------------------------------------------------------------------------------
    def _cast(self, sample: tuple) -> tuple:
        dev = torch.device(self.device)
        dtype = self.input_dtype
        return tuple(t.to(device=dev, dtype=dtype) if t.is_floating_point() and dtype is not None else t.to(dev)
                     for t in sample)

    def apply(self, model: torch.nn.Module, inputs: tuple):
        """Quantize ``model`` (fp32, eval mode, on the device) for this scheme; returns
        ``(model, inputs)`` to export and time. Raises Unsupported or FrontendError(export_failed)."""
        self.input_dtype = None
        # torchao's config setters and the x86 quantizer change Inductor's global config; restore()
        # puts it back after this scheme so later compiles in the engine are not affected.
        import torch._inductor.config as inductor_config
        self._saved_config = (inductor_config.save_config(), inductor_config.pre_grad_custom_pass)
        self.fp32_model = copy.deepcopy(model)
        self.fp32_inputs = inputs
        if self.calibration_path:
            self.calibration = load_samples(self.calibration_path, "calibration")
        else:
            self.calibration = generate_samples(inputs, self.calibration_count, seed=2)
        if self.eval_path:
            self.evaluation = load_samples(self.eval_path, "evaluation")
        else:
            self.evaluation = generate_samples(inputs, self.eval_requested, seed=1)
        for i, sample in enumerate(self.evaluation):
            shapes = [list(t.shape) for t in sample]
            want = [list(t.shape) for t in inputs]
            if shapes != want:
                raise FrontendError("bad_request", "load",
                                    f"evaluation sample {i} has input shapes {shapes}, the compiled package takes {want}",
                                    "save evaluation samples with the example inputs' shapes (the package is static)")
        self.calibration = [self._cast(s) for s in self.calibration]
        self.evaluation = [self._cast(s) for s in self.evaluation]
        self._reference_and_layer_inputs()

        scheme = self.scheme
        if scheme == "fp32":
            self.model = model
        elif scheme == "bf16":
            self.model = model.to(torch.bfloat16)
            self.input_dtype = torch.bfloat16
        elif scheme == "int8-static":
            if self.device != "cpu":
                raise Unsupported("int8-static uses the x86 Inductor quantizer, which targets CPU",
                                  "run int8-static with --device cpu")
            try:
                self._pt2e_reference, self.model = _pt2e(model, inputs, self.calibration)
            except Exception as exc:
                raise FrontendError("export_failed", "export", f"PT2E quantization failed: {one_line(exc)}",
                                    "the model must be capturable by torch.export; see the log") from exc
        else:
            try:
                self.model = _apply_torchao(model, scheme, self.device)
            except (Unsupported, FrontendError):
                raise
            except Exception as exc:
                raise FrontendError("model_error", "load", f"torchao quantize_ ({scheme}) failed: {one_line(exc)}",
                                    "this layer shape or dtype may not be supported by the scheme; see the log") from exc
            if scheme in ("fp8-dynamic",) or (scheme == "int4-weight-only" and self.device == "cuda"):
                self.input_dtype = torch.bfloat16
        self.evaluation = [tuple(t.to(self.input_dtype) if t.is_floating_point() and self.input_dtype else t
                                 for t in s) for s in self.evaluation]
        out_inputs = tuple(t.to(self.input_dtype) if t.is_floating_point() and self.input_dtype else t for t in inputs)
        self._find_layers()
        self.log("info", f"[{scheme}] {len(self.layers)} layers quantized; calibration {len(self.calibration)} "
                         f"samples, evaluation {len(self.evaluation)} samples")
        return self.model, out_inputs

    def run_fp32_eager(self) -> None:
        """One forward of the fp32 model on the fp32 example inputs (the baseline every scheme's
        "vs fp32 eager" ratio is paired against, timed in the same rounds as the scheme)."""
        with torch.inference_mode():
            self.fp32_model(*self.fp32_inputs)
        if self.device == "cuda":
            torch.cuda.synchronize()

    def restore(self) -> None:
        """Put Inductor's global config back as it was before apply() (call after the compile)."""
        saved = getattr(self, "_saved_config", None)
        if saved is not None:
            import torch._inductor.config as inductor_config
            inductor_config.load_config(saved[0])
            inductor_config.pre_grad_custom_pass = saved[1]
            self._saved_config = None

    def _reference_and_layer_inputs(self):
        captured = {}
        hooks = []
        for name, mod in self.fp32_model.named_modules():
            if isinstance(mod, _LAYER_TYPES):
                def keep(_mod, args, _out, name=name):
                    captured.setdefault(name, args[0].detach())  # returning a value would replace the output
                hooks.append(mod.register_forward_hook(keep))
        try:
            with torch.inference_mode():
                for i, sample in enumerate(self.evaluation):
                    out = _flat(self.fp32_model(*sample))
                    self.reference.append([o.double().cpu() for o in out])
                    if i == 0:
                        for h in hooks:
                            h.remove()
                        hooks = []
        finally:
            for h in hooks:
                h.remove()
        self.layer_inputs = captured

    def _find_layers(self):
        """The quantized Linear/Conv layers: names and types (errors filled by layer_errors)."""
        fp32_layers = {n: m for n, m in self.fp32_model.named_modules() if isinstance(m, _LAYER_TYPES)}
        names = []
        if self.scheme == "fp32":
            names = []
        elif self.scheme == "bf16":
            names = list(fp32_layers)
        elif self.scheme == "int8-static":
            names = sorted(self._pt2e_layers(), key=list(fp32_layers).index)
        else:
            quantized = dict(self.model.named_modules())
            for n in fp32_layers:
                w = getattr(quantized.get(n), "weight", None)
                if w is not None and type(w) not in (torch.Tensor, torch.nn.Parameter):
                    names.append(n)  # torchao swaps the weight for a quantized tensor subclass
        self.layers = [{"name": n, "type": type(fp32_layers[n]).__name__} for n in names]

    def _pt2e_layers(self, gm=None) -> dict:
        """Module path -> the linear/conv node of ``gm`` (default: the converted model, where only
        nodes whose input is dequantized count; in the calibrated fp32 model, every one)."""
        found = {}
        converted = gm is None
        for node in (self.model if converted else gm).graph.nodes:
            if node.op != "call_function" or not re.search(r"aten\.(linear|conv\dd)", str(node.target)):
                continue
            x = node.args[0]
            if converted and not (isinstance(x, torch.fx.Node) and "dequantize" in str(x.target)):
                continue
            stack = node.meta.get("nn_module_stack") or {}
            if not stack:
                continue
            path = list(stack.values())[-1][0]
            path = re.sub(r"^L\['self'\]\.?|^self\.?", "", path)
            found.setdefault(path, node)
        fp32_names = {n for n, m in self.fp32_model.named_modules() if isinstance(m, _LAYER_TYPES)}
        return {p: n for p, n in found.items() if p in fp32_names}

    # -- per-layer errors -------------------------------------------------------------------------
    @staticmethod
    def _errors(q: torch.Tensor, f: torch.Tensor) -> dict:
        q, f = q.double().cpu().flatten(), f.double().cpu().flatten()
        d = (q - f).abs()
        cos = float(torch.nn.functional.cosine_similarity(q, f, dim=0)) if q.numel() else 1.0
        return {"max_abs_error": float(d.max()) if d.numel() else 0.0,
                "mean_abs_error": float(d.mean()) if d.numel() else 0.0, "cosine": cos}

    def layer_errors(self) -> list:
        """Per quantized layer: the fp32 layer and the quantized layer on the same fp32 input (from
        evaluation sample 0); max/mean abs error and cosine of the layer's output."""
        fp32_layers = dict(self.fp32_model.named_modules())
        env = None
        if self.scheme == "int8-static":
            env = self._interpret(self.model, self.evaluation[0])
            nodes = self._pt2e_layers()
            ref_env = self._interpret(self._pt2e_reference, self.evaluation[0])
            ref_nodes = self._pt2e_layers(self._pt2e_reference)
        else:
            qmods = dict(self.model.named_modules())
        for row in self.layers:
            name = row["name"]
            x = self.layer_inputs.get(name)
            if x is None:
                row.update({"max_abs_error": None, "mean_abs_error": None, "cosine": None})
                continue
            try:
                with torch.inference_mode():
                    if self.scheme == "int8-static":
                        # Against the same layer in fp32 with BatchNorm folded, as PT2E quantized it.
                        node = ref_nodes[name]
                        ref = node.target(x, *[ref_env[a] if isinstance(a, torch.fx.Node) else a for a in node.args[1:]])
                        q = self._pt2e_layer(nodes[name], env, x)
                    else:
                        ref = fp32_layers[name](x)
                        xin = x.to(self.input_dtype) if self.input_dtype is not None else x
                        q = qmods[name](xin)
                row.update(self._errors(q, ref))
            except Exception as exc:
                self.log("warning", f"[{self.scheme}] per-layer error of {name} failed: {one_line(exc)}")
                row.update({"max_abs_error": None, "mean_abs_error": None, "cosine": None})
        return self.layers

    @staticmethod
    def _interpret(gm, sample: tuple) -> dict:
        """Run ``gm`` on ``sample`` and keep every node's value (node -> value)."""
        env = {}

        class Recorder(torch.fx.Interpreter):
            def run_node(self, n):
                v = super().run_node(n)
                env[n] = v
                return v

        with torch.inference_mode():
            Recorder(gm).run(*sample)
        return env

    @staticmethod
    def _pt2e_layer(node, env: dict, x: torch.Tensor) -> torch.Tensor:
        """The converted layer on fp32 input ``x``: quantize-dequantize x with the activation's
        scale and zero point, then the op with its dequantized weight (values from ``env``)."""
        deq = node.args[0]
        q = deq.args[0]
        scale, zp, qmin, qmax, dtype = [env[a] if isinstance(a, torch.fx.Node) else a for a in deq.args[1:6]]
        qd = torch.ops.quantized_decomposed
        xq = qd.dequantize_per_tensor(qd.quantize_per_tensor(x, scale, zp, qmin, qmax, dtype),
                                      scale, zp, qmin, qmax, dtype)
        del q
        args = [env[a] if isinstance(a, torch.fx.Node) else a for a in node.args[1:]]
        return node.target(xq, *args)

    # -- evaluation on the compiled package --------------------------------------------------------
    def eval_count(self) -> int:
        """Number of evaluation samples (after apply())."""
        return len(self.evaluation)

    def eval_capsules(self, index: int) -> list:
        """Evaluation sample ``index`` as DLPack capsules, in the package's input order."""
        leaves, _ = pytree.tree_flatten(self.evaluation[index])
        return [torch.utils.dlpack.to_dlpack(t.contiguous()) for t in leaves]

    def eval_outputs(self, index: int, capsules: list) -> None:
        """Keep the compiled package's outputs for evaluation sample ``index`` (copied)."""
        self._outputs[index] = [torch.from_dlpack(c).detach().double().cpu().clone() for c in capsules]

    def accuracy(self) -> dict:
        """Against fp32 eager over the evaluation set: max/mean abs error, cosine (all outputs
        flattened), top-1 agreement for [batch, classes] outputs, embedding cosine for minilm."""
        qs, fs = [], []
        top1_hits, top1_rows, emb = 0, 0, []
        for i, ref in enumerate(self.reference):
            got = self._outputs.get(i)
            if got is None:
                continue
            for q, f in zip(got, ref):
                qs.append(q.flatten())
                fs.append(f.flatten())
            if len(ref) == 1 and ref[0].dim() == 2 and ref[0].shape[1] > 1:
                if self.spec == "sample:minilm":
                    emb.append(torch.nn.functional.cosine_similarity(got[0], ref[0], dim=1))
                else:
                    top1_hits += int((got[0].argmax(1) == ref[0].argmax(1)).sum())
                    top1_rows += ref[0].shape[0]
        if not qs:
            return {"max_abs_error": None, "mean_abs_error": None, "cosine": None, "top1_agreement": None,
                    "embedding_cosine": None, "samples": 0}
        q, f = torch.cat(qs), torch.cat(fs)
        d = (q - f).abs()
        return {"max_abs_error": float(d.max()), "mean_abs_error": float(d.mean()),
                "cosine": float(torch.nn.functional.cosine_similarity(q, f, dim=0)),
                "top1_agreement": (top1_hits / top1_rows) if top1_rows else None,
                "embedding_cosine": float(torch.cat(emb).mean()) if emb else None,
                "samples": len(self._outputs)}

    def report(self, kernels_path: str = None) -> dict:
        """Accuracy (after eval_outputs() for every sample), the per-layer table (also written to
        OUT/quant_layers.json) and the quantized ops of the exported graph and generated code."""
        layers = self.layer_errors()
        path = os.path.join(self.job.out, "quant_layers.json")
        write_json_atomic(path, {"scheme": self.scheme, "layers": layers}, indent=1)
        graph = self.job.program.graph if self.job.program is not None else None
        ops = self.quantized_ops(graph, kernels_path) if graph is not None else []
        return {"accuracy": self.accuracy(), "layers": layers, "quantized_layers": len(layers),
                "layers_path": path, "quantized_ops": ops,
                "calibration": {"source": "file" if self.calibration_path else "generator",
                                "path": self.calibration_path,
                                "samples": len(self.calibration) if self.scheme == "int8-static" else 0},
                "evaluation": {"source": "file" if self.eval_path else "generator", "path": self.eval_path,
                               "samples": len(self.evaluation)}}

    # -- graph -------------------------------------------------------------------------------------
    @staticmethod
    def quantized_ops(graph, kernels_path: str = None) -> list:
        """Distinct op targets in ``graph`` that are quantized: named quantization ops, or ops
        reading or producing an int8/uint8/float8 tensor (torchao's weight-only schemes
        export as an int8 weight cast to float and a matmul). Adds quantized library calls named in
        ``kernels.json`` (e.g. onednn qlinear after freezing)."""
        found = set()
        for n in graph.nodes:
            if n.op != "call_function":
                continue
            target = str(n.target)
            if target.startswith("aten._assert") or "access_subclass" in target or _STRUCTURAL.search(target):
                continue
            tensors = [v.meta.get("val") for v in [n] + list(n.all_input_nodes)]
            dtypes = {t.dtype for t in tensors if isinstance(t, torch.Tensor)}
            if _QNAME.search(target) or dtypes & _QDTYPES:
                found.add(target)
        if kernels_path and os.path.isfile(kernels_path):
            import json
            try:
                with open(kernels_path, encoding="utf-8") as fh:
                    data = json.load(fh)
                for k in data.get("kernels", []):
                    name = str(k.get("name", ""))
                    if k.get("kind") != "cpp" and _QNAME.search(name):
                        found.add(name)
            except (OSError, ValueError):
                pass
        return sorted(found)
