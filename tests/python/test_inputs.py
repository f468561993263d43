# SPDX-License-Identifier: GPL-3.0-or-later
"""Unit tests of the front end's structured inputs (inputs.py) and export doctor (doctor.py):
plain Python, no engine. Run: .venv/bin/python -m unittest discover -s tests/python"""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "core", "python"))

import torch  # noqa: E402
from torch import nn  # noqa: E402

from aotstudio_frontend import doctor, job  # noqa: E402
from aotstudio_frontend import inputs as structured  # noqa: E402
from aotstudio_frontend.errors import FrontendError, one_line  # noqa: E402

FACTORIES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "structured_inputs_factory.py")


def _logs():
    lines = []
    return lines, lambda level, message: lines.append((level, message))


class StructuredInputs(unittest.TestCase):
    def resolve(self, name):
        lines, log = _logs()
        model, flat, _ = job.resolve_model(f"{FACTORIES}:{name}", log)
        return model, flat, lines

    def test_plain_tuple_is_untouched(self):
        model, flat, _ = self.resolve("plain")
        self.assertFalse(hasattr(model, structured.ATTR))
        self.assertEqual(len(flat), 2)
        self.assertEqual(structured.input_names(model, 2), ["x", "y"])

    def test_kwargs_and_nested_pytrees_are_flattened_with_names(self):
        model, flat, _ = self.resolve("nested")
        names = getattr(model, structured.ATTR).names
        self.assertEqual(names, ["x", "pair[0]", "pair[1]", "extra['bias']", "mask"])
        # The adapted forward takes the flat tensors and gives what the original call gave.
        args, kwargs = _nested_call()
        ref = model.__class__.forward(model, *args, **kwargs)
        torch.testing.assert_close(model(*flat), ref)

    def test_unregistered_dataclass_is_registered_with_a_note(self):
        model, flat, lines = self.resolve("dataclass_tensors")
        self.assertEqual(getattr(model, structured.ATTR).names, ["x", "cfg.scale", "cfg.shift"])
        self.assertTrue(any("register_dataclass" in m for _, m in lines))
        program = torch.export.export(model, flat, strict=False)
        placeholders = [n.name for n in program.graph.nodes if n.op == "placeholder"]
        self.assertEqual(placeholders, ["x", "cfg_scale", "cfg_shift"])

    def test_non_tensor_constants_stay_out_of_the_inputs(self):
        model, flat, lines = self.resolve("dataclass_constants")
        self.assertEqual(len(flat), 1)
        self.assertTrue(any("constant" in m for _, m in lines))
        torch.testing.assert_close(model(*flat), flat[0] + 3)

    def test_dict_args_are_keywords(self):
        model, flat, _ = self.resolve("dict_kwargs")
        self.assertEqual(getattr(model, structured.ATTR).names, ["input_ids", "attention_mask"])

    def test_unknown_keyword_names_the_signature(self):
        with self.assertRaises(FrontendError) as ctx:
            self.resolve("bad_keyword")
        self.assertIn("forward(", ctx.exception.message)
        self.assertIn("colour", ctx.exception.message)

    def test_object_hiding_tensors_is_refused_with_the_fix(self):
        with self.assertRaises(FrontendError) as ctx:
            self.resolve("opaque_holder")
        self.assertIn("Holder", ctx.exception.message)
        self.assertIn("register_pytree_node", ctx.exception.hint)

    def test_structured_dynamic_shapes_become_per_input(self):
        model, flat, _ = self.resolve("nested_dynamic")
        specs = model._aotstudio_dynamic_shapes
        self.assertEqual(len(specs), len(flat))
        self.assertIn(0, specs[0])      # x: batch
        self.assertIsNone(specs[1])     # pair[0]: static
        self.assertIn(0, specs[-1])     # mask (keyword): batch

    def test_mismatched_dynamic_shapes_are_refused(self):
        with self.assertRaises(FrontendError) as ctx:
            self.resolve("nested_bad_dynamic")
        self.assertIn("dynamic_shapes", ctx.exception.message)

    def test_submodule_gets_the_inputs_it_was_called_with(self):
        lines, log = _logs()
        model, flat, _ = job.resolve_model(f"{FACTORIES}:encoder_decoder#decoder", log)
        self.assertIsInstance(model, nn.Linear)
        self.assertEqual(list(flat[0].shape), [2, 8])  # the encoder's output after relu

    def test_missing_submodule_lists_close_names(self):
        with self.assertRaises(FrontendError) as ctx:
            job.resolve_model(f"{FACTORIES}:encoder_decoder#encodr")
        self.assertIn("encoder", ctx.exception.message)

    def test_named_dynamic_dimension_resolves_to_its_index(self):
        out = tempfile.mkdtemp()
        lines, log = _logs()
        j = job.CompileJob({"model": f"{FACTORIES}:dict_kwargs", "out": out, "dynamic": ["attention_mask:1"]}, log)
        j.load()
        self.assertEqual([d[:2] for d in j.dynamic], [(1, 1)])
        j.close()
        j = job.CompileJob({"model": f"{FACTORIES}:dict_kwargs", "out": out, "dynamic": ["attn_mask:1"]}, log)
        with self.assertRaises(FrontendError) as ctx:
            j.load()
        self.assertIn("attention_mask", ctx.exception.message)
        j.close()


