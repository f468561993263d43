# SPDX-License-Identifier: GPL-3.0-or-later
"""The export doctor: what cannot work, found before torch.export runs, and every problem at once
when it fails.

Before export (:func:`check_model`, :func:`eval_mode`): legacy eager-mode quantized modules,
GraphModules from ``torch.export`` that refuse ``.eval()``, a model left in training mode. When the
eager forward rejects the example (:func:`forward_mismatch`): forward's signature with the required
parameters that were not given. When export fails (:func:`draft_report`): ``torch.export.draft_export``
lists every problem with the user's source line. After compile (:func:`quantized_compute`): a graph
with quantize/dequantize nodes whose kernels hold no quantized kernel computes in fp32.
"""

import torch

from . import inputs as structured
from .errors import LIBRARY_PATHS, FrontendError, one_line, user_module

#: Module namespaces of eager-mode (FX/eager "legacy") quantized modules: their packed weights are
#: TorchScript custom classes that torch.export cannot trace (pytorch#137111).
_LEGACY_QUANT = ("torch.ao.nn.quantized.", "torch.nn.quantized.", "torch.ao.nn.intrinsic.quantized.",
                 "torch.nn.intrinsic.quantized.", "torch.ao.nn.quantized.dynamic.")


def legacy_quantized_modules(model) -> list:
    """[(path, class name)] of eager-mode quantized modules in ``model`` (reference modules, which
    hold float weights, excluded)."""
    found = []
    for name, m in model.named_modules():
        mod = type(m).__module__ + "."
        if any(mod.startswith(p) for p in _LEGACY_QUANT) and ".reference." not in mod:
            found.append((name or "(root)", f"{user_module(type(m).__module__)}.{type(m).__name__}"))
    return found


def pending_observers(model) -> list:
    """[(attribute path, class name)] of quantization observers and fake-quantize modules left in
    ``model``: a model prepared for quantization (prepare / prepare_qat / torchao's prepare_pt2e)
    whose convert step never ran. Matched by base class name (torch.ao's and torchao's copies of
    ObserverBase and FakeQuantizeBase)."""
    found = []
    for name, m in model.named_modules():
        bases = {c.__name__ for c in type(m).__mro__}
        if bases & {"ObserverBase", "FakeQuantizeBase"}:
            found.append((name or "(root)", type(m).__name__))
    return found


def check_model(model, spec: str) -> None:
    """Refuse what torch.export cannot capture, or what later stages would fail on with an internal
    error, before it runs. Raises FrontendError(model_error) naming the user's attributes."""
    observers = pending_observers(model)
    if observers:
        shown = ", ".join(f"{n} ({c})" for n, c in observers[:4])
        more = f" and {len(observers) - 4} more" if len(observers) > 4 else ""
        raise FrontendError("model_error", "load",
                            f"'{spec}' still holds quantization observers ({shown}{more}): it was prepared for "
                            "quantization but never converted, so what would be compiled is the calibration "
                            "graph (observers recording ranges), not a quantized model",
                            "run the convert step after calibration (torchao.quantization.pt2e.convert_pt2e for "
                            "prepare_pt2e, torch.ao.quantization.convert for prepare/prepare_qat) in the factory, "
                            "or give the float model and quantize it with the Quantize action (aotstudio-cli quantize)")
    legacy = legacy_quantized_modules(model)
    if legacy:
        shown = ", ".join(f"{n} ({c.rsplit('.', 1)[-1]})" for n, c in legacy[:4])
        more = f" and {len(legacy) - 4} more" if len(legacy) > 4 else ""
        raise FrontendError("model_error", "load",
                            f"'{spec}' holds legacy eager-mode quantized modules ({shown}{more}, from "
                            f"{legacy[0][1].rsplit('.', 2)[0]}): torch.export cannot capture them (their packed "
                            "weights are TorchScript objects)",
                            "give the float model (before prepare/convert) and quantize it with `aotstudio-cli "
                            "quantize` (torchao schemes, int8-static is PT2E), or quantize the exported program "
                            "with PT2E (prepare_pt2e/convert_pt2e)")


def _is_exported_graph_module(model) -> bool:
    return isinstance(model, torch.fx.GraphModule) and (
        "dynamo_flat_name_to_original_fqn" in getattr(model, "meta", {})
        or getattr(model, "_in_spec", None) is not None or hasattr(model, "_graph_signature"))


