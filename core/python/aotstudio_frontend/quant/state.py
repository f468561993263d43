# SPDX-License-Identifier: GPL-3.0-or-later
"""One scheme of a ``quantize`` request inside a compile job (:class:`QuantState`): the fp32 copy
and reference outputs, the scheme applied (schemes.py), the evaluation set run through the
compiled package (driven by core/pipeline/quantizejob.cpp through ``job.quant.*``) and the report.
"""

import copy
import os
import weakref

import torch
import torch.utils._pytree as pytree

from ..errors import one_line
from ..files import write_json_atomic
from . import metrics
from ..verify import like, named_tensors
from ..input_samples import sample_sets
from .schemes import LAYER_TYPES, TABLE, check_device, check_scheme, pt2e_layers


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
        check_device(self.scheme, device)

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
        self.calibration, self.evaluation = sample_sets(inputs, self.calibration_path, self.calibration_count,
                                                        self.eval_path, self.eval_requested)
        self.calibration = [self._cast(s) for s in self.calibration]
        self.evaluation = [self._cast(s) for s in self.evaluation]
        self._reference_and_layer_inputs()

        done = TABLE[self.scheme].apply(model, inputs, self.calibration, self.device)
        self.model, self.input_dtype, self._pt2e_reference = done.model, done.input_dtype, done.pt2e_reference
        self.evaluation = [tuple(t.to(self.input_dtype) if t.is_floating_point() and self.input_dtype else t
                                 for t in s) for s in self.evaluation]
        out_inputs = tuple(t.to(self.input_dtype) if t.is_floating_point() and self.input_dtype else t for t in inputs)
        self._find_layers()
        self.log("info", f"[{self.scheme}] {len(self.layers)} layers quantized; calibration {len(self.calibration)} "
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
            if isinstance(mod, LAYER_TYPES):
                def keep(_mod, args, _out, name=name):
                    captured.setdefault(name, args[0].detach())  # returning a value would replace the output
                hooks.append(mod.register_forward_hook(keep))
        try:
            with torch.inference_mode():
                for i, sample in enumerate(self.evaluation):
                    named = named_tensors(self.fp32_model(*sample))
                    self.reference.append([o.double().cpu() for _, o in named])
                    if i == 0:
                        self.output_names = [n for n, _ in named]
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
        fp32_layers = {n: m for n, m in self.fp32_model.named_modules() if isinstance(m, LAYER_TYPES)}
        names = TABLE[self.scheme].find_layers(self.fp32_model, self.model)
        self.layers = [{"name": n, "type": type(fp32_layers[n]).__name__} for n in names]

    # -- per-layer errors -------------------------------------------------------------------------
    def layer_errors(self) -> list:
        """Per quantized layer: the fp32 layer and the quantized layer on the same fp32 input (from
        evaluation sample 0); max/mean abs error and cosine of the layer's output."""
        fp32_layers = dict(self.fp32_model.named_modules())
        graph = TABLE[self.scheme].converted_graph
        if graph:
            env = metrics.interpret(self.model, self.evaluation[0])
            nodes = pt2e_layers(self.model, self.fp32_model, converted=True)
            ref_env = metrics.interpret(self._pt2e_reference, self.evaluation[0])
            ref_nodes = pt2e_layers(self._pt2e_reference, self.fp32_model, converted=False)
        else:
            qmods = dict(self.model.named_modules())
        for row in self.layers:
            name = row["name"]
            x = self.layer_inputs.get(name)
            if x is None:
                row.update(metrics.NO_ERRORS)
                continue
            try:
                with torch.inference_mode():
                    if graph:
                        # Against the same layer in fp32 with BatchNorm folded, as PT2E quantized it.
                        node = ref_nodes[name]
                        ref = node.target(x, *[ref_env[a] if isinstance(a, torch.fx.Node) else a for a in node.args[1:]])
                        q = metrics.pt2e_layer(nodes[name], env, x)
                    else:
                        ref = fp32_layers[name](x)
                        xin = x.to(self.input_dtype) if self.input_dtype is not None else x
                        q = qmods[name](xin)
                row.update(metrics.errors(q, ref))
            except Exception as exc:
                self.log("warning", f"[{self.scheme}] per-layer error of {name} failed: {one_line(exc)}")
                row.update(metrics.NO_ERRORS)
        return self.layers

    # -- evaluation on the compiled package --------------------------------------------------------
    def eval_count(self) -> int:
        """Number of evaluation samples (after apply())."""
        return len(self.evaluation)

    def eval_capsules(self, index: int) -> list:
        """Evaluation sample ``index`` as DLPack capsules, in the package's input order and in the
        example's layout (sample 0): the package indexes its inputs with the strides it was compiled
        for, and the runner refuses any other (a contiguous copy of a channels-last image was once
        passed here and read wrongly)."""
        leaves, _ = pytree.tree_flatten(self.evaluation[index])
        layout, _ = pytree.tree_flatten(self.evaluation[0])
        return [torch.utils.dlpack.to_dlpack(like(t, ref) if isinstance(ref, torch.Tensor) else t.contiguous())
                for t, ref in zip(leaves, layout)]

    def eval_outputs(self, index: int, capsules: list) -> None:
        """Keep the compiled package's outputs for evaluation sample ``index`` (copied)."""
        self._outputs[index] = [torch.from_dlpack(c).detach().double().cpu().clone() for c in capsules]

    def accuracy(self) -> dict:
        """Against fp32 eager over the evaluation set (metrics.accuracy): max/mean abs error,
        cosine (all outputs flattened), top-1 agreement for [batch, classes] outputs, embedding
        cosine for minilm."""
        return metrics.accuracy(self.reference, self._outputs, self.spec, getattr(self, "output_names", None))

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
                                "samples": len(self.calibration) if TABLE[self.scheme].calibrates else 0},
                "evaluation": {"source": "file" if self.eval_path else "generator", "path": self.eval_path,
                               "samples": len(self.evaluation)}}

    #: Distinct quantized op targets of a graph (and kernels.json): metrics.quantized_ops.
    quantized_ops = staticmethod(metrics.quantized_ops)