def _nested_call():
    torch.manual_seed(0)
    return (torch.randn(2, 3), (torch.randn(3), torch.randn(3)), {"bias": torch.randn(3)}), {"mask": torch.ones(2, 3)}


class Doctor(unittest.TestCase):
    def test_legacy_quantized_modules_are_named_before_export(self):
        from torch.ao.quantization import DeQuantStub, QuantStub, convert, get_default_qconfig, prepare

        class Tiny(nn.Module):
            def __init__(self):
                super().__init__()
                self.quant, self.fc, self.dequant = QuantStub(), nn.Linear(4, 4), DeQuantStub()

            def forward(self, x):
                return self.dequant(self.fc(self.quant(x)))

        m = Tiny().eval()
        m.qconfig = get_default_qconfig("x86")
        prepare(m, inplace=True)
        m(torch.randn(8, 4))
        convert(m, inplace=True)
        with self.assertRaises(FrontendError) as ctx:
            doctor.check_model(m, "tiny")
        self.assertIn("fc", ctx.exception.message)
        self.assertIn("quantize", ctx.exception.hint)
        doctor.check_model(Tiny().eval(), "float")  # the float model passes

    def test_exported_graph_module_is_switched_to_eval(self):
        gm = torch.export.export(nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5)), (torch.randn(2, 4),)).module()
        lines, log = _logs()
        model = doctor.eval_mode(gm, log)
        self.assertTrue(any("move_exported_model_to_eval" in m for _, m in lines))
        x = torch.randn(2, 4)
        torch.testing.assert_close(model(x), model(x))  # dropout off

    def test_prepared_but_not_converted_is_refused_at_load(self):
        # Issue 34: a step before conversion left in the model fails here, naming its attribute,
        # not later as an internal error of decompose or Inductor.
        from torch.ao.quantization import get_default_qconfig, prepare

        class Tiny(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)

            def forward(self, x):
                return self.fc(x)

        m = Tiny().eval()
        m.qconfig = get_default_qconfig("x86")
        prepare(m, inplace=True)
        self.assertTrue(doctor.pending_observers(m))
        with self.assertRaises(FrontendError) as ctx:
            doctor.check_model(m, "tiny")
        self.assertIn("fc.activation_post_process", ctx.exception.message)
        self.assertIn("never converted", ctx.exception.message)
        self.assertIn("convert", ctx.exception.hint)
        self.assertEqual(doctor.pending_observers(Tiny()), [])

    def test_lowering_failure_names_the_nodes_source_line(self):
        # Issue 34: a lowering failure's one line names the node Inductor was lowering and the
        # user's line from its stack trace, found in the traceback's run_node frame (here a
        # stand-in compiled under Inductor's file name), even when the op appears twice.
        program = torch.export.export(nn.Sequential(nn.ReLU(), nn.Linear(4, 4), nn.ReLU()), (torch.randn(2, 4),))
        second = [n for n in program.graph.nodes if n.op == "call_function" and "relu" in str(n.target)][-1]
        second.meta["stack_trace"] = 'File "/home/u/model.py", line 12, in forward\n    y = torch.relu(h)\n'
        scope = {}
        exec(compile("def run_node(n):\n    raise RuntimeError('LoweringException: boom target: aten.relu.default')\n",
                     "/venv/site-packages/torch/_inductor/graph.py", "exec"), scope)
        try:
            try:
                scope["run_node"](second)
            except RuntimeError as inner:
                raise ValueError("InductorError: wrapped") from inner
        except ValueError as exc:
            detail = doctor.compile_failure_detail(exc, program)
        self.assertEqual(detail, f"op aten.relu.default at node {second.name} (/home/u/model.py:12: y = torch.relu(h))")

    def test_messages_name_the_users_module(self):
        # A factory file is imported under a synthetic unique module name; messages name the file's
        # own module (issue 34: a hint read "aotstudio_user_8861...Pair").
        import tempfile
        from aotstudio_frontend import errors, models
        folder = tempfile.mkdtemp()
        path = os.path.join(folder, "my_model.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write("import torch\nclass Tiny(torch.nn.Module):\n    def forward(self, x):\n        return x\n"
                    "def make():\n    return Tiny(), (torch.randn(2),)\n")
        (model, _inputs), _path = models._load_factory(path + ":make")
        self.assertTrue(type(model).__module__.startswith("aotstudio_user_"))
        self.assertEqual(errors.user_module(type(model).__module__), "my_model")
        self.assertEqual(errors.user_module("torch.nn"), "torch.nn")

    def test_eval_that_returns_none_keeps_the_model(self):
        # torchao's allow_exported_model_train_eval() gives an exported GraphModule an eval() that
        # switches in place and returns None (shared case c17 crashed on "'NoneType' object has no
        # attribute 'to'").
        gm = torch.export.export(nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5)), (torch.randn(2, 4),)).module()
        try:
            from torchao.quantization.pt2e import allow_exported_model_train_eval
        except ImportError:
            self.skipTest("torchao is not installed")
        allow_exported_model_train_eval(gm)
        lines, log = _logs()
        model = doctor.eval_mode(gm, log)
        self.assertIs(model, gm)
        x = torch.randn(2, 4)
        torch.testing.assert_close(model(x), model(x))  # dropout off

    def test_forward_mismatch_names_the_missing_parameter(self):
        class EncDec(nn.Module):
            def forward(self, features, decoder_ids, scale=1.0):
                return features

        text = doctor.forward_mismatch(EncDec(), (torch.randn(2),), {})
        self.assertIn("decoder_ids", text)
        self.assertNotIn("scale,", text.split("needs")[-1])

    def test_quantized_compute_looks_at_compute_kernels_only(self):
        fp32 = [{"name": "cpp_fused_dequantize_per_tensor_quantize_per_tensor_0", "kind": "cpp"},
                {"name": "aoti_torch_cpu_addmm_out", "kind": "library", "library_op": "addmm_out"}]
        int8 = fp32 + [{"name": "aoti_torch_cpu__qlinear_pointwise_tensor", "kind": "library",
                        "library_op": "_qlinear_pointwise_tensor"}]
        self.assertFalse(doctor.quantized_compute(fp32))
        self.assertTrue(doctor.quantized_compute(int8))

    def test_compile_failure_detail_names_op_node_and_line(self):
        class M(nn.Module):
            def forward(self, x):
                return torch.sin(x) + 1

        program = torch.export.export(M(), (torch.randn(3),))
        detail = doctor.compile_failure_detail(RuntimeError("LoweringException: boom\n  target: aten.sin.default\n"),
                                               program)
        self.assertIn("aten.sin.default", detail)
        self.assertIn("at node sin", detail)
        self.assertIn("test_inputs.py", detail)

    def test_one_line_is_never_empty(self):
        try:
            raise NotImplementedError(".")
        except NotImplementedError as exc:
            text = one_line(exc)
        self.assertIn("no message", text)
        self.assertIn("test_one_line_is_never_empty", text)




