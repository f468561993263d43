# SPDX-License-Identifier: GPL-3.0-or-later
"""Unit tests of the model sources (sources.py): hf: folders and the local hub cache, timm: and
torchvision: names, the example inputs built from configs, and the one-line errors. Tiny configs
written to temporary folders; nothing is downloaded. Run:
.venv/bin/python -m unittest discover -s tests/python -p test_sources.py"""

import json
import os
import shutil
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "core", "python"))

import torch  # noqa: E402

from aotstudio_frontend import job, sources, verify  # noqa: E402
from aotstudio_frontend import inputs as structured  # noqa: E402
from aotstudio_frontend.errors import FrontendError  # noqa: E402


def _logs():
    lines = []
    return lines, lambda level, message: lines.append((level, message))


def _tiny_bert():
    from transformers import BertConfig
    return BertConfig(vocab_size=50, hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                      intermediate_size=32, max_position_embeddings=64)


class Fixture(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.root = tempfile.mkdtemp(prefix="aotstudio-sources-")
        cls.bert = os.path.join(cls.root, "bert")
        _tiny_bert().save_pretrained(cls.bert)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root, ignore_errors=True)

    def resolve(self, spec):
        lines, log = _logs()
        model, flat, _ = job.resolve_model(spec, log)
        names = structured.input_names(model, len(flat))
        return model, flat, names, lines

    def assertFails(self, spec, code, *words):
        with self.assertRaises(FrontendError) as caught:
            job.resolve_model(spec, lambda level, message: None)
        err = caught.exception
        self.assertEqual(err.code, code, err.message)
        self.assertEqual(err.stage, "load")
        self.assertNotIn("\n", err.message)
        self.assertTrue(err.hint)
        for w in words:
            self.assertIn(w, err.message + " | " + err.hint)
        return err


class SpecSyntax(unittest.TestCase):
    def test_options_are_parsed(self):
        self.assertEqual(sources.parse("hf:some/dir?class=AutoModel&batch=4&seq=128"),
                         ("hf", "some/dir", {"class": "AutoModel", "batch": 4, "seq": 128}))
        self.assertEqual(sources.parse("timm:resnet50"), ("timm", "resnet50", {}))

    def test_unknown_option_and_bad_number(self):
        with self.assertRaises(FrontendError) as caught:
            sources.parse("hf:dir?bach=4")
        self.assertIn("did you mean 'batch'", caught.exception.hint)
        with self.assertRaises(FrontendError) as caught:
            sources.parse("timm:resnet50?size=0")
        self.assertEqual(caught.exception.code, "bad_request")


