# SPDX-License-Identifier: GPL-3.0-or-later
"""The quantization schemes: one table from the scheme's name (the CLI word) to how it quantizes a
model, which of its Linear/Conv layers it quantizes and what the device needs to run it.

A scheme's ``apply(model, inputs, calibration, device)`` takes the fp32 model (eval mode, on the
device), the example inputs and the calibration set (input tuples on the device) and returns a
:class:`Quantized`. ``find_layers(fp32_model, model)`` names the quantized layers;
``requires(device)`` says why the device cannot run the scheme, as (reason, hint), or None when
it can.
"""

import copy
import re
from dataclasses import dataclass
from typing import Callable, Optional

import torch

from ..errors import FrontendError, one_line

#: The layers a scheme quantizes and the per-layer table lists.
LAYER_TYPES = (torch.nn.Linear, torch.nn.Conv1d, torch.nn.Conv2d, torch.nn.Conv3d)


class Unsupported(FrontendError):
    """The device or the installed torch/torchao cannot run a scheme (a row, not a failure)."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__("unsupported", "load", message, hint)


@dataclass(frozen=True)
class Quantized:
    """What a scheme's ``apply`` made: the model to export and time, the dtype its floating
    inputs take (None: as given) and, for PT2E, the calibrated fp32 model with BatchNorm folded
    (the per-layer reference)."""

    model: torch.nn.Module
    input_dtype: Optional[torch.dtype] = None
    pt2e_reference: Optional[torch.nn.Module] = None


@dataclass(frozen=True)
class Scheme:
    """One row of the table. ``converted_graph``: the quantized model is a PT2E-converted
    GraphModule, whose per-layer errors are read from its nodes (metrics.py); ``calibrates``: the
    scheme runs the calibration set; ``freezing``: the package must be compiled with freezing."""

    apply: Callable
    find_layers: Callable
    requires: Callable = lambda device: None
    converted_graph: bool = False
    calibrates: bool = False
    freezing: bool = False


def _layers(fp32_model) -> dict:
    return {n: m for n, m in fp32_model.named_modules() if isinstance(m, LAYER_TYPES)}


# -- how each scheme quantizes ----------------------------------------------------------------------
def _fp32(model, inputs, calibration, device) -> Quantized:
    return Quantized(model)


def _bf16(model, inputs, calibration, device) -> Quantized:
    return Quantized(model.to(torch.bfloat16), torch.bfloat16)


def _int4_filter(group_size: int):
    def accept(module, _fqn):
        # The CPU int4 packing needs N % 16 == 0 and K % group_size == 0; other layers stay fp32.
        return isinstance(module, torch.nn.Linear) and module.out_features % 16 == 0 \
            and module.in_features % group_size == 0
    return accept


def _torchao(name: str, quantize: Callable, input_dtype: Callable = lambda device: None) -> Callable:
    """A torchao scheme's ``apply``: ``quantize(model, device)`` (torchao's ``quantize_`` with the
    scheme's config, in place) with its failures as FrontendError(model_error) naming the scheme;
    Unsupported and FrontendError pass through. ``input_dtype(device)``: the inputs' dtype."""
    def apply(model, inputs, calibration, device) -> Quantized:
        try:
            quantize(model, device)
        except (Unsupported, FrontendError):
            raise
        except Exception as exc:
            raise FrontendError("model_error", "load", f"torchao quantize_ ({name}) failed: {one_line(exc)}",
                                "this layer shape or dtype may not be supported by the scheme; see the log") from exc
        return Quantized(model, input_dtype(device))
    return apply


def _int8_weight_only(model, device) -> None:
    from torchao.quantization import Int8WeightOnlyConfig, quantize_
    quantize_(model, Int8WeightOnlyConfig())


def _int8_dynamic(model, device) -> None:
    from torchao.quantization import Int8DynamicActivationInt8WeightConfig, quantize_
    quantize_(model, Int8DynamicActivationInt8WeightConfig())