class RepeatedBlocks(unittest.TestCase):
    def test_outermost_identical_instances_form_a_group(self):
        from aotstudio_frontend import regional
        sys.path.insert(0, os.path.dirname(FACTORIES))
        import repeated_blocks_factory as f
        model, _ = f.make()
        groups = regional.find_repeated_blocks(model)
        self.assertEqual([g.class_name for g in groups], ["Block"])  # not its LayerNorm or Linear
        self.assertEqual(groups[0].paths, ["blocks.0", "blocks.1", "blocks.2", "blocks.3"])
        single, _ = f.make_single()
        self.assertEqual(regional.find_repeated_blocks(single), [])

    def test_declared_repeated_blocks_win(self):
        from aotstudio_frontend import regional
        model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 4), nn.Sequential(nn.Linear(4, 4)), nn.Sequential(nn.Linear(4, 4)))
        model._repeated_blocks = ["Sequential"]
        self.assertEqual([g.paths for g in regional.find_repeated_blocks(model)], [["2", "3"]])

    def test_verify_marks_each_output_passed(self):
        # The regional verify without a compile: the "compiled" forward is eager itself, then eager
        # with one output nudged past the tolerance.
        import types
        from aotstudio_frontend import regional
        model = nn.Linear(4, 3).eval()
        r = regional.Regional.__new__(regional.Regional)
        r.job = types.SimpleNamespace(model=model, inputs=(torch.randn(2, 4),), tolerance=1e-3)
        r._patch = lambda on: None
        result = r.verify()
        self.assertEqual([o["passed"] for o in result["outputs"]], [True])
        self.assertEqual(result["outputs"][0]["name"], "output")

        def nudge(on):
            model.bias.data += 0.5 if on else -0.5
        r._patch = nudge
        with self.assertRaises(FrontendError) as ctx:
            r.verify()
        self.assertEqual(ctx.exception.code, "mismatch")

    def test_different_shapes_are_different_blocks(self):
        from aotstudio_frontend import regional
        model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 8), nn.Linear(8, 8))
        self.assertEqual(regional.find_repeated_blocks(model), [])