def eval_mode(model, log):
    """``model`` in eval mode, saying what it did. A GraphModule from ``torch.export(...).module()``
    refuses ``.eval()`` (NotImplementedError): its train/eval switch is
    ``move_exported_model_to_eval`` (torchao's PT2E, else torch.ao.quantization's), applied here.
    A model returned in training mode is noted: dropout and batch-norm statistics differ in eval."""
    modal = (torch.nn.modules.dropout._DropoutNd, torch.nn.modules.batchnorm._NormBase)
    if model.training and not _is_exported_graph_module(model) and any(isinstance(m, modal) for m in model.modules()):
        log("info", f"the model ({type(model).__name__}) came in training mode; it is compiled and measured in eval "
                    "mode (dropout off, batch norm on its running statistics), as torch.export is used for inference")
    try:
        # torchao's allow_exported_model_train_eval() puts an eval() on an exported GraphModule
        # that switches it in place and returns None (not self, as nn.Module.eval does).
        switched = model.eval()
        return model if switched is None else switched
    except NotImplementedError:
        if not isinstance(model, torch.fx.GraphModule):
            raise
    move = None
    try:
        from torchao.quantization.pt2e import move_exported_model_to_eval as move
    except ImportError:
        try:
            from torch.ao.quantization import move_exported_model_to_eval as move
        except ImportError:
            move = None
    if move is None:
        raise FrontendError("model_error", "load",
                            "the model is a GraphModule from torch.export(...).module(), which refuses .eval(), and "
                            "move_exported_model_to_eval is not available",
                            "call torchao.quantization.pt2e.move_exported_model_to_eval(model) in the factory")
    model = move(model)
    log("info", "the model is a GraphModule from torch.export(...).module(), which refuses .eval(): switched to eval "
                "with move_exported_model_to_eval (dropout and batch norm ops rewritten for inference)")
    return model


def forward_mismatch(model, args: tuple, kwargs: dict, error: str = "") -> str:
    """When forward rejected the example: "forward(x, decoder_input_ids=None, ...) needs
    decoder_input_ids, which the example inputs do not give", naming forward's parameters that
    have no default and were not given, and those not given that the ``error`` text names (a
    Hugging Face model's "You have to specify either decoder_input_ids or ..."); "" when none."""
    import re
    info = getattr(model, structured.ATTR, None)
    target = model
    if info is not None:
        args, kwargs = info.rebuild(args)
        target = type("_Original", (), {"forward": staticmethod(info.original_forward)})()
    missing = structured.missing_parameters(target, tuple(args), dict(kwargs))
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", str(error or "")))
    for name in structured.unsupplied_parameters(target, tuple(args), dict(kwargs)):
        if name in words and name not in missing:
            missing.append(name)
    if not missing and isinstance(error, BaseException):
        inner = _inner_forward_missing(error, words)
        if inner:
            return inner
    if not missing:
        return ""
    return f"{structured.signature_text(target)} needs {', '.join(missing)}, which the example inputs do not give"


def _inner_forward_missing(exc: BaseException, words: set) -> str:
    """For an error raised inside a nested module's forward: "WhisperModel.forward(...) was called
    without decoder_input_ids" when a parameter of that forward is None and the error names it."""
    import inspect
    tb = exc.__traceback__
    frames = []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        module = frame.f_locals.get("self")
        if frame.f_code.co_name != "forward" or not isinstance(module, torch.nn.Module):
            continue
        try:
            params = inspect.signature(type(module).forward).parameters
        except (TypeError, ValueError):
            continue
        unset = [n for n in params if n != "self" and n in words and frame.f_locals.get(n, 0) is None]
        if unset:
            return (f"{type(module).__name__}.forward was called without {', '.join(unset)} "
                    f"(its parameters: {structured.signature_text(module)})")
    return ""


def submodule_candidates(model, limit: int = 3) -> list:
    """Paths of sub-modules a user may compile alone (``--submodule``): encoders and decoders
    within two levels, else the top-level children."""
    named = [(n, m) for n, m in model.named_modules() if n and n.count(".") <= 2]
    picked = [n for n, m in named if any(type(m).__name__.endswith(w) for w in ("Encoder", "Decoder"))]
    return (picked or [n for n, _ in named if "." not in n])[:limit]