def _int4_weight_only(model, device) -> None:
    from torchao.quantization import quantize_
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


def _fp8_dynamic(model, device) -> None:
    from torchao.quantization import Float8DynamicActivationFloat8WeightConfig, PerRow, quantize_
    model.to(torch.bfloat16)
    quantize_(model, Float8DynamicActivationFloat8WeightConfig(granularity=PerRow()))


def _fp8_requires(device: str):
    reason = _fp8_unsupported(device)
    return (reason, "run this scheme with --device cuda on an Ada or Hopper GPU") if reason else None


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


def _int8_static(model, inputs, calibration, device) -> Quantized:
    if device != "cpu":
        raise Unsupported("int8-static uses the x86 Inductor quantizer, which targets CPU",
                          "run int8-static with --device cpu")
    try:
        reference, converted = _pt2e(model, inputs, calibration)
    except Exception as exc:
        raise FrontendError("export_failed", "export", f"PT2E quantization failed: {one_line(exc)}",
                            "the model must be capturable by torch.export; see the log") from exc
    return Quantized(converted, None, reference)


# -- which layers each scheme quantizes -------------------------------------------------------------
def pt2e_layers(gm, fp32_model, converted: bool) -> dict:
    """Module path -> the linear/conv node of ``gm``: in a converted model only nodes whose input
    is dequantized count; in the calibrated fp32 model (``converted`` False), every one. Paths
    that are not Linear/Conv layers of ``fp32_model`` are left out."""
    found = {}
    for node in gm.graph.nodes:
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
    fp32_names = set(_layers(fp32_model))
    return {p: n for p, n in found.items() if p in fp32_names}


def _no_layers(fp32_model, model) -> list:
    return []


def _every_layer(fp32_model, model) -> list:
    return list(_layers(fp32_model))


def _pt2e_layer_names(fp32_model, model) -> list:
    return sorted(pt2e_layers(model, fp32_model, converted=True), key=list(_layers(fp32_model)).index)


def _subclass_weights(fp32_model, model) -> list:
    quantized = dict(model.named_modules())
    names = []
    for n in _layers(fp32_model):
        w = getattr(quantized.get(n), "weight", None)
        if w is not None and type(w) not in (torch.Tensor, torch.nn.Parameter):
            names.append(n)  # torchao swaps the weight for a quantized tensor subclass
    return names


#: Scheme name -> Scheme, in the order of a full comparison.
TABLE = {
    "fp32": Scheme(_fp32, _no_layers),
    "bf16": Scheme(_bf16, _every_layer),
    "int8-weight-only": Scheme(_torchao("int8-weight-only", _int8_weight_only), _subclass_weights),
    "int8-dynamic": Scheme(_torchao("int8-dynamic", _int8_dynamic), _subclass_weights),
    "int4-weight-only": Scheme(_torchao("int4-weight-only", _int4_weight_only,
                                        lambda device: torch.bfloat16 if device == "cuda" else None),
                               _subclass_weights),
    "fp8-dynamic": Scheme(_torchao("fp8-dynamic", _fp8_dynamic, lambda device: torch.bfloat16), _subclass_weights,
                          requires=_fp8_requires),
    # PT2E int8 lowers to oneDNN quantized ops only with freezing.
    "int8-static": Scheme(_int8_static, _pt2e_layer_names, converted_graph=True, calibrates=True, freezing=True),
}

#: Scheme names (the CLI words), in the order of a full comparison.
SCHEMES = tuple(TABLE)


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


def check_device(name: str, device: str) -> None:
    """Raise Unsupported when ``device`` ("cpu", "cuda") cannot run the scheme ``name`` at all
    (fp8 needs compute capability 8.9). What only the installed torch/torchao or the model
    decides is found when the scheme is applied."""
    missing = TABLE[name].requires(device)
    if missing:
        raise Unsupported(*missing)