class Decompose(unittest.TestCase):
    def test_a_program_torch_cannot_decompose_is_compiled_anyway(self):
        # The core ATen stage is for inspection: its failure (HF GPT-2 in the pinned torch) is a
        # warning and a "skipped" reason, never a failed compile.
        class Program:
            def run_decompositions(self):
                raise ValueError("Cannot view a tensor with shape torch.Size([2, 16, 32]) as (32, 32)!")

        logged = []
        j = job.CompileJob.__new__(job.CompileJob)
        j.program, j.spec = Program(), "hf:/models/gpt2"
        j.log = lambda level, message: logged.append((level, message))
        result = j.decompose()
        self.assertIn("Cannot view a tensor", result["skipped"])
        self.assertIn("hf:/models/gpt2", result["skipped"])
        self.assertEqual(result["non_core_ops"], [])
        self.assertNotIn("nodes", result)
        self.assertEqual([level for level, _ in logged], ["warning"])
        self.assertIn("the compile goes on", logged[0][1])


class Cancel(unittest.TestCase):
    def test_a_stop_request_ends_the_compile_at_the_next_pass(self):
        polled = []

        def should_stop():
            polled.append(1)
            return len(polled) > 1  # the first pass runs, the second is refused

        out = tempfile.mkdtemp()
        j = job.CompileJob({"model": f"{FACTORIES}:plain", "out": out, "snapshots": False}, lambda l, m: None, None,
                           should_stop)
        j.load()
        j.export()
        with self.assertRaises(FrontendError) as ctx:
            j.compile()
        self.assertEqual(ctx.exception.code, "cancelled")
        self.assertFalse(os.path.exists(os.path.join(out, "model.pt2")))
        j.close()


class OutputNames(unittest.TestCase):
    def test_outputs_are_named_by_their_path(self):
        from aotstudio_frontend import verify
        names = [n for n, _ in verify.named_tensors({"logits": torch.ones(1), "hidden": (torch.ones(1), torch.ones(2))})]
        self.assertEqual(names, ["logits", "hidden.0", "hidden.1"])
        self.assertEqual([n for n, _ in verify.named_tensors(torch.ones(1))], ["output"])

    def test_a_node_without_keyed_flatten_is_named_by_position(self):
        import torch.utils._pytree as pt
        from aotstudio_frontend import verify

        class Pair:
            def __init__(self, a, b):
                self.a, self.b = a, b

        pt.register_pytree_node(Pair, lambda p: ([p.a, p.b], None), lambda c, _ctx: Pair(*c))
        try:
            self.assertEqual([n for n, _ in verify.named_tensors(Pair(torch.ones(1), torch.ones(2)))], ["0", "1"])
        finally:
            pt._deregister_pytree_node(Pair)


class NestedRepeats(unittest.TestCase):
    def test_layers_inside_chosen_blocks_are_not_blocks_of_their_own(self):
        from aotstudio_frontend import regional

        class Blk(nn.Module):
            def __init__(self):
                super().__init__()
                self.ln = nn.LayerNorm(4)
                self.fc = nn.Linear(4, 4)

        model = nn.Sequential(Blk(), Blk(), Blk(), nn.LayerNorm(4))  # one LayerNorm outside the blocks
        groups = regional.find_repeated_blocks(model)
        self.assertEqual([(g.class_name, g.paths) for g in groups], [("Blk", ["0", "1", "2"])])


class BatchedInputs(unittest.TestCase):
    def test_inputs_without_the_batch_keep_their_size_in_a_bucket(self):
        self.assertEqual(job.batched_inputs((torch.ones(2, 3), torch.ones(3), torch.ones(2, 5), torch.ones(()))),
                         [True, False, True, False])
        out = tempfile.mkdtemp()
        j = job.CompileJob({"model": f"{FACTORIES}:dataclass_tensors", "out": out, "batch": 4}, lambda l, m: None)
        r = j.load()
        self.assertEqual([i["shape"] for i in r["inputs"]], [[4, 3], [3], [3]])
        self.assertEqual([i["batched"] for i in r["inputs"]], [True, False, False])
        j.close()

if __name__ == "__main__":
    unittest.main()