class HuggingFace(Fixture):
    def test_folder_gives_named_token_inputs_within_the_vocabulary(self):
        model, flat, names, lines = self.resolve("hf:" + self.bert)
        self.assertEqual(type(model).__name__, "BertModel")  # no architectures saved: AutoModel
        self.assertEqual(names, ["input_ids", "attention_mask"])
        self.assertEqual([list(t.shape) for t in flat], [[2, 16], [2, 16]])
        self.assertTrue(0 <= int(flat[0].min()) and int(flat[0].max()) < 50)
        self.assertTrue(any("random weights" in m for _, m in lines))
        out = model(*flat)
        self.assertEqual(list(out.last_hidden_state.shape), [2, 16, 16])

    def test_class_batch_and_seq_options(self):
        model, flat, _, _ = self.resolve(f"hf:{self.bert}?class=AutoModelForSequenceClassification&batch=3&seq=8")
        self.assertEqual(type(model).__name__, "BertForSequenceClassification")
        self.assertEqual([list(t.shape) for t in flat], [[3, 8], [3, 8]])
        model, _, _, _ = self.resolve(f"hf:{self.bert}?class=BertForMaskedLM")
        self.assertEqual(type(model).__name__, "BertForMaskedLM")

    def test_unknown_class_lists_close_names(self):
        self.assertFails(f"hf:{self.bert}?class=AutoModelForSequenceClasification", "unknown_model",
                         "AutoModelForSequenceClassification")

    def test_weights_in_the_folder_are_loaded(self):
        from transformers import BertModel
        folder = os.path.join(self.root, "bert-weights")
        torch.manual_seed(1)
        reference = BertModel(_tiny_bert())
        reference.save_pretrained(folder)
        model, _, _, lines = self.resolve("hf:" + folder)
        self.assertTrue(any("with its weights" in m for _, m in lines))
        torch.testing.assert_close(model.embeddings.word_embeddings.weight,
                                   reference.embeddings.word_embeddings.weight)

    def test_vision_and_encoder_decoder_inputs(self):
        from transformers import T5Config, ViTConfig
        vit = os.path.join(self.root, "vit")
        ViTConfig(image_size=24, patch_size=8, num_channels=1, hidden_size=16, num_hidden_layers=1,
                  num_attention_heads=2, intermediate_size=32).save_pretrained(vit)
        _, flat, names, _ = self.resolve(f"hf:{vit}?batch=1")
        self.assertEqual(names, ["pixel_values"])
        self.assertEqual(list(flat[0].shape), [1, 1, 24, 24])
        t5 = os.path.join(self.root, "t5")
        T5Config(vocab_size=40, d_model=16, d_kv=8, d_ff=32, num_layers=1, num_heads=2).save_pretrained(t5)
        _, flat, names, _ = self.resolve(f"hf:{t5}?class=T5ForConditionalGeneration&seq=4")
        self.assertEqual(names, ["input_ids", "attention_mask", "decoder_input_ids"])
        _, _, names, _ = self.resolve(f"hf:{t5}?class=T5EncoderModel")
        self.assertEqual(names, ["input_ids", "attention_mask"])

    def test_decoder_runs_without_a_cache(self):
        from transformers import GPT2Config
        folder = os.path.join(self.root, "gpt2")
        GPT2Config(vocab_size=40, n_embd=16, n_layer=1, n_head=2, n_positions=32).save_pretrained(folder)
        model, flat, names, lines = self.resolve(f"hf:{folder}?class=AutoModelForCausalLM")
        self.assertEqual(names, ["input_ids", "attention_mask"])
        self.assertTrue(any("use_cache=False" in m for _, m in lines))
        out = model(*flat)
        self.assertIsNone(getattr(out, "past_key_values", None))
        self.assertEqual(list(out.logits.shape), [2, 16, 40])

    def test_diffusers_unet_gets_latents_timestep_and_text(self):
        import diffusers
        folder = os.path.join(self.root, "unet")
        diffusers.UNet2DConditionModel(
            sample_size=8, in_channels=4, out_channels=4, layers_per_block=1, block_out_channels=(16, 32),
            down_block_types=("CrossAttnDownBlock2D", "DownBlock2D"),
            up_block_types=("UpBlock2D", "CrossAttnUpBlock2D"),
            cross_attention_dim=16, attention_head_dim=8, norm_num_groups=8).save_config(folder)
        model, flat, names, _ = self.resolve(f"hf:{folder}?seq=5")
        self.assertEqual(names, ["sample", "timestep", "encoder_hidden_states"])
        self.assertEqual([list(t.shape) for t in flat], [[2, 4, 8, 8], [2], [2, 5, 16]])
        with torch.inference_mode():
            out = model(*flat)
        # Outputs are named by their fields (verify, reports): diffusers' output class is keyed.
        self.assertEqual([(n, list(t.shape)) for n, t in verify.named_tensors(out)], [("sample", [2, 4, 8, 8])])

    def test_model_id_resolves_from_the_local_cache_only(self):
        cache = os.path.join(self.root, "hub")
        snapshot = os.path.join(cache, "models--acme--tiny-bert", "snapshots", "0" * 40)
        os.makedirs(os.path.join(cache, "models--acme--tiny-bert", "refs"))
        with open(os.path.join(cache, "models--acme--tiny-bert", "refs", "main"), "w") as f:
            f.write("0" * 40)
        _tiny_bert().save_pretrained(snapshot)
        from huggingface_hub import constants
        with mock.patch.object(constants, "HF_HUB_CACHE", cache):
            model, _, names, _ = self.resolve("hf:acme/tiny-bert")
            self.assertEqual(type(model).__name__, "BertModel")
            err = self.assertFails("hf:acme/not-there", "unknown_model", cache, "nothing is downloaded")
            self.assertIn("acme/not-there", err.message)

    def test_folder_without_config_says_where_it_looked(self):
        empty = os.path.join(self.root, "empty")
        os.makedirs(empty, exist_ok=True)
        self.assertFails("hf:" + empty, "unknown_model", os.path.abspath(empty), "config.json")
        self.assertFails("hf:" + os.path.join(self.root, "missing"), "unknown_model", "does not exist")

    def test_pipeline_folder_names_its_components(self):
        pipe = os.path.join(self.root, "pipe")
        os.makedirs(os.path.join(pipe, "unet"), exist_ok=True)
        with open(os.path.join(pipe, "model_index.json"), "w") as f:
            json.dump({"_class_name": "StableDiffusionPipeline"}, f)
        with open(os.path.join(pipe, "unet", "config.json"), "w") as f:
            json.dump({"_class_name": "UNet2DConditionModel"}, f)
        self.assertFails("hf:" + pipe, "unknown_model", "pipeline", os.path.join(pipe, "unet"))

    def test_unknown_architecture(self):
        folder = os.path.join(self.root, "alien")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "config.json"), "w") as f:
            json.dump({"model_type": "no-such-arch", "hidden_size": 8}, f)
        self.assertFails("hf:" + folder, "model_error", "does not know", "no-such-arch")

    def test_forward_without_known_inputs(self):
        class Odd(torch.nn.Module):
            def forward(self, foo, bar):
                return foo + bar
        with self.assertRaises(FrontendError) as caught:
            sources.example_inputs(Odd(), {})
        self.assertIn("forward(foo, bar)", caught.exception.message)


class ImageLibraries(Fixture):
    def test_timm_model_with_size_and_local_weights(self):
        model, flat, names, lines = self.resolve("timm:resnet18?size=32&batch=1")
        self.assertEqual(names, ["x"])
        self.assertEqual(list(flat[0].shape), [1, 3, 32, 32])
        self.assertTrue(any("random weights" in m for _, m in lines))
        path = os.path.join(self.root, "resnet18.pth")
        torch.save(model.state_dict(), path)
        model2, _, _, lines = self.resolve(f"timm:resnet18?size=32&weights={path}")
        self.assertTrue(any(path in m for _, m in lines))
        torch.testing.assert_close(model2.conv1.weight, model.conv1.weight)

    def test_torchvision_model_uses_its_crop_size(self):
        _, flat, names, _ = self.resolve("torchvision:resnet18")
        self.assertEqual(names, ["x"])
        self.assertEqual(list(flat[0].shape), [2, 3, 224, 224])

    def test_unknown_names_list_close_ones(self):
        self.assertFails("timm:resnet5O", "unknown_model", "resnet50")
        self.assertFails("torchvision:resnet181", "unknown_model", "resnet18")

    def test_unsupported_and_misused(self):
        self.assertFails("torchvision:fasterrcnn_resnet50_fpn", "model_error", "list of images")
        self.assertFails("timm:resnet18?class=AutoModel", "bad_request")
        self.assertFails("timm:resnet18?weights=/nonexistent/w.pth", "unknown_model", "does not exist")


if __name__ == "__main__":
    unittest.main()