def draft_report(model, args: tuple, dynamic_shapes, log, limit: int = 8) -> list:
    """Every problem torch.export hits on ``model``, with the user's source line, from
    ``torch.export.draft_export`` (it keeps going past the first failure). Returns ["kind at
    file:line: message"] (at most ``limit``), [] when draft export finds nothing or is unavailable;
    never raises."""
    draft = getattr(torch.export, "draft_export", None)
    if draft is None:
        return []
    try:
        ep = draft(model, tuple(args), dynamic_shapes=dynamic_shapes, strict=False)
    except Exception as exc:  # noqa: BLE001 - a second opinion only
        log("debug", f"draft_export raised {one_line(exc)}")
        return []
    report = getattr(ep, "_report", None)
    failures = getattr(report, "failures", None) or []
    names = getattr(report, "str_to_filename", None) or {}
    out = []
    for f in failures[:limit]:
        kind = getattr(getattr(f, "failure_type", None), "name", "problem").lower().replace("_", " ")
        data = getattr(f, "data", None)
        data = data if isinstance(data, dict) else {}
        where = ""
        for frame in reversed(data.get("user_stack") or []):
            filename = frame.get("filename", "") if isinstance(frame, dict) else ""
            filename = names.get(filename, filename) if isinstance(filename, int) else str(filename)
            if filename and not any(p in filename for p in LIBRARY_PATHS):
                loc = (frame.get("loc") or "").strip()
                where = f"{filename}:{frame.get('line', '?')}" + (f" ({loc})" if loc else "")
                break
        try:
            text = f.print(names)
        except Exception:  # noqa: BLE001 - its own formatting may fail; the kind and line still help
            text = ""
        # The first sentence after the kind line ("we were unable to evaluate the value of ...").
        lines = [l.strip() for l in str(text).splitlines() if l.strip()]
        summary = lines[1] if len(lines) > 1 else (lines[0] if lines else "")
        out.append(f"{kind}{' at ' + where if where else ''}: {summary[:240]}")
    return out


#: Op-name fragments of compute kernels that run in int8/fp8: oneDNN's quantized linear/conv
#: (Inductor's PT2E lowering), packed int8/int4 weight matmuls, int8 and scaled (fp8) matmul.
#: Elementwise quantize/dequantize kernels do not count: they surround fp32 compute too.
_QUANT_KERNEL_HINTS = ("qlinear", "qconv", "int8pack", "int4pack", "_scaled_mm", "_int_mm", "qmatmul",
                       "da8w8", "woq_int")


def quant_nodes(graph) -> int:
    """How many quantize/dequantize nodes ``graph`` (an fx.Graph) holds."""
    count = 0
    for n in graph.nodes:
        if n.op == "call_function":
            name = str(n.target)
            if "quantize_per" in name or "dequantize_per" in name or "quantized_decomposed" in name:
                count += 1
    return count


def quantized_compute(kernel_list: list) -> bool:
    """True when a generated kernel (kernels.json entries) is a quantized compute kernel (by its
    name or library op; see _QUANT_KERNEL_HINTS)."""
    for k in kernel_list:
        text = " ".join(str(k.get(f, "")) for f in ("name", "library_op")).lower()
        if any(h in text for h in _QUANT_KERNEL_HINTS):
            return True
    return False


def failing_fx_node(exc: BaseException):
    """The FX node Inductor was lowering when ``exc`` was raised: the innermost ``n``/``node``
    local of GraphLowering.run_node / call_function (torch/_inductor/graph.py) among the frames of
    ``exc``'s traceback and of the exceptions it wraps. None when Inductor was not lowering a node
    (codegen, the C++ build)."""
    import torch.fx
    found, seen, e = None, set(), exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        tb = e.__traceback__
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename.replace("\\", "/").endswith("_inductor/graph.py") and code.co_name in ("run_node", "call_function"):
                for key in ("n", "node"):
                    value = tb.tb_frame.f_locals.get(key)
                    if isinstance(value, torch.fx.Node):
                        found = value  # the innermost frame wins
            tb = tb.tb_next
        e = e.__cause__ or e.__context__
    return found


def compile_failure_detail(exc: BaseException, program) -> str:
    """"op aten.foo.default at node foo_1 (model.py:12: y = foo(x))" for an Inductor failure: the
    node it was lowering (failing_fx_node(): its own stack trace, so the user's line even when the
    op appears several times), else the op its message names ("target: aten.foo.default",
    torch/_inductor/exc.py's LoweringException) found in the exported ``program``'s graph; "" when
    neither is known."""
    import re
    node = failing_fx_node(exc)
    if node is not None and node.op == "call_function":
        detail = f"op {str(node.target).replace('torch.ops.', '')} at node {node.name}"
        line = user_source_line(node.meta.get("stack_trace") or "")
        if not line and program is not None:  # Inductor's graph copies meta; look it up by name if not
            same = next((m for m in program.graph.nodes if m.name == node.name), None)
            line = user_source_line(same.meta.get("stack_trace") or "") if same is not None else ""
        return detail + (f" ({line})" if line else "")
    text = str(exc)
    m = re.search(r"target:\s*(\S+)", text) or re.search(r"call_function\[target=([^\]]+)\]", text)
    if not m:
        return ""
    op = m.group(1).strip()
    detail = f"op {op}"
    if program is None:
        return detail
    short = op.replace("torch.ops.", "")
    for node in program.graph.nodes:
        if node.op != "call_function":
            continue
        target = str(node.target).replace("torch.ops.", "")
        if target == short or target.rsplit(".", 1)[0] == short.rsplit(".", 1)[0] == short.split(".default")[0]:
            detail += f" at node {node.name}"
            line = user_source_line(node.meta.get("stack_trace") or "")
            if line:
                detail += f" ({line})"
            break
    return detail


def user_source_line(stack_trace: str) -> str:
    """``file:line: code`` of the innermost frame of ``stack_trace`` (an fx node's
    meta["stack_trace"]) outside torch and the studio; "" when there is none."""
    import re
    frames = re.findall(r'File "([^"]+)", line (\d+), in \S+\n\s*(.*)', stack_trace)
    for filename, line, code in reversed(frames):
        if not any(p in filename for p in LIBRARY_PATHS):
            return f"{filename}:{line}: {code.strip()}"
    return ""


def check_outputs(out, spec: str, log) -> None:
    """Refuse, before export and compile, outputs an AOTInductor package cannot return: a
    ``None``, a number or a string among the leaves (the package returns tensors only; a None
    leaf crashed the C++ loader, a number was taken for a compiler mismatch), or a node type
    registered without a serialized name (AOTInductor stores the output structure by that name).
    Unregistered dataclasses in the output are registered, as for inputs (inputs.py).
    Raises FrontendError(model_error) naming the output's path and the fix."""
    import torch.utils._pytree as pytree
    structured._register_dataclasses(out, log)
    try:
        leaves, _ = pytree.tree_flatten_with_path(out)
        paths = [(structured.path_name("output", p), leaf) for p, leaf in leaves]
    except ValueError:
        paths = [(f"output[{i}]", leaf) for i, leaf in enumerate(pytree.tree_leaves(out))]
    for path, leaf in paths:
        if isinstance(leaf, torch.Tensor):
            continue
        what = "None" if leaf is None else f"a {type(leaf).__name__} ({leaf!r:.40})"
        raise FrontendError("model_error", "load",
                            f"forward of '{spec}' returns {what} at {path}: an AOTInductor package returns tensors only",
                            "return only tensors from forward (drop None and constants from the return value, or "
                            "wrap a number in torch.tensor), or compile a wrapper that does")

    def walk(v, depth=0):
        if depth > 32 or isinstance(v, torch.Tensor):
            return
        node = pytree.SUPPORTED_NODES.get(type(v))
        if node is None:
            return
        ser = pytree.SUPPORTED_SERIALIZED_TYPES.get(type(v))
        if ser is None or ser.serialized_type_name == "NO_SERIALIZED_TYPE_NAME_FOUND":
            cls = type(v)
            raise FrontendError("model_error", "load",
                                f"forward of '{spec}' returns a {cls.__qualname__}, registered as a pytree node without a "
                                "serialized type name: AOTInductor's package records the output structure by that name",
                                f"register it with torch.export.register_dataclass({cls.__qualname__}, "
                                f"serialized_type_name=\"{user_module(cls.__module__)}.{cls.__qualname__}\") (or pass "
                                "serialized_type_name to register_pytree_node)")
        for c in node.flatten_fn(v)[0]:
            walk(c, depth + 1)

    walk(out)
